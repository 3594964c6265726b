//! Antigravity CLI: it can neither rewrite a call nor take extra context, so both
//! become a deny that carries the advice.

use super::{obj, s, unescape_dquote, unwrap_echo, View};
use crate::hook::texts;
use crate::jsjson::{is_js_space, js_string};
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(obj([("decision", s("deny")), ("reason", v.reason.cloned())])),
        "ask" => Some(obj([("decision", s("ask")), ("reason", Some(v.reason_or(texts::ASK_DEFAULT_REASON)))])),
        "modify" => {
            let ui = v.updated_input;
            let command = ["command", "CommandLine"].iter().find_map(|k| ui.and_then(|u| u.get(*k)).filter(|c| !c.is_null()));
            let command = command.map(js_string).unwrap_or_default();
            let guidance = unwrap_echo(&command, is_js_space).map(unescape_dquote).filter(|g| !g.is_empty());
            Some(obj([("decision", s("deny")), ("reason", s(guidance.as_deref().unwrap_or(texts::AGY_MODIFY_NON_ECHO)))]))
        }
        "context" => {
            let text = match v.context {
                None | Some(Value::Null) => String::new(),
                Some(c) => js_string(c),
            };
            Some(obj([("decision", s("deny")), ("reason", s(&context_reason(&text)))]))
        }
        _ => None,
    }
}

/// Guidance flattened to one line (tags and runs of whitespace removed) after our prefix.
fn context_reason(guidance: &str) -> String {
    let mut text = guidance.to_string();
    for tag in ["<context_guidance>", "</context_guidance>", "<tip>", "</tip>"] {
        text = text.replace(tag, " ");
    }
    let flat = text.split(is_js_space).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    if flat.is_empty() {
        texts::AGY_CONTEXT_EMPTY.to_string()
    } else {
        format!("{}{flat}", texts::AGY_CONTEXT_PREFIX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwraps_and_unescapes() {
        assert_eq!(context_reason("<context_guidance>\n  <tip>\n    Use x.\n  </tip>\n</context_guidance>"), format!("{}Use x.", texts::AGY_CONTEXT_PREFIX));
    }
}
