//! GitHub Copilot CLI: flat fields, `modifiedArgs` for a rewrite.

use super::{obj, s, View};
use crate::hook::texts;
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(obj([("permissionDecision", s("deny")), ("permissionDecisionReason", v.reason.cloned())])),
        "ask" => Some(obj([("permissionDecision", s("ask")), ("permissionDecisionReason", Some(v.reason_or(texts::ASK_DEFAULT_REASON)))])),
        "modify" => Some(obj([("modifiedArgs", v.updated_input.cloned())])),
        "context" => Some(obj([("additionalContext", v.context.cloned())])),
        _ => None,
    }
}
