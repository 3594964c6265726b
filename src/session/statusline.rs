//! `context-mode statusline`: one line for Claude Code's status bar, from the same
//! ledger as the stats — what this chat kept out of the context, and what every
//! session of this host did in total.

use super::{ledgers, Ledger};
use crate::platform::paths::{env_nonempty, CLAUDE};
use serde_json::Value;

fn size(n: u64) -> String {
    crate::text::human_bytes(n as usize)
}

fn share(l: &Ledger) -> String {
    if l.kept_out + l.returned == 0 {
        String::new()
    } else {
        format!(" ({:.0}%)", l.kept_percent())
    }
}

/// The status line for a statusLine payload (`session_id`, `workspace.current_dir`).
pub fn line(payload: &Value) -> String {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
    let session = text(payload.get("session_id")).or_else(|| env_nonempty("CLAUDE_SESSION_ID"));
    let project = text(payload.pointer("/workspace/project_dir"))
        .or_else(|| text(payload.pointer("/workspace/current_dir")))
        .or_else(|| text(payload.get("cwd")))
        .or_else(|| env_nonempty("CLAUDE_PROJECT_DIR"))
        .unwrap_or_else(crate::hook::payload::process_cwd);
    let l = ledgers(&CLAUDE, &project, session.as_deref());
    let this_chat = l.session.as_ref().filter(|(id, _)| session.as_deref().is_none_or(|s| s == id)).map(|(_, x)| x.clone()).unwrap_or_default();
    if l.all_projects.kept_out == 0 && this_chat.kept_out == 0 {
        return "context-mode ● ready".to_string();
    }
    format!(
        "context-mode ● {} kept out this chat{} · {} in total",
        size(this_chat.kept_out),
        share(&this_chat),
        size(l.all_projects.kept_out)
    )
}
