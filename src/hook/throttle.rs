//! Showing a piece of guidance once per session, and the external-MCP nudge every Nth
//! call, with the on-disk markers of 1.0.169 (`<tmp>/context-mode-guidance-s-<sid>/`).
//!
//! Hook processes are short-lived, so the marker file is the real memory. Long-lived
//! callers (the addon inside a plugin host) also keep an in-process cache; unlike
//! 1.0.169 that cache is keyed by session, so one session's guidance never silences
//! another's.

use crate::platform::paths::temp_dir;
use once_cell::sync::Lazy;
use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::Mutex;

static SHOWN: Lazy<Mutex<HashSet<(PathBuf, String)>>> = Lazy::new(|| Mutex::new(HashSet::new()));
static COUNTERS: Lazy<Mutex<HashMap<(PathBuf, String), u64>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The marker directory of a session; without one, of the parent process.
pub fn marker_dir(session_key: Option<&str>) -> PathBuf {
    let name = match session_key {
        Some(sid) if !sid.is_empty() => format!("context-mode-guidance-s-{sid}"),
        _ => match std::env::var("VITEST_WORKER_ID").ok().filter(|w| !w.is_empty()) {
            Some(worker) => format!("context-mode-guidance-{}-w{worker}", super::payload::parent_pid()),
            None => format!("context-mode-guidance-{}", super::payload::parent_pid()),
        },
    };
    temp_dir().join(name)
}

/// True the first time `kind` is asked for in this session: the marker file is
/// created exclusively, and any failure to create it counts as "already shown".
pub fn first_time(kind: &str, session_key: Option<&str>) -> bool {
    let dir = marker_dir(session_key);
    let key = (dir.clone(), kind.to_string());
    let mut shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner());
    if shown.contains(&key) {
        return false;
    }
    let created = std::fs::create_dir_all(&dir).is_ok() && OpenOptions::new().write(true).create_new(true).open(dir.join(kind)).is_ok();
    shown.insert(key);
    created
}

/// Counts a call of `kind` and reports whether this one should carry the nudge
/// (calls 1, N+1, 2N+1, …). The count lives in `<dir>/<kind>.count`.
pub fn periodic(kind: &str, session_key: Option<&str>, every: u64) -> bool {
    let dir = marker_dir(session_key);
    let file = dir.join(format!("{kind}.count"));
    let key = (dir.clone(), kind.to_string());
    let mut counters = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
    let count = match counters.get(&key) {
        Some(c) => *c,
        None => std::fs::read_to_string(&file).ok().and_then(|t| parse_int(&t)).filter(|n| *n >= 0).unwrap_or(0) as u64,
    };
    let next = count + 1;
    counters.insert(key, next);
    let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&file, next.to_string()));
    (next - 1) % every.max(1) == 0
}

/// Forgets everything shown for a session (and for the parent process), in memory
/// and on disk. For tests and in-process callers starting a new session.
pub fn reset(session_key: Option<&str>) {
    let dirs = [marker_dir(None), marker_dir(session_key)];
    SHOWN.lock().unwrap_or_else(|e| e.into_inner()).retain(|(d, _)| !dirs.contains(d));
    COUNTERS.lock().unwrap_or_else(|e| e.into_inner()).retain(|(d, _), _| !dirs.contains(d));
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Forgets the in-process cache only (every session), leaving marker files alone.
pub fn clear_memory() {
    SHOWN.lock().unwrap_or_else(|e| e.into_inner()).clear();
    COUNTERS.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// JS `parseInt(s, 10)`: leading whitespace, a sign, then as many digits as there are.
pub fn parse_int(s: &str) -> Option<i64> {
    let t = crate::jsjson::js_trim(s);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return None;
    }
    let n: i64 = digits[..end].parse().unwrap_or(i64::MAX);
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_like_js() {
        assert_eq!(parse_int("20abc"), Some(20));
        assert_eq!(parse_int(" 7"), Some(7));
        assert_eq!(parse_int("1e3"), Some(1));
        assert_eq!(parse_int("-5"), Some(-5));
        assert_eq!(parse_int("abc"), None);
        assert_eq!(parse_int("10\n"), Some(10));
    }
}
