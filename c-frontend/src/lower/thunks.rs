//! Library functions used as values: each one the program takes the address of (`my_malloc =
//! malloc`, a table of `{ "lock", pthread_mutex_lock }`, `qsort(…, strcmp)`) is replaced, as a
//! value, by a *thunk*, a function of the same type whose body calls it directly. A call through
//! a pointer that holds `malloc` then allocates, one holding `pthread_mutex_lock` locks and one
//! holding a function locksmith cannot see touches its arguments, exactly as a direct call does
//! (the model, the stubs and the defaults for unknown code are all keyed by direct calls); before,
//! a library function reached through a pointer did nothing but get listed as unknown.
//!
//! This pass owns the thunks: it makes them and rewrites the designators. It never changes a
//! direct call, nor a designator of a function the program defines, and it runs once, on the
//! linked program, before any analysis.

use rustc_hash::FxHashMap;
use solver::ids::{Idx, IndexVec};

use crate::ir::ctypes::Type;
use crate::ir::visit;
use crate::ir::{
    Base, Block, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Pos, Program, Stmt,
    StmtKind, Term, Var, VarId, VarKind,
};

/// Replaces every designator of a library function used as a value with the function's thunk,
/// made at the first such use (in function order, then block and statement order), which is
/// where the thunk's body is said to be.
pub fn through_pointers(p: &mut Program) {
    let mut thunks: FxHashMap<FuncId, FuncId> = FxHashMap::default();
    for f in p.funcs.indices() {
        let mut blocks = std::mem::take(&mut p.funcs[f].blocks);
        for block in blocks.iter_mut() {
            for stmt in &mut block.stmts {
                let pos = stmt.pos;
                visit::stmt_operands_mut(&mut stmt.kind, &mut |op| {
                    redirect(p, &mut thunks, op, pos)
                });
            }
            let pos = term_pos(&block.term, p.funcs[f].pos);
            visit::term_operands_mut(&mut block.term, &mut |op| redirect(p, &mut thunks, op, pos));
        }
        p.funcs[f].blocks = blocks;
    }
    let mut made: Vec<(FuncId, FuncId)> = thunks.into_iter().map(|(f, t)| (t, f)).collect();
    made.sort();
    p.thunks = made;
}

/// Whether `f` has no body the analysis walks: a library function (modelled, a stub or
/// unknown), or one whose configured role replaced its body.
fn is_library(p: &Program, f: FuncId) -> bool {
    let func = &p.funcs[f];
    !(func.defined && func.origin == Origin::User)
}

/// `op` is a designator of a library function: make it its thunk's.
fn redirect(p: &mut Program, thunks: &mut FxHashMap<FuncId, FuncId>, op: &mut Operand, pos: Pos) {
    let Operand::Func(f) = *op else {
        return;
    };
    if !is_library(p, f) {
        return;
    }
    let thunk = match thunks.get(&f) {
        Some(&t) => t,
        None => {
            let Some(t) = make_thunk(p, f, pos) else {
                return;
            };
            thunks.insert(f, t);
            t
        }
    };
    *op = Operand::Func(thunk);
}

/// The thunk of library function `f`, said to be at `pos`: parameters of `f`'s declared types,
/// one block calling `f` with them and returning its result. `None` when `f`'s type is not a
/// function type. A variadic function's thunk passes its fixed parameters only.
fn make_thunk(p: &mut Program, f: FuncId, pos: Pos) -> Option<FuncId> {
    let ty = p.funcs[f].ty;
    let Type::Function { ret, params, .. } = p.types.get(ty).clone() else {
        return None;
    };
    let id = FuncId::new(p.funcs.len());
    let var = |name: String, ty, kind| Var {
        name,
        ty,
        kind,
        pos,
        address_taken: false,
        captured: false,
        origin: Origin::User,
        atomic: false,
        volatile: false,
        signal_atomic: false,
    };
    let param_vars: Vec<VarId> = params
        .iter()
        .enumerate()
        .map(|(k, &t)| {
            p.vars
                .push(var(format!("arg{k}"), t, VarKind::Param(id, k as u32)))
        })
        .collect();
    let returns = !matches!(p.types.get(ret), Type::Void);
    let result = returns.then(|| p.vars.push(var("result".into(), ret, VarKind::Temp(id))));
    let lval = |v: VarId| Lval {
        base: Base::Var(v),
        proj: Vec::new(),
        pos,
    };
    let call = Stmt {
        kind: StmtKind::Call {
            dst: result.map(lval),
            callee: Callee::Direct(f),
            args: param_vars.iter().map(|&v| Operand::Use(lval(v))).collect(),
        },
        pos,
    };
    let mut blocks: IndexVec<BlockId, Block> = IndexVec::new();
    blocks.push(Block {
        stmts: vec![call],
        term: Term::Return(result.map(|v| Operand::Use(lval(v))), pos),
    });
    let library = &p.funcs[f];
    let thunk = Func {
        name: format!("{} (through a pointer)", library.name),
        ty,
        params: param_vars,
        locals: result.into_iter().collect(),
        blocks,
        pos,
        defined: true,
        is_static: true,
        origin: Origin::User,
        counted_loops: Vec::new(),
        const_pointees: library.const_pointees.clone(),
    };
    let pushed = p.funcs.push(thunk);
    debug_assert_eq!(pushed, id);
    p.known.push(None);
    Some(id)
}

/// Where a terminator's operands are read: a branch's or return's own position, else the
/// function's.
fn term_pos(term: &Term, fallback: Pos) -> Pos {
    match term {
        Term::Branch { pos, .. } | Term::Return(_, pos) => *pos,
        _ => fallback,
    }
}
