//! PreToolUse for every host: pull the call out of the host's payload, route it, leave
//! the markers PostToolUse will account for, and answer in the host's format.

use crate::hook::format::{format_decision, FormatOpts};
use crate::hook::payload::{self, agy_project_dir, from_agy, input_project_dir, parse_agy_payload, session_id, session_key};
use crate::hook::route::{self, Decision, RouteRequest};
use crate::hook::run::{log_error, log_if_debugging, payload as parse, HookError, HookOutcome};
use crate::hook::stdin::StdinError;
use crate::hook::{markers, texts};
use crate::jsjson::{js_string, stringify};
use crate::platform::paths::{self, env_nonempty, PlatformOpts};
use serde_json::{json, Value};

/// What a host's PreToolUse hook prints when routing lets the call through. Cursor
/// treats empty stdout as invalid; Codex and Kimi want the event name.
fn passthrough(platform: &str) -> HookOutcome {
    match platform {
        "codex" | "kimi" => HookOutcome::json(&json!({"hookSpecificOutput": {"hookEventName": "PreToolUse"}})),
        "cursor" => HookOutcome::json(&json!({"agent_message": ""})),
        _ => HookOutcome::silent(),
    }
}

/// Hosts whose 1.0.169 hook crashed (exit 1) on a truncated payload.
fn fails_on_partial_stdin(platform: &str) -> bool {
    matches!(platform, "codex" | "cursor" | "gemini-cli" | "vscode-copilot" | "jetbrains-copilot" | "kimi" | "kiro")
}

/// The option object whose config dir, env vars and session rules a host uses.
fn opts_of(platform: &str) -> PlatformOpts {
    paths::opts_for_platform(platform)
}

pub fn run(platform: &str, raw: Result<String, StdinError>) -> HookOutcome {
    // Qwen Code runs Claude Code's scripts.
    let platform = if platform == "qwen-code" { "claude-code" } else { platform };
    let opts = opts_of(platform);
    let result = if platform == "antigravity-cli" { agy(raw) } else { standard(platform, &opts, raw) };
    match result {
        Ok(outcome) => outcome,
        Err(err) => {
            let detail = err.to_string();
            if platform == "claude-code" {
                log_error(&opts, &detail);
            } else {
                log_if_debugging(&opts, &detail);
            }
            if err.is_partial_stdin() && fails_on_partial_stdin(platform) {
                return HookOutcome { exit_code: 1, ..Default::default() };
            }
            if platform == "claude-code" || platform == "copilot-cli" || platform == "antigravity-cli" {
                HookOutcome::silent()
            } else {
                passthrough(platform)
            }
        }
    }
}

/// Every host but Antigravity CLI.
fn standard(platform: &str, opts: &PlatformOpts, raw: Result<String, StdinError>) -> Result<HookOutcome, HookError> {
    let input = parse(raw)?;
    let copilot = platform == "copilot-cli";
    let field = |primary: &str, alt: &str| {
        let v = input.get(primary).filter(|v| !v.is_null());
        if copilot {
            v.or_else(|| input.get(alt).filter(|v| !v.is_null()))
        } else {
            v
        }
    };
    let tool_name = match field("tool_name", "toolName") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let tool_input = field("tool_input", "toolArgs").cloned().unwrap_or_else(|| json!({}));
    let sid = session_id(&input, opts)?;
    let project_dir = routing_project_dir(platform, &input);
    let claude = platform == "claude-code";
    // A Claude subagent may not have the ctx tools, so redirects would strand it.
    let in_subagent = claude && [input.get("agent_id"), input.get("agent_type")].iter().any(|v| v.is_some_and(|v| !v.is_null()));
    let key = session_key(&sid);
    let request = RouteRequest {
        tool_name: tool_name.clone(),
        tool_input,
        project_dir,
        platform: Some(platform.to_string()),
        session_id: Some(sid),
        mcp_tools_available: !in_subagent,
    };
    let decision = route::route(&request)?;
    if claude && !tool_name.is_empty() {
        markers::write_latency(&key, &tool_name);
    }
    if claude {
        if let Some(d) = &decision {
            leave_markers(&key, &tool_name, d, None);
        }
    }
    if platform == "kiro" {
        return Ok(kiro(decision.as_ref()));
    }
    let Some(decision) = decision else { return Ok(passthrough(platform)) };
    Ok(match format_decision(platform, &decision.to_value(), &FormatOpts::default()) {
        Some(out) => HookOutcome::json(&out),
        None => passthrough(platform),
    })
}

/// The project dir a host's PreToolUse hands to routing (it decides which permission
/// files apply). Some hosts only look at their environment; `None` means unknown.
pub fn routing_project_dir(platform: &str, input: &Value) -> Option<String> {
    let either = |a: &str| env_nonempty(a).or_else(|| env_nonempty("CLAUDE_PROJECT_DIR"));
    match platform {
        "gemini-cli" => either("GEMINI_PROJECT_DIR"),
        "vscode-copilot" => either("VSCODE_CWD"),
        "jetbrains-copilot" => either("IDEA_INITIAL_DIRECTORY"),
        "kiro" => Some(match input.get("cwd") {
            None | Some(Value::Null) => payload::process_cwd(),
            Some(v) => js_string(v),
        }),
        "antigravity-cli" => agy_project_dir(input),
        other => Some(input_project_dir(input, &opts_of(other))),
    }
}

/// Rejected and redirect markers for a decision that stopped or changed the call.
fn leave_markers(key: &str, tool_name: &str, decision: &Decision, formatted_reason: Option<&str>) {
    let reason = match (decision, formatted_reason) {
        (_, Some(r)) => Some(r.to_string()),
        (Decision::Deny { reason, .. }, None) => Some(reason.clone().filter(|r| !r.is_empty()).unwrap_or_else(|| "denied".into())),
        (Decision::Modify { .. }, None) => Some(texts::REJECTED_MODIFY_REASON.to_string()),
        _ => None,
    };
    if let Some(reason) = reason {
        markers::write_rejected(key, tool_name, &reason);
    }
    if let Some(meta) = decision.redirect() {
        markers::write_redirect(key, meta);
    }
}

/// Kiro answers with exit codes: 2 blocks the call and hands stderr to the model, 0
/// lets it run, and plain stdout is added as context.
fn kiro(decision: Option<&Decision>) -> HookOutcome {
    let block = |reason: String| HookOutcome { stderr: reason, exit_code: 2, ..Default::default() };
    match decision {
        Some(Decision::Deny { reason, .. }) => block(reason.clone().unwrap_or_else(|| texts::KIRO_DENY_NO_REASON.into())),
        Some(Decision::Modify { updated_input, .. }) => match updated_input.get("command").and_then(Value::as_str) {
            Some(cmd) => {
                let text = crate::hook::format::unwrap_echo(cmd, crate::jsjson::is_js_space)
                    .map(crate::hook::format::unescape_dquote)
                    .unwrap_or_else(|| cmd.to_string());
                block(text)
            }
            None => block(texts::KIRO_MODIFY_NO_COMMAND.into()),
        },
        Some(Decision::Context { additional_context, .. }) => HookOutcome::text(additional_context),
        Some(Decision::Ask) | None => HookOutcome::silent(),
    }
}

/// Antigravity CLI: its own payload shape, a parser that never fails, and markers
/// keyed like its PostToolUse will look for them.
fn agy(raw: Result<String, StdinError>) -> Result<HookOutcome, HookError> {
    let payload = parse_agy_payload(&raw?);
    let input = from_agy(&payload);
    let tool_name = input.get("tool_name").and_then(Value::as_str).unwrap_or("").to_string();
    let request = RouteRequest {
        tool_name: tool_name.clone(),
        tool_input: input.get("tool_input").cloned().unwrap_or_else(|| json!({})),
        project_dir: agy_project_dir(&payload),
        platform: Some("antigravity-cli".into()),
        session_id: payload.get("conversationId").cloned(),
        mcp_tools_available: true,
    };
    let Some(decision) = route::route(&request)? else { return Ok(HookOutcome::silent()) };
    let Some(out) = format_decision("antigravity-cli", &decision.to_value(), &FormatOpts::default()) else {
        return Ok(HookOutcome::silent());
    };
    let formatted_deny = out.get("decision").and_then(Value::as_str) == Some("deny");
    let stops_call = formatted_deny || matches!(decision, Decision::Deny { .. } | Decision::Modify { .. });
    if stops_call && !tool_name.is_empty() {
        let key = session_key(&session_id(&input, &paths::ANTIGRAVITY_CLI)?);
        let reason = out.get("reason").map(|r| match r {
            Value::String(s) => s.clone(),
            other => stringify(other),
        });
        leave_markers(&key, &tool_name, &decision, Some(reason.as_deref().unwrap_or("denied")));
    }
    Ok(HookOutcome::json(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kiro_exit_codes() {
        let deny = Decision::Deny { reason: Some("no".into()), redirect: None };
        assert_eq!(kiro(Some(&deny)), HookOutcome { stderr: "no".into(), exit_code: 2, stdout: String::new() });
        let modify = Decision::Modify { updated_input: json!({"command": "echo \"use \\\"x\\\"\""}), redirect: None };
        assert_eq!(kiro(Some(&modify)).stderr, "use \"x\"");
        let ctx = Decision::Context { additional_context: "tip".into(), redirect: None };
        assert_eq!(kiro(Some(&ctx)), HookOutcome::text("tip"));
        assert_eq!(kiro(Some(&Decision::Ask)), HookOutcome::silent());
    }
}
