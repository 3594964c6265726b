#!/usr/bin/env node
// cursor posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("cursor", "posttooluse")
