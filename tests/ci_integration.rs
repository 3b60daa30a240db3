//! locksmith in a CI pipeline: the GitHub problem matcher of
//! `integrations/github/locksmith-matcher.json` reads every line of the short format — warnings,
//! lock leaks, functions not analysed, stale suppression comments — into its file, line, column,
//! severity, message and code; and the commands of the workflow `integrations/github/locksmith.yml`
//! run as written on a project checked through its compilation database.

use std::path::{Path, PathBuf};

mod support;

use support::check_in;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The matcher's pattern and the group of each field.
struct Matcher {
    regex: regex::Regex,
    groups: serde_json::Value,
}

fn matcher() -> Matcher {
    let path = root().join("integrations/github/locksmith-matcher.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pattern = &json["problemMatcher"][0]["pattern"][0];
    assert_eq!(json["problemMatcher"][0]["owner"], "locksmith");
    Matcher {
        regex: regex::Regex::new(pattern["regexp"].as_str().unwrap()).unwrap(),
        groups: pattern.clone(),
    }
}

/// What the matcher reads from one line: file, line, column, severity, message and code.
type Annotation = (String, u32, Option<u32>, String, String, String);

impl Matcher {
    fn read(&self, line: &str) -> Option<Annotation> {
        let caps = self.regex.captures(line)?;
        let group = |field: &str| {
            let k = self.groups[field].as_u64().unwrap() as usize;
            caps.get(k).map(|m| m.as_str().to_string())
        };
        Some((
            group("file")?,
            group("line")?.parse().ok()?,
            group("column").map(|c| c.parse().unwrap()),
            group("severity")?,
            group("message")?,
            group("code")?,
        ))
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A project with a race, a lock leak, a stale suppression comment and a function that cannot
/// be read, with its compilation database in `build/`.
fn project(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locksmith-ci-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(
        &dir.join("src/app.c"),
        "#include <pthread.h>\n\
         static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         static long hits, items;\n\
         static int put(int full) {\n\
         \x20   pthread_mutex_lock(&m);\n\
         \x20   if (full)\n\
         \x20       return -1;\n\
         \x20   items++;\n\
         \x20   pthread_mutex_unlock(&m);\n\
         \x20   return 0;\n\
         }\n\
         static void *worker(void *arg) {\n\
         \x20   hits++;\n\
         \x20   put(arg != 0);\n\
         \x20   return arg; // locksmith: ignore data-race (stale)\n\
         }\n\
         int main(void) {\n\
         \x20   pthread_t t;\n\
         \x20   pthread_create(&t, 0, worker, 0);\n\
         \x20   hits++;\n\
         \x20   pthread_join(t, 0);\n\
         \x20   return 0;\n\
         }\n",
    );
    let entries = serde_json::json!([{
        "directory": dir.join("build"),
        "file": dir.join("src/app.c"),
        "arguments": ["cc", "-c", "../src/app.c"],
    }]);
    write(
        &dir.join("build/compile_commands.json"),
        &serde_json::to_string_pretty(&entries).unwrap(),
    );
    dir
}

/// Every line of the short format is read into an annotation, with the right place and code.
#[test]
fn the_problem_matcher_reads_every_line_of_the_short_format() {
    let m = matcher();
    let dir = project("matcher");
    let run = check_in(&dir, &["-p", "build", "--format", "short"]);
    assert_eq!(run.exit, 1, "{}{}", run.stdout, run.stderr);
    let annotations: Vec<Annotation> = run
        .stdout
        .lines()
        .map(|l| {
            m.read(l)
                .unwrap_or_else(|| panic!("the matcher misses {l:?}"))
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    let codes: Vec<&str> = annotations.iter().map(|a| a.5.as_str()).collect();
    assert!(codes.contains(&"data-race"), "{codes:?}");
    assert!(codes.contains(&"lock-leak"), "{codes:?}");
    assert!(codes.contains(&"suppression"), "{codes:?}");
    for (file, line, column, severity, message, code) in &annotations {
        assert_eq!(file, "src/app.c", "{message}");
        assert!(*line > 0);
        assert_eq!(severity, "warning");
        assert!(!message.is_empty() && !message.ends_with(']'), "{message}");
        match code.as_str() {
            "data-race" => assert_eq!((*line, *column), (13, Some(5))),
            "lock-leak" => assert_eq!((*line, *column), (7, Some(9))),
            "suppression" => assert_eq!((*line, *column), (15, None)),
            other => panic!("unexpected code {other}"),
        }
    }
    // A line that is not a diagnostic is not read as one.
    assert!(m.read("locksmith: 1 possible data race").is_none());
    assert!(m
        .read("locksmith: warning: the time limit of 90 s was reached in sharing [stopped]")
        .is_none());
}

/// The workflow's commands, as written (GitHub's variables given values as a run would), on a
/// project with its database in `build/`: the short format for the matcher, then a SARIF
/// document for the upload whose rules link to the rules page in the submodule, and the matcher
/// it adds exists.
#[test]
fn the_workflow_runs_as_written() {
    let workflow =
        std::fs::read_to_string(root().join("integrations/github/locksmith.yml")).unwrap();
    let added = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("echo \"::add-matcher::"))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("the workflow adds the matcher");
    let in_repo = added
        .strip_prefix("tools/locksmith/")
        .expect("the matcher comes from the submodule");
    assert!(root().join(in_repo).is_file(), "{in_repo}");
    let dir = project("workflow");
    let workflow = workflow
        .replace("$GITHUB_SERVER_URL", "https://github.com")
        .replace("$GITHUB_REPOSITORY", "owner/project")
        .replace("$GITHUB_SHA", "0123abcd")
        .replace('"', "");
    let commands: Vec<Vec<&str>> = workflow
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("locksmith check "))
        .map(|l| {
            l.split(" ||")
                .next()
                .unwrap()
                .split(" >")
                .next()
                .unwrap()
                .split_whitespace()
                .collect()
        })
        .collect();
    assert_eq!(commands.len(), 2, "{workflow}");
    let short = check_in(&dir, &commands[0]);
    assert_eq!(short.exit, 1, "{}", short.stderr);
    let sarif = check_in(&dir, &commands[1]);
    assert_eq!(sarif.exit, 1, "{}", sarif.stderr);
    std::fs::remove_dir_all(&dir).ok();
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["ruleId"] == "lock-leak"));
    let page = "https://github.com/owner/project/blob/0123abcd/tools/locksmith/docs/rules.md";
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        assert_eq!(rule["helpUri"], format!("{page}#{id}"));
    }
    let in_repo = page.split("/tools/locksmith/").nth(1).unwrap();
    assert!(root().join(in_repo).is_file(), "{in_repo}");
}
