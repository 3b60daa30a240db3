//! Semaphores that are mutexes: a semaphore initialised to 1, on which every `sem_post` follows
//! a `sem_wait` by the same thread, excludes its critical sections exactly as a mutex does, so
//! the constraint generator turns its waits into acquires and its posts into releases.
//!
//! The conditions are checked soundly and conservatively, on the IR, per semaphore *object* as
//! the program names it: a variable (`&s`) or a member path of a variable (`&pool.sem`); a
//! semaphore reached through a pointer (`sem_post(p)`) has no name here.
//!
//! - Every `sem_init` of the object has the constant 1 as its value (the lowering records the
//!   value of each call's argument, [`crate::ir::Program::init_values`]), and there is at least
//!   one; a `sem_init` of an unnamed semaphore with another value disqualifies every semaphore.
//! - Every `sem_post` of the object is at a point where, on every path from its function's
//!   entry, a `sem_wait` of the same object came before it with no `sem_post` of it since (a
//!   must analysis per function). A post of an unnamed semaphore disqualifies every semaphore.
//!
//! `sem_trywait` and `sem_timedwait` never count as a wait (a post after one disqualifies the
//! object), so a semaphore used for signalling between threads — posted by one, waited by
//! another — never qualifies and orders nothing, as before.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};
use solver::dataflow;

use super::joins::StmtAt;
use crate::ir::{Base, Callee, Func, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId};
use crate::model::Kind;

/// A semaphore object as the program names it: a variable and the member path inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SemKey {
    pub var: VarId,
    /// `(struct, member)` steps; array indexes are dropped (all elements are one object).
    pub fields: Vec<(u32, u32)>,
}

/// The semaphore an argument names, if it names one: `&v` or `&v.f…`.
pub fn sem_key(op: &Operand) -> Option<SemKey> {
    match op {
        Operand::AddrOf(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) => Some(SemKey {
            var: *v,
            fields: proj
                .iter()
                .filter_map(|p| match p {
                    Proj::Field { strukt, index } => Some((strukt.0, *index)),
                    Proj::Index(_) | Proj::ConstIndex(_) => None,
                })
                .collect(),
        }),
        Operand::Cast(_, inner) => sem_key(inner),
        _ => None,
    }
}

/// The global variable, or member path of one, an lvalue names, when the variable is not
/// thread-local and its address is never taken, so that every access of it names it: the
/// counts of the idioms that count under a mutex (counter joins, readers sections).
pub fn named_global(p: &Program, lv: &Lval) -> Option<SemKey> {
    let Base::Var(var) = lv.base else { return None };
    let v = &p.vars[var];
    if v.address_taken
        || !matches!(
            v.kind,
            crate::ir::VarKind::Global {
                thread_local: false,
                ..
            }
        )
    {
        return None;
    }
    let fields = lv
        .proj
        .iter()
        .map(|pr| match pr {
            Proj::Field { strukt, index } => Some((strukt.0, *index)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SemKey { var, fields })
}

/// What one call does to a semaphore, per the model.
enum SemOp {
    Init,
    Wait,
    Post,
}

fn sem_op(p: &Program, callee: &Callee) -> Option<(SemOp, u8)> {
    let Callee::Direct(f) = callee else {
        return None;
    };
    match p.known_kind(*f)? {
        Kind::SemInit { sem, .. } => Some((SemOp::Init, sem)),
        Kind::SemWait { sem } => Some((SemOp::Wait, sem)),
        Kind::SemPost { sem } => Some((SemOp::Post, sem)),
        _ => None,
    }
}

/// The semaphores that behave as mutexes. The calls in `readers` (a first reader's wait, a last
/// reader's post, [`super::reader_sections`]) are left out: they are no lock calls.
pub fn mutex_semaphores(p: &Program, readers: &FxHashMap<StmtAt, Operand>) -> FxHashSet<SemKey> {
    let mut initialised: BTreeSet<SemKey> = BTreeSet::new();
    let mut disqualified: BTreeSet<SemKey> = BTreeSet::new();
    let mut all_disqualified = false;
    for (f, func) in p.funcs.iter_enumerated().filter(|(_, f)| f.defined) {
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                let StmtKind::Call { callee, args, .. } = &stmt.kind else {
                    continue;
                };
                let Some((SemOp::Init, sem)) = sem_op(p, callee) else {
                    continue;
                };
                let one = p.init_values.get(&stmt.pos).is_some_and(|v| {
                    // Every call recorded at this position passed the constant 1.
                    v.iter().all(|&x| x == Some(1))
                });
                match args.get(usize::from(sem)).and_then(sem_key) {
                    Some(k) if one => {
                        initialised.insert(k);
                    }
                    Some(k) => {
                        disqualified.insert(k);
                    }
                    None if !one => all_disqualified = true,
                    None => {}
                }
            }
        }
        posts_follow_waits(
            p,
            f,
            func,
            readers,
            &mut disqualified,
            &mut all_disqualified,
        );
    }
    if all_disqualified {
        return FxHashSet::default();
    }
    initialised
        .into_iter()
        .filter(|k| !disqualified.contains(k))
        .collect()
}

/// The must analysis of one function: the semaphores waited on and not posted since, on every
/// path; a post of one not in that set disqualifies it.
fn posts_follow_waits(
    p: &Program,
    f: FuncId,
    func: &Func,
    readers: &FxHashMap<StmtAt, Operand>,
    disqualified: &mut BTreeSet<SemKey>,
    all: &mut bool,
) {
    let n = func.blocks.len();
    let succs = func.successor_lists();
    // Transfers a block; with `check`, records the posts that are not preceded by a wait.
    let transfer = |b: usize,
                    mut held: BTreeSet<SemKey>,
                    check: &mut Option<(&mut BTreeSet<SemKey>, &mut bool)>| {
        let block = crate::ir::BlockId(b as u32);
        for (k, stmt) in func.blocks[block].stmts.iter().enumerate() {
            let StmtKind::Call { callee, args, .. } = &stmt.kind else {
                continue;
            };
            if readers.contains_key(&(f, block, k)) {
                continue;
            }
            let Some((op, sem)) = sem_op(p, callee) else {
                continue;
            };
            let key = args.get(usize::from(sem)).and_then(sem_key);
            match (op, key) {
                (SemOp::Wait, Some(k)) => {
                    held.insert(k);
                }
                (SemOp::Post, Some(k)) if !held.remove(&k) => {
                    if let Some((d, _)) = check {
                        d.insert(k);
                    }
                }
                (SemOp::Post, None) => {
                    if let Some((_, all)) = check {
                        **all = true;
                    }
                }
                _ => {}
            }
        }
        held
    };
    let entry = dataflow::forward(
        &mut (),
        n,
        |b| &succs[b],
        BTreeSet::new(),
        |_, b, state| Some(transfer(b, state, &mut None)),
        |_, into: &mut BTreeSet<SemKey>, incoming| dataflow::intersect(into, incoming),
    );
    let mut check = Some((disqualified, all));
    for (b, input) in entry.into_iter().enumerate() {
        if let Some(input) = input {
            transfer(b, input, &mut check);
        }
    }
}
