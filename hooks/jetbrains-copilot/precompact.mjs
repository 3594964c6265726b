#!/usr/bin/env node
// jetbrains-copilot precompact hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("jetbrains-copilot", "precompact")
