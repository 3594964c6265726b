#!/usr/bin/env node
// copilot-cli sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "sessionstart")
