//! `ctx_index`, `ctx_search` and `ctx_fetch_and_index`: the knowledge-base tools.

use super::args::{ArgError, Args};
use super::{human_bytes, ToolContext, ToolResponse};
use crate::store::chunk::ContentKind;
use crate::store::fetch::{self, BodyKind, FetchLimits};
use crate::store::index::{read_text_file, SourceInput};
use crate::store::search::{Hit, SearchQuery};
use crate::store::walk::{self, WalkOptions};
use crate::store::{ContentStore, StoreError};
use once_cell::sync::Lazy;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Results per query unless the caller asks otherwise (fewer per query when several
/// queries come at once), and the most we return.
pub const DEFAULT_LIMIT: i64 = 3;
pub const DEFAULT_LIMIT_MANY: i64 = 2;
pub const MAX_LIMIT: i64 = 20;
/// Snippet size per result (smaller when several queries share an answer), and the
/// cap on a whole answer.
const SNIPPET_CHARS: usize = 600;
const SNIPPET_CHARS_MANY: usize = 450;
const ANSWER_CAP: usize = 24 * 1024;
/// Fetched pages are reused for this long unless `force` or `ttl` says otherwise.
pub const DEFAULT_FETCH_TTL_MS: i64 = 24 * 3600 * 1000;
/// Characters of a fetched page shown in the answer (the rest is searchable).
const PREVIEW_CHARS: usize = 1200;
const BATCH_PREVIEW_CHARS: usize = 300;
/// Text written per transaction when indexing a directory.
const BATCH_BYTES: usize = 32 << 20;

/// One open connection per content database, shared by the calls of this process.
static STORES: Lazy<Mutex<HashMap<PathBuf, Arc<Mutex<ContentStore>>>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The store of a project, opened once per process. Old ephemeral sources are pruned
/// when it is first opened.
pub fn store_for(ctx: &ToolContext) -> Result<Arc<Mutex<ContentStore>>, StoreError> {
    let path = ctx.content_db()?;
    let mut map = STORES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = map.get(&path) {
        return Ok(s.clone());
    }
    let store = ContentStore::open(&path)?;
    let _ = store.prune();
    ingest_session_log(ctx, &store);
    let handle = Arc::new(Mutex::new(store));
    map.insert(path, handle.clone());
    Ok(handle)
}

/// Indexes the session log the hooks wrote as markdown (`<H>…-events.md` in the
/// sessions dir) under the label `session-events`, then removes the file, so what the
/// resume snapshot leaves out can be searched.
fn ingest_session_log(ctx: &ToolContext, store: &ContentStore) {
    let Ok(root) = crate::session::paths::storage_root(&ctx.opts()) else { return };
    let prefix = crate::session::paths::project_hash(&ctx.project_dir);
    let Ok(entries) = std::fs::read_dir(root.join("sessions")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(&prefix) && name.ends_with("-events.md")) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(entry.path()) {
            if store.index(&SourceInput { label: "session-events", text: &text, kind: ContentKind::Markdown, file_path: None }).is_ok() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Forgets the open connection of a database (before it is deleted).
pub fn close_store(path: &Path) {
    STORES.lock().unwrap_or_else(|e| e.into_inner()).remove(path);
}

fn lock(s: &Arc<Mutex<ContentStore>>) -> std::sync::MutexGuard<'_, ContentStore> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

fn arg_error(e: ArgError) -> ToolResponse {
    ToolResponse::error(e.to_string())
}

// ---------------------------------------------------------------- ctx_index

pub fn ctx_index(ctx: &ToolContext, args: &Value) -> ToolResponse {
    match index_inner(ctx, args) {
        Ok(r) | Err(r) => r,
    }
}

fn index_inner(ctx: &ToolContext, args: &Value) -> Result<ToolResponse, ToolResponse> {
    let a = Args(args);
    let content = a.string("content").map_err(arg_error)?.filter(|c| !c.is_empty());
    let path = a.string("path").map_err(arg_error)?.filter(|p| !p.trim().is_empty());
    let source = a.string("source").map_err(arg_error)?.filter(|s| !s.trim().is_empty());
    let store = store_for(ctx).map_err(|e| ToolResponse::error(format!("Index error: {e}")))?;
    if let Some(text) = content {
        if text.trim().is_empty() {
            return Err(ToolResponse::error("Nothing to index: content is blank."));
        }
        let label = source.unwrap_or_else(|| "untitled".into());
        let kind = if serde_json::from_str::<Value>(&text).is_ok_and(|v| v.is_object() || v.is_array()) { ContentKind::Json } else { ContentKind::Markdown };
        let out = lock(&store).index(&SourceInput { label: &label, text: &text, kind, file_path: None }).map_err(|e| ToolResponse::error(format!("Index error: {e}")))?;
        return Ok(ToolResponse::ok(indexed_text(&out)));
    }
    let Some(raw_path) = path else {
        return Err(ToolResponse::error("Nothing to index: pass `content` (text) or `path` (a file or directory)."));
    };
    let resolved = super::resolve_path(&ctx.project_dir, &raw_path);
    let policies = ctx.policies();
    if let Some(rule) = policies.denied_read(&raw_path, Some(&ctx.project_dir)) {
        return Err(ToolResponse::error(crate::hook::texts::policy_deny_read_path(&rule.glob)));
    }
    let meta = std::fs::metadata(&resolved).map_err(|e| ToolResponse::error(format!("Cannot index {raw_path}: {e}")))?;
    if meta.is_dir() {
        return index_directory(ctx, &store, &resolved, source.as_deref(), &a, &policies);
    }
    let shown = resolved.to_string_lossy().into_owned();
    let text = read_text_file(&shown).map_err(|e| ToolResponse::error(format!("Cannot index {e}")))?;
    if text.trim().is_empty() {
        return Err(ToolResponse::error(format!("Nothing to index: {raw_path} is empty.")));
    }
    let label = source.unwrap_or_else(|| shown.clone());
    let out = lock(&store)
        .index(&SourceInput { label: &label, text: &text, kind: ContentKind::for_path(&shown), file_path: Some(&shown) })
        .map_err(|e| ToolResponse::error(format!("Index error: {e}")))?;
    // The file never entered the conversation: all of it was kept out.
    Ok(ToolResponse::ok(indexed_text(&out)).withholding(text.len() as u64))
}


fn indexed_text(out: &crate::store::index::IndexOutcome) -> String {
    if out.unchanged {
        return format!(
            "{} is already indexed with this exact content ({} sections); nothing changed.\nSearch it with ctx_search(queries: [...], source: \"{}\").",
            out.label, out.chunks, out.label
        );
    }
    format!(
        "Indexed {} sections ({} with code, {}) from {}.\nSearch it with ctx_search(queries: [...], source: \"{}\").",
        out.chunks,
        out.code_chunks,
        human_bytes(out.bytes),
        out.label,
        out.label
    )
}

fn index_directory(
    ctx: &ToolContext,
    store: &Arc<Mutex<ContentStore>>,
    dir: &Path,
    source: Option<&str>,
    a: &Args,
    policies: &crate::exec::policy::Policies,
) -> Result<ToolResponse, ToolResponse> {
    let d = WalkOptions::default();
    let opts = WalkOptions {
        max_depth: a.integer("maxDepth", 0, 64).map_err(arg_error)?.map_or(d.max_depth, |n| n as usize),
        max_files: a.integer("maxFiles", 1, 10_000).map_err(arg_error)?.map_or(d.max_files, |n| n as usize),
        include: a.strings("include").map_err(arg_error)?.unwrap_or_default(),
        exclude: a.strings("exclude").map_err(arg_error)?.unwrap_or_default(),
        extensions: a.strings("extensions").map_err(arg_error)?.unwrap_or(d.extensions),
        respect_gitignore: a.boolean("respectGitignore").map_err(arg_error)?.unwrap_or(true),
        follow_symlinks: a.boolean("followSymlinks").map_err(arg_error)?.unwrap_or(false),
    };
    let walked = walk::walk(dir, &opts).map_err(|e| ToolResponse::error(format!("Cannot index {}: {e}", dir.display())))?;
    let (mut files, mut chunks, mut denied) = (0, 0, 0);
    let mut failed: Vec<String> = Vec::new();
    // Files are read first and written in a few large transactions: FTS5 then builds
    // one index segment per batch instead of one per file.
    let mut batch: Vec<(String, String, String)> = Vec::new();
    let mut batch_bytes = 0;
    let mut bytes_read = 0u64;
    let flush = |batch: &mut Vec<(String, String, String)>, files: &mut usize, chunks: &mut usize| -> Result<(), ToolResponse> {
        let inputs: Vec<SourceInput> =
            batch.iter().map(|(label, path, text)| SourceInput { label, text, kind: ContentKind::for_path(path), file_path: Some(path) }).collect();
        let outs = lock(store).index_many(&inputs).map_err(|e| ToolResponse::error(format!("Index error: {e}")))?;
        *files += outs.len();
        *chunks += outs.iter().map(|o| o.chunks).sum::<usize>();
        batch.clear();
        Ok(())
    };
    for file in &walked.files {
        let shown = file.to_string_lossy().into_owned();
        if policies.denied_read(&shown, Some(&ctx.project_dir)).is_some() {
            denied += 1;
            continue;
        }
        let text = match read_text_file(&shown) {
            Ok(t) if !t.trim().is_empty() => t,
            Ok(_) => continue,
            Err(e) => {
                failed.push(e.to_string());
                continue;
            }
        };
        let label = match source {
            Some(s) => format!("{s}:{shown}"),
            None => shown.clone(),
        };
        batch_bytes += text.len();
        bytes_read += text.len() as u64;
        batch.push((label, shown, text));
        if batch_bytes > BATCH_BYTES {
            flush(&mut batch, &mut files, &mut chunks)?;
            batch_bytes = 0;
        }
    }
    if !batch.is_empty() {
        flush(&mut batch, &mut files, &mut chunks)?;
    }
    let mut text = format!("Indexed {files} files ({chunks} sections) from {}.", source.map(str::to_string).unwrap_or_else(|| dir.display().to_string()));
    if walked.capped {
        text.push_str(&format!(" Stopped at maxFiles={}; raise it to index more.", opts.max_files));
    }
    if denied > 0 {
        text.push_str(&format!(" {denied} skipped by Read deny rules."));
    }
    if !failed.is_empty() {
        text.push_str(&format!(" {} could not be read: {}.", failed.len(), failed.iter().take(3).cloned().collect::<Vec<_>>().join("; ")));
    }
    text.push_str("\nSearch it with ctx_search(queries: [...]).");
    Ok(ToolResponse::ok(text).withholding(bytes_read))
}

// ---------------------------------------------------------------- ctx_search

pub fn ctx_search(ctx: &ToolContext, args: &Value) -> ToolResponse {
    match search_inner(ctx, args) {
        Ok(r) | Err(r) => r,
    }
}

fn search_inner(ctx: &ToolContext, args: &Value) -> Result<ToolResponse, ToolResponse> {
    let a = Args(args);
    let mut queries = a.strings("queries").map_err(arg_error)?.unwrap_or_default();
    // 1.0.169 clients sometimes still send the old single `query`.
    if queries.is_empty() {
        if let Some(q) = a.string("query").map_err(arg_error)? {
            queries.push(q);
        }
    }
    queries.retain(|q| !q.trim().is_empty());
    if queries.is_empty() {
        return Err(ToolResponse::error("Pass queries: an array of search strings, e.g. queries: [\"retry policy\", \"E_LEASE_EXPIRED\"]."));
    }
    let default_limit = if queries.len() > 1 { DEFAULT_LIMIT_MANY } else { DEFAULT_LIMIT };
    let limit = a.integer("limit", 1, MAX_LIMIT).map_err(arg_error)?.unwrap_or(default_limit) as usize;
    let source = a.string("source").map_err(arg_error)?.filter(|s| !s.is_empty());
    let content_type = a.choice("contentType", &["code", "prose"]).map_err(arg_error)?;
    let timeline = a.choice("sort", &["relevance", "timeline"]).map_err(arg_error)?.as_deref() == Some("timeline");
    let store = store_for(ctx).map_err(|e| ToolResponse::error(format!("Search error: {e}")))?;
    let store = lock(&store);
    ingest_session_log(ctx, &store);
    let refreshed = {
        let policies = ctx.policies();
        store.refresh_stale(&|p| policies.denied_read(p, Some(&ctx.project_dir)).is_none()).unwrap_or_default()
    };
    if store.chunk_count().unwrap_or(0) == 0 {
        return Ok(ToolResponse::ok(
            "The knowledge base is empty. Index something first: ctx_batch_execute (commands and queries), ctx_index (files or text) or ctx_fetch_and_index (web pages).",
        )
        .with_structured(json!({"results": []})));
    }
    let mut text = String::new();
    if !refreshed.is_empty() {
        text.push_str(&format!("(Re-indexed {} changed file(s) first.)\n\n", refreshed.len()));
    }
    let mut results = Vec::new();
    for (i, q) in queries.iter().enumerate() {
        if text.len() > ANSWER_CAP {
            text.push_str(&format!("\n\n## {q}\n(answer size cap reached; ask for this query on its own)"));
            continue;
        }
        let query = SearchQuery { text: q.clone(), limit, source: source.clone(), content_type: content_type.clone(), snippet_chars: if queries.len() > 1 { SNIPPET_CHARS_MANY } else { SNIPPET_CHARS } };
        let mut hits = store.search(&query).map_err(|e| ToolResponse::error(format!("Search error: {e}")))?;
        if timeline {
            hits.sort_by(|a, b| a.timestamp.cmp(&b.timestamp));
        }
        if i > 0 {
            text.push_str("\n\n");
        }
        text.push_str(&format!("## {q}\n"));
        if hits.is_empty() {
            text.push_str("No results.");
        }
        for h in &hits {
            text.push_str(&format_hit(h, &ctx.project_dir));
            results.push(hit_json(q, h));
        }
    }
    Ok(ToolResponse::ok(text.trim_end().to_string()).with_structured(json!({"results": results})))
}

/// A result as the model reads it; paths inside the project are shown relative to it.
fn format_hit(h: &Hit, project_dir: &str) -> String {
    let shown = h.path.as_deref().map(|p| crate::text::relative_to(p, project_dir));
    let location = match (&shown, h.line) {
        (Some(p), Some(l)) => format!(" — {p}:{l}"),
        (Some(p), None) => format!(" — {p}"),
        _ => String::new(),
    };
    let source = if h.path.as_deref() == Some(h.source.as_str()) { String::new() } else { format!(" [{}]", h.source) };
    format!("\n### {}{location}{source}\n{}\n", h.title, without_title_heading(h.snippet.trim(), &h.title))
}

/// Drops a snippet's first line when it is the heading the title already names.
fn without_title_heading<'a>(snippet: &'a str, title: &str) -> &'a str {
    let (first, rest) = snippet.split_once('\n').unwrap_or((snippet, ""));
    let heading = first.trim_start_matches('#').trim();
    let last = title.rsplit(" > ").next().unwrap_or(title).trim();
    if first.starts_with('#') && !heading.is_empty() && heading == last && !rest.trim().is_empty() {
        rest.trim_start()
    } else {
        snippet
    }
}


fn hit_json(query: &str, h: &Hit) -> Value {
    let mut v = json!({"query": query, "source": h.source, "title": h.title, "snippet": h.snippet, "score": (h.score * 1e6).round() / 1e6});
    if let Some(p) = &h.path {
        v["path"] = json!(p);
    }
    if let Some(l) = h.line {
        v["line"] = json!(l);
    }
    v
}

// ---------------------------------------------------------------- ctx_fetch_and_index

struct FetchRequest {
    url: String,
    source: Option<String>,
}

impl FetchRequest {
    /// The source label: `{source}::{url}`, or the URL.
    fn label(&self) -> String {
        match &self.source {
            Some(s) => format!("{s}::{}", self.url),
            None => self.url.clone(),
        }
    }
}

enum FetchOutcome {
    Fetched { label: String, chunks: usize, bytes: usize, titles: Vec<String>, preview: String },
    Cached { label: String, chunks: usize, age_ms: i64 },
    Failed { url: String, error: String },
}

pub async fn ctx_fetch_and_index(ctx: ToolContext, args: Value) -> ToolResponse {
    let a = Args(&args);
    let parsed = (|| -> Result<(Vec<FetchRequest>, bool, usize, bool, Option<i64>), ArgError> {
        let batch = a.array("requests")?;
        let requests: Vec<FetchRequest> = match &batch {
            Some(items) => items
                .iter()
                .map(|item| {
                    let r = Args(item);
                    Ok(FetchRequest { url: r.required_string("url")?, source: r.string("source")?.filter(|s| !s.is_empty()) })
                })
                .collect::<Result<_, ArgError>>()?,
            None => match a.string("url")? {
                Some(url) if !url.trim().is_empty() => vec![FetchRequest { url, source: a.string("source")?.filter(|s| !s.is_empty()) }],
                _ => Vec::new(),
            },
        };
        let concurrency = a.integer("concurrency", 1, 8)?.unwrap_or(1) as usize;
        let force = a.boolean("force")?.unwrap_or(false);
        let ttl = a.integer("ttl", 0, i64::MAX / 2)?;
        Ok((requests, batch.is_some(), concurrency, force, ttl))
    })();
    let (requests, batch, concurrency, force, ttl) = match parsed {
        Ok(p) => p,
        Err(e) => return arg_error(e),
    };
    if requests.is_empty() {
        return ToolResponse::error("Pass url (one page) or requests: [{url, source?}, …] (several).");
    }
    let store = match store_for(&ctx) {
        Ok(s) => s,
        Err(e) => return ToolResponse::error(format!("Fetch error: {e}")),
    };
    let limits = FetchLimits::from_env();
    let ttl = if force { 0 } else { ttl.unwrap_or(DEFAULT_FETCH_TTL_MS) };
    // Fetch up to `concurrency` pages at a time; index in input order.
    let semaphore = Arc::new(tokio::sync::Semaphore::new(concurrency));
    let mut outcomes = Vec::new();
    let mut futures = Vec::new();
    for req in &requests {
        let label = req.label();
        if ttl > 0 {
            if let Some((chunks, age_ms)) = cached_source(&store, &label, ttl) {
                futures.push(tokio::spawn(async move { (label, Err(None), Some((chunks, age_ms))) }));
                continue;
            }
        }
        let url = req.url.clone();
        let limits = limits.clone();
        let permit = semaphore.clone();
        futures.push(tokio::spawn(async move {
            let _p = permit.acquire_owned().await;
            match fetch::fetch(&url, &limits).await {
                Ok(f) => (label, Ok(f), None),
                Err(e) => (label, Err(Some(e.to_string())), None),
            }
        }));
    }
    for (req, fut) in requests.iter().zip(futures) {
        let (label, result, cached) = match fut.await {
            Ok(r) => r,
            Err(e) => (req.label(), Err(Some(format!("fetch task failed: {e}"))), None),
        };
        if let Some((chunks, age_ms)) = cached {
            outcomes.push(FetchOutcome::Cached { label, chunks, age_ms });
            continue;
        }
        match result {
            Ok(page) if page.body.trim().is_empty() => outcomes.push(FetchOutcome::Failed { url: req.url.clone(), error: "the page is empty".into() }),
            Ok(page) => {
                let kind = match page.kind {
                    BodyKind::Markdown => ContentKind::Markdown,
                    BodyKind::Json => ContentKind::Json,
                    BodyKind::Text => ContentKind::Text,
                };
                let body = page.body.trim().to_string();
                match lock(&store).index(&SourceInput { label: &label, text: &body, kind, file_path: None }) {
                    Ok(out) => outcomes.push(FetchOutcome::Fetched { label, chunks: out.chunks, bytes: body.len(), titles: out.titles, preview: preview(&body, if batch { BATCH_PREVIEW_CHARS } else { PREVIEW_CHARS }) }),
                    Err(e) => outcomes.push(FetchOutcome::Failed { url: req.url.clone(), error: e.to_string() }),
                }
            }
            Err(e) => outcomes.push(FetchOutcome::Failed { url: req.url.clone(), error: dns_hint(e.unwrap_or_default()) }),
        }
    }
    let fetched: u64 = outcomes.iter().map(|o| if let FetchOutcome::Fetched { bytes, .. } = o { *bytes as u64 } else { 0 }).sum();
    let response = fetch_response(&outcomes, batch);
    // Page bytes that did not come back in the previews were kept out.
    let withheld = fetched.saturating_sub(response.text.len() as u64);
    response.withholding(withheld)
}

/// A source indexed less than `ttl` ms ago: its chunk count and age.
fn cached_source(store: &Arc<Mutex<ContentStore>>, label: &str, ttl: i64) -> Option<(usize, i64)> {
    lock(store).source_age(label).ok().flatten().filter(|(_, age)| *age < ttl).map(|(n, age)| (n as usize, age))
}

fn dns_hint(error: String) -> String {
    let transient = ["EAI_AGAIN", "ETIMEDOUT", "ENETUNREACH", "failed to lookup", "Temporary failure in name resolution", "dns error"];
    if transient.iter().any(|t| error.contains(t)) {
        format!("{error} — this looks like a transient network or DNS failure; one retry is worth it")
    } else {
        error
    }
}

fn preview(body: &str, max: usize) -> String {
    if body.chars().count() <= max {
        return body.to_string();
    }
    let head: String = body.chars().take(max).collect();
    format!("{}…", head.trim_end())
}

fn age_text(ms: i64) -> String {
    let s = ms / 1000;
    if s < 60 {
        "just now".into()
    } else if s < 3600 {
        format!("{}m ago", s / 60)
    } else {
        format!("{}h ago", s / 3600)
    }
}

fn fetch_response(outcomes: &[FetchOutcome], batch: bool) -> ToolResponse {
    let all_failed = outcomes.iter().all(|o| matches!(o, FetchOutcome::Failed { .. }));
    if !batch {
        return match &outcomes[0] {
            FetchOutcome::Fetched { label, chunks, bytes, titles, preview } => {
                let sections = titles.iter().take(12).cloned().collect::<Vec<_>>().join("; ");
                ToolResponse::ok(format!(
                    "Fetched and indexed {chunks} sections ({}) from {label}.\nSections: {sections}{}\nSearch it with ctx_search(queries: [...], source: \"{label}\").\n\n---\n{preview}",
                    human_bytes(*bytes),
                    if titles.len() > 12 { "; …" } else { "" }
                ))
            }
            FetchOutcome::Cached { label, chunks, age_ms } => ToolResponse::ok(format!(
                "Already indexed: {label} ({chunks} sections, fetched {}). Pass force: true to fetch again.\nThis answer carries none of the page; search it with ctx_search(queries: [...], source: \"{label}\").",
                age_text(*age_ms)
            )),
            FetchOutcome::Failed { url, error } => ToolResponse::error(format!("Failed to fetch {url}: {error}")),
        };
    }
    let mut lines = Vec::new();
    let (mut ok, mut cached, mut failed) = (0, 0, 0);
    for o in outcomes {
        match o {
            FetchOutcome::Fetched { label, chunks, bytes, .. } => {
                ok += 1;
                lines.push(format!("- [new] {label}: {chunks} sections ({})", human_bytes(*bytes)));
            }
            FetchOutcome::Cached { label, chunks, age_ms } => {
                cached += 1;
                lines.push(format!("- [cached] {label}: {chunks} sections ({})", age_text(*age_ms)));
            }
            FetchOutcome::Failed { url, error } => {
                failed += 1;
                lines.push(format!("- [error] {url}: {error}"));
            }
        }
    }
    let mut text = format!("{} pages: {ok} fetched, {cached} cached, {failed} failed.\n{}\nSearch them with ctx_search(queries: [...], source: \"<label>\").", outcomes.len(), lines.join("\n"));
    for o in outcomes {
        if let FetchOutcome::Fetched { label, preview, .. } = o {
            text.push_str(&format!("\n\n### {label}\n{preview}"));
        }
    }
    ToolResponse { text, is_error: all_failed, structured: None, withheld: 0 }
}

impl ContentStore {
    /// Chunk count and age in ms of a label's latest source, if any.
    pub fn source_age(&self, label: &str) -> Result<Option<(i64, i64)>, StoreError> {
        use rusqlite::OptionalExtension;
        self.with_retry(|c| {
            c.query_row(
                "SELECT chunk_count, CAST((julianday('now') - julianday(indexed_at)) * 86400000 AS INTEGER) FROM sources WHERE label = ?1 ORDER BY id DESC LIMIT 1",
                [label],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }
}
