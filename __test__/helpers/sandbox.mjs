// A fresh HOME/TMP/sentinel/cwd set for one test, and hook processes run inside it.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export class Sandbox {
  constructor() {
    this.base = mkdtempSync(join(tmpdir(), 'cm-sbx-'))
    for (const d of ['home', 'tmp', 'sent', 'cwd']) mkdirSync(join(this.base, d))
    this.home = join(this.base, 'home')
    this.tmp = join(this.base, 'tmp')
    this.sent = join(this.base, 'sent')
    this.cwd = join(this.base, 'cwd')
  }

  /** Pretends an MCP server of ours is running (a sentinel naming a live pid). */
  mcpReady() {
    writeFileSync(join(this.sent, `context-mode-mcp-ready-${process.pid}`), String(process.pid))
    return this
  }

  env(extra = {}) {
    return { PATH: process.env.PATH, HOME: this.home, TMPDIR: this.tmp, CONTEXT_MODE_MCP_SENTINEL_DIR: this.sent, ...extra }
  }

  write(rel, content) {
    const file = join(this.base, rel)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
    return file
  }

  /**
   * Runs `node <args>` with `stdin` (string or Buffer). With `hold`, stdin is written
   * but never closed, as a host that forgets to close the pipe. Resolves to
   * {code, stdout, stderr, ms}.
   */
  run(args, stdin, { env = {}, timeoutMs = 20000, hold = false } = {}) {
    return new Promise((resolve, reject) => {
      const started = Date.now()
      const child = spawn(process.execPath, args.map((a) => (a.endsWith('.mjs') && !a.startsWith('/') ? join(root, a) : a)), {
        cwd: this.cwd,
        env: this.env(env),
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
      child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
      child.stdin.on('error', () => {})
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(new Error(`hook did not exit within ${timeoutMs} ms`))
      }, timeoutMs)
      child.on('close', (code) => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr, ms: Date.now() - started })
      })
      if (hold) child.stdin.write(stdin ?? '')
      else child.stdin.end(stdin ?? '')
    })
  }

  hook(script, payload, opts) {
    return this.run([script], typeof payload === 'string' ? payload : JSON.stringify(payload), opts)
  }

  cleanup() {
    rmSync(this.base, { recursive: true, force: true })
  }
}
