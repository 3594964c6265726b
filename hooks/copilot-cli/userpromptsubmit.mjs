#!/usr/bin/env node
// copilot-cli userpromptsubmit hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("copilot-cli", "userpromptsubmit")
