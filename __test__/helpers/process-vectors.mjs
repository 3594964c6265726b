// Plays the `process` conformance vectors: each spawns a hook script with JSON on
// stdin in a fresh set of directories and compares exit code, stdout, stderr and the
// files left in TMP, HOME and the sentinel dir.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { errorName, matches, substitute } from './match.mjs'

const SCRIPT_ALIASES = { 'cli.bundle.mjs': 'cli.mjs' }

/** Builds a payload from a description such as `{"a":"<1048576 x a>"} (compact JSON)`. */
export function stdinFromDescription(desc) {
  const json = desc.replace(/\s+\(.*\)\s*$/, '')
  return json.replace(/<(\d+) x (.)>/g, (_, n, c) => c.repeat(Number(n)))
}

function listTree(base, rel = '', out = {}, withDirs = true) {
  let names
  try {
    names = readdirSync(join(base, rel))
  } catch {
    return out
  }
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name
    if (statSync(join(base, r)).isDirectory()) {
      if (withDirs) out[`${r}/`] = '<DIR>'
      listTree(base, r, out, withDirs)
    } else out[r] = readFileSync(join(base, r), 'utf8')
  }
  return out
}

const normalizeName = (name, ppid) =>
  name
    .replace(/cm-wt-[0-9a-f]{16}\.txt$/, 'cm-wt-<HASH16>.txt')
    .replace(/sessions\/[0-9a-f]{16}(__[^/]*)?\.db$/, 'sessions/<HASH16>.db')
    .split(String(ppid)).join('<PPID>')

/** Compares a log file's first line: timestamp and pid are free, the error by its name. */
function logLineMatches(expected, actual) {
  const e = /^\[<ISO>\] pid=<PID> (.*)$/.exec(expected)
  if (e) {
    const a = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] pid=\d+ (.*)$/.exec(actual)
    return !!a && errorName(a[1]) === errorName(e[1])
  }
  return expected === actual
}

function compareHome(expected, homeDir, ppid) {
  const files = Object.fromEntries(Object.entries(listTree(homeDir, '', {}, false)).map(([k, v]) => [normalizeName(k, ppid), v]))
  const problems = []
  for (const [name, want] of Object.entries(expected)) {
    if (!(name in files)) problems.push(`missing ${name}`)
    else if (want && typeof want === 'object' && 'first_line' in want) {
      if (!logLineMatches(want.first_line, files[name].split('\n')[0])) problems.push(`${name}: ${files[name].split('\n')[0]}`)
    } else if (want !== '<session-store file>' && files[name] !== want) problems.push(`${name} differs`)
  }
  for (const name of Object.keys(files)) if (!(name in expected)) problems.push(`unexpected ${name}`)
  return { ok: problems.length === 0, problems, files: Object.keys(files) }
}

export async function runProcessVector(v, root) {
  const base = mkdtempSync(join(tmpdir(), 'cm-proc-'))
  const dirs = Object.fromEntries(['HOME', 'TMP', 'SENT', 'CWD', 'FIX'].map((k) => [k, join(base, k.toLowerCase())]))
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true })
  const ppid = process.pid
  const vars = { '<TMP>': dirs.TMP, '<HOME>': dirs.HOME, '<CWD>': dirs.CWD, '<FIX>': dirs.FIX, '<SENT>': dirs.SENT, '<PPID>': String(ppid) }
  const input = v.input
  try {
    for (const [path, content] of Object.entries(input.pre_files ?? {})) {
      const file = substitute(path, vars)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, substitute(content, { ...vars, '<NOW_MS>': String(Date.now()) }))
    }
    if (input.mcp_ready) writeFileSync(join(dirs.SENT, `context-mode-mcp-ready-${process.pid}`), String(process.pid))
    for (const s of input.sentinels ?? []) {
      const file = join(dirs.SENT, s.name)
      writeFileSync(file, s.content)
      const t = (Date.now() - s.age_s * 1000) / 1000
      utimesSync(file, t, t)
    }
    const env = { PATH: process.env.PATH, HOME: dirs.HOME, TMPDIR: dirs.TMP, CONTEXT_MODE_MCP_SENTINEL_DIR: dirs.SENT }
    for (const [k, val] of Object.entries(v.env ?? {})) {
      if (val === null) delete env[k]
      else env[k] = substitute(val, vars)
    }
    const script = join(root, SCRIPT_ALIASES[input.script] ?? input.script)
    const child = spawn(process.execPath, [script, ...(input.argv ?? [])], { cwd: dirs.CWD, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    child.stdin.on('error', () => {})
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 0))))
    const killer = setTimeout(() => child.kill('SIGKILL'), 20000)
    if (input.chunks) {
      for (const chunk of input.chunks) {
        if (chunk.delay_ms) await new Promise((r) => setTimeout(r, chunk.delay_ms))
        child.stdin.write(chunk.data)
      }
    } else if (input.stdin_b64) child.stdin.write(Buffer.from(input.stdin_b64, 'base64'))
    else if (input.stdin_desc) child.stdin.write(stdinFromDescription(input.stdin_desc))
    else child.stdin.write(substitute(input.stdin ?? '', vars))
    if (!input.hold_open) child.stdin.end()
    const exitCode = await exited
    clearTimeout(killer)

    const e = substitute(v.expected, { ...vars, '<PPID>': '<PPID>' })
    const problems = []
    if (exitCode !== e.exit_code) problems.push(`exit ${exitCode} != ${e.exit_code}`)
    if (e.stdout !== null && e.stdout !== undefined) {
      if (stdout !== e.stdout) problems.push('stdout differs')
    } else if (e.stdout_json === null) {
      if (stdout !== '') problems.push('stdout should be empty')
    } else if (e.stdout_json === '<not json>') {
      let isJson = true
      try {
        JSON.parse(stdout)
      } catch {
        isJson = false
      }
      if (!stdout || isJson) problems.push('stdout should be plain text')
    } else {
      let parsed
      try {
        parsed = JSON.parse(stdout)
      } catch {
        problems.push('stdout is not JSON')
      }
      if (parsed !== undefined && !matches(e.stdout_json, parsed)) problems.push('stdout_json differs')
      if (!stdout.endsWith('\n')) problems.push('stdout lacks its newline')
    }
    if (stderr !== (e.stderr ?? '')) problems.push(`stderr ${JSON.stringify(stderr.slice(0, 200))}`)
    const tmp = Object.fromEntries(Object.entries(listTree(dirs.TMP)).map(([k, val]) => [normalizeName(k, ppid), val]))
    if (!matches(e.tmp_after ?? {}, tmp)) problems.push(`tmp_after ${JSON.stringify(tmp).slice(0, 400)}`)
    const home = compareHome(e.home_files_after ?? {}, dirs.HOME, ppid)
    if (!home.ok) problems.push(`home_files_after ${home.problems.join('; ')}`)
    if (e.sentinel_dir_after) {
      const left = readdirSync(dirs.SENT).filter((n) => n !== `context-mode-mcp-ready-${process.pid}`).sort()
      if (!matches([...e.sentinel_dir_after].sort(), left)) problems.push(`sentinels ${left}`)
    }
    return { id: v.id, kind: 'process', pass: problems.length === 0, got: { exitCode, stdout: stdout.slice(0, 600), stderr, problems } }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
