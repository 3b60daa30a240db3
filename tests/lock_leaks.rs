//! The lock-leak check: the annotated fixtures of `tests/leaks/`, checked in both
//! directions — a `// LEAK` line is where a leak is reported (the return that still holds the
//! lock, or the lock call of a loop that takes it again), a `// NOLEAK` line is none's — and
//! the command line's rendering of a leak in every format, its exit status, its suppression and
//! `--no-deadlocks`, which skips it with the lock order it is found on.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::annotations::{self, Lines};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn locksmith(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(root())
        .args(["check", "--no-config"])
        .args(args)
        .output()
        .expect("locksmith runs");
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// The lines of the leaks reported for `file`, from its JSON report.
fn leaks(file: &Path) -> Lines {
    let (_, json) = locksmith(&["--format", "json", file.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "lock-leak")
        .map(|w| {
            let at = root().join(w["file"].as_str().unwrap());
            (at, w["line"].as_u64().unwrap() as u32)
        })
        .collect()
}

/// What is wrong with the leaks reported: a `LEAK` line none is reported at, a `NOLEAK` line
/// one is, and a leak on a line not annotated `LEAK` (the check is exact).
fn compare(must: &Lines, must_not: &Lines, found: &Lines) -> Vec<String> {
    let show = |(f, l): &(PathBuf, u32)| format!("{}:{l}", f.display());
    let mut problems = Vec::new();
    for line in must.difference(found) {
        problems.push(format!("missed leak: {} is annotated LEAK", show(line)));
    }
    for line in must_not.intersection(found) {
        problems.push(format!("false alarm: {} is annotated NOLEAK", show(line)));
    }
    for line in found.difference(must) {
        if !must_not.contains(line) {
            problems.push(format!("a leak at {}, not annotated LEAK", show(line)));
        }
    }
    problems
}

#[test]
fn every_leak_fixture_reports_exactly_its_leaks() {
    let dir = root().join("tests/leaks");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "no fixtures in {}", dir.display());
    let mut problems = Vec::new();
    for file in &files {
        let (must, must_not) = annotations::leak_lines(std::slice::from_ref(file));
        assert!(
            !must.is_empty() && !must_not.is_empty(),
            "{} needs LEAK and NOLEAK lines",
            file.display()
        );
        problems.extend(compare(&must, &must_not, &leaks(file)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The harness can fail: a missed line, a false alarm and an unannotated leak are each reported.
#[test]
fn the_comparison_fails_in_both_directions() {
    let line = |l: u32| (PathBuf::from("x.c"), l);
    let must: Lines = [line(3), line(5)].into();
    let must_not: Lines = [line(9)].into();
    assert!(compare(&must, &must_not, &must).is_empty());
    let problems = compare(&must, &must_not, &[line(3), line(9), line(11)].into());
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].starts_with("missed leak: x.c:5"));
    assert!(problems[1].starts_with("false alarm: x.c:9"));
    assert!(problems[2].contains("at x.c:11"));
}

const EARLY: &str = "tests/leaks/early_return.c";

/// A leak is a warning (exit 1) drawn at the return that still holds the lock, with the return
/// that does not and the lock call; the summary counts it; `--no-deadlocks` skips it.
#[test]
fn a_leak_is_a_warning_in_text() {
    let (status, text) = locksmith(&[EARLY]);
    assert_eq!(status, 1, "{text}");
    assert!(
        text.contains("warning: possible lock leak: lock is still held when enqueue returns here"),
        "{text}"
    );
    assert!(
        text.contains("--> tests/leaks/early_return.c:20:9"),
        "{text}"
    );
    assert!(text.contains("^^^^^^ returns holding lock"), "{text}");
    assert!(
        text.contains("note: enqueue returns without lock here"),
        "{text}"
    );
    assert!(text.contains("note: taken here"), "{text}");
    assert!(
        text.ends_with("locksmith: 0 possible data races, 1 possible lock leak\n"),
        "{text}"
    );
    let (status, text) = locksmith(&["--no-deadlocks", EARLY]);
    assert_eq!(status, 0, "{text}");
    assert!(!text.contains("leak"), "{text}");
}

/// The JSON contract of a leak: `kind`, `lock`, `function`, `leak`, the position where the lock
/// is still held, `other` and `taken`.
#[test]
fn a_leak_in_json_short_and_sarif() {
    let (_, json) = locksmith(&["--format", "json", EARLY]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let w = &report["warnings"][0];
    assert_eq!(w["code"], "lock-leak", "{json}");
    assert_eq!(w["kind"], "lock-leak");
    assert_eq!(w["lock"], "lock");
    assert_eq!(w["function"], "enqueue");
    assert_eq!(w["leak"], "return");
    assert_eq!(
        (w["line"].as_u64(), w["column"].as_u64()),
        (Some(20), Some(9))
    );
    assert_eq!(w["other"]["line"], 23);
    assert_eq!(w["taken"][0]["line"], 18);
    assert_eq!(report["verdict"], "races");

    let (_, short) = locksmith(&["--format", "short", EARLY]);
    assert_eq!(
        short.trim_end(),
        "tests/leaks/early_return.c:20:9: warning: possible lock leak: lock is still held when \
         enqueue returns here [lock-leak]"
    );

    let (_, sarif) = locksmith(&["--format", "sarif", EARLY]);
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let run = &log["runs"][0];
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "lock-leak");
    assert_eq!(result["relatedLocations"].as_array().unwrap().len(), 2);
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "lock-leak"), "{sarif}");
}

/// `// locksmith: ignore lock-leak` on the line that still holds the lock silences the leak.
#[test]
fn a_leak_is_silenced_by_its_code() {
    let dir = std::env::temp_dir().join(format!("locksmith-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join(EARLY))
        .unwrap()
        .replace(
            "return -1; // LEAK",
            "return -1; // locksmith: ignore lock-leak (the queue is never full)",
        );
    let file = dir.join("early_return.c");
    std::fs::write(&file, text).unwrap();
    let (status, out) = locksmith(&[file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("1 suppressed by comments"), "{out}");
}
