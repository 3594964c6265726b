#!/usr/bin/env node
// kiro userpromptsubmit hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kiro', 'userpromptsubmit')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kiro', 'userpromptsubmit')
}
