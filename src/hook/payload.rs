//! What a hook payload tells us: the session, the project, the tool and its input.
//!
//! Every rule follows 1.0.169, including JS truthiness, so a session keeps the same id
//! (and therefore the same marker files and database rows) whichever implementation
//! handled the previous hook.

use crate::jsjson::{js_string, truthy};
use crate::platform::paths::{env_nonempty, PlatformOpts};
use serde_json::{Map, Value};

/// A payload field had a type we cannot work with.
#[derive(Debug, thiserror::Error)]
#[error("TypeError: {0}")]
pub struct PayloadTypeError(pub String);

/// `getSessionId(input, opts)`: transcript UUID, `conversation_id`, `sessionId`,
/// `session_id`, the platform's env var, then `pid-<ppid>`. The value is returned as
/// the payload holds it (a number stays a number).
pub fn session_id(input: &Value, opts: &PlatformOpts) -> Result<Value, PayloadTypeError> {
    if let Some(t) = input.get("transcript_path").filter(|v| truthy(v)) {
        let Value::String(path) = t else {
            return Err(PayloadTypeError("transcript_path must be a string".into()));
        };
        if let Some(uuid) = transcript_uuid(path) {
            return Ok(Value::String(uuid.to_string()));
        }
    }
    for key in ["conversation_id", "sessionId", "session_id"] {
        if let Some(v) = input.get(key).filter(|v| truthy(v)) {
            return Ok(v.clone());
        }
    }
    if let Some(v) = opts.session_id_env.and_then(env_nonempty) {
        return Ok(Value::String(v));
    }
    Ok(Value::String(format!("pid-{}", parent_pid())))
}

/// The 36 characters of `[a-f0-9-]` right before a trailing `.jsonl`.
fn transcript_uuid(path: &str) -> Option<&str> {
    let stem = path.strip_suffix(".jsonl")?;
    let start = stem.len().checked_sub(36)?;
    let tail = stem.get(start..)?;
    tail.bytes().all(|b| matches!(b, b'a'..=b'f' | b'0'..=b'9' | b'-')).then_some(tail)
}

/// The id as it appears in file names (JS `String(id)`).
pub fn session_key(id: &Value) -> String {
    js_string(id)
}

/// The parent process id, as `process.ppid` reports it.
pub fn parent_pid() -> u32 {
    #[cfg(unix)]
    {
        std::os::unix::process::parent_id()
    }
    #[cfg(not(unix))]
    {
        windows_parent_pid().unwrap_or(0)
    }
}

#[cfg(not(unix))]
fn windows_parent_pid() -> Option<u32> {
    // The hook wrapper passes Node's `process.ppid` when it has it.
    std::env::var("CONTEXT_MODE_HOOK_PPID").ok()?.parse().ok()
}

/// `getInputProjectDir(input, opts)`: `cwd`, the first workspace root, the platform's
/// env var, else the process cwd. A platform without a project env var reads the
/// variable literally named `undefined`, as 1.0.169 does.
pub fn input_project_dir(input: &Value, opts: &PlatformOpts) -> String {
    if let Some(Value::String(cwd)) = input.get("cwd") {
        if !cwd.is_empty() {
            return cwd.clone();
        }
    }
    if let Some(Value::Array(roots)) = input.get("workspace_roots") {
        if let Some(first) = roots.first() {
            return js_string(first);
        }
    }
    env_nonempty(opts.project_dir_env.unwrap_or("undefined")).unwrap_or_else(process_cwd)
}

/// `getProjectDir()`: `CLAUDE_PROJECT_DIR`, else the process cwd.
pub fn env_project_dir() -> String {
    env_nonempty("CLAUDE_PROJECT_DIR").unwrap_or_else(process_cwd)
}

pub fn process_cwd() -> String {
    std::env::current_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| ".".into())
}

/// `tool_input`, with `{}` for null or missing.
pub fn tool_input(input: &Value) -> Value {
    match input.get("tool_input") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v) => v.clone(),
    }
}

/// Host tool names of Antigravity CLI mapped to the Claude names routing knows.
fn agy_tool_name(name: &str) -> &str {
    match name {
        "run_command" => "Bash",
        "view_file" => "Read",
        "grep_search" => "Grep",
        "list_dir" => "LS",
        "web_fetch" | "read_url_content" => "WebFetch",
        "search_web" => "WebSearch",
        other => other,
    }
}

/// `fromAgy(payload)`: an Antigravity CLI payload in Claude's shape.
pub fn from_agy(payload: &Value) -> Value {
    let mut out = Map::new();
    let get = |k: &str| payload.get(k).filter(|v| !v.is_null());
    if let Some(v) = get("conversationId") {
        out.insert("session_id".into(), v.clone());
    }
    if let Some(v) = get("transcriptPath") {
        out.insert("transcript_path".into(), v.clone());
    }
    if let Some(cwd) = agy_project_dir(payload) {
        out.insert("cwd".into(), Value::String(cwd));
    }
    let call = payload.get("toolCall");
    let name = match call.and_then(|c| c.get("name")) {
        Some(Value::String(s)) => agy_tool_name(s).to_string(),
        _ => String::new(),
    };
    out.insert("tool_name".into(), Value::String(name));
    let mut args = match call.and_then(|c| c.get("args")) {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let first = |m: &Map<String, Value>, keys: &[&str]| keys.iter().find_map(|k| m.get(*k).filter(|v| !v.is_null()).cloned());
    let additions = [
        ("command", first(&args, &["CommandLine"])),
        ("url", first(&args, &["URL", "Url"])),
        ("file_path", first(&args, &["AbsolutePath", "FilePath"])),
        ("pattern", first(&args, &["Pattern", "query", "Query"])),
    ];
    for (key, value) in additions {
        if let Some(v) = value {
            if !args.contains_key(key) {
                args.insert(key.into(), v);
            }
        }
    }
    out.insert("tool_input".into(), Value::Object(args));
    let error = payload.get("error");
    let response = match error {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let is_error = matches!(error, Some(Value::String(s)) if !s.is_empty());
    out.insert("tool_response".into(), Value::String(response));
    let mut output = Map::new();
    output.insert("isError".into(), Value::Bool(is_error));
    out.insert("tool_output".into(), Value::Object(output));
    Value::Object(out)
}

/// `getAgyProjectDir(payload)`: `workspace.current_dir`, else the first workspace path.
pub fn agy_project_dir(payload: &Value) -> Option<String> {
    if let Some(Value::String(dir)) = payload.get("workspace").and_then(|w| w.get("current_dir")) {
        if !dir.is_empty() {
            return Some(dir.clone());
        }
    }
    match payload.get("workspacePaths") {
        Some(Value::Array(paths)) if !paths.is_empty() => Some(js_string(&paths[0])),
        _ => None,
    }
}

/// `parseAgyPayload`: like `parseStdin`, but malformed input is an empty payload.
pub fn parse_agy_payload(raw: &str) -> Value {
    crate::jsjson::parse_payload(raw).unwrap_or_else(|_| Value::Object(Map::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::paths::CLAUDE;
    use serde_json::json;

    #[test]
    fn transcript_uuid_takes_last_36_chars() {
        assert_eq!(transcript_uuid("/x/0193f5e2-7c1a-4b2e-9f3d-1a2b3c4d5e6f.jsonl"), Some("0193f5e2-7c1a-4b2e-9f3d-1a2b3c4d5e6f"));
        assert_eq!(transcript_uuid("/x/0193F5E2-7C1A-4B2E-9F3D-1A2B3C4D5E6F.jsonl"), None);
        assert_eq!(transcript_uuid("short.jsonl"), None);
    }

    #[test]
    fn session_id_order() {
        let got = session_id(&json!({"session_id": "s", "sessionId": "camel", "conversation_id": ""}), &CLAUDE).unwrap();
        assert_eq!(got, json!("camel"));
        assert!(session_id(&json!({"transcript_path": 5}), &CLAUDE).is_err());
        assert_eq!(session_id(&json!({"session_id": 12}), &CLAUDE).unwrap(), json!(12));
    }

    #[test]
    fn agy_mapping() {
        let v = from_agy(&json!({"toolCall": {"name": "view_file", "args": {"AbsolutePath": "/a"}}, "workspacePaths": ["/wp"]}));
        assert_eq!(
            v,
            json!({"cwd": "/wp", "tool_name": "Read", "tool_input": {"AbsolutePath": "/a", "file_path": "/a"}, "tool_response": "", "tool_output": {"isError": false}})
        );
    }
}
