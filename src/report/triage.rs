//! What a team has already triaged: warnings silenced in the source by a comment, and warnings
//! recorded in a baseline file. Both are applied to a built [`CheckReport`], which then counts
//! what it left out; neither changes the analysis.
//!
//! - A comment `locksmith: ignore data-race` (or `locksmith: ignore`, for every code) on the line
//!   of a warning's racing access, or on the line where its location is declared, silences that
//!   warning; `locksmith: ignore deadlock` on the line of one of a deadlock's lock calls
//!   silences the deadlock. Text after it is the reason, for the reader: `// locksmith: ignore data-race —
//!   approximate statistics`.
//! - A baseline (`--write-baseline FILE`) records each warning by what survives edits: its code,
//!   its location's name without line numbers, and the functions making its racing accesses with
//!   their kinds. `--baseline FILE` then leaves out the warnings it records.
//!
//! A race listed as the consequence of another ([`Race::consequences`]) goes with it: it is left
//! out when its cause is.
//!
//! This module reads the source files the warnings name (for the comments); it never prints.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::model::{CheckReport, Deadlock, LeftOut, Race, SuppressionWarning, Warning};

/// The marker of a suppression comment.
const IGNORE: &str = "locksmith: ignore";

/// The warnings a team has accepted, as written by `--write-baseline`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// The format of the file, 1.
    pub version: u32,
    pub warnings: BTreeSet<BaselineEntry>,
}

/// One accepted warning, named so that moving lines does not change it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BaselineEntry {
    pub code: String,
    /// The location's name, with every `:LINE` left out; for a deadlock, its locks joined by
    /// ` -> `.
    pub location: String,
    /// `function:kind` of each racing access (the function it is made in, `read` or `write`),
    /// sorted and without repeats; for a deadlock, `function:lock` of each lock call.
    pub accesses: Vec<String>,
}

impl Baseline {
    /// The baseline of the warnings of `report`.
    pub fn of(report: &CheckReport) -> Baseline {
        Baseline {
            version: 1,
            warnings: report.warnings.iter().map(entry).collect(),
        }
    }
}

/// A warning's baseline entry.
pub fn entry(w: &Warning) -> BaselineEntry {
    match w {
        Warning::Race(r) => race_entry(r),
        Warning::Deadlock(d) => deadlock_entry(d),
        Warning::LockLeak(l) => leak_entry(l),
    }
}

/// A lock leak's baseline entry: the lock and the function, and where it is held (`return` or
/// `loop`); no line numbers, so that edits elsewhere keep it.
pub fn leak_entry(l: &super::model::LockLeak) -> BaselineEntry {
    let leak = match l.leak {
        super::model::LeakKind::Return => "return",
        super::model::LeakKind::Loop => "loop",
    };
    BaselineEntry {
        code: l.code.to_string(),
        location: without_line_numbers(&l.lock),
        accesses: vec![format!("{}:{leak}", l.function)],
    }
}

/// The function a call path ends in.
fn last_function(path: &[String]) -> &str {
    path.last()
        .map(|step| step.split(" (").next().unwrap_or(step))
        .unwrap_or("")
}

/// A deadlock's baseline entry.
pub fn deadlock_entry(d: &Deadlock) -> BaselineEntry {
    let mut accesses: Vec<String> = d
        .acquisitions
        .iter()
        .map(|a| {
            format!(
                "{}:{}",
                last_function(&a.path),
                without_line_numbers(&a.lock)
            )
        })
        .collect();
    accesses.sort();
    accesses.dedup();
    BaselineEntry {
        code: d.code.to_string(),
        location: without_line_numbers(&d.locks.join(" -> ")),
        accesses,
    }
}

/// A race's baseline entry.
pub fn race_entry(w: &Race) -> BaselineEntry {
    let mut accesses: Vec<String> = w
        .accesses
        .iter()
        .map(|a| format!("{}:{}", last_function(&a.path), a.kind()))
        .collect();
    accesses.sort();
    accesses.dedup();
    BaselineEntry {
        code: w.code.to_string(),
        location: without_line_numbers(&w.location.name),
        accesses,
    }
}

/// `name` with every `:digits` left out (the lines in allocation sites' names).
pub fn without_line_numbers(name: &str) -> String {
    let mut out = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Leaves out of `report` the warnings a comment silences and those `baseline` records, counts
/// them, and settles the verdict on what is left. Returns the places of the comments that
/// silenced a warning. Files are read by the names the report gives them, relative to `root`
/// ([`super::check::resolve_file`]).
pub fn apply(
    report: &mut CheckReport,
    baseline: Option<&Baseline>,
    root: &Path,
) -> BTreeSet<(String, u32)> {
    let mut files = SourceLines {
        root: root.to_path_buf(),
        files: BTreeMap::new(),
    };
    let mut used = BTreeSet::new();
    let warnings = std::mem::take(&mut report.warnings);
    for w in warnings {
        if let Some((file, line)) = silenced(&mut files, &w) {
            used.insert((file.clone(), line));
            report.suppressed += 1;
            report.left_out.push((w, LeftOut::Comment { file, line }));
        } else if baseline.is_some_and(|b| b.warnings.contains(&entry(&w))) {
            report.baselined += 1;
            report.left_out.push((w, LeftOut::Baseline));
        } else {
            report.warnings.push(w);
        }
    }
    report.settle();
    used
}

/// What a suppression comment names after `locksmith: ignore`.
#[derive(Debug, PartialEq, Eq)]
enum Ignores<'l> {
    /// Every code: nothing, or a separator and the reason (`locksmith: ignore: counters`).
    Every,
    /// One code locksmith reports (`data-race`, `deadlock`).
    Code(&'l str),
    /// A word that is no code of locksmith's (`data_race`): the comment silences nothing.
    Unknown(&'l str),
}

/// The codes a comment may name: those of the warnings a check reports.
const CODES: &[&str] = &[
    super::model::DATA_RACE,
    super::model::DEADLOCK,
    super::model::LOCK_LEAK,
];

/// What the suppression comment on `line` names, if it has one.
fn ignores_of(line: &str) -> Option<Ignores<'_>> {
    let at = line.find(IGNORE)?;
    let rest = line[at + IGNORE.len()..].trim_start();
    let word_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '/'))
        .unwrap_or(rest.len());
    Some(match &rest[..word_end] {
        "" => Ignores::Every,
        word if CODES.contains(&word) => Ignores::Code(word),
        word => Ignores::Unknown(word),
    })
}

/// Notes on the suppression comments of `inputs` (the files the run was given): one naming no
/// code of locksmith's silences nothing, and one that silenced no warning (`used`: the places
/// of those that did) may be stale. Each is a [`SuppressionWarning`], in file and line order.
pub fn review_comments(
    report: &mut CheckReport,
    inputs: &[String],
    used: &BTreeSet<(String, u32)>,
    root: &Path,
) {
    for file in inputs {
        let Ok(text) = std::fs::read_to_string(super::check::resolve_file(file, root)) else {
            continue;
        };
        for (k, line) in text.lines().enumerate() {
            let line_no = k as u32 + 1;
            let message = match ignores_of(line) {
                None => continue,
                Some(Ignores::Unknown(word)) => format!(
                    "`{word}` is no code of locksmith's ({}): this comment silences nothing",
                    CODES.join(", ")
                ),
                Some(_) if used.contains(&(file.clone(), line_no)) => continue,
                Some(_) => "this comment silences no warning: the race it was for is gone, or \
                            it is not on a line of the warning's accesses or declaration"
                    .to_string(),
            };
            report.suppression_warnings.push(SuppressionWarning {
                file: file.clone(),
                line: line_no,
                message,
            });
        }
    }
}

/// Where a suppression comment for the warning's code is, on its declaration's line or on a
/// racing access's line; for a deadlock, on one of its lock calls' lines; for a lock leak, on
/// the line where the lock is still held or on one where it is taken.
fn silenced(files: &mut SourceLines, w: &Warning) -> Option<(String, u32)> {
    let lines: Vec<(&String, u32)> = match w {
        Warning::Race(r) => {
            let declared = r.location.declared.iter().map(|d| (&d.file, d.line));
            let accessed = r
                .accesses
                .iter()
                .map(|a| (&a.position.file, a.position.line));
            declared.chain(accessed).collect()
        }
        Warning::Deadlock(d) => d
            .acquisitions
            .iter()
            .map(|a| (&a.position.file, a.position.line))
            .collect(),
        Warning::LockLeak(l) => std::iter::once(&l.position)
            .chain(&l.taken)
            .map(|p| (&p.file, p.line))
            .collect(),
    };
    let code = w.code();
    lines
        .into_iter()
        .find(|&(file, line)| files.line(file, line).is_some_and(|l| ignores(l, code)))
        .map(|(file, line)| (file.clone(), line))
}

/// Whether a line holds a suppression comment for `code` (or for every code). A comment naming
/// a word that is no code silences nothing ([`review_comments`] says so).
fn ignores(line: &str, code: &str) -> bool {
    match ignores_of(line) {
        Some(Ignores::Every) => true,
        Some(Ignores::Code(c)) => c == code,
        Some(Ignores::Unknown(_)) | None => false,
    }
}

/// Source files read once each, by the name reports give them (relative to `root`).
struct SourceLines {
    root: std::path::PathBuf,
    files: BTreeMap<String, Option<Vec<String>>>,
}

impl SourceLines {
    fn line(&mut self, file: &str, line: u32) -> Option<&str> {
        let root = &self.root;
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read_to_string(super::check::resolve_file(file, root))
                .ok()
                .map(|t| t.lines().map(str::to_string).collect())
        });
        lines
            .as_ref()?
            .get((line as usize).checked_sub(1)?)
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_names_its_code_or_every_code() {
        assert!(ignores(
            "x++; // locksmith: ignore data-race — approximate",
            "data-race"
        ));
        assert!(ignores("x++; /* locksmith: ignore */", "data-race"));
        assert!(ignores("x++; // locksmith: ignore: counters", "data-race"));
        assert!(!ignores("x++; // locksmith: ignore deadlock", "data-race"));
        assert!(!ignores(
            "x++; // locksmith ignores nothing here",
            "data-race"
        ));
        // A misspelt code is no blanket ignore.
        assert!(!ignores("x++; // locksmith: ignore data_race", "data-race"));
        assert!(!ignores("x++; // locksmith: ignore races", "data-race"));
        assert_eq!(
            ignores_of("x++; // locksmith: ignore data_race"),
            Some(Ignores::Unknown("data_race"))
        );
        assert_eq!(
            ignores_of("x++; // locksmith: ignore deadlock, twice"),
            Some(Ignores::Code("deadlock"))
        );
        assert_eq!(
            ignores_of("x++; // locksmith: ignore — stats"),
            Some(Ignores::Every)
        );
    }

    #[test]
    fn names_lose_their_line_numbers_only() {
        assert_eq!(
            without_line_numbers("memory allocated by malloc at a.c:12 in main"),
            "memory allocated by malloc at a.c in main"
        );
        assert_eq!(without_line_numbers("q.count"), "q.count");
    }
}
