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

/// How sure a detection is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confidence {
    High,
    Medium,
    Low,
}

/// Platform ids `CONTEXT_MODE_PLATFORM` may name.
pub const KNOWN_PLATFORMS: &[&str] = &[
    "claude-code", "gemini-cli", "kilo", "opencode", "codex", "vscode-copilot", "jetbrains-copilot", "copilot-cli", "cursor", "antigravity",
    "antigravity-cli", "kiro", "pi", "omp", "zed", "qwen-code", "kimi",
];

/// MCP `clientInfo.name` to platform.
pub fn platform_for_client(name: &str) -> Option<&'static str> {
    if name.starts_with("qwen-cli-mcp-client") {
        return Some("qwen-code");
    }
    Some(match name {
        "claude-code" => "claude-code",
        "gemini-cli-mcp-client" => "gemini-cli",
        "antigravity-client" => "antigravity",
        "antigravity-cli" | "agy" => "antigravity-cli",
        "cursor-vscode" => "cursor",
        "Visual-Studio-Code" => "vscode-copilot",
        "copilot-cli" | "GitHub Copilot CLI" | "github-copilot-cli" => "copilot-cli",
        "JetBrains Client" | "IntelliJ IDEA" | "PyCharm" => "jetbrains-copilot",
        "Codex" | "codex-mcp-client" => "codex",
        "Kilo Code" => "kilo",
        "Kiro CLI" => "kiro",
        "Pi CLI" | "Pi Coding Agent" => "pi",
        "omp-coding-agent" => "omp",
        "Zed" | "zed" => "zed",
        "qwen-code" => "qwen-code",
        "kimi-code" | "kimi" | "Kimi Code" => "kimi",
        _ => return None,
    })
}

/// The server and CLI detection of 1.0.169: MCP client name, `CONTEXT_MODE_PLATFORM`,
/// environment variables, then config directories in HOME; Claude Code otherwise.
pub fn detect_platform(client_name: Option<&str>) -> (&'static str, Confidence) {
    if let Some(p) = client_name.and_then(platform_for_client) {
        return (p, Confidence::High);
    }
    if let Some(p) = env_nonempty("CONTEXT_MODE_PLATFORM").and_then(|v| KNOWN_PLATFORMS.iter().copied().find(|k| *k == v)) {
        return (p, Confidence::High);
    }
    const ENV: &[(&str, &[&str])] = &[
        ("claude-code", &["CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PROJECT_DIR", "CLAUDE_SESSION_ID"]),
        ("antigravity", &["ANTIGRAVITY_CLI_ALIAS"]),
        ("cursor", &["CURSOR_CWD", "CURSOR_TRACE_ID", "CURSOR_CLI"]),
        ("kilo", &["KILO", "KILO_PID"]),
        ("opencode", &["OPENCODE_PROJECT_DIR", "OPENCODE_CLIENT", "OPENCODE_TERMINAL", "OPENCODE", "OPENCODE_PID"]),
        ("zed", &["ZED_SESSION_ID", "ZED_TERM"]),
        ("codex", &["CODEX_THREAD_ID", "CODEX_CI"]),
        ("gemini-cli", &["GEMINI_PROJECT_DIR", "GEMINI_CLI"]),
        ("vscode-copilot", &["VSCODE_CWD", "VSCODE_PID"]),
        ("jetbrains-copilot", &["IDEA_INITIAL_DIRECTORY"]),
        ("qwen-code", &["QWEN_PROJECT_DIR"]),
        ("omp", &["PI_CODING_AGENT_DIR"]),
        ("pi", &["PI_CONFIG_DIR", "PI_SESSION_FILE", "PI_COMPILED", "PI_CODING_AGENT"]),
    ];
    if let Some((p, _)) = ENV.iter().find(|(_, vars)| vars.iter().any(|v| env_nonempty(v).is_some())) {
        return (p, Confidence::High);
    }
    let home = super::paths::home_dir();
    const DIRS: &[(&str, &str)] = &[
        (".claude", "claude-code"),
        (".gemini", "gemini-cli"),
        (".codex", "codex"),
        (".kiro", "kiro"),
        (".omp", "omp"),
        (".pi", "pi"),
        (".qwen", "qwen-code"),
        (".kimi-code", "kimi"),
        (".cursor", "cursor"),
        (".config/kilo", "kilo"),
        (".config/JetBrains", "jetbrains-copilot"),
        (".config/opencode", "opencode"),
        (".config/zed", "zed"),
    ];
    if let Some((_, p)) = DIRS.iter().find(|(d, _)| home.join(d).is_dir()) {
        return (p, Confidence::Medium);
    }
    ("claude-code", Confidence::Low)
}
