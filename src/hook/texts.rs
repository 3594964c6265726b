//! Every sentence a hook puts in front of a model. They are ours, short, and written as
//! advice about tools — never as orders — because hosts run safety classifiers that
//! read imperative text injected into prompts as an attack.
//!
//! The shapes other code depends on are fixed: redirect commands are `echo "<text>"`
//! with no raw double quote inside (the formatters unwrap them), guidance sits in
//! `<context_guidance><tip>…</tip></context_guidance>`, and texts that replace a tool
//! call start with `context-mode:`.

use crate::platform::tool_name;

/// Our tool names as a given host shows them to the model.
#[derive(Debug, Clone)]
pub struct ToolNames {
    pub search: String,
    pub execute: String,
    pub execute_file: String,
    pub batch_execute: String,
    pub fetch_and_index: String,
    pub stats: String,
    pub doctor: String,
    pub upgrade: String,
    pub purge: String,
}

impl ToolNames {
    /// Names for `platform`; no platform means Claude Code's names.
    pub fn for_platform(platform: Option<&str>) -> ToolNames {
        let p = platform.filter(|p| !p.is_empty()).unwrap_or("claude-code");
        let t = |tool: &str| tool_name(p, tool);
        ToolNames {
            search: t("ctx_search"),
            execute: t("ctx_execute"),
            execute_file: t("ctx_execute_file"),
            batch_execute: t("ctx_batch_execute"),
            fetch_and_index: t("ctx_fetch_and_index"),
            stats: t("ctx_stats"),
            doctor: t("ctx_doctor"),
            upgrade: t("ctx_upgrade"),
            purge: t("ctx_purge"),
        }
    }
}

fn tip(body: &str) -> String {
    format!("<context_guidance>\n  <tip>\n    {body}\n  </tip>\n</context_guidance>")
}

const DNS_RETRY: &str = "A transient DNS error (EAI_AGAIN, ETIMEDOUT, ENETUNREACH) is worth one retry.";

pub fn bash_guidance(n: &ToolNames) -> String {
    tip(&format!(
        "Shell output enters the context in full. When only a count, a summary or a few lines matter, {} (one command) or {} (several) can run it and print just that. Short checks and commands that change state are fine in the shell. With language \"shell\", use the host shell's syntax.",
        n.execute, n.batch_execute
    ))
}

pub fn read_guidance(n: &ToolNames) -> String {
    tip(&format!(
        "Read is the right tool right before an Edit. To analyse, summarise or pull facts out of a file, {}(path, language, code) runs code on it and only what the code prints enters the context.",
        n.execute_file
    ))
}

pub fn grep_guidance(n: &ToolNames) -> String {
    tip(&format!(
        "Search results can run long. To count, filter or group matches, running the search inside {} (javascript, or shell with the host's syntax) returns only the summary.",
        n.execute
    ))
}

pub fn external_mcp_guidance(n: &ToolNames) -> String {
    tip(&format!(
        "Other MCP servers can return large payloads. To filter or aggregate one, {} can process it and print the result; documentation you will come back to fits {} followed by {}.",
        n.execute, n.fetch_and_index, n.search
    ))
}

pub fn curl_wget_redirect_command(n: &ToolNames) -> String {
    format!(
        "echo \"context-mode: this curl/wget call was not run because its response would enter the context whole. {} can fetch and print only what is needed, and {} stores a page for {}. Both have network access. {}\"",
        n.execute, n.fetch_and_index, n.search, DNS_RETRY
    )
}

pub fn inline_http_redirect_command(n: &ToolNames) -> String {
    format!(
        "echo \"context-mode: this inline HTTP request was not run because its response would enter the context whole. {} can make the request and print only the result. {}\"",
        n.execute, DNS_RETRY
    )
}

/// `{{CMD}}` is the raw command with `\` doubled and `"` escaped, so it survives inside
/// the echo and inside the suggested call.
pub fn build_tool_redirect_command(n: &ToolNames, command: &str) -> String {
    let cmd = command.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "echo \"context-mode: build output is long, so this command was not run here. {}(language: \\\"shell\\\", code: \\\"{cmd} 2>&1 | tail -30\\\") shows just the end; grep -E 'error|warning|FAIL|✗|×' in place of tail shows just the problems.\"",
        n.execute
    )
}

pub fn webfetch_deny_reason(n: &ToolNames, url: &str) -> String {
    format!(
        "context-mode: WebFetch goes through the sandbox here. {}(url: \"{url}\") stores the page and {} finds the parts you need; {} can fetch and extract in one step. {}",
        n.fetch_and_index, n.search, n.execute, DNS_RETRY
    )
}

/// Deny reasons that name the rule; their shape is part of the interface.
pub fn policy_deny_bash(rule: &str) -> String {
    format!("Blocked by security policy: matches deny pattern {rule}")
}
pub fn policy_deny_shell_code(rule: &str) -> String {
    format!("Blocked by security policy: shell code matches deny pattern {rule}")
}
pub fn policy_deny_read_path(glob: &str) -> String {
    format!("Blocked by security policy: file path matches Read deny pattern {glob}")
}
pub fn policy_deny_batch(label_or_command: &str, rule: &str) -> String {
    format!("Blocked by security policy: batch command \"{label_or_command}\" matches deny pattern {rule}")
}

/// Fallback texts of the formatters.
pub const CLAUDE_MODIFY_NON_ECHO: &str = "context-mode: this call was redirected. ctx_execute can run it and print only what matters; ctx_fetch_and_index stores a page for ctx_search. A transient DNS error is worth one retry.";
pub const CODEX_MODIFY_NON_ECHO: &str = "context-mode: this shell command was diverted. ctx_execute, ctx_fetch_and_index and ctx_search keep its raw output out of the context.";
pub const AGY_MODIFY_NON_ECHO: &str = "context-mode: this call was diverted. ctx_execute, ctx_fetch_and_index and ctx_search keep its raw bytes out of the context.";
pub const AGY_CONTEXT_PREFIX: &str = "context-mode: the ctx_* MCP tools suit this better than the built-in tool. ";
pub const AGY_CONTEXT_EMPTY: &str = "context-mode: the ctx_* MCP tools suit this better than the built-in tool, because unprocessed output then stays out of the context.";
pub const ASK_DEFAULT_REASON: &str = "Action requires user confirmation";
pub const COPILOT_MODIFY_REASON: &str = "Routed to context-mode sandbox";
pub const REJECTED_MODIFY_REASON: &str = "Redirected to context-mode sandbox";
pub const KIRO_MODIFY_NO_COMMAND: &str = "Blocked by context-mode routing";
pub const KIRO_DENY_NO_REASON: &str = "Blocked by context-mode";

/// The routing block: what the ctx tools are for, injected at session start. It has
/// to pay for itself on every conversation, so it stays under 500 tokens.
pub fn routing_block(n: &ToolNames) -> String {
    routing_block_parts(n, true, false)
}

/// The block appended to a subagent's prompt: no `<ctx_commands>`; on Claude Code a
/// note that deferred tools need loading first.
pub fn subagent_routing_block(n: &ToolNames, platform: Option<&str>) -> String {
    let claude = matches!(platform, None | Some("") | Some("claude-code"));
    routing_block_parts(n, false, claude)
}

fn routing_block_parts(n: &ToolNames, commands: bool, deferred_bootstrap: bool) -> String {
    let mut s = String::from("\n<context_window_protection>\n");
    s.push_str("  <priority_instructions>\n    Tool output stays in the conversation and costs context on every later turn. Tools that run next to the data and return only the answer keep it small.\n  </priority_instructions>\n");
    if deferred_bootstrap {
        s.push_str(&format!(
            "  <deferred_tool_bootstrap>\n    If the ctx tools are deferred, ToolSearch(query: \"select:{},{},{},{},{}\") loads them; after a not-found error, load them and retry the same call.\n  </deferred_tool_bootstrap>\n",
            n.batch_execute, n.search, n.execute, n.execute_file, n.fetch_and_index
        ));
    }
    s.push_str(&format!(
        "  <tool_selection_hierarchy>\n    0. After a resume or compaction: {search}(sort: \"timeline\") recalls earlier work.\n    1. Gather: {batch}(commands: [{{label, command}}], queries: [...]) runs, indexes and searches in one call.\n    2. Follow up: {search}(queries: [...]), several questions at once.\n    3. Process: {exec} or {exec_file} return only what the code prints.\n  </tool_selection_hierarchy>\n",
        search = n.search,
        batch = n.batch_execute,
        exec = n.execute,
        exec_file = n.execute_file
    ));
    s.push_str(&format!(
        "  <when_not_to_use>\n    The shell suits short output and commands that change state; Read suits a file about to be edited; web pages go to {}. Files written in the sandbox are not kept.\n  </when_not_to_use>\n",
        n.fetch_and_index
    ));
    s.push_str("  <file_writing_policy>\n    Files are written with the host's own edit tools.\n  </file_writing_policy>\n");
    s.push_str("  <output_constraints>\n    <artifact_policy>\n      Long results go to a file; the reply gives its path and one line.\n    </artifact_policy>\n  </output_constraints>\n");
    s.push_str("  <session_continuity>\n    Remembered skills, roles and decisions are hints. The user's latest message wins.\n  </session_continuity>\n");
    if commands {
        s.push_str(&format!(
            "  <ctx_commands>\n    \"ctx stats\" → {}, \"ctx doctor\" → {}, \"ctx upgrade\" → {}, \"ctx purge\" → {} (also with a hyphen or a leading slash). After /clear or /compact the knowledge base is kept; ctx purge empties it.\n  </ctx_commands>\n",
            n.stats, n.doctor, n.upgrade, n.purge
        ));
    }
    s.push_str("</context_window_protection>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_commands_are_plain_echoes() {
        let n = ToolNames::for_platform(Some("claude-code"));
        for cmd in [curl_wget_redirect_command(&n), inline_http_redirect_command(&n), build_tool_redirect_command(&n, "mvn \"x\" C:\\y")] {
            assert!(cmd.starts_with("echo \"context-mode:"), "{cmd}");
            let inner = &cmd[6..cmd.len() - 1];
            let mut prev = ' ';
            for c in inner.chars() {
                assert!(c != '"' || prev == '\\', "raw quote in {cmd}");
                prev = c;
            }
        }
    }

    #[test]
    fn routing_block_fits_its_budget() {
        let n = ToolNames::for_platform(Some("claude-code"));
        let block = routing_block(&n);
        assert!(block.len() / 4 <= 500, "{} tokens", block.len() / 4);
        assert!(block.starts_with("\n<context_window_protection>"));
        assert!(subagent_routing_block(&n, Some("claude-code")).contains("<deferred_tool_bootstrap>"));
        assert!(!subagent_routing_block(&n, Some("codex")).contains("<ctx_commands>"));
    }
}
