// Plays the in-process conformance vectors (route, format, session_id, project_dir and
// the aux kinds) against our JS modules, in the environment harness.json describes.
// Prints one JSON line per vector: {id, pass, got}.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { errorName, matches, substitute } from './match.mjs'

const [, , root, fixturesDir] = process.argv
const dirs = JSON.parse(process.env.CONFORMANCE_DIRS)
const vars = { '<TMP>': dirs.TMP, '<HOME>': dirs.HOME, '<CWD>': dirs.CWD, '<FIX>': dirs.FIX, '<SENT>': dirs.SENT, '<PPID>': String(process.ppid) }

const routing = await import(join(root, 'hooks/core/routing.mjs'))
const formatters = await import(join(root, 'hooks/core/formatters.mjs'))
const helpers = await import(join(root, 'hooks/session-helpers.mjs'))
const naming = await import(join(root, 'hooks/core/tool-naming.mjs'))
const detect = await import(join(root, 'hooks/core/platform-detect.mjs'))
const codex = await import(join(root, 'hooks/core/codex-caps.mjs'))
const { loadNative } = await import(join(root, 'hooks/native.mjs'))
const native = loadNative()

const OPTS = {
  claude: helpers.CLAUDE_OPTS, gemini: helpers.GEMINI_OPTS, antigravity_cli: helpers.ANTIGRAVITY_CLI_OPTS, vscode: helpers.VSCODE_OPTS,
  copilot: helpers.COPILOT_OPTS, cursor: helpers.CURSOR_OPTS, codex: helpers.CODEX_OPTS, kiro: helpers.KIRO_OPTS, kimi: helpers.KIMI_OPTS,
  jetbrains: helpers.JETBRAINS_OPTS,
}

const baseEnv = { ...process.env }
function applyEnv(env) {
  for (const k of Object.keys(process.env)) if (!(k in baseEnv)) delete process.env[k]
  Object.assign(process.env, baseEnv)
  for (const [k, v] of Object.entries(env ?? {})) {
    if (v === null) delete process.env[k]
    else process.env[k] = substitute(v, vars)
  }
}

function guidanceState() {
  const out = {}
  const walk = (rel) => {
    for (const name of readdirSync(join(dirs.TMP, rel))) {
      const r = rel ? `${rel}/${name}` : name
      if (!rel && !name.startsWith('context-mode-guidance-')) continue
      if (statSync(join(dirs.TMP, r)).isDirectory()) {
        out[`${r}/`] = '<DIR>'
        walk(r)
      } else out[r] = readFileSync(join(dirs.TMP, r), 'utf8')
    }
  }
  walk('')
  return out
}

function resetState() {
  routing.resetGuidanceThrottle()
  for (const name of readdirSync(dirs.TMP)) {
    if (name.startsWith('context-mode-guidance-') || name.startsWith('context-mode-codex-caps')) rmSync(join(dirs.TMP, name), { recursive: true, force: true })
  }
  for (const name of readdirSync(dirs.SENT)) rmSync(join(dirs.SENT, name), { force: true })
}

function prepare(input) {
  if (input.mcp_ready) writeFileSync(join(dirs.SENT, `context-mode-mcp-ready-${process.pid}`), String(process.pid))
  const pre = input.pre_state ?? {}
  const dir = join(dirs.TMP, input.session_id ? `context-mode-guidance-s-${input.session_id}` : `context-mode-guidance-${process.ppid}`)
  for (const kind of pre.guidance ?? []) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, kind), '')
  }
  for (const [kind, content] of Object.entries(pre.counters ?? {})) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${kind}.count`), String(content))
  }
}

const call = (fn) => {
  try {
    return { value: fn() }
  } catch (err) {
    return { throws: `${err.constructor?.name ?? 'Error'}: ${err.message}` }
  }
}

const route = (i) => routing.routePreToolUse(i.tool_name, i.tool_input, i.project_dir, i.platform, i.session_id, i.options)

const RUN = {
  route(v) {
    const input = substitute(v.input, vars)
    const expected = substitute(v.expected, vars)
    if (input.sequence) {
      const decisions = input.sequence.map((step) => {
        prepare({ ...step, mcp_ready: input.mcp_ready ?? step.mcp_ready })
        return route(step)
      })
      const state = guidanceState()
      return { pass: matches(expected.decisions, decisions) && matches(expected.state_after, state), got: { decisions, state } }
    }
    prepare(input)
    const r = call(() => route(input))
    const state = guidanceState()
    if (expected.throws) return { pass: errorName(r.throws) === errorName(expected.throws), got: r }
    return { pass: !r.throws && matches(expected.decision, r.value) && matches(expected.state_after, state), got: { ...r, state } }
  },
  format(v) {
    const { platform, decision, opts } = v.input
    const r = call(() => formatters.formatDecision(platform, decision, opts))
    const wire = r.value == null ? null : JSON.stringify(r.value)
    const expectedWire = v.expected.wire == null ? null : JSON.parse(v.expected.wire)
    const pass = !r.throws && matches(v.expected.output, r.value) && matches(expectedWire, wire == null ? null : JSON.parse(wire), true)
    return { pass, got: { output: r.value, wire } }
  },
  session_id(v) {
    const r = call(() => helpers.getSessionId(v.input.payload, OPTS[v.input.opts]))
    const expected = substitute(v.expected, vars)
    if (expected.throws) return { pass: errorName(r.throws) === errorName(expected.throws), got: r }
    return { pass: !r.throws && matches(expected.session_id, r.value), got: r }
  },
  project_dir(v) {
    const { resolver, opts, payload } = v.input
    const r = call(() => {
      switch (resolver) {
        case 'getInputProjectDir': return helpers.getInputProjectDir(payload, opts === 'qwen_local' ? helpers.QWEN_OPTS : OPTS[opts])
        case 'getProjectDir': return helpers.getProjectDir()
        case 'kiro_pretooluse': return native.hookProjectDir('kiro', JSON.stringify(payload))
        case 'gemini_beforetool': return native.hookProjectDir('gemini-cli', JSON.stringify(payload))
        case 'jetbrains_pretooluse': return native.hookProjectDir('jetbrains-copilot', JSON.stringify(payload))
        case 'agy': return native.hookProjectDir('antigravity-cli', JSON.stringify(payload))
        default: throw new Error(`unknown resolver ${resolver}`)
      }
    })
    const expected = substitute(v.expected, vars)
    const got = { project_dir: r.value ?? null, undefined: r.value == null }
    return { pass: !r.throws && matches(expected, got), got: r.throws ? r : got }
  },
  structurally_bounded: (v) => check(v, () => routing.isStructurallyBounded(v.input.command)),
  config_dir: (v) => check(v, () => helpers.resolveConfigDir(OPTS[v.input.opts])),
  platform_detect: (v) => check(v, () => detect.detectPlatformFromEnv()),
  tool_name: (v) => check(v, () => naming.getToolName(v.input.platform, v.input.tool)),
  parse_stdin: (v) => check(v, () => helpers.parseStdin(v.input.raw)),
  agy_parse: (v) => check(v, () => helpers.parseAgyPayload(v.input.raw)),
  agy_payload: (v) => check(v, () => helpers.fromAgy(v.input.payload)),
  codex_version: (v) =>
    check(v, () => {
      return { parsed: codex.parseCodexVersion(v.input.raw), supported: codex.isCodexVersionSupported(v.input.raw) }
    }),
  codex_caps: (v) =>
    check(v, () => {
      const file = join(dirs.TMP, 'context-mode-codex-caps.json')
      const cache = typeof v.input.cache_file === 'string' ? v.input.cache_file : JSON.stringify(v.input.cache_file)
      writeFileSync(file, cache)
      const r = native.codexCapsDecide(cache, v.input.now_ms, v.input.codex_version_stdout)
      return { supported: r.supported, cache_after: r.cacheAfter ?? cache }
    }),
}

function check(v, fn) {
  const r = call(fn)
  const expected = substitute(v.expected, vars)
  if (expected.throws) return { pass: errorName(r.throws) === errorName(expected.throws), got: r }
  return { pass: !r.throws && matches(expected.value, r.value), got: r }
}

const kinds = new Set(Object.keys(RUN))
for (const file of ['hooks.jsonl', 'hooks-aux.jsonl']) {
  for (const line of readFileSync(join(fixturesDir, file), 'utf8').split('\n')) {
    if (!line.trim()) continue
    const v = JSON.parse(line)
    if (!kinds.has(v.kind)) continue
    resetState()
    applyEnv(v.env)
    let result
    try {
      result = RUN[v.kind](v)
    } catch (err) {
      result = { pass: false, got: { harnessError: String(err?.stack ?? err) } }
    }
    process.stdout.write(JSON.stringify({ id: v.id, kind: v.kind, ...result }) + '\n')
  }
}
