//! Shrinking a fuzz seed: the system-header declarations that the seed's own code never needs,
//! directly or through other declarations it needs, are blanked. A fixture preprocessed with
//! glibc's headers is mostly header text (1,500 lines for 60 of its own), and parsing that text
//! again for every mutant was most of a mutant's cost; shrunk, the mutants are small and the
//! mutations land in the program's own code and in the declarations it uses.
//!
//! Which names a declaration declares is guessed from its tokens; a wrong guess can only keep
//! too much or drop something needed, and [`super::corpus`] keeps a shrunk seed only when
//! locksmith's report on it is the same as on the original.

use std::collections::{BTreeMap, BTreeSet};

/// One top-level item of a preprocessed unit: its lines, whether they all come from a system
/// header, the names it declares and every identifier it mentions.
struct Item {
    lines: Vec<usize>,
    in_header: bool,
    declares: BTreeSet<String>,
    mentions: BTreeSet<String>,
}

const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Noreturn",
    "__inline",
    "__restrict",
    "__extension__",
    "__const",
];

/// The identifiers and punctuation of a line, string and character literals skipped.
fn words(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&line[start..i]);
        } else if c.is_ascii_whitespace() || c.is_ascii_digit() {
            i += 1;
        } else {
            out.push(&line[i..i + 1]);
            i += 1;
        }
    }
    out
}

fn is_ident(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && !KEYWORDS.contains(&w)
}

/// The names an item declares: a tag after `struct`, `union` or `enum`; every identifier in an
/// enum's braces; and, for each declarator, the last identifier outside parentheses and braces
/// before the declarator's first `(`, `[`, `=`, `,` or `;` (or the first one inside parentheses,
/// for a function-pointer declarator). `__attribute__` and `__asm__` groups are skipped.
fn declared(words: &[&str]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let (mut parens, mut braces) = (0usize, 0usize);
    let mut last: Option<&str> = None;
    let mut in_group: Option<&str> = None;
    let mut done = false;
    let mut enum_body = false;
    let mut skip_group = false;
    for (k, &w) in words.iter().enumerate() {
        match w {
            "(" => {
                if parens == 0 && braces == 0 && last.is_some() {
                    done = true;
                }
                if matches!(
                    words.get(k.wrapping_sub(1)),
                    Some(&("__attribute__" | "__asm__" | "__asm"))
                ) && parens == 0
                {
                    skip_group = true;
                }
                parens += 1;
            }
            ")" => {
                parens = parens.saturating_sub(1);
                if parens == 0 {
                    skip_group = false;
                }
            }
            "{" => {
                if braces == 0
                    && k >= 1
                    && (words[k - 1] == "enum" || words.get(k.wrapping_sub(2)) == Some(&"enum"))
                {
                    enum_body = true;
                }
                braces += 1;
            }
            "}" => {
                braces = braces.saturating_sub(1);
                if braces == 0 {
                    enum_body = false;
                }
            }
            "[" | "=" if parens == 0 && braces == 0 => done = true,
            "," | ";" if parens == 0 && braces == 0 => {
                out.extend(last.or(in_group).map(str::to_string));
                last = None;
                in_group = None;
                done = false;
            }
            _ if is_ident(w) => {
                let tag = matches!(
                    words.get(k.wrapping_sub(1)),
                    Some(&("struct" | "union" | "enum"))
                );
                let skipped = skip_group || w == "__attribute__" || w.starts_with("__asm");
                if enum_body || tag {
                    out.insert(w.to_string());
                } else if skipped {
                    continue;
                } else if parens == 0 && braces == 0 && !done {
                    last = Some(w);
                } else if parens > 0 && braces == 0 && in_group.is_none() && last.is_none() {
                    in_group = Some(w);
                }
            }
            _ => {}
        }
    }
    out.extend(last.or(in_group).map(str::to_string));
    out
}

/// Splits the unit into items. A line starting with `#` (a line marker) belongs to no item; an
/// item ends on a line where the bracket depth is back at zero after a `;`, or after the `}` of a
/// function body (a `}` not followed by a declarator).
fn items(lines: &[&str]) -> Vec<Item> {
    let mut out = Vec::new();
    let mut own_file: Option<String> = None;
    let mut in_header = false;
    let mut depth = 0i64;
    let mut cur: Vec<usize> = Vec::new();
    let mut cur_words: Vec<&str> = Vec::new();
    let mut cur_header = true;
    for (n, line) in lines.iter().enumerate() {
        if let Some(rest) = line.strip_prefix('#') {
            let file = rest.split('"').nth(1).unwrap_or_default();
            if own_file.is_none() {
                own_file = Some(file.to_string());
            }
            in_header = own_file.as_deref() != Some(file) && !file.starts_with('<');
            continue;
        }
        let ws = words(line);
        if ws.is_empty() && cur.is_empty() {
            continue;
        }
        cur.push(n);
        cur_header &= in_header;
        for &w in &ws {
            match w {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
        cur_words.extend(ws.iter().copied());
        let ends = depth <= 0 && matches!(ws.last(), Some(&(";" | "}")));
        if ends {
            out.push(Item {
                lines: std::mem::take(&mut cur),
                in_header: cur_header,
                declares: declared(&cur_words),
                mentions: cur_words
                    .iter()
                    .filter(|w| is_ident(w))
                    .map(|w| w.to_string())
                    .collect(),
            });
            cur_words.clear();
            cur_header = true;
            depth = 0;
        }
    }
    if !cur.is_empty() {
        out.push(Item {
            lines: cur,
            in_header: false,
            declares: BTreeSet::new(),
            mentions: BTreeSet::new(),
        });
    }
    out
}

/// `text` with the header items nothing needs replaced by empty lines (so every kept line keeps
/// its number and its line marker).
pub fn shrink(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let items = items(&lines);
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, it) in items.iter().enumerate() {
        for d in &it.declares {
            by_name.entry(d.as_str()).or_default().push(k);
        }
    }
    let mut kept: Vec<bool> = items.iter().map(|it| !it.in_header).collect();
    let mut work: Vec<usize> = (0..items.len()).filter(|&k| kept[k]).collect();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    while let Some(k) = work.pop() {
        for m in &items[k].mentions {
            if !seen.insert(m.as_str()) {
                continue;
            }
            for &j in by_name.get(m.as_str()).into_iter().flatten() {
                if !kept[j] {
                    kept[j] = true;
                    work.push(j);
                }
            }
        }
    }
    let mut blank = vec![false; lines.len()];
    for (k, it) in items.iter().enumerate() {
        if !kept[k] {
            for &n in &it.lines {
                blank[n] = true;
            }
        }
    }
    let mut out = String::with_capacity(text.len() / 4);
    for (n, line) in lines.iter().enumerate() {
        if !blank[n] {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
