//! Files locksmith carries inside its binary (`include_str!`), so the tool runs with no installed
//! data: the annotation header and the `stdatomic.h` shim (an include directory handed to the
//! preprocessor), and the libc stubs (a C unit analysed with every program).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Headers placed in an include directory that comes before the system ones.
pub const INCLUDE_FILES: &[(&str, &str)] = &[
    (
        "locksmith.h",
        include_str!("../../../libc-stubs/include/locksmith.h"),
    ),
    (
        "stdatomic.h",
        include_str!("../../../libc-stubs/include/stdatomic.h"),
    ),
];

/// The annotation header, `locksmith.h` (README, "Per-object locks"): its name and text, for a
/// user's own build, where every macro compiles to nothing.
pub fn annotation_header() -> (&'static str, &'static str) {
    INCLUDE_FILES[0]
}

/// The libc stub unit and the files it includes, by file name.
pub const STUB_FILES: &[(&str, &str)] = &[
    ("stubs.c", include_str!("../../../libc-stubs/stubs.c")),
    (
        "locksmith_stubs.h",
        include_str!("../../../libc-stubs/locksmith_stubs.h"),
    ),
    ("errno.c", include_str!("../../../libc-stubs/errno.c")),
    ("string.c", include_str!("../../../libc-stubs/string.c")),
    ("stdlib.c", include_str!("../../../libc-stubs/stdlib.c")),
    ("stdio.c", include_str!("../../../libc-stubs/stdio.c")),
    ("unistd.c", include_str!("../../../libc-stubs/unistd.c")),
    ("socket.c", include_str!("../../../libc-stubs/socket.c")),
    ("time.c", include_str!("../../../libc-stubs/time.c")),
    ("getopt.c", include_str!("../../../libc-stubs/getopt.c")),
    ("misc.c", include_str!("../../../libc-stubs/misc.c")),
    ("intl.c", include_str!("../../../libc-stubs/intl.c")),
    ("rpc.c", include_str!("../../../libc-stubs/rpc.c")),
    ("event.c", include_str!("../../../libc-stubs/event.c")),
    ("zlib.c", include_str!("../../../libc-stubs/zlib.c")),
    ("glib.c", include_str!("../../../libc-stubs/glib.c")),
    ("verifier.c", include_str!("../../../libc-stubs/verifier.c")),
    ("atomic.c", include_str!("../../../libc-stubs/atomic.c")),
];

/// The name of the stub unit among [`STUB_FILES`].
pub const STUB_UNIT: &str = "stubs.c";

fn write_tree(dir: &Path, files: &[(&str, &str)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in files {
        let path = dir.join(name);
        // Another locksmith process may have written the same content already.
        if std::fs::read_to_string(&path)
            .map(|t| t == *text)
            .unwrap_or(false)
        {
            continue;
        }
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(())
}

/// A private directory holding the embedded files, written once per process: `include/` and
/// `stubs/`. Its name includes a hash of the contents, so different versions never mix.
pub fn data_dir() -> std::io::Result<&'static Path> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for (name, text) in INCLUDE_FILES.iter().chain(STUB_FILES) {
            for b in name.bytes().chain(text.bytes()) {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        let dir = std::env::temp_dir().join(format!(
            "locksmith-{}-{hash:016x}",
            env!("CARGO_PKG_VERSION")
        ));
        write_tree(&dir.join("include"), INCLUDE_FILES)
            .and_then(|()| write_tree(&dir.join("stubs"), STUB_FILES))
            .map(|()| dir)
            .map_err(|e| e.to_string())
    });
    dir.as_deref().map_err(|e| std::io::Error::other(e.clone()))
}
