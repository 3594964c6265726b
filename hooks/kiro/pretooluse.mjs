#!/usr/bin/env node
// kiro pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kiro", "pretooluse")
