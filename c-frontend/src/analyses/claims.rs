//! Claimed indices: threads that share out the elements of an array by taking the next value of
//! a shared counter, under a mutex or with an atomic add (dynamic scheduling, the work loop of
//! every parallel-for without a runtime):
//!
//! ```c
//! for (;;) {
//!     pthread_mutex_lock(&m); i = next++; pthread_mutex_unlock(&m);   // or
//!     // i = __sync_fetch_and_add(&next, 1);  atomic_fetch_add(&next, 1);
//!     if (i >= n) break;
//!     out[i] = f(in[i]);               // out[i]: the element this claim gave the thread
//! }
//! ```
//!
//! Each claim reads the counter and adds a positive constant to it in one indivisible step, so
//! no two claims anywhere return one value: an access `X[i]…` of a global array `X`, by a local
//! `i` that only ever holds claimed values, lies in an element no other thread's claimed
//! access can name at that moment. Such accesses hold the opened lock of a claim package, one
//! per counter (an inferred unpack, paper §3.3 figure 10's [Unpack] taken further, as for the
//! thread slots of [`crate::analyses::unpacks`]). The improvement on the paper: LOCKSMITH
//! reports every element access of the array, since one label stands for all of them.
//!
//! A counter `c` qualifies when it is a global integer (or a member path of one), not
//! thread-local, whose address is never taken, so that every write names it
//! ([`named_global`]), and every write of it, in the whole program, is one of:
//!
//! - a *claim*: `t = c;` immediately followed by `c = t + k` or `c = c + k` for a constant
//!   `k > 0` — the lowering of `c++`, `c += k` and of the atomic adds — either between the two
//!   calls that bracket an atomic operation ([`ATOMIC_ACCESS`]), or with one global mutex (not
//!   an element of an array of them) certainly held ([`Held`]), the same one at every claim of
//!   `c`; nothing comes between the read and the write. Under the mutex the write may also
//!   come first (`c = c + k; t = c`, `t = ++c`), when every claim of `c` is of that form: then
//!   each claim owns only the value it read, while a claim that reads first owns the `k`
//!   values from it (a mix would let `c++` return what `++c` returned);
//! - its initializer (any constant: it runs before every thread), or a store of a constant in
//!   the entry block of `main`, before any call (so before any thread exists), when nothing
//!   calls `main` or takes its address.
//!
//! A *claim local* of `c` is a local of a function, whose address is never taken, every
//! assignment of which copies a claim's value (the read `t`, directly or through the lowering's
//! one-use temporary), or the result of a call of a *claiming function*: one every `return` of
//! which returns a claim local of `c` (`int next_row(void) { lock; r = rows++; unlock; return
//! r; }`). Values only grow, so a claimed value is never claimed again (counters are assumed
//! not to wrap around: knowingly unsound for a counter that overflows, which is undefined
//! behaviour for a signed one). A parameter every call hands a claim local, and that its
//! function never assigns, holds claimed values too (`fill(r)`, through the slot calls of
//! [`crate::analyses::unpacks`]).
//!
//! Reads the IR and the library model only; it never creates labels.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::analyses::held::Held;
use crate::analyses::semaphores::{named_global, SemKey};
use crate::ir::ctypes::Type;
use crate::ir::{
    ArithOp, Base, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Program, StmtKind, VarId,
    VarKind,
};
use crate::model::ATOMIC_ACCESS;

/// The claim locals of a program: by function, each local holding claimed values with the
/// counter (its index in [`Claims::counters`]) they come from.
#[derive(Clone, Debug, Default)]
pub struct Claims {
    /// The qualifying counters, in the order first claimed.
    pub counters: Vec<SemKey>,
    /// For each counter, the least constant a claim of it adds: each claimed value `v` is the
    /// first of at least that many values no other claim returns.
    pub steps: Vec<i64>,
    pub locals: FxHashMap<FuncId, Vec<(VarId, u32)>>,
}

/// A claim's read in a function: the statement, the variable it fills, the counter's number.
type ClaimRead = ((BlockId, usize), VarId, u32);

/// A claim found in a function: the counter, the variable its read fills, and the mutex held
/// (`None` for an atomic claim).
struct Claim {
    counter: SemKey,
    value: VarId,
    mutex: Option<SemKey>,
    /// The constant the claim adds to the counter.
    step: i64,
    /// The index of the statement that writes the counter, beside the read.
    write: usize,
}

impl Claim {
    /// A claim that writes the counter before reading it (`t = ++c`) returns the value after
    /// its step, and so owns only that value; one that reads first owns `[t, t + step)`.
    fn reads_after(&self, read_at: usize) -> bool {
        self.write < read_at
    }
}

/// Finds the claim locals of a program.
pub fn find(p: &Program, calls: &Calls, main: Option<FuncId>) -> Claims {
    let mut claims: Vec<(FuncId, BlockId, usize, Claim)> = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        if func.defined && func.origin == Origin::User {
            claims_in(p, f, func, &mut claims);
        }
    }
    if claims.is_empty() {
        return Claims::default();
    }
    // Every claim of one counter under one mutex, or atomic, and all reading before they
    // write or all after: mixed, `c++` would return the value a `++c` returned.
    let mut mutex_of: Vec<(SemKey, (Option<SemKey>, bool), bool)> = Vec::new();
    for (_, _, read_at, c) in &claims {
        let how = (c.mutex.clone(), c.reads_after(*read_at));
        match mutex_of.iter_mut().find(|(k, _, _)| *k == c.counter) {
            Some((_, h, ok)) => *ok &= *h == how,
            None => mutex_of.push((c.counter.clone(), how, true)),
        }
    }
    let claim_writes: FxHashSet<(FuncId, BlockId, usize)> = claims
        .iter()
        .map(|(f, b, _, c)| (*f, *b, c.write))
        .collect();
    // `main`'s entry runs before any thread only if nothing calls `main` or takes its address.
    let main = main.filter(|&m| !calls.main_is_called(m));
    let mut counters: Vec<SemKey> = Vec::new();
    for (key, _, ok) in mutex_of {
        if ok && only_claims_write(p, main, &key, &claim_writes) {
            counters.push(key);
        }
    }
    // The claims' reads, by function, with the counter's number.
    let mut direct: FxHashMap<FuncId, Vec<ClaimRead>> = FxHashMap::default();
    for (f, b, k, c) in &claims {
        if let Some(n) = counters.iter().position(|key| *key == c.counter) {
            direct
                .entry(*f)
                .or_default()
                .push(((*b, *k), c.value, n as u32));
        }
    }
    // Functions that return a claimed value (`int next_index(void) { lock; r = next++;
    // unlock; return r; }`) claim for their callers too: until no more are found.
    let steps = counters
        .iter()
        .map(|key| {
            claims
                .iter()
                .filter(|(_, _, _, c)| c.counter == *key)
                .map(|(_, _, read_at, c)| if c.reads_after(*read_at) { 1 } else { c.step })
                .min()
                .unwrap_or(1)
        })
        .collect();
    // Each round only adds (more claim locals, more functions returning them), so this ends
    // within a round per function; past that bound the direct claims alone are kept, which
    // are sound whatever the functions return.
    let mut returning: FxHashMap<FuncId, u32> = FxHashMap::default();
    for _ in 0..=p.funcs.len() {
        let locals = claim_locals_of(p, &direct, &returning);
        let mut found: FxHashMap<FuncId, u32> = FxHashMap::default();
        for (&f, held) in &locals {
            if let Some(n) = returns_claimed(&p.funcs[f], held) {
                found.insert(f, n);
            }
        }
        if found == returning {
            return Claims {
                counters,
                steps,
                locals,
            };
        }
        returning = found;
    }
    Claims {
        counters,
        steps,
        locals: claim_locals_of(p, &direct, &FxHashMap::default()),
    }
}

/// The claim locals of every function, given the claims' reads `direct` and the functions
/// `returning` claimed values of a counter (whose calls' results are claimed values too).
fn claim_locals_of(
    p: &Program,
    direct: &FxHashMap<FuncId, Vec<ClaimRead>>,
    returning: &FxHashMap<FuncId, u32>,
) -> FxHashMap<FuncId, Vec<(VarId, u32)>> {
    let mut locals: FxHashMap<FuncId, Vec<(VarId, u32)>> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !func.defined || func.origin != Origin::User {
            continue;
        }
        let mut found: Vec<ClaimRead> = direct.get(&f).cloned().unwrap_or_default();
        if !returning.is_empty() {
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    if let StmtKind::Call {
                        dst: Some(dst),
                        callee: Callee::Direct(g),
                        ..
                    } = &stmt.kind
                    {
                        if let (Some(v), Some(&n)) = (dst.plain_var(), returning.get(g)) {
                            found.push(((b, k), v, n));
                        }
                    }
                }
            }
        }
        let mut numbers: Vec<u32> = found.iter().map(|&(_, _, n)| n).collect();
        numbers.sort();
        numbers.dedup();
        let mut held: Vec<(VarId, u32)> = Vec::new();
        for n in numbers {
            let reads: Vec<((BlockId, usize), VarId)> = found
                .iter()
                .filter(|&&(_, _, m)| m == n)
                .map(|&(at, v, _)| (at, v))
                .collect();
            held.extend(claim_locals(p, f, func, &reads).into_iter().map(|v| (v, n)));
        }
        if !held.is_empty() {
            locals.insert(f, held);
        }
    }
    locals
}

/// The counter whose claimed values a function returns: every `return` returns one of its
/// claim locals of that counter, and there is at least one.
fn returns_claimed(func: &Func, held: &[(VarId, u32)]) -> Option<u32> {
    let mut counter = None;
    for block in func.blocks.iter() {
        match &block.term {
            crate::ir::Term::Return(Some(op), _) => {
                let v = op.without_casts().plain_var()?;
                let &(_, n) = held.iter().find(|(x, _)| *x == v)?;
                if counter.is_some_and(|c| c != n) {
                    return None;
                }
                counter = Some(n);
            }
            crate::ir::Term::Return(None, _) => return None,
            _ => {}
        }
    }
    counter
}

/// The claims of one function: `t = c;` then `c = t + k` (or `c + k`), `k > 0`, inside an
/// atomic bracket or holding a global mutex; or, holding the mutex, `c = c + k;` then `t = c`.
fn claims_in(p: &Program, f: FuncId, func: &Func, out: &mut Vec<(FuncId, BlockId, usize, Claim)>) {
    let mut held: Option<Held> = None;
    for (b, block) in func.blocks.iter_enumerated() {
        for (k, pair) in block.stmts.windows(2).enumerate() {
            // `t = c; c = t + k` (`t = c++`, an atomic add), or `c = c + k; t = c` (`t = ++c`).
            let (read, write, read_at, write_at) =
                match (read_of(p, &pair[0].kind), read_of(p, &pair[1].kind)) {
                    (Some(r), _) => (r, &pair[1].kind, k, k + 1),
                    (None, Some(r)) => (r, &pair[0].kind, k + 1, k),
                    (None, None) => continue,
                };
            let (t, counter) = read;
            let StmtKind::Assign { dst, src } = write else {
                continue;
            };
            if named_global(p, dst).as_ref() != Some(&counter)
                || !matches!(p.types.get(p.lval_type(dst)), Type::Int)
            {
                continue;
            }
            let Some(step) = adds_positive(
                p,
                src,
                if read_at < write_at { Some(t) } else { None },
                &counter,
            ) else {
                continue;
            };
            let atomic = read_at < write_at
                && k > 0
                && is_call_of(p, &block.stmts[k - 1].kind, ATOMIC_ACCESS.0)
                && block
                    .stmts
                    .get(k + 2)
                    .is_some_and(|s| is_call_of(p, &s.kind, ATOMIC_ACCESS.1));
            let mutex = if atomic {
                None
            } else {
                let held = held.get_or_insert_with(|| Held::new(p, func));
                let Some(m) = held
                    .before(p, func, b, k)
                    .and_then(|h| h.into_iter().find(|m| single_global_mutex(p, m)))
                else {
                    continue;
                };
                Some(m)
            };
            out.push((
                f,
                b,
                read_at,
                Claim {
                    counter,
                    value: t,
                    mutex,
                    step,
                    write: write_at,
                },
            ));
        }
    }
}

/// `t = c` for a plain variable `t` and a counter `c` ([`named_global`]): the variable and the
/// counter.
fn read_of(p: &Program, kind: &StmtKind) -> Option<(VarId, SemKey)> {
    let StmtKind::Assign {
        dst: Lval {
            base: Base::Var(t),
            proj,
            ..
        },
        src: Operand::Use(read),
    } = kind
    else {
        return None;
    };
    let counter = named_global(p, read).filter(|_| proj.is_empty())?;
    Some((*t, counter))
}

/// `t + k` or `c + k` (either order) for a constant `k > 0`.
fn adds_positive(p: &Program, src: &Operand, t: Option<VarId>, counter: &SemKey) -> Option<i64> {
    let Operand::Arith(_, ArithOp::Add, ops) = src else {
        return None;
    };
    let [a, b] = ops.as_slice() else { return None };
    let base = |o: &Operand| match o.without_casts() {
        Operand::Use(lv) => {
            (t.is_some() && lv.plain_var() == t) || named_global(p, lv).as_ref() == Some(counter)
        }
        _ => false,
    };
    let positive = |o: &Operand| o.constant().filter(|&k| k > 0);
    match (base(a), base(b)) {
        (true, _) => positive(b),
        (_, true) => positive(a),
        _ => None,
    }
}

fn is_call_of(p: &Program, kind: &StmtKind, name: &str) -> bool {
    matches!(kind, StmtKind::Call { callee: Callee::Direct(g), .. } if p.funcs[*g].name == name)
}

/// Whether a held mutex is one object: a global, not thread-local, reached through members
/// only (no array on the way, whose elements [`SemKey`] would not tell apart).
fn single_global_mutex(p: &Program, m: &SemKey) -> bool {
    let var = &p.vars[m.var];
    if !matches!(
        var.kind,
        VarKind::Global {
            thread_local: false,
            ..
        }
    ) {
        return false;
    }
    let mut ty = var.ty;
    for &(s, i) in &m.fields {
        if matches!(p.types.get(ty), Type::Array(_)) {
            return false;
        }
        let Some(field) = p.types.structs[crate::ir::ctypes::StructId(s)]
            .fields
            .get(i as usize)
        else {
            return false;
        };
        ty = field.ty;
    }
    !matches!(p.types.get(ty), Type::Array(_))
}

/// Whether every write of the counter `key` in the program is a claim's (at `claim_writes`),
/// its initializer, or a constant stored in `main`'s entry block before any call. A write of
/// the whole variable or of a member path enclosing the counter writes it too.
fn only_claims_write(
    p: &Program,
    main: Option<FuncId>,
    key: &SemKey,
    claim_writes: &FxHashSet<(FuncId, BlockId, usize)>,
) -> bool {
    let encloses = |lv: &Lval| -> bool {
        let Base::Var(v) = lv.base else { return false };
        if v != key.var {
            return false;
        }
        let mut fields = Vec::new();
        for pr in &lv.proj {
            match pr {
                crate::ir::Proj::Field { strukt, index } => fields.push((strukt.0, *index)),
                // An index into the variable: the counter's path has none, so this names
                // another member's element, or the counter through an array (not a counter).
                _ => return false,
            }
        }
        key.fields.starts_with(&fields) || fields.starts_with(&key.fields)
    };
    for (f, func) in p.funcs.iter_enumerated() {
        let init = func.origin == Origin::GlobalInit;
        for (b, block) in func.blocks.iter_enumerated() {
            let mut called = false;
            for (k, stmt) in block.stmts.iter().enumerate() {
                let dst = match &stmt.kind {
                    StmtKind::Assign { dst, src } => Some((dst, src.constant().is_some())),
                    StmtKind::Call { dst, .. } => {
                        called = true;
                        dst.as_ref().map(|d| (d, false))
                    }
                    StmtKind::Asm { operands } => {
                        if operands.iter().any(encloses) {
                            return false;
                        }
                        None
                    }
                    StmtKind::Eval(_) => None,
                };
                let Some((dst, constant)) = dst else { continue };
                if !encloses(dst) || init || claim_writes.contains(&(f, b, k)) {
                    continue;
                }
                let startup = Some(f) == main && b == BlockId(0) && !called && constant;
                if !startup {
                    return false;
                }
            }
        }
    }
    true
}

/// The locals of `f` that hold only claimed values of one counter, given the claims' reads
/// `reads` (statement and the variable each fills): a stable local every assignment of which is
/// such a read, or copies the variable of a read whose every assignment is one (the lowering's
/// temporary of `i = c++`).
fn claim_locals(
    p: &Program,
    f: FuncId,
    func: &Func,
    reads: &[((BlockId, usize), VarId)],
) -> Vec<VarId> {
    let stable = |v: VarId| {
        let var = &p.vars[v];
        !var.address_taken && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f)
    };
    // For each variable assigned in `f`: whether every assignment is a claim's read, and
    // whether every assignment copies some variable (which one is checked below).
    let mut only_reads: FxHashMap<VarId, bool> = FxHashMap::default();
    let mut copied_from: FxHashMap<VarId, Option<Vec<VarId>>> = FxHashMap::default();
    for (b, block) in func.blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            let (dst, source) = match &stmt.kind {
                StmtKind::Assign { dst, src } => (dst, src.without_casts().plain_var()),
                StmtKind::Call { dst: Some(dst), .. } => (dst, None),
                StmtKind::Asm { operands } => {
                    for v in operands.iter().filter_map(Lval::plain_var) {
                        only_reads.insert(v, false);
                        copied_from.insert(v, None);
                    }
                    continue;
                }
                _ => continue,
            };
            let Some(v) = dst.plain_var() else { continue };
            let is_read = reads.iter().any(|&(at, r)| at == (b, k) && r == v);
            *only_reads.entry(v).or_insert(true) &= is_read;
            let sources = copied_from.entry(v).or_insert_with(|| Some(Vec::new()));
            match (sources.as_mut(), source) {
                (Some(list), Some(s)) => list.push(s),
                _ => *sources = None,
            }
        }
    }
    let pure = |v: VarId| stable(v) && only_reads.get(&v) == Some(&true);
    let mut out: Vec<VarId> = only_reads.keys().copied().filter(|&v| pure(v)).collect();
    for (&v, sources) in &copied_from {
        let copies = sources
            .as_ref()
            .is_some_and(|list| !list.is_empty() && list.iter().all(|&s| pure(s)));
        if copies && stable(v) && !out.contains(&v) {
            out.push(v);
        }
    }
    out.sort();
    out
}
