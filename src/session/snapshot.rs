//! The resume snapshot: the working state an agent needs to carry on after the host
//! compacts the conversation, built from the session log within a byte budget, most
//! important first — goal, last request, pending tasks, files in play, recent errors,
//! decisions, git, environment, rules. Sections that do not fit are left out whole;
//! long items are shortened. Everything is masked and escaped.

use super::redact;
use super::Event;
use serde_json::Value;

/// Default size of a snapshot (`CONTEXT_MODE_RESUME_BUDGET_BYTES`): about 1,000 tokens.
pub const DEFAULT_BUDGET: usize = 4000;

pub fn budget() -> usize {
    std::env::var("CONTEXT_MODE_RESUME_BUDGET_BYTES").ok().and_then(|v| v.trim().parse().ok()).filter(|n: &usize| *n >= 600).unwrap_or(DEFAULT_BUDGET)
}

fn cut(s: &str, max: usize) -> String {
    crate::text::cut_chars(s.trim(), max)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A value fit for the snapshot: masked, on one line unless `multiline`, shortened.
fn clean(s: &str, max: usize, multiline: bool) -> String {
    let masked = redact::mask(s);
    let text = if multiline { masked.into_owned() } else { masked.split_whitespace().collect::<Vec<_>>().join(" ") };
    escape(&cut(&text, max))
}

fn last<'a>(events: &'a [Event], kinds: &[&str]) -> Option<&'a Event> {
    events.iter().rev().find(|e| kinds.contains(&e.kind.as_str()))
}

/// Tasks still open: the latest TodoWrite list, plus TaskCreate/TaskUpdate pairs
/// (the i-th created task is task `i + 1`).
pub fn pending_tasks(events: &[Event]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(todo) = last(events, &["task"]) {
        if let Ok(v) = serde_json::from_str::<Value>(&todo.data) {
            for t in v.get("todos").and_then(Value::as_array).into_iter().flatten() {
                let status = t.get("status").and_then(Value::as_str).unwrap_or("pending");
                if let Some(text) = t.get("content").and_then(Value::as_str) {
                    if !matches!(status, "completed" | "done" | "cancelled") {
                        out.push((status.to_string(), text.to_string()));
                    }
                }
            }
        }
    }
    let mut created: Vec<(String, String)> = Vec::new();
    let mut status: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for e in events {
        let Ok(v) = serde_json::from_str::<Value>(&e.data) else { continue };
        match e.kind.as_str() {
            "task_create" => {
                if let Some(s) = v.get("subject").or_else(|| v.get("title")).and_then(Value::as_str) {
                    created.push(((created.len() + 1).to_string(), s.to_string()));
                }
            }
            "task_update" => {
                let id = v.get("taskId").map(|i| crate::jsjson::js_string(i));
                if let (Some(id), Some(st)) = (id, v.get("status").and_then(Value::as_str)) {
                    status.insert(id, st.to_string());
                }
            }
            _ => {}
        }
    }
    for (id, subject) in created {
        let st = status.get(&id).cloned().unwrap_or_else(|| "pending".into());
        if !matches!(st.as_str(), "completed" | "deleted" | "failed" | "cancelled") {
            out.push((st, subject));
        }
    }
    out
}

/// Files touched, most recent first: `(path, "edit×2, read×1")`.
fn files_in_play(events: &[Event], project_dir: &str) -> Vec<(String, String)> {
    let mut order: Vec<String> = Vec::new();
    let mut ops: std::collections::HashMap<String, Vec<(&'static str, usize)>> = std::collections::HashMap::new();
    for e in events {
        let op = match e.kind.as_str() {
            "file_read" => "read",
            "file_edit" => "edit",
            "file_write" => "write",
            _ => continue,
        };
        let path = relative(&e.data, project_dir);
        order.retain(|p| p != &path);
        order.push(path.clone());
        let counts = ops.entry(path).or_default();
        match counts.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => counts.push((op, 1)),
        }
    }
    order
        .into_iter()
        .rev()
        .map(|p| {
            let mut counts = ops.remove(&p).unwrap_or_default();
            // Changes matter more than reads.
            counts.sort_by_key(|(o, _)| match *o {
                "write" => 0,
                "edit" => 1,
                _ => 2,
            });
            let text = counts.iter().map(|(o, n)| format!("{o}×{n}")).collect::<Vec<_>>().join(", ");
            (p, text)
        })
        .collect()
}

fn relative(path: &str, dir: &str) -> String {
    crate::text::relative_to(path, dir).to_string()
}

/// Unique values, most recent last, at most `n`.
fn recent_unique(events: &[Event], kinds: &[&str], n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in events.iter().rev() {
        if kinds.contains(&e.kind.as_str()) && !out.contains(&e.data) {
            out.push(e.data.clone());
            if out.len() == n {
                break;
            }
        }
    }
    out.reverse();
    out
}

/// Writes sections into a budget.
struct Writer {
    out: String,
    budget: usize,
}

impl Writer {
    fn room(&self, reserve: usize) -> usize {
        self.budget.saturating_sub(self.out.len() + reserve)
    }

    /// A section of lines: added only if its tag and first line fit; later lines are
    /// dropped when they would not.
    fn section(&mut self, tag: &str, attrs: &str, lines: &[String], reserve: usize) {
        if lines.is_empty() {
            return;
        }
        let open = format!("  <{tag}{attrs}>\n");
        let close = format!("  </{tag}>\n");
        let mut body = String::new();
        for l in lines {
            let line = format!("    {l}\n");
            if open.len() + body.len() + line.len() + close.len() > self.room(reserve) {
                break;
            }
            body.push_str(&line);
        }
        if !body.is_empty() {
            self.out.push_str(&open);
            self.out.push_str(&body);
            self.out.push_str(&close);
        }
    }
}

/// Builds the snapshot of a session. `search` names ctx_search as the host shows it.
pub fn build(events: &[Event], compact_count: i64, project_dir: &str, search: &str, budget: usize) -> String {
    let footer = format!(
        "  <how_to_continue>\n    Carry on from the last request without asking the user to repeat it. Details of earlier work: {search}(queries: [...], source: \"session-events\").\n  </how_to_continue>\n</session_resume>"
    );
    let mut w = Writer { out: format!("<session_resume events=\"{}\" compact_count=\"{compact_count}\" generated_at=\"{}\">\n", events.len(), crate::clock::iso_now()), budget };
    let reserve = footer.len();

    let prompts: Vec<&Event> = events.iter().filter(|e| e.kind == "user_prompt").collect();
    if let Some(goal) = last(events, &["goal"]) {
        w.section("session_goal", "", &[clean(&goal.data, 400, false)], reserve);
    } else if let Some(first) = prompts.first() {
        w.section("session_goal", " from=\"first request\"", &[clean(&first.data, 400, false)], reserve);
    }
    if let Some(req) = prompts.last() {
        w.section("last_request", "", &[clean(&req.data, 600, false)], reserve);
    }
    let tasks: Vec<String> = pending_tasks(events).into_iter().map(|(st, t)| format!("[{}] {}", escape(&st), clean(&t, 200, false))).collect();
    w.section("pending_tasks", &format!(" count=\"{}\"", tasks.len()), &tasks, reserve);
    let files: Vec<String> = files_in_play(events, project_dir).into_iter().take(12).map(|(p, ops)| format!("{} ({ops})", clean(&p, 160, false))).collect();
    w.section("files_in_play", &format!(" count=\"{}\"", files.len()), &files, reserve);
    let errors: Vec<String> = recent_unique(events, &["error_tool"], 3).iter().map(|e| clean(e, 400, true).replace('\n', "\n      ")).collect();
    w.section("recent_errors", &format!(" count=\"{}\"", errors.len()), &errors, reserve);
    // A decision said in the last request is already shown there.
    let last_said = prompts.last().map(|p| p.data.trim().to_string()).unwrap_or_default();
    let decisions: Vec<String> = recent_unique(events, &["decision", "decision_question"], 5).iter().filter(|d| d.trim() != last_said).map(|d| clean(d, 200, false)).collect();
    w.section("decisions", "", &decisions, reserve);
    let git: Vec<String> = events
        .iter()
        .rev()
        // Staging is a step towards a commit, not state worth remembering.
        .filter(|e| e.category == "git" && e.data != "add")
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|e| if e.kind == "git_commit" { format!("commit: {}", clean(&e.data, 160, false)) } else { clean(&e.data, 160, false) })
        .collect();
    w.section("git", "", &git, reserve);
    let mut env: Vec<String> = Vec::new();
    if let Some(cwd) = last(events, &["cwd"]) {
        env.push(format!("cwd: {}", clean(&cwd.data, 200, false)));
    }
    env.extend(recent_unique(events, &["env", "worktree"], 3).iter().map(|e| clean(e, 160, false)));
    w.section("environment", "", &env, reserve);
    if let Some(plan) = last(events, &["plan_enter", "plan_exit", "plan_approved", "plan_rejected"]) {
        let state = match plan.kind.as_str() {
            "plan_enter" => "planning (not approved yet)",
            "plan_approved" => "plan approved; carry it out",
            "plan_rejected" => "plan rejected by the user",
            _ => "left plan mode",
        };
        w.section("plan_mode", "", &[state.to_string()], reserve);
    }
    let rules: Vec<String> = recent_unique(events, &["rule"], 5).iter().map(|r| clean(&relative(r, project_dir), 160, false)).collect();
    w.section("rules", "", &rules, reserve);
    if let Some(role) = last(events, &["role"]) {
        w.section("role", "", &[clean(&role.data, 300, false)], reserve);
    }
    let subagents: Vec<String> = recent_unique(events, &["subagent_completed"], 3).iter().map(|s| clean(s, 240, false)).collect();
    w.section("subagents", "", &subagents, reserve);
    let skills: Vec<String> = recent_unique(events, &["skill"], 6).iter().map(|s| clean(s, 80, false)).collect();
    w.section("skills", "", &skills, reserve);
    w.out.push_str(&footer);
    w.out
}

/// The session log as markdown, for the knowledge base (`session-events`), so details
/// the snapshot leaves out stay searchable.
pub fn events_markdown(events: &[Event], project_dir: &str) -> String {
    let mut md = format!("# Session log\n\n{} events, written {}.\n", events.len(), crate::clock::iso_now());
    let groups: &[(&str, &[&str])] = &[
        ("Requests", &["user_prompt"]),
        ("Goal and decisions", &["goal", "decision", "decision_question", "role"]),
        ("Tasks", &["task", "task_create", "task_update"]),
        ("Files", &["file_read", "file_edit", "file_write", "file_glob", "file_search"]),
        ("Errors", &["error_tool", "blocker"]),
        ("Git", &["git", "git_commit"]),
        ("Environment", &["cwd", "env", "worktree"]),
        ("Subagents and skills", &["subagent_completed", "subagent_launched", "skill"]),
        ("MCP tools", &["mcp"]),
    ];
    for (title, kinds) in groups {
        let items: Vec<String> = events.iter().filter(|e| kinds.contains(&e.kind.as_str())).map(|e| format!("- {}: {}", e.kind, redact::mask(&relative(&e.data, project_dir)).replace('\n', "\n  "))).collect();
        if !items.is_empty() {
            md.push_str(&format!("\n## {title}\n\n{}\n", items.join("\n")));
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: &str, category: &str, data: &str) -> Event {
        Event::new(kind, category, 1, data)
    }

    #[test]
    fn the_state_that_matters_comes_first_and_fits() {
        let mut events = vec![
            ev("user_prompt", "user-prompt", "Make checkout totals round half up"),
            ev("goal", "goal", "checkout totals round half up"),
            ev("file_read", "file", "/p/src/cart/total.ts"),
            ev("file_edit", "file", "/p/src/cart/total.ts"),
            ev("task", "task", r#"{"todos":[{"content":"Fix rounding","status":"in_progress"},{"content":"Add regression test","status":"pending"},{"content":"Read code","status":"completed"}]}"#),
            ev("error_tool", "error", "$ npm test\nFAIL src/cart/total.test.ts\nTests: 1 failed"),
            ev("git_commit", "git", "Fix rounding"),
            ev("decision", "decision", "use Math.round instead of toFixed"),
        ];
        for i in 0..300 {
            events.push(ev("file_read", "file", &format!("/p/src/noise/file{i}.ts")));
        }
        events.push(ev("user_prompt", "user-prompt", "now also handle negative amounts, token=abc123secret"));
        let s = build(&events, 2, "/p", "ctx_search", 2500);
        assert!(s.len() <= 2500, "{}", s.len());
        for want in ["checkout totals round half up", "now also handle negative amounts", "[in_progress] Fix rounding", "[pending] Add regression test", "FAIL src/cart/total.test.ts", "commit: Fix rounding", "Math.round"] {
            assert!(s.contains(want), "{want} missing in\n{s}");
        }
        assert!(!s.contains("Read code"));
        assert!(!s.contains("abc123secret"));
        assert!(s.contains("src/cart/total.ts (edit×1, read×1)") || s.contains("files_in_play"), "{s}");
        let tiny = build(&events, 2, "/p", "ctx_search", 700);
        assert!(tiny.len() <= 700 && tiny.contains("<session_goal>") && tiny.ends_with("</session_resume>"), "{tiny}");
    }

    #[test]
    fn tasks_from_create_and_update() {
        let events = vec![
            ev("task_create", "task", r#"{"subject":"Write migration"}"#),
            ev("task_create", "task", r#"{"subject":"Update docs"}"#),
            ev("task_update", "task", r#"{"taskId":"1","status":"completed"}"#),
        ];
        assert_eq!(pending_tasks(&events), vec![("pending".to_string(), "Update docs".to_string())]);
    }
}
