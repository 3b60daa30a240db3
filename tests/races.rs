//! The annotated C fixtures of `tests/races/` and the test programs of `tests/programs/`, one
//! test each, checked in both directions against locksmith's warnings (see tests/README.md).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use c_frontend::driver::{self, CheckOptions};
use solver::Technique;
use support::annotations::{self, Annotated};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Source lines, as (file, line).
type Lines = BTreeSet<(PathBuf, u32)>;

/// What a check of a fixture found: every warned (file, line), per warning its lines (the lines
/// of its racing accesses: the context of a warning is not a claim of a race), and the
/// functions that may run but were not analysed ([`support::incomplete`]).
type Found = (Lines, Vec<Lines>, Vec<String>);

/// Runs locksmith on `files` and returns what it found.
fn warned(files: &[PathBuf], args: &[String]) -> Found {
    let mut options = CheckOptions::default();
    for a in args {
        let t = locksmith::switches::from_flag(a)
            .unwrap_or_else(|| panic!("unknown locksmith-args switch {a}"));
        options.techniques.disable(t);
    }
    let result =
        driver::check_on_large_stack(files.to_vec(), options, &solver::stats::Stats::off())
            .and_then(driver::Checked::done)
            .unwrap_or_else(|e| panic!("locksmith failed on {files:?}: {e}"));
    // The GNU C fixtures exist to show that their constructs are read: every function of them
    // must be analysed.
    if files
        .iter()
        .any(|f| f.parent().is_some_and(|d| d.ends_with("races/gnu")))
    {
        assert!(
            result.program.unanalysed.is_empty(),
            "{files:?}: not analysed: {:?}",
            result.program.unanalysed
        );
    }
    let mut all = BTreeSet::new();
    let mut per = Vec::new();
    for w in &result.solution.warnings {
        let mut lines = BTreeSet::new();
        for a in w.accesses.iter().filter(|a| a.racing) {
            let site = &result.generated.access_sites[a.access];
            let file = PathBuf::from(&result.program.files[site.pos.file]);
            let file = if file.is_absolute() {
                file
            } else {
                root().join(file)
            };
            lines.insert((file, site.pos.line));
        }
        all.extend(lines.iter().cloned());
        per.push(lines);
    }
    (all, per, support::incomplete(&result))
}

fn check(path: &str, exact: bool) {
    let path = root().join(path);
    let files = annotations::c_files(&path);
    let annotated: Annotated = annotations::read(&files);
    assert!(
        !annotated.lines.is_empty(),
        "{} has no annotations",
        path.display()
    );
    let (all, per, missing) = warned(&files, &annotated.args);
    // A fixture is analysed whole: one whose functions that may run were not all analysed
    // would be checked on part of its code (its exit status would be 3, not 0 or 1).
    assert!(
        annotated.incomplete || missing.is_empty(),
        "{}: the check is incomplete; not analysed:\n  {}",
        path.display(),
        missing.join("\n  ")
    );
    let problems = annotations::compare(&annotated, &all, &per, exact);
    assert!(
        problems.is_empty(),
        "{}:\n  {}",
        path.display(),
        problems.join("\n  ")
    );
}

fn check_fixture(path: &str) {
    check(path, false);
}

fn check_program(path: &str) {
    check(path, true);
}

/// For every technique named by a `needs=` tag of a fixture or program: runs locksmith with that
/// technique switched off and checks that the tagged lines change their verdict (the paper's
/// table 3, line by line). A tag `a+b` switches both off together. A tag that names no technique
/// (a misspelling) fails the test: it would check nothing.
fn ablation(path: &str) {
    let path = root().join(path);
    let files = annotations::c_files(&path);
    let annotated = annotations::read(&files);
    let named: BTreeSet<&str> = annotated
        .lines
        .values()
        .flat_map(|a| a.needs.iter().map(String::as_str))
        .collect();
    let unknown: Vec<&str> = named
        .iter()
        .flat_map(|t| t.split('+'))
        .filter(|t| Technique::from_tag(t).is_none())
        .collect();
    assert!(
        unknown.is_empty(),
        "{}: needs= names no technique: {unknown:?} (the tags are {:?})",
        path.display(),
        Technique::ALL.map(Technique::tag)
    );
    let mut problems = Vec::new();
    for technique in named {
        let mut args = annotated.args.clone();
        args.extend(
            technique
                .split('+')
                .filter_map(Technique::from_tag)
                .map(|t| locksmith::switches::flag(t).to_string()),
        );
        let (all, _, _) = warned(&files, &args);
        problems.extend(annotations::compare_ablation(&annotated, technique, &all));
    }
    assert!(
        problems.is_empty(),
        "{}:\n  {}",
        path.display(),
        problems.join("\n  ")
    );
}

/// Builds a test program with ThreadSanitizer, runs its self-test, and checks that every data
/// race TSan reports is on `// RACE` lines and that every planted race is observed.
fn tsan_program(path: &str) {
    let dir = root().join(path);
    let files = annotations::c_files(&dir);
    let annotated = annotations::read(&files);
    let exe = std::env::temp_dir().join(format!(
        "locksmith-tsan-{}-{}",
        Path::new(path).file_name().unwrap().to_string_lossy(),
        std::process::id()
    ));
    let built = std::process::Command::new("gcc")
        .args([
            "-std=gnu11",
            "-fsanitize=thread",
            "-g",
            "-O1",
            "-pthread",
            "-o",
        ])
        .arg(&exe)
        .args(&files)
        .output()
        .expect("gcc runs");
    assert!(
        built.status.success(),
        "gcc -fsanitize=thread failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = std::process::Command::new(&exe)
        .arg("--selftest")
        .env(
            "TSAN_OPTIONS",
            "halt_on_error=0 exitcode=0 report_signal_unsafe=0",
        )
        .output()
        .expect("the self-test runs");
    let _ = std::fs::remove_file(&exe);
    let report = String::from_utf8_lossy(&run.stderr);
    let mut seen_ids = BTreeSet::new();
    let mut problems = Vec::new();
    for block in report.split("WARNING: ThreadSanitizer:").skip(1) {
        if !block.trim_start().starts_with("data race") {
            continue;
        }
        // The first frame of each access stack: "    #0 func file:line".
        for line in block.lines() {
            let t = line.trim_start();
            if !t.starts_with("#0 ") {
                continue;
            }
            let Some(loc) = t.split_whitespace().nth(2) else {
                continue;
            };
            let Some((file, ln)) = tsan_location(loc) else {
                continue;
            };
            let key = files
                .iter()
                .find(|f| f.ends_with(Path::new(file).file_name().unwrap_or_default()));
            let Some(key) = key else { continue };
            match annotated.lines.get(&(key.clone(), ln)) {
                Some(a) if a.race => {
                    if let Some(id) = &a.id {
                        seen_ids.insert(id.clone());
                    }
                }
                _ => problems.push(format!(
                    "ThreadSanitizer reports a race at {}:{ln}, which is not a RACE line",
                    key.display()
                )),
            }
        }
    }
    let planted: BTreeSet<String> = annotated
        .lines
        .values()
        .filter_map(|a| a.id.clone())
        .collect();
    for id in planted.difference(&seen_ids) {
        if !annotated.tsan_skip.contains(id) {
            problems.push(format!(
                "planted race {id} was not observed by ThreadSanitizer"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}:\n  {}",
        dir.display(),
        problems.join("\n  ")
    );
}

/// Splits a ThreadSanitizer frame location, `file:line` or `file:line:column`.
fn tsan_location(loc: &str) -> Option<(&str, u32)> {
    let (head, last) = loc.rsplit_once(':')?;
    let last: u32 = last.parse().ok()?;
    match head.rsplit_once(':') {
        Some((file, line)) if line.parse::<u32>().is_ok() => Some((file, line.parse().ok()?)),
        _ => Some((head, last)),
    }
}

#[test]
fn tsan_locations_with_and_without_columns() {
    assert_eq!(tsan_location("/a/b.c:134"), Some(("/a/b.c", 134)));
    assert_eq!(tsan_location("/a/b.c:134:7"), Some(("/a/b.c", 134)));
    assert_eq!(tsan_location("tsan_interceptors_posix.cpp:x"), None);
}

/// A fixture whose thread's function does not parse fails the harness (it would be checked on
/// part of its code), unless it says `// locksmith-incomplete:`; one whose broken function
/// cannot run passes.
#[test]
fn an_incomplete_fixture_fails_unless_expected() {
    let dir =
        std::env::temp_dir().join(format!("locksmith-races-incomplete-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = |broken_runs: bool, expected: bool| {
        let start = if broken_runs { "broken" } else { "worker" };
        let tag = if expected {
            "// locksmith-incomplete: broken does not parse\n"
        } else {
            ""
        };
        format!(
            "{tag}#include <pthread.h>\n\
             int counter;\n\
             void *broken(void *arg) {{ return 1 +; }}\n\
             void *worker(void *arg) {{ counter = 1; return 0; }} // RACE\n\
             int main(void) {{\n\
             pthread_t t;\n\
             pthread_create(&t, 0, {start}, 0);\n\
             pthread_create(&t, 0, worker, 0);\n\
             pthread_create(&t, 0, worker, 0);\n\
             return 0;\n\
             }}\n"
        )
    };
    let passes = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_string_lossy().to_string();
        std::panic::catch_unwind(|| check_fixture(&path)).is_ok()
    };
    assert!(!passes("runs.c", program(true, false)));
    assert!(passes("expected.c", program(true, true)));
    assert!(passes("never_runs.c", program(false, false)));
    let _ = std::fs::remove_dir_all(&dir);
}

include!(concat!(env!("OUT_DIR"), "/race_fixtures.rs"));
include!(concat!(env!("OUT_DIR"), "/race_programs.rs"));

/// A `needs=` tag that names no technique fails the ablation test instead of being skipped.
#[test]
#[should_panic(expected = "needs= names no technique: [\"field_sensitivity\"]")]
fn a_misspelt_needs_tag_fails() {
    let dir = std::env::temp_dir().join(format!("locksmith-needs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("misspelt.c");
    std::fs::write(
        &file,
        "int x;\nint main(void) {\n    x = 1; // NORACE needs=field_sensitivity\n    return x;\n}\n",
    )
    .unwrap();
    ablation(file.to_str().unwrap());
}
