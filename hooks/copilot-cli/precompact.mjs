#!/usr/bin/env node
// copilot-cli precompact hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "precompact")
