//! The deadlock check: the annotated fixtures of `tests/deadlocks/`, one test
//! each, checked in both directions (see tests/README.md), and the command line's rendering of a
//! deadlock in every format, its exit status and `--no-deadlocks`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use c_frontend::driver::{self, CheckOptions};
use support::annotations::{self, Lines};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of the lock calls of each reported deadlock.
fn deadlocks(files: &[PathBuf], options: CheckOptions) -> Vec<Lines> {
    let result =
        driver::check_on_large_stack(files.to_vec(), options, &solver::stats::Stats::off())
            .and_then(driver::Checked::done)
            .unwrap_or_else(|e| panic!("locksmith failed on {files:?}: {e}"));
    // A fixture is analysed whole (its exit status is never 3, incomplete).
    let missing = support::incomplete(&result);
    assert!(
        missing.is_empty(),
        "{files:?}: the check is incomplete; not analysed:\n  {}",
        missing.join("\n  ")
    );
    result
        .solution
        .deadlocks
        .iter()
        .map(|w| {
            w.acquisitions
                .iter()
                .map(|a| {
                    let site = &result.generated.acquire_sites[a.acq];
                    let file = PathBuf::from(&result.program.files[site.pos.file]);
                    let file = if file.is_absolute() {
                        file
                    } else {
                        root().join(file)
                    };
                    (file, site.pos.line)
                })
                .collect()
        })
        .collect()
}

/// What is wrong with the deadlocks reported for a fixture: a `DEADLOCK` line no deadlock
/// lists, a `NODEADLOCK` line one lists, and a lock call of a deadlock on a line not annotated
/// `DEADLOCK` (the check is exact).
fn compare(must: &Lines, must_not: &Lines, found: &[Lines]) -> Vec<String> {
    let all: Lines = found.iter().flatten().cloned().collect();
    let show = |(f, l): &(PathBuf, u32)| format!("{}:{l}", f.display());
    let mut problems = Vec::new();
    for line in must.difference(&all) {
        problems.push(format!(
            "missed deadlock: {} is annotated DEADLOCK but no deadlock lists it",
            show(line)
        ));
    }
    for line in must_not.intersection(&all) {
        problems.push(format!(
            "false alarm: {} is annotated NODEADLOCK but a deadlock lists it",
            show(line)
        ));
    }
    for (k, w) in found.iter().enumerate() {
        for line in w.difference(must) {
            problems.push(format!(
                "deadlock #{k} lists {}, which is not annotated DEADLOCK",
                show(line)
            ));
        }
    }
    problems
}

fn check_fixture(path: &str) {
    let path = root().join(path);
    let files = annotations::c_files(&path);
    let (must, must_not) = annotations::deadlock_lines(&files);
    assert!(
        !must.is_empty() || !must_not.is_empty(),
        "{} has no DEADLOCK or NODEADLOCK annotation",
        path.display()
    );
    let found = deadlocks(&files, CheckOptions::default());
    let problems = compare(&must, &must_not, &found);
    assert!(
        problems.is_empty(),
        "{}:\n  {}",
        path.display(),
        problems.join("\n  ")
    );
    let skipped = CheckOptions {
        no_deadlocks: true,
        ..CheckOptions::default()
    };
    assert!(
        deadlocks(&files, skipped).is_empty(),
        "{}: --no-deadlocks still reports deadlocks",
        path.display()
    );
}

include!(concat!(env!("OUT_DIR"), "/deadlock_fixtures.rs"));

/// The harness can fail: a missed line, a false alarm and an unannotated lock call are each
/// reported.
#[test]
fn the_comparison_fails_in_both_directions() {
    let line = |l: u32| (PathBuf::from("x.c"), l);
    let must: Lines = [line(3), line(5)].into();
    let must_not: Lines = [line(9)].into();
    assert!(compare(&must, &must_not, std::slice::from_ref(&must)).is_empty());
    let problems = compare(&must, &must_not, &[[line(3), line(9), line(11)].into()]);
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(problems[0].starts_with("missed deadlock: x.c:5"));
    assert!(problems[1].starts_with("false alarm: x.c:9"));
    assert!(problems[2].contains("lists x.c:9"));
    assert!(problems[3].contains("lists x.c:11"));
}

fn locksmith(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(root())
        .arg("check")
        .args(args)
        .output()
        .expect("locksmith runs");
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

const ABBA: &str = "tests/deadlocks/abba.c";

/// A program whose only finding is a deadlock exits with 1; `--no-deadlocks` skips the check.
#[test]
fn a_deadlock_is_a_warning_unless_skipped() {
    let (status, text) = locksmith(&[ABBA]);
    assert_eq!(status, 1, "{text}");
    assert!(text.contains("warning: possible deadlock: accounts -> journal -> accounts"));
    assert!(text.contains("--> tests/deadlocks/abba.c:13:5"), "{text}");
    assert!(text.contains("^^^^^^^^^^^^^^^^^^ waits for journal holding accounts"));
    assert!(
        text.contains("= note: accounts taken at tests/deadlocks/abba.c:11:5"),
        "{text}"
    );
    assert!(text.ends_with("locksmith: 0 possible data races, 1 possible deadlock\n"));
    let (status, text) = locksmith(&["--no-deadlocks", ABBA]);
    assert_eq!(status, 0, "{text}");
    assert!(!text.contains("deadlock"), "{text}");
}

/// A lock conflation carried into a C library variable (`optarg`, whose type holds no lock)
/// is named as conflated memory, never after that variable.
#[test]
fn a_lock_is_never_named_after_an_unrelated_libc_object() {
    let (status, text) = locksmith(&["--format", "short", "tests/deadlocks/conflated_lock_name.c"]);
    assert_eq!(status, 1, "{text}");
    assert!(!text.contains("optarg"), "{text}");
    assert!(
        text.contains("possible deadlock: a lock in conflated memory"),
        "{text}"
    );
}

/// The JSON contract of a deadlock: `kind`, `locks` (the cycle) and one acquisition per lock
/// call, with a race access's fields and the lock it waits for.
#[test]
fn deadlocks_in_json() {
    let (_, json) = locksmith(&["--format", "json", ABBA]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{json}");
    let w = &warnings[0];
    assert_eq!(w["kind"], "deadlock");
    assert_eq!(w["code"], "deadlock");
    assert_eq!(w["locks"], serde_json::json!(["accounts", "journal"]));
    assert!(w.get("self_deadlock").is_none());
    let calls = w["acquisitions"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    // Each lock call names where the lock it holds was taken: the other acquisition of its
    // edge, as ThreadSanitizer's lock-order inversion does.
    let expected = [
        (13, "journal", "accounts", "deposit", 11),
        (25, "accounts", "journal", "audit", 23),
    ];
    for (call, (line, lock, held, thread, taken)) in calls.iter().zip(expected) {
        assert_eq!(
            call["held_at"],
            serde_json::json!([{"lock": held, "file": ABBA, "line": taken, "column": 5}]),
            "{json}"
        );
        assert_eq!(call["file"], ABBA);
        assert_eq!(call["line"], line);
        assert_eq!(call["column"], 5);
        assert_eq!(call["lock"], lock);
        assert_eq!(call["locks"], serde_json::json!([held]));
        assert_eq!(call["path"][0], "main");
        assert!(call["path"][1].as_str().unwrap().starts_with(thread));
        assert!(call["thread"].as_str().unwrap().contains(thread));
    }
    let (_, json) = locksmith(&["--format", "json", "tests/deadlocks/self_through_helper.c"]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let w = &report["warnings"][0];
    assert_eq!(w["self_deadlock"], true);
    assert_eq!(w["locks"], serde_json::json!(["stats"]));
    let path: Vec<&str> = w["acquisitions"][0]["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    // The path is the one along which the lock is held: through `lookup`, not the shortest.
    assert_eq!(path.len(), 4, "{path:?}");
    assert!(path[2].starts_with("lookup ("), "{path:?}");
    // A self-deadlock's lock was taken by its own thread, up the same path (in a caller).
    let held_at = w["acquisitions"][0]["held_at"].as_array().unwrap();
    assert_eq!(held_at.len(), 1, "{json}");
    assert_eq!(held_at[0]["lock"], "stats");
}

/// The short and SARIF formats render deadlocks too.
#[test]
fn deadlocks_in_short_and_sarif() {
    let (_, short) = locksmith(&["--format", "short", ABBA]);
    assert_eq!(
        short,
        "tests/deadlocks/abba.c:13:5: warning: possible deadlock: accounts -> journal -> \
         accounts [deadlock]\n"
    );
    let (_, sarif) = locksmith(&["--format", "sarif", ABBA]);
    let log: locksmith::render::sarif::SarifLog = serde_json::from_str(&sarif).unwrap();
    let results = &log.runs[0].results;
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r.rule_id, "deadlock");
    assert_eq!(log.runs[0].tool.driver.rules[r.rule_index].id, "deadlock");
    assert_eq!(r.related_locations.len(), 1);
    assert_eq!(r.code_flows[0].thread_flows.len(), 2);
    let region = r.locations[0].physical_location.as_ref().unwrap();
    assert_eq!(region.region.as_ref().unwrap().start_line, 13);
}

/// The same input gives the same output, byte for byte.
#[test]
fn deadlock_reports_are_deterministic() {
    for file in [
        ABBA,
        "tests/deadlocks/three_cycle.c",
        "tests/deadlocks/parameters.c",
    ] {
        let first = locksmith(&["--format", "json", file]);
        let second = locksmith(&["--format", "json", file]);
        assert_eq!(first, second, "{file}");
        assert!(Path::new(&root().join(file)).exists());
    }
}

/// Every fixture is C that gcc compiles without a warning (skipped without gcc).
#[test]
fn fixtures_compile_cleanly() {
    let probe = Command::new("gcc").arg("--version").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        support::skip(
            "deadlocks::fixtures_compile_cleanly",
            "gcc is not installed",
        );
        return;
    }
    let files = support::c_files(&root().join("tests/deadlocks"));
    assert!(!files.is_empty());
    let out = std::env::temp_dir().join(format!("locksmith-deadlock-{}.o", std::process::id()));
    for f in files {
        let run = Command::new("gcc")
            .args(["-Wall", "-Werror", "-pthread", "-c", "-o"])
            .arg(&out)
            .arg(&f)
            .output()
            .expect("gcc runs");
        assert!(
            run.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let _ = std::fs::remove_file(&out);
}

/// A deadlock is silenced by a comment on one of its lock calls' lines, and left out by a
/// baseline that records it.
#[test]
fn deadlocks_are_triaged_like_races() {
    let dir =
        std::env::temp_dir().join(format!("locksmith-deadlock-triage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let original = std::fs::read_to_string(root().join(ABBA)).unwrap();
    let file = dir.join("abba.c");
    let silenced: Vec<String> = original
        .lines()
        .enumerate()
        .map(|(i, l)| match i + 1 {
            13 => format!("{l} locksmith: ignore deadlock — the audit never runs with deposits"),
            _ => l.to_string(),
        })
        .collect();
    std::fs::write(&file, silenced.join("\n") + "\n").unwrap();
    let path = file.to_str().unwrap();
    let (status, json) = locksmith(&["--format", "json", path]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(status, 0, "{json}");
    assert_eq!(report["suppressed"], 1);
    std::fs::write(&file, &original).unwrap();
    let baseline = dir.join("baseline.json");
    let (status, _) = locksmith(&["--write-baseline", baseline.to_str().unwrap(), path]);
    assert_eq!(status, 0, "a run that wrote its baseline exits with 0");
    let recorded = std::fs::read_to_string(&baseline).unwrap();
    assert!(recorded.contains("\"accounts -> journal\""), "{recorded}");
    let (status, json) = locksmith(&[
        "--format",
        "json",
        "--baseline",
        baseline.to_str().unwrap(),
        path,
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(status, 0, "{json}");
    assert_eq!(report["baselined"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}
