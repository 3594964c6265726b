//! Reading a hook payload from stdin without ever hanging the host.
//!
//! A reader thread pulls fd 0 in large chunks; the caller waits on a channel with an
//! idle limit that is re-armed by every chunk. The four outcomes match 1.0.169:
//! EOF with nothing, EOF with data, idle with nothing (the host held the pipe open:
//! treated as an empty payload), and idle with a partial payload, which is an error —
//! a truncated payload is never parsed. A thread still blocked in `read` does not keep
//! the process alive, so the hook exits as soon as it has answered.

use std::io::Read;
use std::sync::mpsc;
use std::time::Duration;

/// Default idle limit in milliseconds (`CONTEXT_MODE_HOOK_STDIN_IDLE_MS`).
pub const DEFAULT_IDLE_MS: f64 = 1500.0;

const CHUNK: usize = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum StdinError {
    /// The host stopped writing mid-payload.
    #[error("Error: stdin stayed idle for {idle} ms after {buffered} characters of a partial payload; refusing to guess the rest")]
    IdleWithPartialData { idle: String, buffered: usize },
    #[error("Error: reading stdin failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The idle limit as JS `Number(env || 1500)` computes it; returns the value as written
/// in messages and the effective timer (Node runs NaN, 0 and negatives as 1 ms).
pub fn idle_limit_from_env(raw: Option<&str>) -> (String, Duration) {
    let value = match raw {
        Some(s) if !s.is_empty() => js_number(s),
        _ => DEFAULT_IDLE_MS,
    };
    let shown = crate::jsjson::format_number(value);
    let ms = if value.is_finite() && value >= 1.0 && value <= 2_147_483_647.0 { value.trunc() as u64 } else { 1 };
    (shown, Duration::from_millis(ms))
}

/// JS `Number(string)`: trims JS whitespace; empty is 0; decimal, exponent, `0x`/`0o`/`0b`
/// and `Infinity` forms; anything else NaN.
pub fn js_number(s: &str) -> f64 {
    let t = crate::jsjson::js_trim(s);
    if t.is_empty() {
        return 0.0;
    }
    let radix = |p: &str, r: u32| u64::from_str_radix(p, r).map(|n| n as f64).unwrap_or(f64::NAN);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return radix(h, 16);
    }
    if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        return radix(o, 8);
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return radix(b, 2);
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    let valid = !body.is_empty()
        && body.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && body.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.');
    if !valid {
        return f64::NAN;
    }
    body.parse::<f64>().map(|v| sign * v).unwrap_or(f64::NAN)
}

/// Reads all of stdin with the idle limit from the environment.
pub fn read_stdin() -> Result<String, StdinError> {
    let raw = std::env::var("CONTEXT_MODE_HOOK_STDIN_IDLE_MS").ok();
    let (shown, idle) = idle_limit_from_env(raw.as_deref());
    read_with_idle(std::io::stdin(), idle, &shown)
}

/// Reads `source` to the end, or until it stays idle for `idle`.
pub fn read_with_idle<R: Read + Send + 'static>(mut source: R, idle: Duration, shown: &str) -> Result<String, StdinError> {
    let (tx, rx) = mpsc::channel::<std::io::Result<Vec<u8>>>();
    std::thread::Builder::new()
        .name("hook-stdin".into())
        .spawn(move || loop {
            let mut buf = vec![0u8; CHUNK];
            match source.read(&mut buf) {
                Ok(0) => {
                    let _ = tx.send(Ok(Vec::new()));
                    return;
                }
                Ok(n) => {
                    buf.truncate(n);
                    if tx.send(Ok(buf)).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        })?;

    let mut data: Vec<u8> = Vec::new();
    loop {
        match rx.recv_timeout(idle) {
            Ok(Ok(chunk)) if chunk.is_empty() => break,
            Ok(Ok(chunk)) => data.extend_from_slice(&chunk),
            Ok(Err(e)) => return Err(StdinError::Io(e)),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if data.is_empty() {
                    return Ok(String::new());
                }
                let text = String::from_utf8_lossy(&data);
                let buffered = text.encode_utf16().count();
                return Err(StdinError::IdleWithPartialData { idle: shown.to_string(), buffered });
            }
        }
    }
    let text = match String::from_utf8(data) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(match text.strip_prefix('\u{FEFF}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    struct Stalled {
        first: Option<Vec<u8>>,
    }
    impl Read for Stalled {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if let Some(data) = self.first.take() {
                buf[..data.len()].copy_from_slice(&data);
                return Ok(data.len());
            }
            std::thread::sleep(Duration::from_secs(30));
            Ok(0)
        }
    }

    #[test]
    fn eof_returns_everything_without_one_bom() {
        let got = read_with_idle(Cursor::new("\u{FEFF}\u{FEFF}{}".as_bytes().to_vec()), Duration::from_secs(1), "1000").unwrap();
        assert_eq!(got, "\u{FEFF}{}");
    }

    #[test]
    fn idle_with_nothing_is_empty() {
        let got = read_with_idle(Stalled { first: None }, Duration::from_millis(50), "50").unwrap();
        assert_eq!(got, "");
    }

    #[test]
    fn idle_with_partial_data_is_an_error() {
        let err = read_with_idle(Stalled { first: Some(b"{\"tool_name\":\"Bash\"".to_vec()) }, Duration::from_millis(50), "50").unwrap_err();
        match err {
            StdinError::IdleWithPartialData { buffered, .. } => assert_eq!(buffered, 19),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let got = read_with_idle(Cursor::new(vec![b'"', 0xff, b'"']), Duration::from_secs(1), "1000").unwrap();
        assert_eq!(got, "\"\u{FFFD}\"");
    }

    #[test]
    fn large_payload_is_read_whole() {
        let big = vec![b'x'; 30 << 20];
        let got = read_with_idle(Cursor::new(big), Duration::from_secs(5), "5000").unwrap();
        assert_eq!(got.len(), 30 << 20);
    }

    #[test]
    fn idle_limit_parses_like_js_number() {
        assert_eq!(idle_limit_from_env(None).1, Duration::from_millis(1500));
        assert_eq!(idle_limit_from_env(Some("")).1, Duration::from_millis(1500));
        assert_eq!(idle_limit_from_env(Some("300")).1, Duration::from_millis(300));
        assert_eq!(idle_limit_from_env(Some(" 1e3 ")).1, Duration::from_millis(1000));
        assert_eq!(idle_limit_from_env(Some("0x10")).1, Duration::from_millis(16));
        assert_eq!(idle_limit_from_env(Some("abc")).1, Duration::from_millis(1));
        assert_eq!(idle_limit_from_env(Some("0")).1, Duration::from_millis(1));
        assert_eq!(idle_limit_from_env(Some("abc")).0, "NaN");
    }
}
