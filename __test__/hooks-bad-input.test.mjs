// Bad input to hook processes: whatever arrives on stdin, a hook exits as its host
// expects (0, or 1 only for a payload cut off mid-way on the hosts that treated that as
// an error) and prints valid JSON or nothing, quickly, with nothing on stderr.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { formatDecision } from '../hooks/core/formatters.mjs'
import { routePreToolUse } from '../hooks/core/routing.mjs'
import { loadNative } from '../hooks/native.mjs'
import { Sandbox } from './helpers/sandbox.mjs'

const PRE = [
  'hooks/pretooluse.mjs',
  'hooks/codex/pretooluse.mjs',
  'hooks/kimi/pretooluse.mjs',
  'hooks/cursor/pretooluse.mjs',
  'hooks/gemini-cli/beforetool.mjs',
  'hooks/vscode-copilot/pretooluse.mjs',
  'hooks/jetbrains-copilot/pretooluse.mjs',
  'hooks/copilot-cli/pretooluse.mjs',
  'hooks/kiro/pretooluse.mjs',
  'hooks/antigravity-cli/pretooluse.mjs',
]
const OTHER = [
  'hooks/posttooluse.mjs',
  'hooks/sessionstart.mjs',
  'hooks/precompact.mjs',
  'hooks/userpromptsubmit.mjs',
  'hooks/stop.mjs',
  'hooks/codex/posttooluse.mjs',
  'hooks/cursor/stop.mjs',
  'hooks/kimi/userpromptsubmit.mjs',
  'hooks/gemini-cli/aftertool.mjs',
  'hooks/copilot-cli/sessionstart.mjs',
]

const sbx = new Sandbox()
after(() => sbx.cleanup())

/** Valid JSON followed by one newline, or nothing (Kiro may print plain guidance). */
function assertProtocol(r, script) {
  assert.equal(r.stderr, '', `${script}: stderr ${r.stderr}`)
  if (r.stdout === '') return
  if (script.includes('kiro/pretooluse') && !r.stdout.startsWith('{')) return
  assert.ok(r.stdout.endsWith('\n'), `${script}: no trailing newline`)
  assert.doesNotThrow(() => JSON.parse(r.stdout), `${script}: ${r.stdout.slice(0, 200)}`)
}

const BAD_PAYLOADS = {
  empty: '',
  whitespace: ' \n\t ',
  bom: '\uFEFF{"session_id":"s","tool_name":"Bash","tool_input":{"command":"npm test"}}',
  invalid: '{bad',
  truncated: '{"tool_name":"Bash","tool_input":{"command":"ls"',
  null: 'null',
  array: '[1,2,3]',
  string: '"hello"',
  number: '42',
  'wrong types': '{"tool_name":42,"tool_input":"ls","session_id":{"a":1},"cwd":[],"transcript_path":7}',
  'missing tool_input': '{"session_id":"s","tool_name":"Bash"}',
  'invalid utf-8': Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  'deep nesting': '['.repeat(5000) + ']'.repeat(5000),
}

describe('hooks survive bad input', () => {
  for (const script of [...PRE, ...OTHER]) {
    test(script, async () => {
      for (const [name, payload] of Object.entries(BAD_PAYLOADS)) {
        const r = await sbx.run([script], payload)
        assert.equal(r.code, 0, `${script} on ${name}: exit ${r.code}`)
        assertProtocol(r, script)
      }
    })
  }

  test('an unknown platform or event exits 0 silently', async () => {
    for (const argv of [['hook', 'nosuch', 'pretooluse'], ['hook', 'claude-code', 'nosuch'], ['hook'], ['hook', 'cursor', 'preToolUse']]) {
      const r = await sbx.run(['cli.mjs', ...argv], '{"tool_name":"Bash","tool_input":{"command":"curl x"}}')
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], argv.join(' '))
    }
  })

  test('a held-open pipe never hangs a hook past its idle limit', async () => {
    const env = { CONTEXT_MODE_HOOK_STDIN_IDLE_MS: '300' }
    for (const script of ['hooks/pretooluse.mjs', 'hooks/cursor/pretooluse.mjs', 'hooks/sessionstart.mjs']) {
      const r = await sbx.run([script], '', { env, hold: true, timeoutMs: 5000 })
      assert.equal(r.code, 0)
      assert.ok(r.ms < 3000, `${script} took ${r.ms} ms`)
      assertProtocol(r, script)
    }
  })

  test('a partial payload is an error, logged, never parsed', async () => {
    const env = { CONTEXT_MODE_HOOK_STDIN_IDLE_MS: '200' }
    const r = await sbx.run(['hooks/pretooluse.mjs'], '{"tool_name":"Bash","tool_input":{"command":"curl x"', { env, hold: true })
    assert.deepEqual([r.code, r.stdout], [0, ''])
    const log = readFileSync(join(sbx.home, '.claude/context-mode/hook-errors.log'), 'utf8')
    assert.match(log, /^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] pid=\d+ Error: stdin stayed idle/m)
    const codex = await sbx.run(['hooks/codex/pretooluse.mjs'], '{"tool_name":"Bash"', { env, hold: true })
    assert.deepEqual([codex.code, codex.stdout], [1, ''])
  })

  test('a 50 MB tool_response is handled in bounded time', async () => {
    const payload = JSON.stringify({ session_id: 'big', tool_name: 'Read', tool_input: { file_path: '/x' }, tool_response: 'z'.repeat(50 << 20) })
    for (const script of ['hooks/posttooluse.mjs', 'hooks/pretooluse.mjs', 'hooks/codex/posttooluse.mjs']) {
      const r = await sbx.run([script], payload, { timeoutMs: 30000 })
      assert.equal(r.code, 0, script)
      assertProtocol(r, script)
    }
  })

  test('a 20 MB command routes and the redirect marker stays short', async () => {
    sbx.mcpReady()
    const command = 'curl https://x.test/' + 'a'.repeat(20 << 20)
    const r = await sbx.hook('hooks/pretooluse.mjs', { session_id: 'huge', tool_name: 'Bash', tool_input: { command } }, { timeoutMs: 30000 })
    assert.equal(r.code, 0)
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
    const marker = readFileSync(join(sbx.tmp, 'context-mode-redirect-huge.txt'), 'utf8')
    assert.ok(marker.length < 300)
  })
})

describe('a Rust panic never crosses into Node', () => {
  test('it becomes a JS error with the panic message', () => {
    assert.throws(() => loadNative().__panicProbe(), /panic probe/)
  })

  test('the panic prints nothing on stderr', async () => {
    const code = `import('${new URL('../hooks/native.mjs', import.meta.url).href}').then((m) => { try { m.loadNative().__panicProbe() } catch (e) { process.stdout.write(e.message) } })`
    const r = await sbx.run(['--input-type=module', '-e', code], '', { env: { RUST_BACKTRACE: '1' } })
    assert.deepEqual([r.code, r.stderr], [0, ''])
    assert.match(r.stdout, /panic probe/)
  })
})

// A small deterministic PRNG so a failure can be replayed from its seed.
function rng(seed) {
  let s = seed >>> 0
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}
const pick = (r, list) => list[Math.floor(r() * list.length)]

function randomJson(r, depth = 0) {
  const kinds = depth > 3 ? ['s', 'n', 'b', 'z'] : ['s', 'n', 'b', 'z', 'a', 'o']
  switch (pick(r, kinds)) {
    case 's':
      return pick(r, ['', 'curl https://x', 'echo "x"', 'cat <<EOF\nhi\nEOF', 'ls -R', '\u2028\uFEFF', 'gradle', 'rm -rf /', 'mcp__a__b', '<tip>', 'é😀'])
    case 'n':
      return pick(r, [0, -0, 1.5, 1e21, -7, 12345678901234567890])
    case 'b':
      return r() < 0.5
    case 'z':
      return null
    case 'a':
      return Array.from({ length: Math.floor(r() * 4) }, () => randomJson(r, depth + 1))
    default: {
      const keys = ['command', 'cmd', 'file_path', 'path', 'url', 'prompt', 'language', 'code', 'cwd', 'commands', 'label', 'subagent_type', '0', 'x']
      return Object.fromEntries(Array.from({ length: Math.floor(r() * 5) }, () => [pick(r, keys), randomJson(r, depth + 1)]))
    }
  }
}

describe('fuzz', () => {
  const TOOLS = ['Bash', 'Read', 'Grep', 'WebFetch', 'Agent', 'Task', 'Glob', 'mcp__x__y', 'MCP:z', '@a/b', 'run_shell_command', 'view_file', 'mcp__plugin_context-mode_context-mode__ctx_execute', 'ctx_batch_execute', '', 'exec_command']
  const PLATFORMS = ['claude-code', 'codex', 'cursor', 'gemini-cli', 'kiro', 'kimi', 'antigravity-cli', 'copilot-cli', 'vscode-copilot', 'legacy:claude-code', 'nope', undefined]

  test('routing and formatting never crash on random calls', () => {
    const saved = { ...process.env }
    Object.assign(process.env, { TMPDIR: sbx.tmp, HOME: sbx.home, CONTEXT_MODE_MCP_SENTINEL_DIR: sbx.sent })
    try {
      const r = rng(0xc0ffee)
      for (let i = 0; i < 3000; i++) {
        const platform = pick(r, PLATFORMS)
        let decision
        try {
          decision = routePreToolUse(pick(r, TOOLS), randomJson(r), pick(r, ['/p', undefined, '']), platform, pick(r, ['s', undefined, 7, 'a/b']))
        } catch (err) {
          assert.ok(err instanceof TypeError, `iteration ${i}: ${err}`)
          continue
        }
        const fuzzed = r() < 0.3 ? randomJson(r) : decision
        const out = formatDecision(String(platform), fuzzed)
        if (out !== null) assert.equal(typeof JSON.stringify(out), 'string')
      }
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
      Object.assign(process.env, saved)
    }
  })

  test('random bytes and random JSON through hook processes', async () => {
    const r = rng(42)
    for (let i = 0; i < 24; i++) {
      const script = pick(r, [...PRE, ...OTHER])
      const payload =
        r() < 0.5
          ? Buffer.from(Array.from({ length: Math.floor(r() * 300) }, () => Math.floor(r() * 256)))
          : JSON.stringify({ session_id: pick(r, ['s', 5, null]), tool_name: pick(r, TOOLS), tool_input: randomJson(r), cwd: pick(r, [sbx.cwd, 3, '']) })
      const out = await sbx.run([script], payload)
      assert.equal(out.code, 0, `iteration ${i} (${script})`)
      assertProtocol(out, script)
    }
    assert.equal(existsSync(join(sbx.home, '.claude/context-mode')), true)
  })
})
