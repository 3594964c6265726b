#!/usr/bin/env node
// gemini-cli beforetool hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "beforetool")
