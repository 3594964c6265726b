#!/usr/bin/env node
// codex posttooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('codex', 'posttooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'codex', 'posttooluse')
}
