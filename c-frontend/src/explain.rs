//! Queries that explain a check's result to a reader: which object a lock is named after, and the
//! call path by which a thread reaches an access. They answer with ids and positions of the
//! analysed program (lock labels, names, call points), never with sentences.
//!
//! This module only reads a finished [`CheckResult`]; it never changes the analysis, decides races
//! or formats text. Every answer is deterministic: maps are used for lookups only and every search
//! follows the program's id and list order.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::FxHashMap;
use solver::ids::Idx;
use solver::threads::facts::Thread;
use solver::threads::structure::CallPoint;
use solver::threads::FnId;
use solver::{Lock, Site};

use crate::constraints::RhoName;
use crate::driver::CheckResult;
use crate::ir::FuncId;
use crate::model::Kind;

/// For each function the program copied per start routine ([`crate::specialise`]), and for
/// each function it copied, the positions of its direct calls, in order: which calls a thread
/// started in one of them belongs to, since the copies share their name and positions.
pub fn starter_calls(r: &CheckResult) -> FxHashMap<FuncId, Vec<crate::ir::Pos>> {
    let p = &r.program;
    let mut out: FxHashMap<FuncId, Vec<crate::ir::Pos>> = FxHashMap::default();
    if p.copies.is_empty() {
        return out;
    }
    let copied: rustc_hash::FxHashSet<FuncId> = (p.copies.iter())
        .flat_map(|&(copy, original)| [copy, original])
        .collect();
    for func in p.funcs.iter() {
        for (b, k, callee, _) in func.direct_calls() {
            if copied.contains(&callee) {
                out.entry(callee)
                    .or_default()
                    .push(func.blocks[b].stmts[k].pos);
            }
        }
    }
    for calls in out.values_mut() {
        calls.sort();
    }
    out
}

/// The object or field path each lock class is named after, keyed by class representative (and by
/// the images of named classes at calls).
///
/// A class takes the name of its lowest-numbered named member. A lock created in a callee (a mutex
/// initialised in a constructor function) is held by callers under its image at the call: it is
/// the same object, so the image gets the callee's name too, repeatedly until nothing changes.
pub fn lock_names(r: &CheckResult) -> BTreeMap<Lock, &RhoName> {
    let mut names: BTreeMap<Lock, &RhoName> = BTreeMap::new();
    let mut named: Vec<(&Lock, &RhoName)> = r.generated.lock_names.iter().collect();
    named.sort_by_key(|(l, _)| **l);
    for (l, name) in named {
        let rep = r.solution.lock_rep.get(*l).copied().unwrap_or(*l);
        names.entry(rep).or_insert(name);
    }
    loop {
        let mut changed = false;
        for &(generic, image) in &r.solution.lock_images {
            if names.contains_key(&image) {
                continue;
            }
            if let Some(&name) = names.get(&generic) {
                names.insert(image, name);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    names
}

/// Whether a lock class is the one atomic operations take ([`crate::model::ATOMIC_ACCESS`]):
/// an access holding it is an atomic access, and the lock is not one the program holds.
pub fn is_atomic_lock(r: &CheckResult, names: &BTreeMap<Lock, &RhoName>, l: Lock) -> bool {
    let (_, _, lock) = crate::model::ATOMIC_ACCESS;
    match names.get(&l) {
        Some(RhoName::Var(v)) => {
            let var = &r.program.vars[*v];
            var.origin == crate::ir::Origin::Stub && var.name == lock
        }
        _ => false,
    }
}

/// The thread an access is reported in, as seen from the root of the location's home.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThreadOf {
    /// The main thread (the location's home is `main`).
    Main,
    /// The thread running this function, to one run of which the location is private.
    RunOf(FnId),
    /// The thread started by the fork at this site.
    Forked(Site),
}

/// How a thread reaches an access: the calls from the location's home function down to the
/// accessing function, through the fork that started the thread when another thread accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessPath {
    pub thread: ThreadOf,
    /// The function the path starts from (the location's home).
    pub home: FnId,
    /// The calls (and the fork) in order from `home`. A stretch the call graph does not connect
    /// is left out rather than guessed.
    pub steps: Vec<CallPoint>,
}

/// The call points of a path, in order.
type CallChain = Vec<CallPoint>;

/// Call paths through the call graph of one check (breadth-first, so each path is a shortest one).
pub struct CallPaths<'a> {
    r: &'a CheckResult,
    /// The thread-analysis function of each user function that has one.
    fn_of: FxHashMap<FuncId, FnId>,
    /// The fork that starts each fork site's thread.
    fork_of: FxHashMap<Site, CallPoint>,
    /// Paths already found, by (root, target, whether they may pass forks): a warning lists
    /// many accesses from few places.
    found: std::cell::RefCell<FxHashMap<(FnId, FnId, bool), Option<CallChain>>>,
    /// The tables of [`CallPaths::search`], kept between searches.
    scratch: std::cell::RefCell<Scratch>,
}

/// Per function: the number of the last search that visited it, and the call it was reached
/// through; the search's queue.
#[derive(Default)]
struct Scratch {
    stamp: u32,
    mark: Vec<u32>,
    prev: Vec<Option<CallPoint>>,
    queue: VecDeque<FnId>,
}

impl<'a> CallPaths<'a> {
    pub fn new(r: &'a CheckResult) -> CallPaths<'a> {
        let fn_of = r
            .generated
            .fn_func
            .iter_enumerated()
            .map(|(id, &f)| (f, id))
            .collect();
        let mut fork_of = FxHashMap::default();
        for pt in r.solution.structure.forkers.iter().flatten() {
            fork_of.entry(pt.site).or_insert(*pt);
        }
        CallPaths {
            r,
            fn_of,
            fork_of,
            found: Default::default(),
            scratch: Default::default(),
        }
    }

    /// The function a call point calls, if it is a function the thread analysis knows.
    pub fn callee_of(&self, pt: CallPoint) -> Option<FnId> {
        let info = self.r.generated.sites.get(&pt.site)?;
        self.fn_of.get(&info.callee).copied()
    }

    /// The call points from `root` down to `target`, or `None` when `root` does not reach it;
    /// `through_forks`: the path may pass forks too (a thread started by a thread: the path to
    /// the function that starts it goes through the fork of the thread that calls it).
    pub fn path_down(
        &self,
        root: FnId,
        target: FnId,
        through_forks: bool,
    ) -> Option<Vec<CallPoint>> {
        let key = (root, target, through_forks);
        if let Some(found) = self.found.borrow().get(&key) {
            return found.clone();
        }
        let path = self.search(root, target, through_forks);
        self.found.borrow_mut().insert(key, path.clone());
        path
    }

    /// [`CallPaths::path_down`], searched. The search's tables are indexed by function and
    /// reused from one search to the next (a visit is marked with the search's number), so a
    /// search costs what it visits, with no hashing or allocation.
    fn search(&self, root: FnId, target: FnId, through_forks: bool) -> Option<Vec<CallPoint>> {
        let s = &self.r.solution.structure;
        let mut guard = self.scratch.borrow_mut();
        let scratch = &mut *guard;
        let n = s.callers.len();
        if scratch.mark.len() != n {
            scratch.mark = vec![0; n];
            scratch.prev = vec![None; n];
        }
        scratch.stamp += 1;
        let stamp = scratch.stamp;
        scratch.queue.clear();
        scratch.queue.push_back(target);
        scratch.mark[target.index()] = stamp;
        scratch.prev[target.index()] = None;
        // The search runs backwards from the target over callers, so the first time the root is
        // met, following `prev` from it walks a shortest path forwards.
        while let Some(f) = scratch.queue.pop_front() {
            if f == root {
                let mut out = Vec::new();
                let mut cur = root;
                while cur != target {
                    let pt = scratch.prev[cur.index()]?;
                    out.push(pt);
                    cur = self.callee_of(pt)?;
                }
                return Some(out);
            }
            let forkers = if through_forks {
                &s.forkers[f][..]
            } else {
                &[]
            };
            for pt in s.callers[f].iter().chain(forkers) {
                let c = pt.caller.index();
                if scratch.mark[c] != stamp {
                    scratch.mark[c] = stamp;
                    scratch.prev[c] = Some(*pt);
                    scratch.queue.push_back(pt.caller);
                }
            }
        }
        None
    }

    /// The path of an access made in `func` by `thread`, for a location whose home is `home`:
    /// from `home` (the root of the main thread, or of the run the location is private to), or
    /// for another thread from `home` through the fork that started it, down to `func`.
    /// The thread of an access by `thread` as seen from `home`: what
    /// [`CallPaths::access_path`] names, without the path.
    pub fn thread_of(&self, home: FnId, thread: Thread) -> ThreadOf {
        match thread {
            Thread::Current if Some(home) == self.r.generated.threads.main => ThreadOf::Main,
            Thread::Current => ThreadOf::RunOf(home),
            Thread::Forked(site) => ThreadOf::Forked(site),
        }
    }

    pub fn access_path(&self, home: FnId, func: FuncId, thread: Thread) -> AccessPath {
        let mut steps = Vec::new();
        let (thread, root) = match thread {
            Thread::Current => (self.thread_of(home, thread), home),
            Thread::Forked(site) => {
                let thread = ThreadOf::Forked(site);
                let fork = self.fork_of.get(&site).copied();
                let Some(fork) = fork else {
                    return AccessPath {
                        thread,
                        home,
                        steps,
                    };
                };
                // The calls of `home`'s own thread, when they reach the fork; else through the
                // forks of the threads that start it.
                let to_fork = (self.path_down(home, fork.caller, false))
                    .or_else(|| self.path_down(home, fork.caller, true));
                steps.extend(to_fork.unwrap_or_default());
                steps.push(fork);
                match self.callee_of(fork) {
                    Some(root) => (thread, root),
                    None => {
                        return AccessPath {
                            thread,
                            home,
                            steps,
                        }
                    }
                }
            }
        };
        if let Some(target) = self.fn_of.get(&func).copied() {
            steps.extend(self.path_down(root, target, false).unwrap_or_default());
        }
        AccessPath {
            thread,
            home,
            steps,
        }
    }
}

/// The lock a lock call at `pos` in `func` takes, as C writes it (`qp->mtx` for
/// `pthread_mutex_lock(&qp->mtx)`): for naming a lock that no object names at the function's
/// level (a parameter's lock). `None` when there is no such call there or its argument is no
/// plain path of variables, fields and pointer dereferences.
pub fn lock_call_argument(
    p: &crate::ir::Program,
    func: FuncId,
    pos: crate::ir::Pos,
) -> Option<String> {
    let (kind, args) = lock_call(p, func, pos)?;
    let k = match kind {
        Kind::Acquire { lock, .. }
        | Kind::TryAcquire { lock, .. }
        | Kind::Wait { lock }
        | Kind::Release { lock } => lock,
        _ => return None,
    };
    c_pointee(p, args.get(usize::from(k))?)
}

/// The model's meaning and the arguments of the library call at `pos` in `func`.
fn lock_call(
    p: &crate::ir::Program,
    func: FuncId,
    pos: crate::ir::Pos,
) -> Option<(Kind, &[crate::ir::Operand])> {
    use crate::ir::{Callee, StmtKind};
    let stmt = p.funcs[func]
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .find(|s| s.pos == pos && matches!(s.kind, StmtKind::Call { .. }))?;
    let StmtKind::Call {
        callee: Callee::Direct(g),
        args,
        ..
    } = &stmt.kind
    else {
        return None;
    };
    Some((p.known_kind(*g)?, args))
}

/// What a pointer operand points to, in C: `&x` is `x`, `&p->f` is `p->f`, `p` is `*p`.
fn c_pointee(p: &crate::ir::Program, op: &crate::ir::Operand) -> Option<String> {
    use crate::ir::Operand;
    match op.without_casts() {
        Operand::AddrOf(lv) => c_lval(p, lv),
        Operand::Use(lv) => Some(format!("*{}", c_lval(p, lv)?)),
        _ => None,
    }
}

/// An lvalue in C notation (`v`, `p->f.g`, `*p`), when it has no index.
fn c_lval(p: &crate::ir::Program, lv: &crate::ir::Lval) -> Option<String> {
    use crate::ir::{Base, Operand, Proj};
    let mut fields = lv.proj.iter();
    let mut out = match &lv.base {
        Base::Var(v) => p.vars[*v].name.clone(),
        Base::Deref(op) => {
            let Operand::Use(inner) = op.without_casts() else {
                return None;
            };
            let inner = c_lval(p, inner)?;
            match fields.next() {
                None => return Some(format!("*{inner}")),
                Some(Proj::Field { strukt, index }) => {
                    format!("{inner}->{}", field_name(p, *strukt, *index)?)
                }
                Some(_) => return None,
            }
        }
    };
    for pr in fields {
        match pr {
            Proj::Field { strukt, index } => {
                out.push('.');
                out.push_str(field_name(p, *strukt, *index)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

fn field_name(
    p: &crate::ir::Program,
    strukt: crate::ir::ctypes::StructId,
    index: u32,
) -> Option<&str> {
    let f = p.types.structs[strukt].fields.get(index as usize)?;
    (!f.name.is_empty()).then_some(f.name.as_str())
}

/// Which functions take the lock kept in a struct field, themselves or below: for reports that
/// explain why an object's own lock did not protect an access, which mean nothing where no such
/// lock is taken. The direct calls of every function, and the functions that make a lock call
/// themselves or below, are found once; [`FieldLockTakers::of`] answers per field.
pub struct FieldLockTakers<'p> {
    p: &'p crate::ir::Program,
    /// Each function's direct calls, with their arguments.
    calls: Vec<Vec<(FuncId, &'p [crate::ir::Operand])>>,
    /// The functions that make a lock call, themselves or through the functions they call
    /// (a wrapper that may lock what it is given).
    lockers: rustc_hash::FxHashSet<FuncId>,
}

impl<'p> FieldLockTakers<'p> {
    pub fn new(p: &'p crate::ir::Program) -> FieldLockTakers<'p> {
        use crate::ir::{Callee, StmtKind};
        let calls: Vec<Vec<(FuncId, &'p [crate::ir::Operand])>> = p
            .funcs
            .iter()
            .map(|func| {
                func.blocks
                    .iter()
                    .flat_map(|b| &b.stmts)
                    .filter_map(|s| match &s.kind {
                        StmtKind::Call {
                            callee: Callee::Direct(g),
                            args,
                            ..
                        } => Some((*g, args.as_slice())),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut takers = FieldLockTakers {
            p,
            calls,
            lockers: rustc_hash::FxHashSet::default(),
        };
        takers.lockers = takers.closure(|t, id, set| {
            t.calls[id.index()]
                .iter()
                .any(|(g, _)| t.lock_call(*g) || set.contains(g))
        });
        takers
    }

    fn lock_call(&self, g: FuncId) -> bool {
        matches!(
            self.p.known_kind(g),
            Some(Kind::Acquire { .. } | Kind::TryAcquire { .. })
        )
    }

    /// The smallest set of defined functions closed under `grows`.
    fn closure(
        &self,
        grows: impl Fn(&Self, FuncId, &rustc_hash::FxHashSet<FuncId>) -> bool,
    ) -> rustc_hash::FxHashSet<FuncId> {
        let mut set = rustc_hash::FxHashSet::default();
        loop {
            let before = set.len();
            for (id, func) in self.p.funcs.iter_enumerated() {
                if func.defined && !set.contains(&id) && grows(self, id, &set) {
                    set.insert(id);
                }
            }
            if set.len() == before {
                return set;
            }
        }
    }

    /// The functions that take a lock kept in field `index` of `struct strukt` (`lock(&p->m)`,
    /// `lock(&b->m[i])`, `acquire(&p->m)` of a wrapper that locks what its parameter points to),
    /// themselves or through functions they call (to any depth), and the functions those call
    /// (a helper called while its caller holds the lock).
    pub fn of(
        &self,
        strukt: crate::ir::ctypes::StructId,
        index: u32,
    ) -> rustc_hash::FxHashSet<FuncId> {
        use crate::ir::{Operand, Proj};
        // The lock field, under the indices of an array of locks (`m[i]`).
        let names_field = |op: &Operand| match op.without_casts() {
            Operand::AddrOf(lv) => matches!(
                lv.proj.iter().rev().find(|pr| matches!(pr, Proj::Field { .. })),
                Some(Proj::Field { strukt: s, index: i }) if *s == strukt && *i == index
            ),
            _ => false,
        };
        let takers = self.closure(|t, id, set| {
            t.calls[id.index()].iter().any(|(g, args)| {
                set.contains(g)
                    || ((t.lock_call(*g) || t.lockers.contains(g)) && args.iter().any(names_field))
            })
        });
        let mut out = takers.clone();
        for &t in &takers {
            out.extend(self.calls[t.index()].iter().map(|&(g, _)| g));
        }
        out
    }
}

/// What one presumed join ([`crate::analyses::joins::PresumedJoin`]) explains: the thread
/// analysis's warnings (indices into its solution) that its second check does not find, and
/// those among the rest that list the join's test of its counter as a racing access (the race
/// on the counter itself). Empty when the second check ran out of budget.
pub struct PresumedOutcome<'r> {
    pub join: &'r crate::analyses::joins::PresumedJoin,
    pub vanished: Vec<usize>,
    pub causes: Vec<usize>,
}

/// The outcome of each presumed join of the check, in the order of
/// [`crate::constraints::Generated::presumed`].
pub fn presumed_outcomes(r: &CheckResult) -> Vec<PresumedOutcome<'_>> {
    let warnings = &r.solution.warnings;
    r.generated
        .presumed
        .iter()
        .zip(&r.solution.presumed)
        .map(|((join, test), vanished)| {
            let vanished = vanished.clone().unwrap_or_default();
            let causes = if vanished.is_empty() {
                Vec::new()
            } else {
                (0..warnings.len())
                    .filter(|i| vanished.binary_search(i).is_err())
                    .filter(|&i| {
                        warnings[i]
                            .accesses
                            .iter()
                            .any(|a| a.racing && test.contains(&a.access))
                    })
                    .collect()
            };
            PresumedOutcome {
                join,
                vanished,
                causes,
            }
        })
        .collect()
}
