#!/usr/bin/env node
// codex posttooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "posttooluse")
