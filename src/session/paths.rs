//! Where a project's session database lives:
//! `<configDir>/context-mode/sessions/<H><S>.db`, `H` the first 16 hex digits of the
//! SHA-256 of the normalised project dir and `S` the git worktree suffix. Same rules as
//! 1.0.169, so both implementations read and write the same file.

use crate::platform::paths::{context_mode_dir, temp_dir, PlatformOpts};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `CONTEXT_MODE_DIR` was set to something we cannot use.
#[derive(Debug, thiserror::Error)]
#[error("CONTEXT_MODE_DIR must be an absolute path, got {0:?}")]
pub struct StorageDirError(pub String);

/// The storage root: `CONTEXT_MODE_DIR`, else `<configDir>/context-mode`.
pub fn storage_root(opts: &PlatformOpts) -> Result<PathBuf, StorageDirError> {
    match std::env::var("CONTEXT_MODE_DIR") {
        Ok(dir) if !dir.trim().is_empty() => {
            if Path::new(&dir).is_absolute() {
                Ok(PathBuf::from(dir))
            } else {
                Err(StorageDirError(dir))
            }
        }
        _ => Ok(context_mode_dir(opts)),
    }
}

/// The project dir as hashed: `\` → `/`, trailing slashes dropped (a root keeps its
/// slash), lower-cased where file systems ignore case.
pub fn normalize_project_dir(dir: &str) -> String {
    let mut s = dir.replace('\\', "/");
    while s.len() > 1 && s.ends_with('/') && !(s.len() == 3 && s.as_bytes()[1] == b':') {
        s.pop();
    }
    if cfg!(any(target_os = "macos", windows)) {
        s = s.to_lowercase();
    }
    s
}

/// First 16 lowercase hex digits of SHA-256.
pub fn hash16(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

pub fn project_hash(project_dir: &str) -> String {
    hash16(&normalize_project_dir(project_dir))
}

/// The session database of a project for a host.
pub fn session_db_path(opts: &PlatformOpts, project_dir: &str) -> Result<PathBuf, StorageDirError> {
    let hash = project_hash(project_dir);
    let suffix = worktree_suffix(project_dir, &hash);
    Ok(storage_root(opts)?.join("sessions").join(format!("{hash}{suffix}.db")))
}

/// `""` for a main worktree or a plain directory; `__<8 hex>` for a linked git worktree.
/// `CONTEXT_MODE_SESSION_SUFFIX` overrides it; the answer is cached per project in
/// `<tmp>/cm-wt-<H>.txt` because asking git costs two process spawns.
pub fn worktree_suffix(project_dir: &str, hash: &str) -> String {
    if let Ok(forced) = std::env::var("CONTEXT_MODE_SESSION_SUFFIX") {
        return if forced.is_empty() { String::new() } else { format!("__{forced}") };
    }
    let cache = temp_dir().join(format!("cm-wt-{hash}.txt"));
    if let Ok(cached) = std::fs::read_to_string(&cache) {
        return cached;
    }
    let suffix = detect_worktree(project_dir).unwrap_or_default();
    let _ = std::fs::write(&cache, &suffix);
    suffix
}

fn git(dir: &str, args: &[&str]) -> Option<String> {
    let mut child = Command::new("git").arg("-C").arg(dir).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match child.try_wait().ok()? {
            Some(status) if status.success() => break,
            Some(_) => return None,
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    Some(out)
}

fn detect_worktree(project_dir: &str) -> Option<String> {
    if !Path::new(project_dir).is_dir() {
        return None;
    }
    let top = git(project_dir, &["rev-parse", "--show-toplevel"])?.trim().to_string();
    let list = git(project_dir, &["worktree", "list", "--porcelain"])?;
    let main = list.lines().find_map(|l| l.strip_prefix("worktree "))?.trim().to_string();
    let canon = |p: &str| {
        let real = std::fs::canonicalize(p).map(|r| r.to_string_lossy().into_owned()).unwrap_or_else(|_| p.to_string());
        if cfg!(any(target_os = "macos", windows)) {
            real.to_lowercase()
        } else {
            real
        }
    };
    let (top, main) = (canon(&top), canon(&main));
    (top != main).then(|| format!("__{}", &hash16(&top)[..8]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_matches_reference_example() {
        assert_eq!(project_hash("/home/dev/proj"), "bb97ae4cdb5b0dd7");
        assert_eq!(project_hash("/home/dev/proj/"), "bb97ae4cdb5b0dd7");
    }

    #[test]
    fn normalisation_keeps_roots() {
        assert_eq!(normalize_project_dir("/"), "/");
        assert_eq!(normalize_project_dir("C:/"), if cfg!(windows) { "c:/" } else { "C:/" });
    }
}
