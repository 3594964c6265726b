#!/usr/bin/env node
// kimi userpromptsubmit hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "userpromptsubmit")
