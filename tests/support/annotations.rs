//! Reading the `// RACE` / `// NORACE` annotations of C test programs (see tests/README.md) and
//! comparing them with what locksmith reports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One annotated line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub race: bool,
    /// `// FALSE-ALARM`: race-free, but locksmith is known to warn on it (see tests/README.md).
    pub known_false_alarm: bool,
    /// The planted race's id, for `// RACE(id)`.
    pub id: Option<String>,
    /// Techniques named by `needs=`: each entry is one technique, or several joined by `+` that
    /// must all be off.
    pub needs: Vec<String>,
}

/// The annotations and directives of a set of files.
#[derive(Clone, Debug, Default)]
pub struct Annotated {
    /// (file, line) → annotation.
    pub lines: BTreeMap<(PathBuf, u32), Annotation>,
    /// Extra command-line arguments from `// locksmith-args:`.
    pub args: Vec<String>,
    /// Race ids ThreadSanitizer cannot observe (`// tsan-skip: id — reason`).
    pub tsan_skip: BTreeSet<String>,
    /// The fixture expects functions that may run not to be analysed
    /// (`// locksmith-incomplete: reason`); without it, a fixture must be analysed whole.
    pub incomplete: bool,
}

fn parse_annotation(comment: &str) -> Option<Annotation> {
    let c = comment.trim_start();
    let (race, known_false_alarm, rest) = if let Some(r) = c.strip_prefix("NORACE") {
        (false, false, r)
    } else if let Some(r) = c.strip_prefix("RACE") {
        (true, false, r)
    } else if let Some(r) = c.strip_prefix("FALSE-ALARM") {
        (false, true, r)
    } else {
        return None;
    };
    // The keyword must end here: `RACEY` is not an annotation.
    if rest
        .chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    {
        return None;
    }
    let mut id = None;
    let mut rest = rest;
    if let Some(r) = rest.strip_prefix('(') {
        let end = r.find(')')?;
        id = Some(r[..end].trim().to_string());
        rest = &r[end + 1..];
    }
    let mut needs = Vec::new();
    if let Some(at) = rest.find("needs=") {
        // The list runs to the end of the word, so that a misspelt tag (`field_sensitivity`)
        // is read whole and rejected rather than cut to a valid prefix.
        let list: String = rest[at + 6..]
            .chars()
            .take_while(|ch| !ch.is_whitespace() && !matches!(ch, ':' | ')' | '.' | ';' | '`'))
            .collect();
        needs = list
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
    }
    Some(Annotation {
        race,
        known_false_alarm,
        id,
        needs,
    })
}

/// Reads the annotations of `files`.
pub fn read(files: &[PathBuf]) -> Annotated {
    let mut out = Annotated::default();
    for f in files {
        let text =
            std::fs::read_to_string(f).unwrap_or_else(|e| panic!("read {}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            if let Some(at) = line.find("locksmith-args:") {
                out.args
                    .extend(line[at + 15..].split_whitespace().map(str::to_string));
            }
            if line.contains("locksmith-incomplete:") {
                out.incomplete = true;
            }
            if let Some(at) = line.find("tsan-skip:") {
                let id: String = line[at + 10..]
                    .trim()
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .collect();
                out.tsan_skip.insert(id);
            }
            // Annotations are in the line's last `//` comment, after code.
            let Some(at) = line.rfind("//") else { continue };
            if line[..at].trim().is_empty() {
                continue;
            }
            if let Some(a) = parse_annotation(&line[at + 2..]) {
                out.lines.insert((f.clone(), i as u32 + 1), a);
            }
        }
    }
    out
}

/// The C files of a program directory, or the single fixture file.
pub fn c_files(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    }
}

/// What went wrong when comparing a report with the annotations.
pub fn compare(
    annotated: &Annotated,
    warned_lines: &BTreeSet<(PathBuf, u32)>,
    warnings: &[BTreeSet<(PathBuf, u32)>],
    exact: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    for ((file, line), a) in &annotated.lines {
        let warned = warned_lines.contains(&(file.clone(), *line));
        if a.race && !warned {
            problems.push(format!(
                "missed race: {}:{line} is annotated RACE but no warning lists it",
                file.display()
            ));
        }
        if !a.race && !a.known_false_alarm && warned {
            problems.push(format!(
                "false alarm: {}:{line} is annotated NORACE but a warning lists it",
                file.display()
            ));
        }
        if a.known_false_alarm && !warned {
            problems.push(format!(
                "{}:{line} is annotated FALSE-ALARM but no warning lists it any more: \
                 annotate it NORACE",
                file.display()
            ));
        }
    }
    if exact {
        for (k, w) in warnings.iter().enumerate() {
            let has_race = w.iter().any(|l| {
                annotated
                    .lines
                    .get(l)
                    .is_some_and(|a| a.race || a.known_false_alarm)
            });
            if !has_race {
                let lines: Vec<String> = w
                    .iter()
                    .map(|(f, l)| format!("{}:{l}", f.display()))
                    .collect();
                problems.push(format!(
                    "unplanted warning #{k} lists no RACE or FALSE-ALARM line: {}",
                    lines.join(", ")
                ));
            }
        }
    }
    problems
}

/// What went wrong when comparing a run with `technique` (one `needs=` entry, perhaps `a+b`)
/// switched off with the annotations that name it: a `NORACE needs=t` line must now be warned, a
/// `RACE needs=t` line no longer.
pub fn compare_ablation(
    annotated: &Annotated,
    technique: &str,
    warned_lines: &BTreeSet<(PathBuf, u32)>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for ((file, line), a) in &annotated.lines {
        if !a.needs.iter().any(|t| t == technique) {
            continue;
        }
        let warned = warned_lines.contains(&(file.clone(), *line));
        if a.race && warned {
            problems.push(format!(
                "{}:{line} is annotated RACE needs={technique}, but without {technique} it is \
                 still reported",
                file.display()
            ));
        }
        if !a.race && !warned {
            problems.push(format!(
                "{}:{line} is annotated NORACE needs={technique}, but without {technique} it is \
                 still not reported",
                file.display()
            ));
        }
    }
    problems
}

/// The keyword of a deadlock annotation in a line's last `//` comment, if it is one:
/// `Some(true)` for `// DEADLOCK`, `Some(false)` for `// NODEADLOCK`.
/// `Some(true)` for a line ending in `// KEYWORD`, `Some(false)` for `// NOKEYWORD`, after
/// code on the same line.
fn marker(line: &str, keyword: &str) -> Option<bool> {
    let at = line.rfind("//")?;
    if line[..at].trim().is_empty() {
        return None;
    }
    let c = line[at + 2..].trim_start();
    let (yes, rest) = match c.strip_prefix("NO").and_then(|r| r.strip_prefix(keyword)) {
        Some(r) => (false, r),
        None => (true, c.strip_prefix(keyword)?),
    };
    // The keyword must end here: `DEADLOCKS` is not an annotation.
    let ends = !rest
        .chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    ends.then_some(yes)
}

/// Source lines, as (file, line).
pub type Lines = BTreeSet<(PathBuf, u32)>;

/// The `// DEADLOCK` lines of `files` (lock calls that must be among a reported deadlock's) and
/// the `// NODEADLOCK` lines (lock calls that must be in none).
pub fn deadlock_lines(files: &[PathBuf]) -> (Lines, Lines) {
    marked_lines(files, "DEADLOCK")
}

/// The `// LEAK` lines of `files` (where a lock leak must be reported) and the `// NOLEAK`
/// lines (where none may be).
pub fn leak_lines(files: &[PathBuf]) -> (Lines, Lines) {
    marked_lines(files, "LEAK")
}

/// The lines marked `// KEYWORD` and those marked `// NOKEYWORD`.
fn marked_lines(files: &[PathBuf], keyword: &str) -> (Lines, Lines) {
    let (mut must, mut must_not) = (BTreeSet::new(), BTreeSet::new());
    for f in files {
        let text =
            std::fs::read_to_string(f).unwrap_or_else(|e| panic!("read {}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            match marker(line, keyword) {
                Some(true) => must.insert((f.clone(), i as u32 + 1)),
                Some(false) => must_not.insert((f.clone(), i as u32 + 1)),
                None => false,
            };
        }
    }
    (must, must_not)
}
