// Loads the native addon as cheaply as possible: hooks run on every tool call. The
// binary for this machine is looked up next to the package (a build in a clone) and
// in its per-platform npm package before falling back to the generated loader.
'use strict'

const CANDIDATES = {
  'linux-x64': ['linux-x64-gnu', 'linux-x64-musl'],
  'linux-arm64': ['linux-arm64-gnu', 'linux-arm64-musl'],
  'darwin-x64': ['darwin-x64'],
  'darwin-arm64': ['darwin-arm64'],
  'win32-x64': ['win32-x64-msvc'],
  'win32-arm64': ['win32-arm64-msvc'],
}

function load() {
  if (!process.env.NAPI_RS_NATIVE_LIBRARY_PATH) {
    for (const triple of CANDIDATES[`${process.platform}-${process.arch}`] || []) {
      for (const id of [`../context-mode.${triple}.node`, `context-mode-native-${triple}`]) {
        try {
          return require(id)
        } catch {}
      }
    }
  }
  return require('../index.js')
}

// Windows has no getppid(); the session fallback id needs Node's view of it.
if (process.platform === 'win32') process.env.CONTEXT_MODE_HOOK_PPID = String(process.ppid)

module.exports = load()
