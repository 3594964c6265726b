#!/usr/bin/env node
// codex sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "sessionstart")
