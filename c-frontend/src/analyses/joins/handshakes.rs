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
//! - Or a state machine (`enum { IDLE, LOADING, READY }`): every store of `v` is a constant,
//!   and one statement stores `K`, which is not 0 (the value before any store). The signal is
//!   that store, and a wait is a branch on `v == K` or `v != K`, holding `m`, whose side where
//!   `v` is `K` is entered only from it. A waiter there read `K`, which only the signal stores:
//!   the other stores (other states) do not matter.
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

use super::counters::{test_of, written_vars, Counter, MemberWrites, Write};
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
        if self.index.main_is_called(main) {
            return;
        }
        // The tests of globals in user functions, by the flag they test.
        let mut tests: FxHashMap<VarId, Vec<(FuncId, FlagTest)>> = FxHashMap::default();
        for (f, func) in p.funcs.iter_enumerated() {
            if !func.defined || func.origin != Origin::User {
                continue;
            }
            for (b, block) in func.blocks.iter_enumerated() {
                if let Some(test) = FlagTest::of(p, b, &block.term) {
                    tests.entry(test.flag.var).or_default().push((f, test));
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
            let writes = MemberWrites::new(p, writers.get(&v).map_or(&[][..], Vec::as_slice));
            // The signal of each flag of the variable (a member path) and value waited for,
            // found once for each.
            let mut signals: FxHashMap<(&Counter, Option<i64>), Option<Signal>> =
                FxHashMap::default();
            for (f, test) in &tests[&v] {
                let signal = signals.entry((&test.flag, test.value)).or_insert_with(|| {
                    let writes = writes.of(&test.flag);
                    self.signal(main, &test.flag, test.value, &writes)
                });
                let Some(signal) = signal else {
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

    /// The signal of `flag` for a waiter of `value` (any nonzero value when `None`), when its
    /// writes (`writes`, every statement that may write its variable) make it one, in a
    /// routine that runs as one thread once, holding a mutex. For any nonzero value: one store
    /// of a positive constant, every other store of the flag the constant 0. For the value
    /// `K`: one store of `K`, every other store of the flag another constant (a state
    /// machine's other states); `K` is not 0, the value the flag has before any store.
    fn signal(
        &self,
        main: FuncId,
        flag: &Counter,
        value: Option<i64>,
        writes: &[StmtAt],
    ) -> Option<Signal> {
        let p = self.p;
        let mut signal = None;
        for &(f, b, k) in writes {
            let stmt = &p.funcs[f].blocks[b].stmts[k];
            let Some(write) = flag.written_by(p, stmt) else {
                continue;
            };
            let Write::Set(stored) = write else {
                return None;
            };
            let Operand::Const(_, Some(x)) = stored.without_casts() else {
                return None;
            };
            let signals = match value {
                None if *x == 0 => false,
                None if *x > 0 => true,
                None => return None,
                Some(k) => *x == k,
            };
            if signals {
                if signal.is_some() {
                    return None;
                }
                signal = Some((f, b, k));
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
    /// held: the side of the test where the flag holds what the waiter waits for, entered only
    /// from the test.
    fn wait(
        &self,
        f: FuncId,
        test: &FlagTest,
        signal: &Signal,
        cfg: &Cfg,
        held: &Held,
    ) -> Option<(FuncId, BlockId)> {
        let p = self.p;
        let func = &p.funcs[f];
        let block = &func.blocks[test.block];
        let set = test.set;
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

/// A test a waiter passes once a flag is set: the flag, the value waited for (`None`: any
/// nonzero value, the tests of [`test_of`]; `Some(K)`: `v == K` or `v != K` with `K` a nonzero
/// constant), and the side of the branch entered when the flag holds it.
struct FlagTest {
    block: BlockId,
    flag: Counter,
    value: Option<i64>,
    set: BlockId,
}

impl FlagTest {
    fn of(p: &Program, b: BlockId, term: &Term) -> Option<FlagTest> {
        let crate::ir::TwoWays {
            cond,
            then_block,
            else_block,
            compare,
        } = term.two_ways()?;
        if let Some(test) = test_of(p, b, term, false) {
            let set = if then_block == test.drained {
                else_block
            } else {
                then_block
            };
            return Some(FlagTest {
                block: b,
                flag: test.counter,
                value: None,
                set,
            });
        }
        use crate::ir::Comparison as C;
        let (Some(op @ (C::Eq | C::Ne)), Operand::Arith(_, _, ops)) = (compare, cond) else {
            return None;
        };
        let [l, r] = ops.as_slice() else { return None };
        let (flag, value) = match (Counter::read_by(p, l), Counter::read_by(p, r)) {
            (Some(flag), None) => (flag, r.constant()?),
            (None, Some(flag)) => (flag, l.constant()?),
            _ => return None,
        };
        (value != 0).then(|| FlagTest {
            block: b,
            flag,
            value: Some(value),
            set: if op == C::Eq { then_block } else { else_block },
        })
    }
}
