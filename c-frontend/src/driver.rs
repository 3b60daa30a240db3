//! The whole C pipeline for `locksmith check`: preprocess and parse every file (with recovery),
//! lower them together with the libc stubs into one linked program, run the front-end analyses
//! (the last changes to the IR, then [`crate::analyses::run`], whose result is frozen), generate
//! constraints from the program and that result, and run the thread analysis. It returns data;
//! rendering is the command line's job.

use std::path::PathBuf;

use crate::constraints::{self, Generated};
use crate::diagnostics::{Fatal, FatalKind, Lost, Unanalysed, UnanalysedKind};
use crate::ir::{Origin, Program};
use crate::lower::Lowerer;
use crate::model::Model;
use crate::syntax::embedded;
use crate::syntax::parse::{self, DroppedKind, ParsedUnit};
use crate::syntax::parse_cache::ParseCache;
use crate::syntax::preprocess::{self, PreprocessOptions, Preprocessed};
use crate::syntax::srcmap::{FileTable, SourceMap};
use solver::stats::{Phase, Stats};
use solver::threads::{self, ThreadSolution};
use solver::Techniques;

/// The C front end's phases as its users see them (`--timings`, the progress indicator, where
/// a run stopped), in the order they run; the thread analysis's follow
/// ([`solver::threads::PHASE_RESOLVE`] …).
pub const PHASE_PREPROCESS: Phase = Phase::named("preprocess");
pub const PHASE_PARSE: Phase = Phase::named("parse");
pub const PHASE_LOWER: Phase = Phase::named("lower");
/// The front end's analyses of the IR (joins, unpacks, lock elements, barriers, startup stores)
/// that constraint generation reads.
pub const PHASE_ANALYSES: Phase = Phase::named("front-end analyses");
/// Constraint generation (paper §3): labelled types, constraints, event graphs.
pub const PHASE_GENERATE: Phase = Phase::named("constraint generation");

/// Options of `locksmith check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub preprocess: PreprocessOptions,
    /// The techniques that are on (all by default), for every phase.
    pub techniques: Techniques,
    /// Where the check starts: `main`, or entry points called by any number of threads.
    pub entries: crate::entries::Entries,
    /// Skip the deadlock check (`--no-deadlocks`).
    pub no_deadlocks: bool,
    /// At most how many threads the check runs on at once (`--jobs`; `None`: one per core).
    /// With one, the units are preprocessed and parsed one after another and the deadlock
    /// check runs after the race check instead of beside it. The results never depend on it.
    pub jobs: Option<std::num::NonZeroUsize>,
    /// The functions the user's configuration models, layered over the built-in library model
    /// for this run only ([`crate::model::user`]).
    pub configured: Vec<crate::model::Configured>,
    /// The configuration file the options were read from, if any: only named in reports.
    pub configuration: Option<String>,
    /// Keep parsed units in the data directory and read back those whose preprocessed text is
    /// unchanged ([`crate::syntax::parse_cache`]); off unless asked for (the command line asks
    /// unless `--no-cache`).
    pub cache: bool,
    /// At most how long the run takes and how much memory it holds (`--time-limit`,
    /// `--memory-limit`); when it reaches one it stops and says what it has ([`Checked`]).
    pub limits: solver::budget::Limits,
}

/// One translation unit of the program: a file, and the preprocessing flags it is built with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The file, named as reports will name it.
    pub path: PathBuf,
    /// The unit's own flags and working directory (a build's compilation database entry), or
    /// `None` for the run's global flags ([`CheckOptions::preprocess`], which the files of the
    /// command line share).
    pub preprocess: Option<PreprocessOptions>,
}

impl From<PathBuf> for Input {
    fn from(path: PathBuf) -> Input {
        Input {
            path,
            preprocess: None,
        }
    }
}

impl From<&std::path::Path> for Input {
    fn from(path: &std::path::Path) -> Input {
        Input::from(path.to_path_buf())
    }
}

/// What a check gives: its result, or what it has when its budget ran out first.
pub enum Checked {
    /// The analysis ran to its end; or its budget ran out in the race check, which keeps the
    /// races it found, or in the deadlock check (`solution.stopped` says so).
    Done(Box<CheckResult>),
    /// The budget ran out before the race check.
    Stopped(Stopped),
}

impl Checked {
    /// The result of a check that ran to the race check; a stop before it is an error (for
    /// callers that set no limits, where it cannot happen).
    pub fn done(self) -> Result<CheckResult, Fatal> {
        match self {
            Checked::Done(result) => Ok(*result),
            Checked::Stopped(s) => Err(Fatal::new(
                FatalKind::Internal,
                format!("the check stopped early: {:?}", s.stop),
            )),
        }
    }
}

/// A check stopped by its budget before the race check: where, and the program as far as it
/// was read (`None` when the limit was reached before every unit was lowered), for the
/// functions it could not analyse.
pub struct Stopped {
    pub stop: solver::budget::Stop,
    pub program: Option<Box<Program>>,
    /// The configuration file read ([`CheckOptions::configuration`]).
    pub configuration: Option<String>,
}

/// Everything a report needs.
pub struct CheckResult {
    pub program: Program,
    pub generated: Generated,
    pub solution: ThreadSolution,
    /// The configuration file read ([`CheckOptions::configuration`]).
    pub configuration: Option<String>,
    /// Where the check started: `main`, or the harness calling the entry points.
    pub root: crate::ir::FuncId,
    /// How the entry points were chosen ([`CheckOptions::entries`]).
    pub entries: crate::entries::Entries,
    /// What the configuration says that changes nothing ([`crate::model::user::warnings`]).
    pub configuration_warnings: Vec<(Option<crate::diagnostics::Place>, String)>,
}

impl CheckResult {
    /// Everything that was not analysed: what the parser and the lowering left out, then the
    /// functions whose constraints could not be generated.
    pub fn unanalysed(&self) -> Vec<&Unanalysed> {
        self.program
            .unanalysed
            .iter()
            .chain(&self.generated.unanalysed)
            .collect()
    }
}

/// Records, for a unit recovery cut pieces out of, what was not analysed.
fn dropped_items(parsed: &ParsedUnit, map: &SourceMap, unanalysed: &mut Vec<Unanalysed>) {
    for d in &parsed.dropped {
        let (kept, lost) = match d.kind {
            DroppedKind::FunctionBody => ("its body is not analysed", Lost::Body),
            DroppedKind::Typedef => ("it is read as `int`", Lost::Declaration),
            DroppedKind::Declaration => ("it is skipped", Lost::Item),
        };
        unanalysed.push(Unanalysed {
            name: d.name.clone(),
            pos: map.pos(d.offset),
            kind: UnanalysedKind::ParseError,
            lost,
            reason: format!("{}; {kept}", d.reason),
        });
    }
}

/// How many threads the check may run on at once: `--jobs`, or as many as the machine has cores.
fn thread_count(options: &CheckOptions) -> usize {
    options
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, |n| n.get())
}

/// Runs `f` on every item, on up to `threads` threads, and returns the results in the items'
/// order (so the output never depends on the thread count).
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let work = || loop {
        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(item) = items.get(k) else { break };
        let r = f(item);
        if let Ok(mut slot) = results[k].lock() {
            *slot = Some(r);
        }
    };
    std::thread::scope(|scope| {
        // Parsing recurses over deeply nested C, as on the analysis thread
        // (`check_on_large_stack`), so the workers get its kind of stack. When none can be
        // started, the items are done here.
        let started = (0..threads)
            .filter(|_| {
                std::thread::Builder::new()
                    .stack_size(1 << 28)
                    .spawn_scoped(scope, work)
                    .is_ok()
            })
            .count();
        if started == 0 {
            work();
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .expect("every item was processed")
        })
        .collect()
}

/// Drops `value` on a thread of its own: freeing a whole result takes a good share of a large
/// program's time (half a second at a million lines) and nothing waits for it. When
/// the process ends first, the memory is returned with it. When no thread can be started, it
/// is dropped here.
pub fn drop_beside<T: Send + 'static>(value: T) {
    // When the thread cannot be started, the closure, and the value in it, is dropped with
    // the error.
    let _ = std::thread::Builder::new()
        .name("locksmith-drop".into())
        .spawn(move || drop(value));
}

/// The preprocessed units of a program: the libc stubs first, then the inputs in order,
/// preprocessed in parallel; the first failure in input order is the one reported.
fn preprocess_units(
    inputs: &[Input],
    options: &CheckOptions,
    stats: &Stats,
) -> Result<Vec<Preprocessed>, Fatal> {
    let dir = embedded::data_dir().map_err(|e| {
        Fatal::new(
            FatalKind::Internal,
            format!("cannot write locksmith's data files: {e}"),
        )
    })?;
    let stubs = Input::from(dir.join("stubs").join(embedded::STUB_UNIT));
    let units: Vec<(bool, &Input)> = std::iter::once((true, &stubs))
        .chain(inputs.iter().map(|i| (false, i)))
        .collect();
    // The stubs are the same unit on every run: their preprocessed text is cached in the data
    // directory (`preprocess_cached`). They are preprocessed with the global flags.
    let preprocessed = stats.phase(PHASE_PREPROCESS, || {
        in_parallel(&units, thread_count(options), |&(is_stubs, unit)| {
            let flags = unit.preprocess.as_ref().unwrap_or(&options.preprocess);
            if is_stubs {
                preprocess::preprocess_cached(&unit.path, flags, &dir.join("cache"))
            } else {
                preprocess::preprocess(&unit.path, flags)
            }
        })
    });
    let mut units = Vec::with_capacity(preprocessed.len());
    for (k, pre) in preprocessed.into_iter().enumerate() {
        units.push(pre.map_err(|e| {
            if k == 0 {
                Fatal::new(
                    FatalKind::Internal,
                    format!("cannot preprocess the libc stubs: {}", e.message),
                )
            } else {
                Fatal::new(FatalKind::Preprocess, e.message)
            }
        })?);
    }
    Ok(units)
}

/// The libc stubs parsed and lowered, kept for the life of the process: every check in one
/// process (the test suite, the fuzzer, a library user) otherwise spends most of a small
/// program's time parsing the same stubs again. A pure memo: it is used only when the stubs'
/// preprocessed text is the same and no configured row changes the library model, which are
/// everything lowering the stubs depends on, so a run's result never depends on what ran before.
struct LoweredStubs {
    text: String,
    lowerer: Lowerer,
    files: FileTable,
}

static LOWERED_STUBS: std::sync::Mutex<Option<LoweredStubs>> = std::sync::Mutex::new(None);

impl LoweredStubs {
    /// A copy of the lowerer and file table as they were after the stubs of `text`, if cached.
    fn lookup(text: &str) -> Option<(Lowerer, FileTable)> {
        let cache = LOWERED_STUBS.lock().ok()?;
        let stubs = cache.as_ref().filter(|c| c.text == text)?;
        Some((stubs.lowerer.clone(), stubs.files.clone()))
    }

    fn store(text: &str, lowerer: &Lowerer, files: &FileTable) {
        if let Ok(mut cache) = LOWERED_STUBS.lock() {
            *cache = Some(LoweredStubs {
                text: text.to_string(),
                lowerer: lowerer.clone(),
                files: files.clone(),
            });
        }
    }
}

/// Parses the units and lowers them into one linked program, in input order. Units are parsed
/// in parallel a few at a time (as many as there are cores) and each syntax tree is dropped as
/// soon as its unit is lowered, so the trees of a large program are never all in memory at once
/// (they were its peak: 1.15 GiB of 3.2 for a million lines). The first unit in input order that
/// does not parse is the error.
fn parse_and_lower(
    units: Vec<Preprocessed>,
    options: &CheckOptions,
    stats: &Stats,
) -> Result<Program, Fatal> {
    let mut parse = stats.clock(PHASE_PARSE);
    let mut lower = stats.clock(PHASE_LOWER);
    let batch = thread_count(options);
    let mut units = units;
    let mut files = FileTable::new();
    let mut lowerer = Lowerer::with_model(Model::with_configured(&options.configured));
    let mut k = 0;
    // The stubs are unit 0. Lowered once per process for the built-in model, they are cloned
    // from then on ([`LoweredStubs`]).
    let stubs_key = options.configured.is_empty().then(|| units[0].text.clone());
    if let Some(cached) = stubs_key.as_deref().and_then(LoweredStubs::lookup) {
        (lowerer, files) = cached;
        units.remove(0);
        k = 1;
    }
    let units: Vec<std::sync::Mutex<Option<Preprocessed>>> = units
        .into_iter()
        .map(|u| std::sync::Mutex::new(Some(u)))
        .collect();
    let cache = options
        .cache
        .then(embedded::data_dir)
        .and_then(Result::ok)
        .and_then(|dir| ParseCache::new(&dir.join("cache")));
    let mut unanalysed = Vec::new();
    let total = units.len();
    for (done, chunk) in units.chunks(batch).enumerate() {
        let parsed = parse.run(|| {
            solver::budget::poll_now();
            stats.progress(done * batch, total);
            in_parallel(chunk, batch, |u| {
                let unit = u.lock().ok().and_then(|mut u| u.take());
                unit.map(|unit| parse_or_read(unit, cache.as_ref()))
            })
        });
        for p in parsed {
            let parsed = match p {
                Some(Ok(unit)) => unit,
                Some(Err(e)) => {
                    let kind = if e.internal {
                        FatalKind::Internal
                    } else {
                        FatalKind::NotC
                    };
                    return Err(Fatal::new(kind, e.message));
                }
                None => return Err(Fatal::new(FatalKind::Internal, "a unit was parsed twice")),
            };
            lower.run(|| {
                let map = SourceMap::new(&parsed.text, &parsed.name, &mut files);
                let origin = if k == 0 { Origin::Stub } else { Origin::User };
                if origin == Origin::User {
                    dropped_items(&parsed, &map, &mut unanalysed);
                }
                lowerer.add_unit(&parsed.unit, &map, origin);
                if let (Origin::Stub, Some(key)) = (origin, stubs_key.as_ref()) {
                    LoweredStubs::store(key, &lowerer, &files);
                }
            });
            k += 1;
        }
    }
    lowerer.check_configured()?;
    lowerer.check_definitions(&files)?;
    let program = lower.run(|| lowerer.finish(files, unanalysed));
    parse.finish();
    lower.finish();
    Ok(program)
}

/// The parse of `unit`: from the cache when an earlier run parsed the same text, otherwise
/// parsed now (and kept in the cache when it parses).
fn parse_or_read(
    unit: Preprocessed,
    cache: Option<&ParseCache>,
) -> Result<ParsedUnit, parse::ParseError> {
    let Some(cache) = cache else {
        return parse::parse_unit(unit);
    };
    if let Some(parsed) = cache.load(&unit) {
        return Ok(parsed);
    }
    let text = unit.text.clone();
    let parsed = parse::parse_unit(unit)?;
    cache.store(&text, &parsed);
    Ok(parsed)
}

/// Analyses the C program made of `inputs`, within the budget of [`CheckOptions::limits`],
/// recording into `stats`.
pub fn check(inputs: &[Input], options: &CheckOptions, stats: &Stats) -> Result<Checked, Fatal> {
    if inputs.is_empty() {
        return Err(Fatal::new(FatalKind::NoInput, "no input files"));
    }
    solver::budget::within(options.limits, || {
        let mut read = None;
        match solver::budget::caught(|| analyse(inputs, options, stats, &mut read)) {
            Ok(result) => result.map(|r| Checked::Done(Box::new(r))),
            Err(stop) => Ok(Checked::Stopped(Stopped {
                // A stop found by a poll is named by the phase running.
                stop: solver::budget::Stop {
                    phase: stop.phase.or_else(|| stats.current_phase()),
                    ..stop
                },
                program: read.map(Box::new),
                configuration: options.configuration.clone(),
            })),
        }
    })
}

/// The stages of [`check`]; the program, once lowered, is kept in `read`, so that a run stopped
/// later still has it.
fn analyse(
    inputs: &[Input],
    options: &CheckOptions,
    stats: &Stats,
    read: &mut Option<Program>,
) -> Result<CheckResult, Fatal> {
    let units = preprocess_units(inputs, options, stats)?;
    let program = read.insert(parse_and_lower(units, options, stats)?);
    let configuration_warnings = {
        let names: rustc_hash::FxHashSet<&str> =
            program.funcs.iter().map(|f| f.name.as_str()).collect();
        crate::model::user::warnings(&options.configured, |name| names.contains(name))
    };
    solver::budget::poll_now();
    let main = match &options.entries {
        crate::entries::Entries::Main => program
            .funcs
            .iter_enumerated()
            .find(|(_, f)| f.name == "main" && f.defined && f.origin == Origin::User)
            .map(|(id, _)| id)
            .ok_or_else(|| no_main(program, inputs))?,
        how => {
            let entries = crate::entries::choose(program, how)
                .map_err(|message| Fatal::new(FatalKind::NoMain, message))?;
            crate::entries::harness(program, &entries)
        }
    };
    let open_world = !matches!(options.entries, crate::entries::Entries::Main);
    let analysed = stats.phase(PHASE_ANALYSES, || {
        program.rwlocks = stats.time("analyses: readers/writer locks", || {
            crate::rwlocks::recognise(program)
        });
        if options.techniques.has(solver::Technique::Configuration) {
            program.folded = stats.time("analyses: configuration", || {
                crate::fold::fold(program, open_world)
            });
            stats.count("configuration: branches decided", program.folded.branches);
            stats.count("configuration: blocks not analysed", program.folded.blocks);
        }
        let devirtualized = stats.time("analyses: calls through pointers", || {
            crate::devirtualize::devirtualize(program, main, open_world)
        });
        stats.count("calls through pointers made direct", devirtualized);
        if options
            .techniques
            .has(solver::Technique::ContextSensitivity)
        {
            let specialised = stats.time("analyses: thread starters", || {
                crate::specialise::specialise(program)
            });
            stats.count("thread starters copied per start routine", specialised);
        }
        program.alloc_wrappers = stats.time("analyses: allocation wrappers", || {
            crate::analyses::alloc_wrappers::find(program)
        });
        program.non_capturing_functions = stats
            .time("analyses: functions that keep nothing", || {
                crate::analyses::stub_captures::non_capturing_functions(program)
            });
        crate::analyses::run(program, main, options.techniques, stats)
    });
    solver::budget::poll_now();
    let generated = stats.phase(PHASE_GENERATE, || {
        let generated = constraints::generate(program, main, options.techniques, &analysed, stats);
        // Generation alone reads the analyses' result: it is freed before the thread analysis.
        drop(analysed);
        generated
    });
    solver::budget::poll_now();
    let solution = threads::solve_with(
        &generated.constraints,
        &generated.threads,
        options.techniques,
        if options.no_deadlocks {
            threads::DeadlockCheck::Skip
        } else if thread_count(options) == 1 {
            threads::DeadlockCheck::After
        } else {
            threads::DeadlockCheck::Beside
        },
        stats,
    );
    let program = read
        .take()
        .ok_or_else(|| Fatal::new(FatalKind::Internal, "the lowered program was lost"))?;
    Ok(CheckResult {
        program,
        generated,
        solution,
        configuration: options.configuration.clone(),
        root: main,
        entries: options.entries.clone(),
        configuration_warnings,
    })
}

/// Why there is no `main` to start from: it could not be parsed or lowered (then the error is
/// named), or no file defines it.
fn no_main(program: &Program, inputs: &[Input]) -> Fatal {
    if let Some(u) = program.unanalysed.iter().find(|u| u.name == "main") {
        return Fatal::new(
            FatalKind::NoMain,
            format!(
                "`main` at {}:{} could not be analysed: {}; locksmith checks whole programs from `main`",
                program.files[u.pos.file], u.pos.line, u.reason
            ),
        );
    }
    let names: Vec<String> = inputs
        .iter()
        .map(|i| i.path.display().to_string())
        .collect();
    Fatal::new(
        FatalKind::NoMain,
        format!(
            "no `main` function in {}: locksmith checks whole programs (add the file that defines \
             main), or name the functions other threads call with --entry f,g, or check every \
             function other files could call with --library",
            names.join(", ")
        ),
    )
}

/// [`check`] on a thread with a large stack: parsing and lowering recurse over deeply nested C.
/// The inputs are [`Input`]s, or paths that share the global flags. `stats` records the run
/// (`&Stats::off()` for none).
pub fn check_on_large_stack(
    inputs: Vec<impl Into<Input>>,
    options: CheckOptions,
    stats: &Stats,
) -> Result<Checked, Fatal> {
    let inputs: Vec<Input> = inputs.into_iter().map(Into::into).collect();
    let joined = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("locksmith-check".into())
            .stack_size(1 << 30)
            .spawn_scoped(scope, || check(&inputs, &options, stats))
            .map(|thread| thread.join())
    });
    joined
        .map_err(|e| {
            Fatal::new(
                FatalKind::Internal,
                format!("cannot start the analysis thread: {e}"),
            )
        })?
        .unwrap_or_else(|panic| {
            let phase = stats.current_phase().map_or("setup", |p| p.name());
            Err(Fatal::new(
                FatalKind::Internal,
                format!(
                    "internal error in {phase}: {}",
                    crate::diagnostics::panic_message(panic.as_ref())
                ),
            ))
        })
}

/// A developer's view of a result (printed by `locksmith check` to stderr when the environment
/// variable `LOCKSMITH_DEBUG` is set): every access with its label, and every fact with its
/// function, thread, position, locks and write flag (the facts a map leaves implicit,
/// `Propagated::deferred_into`, are not listed).
pub fn debug_dump(r: &CheckResult) -> String {
    let mut out = String::new();
    let p = &r.program;
    for (f, func) in p.funcs.iter_enumerated() {
        if func.defined && func.origin == Origin::User {
            out.push_str(&crate::ir::dump::dump_func(p, f));
        }
    }
    for (a, site) in r.generated.access_sites.iter_enumerated() {
        let info = r.generated.threads.accesses[a];
        let file = &p.files[site.pos.file];
        let home = r
            .solution
            .homes
            .home_of(info.rho)
            .map(|f| p.funcs[r.generated.fn_func[f]].name.as_str());
        let images = r
            .generated
            .constraints
            .rho_insts
            .iter()
            .filter(|i| i.generic == info.rho)
            .count();
        out.push_str(&format!(
            "access {a:?} {}:{}:{} {:?} {} in {} (home {}, {images} images, scope {:?})\n",
            file,
            site.pos.line,
            site.pos.column,
            info.rho,
            if info.write { "write" } else { "read" },
            p.funcs[site.func].name,
            home.unwrap_or("main"),
            r.generated.constraints.rhos[info.rho].scope,
        ));
    }
    for (pos, why) in &r.generated.conflations {
        out.push_str(&format!(
            "conflated at {}:{}:{}: {why}\n",
            p.files[pos.file], pos.line, pos.column
        ));
    }
    for (fid, body) in r.generated.threads.funcs.iter_enumerated() {
        out.push_str(&format!(
            "events of {}:\n",
            p.funcs[r.generated.fn_func[fid]].name
        ));
        for (b, block) in body.blocks.iter().enumerate() {
            out.push_str(&format!(
                "  b{b} -> {:?}{}: {:?}\n",
                block.succs,
                if block.returns { " returns" } else { "" },
                block.events
            ));
        }
    }
    let mut trusted: Vec<_> = r.solution.mhp.unique_handle.iter().collect();
    trusted.sort();
    out.push_str(&format!("trusted global handles: {trusted:?}\n"));
    let facts = &r.solution.facts;
    for (id, fc) in facts.ctxs.iter_enumerated() {
        let func = &p.funcs[r.generated.fn_func[fc.func]].name;
        let c = &fc.ctx;
        out.push_str(&format!(
            "context {id:?} in {func} {:?} at {} held {:?} joined {:?} inside {:?}\n",
            c.thread,
            c.point,
            r.solution.sets.get(fc.held),
            facts.handle_sets.get(c.joined),
            facts.site_sets.get(c.inside),
        ));
        for level in solver::threads::nest::levels(&facts.nests, c.nest) {
            out.push_str(&format!(
                "  under {:?} in {}: {:?} at {}\n",
                level.site,
                p.funcs[r.generated.fn_func[level.func]].name,
                level.thread,
                level.point
            ));
        }
        for loc in facts.locs.get(facts.maps[id]) {
            out.push_str(&format!(
                "  fact {:?}{} {} behind {:?}\n",
                loc.rho,
                if loc.internal { " internal" } else { "" },
                if loc.writes { "writes" } else { "reads" },
                facts.locs.accesses(loc.accesses).collect::<Vec<_>>()
            ));
        }
    }
    out
}
