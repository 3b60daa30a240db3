//! The verdict of `locksmith check` as a CI step sees it (README.md, "Exit status"): race-free
//! (exit 0), races (1), the run could not be done (2), and incomplete (3) — nothing found, but
//! a function that may run was not analysed — in every format, with `--allow-incomplete`, and
//! with functions not analysed that cannot run, and when a run reaches its time or memory limit.
//! The programs are written here; the function that is not analysed has a genuine syntax error
//! in its body.

mod support;

use support::{check_in, Run, Scratch};

/// A fresh directory holding `files`, one per test (tests run in parallel), removed when the
/// test ends.
fn program(test: &str, files: &[(&str, &str)]) -> Scratch {
    let dir = Scratch::new("cli-verdict", test);
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

/// A program whose one shared counter is always locked; `parse` (which does not parse) is
/// called by the thread when `called`.
fn locked(called: bool) -> String {
    let call = if called { "parse()" } else { "1" };
    format!(
        "#include <pthread.h>\n\
         int counter;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         int parse(void) {{ return 1 +; }}\n\
         void *worker(void *arg) {{\n\
         \x20   pthread_mutex_lock(&m);\n\
         \x20   counter += {call};\n\
         \x20   pthread_mutex_unlock(&m);\n\
         \x20   return 0;\n\
         }}\n\
         int main(void) {{\n\
         \x20   pthread_t t;\n\
         \x20   pthread_create(&t, 0, worker, 0);\n\
         \x20   pthread_mutex_lock(&m);\n\
         \x20   counter++;\n\
         \x20   pthread_mutex_unlock(&m);\n\
         \x20   pthread_join(t, 0);\n\
         \x20   return 0;\n\
         }}\n"
    )
}

/// The same program with the lock left out of `main`: a race on `counter`.
fn racy(called: bool) -> String {
    locked(called).replacen(
        "    pthread_mutex_lock(&m);\n    counter++;\n    pthread_mutex_unlock(&m);\n",
        "    counter++;\n",
        1,
    )
}

fn last_line(run: &Run) -> &str {
    run.stdout.lines().last().unwrap_or_default()
}

const INCOMPLETE_1: &str = "locksmith: no race found in what was analysed; 1 function was not \
                            analysed, so the result is incomplete";

#[test]
fn a_fully_analysed_program_without_races_is_race_free() {
    let dir = program(
        "race-free",
        &[(
            "p.c",
            &locked(false).replace("int parse(void) { return 1 +; }\n", ""),
        )],
    );
    let run = check_in(&dir, &["p.c"]);
    assert_eq!(run.exit, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(last_line(&run), "locksmith: 0 possible data races");
    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.exit, 0);
    assert_eq!(run.json()["verdict"], "race-free");
    assert_eq!(run.json()["unanalysed"], serde_json::json!([]));
}

#[test]
fn a_program_with_races_exits_1() {
    let dir = program("races", &[("p.c", &racy(false))]);
    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.exit, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.json()["verdict"], "races");
    // A function not analysed that cannot run changes nothing.
    assert_eq!(run.json()["unanalysed"][0]["may_run"], false);
}

/// A function that may run and was not analysed makes a run that found nothing incomplete, in
/// every format.
#[test]
fn a_run_missing_a_function_that_may_run_is_incomplete() {
    let dir = program("incomplete", &[("p.c", &locked(true))]);
    let run = check_in(&dir, &["p.c"]);
    assert_eq!(run.exit, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(last_line(&run), INCOMPLETE_1);
    assert!(!run.stdout.contains("possible data race"), "{}", run.stdout);

    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.exit, 3);
    let json = run.json();
    assert_eq!(json["verdict"], "incomplete");
    let u = &json["unanalysed"][0];
    assert_eq!(u["function"], "parse");
    assert_eq!(u["may_run"], true);
    assert_eq!(
        (u["line"].as_u64(), u["column"].as_u64()),
        (Some(4), Some(5))
    );

    let run = check_in(&dir, &["p.c", "--format", "short"]);
    assert_eq!(run.exit, 3);
    assert_eq!(
        run.stdout,
        "p.c:4:5: warning: parse not analysed: syntax error at p.c:4:29: unexpected `;`; its \
         body is not analysed [unanalysed/parse-error]\n"
    );

    let run = check_in(&dir, &["p.c", "--format", "sarif"]);
    assert_eq!(run.exit, 3);
    let sarif = run.json();
    let the_run = &sarif["runs"][0];
    assert_eq!(the_run["properties"]["verdict"], "incomplete");
    let results = the_run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{sarif:#}");
    assert_eq!(results[0]["ruleId"], "unanalysed/parse-error");
    assert_eq!(results[0]["level"], "warning");
    let region = &results[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startLine"], &region["startColumn"]),
        (&4.into(), &5.into())
    );
    let rules = the_run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules
        .iter()
        .filter(|r| r["id"].as_str().unwrap().starts_with("unanalysed/"))
        .all(|r| r["defaultConfiguration"]["level"] == "warning"));

    let run = check_in(&dir, &["p.c", "--format", "dot"]);
    assert_eq!(run.exit, 3);
    assert!(
        run.stdout.contains(
            "label=\"locksmith: 1 function was not analysed, so the result is incomplete\""
        ),
        "{}",
        run.stdout
    );

    let run = check_in(&dir, &["p.c", "--format", "html", "-o", "report"]);
    assert_eq!(run.exit, 3);
    let verdict = "no race found in what was analysed; 1 function was not analysed, so the \
                   result is incomplete";
    assert!(run
        .stdout
        .starts_with(&format!("locksmith: {verdict}; report written to")));
    let index = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
    assert!(index.contains(&format!("<p class=\"verdict\">{verdict}</p>")));
}

/// `--allow-incomplete` makes the exit status of an incomplete run 0; its verdict stays.
#[test]
fn allow_incomplete_exits_0_and_keeps_the_verdict() {
    let dir = program("allow", &[("p.c", &locked(true))]);
    let run = check_in(&dir, &["p.c", "--allow-incomplete"]);
    assert_eq!(run.exit, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(last_line(&run), INCOMPLETE_1);
    let run = check_in(&dir, &["p.c", "--allow-incomplete", "--format", "json"]);
    assert_eq!(run.exit, 0);
    assert_eq!(run.json()["verdict"], "incomplete");
    // It does not hide races.
    let dir = program("allow-races", &[("p.c", &racy(true))]);
    let run = check_in(&dir, &["p.c", "--allow-incomplete"]);
    assert_eq!(run.exit, 1);
}

/// Races and a function not analysed: exit 1, verdict `races`, and the summary says what was
/// missed.
#[test]
fn races_and_an_incomplete_run_exit_1_and_say_both() {
    let dir = program("races-incomplete", &[("p.c", &racy(true))]);
    let run = check_in(&dir, &["p.c"]);
    assert_eq!(run.exit, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        last_line(&run),
        "locksmith: 1 possible data race; 1 function was not analysed, so the result is incomplete"
    );
    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.json()["verdict"], "races");
}

/// A function not analysed that nothing analysed calls or takes the address of cannot run: the
/// run is race-free, and the function is still listed.
#[test]
fn a_function_not_analysed_that_cannot_run_changes_nothing() {
    let dir = program("unreachable", &[("p.c", &locked(false))]);
    let run = check_in(&dir, &["p.c"]);
    assert_eq!(run.exit, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(last_line(&run), "locksmith: 0 possible data races");
    assert!(run.stdout.contains(
        "  parse at p.c:4: syntax error at p.c:4:29: unexpected `;`; its body is not analysed \
         (not counted: it cannot run)\n"
    ));
    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.json()["verdict"], "race-free");
    assert_eq!(run.json()["unanalysed"][0]["may_run"], false);
    let run = check_in(&dir, &["p.c", "--format", "short"]);
    assert!(
        run.stdout
            .starts_with("p.c:4:5: note: parse not analysed: "),
        "{}",
        run.stdout
    );
    let run = check_in(&dir, &["p.c", "--format", "sarif"]);
    assert_eq!(run.json()["runs"][0]["results"][0]["level"], "note");
    assert_eq!(run.json()["runs"][0]["properties"]["verdict"], "race-free");
}

/// A thread's start routine, a callback stored in a table and a function called only from a
/// function whose body is unknown may all run; the count is in the plural.
#[test]
fn functions_reached_through_pointers_and_unknown_code_may_run() {
    let text = "#include <pthread.h>\n\
                int shared;\n\
                void *start(void *arg) { shared = 1 +; return 0; }\n\
                static int hook(int x) { return x +; }\n\
                int (*table[])(int) = { hook };\n\
                int helper(void) { return 2 *; }\n\
                int caller(void) { return helper() +; }\n\
                int main(void) {\n\
                \x20   pthread_t t;\n\
                \x20   pthread_create(&t, 0, start, 0);\n\
                \x20   pthread_join(t, 0);\n\
                \x20   return caller();\n\
                }\n";
    let dir = program("pointers", &[("p.c", text)]);
    let run = check_in(&dir, &["p.c", "--format", "json"]);
    assert_eq!(run.exit, 3, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    let listed: Vec<(&str, bool)> = json["unanalysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["function"].as_str().unwrap(),
                u["may_run"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("start", true),
            ("hook", true),
            ("helper", true),
            ("caller", true)
        ]
    );
    let run = check_in(&dir, &["p.c"]);
    assert_eq!(
        last_line(&run),
        "locksmith: no race found in what was analysed; 4 functions were not analysed, so the \
         result is incomplete"
    );
}

/// Under `--library` a function other files could call is an entry point: not analysed, it
/// makes the check incomplete; a `static` one nothing calls does not.
#[test]
fn library_entry_points_not_analysed_may_run() {
    let text = "int counter;\n\
                static int unused(void) { return 2 +; }\n\
                int api(void) { return 1 +; }\n\
                int get(void) { return 0; }\n";
    let dir = program("library", &[("lib.c", text)]);
    let run = check_in(&dir, &["lib.c", "--library", "--format", "json"]);
    assert_eq!(run.exit, 3, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["verdict"], "incomplete");
    let may_run: Vec<bool> = json["unanalysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["may_run"].as_bool().unwrap())
        .collect();
    assert_eq!(may_run, [false, true]);
}

/// A run that could not be done prints nothing that looks like a result, in any format: the
/// error line on stderr, under JSON only the error object, and under SARIF a document without
/// results whose invocation did not succeed.
#[test]
fn an_error_run_prints_no_result() {
    let dir = program(
        "error",
        &[(
            "lib.c",
            "int f(void) { return 1 +; }\nint g(void) { return 0; }\n",
        )],
    );
    for format in ["text", "json", "short", "sarif", "dot"] {
        let run = check_in(&dir, &["lib.c", "--format", format]);
        assert_eq!(run.exit, 2, "{format}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.starts_with("locksmith: error: no `main`"),
            "{format}: {}",
            run.stderr
        );
        if format == "json" {
            let json = run.json();
            assert_eq!(json["verdict"], "error");
            let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["error", "verdict"]);
        } else if format == "sarif" {
            // A pipeline uploading the file gets a document saying the run failed, not an
            // empty file.
            let sarif = run.json();
            let the_run = &sarif["runs"][0];
            assert_eq!(the_run["results"], serde_json::json!([]));
            let invocation = &the_run["invocations"][0];
            assert_eq!(invocation["executionSuccessful"], false);
            let error = invocation["toolExecutionNotifications"][0]["message"]["text"]
                .as_str()
                .unwrap();
            assert!(error.starts_with("no `main`"), "{error}");
        } else {
            assert_eq!(run.stdout, "", "{format}");
        }
    }
    let run = check_in(&dir, &["lib.c", "--format", "html", "-o", "report"]);
    assert_eq!(run.exit, 2);
    assert_eq!(run.stdout, "");
    assert!(!dir.join("report").exists());
    // A missing file: the same.
    let run = check_in(&dir, &["missing.c"]);
    assert_eq!((run.exit, run.stdout.as_str()), (2, ""));
}

/// A run that reaches `--time-limit` or `--memory-limit` stops and says where, in every
/// format: here before any location is checked (1 ms is over before the parse starts; the
/// process holds more than 1 KiB at once), so the racy program's race is not found and the
/// verdict is incomplete. Without limits the same program has its race.
#[test]
fn a_run_out_of_budget_stops_and_says_where() {
    let dir = program("budget", &[("p.c", &racy(false))]);
    let stopped = "the time limit of 0.001 s was reached in parse: no location was checked \
                   for races";
    let run = check_in(&dir, &["p.c", "--time-limit", "0.001"]);
    assert_eq!(run.exit, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        last_line(&run),
        format!(
            "locksmith: no race found in what was analysed; {stopped}, so the result is \
             incomplete"
        )
    );
    let run = check_in(&dir, &["p.c", "--time-limit", "1ms", "--format", "short"]);
    assert_eq!(
        run.exit, 2,
        "a unit of time locksmith does not know is a usage error"
    );
    assert!(
        run.stderr.contains("`ms` is not a unit of time"),
        "{}",
        run.stderr
    );
    let run = check_in(&dir, &["p.c", "--time-limit", "0.001", "--format", "short"]);
    assert_eq!(
        run.stdout,
        format!("locksmith: warning: {stopped} [stopped]\n")
    );
    let run = check_in(&dir, &["p.c", "--time-limit", "0.001", "--format", "sarif"]);
    let properties = &run.json()["runs"][0]["properties"];
    assert_eq!(properties["verdict"], "incomplete");
    assert_eq!(properties["stopped"], stopped);

    let run = check_in(&dir, &["p.c", "--memory-limit", "1K", "--format", "json"]);
    assert_eq!(run.exit, 3, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["verdict"], "incomplete");
    assert_eq!(json["warnings"], serde_json::json!([]));
    assert_eq!(
        json["stopped"],
        serde_json::json!({
            "limit": "memory", "amount": "1 KiB", "phase": "parse", "races_checked": "none"
        })
    );
    let run = check_in(&dir, &["p.c", "--memory-limit", "1K", "--allow-incomplete"]);
    assert_eq!(run.exit, 0);

    let run = check_in(
        &dir,
        &[
            "p.c",
            "--time-limit",
            "10m",
            "--memory-limit",
            "64G",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.exit, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.json()["verdict"], "races");
    assert!(run.json().get("stopped").is_none());
}
