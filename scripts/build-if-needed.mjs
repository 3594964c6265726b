// `npm install` in a clone (the "prepare" step): builds the native addon when no binary
// for this machine resolves, or when the Rust sources are newer than the binary.
// Users who install the package from the registry never run this: their binary comes
// prebuilt in the matching context-mode-native-<platform> package.
//
// CONTEXT_MODE_BUILD_PROFILE=debug builds without optimisation (faster while iterating).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

function newestSource() {
  let newest = 0
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name)
      const st = statSync(p)
      if (st.isDirectory()) walk(p)
      else newest = Math.max(newest, st.mtimeMs)
    }
  }
  walk(join(root, 'src'))
  for (const f of ['Cargo.toml', 'Cargo.lock', 'build.rs']) if (existsSync(join(root, f))) newest = Math.max(newest, statSync(join(root, f)).mtimeMs)
  return newest
}

function localBinaries() {
  return readdirSync(root).filter((f) => /^context-mode\..+\.node$/.test(f)).map((f) => join(root, f))
}

function binaryLoads() {
  try {
    require(join(root, 'index.js'))
    return true
  } catch {
    return false
  }
}

const hasSources = existsSync(join(root, 'src', 'lib.rs'))
const local = localBinaries()
const stale = hasSources && local.length > 0 && Math.max(...local.map((f) => statSync(f).mtimeMs)) < newestSource()

if (binaryLoads() && !stale) process.exit(0)

if (!hasSources) {
  console.error('context-mode-native: no prebuilt binary for this platform and no sources to build one. Please report your platform.')
  process.exit(1)
}
const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' })
if (cargo.status !== 0) {
  console.error('context-mode-native: building from a clone needs Rust (https://rustup.rs); cargo was not found on PATH.')
  process.exit(1)
}

const release = process.env.CONTEXT_MODE_BUILD_PROFILE !== 'debug'
const args = ['build', '--platform', ...(release ? ['--release'] : [])]
console.error(`context-mode-native: building the native addon (${release ? 'release' : 'debug'}); the first build takes a few minutes…`)
const napi = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'napi.cmd' : 'napi')
const r = spawnSync(napi, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
process.exit(r.status ?? 1)
