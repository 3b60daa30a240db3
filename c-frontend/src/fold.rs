//! Configuration that never changes: branches decided by variables that hold one value in every
//! run, and the code they make unreachable.
//!
//! A program's configuration is often a variable that is never changed (`static int use_cache =
//! 0;` with no other write) or a parameter that every call passes the same constant (`init(0)`
//! storing `server = 0`). Every thread then sees that one value, so a branch on it always goes
//! one way and the code on the other side never runs: its accesses cannot race and the threads it
//! would start never exist. This pass finds those values and decides those branches, after
//! lowering and before every analysis; with [`crate::devirtualize`], which runs after it, it is the
//! only pass that changes the IR after lowering.
//!
//! A variable *holds one value* when its address is never taken (so nothing writes it through a
//! pointer, not even unknown code) and every write of it in the program stores that value: a
//! global's initializer (its implicit zero when it has none) and each assignment; a parameter's
//! argument at each direct call of a function whose address is never taken. The values are
//! found as a fixpoint over those writes, starting from none (a write of a variable that holds
//! one value writes that value). The rule is flow-insensitive, so it needs no order between
//! threads: the value is the same before and after every write.
//!
//! It never decides a branch from anything it cannot prove: a variable's value is 0 or 1, which
//! every scalar type stores unchanged (the IR does not tell a `_Bool` or a `char` from an `int`),
//! compared with integer constants from 0 to `INT_MAX`, so C's conversions cannot change the
//! comparison; every write must be seen (nothing is folded when a function could not be lowered,
//! no global is assumed when the configuration replaced a function's body); and in an open world
//! (`--library`, `--entry`) a global or a function that other code can name (external linkage)
//! is never assumed. A decided branch keeps the reads
//! of its condition (as a statement evaluating it); the blocks that become unreachable are
//! emptied and end the path.

use crate::ir::ctypes::Type;
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Operand, Origin, Program, Stmt, StmtKind, Term, VarId,
    VarKind,
};
use solver::ids::{Idx, IndexVec};

/// What a variable holds, as far as the writes seen so far tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Value {
    /// No write seen yet.
    Unwritten,
    /// One constant.
    Const(i64),
    /// More than one value, or one the pass cannot tell.
    Varies,
}

impl Value {
    fn join(self, other: Value) -> Value {
        match (self, other) {
            (Value::Unwritten, x) | (x, Value::Unwritten) => x,
            (Value::Const(a), Value::Const(b)) if a == b => self,
            _ => Value::Varies,
        }
    }
}

/// A variable found to hold one value, by which branches were decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    pub var: VarId,
    pub value: i64,
}

/// What the pass changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    /// The variables whose value decided a branch, in id order.
    pub constants: Vec<Constant>,
    /// Branches decided.
    pub branches: usize,
    /// Blocks that became unreachable and were emptied.
    pub blocks: usize,
}

/// Decides the branches of `p` on variables that hold one value; `open_world` when code
/// locksmith does not see may call the program's external functions or write its external
/// globals (a library).
pub fn fold(p: &mut Program, open_world: bool) -> Folded {
    if !p.unanalysed.is_empty() {
        return Folded::default();
    }
    let (values, writes) = values(p, open_world);
    let mut folded = Folded::default();
    let mut deciding: Vec<VarId> = Vec::new();
    for func in p.funcs.iter_mut() {
        if !(func.defined && func.origin == Origin::User) || func.blocks.is_empty() {
            continue;
        }
        let mut changed = false;
        for block in func.blocks.iter_mut() {
            let Term::Branch {
                cond,
                then_block,
                else_block,
                pos,
                compare,
            } = &block.term
            else {
                continue;
            };
            let Some((taken, by)) = decide(&values, cond, *compare) else {
                continue;
            };
            let target = if taken { *then_block } else { *else_block };
            let stmt = Stmt {
                kind: StmtKind::Eval(cond.clone()),
                pos: *pos,
            };
            block.stmts.push(stmt);
            block.term = Term::Goto(target);
            deciding.extend(by);
            folded.branches += 1;
            changed = true;
        }
        if changed {
            folded.blocks += drop_unreachable(func);
        }
    }
    let mut deciding = named(p, &writes, deciding);
    deciding.sort();
    deciding.dedup();
    folded.constants = deciding
        .into_iter()
        .filter_map(|var| match values[var] {
            Value::Const(value) => Some(Constant { var, value }),
            _ => None,
        })
        .collect();
    folded
}

/// Whether a branch on `cond` (with the comparison it tests) is always taken, never taken, or
/// either; with the variables that decide it.
fn decide(
    values: &IndexVec<VarId, Value>,
    cond: &Operand,
    compare: Option<crate::ir::Comparison>,
) -> Option<(bool, Vec<VarId>)> {
    let mut by = Vec::new();
    let taken = match (compare, cond) {
        (None, _) => eval(values, cond, &mut by)? != 0,
        (Some(op), Operand::Arith(_, _, ops)) if ops.len() == 2 => {
            let l = eval(values, &ops[0], &mut by)?;
            let r = eval(values, &ops[1], &mut by)?;
            op.holds(l, r)
        }
        _ => return None,
    };
    (!by.is_empty()).then_some((taken, by))
}

/// The value of `op` when every run gives it one: a constant, or a variable that holds one
/// value, through conversions that cannot change it. Adds the variables read to `by`.
fn eval(values: &IndexVec<VarId, Value>, op: &Operand, by: &mut Vec<VarId>) -> Option<i64> {
    match op {
        Operand::Const(_, Some(v)) => known(*v),
        Operand::Use(lv) if lv.proj.is_empty() => match lv.base {
            Base::Var(v) => match values.get(v) {
                Some(Value::Const(c)) => {
                    by.push(v);
                    Some(*c)
                }
                _ => None,
            },
            Base::Deref(_) => None,
        },
        Operand::Cast(_, inner) => eval(values, inner, by).filter(|v| *v == 0 || *v == 1),
        _ => None,
    }
}

/// A constant the pass may compare: non-negative and within `int`, so that comparing two of
/// them gives what C gives whatever their types.
fn known(v: i64) -> Option<i64> {
    (0..=i64::from(i32::MAX)).contains(&v).then_some(v)
}

/// What storing the constant `v` into a variable is known to leave there: 0 and 1 are stored
/// unchanged by every scalar type (a `_Bool` turns 2 into 1, a `signed char` 200 into -56, and
/// the IR does not tell those types from `int`), every other value is unknown.
fn stored(v: i64) -> Value {
    if v == 0 || v == 1 {
        Value::Const(v)
    } else {
        Value::Varies
    }
}

/// The variables the user named among `vars` and behind the lowering's temporaries in it (a
/// temporary holding `p ?: q`'s `p` stands for `p`); a temporary with no such variable behind
/// it stays.
fn named(p: &Program, writes: &Writes, vars: Vec<VarId>) -> Vec<VarId> {
    let mut sources: rustc_hash::FxHashMap<VarId, Vec<VarId>> = Default::default();
    for (target, source) in &writes.all {
        if let (VarKind::Temp(_), Source::Var(v)) = (p.vars[*target].kind, source) {
            sources.entry(*target).or_default().push(*v);
        }
    }
    let mut out = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vars;
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        match sources.get(&v) {
            Some(behind) if !behind.is_empty() => stack.extend(behind.iter().copied()),
            _ => out.push(v),
        }
    }
    out
}

/// The value each variable holds ([`Value::Const`] for those that hold one, [`Value::Varies`]
/// for every other), with the writes it was found from.
fn values(p: &Program, open_world: bool) -> (IndexVec<VarId, Value>, Writes) {
    let candidate: IndexVec<VarId, bool> = p
        .vars
        .iter()
        .map(|var| may_hold_one_value(p, var, open_world))
        .collect();
    let mut writes = Writes::new(candidate);
    let mut initialised: Vec<bool> = vec![false; p.vars.len()];
    for (f, func) in p.funcs.iter_enumerated() {
        let at_init = f == p.global_init;
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                writes.of_stmt(p, &stmt.kind);
                if at_init {
                    if let StmtKind::Assign { dst, .. } = &stmt.kind {
                        if let Base::Var(v) = dst.base {
                            initialised[v.index()] = true;
                        }
                    }
                }
            }
        }
    }
    // A function called through a pointer (or by the C library, or as a thread) may get any
    // argument.
    let mut taken = std::mem::take(&mut writes.address_taken);
    taken.sort();
    taken.dedup();
    for f in taken {
        for &param in &p.funcs[f].params {
            writes.add(param, Source::Value(Value::Varies));
        }
    }
    // A global without an initializer starts as zero (C11 6.7.9p10).
    for (v, var) in p.vars.iter_enumerated() {
        if matches!(var.kind, VarKind::Global { .. }) && !initialised[v.index()] {
            writes.add(v, Source::Value(Value::Const(0)));
        }
    }
    // The variables written with a value nobody can tell vary whatever their other writes.
    let mut values: IndexVec<VarId, Value> = writes
        .candidate
        .iter()
        .map(|&c| if c { Value::Unwritten } else { Value::Varies })
        .collect();
    writes.solve(&mut values);
    for v in values.iter_mut() {
        if *v == Value::Unwritten {
            *v = Value::Varies;
        }
    }
    (values, writes)
}

/// Whether `var` can hold one value at all: a scalar whose address is never taken, of the
/// program (not of the C library), that no code outside it can name.
fn may_hold_one_value(p: &Program, var: &crate::ir::Var, open_world: bool) -> bool {
    let scalar = matches!(
        p.types.get(var.ty),
        Type::Char | Type::Int | Type::Pointer(_)
    );
    if !scalar || var.address_taken || var.atomic || var.volatile || var.origin != Origin::User {
        return false;
    }
    match var.kind {
        // A body the configuration replaced is not in the IR: its writes are unseen.
        VarKind::Global {
            defined, is_static, ..
        } => defined && (is_static || !open_world) && p.configured.is_empty(),
        VarKind::Local(_) | VarKind::Temp(_) => true,
        VarKind::Param(f, _) => {
            let func = &p.funcs[f];
            func.defined
                && func.origin == Origin::User
                && func.name != "main"
                && (func.is_static || !open_world)
        }
        VarKind::StringLit => false,
    }
}

/// Where a write's value comes from.
#[derive(Copy, Clone, Debug)]
enum Source {
    Value(Value),
    /// The value of a variable (through conversions, which keep 0 and 1).
    Var(VarId),
}

impl Source {
    /// What a write of `op` stores: a constant's value as stored ([`stored`]), a variable's
    /// value, or [`Value::Varies`].
    fn of(op: &Operand) -> Source {
        match op {
            Operand::Const(_, Some(v)) => Source::Value(stored(*v)),
            Operand::Use(lv) if lv.proj.is_empty() => match lv.base {
                Base::Var(v) => Source::Var(v),
                Base::Deref(_) => Source::Value(Value::Varies),
            },
            Operand::Cast(_, inner) => Source::of(inner),
            _ => Source::Value(Value::Varies),
        }
    }
}

/// Every write of every variable, with which writes read each variable (to revisit them when
/// its value changes).
struct Writes {
    /// Per write: the variable written and its source.
    all: Vec<(VarId, Source)>,
    /// Per variable: the writes whose source reads it.
    readers: rustc_hash::FxHashMap<VarId, Vec<u32>>,
    /// Functions whose address is taken: their parameters take any value.
    address_taken: Vec<FuncId>,
    /// Per variable: whether it can hold one value at all ([`may_hold_one_value`]).
    candidate: IndexVec<VarId, bool>,
}

impl Writes {
    fn new(candidate: IndexVec<VarId, bool>) -> Writes {
        Writes {
            all: Vec::new(),
            readers: rustc_hash::FxHashMap::default(),
            address_taken: Vec::new(),
            candidate,
        }
    }

    /// Records a write of `v`; a write of a variable that cannot hold one value changes
    /// nothing and is not kept, and one of an unknown value leaves `v` no candidate.
    fn add(&mut self, v: VarId, source: Source) {
        if !self.candidate[v] {
            return;
        }
        if let Source::Value(Value::Varies) = source {
            self.candidate[v] = false;
            return;
        }
        let k = self.all.len() as u32;
        if let Source::Var(r) = source {
            self.readers.entry(r).or_default().push(k);
        }
        self.all.push((v, source));
    }

    /// The writes a statement makes to variables (not through pointers, which only reach
    /// variables whose address is taken).
    fn of_stmt(&mut self, p: &Program, kind: &StmtKind) {
        match kind {
            StmtKind::Assign { dst, src } => {
                if let Base::Var(v) = dst.base {
                    let source = if dst.proj.is_empty() {
                        Source::of(src)
                    } else {
                        Source::Value(Value::Varies)
                    };
                    self.add(v, source);
                }
                self.note_functions(src);
            }
            StmtKind::Call { dst, callee, args } => {
                if let Some(Base::Var(v)) = dst.as_ref().map(|d| &d.base) {
                    self.add(*v, Source::Value(Value::Varies));
                }
                if let Callee::Direct(g) = callee {
                    let params = &p.funcs[*g].params;
                    for (k, &param) in params.iter().enumerate() {
                        let source = args.get(k).map_or(Source::Value(Value::Varies), Source::of);
                        self.add(param, source);
                    }
                }
                if let Callee::Indirect(op) = callee {
                    self.note_functions(op);
                }
                for a in args {
                    self.note_functions(a);
                }
            }
            StmtKind::Eval(op) => self.note_functions(op),
            StmtKind::Asm { operands } => {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        self.add(v, Source::Value(Value::Varies));
                    }
                }
            }
        }
    }

    /// Notes the functions whose address `op` takes.
    fn note_functions(&mut self, op: &Operand) {
        struct Taken<'a>(&'a mut Vec<FuncId>);
        impl crate::ir::visit::Visitor for Taken<'_> {
            fn visit_operand(&mut self, op: &Operand) {
                if let Operand::Func(f) = op {
                    self.0.push(*f);
                }
                crate::ir::visit::walk_operand(self, op);
            }
        }
        crate::ir::visit::Visitor::visit_operand(&mut Taken(&mut self.address_taken), op);
    }

    /// Joins every write into `values` until nothing changes: a worklist over the writes, each
    /// revisited when a variable its source reads changes.
    fn solve(&mut self, values: &mut IndexVec<VarId, Value>) {
        let mut queue: Vec<u32> = (0..self.all.len() as u32).rev().collect();
        let mut queued = vec![true; self.all.len()];
        while let Some(k) = queue.pop() {
            queued[k as usize] = false;
            let (v, source) = &self.all[k as usize];
            if values[*v] == Value::Varies {
                continue;
            }
            let value = match *source {
                Source::Value(x) => x,
                Source::Var(r) => values[r],
            };
            let joined = values[*v].join(value);
            if joined != values[*v] {
                values[*v] = joined;
                for &r in self.readers.get(v).into_iter().flatten() {
                    if !std::mem::replace(&mut queued[r as usize], true) {
                        queue.push(r);
                    }
                }
            }
        }
    }
}

/// Empties the blocks of `func` that its entry no longer reaches, ending their paths, and drops
/// the counted loops that lost their shape; returns how many blocks were emptied.
fn drop_unreachable(func: &mut Func) -> usize {
    let n = func.blocks.len();
    let mut reached = vec![false; n];
    let mut stack = vec![0usize];
    reached[0] = true;
    while let Some(b) = stack.pop() {
        for s in func.blocks[BlockId(b as u32)].term.successors() {
            if !std::mem::replace(&mut reached[s.index()], true) {
                stack.push(s.index());
            }
        }
    }
    let mut emptied = 0;
    for (b, block) in func.blocks.iter_mut().enumerate() {
        if !reached[b] {
            block.stmts.clear();
            block.term = Term::Exit;
            emptied += 1;
        }
    }
    let blocks = &func.blocks;
    func.counted_loops.retain(|l| {
        [l.head, l.body, l.step, l.exit]
            .iter()
            .all(|b| reached[b.index()])
            && matches!(blocks[l.head].term, Term::Branch { .. })
    });
    emptied
}
