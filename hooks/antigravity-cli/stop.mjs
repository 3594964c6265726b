#!/usr/bin/env node
// antigravity-cli stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("antigravity-cli", "stop")
