#!/usr/bin/env node
// kimi userpromptsubmit hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kimi', 'userpromptsubmit')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kimi', 'userpromptsubmit')
}
