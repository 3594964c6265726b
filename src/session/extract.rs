//! What a finished tool call tells about the session (PostToolUse): files read and
//! changed, git operations with their messages, tasks, failures, working directory,
//! environment changes, plans, skills, subagents and MCP calls. Event types and
//! categories are 1.0.169's, so either implementation reads the other's log; what goes
//! into `data` is kept short and is masked before it is stored.

use super::redact;
use super::Event;
use crate::text::cut_chars as cut;
use crate::exec::policy::split_command;
use once_cell::sync::Lazy;
use regex::Regex;
use serde_json::{json, Value};

/// Characters of a command, an error excerpt, a response, kept in an event.
const COMMAND_CHARS: usize = 200;
const EXCERPT_CHARS: usize = 1200;
const RESPONSE_CHARS: usize = 300;
/// Serialized MCP arguments above this are stored truncated.
const MCP_PARAMS_BYTES: usize = 2048;


/// Host tool names mapped to Claude Code's (the routing map plus the tools only the
/// session log cares about).
pub fn session_tool_name(name: &str) -> &str {
    match crate::hook::route::canonical_tool(name) {
        "todo_write" | "write_todos" | "update_plan" => "TodoWrite",
        "ask_user_question" => "AskUserQuestion",
        "save_memory" => "Memory",
        "skill" | "activate_skill" => "Skill",
        "exit_plan_mode" => "ExitPlanMode",
        "multi_edit" | "replace" | "str_replace" | "str_replace_based_edit_tool" => "Edit",
        other => other,
    }
}

/// The response as text: a string as is, Claude's Bash object as stdout then stderr,
/// anything else as JSON.
pub fn response_text(response: &Value) -> String {
    match response {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Object(m) if m.contains_key("stdout") || m.contains_key("stderr") => {
            let part = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let (out, err) = (part("stdout"), part("stderr"));
            if err.is_empty() {
                out
            } else if out.is_empty() {
                err
            } else {
                format!("{out}\n{err}")
            }
        }
        // Gemini (`llmContent`), Codex (`output`), MCP-style results: their text.
        Value::Object(m) => ["llmContent", "output", "result", "text", "content", "returnDisplay"]
            .iter()
            .find_map(|k| m.get(*k).and_then(Value::as_str))
            .map(str::to_string)
            .unwrap_or_else(|| crate::jsjson::stringify(response)),
        other => crate::jsjson::stringify(other),
    }
}

/// A shell command as written: Codex sends `["bash", "-lc", "<command>"]`.
fn command_text(args: &Value) -> Option<String> {
    match args.get("command").or_else(|| args.get("cmd")) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(items)) => {
            let words: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script, ..] if ["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"].contains(shell) && flag.starts_with('-') && flag.ends_with('c') => Some(script.to_string()),
                _ => Some(words.join(" ")),
            }
        }
        _ => None,
    }
}

fn flagged_error(input: &Value) -> bool {
    let truthy = |v: Option<&Value>| v.and_then(Value::as_bool).unwrap_or(false);
    let r = input.get("tool_response");
    let o = input.get("tool_output");
    truthy(r.and_then(|r| r.get("is_error"))) || truthy(r.and_then(|r| r.get("isError"))) || truthy(o.and_then(|o| o.get("isError"))) || truthy(o.and_then(|o| o.get("is_error"))) || truthy(r.and_then(|r| r.get("interrupted")))
}

fn str_field<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| v.get(*k).and_then(Value::as_str)).filter(|s| !s.is_empty())
}

/// Instruction files whose reads are project rules.
fn is_rule_file(path: &str) -> bool {
    let p = path.replace('\\', "/");
    let base = p.rsplit('/').next().unwrap_or(&p).to_ascii_lowercase();
    ["claude.md", "agents.md", "agents.override.md", "gemini.md", "qwen.md", "kiro.md", "copilot-instructions.md", "context-mode.mdc"].contains(&base.as_str())
        || p.contains("/.claude/")
        || p.starts_with(".claude/")
}

// ---------------------------------------------------------------- failures

static FAILURE_LINE: Lazy<Regex> = Lazy::new(|| {
    crate::hook::route::shell::js_re(
        r"^\s*(?:(?:error|fatal|panic)(?:\[[A-Za-z0-9_]+\])?:|(?:Error|ERROR|FATAL|Fatal)\b|FAIL(?:ED)?\b|npm ERR!|Traceback \(most recent call last\)|thread '.*' panicked)|\b[A-Z][A-Za-z]*(?:Error|Exception)\b:|\b[1-9][0-9]* (?:failed|failing|errors?)\b|\b(?:[Ee]xit(?:ed)? (?:with )?(?:code|status) [1-9][0-9]*)|command not found|No such file or directory|Permission denied|Segmentation fault|Killed$",
    )
});

/// The lines of `text` that show a failure, if any: what an agent needs to remember
/// about a broken build or test run, not the whole output.
pub fn failure_excerpt(text: &str) -> Option<String> {
    let mut picked: Vec<String> = Vec::new();
    let mut used = 0;
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("context-mode:") || !FAILURE_LINE.is_match(line) {
            continue;
        }
        if used >= EXCERPT_CHARS {
            break;
        }
        let t = cut(t, (EXCERPT_CHARS - used).max(80));
        used += t.len() + 1;
        picked.push(t);
        if picked.len() >= 12 {
            break;
        }
    }
    (!picked.is_empty()).then(|| picked.join("\n"))
}

// ---------------------------------------------------------------- shell commands

/// Words of a simple command, shell-style (quotes and backslashes), without leading
/// `VAR=x` assignments and runners such as `sudo` or `env`.
fn words(segment: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut quote: Option<char> = None;
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                has = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                    has = true;
                }
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    let skip = out.iter().take_while(|w| (w.contains('=') && !w.starts_with('-') && !w.starts_with('=')) || ["sudo", "doas", "env", "exec", "time", "command", "nohup"].contains(&w.as_str())).count();
    out.split_off(skip)
}

const GIT_OPS: &[&str] =
    &["commit", "push", "pull", "merge", "rebase", "checkout", "switch", "branch", "reset", "stash", "cherry-pick", "tag", "revert", "clone", "fetch", "worktree", "add", "restore", "rm", "mv", "init", "am", "apply"];

/// A git invocation in one simple command: `(operation, detail)`.
fn git_call(w: &[String]) -> Option<(String, Option<String>)> {
    let first = w.first()?;
    if first != "git" && !first.ends_with("/git") {
        return None;
    }
    let mut i = 1;
    while i < w.len() && w[i].starts_with('-') {
        // Global options that take a value.
        if ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].contains(&w[i].as_str()) {
            i += 1;
        }
        i += 1;
    }
    let op = w.get(i)?.clone();
    if !GIT_OPS.contains(&op.as_str()) {
        return None;
    }
    let rest = &w[i + 1..];
    let detail = match op.as_str() {
        "commit" => commit_message(rest),
        "checkout" | "switch" | "merge" | "rebase" | "push" | "pull" | "branch" | "tag" | "reset" | "revert" | "cherry-pick" | "clone" => {
            let args: Vec<&str> = rest.iter().map(String::as_str).filter(|a| !a.starts_with('-')).collect();
            (!args.is_empty()).then(|| cut(&args.join(" "), 120))
        }
        _ => None,
    };
    Some((op, detail))
}

fn commit_message(args: &[String]) -> Option<String> {
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if let Some(m) = a.strip_prefix("--message=") {
            return Some(m.to_string());
        }
        if a == "--message" || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('m')) {
            return args.get(i + 1).cloned();
        }
        if let Some(m) = a.strip_prefix("-m").filter(|m| !m.is_empty() && a.starts_with("-m")) {
            return Some(m.to_string());
        }
        i += 1;
    }
    None
}

/// Commands that change the environment a session works in.
fn is_env_change(segment: &str) -> bool {
    static ENV: Lazy<Regex> = Lazy::new(|| {
        crate::hook::route::shell::js_re(
            r"^(?:source\s+\S*activate|\.\s+\S*activate|export\s+[A-Za-z_][A-Za-z0-9_]*=|nvm\s+use|pyenv\s+(?:shell|local|global)|conda\s+activate|rbenv\s+(?:shell|local|global)|npm\s+(?:install|i|ci|uninstall)\b|pip3?\s+install|uv\s+(?:add|pip\s+install|sync)|poetry\s+(?:add|install)|bun\s+(?:install|add)|yarn\s+(?:add|install)|pnpm\s+(?:add|install|i)\b|cargo\s+(?:install|add)|go\s+(?:install|get)|rustup\b|asdf\b|volta\b|deno\s+install|brew\s+install|apt(?:-get)?\s+install)",
        )
    });
    ENV.is_match(segment.trim())
}

fn bash_events(command: &str, response: &str, flagged: bool) -> Vec<Event> {
    let mut out = Vec::new();
    let own_text = command.trim_start().starts_with("echo \"context-mode:") || command.trim_start().starts_with("echo 'context-mode:") || response.trim_start().starts_with("context-mode:");
    for segment in split_command(command) {
        let w = words(&segment);
        if w.first().map(String::as_str) == Some("cd") {
            if let Some(dir) = w.get(1) {
                out.push(Event::new("cwd", "cwd", 2, dir.clone()));
            }
            continue;
        }
        if let Some((op, detail)) = git_call(&w) {
            out.push(match (op.as_str(), detail) {
                ("commit", Some(msg)) => Event::new("git_commit", "git", 2, cut(&msg, 300)),
                (op, Some(d)) => Event::new("git", "git", 2, format!("{op} {d}")),
                (op, None) => Event::new("git", "git", 2, op.to_string()),
            });
            continue;
        }
        if is_env_change(&segment) {
            out.push(Event::new("env", "env", 2, cut(segment.trim(), COMMAND_CHARS)));
        }
    }
    if !own_text {
        let excerpt = failure_excerpt(response).or_else(|| flagged.then(|| cut(response.trim(), EXCERPT_CHARS)).filter(|s| !s.is_empty()));
        if let Some(excerpt) = excerpt {
            out.push(Event::new("error_tool", "error", 2, format!("$ {}\n{excerpt}", cut(command.trim(), COMMAND_CHARS))));
        }
    }
    out
}

// ---------------------------------------------------------------- other tools

/// Files an `apply_patch` call touches: `(event type, path)`.
fn patch_files(patch: &str) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for line in patch.lines() {
        let entry = if let Some(p) = line.strip_prefix("*** Add File: ") {
            ("file_write", p)
        } else if let Some(p) = line.strip_prefix("*** Update File: ").or_else(|| line.strip_prefix("*** Delete File: ")).or_else(|| line.strip_prefix("*** Move to: ")) {
            ("file_edit", p)
        } else {
            continue;
        };
        let item = (entry.0, entry.1.trim().to_string());
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

fn todo_events(input: &Value) -> Vec<Event> {
    let todos = input.get("todos").or_else(|| input.get("plan")).and_then(Value::as_array);
    let Some(todos) = todos else { return Vec::new() };
    let items: Vec<Value> = todos
        .iter()
        .filter_map(|t| {
            let text = str_field(t, &["content", "step", "title", "description", "subject"])?;
            let status = str_field(t, &["status"]).unwrap_or("pending");
            Some(json!({"content": cut(text, 200), "status": status}))
        })
        .collect();
    vec![Event::new("task", "task", 1, crate::jsjson::stringify(&json!({"todos": items})))]
}

/// An MCP call: a one-line summary (no response: it is already in the conversation)
/// and the masked arguments.
fn mcp_events(tool: &str, input: &Value) -> Vec<Event> {
    let short = tool.rsplit("__").next().unwrap_or(tool);
    let first_arg = input.as_object().and_then(|m| m.iter().find(|(k, v)| v.is_string() && !redact::is_secret_key(k)).and_then(|(_, v)| v.as_str())).map(|s| cut(s.lines().next().unwrap_or(""), 100));
    let summary = match first_arg {
        Some(a) if !a.is_empty() => format!("{short}: {a}"),
        _ => short.to_string(),
    };
    let params = redact::mask_json(input);
    let serialized = crate::jsjson::stringify(&json!({"tool_name": tool, "params": params}));
    let call = if serialized.len() > MCP_PARAMS_BYTES {
        crate::jsjson::stringify(&json!({"tool_name": tool, "params_raw": cut(&crate::jsjson::stringify(&params), MCP_PARAMS_BYTES / 2), "truncated": true}))
    } else {
        serialized
    };
    vec![Event::new("mcp", "mcp", 3, summary), Event::new("mcp_tool_call", "mcp_tool_call", 4, call)]
}

/// Everything a finished tool call tells, in a fixed order.
pub fn tool_events(input: &Value) -> Vec<Event> {
    let raw_name = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let tool = session_tool_name(raw_name);
    let args = input.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    let response_value = input.get("tool_response").or_else(|| input.get("tool_output")).cloned().unwrap_or(Value::Null);
    let response = response_text(&response_value);
    let flagged = flagged_error(input);
    let path = || str_field(&args, &["file_path", "path", "absolute_path", "notebook_path", "filePath", "target_file"]).map(str::to_string);
    let mut out = Vec::new();
    match tool {
        "Read" => {
            if let Some(p) = path() {
                if is_rule_file(&p) {
                    out.push(Event::new("rule", "rule", 1, p.clone()));
                }
                out.push(Event::new("file_read", "file", 1, p));
            }
        }
        "Edit" | "MultiEdit" | "NotebookEdit" | "Write" => {
            if let Some(p) = path() {
                let kind = if tool == "Write" { "file_write" } else { "file_edit" };
                out.push(Event::new(kind, "file", 1, p.clone()));
                if p.replace('\\', "/").contains(".claude/plans/") {
                    let base = p.replace('\\', "/").rsplit('/').next().unwrap_or("").to_string();
                    out.push(Event::new("plan_file_write", "plan", 2, format!("plan file: {base}")));
                }
            }
        }
        "apply_patch" => {
            let patch = str_field(&args, &["input", "patch", "command"]).map(str::to_string).unwrap_or_else(|| response_text(&args));
            if !flagged {
                out.extend(patch_files(&patch).into_iter().map(|(kind, p)| Event::new(kind, "file", 1, p)));
            }
        }
        "Glob" => out.extend(str_field(&args, &["pattern"]).map(|p| Event::new("file_glob", "file", 3, p.to_string()))),
        "Grep" => {
            if let Some(p) = str_field(&args, &["pattern", "query"]) {
                let scope = str_field(&args, &["path", "dir_path"]).unwrap_or(".");
                out.push(Event::new("file_search", "file", 3, format!("{p} in {scope}")));
            }
        }
        "Bash" => {
            if let Some(command) = command_text(&args) {
                out.extend(bash_events(&command, &response, flagged));
            }
        }
        "TodoWrite" => out.extend(todo_events(&args)),
        "TaskCreate" => out.push(Event::new("task_create", "task", 1, crate::jsjson::stringify(&args))),
        "TaskUpdate" => out.push(Event::new("task_update", "task", 1, crate::jsjson::stringify(&args))),
        "EnterPlanMode" => out.push(Event::new("plan_enter", "plan", 2, "entered plan mode")),
        "ExitPlanMode" => {
            out.push(Event::new("plan_exit", "plan", 2, "exited plan mode"));
            let lower = response.to_lowercase();
            if lower.contains("approve") {
                out.push(Event::new("plan_approved", "plan", 1, "plan approved by user"));
            } else if ["rejected", "decline", "denied"].iter().any(|w| lower.contains(w)) {
                out.push(Event::new("plan_rejected", "plan", 2, format!("plan rejected: {}", cut(&response, RESPONSE_CHARS))));
            }
        }
        "Skill" => out.extend(str_field(&args, &["skill", "name", "command"]).map(|s| Event::new("skill", "skill", 2, s.to_string()))),
        "Agent" | "Task" => {
            let what = cut(str_field(&args, &["description", "prompt", "task"]).unwrap_or("subagent"), 200);
            if response.trim().is_empty() {
                out.push(Event::new("subagent_launched", "subagent", 3, format!("[launched] {what}")));
            } else {
                out.push(Event::new("subagent_completed", "subagent", 2, format!("[completed] {what} → {}", cut(response.trim(), RESPONSE_CHARS))));
            }
        }
        "AskUserQuestion" => {
            let question = args.get("questions").and_then(Value::as_array).and_then(|q| q.first()).and_then(|q| str_field(q, &["question"])).or_else(|| str_field(&args, &["question"]));
            if let Some(q) = question {
                let answer = serde_json::from_str::<Value>(&response)
                    .ok()
                    .and_then(|v| v.get("answers").cloned())
                    .map(|a| match a {
                        Value::Object(m) => m.values().map(|v| match v {
                            Value::Array(xs) => xs.iter().map(crate::jsjson::js_string).collect::<Vec<_>>().join(" | "),
                            other => crate::jsjson::js_string(other),
                        }).collect::<Vec<_>>().join("; "),
                        other => crate::jsjson::js_string(&other),
                    })
                    .unwrap_or_else(|| cut(response.trim(), 200));
                out.push(Event::new("decision_question", "decision", 2, format!("Q: {} → A: {}", cut(q, 200), cut(&answer, 200))));
            }
        }
        "EnterWorktree" => out.push(Event::new("worktree", "env", 2, format!("entered worktree: {}", str_field(&args, &["name", "path"]).unwrap_or("unnamed")))),
        "ExitWorktree" => out.push(Event::new("worktree_exit", "env", 2, "left worktree")),
        t if t.starts_with("mcp__") || raw_name.starts_with("mcp__") || raw_name.starts_with("mcp_") => out.extend(mcp_events(raw_name, &args)),
        _ => {}
    }
    if flagged && tool != "Bash" && !out.iter().any(|e| e.category == "error") {
        let text = response.trim();
        if !text.is_empty() && !text.starts_with("context-mode:") {
            out.push(Event::new("error_tool", "error", 2, format!("{raw_name}: {}", cut(text, EXCERPT_CHARS))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(events: &[Event]) -> Vec<(String, String)> {
        events.iter().map(|e| (e.kind.clone(), e.data.clone())).collect()
    }

    #[test]
    fn git_add_and_commit_keeps_the_message() {
        let e = tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "git add -A && git commit -m \"Fix rounding in cart totals\" && git push origin main"}, "tool_response": {"stdout": "[main 1a2b3c] Fix rounding", "stderr": ""}}));
        let k = kinds(&e);
        assert!(k.contains(&("git".into(), "add".into())), "{k:?}");
        assert!(k.contains(&("git_commit".into(), "Fix rounding in cart totals".into())), "{k:?}");
        assert!(k.contains(&("git".into(), "push origin main".into())), "{k:?}");
        let e = tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "GIT_AUTHOR_NAME=x git -C repo commit -am 'wip: parser'"}}));
        assert_eq!(kinds(&e), vec![("git_commit".into(), "wip: parser".into())]);
        assert!(tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "git status"}})).is_empty());
    }

    #[test]
    fn failures_are_detected_precisely() {
        let failing = "PASS src/a.test.ts\nFAIL src/cart/total.test.ts\n  ● rounds half up\nTests: 1 failed, 12 passed, 13 total";
        let e = tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "npm test"}, "tool_response": {"stdout": failing, "stderr": ""}}));
        let err = e.iter().find(|e| e.kind == "error_tool").expect("an error event");
        assert!(err.data.starts_with("$ npm test\n"));
        assert!(err.data.contains("FAIL src/cart/total.test.ts") && err.data.contains("1 failed"));
        assert!(!err.data.contains("PASS"));
        for fine in ["Tests: 0 failed, 12 passed", "error handling docs updated", "build finished without failures", "0 errors, 0 warnings"] {
            let e = tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "x"}, "tool_response": fine}));
            assert!(e.iter().all(|e| e.kind != "error_tool"), "{fine}");
        }
        for bad in ["error[E0308]: mismatched types", "fatal: not a git repository", "Traceback (most recent call last):\n  File \"x\"\nValueError: bad", "sh: foo: command not found"] {
            let e = tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "x"}, "tool_response": bad}));
            assert!(e.iter().any(|e| e.kind == "error_tool"), "{bad}");
        }
    }

    #[test]
    fn files_tasks_and_others() {
        let k = kinds(&tool_events(&json!({"tool_name": "Read", "tool_input": {"file_path": "/p/CLAUDE.md"}})));
        assert_eq!(k, vec![("rule".into(), "/p/CLAUDE.md".into()), ("file_read".into(), "/p/CLAUDE.md".into())]);
        let k = kinds(&tool_events(&json!({"tool_name": "replace", "tool_input": {"file_path": "src/a.ts"}})));
        assert_eq!(k, vec![("file_edit".into(), "src/a.ts".into())]);
        let todo = tool_events(&json!({"tool_name": "TodoWrite", "tool_input": {"todos": [{"content": "Fix rounding", "status": "in_progress", "activeForm": "Fixing"}, {"content": "Add test", "status": "pending"}]}}));
        assert_eq!(todo[0].kind, "task");
        assert!(todo[0].data.contains("Fix rounding") && !todo[0].data.contains("activeForm"));
        let patch = "*** Begin Patch\n*** Update File: src/x.rs\n@@\n*** Add File: src/y.rs\n*** End Patch";
        let k = kinds(&tool_events(&json!({"tool_name": "apply_patch", "tool_input": {"input": patch}})));
        assert_eq!(k, vec![("file_edit".into(), "src/x.rs".into()), ("file_write".into(), "src/y.rs".into())]);
        let mcp = tool_events(&json!({"tool_name": "mcp__github__create_issue", "tool_input": {"title": "Crash on start", "token": "abc"}}));
        assert_eq!(mcp[0].data, "create_issue: Crash on start");
        assert!(mcp[1].data.contains("\"token\":\"***\""), "{}", mcp[1].data);
        let cd = kinds(&tool_events(&json!({"tool_name": "Bash", "tool_input": {"command": "cd packages/api && npm install zod"}})));
        assert_eq!(cd, vec![("cwd".into(), "packages/api".into()), ("env".into(), "npm install zod".into())]);
    }
}
