#!/usr/bin/env node
// cursor stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("cursor", "stop")
