// The older vscode-copilot formatter of 1.0.169 (deny carries `reason`), for callers that import it.
import { formatDecision } from '../core/formatters.mjs'

export const format = (decision) => formatDecision('legacy:vscode-copilot', decision)
export default format
