#!/usr/bin/env node
// qwen-code stop hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('qwen-code', 'stop')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'qwen-code', 'stop')
}
