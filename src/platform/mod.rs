//! The hosts we integrate with: their ids, where they keep config, what they call our
//! tools, and how to tell from the environment which one is running us.

pub mod detect;
pub mod paths;
pub mod setup;

/// How a host names an MCP tool of ours (`ctx_execute` → what the model sees).
pub fn tool_name(platform: &str, tool: &str) -> String {
    match platform {
        "gemini-cli" | "antigravity" | "kimi" | "qwen-code" => format!("mcp__context-mode__{tool}"),
        "antigravity-cli" => format!("context-mode/{tool}"),
        "opencode" | "kilo" | "vscode-copilot" | "jetbrains-copilot" | "copilot-cli" => format!("context-mode_{tool}"),
        "kiro" => format!("@context-mode/{tool}"),
        "zed" => format!("mcp:context-mode:{tool}"),
        "cursor" | "codex" | "openclaw" | "pi" => tool.to_string(),
        // claude-code, and anything unknown, gets the plugin naming.
        _ => format!("mcp__plugin_context-mode_context-mode__{tool}"),
    }
}

/// The platforms whose hooks we serve, with the events each one maps in
/// `context-mode hook <platform> <event>`.
pub const HOOK_DISPATCH: &[(&str, &[&str])] = &[
    ("claude-code", &["pretooluse", "posttooluse", "precompact", "sessionstart", "userpromptsubmit", "stop"]),
    ("qwen-code", &["pretooluse", "posttooluse", "precompact", "sessionstart", "userpromptsubmit", "stop"]),
    ("gemini-cli", &["beforeagent", "beforetool", "aftertool", "precompress", "sessionstart", "aftermodel"]),
    ("vscode-copilot", &["pretooluse", "posttooluse", "precompact", "sessionstart"]),
    ("jetbrains-copilot", &["pretooluse", "posttooluse", "precompact", "sessionstart"]),
    ("cursor", &["pretooluse", "posttooluse", "sessionstart", "stop", "afteragentresponse", "beforesubmitprompt"]),
    ("codex", &["pretooluse", "posttooluse", "precompact", "sessionstart", "userpromptsubmit", "stop"]),
    ("kiro", &["pretooluse", "posttooluse", "agentspawn", "userpromptsubmit"]),
    ("copilot-cli", &["pretooluse", "posttooluse", "precompact", "sessionstart", "userpromptsubmit", "stop"]),
    ("antigravity-cli", &["pretooluse", "posttooluse", "stop"]),
    ("kimi", &["pretooluse", "posttooluse", "precompact", "sessionstart", "sessionend", "userpromptsubmit", "stop"]),
];

/// True when `context-mode hook <platform> <event>` has a handler.
pub fn hook_is_mapped(platform: &str, event: &str) -> bool {
    HOOK_DISPATCH.iter().any(|(p, events)| *p == platform && events.contains(&event))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naming_per_host() {
        assert_eq!(tool_name("claude-code", "ctx_search"), "mcp__plugin_context-mode_context-mode__ctx_search");
        assert_eq!(tool_name("omp", "ctx_search"), "mcp__plugin_context-mode_context-mode__ctx_search");
        assert_eq!(tool_name("kiro", "ctx_search"), "@context-mode/ctx_search");
        assert_eq!(tool_name("codex", "ctx_search"), "ctx_search");
    }

    #[test]
    fn dispatch_is_case_sensitive() {
        assert!(hook_is_mapped("cursor", "pretooluse"));
        assert!(!hook_is_mapped("cursor", "preToolUse"));
        assert!(hook_is_mapped("qwen-code", "stop"));
    }
}
