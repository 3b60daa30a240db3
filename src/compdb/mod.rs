//! Reading a build's compilation database (`compile_commands.json`, the JSON array CMake, Meson
//! and Bear write) into the translation units of one program, each with its own preprocessing
//! flags and working directory ([`Input`]).
//!
//! An entry has a `directory`, a `file`, and its command line as `arguments` (an array) or as
//! `command` (one string, split as a shell does: [`words`]); [`flags`] reads what changes
//! preprocessing from it. Entries whose file is not C (by its extension: `.c`, or `.i` for
//! preprocessed C) are skipped. A file listed several times (two targets) is checked once per
//! distinct preprocessor settings: entries with the same file and the same settings after
//! normalisation are one unit, and so are entries that differ only in the macros of how code is
//! generated (`-DPIC`: [`flags::CODE_GENERATION_MACROS`]); a file built with different flags is
//! checked once per set.
//! Files named on the command line select entries ([`select`]). Relative `directory` fields are
//! taken relative to the database's own directory.
//!
//! This module returns data: the units, and notes saying what it left out for `--verbose`. It
//! never preprocesses, analyses or prints; every way a database can be unusable is a [`Fatal`]
//! error naming the file (and, for a JSON error, the position).

pub mod flags;
pub mod select;
pub mod words;

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use c_frontend::diagnostics::{Fatal, FatalKind};
use c_frontend::driver::Input;
use c_frontend::syntax::preprocess::PreprocessOptions;
use serde::Deserialize;

use select::Filter;

/// The name of the database in a build directory.
pub const FILE_NAME: &str = "compile_commands.json";

/// One entry of a database, with the fields locksmith reads (others, like `output`, are allowed).
#[derive(Deserialize)]
struct Entry {
    directory: String,
    file: String,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

/// The units a database gives, in its order, and what was left out, one sentence each.
#[derive(Clone, Debug, Default)]
pub struct Selected {
    pub inputs: Vec<Input>,
    pub notes: Vec<String>,
}

/// The database `-p BUILD` names: `BUILD/compile_commands.json`, or `BUILD` when it is a file.
pub fn locate(build: &Path) -> PathBuf {
    if build.is_file() {
        build.to_path_buf()
    } else {
        build.join(FILE_NAME)
    }
}

fn fail(message: String) -> Fatal {
    Fatal::new(FatalKind::CompileCommands, message)
}

/// The C translation units of the database at `database` that `filter` selects (all of them when
/// it is empty), each with its entry's flags followed by the `global` ones.
pub fn load(
    database: &Path,
    filter: &[PathBuf],
    global: &PreprocessOptions,
) -> Result<Selected, Fatal> {
    let cwd = std::env::current_dir()
        .map_err(|e| fail(format!("cannot read the current directory: {e}")))?;
    let entries = read(database)?;
    let base = flags::absolute(&cwd, database.parent().unwrap_or(Path::new("")));
    let filters: Vec<Filter> = filter.iter().map(|f| Filter::new(f, &cwd)).collect();
    let mut used = vec![false; filters.len()];
    let mut selected = Selected::default();
    let mut seen: HashMap<(PathBuf, PreprocessOptions), PreprocessOptions> = HashMap::new();
    let mut ignored: HashSet<String> = HashSet::new();
    for (k, entry) in entries.iter().enumerate() {
        let directory = flags::absolute(&base, Path::new(&entry.directory));
        let file = tidy(flags::absolute(&directory, Path::new(&entry.file)));
        if !is_c(&file) {
            selected
                .notes
                .push(format!("skipped {}: not a C file", file.display()));
            continue;
        }
        let canonical = select::identity(&file);
        let mut chosen = filters.is_empty();
        for (f, used) in filters.iter().zip(&mut used) {
            if f.selects(&file, &canonical) {
                *used = true;
                chosen = true;
            }
        }
        if !chosen {
            continue;
        }
        let bad = |why: String| {
            fail(format!(
                "{}: entry {} ({}): {why}",
                database.display(),
                k + 1,
                entry.file
            ))
        };
        let args = arguments(entry).map_err(bad)?;
        let mut flags =
            flags::extract(args.get(1..).unwrap_or_default(), &directory).map_err(bad)?;
        for dirs in [
            &mut flags.include_dirs,
            &mut flags.quote_dirs,
            &mut flags.system_dirs,
        ] {
            *dirs = dirs.drain(..).map(tidy).collect();
        }
        for flag in &flags.ignored {
            if ignored.insert(flag.clone()) {
                selected.notes.push(format!(
                    "ignored the compiler flag `{flag}` (first in the entry of {})",
                    file.display()
                ));
            }
        }
        let options = flags::unit_options(&flags, global, &cwd, &directory);
        let unit = flags::without_code_generation(&options);
        if let Some(first) = seen.get(&(canonical.clone(), unit.clone())) {
            let how = if *first == options {
                "with the same flags"
            } else {
                "with flags that differ only in how code is generated (as for a shared and a \
                 static library: -DPIC, -D<target>_EXPORTS)"
            };
            selected.notes.push(format!(
                "{} is listed again {how}: checked once, with the flags it is first listed with",
                file.display()
            ));
            continue;
        }
        seen.insert((canonical, unit), options.clone());
        selected.inputs.push(Input {
            path: file,
            preprocess: Some(options),
        });
    }
    if let Some(f) = filters.iter().zip(&used).find(|(_, used)| !**used) {
        return Err(fail(format!(
            "{}: no C file of {} is selected by it",
            f.0.given,
            database.display()
        )));
    }
    if selected.inputs.is_empty() {
        return Err(fail(format!(
            "{}: no C file to check in its {} entries",
            database.display(),
            entries.len()
        )));
    }
    selected.notes.insert(
        0,
        format!(
            "{}: {} C translation units from {} entries",
            database.display(),
            selected.inputs.len(),
            entries.len()
        ),
    );
    Ok(selected)
}

/// `path` (absolute) without its `..` components when it names the same file or directory
/// without them (no symbolic link in the way), so that reports name files as a user would.
fn tidy(path: PathBuf) -> PathBuf {
    if !path.components().any(|c| c == Component::ParentDir) {
        return path;
    }
    let mut clean = PathBuf::new();
    for c in path.components() {
        if c == Component::ParentDir {
            clean.pop();
        } else {
            clean.push(c);
        }
    }
    match (std::fs::canonicalize(&path), std::fs::canonicalize(&clean)) {
        (Ok(a), Ok(b)) if a == b => clean,
        _ => path,
    }
}

/// Whether `file` is C by its name: `.c`, or `.i` (preprocessed C).
fn is_c(file: &Path) -> bool {
    file.extension().is_some_and(|e| e == "c" || e == "i")
}

/// An entry's command line, the compiler first.
fn arguments(entry: &Entry) -> Result<Vec<String>, String> {
    match (&entry.arguments, &entry.command) {
        (Some(args), _) => Ok(args.clone()),
        (None, Some(command)) => words::split(command).map_err(|e| format!("`command`: {e}")),
        (None, None) => Err("it has neither `arguments` nor `command`".to_string()),
    }
}

/// The entries of the database at `path`.
fn read(path: &Path) -> Result<Vec<Entry>, Fatal> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| {
        let in_build_dir = path.file_name().is_some_and(|f| f == FILE_NAME)
            && path.parent().is_some_and(|d| d.is_dir());
        fail(match e.kind() {
            std::io::ErrorKind::NotFound if in_build_dir => format!(
                "{name}: no such file: the build has no compilation database (CMake writes one \
                 with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, and `bear -- make` for other builds)"
            ),
            std::io::ErrorKind::NotFound => format!("{name}: no such file"),
            _ => format!("{name}: cannot read: {}", io_reason(&e)),
        })
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        // serde_json ends its messages with the position, which goes in front instead.
        let message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&suffix).unwrap_or(&message);
        // A value rejected at its first character is at column 0 for serde_json; columns count
        // from 1 in positions.
        fail(format!(
            "{name}:{}:{}: not a compilation database: {message}",
            e.line(),
            e.column().max(1)
        ))
    })
}

/// An I/O error's description without the `(os error N)` suffix.
fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_lowercase(),
        None => text,
    }
}
