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
    let only_write = |v: VarId| -> Option<(BlockId, usize)> {
        match assigns.get(&v).map(Vec::as_slice) {
            Some(&[(g, b, k)]) if g == f => Some((b, k)),
            _ => None,
        }
    };
    let mut candidates: FxHashMap<VarId, BlockId> = FxHashMap::default();
    for &w in &func.locals {
        let var = &p.vars[w];
        if var.address_taken
            || !matches!(var.kind, VarKind::Local(g) if g == f)
            || !matches!(p.types.get(var.ty), Type::Pointer(_))
        {
            continue;
        }
        let Some((b, k)) = only_write(w) else {
            continue;
        };
        if cyclic[b.0 as usize] {
            continue;
        }
        let fresh = match &func.blocks[b].stmts[k].kind {
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
                            // The lowering's temporary for the call's result: written only by
                            // the allocation and read only here.
                            let t = &p.vars[*tmp];
                            matches!(t.kind, VarKind::Temp(g) if g == f)
                                && !t.address_taken
                                && only_write(*tmp).is_some_and(|(tb, tk)| {
                                    allocates_into(
                                        &func.blocks[tb].stmts[tk].kind,
                                        *tmp,
                                        &calls.allocs,
                                    )
                                })
                                && mentions_in_func(func, *tmp) == 2
                        }
                        _ => false,
                    }
            }
            _ => false,
        };
        if fresh {
            candidates.insert(w, b);
        }
    }
    if candidates.is_empty() {
        return candidates;
    }

    // Everything through which a candidate's value may leave or write the block.
    let mut escaped: Vec<VarId> = Vec::new();
    let mut created: FxHashMap<VarId, usize> = FxHashMap::default();
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
                    dst_sources(dst, &mut escaped);
                    pointer_sources(src, &mut escaped);
                }
                StmtKind::Call { dst, callee, args } => {
                    if let Some(d) = dst {
                        dst_sources(d, &mut escaped);
                    }
                    let direct = match callee {
                        Callee::Indirect(op) => {
                            pointer_sources(op, &mut escaped);
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
                        pointer_sources(arg, &mut escaped);
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
            pointer_sources(op, &mut escaped);
        }
    }
    for w in escaped {
        candidates.remove(&w);
    }
    candidates.retain(|w, _| created.get(w).is_none_or(|&n| n <= 1));
    candidates
}

/// How often variable `v` is named in a function's statements and terminators.
pub(super) fn mentions_in_func(func: &Func, v: VarId) -> usize {
    let mut m = Mentions::of(v);
    walk_func(&mut m, func);
    m.count
}
