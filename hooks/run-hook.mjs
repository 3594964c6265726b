// Runs a hook without ever failing the host: the native side reads stdin, decides
// and answers; anything that still goes wrong (the addon missing, a crash) is logged
// to <configDir>/context-mode/hook-errors.log and the hook exits 0 with the answer
// the host accepts as "no opinion".
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

function crashed(err, fallback) {
  logHookError(err)
  if (fallback) {
    try {
      process.stdout.write(fallback)
    } catch {}
  }
  process.exitCode = 0
}

/**
 * runHook(platform, event): the whole hook in native code.
 * runHook(fn): 1.0.169's form, running `fn` under the same crash contract.
 */
export async function runHook(platform, event) {
  const fallback = typeof platform === 'string' ? FALLBACK[`${platform}/${event}`] : undefined
  process.on('uncaughtException', (err) => crashed(err, fallback))
  process.on('unhandledRejection', (err) => crashed(err, fallback))
  try {
    if (typeof platform === 'function') {
      await platform()
      return
    }
    if (process.platform === 'win32') process.env.CONTEXT_MODE_HOOK_PPID = String(process.ppid)
    process.exitCode = loadNative().runHook(platform, event)
  } catch (err) {
    crashed(err, fallback)
  }
}
