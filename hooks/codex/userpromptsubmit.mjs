#!/usr/bin/env node
// codex userpromptsubmit hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "userpromptsubmit")
