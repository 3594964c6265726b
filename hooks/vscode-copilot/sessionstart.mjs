#!/usr/bin/env node
// vscode-copilot sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("vscode-copilot", "sessionstart")
