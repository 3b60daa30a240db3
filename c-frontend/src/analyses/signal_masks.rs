//! Which signals a call of `sigprocmask` or `pthread_sigmask` certainly blocks and which it may
//! unblock, for the signals the program installs handlers for (POSIX XSH 2.4.1: a signal
//! blocked in a thread is not delivered to it; it stays pending). The constraint generator
//! turns each into the hold of a *mask lock* per signal, which the race check reads in one pair
//! only: a handler for the signal and an access of `main` where no other thread may run
//! (`solver::threads::check`, `handler_masked`).
//!
//! The signal sets are followed through the calls that build them (`sigemptyset`, `sigfillset`,
//! `sigaddset`, `sigdelset` of constant signals) by a forward analysis per function over the
//! sets named by a variable whose address is used only by those calls and by the mask calls:
//! for each, the signals it certainly holds and those it may hold. A set built any other way
//! (a saved old mask, a parameter, one written through a pointer) may hold anything and
//! certainly holds nothing, so blocking it blocks nothing and unblocking it unblocks every
//! signal. It reads the IR and the model only.

use rustc_hash::FxHashSet;
use std::collections::BTreeMap;

use crate::analyses::joins::StmtAt;
use crate::ir::visit::{self, Visitor};
use crate::ir::{Base, BlockId, Callee, Func, FuncId, Operand, Origin, Program, StmtKind, VarId};
use crate::model::{Kind, MaskCall, Model};

/// Every signal (1 to 64, Linux's range), one bit each.
const ALL: u64 = u64::MAX;

/// What one mask call does to the signals blocked in the calling thread.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MaskChange {
    /// The signals certainly blocked by the call (bit `n - 1` for signal `n`).
    pub blocks: u64,
    /// The signals the call may unblock.
    pub unblocks: u64,
}

/// The mask calls of the program, by statement, and the signals with a handler that some call
/// certainly blocks: the signals that get a mask lock.
#[derive(Clone, Debug, Default)]
pub struct SignalMasks {
    pub changes: BTreeMap<StmtAt, MaskChange>,
    pub masked: Vec<i64>,
}

/// The bit of signal `n`, if it is one of 1 to 64.
fn bit(n: i64) -> Option<u64> {
    (1..=64).contains(&n).then(|| 1u64 << (n - 1))
}

/// The mask calls of every user function, and the handled signals they block.
pub fn analyse(p: &Program) -> SignalMasks {
    let handled = handled_signals(p);
    let mut out = SignalMasks::default();
    if handled == 0 {
        return out;
    }
    let mut blocked = 0u64;
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == Origin::User) {
            continue;
        }
        for (at, change) in function_changes(p, f, func) {
            let change = MaskChange {
                blocks: change.blocks & handled,
                unblocks: change.unblocks & handled,
            };
            blocked |= change.blocks;
            out.changes.insert(at, change);
        }
    }
    out.masked = (1..=64)
        .filter(|&n| bit(n).is_some_and(|b| blocked & b != 0))
        .collect();
    out
}

/// The signals a handler is installed for by a constant number (`signal(SIGINT, h)`,
/// `sigaction(SIGTERM, &act, 0)`).
fn handled_signals(p: &Program) -> u64 {
    let mut handled = 0;
    for func in p.funcs.iter() {
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let StmtKind::Call {
                callee: Callee::Direct(g),
                args,
                ..
            } = &stmt.kind
            else {
                continue;
            };
            if matches!(
                p.known_kind(*g),
                Some(Kind::SignalHandler { .. } | Kind::SigAction { .. })
            ) {
                if let Some(b) = args.first().and_then(Operand::constant).and_then(bit) {
                    handled |= b;
                }
            }
        }
    }
    handled
}

/// What `call` is to the model, when it is a direct call of a mask or set function.
fn mask_call(p: &Program, callee: &Callee) -> Option<MaskCall> {
    let Callee::Direct(g) = callee else {
        return None;
    };
    Model::builtin().mask_call(&p.funcs[*g].name)
}

/// The variable a set argument names (`&set`), if it is one.
fn set_var(op: Option<&Operand>) -> Option<VarId> {
    match op?.without_casts() {
        Operand::AddrOf(lv) if lv.proj.is_empty() => match lv.base {
            Base::Var(v) => Some(v),
            Base::Deref(_) => None,
        },
        _ => None,
    }
}

/// The variables whose address is taken somewhere other than as the set of a mask or set call:
/// their sets may change behind the analysis's back.
fn escaping(p: &Program, func: &Func) -> FxHashSet<VarId> {
    struct Addresses<'a>(&'a mut FxHashSet<VarId>);
    impl Visitor for Addresses<'_> {
        fn visit_operand(&mut self, op: &Operand) {
            if let Some(v) = set_var(Some(op)) {
                self.0.insert(v);
            }
            visit::walk_operand(self, op);
        }
    }
    let mut out = FxHashSet::default();
    for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
        match &stmt.kind {
            StmtKind::Call { callee, args, dst } if mask_call(p, callee).is_some() => {
                // The set the call reads or builds is the call's own; anything else it is
                // given escapes (`sigprocmask(how, &set, &old)` writes `old`).
                let own = match mask_call(p, callee) {
                    Some(
                        MaskCall::Mask { set, .. }
                        | MaskCall::Empty { set }
                        | MaskCall::Fill { set }
                        | MaskCall::Add { set, .. }
                        | MaskCall::Del { set, .. },
                    ) => usize::from(set),
                    None => usize::MAX,
                };
                for (k, a) in args.iter().enumerate() {
                    if k != own {
                        Addresses(&mut out).visit_operand(a);
                    }
                }
                if let Some(dst) = dst {
                    Addresses(&mut out).visit_lval(dst);
                }
            }
            kind => visit::walk_stmt(&mut Addresses(&mut out), kind),
        }
    }
    out
}

/// The sets known at a point: for each variable, the signals it certainly holds and those it
/// may hold. A variable not in the map may hold anything.
type Sets = BTreeMap<VarId, (u64, u64)>;

fn set_of(sets: &Sets, v: Option<VarId>) -> (u64, u64) {
    v.and_then(|v| sets.get(&v).copied()).unwrap_or((0, ALL))
}

/// Applies one statement to the known sets, and says what it does to the mask if it is a mask
/// call.
fn transfer(
    p: &Program,
    escaping: &FxHashSet<VarId>,
    kind: &StmtKind,
    sets: &mut Sets,
) -> Option<MaskChange> {
    // A set assigned whole (`s = saved;`, or a call's result) holds what it was given.
    let assigned = match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => Some(dst),
        _ => None,
    };
    if let Some(Base::Var(v)) = assigned.map(|dst| &dst.base) {
        sets.remove(v);
    }
    let StmtKind::Call { callee, args, .. } = kind else {
        return None;
    };
    let call = mask_call(p, callee)?;
    let arg = |k: u8| args.get(usize::from(k));
    let named = |k: u8| set_var(arg(k)).filter(|v| !escaping.contains(v));
    let signal = |k: u8| arg(k).and_then(Operand::constant).and_then(bit);
    match call {
        MaskCall::Empty { set } => {
            if let Some(v) = named(set) {
                sets.insert(v, (0, 0));
            }
        }
        MaskCall::Fill { set } => {
            if let Some(v) = named(set) {
                sets.insert(v, (ALL, ALL));
            }
        }
        MaskCall::Add { set, signal: s } => {
            if let Some(v) = named(set) {
                let (must, may) = set_of(sets, Some(v));
                let now = match signal(s) {
                    Some(b) => (must | b, may | b),
                    None => (must, ALL),
                };
                sets.insert(v, now);
            }
        }
        MaskCall::Del { set, signal: s } => {
            if let Some(v) = named(set) {
                let (must, may) = set_of(sets, Some(v));
                let now = match signal(s) {
                    Some(b) => (must & !b, may & !b),
                    None => (0, may),
                };
                sets.insert(v, now);
            }
        }
        MaskCall::Mask { how, set } => {
            if arg(set).and_then(Operand::constant) == Some(0) {
                return Some(MaskChange::default());
            }
            let (must, may) = set_of(sets, named(set));
            return Some(match arg(how).and_then(Operand::constant) {
                Some(0) => MaskChange {
                    blocks: must,
                    unblocks: 0,
                },
                Some(1) => MaskChange {
                    blocks: 0,
                    unblocks: may,
                },
                Some(2) => MaskChange {
                    blocks: must,
                    unblocks: !must,
                },
                _ => MaskChange {
                    blocks: 0,
                    unblocks: ALL,
                },
            });
        }
    }
    None
}

/// The mask calls of one function with what each does.
fn function_changes(p: &Program, f: FuncId, func: &Func) -> Vec<(StmtAt, MaskChange)> {
    let calls_mask = func
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .any(|s| matches!(&s.kind, StmtKind::Call { callee, .. } if matches!(mask_call(p, callee), Some(MaskCall::Mask { .. }))));
    if !calls_mask {
        return Vec::new();
    }
    let escaping = escaping(p, func);
    let succs = func.successor_lists();
    let entry = solver::dataflow::forward(
        &mut (),
        func.blocks.len(),
        |b| &succs[b],
        Sets::new(),
        |_, b, mut sets| {
            for stmt in &func.blocks[BlockId(b as u32)].stmts {
                transfer(p, &escaping, &stmt.kind, &mut sets);
            }
            Some(sets)
        },
        |_, into: &mut Sets, incoming| {
            let before = into.clone();
            into.retain(|v, _| incoming.contains_key(v));
            for (v, (must, may)) in into.iter_mut() {
                let (m, y) = incoming[v];
                *must &= m;
                *may |= y;
            }
            *into != before
        },
    );
    let mut out = Vec::new();
    for (b, block) in func.blocks.iter_enumerated() {
        let Some(mut sets) = entry[b.0 as usize].clone() else {
            continue;
        };
        for (k, stmt) in block.stmts.iter().enumerate() {
            if let Some(change) = transfer(p, &escaping, &stmt.kind, &mut sets) {
                out.push(((f, b, k), change));
            }
        }
    }
    out
}
