//! Running the system C preprocessor on one translation unit.
//!
//! This module owns the command line handed to the preprocessor: locksmith's own include directory
//! comes first, so that `<locksmith.h>` and the `<stdatomic.h>` shim win over the system headers,
//! then the user's flags, then `-D__LOCKSMITH__` and the definitions that turn the GNU extensions
//! `lang-c` cannot parse (`__thread`, `__int128`, `__extension__`, …) into constructs it can. It
//! also turns every way preprocessing can fail into a single line that the command-line tool can
//! print as it is, because a run over many units must say clearly which one was unusable and why.
//!
//! Files whose name ends in `.i` are already preprocessed and are read as they are.
//!
//! Each unit can have its own flags and working directory (a build's compilation database gives
//! every translation unit its own); the preprocessor then runs in that directory, as the build's
//! compiler did.
//!
//! The preprocessor's output, and a `.i` file, is decoded as UTF-8 *lossily*: bytes that are not
//! UTF-8 (typically Latin-1 text inside string literals) become U+FFFD. Offsets are always offsets
//! into the decoded text, which is the text every later stage sees, so they stay consistent; only
//! the content of such literals changes, and the analysis never looks at it.

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::syntax::embedded;

/// The environment variable naming the C compiler used as the preprocessor (`gcc` when unset or
/// empty). It names one program, which is run as `<compiler> -E …`; it is not split into words.
pub const COMPILER_ENV: &str = "LOCKSMITH_CC";

/// Definitions added after the user's flags. `lang-c` rejects these GNU spellings, and each has a
/// standard or harmless equivalent for the purpose of race detection (measured on glibc headers
/// and user code).
const WORKAROUND_DEFINES: &[&str] = &[
    "__LOCKSMITH__",
    "__thread=_Thread_local",
    "__int128=long",
    "__int128_t=long",
    "__uint128_t=unsigned long",
    "__float128=_Float128",
    "__extension__=",
    "__builtin_types_compatible_p(a,b)=0",
];

/// How to run the preprocessor: the compiler and the user's preprocessing flags, either the run's
/// global ones or those of one translation unit of a build (a compilation database entry).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PreprocessOptions {
    /// The compiler run with `-E`; the default is `$LOCKSMITH_CC`, or `gcc` when that is unset.
    pub compiler: String,
    /// Directories searched for `#include` (`-I`), after locksmith's own include directory.
    pub include_dirs: Vec<PathBuf>,
    /// Directories searched for `#include "…"` only (`-iquote`).
    pub quote_dirs: Vec<PathBuf>,
    /// Directories searched after the `-I` ones, as system headers (`-isystem`).
    pub system_dirs: Vec<PathBuf>,
    /// Macro definitions (`-D`), each `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Macros to undefine (`-U`).
    pub undefines: Vec<String>,
    /// The language standard (`-std=`), e.g. `gnu11`.
    pub std: Option<String>,
    /// Files included before the unit (`-include`).
    pub forced_includes: Vec<PathBuf>,
    /// The directory the preprocessor runs in (a build's directory, which relative paths of its
    /// command line are relative to); `None` runs it in locksmith's own.
    pub working_dir: Option<PathBuf>,
}

impl Default for PreprocessOptions {
    fn default() -> PreprocessOptions {
        let compiler = std::env::var(COMPILER_ENV)
            .ok()
            .filter(|cc| !cc.trim().is_empty())
            .unwrap_or_else(|| "gcc".to_string());
        PreprocessOptions {
            compiler,
            include_dirs: Vec::new(),
            quote_dirs: Vec::new(),
            system_dirs: Vec::new(),
            defines: Vec::new(),
            undefines: Vec::new(),
            std: None,
            forced_includes: Vec::new(),
            working_dir: None,
        }
    }
}

/// One preprocessed unit: the input path as the user gave it, and the text to parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preprocessed {
    /// The input path as given, used to name the unit in messages and positions.
    pub name: String,
    /// The preprocessed text, with gcc's `# N "file"` line markers.
    pub text: String,
}

/// Why a unit could not be preprocessed, as one line fit to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreprocessError {
    /// A single line, naming the file and, when the preprocessor gave one, the position.
    pub message: String,
}

impl fmt::Display for PreprocessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PreprocessError {}

fn error(message: String) -> PreprocessError {
    PreprocessError { message }
}

/// Preprocesses the unit at `path` (or reads it, for a `.i` file).
///
/// An empty file is an empty unit, not an error. Every failure is reported as one line; nothing
/// here panics, and the preprocessor never waits on standard input.
pub fn preprocess(
    path: &Path,
    options: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    let name = path.display().to_string();
    check_input(path, &name)?;
    let text = if path.extension().is_some_and(|ext| ext == "i") {
        let bytes = std::fs::read(path)
            .map_err(|e| error(format!("{name}: cannot read: {}", io_reason(&e))))?;
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        run_preprocessor(path, &name, options)?
    };
    Ok(Preprocessed { name, text })
}

/// [`preprocess`] for a unit that is the same on every run (locksmith's own libc stubs): its
/// output is kept in `cache_dir` and reused while it is valid, so a small program does not pay
/// for preprocessing the stubs again on every run. An entry is named after the compiler and the
/// whole command line, and records the size and modification time of the compiler and of every
/// file the output came from (each `# N "file"` marker): a changed header or compiler makes it
/// stale, and it is made again. A cache that cannot be read or written is only not used.
pub fn preprocess_cached(
    path: &Path,
    options: &PreprocessOptions,
    cache_dir: &Path,
) -> Result<Preprocessed, PreprocessError> {
    let include_dir = embedded::data_dir()
        .map(|d| d.join("include"))
        .unwrap_or_default();
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        options.compiler.hash(&mut h);
        options.working_dir.hash(&mut h);
        arguments(path, &include_dir, options).hash(&mut h);
        h.finish()
    };
    let entry = cache_dir.join(format!("preprocessed-{key:016x}.i"));
    let stamps = entry.with_extension("stamps");
    let name = path.display().to_string();
    if let (Ok(text), Ok(recorded)) = (
        std::fs::read_to_string(&entry),
        std::fs::read_to_string(&stamps),
    ) {
        if recorded == file_stamps(&text, &options.compiler) {
            return Ok(Preprocessed { name, text });
        }
    }
    let fresh = preprocess(path, options)?;
    // Written beside the entry and renamed, so a concurrent run never reads half a file.
    let tmp = |p: &Path| {
        let mut name = p.as_os_str().to_owned();
        name.push(format!(".tmp{}", std::process::id()));
        PathBuf::from(name)
    };
    let stamped = file_stamps(&fresh.text, &options.compiler);
    let written = std::fs::create_dir_all(cache_dir)
        .and_then(|()| std::fs::write(tmp(&entry), &fresh.text))
        .and_then(|()| std::fs::write(tmp(&stamps), stamped))
        .and_then(|()| std::fs::rename(tmp(&entry), &entry))
        .and_then(|()| std::fs::rename(tmp(&stamps), &stamps));
    if written.is_err() {
        let _ = std::fs::remove_file(tmp(&entry));
        let _ = std::fs::remove_file(tmp(&stamps));
    }
    Ok(fresh)
}

/// The size and modification time of the compiler (found on `PATH` when it is a bare name) and
/// of every file named by a line marker of `text`, one per line, sorted.
fn file_stamps(text: &str, compiler: &str) -> String {
    let mut files: std::collections::BTreeSet<PathBuf> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter_map(|l| l.split_once(" \""))
        .filter_map(|(_, rest)| rest.split_once('"').map(|(f, _)| f))
        .filter(|f| !f.starts_with('<'))
        .map(PathBuf::from)
        .collect();
    let compiler_path = if compiler.contains('/') {
        Some(PathBuf::from(compiler))
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(compiler))
                .find(|p| p.is_file())
        })
    };
    files.extend(compiler_path);
    let mut out = String::new();
    for f in files {
        let stamp = std::fs::metadata(&f).ok().map(|m| {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            (m.len(), modified)
        });
        out.push_str(&format!("{} {:?}\n", f.display(), stamp));
    }
    out
}

/// Checks that `path` is a readable regular file, so that these common mistakes get a message of
/// ours rather than whatever the preprocessor would print.
fn check_input(path: &Path, name: &str) -> Result<(), PreprocessError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        ErrorKind::NotFound => error(format!("{name}: no such file")),
        _ => error(format!("{name}: cannot read: {}", io_reason(&e))),
    })?;
    if meta.is_dir() {
        return Err(error(format!("{name}: is a directory, not a C file")));
    }
    std::fs::File::open(path)
        .map_err(|e| error(format!("{name}: cannot read: {}", io_reason(&e))))?;
    Ok(())
}

/// The argument list of the preprocessor for `input`, in the documented order.
fn arguments(
    input: &Path,
    include_dir: &Path,
    options: &PreprocessOptions,
) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = vec!["-E".into()];
    let flag_path = |flag: &str, dir: &Path| {
        let mut arg = std::ffi::OsString::from(flag);
        arg.push(dir.as_os_str());
        arg
    };
    args.push(flag_path("-I", include_dir));
    for dir in &options.include_dirs {
        args.push(flag_path("-I", dir));
    }
    for (flag, dirs) in [
        ("-iquote", &options.quote_dirs),
        ("-isystem", &options.system_dirs),
    ] {
        for dir in dirs {
            args.push(flag.into());
            args.push(dir.into());
        }
    }
    args.extend(options.defines.iter().map(|d| format!("-D{d}").into()));
    args.extend(options.undefines.iter().map(|u| format!("-U{u}").into()));
    if let Some(std) = &options.std {
        let std = std.strip_prefix("-std=").unwrap_or(std);
        args.push(format!("-std={std}").into());
    }
    for file in &options.forced_includes {
        args.push("-include".into());
        args.push(file.into());
    }
    args.extend(WORKAROUND_DEFINES.iter().map(|d| format!("-D{d}").into()));
    // Whatever the file is called, it is C; a name starting with `-` must not read as an option.
    args.push("-x".into());
    args.push("c".into());
    if input.as_os_str().to_string_lossy().starts_with('-') {
        args.push(Path::new(".").join(input).into());
    } else {
        args.push(input.into());
    }
    args
}

fn run_preprocessor(
    path: &Path,
    name: &str,
    options: &PreprocessOptions,
) -> Result<String, PreprocessError> {
    let data = embedded::data_dir().map_err(|e| {
        error(format!(
            "cannot write locksmith's include directory: {}",
            io_reason(&e)
        ))
    })?;
    let compiler = &options.compiler;
    let mut command = Command::new(compiler);
    if let Some(dir) = &options.working_dir {
        // A missing directory would otherwise read as a missing compiler.
        if !dir.is_dir() {
            return Err(error(format!(
                "{name}: its build directory {} does not exist",
                dir.display()
            )));
        }
        command.current_dir(dir);
    }
    let output = command
        .args(arguments(path, &data.join("include"), options))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| match e.kind() {
            ErrorKind::NotFound => error(format!(
                "cannot run the preprocessor `{compiler}`: no such program (set {COMPILER_ENV} to a C compiler)"
            )),
            _ => error(format!("cannot run the preprocessor `{compiler}`: {}", io_reason(&e))),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(error(failure_line(&stderr, compiler, name, output.status)));
    }
    Ok(match String::from_utf8(output.stdout) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// The line that best explains a failed preprocessor run: its first `error:` line, which carries
/// the `file:line:col` position, or else its first non-empty line, or else the exit status.
fn failure_line(
    stderr: &str,
    compiler: &str,
    name: &str,
    status: std::process::ExitStatus,
) -> String {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    if let Some(line) = lines()
        .find(|l| l.contains("error:"))
        .or_else(|| lines().next())
    {
        return line.to_string();
    }
    match status.code() {
        Some(code) => {
            format!("{name}: the preprocessor `{compiler}` failed with exit status {code}")
        }
        None => format!("{name}: the preprocessor `{compiler}` was killed by a signal"),
    }
}

/// An I/O error's description without the `(os error N)` suffix, which means nothing to users.
fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_lowercase(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> PreprocessOptions {
        PreprocessOptions {
            compiler: "gcc".into(),
            ..PreprocessOptions::default()
        }
    }

    /// The cached output is reused while the files it came from are unchanged, and made again
    /// when one of them changes.
    #[test]
    fn cached_output_follows_its_headers() {
        let dir = std::env::temp_dir().join(format!("locksmith-pp-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let header = dir.join("h.h");
        let unit = dir.join("u.c");
        std::fs::write(&header, "int from_header_one;\n").unwrap();
        std::fs::write(&unit, "#include \"h.h\"\nint in_unit;\n").unwrap();
        let cache = dir.join("cache");
        let first = preprocess_cached(&unit, &options(), &cache).unwrap();
        assert!(first.text.contains("from_header_one"));
        let again = preprocess_cached(&unit, &options(), &cache).unwrap();
        assert_eq!(again.text, first.text);
        assert_eq!(
            std::fs::read_dir(&cache).unwrap().count(),
            2,
            "one entry and its stamps"
        );
        // A different length is a different stamp even within one clock tick.
        std::fs::write(&header, "int from_header_number_two;\n").unwrap();
        let changed = preprocess_cached(&unit, &options(), &cache).unwrap();
        assert!(changed.text.contains("from_header_number_two"));
        assert!(!changed.text.contains("from_header_one"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn arguments_are_in_the_documented_order() {
        let opts = PreprocessOptions {
            include_dirs: vec!["inc".into()],
            quote_dirs: vec!["quoted".into()],
            system_dirs: vec!["sys".into()],
            defines: vec!["A=1".into()],
            undefines: vec!["B".into()],
            std: Some("gnu11".into()),
            forced_includes: vec!["pre.h".into()],
            ..options()
        };
        let args: Vec<String> = arguments(Path::new("-odd.c"), Path::new("/data/include"), &opts)
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let at = |s: &str| {
            args.iter()
                .position(|a| a == s)
                .unwrap_or_else(|| panic!("{s} missing from {args:?}"))
        };
        assert_eq!(args[0], "-E");
        assert!(at("-I/data/include") < at("-Iinc"));
        assert!(at("-Iinc") < at("-iquote"));
        assert_eq!(args[at("-iquote") + 1], "quoted");
        assert!(at("-iquote") < at("-isystem"));
        assert_eq!(args[at("-isystem") + 1], "sys");
        assert!(at("-isystem") < at("-DA=1"));
        assert!(at("-DA=1") < at("-UB"));
        assert!(at("-UB") < at("-std=gnu11"));
        assert!(at("-std=gnu11") < at("-include"));
        assert_eq!(args[at("-include") + 1], "pre.h");
        assert!(at("pre.h") < at("-D__LOCKSMITH__"));
        assert!(at("-D__LOCKSMITH__") < at("-D__builtin_types_compatible_p(a,b)=0"));
        assert_eq!(args.last().map(String::as_str), Some("./-odd.c"));
    }

    /// A unit with its own working directory finds what its relative flags name there, and a
    /// working directory that does not exist is named as such.
    #[test]
    fn units_run_in_their_working_directory() {
        let dir = std::env::temp_dir().join(format!("locksmith-pp-cwd-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("build/inc")).unwrap();
        std::fs::write(dir.join("build/inc/h.h"), "int from_relative_dir;\n").unwrap();
        std::fs::write(dir.join("build/pre.h"), "int from_forced_include;\n").unwrap();
        let unit = dir.join("u.c");
        std::fs::write(&unit, "#include \"h.h\"\nint in_unit;\n").unwrap();
        let mut opts = PreprocessOptions {
            include_dirs: vec!["inc".into()],
            forced_includes: vec!["pre.h".into()],
            working_dir: Some(dir.join("build")),
            ..options()
        };
        let text = preprocess(&unit, &opts).unwrap().text;
        assert!(text.contains("from_relative_dir") && text.contains("from_forced_include"));
        opts.working_dir = Some(dir.join("gone"));
        let e = preprocess(&unit, &opts).unwrap_err();
        assert!(e.message.contains("build directory"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn the_failure_line_is_the_first_error() {
        use std::os::unix::process::ExitStatusExt;
        let exited = std::process::ExitStatus::from_raw(1 << 8);
        let killed = std::process::ExitStatus::from_raw(9);
        let stderr = "x.c: In function 'f':\nx.c:3:2: warning: w\nx.c:4:2: error: #error boom\nx.c:5:1: error: more\n";
        assert_eq!(
            failure_line(stderr, "gcc", "x.c", exited),
            "x.c:4:2: error: #error boom"
        );
        assert_eq!(
            failure_line("cc1: out of memory\n", "gcc", "x.c", exited),
            "cc1: out of memory"
        );
        assert_eq!(
            failure_line("\n", "gcc", "x.c", exited),
            "x.c: the preprocessor `gcc` failed with exit status 1"
        );
        assert_eq!(
            failure_line("", "gcc", "x.c", killed),
            "x.c: the preprocessor `gcc` was killed by a signal"
        );
    }

    #[test]
    fn io_reasons_drop_the_os_error_number() {
        let e = std::io::Error::from(ErrorKind::PermissionDenied);
        assert!(!io_reason(&e).contains("os error"));
        let e = std::io::Error::from_raw_os_error(13);
        assert_eq!(io_reason(&e), "permission denied");
    }
}
