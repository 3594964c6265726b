//! content.db: the per-project knowledge base where output kept out of the context
//! window goes, and the only code that opens it. Tables and columns are 1.0.169's
//! (`sources`, FTS5 `chunks` with porter+unicode61, FTS5 `chunks_trigram`,
//! `vocabulary`), so either implementation reads the other's database; we add one
//! side table of our own (`cm_chunks`: which source a chunk row belongs to, and its
//! line), so replacing a source does not scan the FTS tables.

pub mod chunk;
pub mod fetch;
pub mod index;
pub mod paths;
pub mod search;
pub mod walk;

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one statement waits for another process's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_millis(5000);
/// Back-off before retrying an operation that still found the database locked.
const RETRIES: [u64; 4] = [50, 200, 800, 2000];

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("content database {path}: {source}")]
    Sqlite { path: String, source: rusqlite::Error },
    #[error("cannot create the content directory {path}: {source}")]
    Dir { path: String, source: std::io::Error },
    #[error(transparent)]
    Storage(#[from] crate::session::paths::StorageDirError),
    #[error("{0}")]
    Input(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sources (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT NOT NULL,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  code_chunk_count INTEGER NOT NULL DEFAULT 0,
  indexed_at TEXT NOT NULL DEFAULT (datetime('now')),
  file_path TEXT,
  content_hash TEXT
);
CREATE INDEX IF NOT EXISTS idx_sources_label ON sources(label);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(
  title, content, source_id UNINDEXED, content_type UNINDEXED, source_category UNINDEXED,
  session_id UNINDEXED, event_id UNINDEXED, timestamp UNINDEXED,
  tokenize='porter unicode61'
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_trigram USING fts5(
  title, content, source_id UNINDEXED, content_type UNINDEXED, source_category UNINDEXED,
  session_id UNINDEXED, event_id UNINDEXED, timestamp UNINDEXED,
  tokenize='trigram'
);
CREATE TABLE IF NOT EXISTS vocabulary (word TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS cm_chunks (
  chunk_rowid INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL,
  line INTEGER
);
CREATE INDEX IF NOT EXISTS idx_cm_chunks_source ON cm_chunks(source_id);
";

/// Our schema revision in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 3;

pub struct ContentStore {
    conn: Connection,
    path: PathBuf,
    /// Words known to be in `vocabulary`, so each is inserted once per process.
    vocabulary: std::cell::RefCell<Option<std::collections::HashSet<String>>>,
}


impl ContentStore {
    /// Opens (creating if needed) a content database.
    pub fn open(path: &Path) -> Result<ContentStore> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir { path: dir.display().to_string(), source })?;
        }
        let shown = path.display().to_string();
        let wrap = |source| StoreError::Sqlite { path: shown.clone(), source };
        let conn = Connection::open(path).map_err(wrap)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(wrap)?;
        let store = ContentStore { conn, path: path.to_path_buf(), vocabulary: Default::default() };
        store.with_retry(|c| {
            c.pragma_update(None, "journal_mode", "WAL")?;
            c.pragma_update(None, "synchronous", "NORMAL")?;
            // Checkpoint every 100 MB of log rather than every 4 MB (indexing writes large
            // transactions and would checkpoint several times per batch), and give the
            // log's disk space back afterwards.
            c.pragma_update(None, "wal_autocheckpoint", 25600)?;
            c.pragma_update(None, "journal_size_limit", 64i64 << 20)?;
            Ok(())
        })?;
        store.migrate()?;
        Ok(store)
    }

    /// An in-memory store (tests, probes).
    pub fn open_in_memory() -> Result<ContentStore> {
        let conn = Connection::open_in_memory().map_err(|source| StoreError::Sqlite { path: ":memory:".into(), source })?;
        let store = ContentStore { conn, path: PathBuf::from(":memory:"), vocabulary: Default::default() };
        store.migrate()?;
        Ok(store)
    }

    /// A handle that stops this connection's running statement from another thread,
    /// so a caller's deadline also bounds a slow index or search.
    pub fn interrupt_handle(&self) -> rusqlite::InterruptHandle {
        self.conn.get_interrupt_handle()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&self) -> Result<()> {
        let version: i64 = self.with_retry(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))?;
        if version >= SCHEMA_VERSION {
            return Ok(());
        }
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            // An old four-column FTS layout cannot be altered: rebuild both tables.
            let has_category: bool =
                tx.query_row("SELECT COUNT(*) FROM pragma_table_info('chunks') WHERE name = 'source_category'", [], |r| r.get::<_, i64>(0)).map(|n| n > 0)?;
            let has_chunks: bool =
                tx.query_row("SELECT COUNT(*) FROM sqlite_master WHERE name = 'chunks'", [], |r| r.get::<_, i64>(0)).map(|n| n > 0)?;
            if has_chunks && !has_category {
                tx.execute_batch("DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS chunks_trigram; DELETE FROM sources;")?;
            }
            tx.execute_batch("DROP TABLE IF EXISTS cm_chunk_lines")?;
            tx.execute_batch(SCHEMA)?;
            // FTS5 merges segments only when a level fills up (crisis merges) instead of
            // a little on every write: indexing gets about 12 % faster, and each index
            // call writes one segment per table anyway.
            tx.execute_batch("INSERT INTO chunks(chunks, rank) VALUES('automerge', 0); INSERT INTO chunks_trigram(chunks_trigram, rank) VALUES('automerge', 0);")?;
            let columns: Vec<String> =
                tx.prepare("SELECT name FROM pragma_table_info('sources')")?.query_map([], |r| r.get(0))?.collect::<std::result::Result<_, _>>()?;
            for (name, decl) in [("file_path", "TEXT"), ("content_hash", "TEXT")] {
                if !columns.iter().any(|c| c == name) {
                    tx.execute_batch(&format!("ALTER TABLE sources ADD COLUMN {name} {decl}"))?;
                }
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            tx.commit()
        })
    }

    /// Runs `f`, retrying with back-off while another process holds the write lock
    /// past the busy timeout.
    pub(crate) fn with_retry<T>(&self, f: impl FnMut(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        crate::sqlite::retry_busy(&self.conn, &RETRIES, f).map_err(|source| StoreError::Sqlite { path: self.path.display().to_string(), source })
    }

    /// Number of chunks in the store.
    pub fn chunk_count(&self) -> Result<i64> {
        self.with_retry(|c| c.query_row("SELECT COUNT(*) FROM chunks", [], |r| r.get(0)))
    }

    /// `PRAGMA integrity_check` plus FTS5's own consistency check.
    pub fn integrity_ok(&self) -> Result<bool> {
        self.with_retry(|c| {
            let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
            let fts = c.execute_batch("INSERT INTO chunks(chunks) VALUES('integrity-check'); INSERT INTO chunks_trigram(chunks_trigram) VALUES('integrity-check');");
            Ok(ok == "ok" && fts.is_ok())
        })
    }
}
