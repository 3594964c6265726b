#!/usr/bin/env node
// The context-mode command. `context-mode hook <platform> <event>` runs a hook (kept
// cheap: it loads nothing else); other subcommands load their own module; with no
// subcommand, or one we do not know, it serves MCP on stdio as 1.0.169 does.
const [command, ...rest] = process.argv.slice(2)

const HELP = `context-mode — keeps large tool output out of an AI agent's context window

Usage:
  context-mode                          serve the MCP tools on stdio (what hosts launch)
  context-mode hook <platform> <event>  run a hook; the payload comes on stdin
  context-mode --help                   this text

Hook platforms: claude-code, qwen-code, gemini-cli, vscode-copilot, jetbrains-copilot,
cursor, codex, kiro, copilot-cli, antigravity-cli, kimi. Events are lower-case, e.g.
pretooluse, posttooluse, sessionstart.
`

if (command === 'hook') {
  const { runHook } = await import('./hooks/run-hook.mjs')
  const [platform, event] = rest
  if (typeof platform === 'string' && typeof event === 'string') await runHook(platform, event)
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP)
} else {
  const { startServer } = await import('./server.mjs')
  await startServer()
}
