//! Files that carry facts from PreToolUse to the PostToolUse that follows (which is
//! the first hook allowed to open the session database). Names and formats are
//! 1.0.169's, so either implementation consumes the other's markers. Writes are best
//! effort: a marker that cannot be written only costs a statistic.

use crate::hook::route::RedirectMeta;
use crate::hook::throttle::parse_int;
use crate::platform::paths::temp_dir;
use crate::clock::now_ms;
use std::path::PathBuf;

fn marker(name: String) -> PathBuf {
    temp_dir().join(name)
}

/// `context-mode-latency-<sid>-<tool>.txt`: when the tool call started.
pub fn write_latency(sid: &str, tool: &str) {
    let _ = std::fs::write(marker(format!("context-mode-latency-{sid}-{tool}.txt")), now_ms().to_string());
}

/// `context-mode-rejected-<sid>.txt`: `<tool>:<reason>` of the last call we denied or
/// rewrote.
pub fn write_rejected(sid: &str, tool: &str, reason: &str) {
    let _ = std::fs::write(marker(format!("context-mode-rejected-{sid}.txt")), format!("{tool}:{reason}"));
}

/// `context-mode-redirect-<sid>.txt`: `<tool>:<type>:<bytes>:<summary>`.
pub fn write_redirect(sid: &str, meta: &RedirectMeta) {
    let _ = std::fs::write(
        marker(format!("context-mode-redirect-{sid}.txt")),
        format!("{}:{}:{}:{}", meta.tool, meta.kind, meta.bytes_avoided, meta.command_summary),
    );
}

/// Reads and removes a marker.
fn take(path: PathBuf) -> Option<String> {
    let text = std::fs::read_to_string(&path).ok()?;
    let _ = std::fs::remove_file(&path);
    Some(text)
}

/// A consumed rejected marker: which tool, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Rejected {
    pub tool: String,
    pub reason: String,
}

pub fn take_rejected(sid: &str) -> Option<Rejected> {
    let text = take(marker(format!("context-mode-rejected-{sid}.txt")))?;
    let text = text.trim();
    let (tool, reason) = match text.find(':') {
        Some(i) if i > 0 => (&text[..i], &text[i + 1..]),
        _ => (text, ""),
    };
    if tool.is_empty() {
        return None;
    }
    Some(Rejected { tool: tool.to_string(), reason: if reason.is_empty() { "denied".into() } else { reason.to_string() } })
}

pub fn take_redirect(sid: &str) -> Option<RedirectMeta> {
    let text = take(marker(format!("context-mode-redirect-{sid}.txt")))?;
    let mut parts = text.splitn(4, ':');
    let tool = parts.next()?.to_string();
    let kind = parts.next()?.to_string();
    let bytes = parse_int(parts.next()?)?;
    let summary = parts.next().unwrap_or("").to_string();
    (bytes > 0).then(|| RedirectMeta { tool, kind, bytes_avoided: bytes as u64, command_summary: summary })
}

/// Milliseconds since the matching PreToolUse started, if it left a marker.
pub fn take_latency(sid: &str, tool: &str) -> Option<i64> {
    let text = take(marker(format!("context-mode-latency-{sid}-{tool}.txt")))?;
    let start = parse_int(&text)?;
    Some(now_ms() - start)
}

/// Bytes the MCP server returned from searches since the last PostToolUse, for the
/// database named `db_basename`.
pub fn take_retrieval(db_basename: &str) -> Option<i64> {
    let text = take(marker(format!("context-mode-retrieval-{db_basename}.txt")))?;
    let total: i64 = text.lines().filter_map(parse_int).filter(|n| *n > 0).sum();
    (total > 0).then_some(total)
}

/// Appends one retrieval to the marker of a content database.
pub fn append_retrieval(db_basename: &str, bytes: u64) {
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(marker(format!("context-mode-retrieval-{db_basename}.txt"))) {
        let _ = writeln!(f, "{bytes}");
    }
}
