#!/usr/bin/env node
// claude-code posttooluse hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "posttooluse")
