#!/usr/bin/env node
// qwen-code stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("qwen-code", "stop")
