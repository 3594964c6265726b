#!/usr/bin/env node
// gemini-cli aftermodel hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('gemini-cli', 'aftermodel')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'gemini-cli', 'aftermodel')
}
