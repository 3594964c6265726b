#!/usr/bin/env node
// jetbrains-copilot sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("jetbrains-copilot", "sessionstart")
