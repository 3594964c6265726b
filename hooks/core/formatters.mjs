// formatDecision: a routing decision in the JSON each host expects.
import { callNative, toJson } from '../native.mjs'

export function formatDecision(platform, decision, opts = {}) {
  const out = callNative('formatDecision', String(platform), toJson(decision), toJson(opts ?? {}))
  return out == null ? null : JSON.parse(out)
}
