//! The annotations of `locksmith.h`: annotated programs compile unchanged
//! with gcc, with and without `__LOCKSMITH__`; a correctly annotated program is accepted; every
//! misuse in `tests/annotations/misused.c` is reported at its line with its code (the line's
//! `/* existential/… */` comment), and nothing else is; `--no-existentials` ignores them.

mod support;

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("tests/annotations"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    out.sort();
    out
}

fn check(args: &[&str]) -> (i32, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(root())
        .arg("check")
        .arg("--format")
        .arg("json")
        .args(args)
        .output()
        .expect("locksmith runs");
    let report = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (out.status.code().unwrap(), report)
}

/// `(line, code)` of every annotation problem of a report.
fn problems(report: &serde_json::Value) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = report["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["line"].as_u64().unwrap(),
                a["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn annotated_programs_compile_with_gcc_both_ways() {
    let include = root().join("libc-stubs/include");
    for file in files() {
        for define in [None, Some("-D__LOCKSMITH__")] {
            let mut cmd = Command::new("gcc");
            cmd.args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pthread",
                "-fsyntax-only",
            ])
            .arg("-I")
            .arg(&include)
            .args(define)
            .arg(&file);
            let out = match cmd.output() {
                Ok(out) => out,
                Err(_) => {
                    support::skip(
                        "annotations::annotated_programs_compile_with_gcc_both_ways",
                        "gcc is not installed",
                    );
                    return;
                }
            };
            assert!(
                out.status.success(),
                "{} {define:?}:\n{}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn a_correctly_annotated_list_is_accepted() {
    let (exit, report) = check(&["tests/annotations/annotated_list.c"]);
    assert_eq!(exit, 0, "{report:#}");
    assert!(problems(&report).is_empty());
}

#[test]
fn every_misuse_is_reported_at_its_line() {
    let file = "tests/annotations/misused.c";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let mut expected: Vec<(u64, String)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let at = line.find("/* existential/")?;
            let code = line[at + 3..].trim_end_matches("*/").trim();
            Some((i as u64 + 1, code.to_string()))
        })
        .collect();
    expected.sort();
    assert_eq!(expected.len(), 7, "every kind of misuse has its line");
    let (exit, report) = check(&[file]);
    assert_eq!(exit, 1);
    assert_eq!(problems(&report), expected);
    let (_, without) = check(&["--no-existentials", file]);
    assert!(problems(&without).is_empty(), "{without:#}");
}
