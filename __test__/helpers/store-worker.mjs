// A separate process working on a project's knowledge base, for concurrency and
// crash tests: `node store-worker.mjs <projectDir> index <label> <n>` indexes n
// sources; `… search <n>` runs n searches; `… flood` indexes until killed.
import { loadNative } from '../../hooks/native.mjs'

const [, , projectDir, mode, a, b] = process.argv
const native = loadNative()
const ctx = JSON.stringify({ projectDir, platform: 'claude-code' })
const call = async (tool, args) => JSON.parse(await native.callTool(tool, JSON.stringify(args), ctx))

const doc = (label, i) => `# ${label} part ${i}\n\nThe ${label} worker wrote section ${i} with marker m${label}x${i}.\n\n## Details\n${'lorem ipsum dolor '.repeat(120)}\n`

let errors = 0
if (mode === 'index') {
  for (let i = 0; i < Number(b); i++) {
    const r = await call('ctx_index', { content: doc(a, i), source: `${a}-${i}` })
    if (r.isError) errors++, console.error(r.content[0].text)
  }
} else if (mode === 'search') {
  for (let i = 0; i < Number(a); i++) {
    const r = await call('ctx_search', { queries: ['worker section marker'] })
    if (r.isError) errors++, console.error(r.content[0].text)
  }
} else if (mode === 'flood') {
  process.stdout.write('ready\n')
  for (let i = 0; ; i++) {
    const r = await call('ctx_index', { content: doc('flood', i).repeat(40), source: `flood-${i % 5}` })
    if (r.isError) console.error(r.content[0].text)
  }
}
process.stdout.write(JSON.stringify({ errors }) + '\n')
