//! Presumed counter joins (an extension beyond the paper, which has no joins): waits for a
//! counter of running threads to reach zero that have the shape of a
//! [`counters`](super::counters) join but break one step of its argument, so that the wait
//! does not certainly join the threads it counts. They never end a thread in the
//! analysis; the thread analysis checks the program a second time as if each did
//! (`solver::threads::ThreadProgram::presumed_joins`), and the races that go away then are
//! reported as consequences of the wait's own race (or, when the counter does not race, with a
//! note naming the wait that is not followed). Nothing is hidden: every race of the first
//! check is reported.
//!
//! ```c
//! while (1) { rc = pthread_create(&t, 0, worker, …); if (rc == 0) break; }   // each create
//! lock(&m); running++; unlock(&m);                                        // counted
//! …
//! lock(&m);
//! while (running > 0) { unlock(&m); sleep(1); }   // re-tested without `m`: not trusted
//! unlock(&m);
//!
//! void *reaper(void *a) {                          // or a thread that joins, then counts down
//!     for (;;) if (pthread_join(ids[i], 0) == 0) { lock(&m); running--; unlock(&m); }
//! }
//! ```
//!
//! The shape, checked on the IR (`main` is a function that runs once, as for counter joins):
//!
//! - A test in `main` of a global counter `c` against zero ([`test_of`]), whose drained side is
//!   entered only from it. Held locks do not matter.
//! - Every write of `c` is an increment in `main`, a non-negative constant stored in `main` or
//!   an initializer, or a count-down `c--` outside `main`, all count-downs in one function `g`.
//! - Either `g` is the workers' routine: one count-down, on no cycle of `g`, after which `g`
//!   only unlocks, signals and returns; `g` appears only as the start routine of creates in
//!   `main`, and those are counted (form A or B of [`counters`](super::counters), without the
//!   locks). Or `g` is a *reaper*: every path to a count-down passes a `pthread_join` since
//!   `g`'s entry or the previous count-down; the counted threads are then those of `main`'s
//!   creates (other than `g`'s) from which every path passes an increment before the test or
//!   another counted create, except through a failure of the create.
//!
//! What is presumed is that each count-down stands for one counted thread that has finished
//! everything it does, and that the test that sees zero sees every count-down. An unlocked
//! test, an unlocked count-down, or a reaper that may join another thread than the one it
//! counts down for breaks that.

use std::collections::BTreeSet;

use super::counters::{nothing_after, routine_uses, test_of, Counter, Test, Write};
use super::monotone::counted_on_success;
use super::*;
use crate::analyses::held::Held;
use crate::analyses::semaphores::SemKey;

/// A wait that would join the threads of `handles` were its counter kept as a counter join
/// keeps it ([`JoinPlan::presumed`]).
#[derive(Clone, Debug)]
pub struct PresumedJoin {
    /// The counter as the program names it (`o.running`).
    pub counter: String,
    /// Where the test reads it.
    pub test_pos: crate::ir::Pos,
    /// The function that waits, and the block whose branch tests the counter.
    pub test: (FuncId, BlockId),
    /// The block entered when the test sees the counter at zero: where the threads would be
    /// joined.
    pub drained: BlockId,
    /// The counted creates' handles (each a create no other idiom follows).
    pub handles: Vec<ThreadHandle>,
    /// The counted creates.
    pub creates: Vec<StmtAt>,
    /// The function that counts down: the workers' routine, or a reaper.
    pub counted_down_by: FuncId,
    /// Whether `counted_down_by` is a reaper (it joins, then counts down) rather than the
    /// workers' routine.
    pub reaper: bool,
    /// Whether the test may read the counter without a mutex every count-down holds.
    pub unlocked_test: bool,
}

/// The writes of a tested counter, sorted by how they write it.
struct CounterWrites<'p> {
    increments: Vec<StmtAt>,
    starts: Vec<(StmtAt, &'p Operand)>,
    count_downs: Vec<StmtAt>,
}

impl Planner<'_> {
    /// Adds the presumed joins of the tests of each function of `once` that no counter join
    /// trusts, at most [`solver::threads::MAX_PRESUMED_JOINS`]. Runs after every other idiom: it gives handles only to creates none follows,
    /// so that no real join of a handle is ever set aside with the presumed ones.
    pub(super) fn presumed_joins(&mut self, once: &[FuncId]) {
        let p = self.p;
        let trusted: FxHashSet<(FuncId, BlockId)> =
            self.plan.join_at_entry.keys().copied().collect();
        for &main in once {
            let func = &p.funcs[main];
            if !func.defined {
                continue;
            }
            let cfg = Cfg::new(func);
            for (b, block) in func.blocks.iter_enumerated() {
                let Some(test) = test_of(p, b, &block.term, true) else {
                    continue;
                };
                if cfg.preds[test.drained.0 as usize] != [b.0 as usize]
                    || trusted.contains(&(main, test.drained))
                {
                    continue;
                }
                if self.plan.presumed.len() == solver::threads::MAX_PRESUMED_JOINS {
                    return;
                }
                if let Some(join) = self.presumed_join(main, &test) {
                    self.plan.presumed.push(join);
                }
            }
        }
    }

    /// The presumed join of one test of `main`, when the shape holds.
    fn presumed_join(&mut self, main: FuncId, test: &Test) -> Option<PresumedJoin> {
        let p = self.p;
        let writes = counter_writes(p, main, &test.counter)?;
        let g = writes.count_downs.first()?.0;
        if g == main || writes.count_downs.iter().any(|d| d.0 != g) {
            return None;
        }
        let func = &p.funcs[main];
        let uses = routine_uses(p, &self.calls, g);
        let worker_count_down = match writes.count_downs[..] {
            [(_, b, k)] => {
                let g_cfg = Cfg::new(&p.funcs[g]);
                !uses.other
                    && !uses.creates.is_empty()
                    && uses.creates.iter().all(|c| c.0 == main)
                    && !on_any_cycle(&g_cfg, b.0 as usize)
                    && nothing_after(p, g, &g_cfg, b, k)
            }
            _ => false,
        };
        let creates: Vec<StmtAt> = if worker_count_down {
            let counted = self.counted_creates(main, test, &writes, &uses.creates);
            if counted.len() != uses.creates.len() {
                return None;
            }
            counted
        } else if (writes.count_downs.iter())
            .all(|&d| joins_before(p, &self.calls, d, &writes.count_downs))
        {
            let candidates: Vec<StmtAt> = library_creates(p, &self.calls, main)
                .into_iter()
                .filter(|c| !uses.creates.contains(c))
                .collect();
            self.counted_creates(main, test, &writes, &candidates)
        } else {
            return None;
        };
        if creates.is_empty() || creates.iter().any(|c| self.plan.create.contains_key(c)) {
            return None;
        }
        let handles: Vec<ThreadHandle> = creates
            .iter()
            .map(|&c| {
                let h = ThreadHandle(self.plan.handles);
                self.plan.handles += 1;
                self.plan.create.insert(c, h);
                h
            })
            .collect();
        let count_down_locks = writes
            .count_downs
            .iter()
            .map(|&(f, b, k)| Held::new(p, &p.funcs[f]).before(p, &p.funcs[f], b, k))
            .try_fold(None::<BTreeSet<SemKey>>, |acc, held| {
                let held = held?;
                Some(Some(match acc {
                    None => held,
                    Some(a) => a.intersection(&held).cloned().collect(),
                }))
            })
            .flatten()
            .unwrap_or_default();
        let at_test =
            Held::new(p, func).before(p, func, test.block, func.blocks[test.block].stmts.len());
        let unlocked_test = at_test.is_none_or(|h| h.is_disjoint(&count_down_locks));
        let test_pos = match &func.blocks[test.block].term {
            Term::Branch { pos, .. } => *pos,
            _ => func.pos,
        };
        Some(PresumedJoin {
            counter: counter_name(p, &test.counter),
            test_pos,
            test: (main, test.block),
            drained: test.drained,
            handles,
            creates,
            counted_down_by: g,
            reaper: !worker_count_down,
            unlocked_test,
        })
    }

    /// The creates of `candidates` whose threads the counter counts: by form A of a counter
    /// join (one start `c = N` before a create loop of `N` trips), or because from each, every
    /// path passes an increment before it reaches the test or another candidate, except through
    /// a failure of the create; and no constant is stored after a create.
    fn counted_creates(
        &self,
        main: FuncId,
        test: &Test,
        writes: &CounterWrites<'_>,
        candidates: &[StmtAt],
    ) -> Vec<StmtAt> {
        let p = self.p;
        let func = &p.funcs[main];
        let cfg = Cfg::new(func);
        if writes.increments.is_empty() {
            let in_main: Vec<(StmtAt, Write<'_>)> = writes
                .starts
                .iter()
                .filter(|(at, _)| at.0 == main)
                .map(|&(at, v)| (at, Write::Set(v)))
                .collect();
            let loops = counted_loops(func, &cfg);
            return match self.counted_by_assignment(main, &cfg, &loops, candidates, &in_main) {
                counters::Counted::No => Vec::new(),
                _ => candidates.to_vec(),
            };
        }
        let increments: FxHashSet<(BlockId, usize)> =
            writes.increments.iter().map(|&(_, b, k)| (b, k)).collect();
        let points: Vec<(BlockId, usize)> = candidates.iter().map(|&(_, b, k)| (b, k)).collect();
        let restarted = writes.starts.iter().any(|&((f, b, k), _)| {
            f == main && points.iter().any(|&c| statement_reaches(func, c, (b, k)))
        });
        if restarted {
            return Vec::new();
        }
        candidates
            .iter()
            .filter(|&&(_, b, k)| {
                counted_on_success(p, main, func, (b, k), &increments, test.block, &points)
            })
            .copied()
            .collect()
    }
}

/// The writes of `c` when each is an increment in `main`, a non-negative constant stored
/// in `main` or an initializer, or a count-down `c--` outside `main`.
fn counter_writes<'p>(p: &'p Program, main: FuncId, c: &Counter) -> Option<CounterWrites<'p>> {
    let mut out = CounterWrites {
        increments: Vec::new(),
        starts: Vec::new(),
        count_downs: Vec::new(),
    };
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let Some(w) = c.written_by(p, stmt) else {
                    continue;
                };
                let at = (f, b, k);
                match w {
                    Write::Step(1) if f == main => out.increments.push(at),
                    Write::Step(-1) if f != main && f != p.global_init => out.count_downs.push(at),
                    Write::Set(v)
                        if (f == main || f == p.global_init)
                            && matches!(v.without_casts(), Operand::Const(_, Some(x)) if *x >= 0) =>
                    {
                        out.starts.push((at, v))
                    }
                    _ => return None,
                }
            }
        }
    }
    Some(out)
}

/// The counter as the program writes it: the variable, then `.member` for each step.
fn counter_name(p: &Program, c: &Counter) -> String {
    let mut name = p.vars[c.var].name.clone();
    for &(s, i) in &c.fields {
        let def = &p.types.structs[crate::ir::ctypes::StructId(s)];
        if let Some(field) = def.fields.get(i as usize) {
            name.push('.');
            name.push_str(&field.name);
        }
    }
    name
}

/// Whether some path from just after statement `from` of `func` reaches statement `to`.
fn statement_reaches(func: &Func, (b, k): (BlockId, usize), to: (BlockId, usize)) -> bool {
    if to.0 == b && to.1 > k {
        return true;
    }
    let mut seen = FxHashSet::default();
    let mut stack = func.blocks[b].term.successors();
    while let Some(bb) = stack.pop() {
        if bb == to.0 {
            return true;
        }
        if seen.insert(bb) {
            stack.extend(func.blocks[bb].term.successors());
        }
    }
    false
}

/// The calls of the library's `pthread_create` in `f`.
fn library_creates(p: &Program, calls: &ThreadCalls, f: FuncId) -> Vec<StmtAt> {
    let mut out = Vec::new();
    for (b, block) in p.funcs[f].blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &stmt.kind
            {
                if calls.is_library_create(*g) {
                    out.push((f, b, k));
                }
            }
        }
    }
    out
}

/// Whether every path from its function's entry to the count-down `(f, b, k)` passes a join
/// call (`pthread_join` or a join wrapper) since the entry or the previous of `count_downs`: a
/// backward search that stops at joins and fails at the entry or at a count-down.
fn joins_before(
    p: &Program,
    calls: &ThreadCalls,
    (f, b, k): StmtAt,
    count_downs: &[StmtAt],
) -> bool {
    let func = &p.funcs[f];
    let is_join = |stmt: &crate::ir::Stmt| {
        matches!(&stmt.kind, StmtKind::Call { callee: Callee::Direct(g), .. }
            if calls.id_arg(*g, false).is_some())
    };
    Cfg::new(func).passes_before(func, (b, k), |bb, kk| {
        if count_downs.contains(&(f, bb, kk)) {
            Some(false)
        } else {
            is_join(&func.blocks[bb].stmts[kk]).then_some(true)
        }
    })
}
