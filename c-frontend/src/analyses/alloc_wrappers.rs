//! Allocation wrappers (`xmalloc`, `s_malloc`): user functions that return memory a library
//! allocator made in them and did nothing else with, so each call of one is an allocation of its
//! own, as a call of `malloc` is.
//!
//! Label flow is context-sensitive, but a function's labelled types share their *shapes* across
//! its calls. A wrapper's object, cast to a struct at one call and used as a string at another,
//! takes both shapes, and a character view overlaps every other: every object the wrapper ever
//! made became one conflated location, so unrelated objects raced with each other. A call of a
//! wrapper found here gets a fresh object at the call instead of an instance of the wrapper's
//! result (the constraint generator; the call's other effects are generated as usual), which is
//! what the object is at run time: nothing but the wrapper saw it, and the wrapper stored nothing
//! in it that the fresh object would lack.
//!
//! A function qualifies when it returns a pointer and
//! - every `return` returns one of its *result variables* (possibly converted) or `NULL`;
//! - a result variable is a local or temporary whose address is never taken, assigned only the
//!   result of a library allocator (a model row of kind `Alloc`: `malloc`, `calloc`, a configured
//!   allocator) or of another qualifying wrapper, another result variable, or `NULL`;
//! - a result variable's value is used only to be compared or converted to an integer, copied to
//!   another result variable, returned, freed, or passed as the only pointer argument to a library
//!   function that keeps no copy of it (`memset`); it is never dereferenced, stored elsewhere or
//!   passed to a user function.
//!
//! It reads the IR and the library model only; it never creates labels or constraints.

use rustc_hash::FxHashSet;

use crate::ir::ctypes::Type;
use crate::ir::visit::{walk_operand, Visitor};
use crate::ir::{
    Base, Callee, Func, FuncId, Lval, Operand, Origin, Program, StmtKind, Term, VarId, VarKind,
};
use crate::model::Kind;

/// The allocation wrappers of a program, in id order.
pub fn find(p: &Program) -> Vec<FuncId> {
    let mut found: FxHashSet<FuncId> = FxHashSet::default();
    // A wrapper may call another: repeat until no new one qualifies.
    loop {
        let mut grew = false;
        for (f, func) in p.funcs.iter_enumerated() {
            if !found.contains(&f) && qualifies(p, f, func, &found) {
                found.insert(f);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut out: Vec<FuncId> = found.into_iter().collect();
    out.sort();
    out
}

fn is_pointer(p: &Program, ty: crate::ir::ctypes::TypeId) -> bool {
    matches!(p.types.get(ty), Type::Pointer(_))
}

/// The variable an operand is, through conversions to pointers (`v`, `(T *)v`).
fn var_of(p: &Program, op: &Operand) -> Option<VarId> {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        Operand::Cast(ty, inner) if is_pointer(p, *ty) => var_of(p, inner),
        _ => None,
    }
}

/// Whether a call allocates: a library allocator, or a wrapper found so far.
fn allocates(p: &Program, callee: &Callee, found: &FxHashSet<FuncId>) -> bool {
    match callee {
        Callee::Direct(g) => p.known_kind(*g) == Some(Kind::Alloc) || found.contains(g),
        Callee::Indirect(_) => false,
    }
}

fn qualifies(p: &Program, f: FuncId, func: &Func, found: &FxHashSet<FuncId>) -> bool {
    if !func.defined || func.origin != Origin::User || func.blocks.is_empty() {
        return false;
    }
    if p.known(f).is_some() {
        return false;
    }
    let returns_pointer = matches!(
        p.types.get(func.ty),
        Type::Function { ret, .. } if is_pointer(p, *ret)
    );
    if !returns_pointer {
        return false;
    }
    let local = |v: VarId| {
        let var = &p.vars[v];
        !var.address_taken && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f)
    };
    // The result variables: those returned, and those copied into them.
    let mut results: FxHashSet<VarId> = FxHashSet::default();
    for block in func.blocks.iter() {
        match &block.term {
            Term::Return(Some(op), _) => match var_of(p, op) {
                Some(v) if local(v) => {
                    results.insert(v);
                }
                _ if is_null(op) => {}
                _ => return false,
            },
            Term::Return(None, _) => return false,
            _ => {}
        }
    }
    if results.is_empty() {
        return false;
    }
    loop {
        let mut grew = false;
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                if let StmtKind::Assign { dst, src } = &stmt.kind {
                    let Some(d) = var_of_lval(dst) else { continue };
                    if !results.contains(&d) {
                        continue;
                    }
                    if let Some(s) = var_of(p, src) {
                        if !local(s) {
                            return false;
                        }
                        grew |= results.insert(s);
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    func.blocks.iter().all(|block| {
        block
            .stmts
            .iter()
            .all(|stmt| stmt_allowed(p, &stmt.kind, &results, found))
            && term_allowed(p, &block.term, &results)
    })
}

/// Whether an operand is the null pointer constant (`0`, `(void *)0`): any other constant
/// converted to a pointer is no allocation.
fn is_null(op: &Operand) -> bool {
    matches!(op.without_casts(), Operand::Const(_, Some(0)))
}

/// The variable an lvalue is, when it is one named alone.
fn var_of_lval(lv: &Lval) -> Option<VarId> {
    match (&lv.base, lv.proj.is_empty()) {
        (Base::Var(v), true) => Some(*v),
        _ => None,
    }
}

/// Finds the uses of result variables an operand makes, other than as a compared or converted
/// integer: `value` is set when one's pointer value may flow on, `deref` when one is
/// dereferenced.
struct Uses<'a> {
    p: &'a Program,
    results: &'a FxHashSet<VarId>,
    value: bool,
    deref: bool,
}

impl Visitor for Uses<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        // A comparison or integer arithmetic yields no pointer: only what its operands
        // dereference counts, not the values they read.
        let integer =
            matches!(op, Operand::Arith(ty, _) | Operand::Cast(ty, _) if !is_pointer(self.p, *ty));
        let value = self.value;
        walk_operand(self, op);
        if integer {
            self.value = value;
        }
    }

    fn visit_lval(&mut self, lv: &Lval) {
        match &lv.base {
            Base::Var(v) => self.value |= self.results.contains(v),
            Base::Deref(op) => {
                // Whatever the dereferenced pointer is computed from is looked through.
                let value = std::mem::replace(&mut self.value, false);
                self.visit_operand(op);
                self.deref |= self.value;
                self.value = value;
            }
        }
    }
}

/// How an operand uses the result variables: (its pointer value may flow on, one is
/// dereferenced).
fn uses(p: &Program, op: &Operand, results: &FxHashSet<VarId>) -> (bool, bool) {
    let mut u = Uses {
        p,
        results,
        value: false,
        deref: false,
    };
    u.visit_operand(op);
    (u.value, u.deref)
}

/// Whether an lvalue written to dereferences a result variable (its base variable alone is the
/// destination, not a use).
fn lval_derefs(p: &Program, lv: &Lval, results: &FxHashSet<VarId>) -> bool {
    match &lv.base {
        Base::Var(_) => false,
        Base::Deref(op) => {
            let (value, deref) = uses(p, op, results);
            value || deref
        }
    }
}

fn stmt_allowed(
    p: &Program,
    kind: &StmtKind,
    results: &FxHashSet<VarId>,
    found: &FxHashSet<FuncId>,
) -> bool {
    match kind {
        StmtKind::Assign { dst, src } => {
            if lval_derefs(p, dst, results) {
                return false;
            }
            let (value, deref) = uses(p, src, results);
            match var_of_lval(dst) {
                Some(d) if results.contains(&d) => {
                    // Another result variable, or a constant.
                    !deref && (var_of(p, src).is_some() || is_null(src))
                }
                _ => !value && !deref,
            }
        }
        StmtKind::Call { dst, callee, args } => {
            if let Some(d) = dst {
                if lval_derefs(p, d, results) {
                    return false;
                }
                if var_of_lval(d).is_some_and(|v| results.contains(&v))
                    && !allocates(p, callee, found)
                {
                    return false;
                }
            }
            if let Callee::Indirect(op) = callee {
                let (value, deref) = uses(p, op, results);
                if value || deref {
                    return false;
                }
            }
            let arg_uses: Vec<(bool, bool)> = args.iter().map(|a| uses(p, a, results)).collect();
            if arg_uses.iter().any(|&(_, deref)| deref) {
                return false;
            }
            let passed = arg_uses.iter().filter(|&&(value, _)| value).count();
            if passed == 0 {
                return true;
            }
            // Passed on: only to `free`, or alone to a library function that keeps nothing.
            let Callee::Direct(g) = callee else {
                return false;
            };
            let spec = p.known(*g);
            if spec.is_some_and(|s| matches!(s.kind, Kind::Free { .. })) {
                return true;
            }
            let pointer_args = args
                .iter()
                .filter(|a| is_pointer(p, p.operand_type(a)))
                .count();
            spec.is_some_and(|s| s.non_capturing) && passed == 1 && pointer_args == 1
        }
        // A value evaluated for nothing goes nowhere.
        StmtKind::Eval(op) => !uses(p, op, results).1,
        StmtKind::Asm { operands } => !operands.iter().any(|lv| {
            var_of_lval(lv).is_some_and(|v| results.contains(&v)) || lval_derefs(p, lv, results)
        }),
    }
}

/// A branch may test a result variable; it must not look through one.
fn term_allowed(p: &Program, term: &Term, results: &FxHashSet<VarId>) -> bool {
    match term {
        Term::Branch { cond, .. } => !uses(p, cond, results).1,
        _ => true,
    }
}
