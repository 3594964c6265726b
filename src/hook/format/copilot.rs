//! GitHub Copilot in VS Code and JetBrains IDEs.

use super::{obj, s, View};
use crate::hook::texts;
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(obj([("permissionDecision", s("deny")), ("permissionDecisionReason", v.reason.cloned())])),
        "ask" => Some(obj([("permissionDecision", s("ask"))])),
        "modify" => Some(obj([(
            "hookSpecificOutput",
            Some(obj([
                ("hookEventName", s("PreToolUse")),
                ("permissionDecision", s("allow")),
                ("permissionDecisionReason", s(texts::COPILOT_MODIFY_REASON)),
                ("updatedInput", v.updated_input.cloned()),
            ])),
        )])),
        "context" => Some(obj([("hookSpecificOutput", Some(obj([("hookEventName", s("PreToolUse")), ("additionalContext", v.context.cloned())])))])),
        _ => None,
    }
}
