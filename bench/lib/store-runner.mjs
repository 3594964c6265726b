// One side of bench/store.mjs, in its own process: index the corpus into a fresh
// database, then run the queries, and print timings as JSON.
//   node store-runner.mjs ours|anchor <dbDir> [anchorPkg]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildCorpus } from './corpus.mjs'

const [, , side, dbDir, anchorPkg] = process.argv
mkdirSync(dbDir, { recursive: true })
const { docs, queries } = buildCorpus()
const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0)
// The corpus as files: both sides index the directory, as an agent would.
const corpusDir = join(dbDir, 'corpus')
mkdirSync(corpusDir, { recursive: true })
for (const d of docs) writeFileSync(join(corpusDir, d.label), d.text)
const now = () => Number(process.hrtime.bigint()) / 1e6

let index
let search
if (side === 'ours') {
  process.env.CONTEXT_MODE_DIR = dbDir
  const { loadNative } = await import(pathToFileURL(join(import.meta.dirname, '../../hooks/native.mjs')).href)
  const native = loadNative()
  const ctx = JSON.stringify({ projectDir: join(dbDir, 'project'), platform: 'claude-code' })
  index = async () => {
    const r = JSON.parse(await native.callTool('ctx_index', JSON.stringify({ path: corpusDir, maxFiles: 10000 }), ctx))
    if (r.isError) throw new Error(r.content[0].text)
  }
  search = (q) => native.searchStore(ctx, q, 5, null).map((h) => ({ label: h.source.split('/').pop(), content: h.content }))
} else {
  const { ContentStore } = await import(pathToFileURL(join(anchorPkg, 'build', 'store.js')).href)
  const store = new ContentStore(join(dbDir, 'anchor.db'))
  index = async () => store.indexDirectory({ path: corpusDir, maxFiles: 10000 })
  search = (q) => store.searchWithFallback(q, 5).map((h) => ({ label: h.source.split('/').pop(), content: h.content }))
}

const t0 = now()
await index()
const indexMs = now() - t0

const times = []
let hit5 = 0
for (const q of queries) {
  const s = now()
  const hits = search(q.query)
  times.push(now() - s)
  if (hits.some((h) => h.label === q.label && (!q.needle || h.content.includes(q.needle)))) hit5++
  else if (process.env.BENCH_VERBOSE) console.error(`miss: ${q.query} -> ${q.label}; got ${hits.map((h) => h.label).join(', ')}`)
}
times.sort((a, b) => a - b)
const pct = (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))]
console.log(JSON.stringify({ side, docs: docs.length, bytes, indexMs, searches: times.length, searchMedianMs: pct(0.5), searchP95Ms: pct(0.95), hit5: hit5 / queries.length, rssMb: process.memoryUsage().rss / 1048576 }))
