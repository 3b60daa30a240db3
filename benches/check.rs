//! Benchmark of `locksmith check` on generated multi-file pthread programs.
//!
//! The analysis is meant to scale to real servers of hundreds of thousands of preprocessed lines,
//! so this bench measures it on synthetic servers of 10k, 100k and 1M preprocessed lines made by
//! the `gen_pthreads` module (deep call chains, locks inside structs, lock helpers, forks in
//! loops, handler tables, one planted race per module). For each size it writes the program to a
//! temporary directory, counts its preprocessed lines with `gcc -E`, runs
//! `locksmith check <files> --format json` three times (once above 100k lines) and prints the
//! median wall time, the peak resident memory of the analysis process, the number of warnings in
//! its JSON output, how many of the planted races they report, and its exit status. A run that fails shows the first line of its stderr
//! instead of numbers, and the bench goes on with the next size. A watchdog kills a run after
//! `--timeout SECS` (default 1800).
//!
//! It runs the release binary next to the bench executable, so build that first:
//!
//! ```text
//! cargo build --release && cargo bench --bench check
//! cargo bench --bench check -- --sizes 10000 50000
//! cargo bench --bench check -- --dump 100000 /tmp/server100k
//! ```
//!
//! `--dump N DIR` only writes the program of about N lines to DIR, for manual runs of locksmith
//! or gcc on it; it needs no locksmith binary.

mod gen_pthreads;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// The seed of every generated program, so that runs of the bench compare the same inputs.
const SEED: u64 = 2006;

/// Runs of `locksmith check` per size: the median is reported.
fn runs_for(size: usize) -> usize {
    if size <= 100_000 {
        3
    } else {
        1
    }
}

/// What the command line asked for.
struct Options {
    sizes: Vec<usize>,
    dump: Option<(usize, PathBuf)>,
    timeout: Duration,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        sizes: vec![10_000, 100_000, 1_000_000],
        dump: None,
        timeout: Duration::from_secs(1800),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--bench" => {}
            "--sizes" => {
                while i + 1 < args.len() && !args[i + 1].starts_with("--") {
                    i += 1;
                    sizes.push(parse_size(&args[i])?);
                }
            }
            "--dump" => {
                if i + 2 >= args.len() {
                    return Err("--dump needs a size and a directory".into());
                }
                options.dump = Some((parse_size(&args[i + 1])?, PathBuf::from(&args[i + 2])));
                i += 2;
            }
            "--timeout" => {
                i += 1;
                let secs = args
                    .get(i)
                    .and_then(|s| s.parse::<u64>().ok())
                    .ok_or("--timeout needs a number of seconds")?;
                options.timeout = Duration::from_secs(secs);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    if !sizes.is_empty() {
        options.sizes = sizes;
    }
    Ok(options)
}

fn parse_size(s: &str) -> Result<usize, String> {
    s.replace('_', "")
        .parse()
        .map_err(|_| format!("not a size: {s:?}"))
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("check bench: {e}");
            eprintln!("usage: cargo bench --bench check -- [--sizes N...] [--dump N DIR] [--timeout SECS]");
            return ExitCode::from(2);
        }
    };

    if let Some((size, dir)) = &options.dump {
        let files = gen_pthreads::generate(*size, SEED);
        if let Err(e) = write_program(dir, &files) {
            eprintln!("check bench: cannot write {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let census = gen_pthreads::census(&files);
        println!(
            "wrote {} files ({} user lines, {} functions, {} fork sites, {} planted races) to {}",
            files.len(),
            census.user_lines,
            census.functions,
            census.fork_sites,
            census.planted_races,
            dir.display()
        );
        return ExitCode::SUCCESS;
    }

    let binary = match locksmith_binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("check bench: {e}");
            return ExitCode::FAILURE;
        }
    };

    println!(
        "locksmith check on generated pthread servers ({})",
        binary.display()
    );
    println!(
        "{:>10} {:>12} {:>10} {:>6} {:>10} {:>11} {:>9} {:>8} {:>6}",
        "target",
        "preprocessed",
        "user",
        "files",
        "median",
        "peak RSS",
        "warnings",
        "planted",
        "exit"
    );
    for &size in &options.sizes {
        bench_size(&binary, size, options.timeout);
    }
    ExitCode::SUCCESS
}

/// `target/release/locksmith`: the bench executable lives in `target/release/deps/`.
fn locksmith_binary() -> Result<PathBuf, String> {
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

fn write_program(dir: &Path, files: &[(String, String)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

fn bench_size(binary: &Path, size: usize, timeout: Duration) {
    let files = gen_pthreads::generate(size, SEED);
    let census = gen_pthreads::census(&files);
    let dir = std::env::temp_dir().join(format!(
        "locksmith-check-bench-{}-{size}",
        std::process::id()
    ));
    if let Err(e) = write_program(&dir, &files) {
        println!("{size:>10} cannot write {}: {e}", dir.display());
        return;
    }
    let sources: Vec<PathBuf> = files
        .iter()
        .filter(|(name, _)| name.ends_with(".c"))
        .map(|(name, _)| dir.join(name))
        .collect();
    let preprocessed = preprocessed_lines(&sources)
        .map(|n| n.to_string())
        .unwrap_or_else(|e| format!("({e})"));

    let mut times = Vec::new();
    let mut peak_kib = 0;
    let mut rss_bound = false;
    let mut outcome = Ok((0, 0, 0));
    for _ in 0..runs_for(size) {
        match run_check(binary, &sources, timeout) {
            Ok(run) => {
                times.push(run.wall);
                peak_kib = peak_kib.max(run.max_rss_kib);
                rss_bound |= run.rss_is_bound;
                match (run.status, warning_count(&run.stdout)) {
                    (RunStatus::Exited(code @ (0 | 1)), Some((w, found))) => {
                        outcome = Ok((w, found, code))
                    }
                    (RunStatus::Exited(code @ (0 | 1)), None) => {
                        outcome = Err(format!(
                            "exit {code} without a JSON report: {}",
                            first_line(&run.stderr)
                        ));
                        break;
                    }
                    (status, _) => {
                        outcome = Err(format!("{status}: {}", first_line(&run.stderr)));
                        break;
                    }
                }
            }
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    let lead = format!(
        "{size:>10} {preprocessed:>12} {:>10} {:>6}",
        census.user_lines,
        sources.len()
    );
    match outcome {
        Ok((warnings, found, code)) => {
            times.sort();
            let median = times[times.len() / 2];
            println!(
                "{lead} {:>10} {:>11} {warnings:>9} {:>8} {code:>6}",
                format!("{:.3} s", median.as_secs_f64()),
                format!(
                    "{}{:.1} MiB",
                    if rss_bound { "<=" } else { "" },
                    peak_kib as f64 / 1024.0
                ),
                format!("{found}/{}", census.planted_races),
            );
        }
        Err(message) => println!("{lead}   failed: {message}"),
    }
    println!(
        "{:>10} ({} functions, {} fork sites, {} planted races)",
        "", census.functions, census.fork_sites, census.planted_races
    );
}

/// Total lines `gcc -E` prints for the sources, system headers included.
fn preprocessed_lines(sources: &[PathBuf]) -> Result<usize, String> {
    let mut total = 0;
    for src in sources {
        let out = Command::new("gcc")
            .args(["-std=gnu11", "-pthread", "-E"])
            .arg(src)
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("gcc: {e}"))?;
        if !out.status.success() {
            return Err(format!("gcc -E failed on {}", src.display()));
        }
        total += out.stdout.iter().filter(|&&b| b == b'\n').count();
    }
    Ok(total)
}

enum RunStatus {
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

struct Run {
    wall: Duration,
    max_rss_kib: i64,
    /// The child's peak was not above this process's own, so `max_rss_kib` is only an upper
    /// bound (see [`run_check`]).
    rss_is_bound: bool,
    status: RunStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
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
fn run_check(binary: &Path, sources: &[PathBuf], timeout: Duration) -> Result<Run, String> {
    let own_peak_kib = own_peak_rss_kib();
    let start = Instant::now();
    let mut child = Command::new(binary)
        .arg("check")
        .args(sources)
        .args(["--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let pid = child.id() as libc::pid_t;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());

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

/// Reads a child's pipe to its end on a thread, so a full pipe never blocks the child.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// The length of the `warnings` array of a JSON report, if the output is one, and how many of
/// its warnings are on a planted race (a module's `_unsafe_hits` counter).
fn warning_count(stdout: &[u8]) -> Option<(usize, usize)> {
    let value: serde_json::Value = serde_json::from_slice(stdout).ok()?;
    let warnings = value.get("warnings")?.as_array()?;
    let planted = warnings
        .iter()
        .filter(|w| {
            w["location"]["name"]
                .as_str()
                .is_some_and(|n| n.ends_with("_unsafe_hits"))
        })
        .count();
    Some((warnings.len(), planted))
}

fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.lines().find(|l| !l.trim().is_empty()) {
        Some(line) => line.trim().chars().take(100).collect(),
        None => "(no stderr)".to_string(),
    }
}
