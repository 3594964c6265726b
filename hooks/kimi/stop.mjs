#!/usr/bin/env node
// kimi stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "stop")
