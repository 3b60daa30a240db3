//! Which functions with a body keep none of the pointers they are given: a library stub (a body
//! of `libc-stubs/`) or a function of the program whose pointer parameters are only read or
//! written through, tested, or handed on to functions that keep nothing either. A call of such
//! a function lets a fresh object stay unique ([`super::uniqueness`]) as a `non_capturing` row
//! of the library model does: the socket a program `accept`s into a fresh connection record,
//! whose `&c->len` and `&c->peer` the stub only writes through, no longer makes the record look
//! published; nor does a buffer a worker allocates, fills through its own `read_reply(fd, buf)`
//! and frees. (Uniqueness is the paper's §3.2, intraprocedural there: a call of any function of
//! the program published its arguments.)
//!
//! The check is syntactic and conservative: a parameter's value copied anywhere (into a
//! variable, a member, the result), converted into an integer that is stored, or passed to a
//! function not known to keep nothing, makes the function one that may keep it; so does a
//! pointer parameter whose own address is taken (`memcpy(&g, &p, sizeof p)` copies it through
//! a function that keeps nothing). It reads the IR and the library model only, and never
//! changes either.

use rustc_hash::FxHashSet;

use crate::ir::ctypes::Type;
use crate::ir::{Base, Callee, FuncId, Lval, Operand, Origin, Program, StmtKind, Term, VarId};

/// The stubs and functions of the program that keep none of their pointer arguments, sorted.
/// Found as a greatest fixpoint: every one with a body starts as keeping nothing, and one that
/// hands a parameter to one found to keep it is dropped, until nothing changes.
pub fn non_capturing_functions(p: &Program) -> Vec<FuncId> {
    let stubs: Vec<FuncId> = p
        .funcs
        .iter_enumerated()
        .filter(|(_, f)| {
            f.defined && !f.blocks.is_empty() && matches!(f.origin, Origin::Stub | Origin::User)
        })
        .map(|(id, _)| id)
        .collect();
    let mut keeping_nothing: FxHashSet<FuncId> = stubs.iter().copied().collect();
    loop {
        let before = keeping_nothing.len();
        for &f in &stubs {
            if keeping_nothing.contains(&f) && !keeps_nothing(p, f, &keeping_nothing) {
                keeping_nothing.remove(&f);
            }
        }
        if keeping_nothing.len() == before {
            break;
        }
    }
    let mut out: Vec<FuncId> = keeping_nothing.into_iter().collect();
    out.sort();
    out
}

/// Whether `f` uses its pointer parameters only to reach memory, to test them, or as
/// arguments of functions that keep nothing (the model's `non_capturing` rows, or `others`).
fn keeps_nothing(p: &Program, f: FuncId, others: &FxHashSet<FuncId>) -> bool {
    let func = &p.funcs[f];
    let params: FxHashSet<VarId> = func
        .params
        .iter()
        .copied()
        .filter(|&v| matches!(p.types.get(p.vars[v].ty), Type::Pointer(_)))
        .collect();
    if params.iter().any(|&v| p.vars[v].address_taken) {
        return false;
    }
    let carries = |op: &Operand| value_of(p, op, &params);
    for block in func.blocks.iter() {
        for stmt in &block.stmts {
            let ok = match &stmt.kind {
                StmtKind::Assign { dst, src } => !carries(src) && !names(dst, &params),
                StmtKind::Call { dst, callee, args } => {
                    let keeps_nothing_callee = match callee {
                        Callee::Direct(g) => {
                            others.contains(g) || p.known(*g).is_some_and(|s| s.non_capturing)
                        }
                        Callee::Indirect(_) => false,
                    };
                    dst.as_ref().is_none_or(|d| !names(d, &params))
                        && (keeps_nothing_callee || !args.iter().any(&carries))
                }
                StmtKind::Eval(_) => true,
                StmtKind::Asm { operands } => !operands.iter().any(|lv| names(lv, &params)),
            };
            if !ok {
                return false;
            }
        }
        if let Term::Return(Some(op), _) = &block.term {
            if carries(op) {
                return false;
            }
        }
    }
    true
}

/// Whether evaluating `op` yields a value made from one of the pointers the stub was given: a
/// parameter in `params` itself, converted, offset, or the address of memory reached through
/// it, or a pointer taken out of its variadic arguments (`va_arg(ap, char *)`). A value read
/// out of that memory is not.
fn value_of(p: &Program, op: &Operand, params: &FxHashSet<VarId>) -> bool {
    match op {
        Operand::Use(lv) => matches!(lv.base, Base::Var(v) if params.contains(&v)),
        Operand::AddrOf(lv) => match &lv.base {
            Base::Var(v) => params.contains(v),
            Base::Deref(inner) => value_of(p, inner, params),
        },
        Operand::Cast(_, inner) => value_of(p, inner, params),
        Operand::Arith(_, _, ops) => ops.iter().any(|o| value_of(p, o, params)),
        Operand::VaArg(ty, _) => matches!(p.types.get(*ty), Type::Pointer(_)),
        Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => false,
    }
}

/// Whether `lv` is one of `params` itself (a parameter the stub assigns: what it held may
/// have been kept under another name before, so the stub is not trusted).
fn names(lv: &Lval, params: &FxHashSet<VarId>) -> bool {
    matches!(lv.base, Base::Var(v) if params.contains(&v))
}
