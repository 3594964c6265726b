#!/usr/bin/env node
// cursor pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("cursor", "pretooluse")
