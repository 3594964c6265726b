// The native addon for ES modules (see native.cjs for how it is found).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export const loadNative = () => require('./native.cjs')

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
