//! Thread ids in heap blocks (`pthread_t *w = calloc(n, …)`, or one `struct worker *w =
//! malloc(…)` holding its thread's id): the local pointers through which such a block is
//! reachable only by its one create and the joins.

use rustc_hash::{FxHashMap, FxHashSet};

use super::*;
use crate::ir::visit::{walk_func, Mentions, Visitor};

/// The variables whose pointer value an operand may be: `w` itself, through casts, arithmetic
/// and addresses of what it points to (`&w[k]`), but not values read through it (`w[k]`).
pub(super) fn pointer_sources(op: &Operand, out: &mut Vec<VarId>) {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v), ..
        }) => out.push(*v),
        Operand::Use(_) | Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
        Operand::AddrOf(lv) => {
            if let Base::Deref(ptr) = &lv.base {
                pointer_sources(ptr, out);
            }
        }
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => pointer_sources(inner, out),
        Operand::Arith(_, _, ops) => ops.iter().for_each(|o| pointer_sources(o, out)),
    }
}

/// Whether a call is `malloc` or `calloc` storing its result in plain variable `v`.
pub(super) fn allocates_into(kind: &StmtKind, v: VarId, allocs: &FxHashSet<FuncId>) -> bool {
    matches!(kind, StmtKind::Call {
        dst: Some(Lval { base: Base::Var(d), proj, .. }),
        callee: Callee::Direct(c),
        ..
    } if *d == v && proj.is_empty() && allocs.contains(c))
}

/// Whether statement `(b, k)` of `func` assigns plain variable `w` a fresh `malloc` or `calloc`
/// block: directly, or through the lowering's temporary for the call's result (possibly cast),
/// written only by the allocation and read only there.
fn assigns_fresh_block(
    p: &Program,
    f: FuncId,
    func: &Func,
    (b, k): (BlockId, usize),
    w: VarId,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    calls: &ThreadCalls,
) -> bool {
    let only_write = |v: VarId| -> Option<(BlockId, usize)> {
        match assigns.get(&v).map(Vec::as_slice) {
            Some(&[(g, b, k)]) if g == f => Some((b, k)),
            _ => None,
        }
    };
    match &func.blocks[b].stmts[k].kind {
        kind @ StmtKind::Call { .. } => allocates_into(kind, w, &calls.allocs),
        StmtKind::Assign { dst, src } => {
            matches!(dst.base, Base::Var(d) if d == w)
                && dst.proj.is_empty()
                && match src.without_casts() {
                    Operand::Use(Lval {
                        base: Base::Var(tmp),
                        proj,
                        ..
                    }) if proj.is_empty() => {
                        let t = &p.vars[*tmp];
                        matches!(t.kind, VarKind::Temp(g) if g == f)
                            && !t.address_taken
                            && only_write(*tmp).is_some_and(|(tb, tk)| {
                                allocates_into(&func.blocks[tb].stmts[tk].kind, *tmp, &calls.allocs)
                            })
                            && mentions_in_func(func, *tmp) == 2
                    }
                    _ => false,
                }
        }
        _ => false,
    }
}

/// The local pointers of a function through which thread ids in a heap block can be trusted,
/// with the block of their one assignment: a local of `f` whose address is never taken, assigned
/// exactly once, on no cycle, with a fresh `malloc` or `calloc` block (directly or through the
/// lowering's temporary, possibly cast); whose value never leaves the function or is used to
/// write the block (it appears only in branch conditions, in reads of the elements, as
/// `free(w)`, and as the thread id of at most one create, which must have the form `&w[i]`,
/// `w + i` or `&w->id`). The block is then reachable only through `w`, and written only by that
/// create.
pub(super) fn trusted_heaps(
    p: &Program,
    f: FuncId,
    func: &Func,
    cyclic: &[bool],
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    calls: &ThreadCalls,
) -> FxHashMap<VarId, BlockId> {
    let mut candidates: FxHashMap<VarId, BlockId> = FxHashMap::default();
    for &w in &func.locals {
        let var = &p.vars[w];
        if var.address_taken
            || !matches!(var.kind, VarKind::Local(g) if g == f)
            || !matches!(p.types.get(var.ty), Type::Pointer(_))
        {
            continue;
        }
        let Some(&[(g, b, k)]) = assigns.get(&w).map(Vec::as_slice) else {
            continue;
        };
        if g == f
            && !cyclic[b.0 as usize]
            && assigns_fresh_block(p, f, func, (b, k), w, assigns, calls)
        {
            candidates.insert(w, b);
        }
    }
    if candidates.is_empty() {
        return candidates;
    }
    let mut escaped: Vec<VarId> = Vec::new();
    let mut created: FxHashMap<VarId, usize> = FxHashMap::default();
    escapes(p, func, calls, &candidates, &mut escaped, &mut created);
    for w in escaped {
        candidates.remove(&w);
    }
    candidates.retain(|w, _| created.get(w).is_none_or(|&n| n <= 1));
    candidates
}

/// The global pointers through which thread ids in a heap block can be trusted (`pthread_t
/// *workers;` with `workers = calloc(n, …)` in `main`), with the function and block of their
/// one assignment: as [`trusted_heaps`]' locals, but for a global, defined in the program and
/// not thread-local, whose address is never taken; assigned a fresh block exactly once in the
/// whole program, on no cycle of a user function (its initializer, if any, a null pointer);
/// and whose value no function lets leave or uses to write the block, but for the one create.
/// Reads of the elements may be anywhere. Creates through it count as global handles
/// ([`JoinPlan::global`]): a second run of the assigning function overlapping the first would
/// overwrite the pointer, which the thread analysis rules out as for a global array of ids.
pub(super) fn trusted_global_heaps(
    p: &Program,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    calls: &ThreadCalls,
) -> FxHashMap<VarId, (FuncId, BlockId)> {
    let mut candidates: FxHashMap<VarId, BlockId> = FxHashMap::default();
    let mut home: FxHashMap<VarId, FuncId> = FxHashMap::default();
    let is_init = |g: FuncId| p.funcs[g].origin == Origin::GlobalInit;
    for (w, var) in p.vars.iter_enumerated() {
        let global = matches!(
            var.kind,
            VarKind::Global {
                thread_local: false,
                defined: true,
                ..
            }
        );
        if !global || var.address_taken || !matches!(p.types.get(var.ty), Type::Pointer(_)) {
            continue;
        }
        let Some(writes) = assigns.get(&w) else {
            continue;
        };
        let mut assignment = None;
        let mut clean = true;
        for &(g, b, k) in writes {
            let init_null = is_init(g)
                && matches!(&p.funcs[g].blocks[b].stmts[k].kind, StmtKind::Assign { dst, src }
                    if dst.proj.is_empty() && src.constant() == Some(0));
            if init_null {
                continue;
            }
            clean &= assignment.is_none() && p.funcs[g].origin == Origin::User;
            assignment = Some((g, b, k));
        }
        let Some((g, b, k)) = assignment.filter(|_| clean) else {
            continue;
        };
        let func = &p.funcs[g];
        if assigns_fresh_block(p, g, func, (b, k), w, assigns, calls)
            && !on_any_cycle(&Cfg::new(func), b.0 as usize)
        {
            candidates.insert(w, b);
            home.insert(w, g);
        }
    }
    if candidates.is_empty() {
        return FxHashMap::default();
    }
    let mut escaped: Vec<VarId> = Vec::new();
    let mut created: FxHashMap<VarId, usize> = FxHashMap::default();
    for func in p.funcs.iter().filter(|func| func.defined) {
        escapes(p, func, calls, &candidates, &mut escaped, &mut created);
    }
    for w in escaped {
        candidates.remove(&w);
    }
    candidates
        .into_iter()
        .filter(|(w, _)| created.get(w).is_none_or(|&n| n <= 1))
        .map(|(w, b)| (w, (home[&w], b)))
        .collect()
}

/// The uses in one function through which a candidate's value may leave or write its block,
/// added to `escaped`, and how many creates name each candidate's elements as thread ids,
/// added to `created`. Only these uses are harmless: branch conditions, reads of the elements,
/// `free(w)`, and the thread id of a create (`&w[i]`, `w + i`, `&w->id`).
fn escapes(
    p: &Program,
    func: &Func,
    calls: &ThreadCalls,
    candidates: &FxHashMap<VarId, BlockId>,
    escaped: &mut Vec<VarId>,
    created: &mut FxHashMap<VarId, usize>,
) {
    let dst_sources = |dst: &Lval, out: &mut Vec<VarId>| match &dst.base {
        Base::Deref(ptr) => pointer_sources(ptr, out),
        Base::Var(v) => {
            // A plain variable written: the single assignment of a candidate is known; an
            // assignment of a candidate's field does not happen (they are pointers).
            if !dst.proj.is_empty() {
                out.push(*v);
            }
        }
    };
    for block in &func.blocks {
        for stmt in &block.stmts {
            match &stmt.kind {
                StmtKind::Assign { dst, src } => {
                    dst_sources(dst, escaped);
                    pointer_sources(src, escaped);
                }
                StmtKind::Call { dst, callee, args } => {
                    if let Some(d) = dst {
                        dst_sources(d, escaped);
                    }
                    let direct = match callee {
                        Callee::Indirect(op) => {
                            pointer_sources(op, escaped);
                            None
                        }
                        Callee::Direct(c) => Some(*c),
                    };
                    for (n, arg) in args.iter().enumerate() {
                        if direct.and_then(|c| calls.id_arg(c, true)) == Some(n) {
                            if let Some(IdPath {
                                base: IdBase::Heap(w),
                                ..
                            }) = site_path(p, true, arg)
                            {
                                *created.entry(w).or_default() += 1;
                                continue;
                            }
                        }
                        if direct.is_some_and(|c| calls.frees.contains(&c)) {
                            if let Operand::Use(Lval {
                                base: Base::Var(_),
                                proj,
                                ..
                            }) = arg.without_casts()
                            {
                                if proj.is_empty() {
                                    continue;
                                }
                            }
                        }
                        pointer_sources(arg, escaped);
                    }
                }
                // Reads only.
                StmtKind::Eval(_) => {}
                StmtKind::Asm { operands } => {
                    for lv in operands {
                        escaped.extend(candidates.keys().copied().filter(|&w| {
                            let mut m = Mentions::of(w);
                            m.visit_lval(lv);
                            m.count > 0
                        }));
                    }
                }
            }
        }
        if let Term::Return(Some(op), _) = &block.term {
            pointer_sources(op, escaped);
        }
    }
}

/// How often variable `v` is named in a function's statements and terminators.
pub(super) fn mentions_in_func(func: &Func, v: VarId) -> usize {
    let mut m = Mentions::of(v);
    walk_func(&mut m, func);
    m.count
}
