//! Claude Code (and Qwen Code, which runs the same scripts).
//!
//! A rewritten shell command is turned into a deny whose reason is the text of our
//! redirect: Claude Code shows deny reasons to the model, while an `updatedInput`
//! for Bash would run our `echo` and spend a turn.

use super::{echo_payload, obj, s, View};
use crate::hook::texts;
use serde_json::{Map, Value};

pub(super) fn deny(reason: Option<Value>) -> Value {
    obj([("hookSpecificOutput", Some(obj([("hookEventName", s("PreToolUse")), ("permissionDecision", s("deny")), ("permissionDecisionReason", reason)])))])
}

pub(super) fn format(v: &View) -> Option<Value> {
    let wrap = |inner: Value| obj([("hookSpecificOutput", Some(inner))]);
    match v.action? {
        "deny" => Some(deny(v.reason.cloned())),
        "ask" => Some(wrap(obj([("hookEventName", s("PreToolUse")), ("permissionDecision", s("ask"))]))),
        "modify" => Some(match v.command() {
            Some(command) => deny(s(echo_payload(&command).unwrap_or(texts::CLAUDE_MODIFY_NON_ECHO))),
            None => {
                let ui = v.updated_input.cloned().filter(|u| !u.is_null()).unwrap_or_else(|| Value::Object(Map::new()));
                wrap(obj([("hookEventName", s("PreToolUse")), ("updatedInput", Some(ui))]))
            }
        }),
        "context" => Some(wrap(obj([("hookEventName", s("PreToolUse")), ("additionalContext", v.context.cloned())]))),
        _ => None,
    }
}
