#!/usr/bin/env node
// gemini-cli precompress hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "precompress")
