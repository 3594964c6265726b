#!/usr/bin/env node
// kimi sessionend hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kimi', 'sessionend')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kimi', 'sessionend')
}
