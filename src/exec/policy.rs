//! The user's permission rules (`permissions.deny|ask|allow` in Claude-style settings
//! files), applied to shell commands and file paths.
//!
//! Rules look like `Bash(rm -rf *)`, `Bash(git push:*)` or `Read(**/.env)`. A shell
//! command is split into its simple commands (outside quotes, including the bodies of
//! `$(…)` and backticks) and each one is matched on its own, so `ls && rm -rf /` is
//! caught by `Bash(rm -rf *)`.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// One `Tool(glob)` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The entry as written, e.g. `Bash(rm -rf *)`: what messages name.
    pub raw: String,
    pub tool: String,
    pub glob: String,
}

impl Rule {
    /// Parses `Tool(glob)`; the last `)` closes the glob.
    pub fn parse(raw: &str) -> Option<Rule> {
        let open = raw.find('(')?;
        let close = raw.rfind(')')?;
        if close < open {
            return None;
        }
        Some(Rule { raw: raw.to_string(), tool: raw[..open].trim().to_string(), glob: raw[open + 1..close].to_string() })
    }
}

/// Rules gathered from every settings file that applies, in file order.
#[derive(Debug, Default, Clone)]
pub struct Policies {
    pub deny: Vec<Rule>,
    pub ask: Vec<Rule>,
    pub allow: Vec<Rule>,
}

impl Policies {
    /// Reads `permissions` from each file; missing or malformed files are skipped.
    pub fn load(files: &[PathBuf]) -> Policies {
        let mut p = Policies::default();
        for file in files {
            let Ok(text) = std::fs::read_to_string(file) else { continue };
            let Ok(json) = serde_json::from_str::<Value>(&text) else { continue };
            let Some(perms) = json.get("permissions") else { continue };
            for (key, list) in [("deny", &mut p.deny), ("ask", &mut p.ask), ("allow", &mut p.allow)] {
                if let Some(Value::Array(items)) = perms.get(key) {
                    list.extend(items.iter().filter_map(|i| i.as_str()).filter_map(Rule::parse));
                }
            }
        }
        p
    }

    pub fn is_empty(&self) -> bool {
        self.deny.is_empty() && self.ask.is_empty() && self.allow.is_empty()
    }

    /// The settings files that govern a project: project-local, project, then the
    /// host-global ones given by the caller.
    pub fn files_for(project_dir: Option<&str>, global: &[PathBuf]) -> Vec<PathBuf> {
        let mut files = Vec::new();
        if let Some(dir) = project_dir.filter(|d| !d.is_empty()) {
            let claude = Path::new(dir).join(".claude");
            files.push(claude.join("settings.local.json"));
            files.push(claude.join("settings.json"));
        }
        files.extend(global.iter().cloned());
        files
    }

    /// The verdict for a shell command: the first deny rule any part matches, else the
    /// first ask rule, else none.
    pub fn check_command(&self, command: &str) -> Verdict {
        let parts = split_command(command);
        let find = |rules: &[Rule]| {
            rules.iter().find(|r| r.tool == "Bash" && parts.iter().any(|part| command_glob_matches(&r.glob, part))).cloned()
        };
        if let Some(rule) = find(&self.deny) {
            return Verdict::Deny(rule);
        }
        if let Some(rule) = find(&self.ask) {
            return Verdict::Ask(rule);
        }
        Verdict::None
    }

    /// The first `Read(...)` deny rule matching a path (as given, resolved against the
    /// project, and its real path when it exists).
    pub fn denied_read(&self, path: &str, project_dir: Option<&str>) -> Option<Rule> {
        Self::first_read_rule(&self.deny, path, project_dir)
    }

    /// The first `Read(...)` allow rule matching a path: what lets `ctx_execute_file`
    /// reach outside the project.
    pub fn allowed_read(&self, path: &str, project_dir: Option<&str>) -> Option<Rule> {
        Self::first_read_rule(&self.allow, path, project_dir)
    }

    fn first_read_rule(rules: &[Rule], path: &str, project_dir: Option<&str>) -> Option<Rule> {
        let mut candidates = vec![path.replace('\\', "/")];
        let resolved = match project_dir {
            Some(dir) if !dir.is_empty() => Path::new(dir).join(path),
            _ => PathBuf::from(path),
        };
        candidates.push(resolved.to_string_lossy().replace('\\', "/"));
        if let Ok(real) = std::fs::canonicalize(&resolved) {
            candidates.push(real.to_string_lossy().replace('\\', "/"));
        }
        rules.iter().find(|r| r.tool == "Read" && candidates.iter().any(|c| file_glob_matches(&r.glob, c))).cloned()
    }
}

/// Result of checking a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Deny(Rule),
    Ask(Rule),
    None,
}

/// Splits a shell command into simple commands on `&&`, `||`, `;`, `|`, `&` and line
/// breaks outside quotes; bodies of `$(…)` and backticks are split again and included.
pub fn split_command(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    split_into(command, &mut out, 0);
    out
}

fn split_into(command: &str, out: &mut Vec<String>, depth: usize) {
    let chars: Vec<char> = command.chars().collect();
    let mut current = String::new();
    let mut i = 0;
    let push = |current: &mut String, out: &mut Vec<String>| {
        let t = current.trim();
        if !t.is_empty() {
            out.push(t.to_string());
        }
        current.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                current.push(c);
                if let Some(n) = chars.get(i + 1) {
                    current.push(*n);
                }
                i += 2;
                continue;
            }
            '\'' => {
                let end = chars[i + 1..].iter().position(|x| *x == '\'').map(|p| i + 1 + p).unwrap_or(chars.len() - 1);
                current.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
            '"' => {
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '"' {
                    if chars[j] == '\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let end = j.min(chars.len() - 1);
                current.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
            '`' => {
                let end = chars[i + 1..].iter().position(|x| *x == '`').map(|p| i + 1 + p);
                let body_end = end.unwrap_or(chars.len());
                if depth < 8 {
                    split_into(&chars[i + 1..body_end].iter().collect::<String>(), out, depth + 1);
                }
                current.extend(&chars[i..body_end.min(chars.len())]);
                if let Some(e) = end {
                    current.push(chars[e]);
                }
                i = body_end + 1;
                continue;
            }
            '$' if chars.get(i + 1) == Some(&'(') && chars.get(i + 2) != Some(&'(') => {
                let mut level = 0;
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '(' => level += 1,
                        ')' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if depth < 8 {
                    split_into(&chars[i + 2..j.min(chars.len())].iter().collect::<String>(), out, depth + 1);
                }
                let end = j.min(chars.len() - 1);
                current.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
            '&' | '|' | ';' | '\n' | '\r' => {
                push(&mut current, out);
                i += 1;
                continue;
            }
            _ => current.push(c),
        }
        i += 1;
    }
    push(&mut current, out);
}

fn case_insensitive_fs() -> bool {
    cfg!(any(target_os = "macos", windows))
}

/// A command glob: `cmd:args` means `cmd` alone or `cmd` + whitespace + args-glob;
/// otherwise the glob must match the whole command, `*` being any run of characters.
pub fn command_glob_matches(glob: &str, command: &str) -> bool {
    let fold = |s: &str| if case_insensitive_fs() { s.to_lowercase() } else { s.to_string() };
    let (glob, command) = (fold(glob), fold(command));
    if let Some((prefix, args)) = glob.split_once(':') {
        if command == prefix {
            return true;
        }
        let Some(rest) = command.strip_prefix(prefix) else { return false };
        let mut chars = rest.chars();
        return match chars.next() {
            Some(c) if c.is_whitespace() => wildcard_matches(args, chars.as_str()),
            _ => false,
        };
    }
    wildcard_matches(&glob, &command)
}

/// `*` matches any run of characters; everything else is literal.
fn wildcard_matches(glob: &str, text: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut gi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if gi < g.len() && g[gi] == '*' {
            star = Some(gi);
            mark = ti;
            gi += 1;
        } else if gi < g.len() && g[gi] == t[ti] {
            gi += 1;
            ti += 1;
        } else if let Some(s) = star {
            gi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    g[gi..].iter().all(|c| *c == '*')
}

/// A file glob: `**/` is any number of directories, a trailing `**` anything, `*` a
/// run without `/`, `?` one character other than `/`; anchored at both ends.
pub fn file_glob_matches(glob: &str, path: &str) -> bool {
    let glob = glob.replace('\\', "/");
    let (glob, path) = if case_insensitive_fs() { (glob.to_lowercase(), path.to_lowercase()) } else { (glob, path.to_string()) };
    glob_at(glob.as_bytes(), path.as_bytes())
}

fn glob_at(g: &[u8], p: &[u8]) -> bool {
    if g.is_empty() {
        return p.is_empty();
    }
    if g.starts_with(b"**/") {
        let rest = &g[3..];
        if glob_at(rest, p) {
            return true;
        }
        return p.iter().enumerate().any(|(i, b)| *b == b'/' && glob_at(rest, &p[i + 1..]));
    }
    if g == b"**" {
        return true;
    }
    match g[0] {
        b'*' => (0..=p.len()).take_while(|i| *i == 0 || p[i - 1] != b'/').any(|i| glob_at(&g[1..], &p[i..])),
        b'?' => !p.is_empty() && p[0] != b'/' && glob_at(&g[1..], &p[1..]),
        c => !p.is_empty() && p[0] == c && glob_at(&g[1..], &p[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_outside_quotes_and_into_substitutions() {
        assert_eq!(split_command("ls && rm -rf /x"), vec!["ls", "rm -rf /x"]);
        assert_eq!(split_command("echo 'a;b' | wc"), vec!["echo 'a;b'", "wc"]);
        assert_eq!(split_command("echo $(sudo ls)"), vec!["sudo ls", "echo $(sudo ls)"]);
        assert_eq!(split_command("echo $((1+2))"), vec!["echo $((1+2))"]);
    }

    #[test]
    fn command_globs() {
        assert!(command_glob_matches("rm -rf *", "rm -rf /tmp/x"));
        assert!(command_glob_matches("git push:*", "git push origin main"));
        assert!(command_glob_matches("git push:*", "git push"));
        assert!(!command_glob_matches("git push:*", "git pushx"));
        assert!(!command_glob_matches("sudo *", "sudo"));
    }

    #[test]
    fn file_globs() {
        assert!(file_glob_matches("**/.env", "config/.env"));
        assert!(file_glob_matches("**/.env", "/abs/p/.env"));
        assert!(file_glob_matches("**/.env", ".env"));
        assert!(!file_glob_matches(".env", "/abs/.env"));
        assert!(file_glob_matches("secrets/**", "secrets/a/b"));
        assert!(!file_glob_matches("*.key", "a/b.key"));
    }

    #[test]
    fn deny_before_ask() {
        let p = Policies {
            deny: vec![Rule::parse("Bash(rm -rf *)").unwrap()],
            ask: vec![Rule::parse("Bash(git push:*)").unwrap()],
            allow: vec![],
        };
        assert_eq!(p.check_command("git push && rm -rf /"), Verdict::Deny(Rule::parse("Bash(rm -rf *)").unwrap()));
        assert_eq!(p.check_command("git push origin"), Verdict::Ask(Rule::parse("Bash(git push:*)").unwrap()));
        assert_eq!(p.check_command("echo 'rm -rf /'"), Verdict::None);
    }
}
