//! Where a project's content database lives: `<configDir>/context-mode/content/<H>.db`
//! (`CONTEXT_MODE_DIR/content` when set), `H` the first 16 hex digits of the SHA-256 of
//! the normalised project dir — the file 1.0.169 uses for the same project.

use crate::platform::paths::PlatformOpts;
use crate::session::paths::{project_hash, storage_root, StorageDirError};
use std::path::PathBuf;

pub fn content_db_path(opts: &PlatformOpts, project_dir: &str) -> Result<PathBuf, StorageDirError> {
    Ok(storage_root(opts)?.join("content").join(format!("{}.db", project_hash(project_dir))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::paths::CLAUDE;

    #[test]
    fn file_name_is_the_project_hash() {
        let p = content_db_path(&CLAUDE, "/home/dev/proj").unwrap();
        assert!(p.ends_with("content/bb97ae4cdb5b0dd7.db"), "{}", p.display());
    }
}
