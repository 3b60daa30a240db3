//! Which entries of a compilation database the files named on the command line select.
//!
//! A name without glob characters is a file or a directory: it selects the entries whose file is
//! that file, or lies under that directory, comparing canonical paths (so `src/a.c`, `./src/a.c`,
//! an absolute path and a path through a symbolic link all name one file). A name with `*`, `?`
//! or `[` is a pattern matched against the end of an entry's path, component by component:
//! `server/*.c` selects every `.c` file directly in a directory called `server`, wherever it is;
//! an absolute pattern must match the whole path. `*` and `?` never match `/`.
//! This module only compares paths; it reads nothing but the file system's canonical names.

use std::path::{Component, Path, PathBuf};

/// One file, directory or pattern given on the command line.
#[derive(Clone, Debug)]
pub struct Filter {
    /// As the user wrote it, for messages.
    pub given: String,
    how: How,
}

#[derive(Clone, Debug)]
enum How {
    /// A file or a directory, canonical.
    Path(PathBuf),
    /// The components of a pattern, and whether it must match the whole path.
    Pattern { parts: Vec<String>, whole: bool },
}

impl Filter {
    /// The filter `given` names, relative paths being relative to `cwd`.
    pub fn new(given: &Path, cwd: &Path) -> Filter {
        let text = given.to_string_lossy().into_owned();
        let how = if text.contains(['*', '?', '[']) {
            How::Pattern {
                parts: given
                    .components()
                    .filter_map(|c| match c {
                        Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                        Component::ParentDir => Some("..".to_string()),
                        _ => None,
                    })
                    .collect(),
                whole: given.is_absolute(),
            }
        } else {
            How::Path(identity(&super::flags::absolute(cwd, given)))
        };
        Filter { given: text, how }
    }

    /// Whether the filter selects the entry whose file is `file` (absolute, as the database
    /// names it) and `canonical`.
    pub fn selects(&self, file: &Path, canonical: &Path) -> bool {
        match &self.how {
            How::Path(p) => canonical.starts_with(p),
            How::Pattern { parts, whole } => [file, canonical].iter().any(|path| {
                let names: Vec<String> = path
                    .components()
                    .filter_map(|c| match c {
                        Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                        Component::ParentDir => Some("..".to_string()),
                        _ => None,
                    })
                    .collect();
                if names.len() < parts.len() || (*whole && names.len() != parts.len()) {
                    return false;
                }
                let tail = &names[names.len() - parts.len()..];
                parts.iter().zip(tail).all(|(p, n)| glob(p, n))
            }),
        }
    }
}

/// The canonical path of `path`, or `path` itself when it does not exist.
pub fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Whether `name` matches the glob `pattern`: `*` any characters, `?` one, `[abc]`, `[a-z]` and
/// `[!a]` (or `[^a]`) one of a class; a `[` that is never closed is itself.
pub fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    matches(&p, &n)
}

fn matches(p: &[char], n: &[char]) -> bool {
    match p.first() {
        None => n.is_empty(),
        Some('*') => (0..=n.len()).any(|skip| matches(&p[1..], &n[skip..])),
        Some('?') => !n.is_empty() && matches(&p[1..], &n[1..]),
        Some('[') => match class(&p[1..]) {
            Some(class) => n.first().is_some_and(|&c| {
                let inside = class.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                inside != class.negated && matches(&p[1 + class.len..], &n[1..])
            }),
            None => n.first() == Some(&'[') && matches(&p[1..], &n[1..]),
        },
        Some(&c) => n.first() == Some(&c) && matches(&p[1..], &n[1..]),
    }
}

/// A character class of a pattern, `[…]`.
struct Class {
    /// Its ranges, a single character being a range of one.
    ranges: Vec<(char, char)>,
    /// Whether it starts with `!` or `^`: it matches what is in no range.
    negated: bool,
    /// How many characters of the pattern it takes after its `[`, with its `]`.
    len: usize,
}

/// The class after a `[`, or `None` when it is never closed.
fn class(p: &[char]) -> Option<Class> {
    let negated = matches!(p.first(), Some('!' | '^'));
    let mut k = usize::from(negated);
    let mut set = Vec::new();
    // A `]` first in the class is a member, not its end.
    let mut first = true;
    while let Some(&c) = p.get(k) {
        if c == ']' && !first {
            return Some(Class {
                ranges: set,
                negated,
                len: k + 1,
            });
        }
        first = false;
        if p.get(k + 1) == Some(&'-') && p.get(k + 2).is_some_and(|&e| e != ']') {
            set.push((c, p[k + 2]));
            k += 3;
        } else {
            set.push((c, c));
            k += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_within_one_name() {
        assert!(glob("*.c", "a.c"));
        assert!(glob("*.c", ".c"));
        assert!(!glob("*.c", "a.cc"));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("[ab]*", "beta"));
        assert!(!glob("[!ab]*", "beta"));
        assert!(glob("x[0-9].c", "x7.c"));
        assert!(!glob("x[0-9].c", "xa.c"));
        assert!(glob("[]]", "]"));
        assert!(glob("a[b", "a[b"), "an unclosed class is a `[`");
        assert!(glob("*a*b*", "xxaxxbxx"));
    }

    #[test]
    fn patterns_match_the_end_of_the_path() {
        let cwd = Path::new("/nowhere");
        let f = Filter::new(Path::new("server/*.c"), cwd);
        let sel = |p: &str| f.selects(Path::new(p), Path::new(p));
        assert!(sel("/p/src/server/main.c"));
        assert!(!sel("/p/src/client/main.c"));
        assert!(!sel("/p/src/server/sub/x.c"));
        let whole = Filter::new(Path::new("/p/*/a.c"), cwd);
        assert!(whole.selects(Path::new("/p/x/a.c"), Path::new("/p/x/a.c")));
        assert!(!whole.selects(Path::new("/q/p/x/a.c"), Path::new("/q/p/x/a.c")));
    }

    #[test]
    fn paths_select_their_file_or_what_is_under_their_directory() {
        let dir = std::env::temp_dir().join(format!("locksmith-select-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src/sub")).unwrap();
        std::fs::write(dir.join("src/sub/a.c"), "").unwrap();
        let a = identity(&dir.join("src/sub/a.c"));
        for given in ["src/sub/a.c", "./src/sub/../sub/a.c", "src", "src/sub"] {
            let f = Filter::new(Path::new(given), &dir);
            assert!(f.selects(&a, &a), "{given}");
        }
        for given in ["src/sub/b.c", "src/su", "other"] {
            let f = Filter::new(Path::new(given), &dir);
            assert!(!f.selects(&a, &a), "{given}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
