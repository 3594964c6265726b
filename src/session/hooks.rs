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
    let db = ctx.open_db()?;
    db.ensure_session(&ctx.session_id, &ctx.project_dir)?;
    let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
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
    db.insert_events(&ctx.session_id, &[Event::new("user_prompt", "user-prompt", 1, prompt.clone())], "UserPromptSubmit", &ctx.project_dir)?;
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

/// PreCompact: the snapshot that lets the session continue after compaction.
pub fn pre_compact(ctx: &HookContext) -> Result<(), SessionError> {
    let _db = ctx.open_db()?;
    Ok(())
}

/// SessionStart: a new session is recorded; what to add to the injected text is
/// returned.
pub fn session_start(ctx: &HookContext, source: &str, _input: &Value) -> Result<Option<String>, SessionError> {
    let db = ctx.open_db()?;
    if source == "startup" {
        db.ensure_session(&ctx.session_id, &ctx.project_dir)?;
    }
    let data = json!({"source": source, "project_dir": ctx.project_dir, "started_at": crate::clock::now_ms() / 1000});
    db.insert_events(&ctx.session_id, &[Event::new("session_start", "session_start", 1, crate::jsjson::stringify(&data))], "SessionStart", &ctx.project_dir)?;
    Ok(None)
}
