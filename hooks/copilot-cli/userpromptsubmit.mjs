#!/usr/bin/env node
// copilot-cli userpromptsubmit hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('copilot-cli', 'userpromptsubmit')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'copilot-cli', 'userpromptsubmit')
}
