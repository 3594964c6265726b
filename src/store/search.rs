//! Finding what the agent needs. Legs run on FTS5 — every term (AND) first, then any
//! term (OR) and substrings (trigram, which also finds CJK text and pieces of long
//! identifiers) when the stricter legs found too little — and are fused by their BM25
//! scores normalised per leg. (Reciprocal-rank fusion was measured and dropped: it
//! discards BM25's magnitude, so a word unique to one passage lost to common words in
//! titles — hit@5 0.83 against 1.00 on the store benchmark.) BM25 weighs titles five
//! times the body; a term no document contains is corrected against the vocabulary;
//! rarer query words count more when passages are compared; among equals, newer
//! content wins. FTS5 applies each leg's limit itself (`ORDER BY rank`), so a search
//! stays fast as the store grows.

use super::index::is_stopword;
use super::{ContentStore, Result};
use rusqlite::params;
use std::collections::HashMap;

/// Weights of the legs in the fusion: a chunk with every term beats one with some.
const AND_WEIGHT: f64 = 2.0;
const OR_WEIGHT: f64 = 1.0;
const TRIGRAM_WEIGHT: f64 = 0.8;
/// BM25 weight of the title column against the body.
const TITLE_WEIGHT: f64 = 5.0;
/// Scale of a leg's normalised score in the fused score.
const LEG_SCALE: f64 = 0.01;
/// Characters of context on each side of a match in a snippet.
const SNIPPET_RADIUS: usize = 160;
pub const DEFAULT_SNIPPET_CHARS: usize = 700;

/// What to look for.
#[derive(Debug, Clone, Default)]
pub struct SearchQuery {
    pub text: String,
    pub limit: usize,
    /// Keep sources whose label contains this.
    pub source: Option<String>,
    /// `code` or `prose`.
    pub content_type: Option<String>,
    pub snippet_chars: usize,
}

/// One result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub source: String,
    pub title: String,
    pub content: String,
    pub snippet: String,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub score: f64,
    /// When the chunk was written (ISO-8601 UTC).
    pub timestamp: String,
    pub content_type: String,
}

/// A query reduced to terms FTS5 accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms(pub Vec<String>);

impl Terms {
    /// Splits a query into terms: FTS5 syntax characters become spaces, the operators
    /// AND/OR/NOT/NEAR are dropped, duplicates removed, stopwords dropped unless only
    /// stopwords remain.
    pub fn parse(query: &str) -> Terms {
        let cleaned: String = query.chars().map(|c| if "'\"(){}[]*:^~+".contains(c) || c.is_control() { ' ' } else { c }).collect();
        let mut seen = std::collections::HashSet::new();
        let all: Vec<String> = cleaned
            .split_whitespace()
            .filter(|t| !matches!(t.to_ascii_uppercase().as_str(), "AND" | "OR" | "NOT" | "NEAR"))
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .filter(|t| seen.insert(t.to_lowercase()))
            .map(str::to_string)
            .collect();
        let meaningful: Vec<String> = all.iter().filter(|t| !is_stopword(&t.to_lowercase())).cloned().collect();
        Terms(if meaningful.is_empty() { all } else { meaningful })
    }

    fn quoted(term: &str) -> String {
        format!("\"{}\"", term.replace('"', "\"\""))
    }

    /// `"a" "b"`: every term.
    fn all(&self) -> String {
        self.0.iter().map(|t| Self::quoted(t)).collect::<Vec<_>>().join(" ")
    }

    /// `"a" OR "b"`: any term.
    fn any(&self) -> String {
        self.0.iter().map(|t| Self::quoted(t)).collect::<Vec<_>>().join(" OR ")
    }

    /// Terms long enough for the trigram index (three characters), OR-ed.
    fn trigram(&self) -> Option<String> {
        let long: Vec<String> = self.0.iter().filter(|t| t.chars().count() >= 3).map(|t| Self::quoted(t)).collect();
        (!long.is_empty()).then(|| long.join(" OR "))
    }

    /// Short terms of CJK script, which neither FTS5 index can find.
    fn short_cjk(&self) -> Vec<&str> {
        self.0.iter().filter(|t| t.chars().count() < 3 && t.chars().any(is_cjk)).map(String::as_str).collect()
    }
}

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x1100..=0x11FF | 0x3130..=0x318F)
}

/// A candidate from one leg: its row in `chunks` (or `chunks_trigram`) and rank there.
#[derive(Debug, Clone)]
struct Candidate {
    table: &'static str,
    rowid: i64,
    /// BM25 relevance in its leg (higher is better); 0 for scans.
    bm25: f64,
}

struct Row {
    title: String,
    content: String,
    source_id: i64,
    content_type: String,
    timestamp: String,
    label: String,
    file_path: Option<String>,
    line: Option<u32>,
}

impl ContentStore {
    /// Runs one query.
    pub fn search(&self, q: &SearchQuery) -> Result<Vec<Hit>> {
        let limit = q.limit.clamp(1, 50);
        let mut terms = Terms::parse(&q.text);
        if terms.0.is_empty() {
            return Ok(Vec::new());
        }
        // A term no document contains is most likely a typo: use the closest word the
        // store has seen instead.
        if let Some(corrected) = self.correct(&terms)? {
            terms = corrected;
        }
        let fused = self.fuse(&terms, limit, q)?;
        let mut hits: Vec<Hit> = Vec::new();
        for (key, score) in fused.into_iter().take(limit * 3) {
            let Some(row) = self.row(&key)? else { continue };
            // In a database whose two FTS tables drifted apart, one chunk can come back
            // under two rowids.
            if hits.iter().any(|h| h.source == row.label && h.title == row.title && h.content == row.content) {
                continue;
            }
            hits.push(self.hit(row, score, &terms, q));
        }
        let weights = self.term_weights(&terms)?;
        rerank(&mut hits, &terms, &weights);
        hits.truncate(limit);
        Ok(hits)
    }

    /// Candidates of the three legs fused by reciprocal rank, best first. Rows that hold
    /// the same content in the same source (one from each FTS table) count once.
    fn fuse(&self, terms: &Terms, limit: usize, q: &SearchQuery) -> Result<Vec<(Candidate, f64)>> {
        let depth = (limit * 4).max(20);
        let mut legs: Vec<(Vec<Candidate>, f64)> = Vec::new();
        // Every term first; when that already fills the page, the looser legs would
        // only add noise (and time).
        let mut found = 0;
        if terms.0.len() > 1 {
            let all = self.leg("chunks", &terms.all(), depth, q)?;
            found = all.len();
            legs.push((all, AND_WEIGHT));
        }
        if found < limit {
            let any = self.leg("chunks", &terms.any(), depth, q)?;
            found += any.len();
            legs.push((any, if terms.0.len() > 1 { OR_WEIGHT } else { AND_WEIGHT }));
        }
        // Substrings: for terms no word matches (pieces of identifiers, CJK runs), or
        // when words alone found too little.
        let unmatched: Vec<String> = terms.0.iter().filter(|t| !self.term_matches(t).unwrap_or(true)).cloned().collect();
        let trigram_terms = if found < limit { terms.clone() } else { Terms(unmatched) };
        if let Some(tri) = trigram_terms.trigram() {
            legs.push((self.leg("chunks_trigram", &tri, depth, q)?, TRIGRAM_WEIGHT));
        }
        for term in terms.short_cjk() {
            legs.push((self.like_leg(term, depth, q)?, TRIGRAM_WEIGHT));
        }
        // Both tables get the same rowid for a chunk (see index.rs), so the rowid
        // identifies it across legs. Scans carry no BM25 and score by position.
        let mut scores: HashMap<i64, (Candidate, f64)> = HashMap::new();
        for (leg, weight) in legs {
            let best = leg.iter().map(|c| c.bm25).fold(0.0_f64, f64::max);
            for (rank, cand) in leg.into_iter().enumerate() {
                let norm = if best > 0.0 { cand.bm25 / best } else { 1.0 / (1.0 + rank as f64) };
                let add = weight * norm * LEG_SCALE;
                scores.entry(cand.rowid).and_modify(|(_, s)| *s += add).or_insert((cand, add));
            }
        }
        let mut out: Vec<(Candidate, f64)> = scores.into_values().collect();
        out.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal).then(b.0.rowid.cmp(&a.0.rowid)));
        Ok(out)
    }

    /// One FTS5 leg, ranked by BM25 with the title weighted, filtered by source label
    /// and content type.
    fn leg(&self, table: &'static str, matcher: &str, depth: usize, q: &SearchQuery) -> Result<Vec<Candidate>> {
        // Filters only when asked for: without them FTS5 serves ORDER BY rank LIMIT itself.
        let mut sql = format!("SELECT rowid, rank FROM {table} WHERE {table} MATCH ?1 AND rank MATCH 'bm25({TITLE_WEIGHT:.1}, 1.0)'");
        if q.source.is_some() {
            sql.push_str(" AND source_id IN (SELECT id FROM sources WHERE instr(label, ?2) > 0)");
        } else {
            sql.push_str(" AND ?2 IS NULL");
        }
        if q.content_type.is_some() {
            sql.push_str(" AND content_type = ?3");
        } else {
            sql.push_str(" AND ?3 IS NULL");
        }
        sql.push_str(" ORDER BY rank LIMIT ?4");
        let result = self.with_retry(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![matcher, q.source, q.content_type, depth as i64], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?)))?;
            rows.collect::<rusqlite::Result<Vec<(i64, f64)>>>()
        });
        match result {
            Ok(ids) => Ok(ids.into_iter().map(|(rowid, rank)| Candidate { table, rowid, bm25: -rank }).collect()),
            // A query FTS5 cannot parse finds nothing rather than failing the search.
            Err(super::StoreError::Sqlite { source, .. }) if is_fts_syntax(&source) => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }

    /// A substring scan for short CJK terms (no index can serve them).
    fn like_leg(&self, term: &str, depth: usize, q: &SearchQuery) -> Result<Vec<Candidate>> {
        self.with_retry(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT rowid FROM chunks WHERE (instr(content, ?1) > 0 OR instr(title, ?1) > 0)
                 AND (?2 IS NULL OR source_id IN (SELECT id FROM sources WHERE instr(label, ?2) > 0))
                 AND (?3 IS NULL OR content_type = ?3)
                 ORDER BY rowid DESC LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![term, q.source, q.content_type, depth as i64], |r| r.get::<_, i64>(0))?;
            rows.map(|r| r.map(|rowid| Candidate { table: "chunks", rowid, bm25: 0.0 })).collect()
        })
    }

    /// The chunk behind a candidate. Rows of `chunks` carry their line; a trigram row
    /// whose rowid does not line up with `chunks` (a database written otherwise) is
    /// read from its own table.
    fn row(&self, cand: &Candidate) -> Result<Option<Row>> {
        const COLUMNS: &str = "t.title, t.content, t.source_id, t.content_type, t.timestamp, s.label, s.file_path";
        let read = |table: &str, with_line: bool| {
            let line = if with_line { "(SELECT l.line FROM cm_chunks l WHERE l.chunk_rowid = t.rowid AND l.source_id = t.source_id)" } else { "NULL" };
            let sql = format!("SELECT {COLUMNS}, {line} FROM {table} t JOIN sources s ON s.id = t.source_id WHERE t.rowid = ?1");
            self.with_retry(|c| {
                let mut stmt = c.prepare_cached(&sql)?;
                let mut rows = stmt.query([cand.rowid])?;
                let Some(r) = rows.next()? else { return Ok(None) };
                Ok(Some(Row {
                    title: r.get(0)?,
                    content: r.get(1)?,
                    source_id: r.get(2)?,
                    content_type: r.get::<_, Option<String>>(3)?.unwrap_or_else(|| "prose".into()),
                    timestamp: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                    label: r.get(5)?,
                    file_path: r.get(6)?,
                    line: r.get::<_, Option<i64>>(7)?.map(|l| l as u32),
                }))
            })
        };
        let main = read("chunks", true)?;
        if cand.table == "chunks" {
            return Ok(main);
        }
        let own = read(cand.table, false)?;
        Ok(match (main, own) {
            (Some(m), Some(o)) if m.source_id == o.source_id && m.title == o.title => Some(m),
            (_, own) => own,
        })
    }

    fn hit(&self, row: Row, score: f64, terms: &Terms, q: &SearchQuery) -> Hit {
        let positions = match_positions(&row.content, terms);
        let line = row.line.map(|base| base + positions.first().map_or(0, |p| row.content[..*p].matches('\n').count() as u32));
        let snippet = snippet(&row.content, &positions, if q.snippet_chars == 0 { DEFAULT_SNIPPET_CHARS } else { q.snippet_chars });
        let _ = row.source_id;
        Hit {
            source: row.label,
            title: row.title,
            snippet,
            path: row.file_path,
            line,
            score,
            timestamp: row.timestamp,
            content_type: row.content_type,
            content: row.content,
        }
    }

    /// Replaces terms that match nothing with the closest vocabulary word, if any.
    fn correct(&self, terms: &Terms) -> Result<Option<Terms>> {
        let mut changed = false;
        let mut out = Vec::new();
        for t in &terms.0 {
            let lower = t.to_lowercase();
            let n = lower.chars().count();
            let wordlike = lower.chars().all(|c| c.is_alphabetic()) && !lower.chars().any(is_cjk);
            if n < 4 || !wordlike || self.term_matches(t)? {
                out.push(t.clone());
                continue;
            }
            let max = if n <= 4 { 1 } else if n <= 12 { 2 } else { 3 };
            let candidates: Vec<String> = self.with_retry(|c| {
                let mut stmt = c.prepare_cached("SELECT word FROM vocabulary WHERE length(word) BETWEEN ?1 AND ?2")?;
                let rows = stmt.query_map(params![(n - max.min(n)) as i64, (n + max) as i64], |r| r.get::<_, String>(0))?;
                rows.collect()
            })?;
            let best = candidates
                .iter()
                .filter_map(|w| {
                    let d = levenshtein(&lower, w);
                    (d <= max).then_some((d, w))
                })
                .min_by_key(|(d, w)| (*d, w.len().abs_diff(lower.len())));
            match best {
                Some((_, w)) => {
                    changed = true;
                    out.push(w.clone());
                }
                None => out.push(t.clone()),
            }
        }
        Ok(changed.then_some(Terms(out)))
    }

    /// How telling each term is: ln(1 + N/df), with document frequency counted up to a
    /// bound so common words cost little.
    fn term_weights(&self, terms: &Terms) -> Result<Vec<f64>> {
        const DF_BOUND: i64 = 2000;
        let n: i64 = self.with_retry(|c| c.prepare_cached("SELECT IFNULL(MAX(rowid), 1) FROM chunks")?.query_row([], |r| r.get(0)))?;
        terms
            .0
            .iter()
            .map(|t| {
                let df: i64 = self
                    .with_retry(|c| {
                        c.prepare_cached("SELECT count(*) FROM (SELECT 1 FROM chunks WHERE chunks MATCH ?1 LIMIT ?2)")?
                            .query_row(params![Terms::quoted(t), DF_BOUND], |r| r.get(0))
                    })
                    .unwrap_or(DF_BOUND);
                // Terms no word matches (substrings, CJK) are as telling as rare words.
                let df = if df == 0 { 1 } else { df };
                Ok((1.0 + n.max(1) as f64 / df as f64).ln())
            })
            .collect()
    }

    /// Whether any chunk holds the term as a word (stemmed). Known vocabulary words
    /// answer without touching the FTS index.
    fn term_matches(&self, term: &str) -> Result<bool> {
        let lower = term.to_lowercase();
        let known: bool = self.with_retry(|c| c.prepare_cached("SELECT EXISTS (SELECT 1 FROM vocabulary WHERE word = ?1)")?.query_row([&lower], |r| r.get(0)))?;
        if known {
            return Ok(true);
        }
        let q = SearchQuery { text: term.into(), limit: 1, ..Default::default() };
        Ok(!self.leg("chunks", &Terms::quoted(term), 1, &q)?.is_empty())
    }
}

fn is_fts_syntax(e: &rusqlite::Error) -> bool {
    e.to_string().contains("fts5") || e.to_string().contains("syntax error") || e.to_string().contains("unterminated")
}

/// Byte offsets of term occurrences (case-insensitive; a stemmed term also matches by
/// its first five letters), sorted.
fn match_positions(content: &str, terms: &Terms) -> Vec<usize> {
    let lower = content.to_lowercase();
    if lower.len() != content.len() {
        // Lower-casing changed byte lengths (rare scripts): search the original.
        return positions_in(content, content, terms);
    }
    positions_in(&lower, content, terms)
}

fn positions_in(haystack: &str, _original: &str, terms: &Terms) -> Vec<usize> {
    let mut out = Vec::new();
    for t in &terms.0 {
        let t = t.to_lowercase();
        let needle: String = if t.chars().count() > 6 && t.chars().all(char::is_alphabetic) { t.chars().take(5).collect() } else { t };
        let mut from = 0;
        while let Some(i) = haystack[from..].find(&needle) {
            out.push(from + i);
            from += i + needle.len().max(1);
            if out.len() > 200 {
                break;
            }
        }
    }
    out.sort_unstable();
    out
}

/// The text around the matches, windows merged, at most `max` characters.
fn snippet(content: &str, positions: &[usize], max: usize) -> String {
    if content.chars().count() <= max {
        return content.to_string();
    }
    if positions.is_empty() {
        let head: String = content.chars().take(max).collect();
        return format!("{head}…");
    }
    let floor = |mut i: usize| {
        while !content.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for &p in positions {
        let start = floor(p.saturating_sub(SNIPPET_RADIUS));
        let end = floor((p + SNIPPET_RADIUS).min(content.len()));
        match windows.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => windows.push((start, end)),
        }
    }
    let mut out = String::new();
    let mut used = 0;
    for (start, end) in windows {
        let piece = &content[start..end];
        let n = piece.chars().count();
        if used + n > max && used > 0 {
            break;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        if start > 0 {
            out.push('…');
        }
        let room = max - used.min(max);
        let cut = n > room;
        let piece: String = piece.chars().take(room).collect();
        out.push_str(&piece);
        if end < content.len() || cut {
            out.push('…');
        }
        used += n;
    }
    out
}

/// Whether `text` (lower-case) contains `term` (lower-case); long words also match by
/// their stem-like prefix, so `rotate` finds `rotating`.
fn contains_term(text: &str, term: &str) -> bool {
    let n = term.chars().count();
    if n > 5 && term.chars().all(char::is_alphabetic) {
        let prefix: String = term.chars().take((n - 2).max(5)).collect();
        return text.contains(&prefix);
    }
    text.contains(term)
}

/// Terms written like code identifiers (`E_LEASE`, `nextFireTime`, `v2.1`).
fn is_identifier(term: &str) -> bool {
    term.contains(['_', '.', '-']) || term.chars().any(|c| c.is_ascii_digit()) || term.chars().skip(1).any(char::is_uppercase)
}

fn cjk_share(text: &str) -> f64 {
    let (mut cjk, mut letters) = (0usize, 0usize);
    for c in text.chars().take(2000) {
        if is_cjk(c) {
            cjk += 1;
            letters += 1;
        } else if c.is_alphabetic() {
            letters += 1;
        }
    }
    if letters == 0 {
        0.0
    } else {
        cjk as f64 / letters as f64
    }
}

/// Orders hits by fused score plus how well the title and the passage cover the whole
/// query (identifiers verbatim, the phrase in order, text in the query's script);
/// ties go to newer content.
fn rerank(hits: &mut [Hit], terms: &Terms, weights: &[f64]) {
    let lowered: Vec<String> = terms.0.iter().map(|t| t.to_lowercase()).collect();
    let query_cjk = terms.0.iter().any(|t| t.chars().any(is_cjk));
    // Shares of the query's weight a text covers: rare terms count for more.
    let cover = |text: &str, only_identifiers: bool| {
        let mut got = 0.0;
        let mut want = 0.0;
        for ((t, orig), w) in lowered.iter().zip(&terms.0).zip(weights) {
            if only_identifiers && !is_identifier(orig) {
                continue;
            }
            want += w;
            let found = if only_identifiers { text.contains(t.as_str()) } else { contains_term(text, t) };
            if found {
                got += w;
            }
        }
        if want == 0.0 {
            0.0
        } else {
            got / want
        }
    };
    let boost = |h: &Hit| {
        let title = h.title.to_lowercase();
        let content = h.content.to_lowercase();
        let in_title = cover(&title, false);
        let in_content = cover(&content, false);
        let exact = cover(&format!("{title}\n{content}"), true);
        let phrase = if lowered.len() > 1 && content.contains(&lowered.join(" ")) { 1.0 } else { 0.0 };
        let share = cjk_share(&h.content);
        let script_mismatch = if query_cjk { share < 0.05 } else { share > 0.3 };
        0.003 * in_title + 0.004 * in_content + 0.003 * exact + 0.002 * phrase - if script_mismatch { 0.005 } else { 0.0 }
    };
    // Newer content gets a nudge, largest for the newest hit: enough to win a tie,
    // too small to beat a better match.
    let mut by_age: Vec<String> = hits.iter().map(|h| h.timestamp.clone()).collect();
    by_age.sort();
    by_age.dedup();
    let steps = by_age.len().saturating_sub(1).max(1) as f64;
    for h in hits.iter_mut() {
        let newness = by_age.iter().position(|t| *t == h.timestamp).unwrap_or(0) as f64 / steps;
        h.score += boost(h) + 0.001 * newness;
    }
    hits.sort_by(|a, b| b.score.partial_cmp(&a.score).unwrap_or(std::cmp::Ordering::Equal).then_with(|| b.timestamp.cmp(&a.timestamp)));
}

/// Edit distance in characters.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::chunk::ContentKind;
    use crate::store::index::SourceInput;

    fn store(docs: &[(&str, &str)]) -> ContentStore {
        let s = ContentStore::open_in_memory().unwrap();
        for (label, text) in docs {
            s.index(&SourceInput { label, text, kind: ContentKind::Markdown, file_path: None }).unwrap();
        }
        s
    }

    fn top(s: &ContentStore, q: &str) -> Vec<String> {
        s.search(&SearchQuery { text: q.into(), limit: 3, ..Default::default() }).unwrap().into_iter().map(|h| format!("{}#{}", h.source, h.title)).collect()
    }

    #[test]
    fn terms() {
        assert_eq!(Terms::parse("the (retry) AND policy \"x\" retry").0, ["retry", "policy", "x"]);
        assert_eq!(Terms::parse("the and").0, ["the"]);
    }

    #[test]
    fn all_terms_beat_any_term() {
        let s = store(&[
            ("a", "# Retry\nretry retry retry retry everywhere"),
            ("b", "# Lease\nthe lease expires and the worker will retry the lease"),
        ]);
        assert_eq!(top(&s, "retry lease")[0], "b#Lease");
    }

    #[test]
    fn typos_substrings_and_cjk() {
        let s = store(&[
            ("doc", "# Config\nconfiguration of webhooks and harborTelemetryBeacon"),
            ("jp", "# 設定\n検索エンジンの設定方法について説明します"),
        ]);
        assert_eq!(top(&s, "confgiuration")[0], "doc#Config");
        assert_eq!(top(&s, "TelemetryBeac")[0], "doc#Config");
        assert_eq!(top(&s, "設定方法")[0], "jp#設定");
        assert_eq!(top(&s, "検索")[0], "jp#設定");
    }

    #[test]
    fn filters_and_fts_syntax_never_fail() {
        let s = store(&[("a", "# T\nhello world"), ("b", "# T\nhello there")]);
        let r = s.search(&SearchQuery { text: "hello".into(), limit: 5, source: Some("b".into()), ..Default::default() }).unwrap();
        assert_eq!(r.len(), 1);
        for q in ["NEAR(", "\"", "*", "a OR", "-x", "^", "{}"] {
            let _ = s.search(&SearchQuery { text: q.into(), limit: 3, ..Default::default() }).unwrap();
        }
    }

    #[test]
    fn snippets_stay_short_and_point_at_the_match() {
        let text = format!("# Big\n{}\nthe needle is here\n{}", "a ".repeat(2000), "b ".repeat(2000));
        let s = store(&[("big", &text)]);
        let hit = &s.search(&SearchQuery { text: "needle".into(), limit: 1, ..Default::default() }).unwrap()[0];
        assert!(hit.snippet.contains("needle"));
        assert!(hit.snippet.chars().count() < 800);
    }

    #[test]
    fn edit_distance() {
        assert_eq!(levenshtein("retyr", "retry"), 2);
        assert_eq!(levenshtein("", "abc"), 3);
    }
}
