#!/usr/bin/env node
// codex stop hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "stop")
