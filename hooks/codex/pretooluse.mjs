#!/usr/bin/env node
// codex pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "pretooluse")
