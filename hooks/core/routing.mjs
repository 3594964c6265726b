// routePreToolUse and the guidance throttle, backed by the native router.
import { callNative, toJson } from '../native.mjs'

/** Tool names of the hosts mapped to the tools routing knows (Task and Glob have no rule). */
export const TOOL_ALIASES = Object.freeze({
  run_shell_command: 'Bash', run_command: 'Bash', bash: 'Bash', shell: 'Bash', shell_command: 'Bash', exec_command: 'Bash',
  'container.exec': 'Bash', local_shell: 'Bash', exec: 'Bash', Shell: 'Bash', run_in_terminal: 'Bash', execute_bash: 'Bash',
  read_file: 'Read', read_many_files: 'Read', view_file: 'Read', view: 'Read', read: 'Read', fs_read: 'Read',
  grep_search: 'Grep', search_file_content: 'Grep', grep: 'Grep', search: 'Grep', grep_files: 'Grep',
  web_fetch: 'WebFetch', read_url_content: 'WebFetch', fetch: 'WebFetch', mcp_web_fetch: 'WebFetch', mcp_fetch_tool: 'WebFetch',
  agent: 'Agent', list_dir: 'LS', list_directory: 'LS', search_web: 'WebSearch', write_file: 'Write', fs_write: 'Write',
  edit: 'Edit', glob: 'Glob',
})

/** Decides what happens to one tool call: a decision object, or null to let it run. */
export function routePreToolUse(toolName, toolInput, projectDir, platform, sessionId, options) {
  const args = { toolName, toolInput, projectDir, platform, sessionId, options }
  const out = callNative('routePreToolUse', toJson(args))
  return out == null ? null : JSON.parse(out)
}

/** Forgets shown guidance for a session (and this process), in memory and on disk. */
export function resetGuidanceThrottle(sessionId) {
  callNative('resetGuidanceThrottle', sessionId === undefined ? undefined : toJson(sessionId))
}

/** True for single commands whose output is short by nature (pwd, git status, x --version). */
export const isStructurallyBounded = (command) => callNative('isStructurallyBounded', String(command ?? ''))
