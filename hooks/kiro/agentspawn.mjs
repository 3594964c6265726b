#!/usr/bin/env node
// kiro agentspawn hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kiro", "agentspawn")
