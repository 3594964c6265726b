// The knowledge base on real database files: relevance over a labelled corpus,
// the chunk cap, several processes at once, a kill -9 mid-write, fetching from a
// local server (redirects, blocked targets, errors, limits), and bad input.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { loadNative } from '../hooks/native.mjs'
import { root } from './helpers/sandbox.mjs'

const native = loadNative()
const base = mkdtempSync(join(tmpdir(), 'cm-store-'))
process.env.CONTEXT_MODE_DIR = join(base, 'storage')
after(() => rmSync(base, { recursive: true, force: true }))

function project(name) {
  const dir = join(base, name)
  mkdirSync(dir, { recursive: true })
  return { dir, ctx: JSON.stringify({ projectDir: dir, platform: 'claude-code' }) }
}
const call = async (ctx, tool, args) => JSON.parse(await native.callTool(tool, JSON.stringify(args), ctx))
const text = (r) => r.content[0].text

describe('relevance', () => {
  const corpus = join(root, '__test__/fixtures/relevance')
  const ctx = JSON.stringify({ projectDir: corpus, platform: 'claude-code' })

  test('labelled queries over docs, logs, code, JSON and CJK', async () => {
    for (const dir of ['docs', 'logs', 'code', 'json', 'cjk']) {
      const r = await call(ctx, 'ctx_index', {
        path: join(corpus, dir),
        extensions: ['.md', '.log', '.ts', '.py', '.rs', '.go', '.sh', '.js', '.json'],
        maxFiles: 1000,
        respectGitignore: false,
      })
      assert.ok(!r.isError, text(r))
    }
    const queries = JSON.parse(readFileSync(join(corpus, 'queries.json'), 'utf8'))
    assert.ok(queries.length >= 40)
    let hit1 = 0
    let hit5 = 0
    let rr = 0
    for (const q of queries) {
      const hits = native.searchStore(ctx, q.query, 5, null)
      const rank = hits.findIndex((h) => h.source.endsWith(`/${q.file}`) && h.content.includes(q.needle))
      if (rank === 0) hit1++
      if (rank >= 0) {
        hit5++
        rr += 1 / (rank + 1)
      }
    }
    const n = queries.length
    const report = { queries: n, hit1: +(hit1 / n).toFixed(3), hit5: +(hit5 / n).toFixed(3), mrr: +(rr / n).toFixed(3) }
    console.log(`relevance: ${JSON.stringify(report)}`)
    assert.ok(report.hit5 >= 0.9, JSON.stringify(report))
    assert.ok(report.hit1 >= 0.7, JSON.stringify(report))
    assert.ok(report.mrr >= 0.8, JSON.stringify(report))
  })

  test('a minified one-line bundle is capped and still found', async () => {
    const hits = native.searchStore(ctx, 'harborTelemetryBeacon', 3, 'bundle.min.js')
    assert.ok(hits.length > 0)
    assert.ok(hits[0].content.includes('harborTelemetryBeacon'))
    for (const h of native.searchStore(ctx, 'function', 20, 'bundle.min.js')) assert.ok(Buffer.byteLength(h.content) <= 4096)
  })

  test('results carry source, path and line', async () => {
    const r = await call(ctx, 'ctx_search', { queries: ['E_LEASE_EXPIRED'], limit: 2 })
    const first = r.structuredContent.results[0]
    assert.equal(first.query, 'E_LEASE_EXPIRED')
    assert.ok(first.path && first.line > 0 && first.source && first.title && first.snippet)
    const lines = readFileSync(first.path, 'utf8').split('\n')
    assert.ok(lines.slice(first.line - 1, first.line + 3).join('\n').includes('E_LEASE_EXPIRED'), `line ${first.line} of ${first.path}`)
  })
})

describe('search behaviour', () => {
  test('newer content wins a tie, fetched and indexed content share the default scope', async () => {
    const { ctx } = project('ties')
    await call(ctx, 'ctx_index', { content: '# Deploy notes\nThe deploy window is Tuesday.', source: 'old-notes' })
    await new Promise((r) => setTimeout(r, 1100))
    await call(ctx, 'ctx_index', { content: '# Deploy notes\nThe deploy window is Tuesday.\n', source: 'new-notes' })
    const r = await call(ctx, 'ctx_search', { queries: ['deploy window'] })
    assert.equal(r.structuredContent.results[0].source, 'new-notes')
  })

  test('limit, source and content type filters; bad arguments are clear errors', async () => {
    const { ctx } = project('filters')
    await call(ctx, 'ctx_index', { content: '# A\nalpha beta\n\n```js\nbeta()\n```', source: 'one' })
    await call(ctx, 'ctx_index', { content: '# B\nbeta gamma', source: 'two' })
    assert.equal((await call(ctx, 'ctx_search', { queries: ['beta'], limit: 1 })).structuredContent.results.length, 1)
    const scoped = await call(ctx, 'ctx_search', { queries: ['beta'], source: 'two' })
    assert.deepEqual(scoped.structuredContent.results.map((x) => x.source), ['two'])
    for (const bad of [{ queries: ['x'], limit: -1 }, { queries: ['x'], limit: 'lots' }, { queries: 5 }, {}, { queries: ['x'], contentType: 'video' }]) {
      const r = await call(ctx, 'ctx_search', bad)
      assert.equal(r.isError, true, JSON.stringify(bad))
      assert.ok(text(r).length > 10)
    }
    assert.equal((await call(ctx, 'ctx_search', { queries: '["beta"]' })).isError, undefined, 'a JSON-encoded array is accepted')
  })
})

describe('several processes at once', () => {
  test('two processes index while a third searches: no error, no lost chunk', async () => {
    const { dir, ctx } = project('concurrent')
    const worker = join(root, '__test__/helpers/store-worker.mjs')
    const run = (...args) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [worker, dir, ...args], { env: process.env })
        let out = ''
        let err = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (err += d))
        child.on('close', (code) => resolve({ code, out, err }))
      })
    const results = await Promise.all([run('index', 'alpha', '25'), run('index', 'beta', '25'), run('search', '40')])
    for (const r of results) {
      assert.equal(r.code, 0, r.err)
      assert.deepEqual(JSON.parse(r.out.trim().split('\n').pop()), { errors: 0 }, r.err)
    }
    for (const label of ['alpha', 'beta']) {
      for (const i of [0, 12, 24]) {
        const hits = native.searchStore(ctx, `m${label}x${i}`, 1, `${label}-${i}`)
        assert.equal(hits.length, 1, `${label}-${i}`)
      }
    }
    const health = native.storeHealth(ctx)
    assert.ok(health.integrityOk)
  })

  test('kill -9 in the middle of indexing leaves a sound database', async () => {
    const { dir, ctx } = project('crash')
    const child = spawn(process.execPath, [join(root, '__test__/helpers/store-worker.mjs'), dir, 'flood'])
    await new Promise((resolve) => child.stdout.once('data', resolve))
    await new Promise((r) => setTimeout(r, 400))
    child.kill('SIGKILL')
    await new Promise((r) => child.on('close', r))
    const health = native.storeHealth(ctx)
    assert.ok(health.integrityOk, 'PRAGMA integrity_check and the FTS5 check pass')
    const r = await call(ctx, 'ctx_index', { content: '# After\nthe next index works', source: 'after-crash' })
    assert.ok(!r.isError, text(r))
    assert.equal(native.searchStore(ctx, 'next index works', 1, 'after-crash').length, 1)
  })
})

describe('fetch and index', () => {
  let server
  let origin
  const BIG = 2 << 20
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url, 'http://x')
      const hop = Number(url.searchParams.get('n') ?? 0)
      switch (url.pathname) {
        case '/page':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          return res.end('<html><head><title>Harbor docs</title><style>x{}</style></head><body><nav>menu</nav><h1>Queues</h1><p>A queue holds jobs until a worker leases them.</p><h2>Priorities</h2><p>Priority lanes run before the default lane.</p></body></html>')
        case '/data':
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(JSON.stringify({ users: [{ id: 'u1', name: 'Ada' }, { id: 'u2', name: 'Lin' }] }))
        case '/chain':
          if (hop < 3) {
            res.writeHead(302, { location: `/chain?n=${hop + 1}` })
            return res.end()
          }
          res.writeHead(200, { 'content-type': 'text/plain' })
          return res.end('end of the redirect chain')
        case '/loop':
          res.writeHead(302, { location: `/loop?n=${hop + 1}` })
          return res.end()
        case '/to-metadata':
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' })
          return res.end()
        case '/slow':
          setTimeout(() => res.end('late'), 5000)
          return
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' })
          return res.end('z'.repeat(BIG + 1))
        default:
          res.writeHead(404)
          return res.end('missing')
      }
    })
    await new Promise((r) => server.listen(0, '127.0.0.1', r))
    origin = `http://127.0.0.1:${server.address().port}`
  })
  after(() => server.close())

  test('an HTML page becomes searchable markdown; the second call is served from cache', async () => {
    const { ctx } = project('fetch')
    const first = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/page` })
    assert.ok(!first.isError, text(first))
    assert.match(text(first), /Fetched and indexed \d+ sections/)
    assert.doesNotMatch(text(first), /menu|x\{\}/)
    const hits = native.searchStore(ctx, 'priority lanes', 1, null)
    assert.equal(hits[0].title, 'Queues > Priorities')
    const again = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/page` })
    assert.match(text(again), /Already indexed/)
    const forced = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/page`, force: true })
    assert.match(text(forced), /Fetched and indexed/)
  })

  test('JSON is kept as JSON; a batch reports each request', async () => {
    const { ctx } = project('fetch-batch')
    const r = await call(ctx, 'ctx_fetch_and_index', { requests: [{ url: `${origin}/data`, source: 'users' }, { url: `${origin}/nope` }], concurrency: 2 })
    assert.notEqual(r.isError, true, 'one success is not an error')
    assert.match(text(r), /1 fetched, 0 cached, 1 failed/)
    assert.match(text(r), /\[error\] .*\/nope: HTTP 404/)
    assert.ok(native.searchStore(ctx, 'Ada', 1, 'users')[0].content.includes('"name": "Ada"'))
  })

  test('redirect chains are followed, at most five hops, each one vetted', async () => {
    const { ctx } = project('fetch-redirects')
    const chain = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/chain` })
    assert.ok(!chain.isError, text(chain))
    const loop = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/loop` })
    assert.equal(loop.isError, true)
    assert.match(text(loop), /more than 5 redirects/)
    const meta = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/to-metadata` })
    assert.equal(meta.isError, true)
    assert.match(text(meta), /169\.254\.169\.254.*blocked/)
  })

  test('404, slow servers and oversized bodies fail in bounded time', async () => {
    const { ctx } = project('fetch-limits')
    const missing = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/missing` })
    assert.match(text(missing), /HTTP 404/)
    process.env.CONTEXT_MODE_FETCH_TIMEOUT_MS = '600'
    process.env.CONTEXT_MODE_FETCH_MAX_BYTES = String(BIG)
    try {
      const started = Date.now()
      const slow = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/slow` })
      assert.equal(slow.isError, true)
      assert.match(text(slow), /no response within 600 ms/)
      assert.ok(Date.now() - started < 3000)
      const big = await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/big` })
      assert.match(text(big), /larger than/)
    } finally {
      delete process.env.CONTEXT_MODE_FETCH_TIMEOUT_MS
      delete process.env.CONTEXT_MODE_FETCH_MAX_BYTES
    }
    assert.equal(native.storeHealth(ctx).chunks, 0, 'failures store nothing')
  })

  test('loopback is refused under CTX_FETCH_STRICT=1; bad URLs are clear errors', async () => {
    const { ctx } = project('fetch-strict')
    process.env.CTX_FETCH_STRICT = '1'
    try {
      assert.match(text(await call(ctx, 'ctx_fetch_and_index', { url: `${origin}/page` })), /private .*blocked/)
    } finally {
      delete process.env.CTX_FETCH_STRICT
    }
    assert.match(text(await call(ctx, 'ctx_fetch_and_index', { url: 'not a url' })), /invalid URL/)
    assert.match(text(await call(ctx, 'ctx_fetch_and_index', { url: 'ftp://example.com/x' })), /scheme "ftp" is not allowed/)
    assert.match(text(await call(ctx, 'ctx_fetch_and_index', { url: 'http://[fe80::1]/' })), /blocked/)
    assert.equal((await call(ctx, 'ctx_fetch_and_index', {})).isError, true)
  })
})

describe('bad input changes nothing', () => {
  test('each refusal is a clear error and the store is untouched', async () => {
    const { dir, ctx } = project('bad')
    await call(ctx, 'ctx_index', { content: '# Keep\nthis stays', source: 'keep' })
    const before = native.storeHealth(ctx).chunks
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]))
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from('caf\xe9 cr\xe8me', 'latin1'))
    writeFileSync(join(dir, 'large.md'), 'x'.repeat(4096))
    mkdirSync(join(dir, '.claude'), { recursive: true })
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ permissions: { deny: ['Read(**/.env)'] } }))
    writeFileSync(join(dir, '.env'), 'SECRET=1')
    process.env.CONTEXT_MODE_INDEX_MAX_FILE_BYTES = '1024'
    const cases = [
      [{ content: '   \n ' }, /blank/],
      [{ path: 'blob.bin' }, /binary/],
      [{ path: 'latin1.txt' }, /UTF-8/],
      [{ path: 'large.md' }, /over the 1024-byte limit/],
      [{ path: 'missing.md' }, /Cannot index missing\.md/],
      [{ path: '.env' }, /Read deny pattern \*\*\/\.env/],
      [{ path: 42 }, /expected a string/],
      [{}, /Nothing to index/],
    ]
    try {
      for (const [args, pattern] of cases) {
        const r = await call(ctx, 'ctx_index', args)
        assert.equal(r.isError, true, JSON.stringify(args))
        assert.match(text(r), pattern, JSON.stringify(args))
      }
    } finally {
      delete process.env.CONTEXT_MODE_INDEX_MAX_FILE_BYTES
    }
    assert.equal(native.storeHealth(ctx).chunks, before)
    assert.equal(native.searchStore(ctx, 'this stays', 1, null).length, 1)
  })
})
