//! Shell commands hidden in code of other languages (`os.system("rm -rf /")`,
//! `execSync('git push')`, `` `curl x` `` in Ruby…), so the user's Bash deny rules apply
//! to them as they do to shell code.

use super::runtime::Language;
use once_cell::sync::Lazy;
use regex::Regex;

/// A string literal: double or single quoted, backslash escapes allowed.
const STR: &str = r#"(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"#;

/// Compiles a pattern; `\s` and `\b` are ASCII (the crate is built without Unicode
/// Perl classes, and source code delimiters are ASCII anyway).
fn re(pattern: &str) -> Regex {
    let p = pattern.replace("{STR}", STR).replace(r"\s", r"[ \t\r\n]").replace(r"\b", r"(?-u:\b)");
    Regex::new(&p).unwrap_or_else(|e| panic!("embedded-command pattern {pattern:?}: {e}"))
}

static CALLS: Lazy<Vec<(Vec<Language>, Regex)>> = Lazy::new(|| {
    use Language::*;
    vec![
        (vec![Python], re(r"\bos\.(?:system|popen)\s*\(\s*[rfb]?{STR}")),
        (vec![Python], re(r"\bsubprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)\s*\(\s*[rfb]?{STR}")),
        (vec![JavaScript, TypeScript], re(r"\b(?:exec|execSync|execFile|execFileSync|spawn|spawnSync)\s*\(\s*(?:`([^`]*)`|{STR})")),
        (vec![Ruby, Perl], re(r"\b(?:system|exec|spawn)\s*\(?\s*{STR}")),
        (vec![Go], re(r"\bexec\.Command(?:Context)?\s*\(\s*(?:ctx\s*,\s*)?{STR}")),
        (vec![Php], re(r"\b(?:shell_exec|exec|system|passthru|proc_open|popen)\s*\(\s*{STR}")),
        (vec![Rust], re(r"\bCommand::new\s*\(\s*{STR}")),
        (vec![R], re(r"\bsystem2?\s*\(\s*{STR}")),
        (vec![Elixir], re(r"\bSystem\.(?:cmd|shell)\s*\(\s*{STR}")),
        (vec![CSharp], re(r"\bProcess\.Start\s*\(\s*{STR}")),
    ]
});

/// List forms whose items make up one command: `subprocess.run(["rm", "-rf", "/"])`.
static LISTS: Lazy<Vec<(Vec<Language>, Regex)>> = Lazy::new(|| {
    use Language::*;
    vec![
        (vec![Python], re(r"\bsubprocess\.(?:run|call|Popen|check_output|check_call)\s*\(\s*\[([^\]]*)\]")),
        (vec![Go], re(r"\bexec\.Command(?:Context)?\s*\(((?:\s*{STR}\s*,?)+)\)")),
        (vec![Elixir], re(r"\bSystem\.cmd\s*\(\s*{STR}\s*,\s*\[([^\]]*)\]")),
    ]
});

static BACKTICKS: Lazy<Regex> = Lazy::new(|| re(r"`([^`\n]+)`"));
static PERL_QX: Lazy<Regex> = Lazy::new(|| re(r"\bqx\s*[\{\(\[/]([^\}\)\]/]*)[\}\)\]/]"));
static LIST_ITEM: Lazy<Regex> = Lazy::new(|| re(STR));

fn unescape(s: &str) -> String {
    s.replace("\\\"", "\"").replace("\\'", "'").replace("\\\\", "\\")
}

/// The shell commands a program in `lang` would run, as far as its source shows.
pub fn embedded_commands(lang: Language, code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (langs, re) in CALLS.iter() {
        if !langs.contains(&lang) {
            continue;
        }
        for cap in re.captures_iter(code) {
            if let Some(m) = cap.iter().skip(1).flatten().next() {
                out.push(unescape(m.as_str()));
            }
        }
    }
    for (langs, re) in LISTS.iter() {
        if !langs.contains(&lang) {
            continue;
        }
        for cap in re.captures_iter(code) {
            let whole = cap.get(0).map_or("", |m| m.as_str());
            let inner = whole.split_once('(').map_or(whole, |(_, rest)| rest);
            let words: Vec<String> =
                LIST_ITEM.captures_iter(inner).filter_map(|c| c.iter().skip(1).flatten().next().map(|m| unescape(m.as_str()))).collect();
            if !words.is_empty() {
                out.push(words.join(" "));
            }
        }
    }
    if matches!(lang, Language::Ruby | Language::Perl) {
        out.extend(BACKTICKS.captures_iter(code).filter_map(|c| c.get(1).map(|m| m.as_str().to_string())));
    }
    if lang == Language::Perl {
        out.extend(PERL_QX.captures_iter(code).filter_map(|c| c.get(1).map(|m| m.as_str().to_string())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_per_language() {
        let cases: &[(Language, &str, &str)] = &[
            (Language::Python, r#"import os; os.system("rm -rf /tmp/x")"#, "rm -rf /tmp/x"),
            (Language::Python, r#"subprocess.run(["git", "push", "origin"])"#, "git push origin"),
            (Language::JavaScript, "require('child_process').execSync('git push')", "git push"),
            (Language::JavaScript, "spawnSync(`rm -rf build`)", "rm -rf build"),
            (Language::Ruby, "puts `curl http://x`", "curl http://x"),
            (Language::Go, r#"exec.Command("rm", "-rf", "/")"#, "rm -rf /"),
            (Language::Php, r#"shell_exec("ls -la");"#, "ls -la"),
            (Language::Rust, r#"Command::new("git")"#, "git"),
            (Language::Perl, "my $x = qx{git push};", "git push"),
            (Language::R, r#"system("rm -rf data")"#, "rm -rf data"),
            (Language::Elixir, r#"System.cmd("git", ["push", "origin"])"#, "git push origin"),
            (Language::CSharp, r#"Process.Start("rm -rf /")"#, "rm -rf /"),
        ];
        for (lang, code, want) in cases {
            let got = embedded_commands(*lang, code);
            assert!(got.iter().any(|c| c == want), "{lang:?}: {got:?}");
        }
        assert!(embedded_commands(Language::Python, "print('rm -rf /')").is_empty());
    }
}
