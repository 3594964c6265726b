#!/usr/bin/env node
// Context savings on realistic tasks: every scenario plays the same tool calls through
// our server (and, with --compare, through context-mode 1.0.169) and counts every byte
// of every answer the model receives, code echo included. When the answers do not
// show the fact the task was after, the follow-up ctx_search the agent would make is
// played and counted too. "Raw" is what the same commands print, or the files the
// agent would read, without context-mode.
//
//   node bench/savings.mjs [--compare] [--sweep] [--only <substring>]
//
// --sweep replays our side with several inline limits (CONTEXT_MODE_INLINE_LIMIT_BYTES)
// to show the trade-off behind the default.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureAnchor, fmt, nativeBuild, table } from './lib/harness.mjs'
import { McpSession } from './lib/mcp-session.mjs'
import { htmlPage, scenarios } from './lib/savings-scenarios.mjs'

const args = process.argv.slice(2)
const compare = args.includes('--compare')
const sweep = args.includes('--sweep')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null
const anchor = compare || sweep ? ensureAnchor() : null
if (!nativeBuild().release) console.error('bench: this is a debug build; run `npm run build` for meaningful numbers')

const page = htmlPage()
const http = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(page)
})
await new Promise((r) => http.listen(0, '127.0.0.1', r))
const url = `http://127.0.0.1:${http.address().port}`

const bytesOfTree = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? bytesOfTree(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0)

/** What the calls would have put into the context without context-mode. */
function rawBytes(project, calls) {
  const run = (cmd, argv) => {
    const r = spawnSync(cmd, argv, { cwd: project, encoding: 'buffer', maxBuffer: 1 << 30 })
    return (r.stdout?.length ?? 0) + (r.stderr?.length ?? 0)
  }
  let total = 0
  for (const { tool, args: a } of calls) {
    if (tool === 'ctx_execute') {
      const runner = { shell: ['sh', ['-c', a.code]], javascript: [process.execPath, ['-e', a.code]], python: ['python3', ['-c', a.code]] }[a.language]
      total += run(...runner)
    } else if (tool === 'ctx_execute_file') total += statSync(join(project, a.path)).size
    else if (tool === 'ctx_batch_execute') total += a.commands.reduce((n, c) => n + run('sh', ['-c', c.command]), 0)
    else if (tool === 'ctx_index') total += bytesOfTree(join(project, a.path))
    else if (tool === 'ctx_fetch_and_index') total += Buffer.byteLength(page)
  }
  return total
}

async function play(side, scenario, env = {}) {
  const project = mkdtempSync(join(tmpdir(), 'cm-savings-'))
  try {
    scenario.setup(project)
    const calls = scenario.calls({ url })
    const s = new McpSession(side, anchor, { project, env })
    try {
      await s.initialize()
      let received = 0
      let seen = ''
      for (const { tool, args: a } of calls) {
        const r = await s.call(tool, a)
        received += r.bytes
        seen += `\n${r.text}`
      }
      let found = scenario.needle.test(seen) ? 'yes' : 'no'
      if (found === 'no' && scenario.followUp) {
        const r = await s.call('ctx_search', { queries: scenario.followUp })
        received += r.bytes
        found = scenario.needle.test(r.text) ? 'after search' : 'no'
      }
      return { received, found, raw: rawBytes(project, calls) }
    } finally {
      await s.close()
    }
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
}

const kb = (n) => `${fmt(n / 1024, 1)} KB`
const pct = (kept, raw) => `${fmt((100 * kept) / raw, 1)}%`
const chosen = scenarios.filter((s) => !only || s.name.includes(only))

try {
  if (sweep) {
    const rows = []
    for (const limit of [1024, 2048, 4096, 8192, 16384, 32768]) {
      let raw = 0
      let received = 0
      let searches = 0
      let missed = 0
      for (const sc of chosen) {
        const r = await play('ours', sc, { CONTEXT_MODE_INLINE_LIMIT_BYTES: String(limit) })
        raw += r.raw
        received += r.received
        if (r.found === 'after search') searches++
        if (r.found === 'no') missed++
      }
      rows.push([String(limit), kb(received), pct(raw - received, raw), String(searches), String(missed)])
    }
    console.log(`\nInline limit sweep over ${chosen.length} scenarios (bytes received include follow-up searches)\n`)
    console.log(table(['inline limit (bytes)', 'received', 'kept out', 'follow-up searches', 'fact not found'], rows))
  } else {
    const rows = []
    const totals = { raw: 0, ours: 0, anchor: 0 }
    let worse = 0
    for (const sc of chosen) {
      const ours = await play('ours', sc)
      const theirs = compare ? await play('anchor', sc) : null
      totals.raw += ours.raw
      totals.ours += ours.received
      if (theirs) totals.anchor += theirs.received
      if (theirs && ours.received > theirs.received) worse++
      const row = [sc.name, kb(ours.raw), kb(ours.received), pct(ours.raw - ours.received, ours.raw), ours.found]
      if (theirs) row.push(kb(theirs.received), pct(ours.raw - theirs.received, ours.raw), theirs.found)
      rows.push(row)
    }
    const total = ['**total**', kb(totals.raw), kb(totals.ours), pct(totals.raw - totals.ours, totals.raw), '']
    if (compare) total.push(kb(totals.anchor), pct(totals.raw - totals.anchor, totals.raw), '')
    rows.push(total)
    const header = ['scenario', 'raw', 'ours received', 'ours kept out', 'fact shown']
    if (compare) header.push('1.0.169 received', '1.0.169 kept out', 'fact shown')
    console.log(`\nContext savings over ${chosen.length} scenarios (every byte of every answer, follow-up searches included)\n`)
    console.log(table(header, rows))
    if (compare) console.log(`\nScenarios where we returned more bytes than 1.0.169: ${worse}`)
  }
} finally {
  http.close()
}
