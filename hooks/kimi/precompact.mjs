#!/usr/bin/env node
// kimi precompact hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "precompact")
