#!/usr/bin/env node
// cursor beforesubmitprompt hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('cursor', 'beforesubmitprompt')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'cursor', 'beforesubmitprompt')
}
