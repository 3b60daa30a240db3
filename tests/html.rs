//! `--format html -o DIR`: the pages parse as HTML without an error, hold
//! every warning with its accesses (position, locks, source excerpt with the accessed line
//! highlighted, call path), link every position to an anchor that exists, load nothing from
//! elsewhere, escape what comes from the program (a fixture full of markup, in a folder whose
//! name holds `<`, `&` and quotes), and are byte-identical from one run to the next. The usage
//! errors exit with status 2. `tools/html_screenshot.sh` shows the report in a real browser.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use scraper::{ElementRef, Html, Selector};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(test: &str) -> support::Scratch {
    support::Scratch::new("html", test)
}

/// Runs `locksmith check ARGS` in `dir`: exit status, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let run = support::check_in(dir, args);
    (run.exit, run.stdout, run.stderr)
}

/// The pages written into `out` by `--format html` on `files`, by name, and the JSON report of
/// the same run.
fn report(dir: &Path, out: &Path, files: &[&str]) -> (BTreeMap<String, String>, serde_json::Value) {
    let out_arg = out.to_str().unwrap();
    let mut args = vec!["--format", "html", "-o", out_arg];
    args.extend_from_slice(files);
    let (code, stdout, stderr) = run(dir, &args);
    assert!(code == 0 || code == 1, "{files:?}: exit {code}: {stderr}");
    assert!(stdout.contains("index.html"), "{stdout}");
    let mut pages = BTreeMap::new();
    for e in std::fs::read_dir(out).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        pages.insert(name, std::fs::read_to_string(e.path()).unwrap());
    }
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(files);
    let (_, json, _) = run(dir, &args);
    (pages, serde_json::from_str(&json).unwrap())
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef) -> String {
    e.text().collect()
}

/// Parses every page, requiring no parse error.
fn parse(pages: &BTreeMap<String, String>) -> BTreeMap<String, Html> {
    pages
        .iter()
        .map(|(name, html)| {
            let doc = Html::parse_document(html);
            assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
            (name.clone(), doc)
        })
        .collect()
}

/// The bundled examples: the C paper examples, fixtures with notes and annotation problems, and
/// a multi-file program.
fn examples() -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = std::fs::read_dir(root().join("paper-examples/c"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| {
            vec![p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .to_string()]
        })
        .collect();
    out.sort();
    for f in [
        "tests/races/existentials/list_node_locks.c",
        "tests/annotations/misused.c",
        "tests/races/stdlib/thread_unsafe_functions.c",
    ] {
        out.push(vec![f.to_string()]);
    }
    let webcache = support::c_files(&root().join("tests/programs/webcache"));
    out.push(
        webcache
            .iter()
            .map(|p| support::relative(&root(), p))
            .collect(),
    );
    out
}

/// The source line `line` of `file` (relative to the repository), as written.
fn source_line(file: &str, line: u64) -> String {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    text.lines().nth(line as usize - 1).unwrap().to_string()
}

/// Each warning of the JSON report is a `<details>` of the index with its racing and other
/// accesses in order: kind, position (linked to the line's anchor), locks, the accessed line
/// highlighted in its excerpt, the thread and the call path.
#[test]
fn every_warning_opens_to_its_accesses() {
    let dir = temp_dir("warnings");
    for (k, files) in examples().iter().enumerate() {
        let out = dir.join(format!("r{k}"));
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let (pages, json) = report(&root(), &out, &files);
        let docs = parse(&pages);
        let index = &docs["index.html"];
        let warnings = json["warnings"].as_array().unwrap();
        let shown: Vec<ElementRef> = index.select(&sel("details.warning")).collect();
        assert_eq!(shown.len(), warnings.len(), "{files:?}");
        for (i, (d, w)) in shown.iter().zip(warnings).enumerate() {
            assert_eq!(d.value().attr("id"), Some(format!("w{}", i + 1).as_str()));
            let summary = text(d.select(&sel("summary")).next().unwrap());
            let name = w["location"]["name"].as_str().unwrap();
            assert!(summary.contains(name), "{summary} names {name}");
            let lists: Vec<ElementRef> = d.select(&sel("ol.accesses")).collect();
            check_accesses(lists[0], &w["accesses"]);
            if w["context"].as_array().unwrap().is_empty() {
                assert_eq!(lists.len(), 1);
            } else {
                check_accesses(lists[1], &w["context"]);
            }
        }
        let counts = text(index.select(&sel("table.counts")).next().unwrap());
        assert!(
            counts.contains(&format!("possible data races{}", warnings.len())),
            "{counts}"
        );
    }
}

fn check_accesses(list: ElementRef, expected: &serde_json::Value) {
    let items: Vec<ElementRef> = list.select(&sel(":scope > li")).collect();
    let expected = expected.as_array().unwrap();
    assert_eq!(items.len(), expected.len());
    for (li, a) in items.iter().zip(expected) {
        let (file, line) = (a["file"].as_str().unwrap(), a["line"].as_u64().unwrap());
        let what = text(li.select(&sel("p.what")).next().unwrap());
        let position = format!("{file}:{line}:{}", a["column"]);
        assert!(what.contains(&position), "{what} has {position}");
        let kind = if a["write"].as_bool().unwrap() {
            "write"
        } else {
            "read"
        };
        assert!(what.contains(kind), "{what}");
        let locks: Vec<String> = li.select(&sel("p.what .lock")).map(text).collect();
        let want: Vec<String> = a["locks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        assert_eq!(locks, want, "{what}");
        if want.is_empty() {
            assert!(what.contains("no locks"), "{what}");
        }
        let href = li
            .select(&sel("p.what a"))
            .next()
            .unwrap()
            .value()
            .attr("href")
            .unwrap();
        assert!(href.ends_with(&format!("#L{line}")), "{href}");
        let hit = li
            .select(&sel("table.excerpt tr.hit"))
            .next()
            .expect("a highlighted line");
        let hit_number = text(hit.select(&sel("td.ln")).next().unwrap());
        assert_eq!(hit_number, line.to_string());
        let hit_text = text(hit.select(&sel("td.src")).next().unwrap());
        assert_eq!(hit_text, source_line(file, line));
        let rows = li.select(&sel("table.excerpt tr")).count();
        assert!(rows > 1, "the accessed line comes with lines around it");
        let thread = text(li.select(&sel("p.thread")).next().unwrap());
        assert!(thread.contains(a["thread"].as_str().unwrap()), "{thread}");
        let path = text(li.select(&sel("p.path")).next().unwrap());
        let steps: Vec<&str> = a["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(path, steps.join(" → "));
    }
}

/// The fragment of an `href` to another page of the report, or `None` for one that leaves it.
fn target(page: &str, href: &str) -> (String, Option<String>) {
    match href.split_once('#') {
        Some(("", frag)) => (page.to_string(), Some(frag.to_string())),
        Some((other, frag)) => (other.to_string(), Some(frag.to_string())),
        None => (href.to_string(), None),
    }
}

/// Every link of every page leads to a page of the report and, with a fragment, to an element
/// with that id; nothing is loaded from anywhere (no `src`, no `<link>`, no URL in the style).
#[test]
fn links_resolve_and_nothing_is_loaded() {
    let dir = temp_dir("links");
    for (k, files) in examples().iter().enumerate() {
        let out = dir.join(format!("r{k}"));
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let (pages, _) = report(&root(), &out, &files);
        let docs = parse(&pages);
        let ids: BTreeMap<&str, BTreeSet<String>> = docs
            .iter()
            .map(|(name, doc)| {
                let ids = doc
                    .select(&sel("[id]"))
                    .map(|e| e.value().attr("id").unwrap().to_string())
                    .collect::<BTreeSet<_>>();
                (name.as_str(), ids)
            })
            .collect();
        let mut links = 0;
        for (name, doc) in &docs {
            assert_eq!(
                doc.select(&sel("[src], link, iframe, object, embed, img"))
                    .count(),
                0
            );
            for style in doc.select(&sel("style")) {
                let css = text(style);
                assert!(!css.contains("url(") && !css.contains("@import"), "{name}");
            }
            for a in doc.select(&sel("[href]")) {
                let href = a.value().attr("href").unwrap();
                assert!(
                    !href.contains(':') && !href.starts_with("//"),
                    "{name}: {href}"
                );
                let (page, frag) = target(name, href);
                let page_ids = ids
                    .get(page.as_str())
                    .unwrap_or_else(|| panic!("{name}: {href}"));
                if let Some(frag) = frag {
                    assert!(page_ids.contains(&frag), "{name}: {href} has no target");
                }
                links += 1;
            }
        }
        assert!(links > 0);
        // Every source page numbers and anchors every line of its file.
        for (name, doc) in &docs {
            if name == "index.html" {
                continue;
            }
            let file = text(doc.select(&sel("h1")).next().unwrap());
            let lines = std::fs::read_to_string(root().join(&file))
                .unwrap()
                .lines()
                .count();
            let rows: Vec<ElementRef> = doc.select(&sel("table.source tr")).collect();
            assert_eq!(rows.len(), lines, "{file}");
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(row.value().attr("id"), Some(format!("L{}", i + 1).as_str()));
            }
        }
    }
}

/// The racing lines of a source page are marked and link to their warnings.
#[test]
fn source_pages_mark_the_racing_lines() {
    let dir = temp_dir("marks");
    let file = "paper-examples/c/sec4_1_signal_handler.c";
    let (pages, json) = report(&root(), &dir.join("out"), &[file]);
    let docs = parse(&pages);
    let (name, page) = docs
        .iter()
        .find(|(n, _)| n.as_str() != "index.html")
        .unwrap();
    assert!(name.ends_with("sec4_1_signal_handler.c.html"), "{name}");
    let marked: BTreeSet<String> = page
        .select(&sel("tr.race"))
        .map(|r| r.value().attr("id").unwrap().to_string())
        .collect();
    let racing: BTreeSet<String> = json["warnings"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("L{}", a["line"]))
        .collect();
    assert_eq!(marked, racing);
    for row in page.select(&sel("tr.race")) {
        let badge = row.select(&sel("a.b.race")).next().expect("a badge");
        assert_eq!(badge.value().attr("href"), Some("index.html#w1"));
    }
    let declared = json["warnings"][0]["location"]["line"].as_u64().unwrap();
    let decl = page.select(&sel(&format!("#L{declared}"))).next().unwrap();
    assert_eq!(decl.value().attr("class"), Some("decl"));
}

/// Markup in the program's text, file and folder names is shown as text: the parsed pages hold
/// exactly the source lines and names, and no element the program's text spells.
#[test]
fn what_comes_from_the_program_is_escaped() {
    let dir = temp_dir("escaping");
    let weird = "we<ird> & \"dir's";
    std::fs::create_dir_all(dir.join(weird)).unwrap();
    let fixture = std::fs::read_to_string(root().join("tests/html/markup_in_source.c")).unwrap();
    let file = format!("{weird}/a&b<c>.c");
    std::fs::write(dir.join(&file), &fixture).unwrap();
    let (pages, json) = report(&dir, &dir.join("out"), &[&file]);
    assert_eq!(json["warnings"].as_array().unwrap().len(), 1, "{json}");
    let docs = parse(&pages);
    for (name, doc) in &docs {
        for tag in ["b", "i", "td td", "tr tr"] {
            assert_eq!(doc.select(&sel(tag)).count(), 0, "{name} has <{tag}>");
        }
        assert!(
            doc.select(&sel("script"))
                .all(|s| !text(s).contains("alert")),
            "{name}"
        );
        assert!(doc.select(&sel("script")).count() <= 1, "{name}");
    }
    let index = &docs["index.html"];
    let files_cell = text(index.select(&sel("table.files tbody td")).next().unwrap());
    assert_eq!(files_cell, file);
    let lines: Vec<&str> = fixture.lines().collect();
    for hit in index.select(&sel("tr.hit")) {
        let n: usize = text(hit.select(&sel("td.ln")).next().unwrap())
            .parse()
            .unwrap();
        assert_eq!(
            text(hit.select(&sel("td.src")).next().unwrap()),
            lines[n - 1]
        );
    }
    assert!(index.select(&sel("tr.hit")).count() >= 4);
    let thread = text(index.select(&sel("p.thread")).next().unwrap());
    assert!(thread.contains(&format!("{file}:22")), "{thread}");
    let source = docs
        .iter()
        .find(|(n, _)| n.as_str() != "index.html")
        .unwrap()
        .1;
    assert_eq!(text(source.select(&sel("h1")).next().unwrap()), file);
    let shown: Vec<String> = source
        .select(&sel("table.source td.src"))
        .map(text)
        .collect();
    assert_eq!(shown, lines);
}

/// Two runs write byte-identical pages with the same names.
#[test]
fn the_report_is_deterministic() {
    let dir = temp_dir("deterministic");
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/programs/webcache"))
        .unwrap()
        .flatten()
        .map(|e| e.path().to_string_lossy().to_string())
        .filter(|p| p.ends_with(".c"))
        .collect();
    files.sort();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let (first, _) = report(&root(), &dir.join("a"), &files);
    let (second, _) = report(&root(), &dir.join("b"), &files);
    assert!(first.len() > 2);
    assert_eq!(first, second);
}

/// `--format html` needs `-o DIR`, `-o` needs `--format html`, `lambda` has no HTML format, and a
/// directory that cannot be written, or a page in it, is an error: each exits with status 2 and
/// says why.
#[test]
fn usage_errors_exit_with_status_2() {
    let dir = temp_dir("usage");
    let file = root().join("paper-examples/c/fig1_munge.c");
    let file = file.to_str().unwrap();
    let (code, stdout, stderr) = run(&dir, &["--format", "html", file]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("-o DIR"), "{stderr}");
    let (code, _, stderr) = run(&dir, &["-o", "out", file]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--format html"), "{stderr}");
    assert!(!dir.join("out").exists());
    let out = Command::new(env!("CARGO_BIN_EXE_locksmith"))
        .args(["lambda", "--format", "html"])
        .arg(root().join("paper-examples/lambda/fig10_existential.lam"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("locksmith check"));
    std::fs::write(dir.join("taken"), "a file, not a directory").unwrap();
    let (code, stdout, stderr) = run(&dir, &["--format", "html", "-o", "taken", file]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("cannot write the HTML report into taken"),
        "{stderr}"
    );
    // A directory that can be made but whose index cannot be written fails as the pages are
    // written, after the analysis.
    std::fs::create_dir_all(dir.join("blocked/index.html")).unwrap();
    let (code, stdout, stderr) = run(&dir, &["--format", "html", "-o", "blocked", file]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("locksmith: error: cannot write the HTML report into blocked: "),
        "{stderr}"
    );
}

/// A deadlock opens to its lock calls: each names the lock it waits for and links its line, and
/// the summary counts it apart from the races.
#[test]
fn deadlocks_open_to_their_lock_calls() {
    let dir = temp_dir("deadlocks");
    let out = dir.join("r");
    let (pages, json) = report(&root(), &out, &["tests/deadlocks/abba.c"]);
    let docs = parse(&pages);
    let index = &docs["index.html"];
    let warnings = json["warnings"].as_array().unwrap();
    let deadlocks: Vec<&serde_json::Value> = warnings
        .iter()
        .filter(|w| w["kind"] == "deadlock")
        .collect();
    assert!(!deadlocks.is_empty(), "abba.c has a deadlock");
    let shown: Vec<ElementRef> = index.select(&sel("details.warning")).collect();
    assert_eq!(shown.len(), warnings.len());
    for (d, w) in shown.iter().zip(warnings) {
        if w["kind"] != "deadlock" {
            continue;
        }
        let summary = text(d.select(&sel("summary")).next().unwrap());
        assert!(summary.contains("possible deadlock"), "{summary}");
        let items: Vec<ElementRef> = d.select(&sel("ol.accesses > li")).collect();
        let calls = w["acquisitions"].as_array().unwrap();
        assert_eq!(items.len(), calls.len());
        for (item, call) in items.iter().zip(calls) {
            let what = text(item.select(&sel("p.what")).next().unwrap());
            assert!(what.contains(call["lock"].as_str().unwrap()), "{what}");
            let line = call["line"].as_u64().unwrap();
            assert!(
                what.contains(&format!(":{line}:")),
                "{what} names line {line}"
            );
        }
    }
    let counts = text(index.select(&sel("table.counts")).next().unwrap());
    assert!(
        counts.contains(&format!("possible deadlocks{}", deadlocks.len())),
        "{counts}"
    );
}

/// Writes `many.c` into `dir`: two threads running a function that bumps `hits` `n` times, each
/// bump on a line of its own.
fn write_many_bumps(dir: &Path, n: usize) {
    let bumps: String = (0..n).map(|_| "    hits++;\n").collect();
    std::fs::write(
        dir.join("many.c"),
        format!(
            "#include <pthread.h>\nlong hits;\nstatic void *w(void *a) {{\n{bumps}    return a;\n}}\n\
             int main(void) {{ pthread_t t, u; pthread_create(&t, 0, w, 0); \
             pthread_create(&u, 0, w, 0); return 0; }}\n"
        ),
    )
    .unwrap();
}

/// A list of more than twenty accesses shows its first twenty on the index and links to a page
/// of its own holding all of them, which links back: a blob's thousands of accesses made one
/// index page 25 MB.
#[test]
fn long_lists_of_accesses_have_a_page_of_their_own() {
    let dir = temp_dir("long-lists");
    write_many_bumps(&dir, 25);
    let out = dir.join("report");
    let (pages, json) = report(&dir, &out, &["many.c"]);
    let accesses = json["warnings"][0]["accesses"].as_array().unwrap().len();
    assert!(accesses > 20, "{accesses}");
    let docs = parse(&pages);
    let index = &docs["index.html"];
    let list = index
        .select(&sel("details.warning ol.accesses"))
        .next()
        .unwrap();
    let shown = list
        .select(&sel(":scope > li.is-write, :scope > li.is-read"))
        .count();
    assert_eq!(shown, 20);
    let more = list
        .select(&sel("li.more a"))
        .next()
        .expect("a link to the whole list");
    let href = more.value().attr("href").unwrap();
    assert_eq!(text(more), format!("all {accesses} accesses"));
    let whole = &docs[href];
    let all = whole.select(&sel("ol.accesses > li")).count();
    assert_eq!(all, accesses);
    let back = whole.select(&sel("nav a")).next().unwrap();
    assert_eq!(back.value().attr("href"), Some("index.html#w1"));
}

/// A list longer than a page is split into pages of 500 accesses, numbered on from the page
/// before and linked both ways: one page of a blob's thousands of accesses was 8 MB.
#[test]
fn a_list_longer_than_a_page_is_split() {
    let dir = temp_dir("paged-lists");
    write_many_bumps(&dir, 300);
    let out = dir.join("report");
    let (pages, json) = report(&dir, &out, &["many.c"]);
    let accesses = json["warnings"][0]["accesses"].as_array().unwrap().len();
    assert!(accesses > 500 && accesses <= 1000, "{accesses}");
    let docs = parse(&pages);
    let first = &docs["list-1-racing.html"];
    let second = &docs["list-1-racing-2.html"];
    let items = |doc: &scraper::Html| doc.select(&sel("ol.accesses > li")).count();
    assert_eq!(items(first), 500);
    assert_eq!(items(first) + items(second), accesses);
    let ol = second.select(&sel("ol.accesses")).next().unwrap();
    assert_eq!(ol.value().attr("start"), Some("501"));
    let links = |doc: &scraper::Html| -> Vec<String> {
        doc.select(&sel("nav a"))
            .filter_map(|a| a.value().attr("href").map(str::to_string))
            .collect()
    };
    assert_eq!(links(first), ["index.html#w1", "list-1-racing-2.html"]);
    assert_eq!(links(second), ["index.html#w1", "list-1-racing.html"]);
}
