// The 11 MCP tool definitions: 1.0.169's names, argument names, types and enums (so
// existing permissions and prompts keep working), our own short descriptions. Every
// definition is sent on every model call, so each word here costs tokens all day.

const LANGUAGES = ['javascript', 'typescript', 'python', 'shell', 'ruby', 'go', 'rust', 'php', 'perl', 'r', 'elixir', 'csharp']

const str = (description) => (description ? { type: 'string', description } : { type: 'string' })
const strings = (description) => ({ type: 'array', items: { type: 'string' }, ...(description ? { description } : {}) })
const hints = (readOnly, destructive, idempotent, openWorld) => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
})

const TIMEOUT = { type: 'number', description: 'ms; default 120000, 0 = no limit' }
const INTENT = str('What you look for; big output is searched for it')

/** The tools in 1.0.169's order; `languages` fills ctx_execute's description. */
export function toolDefinitions(languages = LANGUAGES) {
  return [
    {
      name: 'ctx_execute',
      description: `Run code in a sandbox; only what it prints comes back. Filter and summarise in the code. Large output returns trimmed and is indexed for ctx_search. Available here: ${languages.join(', ')}.`,
      inputSchema: {
        type: 'object',
        properties: {
          language: { type: 'string', enum: LANGUAGES },
          code: str(),
          timeout: TIMEOUT,
          background: { type: 'boolean', default: false, description: 'Keep running after timeout (servers)' },
          cwd: str(),
          intent: INTENT,
        },
        required: ['language', 'code'],
      },
      annotations: hints(false, true, false, true),
    },
    {
      name: 'ctx_execute_file',
      description: 'Run code on one project file without loading it into the conversation: its text is FILE_CONTENT (file_content in Rust/Elixir), its path FILE_CONTENT_PATH.',
      inputSchema: {
        type: 'object',
        properties: {
          path: str(),
          language: { type: 'string', enum: LANGUAGES },
          code: str(),
          timeout: TIMEOUT,
          intent: INTENT,
        },
        required: ['path', 'language', 'code'],
      },
      annotations: hints(false, true, false, true),
    },
    {
      name: 'ctx_index',
      description: 'Store text, a file or a directory in the project knowledge base for ctx_search.',
      inputSchema: {
        type: 'object',
        properties: {
          content: str(),
          path: str('File or directory'),
          source: str('Label'),
          include: strings(),
          exclude: strings(),
          maxDepth: { type: 'integer', minimum: 0 },
          maxFiles: { type: 'integer', minimum: 1 },
          extensions: strings(),
          respectGitignore: { type: 'boolean' },
          followSymlinks: { type: 'boolean' },
        },
      },
      annotations: hints(false, false, false, false),
    },
    {
      name: 'ctx_search',
      description: 'Search everything indexed for this project: command output, files, fetched pages. Put all questions in one call.',
      inputSchema: {
        type: 'object',
        properties: {
          queries: strings(),
          limit: { type: 'number', default: 3 },
          source: str('Only labels containing this'),
          contentType: { type: 'string', enum: ['code', 'prose'] },
          sort: { type: 'string', enum: ['relevance', 'timeline'], default: 'relevance' },
        },
      },
      outputSchema: {
        type: 'object',
        properties: {
          results: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                query: str(),
                source: str(),
                title: str(),
                snippet: str(),
                path: str(),
                line: { type: 'integer' },
                score: { type: 'number' },
              },
              required: ['query', 'source', 'title', 'snippet', 'score'],
            },
          },
        },
        required: ['results'],
      },
      annotations: hints(true, false, true, false),
    },
    {
      name: 'ctx_fetch_and_index',
      description: 'Fetch http(s) pages, index them and return a short preview; search the rest with ctx_search. Cached 24 h.',
      inputSchema: {
        type: 'object',
        properties: {
          url: str(),
          source: str(),
          requests: {
            type: 'array',
            items: { type: 'object', properties: { url: str(), source: str() }, required: ['url'] },
            minItems: 1,
          },
          concurrency: { type: 'integer', minimum: 1, maximum: 8, default: 1 },
          force: { type: 'boolean' },
          ttl: { type: 'integer', minimum: 0 },
        },
      },
      annotations: hints(false, false, false, true),
    },
    {
      name: 'ctx_batch_execute',
      description: 'Run shell commands, index their output and answer queries on it, in one call. Best first step to explore a repo or logs.',
      inputSchema: {
        type: 'object',
        properties: {
          commands: {
            type: 'array',
            items: { type: 'object', properties: { label: str(), command: str() }, required: ['label', 'command'] },
            minItems: 1,
          },
          queries: { ...strings(), minItems: 1 },
          timeout: { type: 'number', description: 'ms for the whole batch' },
          concurrency: { type: 'integer', minimum: 1, maximum: 8, default: 1 },
          cwd: str(),
          query_scope: { type: 'string', enum: ['batch', 'global'], default: 'batch' },
        },
        required: ['commands', 'queries'],
      },
      annotations: hints(false, true, false, true),
    },
    {
      name: 'ctx_stats',
      description: 'Bytes kept out of and returned to the context, per tool.',
      inputSchema: { type: 'object', properties: {} },
      annotations: hints(true, false, true, false),
    },
    {
      name: 'ctx_doctor',
      description: 'Check runtimes, SQLite, the sandbox and the hooks: PASS or FAIL with a fix.',
      inputSchema: { type: 'object', properties: {} },
      annotations: hints(true, false, true, false),
    },
    {
      name: 'ctx_upgrade',
      description: "Show the command that rewrites this host's context-mode configuration.",
      inputSchema: { type: 'object', properties: {} },
      annotations: hints(false, false, true, false),
    },
    {
      name: 'ctx_purge',
      description: "Delete this project's stored data (scope project) or one session's (sessionId). Needs confirm: true.",
      inputSchema: {
        type: 'object',
        properties: {
          confirm: { type: 'boolean' },
          sessionId: str(),
          scope: { type: 'string', enum: ['session', 'project'] },
        },
        required: ['confirm'],
      },
      annotations: hints(false, true, true, false),
    },
    {
      name: 'ctx_insight',
      description: 'Write a local HTML report of the stats; returns its path.',
      inputSchema: { type: 'object', properties: {} },
      annotations: hints(false, false, true, false),
    },
  ]
}
