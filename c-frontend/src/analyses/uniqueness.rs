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

use rustc_hash::{FxHashMap, FxHashSet};
use solver::dataflow;

use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Program, StmtKind, Term, VarId, VarKind,
};

/// The allocating statement of a fresh object (its block and index).
type AllocAt = (u32, u32);

/// The unique pointers before each statement and at each block's terminator.
#[derive(Clone, Debug, Default)]
pub struct Uniqueness {
    before: FxHashMap<(BlockId, usize), Vec<VarId>>,
    at_term: FxHashMap<BlockId, Vec<VarId>>,
}

impl Uniqueness {
    /// The unique pointer variables before statement `k` of block `b`.
    pub fn before(&self, b: BlockId, k: usize) -> &[VarId] {
        self.before.get(&(b, k)).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The unique pointer variables when block `b`'s terminator is evaluated.
    pub fn at_term(&self, b: BlockId) -> &[VarId] {
        self.at_term.get(&b).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The variable a pointer operand is computed from: `v`, `v + k`, `(T *)v`, `&v->f`. In pointer
/// arithmetic only the pointer operand counts (`v + n` for an integer variable `n`).
pub fn base_var(p: &Program, op: &Operand) -> Option<VarId> {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => matches!(
            p.types.get(p.vars[*v].ty),
            crate::ir::ctypes::Type::Pointer(_)
        )
        .then_some(*v),
        Operand::Cast(_, inner) => base_var(p, inner),
        Operand::Arith(_, ops) => {
            let mut found = None;
            for o in ops {
                if let Some(v) = base_var(p, o) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(v);
                }
            }
            found
        }
        Operand::AddrOf(lv) => match &lv.base {
            Base::Deref(inner) => base_var(p, inner),
            Base::Var(_) => None,
        },
        _ => None,
    }
}

type State = FxHashMap<VarId, AllocAt>;

struct Analysis<'a> {
    p: &'a Program,
    f: FuncId,
}

impl Analysis<'_> {
    fn trackable(&self, v: VarId) -> bool {
        let var = &self.p.vars[v];
        !var.address_taken
            && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == self.f)
    }

    /// Every variable sharing `tag` leaves the state.
    fn escape(state: &mut State, tag: AllocAt) {
        state.retain(|_, t| *t != tag);
    }

    /// Escapes every tracked pointer an operand uses as a value (not as the base of an access).
    fn escape_uses(&self, state: &mut State, op: &Operand) {
        match op {
            Operand::Use(lv) => {
                if let (Base::Var(v), true) = (&lv.base, lv.proj.is_empty()) {
                    if let Some(&tag) = state.get(v) {
                        Self::escape(state, tag);
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
            Operand::Arith(_, ops) => {
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
            Operand::Arith(_, ops) => {
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
                // A copy into a tracked local keeps the object unique under both names.
                let tracked_dst = match (&dst.base, dst.proj.is_empty()) {
                    (Base::Var(d), true) if self.trackable(*d) => Some(*d),
                    _ => None,
                };
                let copied = base_var(self.p, src).and_then(|v| state.get(&v).copied());
                self.lval_uses(state, dst);
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
                let keeps = !spec.is_some_and(|s| s.non_capturing);
                for a in args {
                    if keeps {
                        self.escape_uses(state, a);
                    } else {
                        self.reads_only(state, a);
                    }
                }
                if let Some(d) = dst {
                    self.lval_uses(state, d);
                    if let (Base::Var(v), true) = (&d.base, d.proj.is_empty()) {
                        state.remove(v);
                        let wrapper =
                            matches!(callee, Callee::Direct(g) if self.p.is_alloc_wrapper(*g));
                        if (wrapper || spec.is_some_and(|s| s.fresh_result)) && self.trackable(*v) {
                            state.insert(*v, at);
                        }
                    }
                }
            }
            StmtKind::Eval(op) => self.reads_only(state, op),
            StmtKind::Asm { operands } => {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        if let Some(&tag) = state.get(&v) {
                            Self::escape(state, tag);
                        }
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
    let func: &Func = &p.funcs[f];
    let a = Analysis { p, f };
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
                    let mut vars: Vec<VarId> = state.keys().copied().collect();
                    vars.sort();
                    r.before.insert((BlockId(b as u32), k), vars);
                }
            }
            a.step(&mut state, &stmt.kind, (b as u32, k as u32));
        }
        if let Some(r) = record {
            if !state.is_empty() {
                let mut vars: Vec<VarId> = state.keys().copied().collect();
                vars.sort();
                r.at_term.insert(BlockId(b as u32), vars);
            }
        }
        a.term(&mut state, &block.term);
        state
    };
    let succs = func.successor_lists();
    // A must analysis: a block no path reaches yet is ⊤, and merging intersects.
    let entry = dataflow::forward(
        &mut (),
        n,
        |b| &succs[b],
        State::default(),
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

/// The set form, for lookups.
pub fn as_set(vars: &[VarId]) -> FxHashSet<VarId> {
    vars.iter().copied().collect()
}
