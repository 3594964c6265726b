// The real server process behind the SDK's own client, in a sandbox of its own.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Sandbox, root } from './sandbox.mjs'

export { root }

/**
 * Starts `node start.mjs` with a fresh HOME, storage dir and project (`sbx.cwd`).
 * Resolves to {client, sbx, pid, call(name, args) -> {text, isError, structured, raw}, close()}.
 */
export async function startServer({ env = {}, sbx, entry = 'start.mjs' } = {}) {
  const own = !sbx
  sbx ??= new Sandbox()
  const baseEnv = { ...process.env }
  for (const k of Object.keys(baseEnv)) if (k.startsWith('CLAUDE_') || k.startsWith('CONTEXT_MODE_')) delete baseEnv[k]
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, entry)],
    cwd: sbx.cwd,
    stderr: 'pipe',
    env: {
      ...baseEnv,
      ...sbx.env(),
      PWD: sbx.cwd,
      CONTEXT_MODE_PLATFORM: 'claude-code',
      CLAUDE_PROJECT_DIR: sbx.cwd,
      CONTEXT_MODE_DIR: join(sbx.base, 'store'),
      ...env,
    },
  })
  let stderr = ''
  transport.stderr?.on('data', (d) => (stderr += d))
  const client = new Client({ name: 'context-mode-tests', version: '1.0.0' })
  await client.connect(transport)
  const call = async (name, args = {}, options) => {
    const raw = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...options })
    return { text: raw.content?.[0]?.text ?? '', isError: raw.isError === true, structured: raw.structuredContent, raw }
  }
  return {
    client,
    sbx,
    pid: transport.pid,
    call,
    stderr: () => stderr,
    close: async () => {
      await client.close()
      if (own) sbx.cleanup()
    },
  }
}

/** Live (non-zombie) processes whose command line contains `marker`. */
export function processesWith(marker) {
  const found = []
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      if (cmd.includes(marker) && state !== 'Z') found.push({ pid: Number(pid), cmd })
    } catch {}
  }
  return found
}

export function isAlive(pid) {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
    return state !== 'Z'
  } catch {
    return false
  }
}

/** Polls until `fn()` is truthy or `ms` pass; resolves to the last value. */
export async function waitFor(fn, ms = 5000, step = 50) {
  const until = Date.now() + ms
  let v = fn()
  while (!v && Date.now() < until) {
    await new Promise((r) => setTimeout(r, step))
    v = fn()
  }
  return v
}

/** Peak resident memory of a process in MiB. */
export function peakRssMiB(pid) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)
  return m ? Number(m[1]) / 1024 : NaN
}
