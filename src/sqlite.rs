//! What the two databases (content store and session log) share: telling a lock
//! held by another process from a real error, and retrying past it.

use rusqlite::{Connection, ErrorCode};
use std::time::Duration;

/// Another connection holds the lock (past the busy timeout).
pub fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked))
}

/// The file is not a database, or is damaged.
pub fn is_corrupt(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::NotADatabase) | Some(ErrorCode::DatabaseCorrupt))
}

/// Runs `f`, and again after each pause in `pauses` while the database is busy.
/// Any other error, or the last busy one, is returned.
pub fn retry_busy<T>(conn: &Connection, pauses: &[u64], mut f: impl FnMut(&Connection) -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let mut result = f(conn);
    for pause in pauses {
        match &result {
            Err(e) if is_busy(e) => {
                std::thread::sleep(Duration::from_millis(*pause));
                result = f(conn);
            }
            _ => break,
        }
    }
    result
}
