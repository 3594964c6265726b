//! Reading a shell command the way 1.0.169's routing does: what counts as a curl or
//! wget call, inline HTTP in a script, a build tool, or a command whose output is
//! bounded by its shape. The rules are regular expressions written for JavaScript;
//! [`js_re`] translates their character classes so `\s`, `\w`, `\d`, `\b` and `/i`
//! keep their JS meaning, and the two constructs the regex crate lacks (the heredoc
//! back-reference and the `ls`/`mv` lookaheads) are written out by hand.

use crate::jsjson::{is_js_space, js_trim};
use once_cell::sync::Lazy;
use regex::Regex;

/// JS `\s` as a character class body.
const JS_SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Compiles a JS regex source (no `u` flag): `\s`/`\S` become the JS whitespace class,
/// `\d`, `\w` and `\b` stay ASCII. Sources are ours and known to compile.
pub(crate) fn js_re(source: &str) -> Regex {
    let translated = source
        .replace(r"\S", &format!("(?u-i:[^{JS_SPACE}])"))
        .replace(r"\s", &format!("(?u-i:[{JS_SPACE}])"))
        .replace(r"\d", "[0-9]")
        .replace(r"\w", "[A-Za-z0-9_]")
        .replace(r"\b", r"(?-u:\b)");
    Regex::new(&translated).unwrap_or_else(|e| panic!("routing pattern {source:?} does not compile: {e}"))
}

macro_rules! js_regex {
    ($name:ident, $src:expr) => {
        static $name: Lazy<Regex> = Lazy::new(|| js_re($src));
    };
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn skip_js_space(s: &str, mut i: usize) -> usize {
    while let Some(c) = s[i..].chars().next() {
        if !is_js_space(c) {
            break;
        }
        i += c.len_utf8();
    }
    i
}

/// Removes heredoc bodies: JS `/<<-?\s*["']?(\w+)["']?[\s\S]*?\n\s*\1/g` → `""`.
///
/// The back-reference makes the regex crate unusable here. Backtracking semantics are
/// kept: the longest delimiter prefix that is found after some newline wins, and for
/// that length the earliest newline.
pub fn strip_heredocs(cmd: &str) -> String {
    let bytes = cmd.as_bytes();
    let mut out = String::with_capacity(cmd.len());
    let mut copied = 0;
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] != b'<' || bytes[i + 1] != b'<' {
            i += 1;
            continue;
        }
        match heredoc_end(cmd, i) {
            Some(end) => {
                out.push_str(&cmd[copied..i]);
                copied = end;
                i = end;
            }
            None => i += 1,
        }
    }
    out.push_str(&cmd[copied..]);
    out
}

/// End of a heredoc match starting at `start` (which holds `<<`), if any.
fn heredoc_end(cmd: &str, start: usize) -> Option<usize> {
    let bytes = cmd.as_bytes();
    let mut j = start + 2;
    if bytes.get(j) == Some(&b'-') {
        j += 1;
    }
    j = skip_js_space(cmd, j);
    if matches!(bytes.get(j), Some(b'"') | Some(b'\'')) {
        j += 1;
    }
    let word_start = j;
    while bytes.get(j).is_some_and(|b| is_word_byte(*b)) {
        j += 1;
    }
    let word = &bytes[word_start..j];
    if word.is_empty() {
        return None;
    }
    // Body search starts after the delimiter (and an optional closing quote, which
    // cannot change where the first newline is).
    let mut best: Option<(usize, usize)> = None; // (prefix length, end)
    let mut k = j;
    while let Some(offset) = bytes[k..].iter().position(|b| *b == b'\n') {
        let nl = k + offset;
        let text = skip_js_space(cmd, nl + 1);
        let common = word.iter().zip(&bytes[text..]).take_while(|(a, b)| a == b).count();
        if common > 0 && best.is_none_or(|(len, _)| common > len) {
            best = Some((common, text + common));
            if common == word.len() {
                break;
            }
        }
        k = nl + 1;
    }
    best.map(|(_, end)| end)
}

/// Replaces the inside of `'…'` and then `"…"` runs with nothing, keeping the quotes.
pub fn strip_quoted(cmd: &str) -> String {
    strip_pairs(&strip_pairs(cmd, '\''), '"')
}

fn strip_pairs(s: &str, quote: char) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find(quote) {
        let after = &rest[open + 1..];
        match after.find(quote) {
            Some(close) => {
                out.push_str(&rest[..open]);
                out.push(quote);
                out.push(quote);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

js_regex!(CURL_ANYWHERE, r"(?i-u:(^|\s|&&|\||;)(curl|wget)\s)");
js_regex!(SEGMENT_SPLIT, r"\s*(?:&&|\|\||;)\s*");
js_regex!(CURL_SEGMENT, r"(?i-u:(^|\s)(curl|wget)\s)");
js_regex!(IS_CURL, r"(?i-u:\bcurl\b)");
js_regex!(CURL_FILE_OUT, r"\s(-o|--output)\s");
js_regex!(WGET_FILE_OUT, r"\s(-O|--output-document)\s");
js_regex!(CURL_STDOUT_ALIAS, r"\s(-o|--output)\s+(-|/dev/stdout)(\s|$)");
js_regex!(WGET_STDOUT_ALIAS, r"\s(-O|--output-document)\s+(-|/dev/stdout)(\s|$)");
js_regex!(VERBOSE, r"\s(-v|--verbose|--trace|-D\s+-)\b");
js_regex!(CURL_SILENT, r"\s-[a-zA-Z]*s|--silent");
js_regex!(WGET_SILENT, r"\s-[a-zA-Z]*q|--quiet");

/// What the curl/wget rule concluded about a command.
#[derive(Debug, PartialEq, Eq)]
pub enum FetchVerdict {
    /// No curl or wget word in command position.
    Absent,
    /// Every examined call writes quietly to a file: let it run and stop routing.
    AllSafe,
    /// At least one call would pour a response into the context.
    Flooding,
}

/// The curl/wget rule on a command whose quotes and heredocs are already stripped.
/// `allow` lists substrings (from the user's configuration) that make a call safe.
pub fn fetch_verdict(stripped: &str, allow: &[String]) -> FetchVerdict {
    // Compiling a pattern costs more than the rest of a hook; most commands never
    // mention the words the pattern needs.
    if !contains_ignore_ascii_case(stripped, &["curl", "wget"]) || !CURL_ANYWHERE.is_match(stripped) {
        return FetchVerdict::Absent;
    }
    for segment in SEGMENT_SPLIT.split(stripped) {
        let segment = js_trim(segment);
        if !CURL_SEGMENT.is_match(segment) {
            continue;
        }
        if allow.iter().any(|a| !a.is_empty() && segment.contains(a.as_str())) {
            continue;
        }
        if segment_floods(segment) {
            return FetchVerdict::Flooding;
        }
    }
    FetchVerdict::AllSafe
}

fn segment_floods(segment: &str) -> bool {
    let curl = IS_CURL.is_match(segment);
    let (file_out, stdout_alias, silent) = if curl {
        (&*CURL_FILE_OUT, &*CURL_STDOUT_ALIAS, &*CURL_SILENT)
    } else {
        (&*WGET_FILE_OUT, &*WGET_STDOUT_ALIAS, &*WGET_SILENT)
    };
    let writes_file = file_out.is_match(segment) || segment.contains('>');
    let safe = writes_file && !stdout_alias.is_match(segment) && !VERBOSE.is_match(segment) && silent.is_match(segment);
    !safe
}

js_regex!(INLINE_FETCH, r#"(?i-u:fetch\s*\(\s*['"](https?://|http))"#);
js_regex!(INLINE_REQUESTS, r"(?i-u:requests\.(get|post|put)\s*\()");
js_regex!(INLINE_HTTP, r"(?i-u:http\.(get|request)\s*\()");

/// Inline HTTP calls in script code (`fetch('http…`, `requests.get(`, `http.get(`),
/// checked on the command with heredocs removed but quotes kept.
pub fn has_inline_http(without_heredocs: &str) -> bool {
    if !contains_ignore_ascii_case(without_heredocs, &["fetch", "requests.", "http."]) {
        return false;
    }
    INLINE_FETCH.is_match(without_heredocs) || INLINE_REQUESTS.is_match(without_heredocs) || INLINE_HTTP.is_match(without_heredocs)
}

js_regex!(BUILD_TOOL, r"(?i-u:(^|\s|&&|\||;)(\./gradlew|gradlew|gradle|\./mvnw|mvnw|mvn|\./sbt|sbt)(\s|$))");

/// Gradle, Maven or sbt in command position.
pub fn runs_build_tool(stripped: &str) -> bool {
    contains_ignore_ascii_case(stripped, &["gradle", "mvn", "sbt"]) && BUILD_TOOL.is_match(stripped)
}

/// True when `text` contains one of `needles` (lower-case ASCII), ignoring ASCII case
/// only, as JS `/i` without the `u` flag does.
fn contains_ignore_ascii_case(text: &str, needles: &[&str]) -> bool {
    let lower = text.to_ascii_lowercase();
    needles.iter().any(|n| lower.contains(n))
}

/// Pipes, redirections, chains, substitutions and line breaks: the command is not a
/// single simple one. Equivalent to 1.0.169's `/[|`\n\r]|\$\(|>>|>|<(?!<)|&(?!&)|&&|\|\||;/`.
fn is_compound(cmd: &str) -> bool {
    let b = cmd.as_bytes();
    b.iter().enumerate().any(|(i, c)| match c {
        b'|' | b'`' | b'\n' | b'\r' | b';' | b'>' => true,
        b'$' => b.get(i + 1) == Some(&b'('),
        // `<(?!<)` and `&(?!&)`: some `<` (or `&`) not followed by another.
        b'<' | b'&' => b.get(i + 1) != Some(c),
        _ => false,
    })
}

js_regex!(
    BOUNDED,
    concat!(
        r"^pwd$|^whoami$|^hostname(\s+-[a-zA-Z]+)?$|^uname(\s+-[a-zA-Z]+)?$|^id(\s+\S+)?$|^date(\s+[^\r\n]+)?$",
        r"|^echo\s|^printf\s",
        r"|^which\s+\S+(\s+\S+)*$|^type\s+\S+(\s+\S+)*$|^command\s+-v\s+\S+(\s+\S+)*$",
        r"|^(readlink|basename|dirname|realpath|cd|mkdir)(\s+[^\r\n]+)?$|^touch\s+[^\r\n]+$",
        r"|^git\s+(status|rev-parse|branch|config\s+--get|diff\s+--stat|diff\s+--name-only)(\s+[^\r\n]+)?$",
        r"|^git\s+remote(\s+-v|\s+show\s+\S+)?$|^git\s+stash\s+list$|^git\s+tag(\s+-l(\s+[^\r\n]+)?)?$",
        r"|^git\s+log\s+-\d{1,2}(\s+[^\r\n]+)?$",
        r"|(^|\s)--version(\s|$)|^\S+\s+-V(\s|$)"
    )
);
// The two rules 1.0.169 writes with a lookahead right after the command word.
js_regex!(FILE_OP, r"^(mv|cp|rm|ln)\s+[^\r\n]+$");
js_regex!(FILE_OP_VERBOSE, r"^(mv|cp|rm|ln)(\s+-[a-zA-Z]*v[a-zA-Z]*|\s+--verbose\b)");
js_regex!(LS, r"^ls(\s+[^\r\n]+)?$");
js_regex!(LS_RECURSIVE, r"^ls(\s+-[a-zA-Z]*R|\s+--recursive)");

/// `isStructurallyBounded`: a single simple command whose output is short by nature
/// (`pwd`, `git status`, `x --version`, …). Pipes, redirections, chains and
/// substitutions disqualify it even inside quotes.
pub fn is_structurally_bounded(command: &str) -> bool {
    let cmd = js_trim(command);
    if cmd.is_empty() || is_compound(cmd) {
        return false;
    }
    BOUNDED.is_match(cmd)
        || (FILE_OP.is_match(cmd) && !FILE_OP_VERBOSE.is_match(cmd))
        || (LS.is_match(cmd) && !LS_RECURSIVE.is_match(cmd))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for re in [
            &CURL_ANYWHERE, &SEGMENT_SPLIT, &CURL_SEGMENT, &IS_CURL, &CURL_FILE_OUT, &WGET_FILE_OUT, &CURL_STDOUT_ALIAS, &WGET_STDOUT_ALIAS,
            &VERBOSE, &CURL_SILENT, &WGET_SILENT, &INLINE_FETCH, &INLINE_REQUESTS, &INLINE_HTTP, &BUILD_TOOL, &BOUNDED, &FILE_OP,
            &FILE_OP_VERBOSE, &LS, &LS_RECURSIVE,
        ] {
            Lazy::force(re);
        }
    }

    #[test]
    fn heredocs_are_removed_with_backreference_semantics() {
        assert_eq!(strip_heredocs("cat <<EOF\nhi\nEOF"), "cat ");
        assert_eq!(strip_heredocs("cat <<'EOF'\ncurl x\n  EOF\necho done"), "cat \necho done");
        assert_eq!(strip_heredocs("cat <<-EOF\nbody"), "cat <<-EOF\nbody");
        // Backtracking to a shorter delimiter, as JS does.
        assert_eq!(strip_heredocs("x <<EOFX\nEOF tail"), "x  tail");
    }

    #[test]
    fn quotes_keep_their_marks() {
        assert_eq!(strip_quoted(r#"git commit -m "fix curl" && echo 'wget x'"#), r#"git commit -m "" && echo ''"#);
        assert_eq!(strip_quoted("echo 'open"), "echo 'open");
    }

    #[test]
    fn fetch_rules() {
        let v = |c: &str| fetch_verdict(&strip_quoted(&strip_heredocs(c)), &[]);
        assert_eq!(v("curl -s https://x"), FetchVerdict::Flooding);
        assert_eq!(v("curl -s https://x > out.json"), FetchVerdict::AllSafe);
        assert_eq!(v("curl -s -D - -o f https://x"), FetchVerdict::AllSafe);
        assert_eq!(v("curl -s --trace-ascii t -o f https://x"), FetchVerdict::Flooding);
        assert_eq!(v("echo hi|curl https://x"), FetchVerdict::AllSafe);
        assert_eq!(v("/usr/bin/curl https://x"), FetchVerdict::Absent);
        assert_eq!(v("curl\thttps://x"), FetchVerdict::Flooding);
        assert_eq!(v("wget --quiet --output-document out https://x"), FetchVerdict::AllSafe);
        assert_eq!(fetch_verdict("curl http://localhost:3000/health", &["localhost".into()]), FetchVerdict::AllSafe);
    }

    #[test]
    fn bounded_commands() {
        for (cmd, want) in [
            ("pwd ", true),
            ("hostname foo", false),
            ("mv -fv a b", false),
            ("ls -l --recursive", true),
            ("ls -lR", false),
            ("git log -99", true),
            ("git log -100", false),
            ("git tag v1", false),
            ("foo --version=1", false),
            ("rm -rf / --version", true),
            ("a<<b", false),
            ("a<b", false),
            ("echo \"a|b\"", false),
            ("   ", false),
        ] {
            assert_eq!(is_structurally_bounded(cmd), want, "{cmd:?}");
        }
    }

    #[test]
    fn build_and_inline_http() {
        assert!(runs_build_tool("echo x|sbt test"));
        assert!(!runs_build_tool("gradle-wrapper --version"));
        assert!(runs_build_tool("MVN package"));
        assert!(has_inline_http("grep -r \"requests.get(\" src/"));
        assert!(!has_inline_http("python -c \"requests.delete('x')\""));
    }
}
