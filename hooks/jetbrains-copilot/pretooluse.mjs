#!/usr/bin/env node
// jetbrains-copilot pretooluse hook: the native addon reads the payload and answers.
import { createRequire } from 'node:module'
try {
  process.exitCode = createRequire(import.meta.url)('../native.cjs').runHook('jetbrains-copilot', 'pretooluse')
} catch (err) {
  ;(await import('../run-hook.mjs')).hookFailed(err, 'jetbrains-copilot', 'pretooluse')
}
