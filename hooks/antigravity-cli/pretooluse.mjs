#!/usr/bin/env node
// antigravity-cli pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("antigravity-cli", "pretooluse")
