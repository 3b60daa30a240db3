//! Parsed units kept across runs: a unit whose preprocessed text is the same as in an earlier run
//! of the same build of locksmith is not parsed again but read back ([`ParseCache`]).
//!
//! `lang-c` parses at a few megabytes per second, and a project checked again after one file
//! changed has every other unit's text unchanged. Each parsed unit — its syntax tree, the text
//! after recovery edits and what recovery dropped — is written to the data directory's cache
//! (beside the stubs' preprocessed text) as one file named by a hash of the build, the unit's
//! name and its text, in `postcard`'s binary form. A file is used only when the name and the
//! text it records are byte for byte those of the unit, so a hash collision costs a parse,
//! never a wrong tree. Entries are written beside their place and renamed into it, so a
//! concurrent run never reads half a file; an entry that cannot be read is ignored. The cache is
//! pruned to [`MAX_BYTES`], least recently written first.
//!
//! This module never parses and never decides what a unit means: it stores and returns what
//! [`super::parse::parse_unit`] made.

use std::hash::{BuildHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lang_c::ast::TranslationUnit;
use serde::{Deserialize, Serialize};

use super::parse::{Dropped, ParsedUnit};
use super::preprocess::Preprocessed;

/// The most bytes of parsed units the cache keeps.
pub const MAX_BYTES: u64 = 2 << 30;

/// What an entry holds, as written.
#[derive(Serialize)]
struct EntryRef<'a> {
    name: &'a str,
    /// The preprocessed text the unit was parsed from.
    text: &'a str,
    /// The text after recovery edits, when it differs.
    edited: Option<&'a str>,
    unit: &'a TranslationUnit,
    dropped: &'a [Dropped],
}

/// What an entry holds, as read.
#[derive(Deserialize)]
struct Entry {
    name: String,
    text: String,
    edited: Option<String>,
    unit: TranslationUnit,
    dropped: Vec<Dropped>,
}

/// The parse cache of one build of locksmith, in one directory.
#[derive(Clone, Debug)]
pub struct ParseCache {
    dir: PathBuf,
    /// Tells builds apart: an entry written by another build is never read.
    build: u64,
}

impl ParseCache {
    /// The cache in `dir`, for the running executable; `None` when the executable cannot be
    /// identified (then nothing is cached).
    pub fn new(dir: &Path) -> Option<ParseCache> {
        Some(ParseCache {
            dir: dir.to_path_buf(),
            build: build_id()?,
        })
    }

    /// The file of the entry for `name` and `text`.
    fn entry(&self, name: &str, text: &str) -> PathBuf {
        let mut h = rustc_hash::FxBuildHasher.build_hasher();
        self.build.hash(&mut h);
        name.hash(&mut h);
        text.hash(&mut h);
        // A second hash of the text with another seed, so that the file name is unlikely to be
        // shared by two texts (which would only make them replace each other's entry).
        let mut g = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut g);
        self.dir
            .join(format!("parsed-{:016x}{:016x}.bin", h.finish(), g.finish()))
    }

    /// The parsed unit of `pre` from an earlier run, if the cache has it.
    pub fn load(&self, pre: &Preprocessed) -> Option<ParsedUnit> {
        let bytes = std::fs::read(self.entry(&pre.name, &pre.text)).ok()?;
        let entry: Entry = postcard::from_bytes(&bytes).ok()?;
        if entry.name != pre.name || entry.text != pre.text {
            return None;
        }
        Some(ParsedUnit {
            name: entry.name,
            text: entry.edited.unwrap_or(entry.text),
            unit: entry.unit,
            dropped: entry.dropped,
        })
    }

    /// Keeps `parsed`, the parse of the unit whose preprocessed text was `text`, for later runs.
    /// Failing to write it is not an error: the next run parses the unit again.
    pub fn store(&self, text: &str, parsed: &ParsedUnit) {
        let entry = EntryRef {
            name: &parsed.name,
            text,
            edited: (parsed.text != text).then_some(parsed.text.as_str()),
            unit: &parsed.unit,
            dropped: &parsed.dropped,
        };
        let Ok(bytes) = postcard::to_stdvec(&entry) else {
            return;
        };
        let path = self.entry(&parsed.name, text);
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(&tmp, &bytes))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        self.prune_once();
    }

    /// Removes the oldest entries beyond [`MAX_BYTES`], once per process.
    fn prune_once(&self) {
        static PRUNED: OnceLock<()> = OnceLock::new();
        PRUNED.get_or_init(|| prune(&self.dir, MAX_BYTES));
    }
}

/// Deletes the least recently written entries of `dir` until they hold at most `limit` bytes.
fn prune(dir: &Path, limit: u64) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = read
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("parsed-") && name.ends_with(".bin")
        })
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    entries.sort();
    for (_, len, path) in entries {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total = total.saturating_sub(len);
        }
    }
}

/// A number that changes whenever the executable does: its size and modification time, with
/// the package version.
fn build_id() -> Option<u64> {
    static ID: OnceLock<Option<u64>> = OnceLock::new();
    *ID.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let meta = std::fs::metadata(exe).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        env!("CARGO_PKG_VERSION").hash(&mut h);
        meta.len().hash(&mut h);
        modified.as_nanos().hash(&mut h);
        Some(h.finish())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(text: &str) -> Preprocessed {
        Preprocessed {
            name: "u.c".into(),
            text: text.into(),
        }
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "locksmith-parse-cache-{tag}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_stored_unit_is_read_back_whole_for_the_same_text_only() {
        let dir = scratch("roundtrip");
        let cache = ParseCache::new(&dir).expect("the test executable has an identity");
        // The second declaration does not parse: recovery drops it, and the entry keeps that.
        let text = "int x;\nint f(void) { return x + ; }\nint g(void) { return x; }\n";
        let parsed = super::super::parse::parse_unit(unit(text)).expect("recovers");
        assert!(!parsed.dropped.is_empty());
        assert!(cache.load(&unit(text)).is_none());
        cache.store(text, &parsed);
        let back = cache.load(&unit(text)).expect("cached");
        assert_eq!(back.text, parsed.text);
        assert_eq!(back.dropped, parsed.dropped);
        assert_eq!(back.unit, parsed.unit);
        assert!(cache.load(&unit("int y;\n")).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unreadable_entry_is_a_miss() {
        let dir = scratch("garbage");
        let cache = ParseCache::new(&dir).expect("identity");
        let text = "int x;\n";
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(cache.entry("u.c", text), b"not postcard").unwrap();
        assert!(cache.load(&unit(text)).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pruning_removes_the_oldest_entries_first() {
        let dir = scratch("prune");
        std::fs::create_dir_all(&dir).unwrap();
        for (k, name) in ["parsed-a.bin", "parsed-b.bin", "parsed-c.bin"]
            .iter()
            .enumerate()
        {
            let path = dir.join(name);
            std::fs::write(&path, vec![0u8; 100]).unwrap();
            let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + k as u64);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(when)
                .unwrap();
        }
        std::fs::write(dir.join("preprocessed-x.i"), vec![0u8; 500]).unwrap();
        prune(&dir, 150);
        assert!(!dir.join("parsed-a.bin").exists());
        assert!(!dir.join("parsed-b.bin").exists());
        assert!(dir.join("parsed-c.bin").exists());
        assert!(dir.join("preprocessed-x.i").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
