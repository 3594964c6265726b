#!/usr/bin/env node
// claude-code stop hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('./native.cjs').runHook('claude-code', 'stop')
} catch (err) {
  ;(await import('./run-hook.mjs')).hookFailed(err, 'claude-code', 'stop')
}
