// The MCP server. The official SDK speaks the protocol over stdio; every tool call is
// one call into the native addon, which runs, indexes, searches and keeps the ledger.
// Besides serving, this file only looks after the process: the readiness sentinel the
// hooks check, and exiting (with any background programs) when the host goes away.
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { realpathSync, unlinkSync, writeFileSync } from 'node:fs'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { toolDefinitions } from './server-tools.mjs'

const require = createRequire(import.meta.url)
const ROOT = dirname(fileURLToPath(import.meta.url))
const SENTINEL_REFRESH_MS = 30_000
const PARENT_POLL_MS = 1_000
// How long in-flight calls may finish once the host has gone.
const DRAIN_MS = 1_200

// We never ask the client for input, so the SDK's JSON Schema validator (Ajv) is
// never used: a stub keeps Ajv from being built at start-up.
const NO_ELICITATION = { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'elicitation is not used' }) }

function errorResult(text) {
  return { content: [{ type: 'text', text }], isError: true }
}

/** Serves MCP on stdio until stdin closes, the parent dies or a signal arrives. */
export async function startServer() {
  const native = require('./hooks/native.cjs')
  const { version } = require('./package.json')
  let platform = native.detectPlatform(null)
  let tools = null
  let inFlight = 0

  const server = new Server(
    { name: 'context-mode', version },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, jsonSchemaValidator: NO_ELICITATION },
  )
  server.oninitialized = () => {
    const client = server.getClientVersion()?.name
    if (client) platform = native.detectPlatform(client)
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    tools ??= toolDefinitions(native.availableLanguages(process.execPath))
    return { tools }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params
    const context = { projectDir: native.serverProjectDir(platform), platform, nodePath: process.execPath, packageRoot: ROOT }
    inFlight++
    try {
      return JSON.parse(await native.callTool(name, JSON.stringify(args ?? {}), JSON.stringify(context)))
    } catch (err) {
      return errorResult(`context-mode could not run ${name}: ${err?.message ?? err}`)
    } finally {
      inFlight--
    }
  })
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }))
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }))

  const sentinel = native.mcpSentinelPath(process.pid)
  const touchSentinel = () => {
    try {
      writeFileSync(sentinel, String(process.pid))
    } catch {}
  }
  const removeSentinel = () => {
    try {
      unlinkSync(sentinel)
    } catch {}
  }

  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    const deadline = Date.now() + DRAIN_MS
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    try {
      native.stopBackground()
    } catch {}
    removeSentinel()
    process.exit(0)
  }

  process.on('exit', removeSentinel)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, shutdown)
  process.on('unhandledRejection', (err) => process.stderr.write(`[context-mode] unhandled rejection: ${err?.stack ?? err}\n`))
  process.on('uncaughtException', (err) => {
    // A closed stdout is the host gone, not a bug.
    if (err?.code === 'EPIPE') return shutdown()
    process.stderr.write(`[context-mode] uncaught exception: ${err?.stack ?? err}\n`)
  })
  process.stdout.on('error', shutdown)

  await server.connect(new StdioServerTransport())
  // The host closing our stdin or dying means nobody will read our answers.
  process.stdin.on('end', shutdown)
  process.stdin.on('close', shutdown)
  const parent = process.ppid
  setInterval(() => {
    if (parentGone(parent)) shutdown()
  }, PARENT_POLL_MS).unref()
  touchSentinel()
  setInterval(touchSentinel, SENTINEL_REFRESH_MS).unref()
}

function parentGone(original) {
  if (process.platform === 'win32') {
    try {
      process.kill(original, 0)
      return false
    } catch (err) {
      return err.code !== 'EPERM'
    }
  }
  const now = process.ppid
  return now !== original || now === 1
}

// Started directly (`node server.bundle.mjs`, the file 1.0.169 configs name).
function isMain() {
  try {
    return Boolean(process.argv[1]) && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url
  } catch {
    return false
  }
}
if (isMain()) await startServer()
