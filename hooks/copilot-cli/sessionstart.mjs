#!/usr/bin/env node
// copilot-cli sessionstart hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('copilot-cli', 'sessionstart')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'copilot-cli', 'sessionstart')
}
