//! `context-mode upgrade`: (re)writes a host's hook registration, and its MCP server
//! entry where the host keeps it in the same kind of file, so that both run this
//! installed package through absolute paths.
//!
//! The hook entries come from the package's own registration files, read at run time
//! (`hooks/hooks.json` for Claude Code, `configs/<host>/…` for the others), so there is
//! one source of truth. Every `context-mode hook <p> <e>` command in them becomes
//! `"<node>" "<root>/cli.mjs" hook <p> <e>`, and every
//! `node "${CLAUDE_PLUGIN_ROOT}/<file>"` becomes `"<node>" "<root>/<file>"`.
//!
//! Existing files are merged, never replaced: entries whose command mentions
//! context-mode (ours, an older install's, 1.0.169's) are taken out first, then ours
//! are added, so a second run finds nothing to change. A file is backed up as
//! `<file>.bak` before it changes; a JSON file that does not parse is moved to
//! `<file>.broken` and a fresh one is written. Writes go through a temporary file and
//! a rename.

use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::paths;

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("the package file {} is missing or unreadable ({detail}); reinstall context-mode", path.display())]
    Template { path: PathBuf, detail: String },
    #[error("{}: `{key}` is not {expected}; fix it by hand, then run upgrade again", path.display())]
    Shape { path: PathBuf, key: String, expected: &'static str },
    #[error("{}: the context-mode block has a start marker but no end marker; fix it by hand", path.display())]
    Marker { path: PathBuf },
    #[error("{}: cannot turn {command:?} into an absolute command", path.display())]
    Command { path: PathBuf, command: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Written,
    Unchanged,
    Skipped,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileReport {
    pub path: String,
    pub status: Status,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub platform: String,
    pub host: String,
    /// False for an id we do not know (the CLI then exits 1).
    pub known: bool,
    pub dry_run: bool,
    /// Known platform, and no file failed.
    pub ok: bool,
    pub files: Vec<FileReport>,
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart: Option<String>,
}

/// What to write for, and with what.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub platform: &'a str,
    pub package_root: &'a Path,
    pub node: &'a Path,
    /// The project: Cursor and the Copilot IDE hosts keep their hooks in it.
    pub cwd: &'a Path,
    pub dry_run: bool,
}

/// The host's configuration directory (`~/.claude`, `$CODEX_HOME`, …).
#[derive(Debug, Clone)]
pub struct Locations {
    pub config_dir: PathBuf,
}

impl Locations {
    /// From the environment, as the host itself resolves it.
    pub fn resolve(platform: &str) -> Self {
        let config_dir = match platform {
            // Gemini CLI reads ~/.gemini/settings.json (GEMINI_CLI_HOME moves the home
            // Gemini uses, not this folder, so it is not applied here).
            "gemini-cli" => paths::join_normalized(&paths::home_dir(), ".gemini"),
            "qwen-code" => paths::resolve_config_dir(&paths::QWEN),
            "antigravity-cli" => paths::resolve_config_dir(&paths::ANTIGRAVITY_CLI),
            "copilot-cli" => paths::resolve_config_dir(&paths::COPILOT),
            other => paths::resolve_config_dir(&paths::opts_for_platform(other)),
        };
        Locations { config_dir }
    }
}

const KNOWN: &[(&str, &str)] = &[
    ("claude-code", "Claude Code"),
    ("gemini-cli", "Gemini CLI"),
    ("qwen-code", "Qwen Code"),
    ("codex", "Codex"),
    ("cursor", "Cursor"),
    ("vscode-copilot", "VS Code Copilot"),
    ("jetbrains-copilot", "JetBrains Copilot"),
    ("copilot-cli", "Copilot CLI"),
    ("kiro", "Kiro"),
    ("antigravity-cli", "Antigravity CLI"),
    ("kimi", "Kimi Code"),
    ("opencode", "OpenCode"),
    ("kilo", "Kilo Code"),
    ("zed", "Zed"),
    ("pi", "Pi"),
    ("omp", "omp"),
    ("openclaw", "OpenClaw"),
    ("antigravity", "Antigravity"),
];

/// Qwen Code has no folder under `configs/`: it runs the Claude Code scripts through
/// the dispatcher, with Qwen's own tool names in the matchers.
const QWEN_TEMPLATE: &str = r#"{"hooks": {
  "PreToolUse": [{"matcher": "run_shell_command|read_file|read_many_files|grep_search|web_fetch|agent|mcp__context-mode__ctx_execute|mcp__context-mode__ctx_execute_file|mcp__context-mode__ctx_batch_execute|mcp__(?!.*context-mode)", "hooks": [{"type": "command", "command": "context-mode hook qwen-code pretooluse"}]}],
  "PostToolUse": [{"matcher": "run_shell_command|read_file|write_file|edit|glob|grep_search|todo_write|agent|ask_user_question|mcp__", "hooks": [{"type": "command", "command": "context-mode hook qwen-code posttooluse"}]}],
  "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "context-mode hook qwen-code sessionstart"}]}],
  "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "context-mode hook qwen-code precompact"}]}],
  "UserPromptSubmit": [{"matcher": "", "hooks": [{"type": "command", "command": "context-mode hook qwen-code userpromptsubmit"}]}],
  "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "context-mode hook qwen-code stop"}]}]
}}"#;

const KIMI_BEGIN: &str = "# context-mode hooks: start (managed by `context-mode upgrade`; edits inside are replaced)";
const KIMI_BEGIN_PREFIX: &str = "# context-mode hooks: start";
const KIMI_END: &str = "# context-mode hooks: end";

/// Rewrites the host's registration; every file's outcome is in the report.
pub fn upgrade(req: &Request, loc: &Locations) -> Report {
    let host = KNOWN.iter().find(|(id, _)| *id == req.platform).map(|(_, name)| name.to_string());
    let mut report = Report {
        platform: req.platform.to_string(),
        host: host.clone().unwrap_or_else(|| req.platform.to_string()),
        known: host.is_some(),
        dry_run: req.dry_run,
        ok: false,
        files: Vec::new(),
        notes: Vec::new(),
        restart: None,
    };
    let Some(host) = host else {
        let ids: Vec<&str> = KNOWN.iter().map(|(id, _)| *id).collect();
        report.notes.push(format!("unknown platform {:?}; use one of: {}", req.platform, ids.join(", ")));
        return report;
    };
    let mut run = Run { req, backed_up: HashSet::new() };
    let cfg = &loc.config_dir;
    let cwd = req.cwd;
    let template = |rel: &str| TemplateSource::File(req.package_root.join(rel));
    match req.platform {
        "claude-code" => report.files.push(run.claude(&cfg.join("settings.json"))),
        "gemini-cli" => {
            report.files.push(run.json_hooks(&cfg.join("settings.json"), template("configs/gemini-cli/settings.json"), Mcp::Register(None)));
        }
        "qwen-code" => report.files.push(run.json_hooks(&cfg.join("settings.json"), TemplateSource::Builtin(QWEN_TEMPLATE), Mcp::Register(None))),
        "codex" => {
            report.files.push(run.json_hooks(&cfg.join("hooks.json"), template("configs/codex/hooks.json"), Mcp::None));
            report.files.push(run.codex_features(&cfg.join("config.toml")));
        }
        "cursor" => report.files.push(run.json_hooks(&cwd.join(".cursor").join("hooks.json"), template("configs/cursor/hooks.json"), Mcp::None)),
        "vscode-copilot" | "jetbrains-copilot" => {
            let t = template(&format!("configs/{}/hooks.json", req.platform));
            report.files.push(run.json_hooks(&cwd.join(".github").join("hooks").join("context-mode.json"), t, Mcp::None));
        }
        "copilot-cli" => {
            report.files.push(run.json_hooks(&cfg.join("hooks").join("context-mode.json"), template("configs/copilot-cli/hooks.json"), Mcp::None));
        }
        "kiro" => report.files.push(run.json_hooks(&cfg.join("agents").join("default.json"), template("configs/kiro/agent.json"), Mcp::FromTemplate)),
        "antigravity-cli" => {
            let dir = cfg.join("config");
            report.files.push(run.json_hooks(&dir.join("hooks.json"), template("configs/antigravity-cli/hooks.json"), Mcp::None));
            let mcp_template = req.package_root.join("configs/antigravity-cli/mcp_config.json");
            let entry = load_template(&TemplateSource::File(mcp_template)).map(|t| mcp_entry_of(&t));
            report.files.push(match entry {
                Ok(entry) => run.json_mcp_only(&dir.join("mcp_config.json"), entry),
                Err(e) => failed(&dir.join("mcp_config.json"), &e),
            });
        }
        "kimi" => report.files.push(run.kimi(&cfg.join("config.toml"), &req.package_root.join("configs/kimi/hooks.json"))),
        "opencode" | "kilo" | "pi" | "omp" | "openclaw" => {
            report.notes.push(format!("{host} loads context-mode in-process as a plugin, not through hook commands: there is nothing to rewrite."));
        }
        "zed" | "antigravity" => {
            let where_ = if req.platform == "zed" { "`context_servers` in ~/.config/zed/settings.json" } else { "`mcpServers` in ~/.gemini/antigravity/mcp_config.json" };
            report.notes.push(format!(
                "{host} runs context-mode over MCP only, with no hooks to rewrite. To register it by hand, add under {where_}: command {}, args [{}].",
                serde_json::to_string(&req.node.to_string_lossy()).unwrap_or_default(),
                serde_json::to_string(&req.package_root.join("start.mjs").to_string_lossy()).unwrap_or_default(),
            ));
        }
        _ => {}
    }
    if let Some(where_) = mcp_kept_elsewhere(req.platform) {
        report.notes.push(format!(
            "The MCP server entry lives in {where_}, which upgrade leaves alone; if it still starts another install, give it command {} and args [{}].",
            serde_json::to_string(&req.node.to_string_lossy()).unwrap_or_default(),
            serde_json::to_string(&req.package_root.join("start.mjs").to_string_lossy()).unwrap_or_default(),
        ));
    }
    if !report.files.is_empty() {
        report.restart = Some(format!("Restart {host} (or start a new session) so it loads the new registration."));
    }
    report.ok = report.known && !report.files.iter().any(|f| f.status == Status::Failed);
    report
}

/// Hosts whose MCP registration is in a file (or store) this command does not edit.
fn mcp_kept_elsewhere(platform: &str) -> Option<&'static str> {
    Some(match platform {
        "claude-code" => "~/.claude.json (`claude mcp add`) or the plugin",
        "codex" => "config.toml under [mcp_servers.context-mode]",
        "cursor" => ".cursor/mcp.json",
        "vscode-copilot" => ".vscode/mcp.json",
        "jetbrains-copilot" => "the IDE's MCP settings",
        "copilot-cli" => "mcp-config.json (`copilot mcp add`)",
        "kimi" => "mcp.json next to config.toml",
        _ => return None,
    })
}

// ------------------------------------------------------------------ commands

/// A path as one shell word in double quotes. POSIX shells expand `$`, `` ` `` and `\`
/// inside double quotes, so those are escaped; Windows paths are only wrapped.
pub fn quote_arg(s: &str) -> String {
    if cfg!(windows) {
        return format!("\"{s}\"");
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn join_rel(root: &Path, rel: &str) -> PathBuf {
    rel.split('/').filter(|s| !s.is_empty()).fold(root.to_path_buf(), |p, s| p.join(s))
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The absolute form of a command from a package registration file, or None when the
/// command has neither known form.
pub fn absolute_command(command: &str, root: &Path, node: &Path) -> Option<String> {
    let node_q = quote_arg(&node.to_string_lossy());
    let c = command.trim();
    if let Some(rest) = c.strip_prefix("context-mode hook ") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        if let [platform, event] = words[..] {
            if is_word(platform) && is_word(event) {
                let cli = quote_arg(&root.join("cli.mjs").to_string_lossy());
                return Some(format!("{node_q} {cli} hook {platform} {event}"));
            }
        }
        return None;
    }
    let rel = c.strip_prefix("node \"${CLAUDE_PLUGIN_ROOT}/")?.strip_suffix('"')?;
    if rel.contains('"') || rel.split('/').any(|s| s == "..") {
        return None;
    }
    Some(format!("{node_q} {}", quote_arg(&join_rel(root, rel).to_string_lossy())))
}

/// True for a command that runs context-mode: it names context-mode, or a file inside
/// this package.
fn runs_context_mode(command: &str, root: &Path) -> bool {
    if command.contains("context-mode") {
        return true;
    }
    let r = root.to_string_lossy();
    let r = r.trim_end_matches(['/', '\\']);
    !r.is_empty() && (command.contains(&format!("{r}/")) || command.contains(&format!("{r}\\")))
}

// ------------------------------------------------------------------ templates

enum TemplateSource {
    File(PathBuf),
    Builtin(&'static str),
}

fn load_template(src: &TemplateSource) -> Result<Map<String, Value>, SetupError> {
    let (path, text) = match src {
        TemplateSource::File(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| SetupError::Template { path: p.clone(), detail: e.to_string() })?;
            (p.clone(), text)
        }
        TemplateSource::Builtin(t) => (PathBuf::from("<built-in qwen-code template>"), t.to_string()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(SetupError::Template { path, detail: "not a JSON object".into() }),
        Err(e) => Err(SetupError::Template { path, detail: e.to_string() }),
    }
}

/// Rewrites every `command` string inside a template value into its absolute form.
fn absolutize(v: &mut Value, root: &Path, node: &Path, template: &Path) -> Result<(), SetupError> {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match (k.as_str(), &*x) {
                    ("command", Value::String(c)) => {
                        let abs = absolute_command(c, root, node).ok_or_else(|| SetupError::Command { path: template.to_path_buf(), command: c.clone() })?;
                        *x = Value::String(abs);
                    }
                    _ => absolutize(x, root, node, template)?,
                }
            }
            Ok(())
        }
        Value::Array(a) => a.iter_mut().try_for_each(|x| absolutize(x, root, node, template)),
        _ => Ok(()),
    }
}

fn template_path(src: &TemplateSource) -> PathBuf {
    match src {
        TemplateSource::File(p) => p.clone(),
        TemplateSource::Builtin(_) => PathBuf::from("<built-in qwen-code template>"),
    }
}

/// The `mcpServers.context-mode` entry of a template, if it has one.
fn mcp_entry_of(t: &Map<String, Value>) -> Option<Map<String, Value>> {
    t.get("mcpServers")?.get("context-mode")?.as_object().cloned()
}

// ------------------------------------------------------------------ JSON edits

/// Takes context-mode's entries out of a `hooks` object (every event); returns how many.
/// Entries are either flat (`{command}`) or grouped (`{matcher, hooks: [{command}]}`).
fn strip_ours(hooks: &mut Map<String, Value>, root: &Path) -> usize {
    let mentions = |e: &Value| ["command", "bash", "powershell"].iter().any(|k| e.get(k).and_then(Value::as_str).is_some_and(|c| runs_context_mode(c, root)));
    let mut removed = 0;
    let mut emptied = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Some(list) = list.as_array_mut() else { continue };
        if list.is_empty() {
            continue;
        }
        list.retain_mut(|entry| {
            if let Some(inner) = entry.get_mut("hooks").and_then(Value::as_array_mut) {
                let before = inner.len();
                inner.retain(|h| !mentions(h));
                removed += before - inner.len();
                return !(before > 0 && inner.is_empty());
            }
            if mentions(entry) {
                removed += 1;
                return false;
            }
            true
        });
        if list.is_empty() {
            emptied.push(event.clone());
        }
    }
    for e in emptied {
        hooks.shift_remove(&e);
    }
    removed
}

/// Merges our hook entries into `doc` after taking old context-mode entries out.
fn merge_hooks(doc: &mut Map<String, Value>, ours: &Map<String, Value>, root: &Path, path: &Path) -> Result<usize, SetupError> {
    if doc.get("hooks").is_some_and(Value::is_null) {
        doc.shift_remove("hooks");
    }
    let hooks = doc.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks.as_object_mut().ok_or_else(|| SetupError::Shape { path: path.into(), key: "hooks".into(), expected: "an object" })?;
    let removed = strip_ours(hooks, root);
    for (event, entries) in ours {
        let list = hooks.entry(event.clone()).or_insert_with(|| Value::Array(Vec::new()));
        let list = list.as_array_mut().ok_or_else(|| SetupError::Shape { path: path.into(), key: format!("hooks.{event}"), expected: "a list" })?;
        list.extend(entries.as_array().cloned().unwrap_or_default());
    }
    Ok(removed)
}

/// Sets `mcpServers.context-mode` to run this package's server, keeping any other keys
/// the user put in that entry (env, timeout, …).
fn register_mcp(doc: &mut Map<String, Value>, template_entry: Option<&Map<String, Value>>, req: &Request, path: &Path) -> Result<(), SetupError> {
    let servers = doc.entry("mcpServers").or_insert_with(|| Value::Object(Map::new()));
    let servers = servers.as_object_mut().ok_or_else(|| SetupError::Shape { path: path.into(), key: "mcpServers".into(), expected: "an object" })?;
    let mut entry = servers.get("context-mode").and_then(Value::as_object).cloned().unwrap_or_default();
    entry.insert("command".into(), Value::String(req.node.to_string_lossy().into_owned()));
    entry.insert("args".into(), Value::Array(vec![Value::String(req.package_root.join("start.mjs").to_string_lossy().into_owned())]));
    for (k, v) in template_entry.into_iter().flatten() {
        if !entry.contains_key(k) {
            entry.insert(k.clone(), v.clone());
        }
    }
    servers.insert("context-mode".into(), Value::Object(entry));
    Ok(())
}

/// JSON with `//` and `/* */` comments and trailing commas, as some hosts accept it,
/// turned into strict JSON. Returns the text and whether anything was dropped.
fn strip_jsonc(text: &str) -> (String, bool) {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.extend_from_slice(&b[start..i]);
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                changed = true;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                changed = true;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(b' ');
            }
            b',' => {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                // A comma before a comment is judged after the comment is gone (second pass).
                if matches!(b.get(j), Some(b'}') | Some(b']')) {
                    changed = true;
                } else {
                    out.push(b',');
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    let s = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    if changed {
        // Comments removed may leave a trailing comma that was hidden behind them.
        let (again, _) = strip_jsonc(&s);
        return (again, true);
    }
    (s, changed)
}

enum Loaded {
    Missing,
    Parsed { doc: Map<String, Value>, had_comments: bool },
    Broken { detail: String },
}

fn load_json(path: &Path) -> Result<Loaded, SetupError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Missing),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(Loaded::Broken { detail: "not UTF-8 text".into() }),
        Err(source) => return Err(SetupError::Read { path: path.into(), source }),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if text.trim().is_empty() {
        return Ok(Loaded::Parsed { doc: Map::new(), had_comments: false });
    }
    let (strict, had_comments) = strip_jsonc(text);
    match serde_json::from_str::<Value>(&strict) {
        Ok(Value::Object(doc)) => Ok(Loaded::Parsed { doc, had_comments }),
        Ok(_) => Ok(Loaded::Broken { detail: "not a JSON object".into() }),
        Err(e) => Ok(Loaded::Broken { detail: e.to_string() }),
    }
}

/// A symlinked config file (dotfile managers) is edited where it points, so the link stays.
fn real_target(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// Writes through a temporary file in the same folder and a rename, keeping the old
/// file's permissions.
fn write_atomic(path: &Path, text: &str) -> Result<(), SetupError> {
    let err = |source| SetupError::Write { path: path.into(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(err)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "config".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        if let Ok(meta) = std::fs::metadata(path) {
            let _ = std::fs::set_permissions(&tmp, meta.permissions());
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

fn failed(path: &Path, e: &SetupError) -> FileReport {
    FileReport { path: path.display().to_string(), status: Status::Failed, reason: e.to_string(), backup: None }
}

fn pretty(doc: &Map<String, Value>) -> String {
    let mut s = serde_json::to_string_pretty(doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

fn event_list(ours: &Map<String, Value>) -> String {
    ours.keys().cloned().collect::<Vec<_>>().join(", ")
}

// ------------------------------------------------------------------ TOML edits

/// A TOML string: a literal string when the text allows, else an escaped basic string.
fn toml_string(s: &str) -> String {
    if !s.contains('\'') && !s.chars().any(char::is_control) {
        return format!("'{s}'");
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn toml_value(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(toml_string(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn toml_key(k: &str) -> String {
    if is_word(k) {
        k.to_string()
    } else {
        toml_string(k)
    }
}

/// The text before an unquoted `#`.
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

fn is_header(line: &str) -> bool {
    line.trim_start().starts_with('[')
}

/// Takes out `[[hooks]]` tables whose command runs context-mode (1.0.169 wrote them
/// without markers). A removed table's trailing comments and blank lines are kept.
fn strip_toml_hook_tables(text: &str, root: &Path) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    let mut i = 0;
    while i < lines.len() {
        if without_comment(lines[i]).trim() != "[[hooks]]" {
            out.push_str(lines[i]);
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while end < lines.len() && !is_header(lines[end]) {
            end += 1;
        }
        let body = &lines[i..end];
        let ours = body.iter().any(|l| {
            let l = without_comment(l);
            l.split_once('=').is_some_and(|(k, v)| k.trim().trim_matches(['"', '\'']) == "command" && runs_context_mode(v, root))
        });
        if ours {
            removed += 1;
            let mut tail = body.len();
            while tail > 1 && {
                let t = body[tail - 1].trim();
                t.is_empty() || t.starts_with('#')
            } {
                tail -= 1;
            }
            // Comments at its end may introduce the next table: they stay.
            if let Some(k) = (tail..body.len()).find(|&k| body[k].trim().starts_with('#')) {
                body[k..].iter().for_each(|l| out.push_str(l));
            }
        } else {
            body.iter().for_each(|l| out.push_str(l));
        }
        i = end;
    }
    (out, removed)
}

/// Makes `[features]` hold `hooks = true`, touching only that line (or adding it).
/// None when the file already says so.
pub fn ensure_features_hooks(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let key_of = |l: &str| without_comment(l).split_once('=').map(|(k, v)| (k.trim().trim_matches(['"', '\'']).to_string(), v.trim().to_string()));
    let header = lines.iter().position(|l| without_comment(l).trim() == "[features]");
    let Some(h) = header else {
        // A dotted key before the first table counts as well.
        let top = lines.iter().take_while(|l| !is_header(l));
        if top.filter_map(|l| key_of(l)).any(|(k, v)| k.replace(' ', "") == "features.hooks" && v == "true") {
            return None;
        }
        let mut out = text.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("[features]\nhooks = true\n");
        return Some(out);
    };
    let end = (h + 1..lines.len()).find(|&i| is_header(lines[i])).unwrap_or(lines.len());
    let newline = if lines[h].ends_with("\r\n") { "\r\n" } else { "\n" };
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match (h + 1..end).find(|&i| key_of(lines[i]).is_some_and(|(k, _)| k == "hooks")) {
        Some(i) if key_of(lines[i]).is_some_and(|(_, v)| v == "true") => return None,
        Some(i) => {
            let indent: String = lines[i].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
            let eol = if lines[i].ends_with("\r\n") { "\r\n" } else if lines[i].ends_with('\n') { "\n" } else { "" };
            out[i] = format!("{indent}hooks = true{eol}");
        }
        None => {
            if !out[h].ends_with('\n') {
                out[h].push_str(newline);
            }
            out.insert(h + 1, format!("hooks = true{newline}"));
        }
    }
    Some(out.concat())
}

/// Puts the managed block in place of the old one, or at the end.
fn place_kimi_block(text: &str, block: &str, root: &Path, path: &Path) -> Result<(String, usize), SetupError> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let begin = lines.iter().position(|l| l.trim_end().starts_with(KIMI_BEGIN_PREFIX));
    match begin {
        Some(b) => {
            let e = (b + 1..lines.len()).find(|&i| lines[i].trim_end() == KIMI_END).ok_or_else(|| SetupError::Marker { path: path.into() })?;
            let (before, r1) = strip_toml_hook_tables(&lines[..b].concat(), root);
            let (after, r2) = strip_toml_hook_tables(&lines[e + 1..].concat(), root);
            Ok((format!("{before}{block}{after}"), r1 + r2))
        }
        None => {
            let (mut out, removed) = strip_toml_hook_tables(text, root);
            if !out.is_empty() {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                if !out.ends_with("\n\n") {
                    out.push('\n');
                }
            }
            out.push_str(block);
            Ok((out, removed))
        }
    }
}

// ------------------------------------------------------------------ per file

struct Run<'a> {
    req: &'a Request<'a>,
    backed_up: HashSet<PathBuf>,
}

impl Run<'_> {
    /// Writes `text` (backing the old file up first, or moving a broken one aside).
    fn commit(&mut self, path: &Path, text: &str, existed: bool, broken: bool) -> Result<Option<String>, SetupError> {
        if self.req.dry_run {
            return Ok(None);
        }
        let mut backup = None;
        if broken {
            let to = sibling(path, ".broken");
            std::fs::rename(path, &to).map_err(|source| SetupError::Write { path: to.clone(), source })?;
            backup = Some(to.display().to_string());
        } else if existed && self.backed_up.insert(path.to_path_buf()) {
            let to = sibling(path, ".bak");
            std::fs::copy(path, &to).map_err(|source| SetupError::Write { path: to.clone(), source })?;
            backup = Some(to.display().to_string());
        }
        write_atomic(path, text)?;
        Ok(backup)
    }

    /// Loads a JSON file, lets `edit` change it, and writes it when it changed.
    fn edit_json(&mut self, shown: &Path, edit: impl FnOnce(&mut Map<String, Value>) -> Result<String, SetupError>) -> FileReport {
        let path = real_target(shown);
        let result = (|| {
            let loaded = load_json(&path)?;
            let (mut doc, existed, broken, had_comments) = match loaded {
                Loaded::Missing => (Map::new(), false, None, false),
                Loaded::Parsed { doc, had_comments } => (doc, true, None, had_comments),
                Loaded::Broken { detail } => (Map::new(), true, Some(detail), false),
            };
            let before = doc.clone();
            let what = edit(&mut doc)?;
            if existed && broken.is_none() && doc == before {
                return Ok((Status::Unchanged, "already registered for this install".to_string(), None));
            }
            let backup = self.commit(&path, &pretty(&doc), existed, broken.is_some())?;
            let mut reason = what;
            if let Some(detail) = broken {
                let verb = if self.req.dry_run { "would be" } else { "was" };
                reason = format!("{reason}; the old file is not valid JSON ({detail}) and {verb} moved to {}.broken", file_name(&path));
            } else if had_comments {
                reason.push_str("; comments in the old file were dropped (the .bak keeps them)");
            }
            if !existed {
                reason = format!("created; {reason}");
            }
            Ok((Status::Written, reason, backup))
        })();
        match result {
            Ok((status, reason, backup)) => FileReport { path: shown.display().to_string(), status, reason, backup },
            Err(e) => failed(shown, &e),
        }
    }

    fn json_hooks(&mut self, path: &Path, source: TemplateSource, mcp: Mcp) -> FileReport {
        let req = self.req;
        let template = match load_template(&source) {
            Ok(t) => t,
            Err(e) => return failed(path, &e),
        };
        let mut ours = match template.get("hooks") {
            Some(Value::Object(h)) => Value::Object(h.clone()),
            _ => return failed(path, &SetupError::Template { path: template_path(&source), detail: "no `hooks` object".into() }),
        };
        if let Err(e) = absolutize(&mut ours, req.package_root, req.node, &template_path(&source)) {
            return failed(path, &e);
        }
        let ours = match ours {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let creating_kiro_agent = req.platform == "kiro" && !real_target(path).exists();
        self.edit_json(path, |doc| {
            if let Some(v) = template.get("version") {
                doc.entry("version").or_insert_with(|| v.clone());
            }
            if creating_kiro_agent {
                // A new agent file replaces Kiro's built-in default agent: keep its tools.
                doc.insert("name".into(), Value::String("default".into()));
                doc.insert("tools".into(), Value::Array(vec![Value::String("*".into())]));
                doc.insert("useLegacyMcpJson".into(), Value::Bool(true));
            }
            let removed = merge_hooks(doc, &ours, req.package_root, path)?;
            let mut what = format!("hooks {}", event_list(&ours));
            match &mcp {
                Mcp::None => {}
                Mcp::Register(entry) => {
                    register_mcp(doc, entry.as_ref(), req, path)?;
                    what.push_str(" and the MCP server");
                }
                Mcp::FromTemplate => {
                    if let Some(entry) = mcp_entry_of(&template) {
                        register_mcp(doc, Some(&entry), req, path)?;
                        what.push_str(" and the MCP server");
                    }
                }
            }
            if removed > 0 {
                what.push_str(&format!(" (replaced {removed} old context-mode entr{})", if removed == 1 { "y" } else { "ies" }));
            }
            Ok(what)
        })
    }

    fn json_mcp_only(&mut self, path: &Path, entry: Option<Map<String, Value>>) -> FileReport {
        let req = self.req;
        self.edit_json(path, |doc| {
            register_mcp(doc, entry.as_ref(), req, path)?;
            Ok("the MCP server".into())
        })
    }

    fn claude(&mut self, path: &Path) -> FileReport {
        let req = self.req;
        let plugin = match load_json(&real_target(path)) {
            Ok(Loaded::Parsed { doc, .. }) => doc
                .get("enabledPlugins")
                .and_then(Value::as_object)
                .and_then(|p| p.iter().find(|(k, v)| k.split('@').next() == Some("context-mode") && v.as_bool() == Some(true)).map(|(k, _)| k.clone())),
            _ => None,
        };
        let Some(plugin) = plugin else {
            return self.json_hooks(path, TemplateSource::File(req.package_root.join("hooks").join("hooks.json")), Mcp::None);
        };
        let mut report = self.edit_json(path, |doc| {
            let removed = match doc.get_mut("hooks").and_then(Value::as_object_mut) {
                Some(h) => strip_ours(h, req.package_root),
                None => 0,
            };
            Ok(format!("removed {removed} context-mode hook entr{}", if removed == 1 { "y" } else { "ies" }))
        });
        let covered = format!("the {plugin} plugin is enabled and its hooks.json registers the hooks");
        match report.status {
            Status::Unchanged => {
                report.status = Status::Skipped;
                report.reason = covered;
            }
            Status::Written => report.reason = format!("{covered}; {}", report.reason),
            _ => {}
        }
        report
    }

    fn codex_features(&mut self, shown: &Path) -> FileReport {
        let path = real_target(shown);
        let result = (|| {
            let (text, existed) = match std::fs::read_to_string(&path) {
                Ok(t) => (t, true),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), false),
                Err(source) => return Err(SetupError::Read { path: path.clone(), source }),
            };
            let Some(new) = ensure_features_hooks(&text) else {
                return Ok((Status::Unchanged, "[features] hooks = true is already set".to_string(), None));
            };
            let backup = self.commit(&path, &new, existed, false)?;
            Ok((Status::Written, format!("{}set [features] hooks = true", if existed { "" } else { "created; " }), backup))
        })();
        match result {
            Ok((status, reason, backup)) => FileReport { path: shown.display().to_string(), status, reason, backup },
            Err(e) => failed(shown, &e),
        }
    }

    fn kimi(&mut self, shown: &Path, template: &Path) -> FileReport {
        let req = self.req;
        let path = real_target(shown);
        let result = (|| {
            let t = load_template(&TemplateSource::File(template.to_path_buf()))?;
            let entries = t.get("hooks").and_then(Value::as_array).ok_or_else(|| SetupError::Template { path: template.into(), detail: "no `hooks` list".into() })?;
            let mut block = format!("{KIMI_BEGIN}\n");
            let mut events = Vec::new();
            for entry in entries {
                let mut entry = entry.clone();
                absolutize(&mut entry, req.package_root, req.node, template)?;
                let obj = entry.as_object().ok_or_else(|| SetupError::Template { path: template.into(), detail: "a hook entry is not an object".into() })?;
                if let Some(e) = obj.get("event").and_then(Value::as_str) {
                    events.push(e.to_string());
                }
                block.push_str("[[hooks]]\n");
                for (k, v) in obj {
                    if let Some(v) = toml_value(v) {
                        block.push_str(&format!("{} = {v}\n", toml_key(k)));
                    }
                }
                block.push('\n');
            }
            block.push_str(KIMI_END);
            block.push('\n');
            let (text, existed) = match std::fs::read_to_string(&path) {
                Ok(t) => (t, true),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), false),
                Err(source) => return Err(SetupError::Read { path: path.clone(), source }),
            };
            let (new, removed) = place_kimi_block(&text, &block, req.package_root, &path)?;
            if existed && new == text {
                return Ok((Status::Unchanged, "already registered for this install".to_string(), None));
            }
            let backup = self.commit(&path, &new, existed, false)?;
            let mut reason = format!("{}[[hooks]] for {}", if existed { "" } else { "created; " }, events.join(", "));
            if removed > 0 {
                reason.push_str(&format!(" (replaced {removed} old context-mode entr{})", if removed == 1 { "y" } else { "ies" }));
            }
            Ok((Status::Written, reason, backup))
        })();
        match result {
            Ok((status, reason, backup)) => FileReport { path: shown.display().to_string(), status, reason, backup },
            Err(e) => failed(shown, &e),
        }
    }
}

enum Mcp {
    None,
    /// Register `context-mode` in this file's `mcpServers`, over the given template entry.
    Register(Option<Map<String, Value>>),
    /// Register it if the template carries an entry.
    FromTemplate,
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::fs;

    /// A scratch folder with a copy of the package's registration files.
    struct Scratch {
        dir: PathBuf,
    }

    impl Scratch {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!("cm-setup-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(dir.join("cfg")).unwrap();
            fs::create_dir_all(dir.join("project")).unwrap();
            Scratch { dir }
        }
        fn pkg(&self) -> PathBuf {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        }
        fn cfg(&self) -> PathBuf {
            self.dir.join("cfg")
        }
        fn run(&self, platform: &str) -> Report {
            self.run_opts(platform, false)
        }
        fn run_opts(&self, platform: &str, dry_run: bool) -> Report {
            let pkg = self.pkg();
            let node = PathBuf::from("/usr/bin/node");
            let cwd = self.dir.join("project");
            let req = Request { platform, package_root: &pkg, node: &node, cwd: &cwd, dry_run };
            upgrade(&req, &Locations { config_dir: self.cfg() })
        }
        fn read(&self, p: &Path) -> String {
            fs::read_to_string(p).unwrap()
        }
        fn json(&self, p: &Path) -> Value {
            serde_json::from_str(&self.read(p)).unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }

    fn commands(v: &Value) -> Vec<String> {
        let mut out = Vec::new();
        fn walk(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => m.iter().for_each(|(k, x)| match x {
                    Value::String(s) if k == "command" => out.push(s.clone()),
                    _ => walk(x, out),
                }),
                Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        walk(v, &mut out);
        out
    }

    #[test]
    fn commands_become_absolute_and_quoted() {
        let root = Path::new("/opt/pkg");
        let node = Path::new("/usr/bin/node");
        assert_eq!(absolute_command("context-mode hook codex pretooluse", root, node).unwrap(), r#""/usr/bin/node" "/opt/pkg/cli.mjs" hook codex pretooluse"#);
        assert_eq!(absolute_command(r#"node "${CLAUDE_PLUGIN_ROOT}/hooks/stop.mjs""#, root, node).unwrap(), r#""/usr/bin/node" "/opt/pkg/hooks/stop.mjs""#);
        assert_eq!(absolute_command("context-mode hook codex", root, node), None);
        assert_eq!(absolute_command("rm -rf /", root, node), None);
        assert_eq!(absolute_command(r#"node "${CLAUDE_PLUGIN_ROOT}/../x.mjs""#, root, node), None);
        if !cfg!(windows) {
            assert_eq!(quote_arg("/a b/$x\"`"), r#""/a b/\$x\"\`""#);
        }
    }

    #[test]
    fn claude_merge_keeps_foreign_hooks_and_keys_and_is_idempotent() {
        let s = Scratch::new("claude");
        let file = s.cfg().join("settings.json");
        let original = json!({
            "permissions": {"allow": ["Bash(ls)"]},
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [
                        {"type": "command", "command": "/home/u/guard.sh"},
                        {"type": "command", "command": "node /home/u/.claude/plugins/cache/context-mode/1.0.169/hooks/pretooluse.mjs"}
                    ]},
                    {"matcher": "", "hooks": [{"type": "command", "command": "context-mode hook claude-code pretooluse"}]}
                ],
                "Notification": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send hi"}]}]
            }
        });
        let original_text = serde_json::to_string_pretty(&original).unwrap();
        fs::write(&file, &original_text).unwrap();

        let r = s.run("claude-code");
        assert!(r.ok, "{r:?}");
        assert_eq!(r.files[0].status, Status::Written, "{r:?}");
        assert!(r.files[0].reason.contains("replaced 2"), "{}", r.files[0].reason);
        assert_eq!(s.read(&sibling(&file, ".bak")), original_text);

        let v = s.json(&file);
        assert_eq!(v["permissions"], original["permissions"]);
        assert_eq!(v["hooks"]["Notification"], original["hooks"]["Notification"]);
        // The foreign guard survives in its group; the old context-mode ones are gone.
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"], json!([{"type": "command", "command": "/home/u/guard.sh"}]));
        let cmds = commands(&v["hooks"]);
        assert!(!cmds.iter().any(|c| c.contains("1.0.169") || c.starts_with("context-mode")), "{cmds:?}");
        let pkg = s.pkg();
        for event in ["PreToolUse", "PostToolUse", "PreCompact", "SessionStart", "UserPromptSubmit", "Stop"] {
            let cs = commands(&v["hooks"][event]);
            assert!(cs.iter().any(|c| c.starts_with("\"/usr/bin/node\" \"") && c.contains(&pkg.join("hooks").to_string_lossy().to_string())), "{event}: {cs:?}");
        }
        assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 1 + 9);

        let bytes = fs::read(&file).unwrap();
        fs::remove_file(sibling(&file, ".bak")).unwrap();
        let again = s.run("claude-code");
        assert_eq!(again.files[0].status, Status::Unchanged, "{again:?}");
        assert_eq!(fs::read(&file).unwrap(), bytes);
        assert!(!sibling(&file, ".bak").exists(), "no backup when nothing changes");
    }

    #[test]
    fn claude_plugin_enabled_removes_ours_and_adds_nothing() {
        let s = Scratch::new("plugin");
        let file = s.cfg().join("settings.json");
        fs::write(
            &file,
            json!({
                "enabledPlugins": {"context-mode@context-mode": true},
                "hooks": {"PreToolUse": [
                    {"matcher": "", "hooks": [{"type": "command", "command": "\"/usr/bin/node\" \"/x/context-mode/hooks/pretooluse.mjs\""}]},
                    {"matcher": "", "hooks": [{"type": "command", "command": "mine.sh"}]}
                ]}
            })
            .to_string(),
        )
        .unwrap();
        let r = s.run("claude-code");
        assert_eq!(r.files[0].status, Status::Written, "{r:?}");
        assert!(r.files[0].reason.contains("hooks.json"), "{}", r.files[0].reason);
        let v = s.json(&file);
        assert_eq!(commands(&v["hooks"]), vec!["mine.sh".to_string()]);
        let again = s.run("claude-code");
        assert_eq!(again.files[0].status, Status::Skipped, "{again:?}");
        assert!(again.ok);
    }

    #[test]
    fn broken_json_is_moved_aside_and_replaced() {
        let s = Scratch::new("broken");
        let file = s.cfg().join("hooks.json");
        fs::write(&file, "{ not json").unwrap();
        let r = s.run("codex");
        assert_eq!(r.files[0].status, Status::Written, "{r:?}");
        assert!(r.files[0].reason.contains(".broken"));
        assert_eq!(s.read(&sibling(&file, ".broken")), "{ not json");
        assert!(!sibling(&file, ".bak").exists());
        let v = s.json(&file);
        assert!(commands(&v).iter().all(|c| c.contains(" hook codex ")));
        assert_eq!(v["hooks"].as_object().unwrap().len(), 6);
    }

    #[test]
    fn jsonc_comments_and_trailing_commas_are_read() {
        let (s, changed) = strip_jsonc("{\n // note\n \"a\": \"x//y\", /* c */ \"b\": [1, 2,],\n}");
        assert!(changed);
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), json!({"a": "x//y", "b": [1, 2]}));
        assert_eq!(strip_jsonc(r#"{"a": "q\"//,}"}"#), (r#"{"a": "q\"//,}"}"#.to_string(), false));
    }

    #[test]
    fn wrong_shapes_fail_without_writing() {
        let s = Scratch::new("shape");
        let file = s.cfg().join("hooks.json");
        fs::write(&file, r#"{"hooks": [1, 2]}"#).unwrap();
        let r = s.run("codex");
        assert_eq!(r.files[0].status, Status::Failed);
        assert!(!r.ok);
        assert_eq!(s.read(&file), r#"{"hooks": [1, 2]}"#);
    }

    #[test]
    fn gemini_registers_mcp_and_keeps_other_servers() {
        let s = Scratch::new("gemini");
        let file = s.cfg().join("settings.json");
        fs::write(&file, json!({"mcpServers": {"other": {"command": "x"}, "context-mode": {"command": "context-mode", "env": {"A": "1"}}}, "theme": "dark"}).to_string()).unwrap();
        let r = s.run("gemini-cli");
        assert!(r.ok, "{r:?}");
        let v = s.json(&file);
        assert_eq!(v["theme"], "dark");
        assert_eq!(v["mcpServers"]["other"], json!({"command": "x"}));
        let start = s.pkg().join("start.mjs").to_string_lossy().into_owned();
        assert_eq!(v["mcpServers"]["context-mode"], json!({"command": "/usr/bin/node", "env": {"A": "1"}, "args": [start]}));
        assert!(commands(&v["hooks"]).iter().all(|c| c.ends_with(&format!("hook gemini-cli {}", c.rsplit(' ').next().unwrap()))));
        assert_eq!(s.run("gemini-cli").files[0].status, Status::Unchanged);
    }

    #[test]
    fn every_hook_platform_writes_then_is_unchanged() {
        for p in ["qwen-code", "codex", "cursor", "vscode-copilot", "jetbrains-copilot", "copilot-cli", "kiro", "antigravity-cli", "kimi"] {
            let s = Scratch::new(&format!("all-{p}"));
            let r = s.run(p);
            assert!(r.ok && r.files.iter().all(|f| f.status == Status::Written), "{p}: {r:?}");
            for f in &r.files {
                let text = s.read(Path::new(&f.path));
                assert!(!text.contains("\"context-mode hook") && !text.contains("'context-mode hook"), "{p}: {text}");
            }
            let again = s.run(p);
            assert!(again.files.iter().all(|f| f.status == Status::Unchanged), "{p}: {again:?}");
            assert!(again.restart.is_some());
        }
    }

    #[test]
    fn dry_run_writes_nothing() {
        let s = Scratch::new("dry");
        let r = s.run_opts("codex", true);
        assert!(r.dry_run && r.files.iter().all(|f| f.status == Status::Written), "{r:?}");
        assert!(!s.cfg().join("hooks.json").exists());
        assert!(!s.cfg().join("config.toml").exists());
    }

    #[test]
    fn platforms_without_files_and_unknown_ids() {
        let s = Scratch::new("none");
        for p in ["opencode", "kilo", "zed", "pi", "omp", "openclaw", "antigravity"] {
            let r = s.run(p);
            assert!(r.ok && r.known && r.files.is_empty() && !r.notes.is_empty(), "{p}: {r:?}");
        }
        let r = s.run("nope");
        assert!(!r.ok && !r.known);
        assert!(r.notes[0].contains("claude-code"));
    }

    #[test]
    fn codex_features_are_added_minimally() {
        assert_eq!(ensure_features_hooks(""), Some("[features]\nhooks = true\n".into()));
        assert_eq!(ensure_features_hooks("model = \"o3\""), Some("model = \"o3\"\n\n[features]\nhooks = true\n".into()));
        assert_eq!(ensure_features_hooks("[features]\nx = 1\n\n[other]\nhooks = false\n"), Some("[features]\nhooks = true\nx = 1\n\n[other]\nhooks = false\n".into()));
        assert_eq!(ensure_features_hooks("[features] # mine\n  hooks = false # off\n"), Some("[features] # mine\n  hooks = true\n".into()));
        assert_eq!(ensure_features_hooks("[features]\nhooks = true # on\n"), None);
        assert_eq!(ensure_features_hooks("features.hooks = true\n[x]\n"), None);

        let s = Scratch::new("codex-toml");
        let toml = s.cfg().join("config.toml");
        fs::write(&toml, "# my config\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\n").unwrap();
        let r = s.run("codex");
        assert_eq!(r.files[1].status, Status::Written, "{r:?}");
        assert_eq!(s.read(&toml), "# my config\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\n\n[features]\nhooks = true\n");
        assert_eq!(s.read(&sibling(&toml, ".bak")), "# my config\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\n");
        assert_eq!(s.run("codex").files[1].status, Status::Unchanged);
    }

    #[test]
    fn kimi_block_is_appended_then_replaced_and_old_tables_go() {
        let s = Scratch::new("kimi");
        let toml = s.cfg().join("config.toml");
        let user = "default_model = \"k2\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"say done\"\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"context-mode hook kimi pretooluse\"\ntimeout = 30\n\n[[hooks]]\nevent = \"PostToolUse\"\ncommand = \"log.sh\"\n";
        fs::write(&toml, user).unwrap();
        let r = s.run("kimi");
        assert_eq!(r.files[0].status, Status::Written, "{r:?}");
        assert!(r.files[0].reason.contains("replaced 1"), "{}", r.files[0].reason);
        let text = s.read(&toml);
        assert!(text.starts_with("default_model = \"k2\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"say done\"\n\n[[hooks]]\nevent = \"PostToolUse\"\ncommand = \"log.sh\"\n\n# context-mode hooks: start"), "{text}");
        assert!(text.ends_with("# context-mode hooks: end\n"));
        assert_eq!(text.matches("[[hooks]]").count(), 2 + 7);
        let cli = s.pkg().join("cli.mjs").to_string_lossy().into_owned();
        assert!(text.contains(&format!("command = '\"/usr/bin/node\" \"{cli}\" hook kimi pretooluse'")), "{text}");
        assert!(text.contains("timeout = 30"));

        // Content after the block stays after it when the block is replaced.
        let edited = text.replace("timeout = 30\n\n# context-mode hooks: end\n", "timeout = 99\n\n# context-mode hooks: end\n\n[ui]\ntheme = \"dark\"\n");
        fs::write(&toml, &edited).unwrap();
        let r = s.run("kimi");
        assert_eq!(r.files[0].status, Status::Written);
        let replaced = s.read(&toml);
        assert_eq!(replaced, format!("{text}\n[ui]\ntheme = \"dark\"\n"));
        assert_eq!(s.run("kimi").files[0].status, Status::Unchanged);

        fs::write(&toml, "# context-mode hooks: start\n[[hooks]]\n").unwrap();
        assert_eq!(s.run("kimi").files[0].status, Status::Failed);
    }

    #[test]
    fn toml_strings() {
        assert_eq!(toml_string(r#""a" b"#), r#"'"a" b'"#);
        assert_eq!(toml_string("it's \"x\"\\"), r#""it's \"x\"\\""#);
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_config_is_edited_in_place() {
        let s = Scratch::new("link");
        let real = s.dir.join("dotfiles-hooks.json");
        fs::write(&real, "{}").unwrap();
        std::os::unix::fs::symlink(&real, s.cfg().join("hooks.json")).unwrap();
        let r = s.run("codex");
        assert!(r.ok, "{r:?}");
        assert!(fs::symlink_metadata(s.cfg().join("hooks.json")).unwrap().file_type().is_symlink());
        assert!(s.read(&real).contains("hook codex pretooluse"));
    }
}
