// Payload helpers shared by every hook, with the per-host option objects.
import { callNative, toJson } from './native.mjs'

export { readStdin } from './core/stdin.mjs'

const OPTS = Object.fromEntries(
  callNative('platformOptions').map((o) => [
    o.name,
    Object.freeze({ configDir: o.configDir, configDirEnv: o.configDirEnv, projectDirEnv: o.projectDirEnv, sessionIdEnv: o.sessionIdEnv }),
  ]),
)
export const CLAUDE_OPTS = OPTS.CLAUDE_OPTS
export const GEMINI_OPTS = OPTS.GEMINI_OPTS
export const ANTIGRAVITY_CLI_OPTS = OPTS.ANTIGRAVITY_CLI_OPTS
export const VSCODE_OPTS = OPTS.VSCODE_OPTS
export const COPILOT_OPTS = OPTS.COPILOT_OPTS
export const CURSOR_OPTS = OPTS.CURSOR_OPTS
export const CODEX_OPTS = OPTS.CODEX_OPTS
export const KIRO_OPTS = OPTS.KIRO_OPTS
export const KIMI_OPTS = OPTS.KIMI_OPTS
export const JETBRAINS_OPTS = OPTS.JETBRAINS_OPTS
/** Qwen Code's own Stop hook (the other Qwen hooks run Claude Code's). */
export const QWEN_OPTS = OPTS.QWEN_OPTS

// The options object a caller passed, by identity; anything else is read as Claude's.
const keyOf = (opts) => Object.entries(OPTS).find(([, o]) => o === opts)?.[0] ?? 'CLAUDE_OPTS'

/** The payload: {} for nothing; throws SyntaxError on malformed JSON. */
export const parseStdin = (raw) => JSON.parse(callNative('parseStdin', String(raw ?? '')))

export const getSessionId = (input, opts = CLAUDE_OPTS) => JSON.parse(callNative('getSessionId', toJson(input ?? {}), keyOf(opts)))

export const getInputProjectDir = (input, opts = CLAUDE_OPTS) => callNative('getInputProjectDir', toJson(input ?? {}), keyOf(opts))

export const getProjectDir = () => callNative('getProjectDir')

export const resolveConfigDir = (opts = CLAUDE_OPTS) => callNative('resolveConfigDir', keyOf(opts))

/** Antigravity CLI: a parser that never throws, and its payload in Claude's shape. */
export const parseAgyPayload = (raw) => JSON.parse(callNative('parseAgyPayload', String(raw ?? '')))

export const fromAgy = (payload) => JSON.parse(callNative('fromAgy', toJson(payload ?? {})))
