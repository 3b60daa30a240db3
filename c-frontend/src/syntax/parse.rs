//! Parsing one preprocessed unit with `lang-c`, with recovery from syntax errors.
//!
//! `lang-c` stops at the first syntax error of a unit, and real programs contain constructs gcc
//! reads and it did not before it was patched (`vendor/lang-c/PATCHES.md`), and C2x `[[…]]`
//! attributes, which this module blanks. One bad function must not cost the analysis
//! of the whole program, so this module owns the recovery: it
//! indexes the top-level items (external declarations) of the text with a small scanner, and on
//! each error it replaces the item containing the error by something weaker — a function by its
//! signature, a typedef by `typedef int NAME;`, anything else by nothing — and parses again. Every
//! edit keeps the text's length and newlines, and never touches a line marker, so offsets and
//! positions computed from the final text agree with the original. Whatever was removed is
//! returned, so that reports can list the functions that were not analysed and why.
//!
//! Comments are replaced by spaces first (a `.i` file written by `gcc -E -C` keeps them, and
//! `lang-c` reads none), keeping every newline.
//!
//! `lang-c`'s parser is recursive; deep `else if` chains overflow the default stack and abort the
//! process, so parsing runs on a dedicated thread with a large stack.

use std::fmt;

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor, SyntaxError};

use crate::syntax::preprocess::Preprocessed;
use crate::syntax::srcmap::{FileTable, SourceMap};

/// The stack of the parsing thread. It is only reserved address space; pages are used as deep
/// recursion needs them.
const PARSER_STACK_SIZE: usize = 1 << 30;

/// The most parses tried on one unit before giving up. Each attempt weakens at least one item,
/// so this bound is only reached by units with thousands of bad items.
const MAX_ATTEMPTS: usize = 10_000;

/// The deepest bracket nesting handed to the parser. Each level of parentheses costs `lang-c`
/// about 3 KiB of stack (measured), so an item nested deeper than this would overflow even the
/// parser's large stack, which aborts the process; such an item is removed before parsing.
const MAX_NESTING: u32 = 50_000;

/// A parsed unit and what recovery had to remove to parse it.
#[derive(Clone, Debug)]
pub struct ParsedUnit {
    /// The unit's name (its input path as given).
    pub name: String,
    /// The text `lang-c` parsed: the preprocessed text after recovery edits. It has the same
    /// length and the same newlines and line markers as the input, so a `SourceMap` built from it
    /// maps every span of `unit` to the right original position.
    pub text: String,
    /// The syntax tree.
    pub unit: TranslationUnit,
    /// The items recovery weakened or removed, in the order they appear in the text.
    pub dropped: Vec<Dropped>,
}

/// A top-level item that did not parse and what recovery kept of it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dropped {
    /// The function's name, the typedef's name(s), the declared name(s), or when no name could be
    /// found a short description of the item's first tokens.
    pub name: String,
    /// The offset in the preprocessed text of the item's name, or of its first token when it has
    /// no name.
    pub offset: usize,
    /// The syntax error, with its original position, and a note when the offending construct is
    /// a GNU extension `lang-c` is known not to support.
    pub reason: String,
    /// What was kept of the item.
    pub kind: DroppedKind,
}

/// What recovery kept of an item that did not parse.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DroppedKind {
    /// A function definition whose body was removed; its signature stays as a declaration.
    FunctionBody,
    /// A typedef replaced by `typedef int NAME;`, so that later uses of the name still parse.
    Typedef,
    /// An item removed entirely.
    Declaration,
}

/// A unit that cannot be parsed at all: it is not C, or recovery could not make it parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// One line, starting with the unit's name.
    pub message: String,
    /// The offset in the preprocessed text of the first error, when there is one.
    pub offset: Option<usize>,
    /// Whether locksmith itself failed (the parser's thread), rather than the input.
    pub internal: bool,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a preprocessed unit, recovering from syntax errors item by item.
///
/// An empty or whitespace-only unit is an empty translation unit. The result is an error only
/// when the text is not C (binary data, or nothing in it parses) or recovery gives up; nothing
/// here panics on any input.
pub fn parse_unit(pre: Preprocessed) -> Result<ParsedUnit, ParseError> {
    let name = pre.name.clone();
    let worker = std::thread::Builder::new()
        .name("locksmith-parse".into())
        .stack_size(PARSER_STACK_SIZE)
        .spawn(move || Recovery::new(pre).run());
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(ParseError {
                message: format!("{name}: internal error: the C parser panicked"),
                offset: None,
                internal: true,
            })
        }),
        Err(e) => Err(ParseError {
            message: format!("{name}: cannot start the parser thread: {e}"),
            offset: None,
            internal: true,
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// Lexing
// ---------------------------------------------------------------------------------------------

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TokKind {
    Ident,
    /// One punctuation byte; multi-byte operators come out as several tokens, which is all the
    /// scanner needs.
    Punct(u8),
    /// A number, string or character literal.
    Literal,
    /// A comment. `lang-c` does not accept comments, but they belong to the item they start.
    Comment,
}

#[derive(Copy, Clone, Debug)]
struct Tok {
    kind: TokKind,
    start: usize,
    end: usize,
}

/// Whether `b[i]` starts a line marker or other directive line, which `lang-c` skips when its
/// `#` is the first byte of a line.
fn at_directive(b: &[u8], i: usize) -> bool {
    b[i] == b'#' && (i == 0 || b[i - 1] == b'\n')
}

fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |n| i + n)
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_char(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The tokens of `b[start..end]`, skipping whitespace and directive lines. Unterminated literals
/// and comments end at the end of their line or of the range, so the lexer never fails.
struct Lexer<'a> {
    b: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Lexer<'a> {
    fn new(b: &'a [u8], start: usize, end: usize) -> Lexer<'a> {
        Lexer {
            b,
            pos: start,
            end: end.min(b.len()),
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Tok;

    fn next(&mut self) -> Option<Tok> {
        let b = self.b;
        let end = self.end;
        let mut i = self.pos;
        while i < end {
            if at_directive(b, i) {
                i = line_end(b, i);
            } else if is_space(b[i]) {
                i += 1;
            } else {
                break;
            }
        }
        if i >= end {
            self.pos = end;
            return None;
        }
        let start = i;
        let c = b[i];
        let next = b.get(i + 1).copied().filter(|_| i + 1 < end);
        let kind;
        if c == b'"' || c == b'\'' {
            kind = TokKind::Literal;
            i += 1;
            while i < end && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            if i < end && b[i] == c {
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            kind = TokKind::Comment;
            i += 2;
            while i < end && !(b[i] == b'*' && i + 1 < end && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'/' && next == Some(b'/') {
            kind = TokKind::Comment;
            i = line_end(b, i);
        } else if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            kind = TokKind::Literal;
            i += 1;
            while i < end {
                let d = b[i];
                let exponent_sign =
                    matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if is_ident_char(d) || d == b'.' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
        } else if is_ident_start(c) {
            kind = TokKind::Ident;
            while i < end && is_ident_char(b[i]) {
                i += 1;
            }
        } else {
            kind = TokKind::Punct(c);
            i += 1;
        }
        let i = i.min(end);
        self.pos = i;
        Some(Tok {
            kind,
            start,
            end: i,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Indexing top-level items
// ---------------------------------------------------------------------------------------------

/// A top-level item: `[start, end)` from its first token to its closing `;` or `}`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    start: usize,
    end: usize,
    /// The offset of the `{` opening the body, for a function definition.
    body: Option<usize>,
    /// Whether the keyword `typedef` appears at the item's top level.
    typedef: bool,
    /// Where its brackets first nest deeper than [`MAX_NESTING`], if they do.
    too_deep_at: Option<usize>,
}

/// Words followed by a parenthesised group that is not part of a declarator.
fn is_attribute_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"__attribute__"
            | b"__attribute"
            | b"__asm__"
            | b"__asm"
            | b"asm"
            | b"__declspec"
            | b"_Alignas"
            | b"__typeof__"
            | b"__typeof"
            | b"typeof"
            | b"_Static_assert"
    )
}

fn is_tag_keyword(w: &[u8]) -> bool {
    matches!(w, b"struct" | b"union" | b"enum")
}

/// C keywords and GNU spellings, which are never the name a declaration declares.
fn is_keyword(w: &[u8]) -> bool {
    is_attribute_keyword(w)
        || is_tag_keyword(w)
        || matches!(
            w,
            b"auto"
                | b"break"
                | b"case"
                | b"char"
                | b"const"
                | b"continue"
                | b"default"
                | b"do"
                | b"double"
                | b"else"
                | b"extern"
                | b"float"
                | b"for"
                | b"goto"
                | b"if"
                | b"inline"
                | b"int"
                | b"long"
                | b"register"
                | b"restrict"
                | b"return"
                | b"short"
                | b"signed"
                | b"sizeof"
                | b"static"
                | b"switch"
                | b"typedef"
                | b"unsigned"
                | b"void"
                | b"volatile"
                | b"while"
                | b"_Alignof"
                | b"_Atomic"
                | b"_Bool"
                | b"_Complex"
                | b"_Generic"
                | b"_Imaginary"
                | b"_Noreturn"
                | b"_Thread_local"
                | b"_Float32"
                | b"_Float32x"
                | b"_Float64"
                | b"_Float64x"
                | b"_Float128"
                | b"__const"
                | b"__const__"
                | b"__inline"
                | b"__inline__"
                | b"__restrict"
                | b"__restrict__"
                | b"__signed"
                | b"__signed__"
                | b"__volatile"
                | b"__volatile__"
                | b"__alignof"
                | b"__alignof__"
                | b"__extension__"
                | b"__auto_type"
                | b"__thread"
                | b"__label__"
                | b"__int128"
                | b"__float128"
        )
}

/// The top-level scanner's view of the item being read, at bracket depth 0.
#[derive(Default)]
struct ItemScan {
    start: usize,
    /// After `struct`/`union`/`enum` and only names or attributes since: a `{` opens its body.
    tag_pending: bool,
    /// The previous token is an attribute keyword: the next `(` opens an attribute group.
    attr_next: bool,
    /// The group open at depth 1 belongs to an attribute.
    group_is_attr: bool,
    /// A `=` was seen: a `{` now opens an initializer.
    saw_eq: bool,
    /// A parenthesised group that is not an attribute was closed: a `{` may open a body.
    saw_group: bool,
    body: Option<usize>,
    typedef: bool,
    too_deep_at: Option<usize>,
}

impl ItemScan {
    fn finish(self, end: usize) -> Item {
        Item {
            start: self.start,
            end,
            body: self.body,
            typedef: self.typedef,
            too_deep_at: self.too_deep_at,
        }
    }
}

/// Splits the text into top-level items in one pass.
///
/// An item ends at a `;` at bracket depth 0, or at the `}` closing a function body: a `{` at
/// depth 0 that follows a parenthesised group (a parameter list) and is neither a struct, union
/// or enum body nor an initializer. Directive lines, whitespace and everything inside literals
/// are skipped; text after the last item that does not end is one last item.
fn scan_items(b: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut cur: Option<ItemScan> = None;
    let mut depth = 0u32;
    for tok in Lexer::new(b, 0, b.len()) {
        let it = cur.get_or_insert_with(|| ItemScan {
            start: tok.start,
            ..ItemScan::default()
        });
        let top = depth == 0;
        let mut ends = false;
        match tok.kind {
            TokKind::Comment => {}
            TokKind::Punct(open @ (b'(' | b'[' | b'{')) => {
                if top {
                    match open {
                        b'(' => {
                            it.group_is_attr = it.attr_next;
                            if !it.attr_next {
                                it.tag_pending = false;
                            }
                        }
                        b'{' if it.tag_pending => it.tag_pending = false,
                        b'{' if !it.saw_eq && it.saw_group => it.body = Some(tok.start),
                        _ => it.tag_pending = false,
                    }
                    it.attr_next = false;
                }
                depth += 1;
                if depth > MAX_NESTING && it.too_deep_at.is_none() {
                    it.too_deep_at = Some(tok.start);
                }
            }
            TokKind::Punct(close @ (b')' | b']' | b'}')) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    match close {
                        b')' if !it.group_is_attr => it.saw_group = true,
                        b'}' => ends = it.body.is_some(),
                        _ => {}
                    }
                }
            }
            TokKind::Punct(b';') if top => ends = true,
            TokKind::Ident if top => {
                let w = &b[tok.start..tok.end];
                if is_tag_keyword(w) {
                    it.tag_pending = true;
                    it.attr_next = false;
                } else if is_attribute_keyword(w) {
                    it.attr_next = true;
                } else {
                    it.attr_next = false;
                    if w == b"typedef" {
                        it.typedef = true;
                        it.tag_pending = false;
                    }
                }
            }
            _ if top => {
                it.saw_eq |= tok.kind == TokKind::Punct(b'=');
                it.tag_pending = false;
                it.attr_next = false;
            }
            _ => {}
        }
        if ends {
            if let Some(it) = cur.take() {
                items.push(it.finish(tok.end));
            }
        }
    }
    if let Some(it) = cur {
        items.push(it.finish(b.len()));
    }
    items
}

// ---------------------------------------------------------------------------------------------
// Names of items
// ---------------------------------------------------------------------------------------------

fn word<'a>(b: &'a [u8], t: &Tok) -> &'a [u8] {
    &b[t.start..t.end]
}

/// The index of the bracket closing the one opened at `toks[open]` (or the last index).
fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0u32;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.kind {
            TokKind::Punct(b'(' | b'[' | b'{') => depth += 1,
            TokKind::Punct(b')' | b']' | b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// The item's tokens without comments and without attribute-like groups (`__attribute__((…))`,
/// `__asm__(…)`, `typeof(…)`, …), which never contain the declared name.
fn significant_tokens(b: &[u8], start: usize, end: usize) -> Vec<Tok> {
    let all: Vec<Tok> = Lexer::new(b, start, end)
        .filter(|t| t.kind != TokKind::Comment)
        .collect();
    let mut out = Vec::with_capacity(all.len());
    let mut k = 0;
    while k < all.len() {
        let t = all[k];
        let group_follows = all
            .get(k + 1)
            .is_some_and(|n| n.kind == TokKind::Punct(b'('));
        if t.kind == TokKind::Ident && is_attribute_keyword(word(b, &t)) && group_follows {
            k = matching(&all, k + 1) + 1;
        } else {
            out.push(t);
            k += 1;
        }
    }
    out
}

fn is_name(b: &[u8], t: &Tok) -> bool {
    t.kind == TokKind::Ident && !is_keyword(word(b, t))
}

/// The name one declarator declares, from the tokens of one comma-separated part of a
/// declaration: the identifier before a parameter list or array bound, the first name inside a
/// parenthesised pointer declarator like `(*fp)`, or else the last name that is not a tag.
fn declarator_name(b: &[u8], seg: &[Tok]) -> Option<Tok> {
    let mut last: Option<Tok> = None;
    let mut last_is_prev = false;
    let mut after_tag = false;
    let mut k = 0;
    while k < seg.len() {
        let t = seg[k];
        match t.kind {
            TokKind::Ident if is_keyword(word(b, &t)) => {
                after_tag = is_tag_keyword(word(b, &t));
                last_is_prev = false;
            }
            TokKind::Ident => {
                last_is_prev = !after_tag;
                if !after_tag {
                    last = Some(t);
                }
                after_tag = false;
            }
            TokKind::Punct(b'(') => {
                let close = matching(seg, k);
                let inner = &seg[(k + 1).min(close)..close];
                if inner
                    .first()
                    .is_some_and(|f| matches!(f.kind, TokKind::Punct(b'*' | b'^' | b'(')))
                {
                    if let Some(n) = inner.iter().find(|n| is_name(b, n)) {
                        return Some(*n);
                    }
                } else if last_is_prev {
                    return last;
                }
                k = close;
                last_is_prev = false;
                after_tag = false;
            }
            TokKind::Punct(b'[') => return last,
            TokKind::Punct(b'{') => {
                k = matching(seg, k);
                last_is_prev = false;
                after_tag = false;
            }
            _ => {
                last_is_prev = false;
                after_tag = false;
            }
        }
        k += 1;
    }
    last
}

/// The names a declaration declares, one per comma-separated declarator (initializers and
/// struct bodies skipped).
fn declared_names(b: &[u8], toks: &[Tok]) -> Vec<Tok> {
    let toks = match toks.last() {
        Some(t) if t.kind == TokKind::Punct(b';') => &toks[..toks.len() - 1],
        _ => toks,
    };
    let mut names = Vec::new();
    let mut seg_start = 0;
    let mut k = 0;
    let mut init_at: Option<usize> = None;
    while k <= toks.len() {
        let at_end = k == toks.len();
        match toks.get(k).map(|t| t.kind) {
            Some(TokKind::Punct(b'(' | b'[' | b'{')) => {
                k = matching(toks, k) + 1;
                continue;
            }
            Some(TokKind::Punct(b'=')) if init_at.is_none() => init_at = Some(k),
            Some(TokKind::Punct(b',')) | None => {
                let seg_end = init_at.unwrap_or(k);
                if let Some(n) = declarator_name(b, &toks[seg_start..seg_end]) {
                    names.push(n);
                }
                seg_start = k + 1;
                init_at = None;
            }
            _ => {}
        }
        if at_end {
            break;
        }
        k += 1;
    }
    names
}

/// A short description of an item with no name: its first few tokens.
fn describe(b: &[u8], toks: &[Tok]) -> String {
    let mut out = String::new();
    for (n, t) in toks.iter().enumerate() {
        if n == 6 || t.kind == TokKind::Punct(b'{') {
            out.push_str(if t.kind == TokKind::Punct(b'{') {
                " {…}"
            } else {
                " …"
            });
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(
            &String::from_utf8_lossy(word(b, t))
                .chars()
                .take(40)
                .collect::<String>(),
        );
    }
    if out.is_empty() {
        "an unnamed declaration".to_string()
    } else {
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Editing
// ---------------------------------------------------------------------------------------------

/// Whether byte `k` may be overwritten: everything but newlines and directive lines, which carry
/// the positions of the text around the edit.
fn writable_mask(b: &[u8], start: usize, end: usize) -> Vec<bool> {
    let mut mask = vec![true; end - start];
    let mut k = start;
    while k < end {
        if b[k] == b'\n' {
            mask[k - start] = false;
        } else if at_directive(b, k) {
            let e = line_end(b, k).min(end);
            mask[k - start..e - start]
                .iter_mut()
                .for_each(|m| *m = false);
            k = e;
            continue;
        }
        k += 1;
    }
    mask
}

/// Replaces `b[start..end]` by spaces, keeping newlines and directive lines.
fn blank(b: &mut [u8], start: usize, end: usize) {
    let mask = writable_mask(b, start, end);
    for (k, writable) in (start..end).zip(mask) {
        if writable {
            b[k] = b' ';
        }
    }
}

/// Replaces a comment's bytes by spaces, keeping its newlines.
fn blank_comment(comment: &mut [u8]) {
    for c in comment.iter_mut().filter(|c| **c != b'\n') {
        *c = b' ';
    }
}

/// Writes `words` into the writable bytes of the blank range `b[start..end]`, in order, each
/// inside one line and separated from the previous one. Returns false when they do not fit.
fn place_words(b: &mut [u8], start: usize, end: usize, words: &[String]) -> bool {
    let mask = writable_mask(b, start, end);
    let mut at = 0;
    let mut placements = Vec::with_capacity(words.len());
    for w in words {
        let mut run = 0;
        let mut found = None;
        while at < mask.len() {
            if mask[at] {
                run += 1;
                if run == w.len() {
                    found = Some(at + 1 - w.len());
                    break;
                }
            } else {
                run = 0;
            }
            at += 1;
        }
        let Some(p) = found else { return false };
        placements.push(p);
        at = p + w.len() + 1;
    }
    for (w, p) in words.iter().zip(placements) {
        b[start + p..start + p + w.len()].copy_from_slice(w.as_bytes());
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Recovery
// ---------------------------------------------------------------------------------------------

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ItemState {
    Original,
    /// Weakened once: a function reduced to its signature, a typedef to `typedef int NAME;`.
    Reduced,
    Blank,
}

/// The first syntax error found in an item, kept until the end to build its message with the
/// original position.
struct Failure {
    name: String,
    offset: usize,
    error_offset: usize,
    detail: String,
    kind: DroppedKind,
}

struct Recovery {
    name: String,
    bytes: Vec<u8>,
    items: Vec<Item>,
    states: Vec<ItemState>,
    /// For each item, its entry in `failures` once it failed.
    failure_of: Vec<Option<usize>>,
    failures: Vec<Failure>,
}

/// Why the text is plainly not C source, checked before parsing: NUL bytes, or a large share of
/// control characters and undecodable bytes.
fn binary_reason(text: &str) -> Option<(String, usize)> {
    if let Some(p) = text.find('\0') {
        return Some(("it contains NUL bytes (binary data?)".to_string(), p));
    }
    let mut total = 0usize;
    let mut bad = 0usize;
    let mut first_bad = 0;
    for (p, c) in text.char_indices() {
        total += 1;
        let text_like = !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\x0b' | '\x0c');
        if c == char::REPLACEMENT_CHARACTER || !text_like {
            if bad == 0 {
                first_bad = p;
            }
            bad += 1;
        }
    }
    (bad > 0 && bad * 8 > total).then(|| {
        (
            format!("{bad} of its {total} characters are control characters or invalid UTF-8"),
            first_bad,
        )
    })
}

/// The token at `x`, for messages.
fn token_at(b: &[u8], x: usize) -> String {
    match Lexer::new(b, x, b.len()).next() {
        None => "end of input".to_string(),
        Some(mut t) => {
            if let TokKind::Punct(_) = t.kind {
                t.end = t.start + punctuator_len(&b[t.start..]);
            }
            let text = String::from_utf8_lossy(word(b, &t));
            let short: String = text.chars().take(24).collect();
            if short.len() < text.len() {
                format!("`{short}…`")
            } else {
                format!("`{short}`")
            }
        }
    }
}

/// The length of the C punctuator at the start of `rest` (at least 1).
fn punctuator_len(rest: &[u8]) -> usize {
    const LONGER: &[&[u8]] = &[
        b"...", b"<<=", b">>=", b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=",
        b"&&", b"||", b"*=", b"/=", b"%=", b"+=", b"-=", b"&=", b"^=", b"|=", b"##",
    ];
    LONGER
        .iter()
        .find(|p| rest.starts_with(p))
        .map_or(1, |p| p.len())
}

/// `lang-c`'s expected tokens, when there are few enough to be worth listing.
fn expected_summary(expected: &std::collections::HashSet<&'static str>) -> Option<String> {
    let mut list: Vec<String> = expected
        .iter()
        .filter(|e| !e.is_empty() && **e != "#")
        .map(|e| match *e {
            "[_a-zA-Z]" => "an identifier".to_string(),
            "<typedef_name>" => "a type name".to_string(),
            e => format!("`{e}`"),
        })
        .collect();
    if list.is_empty() || list.len() > 4 {
        return None;
    }
    list.sort();
    list.dedup();
    Some(list.join(" or "))
}

impl Recovery {
    fn new(pre: Preprocessed) -> Recovery {
        Recovery {
            name: pre.name,
            bytes: pre.text.into_bytes(),
            items: Vec::new(),
            states: Vec::new(),
            failure_of: Vec::new(),
            failures: Vec::new(),
        }
    }

    fn error(&self, what: String, offset: Option<usize>) -> ParseError {
        ParseError {
            message: format!("{}{what}", self.name),
            offset,
            internal: false,
        }
    }

    /// Replaces bytes `lang-c` cannot take as whitespace (a byte-order mark, form feeds, vertical
    /// tabs, lone carriage returns) by spaces, which keeps offsets and newlines.
    fn normalize_whitespace(&mut self) {
        let b = &mut self.bytes;
        if b.starts_with(&[0xef, 0xbb, 0xbf]) {
            b[..3].copy_from_slice(b"   ");
        }
        for k in 0..b.len() {
            let lone_cr = b[k] == b'\r' && b.get(k + 1) != Some(&b'\n');
            if lone_cr || b[k] == 0x0b || b[k] == 0x0c {
                b[k] = b' ';
            }
        }
    }

    /// Replaces `$` inside identifiers (a GNU extension generated code uses, which `lang-c`
    /// rejects) by `_`, outside string and character literals, which keeps offsets. Two
    /// identifiers differing only there become one name, which can only merge what the analysis
    /// keeps apart (more aliasing, never less).
    fn dollar_identifiers(&mut self) {
        let b = &mut self.bytes;
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let mut k = 0;
        while k < b.len() {
            match b[k] {
                quote @ (b'"' | b'\'') => {
                    k += 1;
                    while k < b.len() && b[k] != quote && b[k] != b'\n' {
                        k += if b[k] == b'\\' { 2 } else { 1 };
                    }
                }
                b'$' if (k > 0 && ident(b[k - 1])) || b.get(k + 1).is_some_and(|&c| ident(c)) => {
                    b[k] = b'_';
                }
                _ => {}
            }
            k += 1;
        }
    }

    /// Replaces comments by spaces, keeping their newlines (`lang-c` reads none, and a `.i` file
    /// written by `gcc -E -C` keeps them), which keeps every offset and line. String and
    /// character literals and directive lines are left as they are.
    fn strip_comments(&mut self) {
        let b = &mut self.bytes;
        let mut k = 0;
        while k < b.len() {
            match b[k] {
                b'#' if at_directive(b, k) => k = line_end(b, k),
                quote @ (b'"' | b'\'') => {
                    k += 1;
                    while k < b.len() && b[k] != quote && b[k] != b'\n' {
                        k += if b[k] == b'\\' { 2 } else { 1 };
                    }
                    k += 1;
                }
                b'/' if b.get(k + 1) == Some(&b'*') => {
                    let end = b[k + 2..]
                        .windows(2)
                        .position(|w| w == b"*/")
                        .map_or(b.len(), |n| k + 2 + n + 2);
                    blank_comment(&mut b[k..end]);
                    k = end;
                }
                b'/' if b.get(k + 1) == Some(&b'/') => {
                    // A backslash before the newline continues the comment on the next line.
                    let mut end = k;
                    while end < b.len() && (b[end] != b'\n' || b[end - 1] == b'\\') {
                        end += 1;
                    }
                    blank_comment(&mut b[k..end]);
                    k = end;
                }
                _ => k += 1,
            }
        }
    }

    /// Replaces C2x attribute specifiers (`[[gnu::unused]]`, `[[fallthrough]];`), which gcc
    /// reads in every mode and `lang-c` does not, by spaces, keeping their newlines: no
    /// attribute changes which objects a program accesses. In C `[[` begins nothing else (an
    /// index never begins with `[`); the specifier ends at the `]` that closes its first `[`,
    /// brackets and literals inside it included.
    fn standard_attributes(&mut self) {
        let toks: Vec<Tok> = Lexer::new(&self.bytes, 0, self.bytes.len()).collect();
        let open = |t: &Tok| t.kind == TokKind::Punct(b'[');
        let mut spans = Vec::new();
        let mut k = 0;
        while k + 1 < toks.len() {
            if !(open(&toks[k]) && open(&toks[k + 1])) {
                k += 1;
                continue;
            }
            let mut depth = 0usize;
            let close = (k..toks.len()).find(|&j| {
                match toks[j].kind {
                    TokKind::Punct(b'[') => depth += 1,
                    TokKind::Punct(b']') => depth -= 1,
                    _ => {}
                }
                depth == 0
            });
            let Some(j) = close else {
                break;
            };
            spans.push((toks[k].start, toks[j].end));
            k = j + 1;
        }
        for (start, end) in spans {
            blank_comment(&mut self.bytes[start..end]);
        }
    }

    /// Prepares the text for parsing and indexes its items.
    fn index(&mut self) {
        self.normalize_whitespace();
        self.strip_comments();
        self.standard_attributes();
        self.dollar_identifiers();
        self.items = scan_items(&self.bytes);
        self.states = vec![ItemState::Original; self.items.len()];
        self.failure_of = vec![None; self.items.len()];
        self.remove_too_deep();
    }

    fn run(mut self) -> Result<ParsedUnit, ParseError> {
        let text = String::from_utf8_lossy(&self.bytes).into_owned();
        if let Some((why, at)) = binary_reason(&text) {
            return Err(self.error(format!(" does not look like C: {why}"), Some(at)));
        }
        drop(text);
        self.index();
        let config = Config {
            flavor: Flavor::GnuC11,
            ..Config::with_gcc()
        };
        for _ in 0..MAX_ATTEMPTS {
            let text = into_string(std::mem::take(&mut self.bytes));
            match parse_preprocessed(&config, text) {
                Ok(parse) => return self.finish(parse.source, parse.unit),
                Err(err) => {
                    let SyntaxError {
                        source,
                        offset,
                        expected,
                        ..
                    } = err;
                    self.bytes = source.into_bytes();
                    if !self.weaken_at(offset, &expected) {
                        return Err(self.give_up(offset, &expected));
                    }
                }
            }
        }
        let first = self.failures.first().map(|f| f.error_offset);
        Err(self.error(
            format!(": too many syntax errors (gave up after {MAX_ATTEMPTS} attempts)"),
            first,
        ))
    }

    /// Removes the items nested too deeply to parse, before the parser can overflow its stack.
    fn remove_too_deep(&mut self) {
        for i in 0..self.items.len() {
            let Some(at) = self.items[i].too_deep_at else {
                continue;
            };
            let item = self.items[i].clone();
            let toks = significant_tokens(&self.bytes, item.start, item.body.unwrap_or(at));
            let names = self.declared(&item, &toks);
            let (name, offset) = self.item_name(&item, &names, &toks);
            blank(&mut self.bytes, item.start, item.end);
            self.states[i] = ItemState::Blank;
            self.failure_of[i] = Some(self.failures.len());
            self.failures.push(Failure {
                name,
                offset,
                error_offset: at,
                detail: format!("brackets nested more than {MAX_NESTING} deep"),
                kind: DroppedKind::Declaration,
            });
        }
    }

    /// The item's name for reports and where it is: its declared names, or else a description
    /// of its head (the tokens before a function body).
    fn item_name(&self, item: &Item, names: &[Tok], toks: &[Tok]) -> (String, usize) {
        let b = &self.bytes;
        let offset = names.first().map_or(item.start, |t| t.start);
        let name = if names.is_empty() {
            describe(b, toks)
        } else {
            names
                .iter()
                .map(|t| String::from_utf8_lossy(word(b, t)).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        (name, offset)
    }

    /// The names an item declares: a function's name, or each declarator's name.
    fn declared(&self, item: &Item, toks: &[Tok]) -> Vec<Tok> {
        if item.body.is_some() {
            declarator_name(&self.bytes, toks).into_iter().collect()
        } else {
            declared_names(&self.bytes, toks)
        }
    }

    /// The item to weaken for an error at `x`: the one containing it, or the nearest one before
    /// (then after) it that still has text to remove.
    fn item_for(&self, x: usize) -> Option<usize> {
        let i = self
            .items
            .partition_point(|it| it.start <= x)
            .saturating_sub(1);
        let live = |k: &usize| self.states[*k] != ItemState::Blank;
        (0..=i)
            .rev()
            .find(live)
            .or_else(|| (i + 1..self.items.len()).find(live))
    }

    /// Weakens the item containing the error at `x` by one step. Returns false when no item is
    /// left to weaken.
    fn weaken_at(&mut self, x: usize, expected: &std::collections::HashSet<&'static str>) -> bool {
        let Some(i) = self.item_for(x) else {
            return false;
        };
        let item = self.items[i].clone();
        if self.states[i] == ItemState::Reduced {
            let b = &mut self.bytes;
            blank(b, item.start, item.end);
            self.states[i] = ItemState::Blank;
            if let Some(f) = self.failure_of[i] {
                self.failures[f].kind = DroppedKind::Declaration;
            }
            return true;
        }
        let mut detail = format!("unexpected {}", token_at(&self.bytes, x));
        if let Some(list) = expected_summary(expected) {
            detail.push_str(&format!(", expected {list}"));
        }
        let toks = significant_tokens(&self.bytes, item.start, item.body.unwrap_or(item.end));
        let names = self.declared(&item, &toks);
        let (name, name_offset) = self.item_name(&item, &names, &toks);
        let b = &mut self.bytes;
        let kind = match item.body {
            Some(body) if x > body => {
                b[body] = b';';
                blank(b, body + 1, item.end);
                DroppedKind::FunctionBody
            }
            None if item.typedef && !names.is_empty() => {
                let mut words = vec!["typedef".to_string(), "int".to_string()];
                for (n, t) in names.iter().enumerate() {
                    let sep = if n + 1 == names.len() { ";" } else { "," };
                    words.push(format!("{}{sep}", String::from_utf8_lossy(word(b, t))));
                }
                blank(b, item.start, item.end);
                if place_words(b, item.start, item.end, &words) {
                    DroppedKind::Typedef
                } else {
                    DroppedKind::Declaration
                }
            }
            _ => {
                blank(b, item.start, item.end);
                DroppedKind::Declaration
            }
        };
        self.states[i] = if kind == DroppedKind::Declaration {
            ItemState::Blank
        } else {
            ItemState::Reduced
        };
        self.failure_of[i] = Some(self.failures.len());
        self.failures.push(Failure {
            name,
            offset: name_offset,
            error_offset: x,
            detail,
            kind,
        });
        true
    }

    /// The error when nothing is left to remove and the text still does not parse.
    fn give_up(&self, x: usize, expected: &std::collections::HashSet<&'static str>) -> ParseError {
        let mut files = FileTable::new();
        let map = SourceMap::new(
            &String::from_utf8_lossy(&self.bytes),
            &self.name,
            &mut files,
        );
        let pos = map.pos(x);
        let mut detail = format!("unexpected {}", token_at(&self.bytes, x));
        if let Some(list) = expected_summary(expected) {
            detail.push_str(&format!(", expected {list}"));
        }
        self.error(
            format!(
                ": cannot recover from the syntax error at {}:{}:{}: {detail}",
                files.name(pos.file),
                pos.line,
                pos.column
            ),
            Some(x),
        )
    }

    fn finish(self, text: String, unit: TranslationUnit) -> Result<ParsedUnit, ParseError> {
        let mut files = FileTable::new();
        let map = SourceMap::new(&text, &self.name, &mut files);
        let at = |x: usize| {
            let p = map.pos(x);
            format!("{}:{}:{}", files.name(p.file), p.line, p.column)
        };
        if unit.0.is_empty() && !self.failures.is_empty() {
            let first = self.failures.iter().min_by_key(|f| f.error_offset);
            let why = match first {
                Some(f) => format!(" (first error at {}: {})", at(f.error_offset), f.detail),
                None => String::new(),
            };
            return Err(ParseError {
                message: format!(
                    "{} does not look like C: no declaration in it could be parsed{why}",
                    self.name
                ),
                offset: first.map(|f| f.error_offset),
                internal: false,
            });
        }
        let mut dropped: Vec<Dropped> = self
            .failures
            .into_iter()
            .map(|f| Dropped {
                reason: format!("syntax error at {}: {}", at(f.error_offset), f.detail),
                name: f.name,
                offset: f.offset,
                kind: f.kind,
            })
            .collect();
        dropped.sort_by_key(|d| d.offset);
        Ok(ParsedUnit {
            name: self.name,
            text,
            unit,
            dropped,
        })
    }
}

/// The edited bytes as text. Edits only replace whole characters by ASCII, so this never loses
/// anything; decoding lossily keeps it total all the same.
fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<&str> {
        scan_items(text.as_bytes())
            .iter()
            .map(|it| &text[it.start..it.end])
            .collect()
    }

    #[test]
    fn items_end_at_semicolons_and_function_bodies() {
        let text = "# 1 \"a.c\"\nint x;\nstruct s { int a; int b; } y;\nint f(int a) { if (a) { return 1; } return 0; }\ntypedef struct { int z; } T;\n";
        assert_eq!(
            items(text),
            [
                "int x;",
                "struct s { int a; int b; } y;",
                "int f(int a) { if (a) { return 1; } return 0; }",
                "typedef struct { int z; } T;"
            ]
        );
    }

    #[test]
    fn attributes_initializers_and_literals_do_not_open_bodies() {
        let text = "struct __attribute__((packed)) p { char c; } q;\nint a[] = { 1, 2 };\nstruct s v = (struct s){ 0 };\nchar *m = \"};{\";\nchar c = '}';\nvoid g(void) __attribute__((noreturn)) { for (;;); }\n";
        assert_eq!(
            items(text),
            [
                "struct __attribute__((packed)) p { char c; } q;",
                "int a[] = { 1, 2 };",
                "struct s v = (struct s){ 0 };",
                "char *m = \"};{\";",
                "char c = '}';",
                "void g(void) __attribute__((noreturn)) { for (;;); }"
            ]
        );
    }

    #[test]
    fn directive_lines_inside_items_are_skipped() {
        let text = "int f(void) {\n# 3 \"x.h\" 1\n  return '{';\n}\nint y;";
        let found = scan_items(text.as_bytes());
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].body, Some(12));
        assert_eq!(&text[found[1].start..found[1].end], "int y;");
    }

    #[test]
    fn an_unterminated_item_runs_to_the_end() {
        assert_eq!(
            items("int x; int f(void) { return"),
            ["int x;", "int f(void) { return"]
        );
    }

    fn names(decl: &str) -> Vec<String> {
        let b = decl.as_bytes();
        let toks = significant_tokens(b, 0, b.len());
        declared_names(b, &toks)
            .iter()
            .map(|t| decl[t.start..t.end].to_string())
            .collect()
    }

    #[test]
    fn declared_names_of_common_declarations() {
        assert_eq!(names("typedef unsigned long size_t;"), ["size_t"]);
        assert_eq!(names("typedef struct s s;"), ["s"]);
        assert_eq!(names("typedef struct s *sp, s_t;"), ["sp", "s_t"]);
        assert_eq!(
            names("typedef struct { int a, b; } pair __attribute__((aligned(8)));"),
            ["pair"]
        );
        assert_eq!(names("typedef T (*fp)(int a, int b);"), ["fp"]);
        assert_eq!(names("typedef int fn(int);"), ["fn"]);
        assert_eq!(names("typedef int arr[10];"), ["arr"]);
        assert_eq!(
            names("int x = 1, *y = &x, z[3] = {1, 2, 3};"),
            ["x", "y", "z"]
        );
        assert_eq!(
            names("void (*signal(int sig, void (*func)(int)))(int);"),
            ["signal"]
        );
        assert!(names("struct s { int a; };").is_empty());
    }

    #[test]
    fn function_names_skip_attributes() {
        let sig =
            "__attribute__((format(printf, 1, 2))) static int (*getfn(const char *f, ...))(int) ";
        let b = sig.as_bytes();
        let toks = significant_tokens(b, 0, b.len());
        let name = declarator_name(b, &toks).map(|t| &sig[t.start..t.end]);
        assert_eq!(name, Some("getfn"));
    }

    #[test]
    fn blanking_keeps_newlines_and_markers() {
        let mut b = b"int f(void) {\n# 7 \"h.h\"\n  x;\n}".to_vec();
        let len = b.len();
        blank(&mut b, 0, len);
        assert_eq!(&b[..], b"             \n# 7 \"h.h\"\n    \n ");
    }

    #[test]
    fn words_are_placed_line_by_line() {
        let mut b = b"typedef\nstruct {\n  int a;\n} longname;".to_vec();
        let len = b.len();
        blank(&mut b, 0, len);
        let words = [
            "typedef".to_string(),
            "int".to_string(),
            "longname;".to_string(),
        ];
        assert!(place_words(&mut b, 0, len, &words));
        assert_eq!(
            String::from_utf8_lossy(&b),
            "typedef\nint     \n        \nlongname;  "
        );
        let mut short = b"typedef\nT\nx;".to_vec();
        let len = short.len();
        blank(&mut short, 0, len);
        assert!(!place_words(
            &mut short,
            0,
            len,
            &["typedef".into(), "int".into(), "x;".into()]
        ));
    }

    #[test]
    fn binary_text_is_recognised() {
        assert!(binary_reason("int x;\n").is_none());
        assert!(binary_reason("a\0b").is_some());
        assert!(binary_reason("\u{1}\u{2}\u{fffd}ab").is_some());
        assert!(binary_reason("char *s = \"\u{fffd}\";\n").is_none());
    }

    #[test]
    fn standard_attributes_become_spaces_with_their_newlines() {
        let text = "[[nodiscard]] int f(int x) {\n  [[gnu::unused]] int y;\n  switch (x) { case 1: [[fallthrough]];\n  default: break; }\n  char *s = \"[[no]]\"; return [ [maybe_unused, deprecated(\"a]]\")]\n] 0; }\n";
        let mut r = Recovery::new(Preprocessed {
            name: "t.i".into(),
            text: text.into(),
        });
        r.standard_attributes();
        let out = String::from_utf8_lossy(&r.bytes).into_owned();
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out,
            "              int f(int x) {\n                  int y;\n  switch (x) { case 1:                ;\n  default: break; }\n  char *s = \"[[no]]\"; return                                    \n  0; }\n"
        );
    }

    #[test]
    fn comments_become_spaces_with_their_newlines() {
        let text = "int a; /* one\ntwo */ int b; // line \\\n cont\nchar *s = \"/* no */\"; char c = '/';\n";
        let mut r = Recovery::new(Preprocessed {
            name: "t.i".into(),
            text: text.into(),
        });
        r.strip_comments();
        let out = String::from_utf8_lossy(&r.bytes).into_owned();
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out,
            "int a;       \n       int b;          \n     \nchar *s = \"/* no */\"; char c = '/';\n"
        );
    }

    #[test]
    fn an_item_that_fails_twice_is_blanked() {
        let text = "int f(void) { return 1 ?: 2; }\nint g;\n";
        let mut r = Recovery::new(Preprocessed {
            name: "t.c".into(),
            text: text.into(),
        });
        r.index();
        let x = text.find(':').unwrap_or(0);
        assert!(r.weaken_at(x, &Default::default()));
        assert_eq!(&r.bytes[..13], b"int f(void) ;");
        assert_eq!(r.failures[0].kind, DroppedKind::FunctionBody);
        assert!(r.weaken_at(4, &Default::default()));
        assert_eq!(r.failures.len(), 1);
        assert_eq!(r.failures[0].kind, DroppedKind::Declaration);
        assert_eq!(
            String::from_utf8_lossy(&r.bytes),
            format!("{}\nint g;\n", " ".repeat(30))
        );
        assert!(
            r.weaken_at(0, &Default::default()),
            "the next live item is weakened"
        );
        assert!(
            !r.weaken_at(0, &Default::default()),
            "nothing is left to weaken"
        );
    }
}
