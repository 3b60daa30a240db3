//! Hand-shakes through a semaphore: one thread does its part and posts a semaphore that starts
//! at 0 and that nothing else posts; a waiter's `sem_wait` on it returns only after that post.
//! What the posting thread did before the post happens before what the waiter does after its
//! wait (an extension beyond the paper, like the flag hand-shakes of [`super::handshakes`],
//! whose ordering of accesses it shares: `solver::threads::phases`):
//!
//! ```c
//! sem_init(&ready, 0, 0);                 // every initialisation of `ready` to 0
//! void *producer(void *arg) {             // (S) one thread, started once by main (or main)
//!     table = build();                    //     before the post
//!     sem_post(&ready);                   //     the one post of `ready` in the program
//! }
//! …
//! sem_wait(&ready);                       // (W) any function, in any thread
//! use(table);                             //     after the wait: ordered after `build`
//! ```
//!
//! The idiom is matched only when each step of the argument holds, checked on the IR:
//!
//! - The semaphore is a global (or a member path of one), not thread-local, named `&s` (or
//!   `&s.f…`) by every `sem_init`, `sem_wait` and `sem_post` of it. Its address appears nowhere
//!   else but as the argument of locksmith's own library stubs (`sem_destroy`), so no code that
//!   locksmith cannot see can post it, and no pointer to it exists that a post could go through
//!   unnamed.
//! - Every `sem_init` of it has the constant 0 as its value, and there is one; no `sem_init`
//!   through a pointer has another value, and no `sem_post` goes through a pointer.
//! - Exactly one statement of the program posts it, in a function `S` that runs as one thread,
//!   once (its address appears only as the start routine of one `pthread_create`, run once,
//!   of a function that runs once — `main`, or one `main` calls once outside its loops,
//!   [`crate::analyses::once`] — and nothing calls it directly), or that runs once itself.
//! - The program installs no signal handler: a `sem_wait` interrupted by one returns -1 with
//!   `EINTR` without a post. Without handlers, a `sem_wait` that returns has taken one unit.
//!
//! Why that is sound: the semaphore's count starts at 0 and only `S`'s post raises it, so a
//! `sem_wait` returns only after that post, and everything `S` did before it happens before
//! the return. The waits are the points right after each `sem_wait` of the semaphore.
//!
//! A *completion semaphore* is the counting form: `S` runs as the `k` threads of one create of
//! `main` in a clean counted loop of `k` trips (`JoinPlan::create_trips`), each posting at most
//! once (the post on no cycle of `S`); a waiter waits `k` times, in a clean counted loop of `k`
//! trips that waits on every iteration and is left only at its head, entered only from it.
//! `k` returned waits took `k` units, so `k` posts ran, each by a different thread: every
//! thread of `S` (there are at most `k`) posted, and what each did before its post happens
//! before the loop's exit, the wait.

use rustc_hash::{FxHashMap, FxHashSet};

use super::counters::routine_uses;
use super::handshakes::Handshake;
use super::*;
use crate::analyses::semaphores::{sem_key, SemKey};
use crate::ir::visit::{walk_operand, Visitor};

/// What the program does with each named semaphore.
#[derive(Default)]
struct Uses {
    /// Whether every `sem_init` of it sets 0 (absent: never initialised).
    zero: FxHashMap<SemKey, bool>,
    posts: FxHashMap<SemKey, Vec<StmtAt>>,
    waits: FxHashMap<SemKey, Vec<StmtAt>>,
    /// The variables whose address appears other than as a semaphore call's semaphore.
    addressed: FxHashSet<VarId>,
    /// A post through a pointer, a nonzero `sem_init` through one, or a signal handler.
    spoiled: bool,
}

/// Records the variables whose address an operand takes.
struct Addressed<'u>(&'u mut FxHashSet<VarId>);

impl Visitor for Addressed<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::AddrOf(Lval {
            base: Base::Var(v), ..
        }) = op
        {
            self.0.insert(*v);
        }
        walk_operand(self, op);
    }
}

impl Planner<'_> {
    /// Adds the semaphore hand-shakes of the program that starts at `main` to
    /// [`JoinPlan::handshakes`], up to `limit` hand-shakes in all.
    pub(super) fn semaphore_handshakes(&mut self, main: FuncId, limit: usize) {
        let p = self.p;
        // A program that waits on no semaphore has no hand-shake of this kind: skip the walk
        // over every operand.
        let waits = p
            .funcs
            .iter()
            .flat_map(|f| &f.blocks)
            .flat_map(|b| &b.stmts)
            .any(|s| {
                matches!(&s.kind, StmtKind::Call { callee: Callee::Direct(g), .. }
                if matches!(p.known_kind(*g), Some(Kind::SemWait { .. })))
            });
        if !waits || self.plan.handshakes.len() >= limit || self.index.main_is_called(main) {
            return;
        }
        let uses = self.semaphore_uses();
        if uses.spoiled || uses.waits.is_empty() {
            return;
        }
        let mut keys: Vec<&SemKey> = uses.waits.keys().collect();
        keys.sort();
        for key in keys {
            let global = matches!(
                p.vars[key.var].kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            );
            let [post] = uses.posts.get(key).map_or(&[][..], Vec::as_slice) else {
                continue;
            };
            if !global || uses.addressed.contains(&key.var) || uses.zero.get(key) != Some(&true) {
                continue;
            }
            let (waits, wait_calls) = if self.runs_once(main, post.0) {
                (Vec::new(), uses.waits[key].clone())
            } else if let Some(k) = self.posters(*post) {
                let loops: Vec<(FuncId, BlockId)> = uses.waits[key]
                    .iter()
                    .filter_map(|&at| self.wait_loop(at, k))
                    .collect();
                (loops, Vec::new())
            } else {
                continue;
            };
            if waits.is_empty() && wait_calls.is_empty() {
                continue;
            }
            if self.plan.handshakes.len() >= limit {
                break;
            }
            self.plan.handshakes.push(Handshake {
                signal: *post,
                waits,
                wait_calls,
            });
        }
        self.plan.handshakes.sort_by_key(|h| h.signal);
    }

    /// Whether `s` runs once in the main thread ([`crate::analyses::once`]), or runs as one
    /// thread, once, started by a function that does.
    pub(super) fn runs_once(&self, main: FuncId, s: FuncId) -> bool {
        if s == main || self.plan.run_once.binary_search(&s).is_ok() {
            return true;
        }
        let func = &self.p.funcs[s];
        if !func.defined || func.origin != Origin::User {
            return false;
        }
        let uses = routine_uses(self.p, &self.calls, s);
        let [create] = uses.creates[..] else {
            return false;
        };
        !uses.other
            && self.plan.run_once.binary_search(&create.0).is_ok()
            && self.plan.create_trips.get(&create) == Some(&1)
    }

    /// How many threads run the function of `post` when it is a completion semaphore's poster:
    /// the `k > 1` threads of one create of a function that runs once, each passing the post at
    /// most once.
    fn posters(&self, post: StmtAt) -> Option<u64> {
        let (s, b, _) = post;
        let func = &self.p.funcs[s];
        if !func.defined || func.origin != Origin::User {
            return None;
        }
        let uses = routine_uses(self.p, &self.calls, s);
        let [create] = uses.creates[..] else {
            return None;
        };
        let k = *self.plan.create_trips.get(&create)?;
        let once = !on_any_cycle(&Cfg::new(func), b.0 as usize);
        let creator_once = self.plan.run_once.binary_search(&create.0).is_ok();
        (!uses.other && creator_once && k > 1 && once).then_some(k)
    }

    /// The exit of the loop that waits `k` times with the `sem_wait` at `at`: a clean counted
    /// loop of `k` trips over it, on no other cycle, through it on every iteration, left only
    /// at its head, whose exit block is entered only from the head.
    fn wait_loop(&self, (f, b, _): StmtAt, k: u64) -> Option<(FuncId, BlockId)> {
        let func = &self.p.funcs[f];
        let cfg = Cfg::new(func);
        let at = b.0 as usize;
        counted_loops(func, &cfg)
            .into_iter()
            .find_map(|(l, blocks)| {
                let LoopBound::Const(bound) = l.bound else {
                    return None;
                };
                let fits = blocks.contains(&at)
                    && trip_count(l.start, l.op, bound) == Some(k)
                    && !cfg.on_other_cycle(at, &l)
                    && cfg.on_every_iteration(&l, at)
                    && cfg.exits_only_at_head(&l, &blocks)
                    && cfg.preds[l.exit.0 as usize] == [l.head.0 as usize]
                    && loop_is_clean(self.p, func, f, &l, &blocks, &self.assigns);
                fits.then_some((f, l.exit))
            })
    }

    /// Every semaphore call of the program, and what else names a semaphore's variable.
    fn semaphore_uses(&self) -> Uses {
        let p = self.p;
        let mut uses = Uses::default();
        for (f, func) in p.funcs.iter_enumerated() {
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    self.semaphore_stmt(&mut uses, (f, b, k), &stmt.kind, stmt.pos);
                }
                crate::ir::visit::walk_term(&mut Addressed(&mut uses.addressed), &block.term);
            }
        }
        uses
    }

    fn semaphore_stmt(&self, uses: &mut Uses, at: StmtAt, kind: &StmtKind, pos: crate::ir::Pos) {
        let p = self.p;
        let StmtKind::Call {
            callee: Callee::Direct(g),
            args,
            dst,
        } = kind
        else {
            crate::ir::visit::walk_stmt(&mut Addressed(&mut uses.addressed), kind);
            return;
        };
        if let Some(d) = dst {
            Addressed(&mut uses.addressed).visit_lval(d);
        }
        let sem = match p.known_kind(*g) {
            Some(Kind::SemInit { sem, .. } | Kind::SemWait { sem } | Kind::SemPost { sem }) => {
                Some(usize::from(sem))
            }
            Some(Kind::SignalHandler { .. } | Kind::SigAction { .. }) => {
                uses.spoiled = true;
                None
            }
            _ => None,
        };
        // locksmith's own stubs (`sem_destroy`) are read like the program: a post in one would
        // be seen, and through its parameter it is a post through a pointer.
        let stub = p.funcs[*g].defined && p.funcs[*g].origin == Origin::Stub;
        for (j, a) in args.iter().enumerate() {
            if Some(j) != sem && !stub {
                Addressed(&mut uses.addressed).visit_operand(a);
            }
        }
        let Some(j) = sem else { return };
        // An element of an array of semaphores names no one semaphore (`sem_key` drops the
        // index): its variable is out.
        let key = args.get(j).and_then(|a| match a.without_casts() {
            Operand::AddrOf(lv) if lv.proj.iter().any(|s| !matches!(s, Proj::Field { .. })) => {
                if let Base::Var(v) = lv.base {
                    uses.addressed.insert(v);
                }
                None
            }
            a => sem_key(a),
        });
        match (p.known_kind(*g), key) {
            (Some(Kind::SemInit { .. }), key) => {
                let zero = p
                    .init_values
                    .get(&pos)
                    .is_some_and(|v| v.iter().all(|&x| x == Some(0)));
                match key {
                    Some(key) => *uses.zero.entry(key).or_insert(true) &= zero,
                    None => uses.spoiled |= !zero,
                }
            }
            (Some(Kind::SemWait { .. }), Some(key)) => uses.waits.entry(key).or_default().push(at),
            (Some(Kind::SemPost { .. }), Some(key)) => uses.posts.entry(key).or_default().push(at),
            (Some(Kind::SemPost { .. }), None) => uses.spoiled = true,
            _ => {}
        }
    }
}
