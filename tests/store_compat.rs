//! content.db compatibility with context-mode 1.0.169: a database laid out and filled
//! the way 1.0.169 does is searched and extended by us, and ours keeps exactly its
//! tables and columns.

use context_mode_native::store::chunk::ContentKind;
use context_mode_native::store::index::SourceInput;
use context_mode_native::store::search::SearchQuery;
use context_mode_native::store::ContentStore;
use rusqlite::Connection;

/// 1.0.169's schema, column for column (reference/server.md §6.2).
const REFERENCE_SCHEMA: &str = "
CREATE TABLE sources (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, chunk_count INTEGER NOT NULL DEFAULT 0,
  code_chunk_count INTEGER NOT NULL DEFAULT 0, indexed_at TEXT NOT NULL DEFAULT (datetime('now')), file_path TEXT, content_hash TEXT);
CREATE INDEX idx_sources_label ON sources(label);
CREATE VIRTUAL TABLE chunks USING fts5(title, content, source_id UNINDEXED, content_type UNINDEXED, source_category UNINDEXED,
  session_id UNINDEXED, event_id UNINDEXED, timestamp UNINDEXED, tokenize='porter unicode61');
CREATE VIRTUAL TABLE chunks_trigram USING fts5(title, content, source_id UNINDEXED, content_type UNINDEXED, source_category UNINDEXED,
  session_id UNINDEXED, event_id UNINDEXED, timestamp UNINDEXED, tokenize='trigram');
CREATE TABLE vocabulary (word TEXT PRIMARY KEY);
";

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cm-compat-{}-{}-{name}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("content.db")
}

fn columns(conn: &Connection, table: &str) -> Vec<String> {
    conn.prepare(&format!("SELECT name FROM pragma_table_info('{table}')")).unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[test]
fn a_database_written_the_1_0_169_way_is_searchable_and_extensible() {
    let path = temp_path("theirs");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(REFERENCE_SCHEMA).unwrap();
        conn.execute("INSERT INTO sources (label, chunk_count, code_chunk_count) VALUES ('docs/leases.md', 2, 0)", []).unwrap();
        // Trigram rows first and offset, so rowids of the two tables do not line up.
        conn.execute("INSERT INTO chunks_trigram (rowid, title, content, source_id, content_type, session_id, event_id, timestamp) VALUES (900, 'pad', 'padding row', 99, 'prose', '', '', '')", []).unwrap();
        for (title, content) in [("Leases", "A lease expires after thirty seconds unless the worker renews it."), ("Retries", "Failed jobs retry with exponential backoff.")] {
            for table in ["chunks", "chunks_trigram"] {
                conn.execute(
                    &format!("INSERT INTO {table} (title, content, source_id, content_type, session_id, event_id, timestamp) VALUES (?1, ?2, 1, 'prose', '', '', '2026-11-01T10:00:00.000Z')"),
                    [title, content],
                )
                .unwrap();
            }
        }
        conn.execute("INSERT INTO vocabulary (word) VALUES ('lease'), ('expires'), ('renews')", []).unwrap();
    }
    let store = ContentStore::open(&path).unwrap();
    let hits = store.search(&SearchQuery { text: "lease renews".into(), limit: 3, ..Default::default() }).unwrap();
    assert_eq!(hits[0].title, "Leases");
    assert_eq!(hits[0].source, "docs/leases.md");
    let sub = store.search(&SearchQuery { text: "xponential".into(), limit: 3, ..Default::default() }).unwrap();
    assert_eq!(sub[0].title, "Retries", "trigram rows are found even when rowids do not line up");
    // New content goes in next to the old, and the old label can be replaced.
    store.index(&SourceInput { label: "notes", text: "# Tokens\nRotate the signing token weekly.", kind: ContentKind::Markdown, file_path: None }).unwrap();
    store.index(&SourceInput { label: "docs/leases.md", text: "# Leases v2\nLeases now last a minute.", kind: ContentKind::Markdown, file_path: None }).unwrap();
    let hits = store.search(&SearchQuery { text: "lease".into(), limit: 5, ..Default::default() }).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].title, "Leases v2");
    assert!(store.integrity_ok().unwrap());
}

#[test]
fn our_database_keeps_the_reference_tables_and_columns() {
    let path = temp_path("ours");
    let store = ContentStore::open(&path).unwrap();
    store.index(&SourceInput { label: "a", text: "# T\nbody", kind: ContentKind::Markdown, file_path: None }).unwrap();
    drop(store);
    let ours = Connection::open(&path).unwrap();
    let reference = Connection::open_in_memory().unwrap();
    reference.execute_batch(REFERENCE_SCHEMA).unwrap();
    for table in ["sources", "chunks", "chunks_trigram", "vocabulary"] {
        assert_eq!(columns(&ours, table), columns(&reference, table), "{table}");
    }
    // 1.0.169 reads chunks joined to sources and ranks with bm25(): that query works.
    let title: String = ours
        .query_row(
            "SELECT c.title FROM chunks c JOIN sources s ON s.id = c.source_id WHERE chunks MATCH '\"body\"' ORDER BY bm25(chunks, 5.0, 1.0) LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(title, "T");
    let tri: i64 = ours.query_row("SELECT COUNT(*) FROM chunks_trigram WHERE chunks_trigram MATCH '\"bod\"'", [], |r| r.get(0)).unwrap();
    assert_eq!(tri, 1);
}
