// Comparing observed values with conformance expectations: "<prose>" stands for any
// non-empty string, and placeholders name the harness's directories.

export function substitute(value, vars) {
  if (typeof value === 'string') {
    let out = value
    for (const [k, v] of Object.entries(vars)) out = out.split(k).join(v)
    return out
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [substitute(k, vars), substitute(v, vars)]))
  }
  return value
}

/** Deep equality where "<prose>" matches any non-empty string; `ordered` also checks key order. */
export function matches(expected, actual, ordered = false) {
  if (expected === '<prose>') return typeof actual === 'string' && actual.length > 0
  if (expected === '<NOW_MS>') return typeof actual === 'string' ? /^\d+$/.test(actual) : typeof actual === 'number'
  if (typeof expected === 'string' && expected.includes('<NOW_MS>')) {
    const pattern = expected.split('<NOW_MS>').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\d+')
    return typeof actual === 'string' && new RegExp(`^${pattern}$`).test(actual)
  }
  if (expected === null || typeof expected !== 'object') return Object.is(expected, actual) || expected === actual
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matches(e, actual[i], ordered))
  }
  if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false
  const ek = Object.keys(expected)
  const ak = Object.keys(actual)
  if (ek.length !== ak.length) return false
  if (ordered && ek.some((k, i) => k !== ak[i])) return false
  return ek.every((k) => Object.hasOwn(actual, k) && matches(expected[k], actual[k], ordered))
}

/** The error name of an expectation like "TypeError: message" (only the name is compared). */
export const errorName = (text) => /^(\w+)/.exec(text ?? '')?.[1]
