//! The mutexes a function certainly holds at each point, by the names the program gives them:
//! a must analysis per function, for the front-end analyses that need to know that an idiom's
//! statements run under one mutex (counter joins, readers sections of semaphores). It reads the
//! IR and the model only.

use std::collections::BTreeSet;

use crate::analyses::semaphores::{sem_key, SemKey};
use crate::ir::{BlockId, Callee, Func, Origin, Program, StmtKind};
use crate::model::{Kind, Releasing};

/// The mutexes certainly held on entry to each block of a function and before each statement:
/// a must analysis over `pthread_mutex_lock`/`unlock` of mutexes the program names (`&m`,
/// `&o.m`). A call of a user function, of a stub, of a function the model does not know, or
/// through a pointer may release anything, and so forgets every mutex, as does any kind the
/// model says may ([`Kind::releasing`]); `pthread_cond_wait` holds its mutex again when it
/// returns.
pub(crate) struct Held {
    entry: Vec<Option<BTreeSet<SemKey>>>,
}

impl Held {
    pub(crate) fn new(p: &Program, func: &Func) -> Held {
        let succs = func.successor_lists();
        let entry = solver::dataflow::forward(
            &mut (),
            func.blocks.len(),
            |b| &succs[b],
            BTreeSet::new(),
            |_, b, mut held| {
                for stmt in &func.blocks[BlockId(b as u32)].stmts {
                    transfer(p, stmt, &mut held);
                }
                Some(held)
            },
            |_, into: &mut BTreeSet<SemKey>, incoming| solver::dataflow::intersect(into, incoming),
        );
        Held { entry }
    }

    /// The mutexes held before statement `k` of block `b` (`k` = the number of statements: at
    /// its terminator); `None` where the block is unreachable.
    pub(crate) fn before(
        &self,
        p: &Program,
        func: &Func,
        b: BlockId,
        k: usize,
    ) -> Option<BTreeSet<SemKey>> {
        let mut held = self.entry[b.0 as usize].clone()?;
        for stmt in &func.blocks[b].stmts[..k] {
            transfer(p, stmt, &mut held);
        }
        Some(held)
    }
}

fn transfer(p: &Program, stmt: &crate::ir::Stmt, held: &mut BTreeSet<SemKey>) {
    let StmtKind::Call { callee, args, .. } = &stmt.kind else {
        return;
    };
    let Callee::Direct(g) = callee else {
        held.clear();
        return;
    };
    let func = &p.funcs[*g];
    let kind = p.known_kind(*g);
    if func.defined && func.origin == Origin::User && kind.is_none() {
        held.clear();
        return;
    }
    let named = |a: crate::model::Arg| args.get(usize::from(a)).and_then(sem_key);
    match kind {
        Some(Kind::Acquire {
            lock,
            mode: crate::model::LockMode::Exclusive,
            ..
        }) => {
            if let Some(k) = named(lock) {
                held.insert(k);
            }
        }
        Some(k) => match k.releasing() {
            Releasing::Nothing => {}
            Releasing::Lock(lock) => match named(lock) {
                Some(k) => {
                    held.remove(&k);
                }
                None => held.clear(),
            },
            // A stub is not asked what its body releases: anything, to be safe.
            Releasing::Any | Releasing::Body => held.clear(),
        },
        None => held.clear(),
    }
}
