//! What a user's message tells about the session (UserPromptSubmit): the message itself,
//! and, when it says so, the goal, a decision, the role the agent should take, plan
//! mode, and a blocker the user ran into.

use super::Event;
use crate::text::cut_chars as cut;

/// Prompt characters kept for goals, decisions and roles.
const SHORT: usize = 300;


fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// An explicit goal: `/goal …`, `goal: …`, `objective: …`.
fn goal(text: &str) -> Option<String> {
    for prefix in ["/goal ", "goal:", "objective:", "the goal is ", "our goal is "] {
        if let Some(rest) = strip_prefix_ci(text, prefix) {
            let rest = rest.trim();
            if !rest.is_empty() {
                return Some(cut(rest, SHORT));
            }
        }
    }
    None
}

fn has_question(text: &str) -> bool {
    text.contains(['?', '？', '؟', '¿'])
}

/// A standing instruction about how to do the work ("use X instead of Y", "don't touch
/// the API", "always run the linter").
fn decision(text: &str) -> Option<String> {
    const CUES: &[&str] = &[" instead", "don't ", "do not ", "never ", "always ", "prefer ", "let's use ", "let's go with", "go with ", "we decided", "decided to", "must not ", "make sure ", "keep using ", "stop using ", "switch to "];
    let n = text.chars().count();
    if has_question(text) || !(12..=500).contains(&n) {
        return None;
    }
    let lower = format!(" {}", text.to_lowercase());
    CUES.iter().any(|c| lower.contains(c)).then(|| cut(text, SHORT))
}

/// A role for the agent ("You are a senior reviewer…", "Act as …").
fn role(text: &str) -> Option<String> {
    const OPENERS: &[&str] = &["you are ", "you're ", "act as ", "your role ", "behave as ", "pretend you", "from now on you", "tu es ", "vous êtes ", "eres ", "du bist "];
    let first = text.split(['.', '!', '\n', '。', '！']).next().unwrap_or("").trim();
    let lower = first.to_lowercase();
    let n = first.chars().count();
    ((8..=160).contains(&n) && !has_question(first) && OPENERS.iter().any(|o| lower.starts_with(o))).then(|| cut(first, SHORT))
}

/// A problem the user pastes: an error, a stack trace.
fn blocker(text: &str) -> Option<Event> {
    let lower = text.to_lowercase();
    if ['✓', '✔', '✅', '🎉'].iter().any(|c| text.contains(*c)) || lower.starts_with("fixed:") || lower.starts_with("resolved:") {
        return Some(Event::new("blocker_resolved", "blocked-on", 2, cut(text, SHORT)));
    }
    let first_error = text.lines().find(|l| l.contains("Error:") || l.contains("Exception:") || l.contains("Traceback") || l.contains("panicked at"));
    first_error.map(|l| Event::new("blocker", "blocked-on", 2, cut(l.trim(), SHORT)))
}

/// Events for one user message, the message first.
pub fn prompt_events(prompt: &str) -> Vec<Event> {
    let text = prompt.trim();
    let mut out = vec![Event::new("user_prompt", "user-prompt", 1, prompt.to_string())];
    if text.starts_with("/plan") && text[5..].chars().next().is_none_or(char::is_whitespace) {
        let arg = text[5..].trim();
        out.push(Event::new("plan_enter", "plan", 2, if arg.is_empty() { "plan via /plan".to_string() } else { format!("plan via /plan: {}", cut(arg, 120)) }));
    }
    if let Some(g) = goal(text) {
        out.push(Event::new("goal", "goal", 1, g));
    }
    if let Some(d) = decision(text) {
        out.push(Event::new("decision", "decision", 2, d));
    }
    if let Some(r) = role(text) {
        out.push(Event::new("role", "role", 3, r));
    }
    let n = text.chars().count();
    if has_question(text) {
        out.push(Event::new("intent", "intent", 4, "investigate"));
    } else if n > 0 && n < 60 {
        out.push(Event::new("intent", "intent", 4, "implement"));
    }
    out.extend(blocker(text));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(prompt: &str) -> Vec<String> {
        prompt_events(prompt).into_iter().map(|e| e.kind).collect()
    }

    #[test]
    fn detectors() {
        assert_eq!(kinds("Goal: checkout totals must round half up"), vec!["user_prompt", "goal", "intent"]);
        assert!(kinds("Use pnpm instead of npm for everything in this repo").contains(&"decision".to_string()));
        assert!(!kinds("Why does the build fail on CI?").contains(&"decision".to_string()));
        assert!(kinds("You are a careful reviewer. Check the diff.").contains(&"role".to_string()));
        assert!(kinds("/plan migrate the database").contains(&"plan_enter".to_string()));
        assert!(kinds("I get TypeError: x is undefined when I click save").contains(&"blocker".to_string()));
        assert!(kinds("why is this slow?").contains(&"intent".to_string()));
    }
}
