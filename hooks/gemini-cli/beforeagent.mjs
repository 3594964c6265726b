#!/usr/bin/env node
// gemini-cli beforeagent hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "beforeagent")
