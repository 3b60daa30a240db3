//! Counter joins: `main` waits, under a mutex, until a counter of running workers drops to
//! zero; each worker counts itself down, under that mutex, as the last thing it does. Where the
//! wait sees zero, every worker it counted has finished, as after a `pthread_join` of each (an
//! extension beyond the paper, which has no joins; pfscan's `aworkers` count is one).
//!
//! ```c
//! running = nworkers;                        // (A) the count, set before the create loop
//! for (i = 0; i < nworkers; i++)
//!     pthread_create(&t, 0, worker, 0);      //     or (B) `running++` under `m` per create
//! pthread_mutex_lock(&m);
//! while (running > 0)                        // the test, holding `m`
//!     pthread_cond_wait(&done, &m);
//! pthread_mutex_unlock(&m);                  // every worker has finished here
//!
//! void *worker(void *arg) { …; lock(&m); running--; unlock(&m); signal(&done); return 0; }
//! ```
//!
//! The idiom is matched only when each step of the argument holds, checked on the IR. Here
//! `main` stands for `main` or any other function that runs once ([`crate::analyses::once`]:
//! one `main` calls once, outside its loops, to start the workers and wait for them), which
//! the argument uses only for running once:
//!
//! - The counter `c` is a global integer variable (or a member path of one, `o.running`), not
//!   thread-local, whose address is never taken, so that every write names it.
//! - Exactly one statement of the program counts it down, `c--` (or `c -= 1`, `c = c - 1`,
//!   [`crate::ir::Program::steps`]), in the start routine `S` of the workers, on no cycle of `S`,
//!   holding a mutex `m` on every path to it; after it, `S` only releases locks, signals
//!   conditions (model kinds that touch no memory), and returns or exits, reading at most its own
//!   locals. So each worker counts down at most once, after every access it makes.
//! - `S` runs only as those workers: its address appears only as the start routine of
//!   `pthread_create` calls in `main`, and nothing calls it directly. `main` runs once (nothing
//!   calls it or takes its address).
//! - Every other write of `c` is in `main` or in a global's initializer, in one of two forms:
//!   (A) one assignment `c = N` on no cycle, on every path from `main`'s entry to the one create,
//!   which lies in a clean counted loop `L` on no other cycle that counts from 0 while below `N`
//!   (a constant, a local not changed after the assignment, or a global whose unchanged value
//!   the thread analysis checks by label flow, a [`BoundCheck`]): at most `N` workers, `N`
//!   counted; or (B) increments `c++` holding `m`, where from each create every path reaches an
//!   increment before it reaches the test or a create again (or every path to the create passes
//!   one after the previous create: the worker is counted before it starts), and otherwise
//!   only non-negative
//!   constants, stored in initializers or in `main` where no create can have run: as many
//!   counts as workers started before the test, or more.
//! - The test: a branch of `main` on `c > 0`, `c != 0`, `c == 0` or `c <= 0` (`c` read directly,
//!   without conversion), holding `m` on every path to it. Its side on which `c` is at most zero
//!   is a block entered only from it; on entry to that block the workers are joined
//!   ([`JoinPlan::join_at_entry`]).
//!
//! Why that is sound: `c` is written only by the statements above, under `m` once workers exist
//! (form A writes it only before the first create). When the test reads `c ≤ 0` holding `m`, at
//! least as many count-downs as counts have happened (A: `N` count-downs, and at most `N`
//! workers ever; B: every worker started before the test was counted), and only workers count
//! down, each at most once: so every worker started before the test has counted down; each
//! count-down happened before its worker released `m`, and so before the test acquired `m`. A
//! worker that never counts down keeps the count above zero, and the branch is never taken. A
//! counter read without its lock is not trusted (the race on it is reported, and nothing is
//! ordered by it).

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use super::*;
use crate::analyses::held::Held;
use crate::analyses::semaphores::SemKey;
use crate::ir::ctypes::{StructId, StructKind};
use crate::ir::visit::{walk_func, walk_operand, Visitor};

/// A counter as the program names it: a global variable and the member path inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Counter {
    pub(super) var: VarId,
    /// `(struct, member)` steps.
    pub(super) fields: Vec<(u32, u32)>,
}

/// How a statement writes the counter.
#[derive(Clone, Debug)]
pub(super) enum Write<'p> {
    /// `c = c + k` ([`crate::ir::Program::steps`]).
    Step(i64),
    /// `c = value`.
    Set(&'p Operand),
    /// Anything else: a part of it, the enclosing object, a call's result, assembly.
    Other,
}

impl Counter {
    /// The counter an operand reads directly: a global integer variable or member path of one,
    /// whose address is never taken.
    pub(super) fn read_by(p: &Program, op: &Operand) -> Option<Counter> {
        let Operand::Use(lv) = op else { return None };
        let SemKey { var, fields } = crate::analyses::semaphores::named_global(p, lv)?;
        matches!(p.types.get(p.lval_type(lv)), Type::Int | Type::Char)
            .then_some(Counter { var, fields })
    }

    /// Whether `lv` names the counter exactly (`Some(true)`) or an object overlapping it
    /// (`Some(false)`: the whole enclosing struct, an index into a member path).
    fn names(&self, p: &Program, lv: &Lval) -> Option<bool> {
        if !matches!(lv.base, Base::Var(v) if v == self.var) {
            return None;
        }
        let mut steps = lv.proj.iter();
        for &(s, i) in &self.fields {
            match steps.next() {
                None => return Some(false),
                Some(Proj::Field { strukt, index }) if (strukt.0, *index) == (s, i) => {}
                // A member of a union overlaps its other members; a struct's do not.
                Some(Proj::Field { strukt, .. })
                    if p.types.structs[*strukt].kind == StructKind::Union =>
                {
                    return Some(false)
                }
                Some(Proj::Field { .. }) => return None,
                Some(_) => return Some(false),
            }
        }
        Some(steps.next().is_none())
    }

    /// How a statement writes the counter, if it does.
    pub(super) fn written_by<'p>(
        &self,
        p: &Program,
        stmt: &'p crate::ir::Stmt,
    ) -> Option<Write<'p>> {
        match &stmt.kind {
            StmtKind::Assign { dst, src } => match self.names(p, dst)? {
                false => Some(Write::Other),
                true => Some(self.assignment(p, stmt.pos, src)),
            },
            StmtKind::Call { dst: Some(dst), .. } => self.names(p, dst).map(|_| Write::Other),
            StmtKind::Asm { operands } => operands
                .iter()
                .any(|lv| self.names(p, lv).is_some())
                .then_some(Write::Other),
            _ => None,
        }
    }

    fn assignment<'p>(&self, p: &Program, pos: crate::ir::Pos, src: &'p Operand) -> Write<'p> {
        if let Operand::Arith(_, _, ops) = src.without_casts() {
            let reads_self = ops.first().is_some_and(|o| match o.without_casts() {
                Operand::Use(lv) => self.names(p, lv) == Some(true),
                _ => false,
            });
            return match p.steps.get(&pos) {
                Some(&k) if reads_self && k != 0 && ops.len() == 2 => Write::Step(k),
                _ => Write::Other,
            };
        }
        Write::Set(src)
    }
}

/// Whether an operand is the constant 0 (through conversions).
fn is_zero(op: &Operand) -> bool {
    op.constant() == Some(0)
}

/// A test of the counter: the branch's block, the counter, and the block entered when the
/// counter is at most zero.
pub(super) struct Test {
    pub(super) block: BlockId,
    pub(super) counter: Counter,
    pub(super) drained: BlockId,
}

/// The test of a block's branch, if it tests a counter against zero: the counter read
/// directly, or through conversions when `converted` (which a trusted idiom never accepts, as
/// a narrowing conversion can make a positive count look like zero).
pub(super) fn test_of(p: &Program, b: BlockId, term: &Term, converted: bool) -> Option<Test> {
    let read = |op: &Operand| Counter::read_by(p, if converted { op.without_casts() } else { op });
    let Term::Branch {
        cond,
        then_block,
        else_block,
        compare,
        ..
    } = term
    else {
        return None;
    };
    use crate::ir::Comparison as C;
    let (counter, drained_if_true) = match (compare, cond) {
        (None, c) => (read(c)?, false),
        (Some(op), Operand::Arith(_, _, ops)) if ops.len() == 2 => {
            let (l, r) = (&ops[0], &ops[1]);
            let (c, op) = if is_zero(r) {
                (l, *op)
            } else if is_zero(l) {
                // `0 OP c` is `c OP' 0`.
                let flipped = match op {
                    C::Lt => C::Gt,
                    C::Gt => C::Lt,
                    C::Le => C::Ge,
                    C::Ge => C::Le,
                    same => *same,
                };
                (r, flipped)
            } else {
                return None;
            };
            let drained_if_true = match op {
                C::Gt | C::Ne => false,
                C::Eq | C::Le => true,
                C::Lt | C::Ge => return None,
            };
            (read(c)?, drained_if_true)
        }
        _ => return None,
    };
    Some(Test {
        block: b,
        counter,
        drained: if drained_if_true {
            *then_block
        } else {
            *else_block
        },
    })
}

/// Where `S`'s routine appears: as the start routine of library creates (`at`), or elsewhere.
pub(super) struct RoutineUses {
    pub(super) creates: Vec<StmtAt>,
    pub(super) other: bool,
}

pub(super) fn routine_uses(p: &Program, calls: &ThreadCalls, s: FuncId) -> RoutineUses {
    struct Count {
        s: FuncId,
        n: usize,
    }
    impl Visitor for Count {
        fn visit_operand(&mut self, op: &Operand) {
            if matches!(op, Operand::Func(f) if *f == self.s) {
                self.n += 1;
            }
            walk_operand(self, op);
        }
    }
    let mut count = Count { s, n: 0 };
    let mut uses = RoutineUses {
        creates: Vec::new(),
        other: false,
    };
    for (f, func) in p.funcs.iter_enumerated() {
        walk_func(&mut count, func);
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } = &stmt.kind
                else {
                    continue;
                };
                if *g == s {
                    uses.other = true;
                }
                if !calls.is_library_create(*g) {
                    continue;
                }
                let Some(Kind::Fork { func: routine, .. }) = p.known_kind(*g) else {
                    continue;
                };
                let started = args.get(usize::from(routine)).map(Operand::without_casts);
                if matches!(started, Some(Operand::Func(r)) if *r == s) {
                    uses.creates.push((f, b, k));
                }
            }
        }
    }
    uses.other |= count.n != uses.creates.len();
    uses
}

/// Whether an operand reads no memory but the non-address-taken locals and parameters of `f`.
fn reads_only_own_locals(p: &Program, f: FuncId, op: &Operand) -> bool {
    struct Reads<'p> {
        p: &'p Program,
        f: FuncId,
        ok: bool,
    }
    impl Visitor for Reads<'_> {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::Use(lv) = op {
                let own = match lv.base {
                    Base::Var(v) => {
                        let var = &self.p.vars[v];
                        !var.address_taken
                            && matches!(var.kind, VarKind::Local(g) | VarKind::Param(g, _) if g == self.f)
                    }
                    Base::Deref(_) => false,
                };
                self.ok &= own && lv.proj.is_empty();
            }
            walk_operand(self, op);
        }
    }
    let mut r = Reads { p, f, ok: true };
    r.visit_operand(op);
    r.ok
}

/// Whether, from statement `k` of block `b` of `s` on (after the count-down), the routine only
/// releases locks, signals, and returns or exits, reading at most its own locals.
pub(super) fn nothing_after(p: &Program, s: FuncId, cfg: &Cfg, b: BlockId, k: usize) -> bool {
    let func = &p.funcs[s];
    let quiet_stmt = |stmt: &crate::ir::Stmt| match &stmt.kind {
        StmtKind::Call {
            dst,
            callee: Callee::Direct(g),
            args,
        } => {
            matches!(
                p.known_kind(*g),
                Some(Kind::Release { .. } | Kind::NoEffect)
            ) && args.iter().all(|a| match a.without_casts() {
                Operand::AddrOf(lv) => matches!(lv.base, Base::Var(_)),
                other => reads_only_own_locals(p, s, other),
            }) && dst
                .as_ref()
                .is_none_or(|d| reads_only_own_locals(p, s, &Operand::Use(d.clone())))
        }
        _ => false,
    };
    let quiet_term = |term: &Term| match term {
        Term::Goto(_) | Term::Exit | Term::Return(None, _) => true,
        Term::Return(Some(op), _) => reads_only_own_locals(p, s, op),
        Term::Branch { cond, .. } => reads_only_own_locals(p, s, cond),
        Term::Multi(..) => false,
    };
    if !func.blocks[b].stmts[k + 1..].iter().all(quiet_stmt) || !quiet_term(&func.blocks[b].term) {
        return false;
    }
    let after = cfg.reachable(b.0 as usize, |_| false);
    after.iter().enumerate().all(|(x, &r)| {
        let block = &func.blocks[BlockId(x as u32)];
        !r || x == b.0 as usize || (block.stmts.iter().all(quiet_stmt) && quiet_term(&block.term))
    })
}

/// The variables a statement may write by name: an assignment's or a call's destination, the
/// operands of assembly.
pub(super) fn written_vars(kind: &StmtKind) -> Vec<VarId> {
    let base = |lv: &Lval| match lv.base {
        Base::Var(v) => Some(v),
        Base::Deref(_) => None,
    };
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
            base(dst).into_iter().collect()
        }
        StmtKind::Asm { operands } => operands.iter().filter_map(base).collect(),
        _ => Vec::new(),
    }
}

/// The statements that may write one variable, filed by the member of it they write: a
/// counter's writes are those of its first member and those that may write any
/// ([`Counter::written_by`] is `None` for every other). Scanning every write of the variable
/// for each counter made the hand-shakes grow as the square of a large struct's members (a
/// server's configuration flags, each tested somewhere, in a struct written in as many places).
pub(super) struct MemberWrites {
    /// Writes of the whole variable, through a union's member, or of several lvalues at once.
    wide: Vec<StmtAt>,
    /// Writes through the first step of a struct member path, by `(struct, member)`.
    by_member: FxHashMap<(u32, u32), Vec<StmtAt>>,
}

impl MemberWrites {
    /// Files `writes` (every statement that may write the variable, in program order).
    pub(super) fn new(p: &Program, writes: &[StmtAt]) -> MemberWrites {
        let mut out = MemberWrites {
            wide: Vec::new(),
            by_member: FxHashMap::default(),
        };
        for &(f, b, k) in writes {
            let dst = match &p.funcs[f].blocks[b].stmts[k].kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => Some(dst),
                _ => None,
            };
            let member = dst.and_then(|lv| match lv.proj.first() {
                Some(Proj::Field { strukt, index })
                    if p.types.structs[*strukt].kind == StructKind::Struct =>
                {
                    Some((strukt.0, *index))
                }
                _ => None,
            });
            match member {
                Some(m) => out.by_member.entry(m).or_default().push((f, b, k)),
                None => out.wide.push((f, b, k)),
            }
        }
        out
    }

    /// The writes that may write `counter`, in program order.
    pub(super) fn of(&self, counter: &Counter) -> Vec<StmtAt> {
        let Some(first) = counter.fields.first() else {
            let mut all: Vec<StmtAt> = self.wide.clone();
            all.extend(self.by_member.values().flatten());
            all.sort_unstable();
            return all;
        };
        let mut out = self.wide.clone();
        out.extend(self.by_member.get(first).into_iter().flatten());
        out.sort_unstable();
        out
    }
}

/// The global variables some statement of the program counts down (`c--`, `o.c -= 1`).
fn counted_down_globals(p: &Program) -> FxHashSet<VarId> {
    let mut out = FxHashSet::default();
    for stmt in p
        .funcs
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| &b.stmts)
    {
        if let StmtKind::Assign { dst, .. } = &stmt.kind {
            if let (Base::Var(v), Some(&-1)) = (&dst.base, p.steps.get(&stmt.pos)) {
                if is_global(p, *v) {
                    out.insert(*v);
                }
            }
        }
    }
    out
}

/// What the idiom asks of `main`: its graph, counted loops and held mutexes.
struct MainFacts {
    main: FuncId,
    cfg: Cfg,
    loops: CountedLoops,
    held: Held,
}

/// The count-down of a counter: the routine, its statement, and the mutex held there.
struct CountDown {
    routine: FuncId,
    at: StmtAt,
    held: BTreeSet<SemKey>,
}

impl Planner<'_> {
    /// Adds the counter joins of each of `once`, the functions that run once
    /// ([`crate::analyses::once`]): `main` itself, or one it calls once to start the workers and
    /// wait for them. Every step of the argument ([`self`]) names only that function, so it
    /// serves as `main` does.
    pub(super) fn counter_joins(&mut self, once: &[FuncId]) {
        let p = self.p;
        // Only a global something counts down can be a counter: found in one pass, so that
        // the tests of flags cost nothing more.
        let counted_down = counted_down_globals(p);
        let tests: Vec<(FuncId, Vec<Test>)> = once
            .iter()
            .filter(|&&f| p.funcs[f].defined)
            .map(|&f| {
                let tests: Vec<Test> = p.funcs[f]
                    .blocks
                    .iter_enumerated()
                    .filter_map(|(b, block)| test_of(p, b, &block.term, false))
                    .filter(|t| counted_down.contains(&t.counter.var))
                    .collect();
                (f, tests)
            })
            .filter(|(_, tests)| !tests.is_empty())
            .collect();
        if tests.is_empty() {
            return;
        }
        // The statements that may write each tested counter, found in one pass.
        let tested: FxHashSet<VarId> = tests
            .iter()
            .flat_map(|(_, tests)| tests.iter().map(|t| t.counter.var))
            .collect();
        let mut writers: FxHashMap<VarId, Vec<StmtAt>> = FxHashMap::default();
        for (f, g) in p.funcs.iter_enumerated() {
            for (b, block) in g.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    for v in written_vars(&stmt.kind) {
                        if tested.contains(&v) {
                            writers.entry(v).or_default().push((f, b, k));
                        }
                    }
                }
            }
        }
        for (main, tests) in tests {
            self.counter_joins_of(main, tests, &writers);
        }
    }

    /// The counter joins of the tests of `main`, a function that runs once.
    fn counter_joins_of(
        &mut self,
        main: FuncId,
        tests: Vec<Test>,
        writers: &FxHashMap<VarId, Vec<StmtAt>>,
    ) {
        let p = self.p;
        let func = &p.funcs[main];
        let cfg = Cfg::new(func);
        let facts = MainFacts {
            main,
            loops: counted_loops(func, &cfg),
            held: Held::new(p, func),
            cfg,
        };
        for test in tests {
            let writes = writers
                .get(&test.counter.var)
                .map_or(&[][..], Vec::as_slice);
            let (b, block) = (test.block, &func.blocks[test.block]);
            if facts.cfg.preds[test.drained.0 as usize] != [b.0 as usize] {
                continue;
            }
            let Some(at_test) = facts.held.before(p, func, b, block.stmts.len()) else {
                continue;
            };
            let found = self.counted_workers(&facts, &test, &at_test, writes);
            if let Some(handles) = found {
                self.plan
                    .join_at_entry
                    .entry((main, test.drained))
                    .or_default()
                    .extend(handles);
            }
        }
    }

    /// The handle of the workers whose count `test` reads, when the idiom holds.
    fn counted_workers(
        &mut self,
        facts: &MainFacts,
        test: &Test,
        at_test: &BTreeSet<SemKey>,
        writes: &[StmtAt],
    ) -> Option<Vec<ThreadHandle>> {
        let (main, cfg, loops, held) = (facts.main, &facts.cfg, &facts.loops, &facts.held);
        let p = self.p;
        let func = &p.funcs[main];
        let mut down: Option<CountDown> = None;
        let mut in_main: Vec<(StmtAt, Write<'_>)> = Vec::new();
        for &(f, b, k) in writes {
            let g = &p.funcs[f];
            let stmt = &g.blocks[b].stmts[k];
            let Some(w) = test.counter.written_by(p, stmt) else {
                continue;
            };
            match w {
                _ if f == main => in_main.push(((f, b, k), w)),
                Write::Set(v) if f == p.global_init => {
                    if !matches!(v.without_casts(), Operand::Const(_, Some(x)) if *x >= 0) {
                        // A negative or unknown start spoils form (B) only.
                        in_main.push(((f, b, k), Write::Other));
                    }
                }
                Write::Step(-1) if down.is_none() => {
                    let s_cfg = Cfg::new(g);
                    if on_any_cycle(&s_cfg, b.0 as usize) || !nothing_after(p, f, &s_cfg, b, k) {
                        return None;
                    }
                    let held = Held::new(p, g).before(p, g, b, k)?;
                    down = Some(CountDown {
                        routine: f,
                        at: (f, b, k),
                        held,
                    });
                }
                _ => return None,
            }
        }
        let down = down?;
        let m = down.held.intersection(at_test).next()?.clone();
        let uses = routine_uses(p, &self.calls, down.routine);
        if uses.other
            || uses.creates.is_empty()
            || uses.creates.iter().any(|c| c.0 != main)
            || down.at.0 == main
        {
            return None;
        }
        let counted = match self.counted_by_assignment(main, cfg, loops, &uses.creates, &in_main) {
            Counted::No
                if counted_by_increments(p, func, cfg, held, &uses.creates, test, &in_main, &m) =>
            {
                Counted::Yes
            }
            c => c,
        };
        let mut handles = Vec::new();
        for &create in &uses.creates {
            let handle = *self.plan.create.entry(create).or_insert_with(|| {
                let h = ThreadHandle(self.plan.handles);
                self.plan.handles += 1;
                h
            });
            match &counted {
                Counted::No => return None,
                Counted::Yes => {}
                Counted::IfUnwritten(bound, region) => self.plan.bound_checks.push(BoundCheck {
                    handle,
                    func: main,
                    bound: *bound,
                    region: region.clone(),
                }),
            }
            handles.push(handle);
        }
        Some(handles)
    }

    /// Form (A): `main`'s only write of the counter is `c = N` on no cycle, on every path to the
    /// create loop `l`, which counts from 0 while below `N`, and `N` keeps its value until `l`
    /// ends.
    pub(super) fn counted_by_assignment(
        &self,
        main: FuncId,
        cfg: &Cfg,
        loops: &CountedLoops,
        creates: &[StmtAt],
        in_main: &[(StmtAt, Write<'_>)],
    ) -> Counted {
        let ([((f, b, k), Write::Set(n))], [(_, create, _)]) = (in_main, creates) else {
            return Counted::No;
        };
        let cb = create.0 as usize;
        let p = self.p;
        let func = &p.funcs[main];
        let Some((l, _)) = loops.iter().find(|(l, blocks)| {
            blocks.contains(&cb)
                && !cfg.on_other_cycle(cb, l)
                && loop_is_clean(p, func, main, l, blocks, &self.assigns)
        }) else {
            return Counted::No;
        };
        let (setb, head) = (b.0 as usize, l.head.0 as usize);
        if *f != main
            || on_any_cycle(cfg, setb)
            || cfg.reachable(0, |x| x == setb)[head]
            || l.start != 0
            || l.op != LoopCmp::Lt
        {
            return Counted::No;
        }
        // The blocks from the assignment to the end of the create loop, where a global bound
        // must keep its value.
        let exit = l.exit.0 as usize;
        let region = |var: VarId| {
            // The assignment's own block is on no cycle: only its statements after the
            // assignment matter, and they must visibly leave the bound alone.
            let rest = &p.funcs[main].blocks[*b].stmts[k + 1..];
            if !rest.iter().all(|stmt| leaves_alone(p, stmt, var)) {
                return Counted::No;
            }
            let mut after = vec![false; cfg.succs.len()];
            for &s in &cfg.succs[setb] {
                for (x, r) in cfg.reachable(s, |x| x == exit).into_iter().enumerate() {
                    after[x] |= r;
                }
            }
            let blocks = after.iter().enumerate().filter(|(_, &r)| r);
            Counted::IfUnwritten(l.bound, blocks.map(|(x, _)| BlockId(x as u32)).collect())
        };
        let names_bound = |lv: &Lval, var: VarId, field: Option<(StructId, u32)>| {
            matches!(lv.base, Base::Var(x) if x == var)
                && match (field, &lv.proj[..]) {
                    (None, []) => true,
                    (Some((s, i)), [Proj::Field { strukt, index }]) => *strukt == s && *index == i,
                    _ => false,
                }
        };
        let yes = |b: bool| if b { Counted::Yes } else { Counted::No };
        match (l.bound, n.without_casts()) {
            (LoopBound::Const(bound), Operand::Const(_, Some(v))) => yes(bound == *v),
            (LoopBound::Var(v), Operand::Use(lv)) if names_bound(lv, v, None) => {
                if is_global(p, v) {
                    return region(v);
                }
                // A local of `main`: never assigned after the counter's assignment.
                let after = cfg.reachable(setb, |_| false);
                let unchanged = self.assigns.get(&v).is_none_or(|w| {
                    w.iter().all(|&(g, wb, wk)| {
                        let later = if wb == *b {
                            wk > *k
                        } else {
                            after[wb.0 as usize]
                        };
                        g == main && !later
                    })
                });
                yes(!p.vars[v].address_taken && unchanged)
            }
            (LoopBound::GlobalField { var, strukt, index }, Operand::Use(lv))
                if names_bound(lv, var, Some((strukt, index))) =>
            {
                region(var)
            }
            _ => Counted::No,
        }
    }
}

/// Whether a statement certainly writes no part of global `var`: an assignment to a local or to
/// another global by name, or a call of a library function that touches no memory or only
/// locks.
fn leaves_alone(p: &Program, stmt: &crate::ir::Stmt, var: VarId) -> bool {
    let by_name = |lv: &Lval| matches!(lv.base, Base::Var(v) if v != var);
    match &stmt.kind {
        StmtKind::Assign { dst, .. } => by_name(dst),
        StmtKind::Call {
            dst,
            callee: Callee::Direct(g),
            ..
        } => {
            dst.as_ref().is_none_or(by_name)
                && matches!(
                    p.known_kind(*g),
                    Some(
                        Kind::NoEffect
                            | Kind::Acquire { .. }
                            | Kind::Release { .. }
                            | Kind::LockInit { .. }
                    )
                )
        }
        StmtKind::Eval(_) => true,
        _ => false,
    }
}

/// Whether the workers of a create loop are all counted.
pub(super) enum Counted {
    No,
    Yes,
    /// If a global bound keeps its value in these blocks of `main` ([`BoundCheck`]).
    IfUnwritten(LoopBound, Vec<BlockId>),
}

/// Form (B): `main`'s writes of the counter are increments holding `m`, and non-negative
/// constants stored where no create of a worker has run. From each create, every path reaches an
/// increment before it reaches the test or a create again, so each worker the test can have
/// seen started was counted. Or every path from `main`'s entry to the create passes an
/// increment after the last create (`lock; running++; unlock; pthread_create(…)`): each worker
/// was counted before it started (a create that fails leaves a count no worker takes back, and
/// the wait never ends, which orders nothing wrongly).
#[allow(clippy::too_many_arguments)]
fn counted_by_increments(
    p: &Program,
    func: &Func,
    cfg: &Cfg,
    held: &Held,
    creates: &[StmtAt],
    test: &Test,
    in_main: &[(StmtAt, Write<'_>)],
    m: &SemKey,
) -> bool {
    let mut after_create = vec![false; cfg.succs.len()];
    for &(_, b, _) in creates {
        for (x, r) in cfg
            .reachable(b.0 as usize, |_| false)
            .into_iter()
            .enumerate()
        {
            after_create[x] |= r;
        }
    }
    let mut increments: Vec<StmtAt> = Vec::new();
    let writes_ok = in_main.iter().all(|&((f, b, k), ref w)| match w {
        Write::Step(1) => {
            increments.push((f, b, k));
            held.before(p, func, b, k).is_some_and(|h| h.contains(m))
        }
        Write::Set(v) => {
            matches!(v.without_casts(), Operand::Const(_, Some(x)) if *x >= 0)
                && !after_create[b.0 as usize]
        }
        _ => false,
    });
    let counts = |b: usize| increments.iter().any(|&(_, ib, _)| ib.0 as usize == b);
    let create_blocks: Vec<usize> = creates.iter().map(|&(_, b, _)| b.0 as usize).collect();
    writes_ok
        && creates.iter().all(|&(_, b, k)| {
            // Counted in its own block, after it.
            if increments.iter().any(|&(_, ib, ik)| ib == b && ik > k) {
                return true;
            }
            if counted_before(cfg, func, (b, k), &increments, creates) {
                return true;
            }
            let mut seen = vec![false; cfg.succs.len()];
            let mut stack: Vec<usize> = cfg.succs[b.0 as usize].clone();
            while let Some(x) = stack.pop() {
                if std::mem::replace(&mut seen[x], true) || counts(x) {
                    continue;
                }
                if x == test.block.0 as usize || create_blocks.contains(&x) {
                    return false;
                }
                stack.extend(cfg.succs[x].iter().copied());
            }
            true
        })
}

/// Whether every path from the function's entry to the create at `(b, k)` passes one of
/// `increments` after the last of `creates`: a backward search from the create that stops at
/// an increment and fails at another create (or this one again) or at the entry.
fn counted_before(
    cfg: &Cfg,
    func: &Func,
    (b, k): (BlockId, usize),
    increments: &[StmtAt],
    creates: &[StmtAt],
) -> bool {
    let is = |list: &[StmtAt], at: (BlockId, usize)| list.iter().any(|&(_, lb, lk)| (lb, lk) == at);
    cfg.passes_before(func, (b, k), |bb, kk| {
        if is(increments, (bb, kk)) {
            Some(true)
        } else if is(creates, (bb, kk)) {
            Some(false)
        } else {
            None
        }
    })
}
