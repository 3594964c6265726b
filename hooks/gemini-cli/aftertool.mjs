#!/usr/bin/env node
// gemini-cli aftertool hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('gemini-cli', 'aftertool')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'gemini-cli', 'aftertool')
}
