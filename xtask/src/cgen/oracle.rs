//! The oracle's check: every data race ThreadSanitizer observes in a generated program must be
//! among locksmith's warnings on `main.c`.
//!
//! The rule, precisely:
//!
//! 1. Each of a TSan report's two accesses is *anchored* at the first frame of its stack that
//!    lies in `main.c`. An access in `main.c` is anchored at its own line; an access in `lib.c`
//!    (which locksmith is not given) is anchored at the `main.c` call that led into the library;
//!    an access made by a libc interceptor, at the `main.c` line that called it.
//! 2. An *observed race* is the unordered pair of the two anchor lines; a program's observed
//!    races are the distinct pairs over all its runs. A report one of whose accesses has no
//!    `main.c` frame (its stack could not be restored) is counted as *unanchored* and not
//!    checked.
//! 3. locksmith runs on `main.c` alone. An observed race {a, b} is *covered* when one warning
//!    lists an access on line a and an access on line b of `main.c` (one access suffices when
//!    a = b). A warning lists every access to its location, so this asks that locksmith put the
//!    two racing lines on one location; the generator writes each shared access alone on its
//!    line, so a line stands for one access.
//! 4. An observed race that is not covered is a *miss*: it is reported with the seed, and the
//!    program is saved for reproduction.
//! 5. Potential deadlocks likewise: each lock call of a TSan lock-order inversion is anchored at
//!    the first frame of its stack in `main.c`; an inversion is covered when one of locksmith's
//!    deadlock warnings lists a lock call on each of its lines, and is a *missed deadlock*
//!    otherwise.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use c_frontend::driver::{self, CheckOptions};
use solver::Technique;

use super::emit::Sources;
use super::tsan::{self, Access, Frame, Inversion, Race};
use super::{generate, Options, Program};

/// How to run the oracle.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many times each program is run under TSan.
    pub runs: usize,
    /// The longest one run may take before it is a failure.
    pub timeout: Duration,
    /// Where programs are built (one subdirectory each, removed afterwards).
    pub work: PathBuf,
    /// Where the programs with a miss or a problem are saved.
    pub save: PathBuf,
}

impl Config {
    /// Four runs, a 60-second timeout, work and saves under the temporary directory.
    pub fn new() -> Config {
        let tmp = std::env::temp_dir();
        Config {
            runs: 4,
            timeout: Duration::from_secs(60),
            work: tmp.join(format!("locksmith-oracle-{}", std::process::id())),
            save: tmp.join("locksmith-oracle-misses"),
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// An access as the rule sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchored {
    /// The `main.c` line the access is anchored at.
    pub line: u32,
    /// Where the access itself is: the first frame in `main.c` or `lib.c`, as `file:line`.
    pub site: String,
    pub write: bool,
}

/// Anchors an access (rule 1); `None` when its stack has no `main.c` frame.
pub fn anchor(access: &Access) -> Option<Anchored> {
    let line = access.frames.iter().find(|f| f.file == "main.c")?.line;
    let site = access
        .frames
        .iter()
        .find(|f| f.file == "main.c" || f.file == "lib.c")
        .map(|f| format!("{}:{}", f.file, f.line))?;
    Some(Anchored {
        line,
        site,
        write: access.write,
    })
}

/// An observed race (rule 2): its anchors, ordered by line, and one report showing it.
#[derive(Clone, Debug)]
pub struct Observed {
    pub first: Anchored,
    pub second: Anchored,
    /// What the memory is, as TSan says (`heap block`, `global 'g0'`).
    pub location: String,
    /// The functions that allocated it (a heap block), innermost first.
    pub allocated_by: Vec<String>,
    /// The frames in `main.c` and `lib.c` of either access's stack.
    pub frames: Vec<Frame>,
    pub report: String,
}

impl Observed {
    pub fn lines(&self) -> (u32, u32) {
        (self.first.line, self.second.line)
    }

    /// `main.c:12 (write) / main.c:30 via lib.c:8 (read)`.
    pub fn describe(&self) -> String {
        let one = |a: &Anchored| {
            let kind = if a.write { "write" } else { "read" };
            if a.site == format!("main.c:{}", a.line) {
                format!("main.c:{} ({kind})", a.line)
            } else {
                format!("main.c:{} via {} ({kind})", a.line, a.site)
            }
        };
        format!(
            "{} / {} on {}",
            one(&self.first),
            one(&self.second),
            self.location
        )
    }
}

/// The distinct observed races of some reports, and how many reports were unanchored.
pub fn observed(races: &[Race]) -> (Vec<Observed>, usize) {
    let mut out: Vec<Observed> = Vec::new();
    let mut unanchored = 0;
    for race in races {
        let (Some(a), Some(b)) = (anchor(&race.current), anchor(&race.previous)) else {
            unanchored += 1;
            continue;
        };
        let (first, second) = if (a.line, a.write) <= (b.line, b.write) {
            (a, b)
        } else {
            (b, a)
        };
        if !out.iter().any(|o| o.lines() == (first.line, second.line)) {
            out.push(Observed {
                first,
                second,
                location: race.location.clone(),
                allocated_by: race.allocated_by.clone(),
                frames: [&race.current, &race.previous]
                    .iter()
                    .flat_map(|a| &a.frames)
                    .filter(|f| f.file == "main.c" || f.file == "lib.c")
                    .cloned()
                    .collect(),
                report: race.text.clone(),
            });
        }
    }
    out.sort_by_key(Observed::lines);
    (out, unanchored)
}

/// An observed lock-order inversion (rule 5): the `main.c` lines of its lock calls.
#[derive(Clone, Debug)]
pub struct ObservedDeadlock {
    pub lines: BTreeSet<u32>,
    pub report: String,
}

impl ObservedDeadlock {
    /// Its lock calls as `main.c:LINE, …`.
    pub fn calls(&self) -> String {
        let lines: Vec<String> = self.lines.iter().map(|l| format!("main.c:{l}")).collect();
        lines.join(", ")
    }
}

/// The distinct observed inversions, and how many had a lock call with no `main.c` frame.
pub fn observed_deadlocks(inversions: &[Inversion]) -> (Vec<ObservedDeadlock>, usize) {
    let mut out: Vec<ObservedDeadlock> = Vec::new();
    let mut unanchored = 0;
    for inv in inversions {
        let lines: Option<BTreeSet<u32>> = inv
            .calls
            .iter()
            .map(|stack| stack.iter().find(|f| f.file == "main.c").map(|f| f.line))
            .collect();
        match lines {
            Some(lines) if !lines.is_empty() => {
                if !out.iter().any(|o| o.lines == lines) {
                    out.push(ObservedDeadlock {
                        lines,
                        report: inv.text.clone(),
                    });
                }
            }
            _ => unanchored += 1,
        }
    }
    out.sort_by(|a, b| a.lines.cmp(&b.lines));
    (out, unanchored)
}

/// Whether one of locksmith's deadlock warnings (the `main.c` lines of its lock calls) lists a
/// lock call on every line of the inversion (rule 5).
pub fn deadlock_covered(d: &ObservedDeadlock, deadlocks: &[BTreeSet<u32>]) -> bool {
    deadlocks.iter().any(|w| d.lines.is_subset(w))
}

/// One locksmith warning: the `main.c` lines it lists, each with whether it is a write there.
pub type Warning = BTreeSet<(u32, bool)>;

/// Whether some warning covers the race (rule 3).
pub fn covered(race: &Observed, warnings: &[Warning]) -> bool {
    let (a, b) = race.lines();
    let has = |w: &Warning, line: u32| w.iter().any(|&(l, _)| l == line);
    warnings.iter().any(|w| has(w, a) && has(w, b))
}

/// What locksmith says about a `main.c`: its warnings, its deadlocks (the `main.c` lines of
/// their lock calls), and the functions it could not analyse.
pub struct Verdict {
    pub warnings: Vec<Warning>,
    pub deadlocks: Vec<BTreeSet<u32>>,
    pub unanalysed: Vec<String>,
}

/// Runs locksmith in process on `main_c` alone.
pub fn locksmith(main_c: &Path) -> Result<Verdict, String> {
    locksmith_with(main_c, CheckOptions::default())
}

/// Runs locksmith in process on `main_c` alone, with `options`.
pub fn locksmith_with(main_c: &Path, options: CheckOptions) -> Result<Verdict, String> {
    let result = driver::check_on_large_stack(
        vec![main_c.to_path_buf()],
        options,
        &solver::stats::Stats::off(),
    )
    .and_then(driver::Checked::done)
    .map_err(|e| format!("locksmith failed: {e:?}"))?;
    let in_main = |file: &str| Path::new(file).file_name().is_some_and(|n| n == "main.c");
    let warnings = result
        .solution
        .warnings
        .iter()
        .map(|w| {
            w.accesses
                .iter()
                .map(|a| &result.generated.access_sites[a.access])
                .filter(|s| in_main(&result.program.files[s.pos.file]))
                .map(|s| (s.pos.line, s.write))
                .collect()
        })
        .collect();
    let deadlocks = result
        .solution
        .deadlocks
        .iter()
        .map(|d| {
            d.acquisitions
                .iter()
                .map(|a| result.generated.acquire_sites[a.acq].pos)
                .filter(|p| in_main(&result.program.files[p.file]))
                .map(|p| p.line)
                .collect()
        })
        .collect();
    let unanalysed = result
        .program
        .unanalysed
        .iter()
        .map(|u| format!("{}: {}", u.name, u.reason))
        .collect();
    Ok(Verdict {
        warnings,
        deadlocks,
        unanalysed,
    })
}

/// A race TSan observed that locksmith did not warn about.
#[derive(Clone, Debug)]
pub struct Miss {
    pub race: Observed,
    /// The idioms it goes through (see [`pattern`]).
    pub pattern: String,
    /// Why it was missed (see [`diagnose`]).
    pub cause: &'static str,
}

/// The text of a function of `main_c`, from its header line to its closing brace.
fn function_text<'a>(main_c: &'a str, name: &str) -> Option<&'a str> {
    let call = format!("{name}(");
    let start = main_c.match_indices(&call).find_map(|(at, _)| {
        let line_start = main_c[..at].rfind('\n').map_or(0, |k| k + 1);
        let line_end = main_c[at..].find('\n').map_or(main_c.len(), |k| at + k);
        let header = &main_c[line_start..line_end];
        let before = main_c[..at].chars().next_back();
        let is_definition = !header.starts_with(' ') && !header.ends_with(';');
        (is_definition && matches!(before, Some(' ' | '*'))).then_some(line_start)
    })?;
    let end = main_c[start..]
        .find("\n}\n")
        .map_or(main_c.len(), |k| start + k + 3);
    Some(&main_c[start..end])
}

/// The idioms a race goes through, to group misses by cause: the memory (heap, heap allocated
/// through `xmalloc`, a global of the program or of the library, a thread-local), the library
/// functions on either access's stack (`lib_add`, `lib_tick`, `lib_apply`, `lib_run`), an access
/// through the `lib_stats()` or `lib_get_s()` getter, and an object a function got from
/// `lib_load()`: its memory (for a heap block) or its callback field.
pub fn pattern(race: &Observed, main_c: &str) -> String {
    let memory = if race.location == "heap block" {
        if race.allocated_by.iter().any(|f| f == "xmalloc") {
            "heap via xmalloc".to_string()
        } else {
            "heap".to_string()
        }
    } else if race.location.starts_with("global 'lib_") {
        "library global".to_string()
    } else if race.location.starts_with("global") {
        "global".to_string()
    } else if race.location.starts_with("TLS") {
        "thread-local".to_string()
    } else {
        race.location.clone()
    };
    let line_text = |line: u32| main_c.lines().nth(line as usize - 1).unwrap_or("");
    let mut features = BTreeSet::new();
    for f in &race.frames {
        if f.function.starts_with("lib_") {
            features.insert(format!("through {}", f.function));
            continue;
        }
        let from_library =
            function_text(main_c, &f.function).is_some_and(|t| t.contains("lib_load()"));
        if from_library && f.file == "main.c" && line_text(f.line).contains("->cb(") {
            features.insert("callback of an object from lib_load".to_string());
        } else if from_library && memory.starts_with("heap") {
            features.insert("object from lib_load".to_string());
        }
    }
    for line in [race.first.line, race.second.line] {
        for getter in ["lib_stats", "lib_get_s"] {
            if line_text(line).contains(&format!("{getter}()")) {
                features.insert(format!("through {getter}"));
            }
        }
    }
    let features: Vec<String> = features.into_iter().collect();
    if features.is_empty() {
        memory
    } else {
        format!("{memory}, {}", features.join(", "))
    }
}

/// The causes [`diagnose`] tells apart.
pub const CAUSE_XMALLOC: &str = "a struct allocated through the void * wrapper xmalloc";
pub const CAUSE_LIBRARY: &str = "code locksmith is not given (found when given lib.c too)";
pub const CAUSE_BOTH: &str = "xmalloc and lib.c together";
pub const CAUSE_CONTEXT: &str = "found only with --context-insensitive";
pub const CAUSE_UNEXPLAINED: &str = "unexplained";

/// Every warning of locksmith on `files`, as the `file:line` of each access it lists.
fn warned_sites(files: &[PathBuf], options: CheckOptions) -> Option<Vec<BTreeSet<String>>> {
    let result =
        driver::check_on_large_stack(files.to_vec(), options, &solver::stats::Stats::off())
            .and_then(driver::Checked::done)
            .ok()?;
    let name = |file: &str| {
        Path::new(file)
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    };
    let sites = result.solution.warnings.iter().map(|w| {
        w.accesses
            .iter()
            .map(|a| &result.generated.access_sites[a.access])
            .map(|s| format!("{}:{}", name(&result.program.files[s.pos.file]), s.pos.line))
            .collect()
    });
    Some(sites.collect())
}

/// Why locksmith missed a race, found by running it again on variants of the program, the first
/// that covers the race naming the cause: `malloc` in place of `xmalloc` (same lines); `lib.c`
/// given too, where the race must be covered at its sites (`lib.c:60` rather than the `main.c`
/// call); both; and `--context-insensitive`.
pub fn diagnose(sources: &Sources, race: &Observed, dir: &Path) -> &'static str {
    let variant = dir.join("variant");
    let covered_by = |main_c: &str, with_library: bool, options: CheckOptions| {
        let mut files = vec![variant.join("main.c")];
        if with_library {
            files.push(variant.join("lib.c"));
        }
        let written = std::fs::create_dir_all(&variant).is_ok()
            && std::fs::write(&files[0], main_c).is_ok()
            && (!with_library || std::fs::write(&files[1], &sources.lib_c).is_ok());
        let sites = [&race.first.site, &race.second.site];
        written
            && warned_sites(&files, options).is_some_and(|warnings| {
                if with_library {
                    warnings
                        .iter()
                        .any(|w| sites.iter().all(|s| w.contains(*s)))
                } else {
                    let lines = |w: &BTreeSet<String>| {
                        w.iter()
                            .filter_map(|s| s.strip_prefix("main.c:")?.parse().ok())
                            .map(|l| (l, false))
                            .collect::<Warning>()
                    };
                    covered(race, &warnings.iter().map(lines).collect::<Vec<_>>())
                }
            })
    };
    let main_c = &sources.main_c;
    let malloc = main_c.replace("xmalloc(sizeof", "malloc(sizeof");
    let wrapper = main_c.contains("xmalloc(sizeof");
    let library = !sources.lib_c.is_empty();
    let default = CheckOptions::default;
    let cause = if wrapper && covered_by(&malloc, false, default()) {
        CAUSE_XMALLOC
    } else if library && covered_by(main_c, true, default()) {
        CAUSE_LIBRARY
    } else if wrapper && library && covered_by(&malloc, true, default()) {
        CAUSE_BOTH
    } else {
        let mut insensitive = default();
        insensitive
            .techniques
            .disable(Technique::ContextSensitivity);
        if covered_by(main_c, false, insensitive) {
            CAUSE_CONTEXT
        } else {
            CAUSE_UNEXPLAINED
        }
    };
    let _ = std::fs::remove_dir_all(&variant);
    cause
}

/// Everything the oracle learnt about one program.
#[derive(Debug, Default)]
pub struct Outcome {
    pub seed: u64,
    pub library: bool,
    /// The distinct observed races (rule 2).
    pub observed: Vec<Observed>,
    pub unanchored: usize,
    pub warnings: usize,
    pub misses: Vec<Miss>,
    /// The distinct lock-order inversions TSan observed (rule 5), and those no deadlock
    /// warning covers.
    pub inversions: usize,
    pub missed_deadlocks: Vec<ObservedDeadlock>,
    /// Failures that are not misses: the program did not build or run cleanly, TSan reported
    /// something other than a data race, or locksmith failed or skipped a function. Each is a
    /// bug of the generator or of locksmith, never a verdict.
    pub problems: Vec<String>,
    /// Where the program was saved (when it has a miss or a problem).
    pub saved: Option<PathBuf>,
    pub tsan_time: Duration,
    pub locksmith_time: Duration,
}

/// Generates the program for `seed`, runs it under TSan and locksmith, and applies the rule.
pub fn check(seed: u64, options: Options, config: &Config) -> Outcome {
    let program = generate(seed, options);
    let dir = config.work.join(format!("seed-{seed}-{}", tag(options)));
    let mut out = Outcome {
        seed,
        library: options.library,
        ..Outcome::default()
    };
    let started = Instant::now();
    let reports = tsan::build(&dir, &program.sources)
        .and_then(|exe| tsan::run(&exe, config.runs, config.timeout));
    out.tsan_time = started.elapsed();
    let mut verdict = None;
    match reports {
        Err(e) => out.problems.push(e),
        Ok(reports) => {
            out.problems.extend(
                reports
                    .others
                    .iter()
                    .map(|k| format!("ThreadSanitizer reports: {k}")),
            );
            (out.observed, out.unanchored) = observed(&reports.races);
            let (inversions, unanchored) = observed_deadlocks(&reports.inversions);
            out.inversions = inversions.len();
            out.unanchored += unanchored;
            let started = Instant::now();
            match locksmith(&dir.join("main.c")) {
                Err(e) => out.problems.push(e),
                Ok(v) => {
                    out.problems.extend(
                        v.unanalysed
                            .iter()
                            .map(|u| format!("locksmith did not analyse {u}")),
                    );
                    out.warnings = v.warnings.len() + v.deadlocks.len();
                    out.missed_deadlocks = inversions
                        .iter()
                        .filter(|d| !deadlock_covered(d, &v.deadlocks))
                        .cloned()
                        .collect();
                    out.misses = out
                        .observed
                        .iter()
                        .filter(|r| !covered(r, &v.warnings))
                        .map(|r| {
                            let main_c = &program.sources.main_c;
                            let pattern = pattern(r, main_c);
                            let cause = diagnose(&program.sources, r, &dir);
                            Miss {
                                race: r.clone(),
                                pattern,
                                cause,
                            }
                        })
                        .collect();
                    verdict = Some(v);
                }
            }
            out.locksmith_time = started.elapsed();
        }
    }
    if !out.misses.is_empty() || !out.missed_deadlocks.is_empty() || !out.problems.is_empty() {
        match save(&program, &out, verdict.as_ref(), &config.save) {
            Ok(path) => out.saved = Some(path),
            Err(e) => out.problems.push(format!("cannot save the program: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// `lib` or `nolib`, for directory names.
pub fn tag(options: Options) -> &'static str {
    if options.library {
        "lib"
    } else {
        "nolib"
    }
}

/// Saves a program with its misses and problems: `main.c`, `lib.c` (with the library idioms),
/// and `oracle.txt` (what was missed, the TSan reports, locksmith's warnings, how to rerun).
fn save(
    program: &Program,
    out: &Outcome,
    verdict: Option<&Verdict>,
    root: &Path,
) -> std::io::Result<PathBuf> {
    let dir = root.join(format!("seed-{}-{}", program.seed, tag(program.options)));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("main.c"), &program.sources.main_c)?;
    if !program.sources.lib_c.is_empty() {
        std::fs::write(dir.join("lib.c"), &program.sources.lib_c)?;
    }
    let mut text = String::new();
    text.push_str(&format!(
        "seed {} ({}); rerun: cargo xtask tsan-differential --programs 1 --seed {}{}\n",
        program.seed,
        tag(program.options),
        program.seed,
        if program.options.library {
            ""
        } else {
            " --no-library"
        },
    ));
    for p in &out.problems {
        text.push_str(&format!("problem: {p}\n"));
    }
    for m in &out.misses {
        text.push_str(&format!(
            "missed: {} [{}; {}]\n",
            m.race.describe(),
            m.pattern,
            m.cause
        ));
    }
    for d in &out.missed_deadlocks {
        text.push_str(&format!("missed deadlock: lock calls {}\n", d.calls()));
    }
    if let Some(v) = verdict {
        for d in &v.deadlocks {
            let lines: Vec<String> = d.iter().map(u32::to_string).collect();
            text.push_str(&format!(
                "locksmith's deadlock (lock calls on lines): {}\n",
                lines.join(" ")
            ));
        }
        text.push_str("\nlocksmith's warnings (main.c lines):\n");
        for w in &v.warnings {
            let lines: Vec<String> = w
                .iter()
                .map(|&(l, write)| format!("{l}{}", if write { "w" } else { "r" }))
                .collect();
            text.push_str(&format!("  {}\n", lines.join(" ")));
        }
    }
    for m in &out.misses {
        text.push_str(&format!("\n{}\n", m.race.report.trim_end()));
    }
    for d in &out.missed_deadlocks {
        text.push_str(&format!("\n{}\n", d.report.trim_end()));
    }
    std::fs::write(dir.join("oracle.txt"), text)?;
    Ok(dir)
}
