//! The building blocks of the text format's diagnostics, drawn the way rustc and clang draw
//! theirs with the `annotate-snippets` crate: a title line, each access as its source line with
//! the accessed expression underlined and labelled, the thread making it as a note, and the
//! source line of a declaration. The text renderer puts one diagnostic together per warning
//! from these.
//!
//! This module reads the report model and the source lines a [`SourceReader`] gives; it never
//! decides what a warning says, only how it is drawn. A source line that cannot be shown (a file
//! that cannot be read, a line or column it does not have) is replaced by a plain
//! `--> file:line:col` line: drawing never fails. Colour is the renderer's choice ([`Painter`]), never the model's.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};

use super::SourceReader;
use crate::report::model::{Acquisition, FileLine, Position, RaceAccess};

/// Draws diagnostics, in colour (ANSI escapes) or plain.
pub struct Painter {
    renderer: Renderer,
}

impl Painter {
    pub fn new(color: bool) -> Painter {
        Painter {
            renderer: if color {
                Renderer::styled()
            } else {
                Renderer::plain()
            },
        }
    }

    /// `warning: TITLE`, one line.
    pub fn warning_title(&self, title: &str) -> String {
        self.draw(&[Group::with_title(Level::WARNING.primary_title(title))])
    }

    /// `note: TEXT`, one line (more when the text has several).
    pub fn note(&self, text: &str) -> String {
        self.draw(&[Group::with_title(Level::NOTE.secondary_title(text))])
    }

    /// The racing accesses of a warning: each the primary point of the diagnostic.
    pub fn racing(&self, list: &[RaceAccess], sources: &SourceReader) -> String {
        let group = Group::with_level(Level::WARNING);
        self.accesses(group, list, AnnotationKind::Primary, sources)
    }

    /// The lock calls of a deadlock, each the primary point of the diagnostic: the call
    /// underlined with the lock it waits for and the locks it holds, then its thread.
    pub fn lock_calls(&self, list: &[Acquisition], sources: &SourceReader) -> String {
        let mut group = Group::with_level(Level::WARNING);
        for a in list {
            let label = format!("waits for {}{}", a.lock, holding(&a.via, &a.locks));
            let line = sources.raw_line(&a.position.file, a.position.line);
            let mark = line
                .as_deref()
                .and_then(|line| span(line, &a.position, None));
            group = match (line, mark) {
                (Some(line), Some(mark)) => group.element(
                    Snippet::source(line)
                        .line_start(a.position.line as usize)
                        .path(a.position.file.clone())
                        .annotation(AnnotationKind::Primary.span(mark).label(label)),
                ),
                _ => group
                    .element(
                        Origin::path(a.position.file.clone())
                            .line(a.position.line as usize)
                            .char_column(a.position.column as usize),
                    )
                    .element(Level::NOTE.no_name().message(label)),
            };
            for h in &a.held_at {
                group = group.element(Level::NOTE.message(format!(
                    "{} taken at {}:{}:{}",
                    h.lock, h.position.file, h.position.line, h.position.column
                )));
            }
            group = group.element(Level::NOTE.message(format!(
                "in {}: {}",
                a.thread,
                a.path.join(" -> ")
            )));
        }
        self.draw(&[group])
    }

    /// Points of a diagnostic that are no accesses (a lock leak's return and lock calls): each
    /// position's source line with what starts there underlined and labelled, as the primary
    /// point (carets) or, under the note `title`, as context (dashes).
    pub fn points(
        &self,
        title: Option<&str>,
        list: &[(&Position, String)],
        sources: &SourceReader,
    ) -> String {
        let (mut group, kind) = match title {
            None => (Group::with_level(Level::WARNING), AnnotationKind::Primary),
            Some(t) => (
                Group::with_title(Level::NOTE.secondary_title(t)),
                AnnotationKind::Context,
            ),
        };
        for (at, label) in list {
            let line = sources.raw_line(&at.file, at.line);
            let mark = line.as_deref().and_then(|line| span(line, at, None));
            group = match (line, mark) {
                (Some(line), Some(mark)) => group.element(
                    Snippet::source(line)
                        .line_start(at.line as usize)
                        .path(at.file.clone())
                        .annotation(kind.span(mark).label(label.clone())),
                ),
                _ => group
                    .element(
                        Origin::path(at.file.clone())
                            .line(at.line as usize)
                            .char_column(at.column as usize),
                    )
                    .element(Level::NOTE.no_name().message(label.clone())),
            };
        }
        self.draw(&[group])
    }

    /// The other accesses of a location, under the note `title`, drawn as secondary (dashes,
    /// not carets).
    pub fn context(&self, title: &str, list: &[RaceAccess], sources: &SourceReader) -> String {
        let group = Group::with_title(Level::NOTE.secondary_title(title));
        self.accesses(group, list, AnnotationKind::Context, sources)
    }

    /// `note: TITLE here` with the source line of `at` and, underlined, the variable `name` when
    /// it is one (or the root of its field path), the first call of an allocated location's line,
    /// else the whole line; `note: TITLE at file:line` when the line cannot be shown.
    pub fn declaration(
        &self,
        title: &str,
        name: &str,
        at: &FileLine,
        sources: &SourceReader,
    ) -> String {
        let line = sources
            .raw_line(&at.file, at.line)
            .filter(|l| !l.trim().is_empty());
        let Some(line) = line else {
            return self.note(&format!("{title} at {}:{}", at.file, at.line));
        };
        let found = if is_path(name) {
            word_in(&line, name)
        } else {
            first_call(&line)
        };
        let mark = found.unwrap_or_else(|| {
            let start = line.len() - line.trim_start().len();
            start..line.trim_end().len()
        });
        let snippet = Snippet::source(line.as_str())
            .line_start(at.line as usize)
            .path(at.file.as_str())
            .annotation(AnnotationKind::Context.span(mark));
        self.draw(&[
            Group::with_title(Level::NOTE.secondary_title(format!("{title} here")))
                .element(snippet),
        ])
    }

    /// The accesses of `list` as elements of `group`, each underline of the `kind` given: one
    /// source snippet per line, holding the consecutive accesses on it made by the same thread
    /// along the same path, then that thread as a note. Nothing for no accesses.
    fn accesses(
        &self,
        mut group: Group<'_>,
        list: &[RaceAccess],
        kind: AnnotationKind,
        sources: &SourceReader,
    ) -> String {
        if list.is_empty() {
            return String::new();
        }
        let mut i = 0;
        while i < list.len() {
            let first = &list[i];
            let same = list[i..]
                .iter()
                .take_while(|a| same_line_and_thread(first, a))
                .count();
            let labels = labels(&list[i..i + same]);
            let line = sources.raw_line(&first.position.file, first.position.line);
            let marks: Option<Vec<_>> = line.as_deref().and_then(|line| {
                labels
                    .iter()
                    .map(|(a, label)| {
                        let mark = span(line, &a.position, a.end_column)?;
                        Some(kind.span(mark).label(label.clone()))
                    })
                    .collect()
            });
            group = match (line, marks) {
                (Some(line), Some(marks)) => group.element(
                    Snippet::source(line)
                        .line_start(first.position.line as usize)
                        .path(first.position.file.clone())
                        .annotations(marks),
                ),
                _ => fallback(group, &labels),
            };
            group = group.element(Level::NOTE.message(thread_note(first)));
            i += same;
        }
        self.draw(&[group])
    }

    fn draw(&self, groups: &[Group<'_>]) -> String {
        let mut out = self.renderer.render(groups);
        out.push('\n');
        out
    }
}

/// Whether `b` is drawn in the snippet of `a`: on the same line, made by the same threads along
/// the same path (so that one note names them).
fn same_line_and_thread(a: &RaceAccess, b: &RaceAccess) -> bool {
    a.position.file == b.position.file
        && a.position.line == b.position.line
        && a.thread == b.thread
        && a.path == b.path
        && a.also_in == b.also_in
        && a.also_in_omitted == b.also_in_omitted
}

/// What the label of an access or lock call says after its kind: the library function making
/// it and the locks held.
fn holding(via: &Option<String>, locks: &[String]) -> String {
    let via = via
        .as_ref()
        .map(|v| format!(" (inside {v})"))
        .unwrap_or_default();
    let locks = if locks.is_empty() {
        "no locks".to_string()
    } else {
        locks.join(", ")
    };
    format!("{via} holding {locks}")
}

/// The labels of the accesses of one line, each with the first access it labels: accesses of
/// one expression holding the same locks share one (`write and read holding m`, for `x += 1`).
fn labels(run: &[RaceAccess]) -> Vec<(&RaceAccess, String)> {
    let mut out: Vec<(&RaceAccess, Vec<&str>, String)> = Vec::new();
    for a in run {
        let rest = holding(&a.via, &a.locks);
        match out.last_mut() {
            Some((b, kinds, r))
                if (b.position.column, b.end_column) == (a.position.column, a.end_column)
                    && *r == rest =>
            {
                kinds.push(a.kind());
            }
            _ => out.push((a, vec![a.kind()], rest)),
        }
    }
    out.into_iter()
        .map(|(a, kinds, rest)| (a, format!("{}{rest}", kinds.join(" and "))))
        .collect()
}

/// The accesses of a line whose source cannot be shown: its position, then each label (with
/// its column when it is not the first's).
fn fallback<'a>(group: Group<'a>, labels: &[(&RaceAccess, String)]) -> Group<'a> {
    let p = &labels[0].0.position;
    let origin = Origin::path(p.file.clone())
        .line(p.line as usize)
        .char_column(p.column as usize);
    let lines: Vec<String> = labels
        .iter()
        .map(|(a, label)| {
            if a.position.column == p.column {
                label.clone()
            } else {
                format!("{label} (column {})", a.position.column)
            }
        })
        .collect();
    group
        .element(origin)
        .element(Level::NOTE.no_name().message(lines.join("\n")))
}

/// The note naming the thread that makes an access and its call path, and the other threads
/// making it.
fn thread_note(a: &RaceAccess) -> String {
    let mut note = format!("in {}: {}", a.thread, a.path.join(" -> "));
    match (a.also_in.as_slice(), a.also_in_omitted) {
        ([], _) => {}
        ([one], 0) => note.push_str(&format!("\nand in {one}")),
        ([first, rest @ ..], omitted) => {
            let others = rest.len() + omitted;
            let threads = if others == 1 { "thread" } else { "threads" };
            note.push_str(&format!("\nand in {first} and {others} other {threads}"));
        }
    }
    note
}

/// The bytes of `line` an access underlines: from its column to its end column, or, without
/// one, the identifier starting at its column (one character if none does). `None` when the
/// line has no such column (it changed since, or the position is inside a macro expansion).
fn span(line: &str, at: &Position, end_column: Option<u32>) -> Option<std::ops::Range<usize>> {
    let start = (at.column as usize).checked_sub(1)?;
    if start >= line.len() || !line.is_char_boundary(start) {
        return None;
    }
    let end = match end_column {
        Some(end) if end > at.column => floor_boundary(line, (end as usize - 1).min(line.len())),
        _ => {
            let word = line[start..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(line.len() - start);
            start + word
        }
    };
    if end > start {
        return Some(start..end);
    }
    let one = line[start..].chars().next().map_or(1, char::len_utf8);
    Some(start..start + one)
}

/// The largest character boundary of `line` at or before byte `at`.
fn floor_boundary(line: &str, mut at: usize) -> usize {
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Whether a location's name is a variable or a field path of one (`q.head.count`), which is
/// declared, rather than memory, which is allocated.
pub(super) fn is_path(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first identifier of `line` called as a function (`malloc` in `p = malloc(n);`), not
/// counting `sizeof`.
fn first_call(line: &str) -> Option<std::ops::Range<usize>> {
    line.match_indices('(').find_map(|(open, _)| {
        let before = line[..open].trim_end();
        let start = before
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_word(c))
            .last()?
            .0;
        let word = &before[start..];
        let starts_like_a_name = word.starts_with(|c: char| !c.is_ascii_digit());
        (starts_like_a_name && word != "sizeof").then_some(start..before.len())
    })
}

/// The first place `name` (a variable, the last field of a field path, or the root of one)
/// occurs in `line` as a whole word.
fn word_in(line: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let candidates = [name.rsplit('.').next(), name.split('.').next()];
    candidates.into_iter().flatten().find_map(|word| {
        if word.is_empty() || !word.chars().all(is_word) {
            return None;
        }
        line.match_indices(word).find_map(|(i, _)| {
            let before = line[..i].chars().next_back().is_some_and(is_word);
            let after = line[i + word.len()..].chars().next().is_some_and(is_word);
            (!before && !after).then(|| i..i + word.len())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::Position;

    fn span_of(line: &str, a: &RaceAccess) -> Option<std::ops::Range<usize>> {
        span(line, &a.position, a.end_column)
    }

    fn at(column: u32, end_column: Option<u32>) -> RaceAccess {
        RaceAccess {
            position: Position {
                file: "f.c".into(),
                line: 1,
                column,
            },
            end_column,
            write: true,
            atomic: false,
            locks: Vec::new(),
            path: vec!["main".into()],
            thread: "the main thread".into(),
            also_in: Vec::new(),
            also_in_omitted: 0,
            via: None,
        }
    }

    #[test]
    fn spans_cover_the_expression_or_the_identifier_at_the_column() {
        let line = "    p->count++; // é";
        assert_eq!(span_of(line, &at(5, Some(13))), Some(4..12));
        // Without an end, the identifier at the column, or one character.
        assert_eq!(span_of(line, &at(5, None)), Some(4..5));
        assert_eq!(span_of(line, &at(8, None)), Some(7..12));
        assert_eq!(span_of(line, &at(13, None)), Some(12..13));
        // An end past the line is cut at its end; one inside a character, before it.
        assert_eq!(span_of(line, &at(5, Some(99))), Some(4..line.len()));
        let e = line.find('é').unwrap();
        assert_eq!(span_of(line, &at(5, Some(e as u32 + 2))), Some(4..e));
        // A column the line does not have: no span (the caller falls back to the position).
        assert_eq!(span_of(line, &at(99, None)), None);
        assert_eq!(span_of(line, &at(0, None)), None);
        assert_eq!(span_of(line, &at(e as u32 + 2, None)), None);
    }

    #[test]
    fn declarations_underline_the_name_or_the_allocating_call() {
        assert_eq!(
            word_in("struct config g_cfg;", "g_cfg.max_conns"),
            Some(14..19)
        );
        assert_eq!(word_in("int counts, count;", "count"), Some(12..17));
        assert_eq!(word_in("int counts;", "count"), None);
        assert_eq!(first_call("    p = malloc(sizeof *p);"), Some(8..14));
        assert_eq!(
            first_call("    p = (struct s *) calloc (1, 2);"),
            Some(21..27)
        );
        assert_eq!(first_call("    n = sizeof(x) + 1;"), None);
        assert!(is_path("q.head.count"));
        assert!(!is_path("memory allocated by malloc at f.c:3 in main"));
    }

    #[test]
    fn accesses_of_one_expression_share_a_label() {
        let mut read = at(5, Some(13));
        read.write = false;
        let list = [at(5, Some(13)), read.clone(), at(20, None)];
        let shared: Vec<String> = labels(&list).into_iter().map(|(_, l)| l).collect();
        assert_eq!(
            shared,
            ["write and read holding no locks", "write holding no locks"]
        );
        read.locks = vec!["m".into()];
        let list = [at(5, Some(13)), read];
        assert_eq!(labels(&list).len(), 2);
    }
}
