#!/usr/bin/env node
// cursor afteragentresponse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("cursor", "afteragentresponse")
