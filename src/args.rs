//! Response files: a command-line argument `@path` stands for the arguments written in that file,
//! separated by whitespace, with quotes and backslashes as a shell reads them
//! ([`crate::compdb::words`]), so that a long list of files and flags (a build's) fits on any
//! command line. A response file may name others, up to [`DEPTH_LIMIT`] deep; relative paths are
//! relative to the current directory, wherever the `@` is. This module only expands arguments;
//! what they mean is the argument parser's business.

use std::ffi::OsString;

/// How deeply response files may name response files: a cycle ends here with an error.
pub const DEPTH_LIMIT: usize = 16;

/// The arguments of a run with every `@path` after the program's name replaced by the arguments
/// in that file. A response file that cannot be read or split is an error, as one sentence.
pub fn expand(args: impl IntoIterator<Item = OsString>) -> Result<Vec<OsString>, String> {
    let mut args = args.into_iter();
    let mut out: Vec<OsString> = args.next().into_iter().collect();
    for arg in args {
        expand_one(arg, 0, &mut out)?;
    }
    Ok(out)
}

fn expand_one(arg: OsString, depth: usize, out: &mut Vec<OsString>) -> Result<(), String> {
    // A lone `@` and an argument that is not UTF-8 are arguments like any other.
    let Some(path) = arg.to_str().and_then(|a| a.strip_prefix('@')) else {
        out.push(arg);
        return Ok(());
    };
    if path.is_empty() {
        out.push(arg);
        return Ok(());
    }
    if depth == DEPTH_LIMIT {
        return Err(format!(
            "@{path}: response files nest more than {DEPTH_LIMIT} deep (does one name itself?)"
        ));
    }
    let text = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("@{path}: no such response file"),
        _ => format!("@{path}: cannot read the response file: {e}"),
    })?;
    let text = String::from_utf8(text)
        .map_err(|_| format!("@{path}: the response file is not UTF-8 text"))?;
    let words = crate::compdb::words::split(&text)
        .map_err(|e| format!("@{path}: {e} in the response file"))?;
    for word in words {
        expand_one(word.into(), depth + 1, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: Vec<OsString>) -> Vec<String> {
        v.into_iter()
            .map(|s| s.into_string().expect("UTF-8"))
            .collect()
    }

    #[test]
    fn response_files_are_replaced_by_their_words_recursively() {
        let dir = std::env::temp_dir().join(format!("locksmith-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let inner = dir.join("inner.rsp");
        let outer = dir.join("outer.rsp");
        std::fs::write(&inner, "'with space.c'\n-DX=\"1 2\"\n").unwrap();
        std::fs::write(&outer, format!("-I inc @{}\n\tlast.c", inner.display())).unwrap();
        let args = [
            "locksmith",
            "@",
            "check",
            &format!("@{}", outer.display()),
            "tail",
        ]
        .map(OsString::from);
        assert_eq!(
            strings(expand(args).unwrap()),
            [
                "locksmith",
                "@",
                "check",
                "-I",
                "inc",
                "with space.c",
                "-DX=1 2",
                "last.c",
                "tail"
            ]
        );
        // The program's name is never expanded.
        let name = format!("@{}", outer.display());
        assert_eq!(strings(expand([OsString::from(&name)]).unwrap()), [name]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_cyclic_and_broken_response_files_are_errors() {
        let dir = std::env::temp_dir().join(format!("locksmith-args-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = format!("@{}", dir.join("none.rsp").display());
        let e = expand(["locksmith", &missing].map(OsString::from)).unwrap_err();
        assert!(e.contains("no such response file"), "{e}");
        let cycle = dir.join("cycle.rsp");
        std::fs::write(&cycle, format!("a @{}", cycle.display())).unwrap();
        let e = expand(["locksmith".into(), format!("@{}", cycle.display()).into()]).unwrap_err();
        assert!(e.contains("nest more than 16"), "{e}");
        let open = dir.join("open.rsp");
        std::fs::write(&open, "-D'X").unwrap();
        let e = expand(["locksmith".into(), format!("@{}", open.display()).into()]).unwrap_err();
        assert!(e.contains("never closed"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
