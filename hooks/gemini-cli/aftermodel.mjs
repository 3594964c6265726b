#!/usr/bin/env node
// gemini-cli aftermodel hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "aftermodel")
