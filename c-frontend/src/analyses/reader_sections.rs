//! Readers/writer locks made of a semaphore and a count of readers (Courtois, Heymans and
//! Parnas's first readers/writers solution): writers `sem_wait(&s)` … `sem_post(&s)`; readers
//! count themselves in and out under a mutex, the first one in waiting for `s` and the last one
//! out posting it. Between its count-up and its count-down a reader holds `s` shared, which the
//! constraint generator says with a shared acquire after the count-up and a release before the
//! count-down ([`ReaderSections`]); the first reader's wait and the last reader's post are then
//! no lock calls of their own, and the writers' waits and posts make `s` a mutex-like semaphore
//! ([`super::semaphores`]). An extension beyond the paper.
//!
//! ```c
//! lock(&m); if (!readers) sem_wait(&s); readers++; unlock(&m);      // reader's entry
//! …                                                                  // holds s shared
//! lock(&m); readers--; if (!readers) sem_post(&s); unlock(&m);      // reader's exit
//! ```
//!
//! Matched on the IR, as the lowering renders those lines: the first reader's wait is alone in
//! a block entered only from a branch on the count being zero, whose other side goes straight
//! to the count-up `readers++` (the next statement on both paths); the last reader's post is
//! alone in a block entered only from the branch on the count that directly follows the
//! count-down. The count is a global (or a member path of one) whose address is never taken,
//! written nowhere but by these count-ups and count-downs and by stores of 0; every count-up and
//! count-down holds one mutex `m` (a must analysis, [`super::held`]); and in each function every
//! count-down comes after a count-up of the same function on every path, with no count-down
//! since, so a thread counts out only what it counted in.
//!
//! Why a reader then holds `s` shared: under `m`, the count is the number of readers inside,
//! and it is non-zero exactly while the readers as a group hold `s` (the first one in took it
//! holding `m`, the last one out gives it back holding `m`). A writer holds `s` alone. So a
//! writer excludes every reader and every other writer, and readers exclude only writers.

use rustc_hash::{FxHashMap, FxHashSet};

use super::held::Held;
use super::joins::StmtAt;
use super::semaphores::{named_global, sem_key, SemKey};
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Program, Proj, StmtKind, Term,
};
use crate::model::Kind;

/// Where readers hold a semaphore shared.
#[derive(Clone, Debug, Default)]
pub struct ReaderSections {
    /// The count-ups after which the thread holds the semaphore (its operand) shared.
    pub acquire_after: FxHashMap<StmtAt, Operand>,
    /// The count-downs before which it releases it.
    pub release_before: FxHashMap<StmtAt, Operand>,
    /// The first readers' `sem_wait` and the last readers' `sem_post` calls, with their
    /// semaphore's operand: no lock calls.
    pub calls: FxHashMap<StmtAt, Operand>,
}

impl ReaderSections {
    /// Keeps the sections of the semaphores in `keep` (those that turned out mutex-like).
    pub fn retain(&mut self, keep: &FxHashSet<SemKey>) {
        let kept = |op: &Operand| sem_key(op).is_some_and(|k| keep.contains(&k));
        self.acquire_after.retain(|_, op| kept(op));
        self.release_before.retain(|_, op| kept(op));
        self.calls.retain(|_, op| kept(op));
    }
}

/// A reader's entry or exit as found in one function.
struct Edge {
    /// The count-up or count-down.
    count: StmtAt,
    /// The first reader's wait or the last reader's post.
    call: StmtAt,
    sem: SemKey,
    sem_op: Operand,
    counter: SemKey,
    mutex: SemKey,
}

/// The count a statement adds `step` to (`c = c ± 1`, [`Program::steps`]).
fn counted(p: &Program, stmt: &crate::ir::Stmt, step: i64) -> Option<SemKey> {
    let StmtKind::Assign { dst, src } = &stmt.kind else {
        return None;
    };
    let Operand::Arith(_, _, ops) = src.without_casts() else {
        return None;
    };
    let key = named_global(p, dst)?;
    let reads = matches!(ops.first().map(Operand::without_casts),
        Some(Operand::Use(lv)) if named_global(p, lv).as_ref() == Some(&key));
    (reads && ops.len() == 2 && p.steps.get(&stmt.pos) == Some(&step)).then_some(key)
}

/// The semaphore a block's only statement waits on (`wait`) or posts, with its operand.
fn lone_sem_call(p: &Program, func: &Func, b: BlockId, wait: bool) -> Option<(SemKey, Operand)> {
    let [stmt] = &func.blocks[b].stmts[..] else {
        return None;
    };
    let StmtKind::Call {
        callee: Callee::Direct(g),
        args,
        ..
    } = &stmt.kind
    else {
        return None;
    };
    let sem = match (p.known_kind(*g)?, wait) {
        (Kind::SemWait { sem }, true) | (Kind::SemPost { sem }, false) => sem,
        _ => return None,
    };
    let op = args.get(usize::from(sem))?;
    Some((sem_key(op)?, op.clone()))
}

/// The count a branch tests for being non-zero: `if (c)`, `if (!c)`, `c == 0`, `c != 0` are all
/// lowered as a test of `c` itself.
fn tested(p: &Program, term: &Term) -> Option<(SemKey, BlockId, BlockId)> {
    let Term::Branch {
        cond,
        then_block,
        else_block,
        compare: None,
        ..
    } = term
    else {
        return None;
    };
    let Operand::Use(lv) = cond.without_casts() else {
        return None;
    };
    Some((named_global(p, lv)?, *then_block, *else_block))
}

/// The readers' entries and exits of one function.
fn edges_of(p: &Program, f: FuncId, func: &Func, preds: &[Vec<BlockId>]) -> Vec<(bool, Edge)> {
    let held = Held::new(p, func);
    let mut out = Vec::new();
    for (x, block) in func.blocks.iter_enumerated() {
        let Some((counter, nonzero, zero)) = tested(p, &block.term) else {
            continue;
        };
        let held_at = |b: BlockId, k: usize| held.before(p, func, b, k).unwrap_or_default();
        // Entry: the zero side waits alone and joins the other side at the count-up.
        if let Some((sem, sem_op)) = lone_sem_call(p, func, zero, true) {
            let joined = matches!(func.blocks[zero].term, Term::Goto(t) if t == nonzero);
            let up = func.blocks[nonzero].stmts.first();
            let mut from: Vec<BlockId> = preds[nonzero.0 as usize].clone();
            from.sort();
            let mut want = vec![x, zero];
            want.sort();
            if joined
                && preds[zero.0 as usize] == [x]
                && from == want
                && up.and_then(|s| counted(p, s, 1)).as_ref() == Some(&counter)
            {
                let common: Vec<SemKey> = held_at(x, block.stmts.len())
                    .intersection(&held_at(nonzero, 0))
                    .cloned()
                    .collect();
                if let Some(mutex) = common.into_iter().next() {
                    out.push((
                        true,
                        Edge {
                            count: (f, nonzero, 0),
                            call: (f, zero, 0),
                            sem,
                            sem_op,
                            counter: counter.clone(),
                            mutex,
                        },
                    ));
                }
            }
        }
        // Exit: the count-down is the statement right before the test; the zero side posts alone.
        if let Some((sem, sem_op)) = lone_sem_call(p, func, zero, false) {
            let k = block.stmts.len();
            let down = block.stmts.last().and_then(|s| counted(p, s, -1));
            let joined = matches!(func.blocks[zero].term, Term::Goto(t) if t == nonzero);
            if joined && preds[zero.0 as usize] == [x] && down.as_ref() == Some(&counter) {
                let mutex = held_at(x, k - 1).into_iter().next();
                if let Some(mutex) = mutex {
                    out.push((
                        false,
                        Edge {
                            count: (f, x, k - 1),
                            call: (f, zero, 0),
                            sem,
                            sem_op,
                            counter,
                            mutex,
                        },
                    ));
                }
            }
        }
    }
    out
}

/// Whether a function waits on or posts a semaphore: only such a function has readers' entries
/// or exits.
fn calls_semaphores(p: &Program, func: &Func) -> bool {
    func.blocks.iter().flat_map(|b| &b.stmts).any(|s| {
        matches!(&s.kind, StmtKind::Call { callee: Callee::Direct(g), .. }
            if matches!(p.known_kind(*g), Some(Kind::SemWait { .. } | Kind::SemPost { .. })))
    })
}

/// Whether, in `func`, every count-down comes after a count-up on every path with no count-down
/// since (a must analysis: "a reader of this function is inside").
fn balanced(func: &Func, f: FuncId, ups: &FxHashSet<StmtAt>, downs: &FxHashSet<StmtAt>) -> bool {
    let succs = func.successor_lists();
    let transfer = |b: usize, mut inside: bool, ok: &mut bool| {
        for k in 0..func.blocks[BlockId(b as u32)].stmts.len() {
            let at = (f, BlockId(b as u32), k);
            if downs.contains(&at) {
                *ok &= inside;
                inside = false;
            }
            if ups.contains(&at) {
                inside = true;
            }
        }
        inside
    };
    let entry = solver::dataflow::forward(
        &mut (),
        func.blocks.len(),
        |b| &succs[b],
        false,
        |_, b, inside| Some(transfer(b, inside, &mut true)),
        |_, into: &mut bool, incoming: &bool| {
            let new = *into && *incoming;
            std::mem::replace(into, new) != new
        },
    );
    let mut ok = true;
    for (b, inside) in entry.into_iter().enumerate() {
        if let Some(inside) = inside {
            transfer(b, inside, &mut ok);
        }
    }
    ok
}

/// The readers sections of the program, for any semaphore; [`ReaderSections::retain`] keeps
/// those of mutex-like semaphores once they are known.
pub fn find(p: &Program) -> ReaderSections {
    let mut edges: Vec<(FuncId, bool, Edge)> = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        if !func.defined || func.origin != Origin::User || !calls_semaphores(p, func) {
            continue;
        }
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); func.blocks.len()];
        for (b, block) in func.blocks.iter_enumerated() {
            for s in block.term.successors() {
                preds[s.0 as usize].push(b);
            }
        }
        edges.extend(
            edges_of(p, f, func, &preds)
                .into_iter()
                .map(|(up, e)| (f, up, e)),
        );
    }
    let mut out = ReaderSections::default();
    let mut sems: Vec<SemKey> = edges.iter().map(|(_, _, e)| e.sem.clone()).collect();
    sems.sort();
    sems.dedup();
    for sem in sems {
        let mine: Vec<&(FuncId, bool, Edge)> =
            edges.iter().filter(|(_, _, e)| e.sem == sem).collect();
        let (counter, mutex) = (&mine[0].2.counter, &mine[0].2.mutex);
        let one_lock = mine
            .iter()
            .all(|(_, _, e)| &e.counter == counter && &e.mutex == mutex);
        let ups: FxHashSet<StmtAt> = mine.iter().filter(|m| m.1).map(|m| m.2.count).collect();
        let downs: FxHashSet<StmtAt> = mine.iter().filter(|m| !m.1).map(|m| m.2.count).collect();
        if !one_lock
            || ups.is_empty()
            || downs.is_empty()
            || !count_left_alone(p, counter, &ups, &downs)
        {
            continue;
        }
        let mut funcs: Vec<FuncId> = mine.iter().map(|m| m.0).collect();
        funcs.dedup();
        if !funcs
            .iter()
            .all(|&f| balanced(&p.funcs[f], f, &ups, &downs))
        {
            continue;
        }
        for (_, up, e) in mine {
            if *up {
                out.acquire_after.insert(e.count, e.sem_op.clone());
            } else {
                out.release_before.insert(e.count, e.sem_op.clone());
            }
            out.calls.insert(e.call, e.sem_op.clone());
        }
    }
    out
}

/// Whether the count is written nowhere but by `ups`, `downs` and stores of 0.
fn count_left_alone(
    p: &Program,
    counter: &SemKey,
    ups: &FxHashSet<StmtAt>,
    downs: &FxHashSet<StmtAt>,
) -> bool {
    // Another member of a struct on the count's path is apart from it; one of a union is not.
    let overlaps = |lv: &Lval| {
        matches!(lv.base, Base::Var(v) if v == counter.var)
            && (lv.proj.iter().zip(&counter.fields)).all(|(pr, &(s, i))| match pr {
                Proj::Field { strukt, index } if (strukt.0, *index) != (s, i) => {
                    p.types.structs[*strukt].kind == crate::ir::ctypes::StructKind::Union
                }
                _ => true,
            })
    };
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let at = (f, b, k);
                let ok = match &stmt.kind {
                    StmtKind::Assign { dst, src } if overlaps(dst) => {
                        ups.contains(&at)
                            || downs.contains(&at)
                            || (named_global(p, dst).as_ref() == Some(counter)
                                && src.constant() == Some(0))
                    }
                    StmtKind::Call { dst: Some(dst), .. } => !overlaps(dst),
                    StmtKind::Asm { operands } => !operands.iter().any(overlaps),
                    _ => true,
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}
