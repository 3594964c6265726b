#!/usr/bin/env node
// claude-code sessionstart hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('./native.cjs').runHook('claude-code', 'sessionstart')
} catch (err) {
  ;(await import('./run-hook.mjs')).hookFailed(err, 'claude-code', 'sessionstart')
}
