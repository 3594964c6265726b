#!/usr/bin/env node
// claude-code userpromptsubmit hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('./native.cjs').runHook('claude-code', 'userpromptsubmit')
} catch (err) {
  ;(await import('./run-hook.mjs')).hookFailed(err, 'claude-code', 'userpromptsubmit')
}
