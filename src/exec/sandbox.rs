//! Running one program for the agent, bounded: its own process group (so a timeout
//! takes its children too), a deadline, output kept in bounded memory (head and tail),
//! a hard stop for runaway printers, and a background mode that hands back what was
//! printed so far and lets the program go on.

use once_cell::sync::Lazy;
use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::AsyncReadExt;

/// Bytes of each stream kept from its start, and from its end.
const HEAD_BYTES: usize = 8 << 20;
const TAIL_BYTES: usize = 1 << 20;
/// Combined output after which the program is stopped (`CONTEXT_MODE_EXEC_MAX_OUTPUT_BYTES`).
pub const MAX_OUTPUT_BYTES: u64 = 100 << 20;

fn max_output() -> u64 {
    std::env::var("CONTEXT_MODE_EXEC_MAX_OUTPUT_BYTES").ok().and_then(|v| v.trim().parse().ok()).filter(|n| *n > 0).unwrap_or(MAX_OUTPUT_BYTES)
}

/// One stream's output: the first and last bytes, and how much there was.
#[derive(Debug, Default, Clone)]
pub struct Captured {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    pub total: u64,
}

impl Captured {
    /// A capture holding `text`, for results made without running anything.
    pub fn from_text(text: &str) -> Captured {
        let mut c = Captured::default();
        c.push(text.as_bytes());
        c
    }

    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = HEAD_BYTES.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        self.tail.extend(rest);
        while self.tail.len() > TAIL_BYTES {
            let excess = self.tail.len() - TAIL_BYTES;
            self.tail.drain(..excess);
        }
    }

    /// Everything that was printed was kept.
    pub fn is_complete(&self) -> bool {
        self.head.len() as u64 + self.tail.len() as u64 == self.total
    }

    /// The output as text; when the middle was dropped, a line says how much.
    pub fn text(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        if self.is_complete() {
            let mut all = self.head.clone();
            all.extend(self.tail.iter());
            return String::from_utf8_lossy(&all).into_owned();
        }
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        let dropped = self.total - self.head.len() as u64 - self.tail.len() as u64;
        format!("{head}\n… [{dropped} bytes not kept] …\n{}", String::from_utf8_lossy(&tail))
    }
}

#[derive(Debug, Clone)]
pub struct RunRequest {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub cwd: PathBuf,
    pub env: Vec<(OsString, OsString)>,
    /// `None` runs without a deadline.
    pub timeout: Option<Duration>,
    /// At the deadline, return what was printed and let the program go on.
    pub background: bool,
    /// Removed when the program is done (also when it finishes in the background).
    pub scratch_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Default)]
pub struct RunOutput {
    pub stdout: Captured,
    pub stderr: Captured,
    pub exit_code: i32,
    pub timed_out: bool,
    pub backgrounded: bool,
    /// Stopped for printing more than the output limit.
    pub output_capped: bool,
    pub pid: Option<u32>,
    pub elapsed: Duration,
}

/// Process groups still running in the background, stopped when the server exits.
static BACKGROUND: Lazy<Mutex<HashSet<u32>>> = Lazy::new(|| Mutex::new(HashSet::new()));

/// Stops every program left running in the background. Returns how many.
pub fn stop_background() -> usize {
    let groups: Vec<u32> = BACKGROUND.lock().unwrap_or_else(|e| e.into_inner()).drain().collect();
    for pid in &groups {
        kill_group(*pid, true);
    }
    groups.len()
}

/// Signals a whole process group (SIGKILL, or SIGTERM when `gentle`).
pub fn kill_group(pid: u32, gentle: bool) {
    #[cfg(unix)]
    {
        let signal = if gentle { libc::SIGTERM } else { libc::SIGKILL };
        // SAFETY: killpg only sends a signal; a stale pid is reported as an error.
        unsafe {
            libc::killpg(pid as libc::pid_t, signal);
        }
    }
    #[cfg(windows)]
    {
        let _ = gentle;
        let _ = std::process::Command::new("taskkill").args(["/F", "/T", "/PID", &pid.to_string()]).stdout(Stdio::null()).stderr(Stdio::null()).status();
    }
}

/// A fresh scratch directory in the system temp dir (not `TMPDIR`, which may point
/// into the project).
pub fn scratch_dir() -> std::io::Result<PathBuf> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let base = if cfg!(unix) && Path::new("/tmp").is_dir() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let dir = base.join(format!(".ctx-mode-{}-{n}-{nanos:08x}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn remove_dir(dir: &Option<PathBuf>) {
    if let Some(d) = dir {
        for _ in 0..3 {
            if std::fs::remove_dir_all(d).is_ok() || !d.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

async fn pump<R: tokio::io::AsyncRead + Unpin>(mut reader: R, sink: Arc<Mutex<Captured>>, total: Arc<std::sync::atomic::AtomicU64>, stop: Arc<tokio::sync::Notify>, cap: u64) {
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                sink.lock().unwrap_or_else(|e| e.into_inner()).push(&buf[..n]);
                let sum = total.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed) + n as u64;
                if sum > cap {
                    stop.notify_one();
                }
            }
        }
    }
}

/// Runs a program to completion, deadline, output limit or background hand-off.
pub async fn run(req: RunRequest) -> RunOutput {
    let started = Instant::now();
    let mut cmd = tokio::process::Command::new(&req.program);
    cmd.args(&req.args).current_dir(&req.cwd).env_clear().envs(req.env.iter().map(|(k, v)| (k, v))).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    #[cfg(unix)]
    cmd.process_group(0);
    #[cfg(windows)]
    {
        // CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW
        cmd.creation_flags(0x0000_0200 | 0x0800_0000);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            remove_dir(&req.scratch_dir);
            let mut out = RunOutput { exit_code: 1, elapsed: started.elapsed(), ..Default::default() };
            out.stderr.push(format!("cannot start {}: {e}", req.program.display()).as_bytes());
            return out;
        }
    };
    let pid = child.id();
    let stdout = Arc::new(Mutex::new(Captured::default()));
    let stderr = Arc::new(Mutex::new(Captured::default()));
    let total = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let over_limit = Arc::new(tokio::sync::Notify::new());
    let cap = max_output();
    let out_task = child.stdout.take().map(|s| tokio::spawn(pump(s, stdout.clone(), total.clone(), over_limit.clone(), cap)));
    let err_task = child.stderr.take().map(|s| tokio::spawn(pump(s, stderr.clone(), total.clone(), over_limit.clone(), cap)));
    let deadline = async {
        match req.timeout {
            Some(t) => tokio::time::sleep(t).await,
            None => std::future::pending::<()>().await,
        }
    };
    enum End {
        Exited(Option<std::process::ExitStatus>),
        Deadline,
        TooMuch,
    }
    let end = tokio::select! {
        status = child.wait() => End::Exited(status.ok()),
        _ = deadline => End::Deadline,
        _ = over_limit.notified() => End::TooMuch,
    };
    let mut result = RunOutput { pid, ..Default::default() };
    match end {
        End::Exited(status) => {
            result.exit_code = status.and_then(|s| s.code()).unwrap_or(1);
            // The group's other members may still hold the pipes: give the readers a
            // moment, then stop the group so nothing outlives the call.
            let drained = async {
                if let Some(t) = out_task {
                    let _ = t.await;
                }
                if let Some(t) = err_task {
                    let _ = t.await;
                }
            };
            if tokio::time::timeout(Duration::from_millis(500), drained).await.is_err() {
                if let Some(p) = pid {
                    kill_group(p, false);
                }
            } else if let Some(p) = pid {
                kill_group(p, false);
            }
            remove_dir(&req.scratch_dir);
        }
        End::Deadline if req.background => {
            result.timed_out = true;
            result.backgrounded = true;
            if let Some(p) = pid {
                BACKGROUND.lock().unwrap_or_else(|e| e.into_inner()).insert(p);
            }
            let dir = req.scratch_dir.clone();
            // Keep reaping and draining (the readers run on), then clean up.
            tokio::spawn(async move {
                let _ = child.wait().await;
                if let Some(p) = pid {
                    BACKGROUND.lock().unwrap_or_else(|e| e.into_inner()).remove(&p);
                }
                remove_dir(&dir);
            });
        }
        End::Deadline | End::TooMuch => {
            result.timed_out = matches!(end, End::Deadline);
            result.output_capped = matches!(end, End::TooMuch);
            if let Some(p) = pid {
                kill_group(p, false);
            }
            let _ = child.kill().await;
            let _ = child.wait().await;
            let drained = async {
                if let Some(t) = out_task {
                    let _ = t.await;
                }
                if let Some(t) = err_task {
                    let _ = t.await;
                }
            };
            let _ = tokio::time::timeout(Duration::from_millis(500), drained).await;
            result.exit_code = 1;
            remove_dir(&req.scratch_dir);
        }
    }
    result.stdout = stdout.lock().unwrap_or_else(|e| e.into_inner()).clone();
    result.stderr = stderr.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if result.output_capped {
        result.stderr.push(format!("\n[output over {} MB; the program was stopped]", cap >> 20).as_bytes());
    }
    result.elapsed = started.elapsed();
    result
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str, timeout_ms: Option<u64>, background: bool) -> RunRequest {
        RunRequest {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            env: std::env::vars_os().collect(),
            timeout: timeout_ms.map(Duration::from_millis),
            background,
            scratch_dir: None,
        }
    }

    /// Processes of a group that are not zombies (a container's init may not reap).
    fn live_members(pgid: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            let Some(after) = stat.rsplit_once(')').map(|(_, a)| a.trim().to_string()) else { continue };
            let fields: Vec<&str> = after.split_whitespace().collect();
            if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
                out.push(entry.file_name().to_string_lossy().parse().unwrap_or(0));
            }
        }
        out
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
    }

    #[test]
    fn exit_codes_and_output() {
        let out = rt().block_on(run(sh("echo hi; echo err >&2; exit 3", None, false)));
        assert_eq!(out.exit_code, 3);
        assert_eq!(out.stdout.text(), "hi\n");
        assert_eq!(out.stderr.text(), "err\n");
    }

    #[test]
    fn a_deadline_kills_the_whole_group() {
        let started = Instant::now();
        let out = rt().block_on(run(sh("sleep 30 & sleep 30; echo never", Some(300), false)));
        assert!(out.timed_out);
        assert!(started.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(200));
        assert!(live_members(out.pid.unwrap()).is_empty(), "no member of the group is left running");
    }

    #[test]
    fn huge_output_keeps_head_and_tail_only() {
        let out = rt().block_on(run(sh("head -c 30000000 /dev/zero | tr '\\0' 'x'; echo END", None, false)));
        assert!(!out.stdout.is_complete());
        assert!(out.stdout.total > 30_000_000);
        assert!(out.stdout.text().len() < HEAD_BYTES + TAIL_BYTES + 100);
        assert!(out.stdout.text().ends_with("END\n"));
    }
}
