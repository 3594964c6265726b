#!/usr/bin/env node
// antigravity-cli posttooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('antigravity-cli', 'posttooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'antigravity-cli', 'posttooluse')
}
