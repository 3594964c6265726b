//! What each hook event records in the session log.

use super::{Event, HookContext, SessionError};
use crate::hook::markers;
use crate::jsjson::js_string;
use serde_json::{json, Value};

/// Latency above this is worth remembering.
const SLOW_TOOL_MS: i64 = 5000;
const LAST_MESSAGE_CHARS: usize = 2000;

/// PostToolUse: the session exists, and the facts PreToolUse left behind are stored.
pub fn post_tool_use(ctx: &HookContext, input: &Value) -> Result<(), SessionError> {
    let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let extracted = super::extract::tool_events(input);
    let mut from_pre = Vec::new();
    if let Some(r) = markers::take_rejected(&ctx.session_id) {
        from_pre.push(Event::new("rejected", "rejected-approach", 2, format!("{}: {}", r.tool, r.reason)));
    }
    if let Some(meta) = markers::take_redirect(&ctx.session_id) {
        let mut e = Event::new(&meta.kind, "redirect", 2, format!("{}: {}", meta.tool, meta.command_summary));
        // A Read hint does not stop the read, so nothing was kept out.
        e.bytes_avoided = if meta.kind == "read-redirected" { 0 } else { meta.bytes_avoided as i64 };
        from_pre.push(e);
    }
    if !tool.is_empty() {
        if let Some(ms) = markers::take_latency(&ctx.session_id, tool).filter(|ms| *ms > SLOW_TOOL_MS) {
            from_pre.push(Event::new("tool_latency", "latency", 3, format!("{tool}: {ms}ms")));
        }
    }
    let content_db = format!("{}.db", super::paths::project_hash(&ctx.db_project_dir));
    if let Some(bytes) = markers::take_retrieval(&content_db) {
        let mut e = Event::new("mcp_tool_call", "retrieval", 2, format!("retrieval: {bytes} bytes accessed"));
        e.bytes_returned = bytes;
        from_pre.push(e);
    }
    // Most calls (an `ls`, a passing test run) tell nothing worth keeping: then an
    // existing log is not even opened. A first call still creates it.
    let path = super::paths::session_db_path(&ctx.opts, &ctx.db_project_dir)?;
    if extracted.is_empty() && from_pre.is_empty() && path.exists() {
        return Ok(());
    }
    let db = super::SessionDb::open(&path)?;
    db.record(&ctx.session_id, &extracted, "PostToolUse", &ctx.project_dir)?;
    // Each marker is its own write, as 1.0.169 records them.
    for e in from_pre {
        db.insert_events(&ctx.session_id, &[e], "PreToolUse", &ctx.project_dir)?;
    }
    Ok(())
}

/// The prompt text: a string, or the text parts of a content-part list (Kimi).
pub fn prompt_text(input: &Value) -> String {
    let raw = input.get("prompt").filter(|v| !v.is_null()).or_else(|| input.get("message").filter(|v| !v.is_null()));
    match raw {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("text") => o.get("text").map(js_string),
                Value::Object(o) => o.get("text").and_then(Value::as_str).map(str::to_string),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => js_string(other),
        None => String::new(),
    }
}

/// Text the host injects itself, which is not the user speaking.
fn is_system_text(trimmed: &str) -> bool {
    ["<task-notification>", "<system-reminder>", "<context_guidance>", "<tool-result>"].iter().any(|t| trimmed.starts_with(t))
}

/// UserPromptSubmit: the user's message.
pub fn user_prompt(ctx: &HookContext, input: &Value) -> Result<(), SessionError> {
    let prompt = prompt_text(input);
    let trimmed = prompt.trim();
    if trimmed.is_empty() || is_system_text(trimmed) {
        return Ok(());
    }
    let db = ctx.open_db()?;
    db.ensure_session(&ctx.session_id, &ctx.project_dir)?;
    db.insert_events(&ctx.session_id, &super::prompt::prompt_events(&prompt), "UserPromptSubmit", &ctx.project_dir)?;
    Ok(())
}

/// Stop (and Kimi's SessionEnd): the end of a turn.
pub fn stop(ctx: &HookContext, input: &Value, session_end: bool) -> Result<(), SessionError> {
    let db = ctx.open_db()?;
    db.ensure_session(&ctx.session_id, &ctx.project_dir)?;
    let last = input.get("last_assistant_message").and_then(Value::as_str).map(|m| m.chars().take(LAST_MESSAGE_CHARS).collect::<String>());
    let data = json!({"stop_hook_active": input.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false), "last_assistant_message": last});
    let (kind, hook) = if session_end { ("session_end", "SessionEnd") } else { ("turn_end", "Stop") };
    db.insert_events(&ctx.session_id, &[Event::new(kind, "session", 1, crate::jsjson::stringify(&data))], hook, &ctx.project_dir)?;
    Ok(())
}

/// Cursor's afterAgentResponse.
pub fn agent_response(ctx: &HookContext, _input: &Value) -> Result<(), SessionError> {
    let db = ctx.open_db()?;
    db.ensure_session(&ctx.session_id, &ctx.project_dir)
}

/// Days without activity after which a session is forgotten
/// (`CONTEXT_MODE_SESSION_RETENTION_DAYS`).
const RETENTION_DAYS: u32 = 7;

fn retention_days() -> u32 {
    std::env::var("CONTEXT_MODE_SESSION_RETENTION_DAYS").ok().and_then(|v| v.trim().parse().ok()).filter(|d| *d > 0).unwrap_or(RETENTION_DAYS)
}

fn search_tool(ctx: &HookContext) -> String {
    crate::hook::texts::ToolNames::for_platform(Some(&ctx.platform)).search
}

/// `<H><S>-events.md` next to the database: the log as markdown, which the MCP
/// server indexes as `session-events` the next time it opens the knowledge base.
fn write_events_markdown(ctx: &HookContext, events: &[Event]) {
    if let Ok(db) = super::paths::session_db_path(&ctx.opts, &ctx.db_project_dir) {
        let md = db.with_file_name(format!("{}-events.md", db.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()));
        let _ = std::fs::write(md, super::snapshot::events_markdown(events, &ctx.project_dir));
    }
}

/// PreCompact: the snapshot that lets the session continue after compaction, stored
/// for SessionStart to inject.
pub fn pre_compact(ctx: &HookContext) -> Result<(), SessionError> {
    let db = ctx.open_db()?;
    let events = db.events(&ctx.session_id)?;
    if events.is_empty() {
        return Ok(());
    }
    let count = db.compact_count(&ctx.session_id)? + 1;
    let snapshot = super::snapshot::build(&events, count, &ctx.project_dir, &search_tool(ctx), super::snapshot::budget());
    db.save_resume(&ctx.session_id, &snapshot, events.len() as i64)?;
    let files = events.iter().filter(|e| e.category == "file").count();
    let summary = [
        Event::new("compaction_summary", "compaction", 1, format!("Session compacted. {} events, {files} files touched.", events.len())),
        Event::new("snapshot-built", "compaction", 1, format!("Snapshot built. {} bytes for {} events.", snapshot.len(), events.len())),
    ];
    db.insert_events(&ctx.session_id, &summary, "PreCompact", &ctx.project_dir)?;
    Ok(())
}

/// Instruction files a session starts with, recorded as project rules.
fn rule_files(ctx: &HookContext) -> Vec<String> {
    let config = crate::platform::paths::resolve_config_dir(&ctx.opts);
    let project = std::path::Path::new(&ctx.project_dir);
    [config.join("CLAUDE.md"), project.join("CLAUDE.md"), project.join(".claude").join("CLAUDE.md"), project.join("AGENTS.md")]
        .into_iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() > 0))
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// SessionStart. `startup` starts a fresh log (and forgets sessions idle too long);
/// `compact` and `resume` return the snapshot to inject after the routing block.
pub fn session_start(ctx: &HookContext, source: &str, input: &Value) -> Result<Option<String>, SessionError> {
    let db = ctx.open_db()?;
    let lifecycle_events = || {
        let data = json!({"source": source, "project_dir": ctx.project_dir, "started_at": crate::clock::now_ms() / 1000});
        let mut events = vec![Event::new("session_start", "session_start", 1, crate::jsjson::stringify(&data))];
        if let Some(m) = input.get("model").and_then(Value::as_str) {
            events.push(Event::new("session_settings_snapshot", "env", 2, format!("model:{}", m.chars().take(64).collect::<String>())));
        }
        events
    };
    let fresh_snapshot = |events: &[Event]| super::snapshot::build(events, db.compact_count(&ctx.session_id).unwrap_or(0), &ctx.project_dir, &search_tool(ctx), super::snapshot::budget());
    match source {
        "compact" | "resume" => {
            let own = db.events(&ctx.session_id)?;
            let stored = db.take_resume(&ctx.session_id)?;
            let snapshot = if source == "compact" {
                // The snapshot PreCompact stored, or one built now if PreCompact never ran.
                stored.or_else(|| (!own.is_empty()).then(|| fresh_snapshot(&own)))
            } else if !own.is_empty() {
                Some(fresh_snapshot(&own))
            } else {
                // A resumed conversation under a new id: the newest snapshot another
                // session of this project left unread.
                db.claim_other_resume(&ctx.session_id)?.map(|(_, snap)| snap)
            };
            if !own.is_empty() {
                write_events_markdown(ctx, &own);
            }
            db.insert_events(&ctx.session_id, &lifecycle_events(), "SessionStart", &ctx.project_dir)?;
            let Some(snapshot) = snapshot else { return Ok(None) };
            let mut injected = Event::new("snapshot-consumed", "session-resume", 1, format!("Session resumed from {source}. Snapshot {} bytes injected.", snapshot.len()));
            // The snapshot enters the conversation: it is returned, not kept out.
            injected.bytes_returned = snapshot.len() as i64;
            db.insert_events(&ctx.session_id, &[injected], "SessionStart", &ctx.project_dir)?;
            Ok(Some(format!("\n\n{snapshot}")))
        }
        _ => {
            db.remove_inactive(retention_days())?;
            // The session row, its rules and its start: one write.
            let mut events: Vec<Event> = rule_files(ctx).into_iter().map(|p| Event::new("rule", "rule", 1, p)).collect();
            events.extend(lifecycle_events());
            db.record(&ctx.session_id, &events, "SessionStart", &ctx.project_dir)?;
            Ok(None)
        }
    }
}
