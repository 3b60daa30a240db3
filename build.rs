//! Generates one test function per annotated C fixture (`tests/races/<group>/<name>.c`, or `.i`
//! for a preprocessed one), per
//! multi-file test program (`tests/programs/<name>/`) and per deadlock fixture
//! (`tests/deadlocks/<name>.c`), so that every fixture is its own test and adding a fixture needs
//! no code change. Fixtures and programs whose annotations name techniques
//! (`needs=`) also get an ablation test.

use std::path::Path;

fn ident(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether a C file names techniques in `needs=` tags (it then gets an ablation test).
fn has_technique_tags(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "c")
        && std::fs::read_to_string(path).is_ok_and(|text| text.contains("needs="))
}

/// One test per annotated deadlock fixture (`tests/deadlocks/<name>.c`).
fn deadlock_tests(root: &Path) -> String {
    let dir = root.join("tests/deadlocks");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "c"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().to_string();
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        out.push_str(&format!(
            "#[test]\nfn {}() {{ check_fixture({rel:?}); }}\n\n",
            ident(&name)
        ));
    }
    out
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = String::new();
    let races = root.join("tests/races");
    println!("cargo:rerun-if-changed={}", races.display());
    let mut fixtures = Vec::new();
    if let Ok(groups) = std::fs::read_dir(&races) {
        for g in groups.flatten() {
            let gp = g.path();
            if !gp.is_dir() {
                continue;
            }
            println!("cargo:rerun-if-changed={}", gp.display());
            if let Ok(files) = std::fs::read_dir(&gp) {
                for f in files.flatten() {
                    let fp = f.path();
                    // `.i`: a fixture already preprocessed (with its comments, `gcc -E -C`).
                    if fp.extension().is_some_and(|e| e == "c" || e == "i") {
                        fixtures.push(fp);
                    }
                }
            }
        }
    }
    fixtures.sort();
    for f in &fixtures {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().to_string();
        let group = f
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        out.push_str(&format!(
            "#[test]\nfn {}_{}() {{ check_fixture({rel:?}); }}\n\n",
            ident(&group),
            ident(&name)
        ));
        if has_technique_tags(f) {
            out.push_str(&format!(
                "#[test]\nfn ablation_{}_{}() {{ ablation({rel:?}); }}\n\n",
                ident(&group),
                ident(&name)
            ));
        }
    }
    let programs = root.join("tests/programs");
    println!("cargo:rerun-if-changed={}", programs.display());
    let mut dirs: Vec<_> = std::fs::read_dir(&programs)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut program_tests = String::new();
    for d in &dirs {
        let rel = d.strip_prefix(root).unwrap().to_string_lossy().to_string();
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        program_tests.push_str(&format!(
            "#[test]\nfn {}() {{ check_program({rel:?}); }}\n\n",
            ident(&name)
        ));
        program_tests.push_str(&format!(
            "#[test]\nfn {}_under_thread_sanitizer() {{ tsan_program({rel:?}); }}\n\n",
            ident(&name)
        ));
        let tagged = std::fs::read_dir(d)
            .map(|files| files.flatten().any(|f| has_technique_tags(&f.path())))
            .unwrap_or(false);
        if tagged {
            program_tests.push_str(&format!(
                "#[test]\nfn ablation_{}() {{ ablation({rel:?}); }}\n\n",
                ident(&name)
            ));
        }
    }
    let dir = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&dir).join("race_fixtures.rs"), out).unwrap();
    std::fs::write(
        Path::new(&dir).join("deadlock_fixtures.rs"),
        deadlock_tests(root),
    )
    .unwrap();
    std::fs::write(Path::new(&dir).join("race_programs.rs"), program_tests).unwrap();
}
