//! Turns: a value under a mutex that says whose turn it is (an extension beyond the paper, which
//! knows only locks). A thread that saw the value it waits for, holding the mutex, has the turn
//! until it stores the value again; whatever it does in between, the mutex released, no other
//! thread does at the same time:
//!
//! ```c
//! void *worker(void *arg) {                  // one thread, started once
//!     for (;;) {
//!         lock(&m);
//!         while (turn != 1)                  // a *start*: the side where `turn == 1`
//!             wait(&c, &m);
//!         unlock(&m);
//!         total += slot;                     // the worker's turn
//!         lock(&m); turn = 0; broadcast(&c); unlock(&m);   // a *store*: the turn ends
//!     }
//! }
//! // main: lock(&m); while (turn != 0) wait(&c, &m); unlock(&m); slot = k; lock(&m); turn = 1; …
//! ```
//!
//! The constraint generator says it with a lock of its own, the turn variable's, that holds no
//! mutex and orders no locks: taken on entry to each start, given back after each store
//! ([`Turn`]). Like any lock, it protects the accesses made while it is held, here those of two
//! turns.
//!
//! What this module checks on the IR, for a *turn variable* `v`, a global integer variable or
//! member path of one, not thread-local, whose address is never taken (so that every write
//! names it, or a member of a union it lies in: a write that is not a store of it, which ends
//! the argument):
//!
//! - A *start* is a side of a branch on `v` (`v == K`, `v != K`, or `v` itself, which the
//!   lowering also makes of `!v` with the sides swapped; `K` a constant from -128 to 127, so
//!   that no two such constants are the same value in any integer type; or `v == me`,
//!   `v != me` with `me` a parameter the function never assigns), entered only from the
//!   branch, with a mutex held there on every path, and not the
//!   side of a wait loop that waits (from which every path comes back to the branch before any
//!   store or return). Its *values* are those `v` may hold on that side.
//! - A function is *in a turn* at a point where every path from its entry passed a start since
//!   its last store of `v` or call that may store it (a call of a function that may, through a
//!   pointer, or handing a function over); the turn's values are the union of those starts'.
//!   It is entered in a turn when every call of it is made in one (a helper that hands the turn
//!   over), never when it is `main`, addressed, uncalled or on a cycle of calls. A function
//!   that returns in a turn on every way it returns (a wait helper, `wait_turn(me)`) starts
//!   one in its caller at each call, of the values the call's constant argument gives.
//! - A branch taken where the function is already in a turn starts none (the thread keeps the
//!   turn it has, whatever values it tells apart).
//! - Every store of `v` is made in a turn of its function, holding the mutex every start holds;
//!   or by the initializers, or by `main` before any call that may start a thread.
//! - Each start's function runs in one thread only, one that runs once: `main` (and what only
//!   it calls), or the routine of one create made once by a function that runs once (and what
//!   only it calls). Or, for a start whose values are a parameter's or whose function runs in
//!   several threads, each call of its function is made in such a thread, with a constant
//!   argument for the parameter: each call is then a start of its own. Two starts whose values
//!   meet run in the same one thread. When they do not, the starts of *observers* are dropped
//!   (threads that never store `v`: `main` or a function nothing calls, none of whose calls may
//!   store it), which then hold no turn, and the others checked again.
//!
//! Why a turn then excludes every other: say thread `T` is in a turn of values `P` (it saw `v`
//! in `P` holding the mutex, and has not stored since), and no other thread is in a turn. Only
//! a thread in a turn stores `v` (or `main` before any other thread exists), so `v` stays in
//! `P`. Another thread `U` starting a turn of values `Q` reads `v`, in `P`, holding the mutex:
//! so `P` and `Q` meet, and `U` runs the same one thread as `T`, which is `T`. By induction on
//! time, at most one thread is ever in a turn. And what a thread did in its turn, up to its
//! store, happens before the next turn starts: its store and the next start's test hold the
//! mutex, which the storing thread releases after its store.
//!
//! It reads the IR, the call index and the joins plan's once-runs, and adds only the turns.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap, FxHashSet};

use super::counters::{written_vars, Counter, Write};
use super::*;
use crate::analyses::held::Held;
use crate::analyses::semaphores::SemKey;
use crate::ir::Comparison;

/// One turn variable: the lock that its turns hold, where they start and where they end.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The variable as a start reads it: the generator takes `&var`'s lock.
    pub var: Lval,
    /// The blocks on entry to which a thread starts a turn, sorted.
    pub starts: Vec<(FuncId, BlockId)>,
    /// The stores after which it has ended (`main`'s before any thread too), sorted.
    pub stores: Vec<StmtAt>,
    /// The calls of helpers that return in a turn, after which the caller has started one
    /// ([`super::turn_objects`]), sorted.
    pub start_calls: Vec<StmtAt>,
    /// The stores a helper makes through a pointer it was handed, after which the lock of the
    /// location it writes is given back, sorted.
    pub param_stores: Vec<StmtAt>,
}

/// A set of integers: sorted, disjoint, non-adjacent closed intervals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Values(Vec<(i64, i64)>);

impl Values {
    pub(super) fn one(k: i64) -> Values {
        Values(vec![(k, k)])
    }

    fn all() -> Values {
        Values(vec![(i64::MIN, i64::MAX)])
    }

    pub(super) fn all_but(k: i64) -> Values {
        // `k` is at most 127 in magnitude: both sides are non-empty.
        Values(vec![(i64::MIN, k - 1), (k + 1, i64::MAX)])
    }

    pub(super) fn union(&self, other: &Values) -> Values {
        let mut all: Vec<(i64, i64)> = self.0.iter().chain(&other.0).copied().collect();
        all.sort_unstable();
        let mut out: Vec<(i64, i64)> = Vec::with_capacity(all.len());
        for (lo, hi) in all {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Values(out)
    }

    /// Whether some integer is in both.
    fn meets(&self, other: &Values) -> bool {
        (self.0.iter()).any(|&(a, b)| other.0.iter().any(|&(c, d)| a <= d && c <= b))
    }
}

/// The values of a turn: known, or those a parameter of its function says (`v == me`,
/// `v != me`), known at each call that passes a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Known(Values),
    Param { index: u32, equal: bool },
}

impl Shape {
    fn union(&self, other: &Shape) -> Shape {
        match (self, other) {
            (Shape::Known(a), Shape::Known(b)) => Shape::Known(a.union(b)),
            (a, b) if a == b => a.clone(),
            _ => Shape::Known(Values::all()),
        }
    }

    /// The values at a call with arguments `args`: a parameter's, when the call passes a
    /// constant from -128 to 127.
    fn at(&self, args: &[Operand]) -> Option<Values> {
        match self {
            Shape::Known(v) => Some(v.clone()),
            Shape::Param { index, equal } => {
                let k = args
                    .get(*index as usize)?
                    .constant()
                    .filter(|k| small(*k))?;
                Some(if *equal {
                    Values::one(k)
                } else {
                    Values::all_but(k)
                })
            }
        }
    }
}

/// Whether a constant is the same value in every integer type (so that two distinct ones are
/// never equal after C's conversions).
pub(super) fn small(k: i64) -> bool {
    (-128..=127).contains(&k)
}

/// A branch on a turn variable: the read, the variable, and each side with the values the
/// variable holds there.
struct TurnTest {
    block: BlockId,
    read: Lval,
    counter: Counter,
    sides: [(BlockId, Shape); 2],
}

impl TurnTest {
    fn of(p: &Program, f: FuncId, b: BlockId, term: &Term) -> Option<TurnTest> {
        let crate::ir::TwoWays {
            cond,
            then_block,
            else_block,
            compare,
        } = term.two_ways()?;
        // The values where `v` equals what it is compared with, and where it does not.
        let compared = |other: &Operand| -> Option<(Shape, Shape)> {
            if let Some(k) = other.constant().filter(|k| small(*k)) {
                return Some((
                    Shape::Known(Values::one(k)),
                    Shape::Known(Values::all_but(k)),
                ));
            }
            let Operand::Use(lv) = other else { return None };
            let index = crate::analyses::lock_elements::unchanged_param(p, f, lv.plain_var()?)?;
            let param = |equal| Shape::Param { index, equal };
            Some((param(true), param(false)))
        };
        let (read, then_values, else_values) = match (compare, cond) {
            (None, Operand::Use(lv)) => (
                lv,
                Shape::Known(Values::all_but(0)),
                Shape::Known(Values::one(0)),
            ),
            (Some(op @ (Comparison::Eq | Comparison::Ne)), Operand::Arith(_, _, ops)) => {
                let [l, r] = ops.as_slice() else { return None };
                let (read, (equal, unequal)) = match (l, r) {
                    (Operand::Use(lv), other) | (other, Operand::Use(lv))
                        if Counter::read_by(p, &Operand::Use(lv.clone())).is_some() =>
                    {
                        (lv, compared(other)?)
                    }
                    _ => return None,
                };
                match op {
                    Comparison::Eq => (read, equal, unequal),
                    _ => (read, unequal, equal),
                }
            }
            _ => return None,
        };
        let counter = Counter::read_by(p, &Operand::Use(read.clone()))?;

        Some(TurnTest {
            block: b,
            read: read.clone(),
            counter,
            sides: [(then_block, then_values), (else_block, else_values)],
        })
    }
}

/// What the walks of one turn variable share: the variable, the functions a call of which may
/// store it, and the functions that return in a turn they started, with its values.
struct Walk<'a> {
    counter: &'a Counter,
    may_write: &'a FxHashSet<FuncId>,
    exits: FxHashMap<FuncId, Shape>,
}

/// The one thread a function runs in, when it runs in one that runs once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Home {
    Main,
    Routine(FuncId),
    Many,
}

/// Whether a function is in a turn at a point, and of which values.
#[derive(Clone, Debug, PartialEq, Eq)]
enum InTurn {
    No,
    Yes(Shape),
}

/// A start as found: its function, its branch's block and the side entered, its values and
/// the mutexes held at its branch.
pub(super) struct Start {
    pub(super) f: FuncId,
    pub(super) test: BlockId,
    pub(super) block: BlockId,
    pub(super) values: Shape,
    pub(super) held: BTreeSet<SemKey>,
}

impl Planner<'_> {
    /// Finds the turn variables of the program that starts at `main` ([`JoinPlan::turns`]).
    pub(super) fn turns(&mut self, main: FuncId) {
        let p = self.p;
        if self.index.main_is_called(main) {
            return;
        }
        let mut tests: BTreeMap<SemKey, Vec<(FuncId, TurnTest)>> = BTreeMap::new();
        for (f, func) in p.funcs.iter_enumerated() {
            if !func.defined || func.origin != Origin::User {
                continue;
            }
            for (b, block) in func.blocks.iter_enumerated() {
                if let Some(test) = TurnTest::of(p, f, b, &block.term) {
                    let key = SemKey {
                        var: test.counter.var,
                        fields: test.counter.fields.clone(),
                    };
                    tests.entry(key).or_default().push((f, test));
                }
            }
        }
        if tests.is_empty() {
            return;
        }
        let tested: FxHashSet<VarId> = tests.keys().map(|k| k.var).collect();
        let mut writes: FxHashMap<VarId, Vec<StmtAt>> = FxHashMap::default();
        for (f, func) in p.funcs.iter_enumerated() {
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    for v in written_vars(&stmt.kind) {
                        if tested.contains(&v) {
                            writes.entry(v).or_default().push((f, b, k));
                        }
                    }
                }
            }
        }
        let homes = self.homes(main);
        let mut held: FxHashMap<FuncId, Held> = FxHashMap::default();
        // The functions that may write each variable, found once for all its members: made for
        // each member, the walk over the callers made the turns grow as the square of a large
        // struct's members.
        let mut may_write: FxHashMap<VarId, FxHashSet<FuncId>> = FxHashMap::default();
        let mut found = Vec::new();
        for (key, tests) in &tests {
            let writes = writes.get(&key.var).map_or(&[][..], Vec::as_slice);
            let may_write = may_write.entry(key.var).or_insert_with(|| {
                let writers: FxHashSet<FuncId> = writes.iter().map(|&(f, _, _)| f).collect();
                self.index.may_write(&writers)
            });
            if let Some(turn) = self.turn(main, tests, writes, may_write, &homes, &mut held) {
                found.push(turn);
            }
        }
        self.plan.turns = found;
    }

    /// The turns of one variable, tested by `tests` and written by `writes` (every statement
    /// that writes its variable, in functions whose calls are `may_write`), when the argument
    /// of the module holds.
    fn turn(
        &self,
        main: FuncId,
        tests: &[(FuncId, TurnTest)],
        writes: &[StmtAt],
        may_write: &FxHashSet<FuncId>,
        homes: &[Home],
        held: &mut FxHashMap<FuncId, Held>,
    ) -> Option<Turn> {
        let p = self.p;
        let counter = &tests[0].1.counter;
        let mut walk = Walk {
            counter,
            may_write,
            exits: FxHashMap::default(),
        };
        let starts = self.starts(&walk, tests, held);
        if starts.is_empty() {
            return None;
        }
        walk.exits = self.exits(&walk, &starts);
        let in_turn = self.in_turns(main, &walk, &starts);
        // A branch taken in a turn starts none: the thread keeps the turn it has.
        let mut fresh: Vec<&Start> = (starts.iter())
            .filter(|s| {
                let end = p.funcs[s.f].blocks[s.test].stmts.len();
                !in_turn.get(&s.f).is_some_and(|states| {
                    let at = self.turn_before(&walk, s.f, states, s.test, end);
                    matches!(at, InTurn::Yes(_))
                })
            })
            .collect();
        // Two starts whose values meet run in the same one thread. Failing that, the starts
        // of the threads that never store the variable (an *observer*: `main` or a function
        // nothing calls, none of whose calls may store it) are dropped: such a thread holds
        // no turn, and what it does after its test is protected by nothing.
        let observer = |s: &Start| {
            !walk.may_write.contains(&s.f) && (s.f == main || self.index.call_count(s.f) == 0)
        };
        let mut observers_dropped = false;
        if !self.apart(main, homes, &fresh) {
            fresh.retain(|s| !observer(s));
            if !self.apart(main, homes, &fresh) {
                return None;
            }
            observers_dropped = true;
        }
        let mut mutexes = fresh.first()?.held.clone();
        for s in &fresh {
            mutexes.retain(|m| s.held.contains(m));
        }
        let mut stores = Vec::new();
        for &(f, b, k) in writes {
            let func = &p.funcs[f];
            let stmt = &func.blocks[b].stmts[k];
            let write = counter.written_by(p, stmt);
            if write.is_none() || func.origin == Origin::GlobalInit {
                continue;
            }
            if f == main && self.before_any_thread(main, b, k) {
                // No other thread exists yet; if `main` was in a turn, the store ends it.
                stores.push((f, b, k));
                continue;
            }
            let exact = matches!(write, Some(Write::Set(_) | Write::Step(_)));
            let h = held.entry(f).or_insert_with(|| Held::new(p, func));
            let at = h.before(p, func, b, k)?;
            let in_a_turn = matches!(
                self.turn_before(&walk, f, in_turn.get(&f)?, b, k),
                InTurn::Yes(_)
            );
            if !exact || !in_a_turn {
                return None;
            }
            mutexes.retain(|m| at.contains(m));
            stores.push((f, b, k));
        }
        if mutexes.is_empty() {
            return None;
        }
        let mut starts: Vec<(FuncId, BlockId)> = (starts.iter())
            .filter(|s| !(observers_dropped && observer(s)))
            .map(|s| (s.f, s.block))
            .collect();
        starts.sort();
        starts.dedup();
        stores.sort();
        Some(Turn {
            var: tests[0].1.read.clone(),
            starts,
            stores,
            start_calls: Vec::new(),
            param_stores: Vec::new(),
        })
    }

    /// The starts of the branches `tests`: each side entered only from its branch, holding a
    /// mutex there, that is not the waiting side of a wait loop.
    fn starts(
        &self,
        walk: &Walk<'_>,
        tests: &[(FuncId, TurnTest)],
        held: &mut FxHashMap<FuncId, Held>,
    ) -> Vec<Start> {
        let p = self.p;
        let mut starts: Vec<Start> = Vec::new();
        for (f, test) in tests {
            let func = &p.funcs[*f];
            let h = held.entry(*f).or_insert_with(|| Held::new(p, func));
            let end = func.blocks[test.block].stmts.len();
            let Some(at_test) = h.before(p, func, test.block, end).filter(|m| !m.is_empty()) else {
                continue;
            };
            let cfg = Cfg::new(func);
            for (side, values) in &test.sides {
                if cfg.preds[side.0 as usize] == [test.block.0 as usize]
                    && !self.waits_again(walk, *f, *side, test.block)
                {
                    starts.push(Start {
                        f: *f,
                        test: test.block,
                        block: *side,
                        values: values.clone(),
                        held: at_test.clone(),
                    });
                }
            }
        }
        starts
    }

    /// The functions that return in a turn they started on every way (a wait helper,
    /// `wait_turn(me)`), with its values: a call of one starts a turn in its caller. Not one
    /// on a cycle of calls.
    fn exits(&self, walk: &Walk<'_>, starts: &[Start]) -> FxHashMap<FuncId, Shape> {
        let mut out = FxHashMap::default();
        let mut fs: Vec<FuncId> = starts.iter().map(|s| s.f).collect();
        fs.sort();
        fs.dedup();
        let cyclic: FxHashSet<FuncId> = (self.index.callers_first().iter())
            .filter(|(_, c)| *c)
            .map(|&(f, _)| f)
            .collect();
        for f in fs.into_iter().filter(|f| !cyclic.contains(f)) {
            let func = &self.p.funcs[f];
            let states = self.in_turn(walk, f, InTurn::No, starts);
            let mut exit: Option<Shape> = None;
            for (b, block) in func.blocks.iter_enumerated() {
                if !matches!(block.term, Term::Return(..)) {
                    continue;
                }
                match self.turn_before(walk, f, &states, b, block.stmts.len()) {
                    InTurn::Yes(shape) => {
                        exit = Some(exit.map_or(shape.clone(), |e| e.union(&shape)));
                    }
                    InTurn::No if states[b.0 as usize].is_some() => {
                        exit = None;
                        break;
                    }
                    InTurn::No => {}
                }
            }
            if let Some(shape) = exit {
                out.insert(f, shape);
            }
        }
        out
    }

    /// Whether no two of the turns the starts `fresh` begin may be taken by two threads at
    /// once: two whose values meet are taken in the same one thread.
    pub(super) fn apart(&self, main: FuncId, homes: &[Home], fresh: &[&Start]) -> bool {
        let Some(instances) = self.instances(main, homes, fresh) else {
            return false;
        };
        (instances.iter().enumerate()).all(|(i, (values, home))| {
            (instances[i + 1..].iter()).all(|(v, h)| !values.meets(v) || h == home)
        })
    }

    /// The values and thread of each turn the starts `fresh` begin: a start's own values in
    /// its function's one thread; or, when those depend on a parameter or the function runs
    /// in several threads, the values and thread of each call of it. `None` when some are not
    /// known.
    fn instances(
        &self,
        main: FuncId,
        homes: &[Home],
        fresh: &[&Start],
    ) -> Option<Vec<(Values, Home)>> {
        let mut out = Vec::new();
        for s in fresh {
            let home = homes[s.f.0 as usize];
            if let (Shape::Known(values), true) = (&s.values, home != Home::Many) {
                out.push((values.clone(), home));
                continue;
            }
            let called = s.f != main
                && self.index.addressed().binary_search(&s.f).is_err()
                && self.index.call_count(s.f) > 0;
            if !called {
                return None;
            }
            for site in self.index.sites_calling(s.f) {
                let caller = homes[site.caller.0 as usize];
                let StmtKind::Call { args, .. } = Calls::stmt(self.p, site) else {
                    return None;
                };
                if caller == Home::Many || site.caller == s.f {
                    return None;
                }
                out.push((s.values.at(args)?, caller));
            }
        }
        Some(out)
    }

    /// Whether function `f`'s statement `stmt` may end a turn of `counter`: it writes it, or
    /// calls a function that may (one of `may_write`, through a pointer, or handing a function
    /// over), or is assembly.
    fn ends_turn(
        &self,
        counter: &Counter,
        stmt: &crate::ir::Stmt,
        may_write: &FxHashSet<FuncId>,
    ) -> bool {
        counter.written_by(self.p, stmt).is_some()
            || crate::analyses::singletons::may_call_a_writer(&stmt.kind, may_write)
    }

    /// The state after a statement: a call of a function that returns in a turn starts one
    /// (of the values the call gives it, or any); a statement that may end a turn ends it.
    fn step(&self, walk: &Walk<'_>, stmt: &crate::ir::Stmt, state: InTurn) -> InTurn {
        if let StmtKind::Call {
            callee: Callee::Direct(h),
            args,
            ..
        } = &stmt.kind
        {
            if let Some(shape) = walk.exits.get(h) {
                let values = shape.at(args).unwrap_or_else(Values::all);
                return InTurn::Yes(Shape::Known(values));
            }
        }
        if self.ends_turn(walk.counter, stmt, walk.may_write) {
            InTurn::No
        } else {
            state
        }
    }

    /// Whether every path from block `side` of `f` comes back to the branch in `test` before
    /// any statement that may end a turn and before the function returns (or ends the
    /// program): the side of a wait loop that waits, which is no turn (its values are those
    /// the thread does not wait for).
    fn waits_again(&self, walk: &Walk<'_>, f: FuncId, side: BlockId, test: BlockId) -> bool {
        let func = &self.p.funcs[f];
        comes_back(
            func,
            &|b| func.blocks[b].term.successors(),
            (side, test),
            &|s| self.ends_turn(walk.counter, s, walk.may_write),
            &|term| matches!(term, Term::Return(..)),
        )
    }

    /// Whether each function that may store the variable is in a turn of it on entry to each
    /// of its blocks (`None`: unreachable). A function is entered in a turn when every call of
    /// it is made in one (the values: their union); never when it is `main`, on a cycle of
    /// calls, addressed, or not called.
    fn in_turns(
        &self,
        main: FuncId,
        walk: &Walk<'_>,
        starts: &[Start],
    ) -> FxHashMap<FuncId, Vec<Option<InTurn>>> {
        let mut out: FxHashMap<FuncId, Vec<Option<InTurn>>> = FxHashMap::default();
        for &(f, cyclic) in self.index.callers_first() {
            if !walk.may_write.contains(&f) {
                continue;
            }
            let called = !cyclic
                && f != main
                && self.index.addressed().binary_search(&f).is_err()
                && self.index.call_count(f) > 0;
            let mut entry: Option<InTurn> = None;
            for site in self.index.sites_calling(f).filter(|_| called) {
                let at = match out.get(&site.caller) {
                    Some(states) => {
                        self.turn_before(walk, site.caller, states, site.block, site.stmt)
                    }
                    None => InTurn::No,
                };
                entry = Some(match (entry, at) {
                    (None, at) => at,
                    (Some(InTurn::Yes(a)), InTurn::Yes(b)) => InTurn::Yes(a.union(&b)),
                    _ => InTurn::No,
                });
            }
            let entry = entry.unwrap_or(InTurn::No);
            out.insert(f, self.in_turn(walk, f, entry, starts));
        }
        out
    }

    /// Whether `f`, entered in state `entry`, is in a turn on entry to each block (`None`:
    /// unreachable).
    fn in_turn(
        &self,
        walk: &Walk<'_>,
        f: FuncId,
        entry: InTurn,
        starts: &[Start],
    ) -> Vec<Option<InTurn>> {
        let func = &self.p.funcs[f];
        let succs = func.successor_lists();
        let start_of = |b: BlockId| {
            let mut values: Option<Shape> = None;
            for s in starts.iter().filter(|s| s.f == f && s.block == b) {
                values = Some(match values {
                    Some(v) => v.union(&s.values),
                    None => s.values.clone(),
                });
            }
            values
        };
        let mut entry = solver::dataflow::forward(
            &mut (),
            func.blocks.len(),
            |b| &succs[b],
            entry,
            |_, b, state| {
                let block = BlockId(b as u32);
                let mut state = start_of(block).map_or(state, InTurn::Yes);
                for stmt in &func.blocks[block].stmts {
                    state = self.step(walk, stmt, state);
                }
                Some(state)
            },
            |_, into: &mut InTurn, incoming: &InTurn| {
                let merged = match (&*into, incoming) {
                    (InTurn::Yes(a), InTurn::Yes(b)) => InTurn::Yes(a.union(b)),
                    _ => InTurn::No,
                };
                let changed = merged != *into;
                *into = merged;
                changed
            },
        );
        // A start's own block is in the turn whatever the state its branch passed on.
        for (b, state) in entry.iter_mut().enumerate() {
            if let (Some(s), Some(values)) = (state.as_mut(), start_of(BlockId(b as u32))) {
                *s = InTurn::Yes(values);
            }
        }
        entry
    }

    /// Whether `f` is in a turn right before statement `k` of block `b`.
    fn turn_before(
        &self,
        walk: &Walk<'_>,
        f: FuncId,
        entry: &[Option<InTurn>],
        b: BlockId,
        k: usize,
    ) -> InTurn {
        let Some(mut state) = entry[b.0 as usize].clone() else {
            return InTurn::No;
        };
        for stmt in &self.p.funcs[f].blocks[b].stmts[..k] {
            state = self.step(walk, stmt, state);
        }
        state
    }

    /// Whether statement `k` of `main`'s block `b` runs before any thread may exist: every
    /// path to it from the entry calls only library functions that start none.
    pub(super) fn before_any_thread(&self, main: FuncId, b: BlockId, k: usize) -> bool {
        let p = self.p;
        let harmless = |stmt: &crate::ir::Stmt| super::turn_objects::harmless(p, &stmt.kind);
        self.before_any_thread_with(main, b, k, &harmless)
    }

    /// [`Planner::before_any_thread`], where `harmless` says which statements start no thread.
    pub(super) fn before_any_thread_with(
        &self,
        main: FuncId,
        b: BlockId,
        k: usize,
        harmless: &dyn Fn(&crate::ir::Stmt) -> bool,
    ) -> bool {
        let func = &self.p.funcs[main];
        if !func.blocks[b].stmts[..k].iter().all(harmless) {
            return false;
        }
        let cfg = Cfg::new(func);
        let mut seen = vec![false; func.blocks.len()];
        let mut stack: Vec<usize> = cfg.preds[b.0 as usize].clone();
        while let Some(x) = stack.pop() {
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            if !func.blocks[BlockId(x as u32)].stmts.iter().all(harmless) {
                return false;
            }
            stack.extend(cfg.preds[x].iter().copied());
        }
        true
    }

    /// The one thread each function runs in ([`Home`]): `main`'s, or that of a routine one
    /// create made once starts; a function called from two of them, addressed for another use
    /// than one create's routine, or reached from neither, runs in many.
    pub(super) fn homes(&self, main: FuncId) -> Vec<Home> {
        let p = self.p;
        let n = p.funcs.len();
        let mut home: Vec<Option<Home>> = vec![None; n];
        home[main.0 as usize] = Some(Home::Main);
        let uses = &self.index.uses;
        for &g in self.index.addressed() {
            let once = match uses.forks.get(&g).map(Vec::as_slice) {
                Some(&[(f, b, k, _)]) => {
                    !uses.other_use.contains(&g)
                        && self.plan.run_once.binary_search(&f).is_ok()
                        && self.plan.create_trips.get(&(f, b, k)) == Some(&1)
                }
                _ => false,
            };
            home[g.0 as usize] = Some(if once && g != main {
                Home::Routine(g)
            } else {
                Home::Many
            });
        }
        let mut work: Vec<FuncId> = (0..n)
            .filter(|&f| home[f].is_some())
            .map(|f| FuncId(f as u32))
            .collect();
        while let Some(f) = work.pop() {
            let from = home[f.0 as usize];
            for site in self.index.sites_in(f) {
                let Some(g) = site.callee else { continue };
                let was = home[g.0 as usize];
                let now = match (was, from) {
                    (None, h) => h,
                    (Some(a), Some(b)) if a == b => Some(a),
                    _ => Some(Home::Many),
                };
                if now != was {
                    home[g.0 as usize] = now;
                    work.push(g);
                }
            }
        }
        home.into_iter().map(|h| h.unwrap_or(Home::Many)).collect()
    }
}

/// Whether every path from block `from` of `func` (following `succs`) comes back to block
/// `to` before a statement `ends` says may end a turn and before a terminator `leaves` says
/// leaves the function: the waiting side of a wait loop (`(from, to)`: its side and its test).
pub(super) fn comes_back(
    func: &Func,
    succs: &dyn Fn(BlockId) -> Vec<BlockId>,
    (from, to): (BlockId, BlockId),
    ends: &dyn Fn(&crate::ir::Stmt) -> bool,
    leaves: &dyn Fn(&Term) -> bool,
) -> bool {
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if b == to || std::mem::replace(&mut seen[b.0 as usize], true) {
            continue;
        }
        let block = &func.blocks[b];
        if block.stmts.iter().any(ends) || leaves(&block.term) {
            return false;
        }
        stack.extend(succs(b));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_merge_and_meet() {
        let zero = Values::one(0);
        let not_zero = Values::all_but(0);
        assert!(!zero.meets(&not_zero));
        assert_eq!(zero.union(&not_zero), Values::all());
        assert_eq!(Values::one(1).union(&Values::one(2)), Values(vec![(1, 2)]));
        assert_eq!(
            Values::one(1).union(&Values::one(3)),
            Values(vec![(1, 1), (3, 3)])
        );
        assert!(Values::all_but(1).meets(&Values::all_but(2)));
        assert!(!Values::one(-1).meets(&Values::one(1)));
        assert!(Values::all_but(1).meets(&Values::one(-128)));
    }

    #[test]
    fn a_parameter_turn_takes_the_constant_of_each_call() {
        let eq = Shape::Param {
            index: 1,
            equal: true,
        };
        let args = [
            Operand::Const(crate::ir::ctypes::TypeId(0), Some(9)),
            Operand::Const(crate::ir::ctypes::TypeId(0), Some(2)),
        ];
        assert_eq!(eq.at(&args), Some(Values::one(2)));
        assert_eq!(eq.at(&args[..1]), None);
        let big = [
            args[0].clone(),
            Operand::Const(crate::ir::ctypes::TypeId(0), Some(300)),
        ];
        assert_eq!(eq.at(&big), None);
        // Two parameters' turns, or a parameter's and known values, are any values.
        let ne = Shape::Param {
            index: 1,
            equal: false,
        };
        assert_eq!(eq.union(&ne), Shape::Known(Values::all()));
        assert_eq!(eq.union(&eq), eq);
    }
}
