#!/usr/bin/env node
// kiro userpromptsubmit hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kiro", "userpromptsubmit")
