#!/usr/bin/env node
// gemini-cli sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "sessionstart")
