#!/usr/bin/env node
// claude-code stop hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "stop")
