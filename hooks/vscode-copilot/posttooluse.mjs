#!/usr/bin/env node
// vscode-copilot posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("vscode-copilot", "posttooluse")
