// Realistic agent tasks for bench/savings.mjs. Each writes its data into a project,
// then makes the tool calls an agent would make. `needle` is the fact the agent was
// after: when the answers so far do not show it, the agent asks ctx_search
// (`followUp`), and those bytes count too. Data is generated from a fixed seed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { rng } from './corpus.mjs'

function write(project, rel, text) {
  const file = join(project, rel)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

const pick = (r, xs) => xs[Math.floor(r() * xs.length)]

function accessLog(lines) {
  const r = rng(7)
  const paths = ['/api/cart', '/api/products', '/api/users/me', '/static/app.js', '/static/app.css', '/api/search', '/health', '/api/orders']
  const out = []
  for (let i = 0; i < lines; i++) {
    const status = r() < 0.01 ? pick(r, [500, 502, 503]) : r() < 0.05 ? 404 : 200
    const path = status >= 500 && r() < 0.5 ? '/api/checkout' : pick(r, paths)
    const ip = `10.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`
    const t = new Date(Date.UTC(2026, 10, 28, 8, 0, 0) + i * 1370).toISOString()
    out.push(`${ip} - - [${t}] "GET ${path}?page=${i % 17} HTTP/1.1" ${status} ${Math.floor(r() * 40000)} "-" "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0"`)
  }
  out[lines - 1] = out[lines - 1].replace(/GET \S+/, 'GET /api/last-request-marker')
  return `${out.join('\n')}\n`
}

function testOutput() {
  const r = rng(11)
  const lines = []
  const suites = ['cart', 'checkout', 'search', 'users', 'auth', 'orders', 'inventory', 'shipping']
  for (let s = 0; s < 40; s++) {
    const suite = `src/${suites[s % suites.length]}/${['total', 'format', 'validate', 'parse', 'render'][s % 5]}${s}.test.ts`
    const failing = s === 17 || s === 31
    lines.push(`${failing ? 'FAIL' : 'PASS'} ${suite} (${(r() * 3).toFixed(2)} s)`)
    for (let t = 0; t < 12; t++) lines.push(`  ${failing && t === 4 ? '✕' : '✓'} ${['computes', 'formats', 'rejects', 'accepts', 'handles'][t % 5]} case ${t} of ${suite.split('/')[1]} (${Math.floor(r() * 40)} ms)`)
    if (failing) {
      lines.push(`  ● ${suite.split('/')[1]} › handles case 4`, '', `    expect(received).toBe(expected)`, '', `    Expected: 1299`, `    Received: 1300`, '', `      at Object.<anonymous> (${suite}:42:17)`, '')
    }
  }
  lines.push('', 'Test Suites: 2 failed, 38 passed, 40 total', 'Tests:       2 failed, 478 passed, 480 total', 'Snapshots:   0 total', 'Time:        38.412 s', 'Ran all test suites.')
  return `${lines.join('\n')}\n`
}

function gitLog() {
  const r = rng(13)
  const authors = ['Ana Souza <ana@example.com>', 'Ben Carter <ben@example.com>', 'Chen Wei <chen@example.com>', 'Dana Ito <dana@example.com>']
  const subjects = ['Fix flaky cart test', 'Bump dependencies', 'Refactor order service', 'Add search filters', 'Improve logging', 'Tidy CSS', 'Speed up product list']
  const out = []
  for (let i = 0; i < 150; i++) {
    const hash = Math.floor(r() * 2 ** 52).toString(16).padStart(13, '0') + Math.floor(r() * 2 ** 27).toString(16).padStart(7, '0')
    const subject = i === 61 ? 'Payment: retry declined cards with exponential backoff' : pick(r, subjects)
    out.push(`commit ${hash}`, `Author: ${i === 61 ? authors[2] : pick(r, authors)}`, `Date:   ${new Date(Date.UTC(2026, 9, 1) + i * 3.6e6 * 7).toUTCString()}`, '', `    ${subject}`, '')
    for (let f = 0; f < 3 + Math.floor(r() * 4); f++) out.push(` src/${i === 61 && f === 0 ? 'payments/retry.ts' : pick(r, ['cart', 'orders', 'search', 'ui'])}/file${f}.ts | ${Math.floor(r() * 80)} ${'+'.repeat(Math.floor(r() * 20))}${'-'.repeat(Math.floor(r() * 10))}`)
    out.push(` ${3 + Math.floor(r() * 4)} files changed, ${Math.floor(r() * 200)} insertions(+), ${Math.floor(r() * 90)} deletions(-)`, '')
  }
  return `${out.join('\n')}\n`
}

function users(n) {
  const r = rng(17)
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `user${i + 1}`, email: `user${i + 1}@example.com`, role: pick(r, ['admin', 'editor', 'viewer', 'viewer', 'viewer']), active: r() > 0.2, created: new Date(Date.UTC(2025, 0, 1) + i * 8.64e7).toISOString() })),
    null,
    2,
  )
}

function orders(n) {
  const r = rng(19)
  return JSON.stringify(
    { total: n, orders: Array.from({ length: n }, (_, i) => ({ id: `ord_${(100000 + i).toString(36)}`, customer: `user${Math.floor(r() * 900) + 1}`, amount: Number((r() * 400).toFixed(2)), currency: 'EUR', status: i === 777 ? 'chargeback_disputed' : pick(r, ['paid', 'paid', 'shipped', 'refunded']), items: Math.floor(r() * 5) + 1 })) },
    null,
    2,
  )
}

function pageSnapshot() {
  const out = ['- document "Shop — Checkout":']
  for (let i = 0; i < 500; i++) {
    if (i === 260) out.push('  - button "Place order" [ref=e2601] [disabled]')
    out.push(`  - listitem [ref=e${i}]:`, `    - link "Product ${i} — ${['Blue', 'Red', 'Green'][i % 3]} mug" [ref=e${i}a]`, `    - text: "€${(i * 1.37).toFixed(2)}"`)
  }
  return `${out.join('\n')}\n`
}

function buildLog() {
  const out = []
  for (let i = 0; i < 700; i++) out.push(`   Compiling crate-${i} v0.${i % 9}.${i % 13} (registry+https://github.com/rust-lang/crates.io-index)`)
  for (let i = 0; i < 40; i++) out.push(`warning: unused variable: \`tmp${i}\``, `  --> src/module${i}.rs:${10 + i}:9`, '')
  out.push('error[E0308]: mismatched types', '  --> src/orders/total.rs:88:24', '   |', '88 |     let total: u64 = price * qty as f64;', '   |                ---   ^^^^^^^^^^^^^^^^^ expected `u64`, found `f64`', '', 'error: could not compile `shop` (bin "shop") due to 1 previous error')
  return `${out.join('\n')}\n`
}

function salesCsv(rows) {
  const r = rng(23)
  const out = ['id,date,region,product,units,revenue']
  for (let i = 0; i < rows; i++) out.push(`${i + 1},2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${pick(r, ['north', 'south', 'east', 'west'])},${pick(r, ['mug', 'plate', 'bowl', 'cup'])},${Math.floor(r() * 20) + 1},${(r() * 300).toFixed(2)}`)
  out[151] = out[151].replace(/,[a-z]+,(\d+),/, ',teapot-limited,$1,')
  return `${out.join('\n')}\n`
}

function bigSource() {
  const out = ["import { db } from './db'", '']
  for (let i = 0; i < 400; i++) {
    out.push(`/** Computes report ${i} for the dashboard. */`, `export function report${i}(from: Date, to: Date): Promise<Row[]> {`, `  const rows = db.query('SELECT * FROM events WHERE kind = $1 AND at BETWEEN $2 AND $3', ['k${i}', from, to])`, `  return rows.then((r) => r.filter((x) => x.value > ${i}).map((x) => ({ ...x, score: x.value * ${i % 7} })))`, '}', '')
  }
  return `${out.join('\n')}\n`
}

function depsTree() {
  const out = ['shop@1.4.0 /srv/shop']
  for (let i = 0; i < 300; i++) {
    out.push(`├─┬ pkg-${i}@${i % 5}.${i % 11}.${i % 3}`)
    out.push(`│ └── ${i % 37 === 0 ? `lodash@4.17.${10 + (i % 12)}` : `dep-${i}-inner@1.0.${i % 9}`}`)
  }
  return `${out.join('\n')}\n`
}

function kubePods() {
  const out = ['NAMESPACE     NAME                                   READY   STATUS             RESTARTS   AGE']
  for (let i = 0; i < 110; i++) {
    const status = i === 57 ? 'CrashLoopBackOff' : 'Running'
    out.push(`${['default', 'payments', 'search', 'kube-system'][i % 4].padEnd(14)}${`svc-${i}-7d9f8c6b5-x${i}q`.padEnd(39)}1/1     ${status.padEnd(19)}${i === 57 ? 41 : 0}          ${(i % 30) + 1}d`)
  }
  return `${out.join('\n')}\n`
}

function docs(project) {
  const r = rng(29)
  const topics = ['authentication', 'caching', 'deployment', 'rate limits', 'webhooks', 'pagination', 'errors', 'retries']
  const verbs = ['configure', 'enable', 'rotate', 'inspect', 'override', 'disable', 'monitor', 'tune']
  const nouns = ['the gateway', 'each tenant', 'the worker pool', 'a staging project', 'the admin console', 'the CLI', 'background jobs', 'the SDK client']
  const tails = ['before the next release.', 'when traffic spikes.', 'for every region.', 'after a failed deploy.', 'with the default profile.', 'during maintenance windows.']
  const sentence = (topic) => `To ${pick(r, verbs)} ${topic} for ${pick(r, nouns)}, set the matching option ${pick(r, tails)}`
  const paragraph = (topic) => Array.from({ length: 2 + Math.floor(r() * 3) }, () => sentence(topic)).join(' ')
  for (let i = 0; i < 40; i++) {
    const topic = topics[i % topics.length]
    const body = [`# ${topic} guide part ${i}`, '', paragraph(topic), '']
    for (let s = 0; s < 8; s++) {
      body.push(`## ${['Overview', 'Limits', 'Policy', 'Examples', 'Migration', 'Troubleshooting', 'Reference', 'FAQ'][s]} of ${topic}`, '', paragraph(topic), '', paragraph(topic), '')
      if (s % 3 === 0) body.push('```yaml', `${topic.replace(' ', '_')}:\n  tier: ${s}\n  limit: ${100 * (s + 1)}`, '```', '')
    }
    if (i === 13) body.push('## Webhook signing', '', 'Webhook payloads are signed with HMAC-SHA256 using the secret from the dashboard; the signature is in the X-Shop-Signature header.')
    write(project, `docs/${topic.replace(' ', '-')}-${i}.md`, `${body.join('\n')}\n`)
  }
}

export function htmlPage() {
  const items = Array.from({ length: 300 }, (_, i) => `<li><a href="/p/${i}">Release note ${i}</a>: fixed issue #${1000 + i} in the ${['parser', 'renderer', 'cache'][i % 3]} module.</li>`).join('\n')
  return `<!doctype html><html><head><title>Release notes</title><style>body{font:14px sans-serif}</style><script>window.analytics={}</script></head><body><nav><a href="/">Home</a></nav><main><h1>Release notes 2026</h1><h2>Breaking changes</h2><p>The <code>--legacy-peer</code> flag was removed in version 9.2; use <code>--strict-peer</code> instead.</p><h2>All fixes</h2><ul>${items}</ul></main><footer>© Shop</footer></body></html>`
}

/** Every scenario: name, setup(project), calls(ctx) -> [{tool, args}], needle, followUp. */
export const scenarios = [
  {
    name: 'access log: status counts',
    setup: (p) => write(p, 'logs/access.log', accessLog(20000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: "awk '{print $8}' logs/access.log | sort | uniq -c | sort -rn" } }],
    needle: /\d+ 200/,
  },
  {
    name: 'access log: last 400 lines',
    setup: (p) => write(p, 'logs/access.log', accessLog(20000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'tail -n 400 logs/access.log' } }],
    needle: /last-request-marker/,
    followUp: ['last-request-marker'],
  },
  {
    name: 'access log: 5xx with intent',
    setup: (p) => write(p, 'logs/access.log', accessLog(20000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat logs/access.log', intent: 'checkout 500 502 503 server errors' } }],
    needle: /\/api\/checkout/,
    followUp: ['checkout 503'],
  },
  {
    name: 'test run: failing suite, no intent',
    setup: (p) => write(p, 'reports/test-output.txt', testOutput()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat reports/test-output.txt; exit 1' } }],
    needle: /FAIL src\/\w+\/\w+17\.test\.ts/,
    followUp: ['FAIL test.ts'],
  },
  {
    name: 'test run: failing suite, intent',
    setup: (p) => write(p, 'reports/test-output.txt', testOutput()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat reports/test-output.txt; exit 1', intent: 'failing tests FAIL expected received' } }],
    needle: /FAIL src\/\w+\/\w+17\.test\.ts/,
    followUp: ['FAIL test.ts'],
  },
  {
    name: 'git log: who changed payment retries',
    setup: (p) => write(p, 'git-log.txt', gitLog()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat git-log.txt', intent: 'payment retry backoff' } }],
    needle: /retry declined cards/,
    followUp: ['payment retry declined'],
  },
  {
    name: 'JSON API: users by role (script)',
    setup: (p) => write(p, 'api/users.json', users(3000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'javascript', code: "const u = JSON.parse(require('fs').readFileSync('api/users.json', 'utf8')); const by = {}; for (const x of u) by[x.role] = (by[x.role] || 0) + 1; console.log(JSON.stringify(by))" } }],
    needle: /"admin":\d+/,
  },
  {
    name: 'JSON API: raw orders response',
    setup: (p) => write(p, 'api/orders.json', orders(1500)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat api/orders.json' } }],
    needle: /chargeback_disputed/,
    followUp: ['chargeback_disputed'],
  },
  {
    name: 'page snapshot: find the order button',
    setup: (p) => write(p, 'snapshots/page.yml', pageSnapshot()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat snapshots/page.yml' } }],
    needle: /Place order/,
    followUp: ['Place order button'],
  },
  {
    name: 'build log: compile error',
    setup: (p) => write(p, 'logs/build.log', buildLog()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat logs/build.log; exit 101' } }],
    needle: /mismatched types/,
    followUp: ['error mismatched types'],
  },
  {
    name: 'CSV: revenue by region (script)',
    setup: (p) => write(p, 'data/sales.csv', salesCsv(30000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: "awk -F, 'NR>1 {s[$3]+=$6} END {for (r in s) printf \"%s %.2f\\n\", r, s[r]}' data/sales.csv | sort" } }],
    needle: /north \d+\.\d\d/,
  },
  {
    name: 'CSV: first 200 rows',
    setup: (p) => write(p, 'data/sales.csv', salesCsv(30000)),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'head -n 200 data/sales.csv' } }],
    needle: /teapot-limited/,
    followUp: ['teapot-limited'],
  },
  {
    name: 'large source file: list exports',
    setup: (p) => write(p, 'src/reports.ts', bigSource()),
    calls: () => [{ tool: 'ctx_execute_file', args: { path: 'src/reports.ts', language: 'shell', code: 'echo "$FILE_CONTENT" | grep -c "^export function"; echo "$FILE_CONTENT" | grep "^export function report39[0-9]"' } }],
    needle: /report399/,
  },
  {
    name: 'dependency tree: lodash versions',
    setup: (p) => write(p, 'deps.txt', depsTree()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat deps.txt', intent: 'lodash versions' } }],
    needle: /lodash@4\.17\.\d+/,
    followUp: ['lodash'],
  },
  {
    name: 'kubectl: crashing pod',
    setup: (p) => write(p, 'kube.txt', kubePods()),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'cat kube.txt' } }],
    needle: /CrashLoopBackOff/,
    followUp: ['CrashLoopBackOff'],
  },
  {
    name: 'stack trace: crashing script',
    setup: (p) => write(p, 'scripts/crash.py', 'def walk(n):\n    if n == 0:\n        raise RuntimeError("inventory count went negative for sku mug-blue")\n    return walk(n - 1)\n\nwalk(60)\n'),
    calls: () => [{ tool: 'ctx_execute', args: { language: 'shell', code: 'python3 scripts/crash.py' } }],
    needle: /inventory count went negative/,
    followUp: ['RuntimeError inventory'],
  },
  {
    name: 'batch: explore a repo',
    setup: (p) => {
      write(p, 'logs/access.log', accessLog(5000))
      write(p, 'src/reports.ts', bigSource())
      write(p, 'package.json', JSON.stringify({ name: 'shop', version: '1.4.0', dependencies: { express: '^4.19.0', pg: '^8.11.0', zod: '^3.23.0' }, scripts: { test: 'vitest' } }, null, 2))
      docs(p)
    },
    calls: () => [
      {
        tool: 'ctx_batch_execute',
        args: {
          commands: [
            { label: 'files', command: 'find . -type f | sort' },
            { label: 'package', command: 'cat package.json' },
            { label: 'sizes', command: 'wc -l logs/access.log src/reports.ts' },
            { label: 'exports', command: 'grep -n "^export function" src/reports.ts' },
          ],
          queries: ['dependencies express pg', 'access.log lines', 'report120'],
        },
      },
    ],
    needle: /express/,
    followUp: ['express dependency'],
  },
  {
    name: 'docs: index and search',
    setup: docs,
    calls: () => [
      { tool: 'ctx_index', args: { path: 'docs' } },
      { tool: 'ctx_search', args: { queries: ['webhook signature header', 'rate limits for each tenant', 'retries policy'] } },
    ],
    needle: /X-Shop-Signature/,
    followUp: ['X-Shop-Signature'],
  },
  {
    name: 'web page: fetch and search',
    setup: () => {},
    calls: ({ url }) => [
      { tool: 'ctx_fetch_and_index', args: { url: `${url}/release-notes` } },
      { tool: 'ctx_search', args: { queries: ['legacy-peer flag removed'] } },
    ],
    needle: /strict-peer/,
    followUp: ['strict-peer'],
  },
]
