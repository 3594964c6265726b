//! The tools about context-mode itself: `ctx_stats`, `ctx_doctor`, `ctx_upgrade`,
//! `ctx_purge` and `ctx_insight`.

use super::args::{ArgError, Args};
use super::ledger::{self, ToolStats};
use super::store::{close_store, store_for};
use super::{human_bytes, ToolContext, ToolResponse};
use crate::exec::runtime::{self, LANGUAGES};
use crate::exec::sandbox::{self, RunRequest};
use crate::store::index::SourceInput;
use crate::store::search::SearchQuery;
use crate::store::ContentStore;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {}s", s / 60, s % 60),
        _ => format!("{}h {}m", s / 3600, (s % 3600) / 60),
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

// ---------------------------------------------------------------- ctx_stats

/// The ledger of this server as text: what came back, what was kept out, per tool.
pub fn stats_report(rows: &[(String, ToolStats)], uptime: Duration) -> String {
    let calls: u64 = rows.iter().map(|(_, s)| s.calls).sum();
    if calls == 0 {
        return format!("context-mode: no tool calls yet in this server (up {}).", duration_text(uptime));
    }
    let returned: u64 = rows.iter().map(|(_, s)| s.bytes_returned).sum();
    let withheld: u64 = rows.iter().map(|(_, s)| s.bytes_withheld).sum();
    let mut text = format!(
        "context-mode: {calls} calls in {}\nKept out of the context: {} ({:.1}% of {} handled)\nReturned to the context: {} (~{} tokens)\n\n",
        duration_text(uptime),
        human_bytes(withheld as usize),
        percent(withheld, withheld + returned),
        human_bytes((withheld + returned) as usize),
        human_bytes(returned as usize),
        returned / 4
    );
    text.push_str(&format!("{:<22}{:>6}{:>11}{:>11}\n", "tool", "calls", "returned", "kept out"));
    let mut sorted: Vec<&(String, ToolStats)> = rows.iter().collect();
    sorted.sort_by(|a, b| b.1.bytes_withheld.cmp(&a.1.bytes_withheld).then(b.1.calls.cmp(&a.1.calls)));
    for (tool, s) in sorted {
        text.push_str(&format!("{:<22}{:>6}{:>11}{:>11}\n", tool, s.calls, human_bytes(s.bytes_returned as usize), human_bytes(s.bytes_withheld as usize)));
    }
    text.push_str("\nKept out counts only output that was produced and not returned.");
    text
}

/// The session log's ledger: what hooks and tools recorded for this session, this
/// project, and every project of this host.
pub fn session_report(l: &crate::session::Ledgers) -> Option<String> {
    if l.all_projects.events == 0 && l.all_projects.tool_calls == 0 {
        return None;
    }
    let line = |label: String, x: &crate::session::Ledger| {
        format!("{label}: {} kept out, {} returned ({:.1}% kept out)", human_bytes(x.kept_out as usize), human_bytes(x.returned as usize), x.kept_percent())
    };
    let mut text = String::from("Session log (hooks and tools)
");
    if let Some((id, s)) = &l.session {
        text.push_str(&line(format!("  this session ({})", id.chars().take(12).collect::<String>()), s));
        text.push('\n');
    }
    text.push_str(&line(format!("  this project, {} sessions", l.project.sessions), &l.project));
    text.push('\n');
    text.push_str(&line(format!("  all projects ({})", l.projects), &l.all_projects));
    Some(text)
}

pub fn ctx_stats(ctx: &ToolContext) -> ToolResponse {
    let mut text = stats_report(&ledger::snapshot(), ledger::uptime());
    if let Some(log) = session_report(&crate::session::ledgers(&ctx.opts(), &ctx.project_dir, None)) {
        text.push_str("\n\n");
        text.push_str(&log);
    }
    ToolResponse::ok(text)
}

// ---------------------------------------------------------------- ctx_doctor

/// One doctor line.
struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
    fix: Option<String>,
}

impl Check {
    fn pass(name: &'static str, detail: impl Into<String>) -> Check {
        Check { name, ok: true, detail: detail.into(), fix: None }
    }
    fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check { name, ok: false, detail: detail.into(), fix: Some(fix.into()) }
    }
}

fn fts_probe() -> Result<(), String> {
    let store = ContentStore::open_in_memory().map_err(|e| e.to_string())?;
    store.index(&SourceInput { label: "doctor", text: "# Probe\nThe quick brown fox jumps.", kind: crate::store::chunk::ContentKind::Markdown, file_path: None }).map_err(|e| e.to_string())?;
    for q in ["jumping fox", "uick bro"] {
        let hits = store.search(&SearchQuery { text: q.into(), limit: 1, ..Default::default() }).map_err(|e| e.to_string())?;
        if hits.is_empty() {
            return Err(format!("a search for {q:?} found nothing"));
        }
    }
    Ok(())
}

async fn run_probe(program: PathBuf, args: Vec<&str>, cwd: &Path) -> Result<Duration, String> {
    let dir = sandbox::scratch_dir().map_err(|e| e.to_string())?;
    let env = crate::exec::env::child_env(&dir).env;
    let started = Instant::now();
    let out = sandbox::run(RunRequest {
        program,
        args: args.into_iter().map(Into::into).collect(),
        cwd: cwd.to_path_buf(),
        env,
        timeout: Some(Duration::from_secs(10)),
        background: false,
        scratch_dir: Some(dir),
    })
    .await;
    if out.exit_code == 0 && out.stdout.text().trim() == "ok" {
        Ok(started.elapsed())
    } else if out.timed_out {
        Err("no answer within 10 s".into())
    } else {
        Err(format!("exit {}: {}", out.exit_code, out.stderr.text().chars().take(200).collect::<String>().trim()))
    }
}

/// Spawns the PreToolUse hook the way a host does and checks its answer.
async fn hook_round_trip(node: &Path, root: &Path, project_dir: &str) -> Result<Duration, String> {
    use tokio::io::AsyncWriteExt;
    let script = root.join("hooks").join("pretooluse.mjs");
    if !script.exists() {
        return Err(format!("{} is missing", script.display()));
    }
    let payload = serde_json::json!({"session_id": "ctx-doctor", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "curl -s https://example.com"}, "cwd": project_dir});
    let started = Instant::now();
    let mut child = tokio::process::Command::new(node)
        .arg(&script)
        .current_dir(project_dir)
        .env("CONTEXT_MODE_PLATFORM", "claude-code")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", node.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(payload.to_string().as_bytes()).await.map_err(|e| e.to_string())?;
    }
    let out = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output()).await.map_err(|_| "no answer within 10 s".to_string())?.map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("exit {:?}", out.status.code()));
    }
    match serde_json::from_str::<Value>(stdout.trim()) {
        Ok(v) if v.get("hookSpecificOutput").is_some() => Ok(started.elapsed()),
        _ => Err(format!("unexpected answer: {}", stdout.chars().take(200).collect::<String>())),
    }
}

pub async fn ctx_doctor(ctx: ToolContext) -> ToolResponse {
    let mut checks = Vec::new();
    let node = ctx.node_path.as_deref().map(PathBuf::from).or_else(|| runtime::which("node"));
    let found = runtime::available(node.as_deref());
    if found.contains(&"javascript") && found.contains(&"shell") {
        checks.push(Check::pass("Runtimes", format!("{} of {} ({})", found.len(), LANGUAGES.len(), found.join(", "))));
    } else {
        checks.push(Check::fail("Runtimes", format!("found {}", found.join(", ")), "install Node.js and a POSIX shell (bash or sh) on PATH"));
    }
    checks.push(match fts_probe() {
        Ok(()) => Check::pass("SQLite FTS5", format!("SQLite {} with porter and trigram search", rusqlite::version())),
        Err(e) => Check::fail("SQLite FTS5", e, "reinstall context-mode-native so the prebuilt addon for this platform is used"),
    });
    let via_env = std::env::var("CONTEXT_MODE_DIR").is_ok_and(|d| !d.trim().is_empty());
    checks.push(match ctx.content_db().map_err(|e| e.to_string()).and_then(|p| store_for(&ctx).map(|_| p).map_err(|e| e.to_string())) {
        Ok(p) => Check::pass("Storage", format!("{}{}", p.display(), if via_env { " (CONTEXT_MODE_DIR)" } else { "" })),
        Err(e) => Check::fail("Storage", e, "set CONTEXT_MODE_DIR to a writable absolute path"),
    });
    let cwd = if Path::new(&ctx.project_dir).is_dir() { PathBuf::from(&ctx.project_dir) } else { std::env::temp_dir() };
    checks.push(match runtime::runtime(runtime::Language::Shell, None) {
        Some(sh) => match run_probe(sh, vec!["-c", "echo ok"], &cwd).await {
            Ok(t) => Check::pass("Execute (shell)", format!("{} ms", t.as_millis())),
            Err(e) => Check::fail("Execute (shell)", e, "check that /tmp is writable and processes may be started"),
        },
        None => Check::fail("Execute (shell)", "no shell found", "install bash"),
    });
    checks.push(match &node {
        Some(n) => match run_probe(n.clone(), vec!["-e", "console.log('ok')"], &cwd).await {
            Ok(t) => Check::pass("Execute (javascript)", format!("{} ms", t.as_millis())),
            Err(e) => Check::fail("Execute (javascript)", e, "check the Node.js installation"),
        },
        None => Check::fail("Execute (javascript)", "node not found", "install Node.js 18 or newer"),
    });
    checks.push(match (&node, &ctx.package_root) {
        (Some(n), Some(root)) => match hook_round_trip(n, Path::new(root), &cwd.to_string_lossy()).await {
            Ok(t) => Check::pass("Hook round trip", format!("PreToolUse answered in {} ms", t.as_millis())),
            Err(e) => Check::fail("Hook round trip", e, upgrade_command(&ctx)),
        },
        _ => Check::fail("Hook round trip", "the package location is unknown to this server", "start the server with the context-mode bin or start.mjs"),
    });
    let failed = checks.iter().filter(|c| !c.ok).count();
    let mut text = String::from("context-mode doctor\n");
    for c in &checks {
        text.push_str(&format!("{}  {}: {}", if c.ok { "PASS" } else { "FAIL" }, c.name, c.detail));
        if let Some(fix) = &c.fix {
            text.push_str(&format!(" — fix: {fix}"));
        }
        text.push('\n');
    }
    text.push_str(&format!("Version {VERSION}, platform {}. {} passed, {failed} failed.", ctx.platform, checks.len() - failed));
    ToolResponse::ok(text)
}

// ---------------------------------------------------------------- ctx_upgrade

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\\\""))
}

/// The command that rewrites this host's hook and MCP configuration.
pub fn upgrade_command(ctx: &ToolContext) -> String {
    match &ctx.package_root {
        Some(root) => {
            let node = ctx.node_path.clone().unwrap_or_else(|| "node".into());
            let cli = Path::new(root).join("cli.mjs");
            format!("{} {} upgrade --platform {}", quote(&node), quote(&cli.to_string_lossy()), ctx.platform)
        }
        None => format!("npx -y context-mode-native upgrade --platform {}", ctx.platform),
    }
}

pub fn ctx_upgrade(ctx: &ToolContext) -> ToolResponse {
    ToolResponse::ok(format!(
        "To rewrite {}'s hook and MCP configuration for this install, run in a shell:\n\n{}\n\nThen restart the session so the host reloads its hooks.",
        ctx.platform,
        upgrade_command(ctx)
    ))
}

// ---------------------------------------------------------------- ctx_purge

fn remove_db_files(path: &Path) -> bool {
    let mut any = false;
    for suffix in ["", "-wal", "-shm"] {
        let p = PathBuf::from(format!("{}{suffix}", path.display()));
        if std::fs::remove_file(&p).is_ok() {
            any = true;
        }
    }
    any
}

pub fn ctx_purge(ctx: &ToolContext, args: &Value) -> ToolResponse {
    let a = Args(args);
    let parsed = (|| Ok::<_, ArgError>((a.boolean("confirm")?, a.string("sessionId")?.filter(|s| !s.trim().is_empty()), a.choice("scope", &["session", "project"])?)))();
    let (confirm, session, scope) = match parsed {
        Ok(p) => p,
        Err(e) => return ToolResponse::error(e.to_string()),
    };
    let Some(confirm) = confirm else {
        return ToolResponse::error("invalid argument `confirm`: is required (true to delete)");
    };
    let scope = match (scope.as_deref(), &session) {
        (Some("project"), Some(_)) => return ToolResponse::error("Pass either scope: \"project\" (everything for this project) or sessionId (one session), not both."),
        (Some("session"), None) => return ToolResponse::error("scope: \"session\" needs sessionId. Nothing was deleted."),
        (Some(s), _) => s.to_string(),
        (None, Some(_)) => "session".into(),
        (None, None) => "project".into(),
    };
    if !confirm {
        return ToolResponse::ok("Nothing was deleted: pass confirm: true to purge.");
    }
    if scope == "session" {
        return purge_session(ctx, session.as_deref().unwrap_or_default());
    }
    purge_project(ctx)
}

fn purge_session(ctx: &ToolContext, id: &str) -> ToolResponse {
    let mut items = Vec::new();
    let opts = ctx.opts();
    if let Ok(path) = crate::session::paths::session_db_path(&opts, &ctx.project_dir) {
        if path.exists() {
            match crate::session::db::SessionDb::open(&path).and_then(|db| db.purge_session(id)) {
                Ok(n) if n > 0 => items.push(format!("{n} session rows")),
                Ok(_) => {}
                Err(e) => return ToolResponse::error(format!("Could not purge session {id}: {e}")),
            }
        }
    }
    if ctx.content_db().is_ok_and(|p| p.exists()) {
        match store_for(ctx).map_err(|e| e.to_string()).and_then(|s| s.lock().unwrap_or_else(|e| e.into_inner()).purge_session(id).map_err(|e| e.to_string())) {
            Ok(n) if n > 0 => items.push(format!("{n} indexed sources")),
            Ok(_) => {}
            Err(e) => return ToolResponse::error(format!("Could not purge session {id} from the knowledge base: {e}")),
        }
    }
    if items.is_empty() {
        return ToolResponse::ok(format!("Session {id}: nothing stored, nothing deleted."));
    }
    ToolResponse::ok(format!("Purged session {id}: {}. Other sessions are untouched.", items.join(", ")))
}

fn purge_project(ctx: &ToolContext) -> ToolResponse {
    let mut items = Vec::new();
    let opts = ctx.opts();
    match ctx.content_db() {
        Ok(path) => {
            close_store(&path);
            if remove_db_files(&path) {
                items.push("knowledge base");
            }
        }
        Err(e) => return ToolResponse::error(format!("Could not purge: {e}")),
    }
    if let Ok(path) = crate::session::paths::session_db_path(&opts, &ctx.project_dir) {
        if remove_db_files(&path) {
            items.push("session events");
        }
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(dir) = path.parent() {
            let mut extra = false;
            for name in [format!("{stem}-events.md"), format!("{stem}.cleanup")] {
                extra |= std::fs::remove_file(dir.join(name)).is_ok();
            }
            if extra {
                items.push("session notes");
            }
        }
    }
    ledger::reset();
    items.push("this server's stats");
    ToolResponse::ok(format!("Purged for {}: {}. This cannot be undone.", ctx.project_dir, items.join(", ")))
}

// ---------------------------------------------------------------- ctx_insight

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The stats as a self-contained HTML page (no scripts, no network).
pub fn insight_html(project_dir: &str, rows: &[(String, ToolStats)], uptime: Duration) -> String {
    let returned: u64 = rows.iter().map(|(_, s)| s.bytes_returned).sum();
    let withheld: u64 = rows.iter().map(|(_, s)| s.bytes_withheld).sum();
    let max = rows.iter().map(|(_, s)| s.bytes_withheld + s.bytes_returned).max().unwrap_or(1).max(1);
    let mut body = String::new();
    for (tool, s) in rows {
        let kept = s.bytes_withheld * 100 / max;
        let back = s.bytes_returned * 100 / max;
        body.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><div class=bar><span class=kept style=\"width:{kept}%\"></span><span class=back style=\"width:{back}%\"></span></div></td></tr>\n",
            html_escape(tool),
            s.calls,
            human_bytes(s.bytes_returned as usize),
            human_bytes(s.bytes_withheld as usize)
        ));
    }
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>context-mode insight</title><style>\
body{{font:14px system-ui,sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse}}td,th{{padding:4px 10px;text-align:left}}\
.bar{{width:240px;height:10px;background:#eee;display:flex}}.kept{{background:#2a7}}.back{{background:#d63}}</style></head><body>\
<h1>context-mode insight</h1><p>Project <code>{}</code>, server up {}.</p>\
<p><b>{}</b> kept out of the context, <b>{}</b> returned ({:.1}% kept out).</p>\
<table><tr><th>tool</th><th>calls</th><th>returned</th><th>kept out</th><th></th></tr>\n{body}</table>\
<p>Green: bytes produced and kept out. Red: bytes returned to the model.</p></body></html>\n",
        html_escape(project_dir),
        duration_text(uptime),
        human_bytes(withheld as usize),
        human_bytes(returned as usize),
        percent(withheld, withheld + returned)
    )
}

pub fn ctx_insight(ctx: &ToolContext) -> ToolResponse {
    let dir = match crate::session::paths::storage_root(&ctx.opts()) {
        Ok(root) => root.join("insight"),
        Err(e) => return ToolResponse::error(format!("Could not write the report: {e}")),
    };
    let file = dir.join(format!("{}.html", crate::session::paths::project_hash(&ctx.project_dir)));
    let html = insight_html(&ctx.project_dir, &ledger::snapshot(), ledger::uptime());
    match std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&file, html)) {
        Ok(()) => ToolResponse::ok(format!("Report written to {}\nOpen it in a browser; it is a local file and sends nothing anywhere.", file.display())),
        Err(e) => ToolResponse::error(format!("Could not write {}: {e}", file.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_are_honest_sums() {
        let rows = vec![
            ("ctx_execute".to_string(), ToolStats { calls: 2, bytes_returned: 1000, bytes_withheld: 9000 }),
            ("ctx_search".to_string(), ToolStats { calls: 1, bytes_returned: 500, bytes_withheld: 0 }),
        ];
        let text = stats_report(&rows, Duration::from_secs(61));
        assert!(text.contains("3 calls in 1m 1s"), "{text}");
        assert!(text.contains("8.8 KB (85.7% of 10.3 KB handled)"), "{text}");
        assert!(stats_report(&[], Duration::ZERO).contains("no tool calls yet"));
        let html = insight_html("/p<x>", &rows, Duration::ZERO);
        assert!(html.contains("/p&lt;x&gt;") && html.contains("ctx_execute"));
    }
}
