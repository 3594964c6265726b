// The MCP server as a host sees it: the real process, spoken to by the SDK's own client.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isAlive, peakRssMiB, processesWith, root, startServer, waitFor } from './helpers/mcp.mjs'
import { Sandbox } from './helpers/sandbox.mjs'
import { toolDefinitions } from '../server-tools.mjs'

const reference = JSON.parse(readFileSync(join(root, '__test__/fixtures/tools-schema.json'), 'utf8')).tools
const has = (program) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0

describe('protocol', () => {
  let s
  before(async () => (s = await startServer()))
  after(() => s.close())

  it('introduces itself as context-mode with empty prompt and resource lists', async () => {
    assert.equal(s.client.getServerVersion().name, 'context-mode')
    assert.deepEqual((await s.client.listPrompts()).prompts, [])
    assert.deepEqual((await s.client.listResources()).resources, [])
    assert.deepEqual((await s.client.listResourceTemplates()).resourceTemplates, [])
  })

  it("lists 1.0.169's 11 tools in order with its argument names, types and enums", async () => {
    const { tools } = await s.client.listTools()
    assert.deepEqual(
      tools.map((t) => t.name),
      reference.map((t) => t.name),
    )
    for (const [i, ours] of tools.entries()) {
      const theirs = reference[i].inputSchema
      assert.deepEqual(Object.keys(ours.inputSchema.properties), Object.keys(theirs.properties), ours.name)
      assert.deepEqual(ours.inputSchema.required ?? [], theirs.required ?? [], ours.name)
      for (const [arg, schema] of Object.entries(theirs.properties)) {
        const mine = ours.inputSchema.properties[arg]
        assert.equal(mine.type, schema.type, `${ours.name}.${arg}`)
        assert.deepEqual(mine.enum, schema.enum, `${ours.name}.${arg}`)
        for (const k of ['minimum', 'maximum', 'minItems', 'default']) assert.deepEqual(mine[k], schema[k], `${ours.name}.${arg}.${k}`)
        if (schema.items) assert.equal(mine.items.type, schema.items.type, `${ours.name}.${arg} items`)
      }
    }
  })

  it('keeps all 11 definitions within 2,000 tokens (bytes / 4)', async () => {
    const { tools } = await s.client.listTools()
    const tokens = Math.ceil(Buffer.byteLength(JSON.stringify(tools)) / 4)
    const everyLanguage = Math.ceil(Buffer.byteLength(JSON.stringify(toolDefinitions())) / 4)
    console.log(`# tool definitions: ${tokens} tokens here, ${everyLanguage} with all 12 languages listed (1.0.169: about 6,200)`)
    assert.ok(everyLanguage <= 2000, `${everyLanguage} tokens`)
  })

  it('answers ctx_search with structured content matching its output schema', async () => {
    await s.call('ctx_index', { content: '# Retry policy\nRequests retry three times with backoff.', source: 'notes' })
    const r = await s.call('ctx_search', { queries: ['retry backoff'] })
    assert.equal(r.isError, false)
    assert.equal(r.structured.results[0].source, 'notes')
    assert.match(r.structured.results[0].snippet, /backoff/)
  })
})

describe('ctx_execute', () => {
  let s
  before(async () => (s = await startServer({ env: { GITHUB_TOKEN: 'ghp_testsecret0123456789', OPENAI_API_KEY: 'sk-test-openai-000000000', AWS_SECRET_ACCESS_KEY: 'aws-test-secret', NODE_OPTIONS: '--no-deprecation' } })))
  after(() => s.close())

  it('runs shell, javascript and python and returns what they print', async () => {
    assert.match((await s.call('ctx_execute', { language: 'shell', code: 'echo hi' })).text, /^\[shell\] echo hi\nhi\n?$/)
    const js = await s.call('ctx_execute', { language: 'javascript', code: 'const x = await Promise.resolve(6 * 7); console.log(x)' })
    assert.match(js.text, /42/)
    if (has('python3')) assert.match((await s.call('ctx_execute', { language: 'python', code: 'print(sum(range(10)))' })).text, /45/)
  })

  it('runs in the project by default and in `cwd` when given', async () => {
    mkdirSync(join(s.sbx.cwd, 'sub'), { recursive: true })
    assert.match((await s.call('ctx_execute', { language: 'shell', code: 'pwd' })).text, new RegExp(`${s.sbx.cwd}\\n`))
    assert.match((await s.call('ctx_execute', { language: 'shell', code: 'pwd', cwd: 'sub' })).text, /\/sub\n/)
    const missing = await s.call('ctx_execute', { language: 'shell', code: 'pwd', cwd: 'nope' })
    assert.equal(missing.isError, true)
    assert.match(missing.text, /does not exist/)
  })

  it('reports failures with the exit code and stderr, but not grep finding nothing', async () => {
    const failed = await s.call('ctx_execute', { language: 'shell', code: 'echo partial; echo broken >&2; exit 3' })
    assert.equal(failed.isError, true)
    assert.match(failed.text, /Exit code 3/)
    assert.match(failed.text, /partial/)
    assert.match(failed.text, /broken/)
    const soft = await s.call('ctx_execute', { language: 'shell', code: 'echo found; false' })
    assert.equal(soft.isError, false)
    if (has('python3')) {
      const py = await s.call('ctx_execute', { language: 'python', code: 'raise ValueError("bad input")' })
      assert.equal(py.isError, true)
      assert.match(py.text, /ValueError: bad input/)
    }
  })

  it('size policy: small output whole', async () => {
    const r = await s.call('ctx_execute', { language: 'shell', code: 'seq 1 100' })
    assert.match(r.text, /\n1\n2\n[\s\S]*\n100\n?$/)
    assert.doesNotMatch(r.text, /indexed/)
  })

  it('size policy: medium output without intent comes back as head and tail, and the middle is searchable', async () => {
    const r = await s.call('ctx_execute', { language: 'shell', code: 'for i in $(seq 1 2000); do echo "request $i path=/api/item/$i status=200"; done; echo "request 1234 marker=zebra-unicorn"' })
    assert.equal(r.isError, false)
    assert.ok(Buffer.byteLength(r.text) < 2600, `${Buffer.byteLength(r.text)} bytes`)
    assert.match(r.text, /request 1 path/)
    assert.match(r.text, /marker=zebra-unicorn/)
    const label = r.text.match(/indexed as "([^"]+)"/)[1]
    assert.match(label, /^execute:shell:[0-9a-f]{6}$/)
    const found = await s.call('ctx_search', { queries: ['request 977'], source: label })
    assert.match(found.text, /request 977 path=\/api\/item\/977/)
  })

  it('size policy: with an intent, large output is answered by the matching sections', async () => {
    const code = 'for i in $(seq 1 3000); do if [ $i = 1700 ]; then echo "ERROR payment gateway timeout after 30s"; else echo "INFO tick $i ok"; fi; done'
    const r = await s.call('ctx_execute', { language: 'shell', code, intent: 'payment gateway error' })
    assert.match(r.text, /ERROR payment gateway timeout after 30s/)
    assert.match(r.text, /sections? match/)
    assert.ok(Buffer.byteLength(r.text) < 1200, `${Buffer.byteLength(r.text)} bytes`)
    const small = await s.call('ctx_execute', { language: 'shell', code: 'echo short answer', intent: 'anything' })
    assert.match(small.text, /short answer/)
  })

  it('size policy: huge output comes back as a pointer; failures show what looks like errors', async () => {
    const big = await s.call('ctx_execute', { language: 'shell', code: 'for i in $(seq 1 12000); do echo "row $i of the export"; done' })
    assert.ok(Buffer.byteLength(big.text) < 300, big.text)
    assert.match(big.text, /12000 lines .* too large to show/)
    const failing = await s.call('ctx_execute', { language: 'shell', code: 'for i in $(seq 1 12000); do echo "test $i passed"; done; echo "FAILED test_checkout: expected 200 got 500"; exit 2' })
    assert.equal(failing.isError, true)
    assert.match(failing.text, /FAILED test_checkout/)
    assert.ok(Buffer.byteLength(failing.text) < 1500, `${Buffer.byteLength(failing.text)} bytes`)
  })

  it('rejects malformed arguments clearly and keeps serving', async () => {
    for (const [args, pattern] of [
      [{ language: 'cobol', code: 'x' }, /language.*must be one of/],
      [{ language: 'shell' }, /code.*required/],
      [{ language: 'shell', code: 'echo', timeout: 'soon' }, /timeout/],
      [{ language: 'shell', code: 'echo', timeout: -5 }, /timeout/],
      [{ language: 'shell', code: 'echo', background: 'maybe' }, /background/],
      [{ language: 42, code: 'echo' }, /language/],
    ]) {
      const r = await s.call('ctx_execute', args)
      assert.equal(r.isError, true, JSON.stringify(args))
      assert.match(r.text, pattern)
    }
    assert.equal((await s.call('no_such_tool', {})).isError, true)
    assert.match((await s.call('ctx_execute', { language: 'shell', code: 'echo still here' })).text, /still here/)
  })

  it('accepts 1.0.169 coercions: numeric strings and boolean strings', async () => {
    const r = await s.call('ctx_execute', { language: 'shell', code: 'echo coerced', timeout: '5000', background: 'false' })
    assert.equal(r.isError, false)
    assert.match(r.text, /coerced/)
  })

  it('stops a run at its time limit and leaves no process behind', async () => {
    const started = Date.now()
    const r = await s.call('ctx_execute', { language: 'shell', code: 'echo started; sleep 31.4159 & sleep 31.4159; echo never', timeout: 600 })
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`)
    assert.match(r.text, /started/)
    assert.match(r.text, /time limit of 600 ms/)
    assert.doesNotMatch(r.text.split('\n').slice(1).join('\n'), /never/)
    assert.deepEqual(await waitFor(() => processesWith('31.4159').length === 0 || null, 3000), true, JSON.stringify(processesWith('31.4159')))
  })

  it('runs in the background when asked and hands back what was printed so far', async () => {
    const r = await s.call('ctx_execute', { language: 'shell', code: 'echo warming; exec sleep 27.1828', background: true, timeout: 400 })
    assert.equal(r.isError, false)
    assert.match(r.text, /warming/)
    assert.match(r.text, /background/)
    assert.equal(processesWith('27.1828').length, 1)
  })

  it('removes every run\'s scratch directory, whatever the outcome', async () => {
    await s.call('ctx_execute', { language: 'shell', code: 'echo ok > "$TMPDIR/x"; cat "$TMPDIR/x"' })
    await s.call('ctx_execute', { language: 'shell', code: 'exit 7' })
    await s.call('ctx_execute', { language: 'javascript', code: 'console.log(1)' })
    await s.call('ctx_execute', { language: 'shell', code: 'sleep 12.3456', timeout: 300 })
    if (has('rustc')) await s.call('ctx_execute', { language: 'rust', code: 'println!("compiled");' }, { timeout: 120_000 })
    const left = () => readdirSync('/tmp').filter((n) => n.startsWith(`.ctx-mode-${s.pid}-`))
    // Only the background run from the test above may still own one.
    assert.ok((await waitFor(() => left().length <= 1 || null, 3000)) === true, left().join(', '))
  })

  it('withholds credentials and interpreter hooks from the child environment', async () => {
    const r = await s.call('ctx_execute', { language: 'shell', code: 'env' })
    assert.doesNotMatch(r.text, /ghp_testsecret/)
    assert.doesNotMatch(r.text, /sk-test-openai/)
    assert.doesNotMatch(r.text, /AWS_SECRET_ACCESS_KEY/)
    assert.doesNotMatch(r.text, /NODE_OPTIONS/)
    assert.match(r.text, /PATH=/)
  })
})

describe('ctx_execute limits', () => {
  it('applies CONTEXT_MODE_EXEC_TIMEOUT_MS as the default limit', async () => {
    const s = await startServer({ env: { CONTEXT_MODE_EXEC_TIMEOUT_MS: '700' } })
    try {
      const started = Date.now()
      const r = await s.call('ctx_execute', { language: 'shell', code: 'sleep 20.5' })
      assert.ok(Date.now() - started < 5000)
      assert.equal(r.isError, true)
      assert.match(r.text, /Timed out after 700 ms/)
    } finally {
      await s.close()
    }
  })

  it('streams 1 GB of output through bounded memory', async () => {
    const s = await startServer({ env: { CONTEXT_MODE_EXEC_MAX_OUTPUT_BYTES: String(2 ** 31) } })
    try {
      const r = await s.call('ctx_execute', { language: 'shell', code: "head -c 1073741824 /dev/zero | tr '\\0' 'x'; echo; echo done-printing" })
      assert.equal(r.isError, false)
      assert.match(r.text, /done-printing/)
      const peak = peakRssMiB(s.pid)
      console.log(`# peak server RSS while a child printed 1 GB: ${peak.toFixed(0)} MiB`)
      assert.ok(peak < 400, `${peak} MiB`)
    } finally {
      await s.close()
    }
  })

  it('stops a runaway printer at the output cap', async () => {
    const s = await startServer({ env: { CONTEXT_MODE_EXEC_MAX_OUTPUT_BYTES: String(8 << 20) } })
    try {
      const r = await s.call('ctx_execute', { language: 'shell', code: 'yes spam-line-42' })
      assert.equal(r.isError, true)
      assert.match(r.text, /stopped/)
      assert.equal(await waitFor(() => processesWith('spam-line-42').length === 0 || null, 3000), true)
    } finally {
      await s.close()
    }
  })
})

describe('secrets', () => {
  it('passes a credential only when CONTEXT_MODE_PASS_ENV names it', async () => {
    const s = await startServer({ env: { GITHUB_TOKEN: 'ghp_testsecret0123456789', DEPLOY_API_KEY: 'k-123-visible', CONTEXT_MODE_PASS_ENV: 'DEPLOY_API_KEY' } })
    try {
      const r = await s.call('ctx_execute', { language: 'shell', code: 'echo "gh=${GITHUB_TOKEN:-unset} deploy=${DEPLOY_API_KEY:-unset}"' })
      assert.match(r.text, /gh=unset deploy=k-123-visible/)
    } finally {
      await s.close()
    }
  })
})

describe('deny rules', () => {
  const sbx = new Sandbox()
  let s
  before(async () => {
    sbx.write('cwd/.claude/settings.json', JSON.stringify({ permissions: { deny: ['Bash(curl:*)', 'Read(**/.env)'], allow: [] } }))
    sbx.write('cwd/.env', 'SECRET=1\n')
    s = await startServer({ sbx })
  })
  after(() => s.close())

  const embedded = {
    shell: 'curl http://example.com',
    javascript: "require('child_process').execSync('curl http://example.com')",
    typescript: "import { execSync } from 'child_process'; execSync('curl http://example.com')",
    python: 'import os\nos.system("curl http://example.com")',
    ruby: 'puts `curl http://example.com`',
    go: 'exec.Command("curl", "http://example.com").Run()',
    rust: 'std::process::Command::new("curl").arg("http://example.com").status().unwrap();',
    php: 'echo shell_exec("curl http://example.com");',
    perl: 'system("curl http://example.com");',
    r: 'system("curl http://example.com")',
    elixir: 'System.cmd("curl", ["http://example.com"])',
    csharp: 'System.Diagnostics.Process.Start("curl http://example.com");',
  }
  for (const [language, code] of Object.entries(embedded)) {
    it(`blocks ${language} code that runs a denied command, naming the rule`, async () => {
      const r = await s.call('ctx_execute', { language, code })
      assert.equal(r.isError, true, r.text)
      assert.match(r.text, /Bash\(curl:\*\)/)
    })
  }

  it('lets other code run', async () => {
    assert.equal((await s.call('ctx_execute', { language: 'shell', code: 'echo curling is a sport' })).isError, false)
  })

  it('blocks a batch with a denied command before running any of it', async () => {
    const r = await s.call('ctx_batch_execute', { commands: [{ label: 'mark', command: `touch ${sbx.base}/ran` }, { label: 'fetch', command: 'curl -s http://example.com' }], queries: ['x'] })
    assert.equal(r.isError, true)
    assert.match(r.text, /fetch.*Bash\(curl:\*\)/)
    assert.equal(existsSync(join(sbx.base, 'ran')), false)
  })

  it('ctx_execute_file honours Read deny rules and stays inside the project', async () => {
    const denied = await s.call('ctx_execute_file', { path: '.env', language: 'shell', code: 'echo "$FILE_CONTENT"' })
    assert.equal(denied.isError, true)
    assert.match(denied.text, /\*\*\/\.env/)
    const outside = await s.call('ctx_execute_file', { path: '/etc/hostname', language: 'shell', code: 'echo "$FILE_CONTENT"' })
    assert.equal(outside.isError, true)
    assert.match(outside.text, /outside the project/)
    const escape = await s.call('ctx_execute_file', { path: '../home/x', language: 'shell', code: 'echo' })
    assert.match(escape.text, /outside the project/)
  })
})

describe('ctx_execute_file', () => {
  let s
  before(async () => {
    s = await startServer()
    const rows = Array.from({ length: 500 }, (_, i) => `${i},user${i},${i % 7 === 0 ? 'inactive' : 'active'}`).join('\n')
    s.sbx.write('cwd/data/users.csv', `id,name,status\n${rows}\n`)
  })
  after(() => s.close())

  for (const [language, code] of [
    ['shell', 'echo "$FILE_CONTENT" | grep -c inactive'],
    ['javascript', "console.log(FILE_CONTENT.split('\\n').filter((l) => l.endsWith('inactive')).length)"],
    ['python', "print(sum(1 for l in FILE_CONTENT.splitlines() if l.endswith('inactive')))"],
    ['perl', 'my $n = () = $FILE_CONTENT =~ /inactive/g; print "$n\\n";'],
  ]) {
    it(`hands ${language} the file as FILE_CONTENT`, { skip: language === 'python' && !has('python3') }, async () => {
      const r = await s.call('ctx_execute_file', { path: 'data/users.csv', language, code })
      assert.equal(r.isError, false, r.text)
      assert.match(r.text, /\n72\n?$/)
      assert.match(r.text, /on data\/users\.csv/)
    })
  }

  it('says so when the file is missing', async () => {
    const r = await s.call('ctx_execute_file', { path: 'data/missing.csv', language: 'shell', code: 'echo' })
    assert.equal(r.isError, true)
    assert.match(r.text, /missing\.csv/)
  })

  it('reaches outside the project only with a Read allow rule', async () => {
    const outside = s.sbx.write('elsewhere/notes.txt', 'outside text\n')
    s.sbx.write('cwd/.claude/settings.local.json', JSON.stringify({ permissions: { allow: [`Read(${outside})`] } }))
    const r = await s.call('ctx_execute_file', { path: outside, language: 'shell', code: 'echo "$FILE_CONTENT"' })
    assert.equal(r.isError, false, r.text)
    assert.match(r.text, /outside text/)
  })
})

describe('ctx_batch_execute', () => {
  let s
  before(async () => (s = await startServer()))
  after(() => s.close())

  it('runs the commands, indexes their output and answers the queries', async () => {
    const r = await s.call('ctx_batch_execute', {
      commands: [
        { label: 'versions', command: 'echo "node 22.1.0"; echo "postgres 16.2"' },
        { label: 'config', command: 'printf "cache_ttl=300\\nretry_limit=5\\nregion=eu-west-1\\n"' },
        'echo "plain string command"',
      ],
      queries: ['retry_limit', 'postgres version'],
    })
    assert.equal(r.isError, false, r.text)
    assert.match(r.text, /Ran 3 commands/)
    assert.match(r.text, /- cmd_3: ok/)
    assert.match(r.text, /## retry_limit[\s\S]*retry_limit=5/)
    assert.match(r.text, /## postgres version[\s\S]*postgres 16\.2/)
  })

  it('runs in parallel with a concurrency cap', async () => {
    const started = Date.now()
    const r = await s.call('ctx_batch_execute', {
      commands: [1, 2, 3, 4].map((i) => ({ label: `nap${i}`, command: `sleep 0.8; echo nap${i} done` })),
      queries: ['done'],
      concurrency: 4,
    })
    assert.ok(Date.now() - started < 2600, `${Date.now() - started} ms`)
    assert.match(r.text, /nap4: ok/)
  })

  it('keeps the whole batch, indexing and search included, within its time limit', async () => {
    const started = Date.now()
    const r = await s.call('ctx_batch_execute', {
      commands: [
        { label: 'slow', command: 'echo begun; sleep 16.1803' },
        { label: 'after', command: 'echo unreachable' },
      ],
      queries: ['begun'],
      timeout: 800,
    })
    assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`)
    assert.match(r.text, /slow: timed out/)
    assert.match(r.text, /after: skipped/)
    assert.equal(await waitFor(() => processesWith('16.1803').length === 0 || null, 3000), true)
  })

  it('rejects a batch without queries or commands', async () => {
    assert.match((await s.call('ctx_batch_execute', { commands: ['echo'] })).text, /queries/)
    assert.match((await s.call('ctx_batch_execute', { commands: [], queries: ['x'] })).text, /commands/)
    assert.match((await s.call('ctx_batch_execute', { commands: [{ label: 'x' }], queries: ['x'] })).text, /no command/)
  })
})

describe('meta tools', () => {
  let s
  before(async () => (s = await startServer()))
  after(() => s.close())

  it('ctx_stats counts returned bytes and only the bytes really withheld', async () => {
    assert.match((await s.call('ctx_stats')).text, /no tool calls yet/)
    await s.call('ctx_execute', { language: 'shell', code: 'echo tiny' })
    let r = await s.call('ctx_stats')
    assert.match(r.text, /ctx_execute\s+1\s+\S+ B\s+0 B/)
    await s.call('ctx_execute', { language: 'shell', code: 'seq 1 50000' })
    r = await s.call('ctx_stats')
    const kept = r.text.match(/ctx_execute\s+2\s+[\d.]+ [KM]?B\s+([\d.]+) ([KM]?B)/)
    assert.ok(kept, r.text)
    assert.ok(Number(kept[1]) > 200 && kept[2] === 'KB', r.text)
  })

  it('ctx_doctor runs real checks and passes here', async () => {
    const r = await s.call('ctx_doctor')
    for (const check of ['Runtimes', 'SQLite FTS5', 'Storage', 'Execute (shell)', 'Execute (javascript)', 'Hook round trip']) {
      assert.match(r.text, new RegExp(`PASS  ${check.replace(/[()]/g, '\\$&')}`), r.text)
    }
    assert.match(r.text, /0 failed/)
  })

  it('ctx_upgrade names the command for this host', async () => {
    const r = await s.call('ctx_upgrade')
    assert.ok(r.text.includes(`"${process.execPath}" "${join(root, 'cli.mjs')}" upgrade --platform claude-code`), r.text)
  })

  it('ctx_insight writes a local HTML report', async () => {
    const r = await s.call('ctx_insight')
    const file = r.text.match(/written to (\S+\.html)/)[1]
    assert.match(readFileSync(file, 'utf8'), /ctx_execute/)
  })

  it('ctx_purge honours confirm and scope and never deletes more than asked', async () => {
    await s.call('ctx_index', { content: '# Keep me\nimportant stored fact', source: 'keep' })
    assert.match((await s.call('ctx_purge', { confirm: false })).text, /Nothing was deleted/)
    assert.equal((await s.call('ctx_purge', {})).isError, true)
    const noId = await s.call('ctx_purge', { confirm: true, scope: 'session' })
    assert.equal(noId.isError, true)
    assert.equal((await s.call('ctx_purge', { confirm: true, scope: 'project', sessionId: 'x' })).isError, true)
    assert.match((await s.call('ctx_purge', { confirm: true, sessionId: 'someone-else' })).text, /nothing deleted/)
    assert.match((await s.call('ctx_search', { queries: ['important stored fact'] })).text, /important stored fact/)
    const all = await s.call('ctx_purge', { confirm: true, scope: 'project' })
    assert.match(all.text, /knowledge base/)
    assert.match((await s.call('ctx_search', { queries: ['important stored fact'] })).text, /empty/)
  })
})

describe('lifecycle', () => {
  it('writes the readiness sentinel, removes it, and exits within 2 s of stdin closing', async () => {
    const sbx = new Sandbox()
    after(() => sbx.cleanup())
    const s = await startServer({ sbx })
    const sentinel = join(s.sbx.sent, `context-mode-mcp-ready-${s.pid}`)
    assert.equal(await waitFor(() => existsSync(sentinel)), true)
    assert.equal(readFileSync(sentinel, 'utf8'), String(s.pid))
    await s.call('ctx_execute', { language: 'shell', code: 'echo bg; exec sleep 23.456', background: true, timeout: 300 })
    assert.equal(processesWith('23.456').length, 1)
    const closed = Date.now()
    await s.close()
    assert.equal(await waitFor(() => !isAlive(s.pid) || null, 3000), true)
    assert.ok(Date.now() - closed < 2500, `${Date.now() - closed} ms`)
    assert.equal(existsSync(sentinel), false)
    assert.equal(await waitFor(() => processesWith('23.456').length === 0 || null, 2000), true, 'background run stopped with the server')
  })

  it('exits within 2 s of its parent dying even when stdin stays open', async () => {
    const sbx = new Sandbox()
    // sh is the parent; `sleep` keeps the pipe into the server open after sh dies.
    const sh = spawn('sh', ['-c', `sleep 61.2345 | "${process.execPath}" "${join(root, 'start.mjs')}"`], { env: { ...process.env, ...sbx.env(), CONTEXT_MODE_DIR: join(sbx.base, 'store') }, stdio: 'ignore' })
    const server = await waitFor(() => processesWith(join(root, 'start.mjs')).find((p) => readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(sh.pid)), 5000)
    assert.ok(server, 'server started')
    await waitFor(() => existsSync(join(sbx.sent, `context-mode-mcp-ready-${server.pid}`)), 5000)
    const killed = Date.now()
    process.kill(sh.pid, 'SIGKILL')
    assert.equal(await waitFor(() => !isAlive(server.pid) || null, 4000), true)
    assert.ok(Date.now() - killed < 2500, `${Date.now() - killed} ms`)
    for (const p of processesWith('61.2345')) process.kill(p.pid)
    sbx.cleanup()
  })
})

describe('bin', () => {
  it('the Claude Code plugin manifest starts the server', async () => {
    const manifest = JSON.parse(readFileSync(join(root, '.claude-plugin/plugin.json'), 'utf8'))
    const { command, args } = manifest.mcpServers['context-mode']
    assert.equal(command, 'node')
    const [script] = args.map((a) => a.replace('${CLAUDE_PLUGIN_ROOT}', root))
    const s = await startServer({ entry: script.slice(root.length + 1) })
    assert.equal((await s.client.listTools()).tools.length, 11)
    await s.close()
  })

  it('`node cli.mjs` with no argument serves MCP, and so does server.bundle.mjs', async () => {
    for (const entry of ['cli.mjs', 'server.bundle.mjs']) {
      if (entry === 'server.bundle.mjs' && !existsSync(join(root, entry))) continue
      const s = await startServer({ entry })
      assert.equal((await s.client.listTools()).tools.length, 11)
      await s.close()
    }
  })
})
