//! The `locksmith lambda` command end to end: exit statuses, error messages (one JSON error
//! object shared with `check`), the JSON fields docs/json.md documents, and files written.

use std::process::Command;

fn locksmith() -> Command {
    Command::new(env!("CARGO_BIN_EXE_locksmith"))
}

/// A source file in a scratch directory of its own, removed with it when dropped, passed or
/// failed.
struct TempFile {
    dir: std::path::PathBuf,
    path: std::path::PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempFile {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp_file(name: &str, text: &str) -> TempFile {
    let dir = std::env::temp_dir().join(format!("locksmith-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    TempFile { dir, path }
}

#[test]
fn accepted_program_exits_zero() {
    let p = temp_file("ok.lam", "let l = newlock in let x = ref 0 in x :=[l] 1");
    let out = locksmith().arg("lambda").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("consistently correlated and linear"));
}

#[test]
fn inconsistent_program_exits_one_with_positions() {
    let p = temp_file(
        "bad.lam",
        "let x = ref 0 in\nlet a = newlock in\nlet b = newlock in\nx :=[a] 1;\nx :=[b] 2",
    );
    let out = locksmith().arg("lambda").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bad.lam:4:1") && text.contains("bad.lam:5:1"),
        "{text}"
    );
}

#[test]
fn missing_file_exits_two_with_one_line() {
    let out = locksmith()
        .args(["lambda", "/nonexistent/nowhere.lam"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn syntax_error_exits_two_with_its_position() {
    let p = temp_file("syn.lam", "let x = ref 0\nx :=[newlock] 1");
    let out = locksmith().arg("lambda").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("syn.lam:2:1") && err.contains("syntax error"),
        "{err}"
    );
}

#[test]
fn type_error_in_json_mode_is_one_complete_json_object() {
    let p = temp_file("ty.lam", "(fun x -> x) newlock 3");
    let out = locksmith()
        .args(["lambda", "--format", "json"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["verdict"], "error");
    assert_eq!(v["error"]["line"], 1);
}

#[test]
fn binary_garbage_exits_two() {
    let dir = std::env::temp_dir().join(format!("locksmith-cli-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("garbage.lam");
    std::fs::write(&p, [0xff, 0xfe, 0x00, 0x9c, 0x12]).unwrap();
    let out = locksmith().arg("lambda").arg(&p).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dot_option_writes_a_graph_with_instantiation_edges() {
    let p = temp_file(
        "munge.lam",
        "let L1 = newlock in let x = ref 0 in let munge = fun l -> fun p -> p :=[l] 3 in munge L1 x",
    );
    let dot = p.with_extension("dot");
    let out = locksmith()
        .arg("lambda")
        .arg(&p)
        .arg("--dot")
        .arg(&dot)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let graph = std::fs::read_to_string(&dot).unwrap();
    assert!(graph.starts_with("digraph"));
    assert!(graph.contains("label=\"(0\""), "{graph}");
    assert!(
        graph.contains("dir=none, style=dashed"),
        "derived correlation missing: {graph}"
    );
}

/// `--no-existentials` is the paper's baseline without existentials: figure 10's two packages
/// then share one lock label that stands for two locks, and the program is rejected.
#[test]
fn no_existentials_rejects_figure_10() {
    let fig10 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/paper-examples/lambda/fig10_existential.lam"
    );
    let with = locksmith().arg("lambda").arg(fig10).output().unwrap();
    assert_eq!(with.status.code(), Some(0));
    let without = locksmith()
        .args(["lambda", "--no-existentials", fig10])
        .output()
        .unwrap();
    assert_eq!(without.status.code(), Some(1));
    let text = String::from_utf8_lossy(&without.stdout);
    assert!(text.contains("not linear"), "{text}");
}

/// Runs `locksmith lambda ARGS…` and returns its exit status, stdout and stderr.
fn lambda(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = locksmith().arg("lambda").args(args).output().unwrap();
    (
        out.status.code().expect("locksmith exits"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Checks that `stdout` is the one error object of both commands with this code, and returns its
/// `error` member.
fn error_object(stdout: &str, code: &str) -> serde_json::Map<String, serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("one complete JSON object");
    let top = v.as_object().expect("an object");
    let keys: Vec<&str> = top.keys().map(String::as_str).collect();
    assert_eq!(keys, ["error", "verdict"], "{v}");
    assert_eq!(v["verdict"], "error", "{v}");
    let error = v["error"].as_object().expect("error is an object").clone();
    assert_eq!(error["code"], code, "{v}");
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    for key in error.keys() {
        assert!(
            ["code", "message", "file", "line", "column"].contains(&key.as_str()),
            "unexpected error field {key}: {v}"
        );
    }
    error
}

#[test]
fn every_error_in_json_mode_is_one_error_object() {
    let dir = std::env::temp_dir().join(format!("locksmith-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let syntax = dir.join("syn.lam");
    std::fs::write(&syntax, "let x = ref 0\nx :=[newlock] 1").unwrap();
    let typed = dir.join("ty.lam");
    std::fs::write(&typed, "(fun x -> x) newlock 3").unwrap();
    let binary = dir.join("bin.lam");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let ok = dir.join("ok.lam");
    std::fs::write(&ok, "let l = newlock in let x = ref 0 in x :=[l] 1").unwrap();
    let missing = dir.join("missing.lam");
    let unwritable = dir.join("no_such_dir").join("g.dot");
    let json = std::ffi::OsStr::new("--format=json");
    let dot = std::ffi::OsStr::new("--dot");
    let cases: [(&[&std::ffi::OsStr], &str, bool); 5] = [
        (&[json, syntax.as_os_str()], "error/syntax", true),
        (&[json, typed.as_os_str()], "error/type", true),
        (&[json, missing.as_os_str()], "error/unreadable", false),
        (&[json, binary.as_os_str()], "error/not-utf8", false),
        (
            &[json, dot, unwritable.as_os_str(), ok.as_os_str()],
            "error/unwritable",
            false,
        ),
    ];
    for (args, code, positioned) in cases {
        let (exit, stdout, stderr) = lambda(args);
        assert_eq!(exit, 2, "{code}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{code}: {stderr}");
        let error = error_object(&stdout, code);
        assert!(error["file"].as_str().is_some(), "{code}: {stdout}");
        assert_eq!(error.contains_key("line"), positioned, "{code}: {stdout}");
        assert_eq!(error.contains_key("column"), positioned, "{code}: {stdout}");
        let text_args: Vec<&std::ffi::OsStr> =
            args.iter().copied().filter(|a| *a != json).collect();
        let (text_exit, text_stdout, text_stderr) = lambda(&text_args);
        assert_eq!(text_exit, 2, "{code}");
        assert!(text_stdout.is_empty(), "{code}: {text_stdout}");
        assert_eq!(
            text_stderr, stderr,
            "{code}: the error line depends on the format"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The field names docs/json.md documents.
fn documented_fields() -> std::collections::BTreeSet<String> {
    include_str!("../docs/json.md")
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .flat_map(|row| {
            let cell = row.split(" |").next().unwrap_or_default();
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn collect_keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                out.insert(k.clone());
                collect_keys(x, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|x| collect_keys(x, out)),
        _ => {}
    }
}

/// Every key of every λ▷ report (fixtures and paper examples, with `--types`) is documented.
#[test]
fn json_reports_use_only_documented_fields() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/lambda", "paper-examples/lambda"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if entry.path().extension().is_some_and(|x| x == "lam") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    let mut seen = std::collections::BTreeSet::new();
    for file in &files {
        let (_, stdout, _) = lambda(&[
            std::ffi::OsStr::new("--format=json"),
            std::ffi::OsStr::new("--types"),
            file.as_os_str(),
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{}: invalid JSON ({e})", file.display()));
        collect_keys(&v, &mut seen);
    }
    let documented = documented_fields();
    let undocumented: Vec<&String> = seen.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "not documented in README: {undocumented:?}"
    );
    for key in [
        "code",
        "kind",
        "allocations",
        "path",
        "at",
        "types",
        "quantified",
    ] {
        assert!(seen.contains(key), "no fixture shows `{key}`");
    }
}

/// `--format dot` prints the graph `--dot FILE` writes.
#[test]
fn dot_format_prints_the_constraint_graph() {
    let p = temp_file(
        "graph.lam",
        "let L1 = newlock in let x = ref 0 in let munge = fun l -> fun p -> p :=[l] 3 in munge L1 x",
    );
    let file = p.with_extension("dot");
    let (exit, stdout, _) = lambda(&[
        std::ffi::OsStr::new("--format=dot"),
        std::ffi::OsStr::new("--dot"),
        file.as_os_str(),
        p.as_os_str(),
    ]);
    assert_eq!(exit, 0);
    assert!(stdout.starts_with("digraph constraints {"), "{stdout}");
    assert_eq!(stdout, std::fs::read_to_string(&file).unwrap());
}
