#!/usr/bin/env node
// vscode-copilot precompact hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("vscode-copilot", "precompact")
