#!/usr/bin/env node
// Knowledge-base speed and relevance: index a ~5 MB markdown corpus, then run 200
// labelled queries, reporting index time, search median/p95 and hit@5. With
// --compare the same corpus and queries go through context-mode 1.0.169's store on
// Node 22, side by side.
//
//   node bench/store.mjs [--compare] [--runs 3]
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanEnv, ensureAnchor, fmt, median, nativeBuild, root, table } from './lib/harness.mjs'

const args = process.argv.slice(2)
const compare = args.includes('--compare')
const runs = Number(args[args.indexOf('--runs') + 1] || 3) || 3
const anchor = compare ? ensureAnchor() : null
const node = anchor ? anchor.node : process.execPath
const build = nativeBuild()
if (!build.release) console.error('bench: this is a debug build; run `npm run build` for meaningful numbers')

function runSide(side) {
  const dir = mkdtempSync(join(tmpdir(), `cm-bench-store-${side}-`))
  try {
    const r = spawnSync(node, [join(root, 'bench/lib/store-runner.mjs'), side, dir, anchor?.pkg ?? ''], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 })
    if (r.status !== 0) throw new Error(`${side}: ${r.stderr}`)
    return JSON.parse(r.stdout.trim().split('\n').pop())
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const sides = anchor ? ['ours', 'anchor'] : ['ours']
const samples = Object.fromEntries(sides.map((s) => [s, []]))
for (let i = 0; i < runs; i++) for (const s of i % 2 ? [...sides].reverse() : sides) samples[s].push(runSide(s))
const summary = Object.fromEntries(
  sides.map((s) => {
    const xs = samples[s]
    return [s, { indexMs: median(xs.map((x) => x.indexMs)), searchMedianMs: median(xs.map((x) => x.searchMedianMs)), searchP95Ms: median(xs.map((x) => x.searchP95Ms)), hit5: xs[0].hit5, bytes: xs[0].bytes, rssMb: median(xs.map((x) => x.rssMb)) }]
  }),
)
const o = summary.ours
console.log(`\nKnowledge base: ${(o.bytes / 1e6).toFixed(1)} MB markdown, 200 queries, median of ${runs} runs, ${build.release ? 'release' : 'DEBUG'} build\n`)
const rows = [['context-mode-native', fmt(o.indexMs, 0), fmt(o.searchMedianMs, 2), fmt(o.searchP95Ms, 2), fmt(o.hit5, 3)]]
if (anchor) {
  const a = summary.anchor
  rows.push([`context-mode ${anchor.version}`, fmt(a.indexMs, 0), fmt(a.searchMedianMs, 2), fmt(a.searchP95Ms, 2), fmt(a.hit5, 3)])
  rows.push(['ours / 1.0.169', `${fmt(o.indexMs / a.indexMs, 2)}x`, `${fmt(o.searchMedianMs / a.searchMedianMs, 2)}x`, `${fmt(o.searchP95Ms / a.searchP95Ms, 2)}x`, ''])
}
console.log(table(['store', 'index ms', 'search median ms', 'search p95 ms', 'hit@5'], rows))
mkdirSync(join(root, 'bench/results'), { recursive: true })
writeFileSync(join(root, 'bench/results/store.json'), JSON.stringify({ runs, release: build.release, summary }, null, 2))
