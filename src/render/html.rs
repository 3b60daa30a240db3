//! The HTML format of `locksmith check`: a report for a browser, as pages written into a
//! directory (`-o DIR`). `index.html` holds the summary (warnings per file, the counts, what was
//! not analysed or cannot be seen, where the analysis is knowingly unsound) and every warning,
//! which opens to its accesses, each with the source lines around it, the locks held and the call
//! path from its thread. Each source file the report names has a page of its own, every line
//! anchored (`#L24`) and marked where an access, a declaration or a note is, linked back to the
//! warnings.
//!
//! Pages carry their style and their one small script inline and load nothing else (no font,
//! image or remote file), so the directory opens from disk and can be kept as a CI artifact.
//! Everything that comes from the program or the report is HTML-escaped. This module reads the
//! report model and the source files (through the context's [`SourceReader`]) only, and writes
//! the pages into the output directory; the same report gives byte-identical pages. A directory
//! that is not given or cannot be written is a [`RenderError`]: the run ends with an error
//! (exit status 2), as for any file that cannot be written.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Display};
use std::io;

use rustc_hash::FxHashMap;

use super::{RenderContext, RenderError, Renderer, SourceReader};
use crate::report::model::{
    CheckReport, Consequences, Deadlock, LockLeak, Position, Race, RaceAccess, RaceLocation,
    Verdict, Warning,
};
use crate::report::Report;

/// The lines shown before and after an access in a warning's excerpt.
const CONTEXT_LINES: u32 = 3;

/// The HTML format: the pages of a check's report, written into the output directory (created
/// if needed; other files in it are left alone), and one line on the output saying where.
/// Other reports than `check`'s have no HTML form: nothing is written.
pub struct Html;

impl Renderer for Html {
    fn render(
        &self,
        report: &Report,
        cx: &RenderContext,
        out: &mut dyn io::Write,
    ) -> Result<(), RenderError> {
        let Report::Check(check) = report else {
            return Ok(());
        };
        let dir = cx
            .output_dir
            .as_deref()
            .ok_or(RenderError::NoOutputDir { format: "HTML" })?;
        let unwritable = |error| RenderError::Unwritable {
            what: "the HTML report",
            dir: dir.to_path_buf(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(unwritable)?;
        for page in pages(check, &cx.sources) {
            std::fs::write(dir.join(&page.name), &page.html).map_err(unwritable)?;
        }
        writeln!(
            out,
            "locksmith: {}; report written to {}",
            verdict(check),
            dir.join(INDEX).display()
        )?;
        Ok(())
    }
}

/// One file of the report, named relative to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Page {
    name: String,
    html: String,
}

/// The name of the page holding the summary and the warnings.
const INDEX: &str = "index.html";

/// Every page of the report on `report`: the index first, then one per source file it names
/// that can be read, in the order of the files' names.
fn pages(report: &CheckReport, sources: &SourceReader) -> Vec<Page> {
    let files = Files::of(report, sources);
    let mut lists = Vec::new();
    let mut out = vec![Page {
        name: INDEX.to_string(),
        html: index(report, &files, sources, &mut lists),
    }];
    out.append(&mut lists);
    for (file, info) in &files.by_name {
        if let Some(name) = &info.page {
            let html = sources
                .with_lines(file, |lines| source_page(report, file, info, lines))
                .unwrap_or_default();
            out.push(Page {
                name: name.clone(),
                html,
            });
        }
    }
    out
}

/// Text made safe to put in an HTML element or a quoted attribute value. Control characters
/// other than tabs and newlines, which HTML text may not hold, are shown as U+FFFD.
struct Esc<'a>(&'a str);

impl Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(|c: char| {
            matches!(c, '&' | '<' | '>' | '"' | '\'')
                || (c.is_control() && !matches!(c, '\t' | '\n'))
        }) {
            f.write_str(&rest[..i])?;
            let Some(c) = rest[i..].chars().next() else {
                break;
            };
            f.write_str(match c {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&#39;",
                _ => "\u{fffd}",
            })?;
            rest = &rest[i + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// What marks one line of a source page, strongest first (a line takes the class of its
/// strongest mark).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    /// A racing access of warning `.0` (0-based).
    Race(usize),
    /// Another access of the location of warning `.0`: protected or ordered.
    Access(usize),
    /// Where the location of warning `.0` (or one of its other names) is declared.
    Declared(usize),
    /// A misused annotation.
    Annotation,
    /// A place where the analysis is knowingly unsound.
    Unsound,
    /// A function or declaration not analysed.
    Unanalysed,
}

impl Mark {
    fn class(self) -> &'static str {
        match self {
            Mark::Race(_) => "race",
            Mark::Access(_) => "access",
            Mark::Declared(_) => "decl",
            Mark::Annotation | Mark::Unsound | Mark::Unanalysed => "note",
        }
    }
}

/// What the report says about one source file.
#[derive(Debug, Default)]
struct FileInfo {
    /// Its page, when the file can be read.
    page: Option<String>,
    /// The marks of each line.
    marks: BTreeMap<u32, BTreeSet<Mark>>,
    /// The warnings with a racing access in the file.
    warnings: BTreeSet<usize>,
    /// Annotation problems, unsound places and functions not analysed in the file.
    notes: usize,
}

/// The files the report names, by name.
struct Files {
    by_name: BTreeMap<String, FileInfo>,
}

impl Files {
    fn of(r: &CheckReport, sources: &SourceReader) -> Files {
        let mut by_name: BTreeMap<String, FileInfo> = BTreeMap::new();
        let mut mark = |file: &str, line: u32, m: Mark| {
            by_name
                .entry(file.to_string())
                .or_default()
                .marks
                .entry(line)
                .or_default()
                .insert(m);
        };
        for (i, w) in r.warnings.iter().enumerate() {
            let w = match w {
                Warning::Race(w) => w,
                Warning::Deadlock(d) => {
                    for a in &d.acquisitions {
                        mark(&a.position.file, a.position.line, Mark::Race(i));
                    }
                    continue;
                }
                Warning::LockLeak(l) => {
                    mark(&l.position.file, l.position.line, Mark::Race(i));
                    for t in &l.taken {
                        mark(&t.file, t.line, Mark::Access(i));
                    }
                    continue;
                }
            };
            for a in w.accesses.iter() {
                mark(&a.position.file, a.position.line, Mark::Race(i));
            }
            for a in w.context.iter() {
                mark(&a.position.file, a.position.line, Mark::Access(i));
            }
            for l in std::iter::once(&w.location).chain(&w.aliases) {
                if let Some(d) = &l.declared {
                    mark(&d.file, d.line, Mark::Declared(i));
                }
            }
            // A consequence's accesses belong to its cause's warning, which lists them.
            if let Some(c) = &w.consequences {
                mark(&c.position.file, c.position.line, Mark::Access(i));
                for race in &c.races {
                    for a in race.accesses.iter().take(2) {
                        mark(&a.position.file, a.position.line, Mark::Access(i));
                    }
                    if let Some(d) = &race.location.declared {
                        mark(&d.file, d.line, Mark::Declared(i));
                    }
                }
            }
        }
        for a in &r.annotations {
            mark(&a.position.file, a.position.line, Mark::Annotation);
        }
        for u in &r.unsound {
            mark(&u.position.file, u.position.line, Mark::Unsound);
        }
        for u in &r.unanalysed {
            mark(&u.file, u.line, Mark::Unanalysed);
        }
        let mut number = 0;
        for (file, info) in by_name.iter_mut() {
            for m in info.marks.values().flatten() {
                match m {
                    Mark::Race(i) => {
                        info.warnings.insert(*i);
                    }
                    Mark::Annotation | Mark::Unsound | Mark::Unanalysed => info.notes += 1,
                    Mark::Access(_) | Mark::Declared(_) => {}
                }
            }
            if sources.with_lines(file, |_| ()).is_some() {
                number += 1;
                info.page = Some(page_name(number, file));
            }
        }
        Files { by_name }
    }

    /// The link to `line` of `file` on its page, from the index (`None` if it has no page).
    fn link(&self, file: &str, line: u32) -> Option<String> {
        let page = self.by_name.get(file)?.page.as_ref()?;
        Some(format!("{page}#L{line}"))
    }
}

/// The name of the page of the `number`th readable file: the number keeps names apart, the file's
/// own name (only characters safe in any file system and URL) tells the reader which it is.
fn page_name(number: usize, file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let safe: String = base
        .chars()
        .take(60)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("src-{number}-{safe}.html")
}

/// `text`, linked to `line` of `file` when the file has a page.
fn linked(files: &Files, file: &str, line: u32, text: &str) -> String {
    match files.link(file, line) {
        Some(href) => format!("<a href=\"{}\">{}</a>", Esc(&href), Esc(text)),
        None => Esc(text).to_string(),
    }
}

/// A position as `file:line:column`, linked to its line.
fn linked_position(files: &Files, p: &Position) -> String {
    linked(
        files,
        &p.file,
        p.line,
        &format!("{}:{}:{}", p.file, p.line, p.column),
    )
}

fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// The one-line verdict, as the text format's summary says it.
fn verdict(r: &CheckReport) -> String {
    let races = r.warnings.iter().filter(|w| w.race().is_some()).count();
    let mut s = if r.verdict == Verdict::Incomplete {
        "no race found in what was analysed".to_string()
    } else {
        plural(races, "possible data race", "possible data races")
    };
    let deadlocks = r.warnings.iter().filter(|w| w.deadlock().is_some()).count();
    if deadlocks > 0 {
        s.push_str(&format!(
            ", {}",
            plural(deadlocks, "possible deadlock", "possible deadlocks")
        ));
    }
    let leaks = r
        .warnings
        .iter()
        .filter(|w| w.lock_leak().is_some())
        .count();
    if leaks > 0 {
        s.push_str(&format!(
            ", {}",
            plural(leaks, "possible lock leak", "possible lock leaks")
        ));
    }
    if !r.annotations.is_empty() {
        s.push_str(&format!(
            ", {}",
            plural(
                r.annotations.len(),
                "annotation problem",
                "annotation problems"
            )
        ));
    }
    if let Some(missing) = super::incompleteness(r) {
        s.push_str(&format!("; {missing}"));
    }
    s
}

/// The start of every page, up to and including `<body>` (of class `class`).
fn head(title: &str, class: &str, s: &mut String) {
    s.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"locksmith {}\">\n<title>{}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body class=\"{class}\">\n",
        env!("CARGO_PKG_VERSION"),
        Esc(title)
    ));
}

/// The summary and every warning; a list of accesses longer than [`SHOWN`] shows its first ones
/// and links to a page of its own, added to `lists`.
fn index(r: &CheckReport, files: &Files, sources: &SourceReader, lists: &mut Vec<Page>) -> String {
    let mut s = String::new();
    head(&format!("locksmith: {}", verdict(r)), "index", &mut s);
    s.push_str(&format!(
        "<header>\n<h1>locksmith report</h1>\n<p class=\"verdict\">{}</p>\n<nav><a href=\"#summary\">\
         Summary</a> · <a href=\"#warnings\">Warnings</a> · <a href=\"#files\">Files</a></nav>\n\
         </header>\n<main>\n",
        Esc(&verdict(r))
    ));
    summary(r, files, &mut s);
    warnings(r, files, sources, lists, &mut s);
    s.push_str(&format!(
        "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    ));
    s
}

/// How many accesses of one list the index shows: a blob's warning lists thousands, which made
/// one index page of a library's report 25 MB. The whole list is a page of its own.
const SHOWN: usize = 20;

/// A list of accesses as the index shows it: whole when short; else its first [`SHOWN`]
/// entries and a link to the page of the whole list (made once per list, named after the first
/// warning showing it, `list-N-racing.html`).
fn shown_list(
    list: &[RaceAccess],
    (number, kind, title): (usize, &str, &str),
    files: &Files,
    sources: &SourceReader,
    lists: &mut Vec<Page>,
    made: &mut FxHashMap<*const RaceAccess, String>,
) -> String {
    if list.len() <= SHOWN {
        return accesses(list, files, sources);
    }
    let name = made
        .entry(list.as_ptr())
        .or_insert_with(|| {
            let pages = list_pages(list, (number, kind, title), files, sources);
            let first = pages[0].name.clone();
            lists.extend(pages);
            first
        })
        .clone();
    format!(
        "{}<li class=\"more\"><a href=\"{name}\">all {} accesses</a></li>\n",
        accesses(&list[..SHOWN], files, sources),
        list.len()
    )
}

/// How many accesses one page of a long list shows: a blob's list of thousands, each with its
/// source line, made pages of 8 MB.
const PER_PAGE: usize = 500;

/// The pages of a long list of accesses: `list-N-KIND.html`, then `list-N-KIND-2.html`, …, each
/// with [`PER_PAGE`] accesses numbered on from the page before, and links to the pages around it
/// and back to the warning.
fn list_pages(
    list: &[RaceAccess],
    (number, kind, title): (usize, &str, &str),
    files: &Files,
    sources: &SourceReader,
) -> Vec<Page> {
    let chunks: Vec<&[RaceAccess]> = list.chunks(PER_PAGE).collect();
    let name = |k: usize| match k {
        0 => format!("list-{number}-{kind}.html"),
        k => format!("list-{number}-{kind}-{}.html", k + 1),
    };
    let mut pages = Vec::with_capacity(chunks.len());
    for (k, chunk) in chunks.iter().enumerate() {
        let from = k * PER_PAGE;
        let mut nav = format!("<a href=\"{INDEX}#w{number}\">back to warning #{number}</a>");
        if chunks.len() > 1 {
            nav.push_str(&format!(
                " · accesses {}–{} of {}",
                from + 1,
                from + chunk.len(),
                list.len()
            ));
        }
        if k > 0 {
            nav.push_str(&format!(" · <a href=\"{}\">previous</a>", name(k - 1)));
        }
        if k + 1 < chunks.len() {
            nav.push_str(&format!(" · <a href=\"{}\">next</a>", name(k + 1)));
        }
        let mut page = String::new();
        head(&format!("locksmith: {title}"), "list", &mut page);
        page.push_str(&format!(
            "<header>\n<h1>{}</h1>\n<nav>{nav}</nav>\n</header>\n<main>\n\
             <ol class=\"accesses\" start=\"{}\">\n{}</ol>\n</main>\n</body>\n</html>\n",
            Esc(title),
            from + 1,
            accesses(chunk, files, sources)
        ));
        pages.push(Page {
            name: name(k),
            html: page,
        });
    }
    pages
}

/// The counts, the files with what the report says about each, and the lists of what the
/// analysis could not see or model.
fn summary(r: &CheckReport, files: &Files, s: &mut String) {
    s.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"counts\">\n");
    let counts = [
        (
            "possible data races",
            r.warnings.iter().filter(|w| w.race().is_some()).count(),
            "#warnings",
        ),
        (
            "possible deadlocks",
            r.warnings.iter().filter(|w| w.deadlock().is_some()).count(),
            "#warnings",
        ),
        (
            "possible lock leaks",
            r.warnings
                .iter()
                .filter(|w| w.lock_leak().is_some())
                .count(),
            "#warnings",
        ),
        ("suppressed by comments", r.suppressed, ""),
        ("in the baseline", r.baselined, ""),
        ("annotation problems", r.annotations.len(), "#annotations"),
        ("not analysed", r.unanalysed.len(), "#unanalysed"),
        (
            "functions locksmith cannot see",
            r.unmodelled.len(),
            "#unmodelled",
        ),
        (
            "synchronisation not followed",
            r.unordered.len(),
            "#unordered",
        ),
        ("knowingly unsound places", r.unsound.len(), "#unsound"),
    ];
    for (what, n, target) in counts {
        let label = if n > 0 && !target.is_empty() {
            format!("<a href=\"{target}\">{what}</a>")
        } else {
            what.to_string()
        };
        s.push_str(&format!("<tr><th>{label}</th><td>{n}</td></tr>\n"));
    }
    s.push_str("</table>\n");
    file_table(files, s);
    lists(r, files, s);
    s.push_str("</section>\n");
}

/// One row per file the report names: its warnings and other findings.
fn file_table(files: &Files, s: &mut String) {
    s.push_str(
        "<h3 id=\"files\">Warnings per file</h3>\n<table class=\"files\">\n<thead><tr><th>file</th>\
         <th>warnings racing here</th><th>racing lines</th><th>other findings</th></tr></thead>\n\
         <tbody>\n",
    );
    for (file, info) in &files.by_name {
        let name = match &info.page {
            Some(page) => format!("<a href=\"{}\">{}</a>", Esc(page), Esc(file)),
            None => format!("{} <span class=\"dim\">(not readable)</span>", Esc(file)),
        };
        let lines = info
            .marks
            .values()
            .filter(|m| m.iter().any(|m| matches!(m, Mark::Race(_))))
            .count();
        let ids: Vec<String> = info
            .warnings
            .iter()
            .map(|i| format!("<a href=\"#w{}\">#{}</a>", i + 1, i + 1))
            .collect();
        s.push_str(&format!(
            "<tr><td>{name}</td><td>{} <span class=\"ids\">{}</span></td><td>{lines}</td>\
             <td>{}</td></tr>\n",
            info.warnings.len(),
            ids.join(" "),
            info.notes
        ));
    }
    s.push_str("</tbody>\n</table>\n");
}

/// The lists after the file table: annotation problems, functions not analysed, functions and
/// synchronisation locksmith cannot follow, places where it is knowingly unsound.
fn lists(r: &CheckReport, files: &Files, s: &mut String) {
    let at = |p: &Position| linked_position(files, p);
    if !r.annotations.is_empty() {
        s.push_str("<h3 id=\"annotations\">Annotation problems</h3>\n<ul>\n");
        for a in &r.annotations {
            s.push_str(&format!(
                "<li>{}: {} <code class=\"code\">{}</code></li>\n",
                at(&a.position),
                Esc(&a.message),
                Esc(a.code)
            ));
        }
        s.push_str("</ul>\n");
    }
    if !r.unanalysed.is_empty() {
        s.push_str("<h3 id=\"unanalysed\">Not analysed</h3>\n<ul>\n");
        for u in &r.unanalysed {
            let place = format!("{}:{}", u.file, u.line);
            let counted = if u.may_run {
                ""
            } else {
                " (not counted: it cannot run)"
            };
            s.push_str(&format!(
                "<li><code>{}</code> at {}: {}{counted} <code class=\"code\">{}</code></li>\n",
                Esc(&u.function),
                linked(files, &u.file, u.line, &place),
                Esc(&u.reason),
                Esc(u.code)
            ));
        }
        s.push_str("</ul>\n");
    }
    if !r.unmodelled.is_empty() {
        s.push_str(
            "<h3 id=\"unmodelled\">Functions locksmith cannot see</h3>\n<p>Modelled with external \
             memory: they may touch what they are handed, keep what they get through a \
             <code>void *</code>, call back what they get.</p>\n",
        );
        names(&r.unmodelled, s);
    }
    if !r.unordered.is_empty() {
        s.push_str(
            "<h3 id=\"unordered\">Synchronisation locksmith does not follow</h3>\n<p>What it \
             orders may still be reported.</p>\n",
        );
        names(&r.unordered, s);
    }
    if !r.unsound.is_empty() {
        s.push_str("<h3 id=\"unsound\">Where the analysis is knowingly unsound</h3>\n<ul>\n");
        let mut by_what: BTreeMap<(&str, &str), Vec<&Position>> = BTreeMap::new();
        for u in &r.unsound {
            by_what
                .entry((&u.what, u.code))
                .or_default()
                .push(&u.position);
        }
        for ((what, code), places) in by_what {
            let places: Vec<String> = places.into_iter().map(at).collect();
            s.push_str(&format!(
                "<li>{} <code class=\"code\">{}</code>: {}</li>\n",
                Esc(what),
                Esc(code),
                places.join(", ")
            ));
        }
        s.push_str("</ul>\n");
    }
}

fn names(list: &[String], s: &mut String) {
    let shown: Vec<String> = list
        .iter()
        .map(|n| format!("<code>{}</code>", Esc(n)))
        .collect();
    s.push_str(&format!("<p class=\"names\">{}</p>\n", shown.join(", ")));
}

/// A location's name, with where it is declared (linked).
fn location(l: &RaceLocation, files: &Files) -> String {
    let name = format!("<code>{}</code>", Esc(&l.name));
    match &l.declared {
        Some(d) => format!(
            "{name} <span class=\"dim\">declared at {}</span>",
            linked(files, &d.file, d.line, &format!("{}:{}", d.file, d.line))
        ),
        None => name,
    }
}

/// Every warning, each a `<details>` (`id="wN"`, from 1) opening to its accesses. The block of a
/// list of accesses several warnings share is made once.
fn warnings(
    r: &CheckReport,
    files: &Files,
    sources: &SourceReader,
    lists: &mut Vec<Page>,
    s: &mut String,
) {
    s.push_str("<section id=\"warnings\">\n<h2>Warnings</h2>\n");
    if r.warnings.is_empty() {
        s.push_str("<p>No possible data race or deadlock.</p>\n");
    } else {
        s.push_str(
            "<p class=\"dim\">Each warning opens to its racing accesses (two of them may run at \
             once in two threads, one writing, without a common lock) and the location's other \
             accesses, which are protected or ordered.</p>\n",
        );
    }
    let mut blocks: FxHashMap<*const RaceAccess, String> = FxHashMap::default();
    let mut made: FxHashMap<*const RaceAccess, String> = FxHashMap::default();
    for (i, w) in r.warnings.iter().enumerate() {
        let w = match w {
            Warning::Race(w) => w,
            Warning::Deadlock(d) => {
                deadlock(i, d, files, sources, s);
                continue;
            }
            Warning::LockLeak(l) => {
                lock_leak(i, l, files, sources, s);
                continue;
            }
        };
        warning(i, w, files, s);
        let title = format!("racing accesses of {}", w.location.name);
        let block = blocks.entry(w.accesses.as_ptr()).or_insert_with(|| {
            let key = (i + 1, "racing", title.as_str());
            shown_list(&w.accesses, key, files, sources, lists, &mut made)
        });
        s.push_str(&format!(
            "<h4>Racing accesses</h4>\n<ol class=\"accesses\">\n{block}</ol>\n"
        ));
        if !w.context.is_empty() {
            let title = format!("other accesses of {}", w.location.name);
            let block = blocks.entry(w.context.as_ptr()).or_insert_with(|| {
                let key = (i + 1, "context", title.as_str());
                shown_list(&w.context, key, files, sources, lists, &mut made)
            });
            s.push_str(&format!(
                "<h4>Also accessed at <span class=\"dim\">(protected or ordered)</span></h4>\n\
                 <ol class=\"accesses context\">\n{block}</ol>\n"
            ));
        }
        if let Some(c) = &w.consequences {
            consequences(c, files, s);
        }
        s.push_str("</details>\n");
    }
    s.push_str("</section>\n");
}

/// The races that are consequences of a warning's: the wait that causes them, then one line
/// each, its location and where its first racing accesses are.
fn consequences(c: &Consequences, files: &Files, s: &mut String) {
    let at = |p: &Position| linked_position(files, p);
    s.push_str(&format!(
        "<h4>Consequences</h4>\n<p class=\"note\">At {}: {}</p>\n<ul class=\"consequences\">\n",
        at(&c.position),
        Esc(&c.why)
    ));
    for race in &c.races {
        let shown: Vec<String> = race
            .accesses
            .iter()
            .take(2)
            .map(|a| format!("{} at {}", a.kind(), at(&a.position)))
            .collect();
        s.push_str(&format!(
            "<li>possible data race on {} <span class=\"badge\">{}</span>: {}</li>\n",
            location(&race.location, files),
            plural(race.accesses.len(), "racing access", "racing accesses"),
            shown.join(", ")
        ));
    }
    s.push_str("</ul>\n");
}

/// The opening of a warning's `<details>`: its summary line, other names and note.
fn warning(i: usize, w: &Race, files: &Files, s: &mut String) {
    let writes = w.accesses.iter().filter(|a| a.write).count();
    s.push_str(&format!(
        "<details class=\"warning\" id=\"w{n}\">\n<summary><span class=\"num\">#{n}</span> possible \
         data race on {} <span class=\"badge\">{} ({writes} writing)</span></summary>\n",
        location(&w.location, files),
        plural(w.accesses.len(), "racing access", "racing accesses"),
        n = i + 1,
    ));
    if !w.aliases.is_empty() {
        let names: Vec<String> = w.aliases.iter().map(|l| location(l, files)).collect();
        let more = match w.aliases_omitted {
            0 => String::new(),
            n => Esc(&super::omitted_names(n)).to_string(),
        };
        s.push_str(&format!("<p>Also named: {}{more}</p>\n", names.join(", ")));
    }
    if let Some(note) = &w.note {
        s.push_str(&format!("<p class=\"note\">Note: {}</p>\n", Esc(note)));
    }
    if let Some(unfollowed) = &w.unfollowed {
        s.push_str(&format!(
            "<p class=\"note\">Note: {}</p>\n",
            Esc(unfollowed)
        ));
    }
}

/// A potential deadlock's `<details>`: its cycle of locks, then each lock call with the lock it
/// waits for, the locks it holds, its source excerpt, thread and call path.
fn deadlock(i: usize, d: &Deadlock, files: &Files, sources: &SourceReader, s: &mut String) {
    let title = if d.self_deadlock {
        format!("possible self-deadlock on {}", Esc(&d.locks.join(", ")))
    } else {
        let mut cycle: Vec<String> = d.locks.iter().map(|l| Esc(l).to_string()).collect();
        cycle.extend(d.locks.first().map(|l| Esc(l).to_string()));
        format!("possible deadlock: {}", cycle.join(" → "))
    };
    s.push_str(&format!(
        "<details class=\"warning\" id=\"w{n}\">\n<summary><span class=\"num\">#{n}</span> \
         {title} <span class=\"badge\">{}</span></summary>\n",
        plural(d.acquisitions.len(), "lock call", "lock calls"),
        n = i + 1,
    ));
    if let Some(note) = &d.note {
        s.push_str(&format!("<p class=\"note\">Note: {}</p>\n", Esc(note)));
    }
    s.push_str("<h4>Lock calls</h4>\n<ol class=\"accesses\">\n");
    for a in &d.acquisitions {
        let p = &a.position;
        let where_ = linked_position(files, p);
        s.push_str(&format!(
            "<li class=\"is-write\">\n<p class=\"what\">waits for <span class=\"lock\">{}</span> \
             at {where_} holding {}</p>\n",
            Esc(&a.lock),
            lock_chips(&a.locks)
        ));
        excerpt(p, files, sources, s);
        s.push_str(&format!(
            "<p class=\"thread\">in {}:</p>\n<p class=\"path\">{}</p>\n</li>\n",
            Esc(&a.thread),
            path(&a.path, files)
        ));
    }
    s.push_str("</ol>\n</details>\n");
}

/// A lock leak: where the lock is still held, where it is not, and where it is taken.
fn lock_leak(i: usize, l: &LockLeak, files: &Files, sources: &SourceReader, s: &mut String) {
    s.push_str(&format!(
        "<details class=\"warning\" id=\"w{n}\">\n<summary><span class=\"num\">#{n}</span> \
         {}</summary>\n",
        Esc(&super::leak_title(l)),
        n = i + 1,
    ));
    let (held, other) = super::leak_labels(l);
    s.push_str("<ol class=\"accesses\">\n");
    let points = std::iter::once((&l.position, held, "is-write"))
        .chain(std::iter::once((&l.other, other, "")))
        .chain(l.taken.iter().map(|t| (t, format!("takes {}", l.lock), "")));
    for (p, what, class) in points {
        let where_ = linked_position(files, p);
        s.push_str(&format!(
            "<li class=\"{class}\">\n<p class=\"what\">{} at {where_}</p>\n",
            Esc(&what)
        ));
        excerpt(p, files, sources, s);
        s.push_str("</li>\n");
    }
    s.push_str("</ol>\n</details>\n");
}

/// The locks held, each a chip, or "no locks".
fn lock_chips(locks: &[String]) -> String {
    if locks.is_empty() {
        return "<span class=\"nolock\">no locks</span>".to_string();
    }
    let l: Vec<String> = locks
        .iter()
        .map(|l| format!("<span class=\"lock\">{}</span>", Esc(l)))
        .collect();
    l.join(" ")
}

/// The items of a list of accesses: each with its kind, position, locks, source excerpt, thread
/// and call path.
fn accesses(list: &[RaceAccess], files: &Files, sources: &SourceReader) -> String {
    let mut s = String::new();
    for a in list {
        let p = &a.position;
        let kind = a.kind();
        let class = if a.write { "is-write" } else { "is-read" };
        let where_ = linked_position(files, p);
        let via = a
            .via
            .as_ref()
            .map(|v| format!(" inside <code>{}</code>", Esc(v)))
            .unwrap_or_default();
        let locks = lock_chips(&a.locks);
        s.push_str(&format!(
            "<li class=\"{class}\">\n<p class=\"what\"><span class=\"kind {class}\">{}</span> at \
             {where_}{via} holding {locks}</p>\n",
            Esc(kind)
        ));
        excerpt(p, files, sources, &mut s);
        s.push_str(&format!(
            "<p class=\"thread\">in {}:</p>\n<p class=\"path\">{}</p>\n",
            Esc(&a.thread),
            path(&a.path, files)
        ));
        if !a.also_in.is_empty() {
            let threads: Vec<String> = a
                .also_in
                .iter()
                .map(|t| format!("<li>{}</li>", Esc(t)))
                .collect();
            let more = match a.also_in_omitted {
                0 => String::new(),
                n => format!("<li>and {n} more</li>"),
            };
            s.push_str(&format!(
                "<details class=\"also\"><summary>and in {}</summary><ul>{}{more}</ul></details>\n",
                plural(
                    a.also_in.len() + a.also_in_omitted,
                    "other thread",
                    "other threads"
                ),
                threads.concat()
            ));
        }
        s.push_str("</li>\n");
    }
    s
}

/// A call path, its steps joined by arrows; a step naming its call site (`f (file:line)`) is
/// linked to that line.
fn path(steps: &[String], files: &Files) -> String {
    let shown: Vec<String> = steps
        .iter()
        .map(|step| match call_site(step) {
            Some((file, line)) => linked(files, file, line, step),
            None => Esc(step).to_string(),
        })
        .collect();
    shown.join(" <span class=\"arrow\">→</span> ")
}

/// The file and line of a call-path step `callee (file:line)`.
fn call_site(step: &str) -> Option<(&str, u32)> {
    let (_, site) = step.strip_suffix(')')?.rsplit_once(" (")?;
    let (file, line) = site.rsplit_once(':')?;
    Some((file, line.parse().ok()?))
}

/// The source lines around an access, the accessed one highlighted, each numbered and linked
/// to its line on the file's page.
fn excerpt(p: &Position, files: &Files, sources: &SourceReader, s: &mut String) {
    let page = files.by_name.get(&p.file).and_then(|f| f.page.as_deref());
    let rows = sources.with_lines(&p.file, |lines| {
        let mut rows = String::new();
        let first = p.line.saturating_sub(CONTEXT_LINES).max(1);
        let last = p.line.saturating_add(CONTEXT_LINES).min(lines.len() as u32);
        for n in first..=last {
            let text = &lines[n as usize - 1];
            let class = if n == p.line { " class=\"hit\"" } else { "" };
            let number = match page {
                Some(page) => format!("<a href=\"{}#L{n}\">{n}</a>", Esc(page)),
                None => n.to_string(),
            };
            rows.push_str(&format!(
                "<tr{class}><td class=\"ln\">{number}</td><td class=\"src\">{}</td></tr>\n",
                Esc(text)
            ));
        }
        rows
    });
    match rows {
        Some(rows) if !rows.is_empty() => {
            s.push_str(&format!("<table class=\"excerpt\">\n{rows}</table>\n"));
        }
        _ => s.push_str("<p class=\"dim\">(source line not available)</p>\n"),
    }
}

/// The page of one source file: every line anchored and numbered, the lines the report names
/// marked, with links to the warnings.
fn source_page(r: &CheckReport, file: &str, info: &FileInfo, lines: &[String]) -> String {
    let mut s = String::new();
    head(&format!("{file} — locksmith"), "source-page", &mut s);
    let ids: Vec<String> = info
        .warnings
        .iter()
        .map(|i| format!("<a href=\"{INDEX}#w{}\">#{}</a>", i + 1, i + 1))
        .collect();
    let lines_racing: Vec<String> = info
        .marks
        .iter()
        .filter(|(_, m)| m.iter().any(|m| matches!(m, Mark::Race(_))))
        .map(|(n, _)| format!("<a href=\"#L{n}\">{n}</a>"))
        .collect();
    let racing = if ids.is_empty() {
        "No warning races here.".to_string()
    } else {
        format!(
            "{} here: {}; on lines {}",
            plural(ids.len(), "warning races", "warnings race"),
            ids.join(" "),
            lines_racing.join(" ")
        )
    };
    s.push_str(&format!(
        "<header>\n<nav><a href=\"{INDEX}\">← locksmith report</a></nav>\n<h1>{}</h1>\n\
         <p>{racing}</p>\n<p class=\"legend\"><span class=\"race\">racing access</span> \
         <span class=\"access\">protected or ordered access</span> <span class=\"decl\">\
         declaration</span> <span class=\"note\">note</span></p>\n</header>\n<main>\n\
         <table class=\"source\">\n",
        Esc(file)
    ));
    for (k, text) in lines.iter().enumerate() {
        let n = k as u32 + 1;
        let marks = info.marks.get(&n);
        let class = marks
            .and_then(|m| m.first())
            .map(|m| format!(" class=\"{}\"", m.class()))
            .unwrap_or_default();
        let badges = marks.map(|m| badges(r, m)).unwrap_or_default();
        s.push_str(&format!(
            "<tr id=\"L{n}\"{class}><td class=\"ln\"><a href=\"#L{n}\">{n}</a></td>\
             <td class=\"marks\">{badges}</td><td class=\"src\">{}</td></tr>\n",
            Esc(text)
        ));
    }
    s.push_str("</table>\n</main>\n</body>\n</html>\n");
    s
}

/// The badges of one line: one per warning it takes part in (linked to the warning), one per
/// kind of note (linked to its list).
fn badges(r: &CheckReport, marks: &BTreeSet<Mark>) -> String {
    let mut out = String::new();
    let mut warned = BTreeSet::new();
    for &m in marks {
        let (i, what) = match m {
            Mark::Race(i) => (i, "racing access"),
            Mark::Access(i) => (i, "protected or ordered access"),
            Mark::Declared(i) => (i, "declaration"),
            Mark::Annotation => {
                out.push_str(&format!("<a class=\"b note\" href=\"{INDEX}#annotations\" title=\"annotation problem\">!</a>"));
                continue;
            }
            Mark::Unsound => {
                out.push_str(&format!("<a class=\"b note\" href=\"{INDEX}#unsound\" title=\"knowingly unsound here\">?</a>"));
                continue;
            }
            Mark::Unanalysed => {
                out.push_str(&format!(
                    "<a class=\"b note\" href=\"{INDEX}#unanalysed\" title=\"not analysed\">×</a>"
                ));
                continue;
            }
        };
        // A line that is both a racing and another access of one warning shows it once, at
        // its strongest.
        if !warned.insert(i) {
            continue;
        }
        let name = match &r.warnings[i] {
            Warning::Race(w) => w.location.name.clone(),
            Warning::Deadlock(d) => format!(
                "a lock call of a possible deadlock on {}",
                d.locks.join(", ")
            ),
            Warning::LockLeak(l) => format!("a possible lock leak of {}", l.lock),
        };
        let title = format!("{what} of {name} (warning #{})", i + 1);
        out.push_str(&format!(
            "<a class=\"b {}\" href=\"{INDEX}#w{n}\" title=\"{}\">{n}</a>",
            m.class(),
            Esc(&title),
            n = i + 1
        ));
    }
    out
}

/// Opens the warning a link leads to (`index.html#w3`), which a closed `<details>` would hide.
const SCRIPT: &str = "function openTarget(){var t=location.hash&&document.getElementById(\
location.hash.slice(1));if(t&&t.tagName==='DETAILS'){t.open=true;}}\
window.addEventListener('hashchange',openTarget);openTarget();";

/// The style of every page: system fonts only, light and dark.
const STYLE: &str = "
:root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--dim:#656d76;--line:#d0d7de;\
--race:#ffebe9;--race-b:#cf222e;--access:#f6f8fa;--access-b:#8c959f;--decl:#ddf4ff;\
--decl-b:#0969da;--note:#fff8c5;--note-b:#9a6700;--hit:#fff1b8}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--dim:#8d96a0;\
--line:#30363d;--race:#4b1113;--race-b:#f85149;--access:#161b22;--access-b:#6e7681;\
--decl:#0c2d6b;--decl-b:#4493f8;--note:#3b2e00;--note-b:#d29922;--hit:#4d3b00}}
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);\
background:var(--bg);margin:0 auto;max-width:70rem;padding:0 1rem 3rem}
header{border-bottom:1px solid var(--line);margin-bottom:1rem}
h1{font-size:1.6rem;margin:1rem 0 .3rem;word-break:break-all}
h2{font-size:1.3rem;border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}
h3{font-size:1.1rem;margin-top:1.5rem}h4{font-size:1rem;margin:1rem 0 .4rem}
a{color:var(--decl-b)}code,.src,.ln{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,\
'Liberation Mono',monospace;font-size:.9em}
.verdict{font-size:1.15rem;font-weight:600}.dim{color:var(--dim)}
nav{margin:.5rem 0 1rem}
table{border-collapse:collapse}
.counts th{text-align:left;font-weight:normal;padding:.15rem 1.5rem .15rem 0}
.counts td{text-align:right;font-weight:600}
.files th,.files td{border:1px solid var(--line);padding:.25rem .6rem;text-align:left}
.files td:nth-child(n+2){text-align:right}.ids{font-size:.85em}
code.code{color:var(--dim)}.names code{white-space:nowrap}
details.warning{border:1px solid var(--line);border-left:4px solid var(--race-b);\
border-radius:6px;margin:.6rem 0;padding:.2rem .8rem}
details.warning>summary{cursor:pointer;padding:.4rem 0;font-weight:600}
details.warning[open]>summary{border-bottom:1px solid var(--line);margin-bottom:.4rem}
.num{color:var(--race-b)}.badge{font-weight:normal;color:var(--dim);font-size:.9em;\
margin-left:.5rem}
.note{background:var(--note);padding:.3rem .5rem;border-radius:4px}
ol.accesses{padding-left:1.5rem}ol.accesses>li{margin-bottom:1rem}
.what{margin:.2rem 0}.kind{font-weight:600;padding:0 .35rem;border-radius:4px}
.kind.is-write{background:var(--race);color:var(--race-b)}
.kind.is-read{background:var(--decl);color:var(--decl-b)}
.context .kind{background:var(--access);color:var(--access-b)}
.lock{font-family:ui-monospace,monospace;font-size:.9em;background:var(--decl);\
padding:0 .3rem;border-radius:4px;margin-right:.2rem}
.nolock{color:var(--race-b);font-weight:600}
.thread,.path{margin:.2rem 0}.path{font-family:ui-monospace,monospace;font-size:.85em}
.arrow{color:var(--dim)}
.excerpt{display:block;overflow-x:auto;max-width:100%;width:max-content;margin:.3rem 0;\
border:1px solid var(--line)}
body.source-page{max-width:none}
.excerpt td,.source td{padding:0 .5rem;vertical-align:top}
.src{white-space:pre;tab-size:8;-moz-tab-size:8}
.ln{text-align:right;color:var(--dim);user-select:none;border-right:1px solid var(--line)}
.ln a{color:inherit;text-decoration:none}
tr.hit{background:var(--hit)}tr.hit .src{font-weight:600}
.source{width:100%}.source tr:target{outline:2px solid var(--decl-b)}
.source tr.race{background:var(--race)}.source tr.access{background:var(--access)}
.source tr.decl{background:var(--decl)}.source tr.note{background:var(--note)}
.marks{white-space:nowrap;width:1%}
.b{display:inline-block;min-width:1.2em;text-align:center;font-size:.75em;font-weight:600;\
line-height:1.3;border-radius:3px;padding:0 .2rem;margin-right:.15rem;text-decoration:none;\
color:#fff}
.b.race{background:var(--race-b)}.b.access{background:var(--access-b)}\
.b.decl{background:var(--decl-b)}.b.note{background:var(--note-b)}
.legend span{padding:0 .4rem;border-radius:3px;margin-right:.3rem}
.legend .race{background:var(--race)}.legend .access{background:var(--access);\
border:1px solid var(--line)}.legend .decl{background:var(--decl)}\
.legend .note{background:var(--note)}
details.also{margin:.2rem 0;font-size:.9em}details.also summary{cursor:pointer;color:var(--dim)}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup_and_no_control_characters() {
        let shown = Esc("a<b>&\"c\"'d'\u{7}\u{85}\te\nf").to_string();
        assert_eq!(
            shown,
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;\u{fffd}\u{fffd}\te\nf"
        );
        assert_eq!(Esc("plain é ✓").to_string(), "plain é ✓");
    }

    #[test]
    fn call_sites_and_page_names() {
        assert_eq!(call_site("f (dir/a:b.c:12)"), Some(("dir/a:b.c", 12)));
        assert_eq!(call_site("main"), None);
        assert_eq!(call_site("f (x.c:twelve)"), None);
        assert_eq!(page_name(3, "we<ird>/a&b c.c"), "src-3-a_b_c.c.html");
    }
}
