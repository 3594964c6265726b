#!/usr/bin/env node
// Starts the MCP server on stdio: `npm start`, `node start.mjs`, the `context-mode` bin
// without arguments, or a host's MCP config. Runs the bundled server when it is at
// least as new as server.mjs (a clone where server.mjs was edited runs the source).
import module from 'node:module'
import { statSync } from 'node:fs'

// Node 22+ keeps compiled code between starts, which shortens every later start-up.
module.enableCompileCache?.()
const mtime = (file) => {
  try {
    return statSync(new URL(file, import.meta.url)).mtimeMs
  } catch {
    return -1
  }
}
const entry = mtime('./server.bundle.mjs') >= mtime('./server.mjs') ? './server.bundle.mjs' : './server.mjs'
const { startServer } = await import(entry)
await startServer()
