//! Preprocessing and parsing with error recovery, end to end: the preprocessor's command line and
//! error messages, and how recovery weakens only the top-level items that do not parse.

use std::path::PathBuf;

use c_frontend::syntax::embedded;
use c_frontend::syntax::parse::{parse_unit, DroppedKind, ParsedUnit};
use c_frontend::syntax::preprocess::{preprocess, PreprocessOptions, Preprocessed};
use c_frontend::syntax::srcmap::{FileTable, SourceMap};
use lang_c::ast::DeclarationSpecifier;
use lang_c::ast::{Declarator, DeclaratorKind, ExternalDeclaration, StorageClassSpecifier};
use proptest::prelude::*;

/// A fresh directory for one test's files, removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "locksmith-parse-recovery-{}-{test}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch directory");
        Scratch(dir)
    }

    fn file(&self, name: &str, text: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create directory");
        }
        std::fs::write(&path, text).expect("write test file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn gcc() -> PreprocessOptions {
    PreprocessOptions {
        compiler: "gcc".into(),
        ..PreprocessOptions::default()
    }
}

fn unit(text: &str) -> Preprocessed {
    Preprocessed {
        name: "prog.c".into(),
        text: text.into(),
    }
}

fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// The names of the functions defined in the unit, in order.
fn definitions(parsed: &ParsedUnit) -> Vec<String> {
    parsed
        .unit
        .0
        .iter()
        .filter_map(|d| match &d.node {
            ExternalDeclaration::FunctionDefinition(f) => declarator_name(&f.node.declarator.node),
            _ => None,
        })
        .collect()
}

/// The names declared (not defined) in the unit, with whether the declaration is a typedef.
fn declarations(parsed: &ParsedUnit) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for d in &parsed.unit.0 {
        if let ExternalDeclaration::Declaration(decl) = &d.node {
            let typedef = decl.node.specifiers.iter().any(|s| {
                matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
            });
            for init in &decl.node.declarators {
                if let Some(name) = declarator_name(&init.node.declarator.node) {
                    out.push((name, typedef));
                }
            }
        }
    }
    out
}

fn assert_same_shape(before: &str, after: &str) {
    assert_eq!(
        before.len(),
        after.len(),
        "recovery changed the length of the text"
    );
    let newlines = |t: &str| t.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
    assert_eq!(
        newlines(before),
        newlines(after),
        "recovery moved a newline"
    );
}

// ---------------------------------------------------------------------------------------------
// Preprocessing
// ---------------------------------------------------------------------------------------------

#[test]
fn preprocessing_resolves_system_and_shim_headers_and_user_flags() {
    let dir = Scratch::new("headers");
    dir.file("inc/local.h", b"#define LOCAL_VALUE 41\n");
    dir.file("pre.h", b"#define FORCED 1\n");
    let main = dir.file(
        "main.c",
        b"#include <pthread.h>\n#include <stdatomic.h>\n#include \"local.h\"\n\
          pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
          int v = LOCAL_VALUE + FROM_CMDLINE;\n\
          #ifdef __LOCKSMITH__\nint analysed = FORCED;\n#endif\n\
          #ifdef GONE\nint gone;\n#endif\n\
          long version = __STDC_VERSION__;\n",
    );
    let opts = PreprocessOptions {
        include_dirs: vec![dir.0.join("inc")],
        defines: vec!["FROM_CMDLINE=1".into(), "GONE".into()],
        undefines: vec!["GONE".into()],
        std: Some("gnu99".into()),
        forced_includes: vec![dir.0.join("pre.h")],
        ..gcc()
    };
    let pre = preprocess(&main, &opts).expect("preprocess");
    assert_eq!(pre.name, main.display().to_string());
    assert!(pre.text.contains("int v = 41 + 1;"), "{}", pre.text);
    assert!(pre.text.contains("int analysed = 1;"));
    assert!(!pre.text.contains("int gone;"));
    assert!(pre.text.contains("long version = 199901L;"));
    let shim = embedded::data_dir()
        .expect("data dir")
        .join("include")
        .join("stdatomic.h");
    assert!(
        pre.text.contains(&format!("\"{}\"", shim.display())),
        "stdatomic.h is not locksmith's shim"
    );

    let parsed = parse_unit(pre).expect("parse");
    assert!(parsed.dropped.is_empty(), "{:?}", parsed.dropped);
    let names: Vec<String> = declarations(&parsed).into_iter().map(|(n, _)| n).collect();
    assert!(names.iter().any(|n| n == "pthread_create"));
    assert!(names.iter().any(|n| n == "analysed"));
}

#[test]
fn preprocessed_files_are_read_as_they_are() {
    let dir = Scratch::new("dot-i");
    let text = "# 1 \"orig.c\"\n#define NOT_A_MACRO 1\nint x = NOT_A_MACRO;\n";
    let path = dir.file("unit.i", text.as_bytes());
    let pre = preprocess(&path, &gcc()).expect("read .i");
    assert_eq!(pre.text, text);
}

#[test]
fn output_that_is_not_utf8_is_decoded_lossily() {
    let dir = Scratch::new("latin1");
    let path = dir.file("latin1.c", b"char *s = \"caf\xe9\";\nint after;\n");
    let pre = preprocess(&path, &gcc()).expect("preprocess");
    assert!(pre.text.contains("\"caf\u{fffd}\""), "{}", pre.text);
    let parsed = parse_unit(pre).expect("parse");
    let names: Vec<String> = declarations(&parsed).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["s", "after"]);
}

#[test]
fn an_empty_file_is_an_empty_unit() {
    let dir = Scratch::new("empty");
    let path = dir.file("empty.c", b"");
    let parsed = parse_unit(preprocess(&path, &gcc()).expect("preprocess")).expect("parse");
    assert!(parsed.unit.0.is_empty());
    assert!(parsed.dropped.is_empty());
    let path = dir.file("blank.i", b"\n  \n\t\n");
    let parsed = parse_unit(preprocess(&path, &gcc()).expect("read")).expect("parse");
    assert!(parsed.unit.0.is_empty());
}

fn assert_one_line(message: &str) {
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "not one line: {message:?}"
    );
}

#[test]
fn a_missing_file_or_directory_is_one_clear_line() {
    let dir = Scratch::new("missing");
    let missing = dir.0.join("nope.c");
    let e = preprocess(&missing, &gcc()).expect_err("missing file");
    assert_one_line(&e.message);
    assert!(
        e.message.contains("nope.c") && e.message.contains("no such file"),
        "{e}"
    );
    let e = preprocess(&dir.0, &gcc()).expect_err("directory");
    assert_one_line(&e.message);
    assert!(e.message.contains("directory"), "{e}");
}

#[test]
fn a_preprocessor_error_keeps_its_position() {
    let dir = Scratch::new("error");
    let path = dir.file(
        "bad.c",
        b"int x;\n#error this configuration is not supported\nint y;\n",
    );
    let e = preprocess(&path, &gcc()).expect_err("#error");
    assert_one_line(&e.message);
    assert!(e.message.contains("bad.c:2:2: error:"), "{e}");
    assert!(
        e.message.contains("this configuration is not supported"),
        "{e}"
    );
    let path = dir.file("inc.c", b"#include \"no-such-header.h\"\n");
    let e = preprocess(&path, &gcc()).expect_err("missing header");
    assert_one_line(&e.message);
    assert!(
        e.message.contains("inc.c:1:10") && e.message.contains("no-such-header.h"),
        "{e}"
    );
}

#[test]
fn a_missing_compiler_is_reported() {
    let dir = Scratch::new("no-cc");
    let path = dir.file("a.c", b"int x;\n");
    let opts = PreprocessOptions {
        compiler: "definitely-not-a-compiler".into(),
        ..gcc()
    };
    let e = preprocess(&path, &opts).expect_err("no compiler");
    assert_one_line(&e.message);
    assert!(e.message.contains("definitely-not-a-compiler"), "{e}");
    assert!(e.message.contains("LOCKSMITH_CC"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Recovery
// ---------------------------------------------------------------------------------------------

const CONDITIONAL: &str = "# 1 \"prog.c\"
int good1(int x) { return x + 1; }
int
bad(int a, int b)
{
    return @a;
}
int good2(void) { return good1(2); }
";

#[test]
fn a_function_using_a_c2x_attribute_is_kept_as_a_declaration() {
    let parsed = parse_unit(unit(CONDITIONAL)).expect("parse");
    assert_same_shape(CONDITIONAL, &parsed.text);
    assert_eq!(definitions(&parsed), ["good1", "good2"]);
    assert_eq!(declarations(&parsed), [("bad".to_string(), false)]);
    assert_eq!(parsed.dropped.len(), 1);
    let d = &parsed.dropped[0];
    assert_eq!(
        (d.name.as_str(), d.kind),
        ("bad", DroppedKind::FunctionBody)
    );
    assert!(d.reason.contains("unexpected `@`"), "{}", d.reason);
    assert!(d.reason.contains("prog.c:5:12"), "{}", d.reason);
}

#[test]
fn dropped_offsets_map_to_their_original_lines() {
    let text = "# 1 \"prog.c\"\nint ok;\n# 10 \"lib.h\" 1\ntypedef enum { A = @1 } auto_t;      \n# 3 \"prog.c\" 2\n\ndouble label_address = @1.0;    \nint\nf(void)\n{\n  return @2;\n}\nauto_t use;\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_same_shape(text, &parsed.text);
    let mut files = FileTable::new();
    let map = SourceMap::new(&parsed.text, "prog.c", &mut files);
    let found: Vec<(String, DroppedKind, String, u32)> = parsed
        .dropped
        .iter()
        .map(|d| {
            let p = map.pos(d.offset);
            (
                d.name.clone(),
                d.kind,
                files.name(p.file).to_string(),
                p.line,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "auto_t".to_string(),
                DroppedKind::Typedef,
                "lib.h".to_string(),
                10
            ),
            (
                "label_address".to_string(),
                DroppedKind::Declaration,
                "prog.c".to_string(),
                4
            ),
            (
                "f".to_string(),
                DroppedKind::FunctionBody,
                "prog.c".to_string(),
                6
            ),
        ]
    );
    assert!(
        parsed.dropped[0].reason.contains("unexpected `@`"),
        "{}",
        parsed.dropped[0].reason
    );
    assert!(
        parsed.dropped[1].reason.contains("unexpected `@`"),
        "{}",
        parsed.dropped[1].reason
    );
    // The typedef stub keeps later uses of the name parsing.
    assert!(declarations(&parsed).contains(&("auto_t".to_string(), true)));
    assert!(declarations(&parsed).contains(&("use".to_string(), false)));
}

#[test]
fn a_bad_typedef_becomes_an_int_typedef() {
    let text =
        "typedef struct { int a : @3; } bad_t;\nbad_t value;\nint f(bad_t *p) { return 0; }\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_same_shape(text, &parsed.text);
    assert_eq!(parsed.dropped.len(), 1);
    assert_eq!(
        (parsed.dropped[0].name.as_str(), parsed.dropped[0].kind),
        ("bad_t", DroppedKind::Typedef)
    );
    assert!(
        parsed.text.starts_with("typedef int bad_t;"),
        "{}",
        parsed.text
    );
    assert_eq!(definitions(&parsed), ["f"]);
    assert!(declarations(&parsed).contains(&("value".to_string(), false)));
}

#[test]
fn a_bad_global_declaration_is_removed() {
    let text = "int before = 1;\nint table[] = { 1, @3 };\nint after(void) { return before; }\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_same_shape(text, &parsed.text);
    assert_eq!(parsed.dropped.len(), 1);
    assert_eq!(
        (parsed.dropped[0].name.as_str(), parsed.dropped[0].kind),
        ("table", DroppedKind::Declaration)
    );
    assert_eq!(declarations(&parsed), [("before".to_string(), false)]);
    assert_eq!(definitions(&parsed), ["after"]);
}

#[test]
fn several_errors_in_one_unit_are_all_recovered() {
    let text = "int a(int x) { return @x; }\n\
                int b(void) { return 2; }\n\
                void c(void *p) { int q = p @ 1; }\n\
                struct s { int f; } shared;\n\
                int d(void) { l: int y = 3; return y; }\n\
                int e(int z) { enum __attribute__((packed)) k { K } v = K; return v + z; }\n\
                int g(void) { return shared.f; }\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_same_shape(text, &parsed.text);
    // `d` (a declaration after a label) and `e` (an attribute before an enum's tag) parse.
    assert_eq!(definitions(&parsed), ["b", "d", "e", "g"]);
    assert!(
        parsed.dropped[0].reason.contains("unexpected `@`"),
        "{}",
        parsed.dropped[0].reason
    );
    let dropped: Vec<(&str, DroppedKind)> = parsed
        .dropped
        .iter()
        .map(|d| (d.name.as_str(), d.kind))
        .collect();
    assert_eq!(
        dropped,
        [
            ("a", DroppedKind::FunctionBody),
            ("c", DroppedKind::FunctionBody)
        ]
    );
    assert!(
        parsed.dropped[1].reason.contains("unexpected `@`"),
        "{}",
        parsed.dropped[1].reason
    );
    assert!(declarations(&parsed).contains(&("shared".to_string(), false)));
}

#[test]
fn a_struct_with_a_declarator_ends_at_its_semicolon() {
    let text = "struct s { int a; int b; } x, *px = &x;\nint f(void) { return @x.a; }\nint g(void) { return px->b; }\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_eq!(definitions(&parsed), ["g"]);
    let names: Vec<String> = declarations(&parsed).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["x", "px", "f"]);
    assert_eq!(parsed.dropped.len(), 1);
    assert_eq!(parsed.dropped[0].name, "f");
}

#[test]
fn an_unterminated_function_keeps_its_signature() {
    let text = "int ok(void) { return 0; }\nint broken(int x) {\n  if (x) {\n    return 1;\n";
    let parsed = parse_unit(unit(text)).expect("parse");
    assert_eq!(definitions(&parsed), ["ok"]);
    assert_eq!(parsed.dropped.len(), 1);
    assert_eq!(
        (parsed.dropped[0].name.as_str(), parsed.dropped[0].kind),
        ("broken", DroppedKind::FunctionBody)
    );
    assert!(
        parsed.dropped[0].reason.contains("end of input"),
        "{}",
        parsed.dropped[0].reason
    );
}

#[test]
fn deep_else_if_chains_parse() {
    let mut text = String::from("int f(int x) {\n  if (x == 0) return 0;\n");
    for i in 1..5000 {
        text.push_str(&format!("  else if (x == {i}) return {i};\n"));
    }
    text.push_str("  return -1;\n}\n");
    let parsed = parse_unit(unit(&text)).expect("parse");
    assert_eq!(definitions(&parsed), ["f"]);
}

#[test]
fn absurdly_deep_nesting_is_removed_rather_than_overflowing() {
    let depth = 60_000;
    let text = format!(
        "int ok;\nint deep = {}1{};\nint after;\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let parsed = parse_unit(unit(&text)).expect("parse");
    assert_eq!(parsed.dropped.len(), 1);
    assert_eq!(parsed.dropped[0].name, "deep");
    assert!(
        parsed.dropped[0].reason.contains("nested"),
        "{}",
        parsed.dropped[0].reason
    );
    let names: Vec<String> = declarations(&parsed).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["ok", "after"]);
}

// ---------------------------------------------------------------------------------------------
// Input that is not C
// ---------------------------------------------------------------------------------------------

#[test]
fn binary_garbage_is_not_c() {
    let mut bytes = Vec::new();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..4096 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.push((state >> 24) as u8);
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let e = parse_unit(Preprocessed {
        name: "x.c".into(),
        text,
    })
    .expect_err("binary");
    assert_one_line(&e.message);
    assert!(e.message.starts_with("x.c does not look like C:"), "{e}");
    let dir = Scratch::new("binary");
    let path = dir.file("blob.i", &[0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0]);
    let e = parse_unit(preprocess(&path, &gcc()).expect("read")).expect_err("elf");
    assert!(
        e.message.contains("does not look like C") && e.message.contains("NUL"),
        "{e}"
    );
}

#[test]
fn english_text_is_not_c() {
    let text = "Dear reader,\nthis file is a letter; it is not a program.\nYours, the tests.\n";
    let e = parse_unit(Preprocessed {
        name: "letter.c".into(),
        text: text.into(),
    })
    .expect_err("english");
    assert_one_line(&e.message);
    assert!(
        e.message.starts_with("letter.c does not look like C:"),
        "{e}"
    );
    assert!(e.message.contains("letter.c:1:1"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const SOUP: &[&str] = &[
    "int",
    "char",
    "void",
    "struct",
    "typedef",
    "static",
    "return",
    "if",
    "else",
    "while",
    "x",
    "y",
    "f",
    "T",
    "0",
    "42",
    "'c'",
    "\"s\"",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "&&",
    "=",
    "==",
    "?",
    ":",
    "+",
    "-",
    "->",
    ".",
    "...",
    "\n",
    "\n#",
    "# 1 \"a.c\"\n",
    "/*",
    "__attribute__",
    "__auto_type",
    "goto",
    "\"unterminated",
];

/// Tokens that keep brackets and lines balanced, for garbage that stays inside one body.
const GARBAGE: &[&str] = &[
    "int",
    "x",
    "y",
    "z",
    "0",
    "7",
    "'c'",
    "\"s\"",
    "()",
    "[]",
    "{}",
    "(x)",
    ";",
    ",",
    "*",
    "&",
    "&&",
    "=",
    "?",
    ":",
    "+",
    "-",
    "->",
    ".",
    "...",
    "return",
    "if",
    "else",
    "while",
    "goto",
    "__auto_type",
    "struct",
    "typedef",
    "sizeof",
    "char",
    "\n",
];

fn program(garbage_in: usize, garbage: &str) -> String {
    let mut text = String::from("# 1 \"prop.c\"\nint shared;\n");
    for i in 0..5 {
        let body = if i == garbage_in { garbage } else { "" };
        text.push_str(&format!(
            "int f{i}(int a)\n{{\n  int b = a + {i};\n  {body}\n  return b + shared;\n}}\n"
        ));
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let before = text.clone();
        if let Ok(parsed) = parse_unit(Preprocessed { name: "any.c".into(), text }) {
            assert_same_shape(&before, &parsed.text);
        }
    }

    #[test]
    fn never_panics_on_token_soup(tokens in proptest::collection::vec(proptest::sample::select(SOUP), 0..120)) {
        let text = tokens.join(" ");
        let before = text.clone();
        if let Ok(parsed) = parse_unit(Preprocessed { name: "soup.c".into(), text }) {
            assert_same_shape(&before, &parsed.text);
        }
    }

    #[test]
    fn garbage_in_one_body_spares_the_other_functions(
        target in 0usize..5,
        tokens in proptest::collection::vec(proptest::sample::select(GARBAGE), 1..25),
    ) {
        let text = program(target, &tokens.join(" "));
        let parsed = parse_unit(Preprocessed { name: "prop.c".into(), text: text.clone() }).expect("parse");
        assert_same_shape(&text, &parsed.text);
        let defined = definitions(&parsed);
        for i in (0..5).filter(|&i| i != target) {
            prop_assert!(defined.contains(&format!("f{i}")), "f{} lost: {:?} {:?}", i, defined, parsed.dropped);
        }
        for d in &parsed.dropped {
            prop_assert_eq!(&d.name, &format!("f{target}"));
        }
    }
}
