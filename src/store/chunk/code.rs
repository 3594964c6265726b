//! Source code: chunks start at top-level definitions (functions, classes, types,
//! impls) and are titled by the definition's signature, so a symbol search lands on
//! the code that defines it.

use super::{Chunk, MAX_CHUNK_BYTES};

/// Code chunks stay small: a symbol search should return the definition, not a page.
const TARGET_BYTES: usize = 2048;
const TITLE_CHARS: usize = 100;

const DEFINITION_STARTS: &[&str] = &[
    "export ", "function ", "async function", "class ", "interface ", "type ", "enum ", "def ", "async def ", "fn ", "pub ", "impl", "struct ",
    "trait ", "mod ", "func ", "const ", "let ", "var ", "public ", "private ", "protected ", "static ", "module ", "@",
];

/// A line that starts a new top-level definition (no indentation).
fn is_definition(line: &str) -> bool {
    !line.starts_with([' ', '\t']) && DEFINITION_STARTS.iter().any(|d| line.starts_with(d)) || is_shell_function(line)
}

fn is_shell_function(line: &str) -> bool {
    let t = line.trim_end();
    !line.starts_with([' ', '\t']) && (t.ends_with("() {") || t.ends_with("(){"))
}

fn title_of(lines: &[&str], fallback: &str) -> String {
    let line = lines.iter().find(|l| is_definition(l)).or_else(|| lines.iter().find(|l| !l.trim().is_empty())).copied().unwrap_or(fallback);
    let t = line.trim().trim_end_matches(['{', ':']).trim();
    t.chars().take(TITLE_CHARS).collect()
}

pub fn chunk(text: &str) -> Vec<Chunk> {
    let lines: Vec<&str> = text.lines().collect();
    // Blocks: a definition line and everything up to the next one, with the comments
    // and blank lines right above a definition moved to it.
    let mut starts = vec![0];
    for (i, line) in lines.iter().enumerate().skip(1) {
        if is_definition(line) {
            let mut s = i;
            while s > 0 && (lines[s - 1].trim_start().starts_with(['#', '/', '*']) || lines[s - 1].trim_start().starts_with("--")) && !lines[s - 1].starts_with([' ', '\t']) {
                s -= 1;
            }
            if s > *starts.last().unwrap_or(&0) {
                starts.push(s);
            }
        }
    }
    starts.push(lines.len());
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut current_start = 0;
    for w in starts.windows(2) {
        let block = &lines[w[0]..w[1]];
        let size: usize = block.iter().map(|l| l.len() + 1).sum();
        let current_size: usize = current.iter().map(|l| l.len() + 1).sum();
        if !current.is_empty() && (current_size + size > TARGET_BYTES || current.iter().any(|l| is_definition(l)) && block.iter().any(|l| is_definition(l)) && current_size > TARGET_BYTES / 4) {
            push(&mut out, &current, current_start);
            current.clear();
        }
        if current.is_empty() {
            current_start = w[0];
        }
        current.extend_from_slice(block);
    }
    push(&mut out, &current, current_start);
    out
}

fn push(out: &mut Vec<Chunk>, lines: &[&str], start: usize) {
    let content = lines.join("\n");
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return;
    }
    let leading = lines.iter().take_while(|l| l.trim().is_empty()).count();
    let title = title_of(lines, "Code");
    let chunk = Chunk { title, content: trimmed.to_string(), code: true, line: Some((start + leading) as u32 + 1) };
    if chunk.content.len() > MAX_CHUNK_BYTES {
        out.extend(super::cap(chunk));
    } else {
        out.push(chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_start_chunks_and_title_them() {
        let body = "    x = 1\n".repeat(60);
        let src = format!("import os\n\n# Checks a signature.\ndef verify_signature(a, b):\n{body}\nclass Signer:\n{body}");
        let chunks = chunk(&src);
        assert!(chunks.iter().any(|c| c.title == "def verify_signature(a, b)" && c.content.contains("# Checks")), "{:?}", chunks.iter().map(|c| &c.title).collect::<Vec<_>>());
        assert!(chunks.iter().any(|c| c.title == "class Signer"));
        let sig = chunks.iter().find(|c| c.title.starts_with("def verify")).unwrap();
        assert_eq!(sig.line, Some(1));
    }
}
