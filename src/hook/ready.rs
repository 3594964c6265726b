//! Is an MCP server of ours running? Redirects only make sense when the ctx tools they
//! point to can answer, so routing checks the readiness sentinels the server leaves:
//! `context-mode-mcp-ready-<pid>` files holding a pid, in `/tmp` (or
//! `CONTEXT_MODE_MCP_SENTINEL_DIR`).

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// A sentinel younger than this counts even when its pid is gone (the server refreshes
/// it every 30 s).
const FRESH: Duration = Duration::from_millis(90_000);

pub const SENTINEL_PREFIX: &str = "context-mode-mcp-ready-";

/// Where sentinels live. 1.0.169 uses `/tmp` on Unix whatever `TMPDIR` says.
pub fn sentinel_dir() -> PathBuf {
    if let Some(dir) = crate::platform::paths::env_nonempty("CONTEXT_MODE_MCP_SENTINEL_DIR") {
        return PathBuf::from(dir);
    }
    if cfg!(windows) {
        std::env::temp_dir()
    } else {
        PathBuf::from("/tmp")
    }
}

/// True when some sentinel names a live process or was refreshed recently. Stale
/// sentinels are removed on the way.
pub fn is_mcp_ready() -> bool {
    let Ok(entries) = std::fs::read_dir(sentinel_dir()) else { return false };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(SENTINEL_PREFIX) {
            continue;
        }
        let path = entry.path();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Some(pid) = crate::hook::throttle::parse_int(&text) else { continue };
        if process_alive(pid) {
            return true;
        }
        let fresh = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| SystemTime::now().duration_since(m).ok())
            .is_some_and(|age| age < FRESH);
        if fresh {
            return true;
        }
        let _ = std::fs::remove_file(&path);
    }
    false
}

/// `process.kill(pid, 0)` succeeding, or failing only for lack of permission.
pub fn process_alive(pid: i64) -> bool {
    if pid <= 0 || pid > i32::MAX as i64 {
        return false;
    }
    #[cfg(unix)]
    {
        // SAFETY: signal 0 only checks that the process exists; nothing is delivered.
        let rc = unsafe { libc::kill(pid as libc::pid_t, 0) };
        rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::Foundation::{CloseHandle, STILL_ACTIVE};
        use windows_sys::Win32::System::Threading::{GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION};
        // SAFETY: plain Win32 calls on a handle we open and close here.
        unsafe {
            let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid as u32);
            if handle.is_null() {
                return false;
            }
            let mut code = 0u32;
            let ok = GetExitCodeProcess(handle, &mut code) != 0;
            CloseHandle(handle);
            ok && code == STILL_ACTIVE as u32
        }
    }
}
