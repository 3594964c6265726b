// The name a host shows the model for one of our MCP tools.
import { callNative } from '../native.mjs'

export const getToolName = (platform, tool) => callNative('getToolName', platform ? String(platform) : null, String(tool))

export const createToolNamer = (platform) => (tool) => getToolName(platform || 'claude-code', tool)
