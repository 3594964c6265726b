//! What each tool call cost the context and what it kept out of it, counted honestly:
//! `returned` is every byte of every answer (errors included); `withheld` is only
//! output that was produced or fetched and did not enter the answer.

use once_cell::sync::Lazy;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolStats {
    pub calls: u64,
    pub bytes_returned: u64,
    pub bytes_withheld: u64,
}

static LEDGER: Lazy<Mutex<BTreeMap<String, ToolStats>>> = Lazy::new(|| Mutex::new(BTreeMap::new()));
static STARTED: Lazy<Instant> = Lazy::new(Instant::now);

/// Counts one call.
pub fn record(tool: &str, returned: usize, withheld: u64) {
    Lazy::force(&STARTED);
    let mut l = LEDGER.lock().unwrap_or_else(|e| e.into_inner());
    let s = l.entry(tool.to_string()).or_default();
    s.calls += 1;
    s.bytes_returned += returned as u64;
    s.bytes_withheld += withheld;
}

/// Every tool's counts so far, by name.
pub fn snapshot() -> Vec<(String, ToolStats)> {
    LEDGER.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(k, v)| (k.clone(), *v)).collect()
}

/// How long the ledger has been counting.
pub fn uptime() -> std::time::Duration {
    STARTED.elapsed()
}

/// Forgets everything (project purge).
pub fn reset() {
    LEDGER.lock().unwrap_or_else(|e| e.into_inner()).clear();
}
