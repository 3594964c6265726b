#!/usr/bin/env node
// codex pretooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('codex', 'pretooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'codex', 'pretooluse')
}
