//! Gemini CLI: top-level `decision`/`reason` for a deny; no ask.

use super::{obj, s, View};
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(obj([("decision", s("deny")), ("reason", v.reason.cloned())])),
        "modify" => Some(obj([("hookSpecificOutput", Some(obj([("tool_input", v.updated_input.cloned())])))])),
        "context" => Some(obj([("hookSpecificOutput", Some(obj([("additionalContext", v.context.cloned())])))])),
        _ => None,
    }
}
