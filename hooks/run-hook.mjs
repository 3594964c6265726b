// The crash contract of a hook: whatever goes wrong, the error is appended to
// <configDir>/context-mode/hook-errors.log and the hook exits 0 with the answer the
// host accepts as "no opinion". Hook files call the addon directly and load this
// module only when that fails, so the common path stays cheap.
import { appendFileSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { loadNative } from './native.mjs'

// What a host must still receive when the addon cannot answer.
const FALLBACK = {
  'codex/pretooluse': '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}\n',
  'kimi/pretooluse': '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}\n',
  'cursor/pretooluse': '{"agent_message":""}\n',
  'cursor/posttooluse': '{"additional_context":""}\n',
  'cursor/afteragentresponse': '{"additional_context":""}\n',
  'cursor/stop': '{"followup_message":""}\n',
  'cursor/beforesubmitprompt': '{"continue":true}\n',
  'claude-code/precompact': '{}\n',
  'claude-code/stop': '{}\n',
  'codex/precompact': '{}\n',
  'codex/stop': '{}\n',
  'kimi/precompact': '{}\n',
  'kimi/stop': '{}\n',
  'kimi/sessionend': '{}\n',
  'qwen-code/stop': '{}\n',
}

function errorLogDir() {
  const configured = process.env.CLAUDE_CONFIG_DIR
  const home = homedir()
  if (configured) {
    return configured.startsWith('~') ? join(home, configured.slice(1).replace(/^[/\\]/, '')) : configured
  }
  return resolve(home, '.claude')
}

export function logHookError(err) {
  try {
    const dir = join(errorLogDir(), 'context-mode')
    mkdirSync(dir, { recursive: true })
    const detail = err?.stack || err?.message || String(err)
    appendFileSync(join(dir, 'hook-errors.log'), `[${new Date().toISOString()}] pid=${process.pid} ${detail}\n`)
  } catch {}
}

/** Logs a failed hook and prints the host's fallback answer; the hook exits 0. */
export function hookFailed(err, platform, event) {
  logHookError(err)
  const fallback = FALLBACK[`${platform}/${event}`]
  if (fallback) {
    try {
      process.stdout.write(fallback)
    } catch {}
  }
  process.exitCode = 0
}

/**
 * runHook(platform, event): the whole hook in native code, under the crash contract.
 * runHook(fn): 1.0.169's form, running `fn` under the same contract.
 */
export async function runHook(platform, event) {
  const onCrash = (err) => hookFailed(err, platform, event)
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', onCrash)
  try {
    if (typeof platform === 'function') await platform()
    else process.exitCode = loadNative().runHook(platform, event)
  } catch (err) {
    onCrash(err)
  }
}
