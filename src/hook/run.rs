//! One hook invocation from start to finish: which host and event it is, reading and
//! parsing the payload, and turning every failure into the answer the host expects
//! (`reference/hooks.md` §6): an exit code of 0 and valid JSON or nothing, except for a
//! payload cut off mid-way, which the hosts that treated it as an error still see as one.

use crate::hook::stdin::{self, StdinError};
use crate::jsjson::{parse_payload, SyntaxError};
use crate::platform::paths::{self, PlatformOpts};
use serde_json::Value;
use std::io::Write;

/// What the process should print and how it should exit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookOutcome {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

impl HookOutcome {
    pub fn silent() -> HookOutcome {
        HookOutcome::default()
    }

    /// A JSON answer followed by a newline, as hosts read it.
    pub fn json(v: &Value) -> HookOutcome {
        HookOutcome { stdout: format!("{}\n", crate::jsjson::stringify(v)), ..Default::default() }
    }

    pub fn text(s: &str) -> HookOutcome {
        HookOutcome { stdout: s.to_string(), ..Default::default() }
    }
}

/// The host events we handle, whatever each host calls them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PostToolUse,
    UserPrompt,
    PreCompact,
    SessionStart,
    Stop,
    SessionEnd,
    AfterAgentResponse,
    AfterModel,
}

/// `context-mode hook <platform> <event>` (event names are lower-case, as the
/// dispatcher table has them).
pub fn event_for(platform: &str, event: &str) -> Option<Event> {
    if !crate::platform::hook_is_mapped(platform, event) {
        return None;
    }
    Some(match event {
        "pretooluse" | "beforetool" => Event::PreToolUse,
        "posttooluse" | "aftertool" => Event::PostToolUse,
        "userpromptsubmit" | "beforeagent" | "beforesubmitprompt" => Event::UserPrompt,
        "precompact" | "precompress" => Event::PreCompact,
        "sessionstart" | "agentspawn" => Event::SessionStart,
        "stop" => Event::Stop,
        "sessionend" => Event::SessionEnd,
        "afteragentresponse" => Event::AfterAgentResponse,
        "aftermodel" => Event::AfterModel,
        _ => return None,
    })
}

/// Runs a hook with the payload from stdin.
pub fn run(platform: &str, event: &str) -> HookOutcome {
    let Some(ev) = event_for(platform, event) else { return HookOutcome::silent() };
    run_event(platform, ev, stdin::read_stdin())
}

/// Runs a hook with a payload already read (tests, in-process callers).
pub fn run_event(platform: &str, event: Event, raw: Result<String, StdinError>) -> HookOutcome {
    match event {
        Event::PreToolUse => super::pre::run(platform, raw),
        other => super::events::run(platform, other, raw),
    }
}

/// A hook failure: what to log, in `<Name>: <message>` form.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    #[error(transparent)]
    Stdin(#[from] StdinError),
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    #[error(transparent)]
    Payload(#[from] crate::hook::payload::PayloadTypeError),
    #[error(transparent)]
    Route(#[from] crate::hook::route::RouteError),
    #[error("TypeError: the payload is null")]
    NullPayload,
    #[error("Error: {0}")]
    Session(#[from] crate::session::SessionError),
}

impl HookError {
    /// The payload was cut off mid-way (the one failure hosts may see as non-zero).
    pub fn is_partial_stdin(&self) -> bool {
        matches!(self, HookError::Stdin(_))
    }
}

/// Reads and parses a payload: `{}` for nothing, an error for a truncated or invalid
/// one, and `null` refused the way JS code reading `input.tool_name` refuses it.
pub fn payload(raw: Result<String, StdinError>) -> Result<Value, HookError> {
    let value = parse_payload(&raw?)?;
    if value.is_null() {
        return Err(HookError::NullPayload);
    }
    Ok(value)
}

/// Appends `[<ISO>] pid=<pid> <detail>` to `<configDir>/context-mode/hook-errors.log`.
pub fn log_error(opts: &PlatformOpts, detail: &str) {
    let dir = paths::context_mode_dir(opts);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("hook-errors.log")) {
        let _ = writeln!(f, "[{}] pid={} {}", crate::clock::iso_now(), std::process::id(), detail);
    }
}

/// Hosts other than Claude Code swallow hook errors, as 1.0.169 does; with
/// `CONTEXT_MODE_DEBUG` set they are logged too.
pub fn log_if_debugging(opts: &PlatformOpts, detail: &str) {
    if paths::env_nonempty("CONTEXT_MODE_DEBUG").is_some() {
        log_error(opts, detail);
    }
}
