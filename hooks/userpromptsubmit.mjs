#!/usr/bin/env node
// claude-code userpromptsubmit hook: see run-hook.mjs.
import { runHook } from "./run-hook.mjs"
runHook("claude-code", "userpromptsubmit")
