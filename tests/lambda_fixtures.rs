//! λ▷ fixtures (`tests/lambda/*.lam`, each with `(* expect: N *)`) and the paper's examples
//! (`paper-examples/lambda/*.lam`, each beside the exact output it must produce).
//!
//! Set `UPDATE_EXPECT=1` to rewrite the `.expected` files from the current output.

use std::path::{Path, PathBuf};

use locksmith::lambda::{self, Format, LambdaOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn lam_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "lam"))
        .collect();
    v.sort();
    v
}

fn expected_exit(text: &str) -> i32 {
    let at = text.find("expect:").expect("an `expect: N` comment");
    text[at + 7..].trim_start()[..1]
        .parse()
        .expect("a digit after `expect:`")
}

#[test]
fn every_fixture_has_its_expected_exit_status_in_text_and_json() {
    let files = lam_files(&root().join("tests/lambda"));
    assert!(files.len() >= 25, "the fixture folder is incomplete");
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let want = expected_exit(&text);
        let out = lambda::run(&name, &text, &LambdaOptions::default());
        if out.exit != want {
            failures.push(format!(
                "{name}: expected {want}, got {}\n{}{}",
                out.exit, out.stdout, out.stderr
            ));
            continue;
        }
        let json = lambda::run(
            &name,
            &text,
            &LambdaOptions {
                format: Format::Json,
                ..Default::default()
            },
        );
        assert_eq!(json.exit, want, "{name}: JSON mode changes the exit status");
        let v: serde_json::Value = serde_json::from_str(&json.stdout)
            .unwrap_or_else(|e| panic!("{name}: invalid JSON ({e}):\n{}", json.stdout));
        let verdict = v["verdict"].as_str().unwrap_or_default();
        let expected_verdict = ["ok", "violations", "error"][want as usize];
        assert_eq!(verdict, expected_verdict, "{name}: JSON verdict");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn paper_examples_produce_their_expected_output() {
    let dir = root().join("paper-examples/lambda");
    let files = lam_files(&dir);
    assert!(files.len() >= 5, "missing paper examples");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let out = lambda::run(
            &name,
            &text,
            &LambdaOptions {
                types: true,
                ..Default::default()
            },
        );
        let actual = format!("# exit {}\n{}{}", out.exit, out.stdout, out.stderr);
        let expected_path = path.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "{} is missing (run with UPDATE_EXPECT=1)",
                expected_path.display()
            )
        });
        if expected != actual {
            failures.push(format!(
                "{name}:\n--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn output_is_byte_identical_across_runs() {
    for path in lam_files(&root().join("tests/lambda")).into_iter().take(12) {
        let text = std::fs::read_to_string(&path).unwrap();
        let opts = LambdaOptions {
            types: true,
            dot: true,
            ..Default::default()
        };
        let a = lambda::run("f.lam", &text, &opts);
        let b = lambda::run("f.lam", &text, &opts);
        assert_eq!((a.stdout, a.dot), (b.stdout, b.dot), "{}", path.display());
    }
}
