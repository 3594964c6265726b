#!/usr/bin/env node
// codex sessionstart hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('codex', 'sessionstart')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'codex', 'sessionstart')
}
