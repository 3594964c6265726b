#!/usr/bin/env node
// kimi sessionend hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "sessionend")
