//! Small text helpers shared by the tools and the session log.

/// `s` cut to at most `max` characters, a `…` marking the cut.
pub fn cut_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Size as people read it: `812 B`, `4.2 KB`, `3.1 MB`.
pub fn human_bytes(n: usize) -> String {
    match n {
        0..=1023 => format!("{n} B"),
        1024..=1_048_575 => format!("{:.1} KB", n as f64 / 1024.0),
        _ => format!("{:.1} MB", n as f64 / 1_048_576.0),
    }
}

/// `path` relative to `dir` when it lies inside it, else as given.
pub fn relative_to<'a>(path: &'a str, dir: &str) -> &'a str {
    let dir = dir.trim_end_matches('/');
    match path.strip_prefix(dir) {
        Some(rest) if !dir.is_empty() && rest.starts_with('/') => &rest[1..],
        _ => path,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cuts_on_characters() {
        assert_eq!(super::cut_chars("héllo wörld", 6), "héllo…");
        assert_eq!(super::cut_chars("short", 10), "short");
    }
}
