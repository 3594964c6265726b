#!/usr/bin/env node
// kiro pretooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kiro', 'pretooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kiro', 'pretooluse')
}
