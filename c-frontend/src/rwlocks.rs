//! Readers/writer locks built by hand from a mutex and two counters (Butenhof's `rwlock`,
//! `pthread_rdwr_*_np`), recognised in the program's own functions and then modelled as the
//! library's `pthread_rwlock_*` calls are: their bodies are dropped and their calls acquire or
//! release the lock object their first argument points to ([`Recognised`]). An extension beyond
//! the paper, whose locks are all primitive.
//!
//! ```c
//! void rd_lock(rw_t *rw) {                    void wr_lock(rw_t *rw) {
//!     lock(&rw->m);                               lock(&rw->m);
//!     while (rw->writers)                         while (rw->writers || rw->readers)
//!         cond_wait(&rw->ok, &rw->m);                 cond_wait(&rw->ok, &rw->m);
//!     rw->readers++;                              rw->writers++;
//!     unlock(&rw->m);                             unlock(&rw->m);
//! }                                           }
//! void rd_unlock(rw_t *rw) { lock(&rw->m); rw->readers--; …; unlock(&rw->m); }
//! void wr_unlock(rw_t *rw) { lock(&rw->m); rw->writers = 0; …; unlock(&rw->m); }
//! ```
//!
//! A function is a lock function of struct `S` when its first parameter `rw` points to an `S`,
//! is never assigned and never has its address taken, and its body touches nothing but its own
//! locals and the members of `*rw`: it calls only lock, unlock and condition wait on one mutex
//! member `&rw->m`, and signal or broadcast on members, and releases `m` before every return. Of
//! two integer members `readers` and `writers`, written only holding `m`:
//!
//! - a **write lock** adds one to `writers` (or stores 1) where, since it last acquired `m`
//!   (a condition wait releases it), it has seen `writers` and `readers` both zero;
//! - a **read lock** adds one to `readers` where it has seen `writers` zero;
//! - a **read unlock** only subtracts one from `readers`; a **write unlock** only stores 0 in
//!   `writers` or subtracts one from it.
//!
//! Both members are written nowhere else in the program except by stores of 0 (the
//! initialisation), and read nowhere else; there is at least one write lock. Then, under `m`,
//! `writers` is non-zero while a writer is between its lock and unlock and `readers` counts the
//! readers there, so a writer excludes everyone and readers exclude writers: exactly a
//! readers/writer lock whose object is `*rw`. Assumed, as for the library's locks: each unlock is
//! called by a thread holding the lock (an unbalanced unlock is undefined for `pthread_rwlock_t`
//! too), and the members are not written through `memcpy`, `memset` or another type.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::{StructId, Type};
use crate::ir::visit::{walk_operand, Visitor};
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Program, Proj, Stmt, StmtKind,
    Term, VarId, VarKind,
};
use crate::model::{Kind, LockMode, Spec};

/// What a recognised lock function does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LockRole {
    ReadLock,
    WriteLock,
    ReadUnlock,
    WriteUnlock,
}

impl LockRole {
    /// How the report names the role.
    pub fn describe(self) -> &'static str {
        match self {
            LockRole::ReadLock => "read lock",
            LockRole::WriteLock => "write lock",
            LockRole::ReadUnlock => "read unlock",
            LockRole::WriteUnlock => "write unlock",
        }
    }

    fn kind(self) -> Kind {
        match self {
            LockRole::ReadLock => Kind::Acquire {
                lock: 0,
                mode: LockMode::Shared,
                waits: true,
            },
            LockRole::WriteLock => Kind::Acquire {
                lock: 0,
                mode: LockMode::Exclusive,
                waits: true,
            },
            LockRole::ReadUnlock | LockRole::WriteUnlock => Kind::Release { lock: 0 },
        }
    }
}

/// The lock functions recognised, in id order.
#[derive(Clone, Debug, Default)]
pub struct Recognised {
    pub functions: Vec<(FuncId, LockRole)>,
}

/// How one candidate function writes a member of `*rw`.
#[derive(Clone, Debug)]
enum MemberWrite {
    /// Adds `k` ([`Program::steps`]).
    Step(i64),
    /// Stores the constant.
    Store(i64),
    Other,
}

/// A write of a member with what the function knew then: the members seen zero since the mutex
/// was last acquired, and whether it was held.
#[derive(Clone, Debug)]
struct Write {
    member: u32,
    how: MemberWrite,
    zero: FxHashSet<u32>,
    held: bool,
}

/// A function whose body touches only `*rw` and its locals, with its writes of members.
struct Candidate {
    f: FuncId,
    strukt: StructId,
    mutex: u32,
    writes: Vec<Write>,
}

/// Recognises the program's hand-made readers/writer locks and replaces their functions' bodies
/// by the model's lock calls.
pub fn recognise(p: &mut Program) -> Recognised {
    let candidates: Vec<Candidate> = p.funcs.indices().filter_map(|f| candidate(p, f)).collect();
    let mut by_struct: FxHashMap<(StructId, u32), Vec<&Candidate>> = FxHashMap::default();
    for c in &candidates {
        by_struct.entry((c.strukt, c.mutex)).or_default().push(c);
    }
    let mut keys: Vec<(StructId, u32)> = by_struct.keys().copied().collect();
    keys.sort();
    let mut out = Recognised::default();
    for key in keys {
        out.functions.extend(lock_of(p, key.0, &by_struct[&key]));
    }
    out.functions.sort();
    for &(f, role) in &out.functions {
        let func = &mut p.funcs[f];
        func.blocks = Default::default();
        func.counted_loops.clear();
        func.defined = false;
        p.known[f] = Some(Spec::new(role.kind()));
    }
    out
}

/// The roles of the candidates of one struct and mutex member, when they form a lock: a pair of
/// counter members for which every candidate has one role and the rest of the program leaves
/// them alone.
fn lock_of(p: &Program, strukt: StructId, cands: &[&Candidate]) -> Vec<(FuncId, LockRole)> {
    let mut pairs: Vec<(u32, u32)> = cands
        .iter()
        .flat_map(|c| c.writes.iter())
        .filter(|w| w.held && is_increment(&w.how))
        .flat_map(|w| w.zero.iter().map(move |&r| (r, w.member)))
        .filter(|(r, wr)| r != wr)
        .collect();
    pairs.sort();
    pairs.dedup();
    for (readers, writers) in pairs {
        let roles: Option<Vec<(FuncId, LockRole)>> = cands
            .iter()
            .filter(|c| {
                c.writes
                    .iter()
                    .any(|w| w.member == readers || w.member == writers)
            })
            .map(|c| role(c, readers, writers).map(|r| (c.f, r)))
            .collect();
        let Some(roles) = roles else { continue };
        let has_writer = roles.iter().any(|(_, r)| *r == LockRole::WriteLock);
        let funcs: FxHashSet<FuncId> = roles.iter().map(|(f, _)| *f).collect();
        if has_writer && left_alone(p, strukt, &[readers, writers], &funcs) {
            return roles;
        }
    }
    Vec::new()
}

fn is_increment(how: &MemberWrite) -> bool {
    matches!(how, MemberWrite::Step(1) | MemberWrite::Store(1))
}

/// The role of one candidate for the counters `readers` and `writers`, if it has exactly one.
fn role(c: &Candidate, readers: u32, writers: u32) -> Option<LockRole> {
    let ws: Vec<&Write> = c
        .writes
        .iter()
        .filter(|w| w.member == readers || w.member == writers)
        .collect();
    if ws.iter().any(|w| !w.held) {
        return None;
    }
    let all =
        |member: u32, ok: &dyn Fn(&Write) -> bool| ws.iter().all(|w| w.member == member && ok(w));
    if all(writers, &|w| {
        is_increment(&w.how) && w.zero.contains(&writers) && w.zero.contains(&readers)
    }) {
        return Some(LockRole::WriteLock);
    }
    if all(readers, &|w| {
        matches!(w.how, MemberWrite::Step(1)) && w.zero.contains(&writers)
    }) {
        return Some(LockRole::ReadLock);
    }
    if all(readers, &|w| matches!(w.how, MemberWrite::Step(-1))) {
        return Some(LockRole::ReadUnlock);
    }
    if all(writers, &|w| {
        matches!(w.how, MemberWrite::Step(-1) | MemberWrite::Store(0))
    }) {
        return Some(LockRole::WriteUnlock);
    }
    None
}

/// Whether the counters are written outside `funcs` only by stores of 0, and read nowhere else.
fn left_alone(p: &Program, strukt: StructId, members: &[u32], funcs: &FxHashSet<FuncId>) -> bool {
    let names = |lv: &Lval| {
        lv.proj.iter().any(|pr| {
            matches!(pr, Proj::Field { strukt: s, index } if *s == strukt && members.contains(index))
        })
    };
    struct Reads<'n> {
        names: &'n dyn Fn(&Lval) -> bool,
        found: bool,
    }
    impl Visitor for Reads<'_> {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::Use(lv) = op {
                self.found |= (self.names)(lv);
            }
            walk_operand(self, op);
        }
    }
    for (f, func) in p.funcs.iter_enumerated() {
        if funcs.contains(&f) {
            continue;
        }
        let mut reads = Reads {
            names: &names,
            found: false,
        };
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                let written_ok = match &stmt.kind {
                    StmtKind::Assign { dst, src } => !names(dst) || src.constant() == Some(0),
                    StmtKind::Call { dst: Some(dst), .. } => !names(dst),
                    StmtKind::Asm { operands } => !operands.iter().any(names),
                    _ => true,
                };
                if !written_ok {
                    return false;
                }
                match &stmt.kind {
                    StmtKind::Assign { src, .. } => reads.visit_operand(src),
                    StmtKind::Call { args, callee, .. } => {
                        args.iter().for_each(|a| reads.visit_operand(a));
                        if let Callee::Indirect(op) = callee {
                            reads.visit_operand(op);
                        }
                    }
                    StmtKind::Eval(op) => reads.visit_operand(op),
                    StmtKind::Asm { .. } => {}
                }
            }
            match &block.term {
                Term::Branch { cond, .. } => reads.visit_operand(cond),
                Term::Return(Some(op), _) => reads.visit_operand(op),
                _ => {}
            }
        }
        if reads.found {
            return false;
        }
    }
    // A whole object of the struct copied or stored writes the counters too.
    !p.funcs
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| &b.stmts)
        .any(|s| {
            matches!(&s.kind, StmtKind::Assign { dst, .. }
            if matches!(p.types.get(p.lval_type(dst)), Type::Struct(s) if *s == strukt))
        })
}

/// The parameter `rw` of a candidate and the struct it points to.
fn lock_param(p: &Program, func: &Func) -> Option<(VarId, StructId)> {
    let &rw = func.params.first()?;
    let var = &p.vars[rw];
    if var.address_taken {
        return None;
    }
    let pointee = p.types.pointee(var.ty)?;
    let Type::Struct(s) = *p.types.get(pointee) else {
        return None;
    };
    let assigned = func
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .any(|st| match &st.kind {
            StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                matches!(dst.base, Base::Var(v) if v == rw)
            }
            _ => false,
        });
    (!assigned).then_some((rw, s))
}

/// The member of `*rw` an lvalue names: `rw->member`, exactly.
fn member_of(lv: &Lval, rw: VarId, strukt: StructId) -> Option<u32> {
    let Base::Deref(op) = &lv.base else {
        return None;
    };
    let Operand::Use(inner) = op.without_casts() else {
        return None;
    };
    if !matches!(inner.base, Base::Var(v) if v == rw) || !inner.proj.is_empty() {
        return None;
    }
    match lv.proj[..] {
        [Proj::Field { strukt: s, index }] if s == strukt => Some(index),
        _ => None,
    }
}

/// Whether an operand reads only the locals of `f` and members of `*rw`.
fn reads_own(p: &Program, f: FuncId, rw: VarId, strukt: StructId, op: &Operand) -> bool {
    struct Own<'p> {
        p: &'p Program,
        f: FuncId,
        rw: VarId,
        strukt: StructId,
        ok: bool,
    }
    impl Visitor for Own<'_> {
        fn visit_operand(&mut self, op: &Operand) {
            match op {
                Operand::Use(lv) => {
                    self.ok &= own_local(self.p, self.f, lv)
                        || member_of(lv, self.rw, self.strukt).is_some();
                }
                Operand::AddrOf(lv) => {
                    self.ok &= member_of(lv, self.rw, self.strukt).is_some();
                    return;
                }
                _ => {}
            }
            walk_operand(self, op);
        }
    }
    let mut own = Own {
        p,
        f,
        rw,
        strukt,
        ok: true,
    };
    own.visit_operand(op);
    own.ok
}

/// A plain local, parameter or temporary of `f` whose address is never taken.
fn own_local(p: &Program, f: FuncId, lv: &Lval) -> bool {
    let Base::Var(v) = lv.base else { return false };
    let var = &p.vars[v];
    lv.proj.is_empty()
        && !var.address_taken
        && matches!(var.kind, VarKind::Local(g) | VarKind::Param(g, _) | VarKind::Temp(g) if g == f)
}

/// What a statement of a candidate does to the mutex: the member of `&rw->m` it locks, unlocks
/// or waits on, or `None` for a statement that is no mutex call.
enum MutexOp {
    Lock(u32),
    Unlock(u32),
    Wait(u32),
    Signal,
}

fn mutex_op(
    p: &Program,
    rw: VarId,
    strukt: StructId,
    callee: &Callee,
    args: &[Operand],
) -> Option<MutexOp> {
    let Callee::Direct(g) = callee else {
        return None;
    };
    let member = |a: u8| match args.get(usize::from(a))?.without_casts() {
        Operand::AddrOf(lv) => member_of(lv, rw, strukt),
        _ => None,
    };
    match p.known_kind(*g)? {
        Kind::Acquire {
            lock,
            mode: LockMode::Exclusive,
            ..
        } => member(lock).map(MutexOp::Lock),
        Kind::Release { lock } => member(lock).map(MutexOp::Unlock),
        Kind::Wait { lock } => member(lock).map(MutexOp::Wait),
        Kind::NoEffect => args
            .iter()
            .all(|a| matches!(a.without_casts(), Operand::AddrOf(lv) if member_of(lv, rw, strukt).is_some()))
            .then_some(MutexOp::Signal),
        _ => None,
    }
}

/// The state of the must analysis of a candidate: whether the mutex is held, and the members
/// seen zero since it was acquired.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    held: bool,
    zero: FxHashSet<u32>,
}

/// The candidate `f` is, if its body touches only `*rw` and its locals.
fn candidate(p: &Program, f: FuncId) -> Option<Candidate> {
    let func = &p.funcs[f];
    if !func.defined || func.origin != Origin::User || p.known[f].is_some() {
        return None;
    }
    let (rw, strukt) = lock_param(p, func)?;
    let mut mutex: Option<u32> = None;
    // Every statement and terminator is one the idiom allows.
    for block in func.blocks.iter() {
        for stmt in &block.stmts {
            let ok = match &stmt.kind {
                StmtKind::Assign { dst, src } => {
                    (own_local(p, f, dst) || member_of(dst, rw, strukt).is_some())
                        && reads_own(p, f, rw, strukt, src)
                }
                StmtKind::Call { dst, callee, args } => {
                    let op = mutex_op(p, rw, strukt, callee, args)?;
                    let m = match op {
                        MutexOp::Lock(m) | MutexOp::Unlock(m) | MutexOp::Wait(m) => Some(m),
                        MutexOp::Signal => None,
                    };
                    if let Some(m) = m {
                        if *mutex.get_or_insert(m) != m {
                            return None;
                        }
                    }
                    dst.as_ref().is_none_or(|d| own_local(p, f, d))
                }
                StmtKind::Eval(op) => reads_own(p, f, rw, strukt, op),
                StmtKind::Asm { .. } => false,
            };
            if !ok {
                return None;
            }
        }
        let ok = match &block.term {
            Term::Goto(_) | Term::Return(None, _) => true,
            Term::Return(Some(op), _) => reads_own(p, f, rw, strukt, op),
            Term::Branch { cond, .. } => reads_own(p, f, rw, strukt, cond),
            Term::Multi(..) | Term::Exit => false,
        };
        if !ok {
            return None;
        }
    }
    let mutex = mutex?;
    let writes = analyse(p, func, rw, strukt)?;
    Some(Candidate {
        f,
        strukt,
        mutex,
        writes,
    })
}

/// The must analysis of a candidate: its writes of members with what it knew then; `None` if
/// it may return holding the mutex.
fn analyse(p: &Program, func: &Func, rw: VarId, strukt: StructId) -> Option<Vec<Write>> {
    let n = func.blocks.len();
    let top = State {
        held: false,
        zero: FxHashSet::default(),
    };
    // `None`: not reached yet. Meet: held if held on both, members zero on both.
    let mut entry: Vec<Option<State>> = vec![None; n];
    entry[0] = Some(top);
    let mut work: Vec<usize> = vec![0];
    let transfer = |b: usize, mut s: State, writes: &mut Option<&mut Vec<Write>>| {
        for stmt in &func.blocks[BlockId(b as u32)].stmts {
            step(p, rw, strukt, stmt, &mut s, writes);
        }
        s
    };
    while let Some(b) = work.pop() {
        let Some(input) = entry[b].clone() else {
            continue;
        };
        let out = transfer(b, input, &mut None);
        let term = &func.blocks[BlockId(b as u32)].term;
        for (succ, s) in edges(rw, strukt, term, &out) {
            let merged = match &entry[succ] {
                None => s,
                Some(old) => State {
                    held: old.held && s.held,
                    zero: old.zero.intersection(&s.zero).copied().collect(),
                },
            };
            if entry[succ].as_ref() != Some(&merged) {
                entry[succ] = Some(merged);
                work.push(succ);
            }
        }
    }
    let mut writes = Vec::new();
    for (b, input) in entry.into_iter().enumerate() {
        let Some(input) = input else { continue };
        let out = transfer(b, input, &mut Some(&mut writes));
        if matches!(func.blocks[BlockId(b as u32)].term, Term::Return(..)) && out.held {
            return None;
        }
    }
    Some(writes)
}

/// The successors of a block's terminator with the state on each edge: a branch on a member
/// (`rw->x`, `!rw->x`, `rw->x == 0` are all lowered as a test of `rw->x`) learns on its false edge
/// that the member is zero.
fn edges(rw: VarId, strukt: StructId, term: &Term, out: &State) -> Vec<(usize, State)> {
    match term {
        Term::Branch {
            cond,
            then_block,
            else_block,
            compare: None,
            ..
        } => {
            let mut on_false = out.clone();
            if let Operand::Use(lv) = cond.without_casts() {
                if let (Some(m), true) = (member_of(lv, rw, strukt), out.held) {
                    on_false.zero.insert(m);
                }
            }
            vec![
                (then_block.0 as usize, out.clone()),
                (else_block.0 as usize, on_false),
            ]
        }
        _ => term
            .successors()
            .iter()
            .map(|s| (s.0 as usize, out.clone()))
            .collect(),
    }
}

/// One statement of the must analysis, recording member writes into `writes` when asked.
fn step(
    p: &Program,
    rw: VarId,
    strukt: StructId,
    stmt: &Stmt,
    s: &mut State,
    writes: &mut Option<&mut Vec<Write>>,
) {
    match &stmt.kind {
        StmtKind::Assign { dst, src } => {
            let Some(member) = member_of(dst, rw, strukt) else {
                return;
            };
            let how = match src.without_casts() {
                Operand::Const(_, Some(k)) => MemberWrite::Store(*k),
                Operand::Arith(_, _, ops)
                    if ops.len() == 2
                        && matches!(ops[0].without_casts(), Operand::Use(lv)
                            if member_of(lv, rw, strukt) == Some(member)) =>
                {
                    match p.steps.get(&stmt.pos) {
                        Some(&k) if k != 0 => MemberWrite::Step(k),
                        _ => MemberWrite::Other,
                    }
                }
                _ => MemberWrite::Other,
            };
            if let Some(w) = writes {
                w.push(Write {
                    member,
                    how,
                    zero: s.zero.clone(),
                    held: s.held,
                });
            }
            s.zero.remove(&member);
        }
        StmtKind::Call { callee, args, .. } => match mutex_op(p, rw, strukt, callee, args) {
            Some(MutexOp::Lock(_)) => {
                s.held = true;
                s.zero.clear();
            }
            Some(MutexOp::Unlock(_)) => {
                s.held = false;
                s.zero.clear();
            }
            // The wait releases the mutex and takes it again: what was seen is stale.
            Some(MutexOp::Wait(_)) => s.zero.clear(),
            Some(MutexOp::Signal) => {}
            None => {
                s.held = false;
                s.zero.clear();
            }
        },
        StmtKind::Eval(_) | StmtKind::Asm { .. } => {}
    }
}
