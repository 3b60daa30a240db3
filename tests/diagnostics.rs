//! The text format's diagnostics as a user sees them: the accessed expression underlined whole
//! (and its end in JSON), colour only when asked for or on a terminal without `NO_COLOR`, never
//! in the other formats, and a plain position where the source cannot be read.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A program whose only race is `p->count++` in two workers, at line 7 column 5.
const COUNTER: &str = "#include <pthread.h>\n\
#include <stdlib.h>\n\
struct counter { long count; };\n\
struct counter *p;\n\
void *worker(void *arg) {\n\
    (void)arg;\n    p->count++;\n\
    return NULL;\n\
}\n\
int main(void) {\n\
    pthread_t t, u;\n\
    p = calloc(1, sizeof *p);\n\
    pthread_create(&t, NULL, worker, NULL);\n\
    pthread_create(&u, NULL, worker, NULL);\n\
    return 0;\n\
}\n";

/// A fresh directory of this test process, one per test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "locksmith-diagnostics-{}-{test}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `locksmith check ARGS…` run in `dir` with `NO_COLOR` as given (unset when `None`): exit
/// status and stdout.
fn check_in(dir: &Path, args: &[&str], no_color: Option<&str>) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_locksmith"));
    cmd.current_dir(dir).arg("check").args(args);
    match no_color {
        Some(v) => cmd.env("NO_COLOR", v),
        None => cmd.env_remove("NO_COLOR"),
    };
    let out = cmd.output().expect("locksmith runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    (
        out.status.code().expect("locksmith exits"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
    )
}

fn counter_dir(test: &str) -> PathBuf {
    let dir = temp_dir(test);
    std::fs::write(dir.join("counter.c"), COUNTER).unwrap();
    dir
}

const ESC: char = '\u{1b}';

#[test]
fn the_whole_accessed_expression_is_underlined() {
    let dir = counter_dir("underline");
    let (exit, text) = check_in(&dir, &["counter.c"], None);
    assert_eq!(exit, 1, "{text}");
    // The source line, then the carets under `p->count` (not `p`, not `p->count++`) with the
    // label of the write and the read it makes.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.ends_with("|     p->count++;"))
        .unwrap_or_else(|| panic!("the source line is shown:\n{text}"));
    let under = lines[at + 1];
    let bar = under.find('|').unwrap();
    assert_eq!(
        &under[bar..],
        "|     ^^^^^^^^ write and read holding no locks",
        "{text}"
    );
    assert_eq!(lines[at].find('|'), Some(bar), "{text}");
    assert!(text.contains("--> counter.c:7:5\n"), "{text}");
    assert!(
        text.starts_with("warning: possible data race on field `count` of memory allocated by "),
        "{text}"
    );
    // JSON has the end, past the expression.
    let (_, json) = check_in(&dir, &["--format", "json", "counter.c"], None);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let access = &report["warnings"][0]["accesses"][0];
    assert_eq!(
        (&access["line"], &access["column"], &access["end_column"]),
        (&7.into(), &5.into(), &13.into()),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colour_only_when_asked_for() {
    let dir = counter_dir("colour");
    let (_, always) = check_in(&dir, &["--color", "always", "counter.c"], None);
    assert!(always.contains(ESC), "{always}");
    // An explicit flag wins over the environment.
    let (_, forced) = check_in(&dir, &["--color", "always", "counter.c"], Some("1"));
    assert_eq!(forced, always);
    let (_, never) = check_in(&dir, &["--color", "never", "counter.c"], None);
    assert!(!never.contains(ESC), "{never}");
    // Stdout is a pipe here: `auto` does not colour.
    let (_, auto) = check_in(&dir, &["counter.c"], None);
    assert_eq!(auto, never);
    // The plain text is the coloured text without its escapes.
    assert_eq!(strip_escapes(&always), never);
    // No other format is ever coloured.
    for format in ["json", "short", "dot", "sarif"] {
        let (_, out) = check_in(
            &dir,
            &["--color", "always", "--format", format, "counter.c"],
            None,
        );
        assert!(!out.contains(ESC), "{format}: {out}");
        let (_, plain) = check_in(&dir, &["--format", format, "counter.c"], None);
        assert_eq!(out, plain, "{format}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `text` without its ANSI SGR sequences (`ESC [ … m`).
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(ESC) {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('m').expect("an SGR sequence ends with m");
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    out
}

/// Runs `locksmith check --color auto counter.c` with stdout on a pseudo-terminal and returns
/// what it wrote there.
fn on_a_terminal(dir: &Path, no_color: Option<&str>) -> String {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes the two descriptors it opens into the integers it is given; the
    // name, settings and window size may be null.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_locksmith"));
    cmd.current_dir(dir)
        .args(["check", "--color", "auto", "counter.c"])
        .stdout(Stdio::from(slave))
        .stderr(Stdio::null());
    match no_color {
        Some(v) => cmd.env("NO_COLOR", v),
        None => cmd.env_remove("NO_COLOR"),
    };
    // The command holds the only copy of the terminal's side: once the child exits, reading
    // the master side ends (with EIO on Linux).
    let mut child = cmd.spawn().expect("locksmith runs");
    drop(cmd);
    let mut out = Vec::new();
    let mut master = std::fs::File::from(master);
    let mut buf = [0u8; 4096];
    loop {
        match master.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    child.wait().expect("locksmith exits");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn auto_colours_a_terminal_unless_no_color_is_set() {
    let dir = counter_dir("terminal");
    assert!(on_a_terminal(&dir, None).contains(ESC));
    // An empty NO_COLOR does not count (no-color.org).
    assert!(on_a_terminal(&dir, Some("")).contains(ESC));
    let plain = on_a_terminal(&dir, Some("1"));
    assert!(plain.contains("possible data race"), "{plain}");
    assert!(!plain.contains(ESC), "{plain}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A preprocessed file whose line markers name a source that is not there: the accesses are
/// still reported, each at its `file:line:col` with its label, and the declaration by its line.
#[test]
fn an_unreadable_source_falls_back_to_positions() {
    let dir = temp_dir("unreadable");
    let preprocessed = COUNTER.replace(
        "#include <pthread.h>\n#include <stdlib.h>\n",
        "typedef unsigned long pthread_t;\n\
         int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);\n\
         void *calloc(unsigned long, unsigned long);\n\
         # 3 \"gone/counter.c\"\n",
    );
    let preprocessed = preprocessed.replace("NULL", "0");
    std::fs::write(dir.join("counter.i"), preprocessed).unwrap();
    let (exit, text) = check_in(&dir, &["counter.i"], None);
    assert_eq!(exit, 1, "{text}");
    assert!(
        text.contains("--> gone/counter.c:7:5\n = write and read holding no locks\n"),
        "{text}"
    );
    assert!(
        text.contains("note: allocated at gone/counter.c:12\n"),
        "{text}"
    );
    assert!(
        text.ends_with("locksmith: 1 possible data race\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An access made in a turn (`c-frontend/src/analyses/joins/turns.rs`) says it holds the turn,
/// named after its variable, not a lock the program has.
#[test]
fn an_access_in_a_turn_holds_the_turn_of_its_variable() {
    let dir = temp_dir("turn");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/races/sync/turn_pingpong.c");
    std::fs::copy(&fixture, dir.join("turns.c")).unwrap();
    let (exit, text) = check_in(&dir, &["turns.c"], None);
    assert_eq!(exit, 1, "{text}");
    assert!(
        text.contains("^^^^ read holding the turn of `turn`"),
        "{text}"
    );
    let (_, json) = check_in(&dir, &["--format", "json", "turns.c"], None);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let locks: Vec<&serde_json::Value> = (report["warnings"][0]["accesses"].as_array().unwrap())
        .iter()
        .map(|a| &a["locks"])
        .collect();
    assert!(
        locks.contains(&&serde_json::json!(["the turn of `turn`"])),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A turn of a value in a lock object is named after the object: through its pointer when a
/// global pointer holds it.
#[test]
fn a_turn_in_a_lock_object_is_named_after_the_object() {
    let dir = temp_dir("turn-object");
    for (fixture, name) in [
        ("turn_lock_object.c", "`state.value`"),
        ("turn_lock_object_pointer.c", "`state->value`"),
    ] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/races/sync")
            .join(fixture);
        std::fs::copy(&from, dir.join(fixture)).unwrap();
        let (exit, text) = check_in(&dir, &[fixture], None);
        assert_eq!(exit, 1, "{text}");
        assert!(
            text.contains(&format!("read holding the turn of {name}")),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
