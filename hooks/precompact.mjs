#!/usr/bin/env node
// claude-code precompact hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "precompact")
