//! PreToolUse routing: given a tool call, decide whether to let it run, steer it to a
//! ctx tool, add a hint, or ask/deny under the user's permission rules.
//!
//! Rules run in 1.0.169's order (`reference/hooks.md` §3) so hosts see the same
//! decisions; what differs is documented in `docs/compat.md`.

pub mod config;
pub mod shell;

use crate::exec::policy::{Policies, Verdict};
use crate::hook::payload::{parent_pid, session_key};
use crate::hook::texts::{self, ToolNames};
use crate::hook::{ready, throttle};
use crate::jsjson::{js_string, truthy};
use crate::platform::paths::{env_nonempty, resolve_config_dir, CLAUDE, CODEX};
use config::RoutingConfig;
use serde_json::{json, Map, Value};
use shell::FetchVerdict;

/// Bytes a redirected curl/wget call is assumed to keep out of the context.
pub const CURL_BYTES_AVOIDED: u64 = 8192;
/// Bytes a redirected WebFetch is assumed to keep out of the context.
pub const WEBFETCH_BYTES_AVOIDED: u64 = 16384;

/// What a redirect saved, for the marker PostToolUse turns into a stats event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedirectMeta {
    pub tool: String,
    pub kind: String,
    pub bytes_avoided: u64,
    pub command_summary: String,
}

/// A routing decision, before a host formatter shapes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Deny { reason: Option<String>, redirect: Option<RedirectMeta> },
    Ask,
    Modify { updated_input: Value, redirect: Option<RedirectMeta> },
    Context { additional_context: String, redirect: Option<RedirectMeta> },
}

impl Decision {
    pub fn redirect(&self) -> Option<&RedirectMeta> {
        match self {
            Decision::Deny { redirect, .. } | Decision::Modify { redirect, .. } | Decision::Context { redirect, .. } => redirect.as_ref(),
            Decision::Ask => None,
        }
    }

    /// The JS shape: `{action, reason?|updatedInput|additionalContext, redirectMeta?}`.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        match self {
            Decision::Deny { reason, .. } => {
                m.insert("action".into(), json!("deny"));
                if let Some(r) = reason {
                    m.insert("reason".into(), json!(r));
                }
            }
            Decision::Ask => {
                m.insert("action".into(), json!("ask"));
            }
            Decision::Modify { updated_input, .. } => {
                m.insert("action".into(), json!("modify"));
                m.insert("updatedInput".into(), updated_input.clone());
            }
            Decision::Context { additional_context, .. } => {
                m.insert("action".into(), json!("context"));
                m.insert("additionalContext".into(), json!(additional_context));
            }
        }
        if let Some(r) = self.redirect() {
            m.insert(
                "redirectMeta".into(),
                json!({"tool": r.tool, "type": r.kind, "bytesAvoided": r.bytes_avoided, "commandSummary": r.command_summary}),
            );
        }
        Value::Object(m)
    }
}

/// Routing failed on a payload JS would also have rejected.
#[derive(Debug, thiserror::Error)]
#[error("TypeError: {0}")]
pub struct RouteError(pub String);

/// One PreToolUse call to route.
#[derive(Debug, Clone, Default)]
pub struct RouteRequest {
    pub tool_name: String,
    pub tool_input: Value,
    pub project_dir: Option<String>,
    pub platform: Option<String>,
    pub session_id: Option<Value>,
    /// False in a Claude subagent, where the ctx tools may be missing.
    pub mcp_tools_available: bool,
}

/// Host tool names mapped to the tools routing knows.
pub fn canonical_tool(name: &str) -> &str {
    match name {
        "run_shell_command" | "run_command" | "bash" | "shell" | "shell_command" | "exec_command" | "container.exec" | "local_shell"
        | "exec" | "Shell" | "run_in_terminal" | "execute_bash" => "Bash",
        "read_file" | "read_many_files" | "view_file" | "view" | "read" | "fs_read" => "Read",
        "grep_search" | "search_file_content" | "grep" | "search" | "grep_files" => "Grep",
        "web_fetch" | "read_url_content" | "fetch" | "mcp_web_fetch" | "mcp_fetch_tool" => "WebFetch",
        "agent" => "Agent",
        "list_dir" | "list_directory" => "LS",
        "search_web" => "WebSearch",
        "write_file" | "fs_write" => "Write",
        "edit" => "Edit",
        "glob" => "Glob",
        other => other,
    }
}

/// Routes one call. `Ok(None)` lets it run untouched.
pub fn route(req: &RouteRequest) -> Result<Option<Decision>, RouteError> {
    let cfg = RoutingConfig::from_env();
    let names = ToolNames::for_platform(req.platform.as_deref());
    let sid = req.session_id.as_ref().filter(|v| truthy(v)).map(session_key);
    let ctx = Ctx { req, cfg: &cfg, names: &names, sid: sid.as_deref() };
    let canonical = canonical_tool(&req.tool_name);
    match canonical {
        "Bash" => Ok(ctx.bash()),
        "Read" => Ok(ctx.read()),
        "Grep" => Ok(ctx.guidance_once("grep", "grep", texts::grep_guidance(&names))),
        "WebFetch" => Ok(ctx.webfetch()),
        "Agent" => ctx.agent(),
        _ => Ok(match ctx.own_tool() {
            Some(handled) => handled,
            None => ctx.external_mcp(),
        }),
    }
}

struct Ctx<'a> {
    req: &'a RouteRequest,
    cfg: &'a RoutingConfig,
    names: &'a ToolNames,
    sid: Option<&'a str>,
}

impl Ctx<'_> {
    /// A redirect only makes sense when the ctx tools can answer.
    fn redirect(&self, rule: &str, decision: Decision) -> Option<Decision> {
        (self.cfg.enabled(rule) && self.req.mcp_tools_available && ready::is_mcp_ready()).then_some(decision)
    }

    fn guidance_once(&self, rule: &str, kind: &str, text: String) -> Option<Decision> {
        (self.cfg.enabled(rule) && throttle::first_time(kind, self.sid))
            .then_some(Decision::Context { additional_context: text, redirect: None })
    }

    fn policies(&self) -> Policies {
        let mut global = Vec::new();
        if self.req.platform.as_deref() == Some("codex") {
            global.push(resolve_config_dir(&CODEX).join("settings.json"));
        }
        global.push(resolve_config_dir(&CLAUDE).join("settings.json"));
        Policies::load(&Policies::files_for(self.req.project_dir.as_deref(), &global))
    }

    fn bash(&self) -> Option<Decision> {
        let input = &self.req.tool_input;
        // A non-string command (Codex argv arrays) counts as empty.
        let command = ["command", "cmd", "CommandLine"]
            .iter()
            .find_map(|k| match input.get(*k) {
                Some(Value::String(s)) => Some(s.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let policies = self.policies();
        if !policies.is_empty() {
            match policies.check_command(command) {
                Verdict::Deny(rule) => return Some(Decision::Deny { reason: Some(texts::policy_deny_bash(&rule.raw)), redirect: None }),
                Verdict::Ask(_) => return Some(Decision::Ask),
                Verdict::None => {}
            }
        }
        let without_heredocs = shell::strip_heredocs(command);
        let stripped = shell::strip_quoted(&without_heredocs);
        if self.cfg.enabled("curl") {
            match shell::fetch_verdict(&stripped, &self.cfg.curl_allow) {
                FetchVerdict::Flooding => {
                    let meta = RedirectMeta {
                        tool: "Bash".into(),
                        kind: "bash-redirected".into(),
                        bytes_avoided: CURL_BYTES_AVOIDED,
                        command_summary: truncate_utf16(command, 200),
                    };
                    let decision = Decision::Modify {
                        updated_input: json!({"command": texts::curl_wget_redirect_command(self.names)}),
                        redirect: Some(meta),
                    };
                    return self.redirect("curl", decision);
                }
                FetchVerdict::AllSafe => return None,
                FetchVerdict::Absent => {}
            }
        }
        if self.cfg.enabled("inline-http") && shell::has_inline_http(&without_heredocs) {
            let decision = Decision::Modify { updated_input: json!({"command": texts::inline_http_redirect_command(self.names)}), redirect: None };
            return self.redirect("inline-http", decision);
        }
        if self.cfg.enabled("build") && shell::runs_build_tool(&stripped) {
            let decision =
                Decision::Modify { updated_input: json!({"command": texts::build_tool_redirect_command(self.names, command)}), redirect: None };
            return self.redirect("build", decision);
        }
        if shell::is_structurally_bounded(command) {
            return None;
        }
        if let Some(min) = env_nonempty("CONTEXT_MODE_BASH_NUDGE_MIN_COMMAND_BYTES").and_then(|v| throttle::parse_int(&v)) {
            if (1..=100_000).contains(&min) && (command.len() as i64) < min {
                return None;
            }
        }
        self.guidance_once("bash", "bash", texts::bash_guidance(self.names))
    }

    fn read(&self) -> Option<Decision> {
        if !self.cfg.enabled("read") {
            return None;
        }
        let path = ["file_path", "path", "AbsolutePath", "FilePath"].iter().find_map(|k| self.req.tool_input.get(*k)).filter(|v| !v.is_null());
        let path = match path {
            Some(Value::String(s)) => s.clone(),
            Some(other) => js_string(other),
            None => String::new(),
        };
        let text = texts::read_guidance(self.names);
        let size = if path.is_empty() { None } else { std::fs::metadata(&path).ok().filter(|m| m.is_file()).map(|m| m.len()) };
        match size {
            Some(bytes) if bytes > self.cfg.read_nudge_bytes => {
                // A large read always gets the hint, even after the once-per-session one.
                throttle::first_time("read", self.sid);
                Some(Decision::Context {
                    additional_context: text,
                    redirect: Some(RedirectMeta {
                        tool: "Read".into(),
                        kind: "read-redirected".into(),
                        bytes_avoided: bytes,
                        command_summary: truncate_utf16(&path, 200),
                    }),
                })
            }
            _ => self.guidance_once("read", "read", text),
        }
    }

    fn webfetch(&self) -> Option<Decision> {
        let url = match ["url", "URL", "Url"].iter().find_map(|k| self.req.tool_input.get(*k)) {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        if self.cfg.webfetch_allowed(&url) {
            return None;
        }
        let decision = Decision::Deny {
            reason: Some(texts::webfetch_deny_reason(self.names, &url)),
            redirect: Some(RedirectMeta {
                tool: "WebFetch".into(),
                kind: "webfetch-redirected".into(),
                bytes_avoided: WEBFETCH_BYTES_AVOIDED,
                command_summary: truncate_utf16(&url, 200),
            }),
        };
        self.redirect("webfetch", decision)
    }

    /// Appends the subagent routing block to the prompt field of an Agent call.
    fn agent(&self) -> Result<Option<Decision>, RouteError> {
        let fields: Map<String, Value> = match &self.req.tool_input {
            Value::Object(m) => m.clone(),
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v.clone())).collect(),
            other => {
                return Err(RouteError(format!("Agent tool_input must be an object, got {}", js_string(other))));
            }
        };
        if !self.cfg.enabled("agent") || !self.cfg.subagent_routing {
            return Ok(None);
        }
        let field = ["prompt", "request", "objective", "question", "query", "task"].into_iter().find(|k| fields.contains_key(*k)).unwrap_or("prompt");
        let existing = match fields.get(field) {
            None | Some(Value::Null) => String::new(),
            Some(v) => js_string(v),
        };
        let block = texts::subagent_routing_block(self.names, self.req.platform.as_deref());
        let mut updated = fields;
        updated.insert(field.to_string(), Value::String(existing + &block));
        if updated.get("subagent_type").and_then(Value::as_str) == Some("Bash") {
            updated.insert("subagent_type".into(), json!("general-purpose"));
        }
        Ok(Some(Decision::Modify { updated_input: Value::Object(updated), redirect: None }))
    }

    /// context-mode's own tools: permission rules, and pinning the shell's cwd to the
    /// project on Claude Code. `None` when the tool is not one of ours.
    fn own_tool(&self) -> Option<Option<Decision>> {
        let name = self.req.tool_name.as_str();
        let input = &self.req.tool_input;
        let pin = self.req.platform.as_deref() == Some("claude-code") && self.req.project_dir.as_deref().is_some_and(|d| !d.is_empty());
        let language_shell = input.get("language").and_then(Value::as_str) == Some("shell");
        let code = input.get("code").and_then(Value::as_str).unwrap_or("");
        let with_cwd = || {
            let mut m = input.as_object().cloned().unwrap_or_default();
            m.insert("cwd".into(), json!(self.req.project_dir.clone().unwrap_or_default()));
            Some(Decision::Modify { updated_input: Value::Object(m), redirect: None })
        };
        let cwd_is_string = matches!(input.get("cwd"), Some(Value::String(_)));
        if own_tool_matches(name, "ctx_execute", "execute") {
            if language_shell {
                if let Some(d) = self.check_shell_code(code) {
                    return Some(Some(d));
                }
            }
            return Some(if language_shell && pin && !cwd_is_string { with_cwd() } else { None });
        }
        if own_tool_matches(name, "ctx_execute_file", "execute_file") {
            let policies = self.policies();
            if let Some(Value::String(path)) = input.get("path") {
                if let Some(rule) = policies.denied_read(path, self.req.project_dir.as_deref()) {
                    return Some(Some(Decision::Deny { reason: Some(texts::policy_deny_read_path(&rule.glob)), redirect: None }));
                }
            }
            return Some(if language_shell { self.check_shell_code(code) } else { None });
        }
        if own_tool_matches(name, "ctx_batch_execute", "batch_execute") {
            let policies = self.policies();
            if let Some(Value::Array(commands)) = input.get("commands") {
                for c in commands {
                    let Some(cmd) = c.get("command").and_then(Value::as_str) else { continue };
                    match policies.check_command(cmd) {
                        Verdict::Deny(rule) => {
                            let label = c.get("label").and_then(Value::as_str).filter(|l| !l.is_empty()).unwrap_or(cmd);
                            return Some(Some(Decision::Deny { reason: Some(texts::policy_deny_batch(label, &rule.raw)), redirect: None }));
                        }
                        Verdict::Ask(_) => return Some(Some(Decision::Ask)),
                        Verdict::None => {}
                    }
                }
            }
            return Some(if pin && !cwd_is_string { with_cwd() } else { None });
        }
        None
    }

    fn check_shell_code(&self, code: &str) -> Option<Decision> {
        match self.policies().check_command(code) {
            Verdict::Deny(rule) => Some(Decision::Deny { reason: Some(texts::policy_deny_shell_code(&rule.raw)), redirect: None }),
            Verdict::Ask(_) => Some(Decision::Ask),
            Verdict::None => None,
        }
    }

    fn external_mcp(&self) -> Option<Decision> {
        if !is_external_mcp(&self.req.tool_name) || !self.cfg.enabled("external-mcp") {
            return None;
        }
        let every = env_nonempty("CONTEXT_MODE_EXTERNAL_MCP_NUDGE_EVERY")
            .and_then(|v| throttle::parse_int(&v))
            .filter(|n| (1..=100).contains(n))
            .unwrap_or(10) as u64;
        throttle::periodic("external-mcp", self.sid, every)
            .then(|| Decision::Context { additional_context: texts::external_mcp_guidance(self.names), redirect: None })
    }
}

/// `leaf(name)`: the last `__`- or `/`-separated part, after a leading `MCP:`.
fn leaf(name: &str) -> &str {
    let name = name.strip_prefix("MCP:").unwrap_or(name);
    name.split("__").flat_map(|p| p.split('/')).filter(|p| !p.is_empty()).last().unwrap_or("")
}

/// Whether a tool name is our `ctx` tool (or its legacy bare name under our server).
fn own_tool_matches(name: &str, ctx: &str, legacy: &str) -> bool {
    let l = leaf(name);
    l == ctx || ((name.starts_with("MCP:") || name.contains("context-mode")) && l == legacy)
}

/// Tools of other MCP servers, in the three naming styles hosts use.
pub fn is_external_mcp(name: &str) -> bool {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let server = rest.split("__").next().unwrap_or("");
        return !server.is_empty() && !server.contains("context-mode");
    }
    if let Some(rest) = name.strip_prefix("MCP:") {
        return !rest.is_empty() && !rest.starts_with("ctx_");
    }
    if let Some(rest) = name.strip_prefix('@') {
        if let Some((server, _)) = rest.split_once('/') {
            return !server.is_empty() && !server.contains("context-mode");
        }
    }
    false
}

/// JS `s.slice(0, n)`: the first `n` UTF-16 units (never splitting a character).
pub fn truncate_utf16(s: &str, n: usize) -> String {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > n {
            return s[..i].to_string();
        }
    }
    s.to_string()
}

/// The parent pid as it appears in marker directory names.
pub fn ppid_string() -> String {
    parent_pid().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_and_own_tools() {
        assert_eq!(leaf("MCP:ctx_execute"), "ctx_execute");
        assert_eq!(leaf("mcp__plugin_context-mode_context-mode__ctx_execute"), "ctx_execute");
        assert!(own_tool_matches("mcp__other__ctx_execute", "ctx_execute", "execute"));
        assert!(!own_tool_matches("context-mode_ctx_execute", "ctx_execute", "execute"));
        assert!(!own_tool_matches("mcp__other__execute", "ctx_execute", "execute"));
        assert!(own_tool_matches("mcp__context-mode__execute", "ctx_execute", "execute"));
    }

    #[test]
    fn external_detection() {
        assert!(is_external_mcp("mcp__slack__post"));
        assert!(is_external_mcp("mcp__foo"));
        assert!(!is_external_mcp("mcp__context-mode__ctx_search"));
        assert!(is_external_mcp("MCP:slack_post"));
        assert!(!is_external_mcp("MCP:ctx_search"));
        assert!(is_external_mcp("@github/create_issue"));
        assert!(!is_external_mcp("@context-mode/ctx_search"));
        assert!(!is_external_mcp("Bash"));
    }

    #[test]
    fn utf16_slice() {
        assert_eq!(truncate_utf16("ab😀c", 3), "ab");
        assert_eq!(truncate_utf16("ab😀c", 4), "ab😀");
    }
}
