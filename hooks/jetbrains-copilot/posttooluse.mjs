#!/usr/bin/env node
// jetbrains-copilot posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("jetbrains-copilot", "posttooluse")
