//! Markdown: a chunk per section. Headings (H1–H4) open a section titled by the
//! heading path (`Install > Linux`), horizontal rules close one, and fenced code blocks
//! stay whole so a `#` comment inside code is never read as a heading. A section over
//! the cap is packed paragraph by paragraph.

use super::{Chunk, MAX_CHUNK_BYTES};

struct Section {
    lines: Vec<String>,
    first_line: u32,
    code: bool,
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    if !(1..=4).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let text = rest.trim();
    (!text.is_empty()).then_some((level, text))
}

fn is_rule(line: &str) -> bool {
    let t = line.trim_end();
    t.len() >= 3 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'_') || t.bytes().all(|b| b == b'*'))
}

/// The fence that opens a code block (three or more backticks or tildes).
fn fence(line: &str) -> Option<&str> {
    let t = line.trim_start();
    for mark in ['`', '~'] {
        let n = t.chars().take_while(|c| *c == mark).count();
        if n >= 3 {
            return Some(&t[..n]);
        }
    }
    None
}

/// A line of only the fence character, at least as long as the opening fence.
fn closes_fence(line: &str, open: &str) -> bool {
    let t = line.trim();
    let mark = open.chars().next().unwrap_or('`');
    t.len() >= open.len() && t.chars().all(|c| c == mark)
}

pub fn chunk(text: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut section = Section { lines: Vec::new(), first_line: 1, code: false };
    let lines: Vec<&str> = text.lines().collect();
    let title_of = |stack: &[(usize, String)]| {
        if stack.is_empty() {
            "Untitled".to_string()
        } else {
            stack.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(" > ")
        }
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let line_no = i as u32 + 1;
        if let Some(open) = fence(line) {
            if section.lines.is_empty() {
                section.first_line = line_no;
            }
            section.code = true;
            section.lines.push(line.to_string());
            i += 1;
            while i < lines.len() {
                section.lines.push(lines[i].to_string());
                let closes = closes_fence(lines[i], open);
                i += 1;
                if closes {
                    break;
                }
            }
            continue;
        }
        if let Some((level, title)) = heading(line) {
            flush(&mut out, &mut section, &title_of(&stack));
            stack.retain(|(l, _)| *l < level);
            stack.push((level, title.to_string()));
            section.first_line = line_no;
            section.lines.push(line.to_string());
        } else if is_rule(line) {
            flush(&mut out, &mut section, &title_of(&stack));
        } else {
            if section.lines.is_empty() {
                section.first_line = line_no;
            }
            section.lines.push(line.to_string());
        }
        i += 1;
    }
    flush(&mut out, &mut section, &title_of(&stack));
    out
}

fn flush(out: &mut Vec<Chunk>, section: &mut Section, title: &str) {
    let lines = std::mem::take(&mut section.lines);
    let code = std::mem::replace(&mut section.code, false);
    let content = lines.join("\n");
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return;
    }
    let leading_blank = lines.iter().take_while(|l| l.trim().is_empty()).count() as u32;
    let first_line = section.first_line + leading_blank;
    if trimmed.len() <= MAX_CHUNK_BYTES {
        out.push(Chunk { title: title.to_string(), content: trimmed.to_string(), code, line: Some(first_line) });
        return;
    }
    // Pack paragraphs (blank-line separated, fences kept together) up to the cap.
    let mut parts: Vec<(String, u32)> = Vec::new();
    let mut current = String::new();
    let mut current_start = first_line;
    let mut paragraph = String::new();
    let mut paragraph_start = first_line;
    let mut in_fence: Option<String> = None;
    let push_paragraph = |paragraph: &mut String, start: u32, current: &mut String, current_start: &mut u32, parts: &mut Vec<(String, u32)>| {
        if paragraph.trim().is_empty() {
            paragraph.clear();
            return;
        }
        if !current.is_empty() && current.len() + 2 + paragraph.len() > MAX_CHUNK_BYTES {
            parts.push((std::mem::take(current), *current_start));
        }
        if current.is_empty() {
            *current_start = start;
        } else {
            current.push_str("\n\n");
        }
        current.push_str(paragraph.trim_end());
        paragraph.clear();
    };
    for (offset, line) in lines.iter().enumerate().skip(leading_blank as usize) {
        let line_no = section.first_line + offset as u32;
        if let Some(open) = &in_fence {
            paragraph.push_str(line);
            paragraph.push('\n');
            if closes_fence(line, open) {
                in_fence = None;
            }
            continue;
        }
        if let Some(open) = fence(line) {
            if paragraph.is_empty() {
                paragraph_start = line_no;
            }
            in_fence = Some(open.to_string());
            paragraph.push_str(line);
            paragraph.push('\n');
            continue;
        }
        if line.trim().is_empty() {
            push_paragraph(&mut paragraph, paragraph_start, &mut current, &mut current_start, &mut parts);
            continue;
        }
        if paragraph.is_empty() {
            paragraph_start = line_no;
        }
        paragraph.push_str(line);
        paragraph.push('\n');
    }
    push_paragraph(&mut paragraph, paragraph_start, &mut current, &mut current_start, &mut parts);
    if !current.is_empty() {
        parts.push((current, current_start));
    }
    let many = parts.len() > 1;
    for (i, (content, line)) in parts.into_iter().enumerate() {
        let title = if many { format!("{title} ({})", i + 1) } else { title.to_string() };
        let code = content.contains("```") || content.contains("~~~");
        out.push(Chunk { title, content, code, line: Some(line) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_headings() {
        let md = "intro\n# Install\nsteps\n## Linux\napt\n```sh\n# not a heading\n```\n#### Deep\nx\n##### five is body\n---\nafter rule\n# Usage\nrun";
        let chunks = chunk(md);
        let titles: Vec<_> = chunks.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["Untitled", "Install", "Install > Linux", "Install > Linux > Deep", "Install > Linux > Deep", "Usage"]);
        assert!(chunks[2].content.contains("# not a heading"));
        assert!(chunks[2].code);
        assert_eq!(chunks[1].line, Some(2));
        assert_eq!(chunks[2].line, Some(4));
        assert!(chunks[3].content.contains("##### five is body"));
    }

    #[test]
    fn long_sections_are_packed_by_paragraph() {
        let para = "word ".repeat(200);
        let md = format!("# Big\n{}", vec![para.as_str(); 12].join("\n\n"));
        let chunks = chunk(&md);
        assert!(chunks.len() >= 3);
        assert!(chunks.iter().all(|c| c.content.len() <= MAX_CHUNK_BYTES));
        assert_eq!(chunks[0].title, "Big (1)");
    }
}
