// A deterministic synthetic markdown corpus for store benchmarks: documents of
// headed sections, prose, lists and code, with a Zipf-like vocabulary, and queries
// labelled with the document they were drawn from.

const BASE = `queue worker lease retry backoff deploy canary rollback token secret webhook signature schedule cron tenant quota
metric trace span log audit config option flag timeout deadline batch stream partition shard replica leader election snapshot
compaction index cache eviction latency throughput budget alert incident runbook migration schema column table cursor offset
checkpoint artifact registry image manifest digest pipeline stage gate approval environment region zone cluster node pod volume
mount proxy gateway route handler middleware session cookie header payload response request client server socket buffer channel
signal process thread pool executor scheduler timer clock drift skew jitter heartbeat probe health readiness liveness capacity`
  .split(/\s+/)

/** mulberry32: a small, well-mixed deterministic generator. */
export function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = ['zor', 'bel', 'qui', 'fam', 'trex', 'vol', 'nim', 'dra', 'kul', 'shen', 'pax', 'wim', 'lor', 'gat', 'yev', 'mup']

/** A rare made-up word (three or four syllables). */
function rare(r) {
  const n = 3 + Math.floor(r() * 2)
  return Array.from({ length: n }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('')
}

/** Builds `count` documents of roughly `docBytes` each, plus `queryCount` labelled queries. */
export function buildCorpus({ count = 250, docBytes = 20_000, queryCount = 200, seed = 7 } = {}) {
  const r = rng(seed)
  const vocab = [...BASE]
  for (let i = 0; i < 2500; i++) vocab.push(`${BASE[i % BASE.length]}${['er', 'ing', 'ed', 'ly', 'ness', 'able', 'ward', 'let'][i % 8]}${Math.floor(i / 64) || ''}`)
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * r() ** 2.2))]
  const sentence = (n) => Array.from({ length: n }, zipf).join(' ')
  const docs = []
  const queries = []
  for (let d = 0; d < count; d++) {
    const label = `doc-${String(d).padStart(3, '0')}.md`
    const parts = [`# ${sentence(3)} guide ${d}`]
    let size = 0
    let section = 0
    while (size < docBytes) {
      const heading = `## ${sentence(2)} ${d}-${section++}`
      const para = Array.from({ length: 3 + Math.floor(r() * 4) }, () => `${sentence(10 + Math.floor(r() * 12))}.`).join(' ')
      const list = Array.from({ length: 3 }, () => `- ${sentence(6)}`).join('\n')
      const code = r() < 0.3 ? `\n\`\`\`sh\n# ${sentence(4)}\nharbor ${zipf()} --${zipf()}=${Math.floor(r() * 100)}\n\`\`\`\n` : ''
      const block = `${heading}\n\n${para}\n\n${list}\n${code}`
      parts.push(block)
      size += block.length
      if (queries.length < queryCount && r() < (queryCount * 1.1) / (count * 40)) {
        // A fact only this section states, found again by its rare words.
        const a = rare(r)
        const b = rare(r)
        const fact = `The ${a} setting of the ${zipf()} ${zipf()} controls how ${b} behaves during ${zipf()}.`
        parts.push(fact)
        size += fact.length
        queries.push({ query: r() < 0.5 ? `${a} ${b}` : `${zipf()} ${a} setting`, label, needle: a })
      }
    }
    docs.push({ label, text: parts.join('\n\n') })
  }
  while (queries.length < queryCount) {
    // Topic queries: a document's own title words.
    const d = docs[Math.floor(r() * docs.length)]
    const title = d.text.split('\n')[0].replace(/^# /, '').replace(/ guide \d+$/, '')
    queries.push({ query: title, label: d.label, needle: null })
  }
  return { docs, queries }
}
