//! The hooks other than PreToolUse: PostToolUse, prompts, compaction, session start and
//! stop. Each host gets the fixed answer it expects whatever happens; the work behind
//! it (recording what the agent did, rebuilding state after a compaction) is done by
//! the session module and never allowed to fail the hook.

use crate::hook::payload::{self, from_agy, input_project_dir, parse_agy_payload, session_id, session_key};
use crate::hook::run::{log_error, log_if_debugging, payload as parse, Event, HookError, HookOutcome};
use crate::hook::stdin::StdinError;
use crate::hook::texts::{routing_block, ToolNames};
use crate::platform::detect::detect_platform_from_env;
use crate::platform::paths::{self, PlatformOpts};
use crate::session::{self, HookContext};
use serde_json::{json, Value};

/// What a host prints for an event (`reference/hooks.md` §6). `context` is the text
/// injected at session start.
fn answer(platform: &str, event: Event, context: &str) -> HookOutcome {
    let specific = |name: &str, ctx: &str| HookOutcome::json(&json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": ctx}}));
    let empty = || HookOutcome::json(&json!({}));
    match (platform, event) {
        (_, Event::SessionStart) => match platform {
            "cursor" => HookOutcome::json(&json!({"additional_context": context})),
            "copilot-cli" => HookOutcome::json(&json!({"additionalContext": context})),
            "kiro" => specific("agentSpawn", context),
            _ => specific("SessionStart", context),
        },
        ("claude-code" | "qwen-code", Event::PreCompact | Event::Stop) => empty(),
        ("codex" | "kimi", Event::PostToolUse) => specific("PostToolUse", ""),
        ("codex" | "kimi", Event::UserPrompt) => specific("UserPromptSubmit", ""),
        ("codex" | "kimi", Event::PreCompact | Event::Stop | Event::SessionEnd) => empty(),
        ("cursor", Event::PostToolUse | Event::AfterAgentResponse) => HookOutcome::json(&json!({"additional_context": ""})),
        ("cursor", Event::Stop) => HookOutcome::json(&json!({"followup_message": ""})),
        // beforeSubmitPrompt: recording the prompt never holds it back.
        ("cursor", Event::UserPrompt) => HookOutcome::json(&json!({"continue": true})),
        ("gemini-cli", Event::UserPrompt) => specific("BeforeAgent", ""),
        ("kiro", Event::UserPrompt) => specific("userPromptSubmit", ""),
        _ => HookOutcome::silent(),
    }
}

/// The config dir (and env rules) a host's non-PreToolUse hooks use. Qwen Code runs
/// Claude Code's scripts and so shares its storage, except for its own Stop hook.
fn opts_of(platform: &str, event: Event) -> PlatformOpts {
    match (platform, event) {
        ("qwen-code", Event::Stop) => paths::QWEN,
        ("qwen-code", _) => paths::CLAUDE,
        _ => paths::opts_for_platform(platform),
    }
}

/// Tool names as the host shows them; Claude Code's scripts look at the environment,
/// since other hosts (Qwen, VS Code) run them too.
fn names_for(platform: &str) -> ToolNames {
    match platform {
        "claude-code" | "qwen-code" => ToolNames::for_platform(Some(detect_platform_from_env())),
        other => ToolNames::for_platform(Some(other)),
    }
}

pub fn run(platform: &str, event: Event, raw: Result<String, StdinError>) -> HookOutcome {
    let opts = opts_of(platform, event);
    let context = if event == Event::SessionStart { routing_block(&names_for(platform)) } else { String::new() };
    let mut injected = context.clone();
    match capture(platform, event, &opts, raw) {
        Ok(extra) => {
            if let Some(extra) = extra {
                injected.push_str(&extra);
            }
        }
        Err(err) => {
            // Claude Code's PostToolUse and UserPromptSubmit log their failures; every
            // other hook answers as if nothing happened, as 1.0.169's do.
            let logs = matches!(platform, "claude-code" | "qwen-code") && matches!(event, Event::PostToolUse | Event::UserPrompt);
            if logs || matches!(err, HookError::Session(_)) {
                log_error(&opts, &err.to_string());
            } else {
                log_if_debugging(&opts, &err.to_string());
            }
        }
    }
    answer(platform, event, &injected)
}

/// The payload in Claude Code's shape, whatever the host sent.
fn normalized_input(platform: &str, raw: Result<String, StdinError>) -> Result<Value, HookError> {
    if platform == "antigravity-cli" {
        return Ok(from_agy(&parse_agy_payload(&raw?)));
    }
    let mut input = parse(raw)?;
    if !input.is_object() {
        input = json!({});
    }
    if platform == "copilot-cli" {
        if let Value::Object(m) = &mut input {
            let response = m
                .get("tool_result")
                .and_then(|r| r.get("text_result_for_llm"))
                .or_else(|| m.get("toolResult").and_then(|r| r.get("textResultForLlm")))
                .or_else(|| m.get("tool_response"))
                .or_else(|| m.get("toolResult"))
                .cloned();
            for (canonical, alt) in [("tool_name", "toolName"), ("tool_input", "toolArgs")] {
                if m.get(canonical).is_none_or(Value::is_null) {
                    if let Some(v) = m.get(alt).cloned() {
                        m.insert(canonical.into(), v);
                    }
                }
            }
            if let Some(r) = response {
                m.insert("tool_response".into(), r);
            }
            if m.get("prompt").is_none_or(Value::is_null) {
                if let Some(p) = m.get("user_prompt").cloned() {
                    m.insert("prompt".into(), p);
                }
            }
        }
    }
    Ok(input)
}

/// Records what the event tells about the session. Returns text to append to the
/// SessionStart injection, if any.
fn capture(platform: &str, event: Event, opts: &PlatformOpts, raw: Result<String, StdinError>) -> Result<Option<String>, HookError> {
    let input = normalized_input(platform, raw)?;
    let claude_scripts = matches!(platform, "claude-code" | "qwen-code") && event != Event::Stop;
    let sid = session_key(&session_id(&input, opts)?);
    let attribution_dir = match platform {
        "antigravity-cli" => input.get("cwd").and_then(Value::as_str).map(str::to_string).unwrap_or_else(payload::process_cwd),
        _ => input_project_dir(&input, opts),
    };
    // Claude Code's scripts key the database by CLAUDE_PROJECT_DIR (or the process cwd),
    // not by the payload's cwd; its Stop hook is the exception.
    let db_dir = if claude_scripts { payload::env_project_dir() } else { attribution_dir.clone() };
    let source = session_source(platform, &input);
    if event == Event::SessionStart && source == "clear" {
        return Ok(None);
    }
    if event == Event::AfterModel {
        return Ok(None);
    }
    let ctx = HookContext { opts: *opts, platform: platform.to_string(), session_id: sid, db_project_dir: db_dir, project_dir: attribution_dir };
    let extra = match event {
        Event::PostToolUse => session::hooks::post_tool_use(&ctx, &input).map(|_| None),
        Event::UserPrompt => session::hooks::user_prompt(&ctx, &input).map(|_| None),
        Event::Stop | Event::SessionEnd => session::hooks::stop(&ctx, &input, event == Event::SessionEnd).map(|_| None),
        Event::AfterAgentResponse => session::hooks::agent_response(&ctx, &input).map(|_| None),
        Event::PreCompact => session::hooks::pre_compact(&ctx).map(|_| None),
        Event::SessionStart => session::hooks::session_start(&ctx, &source, &input),
        Event::PreToolUse | Event::AfterModel => Ok(None),
    }?;
    Ok(extra)
}

/// `startup`, `compact`, `resume` or `clear`, from the host's own words for them.
fn session_source(platform: &str, input: &Value) -> String {
    let raw = input.get("source").or_else(|| if platform == "cursor" { input.get("trigger") } else { None }).and_then(Value::as_str).unwrap_or("startup");
    match (platform, raw) {
        ("kimi", "resume") => "resume".into(),
        ("kimi", _) => "startup".into(),
        (_, "new") => "startup".into(),
        (_, s @ ("startup" | "compact" | "resume" | "clear")) => s.into(),
        _ => "startup".into(),
    }
}
