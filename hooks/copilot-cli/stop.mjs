#!/usr/bin/env node
// copilot-cli stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "stop")
