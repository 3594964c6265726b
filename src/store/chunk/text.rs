//! Plain text and logs. Text made of short blank-line-separated sections gets a chunk
//! per section; anything else is cut into windows of lines with a two-line overlap, so
//! a match across a window edge is still found. Titles are the first line of a chunk.

use super::{Chunk, MAX_CHUNK_BYTES};

const WINDOW_LINES: usize = 20;
const OVERLAP_LINES: usize = 2;
const WINDOW_BYTES: usize = 3072;
const TITLE_CHARS: usize = 80;

fn title_of(content: &str, fallback: impl FnOnce() -> String) -> String {
    let first = content.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if first.is_empty() {
        fallback()
    } else {
        first.chars().take(TITLE_CHARS).collect()
    }
}

pub fn chunk(text: &str) -> Vec<Chunk> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    if let Some(sections) = sections(text) {
        return sections;
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= WINDOW_LINES && text.len() <= MAX_CHUNK_BYTES {
        return vec![Chunk { title: title_of(text, || "Output".into()), content: text.trim_end().to_string(), code: false, line: Some(1) }];
    }
    let mut out = Vec::new();
    let mut start = 0;
    while start < lines.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < lines.len() && end - start < WINDOW_LINES && (bytes == 0 || bytes + lines[end].len() < WINDOW_BYTES) {
            bytes += lines[end].len() + 1;
            end += 1;
        }
        let content = lines[start..end].join("\n");
        if !content.trim().is_empty() {
            let (a, b) = (start + 1, end);
            out.push(Chunk { title: title_of(&content, || format!("Lines {a}-{b}")), content, code: false, line: Some(start as u32 + 1) });
        }
        if end >= lines.len() {
            break;
        }
        // Step back for the overlap, but always move forward.
        start = if end - start > OVERLAP_LINES { end - OVERLAP_LINES } else { end };
    }
    out
}

/// One chunk per blank-line-separated section when there are 3–200 of them and each
/// is small; `None` when the text is not shaped like that.
fn sections(text: &str) -> Option<Vec<Chunk>> {
    let mut found: Vec<(String, u32)> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut start = 1u32;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                found.push((current.join("\n"), start));
                current.clear();
            }
            continue;
        }
        if current.is_empty() {
            start = i as u32 + 1;
        }
        current.push(line);
    }
    if !current.is_empty() {
        found.push((current.join("\n"), start));
    }
    if !(3..=200).contains(&found.len()) || found.iter().any(|(s, _)| s.len() >= 5000) {
        return None;
    }
    Some(
        found
            .into_iter()
            .enumerate()
            .map(|(i, (content, line))| Chunk { title: title_of(&content, || format!("Section {}", i + 1)), content, code: false, line: Some(line) })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_become_overlapping_windows_without_empty_tails() {
        let log: String = (1..=55).map(|i| format!("2026-11-29 line {i}\n")).collect();
        let chunks = chunk(&log);
        assert_eq!(chunks[0].line, Some(1));
        assert_eq!(chunks[1].line, Some(19));
        assert!(chunks.iter().all(|c| !c.content.trim().is_empty()));
        assert!(chunks.last().unwrap().content.contains("line 55"));
    }

    #[test]
    fn sections_when_the_text_has_them() {
        let t = "alpha one\nmore\n\nbeta two\n\ngamma three";
        let chunks = chunk(t);
        assert_eq!(chunks.iter().map(|c| c.title.as_str()).collect::<Vec<_>>(), ["alpha one", "beta two", "gamma three"]);
        assert_eq!(chunks[1].line, Some(4));
    }
}
