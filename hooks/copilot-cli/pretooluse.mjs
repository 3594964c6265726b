#!/usr/bin/env node
// copilot-cli pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "pretooluse")
