// Builds the Linux release binaries into npm/<platform>/ so they load on old
// distributions too: glibc targets are linked against glibc 2.17 and musl targets
// statically, both through cargo-zigbuild (`napi build -x`). macOS and Windows binaries
// come from CI runners of those systems.
//
//   node scripts/release-linux.mjs [--target <rust-triple>]... [--skip-setup]
//
// Setup it performs when missing: `pip install ziglang`, `cargo install cargo-zigbuild`,
// `rustup target add <triple>`.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const TARGETS = {
  'x86_64-unknown-linux-gnu': { zig: 'x86_64-unknown-linux-gnu.2.17', dir: 'linux-x64-gnu' },
  'x86_64-unknown-linux-musl': { zig: 'x86_64-unknown-linux-musl', dir: 'linux-x64-musl' },
  'aarch64-unknown-linux-gnu': { zig: 'aarch64-unknown-linux-gnu.2.17', dir: 'linux-arm64-gnu' },
  'aarch64-unknown-linux-musl': { zig: 'aarch64-unknown-linux-musl', dir: 'linux-arm64-musl' },
}

const args = process.argv.slice(2)
const wanted = args.flatMap((a, i) => (a === '--target' ? [args[i + 1]] : []))
const targets = wanted.length ? wanted : Object.keys(TARGETS)
const skipSetup = args.includes('--skip-setup')

function run(cmd, cmdArgs, opts = {}) {
  console.error(`$ ${cmd} ${cmdArgs.join(' ')}`)
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts })
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status ?? r.signal})`)
}

const works = (cmd, cmdArgs) => spawnSync(cmd, cmdArgs, { encoding: 'utf8' }).status === 0

if (!skipSetup) {
  if (!works('zig', ['version']) && !works('python3', ['-m', 'ziglang', 'version'])) run('python3', ['-m', 'pip', 'install', '--quiet', 'ziglang==0.15.2'])
  if (!works('cargo-zigbuild', ['--version'])) run('cargo', ['install', 'cargo-zigbuild', '--locked'])
  const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' }).stdout ?? ''
  for (const t of targets) if (!installed.split('\n').includes(t)) run('rustup', ['target', 'add', t])
}

for (const t of targets) {
  const spec = TARGETS[t]
  if (!spec) throw new Error(`unknown target ${t}; known: ${Object.keys(TARGETS).join(', ')}`)
  run(join(root, 'node_modules/.bin/napi'), ['build', '--platform', '--release', '-x', '--target', spec.zig, '--output-dir', join(root, 'target', 'release-linux')])
  const file = `context-mode.${spec.dir}.node`
  const built = join(root, 'target', 'release-linux', file)
  if (!existsSync(built)) throw new Error(`expected ${built}`)
  mkdirSync(join(root, 'npm', spec.dir), { recursive: true })
  copyFileSync(built, join(root, 'npm', spec.dir, file))
  const readelf = spawnSync('readelf', ['-V', '--wide', built], { encoding: 'utf8' })
  if (readelf.status === 0) {
    const versions = [...new Set([...readelf.stdout.matchAll(/GLIBC_(\d+\.\d+)/g)].map((m) => m[1]))]
    const highest = versions.sort((a, b) => a.split('.')[1] - b.split('.')[1]).pop()
    console.error(`${file}: ${highest ? `needs glibc ${highest}` : 'no glibc symbol versions (musl)'}`)
  }
}
