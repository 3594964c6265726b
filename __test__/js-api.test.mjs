// The JS modules 1.0.169's consumers import keep their names and behave as documented.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import * as codexCaps from '../hooks/core/codex-caps.mjs'
import * as formatters from '../hooks/core/formatters.mjs'
import * as mcpReady from '../hooks/core/mcp-ready.mjs'
import * as detect from '../hooks/core/platform-detect.mjs'
import * as routing from '../hooks/core/routing.mjs'
import * as stdin from '../hooks/core/stdin.mjs'
import * as naming from '../hooks/core/tool-naming.mjs'
import * as legacyClaude from '../hooks/formatters/claude-code.mjs'
import * as helpers from '../hooks/session-helpers.mjs'

describe('exports', () => {
  test('module surfaces', () => {
    const has = (mod, names) => names.forEach((n) => assert.equal(typeof mod[n], n.endsWith('_OPTS') || n === 'TOOL_ALIASES' ? 'object' : 'function', n))
    has(routing, ['routePreToolUse', 'resetGuidanceThrottle', 'isStructurallyBounded', 'TOOL_ALIASES'])
    has(formatters, ['formatDecision'])
    has(stdin, ['readStdin'])
    has(naming, ['getToolName', 'createToolNamer'])
    has(mcpReady, ['isMCPReady'])
    has(detect, ['detectPlatformFromEnv'])
    has(codexCaps, ['parseCodexVersion', 'codexSupportsUpdatedInput'])
    has(helpers, [
      'readStdin', 'parseStdin', 'getSessionId', 'getInputProjectDir', 'getProjectDir', 'resolveConfigDir', 'parseAgyPayload', 'fromAgy',
      'CLAUDE_OPTS', 'GEMINI_OPTS', 'ANTIGRAVITY_CLI_OPTS', 'VSCODE_OPTS', 'COPILOT_OPTS', 'CURSOR_OPTS', 'CODEX_OPTS', 'KIRO_OPTS', 'KIMI_OPTS', 'JETBRAINS_OPTS',
    ])
    has(legacyClaude, ['format'])
  })
})

describe('behaviour', () => {
  test('option objects carry the documented env names', () => {
    assert.deepEqual(helpers.CLAUDE_OPTS, { configDir: '.claude', configDirEnv: 'CLAUDE_CONFIG_DIR', projectDirEnv: 'CLAUDE_PROJECT_DIR', sessionIdEnv: 'CLAUDE_SESSION_ID' })
    assert.equal(helpers.JETBRAINS_OPTS.configDir, '.config/JetBrains')
    assert.equal(helpers.CODEX_OPTS.configDirEnv, 'CODEX_HOME')
  })

  test('updatedInput keeps the payload\'s key order and JS number formatting', () => {
    const input = JSON.parse('{"code":"ls","language":"shell","2":"b","1":"a","big":12345678901234567890,"e":1e21}')
    const d = routing.routePreToolUse('mcp__plugin_context-mode_context-mode__ctx_execute', input, '/proj', 'claude-code', 'order')
    assert.deepEqual(Object.keys(d.updatedInput), ['1', '2', 'code', 'language', 'big', 'e', 'cwd'])
    assert.equal(JSON.stringify(d.updatedInput), '{"1":"a","2":"b","code":"ls","language":"shell","big":12345678901234567000,"e":1e+21,"cwd":"/proj"}')
  })

  test('errors keep their JS classes', () => {
    assert.throws(() => helpers.parseStdin('{x'), SyntaxError)
    assert.throws(() => helpers.getSessionId({ transcript_path: 5 }), TypeError)
    assert.throws(() => routing.routePreToolUse('Agent', 'p', '/p', 'claude-code', 's'), TypeError)
  })

  test('tool namers follow the host', () => {
    assert.equal(naming.createToolNamer('cursor')('ctx_search'), 'ctx_search')
    assert.equal(naming.createToolNamer()('ctx_search'), 'mcp__plugin_context-mode_context-mode__ctx_search')
  })

  test('codex versions', () => {
    assert.deepEqual(codexCaps.parseCodexVersion('codex-cli 0.141.2'), [0, 141, 2])
    assert.equal(codexCaps.parseCodexVersion('nope'), null)
  })

  test('legacy formatter module', () => {
    assert.deepEqual(legacyClaude.format({ action: 'deny' }), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', reason: 'Blocked by context-mode' } })
  })
})
