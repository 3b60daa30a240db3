//! Builds the report of `locksmith check` from a [`CheckResult`], modelled on the paper's §4.1
//! warning for aget: the shared location with its declaration or allocation site, then every
//! access with its position, whether it reads or writes, the locks held, and the call path from
//! its thread's root.
//!
//! This module converts ids into names and positions and sorts them for the report; it never
//! searches the program or the solution (those queries are in `c_frontend::explain`) and never
//! formats output beyond the names themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use c_frontend::constraints::RhoName;
use c_frontend::diagnostics::{AnnotationKind, UnsoundKind};
use c_frontend::driver::{self, CheckResult};
use c_frontend::explain::{self, CallPaths, ThreadOf};
use c_frontend::ir::{FileId, FuncId, Origin, Pos, Program, VarId};
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use solver::budget::{Limit, Stop};
use solver::ids::Idx;
use solver::stats::Phase;
use solver::threads::check::RaceWarning;
use solver::threads::deadlock::DeadlockWarning;
use solver::threads::facts::Thread;
use solver::threads::structure::CallPoint;
use solver::threads::{FnId, Mode, PHASE_CHECK, PHASE_DEADLOCKS};
use solver::{Lock, Site};

use super::model::{
    Acquisition, AnnotationProblem, CheckReport, ConfigurationConstant, ConfigurationWarning,
    ConfiguredFunction, Deadlock, FileLine, HandmadeLock, HeldAt, LeakKind, LockLeak, Position,
    Race, RaceAccess, RaceLocation, Stopped, Unanalysed, Unsound, Verdict, Warning, WarningKind,
    DATA_RACE, DEADLOCK, LOCK_LEAK,
};
use crate::progress::PHASE_REPORT;

/// The report on a checked C program, naming files relative to `root` ([`display_file`]).
pub fn build(r: &CheckResult, root: &Path) -> CheckReport {
    let b = Builder {
        r,
        root,
        file_names: r.program.files.iter().map(|_| OnceCell::new()).collect(),
        lock_names: explain::lock_names(r),
        paths: CallPaths::new(r),
        sent: c_frontend::signals::sent(&r.program),
        starter_calls: OnceCell::new(),
        steps: RefCell::default(),
    };
    let p = &r.program;
    let (races, unlisted) = races(&b);
    let races = super::consequences::grouped(r, root, races);
    let mut warnings: Vec<Warning> = races.into_iter().map(Warning::Race).collect();
    if unlisted.is_none() {
        warnings.extend(b.deadlocks().into_iter().map(Warning::Deadlock));
        warnings.extend(b.lock_leaks().into_iter().map(Warning::LockLeak));
    }
    let may_run = c_frontend::reach::unanalysed_may_run(r);
    let mut report = CheckReport {
        warnings,
        unanalysed: r
            .unanalysed()
            .into_iter()
            .zip(may_run)
            .map(|(u, may_run)| unanalysed(p, root, u, may_run))
            .collect(),
        unmodelled: r.generated.unmodelled.iter().cloned().collect(),
        unordered: r.generated.unordered.iter().cloned().collect(),
        unsound: unsound_places(r)
            .iter()
            .map(|u| Unsound {
                code: u.kind.code(),
                position: position(p, root, u.pos),
                what: unsound_message(p, u.kind),
            })
            .collect(),
        annotations: r
            .generated
            .annotations
            .iter()
            .map(|a| AnnotationProblem {
                code: a.kind.code(),
                position: position(p, root, a.pos),
                message: annotation_message(&a.kind),
            })
            .collect(),
        suppression_warnings: Vec::new(),
        left_out: Vec::new(),
        suppressed: 0,
        baselined: 0,
        configuration: r.configuration.clone(),
        configuration_warnings: r
            .configuration_warnings
            .iter()
            .map(|(at, message)| ConfigurationWarning {
                file: at.as_ref().map(|p| p.file.clone()),
                line: at.as_ref().map(|p| p.line),
                column: at.as_ref().map(|p| p.column),
                message: message.clone(),
            })
            .collect(),
        configured: p
            .configured
            .iter()
            .map(|&f| ConfiguredFunction {
                function: p.funcs[f].name.clone(),
                file: display_file(&p.files[p.funcs[f].pos.file], root),
                line: p.funcs[f].pos.line,
            })
            .collect(),
        constants: constants(p, root),
        handmade_locks: handmade_locks(p, root),
        stopped: match unlisted {
            Some((limit, left)) => Some(Stopped {
                locations_not_listed: Some(left),
                ..stopped(Stop {
                    limit,
                    phase: Some(PHASE_REPORT),
                })
            }),
            None => r.solution.stopped.map(stopped),
        },
        verdict: Verdict::RaceFree,
        allow_incomplete: false,
        baseline_written: false,
    };
    report.settle();
    report
}

/// The report of a check its budget stopped before the race check: where it stopped, and the
/// functions found not analysed until then (each may run: which do was not worked out).
pub fn build_stopped(s: &driver::Stopped, root: &Path) -> CheckReport {
    let unanalysed = s
        .program
        .as_deref()
        .into_iter()
        .flat_map(|p| {
            p.unanalysed
                .iter()
                .map(move |u| unanalysed(p, root, u, true))
        })
        .collect();
    let mut report = CheckReport {
        unanalysed,
        configuration: s.configuration.clone(),
        stopped: Some(stopped(s.stop)),
        ..CheckReport::default()
    };
    report.settle();
    report
}

/// A function not analysed, as reported.
fn unanalysed(
    p: &Program,
    root: &Path,
    u: &c_frontend::diagnostics::Unanalysed,
    may_run: bool,
) -> Unanalysed {
    Unanalysed {
        code: u.kind.code(),
        function: u.name.clone(),
        file: display_file(&p.files[u.pos.file], root),
        line: u.pos.line,
        column: u.pos.column,
        reason: u.reason.clone(),
        may_run,
    }
}

/// `bytes` in the largest binary unit that says it exactly, or in KiB.
fn amount_of_memory(bytes: u64) -> String {
    match bytes {
        b if b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b => format!("{} KiB", b.div_ceil(1 << 10)),
    }
}

/// Where a run out of budget stopped, and so which locations it checked for races.
fn stopped(stop: Stop) -> Stopped {
    let (limit, amount) = match stop.limit {
        Limit::Time(t) => ("time", format!("{} s", t.as_secs_f64())),
        Limit::Memory(bytes) => ("memory", amount_of_memory(bytes)),
    };
    let races_checked = match stop.phase {
        Some(PHASE_CHECK) => "some",
        Some(PHASE_DEADLOCKS | PHASE_REPORT) => "all",
        _ => "none",
    };
    Stopped {
        limit,
        amount,
        phase: stop.phase.map_or("setup", Phase::name).to_string(),
        races_checked,
        locations_not_listed: None,
    }
}

/// The distinct access lists of the check's warnings, numbered. Locations with one verdict
/// share one list (one allocation), so a list is compared by its address first and hashed by
/// its content once per allocation: comparing the lists themselves at every lookup cost a
/// blob's thousands of accesses for each of its thousands of aliases.
#[derive(Default)]
struct AccessLists<'w> {
    by_address: FxHashMap<*const solver::threads::check::RaceAccess, u32>,
    by_content: FxHashMap<&'w [solver::threads::check::RaceAccess], u32>,
}

impl<'w> AccessLists<'w> {
    /// The number of the list `accesses`: equal lists have equal numbers.
    fn id(&mut self, accesses: &'w solver::threads::check::Accesses) -> u32 {
        let address = accesses.as_ptr();
        if let Some(&id) = self.by_address.get(&address) {
            return id;
        }
        let next = self.by_content.len() as u32;
        let id = *self.by_content.entry(&accesses[..]).or_insert(next);
        self.by_address.insert(address, id);
        id
    }
}

/// A warning's racing accesses and its context.
type Lists = (Rc<[RaceAccess]>, Rc<[RaceAccess]>);

/// What makes two accesses one entry of a warning: position, write, atomic, locks, and the
/// library function making it.
type EntryKey<'w> = (Pos, bool, bool, Vec<String>, &'w Option<String>);

/// The naming context of one report.
struct Builder<'a> {
    r: &'a CheckResult,
    /// What files are named relative to ([`display_file`]).
    root: &'a Path,
    /// Each file's name as [`display_file`] makes it, once asked: a report names a file at
    /// every access and call-path step (hundreds of thousands for a large program), and each
    /// naming asks for the current directory and normalises the paths again.
    file_names: Vec<OnceCell<String>>,
    lock_names: BTreeMap<Lock, &'a RhoName>,
    paths: CallPaths<'a>,
    /// The signals the program sends itself.
    sent: c_frontend::signals::Sent,
    /// The calls of each function copied per start routine, once a thread asks
    /// ([`explain::starter_calls`]).
    starter_calls: OnceCell<FxHashMap<FuncId, Vec<Pos>>>,
    /// Each call-path step as [`Builder::step`] names it, once made: a deadlock's lock calls
    /// name the same calls again and again (an interpreter whose operations call back holding
    /// their module's lock: 173,286 lock calls with about 22 steps each).
    steps: RefCell<FxHashMap<Site, String>>,
}

impl Builder<'_> {
    fn p(&self) -> &Program {
        &self.r.program
    }

    fn short(&self, pos: Pos) -> String {
        format!("{}:{}", self.file(pos.file), pos.line)
    }

    /// The name of `file` in this report ([`display_file`]).
    fn file(&self, file: FileId) -> &str {
        self.file_names[file.index()].get_or_init(|| display_file(&self.p().files[file], self.root))
    }

    /// Where `pos` is, as this report names it ([`position`]).
    fn position(&self, pos: Pos) -> Position {
        Position {
            file: self.file(pos.file).to_string(),
            line: pos.line,
            column: pos.column,
        }
    }

    fn func_name(&self, f: FnId) -> &str {
        &self.p().funcs[self.r.generated.fn_func[f]].name
    }

    fn lock(&self, l: Lock) -> String {
        match self.lock_names.get(&l) {
            Some(name) => describe_name(self.p(), self.root, name),
            None => format!("a lock (ℓ{})", l.0),
        }
    }

    /// A step of a call path: the callee and where it is called.
    fn step(&self, pt: CallPoint) -> String {
        if let Some(name) = self.steps.borrow().get(&pt.site) {
            return name.clone();
        }
        let name = match self.r.generated.sites.get(&pt.site) {
            Some(info) => format!(
                "{} ({})",
                self.p().funcs[info.callee].name,
                self.short(info.pos)
            ),
            None => "?".into(),
        };
        self.steps.borrow_mut().insert(pt.site, name.clone());
        name
    }

    fn thread(&self, thread: ThreadOf) -> String {
        match thread {
            ThreadOf::Main => "the main thread".to_string(),
            ThreadOf::RunOf(home) => format!(
                "the thread running {} (the location is private to one run of it)",
                self.func_name(home)
            ),
            ThreadOf::Forked(site) => self.forked_thread(site),
        }
    }

    /// A thread started at a fork site; one of several when the site may start a thread while
    /// another it started still runs (a create in a loop).
    fn forked_thread(&self, site: Site) -> String {
        let several = self.several(site);
        let thread = match self.r.generated.sites.get(&site) {
            Some(i) if several => format!(
                "one of the threads running {} started in a loop at {}",
                self.p().funcs[i.callee].name,
                self.short(i.pos)
            ),
            Some(i) => format!(
                "the thread running {} started at {}",
                self.p().funcs[i.callee].name,
                self.short(i.pos)
            ),
            None => "a thread".into(),
        };
        let thread = match self.starter_call(site) {
            Some(by) => format!("{thread}, {by}"),
            None => thread,
        };
        match self.sent_from_outside(site) {
            Some(signal) => format!("{thread}, which runs only if {signal} is sent to the process"),
            None => thread,
        }
    }

    /// For a fork in a function copied per start routine, which calls of it start the thread:
    /// the copies share the function's name and the fork's position.
    fn starter_call(&self, site: Site) -> Option<String> {
        let caller = self.r.generated.sites.get(&site)?.caller;
        let calls = self
            .starter_calls
            .get_or_init(|| explain::starter_calls(self.r))
            .get(&caller)?;
        let first = calls.first()?;
        let name = &self.p().funcs[caller].name;
        Some(match calls.len() {
            1 => format!("by {name} called at {}", self.short(*first)),
            2 => format!(
                "by {name} called at {} (and one other call)",
                self.short(*first)
            ),
            n => format!(
                "by {name} called at {} (and {} other calls)",
                self.short(*first),
                n - 1
            ),
        })
    }

    /// Whether the fork site may start a thread while another it started still runs.
    fn several(&self, site: Site) -> bool {
        self.r.solution.mhp.site_self_overlap.get(&site) == Some(&true)
    }

    /// The signal whose handler `site` installs, when only another process sends it (the
    /// program never raises it, and the system raises it for nothing the program does).
    fn sent_from_outside(&self, site: Site) -> Option<String> {
        let n = (*self.r.generated.signal_handlers.get(&site)?)?;
        self.sent.only_from_outside(n).then(|| {
            c_frontend::signals::name(n).map_or_else(|| format!("signal {n}"), str::to_string)
        })
    }

    /// Whether a race needs a signal handler that runs only if another process sends its
    /// signal: the racing accesses not made by such handlers are all one thread's (which does
    /// not race with itself), or there are none. Such warnings come after the races between
    /// the program's own threads.
    fn needs_outside_signal(&self, w: &RaceWarning) -> bool {
        let mut outside = false;
        let mut own: Vec<ThreadOf> = Vec::new();
        for a in w.accesses.iter().filter(|a| a.racing) {
            match self.paths.thread_of(w.home, a.thread) {
                ThreadOf::Forked(site) if self.sent_from_outside(site).is_some() => outside = true,
                of if !own.contains(&of) => {
                    own.push(of);
                    // Two of the program's own threads race without any signal: the answer is
                    // known, and a warning of thousands of threads' accesses is not walked
                    // again for each thread.
                    if own.len() > 1 {
                        return false;
                    }
                }
                _ => {}
            }
        }
        outside
            && match own.as_slice() {
                [] => true,
                [ThreadOf::Forked(site)] => !self.several(*site),
                [_] => true,
                _ => false,
            }
    }

    /// The racing accesses of a warning and its context (the other accesses, without those at a
    /// position, kind and locks that already race).
    /// The racing and context entries of a warning, or the limit the run's budget reached
    /// while they were made (a warning of thousands of accesses, each with its call path, is
    /// where a report's memory goes).
    fn accesses(&self, w: &RaceWarning) -> Result<Lists, Limit> {
        let racing = self.entries(w.home, w.accesses.iter().filter(|a| a.racing))?;
        let mut context = self.entries(w.home, w.accesses.iter().filter(|a| !a.racing))?;
        let key = |a: &RaceAccess| {
            let p = &a.position;
            let (file, line, column) = (p.file.clone(), p.line, p.column);
            (
                file,
                line,
                column,
                a.write,
                a.atomic,
                a.locks.clone(),
                a.via.clone(),
            )
        };
        let races: FxHashSet<_> = racing.iter().map(key).collect();
        context.retain(|c| !races.contains(&key(c)));
        Ok((racing.into(), context.into()))
    }

    /// Accesses as warning entries, each once per position, kind and locks (accesses
    /// at one position with the same locks are one entry naming their threads); sorted by
    /// position (in file-table order), writes first, then by locks. An entry's path is that of
    /// its first thread; the others are named in `also_in`.
    fn entries<'w>(
        &self,
        home: FnId,
        accesses: impl Iterator<Item = &'w solver::threads::check::RaceAccess>,
    ) -> Result<Vec<RaceAccess>, Limit> {
        struct Seen<'w> {
            pos: Pos,
            write: bool,
            atomic: bool,
            locks: Vec<String>,
            via: &'w Option<String>,
            func: FuncId,
            thread: solver::threads::facts::Thread,
        }
        let mut all: Vec<Seen> = Vec::new();
        let mut seen = FxHashSet::default();
        for a in accesses {
            if let Some(limit) = solver::budget::reached() {
                return Err(limit);
            }
            let site = &self.r.generated.access_sites[a.access];
            if !seen.insert((site.pos, site.write, a.held.clone(), a.thread)) {
                continue;
            }
            let atomic = a.held.iter().any(|h| self.is_atomic(h.lock));
            all.push(Seen {
                pos: site.pos,
                write: site.write,
                atomic,
                locks: self.lock_list(&a.held),
                via: &site.via,
                func: site.func,
                thread: a.thread,
            });
        }
        // A stable sort: equal accesses keep the order of the facts, so the first thread named
        // is the same on every run.
        all.sort_by(|x, y| {
            (x.pos, !x.write, x.atomic, &x.locks).cmp(&(y.pos, !y.write, y.atomic, &y.locks))
        });
        let mut out: Vec<RaceAccess> = Vec::new();
        let mut last: Option<EntryKey> = None;
        // Thread names, made once per thread; the threads an entry names, by name (two
        // threads may have one name).
        let mut names: FxHashMap<ThreadOf, Rc<str>> = FxHashMap::default();
        let mut named: FxHashSet<Rc<str>> = FxHashSet::default();
        for a in all {
            if let Some(limit) = solver::budget::reached() {
                return Err(limit);
            }
            let of = self.paths.thread_of(home, a.thread);
            let thread = names
                .entry(of)
                .or_insert_with(|| self.thread(of).into())
                .clone();
            let key = (a.pos, a.write, a.atomic, a.locks, a.via);
            if last.as_ref() == Some(&key) {
                let entry = out.last_mut().expect("an entry per key");
                if named.insert(thread.clone()) {
                    if entry.also_in.len() < MAX_ALSO_IN {
                        entry.also_in.push(thread.to_string());
                    } else {
                        entry.also_in_omitted += 1;
                    }
                }
                continue;
            }
            let found = self.paths.access_path(home, a.func, a.thread);
            let mut path = vec![self.func_name(found.home).to_string()];
            path.extend(found.steps.iter().map(|&pt| self.step(pt)));
            named.clear();
            named.insert(thread.clone());
            out.push(RaceAccess {
                position: self.position(key.0),
                end_column: self.p().extents.get(&key.0).copied(),
                write: key.1,
                atomic: key.2,
                locks: key.3.clone(),
                path,
                thread: thread.to_string(),
                also_in: Vec::new(),
                also_in_omitted: 0,
                via: key.4.clone(),
            });
            last = Some(key);
        }
        Ok(out)
    }

    /// The potential deadlocks, sorted by their first lock call's position, then by locks.
    fn deadlocks(&self) -> Vec<Deadlock> {
        let mut out: Vec<(Option<Pos>, Deadlock)> = self
            .r
            .solution
            .deadlocks
            .iter()
            .map(|w| {
                let first = w
                    .acquisitions
                    .iter()
                    .map(|a| self.r.generated.acquire_sites[a.acq].pos)
                    .min();
                (first, self.deadlock(w))
            })
            .collect();
        out.sort_by(|a, b| (a.0, &a.1.locks).cmp(&(b.0, &b.1.locks)));
        out.into_iter().map(|(_, d)| d).collect()
    }

    fn deadlock(&self, w: &DeadlockWarning) -> Deadlock {
        let locks: Vec<String> = w.locks.iter().map(|&l| self.lock(l)).collect();
        let several: Vec<String> = w.several.iter().map(|&l| self.lock(l)).collect();
        let note = match several.as_slice() {
            [] => None,
            [one] => Some(format!(
                "{one} stands for several locks (an array of locks, or the locks of objects \
                 made in a loop or kept in a list): the cycle is between two of them"
            )),
            many => Some(format!(
                "{} each stand for several locks (an array of locks, or the locks of objects \
                 made in a loop or kept in a list)",
                many.join(", ")
            )),
        };
        let acquisitions = w
            .acquisitions
            .iter()
            .map(|a| {
                let mut out = self.acquisition(w.level, a);
                let held = solver::threads::deadlock::held_lock(&w.locks, a.lock, w.self_deadlock);
                let name = self.lock(held);
                out.held_at = a
                    .held_at
                    .iter()
                    .map(|&acq| HeldAt {
                        lock: name.clone(),
                        position: self.position(self.r.generated.acquire_sites[acq].pos),
                    })
                    .collect();
                out
            })
            .collect();
        Deadlock {
            code: DEADLOCK,
            kind: WarningKind::Deadlock,
            locks,
            self_deadlock: w.self_deadlock,
            note,
            acquisitions,
        }
    }

    /// The lock leaks, by position, then lock.
    fn lock_leaks(&self) -> Vec<LockLeak> {
        use solver::threads::leaks::{LeakAt, Taken};
        let mut out: Vec<LockLeak> = self
            .r
            .solution
            .lock_leaks
            .iter()
            .map(|leak| {
                let func = self.r.generated.fn_func[leak.func];
                let (leak_kind, at, other) = match leak.at {
                    LeakAt::Return { held, free } => (
                        LeakKind::Return,
                        self.block_pos(func, held, true),
                        self.block_pos(func, free, true),
                    ),
                    LeakAt::Loop { head, again, .. } => (
                        LeakKind::Loop,
                        self.taken_at(again).unwrap_or(self.p().funcs[func].pos),
                        self.block_pos(func, head, false),
                    ),
                };
                // The primary point of a leak in a loop is one of the takings: not repeated.
                let mut taken: Vec<Pos> = leak
                    .taken
                    .iter()
                    .filter_map(|&t| self.taken_at(t))
                    .filter(|&t| t != at)
                    .collect();
                taken.sort();
                taken.dedup();
                // A lock no object names at the function's level (a parameter's) is named as
                // the function's own lock call writes it.
                let written = leak.taken.iter().find_map(|t| match *t {
                    Taken::Acquire(acq) if !self.lock_names.contains_key(&leak.lock) => {
                        let site = &self.r.generated.acquire_sites[acq];
                        explain::lock_call_argument(self.p(), site.func, site.pos)
                    }
                    _ => None,
                });
                LockLeak {
                    code: LOCK_LEAK,
                    kind: WarningKind::LockLeak,
                    lock: written.unwrap_or_else(|| self.lock(leak.lock)),
                    function: self.func_name(leak.func).to_string(),
                    leak: leak_kind,
                    position: self.position(at),
                    other: self.position(other),
                    taken: taken.into_iter().map(|t| self.position(t)).collect(),
                }
            })
            .collect();
        out.sort_by(|a, b| {
            let key = |l: &LockLeak| (l.position.file.clone(), l.position.line, l.position.column);
            (key(a), &a.lock).cmp(&(key(b), &b.lock))
        });
        out
    }

    /// Where a function takes a leaked lock: its lock call, or its call of a lock wrapper.
    fn taken_at(&self, t: solver::threads::leaks::Taken) -> Option<Pos> {
        use solver::threads::leaks::Taken;
        match t {
            Taken::Acquire(acq) => Some(self.r.generated.acquire_sites[acq].pos),
            Taken::Call(site) => self.r.generated.sites.get(&site).map(|i| i.pos),
        }
    }

    /// Where block `b` of `func` starts (its first statement) or ends (its terminator, or its
    /// last statement when the terminator has no position of its own).
    fn block_pos(&self, func: FuncId, b: u32, end: bool) -> Pos {
        use c_frontend::ir::{BlockId, Term};
        let f = &self.p().funcs[func];
        let Some(block) = f.blocks.get(BlockId(b)) else {
            return f.pos;
        };
        let term = match &block.term {
            Term::Return(_, pos) | Term::Branch { pos, .. } => Some(*pos),
            _ => None,
        };
        let first = block.stmts.first().map(|s| s.pos);
        let last = block.stmts.last().map(|s| s.pos);
        let found = if end {
            term.or(last).or(first)
        } else {
            first.or(term)
        };
        found.unwrap_or(f.pos)
    }

    /// A lock call of a deadlock seen from `level`, with its thread and call path from there.
    fn acquisition(&self, level: FnId, a: &solver::threads::deadlock::Acquisition) -> Acquisition {
        let site = &self.r.generated.acquire_sites[a.acq];
        let thread = match a.thread {
            Thread::Forked(site) => self.forked_thread(site),
            Thread::Current if Some(level) == self.r.generated.threads.main => {
                self.thread(ThreadOf::Main)
            }
            Thread::Current => format!(
                "the thread running {} (the locks are those of one run of it)",
                self.func_name(level)
            ),
        };
        // The path along which the lock call holds its locks, not merely a shortest one.
        let mut path = vec![self.func_name(level).to_string()];
        path.extend(a.steps.iter().map(|&pt| self.step(pt)));
        let lock = match a.mode {
            Mode::Exclusive => self.lock(a.lock),
            Mode::Shared => format!("{} (for reading)", self.lock(a.lock)),
        };
        Acquisition {
            position: self.position(site.pos),
            lock,
            locks: self.lock_list(&a.held),
            path,
            thread,
            via: site.via.clone(),
            held_at: Vec::new(),
        }
    }

    fn is_atomic(&self, l: Lock) -> bool {
        explain::is_atomic_lock(self.r, &self.lock_names, l)
    }

    /// The names of the locks of a held set, sorted: a lock held for reading only says so. The
    /// lock of atomic accesses is not listed (the access says it is atomic).
    fn lock_list(&self, held: &[solver::threads::locksets::Held]) -> Vec<String> {
        let mut locks: Vec<String> = held
            .iter()
            .filter(|h| !self.is_atomic(h.lock))
            .filter(|h| {
                h.mode == Mode::Exclusive
                    || !held
                        .iter()
                        .any(|x| x.lock == h.lock && x.mode == Mode::Exclusive)
            })
            .map(|h| match h.mode {
                Mode::Exclusive => self.lock(h.lock),
                Mode::Shared => format!("{} (for reading)", self.lock(h.lock)),
            })
            .collect();
        locks.sort();
        locks
    }
}

pub(super) fn position(p: &Program, root: &Path, pos: Pos) -> Position {
    Position {
        file: display_file(&p.files[pos.file], root),
        line: pos.line,
        column: pos.column,
    }
}

/// A file as reports name it: a file of locksmith's own libc stubs (written to a private data
/// directory at run time) by its place in locksmith's sources, `libc-stubs/NAME`, never by the
/// temporary path; a file under `root` (`--source-root`, the current directory by default),
/// named by an absolute path (a build's database names every file so) or one relative to the
/// current directory, relative to `root`, as compilers name files; any other as given.
pub fn display_file(file: &str, root: &Path) -> String {
    let path = Path::new(file);
    if let Ok(dir) = c_frontend::syntax::embedded::data_dir().map(|d| d.join("stubs")) {
        if let Ok(rest) = path.strip_prefix(&dir) {
            return format!("libc-stubs/{}", rest.display());
        }
    }
    let root = normalized(root);
    let absolute = match std::env::current_dir() {
        // Relative to the current directory, which is the root: as given (`./x.c` stays).
        Ok(cwd) if path.is_relative() && cwd == root => return file.to_string(),
        Ok(cwd) if path.is_relative() => normalized(&cwd.join(path)),
        _ => normalized(path),
    };
    match absolute.strip_prefix(&root) {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.display().to_string(),
        _ => file.to_string(),
    }
}

/// The file a report's name `name` stands for ([`display_file`]): relative to `root` when it
/// is there, else as given (relative to the current directory).
pub fn resolve_file(name: &str, root: &Path) -> PathBuf {
    let path = Path::new(name);
    let under_root = root.join(path);
    if path.is_relative() && under_root.exists() {
        under_root
    } else {
        path.to_path_buf()
    }
}

/// `path` with its `.` and `..` components resolved by name (no file system lookup).
fn normalized(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A name for a location: a variable, a field path, or an allocation site. A field path inside
/// heap or external memory reads "field `in.a` of memory allocated by …"; inside a variable,
/// `v.in.a`.
fn describe_name(p: &Program, base: &Path, name: &RhoName) -> String {
    let mut path = Vec::new();
    let mut root = name;
    while let RhoName::Field { parent, field } = root {
        path.push(field.as_str());
        root = parent;
    }
    path.reverse();
    let base = match root {
        RhoName::Var(v) => {
            let var = p.vars[*v].name.clone();
            // Members under a pointer variable (the object a turn's pointer holds) are
            // reached through it.
            if !path.is_empty()
                && matches!(
                    p.types.get(p.vars[*v].ty),
                    c_frontend::ir::ctypes::Type::Pointer(_)
                )
            {
                return format!("{var}->{}", path.join("."));
            }
            return std::iter::once(var.as_str())
                .chain(path.iter().copied())
                .collect::<Vec<_>>()
                .join(".");
        }
        RhoName::Alloc { pos, func, by } => format!(
            "memory allocated by {by} at {}:{} in {}",
            display_file(&p.files[pos.file], base),
            pos.line,
            p.funcs[*func].name
        ),
        RhoName::External => "external memory (of code locksmith cannot see)".into(),
        RhoName::UnknownState => "state of code locksmith cannot see".into(),
        RhoName::Conflated => {
            "a lock in conflated memory (objects locksmith cannot tell apart)".into()
        }
        RhoName::SignalMask(n) => match c_frontend::signals::name(*n) {
            Some(signal) => format!("the mask of {signal}"),
            None => format!("the mask of signal {n}"),
        },
        // The opened lock of a package: the lock of the object the access lies in.
        RhoName::OwnLock { strukt } => {
            return format!("the own `{}` of each `struct {strukt}`", path.join("."))
        }
        RhoName::ThreadArgument => return "its thread's own argument object".into(),
        RhoName::OwnedObject => {
            return "its thread's ownership of the object (allocated, or taken off a locked list)"
                .into()
        }
        RhoName::ThreadSlot => {
            return "its thread's own elements, indexed by the value it was started with".into()
        }
        RhoName::Turn(var) => return format!("the turn of `{}`", describe_name(p, base, var)),
        RhoName::ClaimedSlot => {
            return "the element its thread claimed, indexed by a value taken from a shared counter"
                .into()
        }
        RhoName::ThreadRange => {
            return "its thread's own range of elements, chosen by the value it was started with"
                .into()
        }
        RhoName::StripeLock { array, fields } => {
            let mut name = p.vars[*array].name.clone();
            for f in fields {
                name.push('.');
                name.push_str(f);
            }
            return format!("the element of `{name}` at the same index");
        }
        RhoName::LockElement(element) => {
            let mut name = p.vars[element.array].name.clone();
            for f in &element.fields {
                name.push('.');
                name.push_str(f);
            }
            return format!("{name}[{}]", element.index);
        }
        // The loop above walked every field to its root.
        RhoName::Other | RhoName::Field { .. } => "a location".into(),
    };
    if path.is_empty() {
        base
    } else {
        format!("field `{}` of {base}", path.join("."))
    }
}

/// The race warnings: one per verdict, under the first name of its locations, with the parts
/// of one library state together.
/// The races of the check, as warnings, and, when the run's budget ran out while they were
/// listed (the report is built within what is left of it), the limit reached and how many
/// racy locations were left out: a report of many thousand accesses stays near the limit.
fn races(b: &Builder) -> (Vec<Race>, Option<(Limit, usize)>) {
    let r = b.r;
    let p = &r.program;
    // Locations with one verdict (labels of one flow component checked in one place) share
    // their lists of accesses.
    let mut built: FxHashMap<(FnId, u32), Lists> = FxHashMap::default();
    let mut lists = AccessLists::default();
    // The note depends on the access list only, which locations of one verdict share.
    let mut notes: FxHashMap<*const solver::threads::check::RaceAccess, Option<String>> =
        FxHashMap::default();
    let mut takers = FieldLockTakers::new();
    // Warnings are sorted by where their location is declared (in file-table order), then by name.
    type Named<'w> = (
        Option<Pos>,
        String,
        Option<String>,
        Option<&'w str>,
        &'w RaceWarning,
        u32,
    );
    let stateful = stateful_stubs(p);
    let mut warnings: Vec<Named> = r
        .solution
        .warnings
        .iter()
        .zip(0..)
        .map(|(w, i)| {
            let name = &r.generated.rho_names[w.rho];
            match library_state(r, b.root, name, w, &stateful) {
                Some((state, note, family)) => (None, state, Some(note), Some(family), w, i),
                None => (
                    name_pos(p, name),
                    describe_name(p, b.root, name),
                    notes
                        .entry(w.accesses.as_ptr())
                        .or_insert_with(|| own_lock_note(r, b.root, w, &mut takers))
                        .clone(),
                    None,
                    w,
                    i,
                ),
            }
        })
        .collect();
    // A location of one run of a function (a local, a parameter) names a warning only when no
    // other of its names will: the shared memory is elsewhere.
    let local = |w: &RaceWarning| is_local(p, &r.generated.rho_names[w.rho]);
    warnings.sort_by(|a, b| (local(a.4), a.0, &a.1).cmp(&(local(b.4), b.0, &b.1)));
    // Locations with the same verdict are one warning, under the first name and with its note
    // (a library's state first, as it sorts first: the same accesses under a variable's name
    // are the same race). So are the parts of one library's state (`hostent_result` and the
    // strings it points to): one warning naming the library's functions, with the accesses of
    // every part.
    let mut races: Vec<Race> = Vec::new();
    let mut first_of: FxHashMap<(FnId, u32), usize> = FxHashMap::default();
    let mut first_of_family: FxHashMap<(FnId, &str), usize> = FxHashMap::default();
    let mut more_lists: BTreeMap<usize, Vec<Lists>> = BTreeMap::new();
    let mut objects: Vec<Option<ObjectPart>> = Vec::new();
    let mut declared: Vec<Option<Pos>> = Vec::new();
    // Whether each warning needs a handler only another process starts (per access list).
    let mut outside: Vec<bool> = Vec::new();
    let mut outside_of: FxHashMap<*const solver::threads::check::RaceAccess, bool> =
        FxHashMap::default();
    let total = warnings.len();
    let mut unlisted = None;
    for (listed, (pos, name, note, family, w, i)) in warnings.into_iter().enumerate() {
        if let Some(limit) = solver::budget::reached() {
            unlisted = Some((limit, total - listed));
            break;
        }
        let location = RaceLocation {
            name,
            declared: pos.map(|pos| FileLine {
                file: b.file(pos.file).to_string(),
                line: pos.line,
            }),
        };
        let list = lists.id(&w.accesses);
        let key = (w.home, list);
        if let Some(&k) = first_of.get(&key) {
            races[k].aliases.push(location);
            races[k].sources.push(i);
            continue;
        }
        let made = lists_of(&mut built, b, w, list);
        let made = match made {
            Ok(made) => made,
            Err(limit) => {
                unlisted = Some((limit, total - listed));
                break;
            }
        };
        if let Some(&k) = family.and_then(|f| first_of_family.get(&(w.home, f))) {
            races[k].aliases.push(location);
            races[k].sources.push(i);
            more_lists.entry(k).or_default().push(made);
            first_of.insert(key, k);
            continue;
        }
        if let Some(f) = family {
            first_of_family.insert((w.home, f), races.len());
        }
        first_of.insert(key, races.len());
        let (accesses, context) = made;
        objects.push(object_part(&r.generated.rho_names[w.rho], w.home));
        declared.push(pos);
        outside.push(
            *outside_of
                .entry(w.accesses.as_ptr())
                .or_insert_with(|| b.needs_outside_signal(w)),
        );
        races.push(Race {
            code: DATA_RACE,
            kind: WarningKind::Race,
            location,
            aliases: Vec::new(),
            aliases_omitted: 0,
            note,
            accesses,
            context,
            consequences: None,
            unfollowed: None,
            sources: vec![i],
        });
    }
    for (k, parts) in more_lists {
        let race = &mut races[k];
        (race.accesses, race.context) = merged_lists(&race.accesses, &race.context, &parts);
    }
    (
        sorted_races(b, races, &objects, &declared, &outside),
        unlisted,
    )
}

/// The races sorted by where their first names are declared, then by name, those that need a
/// signal only another process sends last; without the repeats of whole objects, and with at
/// most [`MAX_ALIASES`] other names each.
fn sorted_races(
    b: &Builder,
    races: Vec<Race>,
    objects: &[Option<ObjectPart>],
    declared: &[Option<Pos>],
    outside: &[bool],
) -> Vec<Race> {
    let mut order: Vec<usize> = (0..races.len()).collect();
    order.sort_by(|&i, &j| {
        (outside[i], declared[i], &races[i].location.name).cmp(&(
            outside[j],
            declared[j],
            &races[j].location.name,
        ))
    });
    let mut slots: Vec<Option<Race>> = races.into_iter().map(Some).collect();
    let races: Vec<Race> = order.iter().filter_map(|&i| slots[i].take()).collect();
    let objects: Vec<Option<ObjectPart>> = order.iter().map(|&i| objects[i]).collect();
    let allocated_at: Vec<Option<(String, u32)>> = objects
        .iter()
        .map(|o| match o.map(|o| o.object) {
            Some(Object::Alloc(pos, _)) => Some((b.file(pos.file).to_string(), pos.line)),
            _ => None,
        })
        .collect();
    let mut races = without_whole_object_repeats(races, &objects, &allocated_at);
    for race in &mut races {
        race.aliases_omitted = race.aliases.len().saturating_sub(MAX_ALIASES);
        race.aliases.truncate(MAX_ALIASES);
    }
    races
}

/// The entries of a warning's access list (`list`, its number), made once per list and
/// function: warnings with one verdict share them.
fn lists_of(
    built: &mut FxHashMap<(FnId, u32), Lists>,
    b: &Builder,
    w: &RaceWarning,
    list: u32,
) -> Result<Lists, Limit> {
    if let Some(made) = built.get(&(w.home, list)) {
        return Ok(made.clone());
    }
    let made = b.accesses(w)?;
    built.insert((w.home, list), made.clone());
    Ok(made)
}

/// How many other names a warning lists: with its own, ten. More are the names of memory the
/// analysis cannot tell apart (one blob), which a reader cannot act on one by one; the warning
/// says how many it leaves out.
const MAX_ALIASES: usize = 9;

/// How many other threads an access names besides its own: hundreds of entry points of a
/// library make one access each, and naming every one of them at every access made one warning
/// 42 MB of JSON; the access says how many it leaves out.
const MAX_ALSO_IN: usize = 9;

/// Whether a location is a variable of one run of a function (a local, a parameter, a
/// temporary) or a field of one.
fn is_local(p: &Program, name: &RhoName) -> bool {
    let mut root = name;
    while let RhoName::Field { parent, .. } = root {
        root = parent;
    }
    matches!(root, RhoName::Var(v) if matches!(
        p.vars[*v].kind,
        c_frontend::ir::VarKind::Local(_)
            | c_frontend::ir::VarKind::Param(..)
            | c_frontend::ir::VarKind::Temp(_)
    ))
}

/// An object of the program: a variable, or an allocation site (its position and function).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Object {
    Var(VarId),
    Alloc(Pos, FuncId),
}

/// The object a warning's location is in, in the function it is checked at, and whether the
/// location is one of its fields.
#[derive(Copy, Clone)]
struct ObjectPart {
    object: Object,
    home: FnId,
    field: bool,
}

fn object_part(name: &RhoName, home: FnId) -> Option<ObjectPart> {
    let mut root = name;
    while let RhoName::Field { parent, .. } = root {
        root = parent;
    }
    let object = match root {
        RhoName::Var(v) => Object::Var(*v),
        RhoName::Alloc { pos, func, .. } => Object::Alloc(*pos, *func),
        _ => return None,
    };
    Some(ObjectPart {
        object,
        home,
        field: !std::ptr::eq(root, name),
    })
}

/// `races` without the warnings that only repeat another:
/// - a whole object's, when every racing access of it (a whole-object copy, `memcpy(&copy,
///   obj, sizeof *obj)` racing with another) is a racing access of a warning on one of its
///   fields: the object is named among the aliases of the first of those instead;
/// - a field's, when its racing accesses are exactly those of an earlier field of the same
///   object (the statements race on the whole object: `last = now` in two threads writes every
///   field): one race, named after the first field with the others among its aliases and
///   their accesses that are not racing added to its context; and named after the object, the
///   fields among its aliases, when every field's race is that one and the object's own
///   accesses repeat it;
/// - a pointee's: an allocated object (`strdup`'s string) stored, where it is allocated, into
///   a location that races (`e->host = strdup(h)`), every racing access of which is on a line
///   where that pointer races too (`free(e->host)`, `strcmp(e->host, …)`): it is named among
///   the pointer's aliases, since the pointer's race is the one to fix.
///
/// `objects` says, per warning, what object its location is in, and `allocated_at` where an
/// allocated one is allocated (file and line as reported).
fn without_whole_object_repeats(
    races: Vec<Race>,
    objects: &[Option<ObjectPart>],
    allocated_at: &[Option<(String, u32)>],
) -> Vec<Race> {
    let mut fields_of: FxHashMap<_, Vec<usize>> = FxHashMap::default();
    for (j, part) in objects.iter().enumerate() {
        if let Some(p) = part.as_ref().filter(|p| p.field) {
            fields_of.entry((p.object, p.home)).or_default().push(j);
        }
    }
    let mut repeats: BTreeMap<usize, usize> = BTreeMap::new();
    for (k, part) in objects.iter().enumerate() {
        let Some(whole) = part.as_ref().filter(|p| !p.field) else {
            continue;
        };
        let Some(fields) = fields_of.get(&(whole.object, whole.home)) else {
            continue;
        };
        let first = fields[0];
        let listed: FxHashSet<AccessKey> = fields
            .iter()
            .flat_map(|&j| races[j].accesses.iter().map(access_key))
            .collect();
        if races[k]
            .accesses
            .iter()
            .all(|a| listed.contains(&access_key(a)))
        {
            repeats.insert(k, first);
        }
    }
    let (siblings, named_by_whole) = same_statement_fields(&races, objects, &fields_of, &repeats);
    repeats.extend(siblings.iter().map(|(&j, &first)| (j, first)));
    // The lines each warning races on, and those it writes on, found once.
    let lines: Vec<FxHashSet<(&str, u32)>> = races
        .iter()
        .map(|r| {
            r.accesses
                .iter()
                .map(|a| (a.position.file.as_str(), a.position.line))
                .collect()
        })
        .collect();
    let written: Vec<FxHashSet<(&str, u32)>> = races
        .iter()
        .map(|r| {
            r.accesses
                .iter()
                .chain(r.context.iter())
                .filter(|a| a.write)
                .map(|a| (a.position.file.as_str(), a.position.line))
                .collect()
        })
        .collect();
    let mut pointees: BTreeMap<usize, usize> = BTreeMap::new();
    for (k, part) in objects.iter().enumerate() {
        let (Some(part), Some(at)) = (part, &allocated_at[k]) else {
            continue;
        };
        if part.field || repeats.contains_key(&k) {
            continue;
        }
        let at = (at.0.as_str(), at.1);
        let pointer = (0..races.len()).find(|&j| {
            j != k
                && !repeats.contains_key(&j)
                && !pointees.contains_key(&j)
                && written[j].contains(&at)
                && lines[k].is_subset(&lines[j])
        });
        if let Some(j) = pointer {
            pointees.insert(k, j);
        }
    }
    drop((lines, written));
    repeats.extend(pointees);
    let mut moved: BTreeMap<usize, Vec<RaceLocation>> = BTreeMap::new();
    let mut moved_sources: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    let mut moved_context: BTreeMap<usize, Vec<RaceAccess>> = BTreeMap::new();
    let mut renamed: BTreeMap<usize, RaceLocation> = BTreeMap::new();
    let mut kept = Vec::with_capacity(races.len());
    for (k, race) in races.into_iter().enumerate() {
        match repeats.get(&k) {
            Some(&to) => {
                // A pointer may itself repeat another warning: its pointee goes where it goes.
                let mut to = to;
                while let Some(&next) = repeats.get(&to) {
                    to = next;
                }
                let names = moved.entry(to).or_default();
                if named_by_whole.get(&to) == Some(&k) {
                    renamed.insert(to, race.location);
                } else {
                    names.push(race.location);
                }
                names.extend(race.aliases);
                moved_sources.entry(to).or_default().extend(race.sources);
                if siblings.contains_key(&k) {
                    moved_context
                        .entry(to)
                        .or_default()
                        .extend(race.context.iter().cloned());
                }
            }
            None => kept.push((k, race)),
        }
    }
    kept.into_iter()
        .map(|(k, mut race)| {
            if let Some(whole) = renamed.remove(&k) {
                let field = std::mem::replace(&mut race.location, whole);
                race.aliases.insert(0, field);
            }
            race.aliases.extend(moved.remove(&k).unwrap_or_default());
            race.sources
                .extend(moved_sources.remove(&k).unwrap_or_default());
            if let Some(more) = moved_context.remove(&k).filter(|more| !more.is_empty()) {
                let mut context: Vec<RaceAccess> = race.context.iter().cloned().collect();
                context.extend(more);
                context.sort_by(|a, b| access_key(a).cmp(&access_key(b)));
                context.dedup_by(|a, b| access_key(a) == access_key(b));
                race.context = context.into();
            }
            race
        })
        .collect()
}

/// The fields racing through the same statements ([`without_whole_object_repeats`]): each
/// field whose racing accesses are those of an earlier field of its object, with that field;
/// and each first field whose object's every field races that way, with the object's own
/// warning, which `repeats` already sends to it (the race is then the object's).
fn same_statement_fields(
    races: &[Race],
    objects: &[Option<ObjectPart>],
    fields_of: &FxHashMap<(Object, FnId), Vec<usize>>,
    repeats: &BTreeMap<usize, usize>,
) -> (BTreeMap<usize, usize>, BTreeMap<usize, usize>) {
    let mut siblings: BTreeMap<usize, usize> = BTreeMap::new();
    for fields in fields_of.values() {
        let mut first_with: FxHashMap<Vec<AccessKey>, usize> = FxHashMap::default();
        for &j in fields {
            let key: Vec<AccessKey> = races[j].accesses.iter().map(access_key).collect();
            match first_with.get(&key) {
                Some(&first) => {
                    siblings.insert(j, first);
                }
                None => {
                    first_with.insert(key, j);
                }
            }
        }
    }
    let mut named_by_whole: BTreeMap<usize, usize> = BTreeMap::new();
    for (k, part) in objects.iter().enumerate() {
        let Some(whole) = part.as_ref().filter(|p| !p.field) else {
            continue;
        };
        let (Some(&first), Some(fields)) =
            (repeats.get(&k), fields_of.get(&(whole.object, whole.home)))
        else {
            continue;
        };
        let all_one = fields
            .iter()
            .all(|&j| j == first || siblings.get(&j) == Some(&first));
        if all_one && fields.len() > 1 {
            named_by_whole.insert(first, k);
        }
    }
    (siblings, named_by_whole)
}

/// What tells one entry of a warning's accesses from another, in their order: position,
/// writes first, atomic, then locks, path, thread and library function.
type AccessKey<'a> = (
    (&'a str, u32, u32, bool, bool),
    (&'a [String], &'a [String], &'a str, Option<&'a str>),
);

fn access_key(a: &RaceAccess) -> AccessKey<'_> {
    let p = &a.position;
    (
        (&p.file, p.line, p.column, !a.write, a.atomic),
        (&a.locks, &a.path, &a.thread, a.via.as_deref()),
    )
}

/// The libc stubs that keep state of their own: those whose body names a variable of the stubs
/// (a `static`), directly or through another stub they call.
fn stateful_stubs(p: &Program) -> FxHashSet<&str> {
    use c_frontend::ir::visit::{walk_func, Visitor};
    use c_frontend::ir::{Callee, StmtKind};
    struct Names<'p> {
        p: &'p Program,
        found: bool,
    }
    impl Visitor for Names<'_> {
        fn visit_var(&mut self, v: VarId) {
            let var = &self.p.vars[v];
            self.found |= var.origin == Origin::Stub
                && matches!(var.kind, c_frontend::ir::VarKind::Global { .. });
        }
    }
    let stubs: Vec<FuncId> = p
        .funcs
        .indices()
        .filter(|&f| p.funcs[f].origin == Origin::Stub && !p.funcs[f].blocks.is_empty())
        .collect();
    let mut keeps: FxHashSet<FuncId> = stubs
        .iter()
        .copied()
        .filter(|&f| {
            let mut names = Names { p, found: false };
            walk_func(&mut names, &p.funcs[f]);
            names.found
        })
        .collect();
    loop {
        let before = keeps.len();
        for &f in &stubs {
            let calls_keeper = p.funcs[f].blocks.iter().flat_map(|b| &b.stmts).any(|s| {
                matches!(&s.kind, StmtKind::Call { callee: Callee::Direct(g), .. }
                    if keeps.contains(g))
            });
            if calls_keeper {
                keeps.insert(f);
            }
        }
        if keeps.len() == before {
            break;
        }
    }
    keeps
        .into_iter()
        .map(|f| p.funcs[f].name.as_str())
        .collect()
}

/// The racing accesses and context of a warning with those of more parts of its location: an
/// access racing in one part races, the others are context; each once, by position, writes
/// first.
fn merged_lists(accesses: &[RaceAccess], context: &[RaceAccess], parts: &[Lists]) -> Lists {
    let key = access_key;
    let mut racing: Vec<RaceAccess> = accesses.to_vec();
    let mut other: Vec<RaceAccess> = context.to_vec();
    for (more_racing, more_context) in parts {
        racing.extend(more_racing.iter().cloned());
        other.extend(more_context.iter().cloned());
    }
    racing.sort_by(|a, b| key(a).cmp(&key(b)));
    racing.dedup_by(|a, b| key(a) == key(b));
    other.sort_by(|a, b| key(a).cmp(&key(b)));
    other.dedup_by(|a, b| key(a) == key(b));
    other.retain(|a| racing.binary_search_by(|x| key(x).cmp(&key(a))).is_err());
    (racing.into(), other.into())
}

/// For a location inside a variable of locksmith's libc stubs — state a library function keeps
/// for itself (`strtok`'s position, `localtime`'s result, the environment) — its name after the
/// library functions whose calls race on it, a note saying so, and the library state it is part
/// of: the stubs name the variables of one state with one prefix up to the first `_`
/// (`hostent_result`, `hostent_name`).
fn library_state<'r>(
    r: &'r CheckResult,
    base: &Path,
    name: &RhoName,
    w: &RaceWarning,
    stateful: &FxHashSet<&str>,
) -> Option<(String, String, &'r str)> {
    let mut root = name;
    while let RhoName::Field { parent, .. } = root {
        root = parent;
    }
    let RhoName::Var(v) = root else { return None };
    let var = &r.program.vars[*v];
    if var.origin != Origin::Stub {
        return None;
    }
    let family = var
        .name
        .split('_')
        .next()
        .filter(|f| !f.is_empty())
        .unwrap_or(&var.name);
    // The functions whose calls race on it: those that keep state among the stubs making its
    // accesses (the other stubs, `memcpy` or `strlen`, only touch what they are handed, which
    // the analysis merged with the state).
    let all: BTreeSet<&str> = w
        .accesses
        .iter()
        .filter_map(|a| r.generated.access_sites[a.access].via.as_deref())
        .collect();
    let keeping: Vec<&str> = all
        .iter()
        .copied()
        .filter(|f| stateful.contains(f))
        .collect();
    let quoted = |names: &[&str]| -> String {
        names
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let keeps = |n: usize| if n == 1 { "keeps" } else { "keep" };
    let state = describe_name(&r.program, base, name);
    if !keeping.is_empty() {
        let list = quoted(&keeping);
        return Some((
            format!("internal state of {list} ({state})"),
            format!(
                "{list} {} internal state; called here from two threads without a common lock",
                keeps(keeping.len())
            ),
            family,
        ));
    }
    // No call that keeps the state makes these accesses: the calls that do (`memcpy` or
    // `strlen` on what the state's owner returned) only touch memory the analysis merged with
    // it. The state is named after the stubs that keep it, never after them.
    let owners = state_owners(&r.program, *v);
    let touching: Vec<&str> = all.iter().copied().collect();
    const SHOWN: usize = 4;
    let mut through = quoted(&touching[..touching.len().min(SHOWN)]);
    if touching.len() > SHOWN {
        through.push_str(&format!(" and {} more", touching.len() - SHOWN));
    }
    let (named, note) = if owners.is_empty() {
        (
            format!("internal state of the C library ({state})"),
            format!(
                "state the C library keeps for itself, reached here by {through} on memory \
                 the analysis cannot tell apart from it, from two threads without a common lock"
            ),
        )
    } else {
        let list = quoted(&owners);
        (
            format!("internal state of {list} ({state})"),
            format!(
                "{list} {} internal state; {through} reach it here on memory the analysis \
                 cannot tell apart from it, from two threads without a common lock",
                keeps(owners.len())
            ),
        )
    };
    Some((named, note, family))
}

/// The libc stubs whose own body names the stub variable `v`, by name: the functions that keep
/// that state.
fn state_owners(p: &Program, v: VarId) -> Vec<&str> {
    use c_frontend::ir::visit::{walk_func, Mentions};
    let mut owners: Vec<&str> = p
        .funcs
        .iter()
        .filter(|f| f.origin == Origin::Stub && !f.blocks.is_empty())
        .filter(|f| {
            let mut m = Mentions::of(v);
            walk_func(&mut m, f);
            m.count > 0
        })
        .map(|f| f.name.as_str())
        .collect();
    owners.sort_unstable();
    owners.dedup();
    owners
}

/// The functions that take each struct's lock field, found as they are asked for.
struct FieldLockTakers<'p> {
    finder: Option<explain::FieldLockTakers<'p>>,
    found: FxHashMap<(c_frontend::ir::ctypes::StructId, u32), rustc_hash::FxHashSet<FuncId>>,
}

impl<'p> FieldLockTakers<'p> {
    fn new() -> FieldLockTakers<'p> {
        FieldLockTakers {
            finder: None,
            found: FxHashMap::default(),
        }
    }

    fn take(
        &mut self,
        p: &'p Program,
        strukt: c_frontend::ir::ctypes::StructId,
        lock: u32,
        func: FuncId,
    ) -> bool {
        let finder = &mut self.finder;
        self.found
            .entry((strukt, lock))
            .or_insert_with(|| {
                finder
                    .get_or_insert_with(|| explain::FieldLockTakers::new(p))
                    .of(strukt, lock)
            })
            .contains(&func)
    }
}

/// Why the lock kept beside a racing field did not protect it: the first
/// racing access of a field of a struct that has a lock field, made outside every unpack in a
/// function that takes such a lock (itself or through a lock wrapper; where none is taken, the
/// access is simply unprotected, and the note would only distract), and what locksmith needs to
/// see to count that lock as the object's own.
fn own_lock_note<'r>(
    r: &'r CheckResult,
    root: &Path,
    w: &RaceWarning,
    takers: &mut FieldLockTakers<'r>,
) -> Option<String> {
    let p = &r.program;
    let (site, (strukt, lock)) = w
        .accesses
        .iter()
        .filter(|a| a.racing)
        .map(|a| &r.generated.access_sites[a.access])
        .filter_map(|s| s.beside_lock.map(|b| (s, b)))
        .filter(|(s, (strukt, lock))| takers.take(p, *strukt, *lock, s.func))
        .min_by_key(|(s, _)| (s.pos, !s.write))?;
    let def = &p.types.structs[strukt];
    let tag = def.tag.as_deref().unwrap_or("(anonymous)");
    let lock = def
        .fields
        .get(lock as usize)
        .map(|f| f.name.as_str())
        .unwrap_or("?");
    let at = position(p, root, site.pos);
    Some(format!(
        concat!(
            "`struct {tag}` keeps a lock, `{lock}`, beside this field, but the {} {}:{}:{} ",
            "is not made while its own object's `{lock}` is certainly held; an object's lock ",
            "protects the accesses through the pointer it was locked through (`p` in ",
            "`lock(&p->{lock})`, a local not assigned before the unlock), also in functions ",
            "called with `p` and through lock wrappers"
        ),
        if site.write { "write at" } else { "read at" },
        at.file,
        at.line,
        at.column,
        tag = tag,
        lock = lock,
    ))
}

/// Where the object a location is named after is declared or allocated.
fn name_pos(p: &Program, name: &RhoName) -> Option<Pos> {
    match name {
        RhoName::Var(v) => Some(p.vars[*v].pos),
        RhoName::Alloc { pos, .. } => Some(*pos),
        RhoName::Field { parent, .. } => name_pos(p, parent),
        RhoName::Turn(var) => name_pos(p, var),
        RhoName::External
        | RhoName::UnknownState
        | RhoName::Conflated
        | RhoName::SignalMask(_)
        | RhoName::OwnLock { .. }
        | RhoName::StripeLock { .. }
        | RhoName::LockElement(_)
        | RhoName::ThreadArgument
        | RhoName::OwnedObject
        | RhoName::ThreadSlot
        | RhoName::ClaimedSlot
        | RhoName::ThreadRange
        | RhoName::Other => None,
    }
}

/// What an unsound place does not model, in words.
/// What is wrong with an annotation, in words.
fn annotation_message(kind: &AnnotationKind) -> String {
    match kind {
        AnnotationKind::UnknownField { strukt, field } => format!(
            "LOCKSMITH_EXISTENTIAL({strukt}, {field}): no `struct {strukt}` with a field `{field}`"
        ),
        AnnotationKind::NotDeclared { strukt: Some(s) } => format!(
            "pack or unpack of a `struct {s}`, which is not declared with LOCKSMITH_EXISTENTIAL"
        ),
        AnnotationKind::NotDeclared { strukt: None } => {
            "pack or unpack of something that is not a pointer to a struct".into()
        }
        AnnotationKind::EndWithoutStart { var } => {
            format!("LOCKSMITH_END_UNPACK({var}) where no unpack of `{var}` is certainly open")
        }
        AnnotationKind::AssignedInUnpack { var } => {
            format!("`{var}` is assigned while its unpack is open: it would name another object")
        }
        AnnotationKind::OutsideUnpack { strukt, field } => format!(
            "field `{field}` of existential `struct {strukt}` is accessed where other threads \
             may see it, outside every unpack (written, or its object's lock held through the \
             same pointer)"
        ),
        AnnotationKind::Escape { strukt, field } => format!(
            "the address of field `{field}` of existential `struct {strukt}` is taken: its data \
             escapes the package"
        ),
        AnnotationKind::PackAfterPublish => {
            "pack of an object other threads may already reach: pack it before publishing it".into()
        }
    }
}

fn unsound_message(p: &Program, kind: UnsoundKind) -> String {
    match kind {
        UnsoundKind::InlineAsm => "inline assembly: its effects are not modelled".into(),
        UnsoundKind::VaArgParameter => {
            "va_arg on a va_list parameter: the values it yields are not tracked".into()
        }
        UnsoundKind::PointerToInteger => "a pointer converted to an integer is not tracked".into(),
        UnsoundKind::LongJmp(f) => format!(
            "{}: execution resuming at its setjmp is not followed (the code after the setjmp is \
             analysed only as reached normally)",
            p.funcs[f].name
        ),
        UnsoundKind::CyclesNotSearched { func, from_locks } => format!(
            "{}: its lock order has more cycles than the deadlock check walks; cycles of \
             {from_locks} locks or more were not all searched, so a deadlock among them may not \
             be reported",
            p.funcs[func].name
        ),
    }
}

/// The places where the analysis is knowingly unsound, in program order: the front end's, and
/// the functions whose lock-order cycles the deadlock check did not all search.
fn unsound_places(r: &CheckResult) -> Vec<c_frontend::diagnostics::Unsound> {
    let mut out = r.generated.unsound.clone();
    if r.solution.cycles_cut.is_empty() {
        return out;
    }
    for cut in &r.solution.cycles_cut {
        let func = r.generated.fn_func[cut.level];
        out.push(c_frontend::diagnostics::Unsound {
            pos: r.program.funcs[func].pos,
            kind: UnsoundKind::CyclesNotSearched {
                func,
                from_locks: cut.from_locks,
            },
        });
    }
    out.sort();
    out.dedup();
    out
}

/// The recognised lock functions ([`c_frontend::rwlocks`]), in program order.
fn handmade_locks(p: &Program, root: &Path) -> Vec<HandmadeLock> {
    let mut out: Vec<(Pos, HandmadeLock)> = p
        .rwlocks
        .functions
        .iter()
        .map(|&(f, role)| {
            let pos = p.funcs[f].pos;
            let lock = HandmadeLock {
                function: p.funcs[f].name.clone(),
                role: role.describe().into(),
                file: display_file(&p.files[pos.file], root),
                line: pos.line,
            };
            (pos, lock)
        })
        .collect();
    out.sort_by(|a, b| (a.0, &a.1.function).cmp(&(b.0, &b.1.function)));
    out.into_iter().map(|(_, l)| l).collect()
}

/// The variables that decided branches ([`c_frontend::fold`]), by where they are declared.
fn constants(p: &Program, root: &Path) -> Vec<ConfigurationConstant> {
    use c_frontend::ir::VarKind;
    let mut out: Vec<(Pos, ConfigurationConstant)> = p
        .folded
        .constants
        .iter()
        .map(|c| {
            let var = &p.vars[c.var];
            let name = match var.kind {
                VarKind::Local(f) | VarKind::Param(f, _) | VarKind::Temp(f) => {
                    format!("{}: {}", p.funcs[f].name, var.name)
                }
                VarKind::Global { .. } | VarKind::StringLit => var.name.clone(),
            };
            let constant = ConfigurationConstant {
                name,
                value: c.value,
                file: display_file(&p.files[var.pos.file], root),
                line: var.pos.line,
            };
            (var.pos, constant)
        })
        .collect();
    out.sort_by(|a, b| (a.0, &a.1.name).cmp(&(b.0, &b.1.name)));
    out.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Which locations a stopped run checked follows from its phase: none before the race
    /// check, some in it (the races found are kept), all when the deadlock check stopped.
    #[test]
    fn a_stop_says_what_was_checked() {
        let stop = |phase| Stop {
            limit: Limit::Time(Duration::from_millis(1500)),
            phase,
        };
        let checked = |phase| stopped(stop(phase)).races_checked;
        assert_eq!(checked(None), "none");
        assert_eq!(checked(Some(solver::threads::PHASE_SHARING)), "none");
        assert_eq!(checked(Some(PHASE_CHECK)), "some");
        assert_eq!(checked(Some(PHASE_DEADLOCKS)), "all");
        assert_eq!(
            stopped(stop(Some(solver::threads::PHASE_SHARING))).amount,
            "1.5 s"
        );
        assert_eq!(stopped(stop(None)).phase, "setup");
        let memory = |bytes| amount_of_memory(bytes);
        assert_eq!(memory(2 << 30), "2 GiB");
        assert_eq!(memory(1536 << 20), "1536 MiB");
        assert_eq!(memory(1000), "1 KiB");
    }

    /// A report built when the run's budget is spent lists no warning: it says how many racy
    /// locations it left out, that every location was checked, and that races were found.
    #[test]
    fn a_report_out_of_budget_says_what_it_left_out() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/races/basic/two_thread_functions.c");
        let result = c_frontend::driver::check_on_large_stack(
            vec![c_frontend::driver::Input::from(fixture)],
            c_frontend::driver::CheckOptions::default(),
            &solver::stats::Stats::off(),
        )
        .and_then(c_frontend::driver::Checked::done)
        .expect("the fixture is checked");
        let whole = build(&result, &std::env::current_dir().unwrap());
        let races = whole.warnings.iter().filter(|w| w.race().is_some()).count();
        assert!(races > 0);
        let spent = solver::budget::Limits {
            time: Some(Duration::ZERO),
            memory: None,
        };
        let cut =
            solver::budget::within(spent, || build(&result, &std::env::current_dir().unwrap()));
        assert!(cut.warnings.is_empty());
        assert_eq!(cut.verdict, Verdict::Races);
        let stopped = cut.stopped.as_ref().expect("the report says it stopped");
        assert_eq!(stopped.phase, "report");
        assert_eq!(stopped.races_checked, "all");
        assert!(stopped.locations_not_listed.is_some_and(|n| n >= races));
        assert!(crate::render::stop(stopped).contains("racy location"));
    }
}
