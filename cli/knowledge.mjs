// `context-mode index <path>` and `context-mode search <query…>`: the knowledge base
// from a terminal. Both call the same native tools the MCP server serves.
import { existsSync, statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { loadNative } from '../hooks/native.mjs'
import { intFlag, parseFlags } from './flags.mjs'

const INDEX_USAGE = 'Usage: context-mode index <path> [--source label] [--project path] [--max-files n] [--max-depth n] [--ext .ts,.md] [--include glob] [--exclude glob] [--no-gitignore] [--follow-symlinks]'
const SEARCH_USAGE = 'Usage: context-mode search <query...> [--source label] [--project path] [--limit n] [--type code|prose]'

function context(projectDir) {
  const native = loadNative()
  return { native, ctx: JSON.stringify({ projectDir, platform: native.detectPlatform(null) }) }
}

async function call(native, tool, args, ctx) {
  return JSON.parse(await native.callTool(tool, JSON.stringify(args), ctx))
}

export async function indexCommand(argv) {
  const { flags, positional } = parseFlags(argv, ['include', 'exclude'])
  if (flags.help || flags.h) return console.log(INDEX_USAGE)
  if (!positional[0]) {
    console.error(INDEX_USAGE)
    return (process.exitCode = 1)
  }
  const target = resolve(positional[0])
  if (!existsSync(target)) throw new Error(`path does not exist: ${target}`)
  const isDir = statSync(target).isDirectory()
  const project = resolve(flags.project && flags.project !== true ? flags.project : isDir ? target : dirname(target))
  const exts = flags.ext ?? flags.extensions
  const args = {
    path: target,
    source: typeof flags.source === 'string' ? flags.source : isDir ? `project:${basename(target)}` : undefined,
    maxDepth: intFlag(flags, 'max-depth', 0),
    maxFiles: intFlag(flags, 'max-files', 1),
    extensions: typeof exts === 'string' ? exts.split(',').map((e) => (e.trim().startsWith('.') ? e.trim() : `.${e.trim()}`)) : undefined,
    include: flags.include,
    exclude: flags.exclude,
    respectGitignore: flags['no-gitignore'] ? false : undefined,
    followSymlinks: flags['follow-symlinks'] ? true : undefined,
  }
  const { native, ctx } = context(project)
  const result = await call(native, 'ctx_index', args, ctx)
  const text = result.content[0].text.split('\n')[0]
  if (result.isError) throw new Error(text)
  console.log(`${text}\nProject: ${project}`)
}

export async function searchCommand(argv) {
  const { flags, positional } = parseFlags(argv)
  const query = positional.join(' ').trim()
  if (flags.help || flags.h) return console.log(SEARCH_USAGE)
  if (!query) {
    console.error(SEARCH_USAGE)
    return (process.exitCode = 1)
  }
  if (flags.type !== undefined && !['code', 'prose'].includes(flags.type)) throw new Error('--type must be code or prose')
  const project = resolve(typeof flags.project === 'string' ? flags.project : process.cwd())
  const { native, ctx } = context(project)
  const args = { queries: [query], limit: intFlag(flags, 'limit', 1) ?? 3, source: typeof flags.source === 'string' ? flags.source : undefined, contentType: flags.type }
  const result = await call(native, 'ctx_search', args, ctx)
  if (result.isError) throw new Error(result.content[0].text)
  const hits = result.structuredContent?.results ?? []
  if (!hits.length) return console.log(`No matches for: ${query}\nProject: ${project}`)
  hits.forEach((h, i) => {
    const where = h.path ? `${h.path}${h.line ? `:${h.line}` : ''}` : h.source
    console.log(`## ${i + 1}. ${h.title}\n${where}\n${h.snippet.trim()}\n`)
  })
}
