#!/usr/bin/env node
// kimi pretooluse hook: see run-hook.mjs.
import { runHook } from "../run-hook.mjs"
runHook("kimi", "pretooluse")
