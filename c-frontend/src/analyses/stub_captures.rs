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

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::Type;
use crate::ir::{
    Base, Callee, FuncId, Lval, Operand, Origin, Program, StmtKind, Term, VarId, VarKind,
};

/// The stubs and functions of the program that keep none of their pointer arguments, sorted.
/// Found as a greatest fixpoint: every one with a body starts as keeping nothing, and one that
/// hands a parameter to one found to keep it is dropped, until nothing changes. A function
/// that only *returns* a pointer made from a parameter (`strstr`, `strchr`) keeps nothing else:
/// a caller may hold its result in a local, which then stands for the parameter it came from.
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
    let mut returning: FxHashSet<FuncId> = keeping_nothing.clone();
    // A function's verdict reads only its direct callees': when one drops, its callers are
    // looked at again (a worklist, not rounds over every function: the rounds were as many as
    // the longest chain of calls that drop one after the other).
    let mut callers: FxHashMap<FuncId, Vec<FuncId>> = FxHashMap::default();
    for &f in &stubs {
        for stmt in p.funcs[f].blocks.iter().flat_map(|b| &b.stmts) {
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &stmt.kind
            {
                callers.entry(*g).or_default().push(f);
            }
        }
    }
    let mut work: Vec<FuncId> = stubs.iter().rev().copied().collect();
    let mut queued: FxHashSet<FuncId> = stubs.iter().copied().collect();
    while let Some(f) = work.pop() {
        queued.remove(&f);
        if !returning.contains(&f) {
            continue;
        }
        let callees = Callees {
            keeping_nothing: &keeping_nothing,
            returning: &returning,
        };
        let dropped = match kept(p, f, &callees) {
            Keeps::Nothing => false,
            Keeps::Returned => keeping_nothing.remove(&f),
            Keeps::Anything => {
                let kept_nothing = keeping_nothing.remove(&f);
                returning.remove(&f) || kept_nothing
            }
        };
        if dropped {
            for &caller in callers.get(&f).into_iter().flatten() {
                if queued.insert(caller) {
                    work.push(caller);
                }
            }
        }
    }
    let mut out: Vec<FuncId> = keeping_nothing.into_iter().collect();
    out.sort();
    out
}

/// What a function may keep of its pointer arguments.
enum Keeps {
    Nothing,
    /// Only what it returns.
    Returned,
    Anything,
}

/// The callees found so far to keep nothing, and those that keep nothing but what they return.
struct Callees<'a> {
    keeping_nothing: &'a FxHashSet<FuncId>,
    returning: &'a FxHashSet<FuncId>,
}

impl Callees<'_> {
    /// How a direct call of `g` treats its arguments: `Some(false)` keeps none, `Some(true)`
    /// keeps none but may return one, `None` may keep them.
    fn of(&self, p: &Program, callee: &Callee) -> Option<bool> {
        let Callee::Direct(g) = callee else {
            return None;
        };
        if self.keeping_nothing.contains(g) || p.known(*g).is_some_and(|s| s.non_capturing) {
            Some(false)
        } else {
            self.returning.contains(g).then_some(true)
        }
    }
}

/// What `f` keeps of its pointer parameters: it uses them (and the locals holding pointers
/// made from them) only to reach memory, to test them, as arguments of functions that keep
/// nothing, or as arguments of functions that return one, whose result goes into such a local.
fn kept(p: &Program, f: FuncId, callees: &Callees) -> Keeps {
    let func = &p.funcs[f];
    let params: FxHashSet<VarId> = func
        .params
        .iter()
        .copied()
        .filter(|&v| matches!(p.types.get(p.vars[v].ty), Type::Pointer(_)))
        .collect();
    if params.iter().any(|&v| p.vars[v].address_taken) {
        return Keeps::Anything;
    }
    // A local of `f` whose address is never taken, named whole: every use of it is seen.
    let private = |lv: &Lval| {
        lv.plain_var().filter(|&v| {
            let var = &p.vars[v];
            !var.address_taken
                && !params.contains(&v)
                && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f)
        })
    };
    let mut carrying = params.clone();
    // A `va_list` that `va_start` (or `va_copy`) fills holds the variadic arguments: handing
    // it to a function that keeps what it reads (`va_arg`) keeps them.
    for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
        if let StmtKind::Call {
            callee: Callee::Direct(g),
            args,
            ..
        } = &stmt.kind
        {
            let list = args.first().map(Operand::without_casts);
            if p.known(*g).is_some_and(|s| s.fills_va_list) {
                match list {
                    Some(Operand::Use(lv) | Operand::AddrOf(lv)) => {
                        if let Base::Var(v) = lv.base {
                            carrying.insert(v);
                        }
                    }
                    _ => return Keeps::Anything,
                }
            }
        }
    }
    loop {
        let before = carrying.len();
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let into = match &stmt.kind {
                StmtKind::Assign { dst, src } if value_of(p, src, &carrying) => Some(dst),
                StmtKind::Call {
                    dst: Some(dst),
                    callee,
                    args,
                } if callees.of(p, callee) == Some(true)
                    && args.iter().any(|a| value_of(p, a, &carrying)) =>
                {
                    Some(dst)
                }
                _ => None,
            };
            let Some(dst) = into else { continue };
            match private(dst) {
                Some(v) => {
                    carrying.insert(v);
                }
                None => return Keeps::Anything,
            }
        }
        if carrying.len() == before {
            break;
        }
    }
    let carries = |op: &Operand| value_of(p, op, &carrying);
    let mut returned = false;
    for block in func.blocks.iter() {
        for stmt in &block.stmts {
            let ok = match &stmt.kind {
                StmtKind::Assign { dst, .. } => !names(dst, &params),
                StmtKind::Call { dst, callee, args } => {
                    dst.as_ref().is_none_or(|d| !names(d, &params))
                        && (callees.of(p, callee).is_some() || !args.iter().any(&carries))
                }
                StmtKind::Eval(_) => true,
                StmtKind::Asm { operands } => !operands.iter().any(|lv| names(lv, &carrying)),
            };
            if !ok {
                return Keeps::Anything;
            }
        }
        if let Term::Return(Some(op), _) = &block.term {
            returned |= carries(op);
        }
    }
    if returned {
        Keeps::Returned
    } else {
        Keeps::Nothing
    }
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
        // A comparison or a negation yields a truth value, never a pointer.
        Operand::Arith(_, crate::ir::ArithOp::Compare(_) | crate::ir::ArithOp::Not, _) => false,
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
