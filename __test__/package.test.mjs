// The packaging check: the main package and the linux-x64-gnu binary package, packed
// with `npm pack` and installed into an empty project, answer a hook exactly as this
// checkout does, and the bin serves MCP.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { root, Sandbox } from './helpers/sandbox.mjs'

const supported = process.platform === 'linux' && process.arch === 'x64'
const work = mkdtempSync(join(tmpdir(), 'cm-pack-'))
const sbx = new Sandbox()
after(() => {
  rmSync(work, { recursive: true, force: true })
  sbx.cleanup()
})

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } })

test('packed tarballs install into an empty project and answer hooks like the checkout', { skip: !supported && 'the binary package built here is linux-x64-gnu', timeout: 300000 }, async () => {
  // The per-platform package gets the binary this checkout built.
  const gnu = join(work, 'linux-x64-gnu')
  cpSync(join(root, 'npm', 'linux-x64-gnu'), gnu, { recursive: true })
  cpSync(join(root, 'context-mode.linux-x64-gnu.node'), join(gnu, 'context-mode.linux-x64-gnu.node'))
  const tarballs = join(work, 'tarballs')
  mkdirSync(tarballs)
  npm(['pack', '--pack-destination', tarballs], gnu)
  npm(['pack', '--pack-destination', tarballs, '--ignore-scripts'], root)
  const files = readdirSync(tarballs)
  const main = files.find((f) => /^context-mode-native-\d/.test(f))
  const bin = files.find((f) => f.includes('linux-x64-gnu'))
  assert.ok(main && bin, files.join(', '))

  const listing = execFileSync('tar', ['-tzf', join(tarballs, main)], { encoding: 'utf8' })
  assert.ok(!/\.node$/m.test(listing), 'the main package carries no binary')
  for (const f of ['package/cli.mjs', 'package/cli/upgrade.mjs', 'package/cli/knowledge.mjs', 'package/start.mjs', 'package/server.mjs', 'package/server-tools.mjs', 'package/hooks/pretooluse.mjs', 'package/hooks/hooks.json', 'package/index.js', 'package/LICENSE']) {
    assert.ok(listing.includes(f), f)
  }

  const project = join(work, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), '{"name":"empty-project","version":"1.0.0","private":true}')
  npm(['install', join(tarballs, bin), join(tarballs, main)], project)

  sbx.mcpReady()
  for (const payload of [
    { session_id: 'pkg', tool_name: 'Bash', tool_input: { command: 'curl https://x.test/' } },
    { session_id: 'pkg2', tool_name: 'Bash', tool_input: { command: 'npm test' } },
  ]) {
    const input = JSON.stringify(payload)
    const installed = spawnSync('npx', ['context-mode', 'hook', 'claude-code', 'pretooluse'], { cwd: project, input, env: sbx.env(), encoding: 'utf8' })
    const fresh = new Sandbox().mcpReady()
    try {
      const local = await fresh.hook('hooks/pretooluse.mjs', payload)
      assert.equal(installed.status, 0, installed.stderr)
      assert.equal(installed.stdout, local.stdout)
      assert.ok(installed.stdout.length > 0)
    } finally {
      fresh.cleanup()
    }
  }
  // The bin with no argument is the MCP server.
  const transport = new StdioClientTransport({ command: join(project, 'node_modules/.bin/context-mode'), cwd: project, env: { ...sbx.env(), CONTEXT_MODE_DIR: join(work, 'store'), CLAUDE_PROJECT_DIR: project } })
  const client = new Client({ name: 'package-test', version: '1.0.0' })
  await client.connect(transport)
  try {
    assert.equal(client.getServerVersion().name, 'context-mode')
    assert.equal((await client.listTools()).tools.length, 11)
    const r = await client.callTool({ name: 'ctx_execute', arguments: { language: 'shell', code: 'echo from-the-tarball' } })
    assert.match(r.content[0].text, /from-the-tarball/)
  } finally {
    await client.close()
  }
  const version = JSON.parse(readFileSync(join(project, 'node_modules/context-mode-native/package.json'), 'utf8')).version
  assert.equal(version, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version)
})
