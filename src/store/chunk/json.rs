//! JSON: a chunk per subtree small enough to read on its own, titled by its key path
//! (`users > user-7`). Arrays are batched and named after their items' `id`/`name`/…;
//! text that is not valid JSON is chunked as plain text.

use super::{text, Chunk, MAX_CHUNK_BYTES};
use serde_json::Value;

const ID_FIELDS: &[&str] = &["id", "name", "title", "path", "slug", "key", "label"];

pub fn chunk(input: &str) -> Vec<Chunk> {
    match serde_json::from_str::<Value>(input) {
        Ok(v) => {
            let mut out = Vec::new();
            walk(&v, &mut Vec::new(), &mut out);
            out
        }
        Err(_) => text::chunk(input),
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn path_title(path: &[String]) -> String {
    if path.is_empty() {
        "(root)".into()
    } else {
        path.join(" > ")
    }
}

fn push(out: &mut Vec<Chunk>, title: String, v: &Value) {
    let code = !matches!(v, Value::String(_));
    let content = match v {
        Value::String(s) => s.clone(),
        other => pretty(other),
    };
    out.push(Chunk { title, content, code, line: None });
}

fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Chunk>) {
    let text = pretty(v);
    if text.len() <= MAX_CHUNK_BYTES {
        // Small enough to read whole: keys stay next to their values.
        push(out, path_title(path), v);
        return;
    }
    match v {
        Value::Object(m) => {
            // Members that fit together form one chunk titled by this object; large
            // ones get their own.
            let mut small = serde_json::Map::new();
            let mut small_size = 2;
            for (k, child) in m {
                let size = pretty(child).len() + k.len() + 8;
                if size * 4 <= MAX_CHUNK_BYTES && small_size + size <= MAX_CHUNK_BYTES {
                    small.insert(k.clone(), child.clone());
                    small_size += size;
                } else {
                    path.push(k.clone());
                    walk(child, path, out);
                    path.pop();
                }
            }
            if !small.is_empty() {
                push(out, path_title(path), &Value::Object(small));
            }
        }
        Value::Array(items) => array(items, path, out),
        _ => push(out, path_title(path), v),
    }
}

/// The name of an array item, from the id-like field the first item has.
fn item_name(field: Option<&str>, item: &Value, index: usize) -> String {
    match field.and_then(|f| item.get(f)) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => format!("[{index}]"),
    }
}

fn array(items: &[Value], path: &mut Vec<String>, out: &mut Vec<Chunk>) {
    let field = items.first().and_then(|first| ID_FIELDS.iter().copied().find(|f| matches!(first.get(*f), Some(Value::String(_) | Value::Number(_)))));
    let base = path_title(path);
    let mut batch: Vec<(usize, &Value)> = Vec::new();
    let mut size = 2;
    let flush = |batch: &mut Vec<(usize, &Value)>, out: &mut Vec<Chunk>| {
        if batch.is_empty() {
            return;
        }
        let names: Vec<String> = batch.iter().map(|(i, v)| item_name(field, v, *i)).collect();
        let label = match names.len() {
            1..=3 => names.join(", "),
            _ => format!("{}…{}", names[0], names[names.len() - 1]),
        };
        let values = Value::Array(batch.iter().map(|(_, v)| (*v).clone()).collect());
        push(out, format!("{base} > {label}"), &values);
        batch.clear();
    };
    for (i, item) in items.iter().enumerate() {
        // Inside the batch array every line is indented two more spaces.
        let text = pretty(item);
        let item_size = text.len() + 2 * text.lines().count() + 4;
        if item_size > MAX_CHUNK_BYTES {
            flush(&mut batch, out);
            size = 2;
            path.push(item_name(field, item, i));
            walk(item, path, out);
            path.pop();
            continue;
        }
        if size + item_size > MAX_CHUNK_BYTES {
            flush(&mut batch, out);
            size = 2;
        }
        batch.push((i, item));
        size += item_size;
    }
    flush(&mut batch, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_are_named_after_their_items() {
        let users: Vec<Value> = (0..60).map(|i| serde_json::json!({"id": format!("user-{i}"), "email": format!("u{i}@example.test"), "bio": "x".repeat(80)})).collect();
        let doc = serde_json::json!({"users": users, "meta": {"page": 1}});
        let chunks = chunk(&doc.to_string());
        assert!(chunks[0].title.starts_with("users > user-0…"), "{}", chunks[0].title);
        assert!(chunks.iter().any(|c| c.title == "(root)" && c.content.contains("\"page\": 1")));
        assert!(chunks.iter().all(|c| c.content.len() <= MAX_CHUNK_BYTES && c.code));
    }

    #[test]
    fn invalid_json_is_text() {
        assert_eq!(chunk("not json at all")[0].title, "not json at all");
    }
}
