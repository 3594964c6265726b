//! JSON the way JavaScript sees it.
//!
//! Hosts read our stdout byte for byte, and 1.0.169 produced it with `JSON.parse` and
//! `JSON.stringify`. serde_json (with `preserve_order`) parses the same documents; this
//! module adds what differs: JS whitespace trimming, ECMAScript number formatting,
//! JS string escaping, integer-like keys listed first, and JS `String(x)` conversion.

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// Whitespace as JS `String.prototype.trim` and the regex class `\s` define it
/// (U+FEFF included, U+0085 excluded — the opposite of Rust's `char::is_whitespace`).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0B}'
            | '\u{0C}'
            | '\r'
            | ' '
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// JS `s.trim()`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// Removes one leading byte-order mark, as the hook stdin readers do.
pub fn strip_bom(s: &str) -> &str {
    s.strip_prefix('\u{FEFF}').unwrap_or(s)
}

/// JS truthiness of a JSON value.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// JS `String(v)`.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format_number(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Null => String::new(),
                other => js_string(other),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

/// ECMAScript `Number.prototype.toString()` for a finite double.
pub fn format_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    // `{:e}` yields the shortest round-trip digits: "1.2345e-7" or "5e21".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let k = digits.len() as i32;
    let n = exp + 1;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n - 1 >= 0 { '+' } else { '-' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
    out
}

/// True for keys JS treats as array indices, which own-property order lists first.
fn is_index_key(key: &str) -> bool {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    if key.len() > 1 && key.starts_with('0') {
        return false;
    }
    key.parse::<u64>().is_ok_and(|n| n < u32::MAX as u64)
}

/// Keys of an object in JS own-property order.
pub fn js_key_order(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut index: Vec<(&String, &Value)> = Vec::new();
    let mut named: Vec<(&String, &Value)> = Vec::new();
    for (k, v) in map {
        if is_index_key(k) {
            index.push((k, v));
        } else {
            named.push((k, v));
        }
    }
    if index.is_empty() {
        return named;
    }
    index.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(0));
    index.extend(named);
    index
}

/// JS `JSON.stringify(v)` (compact).
pub fn stringify(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v);
    out
}

fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.is_finite() {
                out.push_str(&format_number(f));
            } else {
                out.push_str("null");
            }
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in js_key_order(map).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// A JSON string literal with JS escaping: short escapes, `\u00xx` in lowercase hex for
/// other control characters, everything else (including U+2028 and `/`) raw.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            0x00..=0x1f => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match escape {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Error from [`parse_payload`]; displays like the JS exception it stands for.
#[derive(Debug, thiserror::Error)]
#[error("SyntaxError: {0}")]
pub struct SyntaxError(pub String);

/// `parseStdin`: drop one BOM, trim as JS does, `{}` for nothing, else parse.
pub fn parse_payload(raw: &str) -> Result<Value, SyntaxError> {
    let text = js_trim(strip_bom(raw));
    if text.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(text).map_err(|e| SyntaxError(describe_parse_error(&e, text)))
}

/// A parse error in our words, with the position a user can find in the payload.
fn describe_parse_error(e: &serde_json::Error, text: &str) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Eof => "the JSON payload ends early",
        Category::Syntax => "the payload is not valid JSON",
        Category::Data | Category::Io => "the JSON payload could not be read",
    };
    let _ = text;
    format!("{what} (line {} column {})", e.line(), e.column())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_format_like_ecmascript() {
        let cases = [
            (1.0, "1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (12345678901234567890.0, "12345678901234567000"),
            (-0.0, "0"),
            (0.1, "0.1"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123.456, "123.456"),
            (-42.0, "-42"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ];
        for (x, want) in cases {
            assert_eq!(format_number(x), want, "{x}");
        }
    }

    #[test]
    fn stringify_matches_json_stringify() {
        let v: Value = serde_json::from_str(r#"{"b":1.0,"2":"x","a":[true,null],"1":"\u2028/\u0001\t"}"#).unwrap();
        assert_eq!(stringify(&v), "{\"1\":\"\u{2028}/\\u0001\\t\",\"2\":\"x\",\"b\":1,\"a\":[true,null]}");
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let v: Value = serde_json::from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(stringify(&v), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn trim_follows_js() {
        assert_eq!(js_trim("\u{FEFF} x \u{2029}"), "x");
        assert_eq!(js_trim("\u{85}x"), "\u{85}x");
    }

    #[test]
    fn parse_payload_handles_empty_and_bom() {
        assert_eq!(parse_payload("").unwrap(), json!({}));
        assert_eq!(parse_payload("\u{FEFF}\u{FEFF}{}").unwrap(), json!({}));
        assert_eq!(parse_payload(" \u{FEFF}{}").unwrap(), json!({}));
        assert!(parse_payload("{bad").is_err());
        assert!(parse_payload("\u{85}{}").is_err());
    }

    #[test]
    fn js_string_conversions() {
        assert_eq!(js_string(&json!(null)), "null");
        assert_eq!(js_string(&json!([1, null, "a"])), "1,,a");
        assert_eq!(js_string(&json!({"a": 1})), "[object Object]");
        assert_eq!(js_string(&json!(12345)), "12345");
    }

    #[test]
    fn index_keys() {
        assert!(is_index_key("0"));
        assert!(is_index_key("4294967294"));
        assert!(!is_index_key("4294967295"));
        assert!(!is_index_key("01"));
        assert!(!is_index_key("-1"));
    }
}
