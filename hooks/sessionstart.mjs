#!/usr/bin/env node
// claude-code sessionstart hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "sessionstart")
