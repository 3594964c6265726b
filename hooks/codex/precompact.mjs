#!/usr/bin/env node
// codex precompact hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("codex", "precompact")
