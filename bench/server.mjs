#!/usr/bin/env node
// MCP server cost: spawn to `initialize` answered, idle RSS two seconds later, and the
// round trip of ctx_execute `echo hi`. Anonymous RSS leaves out the pages of the node
// binary and shared libraries (about 44 MiB of Node 22 that any Node server maps). With --compare, context-mode 1.0.169 runs the
// same steps on the same Node 22, alternating run by run.
//
//   node bench/server.mjs [--compare] [--runs 15]
import { ensureAnchor, fmt, median, nativeBuild, table } from './lib/harness.mjs'
import { McpSession } from './lib/mcp-session.mjs'

const args = process.argv.slice(2)
const compare = args.includes('--compare')
const runs = Number(args[args.indexOf('--runs') + 1] || 15) || 15
const anchor = compare ? ensureAnchor() : null
if (!nativeBuild().release) console.error('bench: this is a debug build; run `npm run build` for meaningful numbers')

async function once(side) {
  const s = new McpSession(side, anchor)
  try {
    const initMs = await s.initialize()
    await s.request('tools/list')
    await new Promise((r) => setTimeout(r, 2000))
    const { rss, anon } = s.memory()
    const echo = []
    for (let i = 0; i < 7; i++) {
      const r = await s.call('ctx_execute', { language: 'shell', code: 'echo hi' })
      if (!/hi/.test(r.text)) throw new Error(`${side}: echo hi answered ${JSON.stringify(r.text)}`)
      echo.push(r.ms)
    }
    return { initMs, rss, anon, echoMs: median(echo.slice(2)) }
  } finally {
    await s.close()
  }
}

const sides = anchor ? ['ours', 'anchor'] : ['ours']
const samples = Object.fromEntries(sides.map((s) => [s, []]))
await once('ours')
if (anchor) await once('anchor')
for (let i = 0; i < runs; i++) for (const side of i % 2 ? [...sides].reverse() : sides) samples[side].push(await once(side))

const m = (side, k) => median(samples[side].map((x) => x[k]))
const rows = [
  ['spawn → initialize (ms)', 'initMs', 1],
  ['idle RSS (MiB)', 'rss', 1],
  ['idle anonymous RSS (MiB)', 'anon', 1],
  ['ctx_execute `echo hi` (ms)', 'echoMs', 2],
].map(([label, k, d]) => {
  const ours = m('ours', k)
  if (!anchor) return [label, fmt(ours, d)]
  const theirs = m('anchor', k)
  return [label, fmt(ours, d), fmt(theirs, d), `${fmt(ours / theirs, 2)}x`]
})
console.log(`\nMCP server, medians of ${runs} runs${anchor ? ', both on the Node 22 of bench/.anchor' : ''}\n`)
console.log(table(anchor ? ['measure', 'ours', `1.0.169`, 'ours / 1.0.169'] : ['measure', 'ours'], rows))
