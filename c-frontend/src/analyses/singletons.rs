//! Global pointers filled lazily, one object per *epoch*: the creations whose objects the
//! thread analysis may count as one (an extension beyond the paper, whose linearity, §3.1,
//! counts an object created in a function that runs twice as two).
//!
//! ```c
//! static struct gate *gate, *aside;         // a guard and a companion
//! void start(void) {                        // called once per batch of threads
//!     if (gate != NULL) return;             // the guard's test
//!     gate = gate_make();                   // its creation
//!     aside = gate_make();                  // a companion's creation, in the guarded region
//! }
//! void stop(void) { join_all(); gate_drop(gate); gate = NULL; }   // a reset
//! ```
//!
//! What this module checks on the IR, for a *guard* `G`:
//!
//! - `G` is a global pointer variable, not thread-local, whose address is never taken, written
//!   only by initializers storing null, by *resets* `G = 0`, and by *creations* `G = f(…)`
//!   (directly, or through a temporary used once).
//! - Its value is never copied: every read of `G` is a comparison or a truth test, a
//!   dereference (`G->f` read or written), or an argument, itself or `&G->f`, of a function that
//!   keeps none of its arguments ([`Program::keeps_no_argument`]). `G` is the only reference to
//!   the object it holds.
//! - Every creation is *guarded*: every path from its function's entry to the creation's call
//!   passes the null side of a test of `G`, after which no statement writes `G` and no call may
//!   (one of a function that writes it, directly or through calls, one through a pointer, one
//!   handed a function); the callee of the creation may not write `G` either; and the creation
//!   lies on no cycle of its function.
//!
//! A *companion* `W` of `G` is written and read as `G` is, but any store of null is allowed,
//! and each of its creations lies in the *guarded region* of a creation of `G`: every path from
//! its function's entry to it passes a guarded store of `G`, after which nothing writes `G` and
//! no call may, and it lies on no cycle.
//!
//! The thread analysis then checks that the creations' functions run in no thread and that no
//! other thread may be running at any reset of `G` (`solver::threads::linearity`). The
//! argument: an *epoch* of `G` is the time between two of its resets. A guarded creation runs
//! only while `G` is null and sets it; the companions' creations run after it with `G` still
//! set; so each runs at most once per epoch (assuming a creation that returns does not leave
//! `G` null: going on with a null lock crashes at its first use). No thread runs across a
//! reset, and no reference to the objects of `G` or `W` is kept but `G` and `W`; so the
//! threads that may run at once all see the same object of each, and a lock created by a
//! creation stands for one lock at a time.
//!
//! It reads the IR and the library model only.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::analyses::joins::cfg::{on_any_cycle, Cfg};
use crate::analyses::joins::StmtAt;
use crate::ir::ctypes::Type;
use crate::ir::visit::{walk_stmt, walk_term, Visitor};
use crate::ir::{
    ArithOp, Base, BlockId, Callee, Comparison, FuncId, Lval, Operand, Program, StmtKind, Term,
    VarId, VarKind,
};

/// A guard and what runs at most once per epoch of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub var: VarId,
    /// The functions of the guard's and its companions' creations, sorted.
    pub creators: Vec<FuncId>,
    /// The calls of the creations of the guard and of its companions: each runs at most once
    /// per epoch of the guard.
    pub once: Vec<StmtAt>,
    /// The stores of null into the guard, outside the initializers: each starts a new epoch.
    pub resets: Vec<StmtAt>,
    /// The functions that name the guard or one of its companions, sorted: only a thread
    /// running one of them can reach their objects.
    pub users: Vec<FuncId>,
}

/// How the program writes one global pointer.
#[derive(Default)]
struct Writes {
    /// The creations: the call and the store (the same statement for `G = f(…)`).
    creations: Vec<(StmtAt, StmtAt)>,
    resets: Vec<StmtAt>,
    /// The functions that write it (initializers aside).
    writers: FxHashSet<FuncId>,
    /// Written in another way.
    other: bool,
}

/// The guards of the program, by variable.
pub fn guards(p: &Program, calls: &Calls) -> Vec<Guard> {
    let candidates: FxHashSet<VarId> = p
        .vars
        .iter_enumerated()
        .filter(|(_, v)| {
            matches!(
                v.kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            ) && !v.address_taken
                && matches!(p.types.get(v.ty), Type::Pointer(_))
        })
        .map(|(id, _)| id)
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let mut writes = writes(p, &candidates);
    writes.retain(|_, w| !w.other && !w.creations.is_empty());
    let created: FxHashSet<VarId> = writes.keys().copied().collect();
    let kept = Uses::never_copied(p, &created);
    writes.retain(|v, _| kept.contains(v));
    let mut vars: Vec<VarId> = writes.keys().copied().collect();
    vars.sort();
    let mut out = Vec::new();
    for &g in &vars {
        if let Some(guard) = guard(p, calls, g, &writes, &vars) {
            out.push(guard);
        }
    }
    out
}

/// The writes of each candidate, read from every statement of the program.
fn writes(p: &Program, candidates: &FxHashSet<VarId>) -> FxHashMap<VarId, Writes> {
    let mut out: FxHashMap<VarId, Writes> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        let init = f == p.global_init;
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let named = |lv: &Lval| lv.plain_var().filter(|v| candidates.contains(v));
                match &stmt.kind {
                    StmtKind::Assign { dst, src } => {
                        let Some(v) = named(dst) else { continue };
                        let w = out.entry(v).or_default();
                        if !init {
                            w.writers.insert(f);
                        }
                        if src.constant() == Some(0) {
                            if !init {
                                w.resets.push((f, b, k));
                            }
                        } else if let Some(call) = temporary_call(p, f, b, k, src).filter(|_| !init)
                        {
                            w.other |= !hands_no_pointer(p, &block.stmts[call].kind);
                            w.creations.push(((f, b, call), (f, b, k)));
                        } else {
                            w.other = true;
                        }
                    }
                    StmtKind::Call { dst: Some(dst), .. } => {
                        if let Some(v) = named(dst) {
                            let w = out.entry(v).or_default();
                            w.writers.insert(f);
                            w.other |= init || !hands_no_pointer(p, &stmt.kind);
                            w.creations.push(((f, b, k), (f, b, k)));
                        }
                    }
                    StmtKind::Asm { operands } => {
                        for lv in operands {
                            if let Base::Var(v) = lv.base {
                                if candidates.contains(&v) {
                                    out.entry(v).or_default().other = true;
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Whether a creation's call is handed no pointer but string literals: its callee then has
/// nowhere of the caller's to keep another reference to the object it returns.
fn hands_no_pointer(p: &Program, kind: &StmtKind) -> bool {
    let StmtKind::Call { callee, args, .. } = kind else {
        return false;
    };
    matches!(callee, Callee::Direct(_))
        && args.iter().all(|a| {
            matches!(a.without_casts(), Operand::Str(_) | Operand::Const(..))
                || !matches!(
                    p.types.get(p.operand_type(a)),
                    Type::Pointer(_) | Type::Array(_)
                )
        })
}

/// The index of the call that `src` (the source of statement `k`) takes its value from: a
/// temporary of the function, assigned by the call just before and named nowhere else.
fn temporary_call(p: &Program, f: FuncId, b: BlockId, k: usize, src: &Operand) -> Option<usize> {
    let Operand::Use(lv) = src.without_casts() else {
        return None;
    };
    let t = lv.plain_var()?;
    if !matches!(p.vars[t].kind, VarKind::Temp(g) if g == f) || p.vars[t].address_taken {
        return None;
    }
    let prev = k.checked_sub(1)?;
    let StmtKind::Call { dst: Some(d), .. } = &p.funcs[f].blocks[b].stmts[prev].kind else {
        return None;
    };
    if d.plain_var() != Some(t) {
        return None;
    }
    let mut count = crate::ir::visit::Mentions::of(t);
    crate::ir::visit::walk_func(&mut count, &p.funcs[f]);
    (count.count == 2).then_some(prev)
}

/// The candidate whose value `op` is, itself (through conversions).
fn value_of(op: &Operand, vars: &FxHashSet<VarId>) -> Option<VarId> {
    match op.without_casts() {
        Operand::Use(lv) => lv.plain_var().filter(|v| vars.contains(v)),
        _ => None,
    }
}

/// Whether `op` is the value of `var` itself.
fn is_value_of(op: &Operand, var: VarId) -> bool {
    matches!(op.without_casts(), Operand::Use(lv) if lv.plain_var() == Some(var))
}

/// The places that name each of `vars` (pointer variables), and those of them that use its
/// value without copying it: a store's destination, a comparison or a truth test, a
/// dereference, an argument of a function that keeps none. One walk of the program.
struct Uses<'a> {
    vars: &'a FxHashSet<VarId>,
    all: FxHashMap<VarId, usize>,
    harmless: FxHashMap<VarId, usize>,
}

impl Visitor for Uses<'_> {
    fn visit_var(&mut self, v: VarId) {
        if self.vars.contains(&v) {
            *self.all.entry(v).or_default() += 1;
        }
    }
}

impl<'a> Uses<'a> {
    /// The candidates of `vars` whose value is never copied.
    fn never_copied(p: &Program, vars: &'a FxHashSet<VarId>) -> FxHashSet<VarId> {
        let mut uses = Uses {
            vars,
            all: FxHashMap::default(),
            harmless: FxHashMap::default(),
        };
        for func in p.funcs.iter() {
            for block in func.blocks.iter() {
                for stmt in &block.stmts {
                    walk_stmt(&mut uses, &stmt.kind);
                    uses.stmt(p, &stmt.kind);
                }
                walk_term(&mut uses, &block.term);
                match &block.term {
                    Term::Branch { cond, .. } => match value_of(cond, vars) {
                        Some(v) => uses.count(v),
                        None => uses.operand(cond, false),
                    },
                    Term::Return(Some(op), _) => uses.operand(op, false),
                    _ => {}
                }
            }
        }
        vars.iter()
            .copied()
            .filter(|v| uses.all.get(v) == uses.harmless.get(v))
            .collect()
    }

    fn count(&mut self, v: VarId) {
        *self.harmless.entry(v).or_default() += 1;
    }

    /// A statement's places: a destination that is a candidate, or one written through.
    fn stmt(&mut self, p: &Program, kind: &StmtKind) {
        let vars = self.vars;
        let dst = |uses: &mut Self, lv: &Lval| match lv.plain_var().filter(|v| vars.contains(v)) {
            Some(v) => uses.count(v),
            None => uses.through(lv, true),
        };
        match kind {
            StmtKind::Assign { dst: d, src } => {
                dst(self, d);
                self.operand(src, false);
            }
            StmtKind::Call {
                dst: d,
                callee,
                args,
            } => {
                if let Some(d) = d {
                    dst(self, d);
                }
                if let Callee::Indirect(op) = callee {
                    self.operand(op, false);
                }
                let keeps_nothing = matches!(callee, Callee::Direct(g) if p.keeps_no_argument(*g));
                for a in args {
                    match value_of(a, vars).filter(|_| keeps_nothing) {
                        Some(v) => self.count(v),
                        None => self.operand(a, keeps_nothing),
                    }
                }
            }
            StmtKind::Eval(op) => match value_of(op, vars) {
                Some(v) => self.count(v),
                None => self.operand(op, false),
            },
            StmtKind::Asm { .. } => {}
        }
    }

    /// The places of `op`; `address_given` when `op` is an argument of a function that keeps
    /// nothing, where `&v->f` is no copy either.
    fn operand(&mut self, op: &Operand, address_given: bool) {
        let vars = self.vars;
        match op {
            Operand::Use(lv) => self.through(lv, true),
            Operand::AddrOf(lv) => self.through(lv, address_given),
            Operand::Cast(_, inner) => self.operand(inner, address_given),
            // A comparison or a negation yields a truth value, never the pointer.
            Operand::Arith(_, ArithOp::Compare(_) | ArithOp::Not, ops) => {
                for o in ops {
                    match value_of(o, vars) {
                        Some(v) => self.count(v),
                        None => self.operand(o, false),
                    }
                }
            }
            Operand::Arith(_, _, ops) => ops.iter().for_each(|o| self.operand(o, false)),
            Operand::VaArg(_, inner) => self.operand(inner, false),
            Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
        }
    }

    /// The places of lvalue `lv`: a dereference of a candidate, where `through` (read or
    /// written through; its address only where that is no copy).
    fn through(&mut self, lv: &Lval, through: bool) {
        if let Base::Deref(inner) = &lv.base {
            match value_of(inner, self.vars).filter(|_| through) {
                Some(v) => self.count(v),
                None => self.operand(inner, false),
            }
        }
    }
}

/// The null side of a branch that tests `var` against null, if `term` is one.
pub(crate) fn null_side(term: &Term, var: VarId) -> Option<BlockId> {
    let crate::ir::TwoWays {
        cond,
        then_block,
        else_block,
        compare,
    } = term.two_ways()?;
    let null_if_true = match (compare, cond.without_casts()) {
        (None, c) if is_value_of(c, var) => false,
        (None, Operand::Arith(_, ArithOp::Not, ops)) if ops.len() == 1 => {
            is_value_of(&ops[0], var).then_some(true)?
        }
        (Some(op @ (Comparison::Eq | Comparison::Ne)), Operand::Arith(_, _, ops))
            if ops.len() == 2 =>
        {
            let tested = (is_value_of(&ops[0], var) && ops[1].constant() == Some(0))
                || (is_value_of(&ops[1], var) && ops[0].constant() == Some(0));
            if !tested {
                return None;
            }
            op == Comparison::Eq
        }
        _ => return None,
    };
    Some(if null_if_true { then_block } else { else_block })
}

/// Whether a statement writes `var` by name (a destination or an assembly operand based on it).
fn writes_var(kind: &StmtKind, var: VarId) -> bool {
    let names = |lv: &Lval| matches!(lv.base, Base::Var(v) if v == var);
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => names(dst),
        StmtKind::Asm { operands } => operands.iter().any(names),
        _ => false,
    }
}

/// Whether a statement may write `var`: it writes it, or it is a call of a function in
/// `may_write`, through a pointer, or handing a function over.
fn disturbs(stmt: &crate::ir::Stmt, var: VarId, may_write: &FxHashSet<FuncId>) -> bool {
    writes_var(&stmt.kind, var) || may_call_a_writer(&stmt.kind, may_write)
}

/// Whether a statement may run a function of `may_write` (those whose calls may write some
/// variable): it calls one, calls through a pointer, hands a function over, or is assembly.
pub(crate) fn may_call_a_writer(kind: &StmtKind, may_write: &FxHashSet<FuncId>) -> bool {
    match kind {
        StmtKind::Call { callee, args, .. } => {
            !matches!(callee, Callee::Direct(g) if !may_write.contains(g))
                || args
                    .iter()
                    .any(|a| matches!(a.without_casts(), Operand::Func(_)))
        }
        StmtKind::Asm { .. } => true,
        _ => false,
    }
}

/// What a creation's call must be reached through: the null side of a test of the guard (a
/// guard's own creation), or a store of the guard (a companion's).
enum Through<'a> {
    NullTest,
    Stores(&'a FxHashSet<StmtAt>),
}

/// Whether the creation call at `at` runs at most once per epoch of guard `g`: it lies on no
/// cycle, its callee may not write `g`, and every path from its function's entry to it passes
/// `through`, after which no statement may write `g`.
fn once_per_epoch(
    p: &Program,
    (f, b, k): StmtAt,
    g: VarId,
    may_write: &FxHashSet<FuncId>,
    through: &Through<'_>,
) -> bool {
    let func = &p.funcs[f];
    let cfg = Cfg::new(func);
    if on_any_cycle(&cfg, b.0 as usize) {
        return false;
    }
    if let StmtKind::Call {
        callee: Callee::Direct(h),
        ..
    } = &func.blocks[b].stmts[k].kind
    {
        if may_write.contains(h) {
            return false;
        }
    }
    cfg.passes_before_edges(
        func,
        (b, k),
        |bb, kk| match through {
            Through::Stores(stores) if stores.contains(&(f, bb, kk)) => Some(true),
            _ if disturbs(&func.blocks[bb].stmts[kk], g, may_write) => Some(false),
            _ => None,
        },
        |from, to| {
            matches!(through, Through::NullTest)
                && null_side(&func.blocks[from].term, g) == Some(to)
        },
    )
}

/// `g` as a guard: every creation of it runs once per epoch, and so does every creation of its
/// companions. `None` when a creation of `g` may run more often, or it has none.
fn guard(
    p: &Program,
    calls: &Calls,
    g: VarId,
    writes: &FxHashMap<VarId, Writes>,
    vars: &[VarId],
) -> Option<Guard> {
    let own = &writes[&g];
    // Cheap first: every creation's function tests `g` against null somewhere (the walk over
    // the callers below is then asked of lazily filled pointers only).
    let tests_it = |&((f, _, _), _): &(StmtAt, StmtAt)| {
        (p.funcs[f].blocks.iter()).any(|block| null_side(&block.term, g).is_some())
    };
    if own.creations.is_empty() || !own.creations.iter().all(tests_it) {
        return None;
    }
    let may_write = calls.may_write(&own.writers);
    let guarded =
        |&(call, _): &(StmtAt, StmtAt)| once_per_epoch(p, call, g, &may_write, &Through::NullTest);
    if !own.creations.iter().all(guarded) {
        return None;
    }
    let stores: FxHashSet<StmtAt> = own.creations.iter().map(|&(_, store)| store).collect();
    let mut once: Vec<StmtAt> = own.creations.iter().map(|&(call, _)| call).collect();
    let mut named = vec![g];
    for &w in vars {
        let theirs = &writes[&w];
        let in_region = |&(call, _): &(StmtAt, StmtAt)| {
            stores.iter().any(|&(f, _, _)| f == call.0)
                && once_per_epoch(p, call, g, &may_write, &Through::Stores(&stores))
        };
        if w != g && !theirs.creations.is_empty() && theirs.creations.iter().all(in_region) {
            once.extend(theirs.creations.iter().map(|&(call, _)| call));
            named.push(w);
        }
    }
    let users: Vec<FuncId> = (p.funcs.iter_enumerated())
        .filter(|(_, func)| {
            named.iter().any(|&v| {
                let mut mentions = crate::ir::visit::Mentions::of(v);
                crate::ir::visit::walk_func(&mut mentions, func);
                mentions.count > 0
            })
        })
        .map(|(f, _)| f)
        .collect();
    once.sort();
    once.dedup();
    let mut creators: Vec<FuncId> = once.iter().map(|&(f, _, _)| f).collect();
    creators.dedup();
    let mut resets = own.resets.clone();
    resets.sort();
    Some(Guard {
        var: g,
        creators,
        once,
        resets,
        users,
    })
}
