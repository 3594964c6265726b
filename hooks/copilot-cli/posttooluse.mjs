#!/usr/bin/env node
// copilot-cli posttooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('copilot-cli', 'posttooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'copilot-cli', 'posttooluse')
}
