// A minimal MCP client over stdio for benchmarks: newline-delimited JSON-RPC, so the
// measuring side costs the same for both servers and adds no SDK start-up of its own.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anchorDir, cleanEnv, root } from './harness.mjs'

/** The command that starts each side's server. */
export function serverCommand(side, anchor) {
  if (side === 'ours') return { node: anchor?.node ?? process.execPath, script: join(root, 'start.mjs') }
  return { node: anchor.node, script: join(anchor.pkg ?? join(anchorDir, 'node_modules', 'context-mode'), 'start.mjs') }
}

export class McpSession {
  /** Spawns a server with its own HOME and storage, serving `project`. */
  constructor(side, anchor, { project, env = {} } = {}) {
    this.base = mkdtempSync(join(tmpdir(), `cm-bench-mcp-${side}-`))
    this.project = project ?? join(this.base, 'project')
    mkdirSync(this.project, { recursive: true })
    mkdirSync(join(this.base, 'home'), { recursive: true })
    const { node, script } = serverCommand(side, anchor)
    this.started = performance.now()
    this.child = spawn(node, [script], {
      cwd: this.project,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: cleanEnv({
        HOME: join(this.base, 'home'),
        CONTEXT_MODE_DIR: join(this.base, 'store'),
        CLAUDE_PROJECT_DIR: this.project,
        PWD: this.project,
        CONTEXT_MODE_PLATFORM: 'claude-code',
        CONTEXT_MODE_MCP_SENTINEL_DIR: this.base,
        ...env,
      }),
    })
    this.pending = new Map()
    this.nextId = 1
    let buffer = ''
    this.child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk
      let nl
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        if (!line.trim()) continue
        let msg
        try {
          msg = JSON.parse(line)
        } catch {
          continue
        }
        const waiter = this.pending.get(msg.id)
        if (waiter) {
          this.pending.delete(msg.id)
          waiter(msg)
        }
      }
    })
    this.child.stderr.resume()
  }

  request(method, params = {}) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method} timed out`)), 300_000)
      this.pending.set(id, (msg) => {
        clearTimeout(timer)
        msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result)
      })
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    })
  }

  /** initialize + initialized; resolves to ms from spawn to the answer. */
  async initialize() {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } })
    const ms = performance.now() - this.started
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    return ms
  }

  /** A tool call; resolves to {text, isError, bytes, ms}. `text` joins every content item. */
  async call(name, args) {
    const t = performance.now()
    const r = await this.request('tools/call', { name, arguments: args })
    const text = (r.content ?? []).map((c) => c.text ?? '').join('\n')
    return { text, isError: r.isError === true, bytes: Buffer.byteLength(text), ms: performance.now() - t }
  }

  /** Resident memory in MiB: all of it, and the anonymous part (what the process allocated, without the pages of the node binary and libraries it maps). */
  memory() {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8')
    const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? NaN) / 1024
    return { rss: kb('VmRSS'), anon: kb('RssAnon') }
  }

  async close() {
    this.child.stdin.end()
    await new Promise((r) => {
      const t = setTimeout(() => {
        this.child.kill('SIGKILL')
        r()
      }, 3000)
      this.child.on('exit', () => {
        clearTimeout(t)
        r()
      })
    })
    rmSync(this.base, { recursive: true, force: true })
  }
}
