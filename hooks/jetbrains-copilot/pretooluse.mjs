#!/usr/bin/env node
// jetbrains-copilot pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("jetbrains-copilot", "pretooluse")
