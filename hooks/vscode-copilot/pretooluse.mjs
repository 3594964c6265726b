#!/usr/bin/env node
// vscode-copilot pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("vscode-copilot", "pretooluse")
