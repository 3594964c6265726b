//! The session database: 1.0.169's tables and columns, opened for many concurrent
//! short-lived writers (one per hook process).

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::time::Duration;

/// Events kept per session; past this the least valuable are evicted first.
pub const MAX_EVENTS_PER_SESSION: i64 = 1000;
/// An identical event among this many latest rows is not stored again.
const DEDUP_WINDOW: i64 = 5;
/// How long one statement waits for another writer's lock, and the pauses before
/// trying again: a hook must not hold up its host for long behind a stuck writer.
const BUSY_TIMEOUT: Duration = Duration::from_millis(1500);
const RETRIES: [u64; 2] = [100, 400];

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("session database {path}: {source}")]
    Sqlite { path: String, source: rusqlite::Error },
    #[error("cannot create the session directory {path}: {source}")]
    Dir { path: String, source: std::io::Error },
    #[error(transparent)]
    Storage(#[from] super::paths::StorageDirError),
}

/// Bytes kept out of and returned to the context, as the hooks and the server
/// recorded them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    pub kept_out: u64,
    pub returned: u64,
    pub tool_calls: u64,
    pub events: u64,
    pub sessions: u64,
    pub first_event_at: Option<String>,
}

impl Ledger {
    pub fn add(&mut self, other: &Ledger) {
        self.kept_out += other.kept_out;
        self.returned += other.returned;
        self.tool_calls += other.tool_calls;
        self.events += other.events;
        self.sessions += other.sessions;
        self.first_event_at = match (self.first_event_at.take(), &other.first_event_at) {
            (Some(a), Some(b)) => Some(a.min(b.clone())),
            (a, b) => a.or_else(|| b.clone()),
        };
    }

    /// Share of handled bytes that stayed out, in percent.
    pub fn kept_percent(&self) -> f64 {
        let total = self.kept_out + self.returned;
        if total == 0 {
            0.0
        } else {
            self.kept_out as f64 * 100.0 / total as f64
        }
    }
}

/// One captured event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: String,
    pub category: String,
    /// 1 = most valuable … 4 = least.
    pub priority: i64,
    pub data: String,
    pub bytes_avoided: i64,
    pub bytes_returned: i64,
}

impl Event {
    pub fn new(kind: &str, category: &str, priority: i64, data: impl Into<String>) -> Event {
        Event { kind: kind.into(), category: category.into(), priority, data: data.into(), bytes_avoided: 0, bytes_returned: 0 }
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS session_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  type TEXT NOT NULL,
  category TEXT NOT NULL,
  priority INTEGER NOT NULL DEFAULT 2,
  data TEXT NOT NULL,
  project_dir TEXT NOT NULL DEFAULT '',
  attribution_source TEXT NOT NULL DEFAULT 'unknown',
  attribution_confidence REAL NOT NULL DEFAULT 0,
  bytes_avoided INTEGER NOT NULL DEFAULT 0,
  bytes_returned INTEGER NOT NULL DEFAULT 0,
  source_hook TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (datetime('now')),
  data_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_session_events_session ON session_events(session_id);
CREATE INDEX IF NOT EXISTS idx_session_events_type ON session_events(session_id, type);
CREATE INDEX IF NOT EXISTS idx_session_events_priority ON session_events(session_id, priority);
CREATE TABLE IF NOT EXISTS session_meta (
  session_id TEXT PRIMARY KEY,
  project_dir TEXT NOT NULL,
  started_at TEXT NOT NULL DEFAULT (datetime('now')),
  last_event_at TEXT,
  event_count INTEGER NOT NULL DEFAULT 0,
  compact_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS session_resume (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL UNIQUE,
  snapshot TEXT NOT NULL,
  event_count INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT (datetime('now')),
  consumed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tool_calls (
  session_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  bytes_returned INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL DEFAULT (datetime('now')),
  PRIMARY KEY (session_id, tool)
);
CREATE INDEX IF NOT EXISTS idx_tool_calls_session ON tool_calls(session_id);
";

/// Columns later versions added to `session_events`, for databases created earlier.
const EVENT_MIGRATIONS: &[(&str, &str)] = &[
    ("project_dir", "TEXT NOT NULL DEFAULT ''"),
    ("attribution_source", "TEXT NOT NULL DEFAULT 'unknown'"),
    ("attribution_confidence", "REAL NOT NULL DEFAULT 0"),
    ("bytes_avoided", "INTEGER NOT NULL DEFAULT 0"),
    ("bytes_returned", "INTEGER NOT NULL DEFAULT 0"),
];

/// Our schema revision, in `PRAGMA user_version`; lets a hook skip the schema work.
const SCHEMA_VERSION: i64 = 2;

pub struct SessionDb {
    conn: Connection,
    path: String,
}



impl SessionDb {
    /// Opens (creating if needed) the database at `path`. A file that is not a
    /// database, or a corrupt one, is moved aside as `<name>.corrupt-<ms>` (with its
    /// WAL) and a fresh database takes its place, so one bad file never stops the log.
    pub fn open(path: &Path) -> Result<SessionDb, SessionError> {
        match Self::open_once(path) {
            Err(SessionError::Sqlite { source, .. }) if crate::sqlite::is_corrupt(&source) => {
                let stamp = crate::clock::now_ms();
                for suffix in ["", "-wal", "-shm"] {
                    let from = format!("{}{suffix}", path.display());
                    let _ = std::fs::rename(&from, format!("{from}.corrupt-{stamp}"));
                }
                Self::open_once(path)
            }
            other => other,
        }
    }

    fn open_once(path: &Path) -> Result<SessionDb, SessionError> {
        let shown = path.display().to_string();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| SessionError::Dir { path: dir.display().to_string(), source })?;
        }
        let wrap = |source| SessionError::Sqlite { path: shown.clone(), source };
        let conn = Connection::open(path).map_err(wrap)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(wrap)?;
        let db = SessionDb { conn, path: shown.clone() };
        db.with_retry(|c| {
            c.pragma_update(None, "journal_mode", "WAL")?;
            // Each hook is a process that checkpoints on close; with fsyncs that is
            // several disk flushes per tool call. A crashed process loses nothing
            // (the OS has the writes); only a power loss could, and a database that
            // comes back corrupt is set aside (see `open`).
            c.pragma_update(None, "synchronous", "OFF")?;
            Ok(())
        })?;
        db.migrate()?;
        Ok(db)
    }

    fn migrate(&self) -> Result<(), SessionError> {
        let version: i64 = self.with_retry(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))?;
        if version >= SCHEMA_VERSION {
            return Ok(());
        }
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            // A generated `data_hash` column from an old release cannot be altered.
            let generated: bool = tx
                .query_row("SELECT COUNT(*) FROM pragma_table_xinfo('session_events') WHERE name = 'data_hash' AND hidden > 1", [], |r| {
                    r.get::<_, i64>(0)
                })
                .map(|n| n > 0)
                .unwrap_or(false);
            if generated {
                tx.execute_batch("DROP TABLE session_events")?;
            }
            tx.execute_batch(SCHEMA)?;
            let columns: Vec<String> =
                tx.prepare("SELECT name FROM pragma_table_info('session_events')")?.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            for (name, decl) in EVENT_MIGRATIONS {
                if !columns.iter().any(|c| c == name) {
                    tx.execute_batch(&format!("ALTER TABLE session_events ADD COLUMN {name} {decl}"))?;
                }
            }
            let has_hash = columns.iter().any(|c| c == "data_hash");
            if !has_hash && !columns.is_empty() {
                tx.execute_batch("ALTER TABLE session_events ADD COLUMN data_hash TEXT NOT NULL DEFAULT ''")?;
            }
            tx.execute_batch("CREATE INDEX IF NOT EXISTS idx_session_events_project ON session_events(session_id, project_dir)")?;
            let meta_cols: Vec<String> =
                tx.prepare("SELECT name FROM pragma_table_info('session_meta')")?.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            if !meta_cols.iter().any(|c| c == "usage_cursor") {
                tx.execute_batch("ALTER TABLE session_meta ADD COLUMN usage_cursor TEXT")?;
            }
            // Our server's ledger keeps what each tool withheld next to what it returned.
            let call_cols: Vec<String> =
                tx.prepare("SELECT name FROM pragma_table_info('tool_calls')")?.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            if !call_cols.iter().any(|c| c == "bytes_avoided") {
                tx.execute_batch("ALTER TABLE tool_calls ADD COLUMN bytes_avoided INTEGER NOT NULL DEFAULT 0")?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            tx.commit()
        })
    }

    /// Runs `f`, retrying a few times when another process holds the write lock
    /// beyond the busy timeout.
    fn with_retry<T>(&self, f: impl FnMut(&Connection) -> rusqlite::Result<T>) -> Result<T, SessionError> {
        crate::sqlite::retry_busy(&self.conn, &RETRIES, f).map_err(|source| SessionError::Sqlite { path: self.path.clone(), source })
    }

    /// Records a session the first time it is seen.
    pub fn ensure_session(&self, session_id: &str, project_dir: &str) -> Result<(), SessionError> {
        self.with_retry(|c| c.execute("INSERT OR IGNORE INTO session_meta (session_id, project_dir) VALUES (?1, ?2)", params![session_id, project_dir]))?;
        Ok(())
    }

    /// Stores events in one transaction: skips repeats of recent rows, keeps the
    /// session under its cap by evicting the least valuable (highest priority number,
    /// then oldest) rows, and bumps the session's activity.
    pub fn insert_events(&self, session_id: &str, events: &[Event], source_hook: &str, project_dir: &str) -> Result<usize, SessionError> {
        self.insert(session_id, events, source_hook, project_dir, false)
    }

    /// `ensure_session` and `insert_events` in one transaction: one write per hook.
    pub fn record(&self, session_id: &str, events: &[Event], source_hook: &str, project_dir: &str) -> Result<usize, SessionError> {
        self.insert(session_id, events, source_hook, project_dir, true)
    }

    fn insert(&self, session_id: &str, events: &[Event], source_hook: &str, project_dir: &str, ensure: bool) -> Result<usize, SessionError> {
        if events.is_empty() && !ensure {
            return Ok(0);
        }
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            if ensure {
                tx.execute("INSERT OR IGNORE INTO session_meta (session_id, project_dir) VALUES (?1, ?2)", params![session_id, project_dir])?;
            }
            let mut inserted = 0;
            for e in events {
                // Nothing secret is ever written: the data is masked first.
                let masked = super::redact::mask(&e.data);
                let hash = data_hash(&masked);
                let duplicate: bool = tx
                    .query_row(
                        "SELECT EXISTS (SELECT 1 FROM (SELECT type, data_hash FROM session_events WHERE session_id = ?1 ORDER BY id DESC LIMIT ?2) WHERE type = ?3 AND data_hash = ?4)",
                        params![session_id, DEDUP_WINDOW, e.kind, hash],
                        |r| r.get(0),
                    )?;
                if duplicate {
                    continue;
                }
                let count: i64 = tx.query_row("SELECT COUNT(*) FROM session_events WHERE session_id = ?1", [session_id], |r| r.get(0))?;
                if count >= MAX_EVENTS_PER_SESSION {
                    tx.execute(
                        "DELETE FROM session_events WHERE id IN (SELECT id FROM session_events WHERE session_id = ?1 ORDER BY priority DESC, id ASC LIMIT ?2)",
                        params![session_id, count - MAX_EVENTS_PER_SESSION + 1],
                    )?;
                }
                tx.execute(
                    "INSERT INTO session_events (session_id, type, category, priority, data, project_dir, bytes_avoided, bytes_returned, source_hook, data_hash)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    params![
                        session_id,
                        e.kind,
                        e.category,
                        e.priority,
                        masked,
                        project_dir,
                        e.bytes_avoided.max(0),
                        e.bytes_returned.max(0),
                        source_hook,
                        hash
                    ],
                )?;
                inserted += 1;
            }
            if inserted > 0 {
                tx.execute(
                    "UPDATE session_meta SET last_event_at = datetime('now'), event_count = event_count + 1 WHERE session_id = ?1",
                    [session_id],
                )?;
            }
            tx.commit()?;
            Ok(inserted)
        })
    }

    /// Number of events stored for a session.
    pub fn event_count(&self, session_id: &str) -> Result<i64, SessionError> {
        self.with_retry(|c| c.query_row("SELECT COUNT(*) FROM session_events WHERE session_id = ?1", [session_id], |r| r.get(0)))
    }

    /// The events of a session in storage order: `(type, category, priority, data)`.
    pub fn events(&self, session_id: &str) -> Result<Vec<Event>, SessionError> {
        self.with_retry(|c| {
            let mut stmt = c.prepare("SELECT type, category, priority, data, bytes_avoided, bytes_returned FROM session_events WHERE session_id = ?1 ORDER BY id")?;
            let rows = stmt.query_map([session_id], |r| {
                Ok(Event { kind: r.get(0)?, category: r.get(1)?, priority: r.get(2)?, data: r.get(3)?, bytes_avoided: r.get(4)?, bytes_returned: r.get(5)? })
            })?;
            rows.collect()
        })
    }

    /// Deletes one session's rows from every table; returns how many rows went.
    pub fn purge_session(&self, session_id: &str) -> Result<usize, SessionError> {
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            let mut n = 0;
            for table in ["session_events", "session_meta", "session_resume", "tool_calls"] {
                let exists: i64 = tx.query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1", [table], |r| r.get(0))?;
                if exists > 0 {
                    n += tx.execute(&format!("DELETE FROM {table} WHERE session_id = ?1"), [session_id])?;
                }
            }
            tx.commit()?;
            Ok(n)
        })
    }

    /// Stores the snapshot PreCompact built (replacing an older one, unread again) and
    /// counts the compaction. Returns the session's compaction count.
    pub fn save_resume(&self, session_id: &str, snapshot: &str, event_count: i64) -> Result<i64, SessionError> {
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute(
                "INSERT INTO session_resume (session_id, snapshot, event_count) VALUES (?1, ?2, ?3)
                 ON CONFLICT(session_id) DO UPDATE SET snapshot = excluded.snapshot, event_count = excluded.event_count, created_at = datetime('now'), consumed = 0",
                params![session_id, snapshot, event_count],
            )?;
            tx.execute("UPDATE session_meta SET compact_count = compact_count + 1 WHERE session_id = ?1", [session_id])?;
            let n: i64 = tx.query_row("SELECT COALESCE((SELECT compact_count FROM session_meta WHERE session_id = ?1), 1)", [session_id], |r| r.get(0))?;
            tx.commit()?;
            Ok(n)
        })
    }

    /// How many times a session was compacted.
    pub fn compact_count(&self, session_id: &str) -> Result<i64, SessionError> {
        self.with_retry(|c| c.query_row("SELECT COALESCE((SELECT compact_count FROM session_meta WHERE session_id = ?1), 0)", [session_id], |r| r.get(0)))
    }

    /// The session's own unread snapshot, marked read.
    pub fn take_resume(&self, session_id: &str) -> Result<Option<String>, SessionError> {
        self.with_retry(|c| c.query_row("UPDATE session_resume SET consumed = 1 WHERE session_id = ?1 AND consumed = 0 RETURNING snapshot", [session_id], |r| r.get(0)).optional())
    }

    /// The newest unread snapshot another session of this project left (a resumed
    /// conversation that arrives under a new id), claimed so no one else injects it.
    pub fn claim_other_resume(&self, session_id: &str) -> Result<Option<(String, String)>, SessionError> {
        self.with_retry(|c| {
            c.query_row(
                "UPDATE session_resume SET consumed = 1 WHERE id = (SELECT id FROM session_resume WHERE consumed = 0 AND session_id != ?1 ORDER BY created_at DESC, id DESC LIMIT 1) AND consumed = 0 RETURNING session_id, snapshot",
                [session_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }

    /// Forgets sessions with no activity for `days` days (by their last event, not by
    /// when they started), and stray events of sessions never recorded. Returns how
    /// many sessions went.
    pub fn remove_inactive(&self, days: u32) -> Result<usize, SessionError> {
        let cutoff = format!("-{days} days");
        // Most starts find nothing to forget: a quick check avoids the write.
        let any: bool = self.with_retry(|c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM session_meta WHERE COALESCE(last_event_at, started_at) < datetime('now', ?1))
                     OR EXISTS (SELECT 1 FROM session_events e WHERE e.created_at < datetime('now', ?1) AND NOT EXISTS (SELECT 1 FROM session_meta m WHERE m.session_id = e.session_id))",
                [&cutoff],
                |r| r.get(0),
            )
        })?;
        if !any {
            return Ok(0);
        }
        self.with_retry(|c| {
            let tx = c.unchecked_transaction()?;
            let stale: Vec<String> = tx
                .prepare(
                    "SELECT session_id FROM session_meta WHERE COALESCE(last_event_at, started_at) < datetime('now', ?1)
                     UNION SELECT session_id FROM session_events WHERE session_id NOT IN (SELECT session_id FROM session_meta)
                     GROUP BY session_id HAVING MAX(created_at) < datetime('now', ?1)",
                )?
                .query_map([&cutoff], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            for sid in &stale {
                for table in ["session_events", "session_resume", "session_meta", "tool_calls"] {
                    tx.execute(&format!("DELETE FROM {table} WHERE session_id = ?1"), [sid])?;
                }
            }
            tx.commit()?;
            Ok(stale.len())
        })
    }

    /// The session with the most recent activity, if any.
    pub fn latest_session(&self) -> Result<Option<String>, SessionError> {
        self.with_retry(|c| {
            c.query_row(
                "SELECT session_id FROM session_events ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
        })
    }

    /// Adds one MCP tool call to a session's ledger.
    pub fn record_tool_call(&self, session_id: &str, tool: &str, returned: u64, withheld: u64) -> Result<(), SessionError> {
        self.with_retry(|c| {
            c.execute(
                "INSERT INTO tool_calls (session_id, tool, calls, bytes_returned, bytes_avoided) VALUES (?1, ?2, 1, ?3, ?4)
                 ON CONFLICT(session_id, tool) DO UPDATE SET calls = calls + 1, bytes_returned = bytes_returned + excluded.bytes_returned,
                 bytes_avoided = bytes_avoided + excluded.bytes_avoided, updated_at = datetime('now')",
                params![session_id, tool, returned as i64, withheld as i64],
            )
        })?;
        Ok(())
    }

    /// What was kept out of and returned to the context: for one session, or (`None`)
    /// for every session in this database.
    pub fn ledger(&self, session_id: Option<&str>) -> Result<Ledger, SessionError> {
        let filter = if session_id.is_some() { "WHERE session_id = ?1" } else { "WHERE ?1 IS NULL" };
        self.with_retry(|c| {
            let (kept_events, returned_events, events, first): (i64, i64, i64, Option<String>) = c.query_row(
                &format!("SELECT COALESCE(SUM(bytes_avoided), 0), COALESCE(SUM(bytes_returned), 0), COUNT(*), MIN(created_at) FROM session_events {filter}"),
                [session_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )?;
            let (kept_calls, returned_calls, calls): (i64, i64, i64) = c.query_row(
                &format!("SELECT COALESCE(SUM(bytes_avoided), 0), COALESCE(SUM(bytes_returned), 0), COALESCE(SUM(calls), 0) FROM tool_calls {filter}"),
                [session_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            let sessions: i64 = c.query_row(&format!("SELECT COUNT(DISTINCT session_id) FROM session_events {filter}"), [session_id], |r| r.get(0))?;
            Ok(Ledger {
                kept_out: (kept_events + kept_calls).max(0) as u64,
                returned: (returned_events + returned_calls).max(0) as u64,
                tool_calls: calls.max(0) as u64,
                events: events.max(0) as u64,
                sessions: sessions.max(0) as u64,
                first_event_at: first,
            })
        })
    }

    /// Whether a session row exists.
    pub fn has_session(&self, session_id: &str) -> Result<bool, SessionError> {
        self.with_retry(|c| c.query_row("SELECT 1 FROM session_meta WHERE session_id = ?1", [session_id], |_| Ok(())).optional().map(|r| r.is_some()))
    }
}

/// First 16 hex digits of SHA-256, upper-cased, as 1.0.169 stores them.
pub fn data_hash(data: &str) -> String {
    super::paths::hash16(data).to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db() -> (tempdir::Dir, SessionDb) {
        let dir = tempdir::Dir::new();
        let db = SessionDb::open(&dir.path.join("s.db")).unwrap();
        (dir, db)
    }

    mod tempdir {
        pub struct Dir {
            pub path: std::path::PathBuf,
        }
        impl Dir {
            pub fn new() -> Dir {
                let path = std::env::temp_dir().join(format!("cm-test-{}-{}", std::process::id(), rand()));
                std::fs::create_dir_all(&path).unwrap();
                Dir { path }
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.path);
            }
        }
        fn rand() -> u128 {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
        }
    }

    #[test]
    fn dedup_within_recent_rows() {
        let (_d, db) = temp_db();
        db.ensure_session("s", "/p").unwrap();
        let e = Event::new("turn_end", "session", 1, "x");
        assert_eq!(db.insert_events("s", &[e.clone()], "Stop", "/p").unwrap(), 1);
        assert_eq!(db.insert_events("s", &[e], "Stop", "/p").unwrap(), 0);
        assert_eq!(db.event_count("s").unwrap(), 1);
    }

    #[test]
    fn cap_evicts_least_valuable_first() {
        let (_d, db) = temp_db();
        let mut batch = vec![Event::new("file_read", "file", 1, "keep")];
        for i in 0..MAX_EVENTS_PER_SESSION {
            batch.push(Event::new("intent", "intent", 4, format!("i{i}")));
        }
        db.insert_events("s", &batch, "PostToolUse", "/p").unwrap();
        let events = db.events("s").unwrap();
        assert_eq!(events.len() as i64, MAX_EVENTS_PER_SESSION);
        assert_eq!(events[0].data, "keep");
    }

    #[test]
    fn sessions_are_forgotten_by_last_activity_not_by_start() {
        let (_d, db) = temp_db();
        for sid in ["old-but-active", "idle"] {
            db.record(sid, &[Event::new("file_edit", "file", 1, format!("{sid}.ts"))], "PostToolUse", "/p").unwrap();
        }
        db.conn.execute("UPDATE session_meta SET started_at = datetime('now', '-30 days')", []).unwrap();
        db.conn.execute("UPDATE session_meta SET last_event_at = datetime('now', '-10 days') WHERE session_id = 'idle'", []).unwrap();
        assert_eq!(db.remove_inactive(7).unwrap(), 1);
        assert_eq!(db.event_count("old-but-active").unwrap(), 1);
        assert_eq!(db.event_count("idle").unwrap(), 0);
        assert_eq!(db.remove_inactive(7).unwrap(), 0);
    }

    #[test]
    fn resume_snapshots_are_claimed_once() {
        let (_d, db) = temp_db();
        db.record("a", &[], "SessionStart", "/p").unwrap();
        assert_eq!(db.save_resume("a", "<snap a>", 3).unwrap(), 1);
        assert_eq!(db.claim_other_resume("b").unwrap(), Some(("a".to_string(), "<snap a>".to_string())));
        assert_eq!(db.claim_other_resume("c").unwrap(), None);
        db.save_resume("a", "<snap a2>", 4).unwrap();
        assert_eq!(db.take_resume("a").unwrap().as_deref(), Some("<snap a2>"));
        assert_eq!(db.take_resume("a").unwrap(), None);
    }

    #[test]
    fn hash_is_upper_hex() {
        assert_eq!(data_hash("x").len(), 16);
        assert!(data_hash("x").chars().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()));
    }
}
