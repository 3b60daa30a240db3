//! `locksmith check` on a build: compilation databases (`-p`, `--compile-commands`) in both entry
//! forms, each translation unit with its own flags and working directory, selecting files of a
//! build, bad databases, response files (`@file`), and a real CMake project (skipped when
//! `cmake` is not installed).
//!
//! Every program here is one whose verdict depends on the flags: a unit preprocessed with
//! another unit's flags, or with none, gives other warnings or does not preprocess at all.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

mod support;

use support::{check_in, Run};

/// The sorted location names of the warnings of a `--format json` run that checked something.
fn warnings(run: &Run) -> Vec<String> {
    assert!(
        run.exit == 0 || run.exit == 1,
        "exit {}: {}{}",
        run.exit,
        run.stdout,
        run.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut names: Vec<String> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["location"]["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

/// A fresh directory of this test process, one per test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("locksmith-cli-build-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A program of three units whose locking is chosen by `GUARD`, found through an include
/// directory with a space in its name relative to the build directory: `safe.c` must be built
/// with `GUARD=1` and `racy.c` with `GUARD=0`. `main.c` needs `config.h` of the build directory
/// (`-include`, found in the working directory) and a string macro.
fn guarded_project(root: &Path) {
    write(
        &root.join("include dir/guard.h"),
        "#include <pthread.h>\n\
         extern pthread_mutex_t big_lock;\n\
         #if GUARD\n\
         #define LOCK() pthread_mutex_lock(&big_lock)\n\
         #define UNLOCK() pthread_mutex_unlock(&big_lock)\n\
         #else\n\
         #define LOCK() ((void)0)\n\
         #define UNLOCK() ((void)0)\n\
         #endif\n",
    );
    for name in ["safe", "racy"] {
        write(
            &root.join(format!("src/{name}.c")),
            &format!(
                "#include \"guard.h\"\n\
                 long {name}_count;\n\
                 void *{name}_worker(void *arg) {{\n\
                 \x20   LOCK();\n\
                 \x20   {name}_count++;\n\
                 \x20   UNLOCK();\n\
                 \x20   return arg;\n\
                 }}\n"
            ),
        );
    }
    write(
        &root.join("src/main.c"),
        "#include <pthread.h>\n\
         pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;\n\
         const char *banner = BANNER;\n\
         void *safe_worker(void *);\n\
         void *racy_worker(void *);\n\
         int main(void) {\n\
         \x20   pthread_t t[2 * NWORKERS];\n\
         \x20   for (int i = 0; i < NWORKERS; i++) {\n\
         \x20       pthread_create(&t[2 * i], 0, safe_worker, 0);\n\
         \x20       pthread_create(&t[2 * i + 1], 0, racy_worker, 0);\n\
         \x20   }\n\
         \x20   for (int i = 0; i < 2 * NWORKERS; i++)\n\
         \x20       pthread_join(t[i], 0);\n\
         \x20   return 0;\n\
         }\n",
    );
    write(&root.join("build/config.h"), "#define NWORKERS 2\n");
    // Not C: a database entry locksmith must skip (it would not parse).
    write(
        &root.join("src/extra.cpp"),
        "namespace x { template <class T> T id(T t) { return t; } }\n",
    );
}

/// The entries of [`guarded_project`] as a build would list them, with `arguments`; `safe.c` is
/// listed twice, as two targets with the same flags would.
fn guarded_entries_arguments(root: &Path) -> serde_json::Value {
    let build = root.join("build");
    let src = root.join("src");
    let build = build.to_str().unwrap();
    json!([
        {"directory": build, "file": "../src/main.c", "output": "main.o",
         "arguments": ["cc", "-include", "config.h", "-DBANNER=\"hello world\"", "-O2",
                       "-Wall", "-o", "main.o", "-c", "../src/main.c"]},
        {"directory": build, "file": src.join("safe.c").to_str().unwrap(),
         "arguments": ["cc", "-DGUARD=1", "-I../include dir", "-c", "../src/safe.c"]},
        {"directory": build, "file": "../src/racy.c",
         "arguments": ["cc", "-D", "GUARD=0", "-I", "../include dir", "-c", "../src/racy.c"]},
        {"directory": build, "file": "../src/extra.cpp",
         "arguments": ["c++", "-c", "../src/extra.cpp"]},
        {"directory": build, "file": "./../src/safe.c",
         "arguments": ["cc", "-I../include dir", "-DGUARD=1", "-c", "../src/safe.c"]},
    ])
}

/// The same entries with `command` strings, in a database of another directory whose entries
/// name the build directory relative to it.
fn guarded_entries_command(root: &Path) -> serde_json::Value {
    let racy = root.join("src/racy.c");
    json!([
        {"directory": "../build", "file": "../src/main.c",
         "command": r#"cc -include config.h -DBANNER=\"hello\ world\" -O2 -c ../src/main.c"#},
        {"directory": "../build", "file": "../src/safe.c",
         "command": "cc -DGUARD=1 -I'../include dir' -c ../src/safe.c -o safe.o"},
        {"directory": "../build", "file": racy.to_str().unwrap(),
         "command": format!("cc -D GUARD=0 \"-I../include dir\" -c '{}'", racy.display())},
    ])
}

fn write_database(path: &Path, entries: &serde_json::Value) {
    write(path, &serde_json::to_string_pretty(entries).unwrap());
}

#[test]
fn each_unit_is_checked_with_its_own_flags() {
    let root = temp_dir("own-flags");
    guarded_project(&root);
    write_database(
        &root.join("build/compile_commands.json"),
        &guarded_entries_arguments(&root),
    );
    write_database(
        &root.join("other/commands.json"),
        &guarded_entries_command(&root),
    );
    // Only the unit built with GUARD=0 races, in both forms of the database.
    let arguments = check_in(&root, &["--format", "json", "-p", "build"]);
    assert_eq!(warnings(&arguments), ["racy_count"], "{}", arguments.stderr);
    let command = check_in(
        &root,
        &[
            "--format",
            "json",
            "--compile-commands",
            "other/commands.json",
        ],
    );
    assert_eq!(warnings(&command), ["racy_count"], "{}", command.stderr);
    // `-p` also takes the database itself. Its absolute paths are named relative to the
    // current directory when they are under it, as compilers name files, and as given when not.
    let text = check_in(&root, &["-p", "build/compile_commands.json"]);
    assert_eq!(text.exit, 1);
    assert!(
        text.stdout.contains(" --> src/racy.c:5:"),
        "{}",
        text.stdout
    );
    let outside = check_in(&root.join("build"), &["-p", "."]);
    let racy = root.join("src/racy.c").display().to_string();
    assert!(
        outside.stdout.contains(&format!(" --> {racy}:5:")),
        "{}",
        outside.stdout
    );
    // The same files with one set of global flags: both units are guarded.
    let global = check_in(
        &root,
        &[
            "--format",
            "json",
            "-DGUARD=1",
            "-DBANNER=\"b\"",
            "-I",
            "include dir",
            "--include",
            "build/config.h",
            "src/main.c",
            "src/safe.c",
            "src/racy.c",
        ],
    );
    assert_eq!(warnings(&global), Vec::<String>::new());
    // Global flags given with a database come after each unit's: this one overrides racy.c's.
    let overridden = check_in(&root, &["--format", "json", "-p", "build", "-DGUARD=1"]);
    assert_eq!(warnings(&overridden), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn verbose_names_what_the_database_left_out() {
    let root = temp_dir("verbose");
    guarded_project(&root);
    // racy.c built a second time for a shared library (libtool's `-fPIC -DPIC`, CMake's
    // `-D<target>_EXPORTS`) is the same unit.
    let mut entries = guarded_entries_arguments(&root);
    for codegen in ["-DPIC", "-Dracy_EXPORTS"] {
        entries.as_array_mut().unwrap().push(json!(
            {"directory": root.join("build").to_str().unwrap(), "file": "../src/racy.c",
             "arguments": ["cc", "-fPIC", codegen, "-DGUARD=0", "-I../include dir", "-c",
                           "../src/racy.c"]}
        ));
    }
    write_database(&root.join("build/compile_commands.json"), &entries);
    let quiet = check_in(&root, &["--format", "short", "-p", "build"]);
    assert_eq!(quiet.exit, 1);
    assert_eq!(quiet.stderr, "");
    let verbose = check_in(&root, &["--format", "short", "-p", "build", "--verbose"]);
    assert_eq!(verbose.stdout, quiet.stdout, "notes never go to stdout");
    let notes: Vec<&str> = verbose.stderr.lines().collect();
    let has = |what: &str| notes.iter().any(|n| n.contains(what));
    assert!(
        notes.iter().all(|n| n.starts_with("locksmith: note: ")),
        "{notes:#?}"
    );
    assert!(has("3 C translation units from 7 entries"), "{notes:#?}");
    let codegen = notes
        .iter()
        .filter(|n| n.contains("racy.c is listed again with flags that differ only in how code"))
        .count();
    assert_eq!(codegen, 2, "{notes:#?}");
    for flag in ["-O2", "-Wall", "-o", "-c", "-fPIC"] {
        let once = notes
            .iter()
            .filter(|n| n.contains(&format!("compiler flag `{flag}`")))
            .count();
        assert_eq!(once, 1, "{flag}: {notes:#?}");
    }
    assert!(has("extra.cpp: not a C file"), "{notes:#?}");
    assert!(
        has("safe.c is listed again with the same flags"),
        "{notes:#?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A file built twice with flags that change its code (two targets), and two programs of one
/// build: every function is defined twice, which is an error naming both definitions, not a
/// check of whichever came first. A file named twice on the command line is one unit.
#[test]
fn an_external_function_defined_twice_is_an_error() {
    let root = temp_dir("defined-twice");
    guarded_project(&root);
    let mut entries = guarded_entries_arguments(&root);
    entries.as_array_mut().unwrap().push(json!(
        {"directory": root.join("build").to_str().unwrap(), "file": "../src/racy.c",
         "arguments": ["cc", "-DGUARD=1", "-I../include dir", "-c", "../src/racy.c"]}
    ));
    write_database(&root.join("build/compile_commands.json"), &entries);
    let racy = root.join("src/racy.c").display().to_string();
    let run = check_in(&root, &["--format", "json", "-p", "build"]);
    assert_eq!(run.exit, 2, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["error"]["code"], "error/link");
    let message = report["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "`racy_worker` is defined at {racy}:3:7 and again at {racy}:3:7"
        )),
        "{message}"
    );
    two_programs(&root);
    let both = check_in(&root, &["-p", "build", "server/main.c", "client/main.c"]);
    assert_eq!(both.exit, 2);
    assert!(
        both.stderr.starts_with(&format!(
            "locksmith: error: `main` is defined at {}:4:5 and again at {}:4:5",
            root.join("server/main.c").display(),
            root.join("client/main.c").display()
        )),
        "{}",
        both.stderr
    );
    let twice = check_in(
        &root,
        &[
            "--format",
            "short",
            "--verbose",
            "server/main.c",
            "./server/main.c",
        ],
    );
    assert_eq!(twice.exit, 1, "{}", twice.stderr);
    assert!(twice
        .stderr
        .contains("./server/main.c is named again: checked once"));
    let _ = std::fs::remove_dir_all(&root);
}

/// Two programs of one build, each with its own `main`.
fn two_programs(root: &Path) {
    write(
        &root.join("server/main.c"),
        "#include <pthread.h>\n\
         long served;\n\
         void *serve(void *arg) { served++; return arg; }\n\
         int main(void) {\n\
         \x20   pthread_t a, b;\n\
         \x20   pthread_create(&a, 0, serve, 0);\n\
         \x20   pthread_create(&b, 0, serve, 0);\n\
         \x20   return 0;\n\
         }\n",
    );
    write(
        &root.join("client/main.c"),
        "#include <pthread.h>\n\
         long sent;\n\
         void *send_one(void *arg) { sent++; return arg; }\n\
         int main(void) {\n\
         \x20   pthread_t a;\n\
         \x20   pthread_create(&a, 0, send_one, 0);\n\
         \x20   pthread_join(a, 0);\n\
         \x20   return (int)sent;\n\
         }\n",
    );
    let dir = root.to_str().unwrap();
    write_database(
        &root.join("build/compile_commands.json"),
        &json!([
            {"directory": dir, "file": "server/main.c", "command": "cc -c server/main.c"},
            {"directory": dir, "file": "client/main.c", "command": "cc -c client/main.c"},
        ]),
    );
}

#[test]
fn files_select_units_of_the_build() {
    let root = temp_dir("select");
    two_programs(&root);
    let server = root.join("server/main.c");
    for filter in [
        "server/main.c",
        "./server/../server/main.c",
        "server",
        "server/*.c",
    ] {
        let run = check_in(&root, &["--format", "json", "-p", "build", filter]);
        assert_eq!(warnings(&run), ["served"], "{filter}");
    }
    let absolute = check_in(
        &root,
        &["--format", "json", "-p", "build", server.to_str().unwrap()],
    );
    assert_eq!(warnings(&absolute), ["served"]);
    for filter in ["client/main.c", "client", "c*/main.c"] {
        let run = check_in(&root, &["--format", "json", "-p", "build", filter]);
        assert_eq!(run.exit, 0, "{filter}: {}{}", run.stdout, run.stderr);
        assert_eq!(warnings(&run), Vec::<String>::new(), "{filter}");
    }
    // A name that selects nothing is an error, not an empty check.
    let none = check_in(&root, &["-p", "build", "server/main.c", "nowhere.c"]);
    assert_eq!(none.exit, 2);
    assert_eq!(
        none.stderr,
        "locksmith: error: nowhere.c: no C file of build/compile_commands.json is selected by it\n"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_missing_or_malformed_database_is_an_error() {
    let root = temp_dir("bad");
    std::fs::create_dir_all(root.join("empty-build")).unwrap();
    let missing = check_in(&root, &["-p", "empty-build"]);
    assert_eq!(missing.exit, 2);
    assert_eq!(missing.stdout, "");
    assert_eq!(missing.stderr.lines().count(), 1, "{}", missing.stderr);
    assert!(
        missing.stderr.starts_with(
            "locksmith: error: empty-build/compile_commands.json: no such file: the build has no \
             compilation database"
        ),
        "{}",
        missing.stderr
    );
    let json = check_in(&root, &["--format", "json", "-p", "empty-build"]);
    assert_eq!(json.exit, 2);
    let error: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(error["error"]["code"], "error/compile-commands");
    assert_eq!(error["verdict"], "error");
    let cases: &[(&str, &str)] = &[
        (
            "[\n  {\"directory\": \"/\", \"file\": \"a.c\",\n   \"command\": \"cc a.c\",}\n]",
            "bad.json:3:24: not a compilation database: trailing comma",
        ),
        (
            "{\"directory\": \"/\"}",
            "bad.json:1:1: not a compilation database: invalid type: map, expected a sequence",
        ),
        (
            "[{\"directory\": \"/\", \"command\": \"cc a.c\"}]",
            "bad.json:1:40: not a compilation database: missing field `file`",
        ),
        (
            "[{\"directory\": \"/\", \"file\": \"a.c\"}]",
            "bad.json: entry 1 (a.c): it has neither `arguments` nor `command`",
        ),
        (
            "[{\"directory\": \"/\", \"file\": \"a.c\", \"command\": \"cc 'a.c\"}]",
            "bad.json: entry 1 (a.c): `command`: the quote ' at character 4 is never closed",
        ),
        (
            "[{\"directory\": \"/\", \"file\": \"a.c\", \"arguments\": [\"cc\", \"-I\"]}]",
            "bad.json: entry 1 (a.c): `-I` at the end of the command has no value",
        ),
        (
            "[{\"directory\": \"/\", \"file\": \"a.cc\", \"command\": \"c++ a.cc\"}]",
            "bad.json: no C file to check in its 1 entries",
        ),
    ];
    for (text, message) in cases {
        write(&root.join("bad.json"), text);
        let run = check_in(&root, &["--compile-commands", "bad.json"]);
        assert_eq!(run.exit, 2, "{text}");
        assert_eq!(
            run.stderr,
            format!("locksmith: error: {message}\n"),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn response_files_hold_arguments() {
    let root = temp_dir("response");
    guarded_project(&root);
    write(
        &root.join("args.rsp"),
        "--format json\n-DGUARD=0 '-DBANNER=\"b\"' -I 'include dir'\n\
         --include build/config.h src/main.c @more.rsp\n",
    );
    write(&root.join("more.rsp"), "src/safe.c\nsrc/racy.c\n");
    let run = check_in(&root, &["@args.rsp"]);
    assert_eq!(warnings(&run), ["racy_count", "safe_count"]);
    let missing = check_in(&root, &["@none.rsp"]);
    assert_eq!(missing.exit, 2);
    assert_eq!(
        missing.stderr,
        "locksmith: error: @none.rsp: no such response file\n"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A CMake project of two C files with pthreads and a library built shared and static; the
/// race is only there when the build's definition is, and its header only through the build's
/// include directory. Two units define `struct window` differently.
#[test]
fn a_cmake_build_is_checked_with_p() {
    if Command::new("cmake").arg("--version").output().is_err() {
        support::skip(
            "cli_build::a_cmake_build_is_checked_with_p",
            "cmake is not installed",
        );
        return;
    }
    let root = temp_dir("cmake");
    write(
        &root.join("src/CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.10)\n\
         project(counter C)\n\
         set(THREADS_PREFER_PTHREAD_FLAG ON)\n\
         find_package(Threads REQUIRED)\n\
         add_library(tally_shared SHARED tally.c)\n\
         add_library(tally_static STATIC tally.c)\n\
         add_executable(counter main.c worker.c)\n\
         target_include_directories(counter PRIVATE include)\n\
         target_compile_definitions(counter PRIVATE STATS_ENABLED=1)\n\
         target_link_libraries(counter tally_static Threads::Threads)\n",
    );
    // tally.c is compiled twice (for the shared library with `-fPIC -Dtally_shared_EXPORTS`):
    // one unit. It defines its own `struct window` (C11 6.2.1: a tag belongs to its unit).
    write(
        &root.join("src/tally.c"),
        "struct window { long evicted; };\n\
         static struct window w;\n\
         long tally(void) { return ++w.evicted; }\n",
    );
    write(
        &root.join("src/include/stats.h"),
        "extern long hits;\nvoid *worker(void *arg);\nlong tally(void);\n",
    );
    write(
        &root.join("src/worker.c"),
        "#include <pthread.h>\n\
         #include \"stats.h\"\n\
         static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n\
         struct window { int age; };\n\
         static struct window seen;\n\
         long hits;\n\
         long guarded;\n\
         void *worker(void *arg) {\n\
         #if STATS_ENABLED\n\
         \x20   hits++;\n\
         #endif\n\
         \x20   pthread_mutex_lock(&lock);\n\
         \x20   guarded++;\n\
         \x20   seen.age++;\n\
         \x20   pthread_mutex_unlock(&lock);\n\
         \x20   return arg;\n\
         }\n",
    );
    write(
        &root.join("src/main.c"),
        "#include <pthread.h>\n\
         #include <stddef.h>\n\
         #include \"stats.h\"\n\
         int main(void) {\n\
         \x20   pthread_t a, b;\n\
         \x20   pthread_create(&a, NULL, worker, NULL);\n\
         \x20   pthread_create(&b, NULL, worker, NULL);\n\
         \x20   pthread_join(a, NULL);\n\
         \x20   pthread_join(b, NULL);\n\
         \x20   return (int)(hits + tally());\n\
         }\n",
    );
    let configured = Command::new("cmake")
        .current_dir(&root)
        .args([
            "-S",
            "src",
            "-B",
            "build",
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
        ])
        .output()
        .expect("cmake runs");
    assert!(
        configured.status.success(),
        "cmake failed: {}",
        String::from_utf8_lossy(&configured.stderr)
    );
    let run = check_in(&root, &["--format", "json", "-p", "build"]);
    assert_eq!(warnings(&run), ["hits"], "{}", run.stderr);
    let verbose = check_in(&root, &["--format", "short", "-p", "build", "--verbose"]);
    assert!(
        verbose
            .stderr
            .contains("3 C translation units from 4 entries")
            && verbose
                .stderr
                .contains("tally.c is listed again with flags that differ only"),
        "{}",
        verbose.stderr
    );
    let _ = std::fs::remove_dir_all(&root);
}
