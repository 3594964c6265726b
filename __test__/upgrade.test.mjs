// `context-mode upgrade` as a user runs it: a real `node cli.mjs upgrade --platform <p>`
// with HOME and the config dirs in a sandbox. The file it writes must keep what was
// there, register commands that really run (spawned here with a PreToolUse payload),
// and stay byte-identical when upgrade runs again.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { root, Sandbox } from './helpers/sandbox.mjs'

const CLI = join(root, 'cli.mjs')
const PAYLOAD = JSON.stringify({ session_id: 'u', tool_name: 'Bash', tool_input: { command: 'ls' } })

function spawnAndWait(cmd, args, { cwd, env, stdin = '' }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    child.stdin.on('error', () => {})
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(stdin)
  })
}

/** Splits a registered command the way a POSIX shell would for our quoting. */
function shellWords(command) {
  const words = []
  let word = null
  for (let i = 0; i < command.length; i++) {
    const c = command[i]
    if (c === '"') {
      word ??= ''
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && '"\\$`'.includes(command[i + 1])) i++
        word += command[i]
      }
    } else if (c === ' ') {
      if (word !== null) words.push(word)
      word = null
    } else word = (word ?? '') + c
  }
  if (word !== null) words.push(word)
  return words
}

function jsonCommands(text) {
  const out = []
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'command' && typeof x === 'string' ? out.push(x) : walk(x)
  }
  walk(JSON.parse(text).hooks)
  return out
}

function tomlCommands(text) {
  return [...text.matchAll(/^command = '([^']*)'$/gm)].map((m) => m[1])
}

// Per host: where upgrade writes (given the sandbox) and the event name of its PreToolUse hook.
const HOSTS = {
  'claude-code': { env: (s) => ({ CLAUDE_CONFIG_DIR: join(s.base, 'claude') }), file: (s) => join(s.base, 'claude', 'settings.json'), pre: 'hooks/pretooluse.mjs' },
  'gemini-cli': { file: (s) => join(s.home, '.gemini', 'settings.json'), pre: 'hook gemini-cli beforetool' },
  'qwen-code': { file: (s) => join(s.home, '.qwen', 'settings.json'), pre: 'hook qwen-code pretooluse' },
  codex: { env: (s) => ({ CODEX_HOME: join(s.base, 'codex') }), file: (s) => join(s.base, 'codex', 'hooks.json'), pre: 'hook codex pretooluse' },
  cursor: { file: (s) => join(s.cwd, '.cursor', 'hooks.json'), pre: 'hook cursor pretooluse' },
  'vscode-copilot': { file: (s) => join(s.cwd, '.github', 'hooks', 'context-mode.json'), pre: 'hook vscode-copilot pretooluse' },
  'copilot-cli': { env: (s) => ({ COPILOT_HOME: join(s.base, 'copilot') }), file: (s) => join(s.base, 'copilot', 'hooks', 'context-mode.json'), pre: 'hook copilot-cli pretooluse' },
  kiro: { file: (s) => join(s.home, '.kiro', 'agents', 'default.json'), pre: 'hook kiro pretooluse' },
  'antigravity-cli': { file: (s) => join(s.home, '.gemini', 'config', 'hooks.json'), pre: 'hook antigravity-cli pretooluse' },
  kimi: { file: (s) => join(s.home, '.kimi-code', 'config.toml'), pre: 'hook kimi pretooluse', toml: true },
}

const sandboxes = []
after(() => sandboxes.forEach((s) => s.cleanup()))

function upgrade(sbx, env, ...args) {
  return spawnAndWait(process.execPath, [CLI, 'upgrade', ...args], { cwd: sbx.cwd, env: sbx.env(env) })
}

describe('context-mode upgrade --platform <id>', () => {
  for (const [platform, host] of Object.entries(HOSTS)) {
    test(platform, async () => {
      const sbx = new Sandbox()
      sandboxes.push(sbx)
      const env = host.env?.(sbx) ?? {}
      const file = host.file(sbx)
      // Something of the user's that must survive, in the host's own format.
      if (host.toml) sbx.write(file.slice(sbx.base.length + 1), 'default_model = "k2"\n')
      else if (platform === 'claude-code') {
        sbx.write(file.slice(sbx.base.length + 1), JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }] } }))
      }

      const first = await upgrade(sbx, env, '--platform', platform)
      assert.equal(first.code, 0, first.stdout + first.stderr)
      assert.match(first.stdout, /written/)
      assert.match(first.stdout, /Restart/)
      const text = readFileSync(file, 'utf8')
      const commands = host.toml ? tomlCommands(text) : jsonCommands(text)
      if (host.toml) assert.ok(text.startsWith('default_model = "k2"\n'), text)
      if (platform === 'claude-code') {
        const doc = JSON.parse(text)
        assert.deepEqual(doc.permissions, { allow: ['Bash(ls)'] })
        assert.ok(commands.includes('guard.sh'))
        assert.ok(existsSync(`${file}.bak`))
      }
      // Every registered command of ours runs this node and this package, by absolute path.
      const ours = commands.filter((c) => c !== 'guard.sh')
      assert.ok(ours.length > 0)
      for (const c of ours) {
        const [node, script] = shellWords(c)
        assert.equal(node, process.execPath, c)
        assert.ok(script.startsWith(root) && existsSync(script), c)
      }

      const pre = ours.find((c) => c.includes(host.pre))
      assert.ok(pre, `no PreToolUse command in ${commands.join('\n')}`)
      const [cmd, ...args] = shellWords(pre)
      const hook = await spawnAndWait(cmd, args, { cwd: sbx.cwd, env: sbx.env(env), stdin: PAYLOAD })
      assert.equal(hook.code, 0, hook.stdout + hook.stderr)

      const second = await upgrade(sbx, env, '--platform', platform)
      assert.equal(second.code, 0, second.stdout + second.stderr)
      assert.match(second.stdout, /unchanged/)
      assert.doesNotMatch(second.stdout, /written/)
      assert.equal(readFileSync(file, 'utf8'), text)
    })
  }

  test('codex: config.toml gets [features] hooks = true', async () => {
    const sbx = new Sandbox()
    sandboxes.push(sbx)
    const env = { CODEX_HOME: join(sbx.base, 'codex') }
    sbx.write('codex/config.toml', 'model = "o3"\n')
    assert.equal((await upgrade(sbx, env, '--platform', 'codex')).code, 0)
    assert.equal(readFileSync(join(sbx.base, 'codex', 'config.toml'), 'utf8'), 'model = "o3"\n\n[features]\nhooks = true\n')
  })

  test('a malformed JSON file is moved to .broken, not overwritten silently', async () => {
    const sbx = new Sandbox()
    sandboxes.push(sbx)
    const file = sbx.write('cwd/.cursor/hooks.json', '{"version": 1, oops')
    const r = await upgrade(sbx, {}, '--platform', 'cursor')
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /\.broken/)
    assert.equal(readFileSync(`${file}.broken`, 'utf8'), '{"version": 1, oops')
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).version, 1)
  })

  test('--dry-run writes nothing', async () => {
    const sbx = new Sandbox()
    sandboxes.push(sbx)
    const r = await upgrade(sbx, {}, '--platform', 'gemini-cli', '--dry-run')
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /would write/)
    assert.equal(existsSync(join(sbx.home, '.gemini')), false)
  })

  test('hosts with nothing to write exit 0; an unknown id exits 1', async () => {
    const sbx = new Sandbox()
    sandboxes.push(sbx)
    for (const p of ['opencode', 'zed']) {
      const r = await upgrade(sbx, {}, '--platform', p)
      assert.equal(r.code, 0, r.stderr)
      assert.ok(r.stdout.trim().split('\n').length >= 2, r.stdout)
    }
    const bad = await upgrade(sbx, {}, '--platform', 'no-such-host')
    assert.equal(bad.code, 1)
    assert.match(bad.stdout, /unknown platform/)
  })
})
