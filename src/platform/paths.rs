//! Where each host keeps its configuration, and the environment variables that move it.

use std::path::{Path, PathBuf};

/// The per-platform option object of 1.0.169's session helpers (`CLAUDE_OPTS`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlatformOpts {
    /// Export name in `hooks/session-helpers.mjs`.
    pub name: &'static str,
    /// Config dir under HOME, `/`-separated.
    pub config_dir: &'static str,
    pub config_dir_env: Option<&'static str>,
    pub project_dir_env: Option<&'static str>,
    pub session_id_env: Option<&'static str>,
}

const fn opts(
    name: &'static str,
    config_dir: &'static str,
    config_dir_env: Option<&'static str>,
    project_dir_env: Option<&'static str>,
    session_id_env: Option<&'static str>,
) -> PlatformOpts {
    PlatformOpts { name, config_dir, config_dir_env, project_dir_env, session_id_env }
}

pub const CLAUDE: PlatformOpts = opts("CLAUDE_OPTS", ".claude", Some("CLAUDE_CONFIG_DIR"), Some("CLAUDE_PROJECT_DIR"), Some("CLAUDE_SESSION_ID"));
pub const GEMINI: PlatformOpts = opts("GEMINI_OPTS", ".gemini", Some("GEMINI_CLI_HOME"), Some("GEMINI_PROJECT_DIR"), None);
pub const ANTIGRAVITY_CLI: PlatformOpts = opts("ANTIGRAVITY_CLI_OPTS", ".gemini", None, None, None);
pub const VSCODE: PlatformOpts = opts("VSCODE_OPTS", ".vscode", None, Some("VSCODE_CWD"), None);
pub const COPILOT: PlatformOpts = opts("COPILOT_OPTS", ".copilot", Some("COPILOT_HOME"), None, None);
pub const CURSOR: PlatformOpts = opts("CURSOR_OPTS", ".cursor", None, Some("CURSOR_CWD"), Some("CURSOR_SESSION_ID"));
pub const CODEX: PlatformOpts = opts("CODEX_OPTS", ".codex", Some("CODEX_HOME"), None, None);
pub const KIRO: PlatformOpts = opts("KIRO_OPTS", ".kiro", None, None, None);
pub const KIMI: PlatformOpts = opts("KIMI_OPTS", ".kimi-code", Some("KIMI_CODE_HOME"), None, None);
pub const JETBRAINS: PlatformOpts = opts("JETBRAINS_OPTS", ".config/JetBrains", None, Some("IDEA_INITIAL_DIRECTORY"), None);
pub const QWEN: PlatformOpts = opts("QWEN_OPTS", ".qwen", None, Some("QWEN_PROJECT_DIR"), None);

pub const ALL_OPTS: &[PlatformOpts] = &[CLAUDE, GEMINI, ANTIGRAVITY_CLI, VSCODE, COPILOT, CURSOR, CODEX, KIRO, KIMI, JETBRAINS, QWEN];

/// Options by short key (`claude`, `gemini`, …) or export name (`CLAUDE_OPTS`).
pub fn opts_by_key(key: &str) -> Option<PlatformOpts> {
    let wanted = key.to_ascii_lowercase().replace('-', "_");
    let wanted = wanted.trim_end_matches("_opts");
    // `qwen_local`: the option object private to 1.0.169's qwen-code stop hook.
    let wanted = if wanted == "qwen_local" { "qwen" } else { wanted };
    ALL_OPTS.iter().copied().find(|o| o.name.trim_end_matches("_OPTS").eq_ignore_ascii_case(wanted))
}

/// Options of the host behind a platform id.
pub fn opts_for_platform(platform: &str) -> PlatformOpts {
    match platform {
        "gemini-cli" | "antigravity" => GEMINI,
        "antigravity-cli" => ANTIGRAVITY_CLI,
        "vscode-copilot" => VSCODE,
        "copilot-cli" => COPILOT,
        "cursor" => CURSOR,
        "codex" => CODEX,
        "kiro" => KIRO,
        "kimi" => KIMI,
        "jetbrains-copilot" => JETBRAINS,
        _ => CLAUDE,
    }
}

/// A non-empty environment variable.
pub fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The user's home directory as Node's `os.homedir()` reports it.
pub fn home_dir() -> PathBuf {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    if let Some(h) = env_nonempty(var) {
        return PathBuf::from(h);
    }
    std::env::home_dir().unwrap_or_else(|| PathBuf::from("."))
}

/// Node's `os.tmpdir()`: `TMPDIR` (or TMP/TEMP), trailing separator removed, else `/tmp`.
pub fn temp_dir() -> PathBuf {
    if cfg!(windows) {
        return std::env::temp_dir();
    }
    for var in ["TMPDIR", "TMP", "TEMP"] {
        if let Some(mut t) = env_nonempty(var) {
            while t.len() > 1 && t.ends_with('/') {
                t.pop();
            }
            return PathBuf::from(t);
        }
    }
    PathBuf::from("/tmp")
}

/// `path.join(base, rest)`: appends and normalises `.`/`..` and repeated separators.
pub fn join_normalized(base: &Path, rest: &str) -> PathBuf {
    let sep = std::path::MAIN_SEPARATOR;
    let joined = if rest.is_empty() { base.to_string_lossy().into_owned() } else { format!("{}{sep}{rest}", base.to_string_lossy()) };
    normalize(&joined)
}

/// Lexical normalisation as Node's `path.normalize` does it (no file system access).
pub fn normalize(p: &str) -> PathBuf {
    let is_sep = |c: char| c == '/' || (cfg!(windows) && c == '\\');
    let absolute = p.starts_with(is_sep);
    let mut parts: Vec<&str> = Vec::new();
    for part in p.split(is_sep) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let sep = std::path::MAIN_SEPARATOR.to_string();
    let body = parts.join(&sep);
    PathBuf::from(match (absolute, body.is_empty()) {
        (true, _) => format!("{sep}{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    })
}

/// `resolveConfigDir(opts)`: the env override (with `~` expanded, otherwise verbatim),
/// else `HOME/<configDir>`.
pub fn resolve_config_dir(o: &PlatformOpts) -> PathBuf {
    if let Some(value) = o.config_dir_env.and_then(env_nonempty) {
        return expand_tilde(&value);
    }
    join_normalized(&home_dir(), o.config_dir)
}

/// `~`, `~/x`, `~\x` and `~x` are taken relative to HOME; other values are kept as written.
pub fn expand_tilde(value: &str) -> PathBuf {
    match value.strip_prefix('~') {
        Some(rest) => {
            let rest = rest.strip_prefix('/').or_else(|| rest.strip_prefix('\\')).unwrap_or(rest);
            join_normalized(&home_dir(), rest)
        }
        None => PathBuf::from(value),
    }
}

/// `<configDir>/context-mode` for a platform.
pub fn context_mode_dir(o: &PlatformOpts) -> PathBuf {
    resolve_config_dir(o).join("context-mode")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_like_node() {
        assert_eq!(normalize("/a//b/./c/../d/"), PathBuf::from("/a/b/d"));
        assert_eq!(normalize("a/../.."), PathBuf::from(".."));
        assert_eq!(normalize(""), PathBuf::from("."));
    }

    #[test]
    fn opts_lookup() {
        assert_eq!(opts_by_key("claude"), Some(CLAUDE));
        assert_eq!(opts_by_key("ANTIGRAVITY_CLI_OPTS"), Some(ANTIGRAVITY_CLI));
        assert_eq!(opts_by_key("antigravity-cli"), Some(ANTIGRAVITY_CLI));
        assert_eq!(opts_by_key("nope"), None);
    }
}

/// Workspace variables a host sets for the processes it starts, by platform.
fn workspace_vars(platform: &str) -> &'static [&'static str] {
    match platform {
        "claude-code" => &["CLAUDE_PROJECT_DIR"],
        "gemini-cli" => &["GEMINI_PROJECT_DIR"],
        "cursor" => &["CURSOR_CWD"],
        "opencode" => &["OPENCODE_PROJECT_DIR"],
        "vscode-copilot" => &["VSCODE_CWD"],
        "jetbrains-copilot" => &["IDEA_INITIAL_DIRECTORY"],
        "qwen-code" => &["QWEN_PROJECT_DIR"],
        "omp" => &["PI_CODING_AGENT_DIR"],
        "pi" => &["PI_WORKSPACE_DIR", "PI_PROJECT_DIR"],
        _ => &[],
    }
}

/// A plugin's own install directory is never the user's project.
fn is_plugin_install(dir: &str) -> bool {
    let d = dir.replace('\\', "/");
    [".claude/plugins/cache", ".claude/plugins/marketplaces", ".codex/plugins/cache", ".codex/plugins/marketplaces"].iter().any(|p| d.contains(p))
}

/// The project an MCP server works for: the host's workspace variable, then
/// `CONTEXT_MODE_PROJECT_DIR`, then `$PWD`, then the process's working directory.
pub fn server_project_dir(platform: &str) -> String {
    let named = workspace_vars(platform).iter().copied().chain(["CONTEXT_MODE_PROJECT_DIR"]);
    for var in named {
        if let Some(dir) = env_nonempty(var).filter(|d| !is_plugin_install(d)) {
            return dir;
        }
    }
    if let Some(pwd) = env_nonempty("PWD").filter(|d| Path::new(d).is_dir()) {
        return pwd;
    }
    crate::hook::payload::process_cwd()
}
