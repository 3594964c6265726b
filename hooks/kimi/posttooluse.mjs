#!/usr/bin/env node
// kimi posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "posttooluse")
