//! Thread ids in an array that a function hands to two helpers: a *create helper* starts a
//! thread into each element of the array its pointer parameter points to, and a *join helper*
//! joins each element, both by counted loops bounded by an integer parameter.
//!
//! ```c
//! void start_all(pthread_t *t, int n) {            void join_all(pthread_t *t, int n) {
//!     for (int i = 0; i < n; i++)                       for (int j = 0; j < n; j++)
//!         pthread_create(&t[i], 0, work, 0);                pthread_join(t[j], 0);
//! }                                                 }
//! int main(void) { pthread_t t[N]; start_all(t, N); …; join_all(t, N); … }
//! ```
//!
//! The call of the create helper is then a create of the threads of its loop, and each call of
//! the join helper with the same array and count a join of all of them, as for a pool filled by
//! an init wrapper ([`super::pools::InitPool`]). The paper has no joins; this is one more of
//! the ways real programs end their threads.
//!
//! Why each call of the join helper joins every thread the create helper started:
//!
//! - The create helper makes one create, inside a clean counted loop (its counter changes only
//!   in its increment) from a non-negative start, on no other cycle, into `&t[i]` with `i` the
//!   counter. `t` and the bound `n` are parameters it never assigns, whose addresses are never
//!   taken, and it names `t` nowhere else. So one call starts its threads into the elements
//!   `start .. n` of what `t` points to, and writes no other element.
//! - The join helper joins `t[j]` on every iteration of a clean counted loop with the same start
//!   and comparison, left only through its condition, bounded by its parameter `n`; neither
//!   parameter is assigned or addressed, `t` is named nowhere else, and every way from its entry
//!   to a return passes the loop's exit. So a call that returns joined the elements
//!   `start .. n` of what its `t` points to.
//! - The create helper is named once in the whole program: called, on no cycle, by a function
//!   that runs once ([`crate::analyses::once`]), with an array variable and a count: an
//!   integer constant, or a local or parameter of that function whose address is never taken
//!   and which nothing assigns on any path from the call. That function's calls of the join
//!   helper pass the same variable and the same count, which then holds what it held at the
//!   create.
//!   The array is named nowhere in the program but in those calls (it is local to the function,
//!   or a global no other code names), so nothing else writes, reads or addresses its elements:
//!   each element the join reads holds the id the create stored. Or the calls pass a local
//!   pointer assigned once, with a fresh block from an allocator ([`fresh_block`]), and named
//!   elsewhere only in tests and in calls that free it: no other pointer to the block exists.
//!
//! Knowingly unsound, as for every thread id: a write through a pointer cast from another type
//! is not seen, and an integer is assumed to hold any value the loops' counters take.

use super::pools::InitPool;
use super::wrappers::{assigned, calls_in};
use super::*;
use crate::ir::visit::{walk_func, Mentions};

/// A helper's thread-id loop: the create or join, its loop, and the positions of the array
/// and count parameters.
struct Helper {
    at: StmtAt,
    l: CountedLoop,
    /// The loop's blocks.
    blocks: FxHashSet<usize>,
    array: usize,
    count: usize,
}

/// The array pools of a program: each create helper's one call, with the calls of a join helper
/// on the same array and count ([`InitPool`]).
pub(super) fn find(
    p: &Program,
    once: &[FuncId],
    calls: &ThreadCalls,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> Vec<InitPool> {
    let (lib_creates, lib_joins) = super::pools::library_calls(p, calls);
    let user = || {
        p.funcs
            .iter_enumerated()
            .filter(|(_, func)| func.defined && func.origin == Origin::User)
    };
    let creators: Vec<(FuncId, Helper)> = user()
        .filter_map(|(f, func)| {
            let (at, id) = single(calls_in(func, f, &lib_creates))?;
            let Operand::AddrOf(lv) = id.without_casts() else {
                return None;
            };
            let h = helper(p, f, func, &Cfg::new(func), at, lv, assigns)?;
            (!calls.wrapped.contains(&at)).then_some((f, h))
        })
        .collect();
    if creators.is_empty() {
        return Vec::new();
    }
    let joiners: FxHashMap<FuncId, Helper> = user()
        .filter_map(|(g, func)| {
            let (at, id) = single(calls_in(func, g, &lib_joins))?;
            let Operand::Use(lv) = id.without_casts() else {
                return None;
            };
            let cfg = Cfg::new(func);
            let h = helper(p, g, func, &cfg, at, lv, assigns)?;
            let exit = h.l.exit.0 as usize;
            let reach = cfg.reachable(0, |x| x == exit);
            let unavoidable = !reach.iter().enumerate().any(|(x, &r)| r && cfg.returns[x]);
            let complete = join_loop_complete(p, func, g, &cfg, &h.l, &h.blocks, at.1, assigns);
            (unavoidable && complete).then_some((g, h))
        })
        .collect();
    creators
        .into_iter()
        .filter_map(|(f, create)| owner_calls(p, once, f, &create, &joiners, assigns, &calls.frees))
        .collect()
}

/// The one item of an iterator, if it has exactly one.
fn single<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// The loop of a helper whose thread-id call `at` names `t[i]` (`lv`, through `&` for a
/// create): `t` and the loop's bound are parameters never assigned or addressed, `t` is named
/// only there, and the loop is clean, counts from a non-negative start, and holds the call on
/// no other cycle.
fn helper(
    p: &Program,
    f: FuncId,
    func: &Func,
    cfg: &Cfg,
    at: StmtAt,
    lv: &Lval,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> Option<Helper> {
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    if !lv.proj.is_empty() {
        return None;
    }
    let (t, i) = heap_element(p, ptr.without_casts())?;
    let param = |v: VarId| {
        let k = func.params.iter().position(|&x| x == v)?;
        (!p.vars[v].address_taken && !assigned(func, v)).then_some(k)
    };
    let array = param(t)?;
    let mut mentions = Mentions::of(t);
    walk_func(&mut mentions, func);
    if mentions.count != 1 {
        return None;
    }
    let loops = counted_loops(func, cfg);
    let block = at.1 .0 as usize;
    let (l, blocks) = loops
        .into_iter()
        .find(|(l, bl)| l.counter == i && bl.contains(&block))?;
    let LoopBound::Var(n) = l.bound else {
        return None;
    };
    let count = param(n)?;
    let clean = l.start >= 0
        && loop_is_clean(p, func, f, &l, &blocks, assigns)
        && !cfg.on_other_cycle(block, &l)
        && !cfg.on_other_cycle(l.head.0 as usize, &l);
    clean.then_some(Helper {
        at,
        l,
        blocks,
        array,
        count,
    })
}

/// How often `func` names the pointer `v` in the conditions of its branches and as the one
/// argument of a call that frees (`frees`).
fn block_tests_and_frees(func: &Func, frees: &FxHashSet<FuncId>, v: VarId) -> usize {
    let mut count = 0;
    for block in &func.blocks {
        if let Term::Branch { cond, .. } = &block.term {
            let mut m = Mentions::of(v);
            crate::ir::visit::walk_operand(&mut m, cond);
            count += m.count;
        }
        for stmt in &block.stmts {
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                args,
                dst: None,
            } = &stmt.kind
            {
                let freed = matches!(args.as_slice(), [a] if a.plain_var() == Some(v));
                count += usize::from(frees.contains(g) && freed);
            }
        }
    }
    count
}

/// A count passed to a helper: a constant, or a variable of the calling function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Count {
    Const(i64),
    Var(VarId),
}

/// Whether `v` is assigned on some path from the statement `call` of `func` (after it in its
/// block, or anywhere in a block reachable from there).
fn assigned_after(
    func: &Func,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    v: VarId,
    call: StmtAt,
) -> bool {
    let cfg = Cfg::new(func);
    let block = call.1 .0 as usize;
    let later: Vec<bool> = cfg.succs.get(block).into_iter().flatten().fold(
        vec![false; func.blocks.len()],
        |mut seen, &s| {
            for (x, r) in cfg.reachable(s, |_| false).into_iter().enumerate() {
                seen[x] |= r;
            }
            seen
        },
    );
    assigns.get(&v).into_iter().flatten().any(|&(g, b, k)| {
        g == call.0 && (later[b.0 as usize] || (b.0 as usize == block && k > call.2))
    })
}

/// The pool of create helper `f`: its one call in the program, by name, on no cycle of a
/// function that runs once, with an array variable named nowhere else but in that function's
/// calls of a join helper of the same loop shape, each with that variable and the same count.
fn owner_calls(
    p: &Program,
    once: &[FuncId],
    f: FuncId,
    create: &Helper,
    joiners: &FxHashMap<FuncId, Helper>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    frees: &FxHashSet<FuncId>,
) -> Option<InitPool> {
    let call = super::pools::only_call(p, f)?;
    let owner = call.0;
    if once.binary_search(&owner).is_err() {
        return None;
    }
    let func = &p.funcs[owner];
    if on_any_cycle(&Cfg::new(func), call.1 .0 as usize) {
        return None;
    }
    let StmtKind::Call { args, .. } = &func.blocks[call.1].stmts[call.2].kind else {
        return None;
    };
    // The array, passed by name (it decays to the address of its elements), or a pointer to
    // a fresh block; and the count.
    let array_of = |args: &[Operand], k: usize| match args.get(k)?.without_casts() {
        Operand::AddrOf(lv) | Operand::Use(lv) => lv.plain_var(),
        _ => None,
    };
    let count_of = |args: &[Operand], k: usize| {
        let op = args.get(k)?;
        match op.constant() {
            Some(c) => Some(Count::Const(c)),
            None => op.plain_var().map(Count::Var),
        }
    };
    let array = array_of(args, create.array)?;
    let count = count_of(args, create.count)?;
    if let Count::Var(n) = count {
        let var = &p.vars[n];
        let own = matches!(var.kind, VarKind::Local(g) | VarKind::Param(g, _) if g == owner);
        if !own || var.address_taken || assigned_after(func, assigns, n, call) {
            return None;
        }
    }
    let joins: Vec<StmtAt> = func
        .direct_calls()
        .filter_map(|(b, i, g, args)| {
            let join = joiners.get(&g)?;
            let same_loop = join.l.start == create.l.start && join.l.op == create.l.op;
            (same_loop
                && array_of(args, join.array) == Some(array)
                && count_of(args, join.count) == Some(count))
            .then_some((owner, b, i))
        })
        .collect();
    // Named by these calls only, in the whole program; a pointer to a fresh block also by its
    // one assignment, its tests and the calls that free it.
    let mut mentions = Mentions::of(array);
    for g in p.funcs.iter() {
        walk_func(&mut mentions, g);
    }
    let var = &p.vars[array];
    let others = match p.types.get(var.ty) {
        Type::Array(_) => matches!(
            var.kind,
            VarKind::Local(_)
                | VarKind::Global {
                    is_static: true,
                    ..
                }
        )
        .then_some(0),
        Type::Pointer(_) if fresh_block(p, owner, func, array) => {
            Some(1 + block_tests_and_frees(func, frees, array))
        }
        _ => None,
    };
    let array_ok = others.is_some_and(|others| mentions.count == joins.len() + 1 + others);
    (array_ok && !joins.is_empty()).then_some(InitPool {
        create: create.at,
        call,
        joins,
    })
}
