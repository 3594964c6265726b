#!/usr/bin/env node
// claude-code pretooluse hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "pretooluse")
