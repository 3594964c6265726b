//! Which host is running us, judged from environment variables alone.

use super::paths::env_nonempty;

/// The hook-side detection table of 1.0.169, in order: the first platform with any of
/// its variables set (non-empty) wins. `CONTEXT_MODE_PLATFORM` is deliberately not read
/// here; the hook scripts know their platform already.
const HOOK_DETECTION: &[(&str, &[&str])] = &[
    ("claude-code", &["CLAUDE_PROJECT_DIR", "CLAUDE_SESSION_ID"]),
    ("antigravity", &["ANTIGRAVITY_CLI_ALIAS"]),
    ("cursor", &["CURSOR_TRACE_ID", "CURSOR_CLI"]),
    ("kilo", &["KILO_PID"]),
    ("opencode", &["OPENCODE_CLIENT", "OPENCODE_TERMINAL", "OPENCODE", "OPENCODE_PID"]),
    ("zed", &["ZED_SESSION_ID", "ZED_TERM"]),
    ("codex", &["CODEX_THREAD_ID", "CODEX_CI"]),
    ("gemini-cli", &["GEMINI_PROJECT_DIR", "GEMINI_CLI"]),
    ("vscode-copilot", &["VSCODE_PID", "VSCODE_CWD"]),
    ("jetbrains-copilot", &["IDEA_INITIAL_DIRECTORY"]),
    ("qwen-code", &["QWEN_PROJECT_DIR"]),
    ("pi", &["PI_PROJECT_DIR"]),
];

/// `detectPlatformFromEnv()`: default `claude-code`.
pub fn detect_platform_from_env() -> &'static str {
    HOOK_DETECTION
        .iter()
        .find(|(_, vars)| vars.iter().any(|v| env_nonempty(v).is_some()))
        .map(|(p, _)| *p)
        .unwrap_or("claude-code")
}
