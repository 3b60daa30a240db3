//! The configuration file of `locksmith check`, `locksmith.toml`: its schema (typed structs that
//! reject unknown keys), finding it (the first one from the current directory upwards, or the
//! file `--config` names), checking every value, and merging it with the command line into
//! [`CheckOptions`].
//!
//! The file says what the program's own functions do (its lock API, thread creation and joins,
//! allocators, thread-safe functions, functions that never return), which become rows of the
//! library model for this run ([`c_frontend::model::user`]), and gives default preprocessor flags
//! and entry points. Every error is a [`Fatal`] of kind `error/config` at the file, line and
//! column of the offending key or value. This module never analyses and never prints.

use std::path::{Path, PathBuf};

use c_frontend::diagnostics::{Fatal, FatalKind, Place};
use c_frontend::driver::CheckOptions;
use c_frontend::entries::Entries;
use c_frontend::model::{
    Arg, Configured, ConfiguredArg, Expect, LockMode, Model, Role, TrySuccess,
};
use c_frontend::syntax::preprocess::PreprocessOptions;
use serde::Deserialize;
use solver::Techniques;
use toml::Spanned;

/// The name of the configuration file looked for.
pub const FILE_NAME: &str = "locksmith.toml";

/// Which configuration a run reads.
#[derive(Clone, Debug)]
pub enum Which {
    /// The first `locksmith.toml` in this directory (absolute: the current one) or one of its
    /// ancestors, if any; failing that, the first in one of these directories (the checked
    /// files', the compilation database's, as given) or their ancestors.
    Find(PathBuf, Vec<PathBuf>),
    /// This file (`--config FILE`); it must exist.
    File(PathBuf),
    /// None (`--no-config`).
    Ignore,
}

/// A configuration read and checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The file, as reports name it: as given, or relative to the directory the search started
    /// from.
    pub file: String,
    /// Directories for `#include` (`-I`), relative ones resolved against the file's directory.
    pub include: Vec<PathBuf>,
    /// Macro definitions (`-D`), each `NAME` or `NAME=VALUE`.
    pub define: Vec<String>,
    /// Macros to undefine (`-U`).
    pub undefine: Vec<String>,
    /// The language standard (`--std`).
    pub std: Option<String>,
    /// Files included before each input (`--include`), resolved like `include`.
    pub force_include: Vec<PathBuf>,
    /// Entry points (`--entry`).
    pub entry: Vec<String>,
    /// Check as a library (`--library`).
    pub library: bool,
    /// The functions it models.
    pub configured: Vec<Configured>,
}

/// What the command line says about the options a configuration also gives.
#[derive(Clone, Debug, Default)]
pub struct CommandLine {
    pub include: Vec<PathBuf>,
    pub define: Vec<String>,
    pub undefine: Vec<String>,
    pub std: Option<String>,
    pub forced_include: Vec<PathBuf>,
    pub entry: Vec<String>,
    pub library: bool,
    pub techniques: Techniques,
    /// `--no-deadlocks` (the configuration has no say in it).
    pub no_deadlocks: bool,
    /// `--jobs` (the configuration has no say in it).
    pub jobs: Option<std::num::NonZeroUsize>,
    /// Use the parse cache (`--no-cache` turns it off).
    pub cache: bool,
    /// `--time-limit` and `--memory-limit`.
    pub limits: solver::budget::Limits,
}

/// Reads the configuration `which` names: `Ok(None)` when there is none to read.
pub fn load(which: &Which) -> Result<Option<Config>, Fatal> {
    let (path, shown) = match which {
        Which::Ignore => return Ok(None),
        Which::File(path) => (path.clone(), path.display().to_string()),
        Which::Find(start, beside) => match find(start).or_else(|| find_beside(beside)) {
            Some(found) => found,
            None => return Ok(None),
        },
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Fatal::new(
            FatalKind::Config,
            format!("{shown}: cannot read the configuration: {e}"),
        )
    })?;
    let dir = Path::new(&shown).parent().unwrap_or(Path::new(""));
    parse(&text, &shown, dir).map(Some)
}

/// The first `locksmith.toml` in `start` or one of its ancestors: its path, and its name
/// relative to `start` (`locksmith.toml`, `../locksmith.toml`).
pub fn find(start: &Path) -> Option<(PathBuf, String)> {
    let mut shown = PathBuf::new();
    for dir in start.ancestors() {
        let path = dir.join(FILE_NAME);
        if path.is_file() {
            return Some((path, shown.join(FILE_NAME).display().to_string()));
        }
        shown.push("..");
    }
    None
}

/// The first `locksmith.toml` in one of `dirs` (as given: relative to the current directory, or
/// absolute) or their ancestors, named as found.
fn find_beside(dirs: &[PathBuf]) -> Option<(PathBuf, String)> {
    dirs.iter()
        .flat_map(|d| d.ancestors())
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(FILE_NAME))
        .find(|path| path.is_file())
        .map(|path| {
            let shown = path.display().to_string();
            (path, shown)
        })
}

/// The options of a run: the command line's, with the configuration's underneath. Lists add
/// up (the command line's include directories are searched first; a macro the command line
/// defines or undefines replaces the file's), the command line's standard replaces the file's,
/// and its entry points are added to the file's (`--library` on either side wins, except that
/// `--entry` on the command line replaces a file's `library = true`).
pub fn check_options(cli: CommandLine, config: Option<Config>) -> CheckOptions {
    let config = config.unwrap_or_default();
    let cli_defined: Vec<&str> = cli.define.iter().map(|d| macro_name(d)).collect();
    let defines = config
        .define
        .iter()
        .filter(|d| {
            let name = macro_name(d);
            !cli_defined.contains(&name) && !cli.undefine.iter().any(|u| u == name)
        })
        .chain(&cli.define)
        .cloned()
        .collect();
    let undefines = config
        .undefine
        .iter()
        .filter(|u| !cli_defined.contains(&u.as_str()))
        .chain(&cli.undefine)
        .cloned()
        .collect();
    let entries = if cli.library || (config.library && cli.entry.is_empty()) {
        Entries::Library
    } else {
        let mut names = if config.library {
            Vec::new()
        } else {
            config.entry
        };
        names.extend(cli.entry);
        // `--entry 'get, set'` names `get` and `set`.
        let mut names: Vec<String> = names
            .into_iter()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        names.dedup();
        if names.is_empty() {
            Entries::Main
        } else {
            Entries::Named(names)
        }
    };
    CheckOptions {
        preprocess: PreprocessOptions {
            include_dirs: cli.include.into_iter().chain(config.include).collect(),
            defines,
            undefines,
            std: cli.std.or(config.std),
            forced_includes: config
                .force_include
                .into_iter()
                .chain(cli.forced_include)
                .collect(),
            ..Default::default()
        },
        techniques: cli.techniques,
        no_deadlocks: cli.no_deadlocks,
        jobs: cli.jobs,
        cache: cli.cache,
        limits: cli.limits,
        entries,
        configured: config.configured,
        configuration: (!config.file.is_empty()).then_some(config.file),
    }
}

/// The name a macro definition `NAME` or `NAME=VALUE` defines.
fn macro_name(define: &str) -> &str {
    define.split('=').next().unwrap_or_default()
}

// ----- the schema -----

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileSchema {
    #[serde(default)]
    preprocess: PreprocessSchema,
    #[serde(default)]
    entries: EntriesSchema,
    #[serde(default)]
    functions: FunctionsSchema,
    #[serde(default)]
    acquire: Vec<LockSchema>,
    #[serde(default)]
    release: Vec<ReleaseSchema>,
    #[serde(default)]
    trylock: Vec<TryLockSchema>,
    #[serde(default)]
    thread_create: Vec<CreateSchema>,
    #[serde(default)]
    thread_join: Vec<JoinSchema>,
}

type Name = Spanned<String>;
type Position = Spanned<i64>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PreprocessSchema {
    #[serde(default)]
    include: Vec<Name>,
    #[serde(default)]
    define: Vec<Name>,
    #[serde(default)]
    undefine: Vec<Name>,
    std: Option<Name>,
    #[serde(default)]
    force_include: Vec<Name>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct EntriesSchema {
    #[serde(default)]
    functions: Vec<Name>,
    library: Option<Spanned<bool>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FunctionsSchema {
    #[serde(default)]
    allocators: Vec<Name>,
    #[serde(default)]
    thread_safe: Vec<Name>,
    #[serde(default)]
    never_return: Vec<Name>,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
enum ModeSchema {
    #[default]
    Exclusive,
    Shared,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
enum SuccessSchema {
    #[default]
    Zero,
    Nonzero,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LockSchema {
    function: Name,
    lock: Position,
    #[serde(default)]
    mode: ModeSchema,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReleaseSchema {
    function: Name,
    lock: Position,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryLockSchema {
    function: Name,
    lock: Position,
    #[serde(default)]
    mode: ModeSchema,
    #[serde(default)]
    success: SuccessSchema,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateSchema {
    function: Name,
    routine: Position,
    argument: Option<Position>,
    id: Option<Position>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinSchema {
    function: Name,
    id: Position,
    result: Option<Position>,
}

impl From<ModeSchema> for LockMode {
    fn from(m: ModeSchema) -> LockMode {
        match m {
            ModeSchema::Exclusive => LockMode::Exclusive,
            ModeSchema::Shared => LockMode::Shared,
        }
    }
}

impl From<SuccessSchema> for TrySuccess {
    fn from(s: SuccessSchema) -> TrySuccess {
        match s {
            SuccessSchema::Zero => TrySuccess::Zero,
            SuccessSchema::Nonzero => TrySuccess::Nonzero,
        }
    }
}

// ----- reading and checking -----

/// Parses and checks the text of a configuration file called `file` in directory `dir`.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<Config, Fatal> {
    let reader = Reader { text, file };
    let schema: FileSchema = toml::from_str(text).map_err(|e| {
        let message = e.message().trim_end().to_string();
        match e.span() {
            Some(span) => reader.error_at(span.start, message),
            None => Fatal::new(FatalKind::Config, format!("{file}: {message}")),
        }
    })?;
    let mut config = Config {
        file: file.to_string(),
        ..Config::default()
    };
    reader.preprocess(&schema.preprocess, dir, &mut config)?;
    for name in &schema.entries.functions {
        reader.identifier(name, "an entry point")?;
        config.entry.push(name.get_ref().clone());
    }
    if let Some(library) = &schema.entries.library {
        if *library.get_ref() && !config.entry.is_empty() {
            return Err(reader.error_at(
                library.span().start,
                "`library = true` checks every function as an entry point: leave out `functions`, \
                 or set `library = false`",
            ));
        }
        config.library = *library.get_ref();
    }
    config.configured = reader.functions(&schema)?;
    Ok(config)
}

/// The text being read, to turn byte offsets into places.
struct Reader<'a> {
    text: &'a str,
    file: &'a str,
}

impl Reader<'_> {
    /// The 1-based line and character column of byte `offset`.
    fn place(&self, offset: usize) -> Place {
        let mut at = offset.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        Place {
            file: self.file.to_string(),
            line: line as u32,
            column: column as u32,
        }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> Fatal {
        Fatal::at(FatalKind::Config, self.place(offset), message)
    }

    /// A C identifier, or an error naming what it should be.
    fn identifier(&self, name: &Name, what: &str) -> Result<(), Fatal> {
        if is_identifier(name.get_ref()) {
            return Ok(());
        }
        Err(self.error_at(
            name.span().start,
            format!(
                "`{}` is not a C identifier; {what} is named by one",
                name.get_ref()
            ),
        ))
    }

    fn preprocess(
        &self,
        schema: &PreprocessSchema,
        dir: &Path,
        config: &mut Config,
    ) -> Result<(), Fatal> {
        let path = |p: &Name| -> Result<PathBuf, Fatal> {
            if p.get_ref().is_empty() {
                return Err(self.error_at(p.span().start, "an empty path"));
            }
            Ok(dir.join(p.get_ref()))
        };
        for p in &schema.include {
            config.include.push(path(p)?);
        }
        for p in &schema.force_include {
            config.force_include.push(path(p)?);
        }
        for d in &schema.define {
            if !is_identifier(macro_name(d.get_ref())) {
                return Err(self.error_at(
                    d.span().start,
                    format!(
                        "`{}` is not a macro definition (`NAME` or `NAME=VALUE`)",
                        d.get_ref()
                    ),
                ));
            }
            config.define.push(d.get_ref().clone());
        }
        for u in &schema.undefine {
            self.identifier(u, "a macro")?;
            config.undefine.push(u.get_ref().clone());
        }
        if let Some(std) = &schema.std {
            let s = std.get_ref();
            if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '+') {
                return Err(self.error_at(
                    std.span().start,
                    format!("`{s}` is not a C standard (`c11`, `gnu11`, `c17`, …)"),
                ));
            }
            config.std = Some(s.clone());
        }
        Ok(())
    }

    /// An argument position written as `key = value`.
    fn position(
        &self,
        key: &str,
        value: &Position,
        expect: Expect,
    ) -> Result<ConfiguredArg, Fatal> {
        let v = *value.get_ref();
        let index = Arg::try_from(v).map_err(|_| {
            let why = if v < 0 {
                "argument positions count from 0"
            } else {
                "no function takes that many arguments"
            };
            self.error_at(value.span().start, format!("`{key} = {v}`: {why}"))
        })?;
        Ok(ConfiguredArg {
            index,
            key: key.to_string(),
            expect,
            at: Some(self.place(value.span().start)),
        })
    }

    /// A configured row, after checking its name and that its positions differ.
    fn row(&self, name: &Name, role: Role, args: Vec<ConfiguredArg>) -> Result<Configured, Fatal> {
        self.identifier(name, "a function")?;
        if Model::is_intrinsic(name.get_ref()) {
            return Err(self.error_at(
                name.span().start,
                format!(
                    "`{}` is one of locksmith's own functions and cannot be configured",
                    name.get_ref()
                ),
            ));
        }
        for (k, a) in args.iter().enumerate() {
            if let Some(b) = args[..k].iter().find(|b| b.index == a.index) {
                return Err(Fatal {
                    kind: FatalKind::Config,
                    message: format!(
                        "`{} = {}`: the same argument as `{}`",
                        a.key, a.index, b.key
                    ),
                    at: a.at.clone(),
                });
            }
        }
        Ok(Configured {
            name: name.get_ref().clone(),
            role,
            args,
            at: Some(self.place(name.span().start)),
        })
    }

    /// Every configured function, each named once.
    fn functions(&self, schema: &FileSchema) -> Result<Vec<Configured>, Fatal> {
        let mut rows = Vec::new();
        for r in &schema.acquire {
            let lock = self.position("lock", &r.lock, Expect::Pointer)?;
            let role = Role::Acquire {
                lock: lock.index,
                mode: r.mode.into(),
            };
            rows.push(self.row(&r.function, role, vec![lock])?);
        }
        for r in &schema.release {
            let lock = self.position("lock", &r.lock, Expect::Pointer)?;
            let role = Role::Release { lock: lock.index };
            rows.push(self.row(&r.function, role, vec![lock])?);
        }
        for r in &schema.trylock {
            let lock = self.position("lock", &r.lock, Expect::Pointer)?;
            let role = Role::TryAcquire {
                lock: lock.index,
                mode: r.mode.into(),
                success: r.success.into(),
            };
            rows.push(self.row(&r.function, role, vec![lock])?);
        }
        for r in &schema.thread_create {
            let routine = self.position("routine", &r.routine, Expect::Function)?;
            let argument = r
                .argument
                .as_ref()
                .map(|a| self.position("argument", a, Expect::Any))
                .transpose()?;
            let id =
                r.id.as_ref()
                    .map(|a| self.position("id", a, Expect::Pointer))
                    .transpose()?;
            let role = Role::ThreadCreate {
                routine: routine.index,
                argument: argument.as_ref().map(|a| a.index),
                id: id.as_ref().map(|a| a.index),
            };
            let args = [Some(routine), argument, id]
                .into_iter()
                .flatten()
                .collect();
            rows.push(self.row(&r.function, role, args)?);
        }
        for r in &schema.thread_join {
            let id = self.position("id", &r.id, Expect::Any)?;
            let result = r
                .result
                .as_ref()
                .map(|a| self.position("result", a, Expect::Pointer))
                .transpose()?;
            let role = Role::ThreadJoin {
                id: id.index,
                result: result.as_ref().map(|a| a.index),
            };
            let args = [Some(id), result].into_iter().flatten().collect();
            rows.push(self.row(&r.function, role, args)?);
        }
        let lists = [
            (&schema.functions.allocators, Role::Allocator),
            (&schema.functions.thread_safe, Role::ThreadSafe),
            (&schema.functions.never_return, Role::NeverReturns),
        ];
        for (names, role) in lists {
            for name in names {
                rows.push(self.row(name, role, Vec::new())?);
            }
        }
        self.named_once(&rows)?;
        Ok(rows)
    }

    /// An error at the second row of a function configured twice.
    fn named_once(&self, rows: &[Configured]) -> Result<(), Fatal> {
        let mut order: Vec<&Configured> = rows.iter().collect();
        // The later of two rows in the file is the one reported.
        order.sort_by_key(|r| r.at.as_ref().map(|p| (p.line, p.column)));
        for (k, row) in order.iter().enumerate() {
            if let Some(first) = order[..k].iter().find(|r| r.name == row.name) {
                let line = first.at.as_ref().map_or(0, |p| p.line);
                return Err(Fatal {
                    kind: FatalKind::Config,
                    message: format!(
                        "`{}` is already configured (line {line}); a function has one role",
                        row.name
                    ),
                    at: row.at.clone(),
                });
            }
        }
        Ok(())
    }
}

/// Whether `s` is a C identifier.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Config, Fatal> {
        parse(text, "locksmith.toml", Path::new("conf"))
    }

    /// The place and message of the error `text` is.
    fn error(text: &str) -> (u32, u32, String) {
        let e = parsed(text).expect_err(text);
        assert_eq!(e.kind, FatalKind::Config);
        let at = e.at.unwrap_or_else(|| panic!("no place: {}", e.message));
        assert_eq!(at.file, "locksmith.toml");
        (at.line, at.column, e.message)
    }

    #[test]
    fn the_readme_example_is_a_valid_configuration() {
        let readme = include_str!("../README.md");
        let section = &readme[readme
            .find("### Configuration (`locksmith.toml`)")
            .expect("README has a Configuration section")..];
        let start = section.find("```toml\n").expect("with a TOML example") + 8;
        let example = &section[start..start + section[start..].find("```").unwrap()];
        let config = parsed(example).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            config.include,
            [
                Path::new("conf/include"),
                Path::new("conf/third_party/include")
            ]
        );
        assert_eq!(config.define, ["NDEBUG", "MAX_WORKERS=8"]);
        assert_eq!(config.std.as_deref(), Some("gnu11"));
        let roles: Vec<(&str, Role)> = config
            .configured
            .iter()
            .map(|c| (c.name.as_str(), c.role))
            .collect();
        for expected in [
            (
                "table_read_lock",
                Role::Acquire {
                    lock: 0,
                    mode: LockMode::Shared,
                },
            ),
            (
                "spin_trylock",
                Role::TryAcquire {
                    lock: 0,
                    mode: LockMode::Exclusive,
                    success: TrySuccess::Nonzero,
                },
            ),
            (
                "task_spawn",
                Role::ThreadCreate {
                    routine: 1,
                    argument: Some(2),
                    id: Some(0),
                },
            ),
            (
                "task_wait",
                Role::ThreadJoin {
                    id: 0,
                    result: Some(1),
                },
            ),
            ("arena_alloc", Role::Allocator),
            ("hash_bytes", Role::ThreadSafe),
            ("panic_at", Role::NeverReturns),
        ] {
            assert!(roles.contains(&expected), "{expected:?} in {roles:?}");
        }
        assert_eq!(roles.len(), 13);
    }

    #[test]
    fn an_empty_file_configures_nothing() {
        let config = parsed("# nothing yet\n").unwrap();
        assert!(config.configured.is_empty() && config.define.is_empty());
        assert!(!config.library && config.entry.is_empty());
    }

    #[test]
    fn unknown_keys_are_errors_at_the_key() {
        let (line, column, message) = error("[preprocess]\nstd = \"c11\"\nincludes = [\"x\"]\n");
        assert_eq!((line, column), (3, 1));
        assert!(message.contains("unknown field `includes`"), "{message}");
        let (line, column, message) = error("[[acquire]]\nfunction = \"f\"\nlock = 0\nlocks = 1\n");
        assert_eq!((line, column), (4, 1));
        assert!(message.contains("unknown field `locks`"), "{message}");
        let (line, column, _) = error("\n\n[threads]\n");
        assert_eq!((line, column), (3, 2));
    }

    #[test]
    fn values_of_the_wrong_type_are_errors_at_the_value() {
        let (line, column, message) = error("[entries]\nlibrary = \"yes\"\n");
        assert_eq!((line, column), (2, 11));
        assert!(message.contains("invalid type"), "{message}");
        let (line, column, _) = error("[functions]\nallocators = \"pool_get\"\n");
        assert_eq!((line, column), (2, 14));
        let (line, column, _) = error("[[release]]\nfunction = 3\nlock = 0\n");
        assert_eq!((line, column), (2, 12));
        // Columns count characters, not bytes.
        let (line, column, _) = error("# é\n[[release]]\nfunction = \"ü\"\nlock = 0.5\n");
        assert_eq!((line, column), (4, 8));
    }

    #[test]
    fn bad_values_are_errors_at_the_value() {
        let cases = [
            (
                "[[acquire]]\nfunction = \"f\"\nlock = 0\nmode = \"rw\"\n",
                (4, 8),
                "unknown variant `rw`",
            ),
            (
                "[[trylock]]\nfunction = \"f\"\nlock = 0\nsuccess = \"true\"\n",
                (4, 11),
                "unknown variant `true`",
            ),
            (
                "[[acquire]]\nfunction = \"f\"\nlock = -1\n",
                (3, 8),
                "count from 0",
            ),
            (
                "[[acquire]]\nfunction = \"f\"\nlock = 256\n",
                (3, 8),
                "that many arguments",
            ),
            (
                "[[thread_create]]\nfunction = \"f\"\nroutine = 0\nargument = 0\n",
                (4, 12),
                "the same argument as `routine`",
            ),
            (
                "[[release]]\nfunction = \"my-unlock\"\nlock = 0\n",
                (2, 12),
                "not a C identifier",
            ),
            (
                "[functions]\nthread_safe = [\"__locksmith_acquire\"]\n",
                (2, 16),
                "locksmith's own functions",
            ),
            (
                "[functions]\nnever_return = [\"f\"]\n\n[[release]]\nfunction = \"f\"\nlock = 0\n",
                (5, 12),
                "`f` is already configured (line 2)",
            ),
            (
                "[preprocess]\ndefine = [\"A=1\", \"2B\"]\n",
                (2, 18),
                "not a macro definition",
            ),
            ("[preprocess]\nstd = \"c 11\"\n", (2, 7), "not a C standard"),
            (
                "[entries]\nfunctions = [\"f\"]\nlibrary = true\n",
                (3, 11),
                "leave out `functions`",
            ),
        ];
        for (text, place, message) in cases {
            let (line, column, got) = error(text);
            assert_eq!((line, column), place, "{text}: {got}");
            assert!(got.contains(message), "{text}: {got}");
        }
    }

    #[test]
    fn rows_keep_the_places_of_their_positions() {
        let config = parsed(
            "[[thread_create]]\nfunction = \"spawn\"\nroutine = 1\n  id = 0\n\n\
             [[thread_join]]\nfunction = \"wait\"\nid = 0\n",
        )
        .unwrap();
        let spawn = &config.configured[0];
        assert_eq!(
            spawn.role,
            Role::ThreadCreate {
                routine: 1,
                argument: None,
                id: Some(0)
            }
        );
        let places: Vec<(&str, u32, u32, Expect)> = spawn
            .args
            .iter()
            .map(|a| {
                let at = a.at.as_ref().unwrap();
                (a.key.as_str(), at.line, at.column, a.expect)
            })
            .collect();
        assert_eq!(
            places,
            [
                ("routine", 3, 11, Expect::Function),
                ("id", 4, 8, Expect::Pointer)
            ]
        );
        assert_eq!(
            config.configured[1].role,
            Role::ThreadJoin {
                id: 0,
                result: None
            }
        );
    }

    #[test]
    fn the_command_line_adds_to_and_overrides_the_file() {
        let config = parsed(
            "[preprocess]\ninclude = [\"inc\"]\ndefine = [\"A=1\", \"B\", \"C=3\"]\n\
             undefine = [\"D\", \"E\"]\nstd = \"c99\"\n\n[entries]\nfunctions = [\"f\"]\n",
        )
        .unwrap();
        let cli = CommandLine {
            include: vec!["cli".into()],
            define: vec!["A=2".into(), "D".into()],
            undefine: vec!["B".into()],
            std: Some("gnu11".into()),
            entry: vec!["g".into()],
            ..CommandLine::default()
        };
        let options = check_options(cli, Some(config.clone()));
        let pre = &options.preprocess;
        assert_eq!(pre.include_dirs, [Path::new("cli"), Path::new("conf/inc")]);
        assert_eq!(pre.defines, ["C=3", "A=2", "D"]);
        assert_eq!(pre.undefines, ["E", "B"]);
        assert_eq!(pre.std.as_deref(), Some("gnu11"));
        assert_eq!(
            options.entries,
            Entries::Named(vec!["f".into(), "g".into()])
        );
        assert_eq!(options.configuration.as_deref(), Some("locksmith.toml"));
        // --library on the command line wins; without flags the file's entries stay.
        let library = CommandLine {
            library: true,
            ..CommandLine::default()
        };
        assert_eq!(
            check_options(library, Some(config.clone())).entries,
            Entries::Library
        );
        let options = check_options(CommandLine::default(), Some(config));
        assert_eq!(options.entries, Entries::Named(vec!["f".into()]));
        assert_eq!(options.preprocess.std.as_deref(), Some("c99"));
        // A file's `library = true` gives way to --entry.
        let config = parsed("[entries]\nlibrary = true\n").unwrap();
        let entry = CommandLine {
            entry: vec!["g".into()],
            ..CommandLine::default()
        };
        assert_eq!(
            check_options(entry, Some(config.clone())).entries,
            Entries::Named(vec!["g".into()])
        );
        assert_eq!(
            check_options(CommandLine::default(), Some(config)).entries,
            Entries::Library
        );
        assert_eq!(
            check_options(CommandLine::default(), None).entries,
            Entries::Main
        );
    }

    #[test]
    fn the_nearest_file_upwards_is_found() {
        let base = std::env::temp_dir().join(format!("locksmith-find-{}", std::process::id()));
        let deep = base.join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(base.join(FILE_NAME), "").unwrap();
        std::fs::write(base.join("a").join(FILE_NAME), "").unwrap();
        let (path, shown) = find(&deep).expect("found");
        assert_eq!(path, base.join("a").join(FILE_NAME));
        assert_eq!(shown, format!("../../{FILE_NAME}"));
        let (_, shown) = find(&base).expect("found");
        assert_eq!(shown, FILE_NAME);
        let loaded = load(&Which::Find(deep.clone(), Vec::new()))
            .unwrap()
            .expect("loaded");
        assert_eq!(loaded.file, format!("../../{FILE_NAME}"));
        assert_eq!(load(&Which::Ignore).unwrap(), None);
        std::fs::remove_dir_all(&base).ok();
    }
}
