#!/usr/bin/env node
// claude-code pretooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('./native.cjs').runHook('claude-code', 'pretooluse')
} catch (err) {
  ;(await import('./run-hook.mjs')).hookFailed(err, 'claude-code', 'pretooluse')
}
