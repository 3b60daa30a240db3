//! Stores `main` makes to a global pointer before it starts any thread, and which of them a
//! later store replaces before anything but `main` itself can read them: a global pointer that
//! holds two objects never live at the same time.
//!
//! Label flow is flow-insensitive: every value ever stored in a global pointer `g` flows into
//! `g`'s one type, so a thread reading `g` reaches every object `g` ever held, and the objects'
//! contents are unified (a reference's content is invariant). Before `main` starts its first
//! thread it is the only thread there is, so a store that `main` replaces with another store
//! before any thread starts, and before it calls any function that may read `g`, can only be
//! read by `main`'s own reads in between. This analysis finds those *replaced* stores; the
//! constraint generator then keeps the value of each of `main`'s startup stores in a version of
//! its own, flows into `g`'s type only the versions that escape, and types each of `main`'s
//! startup reads of `g` by the versions that reach it (a read reached by what `g` held before
//! `main`'s stores, or by another function's store, also reads `g`'s type).
//!
//! A global qualifies when it is a pointer the program defines (not thread-local, not atomic),
//! its address is never taken, every lvalue naming it is the variable itself (so it is read
//! and written only by name), and `main` stores to it at least twice. `main` itself must not be
//! called by the program or have its address taken.
//!
//! The analysis is a forward dataflow over `main`'s graph whose state is the set of *versions*
//! that `g` may hold (one per store in `main`, plus ⊤: what `g` held on entry or what another
//! function stored) and whether a thread may have started. A call's effects come from a summary
//! of what its callee may do, over the direct call graph: read `g`, store to `g`, or start a
//! thread (`pthread_create`, a signal handler, `pthread_once`, unknown code, which may start the
//! callbacks it is given, and any function reached through a pointer or run by unknown code).
//! A version *escapes*, and flows into `g`'s type, when it reaches a call that may read `g` or
//! start a thread, or any point where a thread may already run. Functions that unknown code may
//! run from the start of `main` (callbacks kept in external memory) are checked by the generator
//! once it knows them ([`StartupStores::affected_by`]): if one may touch `g`, every version of
//! `g` escapes.
//!
//! It reads the IR and the library model only; it never creates labels or constraints.

use fixedbitset::FixedBitSet;
use rustc_hash::{FxHashMap, FxHashSet};
use solver::dataflow;
use solver::define_id;

use crate::analyses::calls::Calls;
use crate::ir::ctypes::Type;
use crate::ir::visit::{walk_func, walk_lval, walk_operand, walk_stmt, walk_term, Visitor};
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Program, StmtKind, VarId, VarKind,
};
use crate::model::Kind;

define_id!(
    /// One of `main`'s startup stores to a qualifying global: a version of the global's value.
    pub struct VersionId, "ver";
);

/// A point of `main`: a statement (its block and index), or a block's terminator (index one past
/// the last statement).
pub type Point = (BlockId, usize);

/// A startup store of `main`: the global stored, its version, and whether the version escapes
/// (flows into the global's type).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub var: VarId,
    pub version: VersionId,
    pub escapes: bool,
}

/// What a startup read of a global may read: the versions of `main`'s stores that reach it, and
/// whether what the global held before them (or another function's store) may reach it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versions {
    pub stores: Vec<VersionId>,
    pub previous: bool,
}

/// What a call to a function may do to the qualifying globals, callees included.
#[derive(Clone, Debug)]
struct Effects {
    /// May start a thread (or run code that may, or run anything through a pointer).
    forks: bool,
    /// Reads (or names) each global, by index in [`StartupStores::globals`].
    reads: FixedBitSet,
    /// Stores to each global.
    stores: FixedBitSet,
}

impl Effects {
    fn none(n: usize) -> Effects {
        Effects {
            forks: false,
            reads: FixedBitSet::with_capacity(n),
            stores: FixedBitSet::with_capacity(n),
        }
    }

    fn union(&mut self, other: &Effects) {
        self.forks |= other.forks;
        self.reads.union_with(&other.reads);
        self.stores.union_with(&other.stores);
    }
}

/// `main`'s startup stores and reads of the qualifying globals (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct StartupStores {
    /// The qualifying globals, in id order.
    pub globals: Vec<VarId>,
    stores: FxHashMap<Point, Store>,
    reads: FxHashMap<(Point, VarId), Versions>,
    /// What each defined function may do, callees included.
    effects: FxHashMap<FuncId, Effects>,
}

impl StartupStores {
    pub fn is_empty(&self) -> bool {
        self.globals.is_empty()
    }

    /// The startup store of `main` at `at`, if the statement there is one.
    pub fn store_at(&self, at: Point) -> Option<Store> {
        self.stores.get(&at).copied()
    }

    /// What `main`'s read of `var` at `at` may read, when it is not simply the global's type.
    pub fn read_at(&self, at: Point, var: VarId) -> Option<&Versions> {
        self.reads.get(&(at, var))
    }

    /// How many startup stores there are, and how many of them a later store replaces before
    /// anything but `main` can read them (the developers' statistics).
    pub fn counts(&self) -> (usize, usize) {
        let replaced = self.stores.values().filter(|s| !s.escapes).count();
        (self.stores.len(), replaced)
    }

    /// The qualifying globals that `f`, run by code locksmith cannot see at any time, may read
    /// or store to (all of them when it may start a thread).
    pub fn affected_by(&self, f: FuncId) -> Vec<VarId> {
        let Some(e) = self.effects.get(&f) else {
            return Vec::new();
        };
        self.globals
            .iter()
            .enumerate()
            .filter(|(k, _)| e.forks || e.reads.contains(*k) || e.stores.contains(*k))
            .map(|(_, &v)| v)
            .collect()
    }
}

/// The global a statement stores to by name (`g = …`, `g = f(…)`), if it is one of `globals`.
fn stored_global(kind: &StmtKind, index: &FxHashMap<VarId, usize>) -> Option<usize> {
    let dst = match kind {
        StmtKind::Assign { dst, .. } => dst,
        StmtKind::Call { dst: Some(dst), .. } => dst,
        _ => return None,
    };
    match (&dst.base, dst.proj.is_empty()) {
        (Base::Var(v), true) => index.get(v).copied(),
        _ => None,
    }
}

/// The globals of `index` a statement or terminator reads: every naming of one other than as
/// the destination a statement stores to.
struct Reads<'a> {
    index: &'a FxHashMap<VarId, usize>,
    found: FixedBitSet,
}

impl Visitor for Reads<'_> {
    fn visit_var(&mut self, v: VarId) {
        if let Some(&k) = self.index.get(&v) {
            self.found.insert(k);
        }
    }
}

fn reads_of_stmt(kind: &StmtKind, index: &FxHashMap<VarId, usize>) -> FixedBitSet {
    let mut r = Reads {
        index,
        found: FixedBitSet::with_capacity(index.len()),
    };
    match kind {
        StmtKind::Assign { dst, src } => {
            visit_dst(&mut r, dst);
            r.visit_operand(src);
        }
        StmtKind::Call { dst, callee, args } => {
            if let Some(d) = dst {
                visit_dst(&mut r, d);
            }
            if let Callee::Indirect(op) = callee {
                r.visit_operand(op);
            }
            args.iter().for_each(|a| r.visit_operand(a));
        }
        other => walk_stmt(&mut r, other),
    }
    r.found
}

/// The reads a destination lvalue makes: none when it is a variable named alone.
fn visit_dst(r: &mut Reads<'_>, dst: &Lval) {
    if !(matches!(dst.base, Base::Var(_)) && dst.proj.is_empty()) {
        walk_lval(r, dst);
    }
}

/// The globals that qualify (see the module documentation), given `main`.
fn qualifying(p: &Program, main: FuncId) -> Vec<VarId> {
    let mut counts: FxHashMap<VarId, usize> = FxHashMap::default();
    for block in p.funcs[main].blocks.iter() {
        for stmt in &block.stmts {
            let dst = match &stmt.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => dst,
                _ => continue,
            };
            if let (Base::Var(v), true) = (&dst.base, dst.proj.is_empty()) {
                let var = &p.vars[*v];
                let candidate = matches!(
                    var.kind,
                    VarKind::Global {
                        thread_local: false,
                        defined: true,
                        ..
                    }
                ) && var.origin == Origin::User
                    && !var.address_taken
                    && !var.atomic
                    && matches!(p.types.get(var.ty), Type::Pointer(_));
                if candidate {
                    *counts.entry(*v).or_default() += 1;
                }
            }
        }
    }
    let mut globals: FxHashSet<VarId> = counts
        .into_iter()
        .filter(|&(_, n)| n >= 2)
        .map(|(v, _)| v)
        .collect();
    if globals.is_empty() {
        return Vec::new();
    }
    // Every lvalue naming the global must be the variable alone, and inline assembly must not
    // name it.
    struct Named<'a> {
        globals: &'a mut FxHashSet<VarId>,
    }
    impl Visitor for Named<'_> {
        fn visit_lval(&mut self, lv: &Lval) {
            if let Base::Var(v) = lv.base {
                if !lv.proj.is_empty() {
                    self.globals.remove(&v);
                }
            }
            walk_lval(self, lv);
        }
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::AddrOf(Lval {
                base: Base::Var(v), ..
            }) = op
            {
                self.globals.remove(v);
            }
            walk_operand(self, op);
        }
    }
    for func in p.funcs.iter() {
        let mut named = Named {
            globals: &mut globals,
        };
        walk_func(&mut named, func);
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                if let StmtKind::Asm { operands } = &stmt.kind {
                    for lv in operands {
                        if let Base::Var(v) = lv.base {
                            globals.remove(&v);
                        }
                    }
                }
            }
        }
    }
    let mut out: Vec<VarId> = globals.into_iter().collect();
    out.sort();
    out
}

/// Whether a function's calls are summarised from its body.
fn has_body(p: &Program, f: FuncId) -> bool {
    let func = &p.funcs[f];
    func.defined && !func.blocks.is_empty() && p.known(f).is_none_or(|s| s.kind == Kind::Stub)
}

/// Whether a library function of this kind starts threads or runs the functions it is given.
fn starts_threads(kind: Option<Kind>) -> bool {
    kind.is_some_and(Kind::may_start_thread)
}

/// Whether a direct call of `f`, a function without a body to summarise, may start a thread:
/// a library function that starts threads, or unknown code given something that may be a
/// function (a function, a pointer to a function or to `void`), which it may start as a thread
/// ([`crate::constraints`]' unmodelled calls). Functions unknown code reaches through the
/// structs it is given are run from the start of `main` instead
/// ([`StartupStores::affected_by`]).
fn library_call_forks(p: &Program, f: FuncId, args: &[Operand]) -> bool {
    match p.known_kind(f) {
        Some(Kind::Stub) | None => args.iter().any(|a| {
            let inner = a.without_casts();
            let may_be_function = |op: &Operand| {
                p.types
                    .pointee(p.operand_type(op))
                    .is_some_and(|t| matches!(p.types.get(t), Type::Void | Type::Function { .. }))
            };
            matches!(inner, Operand::Func(_)) || may_be_function(a) || may_be_function(inner)
        }),
        kind => starts_threads(kind),
    }
}

/// The effects of every function with a body, callees included (see [`Effects`]), and those of a
/// call through a pointer, which may run any function whose address is taken.
fn summarise(
    p: &Program,
    calls: &Calls,
    index: &FxHashMap<VarId, usize>,
) -> (FxHashMap<FuncId, Effects>, Effects) {
    let n = index.len();
    let bodies: Vec<FuncId> = p
        .funcs
        .iter_enumerated()
        .map(|(f, _)| f)
        .filter(|&f| has_body(p, f))
        .collect();
    // Each function's own effects, its direct callees with bodies, and whether it calls through
    // a pointer.
    let mut own: FxHashMap<FuncId, (Effects, Vec<FuncId>, bool)> = FxHashMap::default();
    let mut graph = petgraph::graphmap::DiGraphMap::<u32, (), rustc_hash::FxBuildHasher>::default();
    for &f in &bodies {
        let func: &Func = &p.funcs[f];
        let mut e = Effects::none(n);
        let mut callees = Vec::new();
        let mut indirect = false;
        graph.add_node(f.0);
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                e.reads.union_with(&reads_of_stmt(&stmt.kind, index));
                if let Some(k) = stored_global(&stmt.kind, index) {
                    e.stores.insert(k);
                }
                if let StmtKind::Call { callee, args, .. } = &stmt.kind {
                    match callee {
                        Callee::Direct(g) if has_body(p, *g) => {
                            callees.push(*g);
                            graph.add_edge(f.0, g.0, ());
                        }
                        Callee::Direct(g) => e.forks |= library_call_forks(p, *g, args),
                        Callee::Indirect(_) => indirect = true,
                    }
                }
            }
            let mut r = Reads {
                index,
                found: FixedBitSet::with_capacity(n),
            };
            walk_term(&mut r, &block.term);
            e.reads.union_with(&r.found);
        }
        // A stub calling through a pointer may call what its caller handed it: counted as a
        // start of threads, which needs no list of targets.
        if indirect && func.origin == Origin::Stub {
            e.forks = true;
        }
        own.insert(f, (e, callees, indirect));
    }
    // Callees first: Tarjan's algorithm yields the components in reverse topological order.
    let mut closed: FxHashMap<FuncId, Effects> = FxHashMap::default();
    let mut indirect_of: FxHashMap<FuncId, bool> = FxHashMap::default();
    for component in petgraph::algo::tarjan_scc(&graph) {
        let mut e = Effects::none(n);
        let mut indirect = false;
        for &f in &component {
            let (own_e, callees, ind) = &own[&FuncId(f)];
            e.union(own_e);
            indirect |= *ind;
            for g in callees {
                if let Some(ge) = closed.get(g) {
                    e.union(ge);
                    indirect |= indirect_of[g];
                }
            }
        }
        for &f in &component {
            closed.insert(FuncId(f), e.clone());
            indirect_of.insert(FuncId(f), indirect);
        }
    }
    // What a call through a pointer may do: what any function whose address is taken may do.
    let mut through_pointer = Effects::none(n);
    for &f in calls.addressed() {
        match closed.get(&f) {
            Some(e) => through_pointer.union(e),
            None => through_pointer.forks |= starts_threads(p.known_kind(f)),
        }
    }
    for (f, e) in closed.iter_mut() {
        if indirect_of[f] {
            e.union(&through_pointer);
        }
    }
    (closed, through_pointer)
}

/// The dataflow state: bit 0 is "a thread may have started"; then, for each global, one bit
/// for ⊤ and one per startup store.
type State = FixedBitSet;

/// The bit of "a thread may have started".
const FORKED: usize = 0;

/// What the dataflow over `main` knows: the globals, the layout of its state, and what calls do.
struct Flow<'a> {
    p: &'a Program,
    globals: &'a [VarId],
    index: &'a FxHashMap<VarId, usize>,
    effects: &'a FxHashMap<FuncId, Effects>,
    through_pointer: &'a Effects,
    /// For each global, the bit of ⊤.
    top: Vec<usize>,
    /// For each version: its bit, its global's index and the store's point.
    versions: Vec<(usize, usize, Point)>,
    /// The version stored at each point: its bit and its global's index.
    stored_at: FxHashMap<Point, (usize, usize)>,
    bits: usize,
}

/// What the final pass over `main` records: the startup reads, and the bits of the versions that
/// escape.
struct Record<'r> {
    out: &'r mut StartupStores,
    escapes: &'r mut FixedBitSet,
}

impl<'a> Flow<'a> {
    fn new(
        p: &'a Program,
        main: FuncId,
        globals: &'a [VarId],
        index: &'a FxHashMap<VarId, usize>,
        summaries: &'a (FxHashMap<FuncId, Effects>, Effects),
    ) -> Flow<'a> {
        let mut flow = Flow {
            p,
            globals,
            index,
            effects: &summaries.0,
            through_pointer: &summaries.1,
            top: Vec::new(),
            versions: Vec::new(),
            stored_at: FxHashMap::default(),
            bits: 1,
        };
        for _ in globals {
            flow.top.push(flow.bits);
            flow.bits += 1;
        }
        for (b, block) in p.funcs[main].blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                if let Some(g) = stored_global(&stmt.kind, index) {
                    flow.versions.push((flow.bits, g, (b, k)));
                    flow.stored_at.insert((b, k), (flow.bits, g));
                    flow.bits += 1;
                }
            }
        }
        flow
    }

    /// The bits of global `k`: its ⊤, then its versions.
    fn global_bits(&self, k: usize) -> Vec<usize> {
        std::iter::once(self.top[k])
            .chain(
                self.versions
                    .iter()
                    .filter(|(_, g, _)| *g == k)
                    .map(|(b, _, _)| *b),
            )
            .collect()
    }

    /// What a statement's call may do, if it is a call.
    fn call_effects(&self, kind: &StmtKind) -> Option<Effects> {
        let StmtKind::Call { callee, args, .. } = kind else {
            return None;
        };
        Some(match callee {
            Callee::Direct(g) => match self.effects.get(g) {
                Some(e) => e.clone(),
                None => {
                    let mut e = Effects::none(self.globals.len());
                    e.forks = library_call_forks(self.p, *g, args);
                    e
                }
            },
            Callee::Indirect(_) => self.through_pointer.clone(),
        })
    }

    /// Records the startup reads of the globals in `reads` at `at`, or, once a thread may run,
    /// makes every version `main` may hold escape.
    fn record_reads(&self, state: &State, at: Point, reads: &FixedBitSet, record: &mut Record) {
        if state.contains(FORKED) {
            record.escapes.union_with(state);
            return;
        }
        for k in reads.ones() {
            let stores: Vec<VersionId> = self
                .versions
                .iter()
                .enumerate()
                .filter(|(_, (bit, g, _))| *g == k && state.contains(*bit))
                .map(|(x, _)| VersionId(x as u32))
                .collect();
            if !stores.is_empty() {
                let previous = state.contains(self.top[k]);
                record
                    .out
                    .reads
                    .insert((at, self.globals[k]), Versions { stores, previous });
            }
        }
    }

    /// One point: its reads, then its call's effects, then its store.
    fn step(
        &self,
        state: &mut State,
        at: Point,
        kind: Option<&StmtKind>,
        reads: &FixedBitSet,
        record: &mut Option<Record>,
    ) {
        if let Some(r) = record.as_mut() {
            self.record_reads(state, at, reads, r);
        }
        let Some(kind) = kind else { return };
        if let Some(e) = self.call_effects(kind) {
            for k in 0..self.globals.len() {
                if !(e.forks || e.reads.contains(k)) {
                    continue;
                }
                if let Some(r) = record.as_mut() {
                    for bit in self.global_bits(k) {
                        if state.contains(bit) {
                            r.escapes.insert(bit);
                        }
                    }
                }
            }
            if e.forks {
                state.insert(FORKED);
            }
            for k in e.stores.ones() {
                state.insert(self.top[k]);
            }
        }
        if let Some(&(bit, k)) = self.stored_at.get(&at) {
            for b in self.global_bits(k) {
                state.set(b, false);
            }
            if state.contains(FORKED) {
                // A store once a thread may run is simply a store to the global's type.
                state.insert(self.top[k]);
                if let Some(r) = record.as_mut() {
                    r.escapes.insert(bit);
                }
            } else {
                state.insert(bit);
            }
        }
    }

    /// A whole block of `main`.
    fn transfer(
        &self,
        func: &Func,
        b: usize,
        mut state: State,
        mut record: Option<Record>,
    ) -> State {
        let block = &func.blocks[BlockId(b as u32)];
        for (k, stmt) in block.stmts.iter().enumerate() {
            let reads = reads_of_stmt(&stmt.kind, self.index);
            let at = (BlockId(b as u32), k);
            self.step(&mut state, at, Some(&stmt.kind), &reads, &mut record);
        }
        let mut r = Reads {
            index: self.index,
            found: FixedBitSet::with_capacity(self.globals.len()),
        };
        walk_term(&mut r, &block.term);
        let at = (BlockId(b as u32), block.stmts.len());
        self.step(&mut state, at, None, &r.found, &mut record);
        state
    }
}

/// Runs the analysis on `main` (see the module documentation).
pub fn analyse(p: &Program, calls: &Calls, main: FuncId) -> StartupStores {
    let globals = qualifying(p, main);
    if globals.is_empty() || calls.main_is_called(main) {
        return StartupStores::default();
    }
    let index: FxHashMap<VarId, usize> = globals.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    let summaries = summarise(p, calls, &index);
    let flow = Flow::new(p, main, &globals, &index, &summaries);
    let func = &p.funcs[main];
    let succs: Vec<Vec<u32>> = func
        .blocks
        .iter()
        .map(|block| block.term.successors().iter().map(|s| s.0).collect())
        .collect();
    let mut entry = FixedBitSet::with_capacity(flow.bits);
    for &t in &flow.top {
        entry.insert(t);
    }
    let starts = dataflow::forward(
        &mut (),
        func.blocks.len(),
        |b| &succs[b],
        entry,
        |_, b, state| Some(flow.transfer(func, b, state, None)),
        |_, into: &mut State, incoming: &State| dataflow::union_bits(into, incoming),
    );
    let mut out = StartupStores {
        globals: globals.clone(),
        ..StartupStores::default()
    };
    let mut escapes = FixedBitSet::with_capacity(flow.bits);
    for (b, start) in starts.into_iter().enumerate() {
        if let Some(start) = start {
            let record = Record {
                out: &mut out,
                escapes: &mut escapes,
            };
            flow.transfer(func, b, start, Some(record));
        }
    }
    for (x, &(bit, k, at)) in flow.versions.iter().enumerate() {
        out.stores.insert(
            at,
            Store {
                var: globals[k],
                version: VersionId(x as u32),
                escapes: escapes.contains(bit),
            },
        );
    }
    out.effects = summaries.0;
    out
}
