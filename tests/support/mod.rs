//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod annotations;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory of one test (`locksmith-KIND-PID-TEST` in the system's temporary
/// directory), removed when dropped, also when the test fails: tests leave nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(kind: &str, test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("locksmith-{kind}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The environment variable that makes a test whose tool is missing fail instead of skip.
pub const REQUIRE_TOOLS: &str = "LOCKSMITH_REQUIRE_TOOLS";

/// A test that cannot run here because a tool is missing (`why` says which): it is skipped, and
/// says so on the process's stderr itself, where `cargo test` shows it even when the test passes
/// (libtest captures only the `print!` and `eprint!` macros of a test, not a write to
/// `std::io::stderr()`). With `LOCKSMITH_REQUIRE_TOOLS=1` it fails instead, so that a run that
/// must run every test can say so. `test` names the test; the caller returns after this.
#[track_caller]
pub fn skip(test: &str, why: &str) {
    if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| v == "1") {
        panic!("{test} cannot run: {why} ({REQUIRE_TOOLS}=1 requires every tool)");
    }
    let line = format!(
        "locksmith tests: SKIPPED {test}: {why} (set {REQUIRE_TOOLS}=1 to make this a failure)\n"
    );
    std::io::stderr()
        .write_all(line.as_bytes())
        .expect("stderr is writable");
}

/// What one run of `locksmith` printed, and its exit status.
pub struct Run {
    pub exit: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The report of a `--format json` run.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}{}", self.stdout, self.stderr))
    }
}

/// Runs `locksmith check ARGS…` in `dir`.
pub fn check_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .expect("locksmith runs");
    Run {
        exit: out.status.code().expect("locksmith exits"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// The functions not analysed that may run, as `name (file:line): reason`: a check with any is
/// incomplete, so a fixture must have none unless it says it expects them.
pub fn incomplete(result: &c_frontend::driver::CheckResult) -> Vec<String> {
    let may_run = c_frontend::reach::unanalysed_may_run(result);
    result
        .unanalysed()
        .into_iter()
        .zip(may_run)
        .filter(|(_, may_run)| *may_run)
        .map(|(u, _)| {
            format!(
                "{} ({}:{}): {}",
                u.name, result.program.files[u.pos.file], u.pos.line, u.reason
            )
        })
        .collect()
}

/// The C files directly in `dir`, sorted.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// `path` relative to `root`, as a string (how the tests name bundled files).
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .to_string()
}
