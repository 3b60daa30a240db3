//! Conditions on join loops whose bound is a global (an extension beyond the paper, with
//! [`super::mhp`]).
//!
//! `for (i = 0; i < cfg.nworkers; i++) pthread_create(&w[i], …)` followed later by
//! `for (i = 0; i < cfg.nworkers; i++) pthread_join(w[i], …)` joins every thread only if
//! `cfg.nworkers` has the same value in both loops. The front end proves that for constants and
//! locals; for a global, whose address may be passed anywhere (`parse_config(&cfg)`), it records a
//! [`BoundCondition`] instead, decided here with label flow: the bound is unchanged if no access
//! that may write it can run in between. An access may write the bound when its label may denote
//! the bound's location: when the bound's label reaches it by flow, following instantiation
//! edges in their direction of flow but without matching call and return (a superset of the
//! matched paths). The writes that matter are those
//!
//! - in the blocks of the creating function that may run between the start of the create loop
//!   and the exit of the join loop (the condition's region),
//! - in any function called from those blocks, directly or not, and
//! - in any code a thread may run (threads run at any time).
//!
//! Writes before the create loop, or after the join loop (before the next create), are harmless.
//! A condition that fails makes its handle untrusted: its joins end nothing, which is sound.

use rustc_hash::FxHashSet;

use super::mhp::reachable_from_threads;
use super::structure::Structure;
use super::{Event, FnId, ThreadHandle, ThreadProgram};
use crate::constraints::{Constraints, Polarity, Rho};
use crate::ids::{Idx, IndexVec};

/// The handles whose join-loop condition does not hold.
pub fn failed_conditions(
    c: &Constraints,
    p: &ThreadProgram,
    s: &Structure,
) -> FxHashSet<ThreadHandle> {
    let mut failed = FxHashSet::default();
    if p.bound_conditions.is_empty() {
        return failed;
    }
    let succ = flow_successors(c);
    let thread_code = reachable_from_threads(p);
    for cond in &p.bound_conditions {
        let holds = match cond.bound {
            Some(bound) => unwritten(p, s, &succ, &thread_code, bound, cond.func, &cond.region),
            None => false,
        };
        if !holds {
            failed.insert(cond.handle);
        }
    }
    failed
}

/// Every flow edge `ρ → ρ'` along which the contents of `ρ` may be seen as `ρ'`: flow, pack
/// flow, and instantiation in the direction of its polarity.
fn flow_successors(c: &Constraints) -> IndexVec<Rho, Vec<Rho>> {
    let mut succ: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), c.rhos.len());
    for &(a, b) in c.flows.iter().chain(&c.pack_flows) {
        succ[a].push(b);
    }
    for inst in &c.rho_insts {
        match inst.polarity {
            Polarity::Pos => succ[inst.generic].push(inst.instance),
            Polarity::Neg => succ[inst.instance].push(inst.generic),
        }
    }
    succ
}

/// Whether no write of `bound` may happen in `region` of `func`, in a function called from it,
/// or in thread code.
fn unwritten(
    p: &ThreadProgram,
    s: &Structure,
    succ: &IndexVec<Rho, Vec<Rho>>,
    thread_code: &IndexVec<FnId, bool>,
    bound: Rho,
    func: FnId,
    region: &[u32],
) -> bool {
    // The labels that may denote the bound's location.
    let mut denotes = vec![false; succ.len()];
    let mut stack = vec![bound];
    denotes[bound.index()] = true;
    while let Some(r) = stack.pop() {
        for &q in &succ[r] {
            if !std::mem::replace(&mut denotes[q.index()], true) {
                stack.push(q);
            }
        }
    }
    let writes = |e: &Event| match *e {
        Event::Access(a) => {
            let info = p.accesses[a];
            info.write && denotes[info.rho.index()]
        }
        _ => false,
    };
    // Functions that write the bound themselves, then every function that calls one of them.
    let mut writer: IndexVec<FnId, bool> = p
        .funcs
        .iter()
        .map(|body| body.blocks.iter().any(|b| b.events.iter().any(writes)))
        .collect();
    if writer.iter_enumerated().any(|(f, &w)| w && thread_code[f]) {
        return false;
    }
    let mut work: Vec<FnId> = writer
        .iter_enumerated()
        .filter(|(_, &w)| w)
        .map(|(f, _)| f)
        .collect();
    while let Some(f) = work.pop() {
        for pt in &s.callers[f] {
            if !std::mem::replace(&mut writer[pt.caller], true) {
                work.push(pt.caller);
            }
        }
    }
    let body = &p.funcs[func];
    region.iter().all(|&b| {
        body.blocks[b as usize].events.iter().all(|e| match *e {
            Event::Call { callee, .. } => !writer[callee],
            ref e => !writes(e),
        })
    })
}
