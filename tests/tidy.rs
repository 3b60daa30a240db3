//! Checks that keep the architecture of ARCHITECTURE.md true, after rust-analyzer's `tidy`: the
//! solver depends on no front end, library crates never print, every module says what it owns in
//! a `//!` doc, every document a file refers to exists, no library function is named outside the
//! library model, no function grows past the length budget (the allowlist of longer ones may
//! only shrink), no write's result is dropped (`let _ = write!(…)`), no `#[path = …]` attribute
//! reaches for a module (shared code lives in a crate), no `static` holds mutable state outside
//! an allowlist that may only shrink (a run's state is a value its caller passes in), and
//! `locksmith` depends on the developer tools (`xtask`) for its tests only.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir`, sorted, as paths relative to the repository root.
fn rust_files(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The library crates' sources (the command-line crate `src/` may print; they may not).
const LIBRARY_SOURCES: [&str; 3] = ["solver/src", "lambda-core/src", "c-frontend/src"];

/// Every crate's sources.
const ALL_SOURCES: [&str; 4] = ["solver/src", "lambda-core/src", "c-frontend/src", "src"];

/// Every Rust file of the repository: the crates' sources, their tests and benches, the
/// developer tools (`xtask/`), and the build script.
fn all_rust_files() -> Vec<PathBuf> {
    ALL_SOURCES
        .iter()
        .chain(&["tests", "benches", "examples", "xtask/src"])
        .chain(&["solver/tests", "lambda-core/tests", "c-frontend/tests"])
        .flat_map(|dir| rust_files(dir))
        .chain([PathBuf::from("build.rs")])
        .collect()
}

/// The dependencies a crate's manifest lists in its `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    dependencies_in(&read(Path::new(manifest)))
}

/// The dependencies of a manifest's text, in every form Cargo takes: `name = "1"`, `name = { … }`,
/// `name.workspace = true` (and other dotted keys) and `[dependencies.name]` tables.
fn dependencies_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(table) = line.strip_prefix('[') {
            let table = table.trim_end_matches(']').trim();
            inside = table == "dependencies";
            if let Some(name) = table.strip_prefix("dependencies.") {
                out.push(name.trim().to_string());
            }
            continue;
        }
        if inside {
            if let Some((key, _)) = line.split_once('=') {
                let name = key.split('.').next().unwrap_or(key);
                out.push(name.trim().to_string());
            }
        }
    }
    out
}

/// The dependency rule sees every form a dependency can take, so that it can fail.
#[test]
fn dependencies_are_read_in_every_form() {
    let text = "[package]\nname = \"x\"\n\n[dependencies]\nsolver.workspace = true\n\
                lang-c = { version = \"0.15\" }\nena = \"0.14\"\n\n[dependencies.c-frontend]\n\
                path = \"../c-frontend\"\n\n[dev-dependencies]\nproptest = \"1\"\n";
    assert_eq!(
        dependencies_in(text),
        ["solver", "lang-c", "ena", "c-frontend"].map(String::from)
    );
}

#[test]
fn the_solver_depends_on_no_front_end() {
    let deps = dependencies("solver/Cargo.toml");
    for front in ["lambda-core", "c-frontend", "lang-c"] {
        assert!(
            !deps.iter().any(|d| d == front),
            "solver must not depend on {front}"
        );
    }
    assert!(!dependencies("lambda-core/Cargo.toml")
        .iter()
        .any(|d| d == "c-frontend" || d == "lang-c"));
    assert!(!dependencies("c-frontend/Cargo.toml")
        .iter()
        .any(|d| d == "lambda-core"));
}

/// The developer tools are a dev-dependency of `locksmith` only: the shipped binary never
/// carries them.
#[test]
fn locksmith_depends_on_the_developer_tools_for_its_tests_only() {
    for manifest in [
        "Cargo.toml",
        "solver/Cargo.toml",
        "lambda-core/Cargo.toml",
        "c-frontend/Cargo.toml",
    ] {
        assert!(
            !dependencies(manifest).iter().any(|d| d == "xtask"),
            "{manifest}: xtask may only be a dev-dependency"
        );
    }
}

/// The thread analysis (`solver/src/threads/`) is a unit of its own, used by the C path only:
/// the rest of the solver never names it (but for `lib.rs` declaring it), and neither does the
/// λ▷ checker. Which of `files` (path, text) name it where they must not.
fn thread_analysis_users(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, _)| {
            let in_solver = path.starts_with("solver/src/")
                && !path.starts_with("solver/src/threads/")
                && path != "solver/src/lib.rs";
            in_solver || path.starts_with("lambda-core/")
        })
        .filter(|(_, text)| code_only(text).contains("threads::"))
        .map(|(path, _)| path.clone())
        .collect()
}

#[test]
fn the_thread_analysis_is_used_by_the_c_path_only() {
    let files: Vec<(String, String)> = ["solver/src", "lambda-core/src"]
        .into_iter()
        .flat_map(rust_files)
        .map(|f| {
            let rel = f
                .strip_prefix(root())
                .unwrap_or(&f)
                .to_string_lossy()
                .replace('\\', "/");
            (rel, read(&f))
        })
        .collect();
    assert!(files.iter().any(|(p, _)| p == "solver/src/lib.rs"));
    let users = thread_analysis_users(&files);
    assert!(users.is_empty(), "outside the C path: {users:?}");
    // The rule can fail: a solver module or the λ▷ checker naming it is found; a comment is not.
    let violation = |path: &str, text: &str| vec![(path.to_string(), text.to_string())];
    assert_eq!(
        thread_analysis_users(&violation(
            "solver/src/solve.rs",
            "use crate::threads::mhp;"
        )),
        ["solver/src/solve.rs"]
    );
    assert_eq!(
        thread_analysis_users(&violation("lambda-core/src/x.rs", "solver::threads::Mhp")),
        ["lambda-core/src/x.rs"]
    );
    assert!(thread_analysis_users(&violation("solver/src/solve.rs", "// threads")).is_empty());
    assert!(thread_analysis_users(&violation("solver/src/threads/x.rs", "threads::")).is_empty());
}

/// The code of a file with comments and the contents of string and character literals blanked
/// out (each replaced by spaces, newlines kept), so that searches see only code.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, x: &[u8]| {
        out.extend(x.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut k = 0;
            loop {
                if k + 1 >= rest.len() {
                    break rest.len();
                }
                if rest[k..].starts_with(b"/*") {
                    depth += 1;
                    k += 2;
                } else if rest[k..].starts_with(b"*/") {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break k;
                    }
                } else {
                    k += 1;
                }
            }
        } else if let Some(n) = raw_string_len(rest) {
            n
        } else if rest[0] == b'"' || rest.starts_with(b"b\"") {
            let start = if rest[0] == b'b' { 2 } else { 1 };
            let mut k = start;
            while k < rest.len() && rest[k] != b'"' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else if rest[0] == b'\'' && is_char_literal(rest) {
            let mut k = 1;
            while k < rest.len() && rest[k] != b'\'' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starting here.
fn raw_string_len(rest: &[u8]) -> Option<usize> {
    let start = if rest.starts_with(b"br") {
        2
    } else if rest.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = start + hashes + 1;
    let end = rest[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

/// Whether a `'` starts a character literal rather than a lifetime.
fn is_char_literal(rest: &[u8]) -> bool {
    match rest.get(1) {
        Some(b'\\') => true,
        // One character (of up to four UTF-8 bytes) and the closing quote.
        Some(_) => (2..6).any(|k| rest.get(k) == Some(&b'\'') && !rest[1..k].contains(&b'\n')),
        None => false,
    }
}

/// Whether `word` occurs in `code` as a whole identifier.
fn has_word(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[test]
fn library_crates_never_print() {
    let mut problems = Vec::new();
    for dir in LIBRARY_SOURCES {
        for file in rust_files(dir) {
            let code = code_only(&read(&file));
            for mac in ["println!", "eprintln!", "print!", "eprint!", "dbg!"] {
                if has_word(&code, mac.trim_end_matches('!')) && code.contains(&format!("{mac}(")) {
                    problems.push(format!("{}: {mac}", file.display()));
                }
            }
            for stream in ["stdout()", "stderr()"] {
                if code.contains(stream) {
                    problems.push(format!("{}: {stream}", file.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "printing in a library crate:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_module_starts_with_a_doc() {
    let mut problems = Vec::new();
    for file in all_rust_files() {
        let text = read(&file);
        if !text.trim_start().starts_with("//!") {
            problems.push(file.display().to_string());
        }
    }
    assert!(
        problems.is_empty(),
        "files without a `//!` doc:\n{}",
        problems.join("\n")
    );
}

/// The documents a text names: words ending in `.md`, but the paths of URLs (another site's).
fn documents_named(text: &str) -> Vec<String> {
    let is_path = |c: char| c.is_alphanumeric() || "_-./".contains(c);
    let mut out = Vec::new();
    for (at, _) in text.match_indices(".md") {
        if text[at + 3..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric())
        {
            continue;
        }
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_path(c))
            .last()
            .map_or(at, |(k, _)| k);
        let url = text[..start].ends_with(':') && text[start..].starts_with("//");
        if start < at && !url {
            out.push(text[start..at + 3].to_string());
        }
    }
    out
}

#[test]
fn every_document_referred_to_exists() {
    let mut files: Vec<PathBuf> = all_rust_files();
    for doc in [
        "README.md",
        "ARCHITECTURE.md",
        "tests/README.md",
        "docs/json.md",
        "docs/lambda.md",
        "docs/internals.md",
        "docs/rules.md",
    ] {
        files.push(PathBuf::from(doc));
    }
    let mut problems = Vec::new();
    for file in files {
        let dir = root().join(&file).parent().unwrap().to_path_buf();
        for name in documents_named(&read(&file)) {
            let name = name.trim_start_matches('/');
            if name.starts_with("../") && file.starts_with("tests/races") {
                continue;
            }
            if !root().join(name).exists() && !dir.join(name).exists() {
                problems.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "documents that do not exist:\n{}",
        problems.join("\n")
    );
}

/// References in a text to what a reader of the repository does not have: the issue tracker's
/// numbers (`issue 12`) and the design notes kept outside it (`DESIGN §5`).
fn foreign_references(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let issue = lower.match_indices("issue ").any(|(at, m)| {
            lower[at + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        });
        // Spelt in two parts, so that the check of documents named does not take it for one.
        let design_file = ["DESIGN", "md"].join(".");
        if issue || line.contains("DESIGN §") || line.contains(&design_file) {
            out.push(format!("{}: {}", k + 1, line.trim()));
        }
    }
    out
}

/// The sources name no issue number and no design document outside the repository: a reader
/// has neither.
#[test]
fn no_reference_to_what_readers_do_not_have() {
    let sample = "//! Barriers (issue 12, part 3).\n//! See DESIGN §5.\n//! An issue of order.\n";
    assert_eq!(foreign_references(sample).len(), 2, "the rule can fail");
    let mut problems = Vec::new();
    for file in all_rust_files() {
        if file.ends_with("tests/tidy.rs") {
            continue;
        }
        for found in foreign_references(&read(&file)) {
            problems.push(format!("{}:{found}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "references to issues or documents a reader does not have:\n{}",
        problems.join("\n")
    );
}

/// Literals that are a library function's name but are not a use of the library function.
const NAMES_ALLOWED: &[(&str, &str)] = &[
    // The IR's notation for a path that ends (a `Term::Exit`).
    ("c-frontend/src/ir/dump.rs", "exit"),
    // The kind of an access, in words.
    ("c-frontend/src/driver.rs", "read"),
    ("c-frontend/src/driver.rs", "write"),
    ("src/render/dot.rs", "read"),
    ("src/render/dot.rs", "write"),
    ("src/render/text.rs", "read"),
    ("src/render/text.rs", "write"),
    ("src/report/model.rs", "read"),
    ("src/report/model.rs", "write"),
    // A parser test: the name declared by `signal`'s declarator.
    ("c-frontend/src/syntax/parse.rs", "signal"),
    // A sample report naming the stub an access was made through.
    ("src/report/contract_tests.rs", "memcpy"),
];

#[test]
fn no_library_function_is_named_outside_the_model() {
    let model = c_frontend::model::Model::builtin();
    let mut problems = Vec::new();
    for dir in ALL_SOURCES {
        for file in rust_files(dir) {
            if file.starts_with("c-frontend/src/model") {
                continue;
            }
            let text = read(&file);
            for name in model.names() {
                let allowed = NAMES_ALLOWED
                    .iter()
                    .any(|&(f, n)| n == name && file == Path::new(f));
                if !allowed && text.contains(&format!("\"{name}\"")) {
                    problems.push(format!("{}: \"{name}\"", file.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "library names outside c-frontend/src/model (add a row to the model and ask it):\n{}",
        problems.join("\n")
    );
}

/// The most lines a function may have.
const FUNCTION_BUDGET: usize = 150;

/// Functions over the budget, with their length when they were listed (none now: a long `match`
/// with an arm per rule is split by groups of rules instead). This list may only shrink: a listed
/// function may not grow, and one that fits the budget again must leave the list.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

/// Every function of a file with its length in lines (from its `fn` line to its closing brace).
fn functions(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let b = code.as_bytes();
    let line_of = |at: usize| code[..at].bytes().filter(|&c| c == b'\n').count();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body starts at the first `{` before any `;` (a declaration without a body).
        let Some(open) = code[at..].find(['{', ';']).map(|k| at + k) else {
            continue;
        };
        if b[open] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut close = open;
        for (k, &c) in b[open..].iter().enumerate() {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((name, line_of(close) - line_of(at) + 1));
    }
    out
}

#[test]
fn functions_fit_the_length_budget() {
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for dir in ALL_SOURCES {
        for file in rust_files(dir) {
            for (name, lines) in functions(&read(&file)) {
                let listed = LONG_FUNCTIONS
                    .iter()
                    .find(|&&(f, n, _)| Path::new(f) == file && n == name);
                match listed {
                    Some(&(f, n, max)) => {
                        seen.push((f, n));
                        if lines > max {
                            problems.push(format!(
                                "{}: `{name}` grew to {lines} lines (listed at {max})",
                                file.display()
                            ));
                        } else if lines <= FUNCTION_BUDGET {
                            problems.push(format!(
                                "{}: `{name}` fits the budget now: remove it from LONG_FUNCTIONS",
                                file.display()
                            ));
                        }
                    }
                    None if lines > FUNCTION_BUDGET => problems.push(format!(
                        "{}: `{name}` has {lines} lines (budget {FUNCTION_BUDGET}): split it",
                        file.display()
                    )),
                    None => {}
                }
            }
        }
    }
    for &(f, n, _) in LONG_FUNCTIONS {
        if !seen.contains(&(f, n)) {
            problems.push(format!(
                "{f}: `{n}` no longer exists: remove it from LONG_FUNCTIONS"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The calls that write: the formatting macros and the methods of `fmt::Write` and `io::Write`.
const WRITES: [&str; 8] = [
    "write!(",
    "writeln!(",
    ".write_str(",
    ".write_char(",
    ".write_fmt(",
    ".write_all(",
    ".write(",
    ".flush(",
];

/// Where `code` calls a write: the index of each call's opening parenthesis (a macro only as a
/// whole word).
fn write_calls(code: &str) -> Vec<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for w in WRITES {
        for (at, _) in code.match_indices(w) {
            if w.ends_with("!(") && code[..at].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            out.push(at + w.len() - 1);
        }
    }
    out
}

/// The rest of the statement that starts `code`: up to its `;`, or to the end of the block it
/// is the last expression of.
fn statement(code: &str) -> &str {
    let mut depth = 0i32;
    for (k, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return &code[..k],
            ')' | ']' | '}' => depth -= 1,
            ';' if depth == 0 => return &code[..k],
            _ => {}
        }
    }
    code
}

/// The lines of `text` that drop what a write returns (`let _ = write!(…)`, `_ = out.write_str(…)`,
/// `let _ = match … { … => writeln!(…) }`, `out.flush().ok()`): a renderer returns its errors with
/// `?`, and text made in a `String`, which cannot refuse it, is appended with `push_str`.
fn dropped_writes(text: &str) -> Vec<usize> {
    let code = code_only(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices("_ =") {
        if code[at + 3..].starts_with('=') || code[..at].ends_with(is_ident) {
            continue;
        }
        let before = code[..at].trim_end();
        let bound = before
            .strip_suffix("let")
            .is_some_and(|b| !b.ends_with(is_ident));
        let assigned = before.is_empty() || before.ends_with([';', '{', '}']);
        if (bound || assigned) && !write_calls(statement(&code[at + 3..])).is_empty() {
            out.push(line_of(at));
        }
    }
    for open in write_calls(&code) {
        let close = open + statement(&code[open + 1..]).len() + 1;
        let after = code.get(close + 1..).unwrap_or("").trim_start();
        if let Some(rest) = after.strip_prefix(".ok()") {
            if rest.trim_start().starts_with(';') {
                out.push(line_of(open));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// No write's result is dropped, in any Rust file: an output that cannot be written is an error
/// the caller hears of.
#[test]
fn no_write_is_dropped() {
    let sample = "fn f(out: &mut String) {\n    let _ = write!(out, \"x\");\n    \
                  let _ = out.write_str(\"y\");\n    _ = writeln!(out);\n    let _ = match k {\n        \
                  0 => writeln!(out, \"a\"),\n        _ => writeln!(out, \"b\"),\n    };\n    \
                  out.flush().ok();\n    // let _ = write!(out, \"in a comment\");\n    \
                  let s = \"let _ = write!(out)\";\n    let _ = tx.send(1);\n    \
                  let _ = std::fs::remove_file(p);\n    writeln!(out, \"kept\")?;\n    \
                  let x_ = 1; let y = x_ == 1;\n}\n";
    assert_eq!(dropped_writes(sample), [2, 3, 4, 5, 9], "the rule can fail");
    let mut problems = Vec::new();
    for file in all_rust_files() {
        for line in dropped_writes(&read(&file)) {
            problems.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "a write whose result is dropped (return it with `?`, or append to a String with \
         `push_str`):\n{}",
        problems.join("\n")
    );
}

/// The lines of `text` with a `#[path = …]` attribute, which makes one file a module of several
/// crates: code two crates share belongs to a crate both depend on.
fn path_attributes(text: &str) -> Vec<usize> {
    let code = code_only(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[") {
        let rest = code[at + 2..].trim_start();
        if rest
            .strip_prefix("path")
            .is_some_and(|r| r.trim_start().starts_with('='))
        {
            out.push(line_of(at));
        }
    }
    out
}

/// No module is borrowed from another directory with `#[path = …]`.
#[test]
fn no_module_is_included_by_path() {
    let sample = "//! x\n#[path = \"../tests/support/cgen/mod.rs\"]\nmod cgen;\n\
                  #[ path=\"a.rs\"]\nmod a;\n// #[path = \"b.rs\"]\n\
                  let s = \"#[path = \\\"c.rs\\\"]\";\n#[path_like]\nfn f() {}\n";
    assert_eq!(path_attributes(sample), [2, 4], "the rule can fail");
    let mut problems = Vec::new();
    for file in all_rust_files() {
        for line in path_attributes(&read(&file)) {
            problems.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "`#[path = …]` attributes (move the shared code into a crate, as `xtask`'s library):\n{}",
        problems.join("\n")
    );
}

/// The types whose values can change behind a shared reference: a `static` of one (or of a type
/// holding one) is process-wide mutable state.
const INTERIOR: [&str; 10] = [
    "Mutex",
    "RwLock",
    "Cell",
    "RefCell",
    "UnsafeCell",
    "OnceLock",
    "OnceCell",
    "LazyLock",
    "Lazy",
    "Condvar",
];

/// The statics of `text` that hold mutable state (`static mut`, or a type of [`INTERIOR`] or an
/// atomic), by name and line: function-local ones and `thread_local!`'s too.
fn mutable_statics(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices("static") {
        // A whole word, and not the lifetime `'static`.
        if code[..at].ends_with(|c: char| is_ident(c) || c == '\'') {
            continue;
        }
        let rest = &code[at + "static".len()..];
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let mut rest = rest.trim_start();
        let mutable = rest
            .strip_prefix("mut")
            .filter(|r| r.starts_with(char::is_whitespace));
        if let Some(r) = mutable {
            rest = r.trim_start();
        }
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let Some(ty) = rest[name.len()..].trim_start().strip_prefix(':') else {
            continue;
        };
        let ty = &ty[..ty.find(['=', ';']).unwrap_or(ty.len())];
        let interior = ty
            .split(|c: char| !is_ident(c))
            .any(|word| word.starts_with("Atomic") || INTERIOR.contains(&word));
        if mutable.is_some() || interior {
            out.push((name, line_of(at)));
        }
    }
    out
}

/// The statics that hold mutable state, and why each is not a value passed in. This list may
/// only shrink: a new one is state two runs in one process would share.
const MUTABLE_STATICS: &[(&str, &str, &str)] = &[
    (
        "c-frontend/src/driver.rs",
        "LOWERED_STUBS",
        "a pure memo of the libc stubs lowered, used only when lowering them again would give \
         the same",
    ),
    (
        "c-frontend/src/model/mod.rs",
        "BUILTIN",
        "the built-in library model, built once: it never changes",
    ),
    (
        "c-frontend/src/syntax/embedded.rs",
        "DIR",
        "the data directory, written once per process",
    ),
    (
        "c-frontend/src/syntax/parse_cache.rs",
        "PRUNED",
        "the parse cache is pruned once per process",
    ),
    (
        "c-frontend/src/syntax/parse_cache.rs",
        "ID",
        "the build's identity, computed once",
    ),
    (
        "solver/src/budget.rs",
        "ACTIVE",
        "the budget of the run on this thread (thread-local, see the module's doc)",
    ),
    (
        "solver/src/budget.rs",
        "TICKS",
        "the budget's polls on this thread",
    ),
    (
        "solver/src/budget.rs",
        "MEMORY_READ",
        "when the budget on this thread last read the memory",
    ),
];

/// No `static` holds mutable state but those listed in [`MUTABLE_STATICS`]: a run's state (its
/// statistics, its options) is a value its caller creates and passes in.
#[test]
fn no_static_holds_mutable_state() {
    let sample = "static mut COUNT: u32 = 0;\nstatic SEEN: std::sync::Mutex<Vec<u8>> = x();\n\
                  fn f() {\n    static ON: AtomicBool = AtomicBool::new(false);\n}\n\
                  thread_local! { static T: Cell<u8> = const { Cell::new(0) }; }\n\
                  static NAMES: &[&str] = &[\"static X: Mutex<u8>\"];\n\
                  fn g() -> &'static str { \"\" }\n// static Y: RefCell<u8>\n\
                  static CELLS: usize = 2;\nconst Z: Cell<u8> = Cell::new(0);\n";
    let found = mutable_statics(sample);
    let found: Vec<(&str, usize)> = found.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    assert_eq!(
        found,
        [("COUNT", 1), ("SEEN", 2), ("ON", 4), ("T", 6)],
        "the rule can fail"
    );
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for file in all_rust_files() {
        let path = file.to_string_lossy().replace('\\', "/");
        for (name, line) in mutable_statics(&read(&file)) {
            match MUTABLE_STATICS
                .iter()
                .find(|&&(f, n, _)| f == path && n == name)
            {
                Some(&(f, n, _)) => seen.push((f, n)),
                None => problems.push(format!(
                    "{path}:{line}: `static {name}` holds mutable state: make it a value the \
                     caller passes in"
                )),
            }
        }
    }
    for &(f, n, _) in MUTABLE_STATICS {
        if !seen.contains(&(f, n)) {
            problems.push(format!(
                "{f}: `{n}` no longer exists: remove it from MUTABLE_STATICS"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_see_code_only() {
    let text = "fn a() {\n    let s = \"}\"; // }\n    let c = '}';\n    let r = r#\"}\"#;\n    x::<'a>();\n}\n";
    assert_eq!(functions(text), vec![("a".to_string(), 6)]);
    assert_eq!(
        documents_named("see ARCHITECTURE.md, and `tests/README.md`, not https://x.org/a.md."),
        vec!["ARCHITECTURE.md".to_string(), "tests/README.md".to_string()]
    );
    assert!(has_word(&code_only("let x = 1; dbg!(x);"), "dbg"));
    assert!(!has_word(&code_only("// dbg!(x)"), "dbg"));
}

/// The lines of the `impl Kind` blocks of `text` whose `match` arms have a wildcard pattern
/// (`_ =>`, `_ if`): a question answered by a default.
fn defaulted_model_questions(text: &str) -> Vec<usize> {
    let code = code_only(text);
    let mut out = Vec::new();
    let mut inside = false;
    for (k, line) in code.lines().enumerate() {
        if line.starts_with("impl Kind {") {
            inside = true;
        } else if inside && line.starts_with('}') {
            inside = false;
        } else if inside {
            let arm = line.trim_start();
            if arm.starts_with("_ =>") || arm.starts_with("_ if ") || arm.contains("| _ =>") {
                out.push(k + 1);
            }
        }
    }
    out
}

/// The model's questions (`impl Kind` in `c-frontend/src/model/mod.rs`) are exhaustive
/// `match`es, so that a new kind does not compile until each question is answered for it.
#[test]
fn the_model_questions_have_no_default() {
    let violation = "impl Kind {\n    fn q(self) -> bool {\n        match self {\n            Kind::Fork { .. } => true,\n            _ => false,\n        }\n    }\n}\n";
    assert_eq!(defaulted_model_questions(violation), vec![5]);
    let file = "c-frontend/src/model/mod.rs";
    let text = read(Path::new(file));
    assert!(text.contains("\nimpl Kind {"), "{file} has no `impl Kind`");
    let found = defaulted_model_questions(&text);
    assert!(
        found.is_empty(),
        "{file}: a model question answers by default at lines {found:?}: name every kind"
    );
}
