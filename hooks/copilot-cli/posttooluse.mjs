#!/usr/bin/env node
// copilot-cli posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "posttooluse")
