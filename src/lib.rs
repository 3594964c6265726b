//! The napi surface: thin bindings that convert arguments and call the core modules.
//! Values cross as JSON text where JS semantics matter (key order, `undefined`), so
//! what a JS caller passes is exactly what the hooks would have parsed.
//! Every export catches panics; a quiet panic hook keeps stderr empty, because some
//! hosts treat any stderr output from a hook as a failure.

pub mod clock;
pub mod exec;
pub mod hook;
pub mod jsjson;
pub mod platform;
pub mod session;
pub mod sqlite;
pub mod store;
pub mod text;
pub mod tools;

use napi::{Error, Result, Status};
use napi_derive::napi;
use serde_json::Value;

#[napi_derive::module_init]
fn init() {
    if !running_as_cargo_test() {
        std::panic::set_hook(Box::new(|_| {}));
    }
}

/// Cargo test binaries (`name-<16 hex>`) keep the default panic hook so failures show.
fn running_as_cargo_test() -> bool {
    let exe = std::env::current_exe().ok();
    let stem = exe.as_deref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    stem.rsplit_once('-').is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A JS-facing error whose message starts with the JS error name it stands for.
fn js_error(e: impl std::fmt::Display) -> Error {
    Error::new(Status::GenericFailure, e.to_string())
}

fn parse_json(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::new(Status::InvalidArg, format!("TypeError: expected JSON text: {e}")))
}

fn opts(key: &str) -> Result<platform::paths::PlatformOpts> {
    platform::paths::opts_by_key(key).ok_or_else(|| Error::new(Status::InvalidArg, format!("TypeError: unknown platform options {key:?}")))
}

#[napi(object)]
pub struct HookResult {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

impl From<hook::run::HookOutcome> for HookResult {
    fn from(o: hook::run::HookOutcome) -> Self {
        HookResult { stdout: o.stdout, stderr: o.stderr, exit_code: o.exit_code }
    }
}

/// Runs a hook process end to end: reads stdin, writes stdout/stderr, returns the exit
/// code. Unknown platforms or events answer nothing and exit 0.
#[napi(catch_unwind)]
pub fn run_hook(platform: String, event: String) -> i32 {
    let outcome = hook::run::run(&platform, &event);
    write_all_fd(std::io::stdout(), outcome.stdout.as_bytes());
    write_all_fd(std::io::stderr(), outcome.stderr.as_bytes());
    outcome.exit_code
}

/// Panics on purpose, to check that a Rust panic reaches JS as an error (tests only).
#[napi(catch_unwind, js_name = "__panicProbe")]
pub fn panic_probe() {
    panic!("panic probe");
}

/// Writes everything even to a non-blocking pipe.
fn write_all_fd(mut out: impl std::io::Write, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        match out.write(bytes) {
            Ok(0) => return,
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(std::time::Duration::from_millis(1)),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
    let _ = out.flush();
}

fn tool_context(context_json: &str) -> Result<tools::ToolContext> {
    let c = parse_json(context_json)?;
    let text = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(tools::ToolContext {
        project_dir: text("projectDir").unwrap_or_else(hook::payload::process_cwd),
        platform: text("platform").unwrap_or_else(|| "claude-code".into()),
        node_path: text("nodePath"),
        package_root: text("packageRoot"),
    })
}

/// Calls an MCP tool: `args` and `context` (`{projectDir, platform}`) as JSON text; resolves
/// to the `CallToolResult` as JSON text. Unknown tools are an error result, not a throw.
#[napi(catch_unwind)]
pub async fn call_tool(name: String, args_json: String, context_json: String) -> Result<String> {
    let ctx = tool_context(&context_json)?;
    let args = match serde_json::from_str::<Value>(&args_json) {
        Ok(v @ Value::Object(_)) => v,
        Ok(Value::Null) => Value::Object(Default::default()),
        _ => return Ok(jsjson::stringify(&tools::ToolResponse::error("Arguments must be a JSON object.").to_json())),
    };
    let response = tools::dispatch(&name, ctx, args).await;
    Ok(jsjson::stringify(&response.to_json()))
}

/// The project an MCP server serves, for a platform (workspace variables, then
/// `CONTEXT_MODE_PROJECT_DIR`, `$PWD`, the working directory).
#[napi(catch_unwind)]
pub fn server_project_dir(platform: String) -> String {
    platform::paths::server_project_dir(&platform)
}

/// Where the server's readiness sentinel for `pid` lives (what hooks look for).
#[napi(catch_unwind)]
pub fn mcp_sentinel_path(pid: u32) -> String {
    hook::ready::sentinel_dir().join(format!("{}{pid}", hook::ready::SENTINEL_PREFIX)).to_string_lossy().into_owned()
}

/// `context-mode statusline`: the status bar line for a statusLine payload (JSON text;
/// empty or malformed input still gets a line).
#[napi(catch_unwind)]
pub fn statusline(payload: String) -> String {
    let v = serde_json::from_str::<Value>(payload.trim_start_matches('\u{feff}')).unwrap_or(Value::Null);
    session::statusline::line(&v)
}

/// Languages that can run here, in the schema's order.
#[napi(catch_unwind)]
pub fn available_languages(node_path: Option<String>) -> Vec<String> {
    exec::runtime::available(node_path.as_deref().map(std::path::Path::new)).into_iter().map(str::to_string).collect()
}

/// Stops programs left running in the background (server shutdown). Returns how many.
#[napi]
pub fn stop_background() -> u32 {
    exec::sandbox::stop_background() as u32
}

#[napi(object)]
pub struct SearchHit {
    pub source: String,
    pub title: String,
    pub content: String,
    pub snippet: String,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub score: f64,
}

/// Searches a project's knowledge base directly (benchmarks, relevance tests), with
/// each hit's full chunk.
#[napi(catch_unwind)]
pub fn search_store(context_json: String, query: String, limit: u32, source: Option<String>) -> Result<Vec<SearchHit>> {
    let ctx = tool_context(&context_json)?;
    let store = tools::store::store_for(&ctx).map_err(js_error)?;
    let store = store.lock().unwrap_or_else(|e| e.into_inner());
    let hits = store
        .search(&store::search::SearchQuery { text: query, limit: limit as usize, source, content_type: None, snippet_chars: 0 })
        .map_err(js_error)?;
    Ok(hits
        .into_iter()
        .map(|h| SearchHit { source: h.source, title: h.title, content: h.content, snippet: h.snippet, path: h.path, line: h.line, score: h.score })
        .collect())
}

#[napi(object)]
pub struct StoreHealth {
    pub chunks: i64,
    pub integrity_ok: bool,
    pub path: String,
}

/// Chunk count and integrity of a project's knowledge base (doctor, tests).
#[napi(catch_unwind)]
pub fn store_health(context_json: String) -> Result<StoreHealth> {
    let ctx = tool_context(&context_json)?;
    let store = tools::store::store_for(&ctx).map_err(js_error)?;
    let store = store.lock().unwrap_or_else(|e| e.into_inner());
    Ok(StoreHealth {
        chunks: store.chunk_count().map_err(js_error)?,
        integrity_ok: store.integrity_ok().map_err(js_error)?,
        path: store.path().to_string_lossy().into_owned(),
    })
}

/// Whether `context-mode hook <platform> <event>` has a handler.
#[napi(catch_unwind)]
pub fn is_hook_mapped(platform: String, event: String) -> bool {
    platform::hook_is_mapped(&platform, &event)
}

/// Runs a hook on a payload given as text (for tests and in-process hosts).
#[napi(catch_unwind)]
pub fn run_hook_with_input(platform: String, event: String, stdin: String) -> HookResult {
    match hook::run::event_for(&platform, &event) {
        Some(ev) => hook::run::run_event(&platform, ev, Ok(stdin)).into(),
        None => hook::run::HookOutcome::silent().into(),
    }
}

/// The events of a session in a session database, as JSON text
/// `[{type, category, priority, data, bytesAvoided, bytesReturned}]`.
#[napi(catch_unwind)]
pub fn read_session_events(db_path: String, session_id: String) -> Result<String> {
    let db = session::SessionDb::open(std::path::Path::new(&db_path)).map_err(js_error)?;
    let events = db.events(&session_id).map_err(js_error)?;
    let list: Vec<Value> = events
        .iter()
        .map(|e| serde_json::json!({"type": e.kind, "category": e.category, "priority": e.priority, "data": e.data, "bytesAvoided": e.bytes_avoided, "bytesReturned": e.bytes_returned}))
        .collect();
    Ok(jsjson::stringify(&Value::Array(list)))
}

/// `routePreToolUse` with its arguments as one JSON object
/// `{toolName, toolInput, projectDir, platform, sessionId, options}`; returns the
/// decision as JSON text, or null.
#[napi(catch_unwind)]
pub fn route_pre_tool_use(args_json: String) -> Result<Option<String>> {
    let args = parse_json(&args_json)?;
    let text = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_string);
    let req = hook::route::RouteRequest {
        tool_name: text("toolName").unwrap_or_default(),
        tool_input: args.get("toolInput").cloned().unwrap_or(Value::Null),
        project_dir: text("projectDir"),
        platform: text("platform"),
        session_id: args.get("sessionId").cloned(),
        mcp_tools_available: args.get("options").and_then(|o| o.get("mcpToolsAvailable")) != Some(&Value::Bool(false)),
    };
    let decision = hook::route::route(&req).map_err(js_error)?;
    Ok(decision.map(|d| jsjson::stringify(&d.to_value())))
}

/// `formatDecision(platform, decision, opts)` with JSON text in and out.
#[napi(catch_unwind)]
pub fn format_decision(platform: String, decision_json: String, opts_json: Option<String>) -> Result<Option<String>> {
    let decision = parse_json(&decision_json)?;
    let opts = match opts_json {
        Some(t) => parse_json(&t)?,
        None => Value::Null,
    };
    let fo = hook::format::FormatOpts { codex_supports_rewrite: opts.get("codexSupportsRewrite").and_then(Value::as_bool) };
    Ok(hook::format::format_decision(&platform, &decision, &fo).map(|v| jsjson::stringify(&v)))
}

/// Reads stdin with the idle limit of `CONTEXT_MODE_HOOK_STDIN_IDLE_MS`.
#[napi(catch_unwind)]
pub fn read_stdin() -> Result<String> {
    hook::stdin::read_stdin().map_err(js_error)
}

/// `parseStdin(raw)`: the payload as JSON text (`{}` for nothing).
#[napi(catch_unwind)]
pub fn parse_stdin(raw: String) -> Result<String> {
    jsjson::parse_payload(&raw).map(|v| jsjson::stringify(&v)).map_err(js_error)
}

/// `parseAgyPayload(raw)`: never fails; `{}` for invalid input.
#[napi(catch_unwind)]
pub fn parse_agy_payload(raw: String) -> String {
    jsjson::stringify(&hook::payload::parse_agy_payload(&raw))
}

/// `fromAgy(payload)`.
#[napi(catch_unwind)]
pub fn from_agy(payload_json: String) -> Result<String> {
    Ok(jsjson::stringify(&hook::payload::from_agy(&parse_json(&payload_json)?)))
}

/// `getSessionId(input, opts)`; the id as JSON text (it may be a number).
#[napi(catch_unwind)]
pub fn get_session_id(input_json: String, opts_key: String) -> Result<String> {
    let id = hook::payload::session_id(&parse_json(&input_json)?, &opts(&opts_key)?).map_err(js_error)?;
    Ok(jsjson::stringify(&id))
}

/// `getInputProjectDir(input, opts)`.
#[napi(catch_unwind)]
pub fn get_input_project_dir(input_json: String, opts_key: String) -> Result<String> {
    Ok(hook::payload::input_project_dir(&parse_json(&input_json)?, &opts(&opts_key)?))
}

/// The project dir a host's PreToolUse hook routes with (null when it has none).
#[napi(catch_unwind)]
pub fn hook_project_dir(platform: String, input_json: String) -> Result<Option<String>> {
    Ok(hook::pre::routing_project_dir(&platform, &parse_json(&input_json)?))
}

/// `getProjectDir()`: `CLAUDE_PROJECT_DIR`, else the process cwd.
#[napi(catch_unwind)]
pub fn get_project_dir() -> String {
    hook::payload::env_project_dir()
}

/// `resolveConfigDir(opts)`.
#[napi(catch_unwind)]
pub fn resolve_config_dir(opts_key: String) -> Result<String> {
    Ok(platform::paths::resolve_config_dir(&opts(&opts_key)?).to_string_lossy().into_owned())
}

#[napi(object)]
pub struct PlatformOptions {
    pub name: String,
    pub config_dir: String,
    pub config_dir_env: Option<String>,
    pub project_dir_env: Option<String>,
    pub session_id_env: Option<String>,
}

/// The `*_OPTS` objects of the session helpers.
#[napi(catch_unwind)]
pub fn platform_options() -> Vec<PlatformOptions> {
    platform::paths::ALL_OPTS
        .iter()
        .map(|o| PlatformOptions {
            name: o.name.to_string(),
            config_dir: o.config_dir.to_string(),
            config_dir_env: o.config_dir_env.map(str::to_string),
            project_dir_env: o.project_dir_env.map(str::to_string),
            session_id_env: o.session_id_env.map(str::to_string),
        })
        .collect()
}

/// `detectPlatformFromEnv()`.
#[napi(catch_unwind)]
pub fn detect_platform_from_env() -> String {
    platform::detect::detect_platform_from_env().to_string()
}

/// The platform a server or CLI runs for: MCP client name, `CONTEXT_MODE_PLATFORM`,
/// environment, config dirs.
#[napi(catch_unwind)]
pub fn detect_platform(client_name: Option<String>) -> String {
    platform::detect::detect_platform(client_name.as_deref()).0.to_string()
}

/// `getToolName(platform, tool)`.
#[napi(catch_unwind)]
pub fn get_tool_name(platform: Option<String>, tool: String) -> String {
    platform::tool_name(platform.as_deref().filter(|p| !p.is_empty()).unwrap_or("claude-code"), &tool)
}

/// `isStructurallyBounded(command)`.
#[napi(catch_unwind)]
pub fn is_structurally_bounded(command: String) -> bool {
    hook::route::shell::is_structurally_bounded(&command)
}

/// `isMCPReady()`.
#[napi(catch_unwind)]
pub fn is_mcp_ready() -> bool {
    hook::ready::is_mcp_ready()
}

/// `resetGuidanceThrottle(sessionId?)`; with no id, only the in-process cache of every
/// session and the parent-process markers are cleared.
#[napi(catch_unwind)]
pub fn reset_guidance_throttle(session_id_json: Option<String>) -> Result<()> {
    let key = match session_id_json {
        Some(t) => Some(parse_json(&t)?).filter(jsjson::truthy).map(|v| jsjson::js_string(&v)),
        None => None,
    };
    hook::throttle::clear_memory();
    hook::throttle::reset(key.as_deref());
    Ok(())
}

/// `parseCodexVersion(raw)`: `[major, minor, patch]` or null.
#[napi(catch_unwind)]
pub fn parse_codex_version(raw: String) -> Option<Vec<f64>> {
    hook::format::codex::parse_version(&raw).map(|(a, b, c)| vec![a as f64, b as f64, c as f64])
}

/// Whether a `codex --version` output names a release that accepts rewrites.
#[napi(catch_unwind)]
pub fn codex_version_supported(raw: String) -> bool {
    hook::format::codex::version_supported(hook::format::codex::parse_version(&raw))
}

/// Whether the installed Codex accepts rewritten tool input (cached for an hour).
#[napi(catch_unwind)]
pub fn codex_supports_updated_input() -> bool {
    hook::format::codex::supports_updated_input()
}

#[napi(object)]
pub struct CodexCaps {
    pub supported: bool,
    pub cache_after: Option<String>,
}

/// The capability rule on explicit inputs (cache text, clock, `codex --version` output).
#[napi(catch_unwind)]
pub fn codex_caps_decide(cache: Option<String>, now_ms: f64, version_stdout: Option<String>) -> CodexCaps {
    let (supported, cache_after) = hook::format::codex::decide(cache.as_deref(), now_ms, || version_stdout);
    CodexCaps { supported, cache_after }
}

/// `context-mode upgrade`: rewrites the host's hook (and MCP) registration so it runs
/// this install; returns the report as JSON text.
#[napi(catch_unwind)]
pub fn upgrade_host(platform: String, package_root: String, node_path: String, cwd: String, dry_run: bool) -> Result<String> {
    let (root, node, cwd) = (std::path::PathBuf::from(package_root), std::path::PathBuf::from(node_path), std::path::PathBuf::from(cwd));
    let req = platform::setup::Request { platform: &platform, package_root: &root, node: &node, cwd: &cwd, dry_run };
    let report = platform::setup::upgrade(&req, &platform::setup::Locations::resolve(&platform));
    serde_json::to_string(&report).map_err(js_error)
}
