//! Cursor.

use super::{obj, s, View};
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(obj([("permission", s("deny")), ("user_message", v.reason.cloned())])),
        "ask" => Some(obj([("permission", s("ask"))])),
        "modify" => Some(obj([("updated_input", v.updated_input.cloned())])),
        "context" => Some(obj([("agent_message", v.context.cloned())])),
        _ => None,
    }
}
