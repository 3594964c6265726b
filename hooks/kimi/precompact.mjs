#!/usr/bin/env node
// kimi precompact hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kimi', 'precompact')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kimi', 'precompact')
}
