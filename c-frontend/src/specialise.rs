//! Thread starters specialised per start routine: a function that starts a thread running a
//! function its caller hands it (`launch(compress, job)`) is copied once for each function its
//! callers name there, and each such call calls its own copy. The copy is the same code, so the
//! program does the same thing; what changes is that each copy's `pthread_create` is a fork site
//! of its own.
//!
//! Why: a thread is told apart from another by where it is created (paper §3.2, [Fork], and the
//! thread analysis after it). A thread library creates every thread at the one `pthread_create`
//! inside its `launch`, often through a *trampoline*: `launch` stores the routine and its
//! argument in a fresh block and starts `ignition(block)`, which calls `block->probe(
//! block->payload)`. Then the writer thread started once and the workers started in a loop are
//! one kind of thread, started many times, running every routine any caller named: what the
//! writer alone writes races with itself, and each thread's call path names the first caller of
//! `launch`, not its own. Label flow cannot tell them apart either: the call through
//! `block->probe` is one call in `ignition`'s body, whose targets are those of every block.
//!
//! So, an extension of the paper's context sensitivity to thread creation (figure 6 \[Inst\]
//! instantiates a function's labels per call; this gives a starter's fork site per call):
//!
//! - A *starter* is a function of the program with a body that calls `pthread_create` (any
//!   [`Kind::Fork`] of the model) directly, with as start routine one of its parameters or a
//!   trampoline, and no local a nested function captures (its copy would need the nested
//!   function copied too).
//! - A *trampoline* is a function of the program with a body, named as the start routine of
//!   such a fork, that calls through a pointer in its own body.
//! - Each direct call of a starter that passes a function designator in some argument
//!   (`launch(&compress, 0)`, through conversions) calls the copy made for that list of
//!   designators, made on first need; the starter itself serves the first list its calls pass
//!   (in the order of callers, blocks and statements), so that a starter called with one list
//!   is not copied at all. In each copy, the forks whose start routine is a
//!   trampoline start a copy of the trampoline made for that copy of the starter, so that the
//!   trampoline's call through the block reaches only what this copy's callers stored there
//!   (label flow gives each copy's allocation its own object,
//!   [`crate::analyses::alloc_wrappers`]).
//! - At most [`MAX_COPIES`] copies of a starter are made; calls of further lists keep calling
//!   the starter itself, as before (sound, and as imprecise as before). A starter whose body
//!   and trampolines hold more than [`MAX_STATEMENTS`] statements is not copied at all.
//!
//! A copy keeps the starter's name, position and `static` locals (globals of the IR, shared by
//! all copies as by the one function); its parameters, locals and temporaries are new variables.
//! The starter itself stays, for its first list, for the calls that pass no designator, for
//! calls through pointers and for unknown code.
//!
//! Whole-program facts that count statements must count a copy's as its original's
//! ([`crate::ir::Program::copies`]): a copy of a create is the same create, run by other calls.
//!
//! - A trampoline's copy also calls its own copy of each *helper* it hands the block to (yarn's
//!   cleanup `reenter(arg)`, which reads the block): shared, such a helper would be one
//!   instance for every block, where their routine pointers meet ([`copy_helpers`]).
//!
//! Not followed: a starter reached through another starter that hands it its own parameter
//! (`spawn_named(f) { launch(f); }` is copied per designator, `launch` is not), and a trampoline
//! that calls through the block in a function it calls rather than in its own body.
//!
//! This pass owns that rewrite only; it runs after [`crate::devirtualize`] (so that allocators
//! called through a pointer are direct calls in the copies too) and before every analysis.

use rustc_hash::FxHashMap;
use solver::ids::Idx;

use crate::ir::visit::{stmt_lvals_mut, term_lvals_mut};
use crate::ir::{
    Base, Callee, FuncId, LoopBound, Lval, Operand, Program, Proj, StmtKind, VarId, VarKind,
};
use crate::model::Kind;

/// The most copies made of one starter: a bound on what the pass adds to the program (each
/// copy is a whole function), far above what thread libraries' callers name.
pub const MAX_COPIES: usize = 64;

/// The most statements a starter and its trampolines may have to be copied: thread libraries'
/// launchers are a few dozen; a large function that also starts a thread is left whole, so
/// that the copies never multiply much of the program.
pub const MAX_STATEMENTS: usize = 400;

/// Copies each starter once per list of designators its direct calls pass, and points each
/// such call at its copy ([module docs](self)); returns how many starters were copied.
pub fn specialise(p: &mut Program) -> usize {
    let starters = Starters::of(p);
    if starters.trampolines.is_empty() {
        return 0;
    }
    // The function each (starter, list of designators) is called as, and how many copies of
    // each starter were made.
    let mut copies: FxHashMap<(FuncId, Vec<Option<FuncId>>), FuncId> = FxHashMap::default();
    let mut per_starter: FxHashMap<FuncId, usize> = FxHashMap::default();
    // The calls to redirect, found before any copy is added: each with its starter, its list
    // of designators and the starter's trampolines.
    let mut redirect = Vec::new();
    let originals = p.funcs.len();
    for caller in p.funcs.indices().take(originals) {
        for (b, k, callee, args) in p.funcs[caller].direct_calls() {
            let Some(trampolines) = starters.trampolines.get(&callee) else {
                continue;
            };
            let designators: Vec<Option<FuncId>> = args
                .iter()
                .take(p.funcs[callee].params.len())
                .map(|a| match a.without_casts() {
                    Operand::Func(g) => Some(*g),
                    _ => None,
                })
                .collect();
            if designators.iter().all(Option::is_none) {
                continue;
            }
            redirect.push((caller, b, k, callee, designators, trampolines.clone()));
        }
    }
    for (caller, b, k, starter, designators, trampolines) in redirect {
        let copy = match copies.get(&(starter, designators.clone())) {
            Some(&copy) => copy,
            None => {
                // The starter itself serves the first list its calls pass.
                let Some(made) = per_starter.get_mut(&starter) else {
                    per_starter.insert(starter, 0);
                    copies.insert((starter, designators), starter);
                    continue;
                };
                if *made == MAX_COPIES {
                    continue;
                }
                *made += 1;
                let copy = copy_function(p, starter);
                for &t in &trampolines {
                    let t_copy = copy_function(p, t);
                    copy_helpers(p, t_copy);
                    start_in_copy(p, copy, t, t_copy);
                }
                copies.insert((starter, designators), copy);
                copy
            }
        };
        if let StmtKind::Call { callee, .. } = &mut p.funcs[caller].blocks[b].stmts[k].kind {
            *callee = Callee::Direct(copy);
        }
    }
    per_starter.values().filter(|&&made| made > 0).count()
}

/// The starters of the program, each with the trampolines its forks start.
struct Starters {
    trampolines: FxHashMap<FuncId, Vec<FuncId>>,
}

impl Starters {
    fn of(p: &Program) -> Starters {
        let mut trampolines = FxHashMap::default();
        for (w, func) in p.funcs.iter_enumerated() {
            if !copyable(p, w) {
                continue;
            }
            let mut starts_param = false;
            let mut found: Vec<FuncId> = Vec::new();
            for (_, _, callee, args) in func.direct_calls() {
                let Some(Kind::Fork { func: start, .. }) = p.known_kind(callee) else {
                    continue;
                };
                match args.get(usize::from(start)).map(Operand::without_casts) {
                    Some(Operand::Func(t)) if is_trampoline(p, *t) && !found.contains(t) => {
                        found.push(*t);
                    }
                    Some(Operand::Use(lv)) => {
                        starts_param |= lv.plain_var().is_some_and(
                            |v| matches!(p.vars[v].kind, VarKind::Param(f, _) if f == w),
                        );
                    }
                    _ => {}
                }
            }
            let statements: usize = std::iter::once(w)
                .chain(found.iter().copied())
                .map(|f| {
                    p.funcs[f]
                        .blocks
                        .iter()
                        .map(|b| b.stmts.len())
                        .sum::<usize>()
                })
                .sum();
            if (starts_param || !found.is_empty()) && statements <= MAX_STATEMENTS {
                trampolines.insert(w, found);
            }
        }
        Starters { trampolines }
    }
}

/// Whether a copy of `func` does what `func` does: a body of the program's own, not replaced by
/// the user's configuration, with no local a nested function reaches.
fn copyable(p: &Program, f: FuncId) -> bool {
    let func = &p.funcs[f];
    func.defined
        && !func.blocks.is_empty()
        && func.origin == crate::ir::Origin::User
        && !p.configured.contains(&f)
        && !func
            .params
            .iter()
            .chain(&func.locals)
            .any(|&v| p.vars[v].captured)
}

/// Whether `t` is a trampoline: a copyable function that calls through a pointer in its body.
fn is_trampoline(p: &Program, t: FuncId) -> bool {
    copyable(p, t)
        && p.funcs[t].blocks.iter().flat_map(|b| &b.stmts).any(|s| {
            matches!(
                s.kind,
                StmtKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                }
            )
        })
}

/// In a copy of a trampoline, the direct calls that hand a *helper* the block the thread was
/// started with (its parameter, or a local assigned only that: yarn's cleanup `reenter(arg)`,
/// which reads the block) call a copy of the helper made for this copy. A helper shared by the
/// copies would be one instance of its type for every block it reads (the blocks' routine
/// pointers meet there), and the copies' calls through their own block would again reach
/// every routine. A helper is a copyable function that calls neither itself nor a trampoline,
/// with at most [`MAX_STATEMENTS`] statements.
fn copy_helpers(p: &mut Program, t_copy: FuncId) {
    let func = &p.funcs[t_copy];
    let Some(&block) = func.params.first() else {
        return;
    };
    let mut holds_block: Vec<VarId> = vec![block];
    for v in func.locals.iter().copied() {
        let mut stores =
            (func.blocks.iter().flat_map(|b| &b.stmts)).filter_map(|s| match &s.kind {
                StmtKind::Assign { dst, src } if dst.plain_var() == Some(v) => Some(Some(src)),
                StmtKind::Call { dst: Some(dst), .. } if dst.plain_var() == Some(v) => Some(None),
                _ => None,
            });
        let only_block = stores.next().flatten().is_some_and(
            |src| matches!(src.without_casts(), Operand::Use(lv) if lv.plain_var() == Some(block)),
        ) && stores.next().is_none();
        if only_block && !p.vars[v].address_taken {
            holds_block.push(v);
        }
    }
    let helpers: Vec<(crate::ir::BlockId, usize, FuncId)> = func
        .direct_calls()
        .filter(|(_, _, g, args)| {
            args.iter().any(|a| {
                matches!(a.without_casts(), Operand::Use(lv)
                    if lv.plain_var().is_some_and(|v| holds_block.contains(&v)))
            }) && is_helper(p, *g)
        })
        .map(|(b, k, g, _)| (b, k, g))
        .collect();
    let mut made: FxHashMap<FuncId, FuncId> = FxHashMap::default();
    for (b, k, g) in helpers {
        let g_copy = *made.entry(g).or_insert_with(|| copy_function(p, g));
        if let StmtKind::Call { callee, .. } = &mut p.funcs[t_copy].blocks[b].stmts[k].kind {
            *callee = Callee::Direct(g_copy);
        }
    }
}

/// Whether `g` may be copied for a copy of a trampoline ([`copy_helpers`]).
fn is_helper(p: &Program, g: FuncId) -> bool {
    let func = &p.funcs[g];
    copyable(p, g)
        && p.known_kind(g).is_none()
        && !is_trampoline(p, g)
        && func.direct_calls().all(|(_, _, h, _)| h != g)
        && func.blocks.iter().map(|b| b.stmts.len()).sum::<usize>() <= MAX_STATEMENTS
}

/// In the copy `copy` of a starter, the forks that start `t` start `t_copy` instead.
fn start_in_copy(p: &mut Program, copy: FuncId, t: FuncId, t_copy: FuncId) {
    let forks: Vec<(crate::ir::BlockId, usize, usize)> = p.funcs[copy]
        .direct_calls()
        .filter_map(|(b, k, callee, _)| match p.known_kind(callee) {
            Some(Kind::Fork { func, .. }) => Some((b, k, usize::from(func))),
            _ => None,
        })
        .collect();
    for (b, k, start) in forks {
        if let StmtKind::Call { args, .. } = &mut p.funcs[copy].blocks[b].stmts[k].kind {
            if let Some(arg) = args.get_mut(start) {
                retarget(arg, t, t_copy);
            }
        }
    }
}

/// Replaces the designator `from` by `to` in a start-routine argument, through conversions.
fn retarget(op: &mut Operand, from: FuncId, to: FuncId) {
    match op {
        Operand::Func(f) if *f == from => *f = to,
        Operand::Cast(_, inner) => retarget(inner, from, to),
        _ => {}
    }
}

/// Adds a copy of function `f` with new variables for its parameters, locals and temporaries;
/// returns its id.
fn copy_function(p: &mut Program, f: FuncId) -> FuncId {
    let id = FuncId::new(p.funcs.len());
    let mut func = p.funcs[f].clone();
    let mut renamed: FxHashMap<VarId, VarId> = FxHashMap::default();
    for v in func.params.iter_mut().chain(func.locals.iter_mut()) {
        let mut var = p.vars[*v].clone();
        var.kind = match var.kind {
            VarKind::Local(_) => VarKind::Local(id),
            VarKind::Param(_, k) => VarKind::Param(id, k),
            VarKind::Temp(_) => VarKind::Temp(id),
            other => other,
        };
        let new = p.vars.push(var);
        renamed.insert(*v, new);
        *v = new;
    }
    let rename = |v: &mut VarId| {
        if let Some(&new) = renamed.get(v) {
            *v = new;
        }
    };
    let mut rename_lval = |lv: &mut Lval| {
        if let Base::Var(v) = &mut lv.base {
            rename(v);
        }
        for step in &mut lv.proj {
            if let Proj::Index(Some(v)) = step {
                rename(v);
            }
        }
    };
    for block in func.blocks.iter_mut() {
        for stmt in &mut block.stmts {
            stmt_lvals_mut(&mut stmt.kind, &mut rename_lval);
        }
        term_lvals_mut(&mut block.term, &mut rename_lval);
    }
    for counted in &mut func.counted_loops {
        rename(&mut counted.counter);
        match &mut counted.bound {
            LoopBound::Var(v)
            | LoopBound::GlobalField { var: v, .. }
            | LoopBound::Member { ptr: v, .. } => rename(v),
            LoopBound::Const(_) => {}
        }
    }
    let known = p.known[f];
    let pushed = p.funcs.push(func);
    debug_assert_eq!(pushed, id);
    p.known.push(known);
    p.copies.push((id, p.original(f)));
    id
}
