#!/usr/bin/env node
// kiro posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kiro", "posttooluse")
