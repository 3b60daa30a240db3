//! Mutation fuzzing of the C pipeline: valid programs — the fixtures, the paper's
//! examples, the test programs — preprocessed once, then mutated as text (statements deleted,
//! duplicated and swapped, identifiers renamed, tokens dropped or inserted, types changed) and
//! checked in-process. Mutants reach the lowering, constraint generation and the thread
//! analysis, where bytes at random would stop in the parser.
//!
//! A run fails on an internal error (a contained panic: exit 2 with `error/internal`, or a
//! function listed as `unanalysed/internal-error`), an exit status other than 0, 1, 2 or 3 or
//! one that disagrees with the report's `verdict`, a JSON report that does not parse, or a check that takes longer than the limit. Nothing here is
//! random but the seed: the same seed gives the same mutants.

pub mod shrink;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use c_frontend::driver::CheckOptions;
use c_frontend::syntax::preprocess::{preprocess, PreprocessOptions};
use locksmith::render::{Format, RenderContext, SourceReader};

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One program of the corpus: its name and its preprocessed text.
pub struct Seed {
    pub name: String,
    pub text: String,
    /// Whether `text` is the shrunk unit ([`shrink::shrink`]) rather than the whole one.
    pub shrunk: bool,
}

/// The C files of the corpus under `root`, sorted.
pub fn corpus_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/races", "paper-examples/c", "tests/programs"] {
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "c") {
            out.push(p);
        }
    }
}

/// The corpus, preprocessed as `locksmith check` would (with `__LOCKSMITH__` defined), each
/// seed [shrunk](shrink::shrink) where that leaves locksmith's report on it unchanged. `dir`
/// holds the files checked to compare the two.
pub fn corpus(files: &[PathBuf], dir: &Path) -> Vec<Seed> {
    let options = PreprocessOptions {
        defines: vec!["__LOCKSMITH__".into()],
        ..Default::default()
    };
    let limit = Duration::from_secs(60);
    files
        .iter()
        .filter_map(|f| preprocess(f, &options).ok())
        .map(|p| {
            let shrunk = shrink::shrink(&p.text);
            let same = check(&shrunk, dir, "seed", limit)
                .is_some_and(|s| Some(s) == check(&p.text, dir, "seed", limit));
            Seed {
                name: p.name,
                text: if same { shrunk } else { p.text },
                shrunk: same,
            }
        })
        .collect()
}

const INSERTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    ";",
    "*",
    "&",
    "0",
    "1",
    ",",
    "->",
    ".",
    "[0]",
    "=",
    "++",
    "return",
    "if (x)",
    "while (1)",
    "goto L;",
    "L:",
    "break;",
    "continue;",
    "pthread_mutex_lock(&m);",
    "pthread_mutex_unlock(&m);",
    "sizeof",
    "(void *)",
    "(int)",
    "struct s",
    "static",
    "extern",
];

const TYPES: &[&str] = &[
    "int",
    "char",
    "long",
    "void",
    "void *",
    "int *",
    "char *",
    "double",
    "unsigned",
    "struct x",
    "union u",
    "pthread_mutex_t",
    "_Atomic int",
];

/// The tokens of one line: identifiers and numbers, or single punctuation characters.
fn tokens(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// One to four mutations of `text`. Line markers (`# N "file"`) are kept as they are, so that
/// positions stay meaningful.
pub fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let code: Vec<usize> = (0..lines.len())
        .filter(|&k| !lines[k].trim_start().starts_with('#') && !lines[k].trim().is_empty())
        .collect();
    if code.is_empty() {
        return text.to_string();
    }
    let idents: Vec<String> = code
        .iter()
        .flat_map(|&k| {
            let l = &lines[k];
            tokens(l)
                .into_iter()
                .map(|(s, e)| l[s..e].to_string())
                .filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                .collect::<Vec<_>>()
        })
        .collect();
    for _ in 0..1 + rng.below(4) {
        let k = code[rng.below(code.len())];
        match rng.below(7) {
            0 => lines[k].clear(),
            1 => {
                let l = lines[k].clone();
                lines[k].push(' ');
                lines[k].push_str(&l);
            }
            2 => {
                let j = code[rng.below(code.len())];
                lines.swap(k, j);
            }
            3..=6 => {
                let toks = tokens(&lines[k]);
                if toks.is_empty() {
                    continue;
                }
                let (s, e) = toks[rng.below(toks.len())];
                let replacement = match rng.below(4) {
                    0 if !idents.is_empty() => idents[rng.below(idents.len())].clone(),
                    1 => String::new(),
                    2 => TYPES[rng.below(TYPES.len())].to_string(),
                    _ => format!("{} {}", &lines[k][s..e], INSERTS[rng.below(INSERTS.len())]),
                };
                lines[k].replace_range(s..e, &replacement);
            }
            _ => unreachable!(),
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// What checking one mutant showed.
#[derive(Debug, PartialEq, Eq)]
pub enum Finding {
    /// Exit 0, 1, 2 or 3 with a well-formed report of that verdict and no internal error.
    Fine,
    /// A contained internal error, with its message.
    Internal(String),
    /// The output was not one well-formed JSON document, or the exit status was not 0, 1, 2 or 3
    /// or not the one of its verdict.
    Invalid(String),
    /// The check did not finish within the limit.
    Hang,
}

/// The exit status, standard output and standard error of checking the preprocessed `text`
/// (written to `dir/name.i`) with `--format json`, or `None` when it took longer than `limit`.
fn check(text: &str, dir: &Path, name: &str, limit: Duration) -> Option<(i32, String, String)> {
    let path = dir.join(format!("{name}.i"));
    std::fs::write(&path, text).expect("the fuzz directory is writable");
    let (tx, rx) = mpsc::channel();
    let input = path.clone();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let outcome = locksmith::check::run(
            vec![input],
            CheckOptions::default(),
            Format::Json,
            RenderContext::new(SourceReader::on_disk(None)),
            &mut out,
        );
        let out = String::from_utf8(out).expect("the JSON report is UTF-8 text");
        let _ = tx.send((outcome.exit, out, outcome.stderr));
    });
    let outcome = rx.recv_timeout(limit).ok();
    let _ = std::fs::remove_file(&path);
    outcome
}

/// Checks the preprocessed `text` (written to `dir/name.i`) with `--format json`. A check over
/// the limit is tried once more with six times the limit before it counts as a hang: a machine
/// busy with something else (a build, a large analysis) can hold up one check for seconds.
pub fn check_text(text: &str, dir: &Path, name: &str, limit: Duration) -> Finding {
    let outcome = check(text, dir, name, limit).or_else(|| check(text, dir, name, limit * 6));
    let Some((exit, out, stderr)) = outcome else {
        return Finding::Hang;
    };
    if !(0..=3).contains(&exit) {
        return Finding::Invalid(format!("exit status {exit}"));
    }
    let json: serde_json::Value = match serde_json::from_str(&out) {
        Ok(v) => v,
        Err(e) => return Finding::Invalid(format!("not JSON ({e}): {out:.200}")),
    };
    let verdict = ["race-free", "races", "error", "incomplete"][exit as usize];
    if json["verdict"] != verdict {
        return Finding::Invalid(format!(
            "exit status {exit} with verdict {}",
            json["verdict"]
        ));
    }
    if json["error"]["code"] == "error/internal" {
        return Finding::Internal(stderr.trim().to_string());
    }
    let internal = json["unanalysed"].as_array().and_then(|list| {
        list.iter()
            .find(|u| u["code"] == "unanalysed/internal-error")
            .map(|u| u["reason"].to_string())
    });
    match internal {
        Some(reason) => Finding::Internal(reason),
        None => Finding::Fine,
    }
}

/// The outcome of a run: how many mutants were checked and what was found in them.
pub struct Summary {
    pub executions: usize,
    pub findings: Vec<(String, Finding, String)>,
    pub elapsed: Duration,
}

/// Checks `count` mutants of the corpus from `seed`, stopping at the first hang (its thread
/// cannot be stopped). Each finding keeps the mutant's text.
pub fn run(corpus: &[Seed], seed: u64, count: usize, dir: &Path, limit: Duration) -> Summary {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut findings = Vec::new();
    let mut executions = 0;
    for k in 0..count {
        let s = &corpus[rng.below(corpus.len())];
        let mutant = mutate(&s.text, &mut rng);
        let found = check_text(&mutant, dir, &format!("mutant-{seed}-{k}"), limit);
        executions += 1;
        if found != Finding::Fine {
            let hang = found == Finding::Hang;
            findings.push((s.name.clone(), found, mutant));
            if hang {
                break;
            }
        }
    }
    Summary {
        executions,
        findings,
        elapsed: start.elapsed(),
    }
}
