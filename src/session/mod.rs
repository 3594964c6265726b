//! The session log: what the agent did, kept per project so its working state can be
//! rebuilt after the host compacts the conversation. The only code that opens the
//! session database.

pub mod db;
pub mod extract;
pub mod hooks;
pub mod paths;
pub mod prompt;
pub mod redact;
pub mod snapshot;
pub mod statusline;

pub use db::{Event, Ledger, SessionDb, SessionError};

use crate::platform::paths::PlatformOpts;

/// Who is asking: the host, the session, and the project dirs that key its storage.
#[derive(Debug, Clone)]
pub struct HookContext {
    pub opts: PlatformOpts,
    pub platform: String,
    pub session_id: String,
    /// Keys the database file.
    pub db_project_dir: String,
    /// Recorded with the session and its events.
    pub project_dir: String,
}

impl HookContext {
    pub fn open_db(&self) -> Result<SessionDb, SessionError> {
        SessionDb::open(&paths::session_db_path(&self.opts, &self.db_project_dir)?)
    }
}

/// A project's session database if the hooks created one; the server never creates it.
pub fn existing_db(opts: &PlatformOpts, project_dir: &str) -> Option<SessionDb> {
    let path = paths::session_db_path(opts, project_dir).ok()?;
    path.exists().then(|| SessionDb::open(&path).ok()).flatten()
}

/// Counts one MCP tool call in the ledger of the project's most recent session.
pub fn record_tool_call(opts: &PlatformOpts, project_dir: &str, tool: &str, returned: u64, withheld: u64) -> Result<(), SessionError> {
    let Some(db) = existing_db(opts, project_dir) else { return Ok(()) };
    let Some(session) = db.latest_session()? else { return Ok(()) };
    db.record_tool_call(&session, tool, returned, withheld)
}

/// The ledgers the stats show: the latest session of this project, all of this
/// project's sessions, and every project's sessions for this host.
#[derive(Debug, Clone, Default)]
pub struct Ledgers {
    pub session: Option<(String, Ledger)>,
    pub project: Ledger,
    pub all_projects: Ledger,
    pub projects: usize,
}

pub fn ledgers(opts: &PlatformOpts, project_dir: &str, session_id: Option<&str>) -> Ledgers {
    let mut out = Ledgers::default();
    if let Some(db) = existing_db(opts, project_dir) {
        let sid = session_id.map(str::to_string).or_else(|| db.latest_session().ok().flatten());
        if let Some(sid) = sid {
            if let Ok(l) = db.ledger(Some(&sid)) {
                out.session = Some((sid, l));
            }
        }
        out.project = db.ledger(None).unwrap_or_default();
    }
    let Ok(root) = paths::storage_root(opts) else { return out };
    let Ok(entries) = std::fs::read_dir(root.join("sessions")) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("db") {
            continue;
        }
        if let Ok(l) = SessionDb::open(&path).and_then(|db| db.ledger(None)) {
            if l.events > 0 || l.tool_calls > 0 {
                out.projects += 1;
                out.all_projects.add(&l);
            }
        }
    }
    out
}
