//! Masking secrets before anything is stored in the session log or injected back into
//! a conversation: API keys and tokens of well-known shapes, `Authorization` headers,
//! credentials in URLs, private keys, and the values of settings whose names say they
//! are secret (`password=…`, `"api_key": "…"`, `.env` lines).

use once_cell::sync::Lazy;
use regex::Regex;
use std::borrow::Cow;

/// What a masked value becomes.
pub const MASK: &str = "***";

/// Compiles one of our patterns. They use explicit ASCII classes and `(?i-u:…)`
/// groups because the regex crate is built without Unicode tables.
fn re(p: &str) -> Regex {
    Regex::new(p).unwrap_or_else(|e| panic!("redaction pattern {p:?}: {e}"))
}

/// Names that mark a value as secret (`DB_PASSWORD`, `api-key`, `x_auth_token`).
const SECRET_NAME: &str = r"(?i-u:[A-Za-z0-9_.-]*(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credential|cookie|session[_-]?key|auth[_-]?key|signature|dsn)[A-Za-z0-9_.-]*)";
const SPACE: &str = "[ \t\r\n]";
const NOT_SPACE: &str = "[^ \t\r\n]";

static RULES: Lazy<Vec<(Regex, &'static str)>> = Lazy::new(|| {
    vec![
        // PEM private keys, whole block.
        (re(r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|$)"), "-----BEGIN PRIVATE KEY----- *** -----END PRIVATE KEY-----"),
        // Authorization headers: keep the scheme.
        (re(&format!(r#"((?i-u:authorization)["']?{SPACE}*[:=]{SPACE}*["']?(?:(?i-u:bearer|basic|token|bot){SPACE}+)?)[A-Za-z0-9._~+/=-]{{6,}}"#)), "${1}***"),
        // Credentials in URLs.
        (re(r#"([a-zA-Z][a-zA-Z0-9+.-]*://[^ \t\r\n:/@"']+:)[^ \t\r\n@/"']+@"#), "${1}***@"),
        // Tokens with a recognisable shape, wherever they appear.
        (
            re(r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|sk-ant-[A-Za-z0-9_-]{20,}|sk-proj-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{32,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})"),
            MASK,
        ),
        // "password": "value" and 'token': 'value' in JSON or code.
        (re(&format!(r#"(["']{SECRET_NAME}["']{SPACE}*:{SPACE}*["'])[^"']+(["'])"#)), "${1}***${2}"),
        // password=value, API_KEY: value, export TOKEN=value (also .env lines).
        (re(&format!(r#"((?:(?m:^)|[ \t\r\n;&|,?({{])(?:export{SPACE}+)?{SECRET_NAME}[ \t]*[=:][ \t]*)(["']?)[^ \t\r\n"'&;,)}}]+"#)), "${1}${2}***"),
        // "my password is hunter2".
        (re(&format!(r"((?i-u:password|passphrase|token|secret|api key){SPACE}+is{SPACE}+){NOT_SPACE}+")), "${1}***"),
    ]
});

/// `text` with every secret it shows masked.
pub fn mask(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for (pattern, replacement) in RULES.iter() {
        if pattern.is_match(&out) {
            out = Cow::Owned(pattern.replace_all(&out, *replacement).into_owned());
        }
    }
    out
}

/// Object keys whose values are dropped from structured arguments.
pub fn is_secret_key(key: &str) -> bool {
    static KEY: Lazy<Regex> = Lazy::new(|| re(&format!("^{SECRET_NAME}$")));
    KEY.is_match(key) || key.eq_ignore_ascii_case("authorization")
}

/// A JSON value with secret-named keys replaced and secrets inside strings masked.
pub fn mask_json(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), if is_secret_key(k) { Value::String(MASK.into()) } else { mask_json(v) })).collect()),
        Value::Array(a) => Value::Array(a.iter().map(mask_json).collect()),
        Value::String(s) => Value::String(mask(s).into_owned()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_masked() {
        let cases = [
            ("curl -H 'Authorization: Bearer abcdef123456789' https://x", "Authorization: Bearer ***"),
            ("export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123", "export GITHUB_TOKEN=***"),
            ("DB_PASSWORD=hunter2hunter2\nPORT=3000", "DB_PASSWORD=***"),
            (r#"{"api_key": "k-123456", "name": "x"}"#, r#""api_key": "***""#),
            ("use sk-ant-api03-abcdefghijklmnopqrstuvwxyz please", "use *** please"),
            ("postgres://admin:s3cr3t@db:5432/app", "postgres://admin:***@db:5432/app"),
            ("my password is hunter2", "my password is ***"),
            ("key AKIAABCDEFGHIJKLMNOP here", "key *** here"),
        ];
        for (input, want) in cases {
            let got = mask(input);
            assert!(got.contains(want), "{input:?} → {got:?}");
        }
        assert!(!mask("DB_PASSWORD=hunter2hunter2\nPORT=3000").contains("hunter2"));
        assert_eq!(mask("PORT=3000 and tokenizer settings"), "PORT=3000 and tokenizer settings");
        assert_eq!(mask("plain text, nothing to hide: 42"), "plain text, nothing to hide: 42");
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----";
        assert!(!mask(key).contains("MIIEow"));
    }

    #[test]
    fn json_keys() {
        let v = serde_json::json!({"headers": {"Authorization": "Bearer x"}, "password": "p", "query": "ok"});
        let m = mask_json(&v);
        assert_eq!(m["headers"]["Authorization"], "***");
        assert_eq!(m["password"], "***");
        assert_eq!(m["query"], "ok");
    }
}
