// Whether a context-mode MCP server is up (its readiness sentinel names a live process).
import { callNative } from '../native.mjs'

export const isMCPReady = () => callNative('isMcpReady')
