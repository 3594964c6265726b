#!/usr/bin/env node
// cursor sessionstart hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("cursor", "sessionstart")
