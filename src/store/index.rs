//! Writing sources: a label holds only its latest content, identical content is not
//! written twice, file-backed sources remember their path and hash so they can be
//! refreshed when the file changes, and ephemeral sources expire after 14 days.

use super::chunk::{self, Chunk, ContentKind};
use super::{ContentStore, Result, StoreError};
use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};
use std::collections::HashSet;

/// Sources without a backing file (command output, fetched pages) older than this
/// are removed.
pub const EPHEMERAL_RETENTION_DAYS: i64 = 14;

/// A text to index.
#[derive(Debug, Clone)]
pub struct SourceInput<'a> {
    pub label: &'a str,
    pub text: &'a str,
    pub kind: ContentKind,
    /// The file this text was read from, for refreshing it later.
    pub file_path: Option<&'a str>,
}

/// What an index call did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexOutcome {
    pub source_id: i64,
    pub label: String,
    pub chunks: usize,
    pub code_chunks: usize,
    pub bytes: usize,
    /// The label already held exactly this content; nothing was rewritten.
    pub unchanged: bool,
    /// Titles of the stored chunks, in order.
    pub titles: Vec<String>,
}

pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Words not worth remembering for typo correction.
pub const STOPWORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "can", "had", "her", "was", "one", "our", "out", "has", "his", "how", "its", "may", "new",
    "now", "old", "see", "way", "who", "did", "get", "got", "let", "say", "she", "too", "use", "will", "with", "this", "that", "from", "they", "been",
    "have", "many", "some", "them", "than", "each", "make", "like", "just", "over", "such", "take", "into", "year", "your", "good", "could", "would",
    "about", "which", "their", "there", "other", "after", "should", "through", "also", "more", "most", "only", "very", "when", "what", "then", "these",
    "those", "being", "does", "done", "both", "same", "still", "while", "where", "here", "were", "much",
];

pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// Distinct lower-cased words of 3+ characters (letters, digits, `_`, `-`), without
/// stopwords. Allocates once per distinct word.
pub fn words(text: &str) -> HashSet<String> {
    let mut out: HashSet<String> = HashSet::new();
    for w in text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')) {
        if w.len() < 3 || (w.is_ascii() && w.len() > 64) || w.len() > 256 {
            continue;
        }
        if w.is_ascii() && !w.bytes().any(|b| b.is_ascii_uppercase()) {
            if !out.contains(w) && !is_stopword(w) {
                out.insert(w.to_string());
            }
            continue;
        }
        let n = w.chars().count();
        if !(3..=64).contains(&n) {
            continue;
        }
        let lower = w.to_lowercase();
        if !is_stopword(&lower) {
            out.insert(lower);
        }
    }
    out
}

/// Words that tell one output apart: found in at least two of its sections but not in
/// most of them, longer and identifier-like words first. Empty for fewer than three
/// sections, where "distinctive" means nothing.
pub fn distinctive_terms<'a>(sections: impl Iterator<Item = &'a str>, max: usize) -> Vec<String> {
    let mut df: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut n = 0;
    for text in sections {
        n += 1;
        for w in words(text) {
            *df.entry(w).or_insert(0) += 1;
        }
    }
    if n < 3 {
        return Vec::new();
    }
    let ceiling = 3.max((n as f64 * 0.4).ceil() as usize);
    let mut scored: Vec<(f64, String)> = df
        .into_iter()
        .filter(|(w, count)| *count >= 2 && *count <= ceiling && !w.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'_'))
        .map(|(w, count)| {
            let shape = if w.contains('_') { 1.0 } else if w.len() >= 10 { 0.5 } else { 0.0 };
            ((n as f64 / count as f64).ln() + (w.len() as f64 / 20.0).min(0.5) + shape, w)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.into_iter().take(max).map(|(_, w)| w).collect()
}

fn now_iso() -> String {
    crate::clock::iso_now()
}

/// The session that indexed a source, for `ctx_purge` by session.
fn attribution_session() -> String {
    std::env::var("CLAUDE_SESSION_ID").unwrap_or_default()
}

impl ContentStore {
    /// Indexes one source, replacing whatever its label held before.
    pub fn index(&self, input: &SourceInput) -> Result<IndexOutcome> {
        let mut out = self.index_many(std::slice::from_ref(input))?;
        Ok(out.remove(0))
    }

    /// Indexes several sources in one transaction (a directory, a batch of command
    /// output): FTS5 then builds one segment instead of one per source.
    pub fn index_many(&self, inputs: &[SourceInput]) -> Result<Vec<IndexOutcome>> {
        struct Prepared<'a> {
            input: &'a SourceInput<'a>,
            hash: String,
            chunks: Vec<Chunk>,
        }
        let mut labels = HashSet::new();
        if !inputs.iter().all(|i| labels.insert(i.label)) {
            // The same label twice: its last content wins, as with separate calls.
            return inputs.iter().map(|i| self.index_many(std::slice::from_ref(i)).map(|mut o| o.remove(0))).collect();
        }
        if inputs.iter().any(|i| i.label.trim().is_empty()) {
            return Err(StoreError::Input("a source needs a non-empty label".into()));
        }
        // Hashing, chunking and word lists are independent per source: split them over
        // two threads (the machine's second core is otherwise idle while SQLite waits).
        let analyse = |input: &SourceInput| {
            // Duplicate chunks within a source are stored once; an in-memory 64-bit
            // hash tells them apart at a fraction of SHA-256's cost.
            let mut seen = HashSet::new();
            let chunks: Vec<Chunk> = chunk::chunk(input.text, input.kind)
                .into_iter()
                .filter(|c| {
                    use std::hash::{Hash, Hasher};
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    c.content.hash(&mut h);
                    seen.insert(h.finish())
                })
                .collect();
            (sha256_hex(input.text), chunks, words(input.text))
        };
        // Each half also gathers its sources' words, so the union is built in parallel.
        let half = |part: &[SourceInput]| {
            let mut part_words = HashSet::new();
            let done: Vec<(String, Vec<Chunk>)> = part
                .iter()
                .map(|i| {
                    let (hash, chunks, w) = analyse(i);
                    part_words.extend(w);
                    (hash, chunks)
                })
                .collect();
            (done, part_words)
        };
        let (analysed, mut batch_words) = if inputs.len() >= 4 {
            let (left, right) = inputs.split_at(inputs.len() / 2);
            std::thread::scope(|scope| {
                let other = scope.spawn(|| half(right));
                let (mut mine, mut words) = half(left);
                let (theirs, their_words) = other.join().unwrap_or_else(|_| half(right));
                mine.extend(theirs);
                words.extend(their_words);
                (mine, words)
            })
        } else {
            half(inputs)
        };
        let mut outcomes: Vec<Option<IndexOutcome>> = Vec::with_capacity(inputs.len());
        let mut work: Vec<Prepared> = Vec::new();
        let mut any_unchanged = false;
        for (input, (hash, chunks)) in inputs.iter().zip(analysed) {
            if let Some(outcome) = self.unchanged(input.label, &hash)? {
                outcomes.push(Some(outcome));
                any_unchanged = true;
                continue;
            }
            outcomes.push(None);
            work.push(Prepared { input, hash, chunks });
        }
        // Words of sources that did not change are in the vocabulary already.
        let all_words = if any_unchanged {
            let mut w = HashSet::new();
            for p in &work {
                w.extend(words(p.input.text));
            }
            w
        } else {
            std::mem::take(&mut batch_words)
        };
        if work.is_empty() {
            return Ok(outcomes.into_iter().flatten().collect());
        }
        let new_words = self.unseen_words(all_words)?;
        let timestamp = now_iso();
        let session = attribution_session();
        let source_ids = self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            // Ordinary tables first, FTS5 last: a write to an ordinary table after FTS5
            // rows makes SQLite take a statement savepoint, which flushes FTS5's pending
            // index to disk, one small segment per flush (many times slower).
            let mut ids = Vec::with_capacity(work.len());
            for w in &work {
                delete_label(&tx, w.input.label)?;
            }
            let (porter_max, trigram_max): (i64, i64) =
                tx.query_row("SELECT (SELECT IFNULL(MAX(rowid), 0) FROM chunks), (SELECT IFNULL(MAX(rowid), 0) FROM chunks_trigram)", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
            // Written in lockstep, the two FTS tables share rowids, so search joins the
            // two legs on it; a database where they drifted apart numbers trigram rows
            // on its own.
            let aligned = porter_max == trigram_max;
            let mut next = porter_max + 1;
            let mut rowids: Vec<i64> = Vec::with_capacity(work.len());
            {
                let mut source = tx.prepare_cached("INSERT INTO sources (label, chunk_count, code_chunk_count, file_path, content_hash) VALUES (?1, ?2, ?3, ?4, ?5)")?;
                let mut rows = tx.prepare_cached("INSERT OR REPLACE INTO cm_chunks (chunk_rowid, source_id, line) VALUES (?1, ?2, ?3)")?;
                for w in &work {
                    let code = w.chunks.iter().filter(|c| c.code).count() as i64;
                    source.execute(params![w.input.label, w.chunks.len() as i64, code, w.input.file_path, w.hash])?;
                    let id = tx.last_insert_rowid();
                    ids.push(id);
                    rowids.push(next);
                    for ch in &w.chunks {
                        rows.execute(params![next, id, ch.line])?;
                        next += 1;
                    }
                }
                let mut vocab = tx.prepare_cached("INSERT OR IGNORE INTO vocabulary (word) VALUES (?1)")?;
                for word in &new_words {
                    vocab.execute([word])?;
                }
            }
            for table in ["chunks", "chunks_trigram"] {
                let sql = format!(
                    "INSERT INTO {table} (rowid, title, content, source_id, content_type, session_id, event_id, timestamp) VALUES (?7, ?1, ?2, ?3, ?4, ?5, '', ?6)"
                );
                let mut insert = tx.prepare_cached(&sql)?;
                for ((w, id), first) in work.iter().zip(&ids).zip(&rowids) {
                    for (i, ch) in w.chunks.iter().enumerate() {
                        let kind = if ch.code { "code" } else { "prose" };
                        let rowid = (table == "chunks" || aligned).then_some(first + i as i64);
                        insert.execute(params![ch.title, ch.content, id, kind, session, timestamp, rowid])?;
                    }
                }
            }
            tx.commit()?;
            Ok(ids)
        })?;
        self.remember_words(&new_words);
        let mut fresh = work.into_iter().zip(source_ids).map(|(w, id)| IndexOutcome {
            source_id: id,
            label: w.input.label.to_string(),
            chunks: w.chunks.len(),
            code_chunks: w.chunks.iter().filter(|c| c.code).count(),
            bytes: w.input.text.len(),
            unchanged: false,
            titles: w.chunks.iter().map(|c| c.title.clone()).collect(),
        });
        Ok(outcomes.into_iter().map(|o| o.unwrap_or_else(|| fresh.next().expect("one outcome per prepared source"))).collect())
    }

    /// The outcome of a label whose stored content has this hash, if it does.
    fn unchanged(&self, label: &str, hash: &str) -> Result<Option<IndexOutcome>> {
        let row = self.with_retry(|c| {
            c.prepare_cached("SELECT id, chunk_count, code_chunk_count FROM sources WHERE label = ?1 AND content_hash = ?2 ORDER BY id DESC LIMIT 1")?.query_row(
                params![label, hash],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
            )
            .optional()
        })?;
        let Some((id, chunks, code)) = row else { return Ok(None) };
        self.with_retry(|c| c.execute("UPDATE sources SET indexed_at = datetime('now') WHERE id = ?1", [id]))?;
        let titles = self.with_retry(|c| {
            let mut s = c.prepare("SELECT title FROM chunks WHERE source_id = ?1 ORDER BY rowid")?;
            let v = s.query_map([id], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<Vec<_>>>();
            v
        })?;
        Ok(Some(IndexOutcome { source_id: id, label: label.to_string(), chunks: chunks as usize, code_chunks: code as usize, bytes: 0, unchanged: true, titles }))
    }

    /// Removes a label and its chunks. Returns whether it existed.
    /// Deletes every source written during one session (its chunks carry the session
    /// id); returns how many sources went.
    pub fn purge_session(&self, session_id: &str) -> Result<usize> {
        if session_id.is_empty() {
            return Ok(0);
        }
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            let ids: Vec<i64> = tx.prepare("SELECT DISTINCT CAST(source_id AS INTEGER) FROM chunks WHERE session_id = ?1")?.query_map([session_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
            for id in &ids {
                tx.execute("DELETE FROM chunks WHERE source_id = ?1", [id])?;
                tx.execute("DELETE FROM chunks_trigram WHERE source_id = ?1", [id])?;
                tx.execute("DELETE FROM cm_chunks WHERE source_id = ?1", [id])?;
                tx.execute("DELETE FROM sources WHERE id = ?1", [id])?;
            }
            tx.commit()?;
            Ok(ids.len())
        })
    }

    pub fn remove_label(&self, label: &str) -> Result<bool> {
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            let n = delete_label(&tx, label)?;
            tx.commit()?;
            Ok(n > 0)
        })
    }

    /// Removes ephemeral sources older than the retention and file sources whose file
    /// is gone. Returns how many sources were removed.
    pub fn prune(&self) -> Result<usize> {
        let labels: Vec<(String, Option<String>, bool)> = self.with_retry(|c| {
            let mut s = c.prepare(
                "SELECT label, file_path, indexed_at < datetime('now', ?1) FROM sources",
            )?;
            let v = s
                .query_map([format!("-{EPHEMERAL_RETENTION_DAYS} days")], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, bool>(2)?)))?
                .collect::<rusqlite::Result<Vec<_>>>();
            v
        })?;
        let mut removed = 0;
        for (label, file, old) in labels {
            let gone = file.as_deref().is_some_and(|f| !std::path::Path::new(f).exists());
            if (file.is_none() && old) || gone {
                removed += usize::from(self.remove_label(&label)?);
            }
        }
        Ok(removed)
    }

    /// Re-indexes file sources whose file changed since they were indexed (same path,
    /// different hash). `allowed` may veto a path (permission rules). Returns the
    /// labels refreshed.
    pub fn refresh_stale(&self, allowed: &dyn Fn(&str) -> bool) -> Result<Vec<String>> {
        let rows: Vec<(String, String, Option<String>, String)> = self.with_retry(|c| {
            let mut s = c.prepare("SELECT label, file_path, content_hash, indexed_at FROM sources WHERE file_path IS NOT NULL")?;
            let v = s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect::<rusqlite::Result<Vec<_>>>();
            v
        })?;
        let mut refreshed = Vec::new();
        for (label, path, hash, indexed_at) in rows {
            if !allowed(&path) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            let modified = meta.modified().ok().and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_secs() as i64);
            let indexed = sqlite_time_to_epoch(&indexed_at);
            if let (Some(m), Some(i)) = (modified, indexed) {
                if m < i {
                    continue;
                }
            }
            let Ok(text) = read_text_file(&path) else { continue };
            if hash.as_deref() == Some(sha256_hex(&text).as_str()) {
                continue;
            }
            self.index(&SourceInput { label: &label, text: &text, kind: ContentKind::for_path(&path), file_path: Some(&path) })?;
            refreshed.push(label);
        }
        Ok(refreshed)
    }
}

fn delete_label(tx: &rusqlite::Transaction, label: &str) -> rusqlite::Result<usize> {
    let sources: Vec<(i64, i64)> =
        tx.prepare_cached("SELECT id, chunk_count FROM sources WHERE label = ?1")?.query_map([label], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    for (id, chunk_count) in &sources {
        let rows: Vec<i64> =
            tx.prepare_cached("SELECT chunk_rowid FROM cm_chunks WHERE source_id = ?1")?.query_map([id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        if rows.len() as i64 >= *chunk_count {
            // Our own rows: delete them by rowid, no scan.
            let mut porter = tx.prepare_cached("DELETE FROM chunks WHERE rowid = ?1 AND source_id = ?2")?;
            let mut trigram = tx.prepare_cached("DELETE FROM chunks_trigram WHERE rowid = ?1 AND source_id = ?2")?;
            for rowid in &rows {
                porter.execute(params![rowid, id])?;
                trigram.execute(params![rowid, id])?;
            }
            // Trigram rows numbered on their own (a drifted database) are swept too.
            if tx.query_row("SELECT EXISTS (SELECT 1 FROM chunks_trigram WHERE source_id = ?1)", [id], |r| r.get::<_, bool>(0))? {
                tx.execute("DELETE FROM chunks_trigram WHERE source_id = ?1", [id])?;
            }
        } else {
            // Written by another implementation: find the rows by scanning.
            tx.execute("DELETE FROM chunks WHERE source_id = ?1", [id])?;
            tx.execute("DELETE FROM chunks_trigram WHERE source_id = ?1", [id])?;
        }
        tx.execute("DELETE FROM cm_chunks WHERE source_id = ?1", [id])?;
        tx.execute("DELETE FROM sources WHERE id = ?1", [id])?;
    }
    Ok(sources.len())
}

impl ContentStore {
    /// The words not yet known to be in `vocabulary` (the table is read once).
    fn unseen_words(&self, words: HashSet<String>) -> Result<Vec<String>> {
        let mut cache = self.vocabulary.borrow_mut();
        if cache.is_none() {
            let known: HashSet<String> = self.with_retry(|c| {
                let mut s = c.prepare("SELECT word FROM vocabulary")?;
                let v = s.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<HashSet<String>>>();
                v
            })?;
            *cache = Some(known);
        }
        let known = cache.as_ref().map(|k| k as &HashSet<String>);
        Ok(words.into_iter().filter(|w| !known.is_some_and(|k| k.contains(w))).collect())
    }

    fn remember_words(&self, words: &[String]) {
        if let Some(known) = self.vocabulary.borrow_mut().as_mut() {
            known.extend(words.iter().cloned());
        }
    }
}

/// `YYYY-MM-DD HH:MM:SS` (UTC, as SQLite's `datetime('now')`) to seconds since the epoch.
fn sqlite_time_to_epoch(t: &str) -> Option<i64> {
    let (date, time) = t.split_once([' ', 'T'])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>());
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let mut h = time.trim_end_matches('Z').split(':').map(|p| p.split('.').next().unwrap_or("0").parse::<i64>());
    let (hh, mm, ss) = (h.next()?.ok()?, h.next()?.ok()?, h.next().and_then(std::result::Result::ok).unwrap_or(0));
    // Days from civil (Howard Hinnant).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Reasons a file cannot be indexed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}: not a regular file")]
    NotAFile(String),
    #[error("{path}: the file is {size} bytes, over the {max}-byte limit")]
    TooLarge { path: String, size: u64, max: u64 },
    #[error("{0}: binary content (not text)")]
    Binary(String),
    #[error("{0}: not valid UTF-8 text")]
    NotUtf8(String),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Files larger than this are refused rather than indexed
/// (`CONTEXT_MODE_INDEX_MAX_FILE_BYTES` changes it).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

fn max_file_bytes() -> u64 {
    std::env::var("CONTEXT_MODE_INDEX_MAX_FILE_BYTES").ok().and_then(|v| v.trim().parse().ok()).filter(|n| *n > 0).unwrap_or(MAX_FILE_BYTES)
}

/// Reads a text file for indexing: a regular file, under the size cap, not binary and
/// valid UTF-8 (a BOM is dropped).
pub fn read_text_file(path: &str) -> std::result::Result<String, ReadError> {
    let io = |source| ReadError::Io { path: path.to_string(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(path.to_string()));
    }
    let max = max_file_bytes();
    if meta.len() > max {
        return Err(ReadError::TooLarge { path: path.to_string(), size: meta.len(), max });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    if bytes.iter().take(8192).any(|b| *b == 0) {
        return Err(ReadError::Binary(path.to_string()));
    }
    let text = String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8(path.to_string()))?;
    Ok(text.strip_prefix('\u{FEFF}').map(str::to_string).unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_times() {
        assert_eq!(sqlite_time_to_epoch("1970-01-01 00:00:00"), Some(0));
        assert_eq!(sqlite_time_to_epoch("2026-11-29 13:08:54"), Some(1_795_957_734));
    }

    #[test]
    fn reindexing_a_label_replaces_it_and_same_content_is_a_no_op() {
        let s = ContentStore::open_in_memory().unwrap();
        let a = s.index(&SourceInput { label: "doc", text: "# A\nalpha", kind: ContentKind::Markdown, file_path: None }).unwrap();
        assert_eq!(a.chunks, 1);
        let same = s.index(&SourceInput { label: "doc", text: "# A\nalpha", kind: ContentKind::Markdown, file_path: None }).unwrap();
        assert!(same.unchanged);
        s.index(&SourceInput { label: "doc", text: "# B\nbeta\n# C\ngamma", kind: ContentKind::Markdown, file_path: None }).unwrap();
        assert_eq!(s.chunk_count().unwrap(), 2);
    }

    #[test]
    fn duplicate_chunks_are_stored_once() {
        let s = ContentStore::open_in_memory().unwrap();
        let out = s.index(&SourceInput { label: "log", text: "# X\nsame\n# X\nsame", kind: ContentKind::Markdown, file_path: None }).unwrap();
        assert_eq!(out.chunks, 1);
    }
}
