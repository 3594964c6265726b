//! Shaping a routing decision into the JSON each host expects on stdout
//! (`reference/hooks.md` §4). One file per host; this file holds what they share.
//!
//! Decisions arrive as JS values, because JS callers may pass any object: a missing
//! key is `undefined` (left out of the output), `null` is kept, and `??` fallbacks
//! apply to both.

mod agy;
mod claude;
pub mod codex;
mod copilot;
mod copilot_cli;
mod cursor;
mod gemini;
mod kimi;
mod legacy;

use serde_json::{Map, Value};

/// Options of `formatDecision`. `codex_supports_rewrite: None` means "probe `codex`".
#[derive(Debug, Clone, Default)]
pub struct FormatOpts {
    pub codex_supports_rewrite: Option<bool>,
}

/// The fields of a decision object, with `None` for a missing key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    pub action: Option<&'a str>,
    pub reason: Option<&'a Value>,
    pub updated_input: Option<&'a Value>,
    pub context: Option<&'a Value>,
}

impl<'a> View<'a> {
    fn of(decision: &'a Value) -> Option<View<'a>> {
        let Value::Object(m) = decision else { return None };
        Some(View {
            action: m.get("action").and_then(Value::as_str),
            reason: m.get("reason"),
            updated_input: m.get("updatedInput"),
            context: m.get("additionalContext"),
        })
    }

    /// `reason ?? fallback`.
    pub fn reason_or(&self, fallback: &str) -> Value {
        nullish_or(self.reason, fallback)
    }

    /// `additionalContext ?? fallback`.
    pub fn context_or(&self, fallback: &str) -> Value {
        nullish_or(self.context, fallback)
    }

    /// The `command` of `updatedInput`, when it has that key (as JS `String()`).
    pub fn command(&self) -> Option<String> {
        self.updated_input.and_then(|ui| ui.get("command")).map(|c| match c {
            Value::String(s) => s.clone(),
            other => crate::jsjson::js_string(other),
        })
    }
}

fn nullish_or(v: Option<&Value>, fallback: &str) -> Value {
    match v {
        None | Some(Value::Null) => Value::String(fallback.to_string()),
        Some(v) => v.clone(),
    }
}

/// Builds an object from `(key, value)` pairs, leaving out the `None` ones the way
/// `JSON.stringify` leaves out `undefined`.
pub(crate) fn obj<const N: usize>(pairs: [(&str, Option<Value>); N]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        if let Some(v) = v {
            m.insert(k.to_string(), v);
        }
    }
    Value::Object(m)
}

pub(crate) fn s(text: &str) -> Option<Value> {
    Some(Value::String(text.to_string()))
}

/// `formatDecision(platform, decision, opts)`: the host's JSON, or `None` when the host
/// gets no output (unknown platform or action, or a decision the host cannot express).
pub fn format_decision(platform: &str, decision: &Value, opts: &FormatOpts) -> Option<Value> {
    let view = View::of(decision)?;
    match platform {
        "claude-code" | "qwen-code" => claude::format(&view),
        "gemini-cli" => gemini::format(&view),
        "vscode-copilot" | "jetbrains-copilot" => copilot::format(&view),
        "copilot-cli" => copilot_cli::format(&view),
        "codex" => codex::format(&view, opts),
        "kimi" => kimi::format(&view),
        "antigravity-cli" => agy::format(&view),
        "cursor" => cursor::format(&view),
        other => legacy::format(other.strip_prefix("legacy:")?, &view),
    }
}

/// Group 1 of `/^echo\s+"(.+)"$/s`: the text of one of our redirect commands.
pub(crate) fn echo_payload(command: &str) -> Option<&str> {
    let rest = command.strip_prefix("echo")?;
    let trimmed = rest.trim_start_matches(crate::jsjson::is_js_space);
    if trimmed.len() == rest.len() {
        return None;
    }
    let inner = trimmed.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.is_empty()).then_some(inner)
}

/// The text inside `echo "<text>"` with surrounding whitespace allowed: `echo`, at least
/// one `space` character, a quote, the text, a quote, then only `space` characters.
pub(crate) fn unwrap_echo(command: &str, space: fn(char) -> bool) -> Option<&str> {
    let rest = command.strip_prefix("echo")?;
    let body = rest.trim_start_matches(space);
    if body.len() == rest.len() {
        return None;
    }
    body.strip_prefix('"')?.trim_end_matches(space).strip_suffix('"')
}

/// Undoes the double-quote escaping of an echo argument: `\"` → `"`, `\\` → `\`.
pub(crate) fn unescape_dquote(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('"') | Some('\\')) {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn echo_payload_rules() {
        assert_eq!(echo_payload("echo \"hi\""), Some("hi"));
        assert_eq!(echo_payload("echo \"line1\nline2\""), Some("line1\nline2"));
        assert_eq!(echo_payload("echo \"\""), None);
        assert_eq!(echo_payload("echo \"hi\" "), None);
        assert_eq!(echo_payload("echo 'x'"), None);
        assert_eq!(echo_payload("echo\"x\""), None);
    }

    #[test]
    fn unwrap_and_unescape() {
        let js = crate::jsjson::is_js_space;
        assert_eq!(unwrap_echo("echo \"hi there\" ", js), Some("hi there"));
        assert_eq!(unwrap_echo("echo \"\"", js), Some(""));
        assert_eq!(unwrap_echo("echo'x'", js), None);
        assert_eq!(unescape_dquote(r#"a \"b\" c\\d \n"#), r#"a "b" c\d \n"#);
    }

    #[test]
    fn unknown_platforms_and_actions_give_nothing() {
        assert_eq!(format_decision("no-such", &json!({"action": "deny"}), &FormatOpts::default()), None);
        assert_eq!(format_decision("claude-code", &json!({"action": "allow"}), &FormatOpts::default()), None);
        assert_eq!(format_decision("kiro", &json!({"action": "deny"}), &FormatOpts::default()), None);
        assert_eq!(format_decision("claude-code", &Value::Null, &FormatOpts::default()), None);
    }
}
