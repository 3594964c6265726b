//! The older per-host formatters 1.0.169 still ships under `hooks/formatters/` (no hook
//! of its own uses them). Kept for callers that import those modules: deny carries a
//! `reason` key, and Claude Code's honours `CLAUDE_CODE_HEADLESS`.

use super::{echo_payload, obj, s, View};
use crate::hook::texts;
use serde_json::{Map, Value};

pub(super) fn format(host: &str, v: &View) -> Option<Value> {
    match host {
        "claude-code" => claude(v),
        "cursor" => match v.action? {
            "deny" => Some(obj([("permission", s("deny")), ("user_message", Some(v.reason_or(texts::KIRO_DENY_NO_REASON)))])),
            "ask" => Some(obj([("permission", s("ask"))])),
            "modify" => Some(obj([("updated_input", v.updated_input.cloned())])),
            "context" => Some(obj([("agent_message", Some(v.context_or("")))])),
            _ => None,
        },
        "gemini-cli" => match v.action? {
            "deny" => Some(obj([("decision", s("deny")), ("reason", Some(v.reason_or(texts::KIRO_DENY_NO_REASON)))])),
            "modify" => Some(obj([("hookSpecificOutput", Some(obj([("tool_input", v.updated_input.cloned())])))])),
            "context" => Some(obj([("hookSpecificOutput", Some(obj([("additionalContext", Some(v.context_or("")))])))])),
            _ => None,
        },
        "vscode-copilot" => match v.action? {
            "deny" => Some(obj([("permissionDecision", s("deny")), ("reason", Some(v.reason_or(texts::KIRO_DENY_NO_REASON)))])),
            "ask" => Some(obj([("permissionDecision", s("ask"))])),
            "modify" => Some(obj([("hookSpecificOutput", v.updated_input.cloned()), ("hookEventName", s("PreToolUse"))])),
            "context" => Some(obj([("hookSpecificOutput", Some(obj([("additionalContext", v.context.cloned())]))), ("hookEventName", s("PreToolUse"))])),
            _ => None,
        },
        _ => None,
    }
}

fn claude(v: &View) -> Option<Value> {
    let headless = std::env::var("CLAUDE_CODE_HEADLESS").is_ok_and(|h| h == "1");
    let wrap = |inner: Value| Some(obj([("hookSpecificOutput", Some(inner))]));
    match v.action? {
        "deny" if !headless => {
            wrap(obj([("hookEventName", s("PreToolUse")), ("permissionDecision", s("deny")), ("reason", Some(v.reason_or(texts::KIRO_DENY_NO_REASON)))]))
        }
        "ask" if !headless => wrap(obj([("hookEventName", s("PreToolUse")), ("permissionDecision", s("ask"))])),
        "modify" if !headless => match v.command() {
            Some(command) => Some(super::claude::deny(s(echo_payload(&command).unwrap_or(texts::CLAUDE_MODIFY_NON_ECHO)))),
            None => {
                let ui = v.updated_input.cloned().unwrap_or_else(|| Value::Object(Map::new()));
                wrap(obj([("hookEventName", s("PreToolUse")), ("updatedInput", Some(ui))]))
            }
        },
        "context" => wrap(obj([("hookEventName", s("PreToolUse")), ("additionalContext", Some(v.context_or("")))])),
        _ => None,
    }
}
