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

#[cfg(test)]
mod tests {
    #[test]
    fn cuts_on_characters() {
        assert_eq!(super::cut_chars("héllo wörld", 6), "héllo…");
        assert_eq!(super::cut_chars("short", 10), "short");
    }
}
