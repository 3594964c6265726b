//! Codex CLI. Denies always work; rewriting a call or adding context needs Codex
//! 0.141.0 or later, found by running `codex --version` (cached for an hour). When a
//! rewrite is not possible a shell redirect fails closed as a deny carrying our advice,
//! and anything else is dropped.

use super::{obj, s, unescape_dquote, unwrap_echo, FormatOpts, View};
use crate::hook::texts;
use crate::platform::paths::temp_dir;
use serde_json::{json, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const CACHE_FILE: &str = "context-mode-codex-caps.json";
const CACHE_TTL_MS: f64 = 3_600_000.0;
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// The first Codex release whose hooks accept `updatedInput` and `additionalContext`.
const FIRST_SUPPORTED: (u64, u64, u64) = (0, 141, 0);

pub(super) fn format(v: &View, opts: &FormatOpts) -> Option<Value> {
    let capable = || opts.codex_supports_rewrite.unwrap_or_else(supports_updated_input);
    match v.action? {
        "deny" => Some(super::claude::deny(v.reason.cloned())),
        "modify" if capable() => Some(obj([(
            "hookSpecificOutput",
            Some(obj([("hookEventName", s("PreToolUse")), ("permissionDecision", s("allow")), ("updatedInput", v.updated_input.cloned())])),
        )])),
        "modify" => {
            let command = v.command()?;
            let reason = match unwrap_echo(&command, |c| c.is_ascii_whitespace() || c == '\u{0B}') {
                Some(inner) => unescape_dquote(inner),
                None => texts::CODEX_MODIFY_NON_ECHO.to_string(),
            };
            Some(super::claude::deny(s(&reason)))
        }
        "context" if capable() => {
            Some(obj([("hookSpecificOutput", Some(obj([("hookEventName", s("PreToolUse")), ("additionalContext", v.context.cloned())])))]))
        }
        _ => None,
    }
}

/// The first `N.N.N` in `codex --version` output.
pub fn parse_version(raw: &str) -> Option<(u64, u64, u64)> {
    let b = raw.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then(|| (raw[start..i].parse::<u64>().unwrap_or(u64::MAX), i))
    };
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_digit()) {
            if let Some((major, j)) = digits(i) {
                if b.get(j) == Some(&b'.') {
                    if let Some((minor, k)) = digits(j + 1) {
                        if b.get(k) == Some(&b'.') {
                            if let Some((patch, _)) = digits(k + 1) {
                                return Some((major, minor, patch));
                            }
                        }
                    }
                }
            }
        }
        i += 1;
    }
    None
}

/// True when that version accepts rewrites.
pub fn version_supported(v: Option<(u64, u64, u64)>) -> bool {
    v.is_some_and(|v| v >= FIRST_SUPPORTED)
}

/// The capability decision from the cache text, the current time and a probe run only
/// when the cache is missing or stale. Returns the answer and the cache to write back
/// (`None` when the cached answer was used).
pub fn decide(cache: Option<&str>, now_ms: f64, probe: impl FnOnce() -> Option<String>) -> (bool, Option<String>) {
    if let Some(cached) = cache.and_then(|t| serde_json::from_str::<Value>(t).ok()) {
        if let (Some(at), Some(supported)) = (cached.get("at").and_then(Value::as_f64), cached.get("supported").and_then(Value::as_bool)) {
            if now_ms - at < CACHE_TTL_MS {
                return (supported, None);
            }
        }
    }
    let supported = version_supported(probe().as_deref().and_then(parse_version));
    let at = if now_ms.fract() == 0.0 { json!(now_ms as i64) } else { json!(now_ms) };
    (supported, Some(crate::jsjson::stringify(&json!({"at": at, "supported": supported}))))
}

/// `codexSupportsUpdatedInput()`: cached in `<tmp>/context-mode-codex-caps.json`.
pub fn supports_updated_input() -> bool {
    let path = temp_dir().join(CACHE_FILE);
    let cache = std::fs::read_to_string(&path).ok();
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0);
    let (supported, write) = decide(cache.as_deref(), now, probe_codex_version);
    if let Some(text) = write {
        let _ = std::fs::write(&path, text);
    }
    supported
}

/// Runs `codex --version` with a time limit; `None` on any failure.
fn probe_codex_version() -> Option<String> {
    let mut cmd = if cfg!(windows) {
        let mut c = std::process::Command::new("cmd.exe");
        c.args(["/d", "/s", "/c", "codex --version"]);
        c
    } else {
        let mut c = std::process::Command::new("codex");
        c.arg("--version");
        c
    };
    let mut child = cmd.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().ok()?;
    let deadline = std::time::Instant::now() + PROBE_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(parse_version("codex-cli 0.141.0"), Some((0, 141, 0)));
        assert_eq!(parse_version("x1.2.y 3.4.5"), Some((3, 4, 5)));
        assert_eq!(parse_version("0.141"), None);
        assert_eq!(parse_version("codex-cli 00.141.00"), Some((0, 141, 0)));
        assert!(version_supported(parse_version("0.1410.0")));
        assert!(!version_supported(parse_version("codex-cli 0.140.9")));
    }

    #[test]
    fn cache_rules() {
        assert_eq!(decide(Some(r#"{"at":1000,"supported":true}"#), 1000.0, || None), (true, None));
        let (s, w) = decide(Some(r#"{"at":-3599001,"supported":true}"#), 1000.0, || Some("codex-cli 0.100.0".into()));
        assert!(!s);
        assert_eq!(w.as_deref(), Some(r#"{"at":1000,"supported":false}"#));
        assert_eq!(decide(Some("not json"), 1000.0, || Some("codex-cli 0.141.0".into())).0, true);
    }
}
