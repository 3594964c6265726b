// Session continuity end to end: real hook processes writing a real database, then a
// compaction, and the text the host injects afterwards.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { startServer } from './helpers/mcp.mjs'
import { root, Sandbox } from './helpers/sandbox.mjs'

const native = createRequire(import.meta.url)('../hooks/native.cjs')
const hash = (dir) => createHash('sha256').update(dir).digest('hex').slice(0, 16)
const CONFIG_DIR = { 'claude-code': '.claude', 'gemini-cli': '.gemini', codex: '.codex', cursor: '.cursor' }

/** A project, a HOME, and hook processes for one host. */
class Host {
  constructor(platform) {
    this.platform = platform
    this.sbx = new Sandbox()
    this.project = join(this.sbx.cwd)
    mkdirSync(join(this.project, 'src/cart'), { recursive: true })
    this.env = { CLAUDE_PROJECT_DIR: this.project, CONTEXT_MODE_SESSION_SUFFIX: '' }
  }

  dbPath() {
    return join(this.sbx.home, CONFIG_DIR[this.platform], 'context-mode', 'sessions', `${hash(this.project)}.db`)
  }

  events(sessionId) {
    return JSON.parse(native.readSessionEvents(this.dbPath(), sessionId))
  }

  /** Runs one hook; resolves to {code, stdout, json}. */
  async hook(event, payload) {
    const args = this.platform === 'claude-code' ? [`hooks/${event}.mjs`] : ['cli.mjs', 'hook', this.platform, event]
    const r = await this.sbx.run(args.map((a) => (a.endsWith('.mjs') ? join(root, a) : a)), JSON.stringify({ cwd: this.project, ...payload }), { env: this.env })
    assert.equal(r.code, 0, `${event}: ${r.stderr}`)
    let json = null
    try {
      json = r.stdout.trim() ? JSON.parse(r.stdout) : null
    } catch {}
    return { ...r, json }
  }
}

/** The calls each host makes for the same piece of work, in its own vocabulary. */
const SCRIPTS = {
  'claude-code': (p) => ({
    id: (sid) => ({ session_id: sid }),
    start: 'sessionstart',
    prompt: ['userpromptsubmit', (text) => ({ prompt: text })],
    post: 'posttooluse',
    compactEvents: [['precompact', {}], ['sessionstart', { source: 'compact' }]],
    read: { tool_name: 'Read', tool_input: { file_path: `${p}/src/cart/total.ts` }, tool_response: { type: 'text', file: { content: 'x' } } },
    edit: { tool_name: 'Edit', tool_input: { file_path: `${p}/src/cart/total.ts`, old_string: 'a', new_string: 'b' }, tool_response: { filePath: `${p}/src/cart/total.ts` } },
    commit: { tool_name: 'Bash', tool_input: { command: 'git add -A && git commit -m "Round half up in cart totals"' }, tool_response: { stdout: '[main 1a2b3c4] Round half up', stderr: '', interrupted: false } },
    test: { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'PASS src/a.test.ts\nFAIL src/cart/total.test.ts\n  ● rounds negative amounts\nTests: 1 failed, 20 passed', stderr: '', interrupted: false } },
    todo: { tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Fix negative rounding', status: 'in_progress', activeForm: 'Fixing' }, { content: 'Update the changelog', status: 'pending', activeForm: 'Updating' }] }, tool_response: {} },
    context: (json) => json.hookSpecificOutput.additionalContext,
  }),
  'gemini-cli': (p) => ({
    id: (sid) => ({ session_id: sid }),
    start: 'sessionstart',
    prompt: ['beforeagent', (text) => ({ prompt: text })],
    post: 'aftertool',
    compactEvents: [['precompress', {}], ['sessionstart', { source: 'resume' }]],
    read: { tool_name: 'read_file', tool_input: { absolute_path: `${p}/src/cart/total.ts` }, tool_response: { llmContent: 'x' } },
    edit: { tool_name: 'replace', tool_input: { file_path: `${p}/src/cart/total.ts`, old_string: 'a', new_string: 'b' }, tool_response: { llmContent: 'ok' } },
    commit: { tool_name: 'run_shell_command', tool_input: { command: 'git add -A && git commit -m "Round half up in cart totals"' }, tool_response: { llmContent: '[main 1a2b3c4] Round half up' } },
    test: { tool_name: 'run_shell_command', tool_input: { command: 'npm test' }, tool_response: { llmContent: 'PASS src/a.test.ts\nFAIL src/cart/total.test.ts\nTests: 1 failed, 20 passed' } },
    todo: { tool_name: 'write_todos', tool_input: { todos: [{ description: 'Fix negative rounding', status: 'in_progress' }, { description: 'Update the changelog', status: 'pending' }] }, tool_response: { llmContent: 'ok' } },
    context: (json) => json.hookSpecificOutput.additionalContext,
  }),
  codex: (p) => ({
    id: (sid) => ({ session_id: sid }),
    start: 'sessionstart',
    prompt: ['userpromptsubmit', (text) => ({ prompt: text })],
    post: 'posttooluse',
    compactEvents: [['precompact', {}], ['sessionstart', { source: 'resume' }]],
    read: { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'cat src/cart/total.ts'] }, tool_response: 'export const total = 1' },
    edit: { tool_name: 'apply_patch', tool_input: { input: '*** Begin Patch\n*** Update File: src/cart/total.ts\n@@\n-a\n+b\n*** End Patch' }, tool_response: 'Done' },
    commit: { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'git add -A && git commit -m "Round half up in cart totals"'] }, tool_response: '[main 1a2b3c4] Round half up' },
    test: { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'npm test'] }, tool_response: 'PASS src/a.test.ts\nFAIL src/cart/total.test.ts\nTests: 1 failed, 20 passed', tool_output: { isError: true } },
    todo: { tool_name: 'update_plan', tool_input: { plan: [{ step: 'Fix negative rounding', status: 'in_progress' }, { step: 'Update the changelog', status: 'pending' }] }, tool_response: 'Plan updated' },
    context: (json) => json.hookSpecificOutput.additionalContext,
  }),
  cursor: (p) => ({
    id: (sid) => ({ conversation_id: sid, workspace_roots: [p] }),
    start: 'sessionstart',
    prompt: ['beforesubmitprompt', (text) => ({ prompt: text })],
    post: 'posttooluse',
    compactEvents: [['sessionstart', { source: 'resume' }]],
    read: { tool_name: 'Read', tool_input: { file_path: `${p}/src/cart/total.ts` }, tool_output: 'x' },
    edit: { tool_name: 'Edit', tool_input: { file_path: `${p}/src/cart/total.ts` }, tool_output: 'ok' },
    commit: { tool_name: 'Shell', tool_input: { command: 'git add -A && git commit -m "Round half up in cart totals"' }, tool_output: '[main 1a2b3c4] Round half up' },
    test: { tool_name: 'Shell', tool_input: { command: 'npm test' }, tool_output: 'PASS src/a.test.ts\nFAIL src/cart/total.test.ts\nTests: 1 failed, 20 passed' },
    todo: { tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Fix negative rounding', status: 'in_progress' }, { content: 'Update the changelog', status: 'pending' }] }, tool_output: 'ok' },
    context: (json) => json.additional_context,
  }),
}

/** Plays the scripted session; resolves to the text injected after the compaction. */
async function playSession(host, sid) {
  const s = SCRIPTS[host.platform](host.project)
  const base = s.id(sid)
  const [promptEvent, promptPayload] = s.prompt
  const start = await host.hook(s.start, { ...base, source: 'startup' })
  assert.match(s.context(start.json), /<context_window_protection>/)
  await host.hook(promptEvent, { ...base, ...promptPayload('Goal: checkout totals must round half up') })
  for (const call of [s.read, s.edit, s.commit, s.test, s.todo]) await host.hook(s.post, { ...base, ...call })
  await host.hook(promptEvent, { ...base, ...promptPayload('Now make negative amounts round away from zero') })
  let last
  for (const [event, extra] of s.compactEvents) last = await host.hook(event, { ...base, ...extra })
  return s.context(last.json)
}

function assertCarriesTheState(text) {
  const snapshot = text.slice(text.indexOf('<session_resume'))
  assert.ok(text.includes('<session_resume'), text)
  for (const [what, pattern] of [
    ['goal', /checkout totals must round half up/],
    ['file', /src\/cart\/total\.ts/],
    ['pending task', /\[in_progress\] Fix negative rounding/],
    ['second task', /Update the changelog/],
    ['last error', /FAIL src\/cart\/total\.test\.ts/],
    ['last request', /negative amounts round away from zero/],
    ['commit message', /Round half up in cart totals/],
  ]) {
    assert.match(snapshot, pattern, `${what} missing from\n${snapshot}`)
  }
  const tokens = Math.ceil(Buffer.byteLength(text) / 4)
  assert.ok(tokens <= 1600, `${tokens} tokens injected`)
  assert.ok(Buffer.byteLength(snapshot) <= 4000, `${Buffer.byteLength(snapshot)} bytes of snapshot`)
}

describe('scripted session, then compaction', () => {
  for (const platform of Object.keys(SCRIPTS)) {
    it(`${platform}: the injected text names the goal, files, tasks, last error and last request, within budget`, async () => {
      const host = new Host(platform)
      after(() => host.sbx.cleanup())
      const text = await playSession(host, 'sess-a')
      assertCarriesTheState(text)
      if (platform === 'claude-code') console.log(`# example compact injection (${Buffer.byteLength(text)} bytes):\n${text.slice(text.indexOf('<session_resume')).replace(/^/gm, '# ')}`)
    })
  }

  it('claude-code: a resumed conversation with the same id gets its state back', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    await playSession(host, 'sess-b')
    const resumed = await host.hook('sessionstart', { session_id: 'sess-b', source: 'resume' })
    assertCarriesTheState(resumed.json.hookSpecificOutput.additionalContext)
  })

  it('claude-code: /resume under a new id claims the snapshot the old session left, once', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    const s = SCRIPTS['claude-code'](host.project)
    await host.hook('userpromptsubmit', { session_id: 'old', prompt: 'Goal: checkout totals must round half up' })
    for (const call of [s.read, s.edit, s.commit, s.test, s.todo]) await host.hook('posttooluse', { session_id: 'old', ...call })
    await host.hook('userpromptsubmit', { session_id: 'old', prompt: 'Now make negative amounts round away from zero' })
    await host.hook('precompact', { session_id: 'old' })
    const first = await host.hook('sessionstart', { session_id: 'new-1', source: 'resume' })
    assertCarriesTheState(first.json.hookSpecificOutput.additionalContext)
    const second = await host.hook('sessionstart', { session_id: 'new-2', source: 'resume' })
    assert.doesNotMatch(second.json.hookSpecificOutput.additionalContext, /<session_resume/)
  })

  it('startup injects only the routing block, under 500 tokens', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    const r = await host.hook('sessionstart', { session_id: 'fresh', source: 'startup' })
    const text = r.json.hookSpecificOutput.additionalContext
    assert.doesNotMatch(text, /<session_resume/)
    assert.ok(Buffer.byteLength(text) / 4 <= 500, `${Buffer.byteLength(text) / 4} tokens`)
  })
})

describe('what is stored', () => {
  it('masks secrets from prompts and commands before they are written', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    await host.hook('userpromptsubmit', { session_id: 's', prompt: 'deploy with GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 please' })
    await host.hook('posttooluse', { session_id: 's', tool_name: 'Bash', tool_input: { command: 'export API_KEY=sk-live-123456 && npm install' }, tool_response: { stdout: '', stderr: '' } })
    await host.hook('posttooluse', { session_id: 's', tool_name: 'mcp__db__query', tool_input: { sql: 'select 1', password: 'hunter2-secret' }, tool_response: 'ok' })
    const raw = readFileSync(host.dbPath()).toString('latin1')
    for (const secret of ['ghp_abcdefghijklmnopqrstuvwxyz0123', 'sk-live-123456', 'hunter2-secret']) assert.ok(!raw.includes(secret), `${secret} stored`)
    const kinds = host.events('s').map((e) => e.type)
    assert.ok(kinds.includes('env') && kinds.includes('mcp'), kinds.join(','))
  })

  it('eight hook processes writing at once lose no event', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    await host.hook('sessionstart', { session_id: 'many', source: 'startup' })
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => host.hook('posttooluse', { session_id: 'many', tool_name: 'Edit', tool_input: { file_path: `${host.project}/src/file${i}.ts` }, tool_response: {} })),
    )
    const edits = host.events('many').filter((e) => e.type === 'file_edit').map((e) => e.data)
    assert.equal(new Set(edits).size, 8, edits.join(', '))
  })

  it('a corrupt database never breaks a hook: it is set aside and a fresh one is used', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    mkdirSync(join(host.dbPath(), '..'), { recursive: true })
    writeFileSync(host.dbPath(), 'this is not a database'.repeat(100))
    const r = await host.hook('posttooluse', { session_id: 'c', tool_name: 'Edit', tool_input: { file_path: `${host.project}/a.ts` }, tool_response: {} })
    assert.equal(r.stdout, '')
    assert.ok(readdirSync(join(host.dbPath(), '..')).some((f) => f.includes('.corrupt-')))
    assert.equal(host.events('c').filter((e) => e.type === 'file_edit').length, 1)
  })

  it('a locked database never breaks a hook: exit 0, quickly, the failure is logged', async (t) => {
    if (spawnSync('python3', ['-c', 'import sqlite3']).status !== 0) return t.skip('python3 with sqlite3 holds the lock in this test')
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    await host.hook('sessionstart', { session_id: 'l', source: 'startup' })
    // Another process holds the write lock for longer than a hook waits.
    const locker = spawn('python3', ['-c', `import sqlite3, time\nc = sqlite3.connect(${JSON.stringify(host.dbPath())}, isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(30)`], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise((r) => locker.stdout.once('data', r))
    try {
      const started = Date.now()
      const r = await host.hook('posttooluse', { session_id: 'l', tool_name: 'Edit', tool_input: { file_path: `${host.project}/b.ts` }, tool_response: {} })
      assert.equal(r.stdout, '')
      assert.ok(Date.now() - started < 8000, `${Date.now() - started} ms`)
      const log = readFileSync(join(host.sbx.home, '.claude/context-mode/hook-errors.log'), 'utf8')
      assert.match(log, /locked|busy/i)
    } finally {
      locker.kill()
    }
  })
})

describe('a session database written by 1.0.169', () => {
  it('is read and continued: our compaction carries its goal, files, task, error and last request', async () => {
    const sbx = new Sandbox()
    after(() => sbx.cleanup())
    const project = '/tmp/cm-legacy-project'
    const sid = '0b7d2c1e-4f5a-4c3b-9d2e-8a1f6e5d4c3b'
    const dir = join(sbx.home, '.claude/context-mode/sessions')
    mkdirSync(dir, { recursive: true })
    const db = join(dir, `${hash(project)}.db`)
    copyFileSync(join(root, '__test__/fixtures/session-1.0.169.db'), db)
    const env = { CLAUDE_PROJECT_DIR: project, CONTEXT_MODE_SESSION_SUFFIX: '' }
    const run = async (event, payload) => {
      const r = await sbx.hook(`hooks/${event}.mjs`, { session_id: sid, cwd: project, ...payload }, { env })
      assert.equal(r.code, 0, r.stderr)
      return r
    }
    await run('posttooluse', { tool_name: 'Edit', tool_input: { file_path: `${project}/src/invoice/pdf.ts` }, tool_response: {} })
    await run('precompact', {})
    const r = await run('sessionstart', { source: 'compact' })
    const text = JSON.parse(r.stdout).hookSpecificOutput.additionalContext
    for (const want of [/ship the invoice export with CSV and PDF/, /src\/invoice\/export\.ts/, /src\/invoice\/pdf\.ts/, /Render PDF invoices/, /FAIL src\/invoice\/pdf\.test\.ts/, /fix the PDF page breaks/, /Add CSV invoice export/]) {
      assert.match(text, want, text)
    }
    const events = JSON.parse(native.readSessionEvents(db, sid))
    assert.ok(events.length > 15, `${events.length} events`)
    assert.equal(events[0].type, 'session_start')
  })
})

describe('stats from the session log', () => {
  it('statusline and ctx_stats read one ledger: redirects kept out, snapshots returned', async () => {
    const host = new Host('claude-code')
    after(() => host.sbx.cleanup())
    await host.hook('sessionstart', { session_id: 'st', source: 'startup' })
    // A redirect the PreToolUse side recorded: 8 KB kept out.
    writeFileSync(join(host.sbx.tmp, 'context-mode-redirect-st.txt'), 'Bash:bash-redirected:8192:curl https://example.com')
    const post = await host.sbx.run([join(root, 'hooks/posttooluse.mjs')], JSON.stringify({ session_id: 'st', cwd: host.project, tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_response: { stdout: 'hi', stderr: '' } }), { env: host.env })
    assert.equal(post.code, 0)
    const line = await host.sbx.run([join(root, 'cli.mjs'), 'statusline'], JSON.stringify({ session_id: 'st', workspace: { current_dir: host.project } }), { env: host.env })
    assert.equal(line.code, 0, line.stderr)
    assert.match(line.stdout, /8\.0 KB kept out this chat/)
    // The MCP server adds its calls to the same session's ledger.
    const server = await startServer({ sbx: host.sbx, env: { CONTEXT_MODE_DIR: '', CLAUDE_PROJECT_DIR: host.project, CONTEXT_MODE_SESSION_SUFFIX: '' } })
    try {
      await server.call('ctx_execute', { language: 'shell', code: 'seq 1 50000' })
      const stats = await server.call('ctx_stats')
      assert.match(stats.text, /this session \(st\): (\d+\.\d) KB kept out/, stats.text)
      assert.ok(Number(stats.text.match(/this session \(st\): (\d+\.\d) KB kept out/)[1]) > 200, stats.text)
    } finally {
      await server.close()
    }
    const later = await host.sbx.run([join(root, 'cli.mjs'), 'statusline'], JSON.stringify({ session_id: 'st', workspace: { current_dir: host.project } }), { env: host.env })
    assert.match(later.stdout, /\d{3}\.\d KB kept out this chat/, later.stdout)
  })
})
