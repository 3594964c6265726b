// Pins each deliberate difference from context-mode 1.0.169 (docs/compat.md).
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, test } from 'node:test'
import { formatDecision } from '../hooks/core/formatters.mjs'
import * as routing from '../hooks/core/routing.mjs'
import { loadNative } from '../hooks/native.mjs'
import { Sandbox } from './helpers/sandbox.mjs'

let sbx
beforeEach(() => (sbx = new Sandbox()))
afterEach(() => sbx.cleanup())

const sessionDbs = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.db')) : [])

describe('deliberate differences from 1.0.169', () => {
  test('codex fallback text is our own sentence with the same advice', () => {
    const out = formatDecision('codex', { action: 'modify', updatedInput: { command: 'ls -la' } })
    const reason = out.hookSpecificOutput.permissionDecisionReason
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny')
    assert.match(reason, /^context-mode: /)
    for (const tool of ['ctx_execute', 'ctx_fetch_and_index', 'ctx_search']) assert.ok(reason.includes(tool))
  })

  test('Claude SessionStart writes no heal-partial-install.log', async () => {
    const r = await sbx.hook('hooks/sessionstart.mjs', { session_id: 's', source: 'clear' })
    assert.equal(r.code, 0)
    assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /<context_window_protection>/)
    assert.equal(existsSync(join(sbx.home, '.claude/context-mode/heal-partial-install.log')), false)
  })

  test('Gemini AfterTool records the session on a fresh machine', async () => {
    const r = await sbx.hook('hooks/gemini-cli/aftertool.mjs', { session_id: 'g-1', tool_name: 'read_file', tool_input: {}, tool_response: 'x', cwd: sbx.cwd })
    assert.equal(r.code, 0)
    assert.equal(r.stdout, '')
    assert.equal(sessionDbs(join(sbx.home, '.gemini/context-mode/sessions')).length, 1)
  })

  test('VS Code PostToolUse records the session without tool_input', async () => {
    const r = await sbx.hook('hooks/vscode-copilot/posttooluse.mjs', { sessionId: 'vs-1', tool_name: 'read_file', cwd: sbx.cwd })
    assert.equal(r.code, 0)
    assert.equal(sessionDbs(join(sbx.home, '.vscode/context-mode/sessions')).length, 1)
  })

  test('malformed JSON exits 0 on Kimi and Kiro with their pass-through answers', async () => {
    const kimi = await sbx.hook('hooks/kimi/pretooluse.mjs', '{bad')
    assert.deepEqual([kimi.code, JSON.parse(kimi.stdout)], [0, { hookSpecificOutput: { hookEventName: 'PreToolUse' } }])
    const kiro = await sbx.hook('hooks/kiro/pretooluse.mjs', '{bad')
    assert.deepEqual([kiro.code, kiro.stdout, kiro.stderr], [0, '', ''])
  })

  test('a payload cut off mid-way still exits 1 on Kiro, and never hangs', async () => {
    const env = { CONTEXT_MODE_HOOK_STDIN_IDLE_MS: '200' }
    const partial = await sbx.run(['hooks/kiro/pretooluse.mjs'], '{"tool_name":"Bash"', { env, hold: true })
    assert.deepEqual([partial.code, partial.stdout, partial.stderr], [1, '', ''])
    const silent = await sbx.run(['hooks/kiro/pretooluse.mjs'], '', { env, hold: true })
    assert.equal(silent.code, 0, 'a held-open pipe with nothing on it is an empty payload')
  })

  test('Kiro gets the block reason on stderr with exit 2', async () => {
    sbx.mcpReady()
    const curl = await sbx.hook('hooks/kiro/pretooluse.mjs', { cwd: sbx.cwd, tool_name: 'execute_bash', tool_input: { command: 'curl https://x.test/' } })
    assert.equal(curl.code, 2)
    assert.match(curl.stderr, /^context-mode: /)
    assert.ok(!curl.stderr.startsWith('echo'))
    const web = await sbx.hook('hooks/kiro/pretooluse.mjs', { cwd: sbx.cwd, tool_name: 'web_fetch', tool_input: { url: 'https://x.test/' } })
    assert.equal(web.code, 2)
    assert.match(web.stderr, /@context-mode\/ctx_fetch_and_index/)
  })

  test('context-mode hook qwen-code stop runs Qwen\'s Stop hook', async () => {
    const r = await sbx.run(['cli.mjs', 'hook', 'qwen-code', 'stop'], JSON.stringify({ session_id: 'q-1', cwd: sbx.cwd }))
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout), {})
    assert.equal(sessionDbs(join(sbx.home, '.qwen/context-mode/sessions')).length, 1)
  })

  test('gemini aftermodel and kiro agentspawn are dispatched by the CLI', async () => {
    const spawn = await sbx.run(['cli.mjs', 'hook', 'kiro', 'agentspawn'], JSON.stringify({ cwd: sbx.cwd }))
    assert.equal(JSON.parse(spawn.stdout).hookSpecificOutput.hookEventName, 'agentSpawn')
    const ups = await sbx.run(['cli.mjs', 'hook', 'kiro', 'userpromptsubmit'], JSON.stringify({ cwd: sbx.cwd, prompt: 'hi' }))
    assert.equal(JSON.parse(ups.stdout).hookSpecificOutput.hookEventName, 'userPromptSubmit')
    const model = await sbx.run(['cli.mjs', 'hook', 'gemini-cli', 'aftermodel'], JSON.stringify({ session_id: 'g' }))
    assert.deepEqual([model.code, model.stdout], [0, ''])
  })
})

describe('differences no vector covers', () => {
  const saved = { ...process.env }
  beforeEach(() => {
    Object.assign(process.env, { TMPDIR: sbx.tmp, HOME: sbx.home, CONTEXT_MODE_MCP_SENTINEL_DIR: sbx.sent })
    routing.resetGuidanceThrottle()
  })
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
    Object.assign(process.env, saved)
  })

  test('guidance is throttled per session, not per process', () => {
    const bash = (sid) => routing.routePreToolUse('Bash', { command: 'npm test' }, '/p', 'claude-code', sid)
    assert.equal(bash('A')?.action, 'context')
    assert.equal(bash('A'), null)
    assert.equal(bash('B')?.action, 'context', 'session B has not seen the hint yet')
  })

  test('WebFetch domains and curl targets can be let through', () => {
    sbx.mcpReady()
    process.env.CONTEXT_MODE_WEBFETCH_ALLOW = 'claude.ai, internal.example'
    process.env.CONTEXT_MODE_CURL_ALLOW = 'localhost'
    const web = (url) => routing.routePreToolUse('WebFetch', { url }, '/p', 'claude-code', 's')
    assert.equal(web('https://claude.ai/code/artifact/1'), null)
    assert.equal(web('https://docs.internal.example/x'), null)
    assert.equal(web('https://example.com/')?.action, 'deny')
    assert.equal(routing.routePreToolUse('Bash', { command: 'curl http://localhost:3000/health' }, '/p', 'claude-code', 's'), null)
    assert.equal(routing.routePreToolUse('Bash', { command: 'curl https://x.test/' }, '/p', 'claude-code', 's')?.action, 'modify')
  })

  test('rules can be switched off, subagent routing too', () => {
    process.env.CONTEXT_MODE_ROUTING_OFF = 'grep,bash'
    assert.equal(routing.routePreToolUse('Grep', { pattern: 'x' }, '/p', 'claude-code', 's'), null)
    assert.equal(routing.routePreToolUse('Bash', { command: 'npm test' }, '/p', 'claude-code', 's'), null)
    process.env.CONTEXT_MODE_SUBAGENT_ROUTING = '0'
    assert.equal(routing.routePreToolUse('Agent', { prompt: 'p' }, '/p', 'claude-code', 's'), null)
  })

  test('the large-Read threshold is configurable', () => {
    const file = sbx.write('cwd/eleven.txt', 'x'.repeat(11))
    process.env.CONTEXT_MODE_READ_NUDGE_BYTES = '10'
    const d = routing.routePreToolUse('Read', { file_path: file }, '/p', 'claude-code', 's')
    assert.equal(d.redirectMeta.bytesAvoided, 11)
  })

  test('a Read hint is not counted as bytes kept out', async () => {
    const file = sbx.write('cwd/big.txt', 'x'.repeat(60000))
    const env = { CLAUDE_PROJECT_DIR: sbx.cwd }
    await sbx.hook('hooks/pretooluse.mjs', { session_id: 's', tool_name: 'Read', tool_input: { file_path: file } }, { env })
    await sbx.hook('hooks/posttooluse.mjs', { session_id: 's', tool_name: 'Read', tool_input: { file_path: file }, tool_response: 'x' }, { env })
    const [db] = sessionDbs(join(sbx.home, '.claude/context-mode/sessions'))
    const events = JSON.parse(loadNative().readSessionEvents(join(sbx.home, '.claude/context-mode/sessions', db), 's'))
    const redirect = events.find((e) => e.type === 'read-redirected')
    assert.ok(redirect, JSON.stringify(events))
    assert.equal(redirect.bytesAvoided, 0)
  })
})
