//! The source lines renderers quote: the text format's diagnostics and the HTML format's excerpts
//! and source pages. A report names files relative to the source root (`--source-root`); each
//! file is read from disk once, when it is first quoted, unless it was given in memory (a λ▷
//! program already read). A file that cannot be read is quoted nowhere: renderers fall back to
//! its name and line number.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The source files of a report, each read once, by the name the report gives it.
#[derive(Debug)]
pub struct SourceReader {
    /// The directory reports name files relative to (SARIF's `SRCROOT`), absolute.
    root: PathBuf,
    /// The lines of each file asked for so far (`None`: it cannot be read).
    files: RefCell<BTreeMap<String, Option<Vec<String>>>>,
}

impl SourceReader {
    /// Files read from disk, named relative to `root` (the current directory when not given, or
    /// when given relative).
    pub fn on_disk(root: Option<PathBuf>) -> SourceReader {
        let cwd = std::env::current_dir().unwrap_or_default();
        let root = match root {
            Some(r) if r.is_absolute() => r,
            Some(r) => cwd.join(r),
            None => cwd,
        };
        SourceReader {
            root,
            files: RefCell::default(),
        }
    }

    /// The same reader, where `name` is `text` (a λ▷ program already in memory).
    pub fn with_file(self, name: &str, text: &str) -> SourceReader {
        self.files
            .borrow_mut()
            .insert(name.to_string(), Some(split_lines(text)));
        self
    }

    /// The directory files are named relative to, absolute.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The 1-based `line` of `file` without surrounding white space, if the file can be read and
    /// has that line.
    pub fn line(&self, file: &str, line: u32) -> Option<String> {
        self.with_lines(file, |lines| {
            lines
                .get(line.checked_sub(1)? as usize)
                .map(|l| l.trim().to_string())
        })?
    }

    /// The 1-based `line` of `file` as written, if the file can be read and has that line.
    pub fn raw_line(&self, file: &str, line: u32) -> Option<String> {
        self.with_lines(file, |lines| {
            lines.get(line.checked_sub(1)? as usize).cloned()
        })?
    }

    /// `f` of the lines of `file` as written (white space kept), if the file can be read; a
    /// report names files relative to the source root ([`crate::report::check::resolve_file`]).
    pub fn with_lines<R>(&self, file: &str, f: impl FnOnce(&[String]) -> R) -> Option<R> {
        let mut files = self.files.borrow_mut();
        let lines = files.entry(file.to_string()).or_insert_with(|| {
            let path = crate::report::check::resolve_file(file, &self.root);
            std::fs::read_to_string(path)
                .ok()
                .map(|text| split_lines(&text))
        });
        lines.as_deref().map(f)
    }
}

fn split_lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}
