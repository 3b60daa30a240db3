//! `locksmith check` with a configuration file (`locksmith.toml`), as a user runs it: the
//! programs of `tests/config/`, each beside its configuration, checked without it (what
//! locksmith cannot know), with it (their `// RACE` and `// NORACE` annotations hold), found from
//! a parent directory, replaced by `--config`, and ignored with `--no-config`; and configuration
//! errors, each one line with the file, line and column and exit status 2.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use support::{annotations, check_in, Run};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/config").join(name)
}

impl Run {
    /// The location names of the warnings, sorted.
    fn warnings(&self) -> Vec<String> {
        let mut names: Vec<String> = self.json()["warnings"]
            .as_array()
            .unwrap_or_else(|| panic!("no warnings in:\n{}{}", self.stdout, self.stderr))
            .iter()
            .map(|w| w["location"]["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    }

    /// The lines of the racing accesses of each warning, as (file, line) with the file made
    /// absolute from `dir`.
    fn racing_lines(&self, dir: &Path) -> Vec<BTreeSet<(PathBuf, u32)>> {
        let report = self.json();
        report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                w["accesses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| {
                        let file = dir.join(a["file"].as_str().unwrap());
                        (file, a["line"].as_u64().unwrap() as u32)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Checks a fixture directory's annotations against a run in it with its configuration: every
/// `// RACE` line is among a warning's racing accesses, no `// NORACE` line is.
fn annotations_hold(dir: &Path, file: &str, run: &Run) {
    let files = vec![dir.join(file)];
    let annotated = annotations::read(&files);
    assert!(!annotated.lines.is_empty(), "{file} has no annotations");
    let per = run.racing_lines(dir);
    let all: BTreeSet<(PathBuf, u32)> = per.iter().flatten().cloned().collect();
    let problems = annotations::compare(&annotated, &all, &per, false);
    assert!(
        problems.is_empty(),
        "{}:\n  {}",
        dir.display(),
        problems.join("\n  ")
    );
}

fn names(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn an_opaque_lock_api_is_known_from_the_configuration_found_in_a_parent_directory() {
    let src = fixture("lock_api/src");
    // Without the configuration, the include directory and WORKERS must be given, and every
    // counter is reported: the lock functions are code locksmith cannot see.
    let without = check_in(
        &src,
        &[
            "--no-config",
            "-I",
            "../include",
            "-DWORKERS=4",
            "--format",
            "json",
            "main.c",
        ],
    );
    assert_eq!(without.exit, 1, "{}", without.stderr);
    for name in ["requests", "failures", "last_seen"] {
        assert!(without.warnings().contains(&name.to_string()), "{name}");
    }
    assert_eq!(without.json().get("configuration"), None);
    // From src/, ../locksmith.toml is found: its include directory (relative to the file) and
    // define are used, and only the real race is left.
    let with = check_in(&src, &["--format", "json", "main.c"]);
    assert_eq!(with.exit, 1, "{}", with.stderr);
    assert_eq!(with.warnings(), names(&["last_seen"]));
    assert_eq!(with.json()["configuration"], "../locksmith.toml");
    annotations_hold(&src, "main.c", &with);
    let text = check_in(&src, &["main.c"]);
    assert!(
        text.stdout.contains("\nconfiguration: ../locksmith.toml\n"),
        "{}",
        text.stdout
    );
}

/// Run from a directory without a configuration, the one beside the checked file (or above
/// it) is read, named by its path.
#[test]
fn the_configuration_beside_the_checked_files_is_found_too() {
    let elsewhere = temp_dir("elsewhere");
    let main = fixture("lock_api/src/main.c");
    let run = check_in(&elsewhere, &["--format", "json", &main.to_string_lossy()]);
    assert_eq!(run.exit, 1, "{}", run.stderr);
    assert_eq!(run.warnings(), names(&["last_seen"]));
    assert_eq!(
        run.json()["configuration"],
        fixture("lock_api/locksmith.toml").display().to_string()
    );
    let _ = std::fs::remove_dir_all(&elsewhere);
}

#[test]
fn config_names_the_file_to_read_instead_of_the_one_found() {
    // From the repository root, which has no locksmith.toml, the file is named.
    let at_root = check_in(
        &root(),
        &[
            "--config",
            "tests/config/lock_api/locksmith.toml",
            "--format",
            "json",
            "tests/config/lock_api/src/main.c",
        ],
    );
    assert_eq!(at_root.exit, 1, "{}", at_root.stderr);
    assert_eq!(at_root.warnings(), names(&["last_seen"]));
    // Named from src/, another file replaces the ../locksmith.toml the search would find: it
    // says spin_try returns 0 when it took the lock, so the update after a nonzero result is
    // unprotected.
    let src = fixture("lock_api/src");
    let other = check_in(
        &src,
        &[
            "--config",
            "../zero_success.toml",
            "--format",
            "json",
            "main.c",
        ],
    );
    assert_eq!(other.exit, 1, "{}", other.stderr);
    assert_eq!(other.warnings(), names(&["failures", "last_seen"]));
    assert_eq!(other.json()["configuration"], "../zero_success.toml");
}

#[test]
fn a_lock_written_in_inline_assembly_is_modelled_and_its_body_not_analysed() {
    let dir = fixture("asm_lock");
    let without = check_in(&dir, &["--no-config", "--format", "json", "main.c"]);
    assert_eq!(
        without.warnings(),
        names(&["lock.next", "lock.serving", "total", "unguarded"])
    );
    let with = check_in(&dir, &["--format", "json", "main.c"]);
    assert_eq!(with.exit, 1, "{}", with.stderr);
    assert_eq!(with.warnings(), names(&["unguarded"]));
    annotations_hold(&dir, "main.c", &with);
    let report = with.json();
    let configured: Vec<(&str, u64)> = report["configured"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["function"].as_str().unwrap(), c["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(configured, [("ticket_lock", 13), ("ticket_unlock", 21)]);
    // Their bodies are not analysed, so their inline assembly is no longer an unsound place.
    assert_eq!(report["unsound"].as_array().map(Vec::len), Some(0));
    let text = check_in(&dir, &["main.c"]);
    assert!(
        text.stdout.contains(
            "functions the configuration models in place of their bodies (not analysed): \
             ticket_lock (main.c:13), ticket_unlock (main.c:21)"
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn a_configured_wrapper_takes_the_first_lock_member_of_its_struct() {
    let dir = fixture("mutex_wrapper");
    let without = check_in(&dir, &["--no-config", "--format", "json", "main.c"]);
    assert!(without.warnings().contains(&"balance".to_string()));
    let with = check_in(&dir, &["--format", "json", "main.c"]);
    assert_eq!(with.exit, 1, "{}", with.stderr);
    assert_eq!(with.warnings(), names(&["audits"]));
    annotations_hold(&dir, "main.c", &with);
    // The thread-safe logging function is modelled, not code locksmith cannot see.
    assert_eq!(with.json()["unmodelled"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_custom_thread_creation_starts_threads_and_its_join_orders_them() {
    let dir = fixture("threads");
    // Inline assembly starts the tasks: without the configuration, `count` never runs as a
    // thread and nothing is reported.
    let without = check_in(&dir, &["--no-config", "--format", "json", "main.c"]);
    assert_eq!(without.exit, 0, "{}", without.stdout);
    assert!(without.warnings().is_empty());
    let with = check_in(&dir, &["--format", "json", "main.c"]);
    assert_eq!(with.exit, 1, "{}", with.stderr);
    assert_eq!(with.warnings(), names(&["hits"]));
    annotations_hold(&dir, "main.c", &with);
    // Without the join row, the read after task_wait is one of the racing accesses.
    let no_join = check_in(
        &dir,
        &["--config", "no_join.toml", "--format", "json", "main.c"],
    );
    let racing: BTreeSet<u32> = no_join
        .racing_lines(&dir)
        .into_iter()
        .flatten()
        .map(|(_, line)| line)
        .collect();
    assert!(racing.contains(&43), "{}", no_join.stdout);
}

#[test]
fn a_configured_allocator_returns_fresh_memory() {
    let dir = fixture("alloc");
    let without = check_in(&dir, &["--no-config", "--format", "json", "main.c"]);
    assert!(without.warnings().len() > 1, "{}", without.stdout);
    let with = check_in(&dir, &["--format", "json", "main.c"]);
    assert_eq!(with.warnings(), names(&["completed"]));
    annotations_hold(&dir, "main.c", &with);
}

#[test]
fn a_function_that_never_returns_ends_the_path_and_keeps_its_body() {
    let dir = fixture("noreturn");
    let without = check_in(&dir, &["--no-config", "--format", "json", "main.c"]);
    assert!(without.warnings().contains(&"updates".to_string()));
    let with = check_in(&dir, &["--format", "json", "main.c"]);
    // `gave_up` is written in give_up's body: configured as never returning, it is still
    // analysed (and not listed as modelled in place of its body).
    assert_eq!(with.warnings(), names(&["attempts", "gave_up"]));
    annotations_hold(&dir, "main.c", &with);
    assert_eq!(with.json().get("configured"), None);
}

#[test]
fn entry_points_come_from_the_configuration() {
    let dir = fixture("entries");
    let without = check_in(&dir, &["--no-config", "--format", "json", "counter.c"]);
    assert_eq!(without.exit, 2);
    assert_eq!(without.json()["error"]["code"], "error/no-main");
    let with = check_in(&dir, &["--format", "json", "counter.c"]);
    assert_eq!(with.exit, 1, "{}", with.stderr);
    assert_eq!(with.warnings(), names(&["calls"]));
    annotations_hold(&dir, "counter.c", &with);
}

/// A fresh directory of this test process, one per test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locksmith-config-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The one stderr line and the JSON error of a run in `dir` whose locksmith.toml is `config`.
fn config_error(dir: &Path, config: &str) -> (String, serde_json::Value) {
    std::fs::write(dir.join("locksmith.toml"), config).unwrap();
    let text = check_in(dir, &["main.c"]);
    assert_eq!(text.exit, 2, "{config}\n{}{}", text.stdout, text.stderr);
    assert_eq!(text.stdout, "", "{config}");
    let json = check_in(dir, &["--format", "json", "main.c"]);
    assert_eq!(json.exit, 2);
    (text.stderr, json.json()["error"].clone())
}

#[test]
fn configuration_errors_name_the_file_line_and_column() {
    let dir = temp_dir("errors");
    std::fs::copy(fixture("asm_lock/main.c"), dir.join("main.c")).unwrap();
    let cases: &[(&str, &str, u64, u64)] = &[
        (
            "[preprocess]\nincludes = [\"inc\"]\n",
            "unknown field `includes`",
            2,
            1,
        ),
        (
            "[[acquire]]\nfunction = \"ticket_lock\"\nlock = \"first\"\n",
            "invalid type",
            3,
            8,
        ),
        (
            "[[acquire]]\nfunction = \"ticket_lock\"\nlock = 0\nmode = \"both\"\n",
            "unknown variant `both`",
            4,
            8,
        ),
        (
            "[[release]]\nfunction = \"ticket_unlock\"\n  lock = -1\n",
            "argument positions count from 0",
            3,
            10,
        ),
        // An argument past the last parameter of the function's declaration.
        (
            "[[acquire]]\nfunction = \"ticket_lock\"\nlock = 2\n",
            "`ticket_lock` is declared with 1 parameter",
            3,
            8,
        ),
        (
            "[[thread_create]]\nfunction = \"ticket_lock\"\nroutine = 0\n",
            "is not a pointer to a function",
            3,
            11,
        ),
        (
            "[functions]\nallocators = [\"pool_get\"]\nthread_safe = [\"log\", \"pool_get\"]\n",
            "`pool_get` is already configured",
            3,
            23,
        ),
        (
            "[[trylock]]\nfunction = \"ticket_try\"\nlock = 0\nsuccess = \"one\"\n",
            "unknown variant `one`",
            4,
            11,
        ),
        ("[[acquire]\n", "unclosed array table", 1, 11),
    ];
    for &(config, message, line, column) in cases {
        let (stderr, error) = config_error(&dir, config);
        let expected = format!("locksmith.toml:{line}:{column}: error: ");
        assert!(
            stderr.starts_with(&expected) && stderr.contains(message),
            "{config}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(error["code"], "error/config");
        assert_eq!(error["file"], "locksmith.toml");
        assert_eq!(
            (error["line"].as_u64(), error["column"].as_u64()),
            (Some(line), Some(column))
        );
    }
    // A file --config names must exist.
    let missing = check_in(&dir, &["--config", "missing.toml", "main.c"]);
    assert_eq!(missing.exit, 2);
    assert!(
        missing
            .stderr
            .starts_with("locksmith: error: missing.toml: cannot read the configuration"),
        "{}",
        missing.stderr
    );
    // --no-config ignores a file that is not even valid.
    std::fs::write(dir.join("locksmith.toml"), "[[acquire]\n").unwrap();
    let ignored = check_in(&dir, &["--no-config", "--format", "short", "main.c"]);
    assert_eq!(ignored.exit, 1, "{}", ignored.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// A configuration that changes nothing, or less than it seems to, is never silent: a row
/// naming a function the program neither declares nor calls (a misspelt name), and an acquire
/// no `[[release]]` row releases, are warnings at their rows, in the JSON report and as
/// compiler-style lines in the text and short formats; the analysis still runs.
#[test]
fn rows_that_change_nothing_are_warned_about() {
    let dir = temp_dir("warnings");
    std::fs::write(
        dir.join("main.c"),
        "#include <pthread.h>\n\
         void grab(pthread_mutex_t *m);\n\
         static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         static int n;\n\
         static void *t(void *a) { grab(&m); n++; return a; }\n\
         int main(void) { pthread_t x; pthread_create(&x, 0, t, 0); grab(&m); n++; return 0; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("locksmith.toml"),
        "[[acquire]]\nfunction = \"grab\"\nlock = 0\n\n\
         [functions]\nthread_safe = [\"log_lien\"]\n",
    )
    .unwrap();
    let json = check_in(&dir, &["--format", "json", "main.c"]);
    let warnings = json.json()["configuration_warnings"].clone();
    let at: Vec<(u64, u64)> = warnings
        .as_array()
        .expect("configuration warnings")
        .iter()
        .map(|w| (w["line"].as_u64().unwrap(), w["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, [(2, 12), (6, 16)], "{warnings:#}");
    assert!(warnings[0]["message"]
        .as_str()
        .unwrap()
        .contains("`grab` acquires a lock, but no `[[release]]` row releases one"));
    assert!(warnings[1]["message"]
        .as_str()
        .unwrap()
        .starts_with("`log_lien` names no function the program declares or calls"));
    let short = check_in(&dir, &["--format", "short", "main.c"]);
    assert!(
        short
            .stdout
            .contains("locksmith.toml:6:16: warning: `log_lien` names no function"),
        "{}",
        short.stdout
    );
    let text = check_in(&dir, &["main.c"]);
    assert!(
        text.stdout
            .contains("locksmith.toml:2:12: warning: `grab` acquires a lock"),
        "{}",
        text.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
