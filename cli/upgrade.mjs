// `context-mode upgrade [--platform <id>] [--dry-run]`: points the host's hook (and MCP)
// registration at this install. The native side does the work and returns a report.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadNative } from '../hooks/native.mjs'
import { parseFlags } from './flags.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const USAGE = 'Usage: context-mode upgrade [--platform <id>] [--dry-run]'
const LABEL = { written: 'written', unchanged: 'unchanged', skipped: 'skipped', failed: 'FAILED' }

export function upgradeCommand(argv) {
  const { flags } = parseFlags(argv)
  if (flags.help || flags.h) return console.log(USAGE)
  if (flags.platform === true) {
    console.error(`--platform needs an id\n${USAGE}`)
    return (process.exitCode = 1)
  }
  const native = loadNative()
  const platform = flags.platform ?? native.detectPlatform(null)
  const dryRun = Boolean(flags['dry-run'])
  const report = JSON.parse(native.upgradeHost(platform, ROOT, process.execPath, process.cwd(), dryRun))

  console.log(`context-mode upgrade: ${report.host}${dryRun ? ' (dry run, nothing is written)' : ''}`)
  for (const f of report.files) {
    const label = dryRun && f.status === 'written' ? 'would write' : LABEL[f.status] ?? f.status
    console.log(`  ${label.padEnd(11)} ${f.path}: ${f.reason}${f.backup ? ` (old file kept as ${f.backup})` : ''}`)
  }
  for (const note of report.notes) console.log(`  ${note}`)
  const written = report.files.some((f) => f.status === 'written')
  if (report.restart && !dryRun && written) console.log(report.restart)
  else if (report.files.length && !written) console.log('Nothing to change.')
  if (!report.ok) process.exitCode = 1
}
