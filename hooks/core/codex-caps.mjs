// Whether the installed Codex accepts rewritten tool input (0.141.0 and later).
import { callNative } from '../native.mjs'

export const parseCodexVersion = (raw) => callNative('parseCodexVersion', String(raw ?? ''))

export const codexSupportsUpdatedInput = () => callNative('codexSupportsUpdatedInput')

export const isCodexVersionSupported = (raw) => callNative('codexVersionSupported', String(raw ?? ''))
