//! Reading tool arguments the way 1.0.169's schemas accept them: arrays may arrive as a
//! JSON-encoded string or a single bare string, booleans as `"true"`/`"false"`,
//! numbers as numeric strings. Anything else of the wrong type is a clear error.

use serde_json::Value;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid argument `{name}`: {reason}")]
pub struct ArgError {
    pub name: String,
    pub reason: String,
}

fn bad(name: &str, reason: impl Into<String>) -> ArgError {
    ArgError { name: name.to_string(), reason: reason.into() }
}

pub struct Args<'a>(pub &'a Value);

impl<'a> Args<'a> {
    fn raw(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    pub fn string(&self, name: &str) -> Result<Option<String>, ArgError> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(bad(name, format!("expected a string, got {}", kind(other)))),
        }
    }

    /// A string that must be present and non-blank.
    pub fn required_string(&self, name: &str) -> Result<String, ArgError> {
        match self.string(name)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            Some(_) => Err(bad(name, "must not be empty")),
            None => Err(bad(name, "is required")),
        }
    }

    pub fn boolean(&self, name: &str) -> Result<Option<bool>, ArgError> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(Some(true)),
                "false" => Ok(Some(false)),
                _ => Err(bad(name, format!("expected true or false, got {s:?}"))),
            },
            Some(other) => Err(bad(name, format!("expected a boolean, got {}", kind(other)))),
        }
    }

    pub fn number(&self, name: &str) -> Result<Option<f64>, ArgError> {
        let n = match self.raw(name) {
            None => return Ok(None),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
            Some(other) => return Err(bad(name, format!("expected a number, got {}", kind(other)))),
        };
        match n {
            Some(n) if n.is_finite() => Ok(Some(n)),
            _ => Err(bad(name, "expected a finite number")),
        }
    }

    /// An integer within `min..=max`.
    pub fn integer(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, ArgError> {
        match self.number(name)? {
            None => Ok(None),
            Some(n) if n.fract() != 0.0 => Err(bad(name, format!("expected a whole number, got {n}"))),
            Some(n) if (n as i64) < min || (n as i64) > max => Err(bad(name, format!("must be between {min} and {max}, got {n}"))),
            Some(n) => Ok(Some(n as i64)),
        }
    }

    /// An array, also given as a JSON-encoded string or one bare string.
    pub fn array(&self, name: &str) -> Result<Option<Vec<Value>>, ArgError> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Array(items)) => Ok(Some(items.clone())),
            Some(Value::String(s)) => {
                let t = s.trim();
                if t.starts_with('[') {
                    match serde_json::from_str::<Value>(t) {
                        Ok(Value::Array(items)) => return Ok(Some(items)),
                        _ => return Err(bad(name, "is not a valid JSON array")),
                    }
                }
                if t.is_empty() {
                    return Err(bad(name, "must not be empty"));
                }
                Ok(Some(vec![Value::String(s.clone())]))
            }
            Some(other) => Err(bad(name, format!("expected an array, got {}", kind(other)))),
        }
    }

    /// An array of strings.
    pub fn strings(&self, name: &str) -> Result<Option<Vec<String>>, ArgError> {
        let Some(items) = self.array(name)? else { return Ok(None) };
        items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                other => Err(bad(name, format!("expected strings, got {}", kind(&other)))),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// One of the allowed values.
    pub fn choice(&self, name: &str, allowed: &[&str]) -> Result<Option<String>, ArgError> {
        match self.string(name)? {
            Some(s) if allowed.contains(&s.as_str()) => Ok(Some(s)),
            Some(s) => Err(bad(name, format!("must be one of {}, got {s:?}", allowed.join(", ")))),
            None => Ok(None),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn coercions() {
        let v = json!({"q": "[\"a\",\"b\"]", "one": "solo", "flag": " TRUE ", "n": "12", "bad": 5});
        let a = Args(&v);
        assert_eq!(a.strings("q").unwrap(), Some(vec!["a".into(), "b".into()]));
        assert_eq!(a.strings("one").unwrap(), Some(vec!["solo".into()]));
        assert_eq!(a.boolean("flag").unwrap(), Some(true));
        assert_eq!(a.integer("n", 1, 20).unwrap(), Some(12));
        assert!(a.integer("n", 1, 5).is_err());
        assert!(a.string("bad").is_err());
        assert!(a.required_string("missing").is_err());
    }
}
