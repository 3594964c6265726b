#!/usr/bin/env node
// gemini-cli aftertool hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("gemini-cli", "aftertool")
