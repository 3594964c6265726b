#!/usr/bin/env node
// The context-mode command. `context-mode hook <platform> <event>` runs a hook (kept
// cheap: it loads nothing else); other subcommands load their own module; with no
// subcommand, or one we do not know, it serves MCP on stdio as 1.0.169 does.
const [command, ...rest] = process.argv.slice(2)

const HELP = `context-mode — keeps large tool output out of an AI agent's context window

Usage:
  context-mode                          serve the MCP tools on stdio (what hosts launch)
  context-mode index <path>             index a file or directory into the knowledge base
  context-mode search <query...>        search the current project's knowledge base
  context-mode hook <platform> <event>  run a hook; the payload comes on stdin
  context-mode upgrade                  point this host's hooks and MCP entry at this install
  context-mode statusline               one status-bar line of what was kept out (Claude Code statusLine)
  context-mode --help                   this text

Index options:
  --source <label>                      label of what is indexed (default: project:<dir> or the file)
  --project <path>                      project whose knowledge base to use (default: the dir indexed)
  --max-depth <n>                       how deep to walk directories (default 5)
  --max-files <n>                       most files to read from a directory (default 200)
  --ext <.ts,.md>                       extensions to read, comma-separated
  --include <glob> / --exclude <glob>   paths to keep or skip (repeatable)
  --no-gitignore                        read files .gitignore excludes too
  --follow-symlinks                     follow symbolic links inside the directory

Search options:
  --project <path>                      project whose knowledge base to search (default: cwd)
  --source <label>                      only sources whose label contains this
  --limit <n>                           results to show (default 3)
  --type <code|prose>                   only code or only prose

Upgrade options:
  --platform <id>                       host to rewrite (default: the detected one)
  --dry-run                             report what would change, write nothing

Environment:
  CONTEXT_MODE_DIR=/absolute/path       store knowledge bases and session logs here

Hook platforms: claude-code, qwen-code, gemini-cli, vscode-copilot, jetbrains-copilot,
cursor, codex, kiro, copilot-cli, antigravity-cli, kimi. Events are lower-case, e.g.
pretooluse, posttooluse, sessionstart.
`

if (command === 'hook') {
  const { runHook } = await import('./hooks/run-hook.mjs')
  const [platform, event] = rest
  if (typeof platform === 'string' && typeof event === 'string') await runHook(platform, event)
} else if (command === 'index' || command === 'search') {
  const { indexCommand, searchCommand } = await import('./cli/knowledge.mjs')
  try {
    await (command === 'index' ? indexCommand : searchCommand)(rest)
  } catch (err) {
    console.error(`context-mode ${command}: ${err.message}`)
    process.exitCode = 1
  }
} else if (command === 'upgrade') {
  const { upgradeCommand } = await import('./cli/upgrade.mjs')
  try {
    upgradeCommand(rest)
  } catch (err) {
    console.error(`context-mode upgrade: ${err.message}`)
    process.exitCode = 1
  }
} else if (command === 'statusline') {
  const native = (await import('node:module')).createRequire(import.meta.url)('./hooks/native.cjs')
  let payload = ''
  try {
    payload = native.readStdin()
  } catch {}
  process.stdout.write(`${native.statusline(payload)}\n`)
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP)
} else {
  await import('./start.mjs')
}
