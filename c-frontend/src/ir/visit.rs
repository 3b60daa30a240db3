//! One walk over the IR for every pass that looks into operands and lvalues, in the style of
//! rustc's `Visitor`: a pass overrides the `visit_…` methods it cares about and calls the
//! matching `walk_…` function to go on into the children.
//!
//! The walk visits what an expression *names*: operands inside operands, the pointer operand of
//! a dereference, and the variables used as a base or as an array index. It never changes the IR,
//! but for [`stmt_operands_mut`] and [`stmt_lvals_mut`], the same walk over operands and
//! lvalues for the passes that rewrite them in place (`lower/thunks.rs`, `compatible.rs`,
//! `specialise.rs`).

use super::{Base, Block, Callee, Func, Lval, Operand, Proj, StmtKind, Term, VarId};

/// A pass over operands and lvalues. Every method's default goes on into the children.
pub trait Visitor {
    fn visit_operand(&mut self, op: &Operand) {
        walk_operand(self, op);
    }

    fn visit_lval(&mut self, lv: &Lval) {
        walk_lval(self, lv);
    }

    /// A variable named as an lvalue's base or as an array index.
    fn visit_var(&mut self, _v: VarId) {}
}

/// The children of an operand: the lvalue it reads or takes the address of, or its operands.
pub fn walk_operand<V: Visitor + ?Sized>(v: &mut V, op: &Operand) {
    match op {
        Operand::Use(lv) | Operand::AddrOf(lv) => v.visit_lval(lv),
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => v.visit_operand(inner),
        Operand::Arith(_, _, ops) => ops.iter().for_each(|o| v.visit_operand(o)),
        Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
    }
}

/// The children of an lvalue: its base variable or dereferenced pointer, and its index variables.
pub fn walk_lval<V: Visitor + ?Sized>(v: &mut V, lv: &Lval) {
    match &lv.base {
        Base::Var(x) => v.visit_var(*x),
        Base::Deref(op) => v.visit_operand(op),
    }
    for p in &lv.proj {
        if let Proj::Index(Some(x)) = p {
            v.visit_var(*x);
        }
    }
}

/// Every operand and lvalue of a statement: destination, callee, arguments, sources.
pub fn walk_stmt<V: Visitor + ?Sized>(v: &mut V, kind: &StmtKind) {
    match kind {
        StmtKind::Assign { dst, src } => {
            v.visit_lval(dst);
            v.visit_operand(src);
        }
        StmtKind::Call { dst, callee, args } => {
            if let Some(d) = dst {
                v.visit_lval(d);
            }
            if let Callee::Indirect(op) = callee {
                v.visit_operand(op);
            }
            args.iter().for_each(|a| v.visit_operand(a));
        }
        StmtKind::Eval(op) => v.visit_operand(op),
        StmtKind::Asm { operands } => operands.iter().for_each(|lv| v.visit_lval(lv)),
    }
}

/// The operand a terminator evaluates, if any.
pub fn walk_term<V: Visitor + ?Sized>(v: &mut V, term: &Term) {
    match term {
        Term::Branch { cond, .. } => v.visit_operand(cond),
        Term::Return(Some(op), _) => v.visit_operand(op),
        Term::Goto(_) | Term::Multi(..) | Term::Return(None, _) | Term::Exit => {}
    }
}

/// Every statement and terminator of a block.
pub fn walk_block<V: Visitor + ?Sized>(v: &mut V, block: &Block) {
    block.stmts.iter().for_each(|s| walk_stmt(v, &s.kind));
    walk_term(v, &block.term);
}

/// Every block of a function.
pub fn walk_func<V: Visitor + ?Sized>(v: &mut V, func: &Func) {
    func.blocks.iter().for_each(|b| walk_block(v, b));
}

/// How many times a variable is named (as a base or an index) in what a walk visits.
pub struct Mentions {
    pub var: VarId,
    pub count: usize,
}

impl Mentions {
    pub fn of(var: VarId) -> Mentions {
        Mentions { var, count: 0 }
    }
}

impl Visitor for Mentions {
    fn visit_var(&mut self, v: VarId) {
        self.count += usize::from(v == self.var);
    }
}

/// Whether a walk meets a `va_arg`.
#[derive(Default)]
pub struct FindsVaArg {
    pub found: bool,
}

impl Visitor for FindsVaArg {
    fn visit_operand(&mut self, op: &Operand) {
        if matches!(op, Operand::VaArg(..)) {
            self.found = true;
        } else {
            walk_operand(self, op);
        }
    }
}

/// Calls `f` on every operand of a statement, outermost first, and on the operands inside them:
/// the one walk for passes that rewrite operands in place.
pub fn stmt_operands_mut(kind: &mut StmtKind, f: &mut impl FnMut(&mut Operand)) {
    match kind {
        StmtKind::Assign { dst, src } => {
            lval_operands_mut(dst, f);
            operand_tree_mut(src, f);
        }
        StmtKind::Call { dst, callee, args } => {
            if let Some(dst) = dst {
                lval_operands_mut(dst, f);
            }
            if let Callee::Indirect(op) = callee {
                operand_tree_mut(op, f);
            }
            args.iter_mut().for_each(|a| operand_tree_mut(a, f));
        }
        StmtKind::Eval(op) => operand_tree_mut(op, f),
        StmtKind::Asm { operands } => operands.iter_mut().for_each(|lv| lval_operands_mut(lv, f)),
    }
}

/// [`stmt_operands_mut`] for a terminator's operands.
pub fn term_operands_mut(term: &mut Term, f: &mut impl FnMut(&mut Operand)) {
    match term {
        Term::Branch { cond, .. } => operand_tree_mut(cond, f),
        Term::Return(Some(op), _) => operand_tree_mut(op, f),
        Term::Goto(_) | Term::Multi(..) | Term::Return(None, _) | Term::Exit => {}
    }
}

/// Calls `f` on every lvalue of a statement once: those it writes or names at its top (an
/// assignment's or a call's destination, inline assembly's operands) and those inside its
/// operands, dereferenced pointers' included. The one walk for passes that rewrite lvalues in
/// place (`compatible.rs`, `specialise.rs`).
pub fn stmt_lvals_mut(kind: &mut StmtKind, f: &mut impl FnMut(&mut Lval)) {
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => f(dst),
        StmtKind::Asm { operands } => operands.iter_mut().for_each(&mut *f),
        StmtKind::Call { dst: None, .. } | StmtKind::Eval(_) => {}
    }
    stmt_operands_mut(kind, &mut |op| operand_lval(op, f));
}

/// [`stmt_lvals_mut`] for a terminator's operands.
pub fn term_lvals_mut(term: &mut Term, f: &mut impl FnMut(&mut Lval)) {
    term_operands_mut(term, &mut |op| operand_lval(op, f));
}

fn operand_lval(op: &mut Operand, f: &mut impl FnMut(&mut Lval)) {
    if let Operand::Use(lv) | Operand::AddrOf(lv) = op {
        f(lv);
    }
}

fn operand_tree_mut(op: &mut Operand, f: &mut impl FnMut(&mut Operand)) {
    f(op);
    match op {
        Operand::Use(lv) | Operand::AddrOf(lv) => lval_operands_mut(lv, f),
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => operand_tree_mut(inner, f),
        Operand::Arith(_, _, ops) => ops.iter_mut().for_each(|o| operand_tree_mut(o, f)),
        Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
    }
}

fn lval_operands_mut(lv: &mut Lval, f: &mut impl FnMut(&mut Operand)) {
    if let Base::Deref(op) = &mut lv.base {
        operand_tree_mut(op, f);
    }
}
