//! Cutting content into searchable chunks. Every chunker ends in [`cap`], so no chunk
//! exceeds [`MAX_CHUNK_BYTES`] whatever the input (a minified bundle, a log without
//! blank lines, a 10 MB JSON string).

pub mod code;
pub mod json;
pub mod markdown;
pub mod text;

/// The largest chunk we store, in bytes (1.0.169's limit, which it did not enforce on
/// every path).
pub const MAX_CHUNK_BYTES: usize = 4096;

/// One searchable piece of a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub title: String,
    pub content: String,
    /// Contains code (a fenced block, or JSON).
    pub code: bool,
    /// 1-based line of the source where the chunk starts, when known.
    pub line: Option<u32>,
}

/// How a text should be cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKind {
    Markdown,
    Text,
    Json,
    Code,
}

impl ContentKind {
    /// The chunker for a file name (markdown for docs and code, JSON for `.json`, plain
    /// text for logs and the rest).
    pub fn for_path(path: &str) -> ContentKind {
        let lower = path.to_ascii_lowercase();
        const CODE: &[&str] = &[
            ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".py", ".rs", ".go", ".sh", ".bash", ".rb", ".java", ".kt", ".c", ".h", ".cpp", ".cs", ".php", ".swift", ".scala", ".lua",
        ];
        if lower.ends_with(".json") {
            ContentKind::Json
        } else if CODE.iter().any(|e| lower.ends_with(e)) {
            ContentKind::Code
        } else if [".log", ".txt", ".csv", ".tsv", ".out"].iter().any(|e| lower.ends_with(e)) {
            ContentKind::Text
        } else {
            ContentKind::Markdown
        }
    }
}

/// Cuts `text` with the chunker for `kind`.
pub fn chunk(text: &str, kind: ContentKind) -> Vec<Chunk> {
    let chunks = match kind {
        ContentKind::Markdown => markdown::chunk(text),
        ContentKind::Text => text::chunk(text),
        ContentKind::Json => json::chunk(text),
        ContentKind::Code => code::chunk(text),
    };
    chunks.into_iter().flat_map(cap).filter(|c| !c.content.trim().is_empty()).collect()
}

/// Splits a chunk over the cap: at line breaks first, then inside a long line at the
/// last space past half the slice, else at a character boundary. Parts keep the title
/// with ` (n/m)`.
pub fn cap(c: Chunk) -> Vec<Chunk> {
    if c.content.len() <= MAX_CHUNK_BYTES {
        return vec![c];
    }
    let mut pieces: Vec<(String, u32)> = Vec::new();
    let mut current = String::new();
    let mut current_line = 0u32;
    let mut line_no = 0u32;
    for line in c.content.split_inclusive('\n') {
        if current.len() + line.len() > MAX_CHUNK_BYTES && !current.is_empty() {
            pieces.push((std::mem::take(&mut current), current_line));
        }
        if current.is_empty() {
            current_line = line_no;
        }
        if line.len() > MAX_CHUNK_BYTES {
            for slice in split_long_line(line) {
                pieces.push((slice.to_string(), line_no));
            }
        } else {
            current.push_str(line);
        }
        line_no += 1;
    }
    if !current.is_empty() {
        pieces.push((current, current_line));
    }
    let total = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, (content, offset))| Chunk {
            title: format!("{} ({}/{})", c.title, i + 1, total),
            code: c.code,
            line: c.line.map(|l| l + offset),
            content,
        })
        .collect()
}

/// Slices of at most the cap, cut after whitespace when one lies in the second half.
fn split_long_line(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while rest.len() > MAX_CHUNK_BYTES {
        let mut end = MAX_CHUNK_BYTES;
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let window = &rest[..end];
        if let Some(space) = window.rfind([' ', '\t']) {
            if space > end / 2 {
                end = space + 1;
            }
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minified_bundle_is_capped() {
        let bundle = "function a(){return 1};".repeat(20_000);
        for kind in [ContentKind::Markdown, ContentKind::Text, ContentKind::Json, ContentKind::Code] {
            let chunks = chunk(&bundle, kind);
            assert!(chunks.len() > 100);
            assert!(chunks.iter().all(|c| c.content.len() <= MAX_CHUNK_BYTES), "{kind:?}");
            let total: usize = chunks.iter().map(|c| c.content.len()).sum();
            assert!(total >= bundle.len() - chunks.len() * 2, "nothing is lost: {total} of {}", bundle.len());
        }
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let cjk = "検索エンジンの設定".repeat(2000);
        let chunks = chunk(&cjk, ContentKind::Text);
        assert!(chunks.iter().all(|c| c.content.len() <= MAX_CHUNK_BYTES));
        assert_eq!(chunks.iter().map(|c| c.content.as_str()).collect::<String>(), cjk);
    }
}
