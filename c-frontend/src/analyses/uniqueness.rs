//! Uniqueness (paper §3.2): accesses through a local pointer to memory freshly allocated by this
//! run of the function, before that pointer has escaped, cannot race — no other thread can
//! reach the memory yet. Typical code initialises a new record without a lock and publishes it
//! under one; without this analysis every initialising write would conflict with the readers.
//!
//! A flow-sensitive, intraprocedural *must* analysis over the IR. The state is the set of local
//! pointer variables that certainly hold the address of (somewhere inside) a fresh allocation,
//! each tagged with the allocating statement; variables copied from one another share the tag.
//! The memory *escapes* — every variable with its tag leaves the set — when the pointer is
//! stored anywhere but a tracked local, passed to a user function or to a library function that
//! may keep it, returned, converted to an integer, or freed. Passing it to a library function
//! that only reads or writes through its arguments (the library model's `non_capturing` flag,
//! [`crate::model::Spec`]) does not escape it. Only variables whose address is never taken are
//! tracked, so no store through another pointer can change them. The result of a library
//! allocator (`fresh_result`) and of an allocation wrapper ([`super::alloc_wrappers`]) is fresh.
//!
//! Besides local pointers, an *element* of a local array of pointers whose address is never
//! taken holds a fresh pointer when it was stored there (`jobs[i] = malloc(…)`, `jobs[i] = x`),
//! named by an index that is a tracked local or a constant ([`Holder::Elem`]): the array is
//! then only ever read or written as `jobs[k]` in this function, so the analysis sees every way
//! the pointer could leave it. Each such way is conservative: a value read of an element the
//! index may denote escapes the object, and so does any store into the array at an index that
//! may be another, or an assignment of the index variable (the object stays in the array at
//! an element no name tracks).

use rustc_hash::{FxHashMap, FxHashSet};
use solver::dataflow;

use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Program, Proj, StmtKind, Term, VarId,
    VarKind,
};

/// The allocating statement of a fresh object (its block and index).
type AllocAt = (u32, u32);

/// A name that may hold a pointer to a fresh object.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Holder {
    /// A local pointer variable (or parameter, or temporary) whose address is never taken.
    Var(VarId),
    /// The element of a local array of pointers, whose address is never taken, at an index.
    Elem(VarId, Index),
}

/// The index of a [`Holder::Elem`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Index {
    /// A local integer variable whose address is never taken.
    Var(VarId),
    /// An integer constant.
    Const(i64),
}

impl Index {
    /// Whether two indices may denote one element.
    fn may_alias(self, other: Index) -> bool {
        match (self, other) {
            (Index::Const(a), Index::Const(b)) => a == b,
            _ => true,
        }
    }
}

/// The unique pointers before each statement and at each block's terminator, each name with
/// the allocation its object comes from (names with one allocation hold one object), sorted by
/// name.
#[derive(Clone, Debug, Default)]
pub struct Uniqueness {
    before: FxHashMap<(BlockId, usize), Vec<(Holder, AllocAt)>>,
    at_term: FxHashMap<BlockId, Vec<(Holder, AllocAt)>>,
}

impl Uniqueness {
    /// The names holding unique pointers before statement `k` of block `b`.
    pub fn before(&self, b: BlockId, k: usize) -> impl Iterator<Item = Holder> + '_ {
        names(self.before.get(&(b, k)))
    }

    /// The names holding unique pointers when block `b`'s terminator is evaluated.
    pub fn at_term(&self, b: BlockId) -> impl Iterator<Item = Holder> + '_ {
        names(self.at_term.get(&b))
    }

    /// The other names that hold the object `name` holds, before statement `k` of block `b`
    /// (none when `name` holds no unique object there).
    pub fn same_object(&self, b: BlockId, k: usize, name: Holder) -> Vec<Holder> {
        let Some(state) = self.before.get(&(b, k)) else {
            return Vec::new();
        };
        let Ok(at) = state.binary_search_by_key(&name, |&(h, _)| h) else {
            return Vec::new();
        };
        let tag = state[at].1;
        state
            .iter()
            .filter(|&&(h, t)| t == tag && h != name)
            .map(|&(h, _)| h)
            .collect()
    }
}

fn names(state: Option<&Vec<(Holder, AllocAt)>>) -> impl Iterator<Item = Holder> + '_ {
    state.into_iter().flatten().map(|&(h, _)| h)
}

/// The variable a pointer operand is computed from: `v`, `v + k`, `(T *)v`, `&v->f`. In pointer
/// arithmetic only the pointer operand counts (`v + n` for an integer variable `n`).
pub fn base_var(p: &Program, op: &Operand) -> Option<VarId> {
    match base_holder(p, op)? {
        Holder::Var(v) => Some(v),
        Holder::Elem(..) => None,
    }
}

/// The name a pointer operand is computed from, as [`base_var`], or an element `a[i]` of an
/// array of pointers by a variable or constant index (whether either is tracked is the
/// analysis's question).
pub fn base_holder(p: &Program, op: &Operand) -> Option<Holder> {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) => match proj.as_slice() {
            [] => matches!(
                p.types.get(p.vars[*v].ty),
                crate::ir::ctypes::Type::Pointer(_)
            )
            .then_some(Holder::Var(*v)),
            [step] if array_of_pointers(p, *v) => element_index(step).map(|i| Holder::Elem(*v, i)),
            _ => None,
        },
        Operand::Cast(_, inner) => base_holder(p, inner),
        Operand::Arith(_, _, ops) => {
            let mut found = None;
            for o in ops {
                if let Some(h) = base_holder(p, o) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(h);
                }
            }
            found
        }
        Operand::AddrOf(lv) => match &lv.base {
            Base::Deref(inner) => base_holder(p, inner),
            Base::Var(_) => None,
        },
        _ => None,
    }
}

/// Whether `v` is an array of pointers.
fn array_of_pointers(p: &Program, v: VarId) -> bool {
    use crate::ir::ctypes::Type;
    matches!(p.types.get(p.vars[v].ty), Type::Array(e) if matches!(p.types.get(*e), Type::Pointer(_)))
}

/// The index of an element step, when it is a variable or a constant.
fn element_index(step: &Proj) -> Option<Index> {
    match step {
        Proj::Index(Some(i)) => Some(Index::Var(*i)),
        Proj::ConstIndex(k) => Some(Index::Const(*k)),
        Proj::Index(None) | Proj::Field { .. } => None,
    }
}

type State = FxHashMap<Holder, AllocAt>;

/// Where a pointer may start out unique besides an allocation, for the ownership of objects
/// handed over through lists ([`super::unpacks`]'s `lists`): each is a place where this run of
/// the function comes to hold an object no other thread can reach, by the argument of that
/// module. [`analyse`] uses none of them.
#[derive(Default)]
pub struct Sources<'s> {
    /// Parameters whose every caller hands over an object it alone held.
    pub params: Vec<VarId>,
    /// Functions whose every return hands the caller an object no one else holds.
    pub owned_results: Option<&'s FxHashSet<FuncId>>,
    /// Statements (block, index) after which a variable holds the object it took off a list.
    pub taken: FxHashMap<AllocAt, VarId>,
}

/// The tag of the object parameter `i` holds on entry.
const fn param_tag(i: usize) -> AllocAt {
    (u32::MAX, i as u32)
}

struct Analysis<'a> {
    p: &'a Program,
    f: FuncId,
    sources: &'a Sources<'a>,
    /// The local arrays of pointers of `f` that are named only by element (never by their
    /// address, as a whole, or by a nested function): every way a pointer leaves one is an
    /// element read the analysis sees.
    element_arrays: FxHashSet<VarId>,
}

/// The local arrays of pointers of `func` whose address is never produced (no `&a`, no `&a[k]`,
/// no decay), that no nested function names and that no inline assembly names.
fn element_arrays(p: &Program, f: FuncId, func: &Func) -> FxHashSet<VarId> {
    use crate::ir::visit::{walk_operand, walk_stmt, walk_term, Visitor};
    let mut out: FxHashSet<VarId> = func
        .locals
        .iter()
        .copied()
        .filter(|&v| {
            let var = &p.vars[v];
            !var.captured
                && matches!(var.kind, VarKind::Local(g) if g == f)
                && array_of_pointers(p, v)
        })
        .collect();
    if out.is_empty() {
        return out;
    }
    struct Addressed<'s>(&'s mut FxHashSet<VarId>);
    impl Visitor for Addressed<'_> {
        fn visit_operand(&mut self, op: &Operand) {
            match op {
                Operand::AddrOf(Lval {
                    base: Base::Var(v), ..
                }) => {
                    self.0.remove(v);
                }
                Operand::Use(Lval {
                    base: Base::Var(v),
                    proj,
                    ..
                }) if proj.is_empty() => {
                    self.0.remove(v);
                }
                _ => {}
            }
            walk_operand(self, op);
        }
    }
    let mut visitor = Addressed(&mut out);
    for block in func.blocks.iter() {
        for stmt in &block.stmts {
            if let StmtKind::Asm { operands } = &stmt.kind {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        visitor.0.remove(&v);
                    }
                }
            }
            walk_stmt(&mut visitor, &stmt.kind);
        }
        walk_term(&mut visitor, &block.term);
    }
    out
}

impl Analysis<'_> {
    fn trackable(&self, v: VarId) -> bool {
        let var = &self.p.vars[v];
        !var.address_taken
            && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == self.f)
    }

    /// Whether the analysis follows this name: a trackable variable, or an element of a
    /// trackable local array of pointers by a trackable variable or a constant.
    fn tracks(&self, h: Holder) -> bool {
        match h {
            Holder::Var(v) => self.trackable(v),
            Holder::Elem(a, i) => {
                self.element_arrays.contains(&a)
                    && match i {
                        Index::Var(x) => self.trackable(x),
                        Index::Const(_) => true,
                    }
            }
        }
    }

    /// The tracked name an lvalue stored into is: a variable or an array element.
    fn tracked_place(&self, lv: &Lval) -> Option<Holder> {
        let Base::Var(v) = lv.base else { return None };
        let h = match lv.proj.as_slice() {
            [] => Holder::Var(v),
            [step] => Holder::Elem(v, element_index(step)?),
            _ => return None,
        };
        self.tracks(h).then_some(h)
    }

    /// Every name sharing `tag` leaves the state.
    fn escape(state: &mut State, tag: AllocAt) {
        state.retain(|_, t| *t != tag);
    }

    /// Escapes the objects of every element of `array` the index may denote (every element
    /// when `index` is `None`).
    fn escape_elements(state: &mut State, array: VarId, index: Option<Index>) {
        let tags: Vec<AllocAt> = state
            .iter()
            .filter(|(h, _)| match (**h, index) {
                (Holder::Elem(a, j), Some(i)) => a == array && i.may_alias(j),
                (Holder::Elem(a, _), None) => a == array,
                (Holder::Var(_), _) => false,
            })
            .map(|(_, &t)| t)
            .collect();
        for t in tags {
            Self::escape(state, t);
        }
    }

    /// A store into the lvalue `dst`: an element it overwrites no longer holds its object,
    /// another element it may overwrite is lost track of (its object escapes), and the
    /// elements indexed by a variable it assigns are lost track of too.
    fn stored(&self, state: &mut State, dst: &Lval) {
        let Base::Var(v) = dst.base else { return };
        if dst.proj.is_empty() {
            let tags: Vec<AllocAt> = state
                .iter()
                .filter(|(h, _)| matches!(h, Holder::Elem(_, Index::Var(i)) if *i == v))
                .map(|(_, &t)| t)
                .collect();
            for t in tags {
                Self::escape(state, t);
            }
            return;
        }
        match self.tracked_place(dst) {
            Some(h @ Holder::Elem(_, i)) => {
                state.remove(&h);
                let tags: Vec<AllocAt> = state
                    .iter()
                    .filter(|(g, _)| matches!(g, Holder::Elem(a, j) if *a == v && *j != i && i.may_alias(*j)))
                    .map(|(_, &t)| t)
                    .collect();
                for t in tags {
                    Self::escape(state, t);
                }
            }
            _ => Self::escape_elements(state, v, None),
        }
    }

    /// Escapes every tracked pointer an operand uses as a value (not as the base of an access).
    fn escape_uses(&self, state: &mut State, op: &Operand) {
        match op {
            Operand::Use(lv) => {
                if let Base::Var(v) = &lv.base {
                    match lv.proj.as_slice() {
                        [] => {
                            if let Some(&tag) = state.get(&Holder::Var(*v)) {
                                Self::escape(state, tag);
                            }
                        }
                        [step, ..] => Self::escape_elements(state, *v, element_index(step)),
                    }
                }
                self.lval_uses(state, lv);
            }
            Operand::AddrOf(lv) => match &lv.base {
                // `&p->f`: a pointer into the object, used as a value.
                Base::Deref(inner) => self.escape_uses(state, inner),
                Base::Var(_) => {}
            },
            Operand::Cast(_, inner) | Operand::VaArg(_, inner) => self.escape_uses(state, inner),
            Operand::Arith(_, _, ops) => {
                for o in ops {
                    self.escape_uses(state, o);
                }
            }
            Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
        }
    }

    /// The operands inside an lvalue: a dereferenced pointer is the base of an access (fine);
    /// anything else read to compute it is checked.
    fn lval_uses(&self, state: &mut State, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            self.reads_only(state, op);
        }
    }

    /// An operand whose value is only used to address memory or compare: pointers in it do not
    /// escape, but pointers read out of memory on the way are irrelevant too.
    fn reads_only(&self, state: &mut State, op: &Operand) {
        match op {
            Operand::Use(lv) => self.lval_uses(state, lv),
            Operand::AddrOf(lv) => self.lval_uses(state, lv),
            Operand::Cast(_, inner) | Operand::VaArg(_, inner) => self.reads_only(state, inner),
            Operand::Arith(_, _, ops) => {
                for o in ops {
                    self.reads_only(state, o);
                }
            }
            Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
        }
    }

    fn is_pointer(&self, op: &Operand) -> bool {
        matches!(
            self.p.types.get(self.p.operand_type(op)),
            crate::ir::ctypes::Type::Pointer(_)
        )
    }

    fn step(&self, state: &mut State, kind: &StmtKind, at: AllocAt) {
        match kind {
            StmtKind::Assign { dst, src } => {
                // A copy into a tracked name keeps the object unique under both names.
                let tracked_dst = self.tracked_place(dst);
                self.lval_uses(state, dst);
                self.stored(state, dst);
                let copied = base_holder(self.p, src).and_then(|h| state.get(&h).copied());
                match (tracked_dst, copied) {
                    (Some(d), Some(tag)) if self.is_pointer(src) => {
                        self.reads_only(state, src);
                        state.insert(d, tag);
                    }
                    _ => {
                        self.escape_uses(state, src);
                        if let Some(d) = tracked_dst {
                            state.remove(&d);
                        }
                    }
                }
            }
            StmtKind::Call { dst, callee, args } => {
                // What the library model says about a direct callee (nothing for user functions).
                let spec = match callee {
                    Callee::Direct(g) => self.p.known(*g),
                    Callee::Indirect(_) => None,
                };
                if let Callee::Indirect(op) = callee {
                    self.escape_uses(state, op);
                }
                let keeps = !matches!(callee, Callee::Direct(g) if self.p.keeps_no_argument(*g));
                for a in args {
                    if keeps {
                        self.escape_uses(state, a);
                    } else {
                        self.reads_only(state, a);
                    }
                }
                if let Some(d) = dst {
                    self.lval_uses(state, d);
                    self.stored(state, d);
                    if let Some(h) = self.tracked_place(d) {
                        state.remove(&h);
                        let wrapper = matches!(callee, Callee::Direct(g)
                            if self.p.is_alloc_wrapper(*g)
                                || self.sources.owned_results.is_some_and(|o| o.contains(g)));
                        if wrapper || spec.is_some_and(|s| s.fresh_result) {
                            state.insert(h, at);
                        }
                    }
                }
            }
            StmtKind::Eval(op) => self.reads_only(state, op),
            StmtKind::Asm { operands } => {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        if let Some(&tag) = state.get(&Holder::Var(v)) {
                            Self::escape(state, tag);
                        }
                        Self::escape_elements(state, v, None);
                        self.stored(
                            state,
                            &Lval {
                                base: Base::Var(v),
                                proj: Vec::new(),
                                pos: lv.pos,
                            },
                        );
                    }
                }
            }
        }
    }

    fn term(&self, state: &mut State, term: &Term) {
        match term {
            Term::Branch { cond, .. } => self.reads_only(state, cond),
            Term::Return(Some(op), _) => self.escape_uses(state, op),
            _ => {}
        }
    }
}

/// Runs the analysis on one function.
pub fn analyse(p: &Program, f: FuncId) -> Uniqueness {
    analyse_with(p, f, &Sources::default())
}

/// Runs the analysis on one function, with the unique pointers `sources` adds to allocations.
pub fn analyse_with(p: &Program, f: FuncId, sources: &Sources) -> Uniqueness {
    let func: &Func = &p.funcs[f];
    let a = Analysis {
        p,
        f,
        sources,
        element_arrays: element_arrays(p, f, func),
    };
    let n = func.blocks.len();
    let mut out = Uniqueness::default();
    if n == 0 {
        return out;
    }
    let transfer = |b: usize, mut state: State, record: Option<&mut Uniqueness>| -> State {
        let block = &func.blocks[BlockId(b as u32)];
        let mut record = record;
        for (k, stmt) in block.stmts.iter().enumerate() {
            if let Some(r) = record.as_deref_mut() {
                if !state.is_empty() {
                    let mut names: Vec<(Holder, AllocAt)> =
                        state.iter().map(|(&h, &t)| (h, t)).collect();
                    names.sort();
                    r.before.insert((BlockId(b as u32), k), names);
                }
            }
            let at = (b as u32, k as u32);
            a.step(&mut state, &stmt.kind, at);
            if let Some(&v) = a.sources.taken.get(&at) {
                if a.trackable(v) {
                    state.insert(Holder::Var(v), at);
                }
            }
        }
        if let Some(r) = record {
            if !state.is_empty() {
                let mut names: Vec<(Holder, AllocAt)> =
                    state.iter().map(|(&h, &t)| (h, t)).collect();
                names.sort();
                r.at_term.insert(BlockId(b as u32), names);
            }
        }
        a.term(&mut state, &block.term);
        state
    };
    let succs = func.successor_lists();
    // A must analysis: a block no path reaches yet is ⊤, and merging intersects.
    let start: State = sources
        .params
        .iter()
        .enumerate()
        .filter(|&(_, &v)| a.trackable(v))
        .map(|(i, &v)| (Holder::Var(v), param_tag(i)))
        .collect();
    let entry = dataflow::forward(
        &mut (),
        n,
        |b| &succs[b],
        start,
        |_, b, state| Some(transfer(b, state, None)),
        |_, into: &mut State, incoming: &State| {
            let before = into.len();
            into.retain(|v, t| incoming.get(v) == Some(t));
            into.len() != before
        },
    );
    for (b, input) in entry.into_iter().enumerate() {
        if let Some(input) = input {
            transfer(b, input, Some(&mut out));
        }
    }
    out
}

/// The uniqueness of every function with a body, computed callers before callees (`order`,
/// each with whether it lies on a cycle of direct calls) by `analyse`, which is handed the
/// parameters that are unique on entry: those that every direct call of the function passes a
/// pointer unique in the caller (a plain variable, that no other argument of the call names).
/// `main`, functions on a cycle and functions whose address is taken (they may be called from
/// where no call names them) get none.
///
/// An extension of the paper's intraprocedural uniqueness (§3.2): while the callee runs, its
/// caller is suspended and no other thread can reach the object, so the parameter is as unique
/// as the caller's pointer was. What the callee does with it (publishing it) the callee's own
/// analysis follows; what the caller assumes after the call depends on whether the callee keeps
/// its arguments ([`crate::ir::Program::keeps_no_argument`]), as before.
pub fn with_handed_params(
    p: &Program,
    main: FuncId,
    addressed: &FxHashSet<FuncId>,
    order: &[(FuncId, bool)],
    mut analyse: impl FnMut(FuncId, Vec<VarId>) -> Uniqueness,
) -> FxHashMap<FuncId, Uniqueness> {
    let mut entry: FxHashMap<FuncId, Vec<bool>> = FxHashMap::default();
    let mut out = FxHashMap::default();
    for &(f, recursive) in order {
        let func = &p.funcs[f];
        let handed = match entry.remove(&f) {
            Some(h) if !recursive && f != main && !addressed.contains(&f) => h,
            _ => Vec::new(),
        };
        let params: Vec<VarId> = func
            .params
            .iter()
            .zip(handed.iter().chain(std::iter::repeat(&false)))
            .filter(|&(_, &owned)| owned)
            .map(|(&v, _)| v)
            .collect();
        let unique = analyse(f, params);
        for (b, k, g, args) in func.direct_calls() {
            if p.funcs[g].blocks.is_empty() {
                continue;
            }
            let passed = handed_owned(&unique, b, k, args);
            match entry.get_mut(&g) {
                Some(known) => {
                    for (i, owned) in known.iter_mut().enumerate() {
                        *owned &= passed.get(i).copied().unwrap_or(false);
                    }
                }
                None => {
                    entry.insert(g, passed);
                }
            }
        }
        out.insert(f, unique);
    }
    out
}

/// For each argument of a call at statement `k` of block `b`: whether it is a plain pointer
/// variable owning an object that no other argument names.
fn handed_owned(unique: &Uniqueness, b: BlockId, k: usize, args: &[Operand]) -> Vec<bool> {
    let owned: FxHashSet<Holder> = as_set(unique.before(b, k));
    let var = |a: &Operand| match a {
        Operand::Use(lv) => lv.plain_var(),
        _ => None,
    };
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            let Some(v) = var(a) else { return false };
            if !owned.contains(&Holder::Var(v)) {
                return false;
            }
            let mut aliases = unique.same_object(b, k, Holder::Var(v));
            aliases.push(Holder::Var(v));
            args.iter()
                .enumerate()
                .all(|(j, other)| j == i || !mentions_any(other, &aliases))
        })
        .collect()
}

/// Whether an operand names any of the holders' variables.
pub(crate) fn mentions_any(op: &Operand, holders: &[Holder]) -> bool {
    struct Finds<'h> {
        holders: &'h [Holder],
        found: bool,
    }
    impl crate::ir::visit::Visitor for Finds<'_> {
        fn visit_var(&mut self, v: VarId) {
            self.found |= self
                .holders
                .iter()
                .any(|h| matches!(h, Holder::Var(x) | Holder::Elem(x, _) if *x == v));
        }
    }
    let mut finds = Finds {
        holders,
        found: false,
    };
    crate::ir::visit::Visitor::visit_operand(&mut finds, op);
    finds.found
}

/// The set form, for lookups.
pub fn as_set(names: impl Iterator<Item = Holder>) -> FxHashSet<Holder> {
    names.collect()
}
