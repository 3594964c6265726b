// Conformance with context-mode 1.0.169's hook layer: every shared vector is played
// against our modules (in a clean child process) and our hook processes. A vector may
// fail only if __test__/fixtures/deviations.json lists it as a deliberate difference
// (each explained in docs/compat.md and pinned in compat.test.mjs); the pass rate
// must stay at or above 97 %.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runProcessVector } from './helpers/process-vectors.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fixtures = join(root, '__test__', 'fixtures')
const deviations = JSON.parse(readFileSync(join(fixtures, 'deviations.json'), 'utf8'))
const readVectors = (file) => readFileSync(join(fixtures, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
const vectors = [...readVectors('hooks.jsonl'), ...readVectors('hooks-aux.jsonl')]

/** The directories and files of harness.json, for the in-process vectors. */
function harness() {
  const base = mkdtempSync(join(tmpdir(), 'cm-conf-'))
  const dirs = Object.fromEntries(['HOME', 'TMP', 'SENT', 'CWD', 'FIX'].map((k) => [k, join(base, k.toLowerCase())]))
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true })
  const spec = JSON.parse(readFileSync(join(fixtures, 'harness.json'), 'utf8')).files
  for (const [path, f] of Object.entries(spec)) {
    const file = path.replace('<FIX>', dirs.FIX).replace('<CWD>', dirs.CWD)
    if (f.dir) {
      mkdirSync(file, { recursive: true })
      continue
    }
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, f.content ?? f.repeat.repeat(f.bytes))
  }
  return { base, dirs }
}

function inProcessResults() {
  const { base, dirs } = harness()
  try {
    const env = { PATH: process.env.PATH, TMPDIR: dirs.TMP, HOME: dirs.HOME, CONTEXT_MODE_MCP_SENTINEL_DIR: dirs.SENT, CONFORMANCE_DIRS: JSON.stringify(dirs) }
    const r = spawnSync(process.execPath, [join(root, '__test__/helpers/conformance-worker.mjs'), root, fixtures], { cwd: dirs.CWD, env, encoding: 'utf8', maxBuffer: 64 << 20 })
    assert.equal(r.status, 0, r.stderr)
    return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

async function processResults() {
  const queue = vectors.filter((v) => v.kind === 'process')
  const results = []
  const workers = Array.from({ length: 4 }, async () => {
    while (queue.length) results.push(await runProcessVector(queue.shift(), root))
  })
  await Promise.all(workers)
  return results
}

const results = new Map()
for (const r of [...inProcessResults(), ...(await processResults())]) results.set(r.id, r)

describe('conformance with context-mode 1.0.169', () => {
  for (const v of vectors) {
    test(`${v.id}`, () => {
      const r = results.get(v.id)
      assert.ok(r, `vector ${v.id} was not played`)
      if (deviations[v.id]) {
        assert.equal(r.pass, false, `${v.id} now matches 1.0.169; remove it from deviations.json and docs/compat.md`)
      } else {
        assert.ok(r.pass, `${v.id}: ${JSON.stringify(r.got).slice(0, 1500)}`)
      }
    })
  }

  test('passes at least 97 % of the shared vectors', () => {
    const passed = vectors.filter((v) => results.get(v.id)?.pass).length
    const rate = passed / vectors.length
    console.log(`conformance: ${passed}/${vectors.length} = ${(rate * 100).toFixed(1)} %`)
    assert.ok(rate >= 0.97, `pass rate ${(rate * 100).toFixed(1)} %`)
  })

  test('every listed deviation names a real vector and is documented', () => {
    const compat = readFileSync(join(root, 'docs/compat.md'), 'utf8')
    for (const id of Object.keys(deviations)) {
      assert.ok(vectors.some((v) => v.id === id), `${id} is not a vector`)
      assert.ok(compat.includes(id), `${id} is missing from docs/compat.md`)
    }
  })
})
