//! Elements of a global array of locks named by constants, directly or through a lock wrapper's
//! parameter: each such element is a lock of its own.
//!
//! The labelled types give every element of an array one lock label, which stands for several
//! run-time locks and is therefore not linear (paper §2.2): it protects nothing and every cycle
//! through it is suspect. Real programs keep a few locks in a global array and name each by a
//! constant, often through a wrapper (`void lock(int k) { pthread_mutex_lock(&locks[k]); }`,
//! called as `lock(LOCK_IO)`). This analysis finds the arrays for which that is the only way
//! their elements are locked, so that the constraint generator can give the element at each
//! constant index a lock label of its own, and give a wrapper a lock label generic in its
//! parameter, instantiated at each call by the element the call names (as \[Inst\] of figure 6
//! does for a lock passed by pointer).
//!
//! An array qualifies — is *split* — when it is a global (or an array field of a global, at a
//! member path) of locks and
//!
//! - every lock call on one of its elements (acquire, try-acquire, release, condition wait)
//!   names the element by an integer constant, or by an *element parameter* of the function
//!   making the call;
//! - nothing else takes the address of an element, of the array, or of what contains the array
//!   (`pthread_mutex_init` and other calls that neither take nor release a lock may name any
//!   element): no pointer can then reach an element, so every lock call on one is seen here.
//!
//! An element parameter is an integer parameter of a user function that the function never
//! assigns and whose address it never takes, of a function whose address is never taken (so
//! every call is a direct call, seen here) and that is not recursive, such that every call
//! passes at that position an integer constant or an element parameter of the caller.
//!
//! Why that is sound: two lock calls that name one constant index of one split array lock the
//! same run-time lock (a global array is one object), and two that name different constants lock
//! different ones; a lock call through a parameter locks, in each run, the element its call names.
//! Every lock call on a split array is one of these, so no lock call may take an element under
//! another label. An array that does not qualify keeps its one label, as before.
//!
//! This module reads the IR and the library model only; it never creates labels.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::ir::ctypes::{StructId, Type};
use crate::ir::visit::{walk_operand, walk_stmt, Visitor};
use crate::ir::{
    Base, Callee, FuncId, Lval, Operand, Origin, Program, Proj, StmtKind, VarId, VarKind,
};
use crate::model::Kind;

/// An array of locks as the program names it: a global variable and the member path to the
/// array inside it (empty for an array variable).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockArray {
    pub var: VarId,
    pub fields: Vec<(StructId, u32)>,
}

/// Which element of a split array a lock call names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    /// The element at this constant index.
    Const(i64),
    /// The element that the `k`-th parameter of the calling function names.
    Param(u32),
}

/// The split arrays of a program and the element parameters of its functions.
#[derive(Clone, Debug, Default)]
pub struct LockElements {
    /// The split arrays.
    arrays: BTreeSet<LockArray>,
    /// Each element parameter `(function, index)` with the split arrays it names elements of,
    /// directly or through the calls it passes it to.
    params: BTreeMap<(FuncId, u32), BTreeSet<LockArray>>,
    /// The lock-pointer parameters (see [`lock_pointer_params`]).
    pointer_params: BTreeSet<(FuncId, u32)>,
}

impl LockElements {
    /// Whether nothing is split.
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }

    /// The split array and element that the lock operand `op` of a lock call in `f` names.
    pub fn element_of(&self, p: &Program, f: FuncId, op: &Operand) -> Option<(LockArray, Element)> {
        let (array, index) = array_element(p, op)?;
        if !self.arrays.contains(&array) {
            return None;
        }
        match element(p, f, index)? {
            Element::Param(k) if !self.params.contains_key(&(f, k)) => None,
            e => Some((array, e)),
        }
    }

    /// For a call of `callee` from `caller` with arguments `args`: each element parameter `k`
    /// of the callee, each split array it names elements of, and the element the argument names
    /// in the caller.
    pub fn call_elements(
        &self,
        p: &Program,
        caller: FuncId,
        callee: FuncId,
        args: &[Operand],
    ) -> Vec<(u32, LockArray, Element)> {
        let mut out = Vec::new();
        for (&(_, k), arrays) in self.params.range((callee, 0)..=(callee, u32::MAX)) {
            let e = args.get(k as usize).and_then(|a| argument(p, caller, a));
            let e = match e {
                Some(Element::Param(j)) if !self.params.contains_key(&(caller, j)) => None,
                e => e,
            };
            let Some(e) = e else { continue };
            for array in arrays {
                out.push((k, array.clone(), e));
            }
        }
        out
    }

    /// For a call of `callee` from `caller` with arguments `args`: each lock-pointer parameter
    /// of the callee whose argument names an element of a split array, with that element.
    pub fn pointer_elements(
        &self,
        p: &Program,
        caller: FuncId,
        callee: FuncId,
        args: &[Operand],
    ) -> Vec<(usize, LockArray, Element)> {
        self.pointer_params
            .range((callee, 0)..=(callee, u32::MAX))
            .filter_map(|&(_, k)| {
                let (array, e) = self.element_of(p, caller, args.get(k as usize)?)?;
                Some((k as usize, array, e))
            })
            .collect()
    }

    /// Whether `op`, the lock operand of a call that initialises a lock, names an element of a
    /// split array; which one.
    pub fn array_of(&self, p: &Program, op: &Operand) -> Option<LockArray> {
        array_element(p, op)
            .map(|(a, _)| a)
            .filter(|a| self.arrays.contains(a))
    }
}

/// The element an index projection names in `f`: a constant, or an unchanged parameter.
fn element(p: &Program, f: FuncId, index: &Proj) -> Option<Element> {
    match *index {
        Proj::ConstIndex(c) => Some(Element::Const(c)),
        Proj::Index(Some(v)) => unchanged_param(p, f, v).map(Element::Param),
        _ => None,
    }
}

/// The element an argument names in the calling function: a constant, or an unchanged
/// parameter of the caller.
fn argument(p: &Program, caller: FuncId, arg: &Operand) -> Option<Element> {
    match arg.without_casts() {
        Operand::Const(_, Some(c)) => Some(Element::Const(*c)),
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => unchanged_param(p, caller, *v).map(Element::Param),
        _ => None,
    }
}

/// The index of the parameter of user function `f` that `v` is, when `f` never assigns it and
/// never takes its address: its value is then the argument of every call.
pub fn unchanged_param(p: &Program, f: FuncId, v: VarId) -> Option<u32> {
    let var = &p.vars[v];
    let VarKind::Param(g, index) = var.kind else {
        return None;
    };
    if g != f || var.address_taken || p.funcs[f].origin != Origin::User {
        return None;
    }
    let assigned = p.funcs[f].blocks.iter().flat_map(|b| &b.stmts).any(|s| {
        let dst = match &s.kind {
            StmtKind::Assign { dst, .. } => Some(dst),
            StmtKind::Call { dst, .. } => dst.as_ref(),
            _ => None,
        };
        dst.is_some_and(|d| matches!(d.base, Base::Var(w) if w == v))
    });
    (!assigned).then_some(index)
}

/// The array of locks and the index projection an operand `&V.f…[i]` names.
fn array_element<'p>(p: &Program, op: &'p Operand) -> Option<(LockArray, &'p Proj)> {
    let Operand::AddrOf(lv) = op.without_casts() else {
        return None;
    };
    let Base::Var(var) = lv.base else {
        return None;
    };
    if !matches!(p.vars[var].kind, VarKind::Global { .. }) {
        return None;
    }
    let (index, fields) = lv.proj.split_last()?;
    if !matches!(index, Proj::Index(_) | Proj::ConstIndex(_)) {
        return None;
    }
    let fields = fields
        .iter()
        .map(|s| match *s {
            Proj::Field { strukt, index } => Some((strukt, index)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    if !matches!(p.types.get(p.lval_type(lv)), Type::Lock(_)) {
        return None;
    }
    Some((LockArray { var, fields }, index))
}

/// How a library call treats the lock its argument `k` points to.
enum LockUse {
    /// Takes or releases it: the element must be known.
    Locks(usize),
    /// Neither (an initialisation, a destruction, a call without effect): any element may be
    /// named.
    Harmless,
    /// Anything else.
    Other,
}

/// The arguments of a call that are lock operands, each with whether the call takes or
/// releases that lock (rather than initialising or destroying it): the lock argument of a lock
/// call, every argument of a call that neither takes nor releases a lock, and the lock-pointer
/// parameters of a user function.
fn lock_positions(
    p: &Program,
    callee: &Callee,
    args: usize,
    pointer_params: &BTreeSet<(FuncId, u32)>,
) -> Vec<(usize, bool)> {
    match lock_use(p, callee) {
        LockUse::Locks(k) => vec![(k, true)],
        LockUse::Harmless => (0..args).map(|k| (k, false)).collect(),
        LockUse::Other => match callee {
            Callee::Direct(g) => pointer_params
                .range((*g, 0)..=(*g, u32::MAX))
                .map(|&(_, k)| (k as usize, true))
                .collect(),
            Callee::Indirect(_) => Vec::new(),
        },
    }
}

/// Whether every call of `f` is a direct call of a user function's body seen here, made by a
/// function that `f` does not call back.
fn analysable(
    p: &Program,
    f: FuncId,
    recursive: &FxHashMap<FuncId, usize>,
    address_taken: &FxHashSet<FuncId>,
) -> bool {
    let func = &p.funcs[f];
    func.origin == Origin::User
        && func.defined
        && !address_taken.contains(&f)
        && !recursive.contains_key(&f)
}

/// Lock-pointer parameters among `candidates` (the positions some call passes an element of a
/// global array of locks to): a pointer parameter that its function never changes and uses
/// only as the lock operand of lock calls (`void wait(cond_t *c, pthread_mutex_t *m)` that
/// unlocks and locks `m`). A call that passes an element of a split array there names that
/// element: the function's lock behind the parameter is, at that call, the element's own lock.
fn lock_pointer_params(
    p: &Program,
    candidates: &BTreeSet<(FuncId, u32)>,
    recursive: &FxHashMap<FuncId, usize>,
    address_taken: &FxHashSet<FuncId>,
) -> BTreeSet<(FuncId, u32)> {
    struct Count(VarId, usize);
    impl Visitor for Count {
        fn visit_var(&mut self, v: VarId) {
            if v == self.0 {
                self.1 += 1;
            }
        }
    }
    let none = BTreeSet::new();
    let mut out = BTreeSet::new();
    for &(f, k) in candidates {
        let func = &p.funcs[f];
        let Some(&v) = func.params.get(k as usize) else {
            continue;
        };
        if !analysable(p, f, recursive, address_taken)
            || unchanged_param(p, f, v).is_none()
            || !matches!(p.types.get(p.vars[v].ty), Type::Pointer(_))
        {
            continue;
        }
        let mut all = Count(v, 0);
        let mut as_lock = 0;
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                walk_stmt(&mut all, &stmt.kind);
                if let StmtKind::Call { callee, args, .. } = &stmt.kind {
                    for (j, _) in lock_positions(p, callee, args.len(), &none) {
                        let named = args.get(j).map(Operand::without_casts);
                        if matches!(named, Some(Operand::Use(Lval { base: Base::Var(w), proj, .. })) if *w == v && proj.is_empty())
                        {
                            as_lock += 1;
                        }
                    }
                }
            }
            crate::ir::visit::walk_term(&mut all, &block.term);
        }
        if all.1 > 0 && all.1 == as_lock {
            out.insert((f, k));
        }
    }
    out
}

fn lock_use(p: &Program, callee: &Callee) -> LockUse {
    let Callee::Direct(g) = callee else {
        return LockUse::Other;
    };
    match p.known_kind(*g) {
        Some(
            Kind::Acquire { lock, .. }
            | Kind::Release { lock }
            | Kind::Wait { lock }
            | Kind::TryAcquire { lock, .. },
        ) => LockUse::Locks(usize::from(lock)),
        Some(Kind::LockInit { .. } | Kind::NoEffect | Kind::MutexType { .. }) => LockUse::Harmless,
        _ => LockUse::Other,
    }
}

/// What the walk over the program gathers.
#[derive(Default)]
struct Uses {
    /// The globals that hold arrays of locks some call names an element of.
    vars: FxHashSet<VarId>,
    /// For each of those globals: the member paths (up to the first index) of every address of it taken
    /// outside the lock operands of lock calls.
    addresses: FxHashMap<VarId, Vec<Vec<(StructId, u32)>>>,
}

impl Visitor for Uses {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::AddrOf(lv) = op {
            self.note_address(lv);
        }
        walk_operand(self, op);
    }
}

impl Uses {
    fn note_address(&mut self, lv: &Lval) {
        if let Base::Var(v) = lv.base {
            if !self.vars.contains(&v) {
                return;
            }
            let fields = lv
                .proj
                .iter()
                .map_while(|s| match *s {
                    Proj::Field { strukt, index } => Some((strukt, index)),
                    _ => None,
                })
                .collect();
            self.addresses.entry(v).or_default().push(fields);
        }
    }
}

/// Finds the split arrays and the element parameters (see the module's documentation).
/// `recursive` holds the functions on call cycles; with `through_params` false (a
/// context-insensitive run, where no label is generic) no parameter is an element parameter.
/// A program where no call names an element of a global array of locks costs one pass over its
/// calls.
pub fn analyse(
    p: &Program,
    calls: &Calls,
    recursive: &FxHashMap<FuncId, usize>,
    through_params: bool,
) -> LockElements {
    // The globals some call names an element of, and the user functions' parameters such an
    // element is passed to.
    let mut uses = Uses::default();
    let mut passed_to: BTreeSet<(FuncId, u32)> = BTreeSet::new();
    for func in p.funcs.iter() {
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let StmtKind::Call { callee, args, .. } = &stmt.kind else {
                continue;
            };
            for (k, arg) in args.iter().enumerate() {
                let Some((array, _)) = array_element(p, arg) else {
                    continue;
                };
                uses.vars.insert(array.var);
                if let Callee::Direct(g) = callee {
                    if p.known_kind(*g).is_none() {
                        passed_to.insert((*g, k as u32));
                    }
                }
            }
        }
    }
    if uses.vars.is_empty() {
        return LockElements::default();
    }
    let address_taken = &calls.uses.addressed;
    let pointer_params = lock_pointer_params(p, &passed_to, recursive, address_taken);

    // (function, array, index) of every lock call on an element of a global array of locks,
    // and every address taken of those globals elsewhere.
    let mut lock_calls: Vec<(FuncId, LockArray, Proj)> = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            match &stmt.kind {
                StmtKind::Call { dst, callee, args } => {
                    let positions = lock_positions(p, callee, args.len(), &pointer_params);
                    for &(k, locks) in &positions {
                        if let (true, Some((a, index))) =
                            (locks, args.get(k).and_then(|a| array_element(p, a)))
                        {
                            lock_calls.push((f, a, *index));
                        }
                    }
                    if let Some(d) = dst {
                        uses.visit_lval(d);
                    }
                    if let Callee::Indirect(op) = callee {
                        uses.visit_operand(op);
                    }
                    for (k, a) in args.iter().enumerate() {
                        match a.without_casts() {
                            // The element itself is named, not published; its index is read.
                            Operand::AddrOf(lv) if positions.iter().any(|&(j, _)| j == k) => {
                                walk_operand(&mut uses, &Operand::Use(lv.clone()))
                            }
                            _ => uses.visit_operand(a),
                        }
                    }
                }
                StmtKind::Asm { operands } => {
                    for lv in operands {
                        uses.note_address(lv);
                    }
                    walk_stmt(&mut uses, &stmt.kind);
                }
                kind => walk_stmt(&mut uses, kind),
            }
        }
    }

    let (mut params, passes) = if through_params {
        element_params(p, recursive, address_taken, &lock_calls)
    } else {
        (BTreeMap::new(), Vec::new())
    };

    // The arrays: every lock call names a known element, and no address reaches one.
    let mut arrays: BTreeSet<LockArray> = lock_calls.iter().map(|(_, a, _)| a.clone()).collect();
    for (f, a, index) in &lock_calls {
        match element(p, *f, index) {
            Some(Element::Const(_)) => {}
            Some(Element::Param(k)) if params.contains_key(&(*f, k)) => {
                params.get_mut(&(*f, k)).expect("checked").insert(a.clone());
            }
            _ => {
                arrays.remove(a);
            }
        }
    }
    arrays.retain(|a| {
        !uses
            .addresses
            .get(&a.var)
            .is_some_and(|paths| paths.iter().any(|fields| a.fields.starts_with(fields)))
    });
    // What a parameter passes on, its callers' parameters name too.
    loop {
        let mut changed = false;
        for (from, to) in &passes {
            let names: Vec<LockArray> = params[to].iter().cloned().collect();
            let set = params.get_mut(from).expect("a pass is between parameters");
            for a in names {
                changed |= set.insert(a);
            }
        }
        if !changed {
            break;
        }
    }
    for set in params.values_mut() {
        set.retain(|a| arrays.contains(a));
    }
    params.retain(|_, set| !set.is_empty());
    LockElements {
        arrays,
        params,
        pointer_params,
    }
}

/// Element parameters, found up the call chains from the lock calls that index by a parameter:
/// the candidates, less those some call passes anything but a constant or a candidate of the
/// caller to, until nothing changes. Also returns the (caller's parameter, callee's parameter)
/// pairs of arguments that pass one on.
#[allow(clippy::type_complexity)]
fn element_params(
    p: &Program,
    recursive: &FxHashMap<FuncId, usize>,
    address_taken: &FxHashSet<FuncId>,
    lock_calls: &[(FuncId, LockArray, Proj)],
) -> (
    BTreeMap<(FuncId, u32), BTreeSet<LockArray>>,
    Vec<((FuncId, u32), (FuncId, u32))>,
) {
    let candidate = |f: FuncId, v: VarId| -> Option<u32> {
        let integer = matches!(p.types.get(p.vars[v].ty), Type::Int | Type::Char);
        if !integer || !analysable(p, f, recursive, address_taken) {
            return None;
        }
        unchanged_param(p, f, v)
    };
    let mut params: BTreeMap<(FuncId, u32), BTreeSet<LockArray>> = BTreeMap::new();
    for (f, _, index) in lock_calls {
        if let Proj::Index(Some(v)) = index {
            if let Some(k) = candidate(*f, *v) {
                params.insert((*f, k), BTreeSet::new());
            }
        }
    }
    // The calls of the functions with candidates; their callers' parameters passed on become
    // candidates in turn.
    let mut calls: Vec<(FuncId, FuncId, &[Operand])> = Vec::new();
    let mut collected: FxHashSet<FuncId> = FxHashSet::default();
    loop {
        let callees: FxHashSet<FuncId> = params
            .keys()
            .map(|&(f, _)| f)
            .filter(|f| !collected.contains(f))
            .collect();
        if callees.is_empty() {
            break;
        }
        collected.extend(&callees);
        let first = calls.len();
        for (caller, func) in p.funcs.iter_enumerated() {
            for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
                if let StmtKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } = &stmt.kind
                {
                    if callees.contains(g) {
                        calls.push((caller, *g, args));
                    }
                }
            }
        }
        let mut found = Vec::new();
        for &(caller, callee, args) in &calls[first..] {
            for (&(_, k), _) in params.range((callee, 0)..=(callee, u32::MAX)) {
                if let Some(Operand::Use(Lval {
                    base: Base::Var(v),
                    proj,
                    ..
                })) = args.get(k as usize).map(Operand::without_casts)
                {
                    if let (true, Some(j)) = (proj.is_empty(), candidate(caller, *v)) {
                        found.push((caller, j));
                    }
                }
            }
        }
        for key in found {
            params.entry(key).or_default();
        }
    }
    let mut passes: Vec<((FuncId, u32), (FuncId, u32))> = Vec::new();
    loop {
        let before = params.len();
        passes.clear();
        for &(caller, callee, args) in &calls {
            let keys: Vec<u32> = params
                .range((callee, 0)..=(callee, u32::MAX))
                .map(|(&(_, k), _)| k)
                .collect();
            for k in keys {
                match args.get(k as usize).and_then(|a| argument(p, caller, a)) {
                    Some(Element::Const(_)) => {}
                    Some(Element::Param(j)) if params.contains_key(&(caller, j)) => {
                        passes.push(((caller, j), (callee, k)));
                    }
                    _ => {
                        params.remove(&(callee, k));
                    }
                }
            }
        }
        if params.len() == before {
            break;
        }
    }
    (params, passes)
}
