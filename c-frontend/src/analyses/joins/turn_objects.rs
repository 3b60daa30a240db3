//! Turns through a lock object (an extension beyond the paper, after [`super::turns`]): the
//! turn variable lies in a global struct beside its mutex and condition, and the program waits
//! for it and hands it over through helpers handed the object's address, as a thread library
//! does (`possess`, `wait_for`, `twist`):
//!
//! ```c
//! struct bolt { pthread_mutex_t mutex; pthread_cond_t cond; long value; } state;
//! void wait_for(struct bolt *b, enum wait_op op, long val) {        // returns in a turn
//!     if (op == TO_BE) while (b->value != val) pthread_cond_wait(&b->cond, &b->mutex);
//!     else             while (b->value == val) pthread_cond_wait(&b->cond, &b->mutex);
//! }
//! void twist(struct bolt *b, long val) {                            // ends the turn
//!     b->value = val; pthread_cond_broadcast(&b->cond); pthread_mutex_unlock(&b->mutex);
//! }
//! // a thread: possess(&state); wait_for(&state, NOT_TO_BE, 0); release(&state);
//! //           sum += batch;                                // in its turn
//! //           possess(&state); twist(&state, 0);           // the turn ends
//! ```
//!
//! The argument is [`super::turns`]'s. What differs is how the program names the variable
//! `g.F` (a global struct `g`, a member path `F`):
//!
//! - A helper's parameter `b` is *transparent* when it is a pointer the helper never assigns,
//!   whose address it never takes, and which it uses only to name members (`b->value`, read
//!   or written), to hand a member's address to a lock, condition or other call of the model
//!   that writes nothing but a lock, or to hand itself or a member's address on to a
//!   transparent parameter of another helper.
//! - `g`'s address is taken only as such an argument (`&g`, `&g.Q`), or handed to such a call
//!   of the model with a member that does not hold `F`. So every write of `g.F` names it: as
//!   `g.F`, or as `b->P` in a helper called, through helpers, with `&g.Q` where `Q·P = F`.
//! - A function that names `g` is a *root*. Each root is walked as [`super::turns`] walks a
//!   function, and a call that hands `g` to a helper walks the helper *in that call's
//!   context*: its parameters bound to the parts of `g` and to the constants the call passes,
//!   and its branches and `switch`es on those constants decided (`op == TO_BE`, or the case
//!   `TO_BE` of `switch (op)`, at a call passing `TO_BE`).
//!   The helper's state on return (in a turn, and of which values, or not) is the caller's
//!   after the call: a wait helper's call is a *start* of the caller's, a `twist` a store.
//! - Every store of `g.F`, in a root or in a helper in any context a root calls it in, is
//!   made in a turn and holding a mutex every start's test holds, where the mutexes a caller
//!   holds are held in the helper until it may let go of them.
//! - Starts, in roots, are checked apart as [`super::turns`] checks them, by the root's thread.
//!
//! The object may also be made on the heap and kept in a global pointer `G` (`state =
//! new_bolt(0);`, then `wait_for(state, …)`): `G->F` is then the variable, named as `G->F`,
//! or through a helper handed `G` or `&G->Q`. That takes `G` to hold one object while any
//! thread runs, which only it reaches:
//!
//! - `G`'s address is never taken, and its value is used only as `g`'s address is above
//!   (to name members of its object, or handed to transparent parameters and lock calls);
//! - `G` is set once, by `main` before any thread exists (through calls that start none),
//!   to what a call of an allocator, an allocation wrapper or a *constructor* returned (a
//!   function that starts no thread and returns a local holding such a call's object, which
//!   it only initialises through members and hands to lock and condition calls); the
//!   initializers may store null.
//!
//! Its turn's lock is then the lock of `G->F`, found through `G` without an access of it.
//!
//! A start found in a helper holds no lock of its own: only its caller's, at the call, in the
//! root that names `g`. A helper also handed other objects then never holds a turn for them.
//! A store in a helper gives back the lock of the location it writes, whatever the helper was
//! handed: letting go of a lock no thread holds changes nothing.
//!
//! It reads the IR, the call index and the lock wrappers' summaries ([`Wrappers`]), and adds
//! only turns.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use super::turns::{small, Home, Start, Values};
use super::*;
use crate::analyses::held::{Held, Named, Wrappers};
use crate::analyses::semaphores::SemKey;
use crate::analyses::singletons::may_call_a_writer;
use crate::ir::visit::{walk_lval, walk_operand, walk_stmt, walk_term, Mentions, Visitor};
use crate::ir::{Cases, Comparison};
use crate::model::Kind;

/// A member path: `(struct, member)` steps.
type Path = Vec<(u32, u32)>;

/// What holds the lock object: a global struct, or a global pointer set once to a fresh one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Holder {
    Var(VarId),
    Pointer(VarId),
}

impl Holder {
    fn var(self) -> VarId {
        match self {
            Holder::Var(v) | Holder::Pointer(v) => v,
        }
    }

    /// The name of the object's mutex at `fields`, as any function names it.
    fn mutex(self, fields: Path) -> Named {
        let key = SemKey {
            var: self.var(),
            fields,
        };
        match self {
            Holder::Var(_) => Named::Var(key),
            Holder::Pointer(_) => Named::Pointee(key),
        }
    }
}

/// What a call tells a helper: the constants its parameters hold and the parts of the object
/// they point to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Ctx {
    consts: Vec<Option<i64>>,
    bound: Vec<Option<Path>>,
}

impl Ctx {
    fn root(func: &Func) -> Ctx {
        Ctx {
            consts: vec![None; func.params.len()],
            bound: vec![None; func.params.len()],
        }
    }

    fn is_root(&self) -> bool {
        self.bound.iter().all(Option::is_none)
    }
}

/// Whether a function is in a turn at a point, and of which values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum State {
    No,
    Yes(Values),
}

impl State {
    fn merge(&self, other: &State) -> State {
        match (self, other) {
            (State::Yes(a), State::Yes(b)) => State::Yes(a.union(b)),
            _ => State::No,
        }
    }
}

/// One walk of a function: its context, its state on entry, the mutexes its caller holds,
/// and whether it runs before `main` starts any thread.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct WalkKey {
    f: FuncId,
    ctx: Ctx,
    entry: State,
    held: BTreeSet<Named>,
    early: bool,
}

/// The argument failed for this variable.
struct Rejected;

/// A branch on the variable in one walk: each side a thread may start a turn on entering.
struct Test {
    block: BlockId,
    sides: Vec<(BlockId, Values)>,
}

/// The walks of one candidate variable `g.F`, and what they found.
struct Object<'a, 'p> {
    planner: &'a Planner<'p>,
    transparent: &'a FxHashMap<FuncId, Vec<bool>>,
    wrappers: &'a Wrappers,
    main: FuncId,
    holder: Holder,
    fields: Path,
    may_write: FxHashSet<FuncId>,
    done: FxHashMap<WalkKey, State>,
    on_stack: Vec<FuncId>,
    /// Fresh starts in roots: branches (`block` its side) and calls (`block` the call's).
    starts: Vec<Start>,
    start_calls: Vec<StmtAt>,
    stores: BTreeSet<StmtAt>,
    param_stores: BTreeSet<StmtAt>,
    /// The mutexes every start's test and every store held so far.
    mutexes: Option<BTreeSet<Named>>,
}

/// How deep helpers may call helpers handed the object.
const MAX_DEPTH: usize = 8;

impl Planner<'_> {
    /// Adds the turns of variables in global lock objects ([`JoinPlan::turns`]).
    pub(super) fn object_turns(&mut self, main: FuncId) {
        let p = self.p;
        if self.index.main_is_called(main) {
            return;
        }
        let transparent = transparent_params(p, self.index);
        let candidates = candidates(p, self.index, &transparent);
        if candidates.is_empty() {
            return;
        }
        let never = crate::analyses::never_returns::never_returning(p, self.index);
        let wrappers = Wrappers::of(p, self.index, never);
        let homes = self.homes(main);
        let roots_of = roots(p, candidates.iter().map(|(h, _)| h.var()).collect());
        let mut escapes: FxHashMap<Holder, Option<Vec<Path>>> = FxHashMap::default();
        let mut found = Vec::new();
        for (holder, fields) in candidates {
            let Some(roots) = roots_of.get(&holder.var()) else {
                continue;
            };
            let handed = escapes.entry(holder).or_insert_with(|| match holder {
                Holder::Var(g) => model_members(p, &transparent, g, roots),
                Holder::Pointer(g) => self.pointer_members(&transparent, g, main, roots),
            });
            let Some(handed) = handed.as_ref() else {
                continue;
            };
            if handed.iter().any(|q| overlaps(q, &fields)) {
                continue;
            }
            let writers = writer_roots(p, &transparent, roots, holder);
            let mut object = Object {
                planner: self,
                transparent: &transparent,
                wrappers: &wrappers,
                main,
                holder,
                fields,
                may_write: self.index.may_write(&writers),
                done: FxHashMap::default(),
                on_stack: Vec::new(),
                starts: Vec::new(),
                start_calls: Vec::new(),
                stores: BTreeSet::new(),
                param_stores: BTreeSet::new(),
                mutexes: None,
            };
            if let Some(turn) = object.turn(roots, &homes) {
                found.push(turn);
            }
        }
        self.plan.turns.extend(found);
    }
}

impl Planner<'_> {
    /// For a global pointer `g` holding a lock object: the members of its object handed to
    /// calls of the model that write only locks, when `g` is set once, by `main` before any
    /// thread, to a fresh object ([`makes_fresh`]), besides initializers storing null, and
    /// its value is used only as [`uses_stay`] says. `None` when it is not. Only the functions
    /// that name `g` (`naming`, in order) can set or use it: a walk of the whole program for
    /// each candidate grew as candidates × program (forks at 1M lines: 79 candidates).
    fn pointer_members(
        &self,
        transparent: &FxHashMap<FuncId, Vec<bool>>,
        g: VarId,
        main: FuncId,
        naming: &[FuncId],
    ) -> Option<Vec<Path>> {
        let p = self.p;
        let sets_g = |stmt: &crate::ir::Stmt| match &stmt.kind {
            StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                matches!(dst.base, Base::Var(v) if v == g)
            }
            _ => false,
        };
        let mut handed = Vec::new();
        let mut sets = 0;
        for &f in naming {
            let func = &p.funcs[f];
            if !uses_stay(p, func, g, transparent, &sets_g, &mut handed) {
                return None;
            }
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate().filter(|(_, s)| sets_g(s)) {
                    let null = matches!(&stmt.kind, StmtKind::Assign { dst, src }
                        if func.origin == Origin::GlobalInit
                            && dst.proj.is_empty()
                            && src.constant() == Some(0));
                    if null {
                        continue;
                    }
                    // `G = t` of a temporary `t = new_bolt(…)`, or `G = new_bolt(…)`.
                    let fresh = f == main
                        && match &stmt.kind {
                            StmtKind::Assign { dst, src } => {
                                dst.proj.is_empty() && self.made_fresh(func, src)
                            }
                            StmtKind::Call {
                                dst: Some(dst),
                                callee: Callee::Direct(h),
                                args,
                            } => {
                                dst.proj.is_empty()
                                    && !args.iter().any(|a| mentions(a, g))
                                    && makes_fresh(p, *h, 0)
                            }
                            _ => false,
                        };
                    let quiet_before = |s: &crate::ir::Stmt| quiet_kind(p, &s.kind);
                    if !fresh || !self.before_any_thread_with(main, b, k, &quiet_before) {
                        return None;
                    }
                    sets += 1;
                }
            }
        }
        (sets == 1).then_some(handed)
    }
}

impl Planner<'_> {
    /// Whether `src`, in `main`, reads a temporary that holds what one call of a function
    /// making a fresh object returned ([`makes_fresh`]), and that nothing else reads.
    fn made_fresh(&self, main: &Func, src: &Operand) -> bool {
        let p = self.p;
        let Operand::Use(lv) = src.without_casts() else {
            return false;
        };
        let Some(t) = lv
            .plain_var()
            .filter(|&t| matches!(p.vars[t].kind, VarKind::Temp(_)))
        else {
            return false;
        };
        let mut made = 0;
        let mut read = 0;
        for stmt in main.blocks.iter().flat_map(|b| &b.stmts) {
            match &stmt.kind {
                StmtKind::Call {
                    dst: Some(dst),
                    callee: Callee::Direct(h),
                    args,
                } if dst.plain_var() == Some(t) => {
                    if !makes_fresh(p, *h, 0) || args.iter().any(|a| mentions(a, t)) {
                        return false;
                    }
                    made += 1;
                }
                StmtKind::Assign { dst, .. } if dst.plain_var() == Some(t) => return false,
                kind => {
                    let mut names = Mentions::of(t);
                    walk_stmt(&mut names, kind);
                    read += names.count;
                }
            }
        }
        for block in &main.blocks {
            let mut names = Mentions::of(t);
            walk_term(&mut names, &block.term);
            read += names.count;
        }
        made == 1 && read == 1
    }
}

/// Whether a statement calls only functions that start no thread and run no code it does not
/// show ([`quiet`]) or that make a fresh object ([`makes_fresh`]).
fn quiet_kind(p: &Program, kind: &StmtKind) -> bool {
    harmless(p, kind)
        || matches!(kind, StmtKind::Call {
                callee: Callee::Direct(g),
                args,
                ..
            } if (quiet(p, *g, 0) || makes_fresh(p, *g, 0))
                && !args.iter().any(|a| matches!(a.without_casts(), Operand::Func(_))))
}

impl Object<'_, '_> {
    /// The turns of `g.F`, when the argument holds.
    fn turn(&mut self, roots: &[FuncId], homes: &[Home]) -> Option<Turn> {
        let p = self.planner.p;
        for &f in roots {
            let key = WalkKey {
                f,
                ctx: Ctx::root(&p.funcs[f]),
                entry: State::No,
                held: BTreeSet::new(),
                early: false,
            };
            self.walk(key).ok()?;
        }
        if self.starts.is_empty() || self.mutexes.as_ref().is_none_or(BTreeSet::is_empty) {
            return None;
        }
        let main = self.main;
        let observer = |s: &Start| {
            !self.may_write.contains(&s.f)
                && (s.f == main || self.planner.index.call_count(s.f) == 0)
        };
        let mut fresh: Vec<&Start> = self.starts.iter().collect();
        if !self.planner.apart(main, homes, &fresh) {
            fresh.retain(|s| !observer(s));
            if !self.planner.apart(main, homes, &fresh) {
                return None;
            }
        }
        let kept: FxHashSet<(FuncId, BlockId)> = fresh.iter().map(|s| (s.f, s.block)).collect();
        let mut starts: Vec<(FuncId, BlockId)> = (self.starts.iter())
            .filter(|s| s.test != s.block && kept.contains(&(s.f, s.block)))
            .map(|s| (s.f, s.block))
            .collect();
        starts.sort();
        starts.dedup();
        let mut start_calls: Vec<StmtAt> = (self.start_calls.iter())
            .filter(|&&(f, b, _)| kept.contains(&(f, b)))
            .copied()
            .collect();
        start_calls.sort();
        start_calls.dedup();
        let proj = (self.fields.iter())
            .map(|&(s, index)| Proj::Field {
                strukt: crate::ir::ctypes::StructId(s),
                index,
            })
            .collect();
        Some(Turn {
            var: Lval {
                base: match self.holder {
                    Holder::Var(g) => Base::Var(g),
                    Holder::Pointer(g) => Base::Deref(Box::new(Operand::Use(Lval {
                        base: Base::Var(g),
                        proj: Vec::new(),
                        pos: p.funcs[main].pos,
                    }))),
                },
                proj,
                pos: p.funcs[main].pos,
            },
            starts,
            stores: self.stores.iter().copied().collect(),
            start_calls,
            param_stores: self.param_stores.iter().copied().collect(),
        })
    }

    /// Walks `key.f` in its context; its state where it returns.
    fn walk(&mut self, key: WalkKey) -> Result<State, Rejected> {
        if let Some(s) = self.done.get(&key) {
            return Ok(s.clone());
        }
        if self.on_stack.contains(&key.f) || self.on_stack.len() > MAX_DEPTH {
            return Err(Rejected);
        }
        self.on_stack.push(key.f);
        let out = self.walk_body(&key);
        self.on_stack.pop();
        let out = out?;
        self.done.insert(key, out.clone());
        Ok(out)
    }

    fn walk_body(&mut self, key: &WalkKey) -> Result<State, Rejected> {
        let p = self.planner.p;
        let f = key.f;
        let func = &p.funcs[f];
        if func.blocks.is_empty() {
            return Err(Rejected);
        }
        let succs = self.decided_successors(f, &key.ctx);
        // Predecessors among the blocks the context reaches.
        let mut reached = vec![false; func.blocks.len()];
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            if !std::mem::replace(&mut reached[b], true) {
                stack.extend(succs[b].iter().map(|&t| t as usize));
            }
        }
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); func.blocks.len()];
        for (b, s) in succs.iter().enumerate().filter(|(b, _)| reached[*b]) {
            for &t in s {
                preds[t as usize].push(b as u32);
            }
        }
        let held = Held::entered_holding(p, func, self.wrappers, key.held.clone());
        let tests = self.tests(f, &key.ctx, &succs, &preds);
        let side_of = |b: BlockId| {
            tests.iter().find_map(|t| {
                (t.sides.iter())
                    .find(|(s, _)| *s == b)
                    .map(|(_, v)| (t.block, v.clone()))
            })
        };
        // The walk: calls handing the object on are walked in their context.
        let mut failed = false;
        let entry = solver::dataflow::forward(
            self,
            func.blocks.len(),
            |b| &succs[b],
            key.entry.clone(),
            |this, b, state| {
                let block = BlockId(b as u32);
                let mut state = match (side_of(block), state) {
                    (Some((_, values)), State::No) => State::Yes(values),
                    (_, state) => state,
                };
                for (k, stmt) in func.blocks[block].stmts.iter().enumerate() {
                    match this.step(key, &held, (block, k), stmt, state) {
                        Ok(s) => state = s,
                        Err(Rejected) => {
                            failed = true;
                            return None;
                        }
                    }
                }
                Some(state)
            },
            |_, into: &mut State, incoming: &State| {
                let merged = into.merge(incoming);
                let changed = merged != *into;
                *into = merged;
                changed
            },
        );
        if failed {
            return Err(Rejected);
        }
        // What the walk found: fresh starts, stores and the mutexes they hold.
        let mut exit: Option<State> = None;
        for (b, block) in func.blocks.iter_enumerated() {
            let Some(input) = entry[b.0 as usize].clone() else {
                continue;
            };
            let mut state = input.clone();
            if let Some((test, values)) = side_of(b) {
                if input == State::No {
                    let at_test = self.held_at(key, &held, test, func.blocks[test].stmts.len());
                    self.hold(&at_test);
                    if key.ctx.is_root() {
                        self.starts.push(Start {
                            f,
                            test,
                            block: b,
                            values: super::turns::Shape::Known(values.clone()),
                            held: BTreeSet::new(),
                        });
                    }
                    state = State::Yes(values);
                }
            }
            for (k, stmt) in block.stmts.iter().enumerate() {
                state = self.record(key, &held, (b, k), stmt, state)?;
            }
            if matches!(block.term, Term::Return(..)) {
                exit = Some(exit.map_or(state.clone(), |e| e.merge(&state)));
            }
        }
        Ok(exit.unwrap_or(State::No))
    }

    /// The state after statement `at` of `key.f`, as the fixpoint computes it.
    fn step(
        &mut self,
        key: &WalkKey,
        held: &Held,
        at: (BlockId, usize),
        stmt: &crate::ir::Stmt,
        state: State,
    ) -> Result<State, Rejected> {
        if let Some(callee) = self.handed(key, stmt)? {
            let held_in = self.held_at(key, held, at.0, at.1);
            let early = self.early(key, at);
            return self.walk(WalkKey {
                f: callee.0,
                ctx: callee.1,
                entry: state,
                held: held_in,
                early,
            });
        }
        if self.names_write(key, stmt)?.is_some() {
            return Ok(State::No);
        }
        if may_call_a_writer(&stmt.kind, &self.may_write) {
            return Ok(State::No);
        }
        Ok(state)
    }

    /// [`Object::step`] once the fixpoint is reached, checking and recording each store and
    /// each fresh start by a call.
    fn record(
        &mut self,
        key: &WalkKey,
        held: &Held,
        at: (BlockId, usize),
        stmt: &crate::ir::Stmt,
        state: State,
    ) -> Result<State, Rejected> {
        let p = self.planner.p;
        let f = key.f;
        let after = self.step(key, held, at, stmt, state.clone())?;
        if self.handed(key, stmt)?.is_some() {
            if state == State::No && matches!(after, State::Yes(_)) && key.ctx.is_root() {
                self.start_calls.push((f, at.0, at.1));
                let State::Yes(values) = after.clone() else {
                    unreachable!("matched above")
                };
                self.starts.push(Start {
                    f,
                    test: at.0,
                    block: at.0,
                    values: super::turns::Shape::Known(values),
                    held: BTreeSet::new(),
                });
            }
            return Ok(after);
        }
        let Some((whole, through_param)) = self.names_write(key, stmt)? else {
            return Ok(after);
        };
        if !whole {
            return Err(Rejected);
        }
        let func = &p.funcs[f];
        let site = (f, at.0, at.1);
        let before_threads = (key.early && quiet(p, f, 0))
            || func.origin == Origin::GlobalInit
            || (f == self.main && self.planner.before_any_thread(self.main, at.0, at.1));
        if !before_threads {
            if state == State::No {
                return Err(Rejected);
            }
            let here = self.held_at(key, held, at.0, at.1);
            self.hold(&here);
        }
        if through_param {
            self.param_stores.insert(site);
        } else {
            self.stores.insert(site);
        }
        Ok(after)
    }

    /// Intersects the mutexes every start and store holds with `held`.
    fn hold(&mut self, held: &BTreeSet<Named>) {
        match &mut self.mutexes {
            Some(m) => m.retain(|k| held.contains(k)),
            None => self.mutexes = Some(held.clone()),
        }
    }

    /// Whether a walk entered at `at` of `key.f` runs before any thread: entered from `main`
    /// before any call that may start one, through helpers that start none
    /// ([`quiet`]).
    fn early(&self, key: &WalkKey, at: (BlockId, usize)) -> bool {
        if key.ctx.is_root() {
            key.f == self.main && self.planner.before_any_thread(self.main, at.0, at.1)
        } else {
            key.early && quiet(self.planner.p, key.f, 0)
        }
    }

    /// The mutexes held before statement `k` of block `b`, as the caller names them.
    fn held_at(&self, key: &WalkKey, held: &Held, b: BlockId, k: usize) -> BTreeSet<Named> {
        let p = self.planner.p;
        let func = &p.funcs[key.f];
        let Some(named) = held.named_before(p, func, b, k, Some(self.wrappers)) else {
            return BTreeSet::new();
        };
        (named.into_iter())
            .filter_map(|n| match n {
                Named::Param(i, fields) => {
                    let base = key.ctx.bound.get(i as usize)?.as_ref()?;
                    let mut all = base.clone();
                    all.extend(fields);
                    Some(self.holder.mutex(all))
                }
                global => Some(global),
            })
            .collect()
    }

    /// The callee and its context, when the statement hands the object to a helper.
    /// Rejected when it hands it to the model with the variable's own member.
    fn handed(
        &self,
        key: &WalkKey,
        stmt: &crate::ir::Stmt,
    ) -> Result<Option<(FuncId, Ctx)>, Rejected> {
        let p = self.planner.p;
        let StmtKind::Call {
            callee: Callee::Direct(h),
            args,
            ..
        } = &stmt.kind
        else {
            return Ok(None);
        };
        let paths: Vec<Option<Path>> = args.iter().map(|a| self.points_to(key, a)).collect();
        if paths.iter().all(Option::is_none) {
            return Ok(None);
        }
        let Some(flags) = self.transparent.get(h) else {
            // A call of the model: the lock it takes must not hold the variable.
            for path in paths.iter().flatten() {
                if overlaps(path, &self.fields) {
                    return Err(Rejected);
                }
            }
            return Ok(None);
        };
        let callee = &p.funcs[*h];
        let mut ctx = Ctx::root(callee);
        for (j, a) in args.iter().enumerate().take(callee.params.len()) {
            if paths[j].is_some() && !flags[j] {
                return Err(Rejected);
            }
            ctx.bound[j] = paths[j].clone();
            ctx.consts[j] = self.constant(key, a);
        }
        Ok(Some((*h, ctx)))
    }

    /// The part of the object an operand points to: `&g.Q`, or a bound parameter `b` or
    /// `&b->P`.
    fn points_to(&self, key: &WalkKey, op: &Operand) -> Option<Path> {
        match op.without_casts() {
            Operand::AddrOf(lv) => match &lv.base {
                Base::Var(v) if self.holder == Holder::Var(*v) => fields_of(&lv.proj),
                Base::Deref(ptr) => {
                    let mut base = self.object_at(key, ptr)?;
                    base.extend(fields_of(&lv.proj)?);
                    Some(base)
                }
                Base::Var(_) => None,
            },
            op @ Operand::Use(_) => self.object_at(key, op),
            _ => None,
        }
    }

    /// The part of the object a pointer operand holds: the holding pointer's value, or a
    /// bound parameter's.
    fn object_at(&self, key: &WalkKey, op: &Operand) -> Option<Path> {
        match (self.holder, op.without_casts()) {
            (Holder::Pointer(g), Operand::Use(lv)) if lv.plain_var() == Some(g) => Some(Vec::new()),
            _ => self.bound_param(key, op),
        }
    }

    /// The part of the object a parameter of `key.f` that the operand reads is bound to.
    fn bound_param(&self, key: &WalkKey, op: &Operand) -> Option<Path> {
        // A root's parameters are bound to nothing: no need to look for writes of them.
        if key.ctx.is_root() {
            return None;
        }
        let i = self.param_index(key.f, op)?;
        key.ctx.bound.get(i)?.clone()
    }

    fn param_index(&self, f: FuncId, op: &Operand) -> Option<usize> {
        let Operand::Use(lv) = op.without_casts() else {
            return None;
        };
        let v = lv.plain_var()?;
        crate::analyses::lock_elements::unchanged_param(self.planner.p, f, v).map(|i| i as usize)
    }

    /// A small constant an operand holds in the walk's context.
    fn constant(&self, key: &WalkKey, op: &Operand) -> Option<i64> {
        let k = match op.constant() {
            Some(k) => Some(k),
            None if key.ctx.consts.iter().all(Option::is_none) => None,
            None => key
                .ctx
                .consts
                .get(self.param_index(key.f, op)?)
                .copied()
                .flatten(),
        };
        k.filter(|k| small(*k))
    }

    /// Whether the statement writes the variable: a store of the whole of it (`true`: an
    /// assignment, whatever it stores, for a turn only asks who stores), or of part of it or
    /// of what holds it; and whether through a parameter. `None` when it does not write it.
    fn names_write(
        &self,
        key: &WalkKey,
        stmt: &crate::ir::Stmt,
    ) -> Result<Option<(bool, bool)>, Rejected> {
        let dst = match &stmt.kind {
            StmtKind::Assign { dst, .. } => dst,
            StmtKind::Call { dst: Some(dst), .. } => dst,
            StmtKind::Asm { operands } => {
                let hits = operands.iter().any(|lv| self.names(key, lv).is_some());
                return if hits { Err(Rejected) } else { Ok(None) };
            }
            _ => return Ok(None),
        };
        let Some(exact) = self.names(key, dst) else {
            return Ok(None);
        };
        let whole = exact && matches!(stmt.kind, StmtKind::Assign { .. });
        Ok(Some((whole, matches!(dst.base, Base::Deref(_)))))
    }

    /// Whether `lv` names the variable exactly (`Some(true)`), or an object overlapping it.
    fn names(&self, key: &WalkKey, lv: &Lval) -> Option<bool> {
        let mut path: Path = match &lv.base {
            Base::Var(v) if self.holder == Holder::Var(*v) => Vec::new(),
            Base::Var(_) => return None,
            Base::Deref(ptr) => self.object_at(key, ptr)?,
        };
        for proj in &lv.proj {
            match proj {
                Proj::Field { strukt, index } => path.push((strukt.0, *index)),
                _ => return overlaps(&path, &self.fields).then_some(false),
            }
        }
        let union_sibling = |p: &Program| {
            (path.iter().zip(&self.fields)).any(|(a, b)| {
                a.0 == b.0
                    && a.1 != b.1
                    && p.types.structs[crate::ir::ctypes::StructId(a.0)].kind
                        == crate::ir::ctypes::StructKind::Union
            })
        };
        if path == self.fields {
            Some(true)
        } else if overlaps(&path, &self.fields) || union_sibling(self.planner.p) {
            Some(false)
        } else {
            None
        }
    }

    /// Each block's successors in the walk's context: a branch on a parameter that holds a
    /// constant there goes one way.
    fn decided_successors(&self, f: FuncId, ctx: &Ctx) -> Vec<Vec<u32>> {
        let func = &self.planner.p.funcs[f];
        let key = WalkKey {
            f,
            ctx: ctx.clone(),
            entry: State::No,
            held: BTreeSet::new(),
            early: false,
        };
        (func.blocks.iter())
            .map(|block| {
                let decided = match &block.term {
                    Term::Multi(targets, Some(cases)) => self
                        .switch_target(&key, block, cases)
                        .and_then(|i| targets.get(i).copied()),
                    term => term.two_ways().and_then(|t| {
                        let taken = self.decide(&key, t.cond, t.compare)?;
                        Some(if taken { t.then_block } else { t.else_block })
                    }),
                };
                match decided {
                    Some(b) => vec![b.0],
                    None => block.term.successors().iter().map(|b| b.0).collect(),
                }
            })
            .collect()
    }

    /// The target a `switch` on a parameter holding a constant in the walk's context takes
    /// (its scrutinee is the block's last statement), when every case label is a constant
    /// from -128 to 127, which no conversion to the scrutinee's type changes.
    fn switch_target(
        &self,
        key: &WalkKey,
        block: &crate::ir::Block,
        cases: &Cases,
    ) -> Option<usize> {
        let StmtKind::Eval(op) = &block.stmts.last()?.kind else {
            return None;
        };
        self.param_index(key.f, op)?;
        let k = self.constant(key, op)?;
        let labels_small =
            (cases.0.iter().flatten().flatten()).all(|&(lo, hi)| small(lo) && small(hi));
        labels_small.then(|| cases.target_of(k)).flatten()
    }

    /// The outcome of a branch on a parameter holding a constant in the walk's context.
    fn decide(&self, key: &WalkKey, cond: &Operand, compare: Option<Comparison>) -> Option<bool> {
        match (compare, cond) {
            (None, op @ Operand::Use(_)) => {
                self.param_index(key.f, op)?;
                Some(self.constant(key, op)? != 0)
            }
            (Some(op @ (Comparison::Eq | Comparison::Ne)), Operand::Arith(_, _, ops)) => {
                let [l, r] = ops.as_slice() else { return None };
                let (param, other) = if self.param_index(key.f, l).is_some() {
                    (l, r)
                } else {
                    (r, l)
                };
                self.param_index(key.f, param)?;
                let equal = self.constant(key, param)? == other.constant().filter(|k| small(*k))?;
                Some(equal == (op == Comparison::Eq))
            }
            _ => None,
        }
    }

    /// The branches on the variable in the walk's context, with the sides a thread may start
    /// a turn on entering: entered only from the branch (in the context), and not the waiting
    /// side of a wait loop.
    fn tests(&self, f: FuncId, ctx: &Ctx, succs: &[Vec<u32>], preds: &[Vec<u32>]) -> Vec<Test> {
        let func = &self.planner.p.funcs[f];
        let key = WalkKey {
            f,
            ctx: ctx.clone(),
            entry: State::No,
            held: BTreeSet::new(),
            early: false,
        };
        let mut out = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            let Some(t) = block.term.two_ways() else {
                continue;
            };
            if succs[b.0 as usize].len() != 2 {
                continue;
            }
            let Some((equal, unequal)) = self.test_values(&key, t.cond, t.compare) else {
                continue;
            };
            let sides = [(t.then_block, equal), (t.else_block, unequal)]
                .into_iter()
                .filter(|(side, _)| {
                    preds[side.0 as usize] == [b.0] && !self.waits_again(&key, succs, *side, b)
                })
                .collect();
            out.push(Test { block: b, sides });
        }
        out
    }

    /// The values of the variable on the then and else sides of a branch that tests it.
    fn test_values(
        &self,
        key: &WalkKey,
        cond: &Operand,
        compare: Option<Comparison>,
    ) -> Option<(Values, Values)> {
        let p = self.planner.p;
        let read = |op: &Operand| match op {
            Operand::Use(lv)
                if self.names(key, lv) == Some(true)
                    && matches!(p.types.get(p.lval_type(lv)), Type::Int | Type::Char) =>
            {
                Some(())
            }
            _ => None,
        };
        match (compare, cond) {
            (None, op) => {
                read(op)?;
                Some((Values::all_but(0), Values::one(0)))
            }
            (Some(c @ (Comparison::Eq | Comparison::Ne)), Operand::Arith(_, _, ops)) => {
                let [l, r] = ops.as_slice() else { return None };
                let other = if read(l).is_some() {
                    r
                } else {
                    read(r)?;
                    l
                };
                let k = self.constant(key, other)?;
                let (equal, unequal) = (Values::one(k), Values::all_but(k));
                Some(if c == Comparison::Eq {
                    (equal, unequal)
                } else {
                    (unequal, equal)
                })
            }
            _ => None,
        }
    }

    /// Whether every path from `side` comes back to the branch in `test` before any statement
    /// that may end a turn and before the function returns: a wait loop's waiting side.
    fn waits_again(&self, key: &WalkKey, succs: &[Vec<u32>], side: BlockId, test: BlockId) -> bool {
        let ends = |stmt: &crate::ir::Stmt| {
            !matches!(self.handed(key, stmt), Ok(None))
                || !matches!(self.names_write(key, stmt), Ok(None))
                || may_call_a_writer(&stmt.kind, &self.may_write)
        };
        super::turns::comes_back(
            &self.planner.p.funcs[key.f],
            &|b| succs[b.0 as usize].iter().map(|&t| BlockId(t)).collect(),
            (side, test),
            &ends,
            &|term| !matches!(term, Term::Goto(_) | Term::Branch { .. } | Term::Multi(..)),
        )
    }
}

/// The roots that may write the object: those that store through a name of it, or hand it
/// to a helper that stores through a parameter (or calls one that does). The others only
/// read it (an observer's waits).
fn writer_roots(
    p: &Program,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
    roots: &[FuncId],
    holder: Holder,
) -> FxHashSet<FuncId> {
    let writes_through = |kind: &StmtKind, deref: &dyn Fn(&Lval) -> bool| match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => deref(dst),
        StmtKind::Asm { .. } => true,
        _ => false,
    };
    // A call that may store through what it is handed: of a storing helper, of a function
    // that is neither a helper nor a library function that runs no code of the program's,
    // or through a pointer.
    let may_store = |stmt: &crate::ir::Stmt, storing: &FxHashSet<FuncId>| match &stmt.kind {
        StmtKind::Call { callee, .. } => !matches!(callee, Callee::Direct(c)
            if !storing.contains(c) && (transparent.contains_key(c) || harmless(p, &stmt.kind))),
        _ => false,
    };
    // Helpers that store through a pointer they were handed, directly or through helpers.
    let mut storing: FxHashSet<FuncId> = FxHashSet::default();
    loop {
        let before = storing.len();
        let mut helpers: Vec<FuncId> = transparent.keys().copied().collect();
        helpers.sort();
        for h in helpers {
            let stores = (p.funcs[h].blocks.iter().flat_map(|b| &b.stmts)).any(|stmt| {
                writes_through(&stmt.kind, &|lv| matches!(lv.base, Base::Deref(_)))
                    || may_store(stmt, &storing)
            });
            if stores {
                storing.insert(h);
            }
        }
        if storing.len() == before {
            break;
        }
    }
    let names_object = |lv: &Lval| match (&lv.base, holder) {
        (Base::Var(v), Holder::Var(g)) => *v == g,
        (Base::Deref(op), Holder::Pointer(g)) => mentions(op, g),
        _ => false,
    };
    (roots.iter().copied())
        .filter(|&f| {
            (p.funcs[f].blocks.iter().flat_map(|b| &b.stmts)).any(|stmt| {
                writes_through(&stmt.kind, &names_object)
                    || (matches!(&stmt.kind, StmtKind::Call { args, .. }
                        if args.iter().any(|a| mentions(a, holder.var())))
                        && may_store(stmt, &storing))
            })
        })
        .collect()
}

/// Whether a type is a pointer (not an array, whose name is its own storage).
fn is_pointer(p: &Program, t: crate::ir::ctypes::TypeId) -> bool {
    matches!(p.types.get(t), Type::Pointer(_))
}

/// Whether two member paths overlap: one is a prefix of the other.
fn overlaps(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// A projection list of members only, as a path.
fn fields_of(proj: &[Proj]) -> Option<Path> {
    (proj.iter())
        .map(|pr| match pr {
            Proj::Field { strukt, index } => Some((strukt.0, *index)),
            _ => None,
        })
        .collect()
}

/// Whether a statement may run no code of the program's nor start a thread: it calls only
/// functions of the library that start none, handing none a function.
pub(super) fn harmless(p: &Program, kind: &StmtKind) -> bool {
    match kind {
        StmtKind::Call {
            callee: Callee::Direct(g),
            args,
            ..
        } => {
            let func = &p.funcs[*g];
            (func.blocks.is_empty() || func.origin != Origin::User)
                && p.known_kind(*g)
                    .is_some_and(|kind| !kind.may_start_thread() && kind != Kind::Stub)
                && !args
                    .iter()
                    .any(|a| matches!(a.without_casts(), Operand::Func(_)))
        }
        StmtKind::Call { .. } | StmtKind::Asm { .. } => false,
        _ => true,
    }
}

/// Whether `f` starts no thread and runs no code it does not show: it calls only functions
/// of the library that start none, and functions of the user's that are quiet too.
fn quiet(p: &Program, f: FuncId, depth: usize) -> bool {
    let func = &p.funcs[f];
    // A function without a body of the user's (the library's, or one not lowered) may do
    // anything.
    let shown = func.defined && func.origin == Origin::User && !func.blocks.is_empty();
    shown
        && depth <= MAX_DEPTH
        && (func.blocks.iter().flat_map(|b| &b.stmts)).all(|stmt| match &stmt.kind {
            StmtKind::Call {
                callee: Callee::Direct(g),
                ..
            } if p.funcs[*g].defined && p.funcs[*g].origin == Origin::User => {
                quiet(p, *g, depth + 1)
            }
            kind => harmless(p, kind),
        })
}

/// Whether a call of the model with a pointer into an object writes at most the lock it is
/// handed: it takes, lets go of, waits on, initialises a lock or condition, or has no effect.
fn writes_only_locks(p: &Program, g: FuncId) -> bool {
    matches!(
        p.known_kind(g),
        Some(
            Kind::Acquire { .. }
                | Kind::Release { .. }
                | Kind::TryAcquire { .. }
                | Kind::Wait { .. }
                | Kind::LockInit { .. }
                | Kind::NoEffect
        )
    )
}

/// The transparent parameters of each helper (see the module doc): a defined function of the
/// user's whose address is never taken. A greatest fixpoint, as helpers hand their parameters
/// on to each other.
fn transparent_params(p: &Program, index: &Calls) -> FxHashMap<FuncId, Vec<bool>> {
    let mut out: FxHashMap<FuncId, Vec<bool>> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !func.defined
            || func.origin != Origin::User
            || func.blocks.is_empty()
            || index.addressed().binary_search(&f).is_ok()
        {
            continue;
        }
        let flags: Vec<bool> = (func.params.iter())
            .map(|&v| {
                is_pointer(p, p.vars[v].ty)
                    && crate::analyses::lock_elements::unchanged_param(p, f, v).is_some()
            })
            .collect();
        if flags.iter().any(|&t| t) {
            out.insert(f, flags);
        }
    }
    loop {
        let mut changed = false;
        let fs: Vec<FuncId> = {
            let mut v: Vec<FuncId> = out.keys().copied().collect();
            v.sort();
            v
        };
        for f in fs {
            let func = &p.funcs[f];
            for (i, &v) in func.params.iter().enumerate() {
                if out[&f][i] && !param_stays(p, func, v, &out) {
                    out.get_mut(&f).expect("a helper")[i] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Whether an argument hands on a pointer into what `b` points to: `b` itself, or `&b->P`.
fn hands_on(a: &Operand, b: VarId) -> bool {
    match a.without_casts() {
        Operand::Use(lv) => lv.plain_var() == Some(b),
        Operand::AddrOf(lv) => derefs(lv, b) && fields_of(&lv.proj).is_some_and(|f| !f.is_empty()),
        _ => false,
    }
}

/// Whether an lvalue is `(*b).P…`.
fn derefs(lv: &Lval, b: VarId) -> bool {
    matches!(&lv.base, Base::Deref(op) if matches!(op.without_casts(), Operand::Use(x) if x.plain_var() == Some(b)))
}

/// Whether a call hands argument `j` to a position that keeps it transparent: a transparent
/// parameter of a helper, or a call of the model that writes only locks.
fn passes_on(
    p: &Program,
    callee: FuncId,
    j: usize,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
) -> bool {
    match transparent.get(&callee) {
        Some(flags) => flags.get(j).copied().unwrap_or(false),
        None => {
            let func = &p.funcs[callee];
            (func.blocks.is_empty() || func.origin != Origin::User) && writes_only_locks(p, callee)
        }
    }
}

/// Whether pointer parameter `b` of `func` is used only as the module doc says.
fn param_stays(
    p: &Program,
    func: &Func,
    b: VarId,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
) -> bool {
    uses_stay(p, func, b, transparent, &|_| false, &mut Vec::new())
}

/// Whether pointer variable `b` is used in `func` only to name members of what it points to,
/// to hand a member's address to a call of the model that writes only locks (each such
/// member is added to `handed`), or to hand itself or a member's address on to a transparent
/// parameter; statements `skip` says are not looked at.
fn uses_stay(
    p: &Program,
    func: &Func,
    b: VarId,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
    skip: &dyn Fn(&crate::ir::Stmt) -> bool,
    handed: &mut Vec<Path>,
) -> bool {
    struct Uses {
        b: VarId,
        bad: bool,
    }
    impl Visitor for Uses {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::AddrOf(lv) = op {
                if derefs(lv, self.b) {
                    self.bad = true;
                    return;
                }
            }
            walk_operand(self, op);
        }
        fn visit_lval(&mut self, lv: &Lval) {
            if derefs(lv, self.b) && fields_of(&lv.proj).is_some_and(|f| !f.is_empty()) {
                return;
            }
            walk_lval(self, lv);
        }
        fn visit_var(&mut self, v: VarId) {
            self.bad |= v == self.b;
        }
    }
    let mut uses = Uses { b, bad: false };
    for block in &func.blocks {
        for stmt in block.stmts.iter().filter(|s| !skip(s)) {
            match &stmt.kind {
                StmtKind::Call {
                    dst,
                    callee: Callee::Direct(h),
                    args,
                } => {
                    if let Some(d) = dst {
                        uses.visit_lval(d);
                    }
                    for (j, a) in args.iter().enumerate() {
                        if !(hands_on(a, b) && passes_on(p, *h, j, transparent)) {
                            uses.visit_operand(a);
                        } else if !transparent.contains_key(h) {
                            handed.push(match a.without_casts() {
                                Operand::AddrOf(lv) => fields_of(&lv.proj).unwrap_or_default(),
                                _ => Vec::new(),
                            });
                        }
                    }
                }
                kind => walk_stmt(&mut uses, kind),
            }
        }
        if !tests_only(&block.term, b) {
            walk_term(&mut uses, &block.term);
        }
    }
    !uses.bad
}

/// Whether a terminator is a branch on pointer `b` alone (`if (b)`, `b == NULL`), which
/// reads its value and keeps nothing.
fn tests_only(term: &Term, b: VarId) -> bool {
    let is_b =
        |op: &Operand| matches!(op.without_casts(), Operand::Use(lv) if lv.plain_var() == Some(b));
    match term.two_ways().map(|t| t.cond) {
        Some(Operand::Arith(_, _, ops)) => {
            ops.iter().any(&is_b) && ops.iter().all(|o| is_b(o) || o.constant().is_some())
        }
        Some(cond) => is_b(cond),
        None => false,
    }
}

/// Whether a call of `h` returns an object nothing else holds, that no thread has seen: `h`
/// is an allocator of the library, an allocation wrapper, or a *constructor*: a function of
/// the user's that starts no thread and returns a local holding what such a call made, which
/// it uses only to name members of the object, hand a member to a lock or condition call of
/// the model, copy to another such local, or test.
fn makes_fresh(p: &Program, h: FuncId, depth: usize) -> bool {
    let func = &p.funcs[h];
    if matches!(p.known_kind(h), Some(Kind::Alloc)) {
        return true;
    }
    if (p.alloc_wrappers.iter()).any(|w| w.func == h && w.old.is_none()) {
        return true;
    }
    if depth > MAX_DEPTH || !func.defined || func.origin != Origin::User || func.blocks.is_empty() {
        return false;
    }
    // The locals that hold a fresh object: a greatest fixpoint.
    let mut fresh: FxHashSet<VarId> = (func.locals.iter())
        .copied()
        .filter(|&v| !p.vars[v].address_taken && is_pointer(p, p.vars[v].ty))
        .collect();
    let stmts = || func.blocks.iter().flat_map(|b| &b.stmts);
    loop {
        let before = fresh.len();
        let copy_of_fresh = |op: &Operand, fresh: &FxHashSet<VarId>| match op.without_casts() {
            Operand::Use(lv) => lv.plain_var().is_some_and(|v| fresh.contains(&v)),
            op => op.constant() == Some(0),
        };
        let assigned_well = |v: VarId, fresh: &FxHashSet<VarId>| {
            let assigned = stmts().any(|stmt| match &stmt.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                    dst.plain_var() == Some(v)
                }
                _ => false,
            });
            assigned
                && stmts().all(|stmt| match &stmt.kind {
                    StmtKind::Assign { dst, src } if dst.plain_var() == Some(v) => {
                        copy_of_fresh(src, fresh)
                    }
                    StmtKind::Call {
                        dst: Some(dst),
                        callee,
                        ..
                    } if dst.plain_var() == Some(v) => {
                        matches!(callee, Callee::Direct(c) if makes_fresh(p, *c, depth + 1))
                    }
                    StmtKind::Asm { operands } => {
                        operands.iter().all(|lv| lv.plain_var() != Some(v))
                    }
                    _ => true,
                })
        };
        let kept: Vec<VarId> = (fresh.iter().copied())
            .filter(|&v| assigned_well(v, &fresh) && local_stays(p, func, v, &fresh))
            .collect();
        fresh = kept.into_iter().collect();
        if fresh.len() == before {
            break;
        }
    }
    let mut returns_one = false;
    for block in &func.blocks {
        if let Term::Return(op, _) = &block.term {
            match op.as_ref().map(Operand::without_casts) {
                Some(Operand::Use(lv)) if lv.plain_var().is_some_and(|v| fresh.contains(&v)) => {
                    returns_one = true;
                }
                Some(op) if op.constant() == Some(0) => {}
                _ => return false,
            }
        }
    }
    returns_one
        && stmts().all(|stmt| match &stmt.kind {
            StmtKind::Call {
                callee: Callee::Direct(c),
                ..
            } if makes_fresh(p, *c, depth + 1) => true,
            kind => harmless(p, kind),
        })
}

/// Whether local `v` of a constructor is used only as [`makes_fresh`] allows, `fresh` being
/// the locals it may be copied to.
fn local_stays(p: &Program, func: &Func, v: VarId, fresh: &FxHashSet<VarId>) -> bool {
    let reads_v =
        |op: &Operand| matches!(op.without_casts(), Operand::Use(lv) if lv.plain_var() == Some(v));
    // Copies to fresh locals, returns and tests read `v` itself, harmlessly.
    let skip = |stmt: &crate::ir::Stmt| match &stmt.kind {
        StmtKind::Assign { dst, src } => {
            dst.plain_var() == Some(v)
                || (reads_v(src) && dst.plain_var().is_some_and(|d| fresh.contains(&d)))
        }
        StmtKind::Call { dst: Some(dst), .. } => dst.plain_var() == Some(v),
        _ => false,
    };
    let no_helpers = FxHashMap::default();
    let mut handed = Vec::new();
    if !uses_stay(p, &terms_aside(func), v, &no_helpers, &skip, &mut handed) {
        return false;
    }
    (func.blocks.iter()).all(|block| match &block.term {
        Term::Return(Some(op), _) => reads_v(op) || !mentions(op, v),
        term => match term.two_ways() {
            Some(t) => match t.cond {
                Operand::Arith(_, _, ops) => ops
                    .iter()
                    .all(|o| reads_v(o) || o.constant().is_some() || !mentions(o, v)),
                cond => reads_v(cond) || !mentions(cond, v),
            },
            None => true,
        },
    })
}

/// A copy of `func` whose terminators read nothing (its returns and branches are looked at
/// apart).
fn terms_aside(func: &Func) -> Func {
    let mut copy = func.clone();
    for block in copy.blocks.iter_mut() {
        block.term = match &block.term {
            Term::Return(_, pos) => Term::Return(None, *pos),
            Term::Branch { then_block, .. } => Term::Goto(*then_block),
            other => other.clone(),
        };
    }
    copy
}

/// Whether an operand reads or names variable `v` anywhere.
fn mentions(op: &Operand, v: VarId) -> bool {
    let mut names = Mentions::of(v);
    names.visit_operand(op);
    names.count > 0
}

/// The members of `g` whose address the program hands to calls of the model that write only
/// locks; `None` when it takes `g`'s address anywhere else than there or as an argument of a
/// transparent parameter. Only the functions that name `g` (`naming`) can do either.
fn model_members(
    p: &Program,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
    g: VarId,
    naming: &[FuncId],
) -> Option<Vec<Path>> {
    struct Addrs {
        g: VarId,
        bad: bool,
    }
    impl Visitor for Addrs {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::AddrOf(lv) = op {
                if matches!(lv.base, Base::Var(v) if v == self.g) {
                    self.bad = true;
                    return;
                }
            }
            walk_operand(self, op);
        }
    }
    let mut addrs = Addrs { g, bad: false };
    let mut handed = Vec::new();
    for block in naming.iter().flat_map(|&f| &p.funcs[f].blocks) {
        for stmt in &block.stmts {
            let StmtKind::Call {
                dst,
                callee: Callee::Direct(h),
                args,
            } = &stmt.kind
            else {
                walk_stmt(&mut addrs, &stmt.kind);
                continue;
            };
            if let Some(d) = dst {
                addrs.visit_lval(d);
            }
            for (j, a) in args.iter().enumerate() {
                let member = match a.without_casts() {
                    Operand::AddrOf(lv) if matches!(lv.base, Base::Var(v) if v == g) => {
                        fields_of(&lv.proj).filter(|_| passes_on(p, *h, j, transparent))
                    }
                    _ => None,
                };
                match member {
                    Some(q) if !transparent.contains_key(h) => handed.push(q),
                    Some(_) => {}
                    None => addrs.visit_operand(a),
                }
            }
        }
        walk_term(&mut addrs, &block.term);
    }
    (!addrs.bad).then_some(handed)
}

/// The functions that name each of `objects`: the roots of their walks.
fn roots(p: &Program, objects: FxHashSet<VarId>) -> FxHashMap<VarId, Vec<FuncId>> {
    struct Names<'a> {
        objects: &'a FxHashSet<VarId>,
        hits: BTreeSet<VarId>,
    }
    impl Visitor for Names<'_> {
        fn visit_var(&mut self, v: VarId) {
            if self.objects.contains(&v) {
                self.hits.insert(v);
            }
        }
    }
    let mut out: FxHashMap<VarId, Vec<FuncId>> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        let mut names = Names {
            objects: &objects,
            hits: BTreeSet::new(),
        };
        for block in &func.blocks {
            for stmt in &block.stmts {
                walk_stmt(&mut names, &stmt.kind);
            }
            walk_term(&mut names, &block.term);
        }
        for g in names.hits {
            out.entry(g).or_default().push(f);
        }
    }
    out
}

/// The candidate variables `g.F`: a global struct whose address is taken, and a member path
/// that some branch reads, directly or through a transparent parameter a call hands `&g.Q`.
fn candidates(
    p: &Program,
    index: &Calls,
    transparent: &FxHashMap<FuncId, Vec<bool>>,
) -> BTreeSet<(Holder, Path)> {
    let global = |v: VarId| {
        matches!(
            p.vars[v].kind,
            VarKind::Global {
                thread_local: false,
                ..
            }
        )
    };
    let object = |v: VarId| p.vars[v].address_taken && global(v);
    // A global pointer whose value a branch or a call reads: the holder of a lock object.
    let pointer = |op: &Operand| match op.without_casts() {
        Operand::Use(x) => x
            .plain_var()
            .filter(|&v| global(v) && !p.vars[v].address_taken && is_pointer(p, p.vars[v].ty)),
        _ => None,
    };
    // The member paths a helper's branches read through each transparent parameter, and
    // those its helpers read through what it hands them.
    let mut tested: FxHashMap<(FuncId, usize), BTreeSet<Path>> = FxHashMap::default();
    let mut out = BTreeSet::new();
    for (f, func) in p.funcs.iter_enumerated() {
        for block in &func.blocks {
            for lv in branch_reads(&block.term) {
                let Some(fields) = fields_of(&lv.proj).filter(|f| !f.is_empty()) else {
                    continue;
                };
                match &lv.base {
                    Base::Var(v) if object(*v) => {
                        out.insert((Holder::Var(*v), fields));
                    }
                    Base::Deref(ptr) if pointer(ptr).is_some() => {
                        out.insert((Holder::Pointer(pointer(ptr).expect("matched")), fields));
                    }
                    Base::Deref(ptr) => {
                        let Operand::Use(x) = ptr.without_casts() else {
                            continue;
                        };
                        let Some(v) = x.plain_var() else { continue };
                        let Some(flags) = transparent.get(&f) else {
                            continue;
                        };
                        if let Some(i) = func.params.iter().position(|&q| q == v) {
                            if flags[i] {
                                tested.entry((f, i)).or_default().insert(fields);
                            }
                        }
                    }
                    Base::Var(_) => {}
                }
            }
        }
    }
    // Handed on: a call `h(…, &b->P, …)` in `f` reads `P·R` through `b` for each `R` that `h`
    // reads through that parameter.
    for _ in 0..MAX_DEPTH {
        let mut more: Vec<((FuncId, usize), Path)> = Vec::new();
        for site in index.sites() {
            let Some(h) = site.callee else { continue };
            let StmtKind::Call { args, .. } = Calls::stmt(p, site) else {
                continue;
            };
            let Some(flags) = transparent.get(&site.caller) else {
                continue;
            };
            let caller = &p.funcs[site.caller];
            for (j, a) in args.iter().enumerate() {
                let Some(reads) = tested.get(&(h, j)) else {
                    continue;
                };
                for (i, &b) in caller.params.iter().enumerate() {
                    if !flags[i] || !hands_on(a, b) {
                        continue;
                    }
                    let prefix = match a.without_casts() {
                        Operand::AddrOf(lv) => fields_of(&lv.proj).unwrap_or_default(),
                        _ => Vec::new(),
                    };
                    for r in reads {
                        let mut path = prefix.clone();
                        path.extend(r.iter().copied());
                        more.push(((site.caller, i), path));
                    }
                }
            }
        }
        let mut changed = false;
        for (k, path) in more {
            changed |= tested.entry(k).or_default().insert(path);
        }
        if !changed {
            break;
        }
    }
    for site in index.sites() {
        let Some(h) = site.callee else { continue };
        let StmtKind::Call { args, .. } = Calls::stmt(p, site) else {
            continue;
        };
        for (j, a) in args.iter().enumerate() {
            // `&g.Q`, the holding pointer `G`, or `&G->Q`.
            let (holder, prefix) = match a.without_casts() {
                Operand::AddrOf(lv) => match &lv.base {
                    Base::Var(g) if object(*g) => (Holder::Var(*g), fields_of(&lv.proj)),
                    Base::Deref(ptr) => match pointer(ptr) {
                        Some(g) => (Holder::Pointer(g), fields_of(&lv.proj)),
                        None => continue,
                    },
                    Base::Var(_) => continue,
                },
                op => match pointer(op) {
                    Some(g) => (Holder::Pointer(g), Some(Vec::new())),
                    None => continue,
                },
            };
            let Some(prefix) = prefix else { continue };
            for r in tested.get(&(h, j)).into_iter().flatten() {
                let mut path = prefix.clone();
                path.extend(r.iter().copied());
                out.insert((holder, path));
            }
        }
    }
    out
}

/// The lvalues a branch reads directly: its condition, or a side of its comparison.
fn branch_reads(term: &Term) -> Vec<&Lval> {
    let Some(t) = term.two_ways() else {
        return Vec::new();
    };
    match t.cond {
        Operand::Use(lv) => vec![lv],
        Operand::Arith(_, _, ops) => ops
            .iter()
            .filter_map(|o| match o {
                Operand::Use(lv) => Some(lv),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
