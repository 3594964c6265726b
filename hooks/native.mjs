// Loads the native addon as cheaply as possible. Hooks run on every tool call, so
// this skips the generated loader (index.js) when the binary for this machine sits
// next to the package or in its per-platform npm package, and falls back to it
// otherwise. createRequire keeps Node from parsing the loader as an ES module.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

const CANDIDATES = {
  'linux-x64': ['linux-x64-gnu', 'linux-x64-musl'],
  'linux-arm64': ['linux-arm64-gnu', 'linux-arm64-musl'],
  'darwin-x64': ['darwin-x64'],
  'darwin-arm64': ['darwin-arm64'],
  'win32-x64': ['win32-x64-msvc'],
  'win32-arm64': ['win32-arm64-msvc'],
}

let cached

export function loadNative() {
  if (cached) return cached
  const explicit = process.env.NAPI_RS_NATIVE_LIBRARY_PATH
  if (!explicit) {
    for (const triple of CANDIDATES[`${process.platform}-${process.arch}`] ?? []) {
      for (const id of [`../context-mode.${triple}.node`, `context-mode-native-${triple}`]) {
        try {
          return (cached = require(id))
        } catch {}
      }
    }
  }
  return (cached = require('../index.js'))
}

const JS_ERRORS = { TypeError, SyntaxError, RangeError }

/** Calls a native function, turning its "<Name>: message" errors into JS errors of that class. */
export function callNative(name, ...args) {
  try {
    return loadNative()[name](...args)
  } catch (err) {
    const m = /^(TypeError|SyntaxError|RangeError|Error): ([\s\S]*)$/.exec(err?.message ?? '')
    if (m) throw new (JS_ERRORS[m[1]] ?? Error)(m[2])
    throw err
  }
}

/** JSON text for a native call; `undefined` travels as null. */
export const toJson = (value) => JSON.stringify(value) ?? 'null'
