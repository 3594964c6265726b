#!/usr/bin/env node
// kiro agentspawn hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('kiro', 'agentspawn')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'kiro', 'agentspawn')
}
