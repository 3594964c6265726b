#!/usr/bin/env node
// copilot-cli pretooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('copilot-cli', 'pretooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'copilot-cli', 'pretooluse')
}
