#!/usr/bin/env node
// codex precompact hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('codex', 'precompact')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'codex', 'precompact')
}
