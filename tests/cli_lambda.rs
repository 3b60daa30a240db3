//! The `locksmith lambda` command end to end: exit statuses, error messages and files written.

use std::process::Command;

fn locksmith() -> Command {
    Command::new(env!("CARGO_BIN_EXE_locksmith"))
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("locksmith-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
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
