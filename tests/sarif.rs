//! `--format sarif`: the document deserialises into the typed SARIF model of
//! `src/render/sarif.rs`, holds one result per finding with the racing accesses, call paths and
//! line-independent fingerprints, names files relative to `--source-root`, and Microsoft's SARIF
//! validator finds no error or warning in it on the bundled examples (installed with `npm` into
//! a temporary folder; skipped with a message on stderr when npm or the network is missing, a
//! failure then with `LOCKSMITH_REQUIRE_TOOLS=1`).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use locksmith::render::sarif::SarifLog;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `locksmith check ARGS` in `dir`: exit status and stdout.
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let run = support::check_in(dir, args);
    (run.exit, run.stdout)
}

fn sarif(dir: &Path, args: &[&str]) -> SarifLog {
    let mut all = vec!["--format", "sarif"];
    all.extend_from_slice(args);
    let (_, out) = run(dir, &all);
    serde_json::from_str(&out).expect("the SARIF document deserialises into the typed model")
}

/// The bundled examples: the C paper examples and a fixture with races and annotation problems.
fn examples() -> Vec<String> {
    let mut out: Vec<String> = support::c_files(&root().join("paper-examples/c"))
        .iter()
        .map(|p| support::relative(&root(), p))
        .collect();
    out.push("tests/races/existentials/list_node_locks.c".into());
    out.push("tests/annotations/misused.c".into());
    out
}

#[test]
fn one_result_per_finding_with_its_accesses_and_paths() {
    for file in examples() {
        let log = sarif(&root(), &[&file]);
        let (_, json) = run(&root(), &["--format", "json", &file]);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(log.version, "2.1.0");
        let results = &log.runs[0].results;
        let count = |key: &str| report[key].as_array().map_or(0, Vec::len);
        assert_eq!(
            results.len(),
            count("warnings") + count("annotations") + count("unsound") + count("unanalysed"),
            "{file}"
        );
        let races: Vec<_> = results
            .iter()
            .filter(|r| r.rule_id == "data-race")
            .collect();
        assert_eq!(races.len(), count("warnings"), "{file}");
        for (r, w) in races.iter().zip(report["warnings"].as_array().unwrap()) {
            let accesses = w["accesses"].as_array().unwrap();
            let first = &accesses[0];
            let region = r.locations[0]
                .physical_location
                .as_ref()
                .unwrap()
                .region
                .as_ref()
                .unwrap();
            assert_eq!(
                u64::from(region.start_line),
                first["line"].as_u64().unwrap()
            );
            assert_eq!(region.start_column.map(u64::from), first["column"].as_u64());
            assert_eq!(
                region.end_column.map(u64::from),
                first["end_column"].as_u64()
            );
            assert_eq!(r.related_locations.len(), accesses.len() - 1);
            let flows = &r.code_flows[0].thread_flows;
            assert_eq!(flows.len(), accesses.len());
            for (flow, a) in flows.iter().zip(accesses) {
                let path = a["path"].as_array().unwrap();
                assert_eq!(flow.locations.len(), path.len() + 1);
                // Each step after the root opens at its call: the line its text names.
                for (step, at) in path.iter().zip(&flow.locations).skip(1) {
                    let text = step.as_str().unwrap();
                    let region = at.location.physical_location.as_ref().unwrap();
                    let line = region.region.as_ref().unwrap().start_line;
                    assert!(
                        text.ends_with(&format!(":{line})")),
                        "{text} at line {line}"
                    );
                }
                assert!(flow.locations[0].location.physical_location.is_none());
            }
            assert!(r
                .message
                .text
                .contains(w["location"]["name"].as_str().unwrap()));
            let rule = &log.runs[0].tool.driver.rules[r.rule_index];
            assert_eq!(rule.id, "data-race");
        }
        // A check lists the check's rules only, not the λ▷ verdicts', each with what a
        // finding means and what to do.
        let rules = &log.runs[0].tool.driver.rules;
        assert!(rules
            .iter()
            .all(|r| r.full_description.is_some() && r.help.is_some()));
        assert!(rules
            .iter()
            .all(|r| r.id != "inconsistent" && r.id != "nonlinear"));
        assert!(rules.iter().any(|r| r.id == "deadlock"));
    }
}

/// A λ▷ run lists the λ▷ rules only, and its results' indices name them.
#[test]
fn a_lambda_run_lists_its_own_rules() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(root())
        .args([
            "lambda",
            "--format",
            "sarif",
            "paper-examples/lambda/fig10_without_pack.lam",
        ])
        .output()
        .expect("locksmith runs");
    let log: SarifLog = serde_json::from_slice(&out.stdout).expect("a SARIF document");
    let the_run = &log.runs[0];
    let ids: Vec<&str> = the_run
        .tool
        .driver
        .rules
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    assert!(ids.contains(&"inconsistent"), "{ids:?}");
    assert!(
        !ids.contains(&"data-race") && !ids.contains(&"deadlock"),
        "{ids:?}"
    );
    assert!(!the_run.results.is_empty());
    for r in &the_run.results {
        assert_eq!(ids[r.rule_index], r.rule_id);
    }
}

#[test]
fn files_are_relative_to_the_source_root_and_fingerprints_ignore_lines() {
    let dir = std::env::temp_dir().join(format!("locksmith-sarif-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let original =
        std::fs::read_to_string(root().join("tests/races/existentials/list_node_locks.c")).unwrap();
    std::fs::write(dir.join("src/munge.c"), &original).unwrap();
    let before = sarif(&dir, &["--source-root", ".", "src/munge.c"]);
    std::fs::write(dir.join("src/munge.c"), format!("\n\n\n{original}")).unwrap();
    let after = sarif(&dir, &["--source-root", ".", "src/munge.c"]);
    let (b, a) = (&before.runs[0].results, &after.runs[0].results);
    assert!(!b.is_empty());
    assert_eq!(b.len(), a.len());
    for (x, y) in b.iter().zip(a) {
        assert_eq!(x.partial_fingerprints, y.partial_fingerprints);
        let (px, py) = (
            x.locations[0].physical_location.as_ref().unwrap(),
            y.locations[0].physical_location.as_ref().unwrap(),
        );
        assert_eq!(px.artifact_location.uri, "src/munge.c");
        assert_eq!(px.artifact_location.uri_base_id.as_deref(), Some("SRCROOT"));
        assert_eq!(
            px.region.as_ref().unwrap().start_line + 3,
            py.region.as_ref().unwrap().start_line
        );
    }
    let base = &before.runs[0].original_uri_base_ids["SRCROOT"].uri;
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A documentation URI template, as a team hosting `docs/rules.md` would give it.
const HELP: &str = "https://example.org/locksmith/docs/rules.md#{rule}";

#[test]
fn each_rule_points_at_its_section_of_the_rules_page_when_asked() {
    let file = "tests/races/existentials/list_node_locks.c";
    let rules = |log: &SarifLog| log.runs[0].tool.driver.rules.clone();
    for rule in rules(&sarif(&root(), &[file])) {
        assert_eq!(rule.help_uri, None, "{}: no site to point at", rule.id);
    }
    let check = rules(&sarif(&root(), &["--help-uri", HELP, file]));
    for rule in &check {
        assert_eq!(
            rule.help_uri.as_deref(),
            Some(format!("https://example.org/locksmith/docs/rules.md#{}", rule.id).as_str())
        );
    }
    // The page has a section whose anchor is each rule's id, the λ▷ verdicts' too.
    let lambda = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .current_dir(root())
        .args(["lambda", "--format", "sarif"])
        .arg("paper-examples/lambda/fig10_without_pack.lam")
        .output()
        .expect("locksmith runs");
    let lambda: SarifLog = serde_json::from_slice(&lambda.stdout).expect("a SARIF document");
    let page = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    for rule in check.iter().chain(&rules(&lambda)) {
        let anchor = format!("<a id=\"{}\"></a>\n### `{}`", rule.id, rule.id);
        assert!(
            page.contains(&anchor),
            "docs/rules.md has no section {}",
            rule.id
        );
    }
}

#[test]
fn a_help_uri_that_is_not_absolute_is_refused_before_the_analysis() {
    for bad in ["docs/rules.md#{rule}", "#{rule}", "https://example.org/a b"] {
        let run = support::check_in(
            &root(),
            &["--format", "sarif", "--help-uri", bad, "no-such-file.c"],
        );
        assert_eq!(run.exit, 2, "{bad}");
        assert!(run.stdout.is_empty(), "{bad}: {}", run.stdout);
        assert!(
            run.stderr.starts_with("locksmith: error: invalid value"),
            "{bad}: {}",
            run.stderr
        );
    }
}

const VALIDATOR_TEST: &str = "sarif::microsofts_validator_finds_no_error_or_warning";

#[test]
fn microsofts_validator_finds_no_error_or_warning() {
    let dir =
        std::env::temp_dir().join(format!("locksmith-sarif-validator-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let install = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .arg("@microsoft/sarif-multitool-linux")
        .output();
    let tool = dir.join("node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    match install {
        Ok(out) if out.status.success() && tool.exists() => {}
        Ok(out) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = format!(
                "npm could not install the SARIF validator: {}",
                stderr.lines().last().unwrap_or("")
            );
            support::skip(VALIDATOR_TEST, &why);
            return;
        }
        Err(_) => {
            support::skip(VALIDATOR_TEST, "npm is not installed");
            return;
        }
    }
    let _ = Command::new("chmod").arg("u+x").arg(&tool).status();
    for (k, file) in examples().iter().enumerate() {
        let (_, text) = run(&root(), &["--format", "sarif", "--help-uri", HELP, file]);
        let input = dir.join(format!("example{k}.sarif"));
        let output = dir.join(format!("example{k}.validation.sarif"));
        std::fs::write(&input, text).unwrap();
        let _ = std::fs::remove_file(&output);
        let status = Command::new(&tool)
            .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
            .arg("validate")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .args(["--level", "Error;Warning;Note"])
            .output()
            .expect("the validator runs");
        assert!(status.status.success(), "{file}: {status:?}");
        let found: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
        let problems: Vec<String> = found["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["level"].as_str().unwrap_or("warning") != "note")
            .map(|r| r.to_string())
            .collect();
        assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Warnings left out by a comment or the baseline are results with their suppression
/// (`inSource`, `external`), so code scanning shows them dismissed, not fixed.
#[test]
fn left_out_warnings_are_suppressed_results() {
    let dir = std::env::temp_dir().join(format!("locksmith-sarif-{}-left-out", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("p.c"),
        "#include <pthread.h>\n\
         static int hits; // locksmith: ignore data-race: display only\n\
         static int jobs;\n\
         static void *w(void *a) { hits++; jobs++; return a; }\n\
         int main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); \
         pthread_create(&u, 0, w, 0); return 0; }\n",
    )
    .unwrap();
    let kinds = |log: &SarifLog| -> Vec<Option<String>> {
        log.runs[0]
            .results
            .iter()
            .filter(|r| r.rule_id == "data-race")
            .map(|r| r.suppressions.first().map(|s| s.kind.clone()))
            .collect()
    };
    let commented = sarif(&dir, &["p.c"]);
    assert_eq!(kinds(&commented), [None, Some("inSource".to_string())]);
    let (_, _) = run(&dir, &["--write-baseline", "baseline.json", "p.c"]);
    let baselined = sarif(&dir, &["--baseline", "baseline.json", "p.c"]);
    let mut both = kinds(&baselined);
    both.sort();
    assert_eq!(
        both,
        [Some("external".to_string()), Some("inSource".to_string())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
