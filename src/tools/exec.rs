//! `ctx_execute`, `ctx_execute_file` and `ctx_batch_execute`: run the agent's code in the
//! sandbox and hand back only what it needs. Output goes through one size policy:
//!
//! * with an `intent` and more than [`INTENT_THRESHOLD`] bytes, the output is indexed and
//!   the answer lists the sections that match the intent;
//! * without one, output up to the inline limit comes back whole; above it, head and
//!   tail come back with a pointer to the whole output, which is indexed;
//! * above [`LARGE_OUTPUT`] only the pointer comes back (failures: the sections that
//!   look like errors).
//!
//! Every run has a time limit (120 s unless told otherwise) and runs in its own process
//! group, which dies with it.

use super::args::{ArgError, Args};
use super::store::store_for;
use super::{human_bytes, ToolContext, ToolResponse};
use crate::exec::policy::{Policies, Verdict};
use crate::exec::runtime::{Language, LANGUAGES};
use crate::exec::sandbox::{self, RunOutput, RunRequest};
use crate::exec::{embedded, env, program};
use crate::store::chunk::{chunk, ContentKind};
use crate::store::index::{distinctive_terms, SourceInput};
use crate::store::search::{Hit, SearchQuery};
use crate::store::ContentStore;
use crate::text::cut_chars;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// With an intent, output above this many bytes is searched rather than returned.
pub const INTENT_THRESHOLD: usize = 5_000;
/// Without an intent, output above this many bytes comes back as head and tail
/// (`CONTEXT_MODE_INLINE_LIMIT_BYTES`). Chosen with `bench/savings.mjs`.
pub const DEFAULT_INLINE_LIMIT: usize = 4_096;
/// Output above this comes back as a pointer only.
pub const LARGE_OUTPUT: usize = 100 * 1024;
/// Bytes of the start and the end shown for output over the inline limit.
const HEAD_BYTES: usize = 1_024;
const TAIL_BYTES: usize = 768;
/// …and at most this many lines of each.
const HEAD_LINES: usize = 40;
const TAIL_LINES: usize = 25;
/// The time limit when neither the call nor the environment sets one.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// A background run without its own `timeout` is handed back after this long.
const BACKGROUND_HANDOFF_MS: u64 = 10_000;
/// Sections listed for an intent, and searchable terms offered.
const INTENT_HITS: usize = 5;
const TERMS: usize = 12;
/// What a failure over [`LARGE_OUTPUT`] is searched for.
const FAILURE_INTENT: &str = "error failed failure exception fatal panic";
/// Batch answers: hits per query, snippet size, and the cap on all query sections.
const BATCH_HITS: usize = 3;
const BATCH_SNIPPET_CHARS: usize = 700;
const BATCH_ANSWER_CAP: usize = 32 * 1024;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok())
}

/// The inline limit in force.
pub fn inline_limit() -> usize {
    env_number("CONTEXT_MODE_INLINE_LIMIT_BYTES").map(|n| n as usize).unwrap_or(DEFAULT_INLINE_LIMIT)
}

/// The default time limit: `CONTEXT_MODE_EXEC_TIMEOUT_MS` (`0` = none), else 120 s.
pub fn default_timeout() -> Option<Duration> {
    match env_number("CONTEXT_MODE_EXEC_TIMEOUT_MS") {
        Some(0) => None,
        Some(ms) => Some(Duration::from_millis(ms)),
        None => Some(Duration::from_millis(DEFAULT_TIMEOUT_MS)),
    }
}

/// The `timeout` argument (ms; `0` = none), or the default.
fn timeout_arg(a: &Args) -> Result<Option<Duration>, ArgError> {
    match a.number("timeout")? {
        Some(ms) if ms < 0.0 => Err(ArgError { name: "timeout".into(), reason: "must be 0 (no limit) or a positive number of milliseconds".into() }),
        Some(ms) if ms == 0.0 => Ok(None),
        Some(ms) => Ok(Some(Duration::from_millis(ms.ceil() as u64))),
        None => Ok(default_timeout()),
    }
}

fn language_arg(a: &Args) -> Result<Language, ArgError> {
    let name = a.required_string("language")?;
    Language::parse(name.trim()).ok_or_else(|| ArgError { name: "language".into(), reason: format!("must be one of {}, got {name:?}", LANGUAGES.join(", ")) })
}

fn code_arg(a: &Args) -> Result<String, ArgError> {
    a.required_string("code")
}

fn intent_arg(a: &Args) -> Result<Option<String>, ArgError> {
    Ok(a.string("intent")?.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()))
}


/// A working directory argument, resolved against the project; it must exist.
fn cwd_arg(ctx: &ToolContext, a: &Args) -> Result<PathBuf, ToolResponse> {
    let cwd = match a.string("cwd").map_err(arg_error)?.filter(|c| !c.trim().is_empty()) {
        Some(c) => super::resolve_path(&ctx.project_dir, &c),
        None => PathBuf::from(&ctx.project_dir),
    };
    if !cwd.is_dir() {
        return Err(ToolResponse::error(format!("The working directory {} does not exist.", cwd.display())));
    }
    Ok(cwd)
}

fn arg_error(e: ArgError) -> ToolResponse {
    ToolResponse::error(e.to_string())
}

/// A short id that keeps each run's indexed output under its own label, so a new run
/// never replaces an older one the agent may still search.
fn run_id() -> String {
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    crate::store::index::sha256_hex(&format!("{}:{n}:{now}", std::process::id()))[..6].to_string()
}


/// One line naming what ran: the code's first line, not the whole code the agent
/// already has.
fn echo(lang: Language, code: &str, file: Option<&str>) -> String {
    let lines: Vec<&str> = code.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let first = cut_chars(lines.first().copied().unwrap_or(""), 80);
    let more = if lines.len() > 1 { format!(" (+{} lines)", lines.len() - 1) } else { String::new() };
    match file {
        Some(p) => format!("[{} on {p}] {first}{more}\n", lang.name()),
        None => format!("[{}] {first}{more}\n", lang.name()),
    }
}

/// The first deny rule the code breaks: shell code as a whole, other languages through
/// the shell commands embedded in them.
fn denied_code(policies: &Policies, lang: Language, code: &str) -> Option<String> {
    if policies.deny.is_empty() {
        return None;
    }
    if lang == Language::Shell {
        if let Verdict::Deny(rule) = policies.check_command(code) {
            return Some(crate::hook::texts::policy_deny_bash(&rule.raw));
        }
        return None;
    }
    for cmd in embedded::embedded_commands(lang, code) {
        if let Verdict::Deny(rule) = policies.check_command(&cmd) {
            return Some(format!("Blocked by security policy: the {} code runs the shell command \"{}\", which matches deny pattern {}", lang.name(), cut_chars(&cmd, 200), rule.raw));
        }
    }
    None
}

// ---------------------------------------------------------------- running

struct RunSpec {
    lang: Language,
    code: String,
    file: Option<PathBuf>,
    cwd: PathBuf,
    timeout: Option<Duration>,
    background: bool,
}

/// Writes and runs the program in a fresh scratch directory. `Err` when it cannot start
/// at all (no runtime, no scratch space).
async fn run_code(ctx: &ToolContext, spec: &RunSpec) -> Result<RunOutput, String> {
    let dir = sandbox::scratch_dir().map_err(|e| format!("cannot create a scratch directory: {e}"))?;
    let node = ctx.node_path.as_deref().map(Path::new);
    let prepared = match program::prepare(spec.lang, &spec.code, spec.file.as_deref(), &dir, node) {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(e.to_string());
        }
    };
    let scrubbed = env::child_env(&dir);
    let started = Instant::now();
    if let Some((compiler, args)) = &prepared.compile {
        let built = sandbox::run(RunRequest {
            program: compiler.clone(),
            args: args.clone(),
            cwd: dir.clone(),
            env: scrubbed.env.clone(),
            timeout: spec.timeout,
            background: false,
            scratch_dir: None,
        })
        .await;
        if built.exit_code != 0 || built.timed_out || built.output_capped {
            let _ = std::fs::remove_dir_all(&dir);
            return Ok(built);
        }
    }
    let timeout = match (spec.timeout, spec.background) {
        (Some(t), _) => Some(t.saturating_sub(started.elapsed())),
        (None, true) => Some(Duration::from_millis(BACKGROUND_HANDOFF_MS)),
        (None, false) => None,
    };
    Ok(sandbox::run(RunRequest { program: prepared.program, args: prepared.args, cwd: spec.cwd.clone(), env: scrubbed.env, timeout, background: spec.background, scratch_dir: Some(dir) }).await)
}

/// What a run printed, classified: the text the size policy sees, whether the call
/// failed, and a note that always comes after it.
#[derive(Debug, Clone, PartialEq)]
struct Classified {
    body: String,
    is_error: bool,
    note: Option<String>,
}

fn joined(stdout: &str, stderr: &str) -> String {
    if stderr.trim().is_empty() {
        return stdout.to_string();
    }
    let mut out = stdout.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("[stderr]\n");
    out.push_str(stderr);
    out
}

fn ms(d: Option<Duration>) -> u128 {
    d.map(|d| d.as_millis()).unwrap_or(0)
}

fn classify(lang: Language, out: &RunOutput, timeout: Option<Duration>) -> Classified {
    let stdout = out.stdout.text();
    let stderr = out.stderr.text();
    let both = joined(&stdout, &stderr);
    if out.backgrounded {
        let pid = out.pid.map(|p| p.to_string()).unwrap_or_else(|| "?".into());
        let body = if both.trim().is_empty() { "(no output yet)".to_string() } else { both };
        return Classified { body, is_error: false, note: Some(format!("(still running in the background as process {pid}; it is stopped when the server exits)")) };
    }
    if out.timed_out {
        let limit = ms(timeout);
        if both.trim().is_empty() {
            return Classified {
                body: format!("Timed out after {limit} ms with no output; the process and its children were stopped."),
                is_error: true,
                note: Some("(raise `timeout`, or pass background: true for a server or watcher)".into()),
            };
        }
        return Classified { body: both, is_error: true, note: Some(format!("(time limit of {limit} ms reached; the process was stopped and the output above is partial)")) };
    }
    if out.output_capped {
        return Classified { body: both, is_error: true, note: Some("(stopped: the program printed more than the output limit, CONTEXT_MODE_EXEC_MAX_OUTPUT_BYTES)".into()) };
    }
    if out.exit_code == 0 {
        let body = if both.trim().is_empty() { "(no output)".to_string() } else { both };
        return Classified { body, is_error: false, note: None };
    }
    // `grep` finding nothing, `diff` finding differences: exit 1 with output is an answer.
    if lang == Language::Shell && out.exit_code == 1 && !stdout.trim().is_empty() {
        return Classified { body: both, is_error: false, note: None };
    }
    Classified { body: format!("Exit code {}\n{both}", out.exit_code), is_error: true, note: None }
}

// ---------------------------------------------------------------- size policy

/// Index kind for command output: JSON by structure, everything else by lines.
fn output_kind(body: &str) -> ContentKind {
    let t = body.trim_start();
    if (t.starts_with('{') || t.starts_with('[')) && serde_json::from_str::<Value>(body).is_ok_and(|v| v.is_object() || v.is_array()) {
        ContentKind::Json
    } else {
        ContentKind::Text
    }
}

fn line_count(s: &str) -> usize {
    s.lines().count().max(1)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The start and end of `body` within the byte budgets, cut at line breaks when one is
/// near enough, and the number of lines left out between them.
fn head_and_tail(body: &str) -> (&str, &str, usize) {
    let mut head_end = floor_boundary(body, HEAD_BYTES);
    if let Some(nl) = body[..head_end].rfind('\n') {
        if nl >= head_end / 2 {
            head_end = nl + 1;
        }
    }
    if let Some((i, _)) = body[..head_end].match_indices('\n').nth(HEAD_LINES - 1) {
        head_end = i + 1;
    }
    let mut tail_start = ceil_boundary(body, body.len().saturating_sub(TAIL_BYTES).max(head_end));
    if let Some(nl) = body[tail_start..].find('\n') {
        if nl < (body.len() - tail_start) / 2 && tail_start + nl + 1 < body.len() {
            tail_start += nl + 1;
        }
    }
    // The last TAIL_LINES lines at most (a final newline does not start a line).
    let trimmed_end = body.len() - usize::from(body.ends_with('\n'));
    if let Some((i, _)) = body[tail_start..trimmed_end].rmatch_indices('\n').nth(TAIL_LINES - 1) {
        tail_start += i + 1;
    }
    let hidden = &body[head_end..tail_start];
    (&body[..head_end], &body[tail_start..], hidden.matches('\n').count())
}

/// The line of a chunk that best matches the query terms.
fn best_line(content: &str, query: &str) -> String {
    let terms: Vec<String> = query.split_whitespace().map(|t| t.to_lowercase()).filter(|t| t.chars().count() >= 2).collect();
    let score = |line: &str| {
        let lower = line.to_lowercase();
        terms.iter().filter(|t| lower.contains(t.as_str())).count()
    };
    let top = content.lines().map(score).max().unwrap_or(0);
    let line = content.lines().find(|l| !l.trim().is_empty() && score(l) == top).unwrap_or("");
    cut_chars(line.trim(), 160)
}

fn search_hint(label: &str) -> String {
    format!("ctx_search(queries: [...], source: \"{label}\")")
}

/// Indexes output and lists the sections that match `intent`.
fn intent_summary(store: &ContentStore, body: &str, intent: &str, label: &str) -> Result<String, crate::store::StoreError> {
    let kind = output_kind(body);
    let out = store.index(&SourceInput { label, text: body, kind, file_path: None })?;
    let hits = store.search(&SearchQuery { text: intent.to_string(), limit: INTENT_HITS, source: Some(label.to_string()), content_type: None, snippet_chars: 0 })?;
    let mut text = format!("{} lines ({}) indexed as \"{label}\" ({} sections).\n", line_count(body), human_bytes(body.len()), out.chunks);
    if hits.is_empty() {
        text.push_str(&format!("No section matches \"{intent}\".\n"));
    } else {
        let count = if hits.len() == 1 { "1 section matches".to_string() } else { format!("{} sections match", hits.len()) };
        text.push_str(&format!("{count} \"{intent}\":\n"));
        for h in &hits {
            text.push_str(&hit_line(h, intent, kind));
        }
    }
    let terms = terms_of(body, kind);
    if !terms.is_empty() {
        text.push_str(&format!("Terms: {}\n", terms.join(", ")));
    }
    text.push_str(&format!("Full text: {}", search_hint(label)));
    Ok(text)
}

/// One matching section: where it is and its best line. Plain-text sections are titled
/// by their first line, which says nothing the line does not; structured ones keep
/// their title (a JSON path).
fn hit_line(h: &Hit, intent: &str, kind: ContentKind) -> String {
    let line = best_line(&h.content, intent);
    let at = h.line.map(|l| format!("L{l}: ")).unwrap_or_default();
    if kind == ContentKind::Text || h.title.trim().is_empty() || line.contains(h.title.trim_end_matches('…')) {
        format!("- {at}{line}\n")
    } else {
        format!("- {at}{} → {line}\n", cut_chars(&h.title, 60))
    }
}

fn terms_of(body: &str, kind: ContentKind) -> Vec<String> {
    let chunks = chunk(body, kind);
    distinctive_terms(chunks.iter().map(|c| c.content.as_str()), TERMS)
}

/// Output that comes back as printed: within the inline limit, and, with an intent,
/// not above the size where it is searched instead.
fn returned_whole(len: usize, has_intent: bool) -> bool {
    let limit = inline_limit();
    len <= limit && !(has_intent && len > INTENT_THRESHOLD.min(limit.max(1)))
}

/// Applies the size policy to a run's output. Returns the answer's body.
fn shape(store: Option<&ContentStore>, body: &str, intent: Option<&str>, is_error: bool, label: &str) -> String {
    if returned_whole(body.len(), intent.is_some()) {
        return body.to_string();
    }
    let wants_search = intent.is_some() && body.len() > INTENT_THRESHOLD.min(inline_limit().max(1));
    let Some(store) = store else { return unindexed(body, "the knowledge base is not available") };
    if let Some(intent) = intent.filter(|_| wants_search) {
        return intent_summary(store, body, intent, label).unwrap_or_else(|e| unindexed(body, &e.to_string()));
    }
    if body.len() > LARGE_OUTPUT && is_error {
        return intent_summary(store, body, FAILURE_INTENT, label).unwrap_or_else(|e| unindexed(body, &e.to_string()));
    }
    let out = match store.index(&SourceInput { label, text: body, kind: output_kind(body), file_path: None }) {
        Ok(o) => o,
        Err(e) => return unindexed(body, &e.to_string()),
    };
    if body.len() > LARGE_OUTPUT {
        return format!("{} lines ({}) indexed as \"{label}\" ({} sections), too large to show. Search: {}", line_count(body), human_bytes(body.len()), out.chunks, search_hint(label));
    }
    let (head, tail, hidden) = head_and_tail(body);
    format!(
        "{head}{}[… {hidden} more lines …]\n{tail}{}[{} lines, {}: all indexed as \"{label}\"; search it with {}]",
        if head.ends_with('\n') { "" } else { "\n" },
        if tail.ends_with('\n') { "" } else { "\n" },
        line_count(body),
        human_bytes(body.len()),
        search_hint(label)
    )
}

/// Head and tail when the output could not be indexed: nothing is lost silently.
fn unindexed(body: &str, why: &str) -> String {
    let (head, tail, hidden) = head_and_tail(body);
    format!("{head}\n[… {hidden} lines not shown; they could not be indexed: {why} …]\n{tail}")
}


/// Shapes output on a blocking thread (indexing and search touch SQLite).
async fn shape_blocking(ctx: &ToolContext, body: String, intent: Option<String>, is_error: bool, label: String) -> String {
    let store = if returned_whole(body.len(), intent.is_some()) { None } else { store_for(ctx).ok() };
    tokio::task::spawn_blocking(move || {
        let guard = store.as_ref().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()));
        shape(guard.as_deref(), &body, intent.as_deref(), is_error, &label)
    })
    .await
    .unwrap_or_else(|e| format!("(the output could not be prepared: {e})"))
}

/// Builds the answer to a run: echo, shaped output, note; counts what was kept out.
async fn answer(ctx: &ToolContext, lang: Language, echo_line: String, out: &RunOutput, timeout: Option<Duration>, intent: Option<String>, label: String) -> ToolResponse {
    let c = classify(lang, out, timeout);
    let label = if c.is_error { format!("{label}:error") } else { label };
    let shaped = shape_blocking(ctx, c.body, intent, c.is_error, label).await;
    let mut text = echo_line;
    text.push_str(&shaped);
    if let Some(note) = c.note {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&note);
    }
    let produced = out.stdout.total + out.stderr.total;
    let withheld = produced.saturating_sub(shaped.len() as u64);
    ToolResponse { text, is_error: c.is_error, structured: None, withheld }
}

// ---------------------------------------------------------------- ctx_execute

pub async fn ctx_execute(ctx: ToolContext, args: Value) -> ToolResponse {
    let a = Args(&args);
    let parsed = (|| Ok::<_, ArgError>((language_arg(&a)?, code_arg(&a)?, timeout_arg(&a)?, a.boolean("background")?.unwrap_or(false), intent_arg(&a)?)))();
    let (lang, code, timeout, background, intent) = match parsed {
        Ok(p) => p,
        Err(e) => return arg_error(e),
    };
    let cwd = match cwd_arg(&ctx, &a) {
        Ok(c) => c,
        Err(r) => return r,
    };
    if let Some(reason) = denied_code(&ctx.policies(), lang, &code) {
        return ToolResponse::error(reason);
    }
    let spec = RunSpec { lang, code, file: None, cwd, timeout, background, };
    let out = match run_code(&ctx, &spec).await {
        Ok(o) => o,
        Err(e) => return ToolResponse::error(format!("Cannot run {}: {e}", lang.name())),
    };
    let label = format!("execute:{}:{}", lang.name(), run_id());
    answer(&ctx, lang, echo(lang, &spec.code, None), &out, timeout, intent, label).await
}

// ---------------------------------------------------------------- ctx_execute_file

/// Whether `path` lies inside the project (symlinks resolved when both exist).
fn inside_project(project_dir: &str, path: &Path) -> bool {
    let root = Path::new(project_dir);
    let lexical = normalize(path);
    let lexical_root = normalize(root);
    if !lexical.starts_with(&lexical_root) {
        return false;
    }
    match (std::fs::canonicalize(path), std::fs::canonicalize(root)) {
        (Ok(real), Ok(real_root)) => real.starts_with(real_root),
        _ => true,
    }
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in p.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

pub async fn ctx_execute_file(ctx: ToolContext, args: Value) -> ToolResponse {
    let a = Args(&args);
    let parsed = (|| Ok::<_, ArgError>((a.required_string("path")?, language_arg(&a)?, code_arg(&a)?, timeout_arg(&a)?, intent_arg(&a)?)))();
    let (raw_path, lang, code, timeout, intent) = match parsed {
        Ok(p) => p,
        Err(e) => return arg_error(e),
    };
    let path = normalize(&super::resolve_path(&ctx.project_dir, &raw_path));
    let shown = path.to_string_lossy().into_owned();
    let policies = ctx.policies();
    if !inside_project(&ctx.project_dir, &path) && policies.allowed_read(&shown, Some(&ctx.project_dir)).is_none() {
        return ToolResponse::error(format!(
            "File access blocked: {raw_path} is outside the project ({}). ctx_execute_file stays inside the workspace; to allow a path on purpose, add \"Read({shown})\" to permissions.allow in .claude/settings.json.",
            ctx.project_dir
        ));
    }
    if let Some(rule) = policies.denied_read(&raw_path, Some(&ctx.project_dir)) {
        return ToolResponse::error(crate::hook::texts::policy_deny_read_path(&rule.glob));
    }
    match std::fs::metadata(&path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return ToolResponse::error(format!("{raw_path} is not a regular file.")),
        Err(e) => return ToolResponse::error(format!("Cannot read {raw_path}: {e}")),
    }
    if let Some(reason) = denied_code(&policies, lang, &code) {
        return ToolResponse::error(reason);
    }
    let spec = RunSpec { lang, code, file: Some(path), cwd: PathBuf::from(&ctx.project_dir), timeout, background: false };
    let out = match run_code(&ctx, &spec).await {
        Ok(o) => o,
        Err(e) => return ToolResponse::error(format!("Cannot run {}: {e}", lang.name())),
    };
    let label = format!("file:{raw_path}:{}", run_id());
    answer(&ctx, lang, echo(lang, &spec.code, Some(&raw_path)), &out, timeout, intent, label).await
}

// ---------------------------------------------------------------- ctx_batch_execute

#[derive(Debug, Clone)]
struct BatchCommand {
    label: String,
    command: String,
}

fn commands_arg(a: &Args) -> Result<Vec<BatchCommand>, ArgError> {
    let bad = |reason: String| ArgError { name: "commands".into(), reason };
    let items = a.array("commands")?.ok_or_else(|| bad("is required: [{label, command}, …]".into()))?;
    if items.is_empty() {
        return Err(bad("needs at least one command".into()));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) if !s.trim().is_empty() => Ok(BatchCommand { label: format!("cmd_{}", i + 1), command: s.clone() }),
            Value::Object(_) => {
                let c = Args(item);
                let command = c.string("command").map_err(|e| bad(format!("item {}: {}", i + 1, e.reason)))?.filter(|s| !s.trim().is_empty());
                let command = command.ok_or_else(|| bad(format!("item {} has no command", i + 1)))?;
                let label = c.string("label").map_err(|e| bad(format!("item {}: {}", i + 1, e.reason)))?.filter(|s| !s.trim().is_empty());
                Ok(BatchCommand { label: label.unwrap_or_else(|| format!("cmd_{}", i + 1)), command })
            }
            _ => Err(bad(format!("item {} must be a command string or {{label, command}}", i + 1))),
        })
        .collect()
}

/// One command's result within a batch.
struct BatchResult {
    section: String,
    lines: usize,
    bytes: u64,
    status: String,
}

fn collapse(command: &str) -> String {
    cut_chars(&command.split_whitespace().collect::<Vec<_>>().join(" "), 200)
}

fn batch_section(cmd: &BatchCommand, out: Option<&RunOutput>, limit: Option<Duration>) -> BatchResult {
    let mut section = format!("# {}\n$ {}\n", cmd.label, collapse(&cmd.command));
    let Some(out) = out else {
        section.push_str("(skipped: the batch time limit was reached)\n");
        return BatchResult { section, lines: 0, bytes: 0, status: "skipped".into() };
    };
    let body = joined(&out.stdout.text(), &out.stderr.text());
    section.push_str(if body.trim().is_empty() { "(no output)" } else { &body });
    if !section.ends_with('\n') {
        section.push('\n');
    }
    let status = if out.timed_out {
        section.push_str(&format!("(stopped at the {} ms time limit)\n", ms(limit)));
        "timed out".to_string()
    } else if out.exit_code != 0 {
        format!("exit {}", out.exit_code)
    } else {
        "ok".to_string()
    };
    BatchResult { section, lines: if body.trim().is_empty() { 0 } else { line_count(&body) }, bytes: out.stdout.total + out.stderr.total, status }
}

pub async fn ctx_batch_execute(ctx: ToolContext, args: Value) -> ToolResponse {
    let a = Args(&args);
    let parsed = (|| {
        let commands = commands_arg(&a)?;
        let queries: Vec<String> = a.strings("queries")?.unwrap_or_default().into_iter().filter(|q| !q.trim().is_empty()).collect();
        if queries.is_empty() {
            return Err(ArgError { name: "queries".into(), reason: "needs at least one search string: what you want from the output".into() });
        }
        let concurrency = a.integer("concurrency", 1, 8)?.unwrap_or(1) as usize;
        let global = a.choice("query_scope", &["batch", "global"])?.as_deref() == Some("global");
        Ok((commands, queries, timeout_arg(&a)?, concurrency, global))
    })();
    let (commands, queries, timeout, concurrency, global) = match parsed {
        Ok(p) => p,
        Err(e) => return arg_error(e),
    };
    let cwd = match cwd_arg(&ctx, &a) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let policies = ctx.policies();
    for cmd in &commands {
        if let Verdict::Deny(rule) = policies.check_command(&cmd.command) {
            return ToolResponse::error(crate::hook::texts::policy_deny_batch(&cmd.label, &rule.raw));
        }
    }
    let deadline = timeout.map(|t| Instant::now() + t);
    let remaining = move || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    // Less than this left is no time to run anything.
    let expired = move || deadline.is_some_and(|d| d.saturating_duration_since(Instant::now()) < Duration::from_millis(20));
    // Run one at a time, a command that hit the limit ends the batch.
    let out_of_time = Arc::new(std::sync::atomic::AtomicBool::new(false));

    // Run: at most `concurrency` at once, each bounded by what is left of the batch's time.
    let semaphore = Arc::new(tokio::sync::Semaphore::new(concurrency));
    let ctx_arc = Arc::new(ctx.clone());
    let mut tasks = Vec::new();
    for cmd in commands.iter().cloned() {
        let semaphore = semaphore.clone();
        let ctx = ctx_arc.clone();
        let cwd = cwd.clone();
        let out_of_time = out_of_time.clone();
        // Permits are taken here, in input order, so `concurrency: 1` runs the commands
        // one after another in the order given.
        let permit = semaphore.acquire_owned().await;
        tasks.push(tokio::spawn(async move {
            let _permit = permit;
            if expired() || out_of_time.load(std::sync::atomic::Ordering::SeqCst) {
                return (cmd, None, None);
            }
            let limit = remaining();
            let spec = RunSpec { lang: Language::Shell, code: cmd.command.clone(), file: None, cwd, timeout: limit, background: false };
            let out = match run_code(&ctx, &spec).await {
                Ok(o) => o,
                Err(e) => {
                    let mut o = RunOutput { exit_code: 1, ..Default::default() };
                    o.stderr = sandbox::Captured::from_text(&format!("cannot run: {e}"));
                    o
                }
            };
            if out.timed_out && limit.is_some() {
                out_of_time.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            (cmd, Some(out), limit)
        }));
    }
    let mut results = Vec::new();
    for (cmd, task) in commands.iter().zip(tasks) {
        match task.await {
            Ok((cmd, out, limit)) => results.push(batch_section(&cmd, out.as_ref(), limit)),
            Err(e) => results.push(BatchResult { section: format!("# {}\n(failed: {e})\n", cmd.label), lines: 0, bytes: 0, status: "failed".into() }),
        }
    }

    let labels: Vec<&str> = commands.iter().map(|c| c.label.as_str()).collect();
    let label = cut_chars(&format!("batch:{}", labels.join(",")), 80);
    let body: String = results.iter().map(|r| r.section.as_str()).collect::<Vec<_>>().join("\n");
    let produced: u64 = results.iter().map(|r| r.bytes).sum();
    let mut text = format!(
        "Ran {} commands ({} lines, {} of output)",
        commands.len(),
        results.iter().map(|r| r.lines).sum::<usize>(),
        human_bytes(produced as usize)
    );
    for (cmd, r) in commands.iter().zip(&results) {
        text.push_str(&format!("\n- {}: {} ({} lines)", cmd.label, r.status, r.lines));
    }
    text.push('\n');

    // Index and search within what is left of the time limit; a deadline interrupts SQLite.
    let store = match store_for(&ctx) {
        Ok(s) => s,
        Err(e) => return ToolResponse::error(format!("{text}\nThe output could not be indexed: {e}")).withholding(0),
    };
    let interrupt = store.lock().unwrap_or_else(|e| e.into_inner()).interrupt_handle();
    let job = {
        let store = store.clone();
        let label = label.clone();
        let queries = queries.clone();
        tokio::task::spawn_blocking(move || batch_index_and_search(&store.lock().unwrap_or_else(|e| e.into_inner()), &label, &body, &queries, global))
    };
    let searched = match remaining() {
        Some(left) => match tokio::time::timeout(left.max(Duration::from_millis(50)), job).await {
            Ok(r) => r.map_err(|e| e.to_string()),
            Err(_) => {
                interrupt.interrupt();
                Err(format!("the batch time limit of {} ms was reached while indexing and searching", ms(timeout)))
            }
        },
        None => job.await.map_err(|e| e.to_string()),
    };
    match searched {
        Ok(Ok(found)) => text.push_str(&found),
        Ok(Err(e)) => text.push_str(&format!("\nThe output could not be indexed or searched: {e}\n")),
        Err(e) => text.push_str(&format!("\nThe output could not be indexed or searched: {e}\n")),
    }
    let withheld = produced.saturating_sub(text.len() as u64);
    ToolResponse { text: text.trim_end().to_string(), is_error: false, structured: None, withheld }
}

fn batch_index_and_search(store: &ContentStore, label: &str, body: &str, queries: &[String], global: bool) -> Result<String, crate::store::StoreError> {
    let out = store.index(&SourceInput { label, text: body, kind: ContentKind::Markdown, file_path: None })?;
    let mut text = format!("Indexed as \"{label}\" ({} sections).\n", out.chunks);
    let mut used = 0;
    for q in queries {
        text.push_str(&format!("\n## {q}\n"));
        if used > BATCH_ANSWER_CAP {
            text.push_str(&format!("(answer size cap reached; run ctx_search(queries: [\"{q}\"]) for this one)\n"));
            continue;
        }
        let source = if global { None } else { Some(label.to_string()) };
        let hits = store.search(&SearchQuery { text: q.clone(), limit: BATCH_HITS, source, content_type: None, snippet_chars: BATCH_SNIPPET_CHARS })?;
        if hits.is_empty() {
            text.push_str("No matching section.\n");
        }
        for h in hits {
            let part = format!("### {}{}\n{}\n", h.title, if global { format!(" [{}]", h.source) } else { String::new() }, h.snippet.trim());
            used += part.len();
            text.push_str(&part);
        }
    }
    let terms = terms_of(body, ContentKind::Markdown);
    if !terms.is_empty() {
        text.push_str(&format!("\nTerms: {}", terms.join(", ")));
    }
    text.push_str(&format!("\nMore: {}{}", search_hint(label), if global { "" } else { ", or query_scope: \"global\" to search everything indexed" }));
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_is_one_line() {
        assert_eq!(echo(Language::Shell, "echo hi", None), "[shell] echo hi\n");
        assert_eq!(echo(Language::Python, "\nimport os\nprint(1)\n", None), "[python] import os (+1 lines)\n");
        assert!(echo(Language::Python, &"x".repeat(500), Some("a.txt")).len() < 120);
    }

    #[test]
    fn head_and_tail_cut_at_lines() {
        let body: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        let (head, tail, hidden) = head_and_tail(&body);
        assert!(head.starts_with("line 0\n") && head.ends_with('\n'));
        assert!(tail.ends_with("line 1999\n") && tail.starts_with("line "));
        assert!(head.len() <= HEAD_BYTES && tail.len() <= TAIL_BYTES);
        assert_eq!(head.lines().count(), HEAD_LINES);
        assert_eq!(tail.lines().count(), TAIL_LINES);
        assert_eq!(head.lines().count() + tail.lines().count() + hidden, 2000);
        // One long line: cut inside it, on character boundaries.
        let wide = "é".repeat(10_000);
        let (h, t, _) = head_and_tail(&wide);
        assert!(h.len() <= HEAD_BYTES && t.len() <= TAIL_BYTES && !h.is_empty() && !t.is_empty());
    }

    #[test]
    fn size_bands() {
        let store = ContentStore::open_in_memory().unwrap();
        let small = "ok\n".repeat(10);
        assert_eq!(shape(Some(&store), &small, None, false, "t:1"), small);
        let medium: String = (0..800).map(|i| format!("row {i} value={}\n", i * 7)).collect();
        let shaped = shape(Some(&store), &medium, None, false, "t:2");
        assert!(shaped.len() < 2_400, "{}", shaped.len());
        assert!(shaped.contains("row 0 ") && shaped.contains("row 799 ") && shaped.contains("\"t:2\""));
        let with_intent: String = (0..800).map(|i| if i == 400 { "FATAL disk quota exceeded on /var\n".to_string() } else { format!("row {i} fine\n") }).collect();
        let shaped = shape(Some(&store), &with_intent, Some("disk quota"), false, "t:3");
        assert!(shaped.contains("FATAL disk quota exceeded"), "{shaped}");
        assert!(shaped.len() < 1_200, "{}", shaped.len());
        let large: String = (0..20_000).map(|i| format!("entry {i} status=200\n")).collect();
        let shaped = shape(Some(&store), &large, None, false, "t:4");
        assert!(shaped.len() < 250 && shaped.contains("too large to show"), "{shaped}");
    }

    #[test]
    fn failures_and_soft_failures() {
        let mut out = RunOutput { exit_code: 1, ..Default::default() };
        out.stdout = sandbox::Captured::from_text("match\n");
        assert!(!classify(Language::Shell, &out, None).is_error);
        assert!(classify(Language::Python, &out, None).is_error);
        out.exit_code = 2;
        let c = classify(Language::Shell, &out, None);
        assert!(c.is_error && c.body.starts_with("Exit code 2"));
    }
}
