#!/usr/bin/env node
// kimi sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "sessionstart")
