#!/usr/bin/env node
// antigravity-cli posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("antigravity-cli", "posttooluse")
