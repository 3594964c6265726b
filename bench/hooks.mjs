#!/usr/bin/env node
// Hook cost: median wall and CPU time of a hook process (PreToolUse, PostToolUse,
// SessionStart) with realistic Claude Code payloads, alternating with a bare
// `node -e 0`, and with --compare, context-mode 1.0.169 side by side on the same Node.
//
//   node bench/hooks.mjs [--runs 30] [--compare] [--node /path/to/node]
//
// Needs a release build (`npm run build`); a debug build is reported as such.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { alternate, cleanEnv, ensureAnchor, fmt, nativeBuild, root, table, timeOnce } from './lib/harness.mjs'

const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const runs = Number(opt('--runs', 30))
const compare = args.includes('--compare')
const anchor = compare ? ensureAnchor() : null
const node = opt('--node', anchor ? anchor.node : process.execPath)

const build = nativeBuild()
if (!build.release) console.error(`bench: ${build.file} looks like a debug build (${(build.size / 1e6).toFixed(0)} MB); run \`npm run build\` for meaningful numbers`)

const sessionId = '6f1c2a9e-4b7d-4e21-9a3c-5d8e7f6a1b20'
const work = mkdtempSync(join(tmpdir(), 'cm-bench-hooks-'))
const project = join(work, 'project')
mkdirSync(project)
const testOutput = Array.from({ length: 120 }, (_, i) => `  ✓ parses fixture ${i} (${(i * 7) % 13} ms)`).join('\n') + '\n\n  120 passing (2s)\n'
const common = { session_id: sessionId, transcript_path: join(work, `.claude/projects/p/${sessionId}.jsonl`), cwd: project, permission_mode: 'default' }
const PAYLOADS = {
  pretooluse: { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test -- --reporter=dot 2>&1 | tail -40', description: 'Run the unit tests' } },
  posttooluse: {
    ...common,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm test', description: 'Run the unit tests' },
    tool_response: { stdout: testOutput, stderr: '', interrupted: false, isImage: false },
  },
  sessionstart: { ...common, hook_event_name: 'SessionStart', source: 'startup' },
}

/** Each implementation gets its own HOME and TMPDIR, with a live MCP sentinel. */
function sandboxEnv(name) {
  const dir = join(work, name)
  for (const d of ['home', 'tmp', 'sent']) mkdirSync(join(dir, d), { recursive: true })
  writeFileSync(join(dir, 'sent', `context-mode-mcp-ready-${process.pid}`), String(process.pid))
  return cleanEnv({ HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'), CONTEXT_MODE_MCP_SENTINEL_DIR: join(dir, 'sent'), CLAUDE_PROJECT_DIR: project })
}

const envs = { bare: sandboxEnv('bare'), ours: sandboxEnv('ours'), anchor: sandboxEnv('anchor') }
const results = {}
for (const [event, payload] of Object.entries(PAYLOADS)) {
  const input = JSON.stringify(payload)
  const variants = {
    'node -e 0': () => timeOnce(node, ['-e', '0'], { env: envs.bare, cwd: project }),
    'context-mode-native': () => timeOnce(node, [join(root, 'hooks', `${event}.mjs`)], { input, env: envs.ours, cwd: project }),
  }
  if (anchor) variants[`context-mode ${anchor.version}`] = () => timeOnce(node, [join(anchor.pkg, 'hooks', `${event}.mjs`)], { input, env: envs.anchor, cwd: project })
  results[event] = alternate(variants, runs)
}
rmSync(work, { recursive: true, force: true })

const nodeVersion = timeOnce(node, ['--version'], { env: cleanEnv() }).stdout.trim()
console.log(`\nHook processes, median of ${runs} alternating runs, Node ${nodeVersion}, ${build.release ? 'release' : 'DEBUG'} build\n`)
const rows = []
for (const [event, r] of Object.entries(results)) {
  const bare = r['node -e 0']
  for (const [name, m] of Object.entries(r)) {
    if (name === 'node -e 0' && event !== 'pretooluse') continue
    rows.push([name === 'node -e 0' ? 'node -e 0' : `${event}: ${name}`, fmt(m.wall), fmt(m.cpu), `${fmt(m.wall / bare.wall, 2)}x`])
  }
}
console.log(table(['process', 'wall ms', 'CPU ms', 'vs node -e 0'], rows))
if (anchor) {
  console.log('')
  const name = `context-mode ${anchor.version}`
  console.log(table(['hook', 'ours / 1.0.169 (wall)', 'ours / 1.0.169 (CPU)'], Object.entries(results).map(([e, r]) => [e, `${fmt(r['context-mode-native'].wall / r[name].wall, 2)}x`, `${fmt(r['context-mode-native'].cpu / r[name].cpu, 2)}x`])))
}
mkdirSync(join(root, 'bench', 'results'), { recursive: true })
writeFileSync(join(root, 'bench', 'results', 'hooks.json'), JSON.stringify({ node: nodeVersion, runs, release: build.release, results }, null, 2))
