//! Running the release binary of locksmith from a benchmark, with a watchdog, and measuring
//! its wall time and peak memory. Shared by the benches; it never interprets a report.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// `target/release/locksmith`: the bench executable lives in `target/release/deps/`.
pub fn locksmith_binary() -> Result<PathBuf, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the bench executable: {e}"))?;
    let release = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("the bench executable has no grandparent directory")?;
    let binary = release.join(format!("locksmith{}", std::env::consts::EXE_SUFFIX));
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!(
            "{} is missing: this bench runs the release binary, build it first with `cargo build --release`",
            binary.display()
        ))
    }
}

pub enum RunStatus {
    Exited(i32),
    Signalled(i32),
    TimedOut,
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunStatus::Exited(c) => write!(f, "exit {c}"),
            RunStatus::Signalled(s) => write!(f, "signal {s}"),
            RunStatus::TimedOut => write!(f, "timed out"),
        }
    }
}

pub struct Run {
    pub wall: Duration,
    pub max_rss_kib: i64,
    /// The child's peak was not above this process's own, so `max_rss_kib` is only an upper
    /// bound (see [`run_check`]).
    pub rss_is_bound: bool,
    pub status: RunStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `locksmith check` once and reaps it with `wait4`, whose resource usage is that of this
/// child alone (not of the gcc processes the bench ran before). A watchdog kills it after
/// `timeout`; the child is first waited for without being reaped, so the watchdog can never signal
/// a recycled process id.
///
/// Linux carries the peak resident size of the memory image a process leaves at `exec` into its
/// `ru_maxrss`, and a child started with `posix_spawn` leaves this bench's image. So a child whose
/// reported peak is not above this process's own peak may have used less: the table marks such a
/// figure with `<=`; an unmarked figure is the child's own peak.
pub fn run_check(
    binary: &Path,
    sources: &[PathBuf],
    timeout: Duration,
    output: Output,
) -> Result<Run, String> {
    run_check_with(binary, sources, &[], &[], timeout, output)
}

/// [`run_check`] with further arguments after the sources (such as `--timings`) and further
/// variables in its environment (such as `LOCKSMITH_STATS`).
pub fn run_check_with(
    binary: &Path,
    sources: &[PathBuf],
    extra: &[&str],
    env: &[(&str, &str)],
    timeout: Duration,
    output: Output,
) -> Result<Run, String> {
    let own_peak_kib = own_peak_rss_kib();
    let start = Instant::now();
    let mut child = Command::new(binary)
        .arg("check")
        .args(sources)
        .args(["--format", output.format()])
        // Every run is measured as a first run: a parse cache filled by an earlier size or
        // shape would turn the parse phase's growth into that of a cache lookup.
        .arg("--no-cache")
        .args(extra)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let pid = child.id() as libc::pid_t;
    let stdout = drain(child.stdout.take(), output.kept());
    let stderr = drain(child.stderr.take(), usize::MAX);

    let (done, finished) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        if finished.recv_timeout(timeout).is_err() {
            // SAFETY: `pid` is our own child, which leads its own process group, and it is not
            // reaped before this thread has been joined (the main thread waits with WNOWAIT
            // first), so the group id cannot name other processes; a signal to a zombie is
            // harmless. Killing the group also ends any process the child started, which would
            // otherwise keep its pipes open.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            true
        } else {
            false
        }
    });

    let exited = loop {
        // SAFETY: an all-zero `siginfo_t` is a valid value of this plain C struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is valid for writes and `pid` is a child of this process; WNOWAIT leaves
        // it unreaped.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            break Ok(());
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            break Err(format!("waitid: {err}"));
        }
    };
    let wall = start.elapsed();
    let _ = done.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    exited?;

    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid for writes, and `pid` is an exited, unreaped
        // child of this process.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("wait4: {err}"));
        }
    }

    let status = if timed_out {
        RunStatus::TimedOut
    } else if libc::WIFEXITED(status) {
        RunStatus::Exited(libc::WEXITSTATUS(status))
    } else {
        RunStatus::Signalled(libc::WTERMSIG(status))
    };
    Ok(Run {
        wall,
        max_rss_kib: usage.ru_maxrss,
        rss_is_bound: usage.ru_maxrss <= own_peak_kib,
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// The peak resident size of this process so far, in KiB.
fn own_peak_rss_kib() -> i64 {
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid for writes.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
        usage.ru_maxrss
    } else {
        0
    }
}

/// Reads a child's pipe to its end on a thread, so a full pipe never blocks the child, keeping
/// at most its last `keep` bytes (a large report need not grow this process, whose peak memory
/// would then bound the child's figure).
fn drain<R: Read + Send + 'static>(pipe: Option<R>, keep: usize) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        if let Some(mut p) = pipe {
            loop {
                match p.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        buf.extend_from_slice(&chunk[..n]);
                        if buf.len() > keep.saturating_mul(2) {
                            buf.drain(..buf.len() - keep);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        if buf.len() > keep {
            buf.drain(..buf.len() - keep);
        }
        buf
    })
}

/// What a run prints and what of it the bench keeps.
#[derive(Copy, Clone, Debug)]
pub enum Output {
    /// The JSON report, kept whole.
    Json,
    /// The text report, of which only the end (with the summary line) is kept.
    TextSummary,
}

impl Output {
    fn format(self) -> &'static str {
        match self {
            Output::Json => "json",
            Output::TextSummary => "text",
        }
    }

    fn kept(self) -> usize {
        match self {
            Output::Json => usize::MAX,
            Output::TextSummary => 4096,
        }
    }
}

pub fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.lines().find(|l| !l.trim().is_empty()) {
        Some(line) => line.trim().chars().take(100).collect(),
        None => "(no stderr)".to_string(),
    }
}
