//! Hand-shakes through a flag under a mutex: one thread sets a flag, holding a mutex, once it
//! has done its part; a waiter, holding the same mutex, waits until it sees the flag set. What
//! the signalling thread did before setting the flag happens before what the waiter does after
//! it saw the flag (an extension beyond the paper, which has no such orderings):
//!
//! ```c
//! void *producer(void *arg) {               // (S) one thread, started once by main
//!     table = build();                      //     before the signal
//!     pthread_mutex_lock(&m);
//!     ready = 1;                            //     the signal: the one nonzero store of `ready`
//!     pthread_cond_broadcast(&c);
//!     pthread_mutex_unlock(&m);
//!     …                                     //     after the signal: ordered with nothing
//! }
//! void *consumer(void *arg) {               // (W) any function, in any thread
//!     pthread_mutex_lock(&m);
//!     while (!ready)                        //     the test, holding `m`
//!         pthread_cond_wait(&c, &m);
//!     pthread_mutex_unlock(&m);
//!     use(table);                           //     after the wait: ordered after `build`
//! }
//! ```
//!
//! The idiom is matched only when each step of the argument holds, checked on the IR:
//!
//! - The flag `v` is a global integer variable (or a member path of one), not thread-local,
//!   whose address is never taken, so that every write names it.
//! - Exactly one statement of the program stores a nonzero value in it: the *signal* `v = K`,
//!   with `K` a positive constant, in a function `S` holding a mutex `m` on every path to it.
//!   Every other store (initializers included) is the constant 0, and nothing else writes it.
//!   So `v` only ever holds 0 or `K`, and holds `K` only after the signal ran.
//! - `S` runs as one thread, once: its address appears only as the start routine of one
//!   `pthread_create` call, outside any loop (one thread per run), in a function that runs
//!   once (`main`, which nothing calls, or one `main` calls once outside its loops,
//!   [`crate::analyses::once`]), and nothing calls it directly. Or `S` runs once itself: `main`
//!   sets the flag for the threads it started (`go = 1` once the configuration is written).
//! - A *wait*: a branch on `v > 0`, `v != 0`, `v == 0`, `v <= 0` or `v` itself (`v` read
//!   directly), holding `m` on every path to it, whose side where `v` is `K` is a block entered
//!   only from it.
//!
//! Why that is sound: a waiter entering that block read `K` holding `m`, so the signal ran, and
//! released `m` before the waiter's last acquisition of it (the signal holds `m`; a condition
//! wait releases and takes it again). Everything `S`'s thread did before its first signal
//! happens before that release, and so before what the waiter does after the test. The thread
//! analysis orders the accesses of `S` where no path from the signal reaches with those of the
//! waiter's function where every path passed the wait, and with them the accesses of functions
//! only such points call (`solver::threads::phases`).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::counters::{test_of, written_vars, Counter, Test, Write};
use super::*;
use crate::analyses::held::Held;
use crate::analyses::semaphores::SemKey;

/// One hand-shake: its signal, the blocks on entry to which a waiter saw the flag set, and the
/// statements after which a waiter has seen the signal (the `sem_wait`s of a semaphore
/// hand-shake, [`super::posts`]).
#[derive(Clone, Debug)]
pub struct Handshake {
    pub signal: StmtAt,
    pub waits: Vec<(FuncId, BlockId)>,
    pub wait_calls: Vec<StmtAt>,
}

/// The flag's one nonzero store, with the mutexes held there.
struct Signal {
    at: StmtAt,
    held: BTreeSet<SemKey>,
}

impl Planner<'_> {
    /// Finds the hand-shakes of the program that starts at `main` ([`JoinPlan::handshakes`]),
    /// at most `limit` of them, in program order of their signals.
    pub(super) fn handshakes(&mut self, main: FuncId, limit: usize) {
        let p = self.p;
        if crate::analyses::startup_stores::main_is_called(p, main) {
            return;
        }
        // The tests of globals in user functions, by the flag they test.
        let mut tests: FxHashMap<VarId, Vec<(FuncId, Test)>> = FxHashMap::default();
        for (f, func) in p.funcs.iter_enumerated() {
            if !func.defined || func.origin != Origin::User {
                continue;
            }
            for (b, block) in func.blocks.iter_enumerated() {
                if let Some(test) = test_of(p, b, &block.term, false) {
                    tests.entry(test.counter.var).or_default().push((f, test));
                }
            }
        }
        if tests.is_empty() {
            return;
        }
        // Every statement that may write a tested variable.
        let mut writers: FxHashMap<VarId, Vec<StmtAt>> = FxHashMap::default();
        for (f, g) in p.funcs.iter_enumerated() {
            for (b, block) in g.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    for v in written_vars(&stmt.kind) {
                        if tests.contains_key(&v) {
                            writers.entry(v).or_default().push((f, b, k));
                        }
                    }
                }
            }
        }
        let mut vars: Vec<VarId> = tests.keys().copied().collect();
        vars.sort_unstable();
        let mut found: Vec<Handshake> = Vec::new();
        // What a function's tests need, made once per function (a flag tested in many places).
        let mut facts: FxHashMap<FuncId, (Cfg, Held)> = FxHashMap::default();
        for v in vars {
            let writes = writers.get(&v).map_or(&[][..], Vec::as_slice);
            // The signal of each flag of the variable (a member path), found once per flag.
            let mut signals: Vec<(&Counter, Option<Signal>)> = Vec::new();
            for (f, test) in &tests[&v] {
                let k = match signals.iter().position(|(c, _)| **c == test.counter) {
                    Some(k) => k,
                    None => {
                        let signal = self.signal(main, &test.counter, writes);
                        signals.push((&test.counter, signal));
                        signals.len() - 1
                    }
                };
                let Some(signal) = &signals[k].1 else {
                    continue;
                };
                let func = &p.funcs[*f];
                let (cfg, held) = facts
                    .entry(*f)
                    .or_insert_with(|| (Cfg::new(func), Held::new(p, func)));
                let Some(at) = self.wait(*f, test, signal, cfg, held) else {
                    continue;
                };
                match found.iter_mut().find(|h| h.signal == signal.at) {
                    Some(h) => h.waits.push(at),
                    None => found.push(Handshake {
                        signal: signal.at,
                        waits: vec![at],
                        wait_calls: Vec::new(),
                    }),
                }
            }
        }
        found.sort_by_key(|h| h.signal);
        found.truncate(limit);
        self.plan.handshakes = found;
    }

    /// The signal of `flag`, when its writes (`writes`, every statement that may write its
    /// variable) make it one: one store of a positive constant, in a routine that runs as one
    /// thread once, holding a mutex; every other store of the flag the constant 0.
    fn signal(&self, main: FuncId, flag: &Counter, writes: &[StmtAt]) -> Option<Signal> {
        let p = self.p;
        let mut signal = None;
        for &(f, b, k) in writes {
            let stmt = &p.funcs[f].blocks[b].stmts[k];
            let Some(write) = flag.written_by(p, stmt) else {
                continue;
            };
            let Write::Set(value) = write else {
                return None;
            };
            match value.without_casts() {
                Operand::Const(_, Some(0)) => {}
                Operand::Const(_, Some(x)) if *x > 0 && signal.is_none() => {
                    signal = Some((f, b, k));
                }
                _ => return None,
            }
        }
        let (s, b, k) = signal?;
        if !self.runs_once(main, s) {
            return None;
        }
        let func = &p.funcs[s];
        let held = Held::new(p, func).before(p, func, b, k)?;
        (!held.is_empty()).then_some(Signal {
            at: (s, b, k),
            held,
        })
    }

    /// The block of `f` on entry to which `test` saw the flag set, holding a mutex the signal
    /// held: the side of the test other than the one where the flag is zero, entered only from
    /// the test.
    fn wait(
        &self,
        f: FuncId,
        test: &Test,
        signal: &Signal,
        cfg: &Cfg,
        held: &Held,
    ) -> Option<(FuncId, BlockId)> {
        let p = self.p;
        let func = &p.funcs[f];
        let block = &func.blocks[test.block];
        let Term::Branch {
            then_block,
            else_block,
            ..
        } = &block.term
        else {
            return None;
        };
        if then_block == else_block {
            return None;
        }
        let set = if *then_block == test.drained {
            *else_block
        } else {
            *then_block
        };
        if cfg.preds[set.0 as usize] != [test.block.0 as usize] {
            return None;
        }
        let held = held.before(p, func, test.block, block.stmts.len())?;
        held.intersection(&signal.held)
            .next()
            .is_some()
            .then_some((f, set))
    }
}
