//! Building a generated program with ThreadSanitizer, running it, and reading the data races it
//! reports: each report's two accesses (the current one and the previous one), each with its
//! stack as (function, file, line) frames; and its lock-order inversions (potential deadlocks):
//! the stack of each lock call of the cycle.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::emit::Sources;

/// The options of every run: report each pair of stacks (even on one address), keep enough
/// history to restore the previous access's stack, report lock-order inversions, and go on
/// after a report.
pub const TSAN_OPTIONS: &str = "suppress_equal_addresses=0 history_size=7 halt_on_error=0 \
     report_signal_unsafe=0 detect_deadlocks=1";

/// The exit status of a run that reported something (TSan's default `exitcode`).
const REPORTED: i32 = 66;

/// One frame of a stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub function: String,
    /// The file's name without its directory.
    pub file: String,
    pub line: u32,
}

/// One of a race's two accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub write: bool,
    /// Innermost first; empty when TSan failed to restore the stack.
    pub frames: Vec<Frame>,
}

/// A data-race report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub current: Access,
    pub previous: Access,
    /// What TSan says the memory is (`heap block`, `global 'gobj'`), without addresses.
    pub location: String,
    /// The functions of the stack that allocated it, for a heap block (innermost first).
    pub allocated_by: Vec<String>,
    /// The report as printed, for saving with a miss.
    pub text: String,
}

/// A lock-order inversion (a potential deadlock): the stack of each lock call of the cycle, made
/// while holding the previous lock of the cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inversion {
    pub calls: Vec<Vec<Frame>>,
    /// The report as printed, for saving with a miss.
    pub text: String,
}

/// What the runs of one program reported.
#[derive(Clone, Debug, Default)]
pub struct Reports {
    pub races: Vec<Race>,
    pub inversions: Vec<Inversion>,
    /// The first line of every other kind of TSan report (a generator bug if any).
    pub others: Vec<String>,
}

/// The flags every program is built with. Warnings are errors, as a generated program must
/// compile cleanly. `-fno-tree-loop-im` keeps each access in its loop: at `-O1` GCC otherwise
/// moves a racy `g += i` out of the loop, and TSan then blames the loop's header line, where
/// locksmith (rightly) lists no access.
pub const CFLAGS: &[&str] = &[
    "-std=gnu11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-fsanitize=thread",
    "-fno-builtin",
    "-g",
    "-O1",
    "-fno-tree-loop-im",
    "-pthread",
];

/// Whether `gcc -fsanitize=thread` builds and runs a trivial program here; the reason if not.
pub fn available() -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("locksmith-tsan-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let sources = Sources {
        main_c: "#include <pthread.h>\nstatic void *run(void *a) { return a; }\nint main(void)\n{\n    pthread_t t;\n    if (pthread_create(&t, NULL, run, NULL) != 0)\n        return 1;\n    pthread_join(t, NULL);\n    return 0;\n}\n".into(),
        lib_c: String::new(),
    };
    let result = build(&dir, &sources).and_then(|exe| {
        let out = run_once(&exe, Duration::from_secs(20))?;
        if out.contains("ThreadSanitizer") {
            Err(format!("a trivial program reports:\n{out}"))
        } else {
            Ok(())
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Writes `sources` into `dir` and builds them there; returns the executable.
pub fn build(dir: &Path, sources: &Sources) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = vec!["main.c"];
    std::fs::write(dir.join("main.c"), &sources.main_c).map_err(|e| e.to_string())?;
    if !sources.lib_c.is_empty() {
        std::fs::write(dir.join("lib.c"), &sources.lib_c).map_err(|e| e.to_string())?;
        files.push("lib.c");
    }
    let exe = dir.join("prog");
    let out = Command::new("gcc")
        .current_dir(dir)
        .args(CFLAGS)
        .args(&files)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc {} failed:\n{}",
            CFLAGS.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// Runs `exe` once under [`TSAN_OPTIONS`] and returns its standard error; a run that exceeds
/// `timeout` is killed and is an error, as is a status other than success or "reported".
pub fn run_once(exe: &Path, timeout: Duration) -> Result<String, String> {
    let mut child = Command::new(exe)
        .env("TSAN_OPTIONS", TSAN_OPTIONS)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    // Standard error is drained on a thread, so that a long report cannot fill the pipe and
    // stall the program.
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = pipe.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{} ran longer than {timeout:?}", exe.display()));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = reader.join().unwrap_or_default();
    match status.code() {
        Some(0) | Some(REPORTED) => Ok(text),
        _ => Err(format!("{} ended with {status}:\n{text}", exe.display())),
    }
}

/// Runs `exe` `times` times and gathers every report.
pub fn run(exe: &Path, times: usize, timeout: Duration) -> Result<Reports, String> {
    let mut all = Reports::default();
    for _ in 0..times {
        let text = run_once(exe, timeout)?;
        let r = parse(&text);
        all.races.extend(r.races);
        all.inversions.extend(r.inversions);
        all.others.extend(r.others);
    }
    Ok(all)
}

/// The reports in a run's standard error.
pub fn parse(stderr: &str) -> Reports {
    let mut out = Reports::default();
    for block in stderr.split("WARNING: ThreadSanitizer:").skip(1) {
        let block = block.split("==================").next().unwrap_or(block);
        let kind = block.lines().next().unwrap_or("").trim();
        if kind.starts_with("lock-order-inversion") {
            out.inversions.push(Inversion {
                calls: lock_calls(block),
                text: format!("WARNING: ThreadSanitizer:{block}"),
            });
            continue;
        }
        if !kind.starts_with("data race") {
            out.others.push(kind.to_string());
            continue;
        }
        let accesses = accesses(block);
        if let [current, previous, ..] = accesses.as_slice() {
            out.races.push(Race {
                current: current.clone(),
                previous: previous.clone(),
                location: location(block),
                allocated_by: allocation_stack(block),
                text: format!("WARNING: ThreadSanitizer:{block}"),
            });
        }
    }
    out
}

/// The kind of memory a report is about: `heap block`, `global 'gobj'`, `stack of thread T1`…
fn location(block: &str) -> String {
    let Some(line) = block
        .lines()
        .find_map(|l| l.trim().strip_prefix("Location is "))
    else {
        return "unknown".into();
    };
    match line.split_once(" of size") {
        Some((kind, _)) => kind.to_string(),
        None => line.split(" at ").next().unwrap_or(line).to_string(),
    }
}

/// The functions of the stack under `Location is heap block … allocated by …:`.
fn allocation_stack(block: &str) -> Vec<String> {
    let mut lines = block
        .lines()
        .skip_while(|l| !l.trim().starts_with("Location is heap"));
    let _header = lines.next();
    lines
        .map(str::trim)
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

/// The access sections of one data-race report, in order.
fn accesses(block: &str) -> Vec<Access> {
    let mut out: Vec<Access> = Vec::new();
    let mut inside = false;
    for line in block.lines() {
        let t = line.trim();
        let head = t
            .strip_prefix("Previous ")
            .unwrap_or(t)
            .to_ascii_lowercase();
        let head = head.strip_prefix("atomic ").unwrap_or(&head);
        if head.starts_with("write of size") || head.starts_with("read of size") {
            out.push(Access {
                write: head.starts_with("write"),
                frames: Vec::new(),
            });
            inside = true;
        } else if t.is_empty() {
            inside = false;
        } else if inside && t.starts_with('#') {
            if let Some(frame) = frame(t) {
                out.last_mut()
                    .expect("a section is open")
                    .frames
                    .push(frame);
            }
        }
    }
    out
}

/// The stacks of a lock-order inversion's sections `Mutex M1 acquired here while holding mutex
/// M0 in thread T1:` (not those of `…previously acquired by the same thread here:`).
fn lock_calls(block: &str) -> Vec<Vec<Frame>> {
    let mut out: Vec<Vec<Frame>> = Vec::new();
    let mut inside = false;
    for line in block.lines() {
        let t = line.trim();
        if t.starts_with("Mutex ") && t.contains("acquired here while holding") {
            out.push(Vec::new());
            inside = true;
        } else if t.is_empty() || t.starts_with("Mutex ") {
            inside = false;
        } else if inside && t.starts_with('#') {
            if let Some(frame) = frame(t) {
                out.last_mut().expect("a section is open").push(frame);
            }
        }
    }
    out
}

/// A frame line, `#0 function /path/file.c:12 (module+0x…)` (the line may carry a column);
/// `None` for frames without a source position.
fn frame(line: &str) -> Option<Frame> {
    let mut words = line.split_whitespace();
    let _number = words.next()?;
    let function = words.next()?.to_string();
    let location = words.next()?;
    let (path, line) = location_of(location)?;
    let file = Path::new(path).file_name()?.to_string_lossy().into_owned();
    Some(Frame {
        function,
        file,
        line,
    })
}

/// Splits `file:line` or `file:line:column`.
fn location_of(loc: &str) -> Option<(&str, u32)> {
    let (head, last) = loc.rsplit_once(':')?;
    let last: u32 = last.parse().ok()?;
    match head.rsplit_once(':') {
        Some((file, line)) if line.parse::<u32>().is_ok() => Some((file, line.parse().ok()?)),
        _ => Some((head, last)),
    }
}
