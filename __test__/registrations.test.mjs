// A 1.0.169 user's hook registrations keep working: hooks/hooks.json registers the same
// events, matchers and commands, every file a registration names exists, every
// `context-mode hook <platform> <event>` in the shipped configs is dispatched, and each
// registered command answers a realistic payload the way its host expects.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { loadNative } from '../hooks/native.mjs'
import { root, Sandbox } from './helpers/sandbox.mjs'

const json = (rel) => JSON.parse(readFileSync(join(root, rel), 'utf8'))
const sbx = new Sandbox()
after(() => sbx.cleanup())

const P = 'mcp__plugin_context-mode_context-mode__'
const POST_MATCHER = 'Bash|Read|Write|Edit|NotebookEdit|Glob|Grep|TodoWrite|TaskCreate|TaskUpdate|EnterPlanMode|ExitPlanMode|Skill|Agent|AskUserQuestion|EnterWorktree|mcp__'

const PAYLOADS = {
  pretooluse: { session_id: 'reg', tool_name: 'Bash', tool_input: { command: 'npm test' } },
  posttooluse: { session_id: 'reg', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'a\nb' },
  precompact: { session_id: 'reg', trigger: 'auto' },
  sessionstart: { session_id: 'reg', source: 'startup' },
  userpromptsubmit: { session_id: 'reg', prompt: 'fix the failing test' },
  stop: { session_id: 'reg', stop_hook_active: false },
}

function commandsOf(config) {
  const out = []
  const walk = (v, event) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, event))
    else if (v && typeof v === 'object') {
      if (typeof v.command === 'string') out.push({ event, command: v.command })
      for (const [k, x] of Object.entries(v)) if (k !== 'command') walk(x, event ?? k)
    }
  }
  walk(config.hooks ?? config)
  return out
}

describe('Claude Code plugin hooks.json', () => {
  const hooks = json('hooks/hooks.json').hooks

  test('registers 1.0.169\'s events and matchers', () => {
    assert.deepEqual(Object.keys(hooks).sort(), ['PostToolUse', 'PreCompact', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit'])
    assert.deepEqual(
      hooks.PreToolUse.map((g) => g.matcher),
      ['Bash', 'WebFetch', 'Read', 'Grep', 'Agent', `${P}ctx_execute`, `${P}ctx_execute_file`, `${P}ctx_batch_execute`, 'mcp__'],
    )
    assert.deepEqual(hooks.PostToolUse.map((g) => g.matcher), [POST_MATCHER])
    for (const e of ['PreCompact', 'SessionStart', 'UserPromptSubmit', 'Stop']) assert.deepEqual(hooks[e].map((g) => g.matcher), [''])
  })

  test('every command is node "${CLAUDE_PLUGIN_ROOT}/hooks/<event>.mjs" and the file exists', () => {
    for (const [event, groups] of Object.entries(hooks)) {
      for (const g of groups) {
        for (const h of g.hooks) {
          assert.equal(h.type, 'command')
          const m = /^node "\$\{CLAUDE_PLUGIN_ROOT\}\/(hooks\/[a-z]+\.mjs)"$/.exec(h.command)
          assert.ok(m, h.command)
          assert.equal(m[1], `hooks/${event.toLowerCase()}.mjs`)
          assert.ok(existsSync(join(root, m[1])), m[1])
        }
      }
    }
  })

  test('each registered script answers a realistic payload', async () => {
    for (const [event, payload] of Object.entries(PAYLOADS)) {
      const r = await sbx.hook(`hooks/${event}.mjs`, payload, { env: { CLAUDE_PROJECT_DIR: sbx.cwd } })
      assert.equal(r.code, 0, event)
      assert.equal(r.stderr, '')
      if (r.stdout) JSON.parse(r.stdout)
      if (event === 'sessionstart') assert.equal(JSON.parse(r.stdout).hookSpecificOutput.hookEventName, 'SessionStart')
      if (event === 'pretooluse') assert.ok(JSON.parse(r.stdout).hookSpecificOutput.additionalContext)
    }
  })
})

describe('configs of the other hosts', () => {
  const configs = [
    'hooks/cursor/hooks.json',
    'configs/cursor/hooks.json',
    'configs/gemini-cli/settings.json',
    'configs/codex/hooks.json',
    '.codex-plugin/hooks.json',
    'configs/kimi/hooks.json',
    'configs/kiro/agent.json',
    'configs/copilot-cli/hooks.json',
    'configs/vscode-copilot/hooks.json',
    'configs/jetbrains-copilot/hooks.json',
    'configs/antigravity-cli/hooks.json',
  ]

  test('every `context-mode hook` pair is dispatched and every script path exists', () => {
    const native = loadNative()
    let count = 0
    for (const file of configs) {
      for (const { command } of commandsOf(json(file))) {
        count++
        const cli = /context-mode(?:-native)? hook (\S+) (\S+)$/.exec(command)
        const script = /"\$\{PLUGIN_ROOT\}\/(hooks\/\S+\.mjs)"$/.exec(command)
        assert.ok(cli || script, `${file}: ${command}`)
        if (cli) assert.ok(native.isHookMapped(cli[1], cli[2]), `${file}: ${command}`)
        if (script) assert.ok(existsSync(join(root, script[1])), `${file}: ${command}`)
      }
    }
    assert.ok(count > 40)
  })

  test('each dispatched command answers with exit 0 and valid output', async () => {
    for (const file of ['configs/codex/hooks.json', 'configs/cursor/hooks.json', 'configs/copilot-cli/hooks.json', 'configs/gemini-cli/settings.json', 'configs/kimi/hooks.json']) {
      for (const { command } of commandsOf(json(file))) {
        const [, platform, event] = /hook (\S+) (\S+)$/.exec(command)
        const payload = PAYLOADS[event] ?? { session_id: 'reg', cwd: sbx.cwd }
        const r = await sbx.run(['cli.mjs', 'hook', platform, event], JSON.stringify({ ...payload, cwd: sbx.cwd }))
        assert.equal(r.code, 0, command)
        assert.equal(r.stderr, '', command)
        if (r.stdout) JSON.parse(r.stdout)
        if (['codex', 'cursor'].includes(platform)) assert.ok(r.stdout, `${command} must always answer`)
      }
    }
  })
})
