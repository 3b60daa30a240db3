//! The preprocessing flags of one compiler command line (a compilation database entry), and the
//! preprocessor settings of its translation unit once the command line's global flags are added.
//!
//! Read: `-I`, `-iquote`, `-isystem`, `-D`, `-U`, `-include` (joined, `-Ifoo`, or separate,
//! `-I foo`) and `-std=`. Every other argument starting with `-` is left out and named in
//! [`Flags::ignored`]; arguments that are not flags (the compiler, the source file, a value of a
//! flag taking one) are skipped without a word. Relative directories are made absolute against
//! the entry's directory, so that the headers found through them are named in reports by paths
//! that work from anywhere; a forced include is kept as written, because the preprocessor runs in
//! the entry's directory and looks it up there first and then along the include path, as the
//! build's compiler did. This module only reads words: it never looks at the file system.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use c_frontend::syntax::preprocess::PreprocessOptions;

/// A macro flag, in command-line order (later ones win).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Macro {
    /// `-D NAME` or `-D NAME=VALUE`.
    Define(String),
    /// `-U NAME`.
    Undefine(String),
}

/// What one command line says about preprocessing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `-I`, absolute.
    pub include_dirs: Vec<PathBuf>,
    /// `-iquote`, absolute.
    pub quote_dirs: Vec<PathBuf>,
    /// `-isystem`, absolute.
    pub system_dirs: Vec<PathBuf>,
    /// `-D` and `-U`, in order.
    pub macros: Vec<Macro>,
    /// The last `-std=`.
    pub std: Option<String>,
    /// `-include`, as written.
    pub forced_includes: Vec<PathBuf>,
    /// The flags left out, as spelled (without the value of one that takes a separate value),
    /// each once, in the order they first appear.
    pub ignored: Vec<String>,
}

/// The flags locksmith reads, and what each value is.
#[derive(Clone, Copy)]
enum Read {
    Include,
    Quote,
    System,
    Define,
    Undefine,
    Forced,
}

/// Read flags that take a value, joined or separate. `-include` comes before `-i…` flags that
/// it could be mistaken for; `-include-pch` is a different flag (see [`VALUED`]).
const READ: &[(&str, Read)] = &[
    ("-I", Read::Include),
    ("-iquote", Read::Quote),
    ("-isystem", Read::System),
    ("-D", Read::Define),
    ("-U", Read::Undefine),
    ("-include", Read::Forced),
];

/// Flags left out whose value is the next argument, which must not be read as a flag itself.
const VALUED: &[&str] = &[
    "-o",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-Xlinker",
    "-Xpreprocessor",
    "-Xassembler",
    "-Xclang",
    "-imacros",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-imultilib",
    "-isysroot",
    "-include-pch",
    "-arch",
    "-target",
    "-aux-info",
    "--param",
    "-L",
    "-l",
    "-T",
    "-u",
    "-z",
];

/// The flags of `args`, the arguments after the compiler's name, of an entry built in
/// `directory` (absolute). A read flag without its value is an error.
pub fn extract(args: &[String], directory: &Path) -> Result<Flags, String> {
    let mut flags = Flags::default();
    let ignore = |flag: &str, flags: &mut Flags| {
        if !flags.ignored.iter().any(|f| f == flag) {
            flags.ignored.push(flag.to_string());
        }
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            continue;
        }
        if let Some(std) = arg
            .strip_prefix("-std=")
            .or_else(|| arg.strip_prefix("--std="))
        {
            flags.std = Some(std.to_string());
            continue;
        }
        if VALUED.contains(&arg.as_str()) {
            ignore(arg, &mut flags);
            rest.next();
            continue;
        }
        let Some(&(flag, what)) = READ.iter().find(|(flag, _)| arg.starts_with(flag)) else {
            ignore(arg, &mut flags);
            continue;
        };
        let value = match &arg[flag.len()..] {
            "" => rest
                .next()
                .ok_or_else(|| format!("`{flag}` at the end of the command has no value"))?,
            joined => joined,
        };
        let dir = || absolute(directory, Path::new(value));
        match what {
            Read::Include => flags.include_dirs.push(dir()),
            Read::Quote => flags.quote_dirs.push(dir()),
            Read::System => flags.system_dirs.push(dir()),
            Read::Define => flags.macros.push(Macro::Define(value.to_string())),
            Read::Undefine => flags.macros.push(Macro::Undefine(value.to_string())),
            Read::Forced => flags.forced_includes.push(PathBuf::from(value)),
        }
    }
    Ok(flags)
}

/// `path` made absolute against `base` (absolute), without `.` components. Purely lexical: `..`
/// is kept, since it means something else when the path goes through a symbolic link.
pub fn absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = base.join(path);
    joined
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect()
}

/// The preprocessor settings of a unit with `flags`, built in `directory`: its own flags, then the
/// command line's `global` ones (whose relative paths are made absolute against `cwd`, since the
/// preprocessor runs in `directory`). A global `-D` or `-U` overrides the unit's for its name, a
/// global `--std` replaces the unit's, global directories and forced includes come after the
/// unit's. The compiler is locksmith's own (`global.compiler`), not the build's.
pub fn unit_options(
    flags: &Flags,
    global: &PreprocessOptions,
    cwd: &Path,
    directory: &Path,
) -> PreprocessOptions {
    let then_global = |own: &[PathBuf], global: &[PathBuf]| -> Vec<PathBuf> {
        own.iter()
            .cloned()
            .chain(global.iter().map(|p| absolute(cwd, p)))
            .collect()
    };
    let macros = flags
        .macros
        .iter()
        .cloned()
        .chain(global.defines.iter().cloned().map(Macro::Define))
        .chain(global.undefines.iter().cloned().map(Macro::Undefine));
    let (defines, undefines) = settle(macros);
    PreprocessOptions {
        compiler: global.compiler.clone(),
        include_dirs: then_global(&flags.include_dirs, &global.include_dirs),
        quote_dirs: then_global(&flags.quote_dirs, &global.quote_dirs),
        system_dirs: then_global(&flags.system_dirs, &global.system_dirs),
        defines,
        undefines,
        std: global.std.clone().or_else(|| flags.std.clone()),
        forced_includes: then_global(&flags.forced_includes, &global.forced_includes),
        working_dir: Some(directory.to_path_buf()),
    }
}

/// Macros that build systems define only to say how an object is generated, not what its code
/// means: libtool compiles a library's files twice, once with `-fPIC -DPIC` for the shared
/// library and once without for the static one (and with `-DDLL_EXPORT` for a Windows DLL), and
/// gcc's own `-fPIC`/`-fPIE` spellings; CMake defines `<target>_EXPORTS` for the sources of a
/// shared library ([`is_code_generation_macro`]). A source file listed with settings that
/// differ only in these is one translation unit of the program, not two.
pub const CODE_GENERATION_MACROS: &[&str] = &[
    "PIC",
    "__PIC__",
    "__pic__",
    "__PIE__",
    "__pie__",
    "DLL_EXPORT",
];

/// Whether the macro `name` only says how an object is generated: one of
/// [`CODE_GENERATION_MACROS`], or CMake's `<target>_EXPORTS`.
pub fn is_code_generation_macro(name: &str) -> bool {
    CODE_GENERATION_MACROS.contains(&name)
        || name.len() > "_EXPORTS".len() && name.ends_with("_EXPORTS")
}

/// The settings `options` stand for as a unit of the program: without the definitions and
/// undefinitions of [`CODE_GENERATION_MACROS`].
pub fn without_code_generation(options: &PreprocessOptions) -> PreprocessOptions {
    let generated = |text: &String| {
        let end = text.find(['=', '(']).unwrap_or(text.len());
        is_code_generation_macro(&text[..end])
    };
    let mut unit = options.clone();
    unit.defines.retain(|d| !generated(d));
    unit.undefines.retain(|u| !generated(u));
    unit
}

/// The definitions and undefinitions that `macros`, in command-line order, leave: for each name,
/// what its last flag says. Each list is sorted by name, so that two command lines that mean the
/// same are the same settings (the order of flags for different names means nothing).
fn settle(macros: impl Iterator<Item = Macro>) -> (Vec<String>, Vec<String>) {
    let name = |text: &str| -> String {
        let end = text.find(['=', '(']).unwrap_or(text.len());
        text[..end].to_string()
    };
    let mut last: BTreeMap<String, Macro> = BTreeMap::new();
    for m in macros {
        let key = match &m {
            Macro::Define(d) => name(d),
            Macro::Undefine(u) => name(u),
        };
        last.insert(key, m);
    }
    let mut defines = Vec::new();
    let mut undefines = Vec::new();
    for m in last.into_values() {
        match m {
            Macro::Define(d) => defines.push(d),
            Macro::Undefine(u) => undefines.push(u),
        }
    }
    (defines, undefines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        super::super::words::split(line).unwrap()
    }

    fn paths(ps: &[&str]) -> Vec<PathBuf> {
        ps.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn joined_and_separate_forms_are_read() {
        let f = extract(
            &args(
                "-Iinc -I /abs/inc -iquote q -isystemsys -DA -D B=2 -UC -U D \
                 -include pre.h -includeother.h -std=gnu99 -std=c11 a.c",
            ),
            Path::new("/build"),
        )
        .unwrap();
        assert_eq!(f.include_dirs, paths(&["/build/inc", "/abs/inc"]));
        assert_eq!(f.quote_dirs, paths(&["/build/q"]));
        assert_eq!(f.system_dirs, paths(&["/build/sys"]));
        assert_eq!(
            f.macros,
            [
                Macro::Define("A".into()),
                Macro::Define("B=2".into()),
                Macro::Undefine("C".into()),
                Macro::Undefine("D".into()),
            ]
        );
        assert_eq!(f.forced_includes, paths(&["pre.h", "other.h"]));
        assert_eq!(f.std.as_deref(), Some("c11"));
        assert!(f.ignored.is_empty(), "{:?}", f.ignored);
    }

    #[test]
    fn code_generation_macros_do_not_make_another_unit() {
        let unit = |line: &str| {
            let f = extract(&args(line), Path::new("/b")).unwrap();
            let options = unit_options(
                &f,
                &PreprocessOptions::default(),
                Path::new("/"),
                Path::new("/b"),
            );
            without_code_generation(&options)
        };
        let plain = unit("cc -DLEVEL=2 -c a.c");
        assert_eq!(unit("cc -fPIC -DPIC -DLEVEL=2 -c a.c"), plain);
        assert_eq!(unit("cc -DLEVEL=2 -Dcounter_EXPORTS -c a.c"), plain);
        assert_eq!(unit("cc -DLEVEL=2 -UPIC -DDLL_EXPORT -c a.c"), plain);
        assert_ne!(unit("cc -DLEVEL=3 -DPIC -c a.c"), plain);
        assert_ne!(unit("cc -DLEVEL=2 -D_EXPORTS -c a.c"), plain);
        assert_ne!(unit("cc -DLEVEL=2 -DPICTURES -c a.c"), plain);
    }

    #[test]
    fn relative_directories_are_made_absolute_against_the_entry() {
        let f = extract(&args("-I. -I./a/../b -I../up"), Path::new("/p/build")).unwrap();
        assert_eq!(
            f.include_dirs,
            paths(&["/p/build", "/p/build/a/../b", "/p/build/../up"])
        );
    }

    #[test]
    fn other_flags_are_ignored_once_each_and_their_values_skipped() {
        let f = extract(
            &args("-O2 -Wall -o -Inot_a_dir.o -c a.c -O2 -x c -MF deps.d -pthread -- -Ilate"),
            Path::new("/b"),
        )
        .unwrap();
        assert_eq!(
            f.ignored,
            ["-O2", "-Wall", "-o", "-c", "-x", "-MF", "-pthread"]
        );
        assert!(f.include_dirs.is_empty(), "a value of -o, then after --");
        // `-include-pch` is not `-include` with a joined value.
        let f = extract(&args("-include-pch x.pch"), Path::new("/b")).unwrap();
        assert!(f.forced_includes.is_empty());
        assert_eq!(f.ignored, ["-include-pch"]);
    }

    #[test]
    fn a_flag_without_its_value_is_an_error() {
        let e = extract(&args("-c a.c -I"), Path::new("/b")).unwrap_err();
        assert!(e.contains("`-I`"), "{e}");
        assert!(extract(&args("-D"), Path::new("/b")).is_err());
    }

    #[test]
    fn the_last_flag_for_a_macro_wins_and_global_flags_come_last() {
        let f = extract(
            &args("-DA=1 -UA -DB -DB=2 -UC -DC -DF(x)=x -UF -DKEEP"),
            Path::new("/b"),
        )
        .unwrap();
        let global = PreprocessOptions {
            include_dirs: paths(&["mine"]),
            defines: vec!["KEEP=global".into()],
            undefines: vec!["B".into()],
            std: Some("gnu11".into()),
            forced_includes: paths(&["/abs.h"]),
            ..PreprocessOptions::default()
        };
        let f = Flags {
            include_dirs: paths(&["/b/own"]),
            std: Some("c99".into()),
            ..f
        };
        let o = unit_options(&f, &global, Path::new("/home/u"), Path::new("/b"));
        assert_eq!(o.defines, ["C", "KEEP=global"]);
        assert_eq!(o.undefines, ["A", "B", "F"]);
        assert_eq!(o.include_dirs, paths(&["/b/own", "/home/u/mine"]));
        assert_eq!(o.forced_includes, paths(&["/abs.h"]));
        assert_eq!(o.std.as_deref(), Some("gnu11"));
        assert_eq!(o.working_dir, Some(PathBuf::from("/b")));
        assert_eq!(o.compiler, global.compiler);
    }

    #[test]
    fn the_same_flags_in_another_order_are_the_same_settings() {
        let unit = |line: &str| {
            let f = extract(&args(line), Path::new("/b")).unwrap();
            unit_options(
                &f,
                &PreprocessOptions::default(),
                Path::new("/"),
                Path::new("/b"),
            )
        };
        assert_eq!(unit("-DA -DB=1 -UC"), unit("-UC -DB=1 -DA -DA"));
        assert_ne!(unit("-DA -DB=1"), unit("-DA -DB=2"));
        assert_ne!(unit("-Ix -Iy"), unit("-Iy -Ix"));
    }
}
