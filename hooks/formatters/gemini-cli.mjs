// The older gemini-cli formatter of 1.0.169 (deny carries `reason`), for callers that import it.
import { formatDecision } from '../core/formatters.mjs'

export const format = (decision) => formatDecision('legacy:gemini-cli', decision)
export default format
