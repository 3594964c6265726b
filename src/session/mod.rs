//! The session log: what the agent did, kept per project so its working state can be
//! rebuilt after the host compacts the conversation. The only code that opens the
//! session database.

pub mod db;
pub mod hooks;
pub mod paths;

pub use db::{Event, SessionDb, SessionError};

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
