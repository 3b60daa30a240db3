//! Matching `pthread_join` with `pthread_create` (an extension beyond the paper; see
//! `solver::threads::mhp`).
//!
//! A join ends threads only when it certainly joins *every* thread a create started; otherwise a
//! race with a thread that is still running would be hidden. Two idioms are matched, within one
//! function unless noted:
//!
//! - **Single**: `pthread_create(&t, …)` outside any loop, and `pthread_join(t, …)` on the same
//!   variable (or the same field path of it). The join ends the thread right after the call. A
//!   global `t` may be joined in another function (a `stop` function for a `start` function);
//!   the thread analysis then also requires the create's function to run at most once.
//! - **Loops**: `for (i = A; i < B; i++) pthread_create(&th[i], …)` and a join loop
//!   `for (j = A; j < B; j++) pthread_join(th[j], …)` with the same start, comparison and bound
//!   (an integer constant, or a local assigned once). The join loop must join on every iteration
//!   (the join dominates the increment) and leave only through its condition; the threads are
//!   ended where it exits.
//!
//! In both, the thread-id variable must be written only by that one create: no other create,
//! assignment, or address taken anywhere in the program may change it, and the create loop's
//! counter must change only in its increment. Anything else is left unmatched, which is sound:
//! the threads simply stay running.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{
    Base, BlockId, Callee, CountedLoop, Func, FuncId, FuncOrigin, LoopBound, Lval, Operand,
    Program, Proj, StmtKind, Term, VarId, VarKind,
};
use solver::threads::ThreadHandle;

/// A statement: function, block, index in the block.
pub type StmtAt = (FuncId, BlockId, usize);

/// Where the thread handles of a program are created and joined.
#[derive(Clone, Debug, Default)]
pub struct JoinPlan {
    /// The `pthread_create` calls whose threads can be followed to a join.
    pub create: FxHashMap<StmtAt, ThreadHandle>,
    /// The `pthread_join` calls that end a single thread.
    pub join_after: FxHashMap<StmtAt, ThreadHandle>,
    /// Blocks on entry to which the threads of a create loop have all been joined.
    pub join_at_entry: FxHashMap<(FuncId, BlockId), Vec<ThreadHandle>>,
    /// Handles of threads whose id is a global: their joins may be in other functions, and they
    /// are valid only if the create's function runs at most once.
    pub global: Vec<ThreadHandle>,
    handles: u32,
}

/// How a thread id is named: a variable, its field path, and for arrays the index variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct IdPath {
    var: VarId,
    fields: Vec<(u32, u32)>,
    index: Option<VarId>,
}

fn id_path(lv: &Lval) -> Option<IdPath> {
    let Base::Var(var) = lv.base else { return None };
    let mut fields = Vec::new();
    let mut index = None;
    for p in &lv.proj {
        match *p {
            Proj::Field { strukt, index: i } => fields.push((strukt.0, i)),
            Proj::Index(Some(v)) if index.is_none() => index = Some(v),
            Proj::Index(_) => return None,
        }
    }
    Some(IdPath { var, fields, index })
}

fn strip(op: &Operand) -> &Operand {
    match op {
        Operand::Cast(_, inner) => strip(inner),
        other => other,
    }
}

/// One step of an lvalue's path from its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    Field(u32, u32),
    Index,
}

/// An lvalue rooted at a variable, as a path of steps.
type Place = (VarId, Vec<Step>);

fn place_of(lv: &Lval) -> Option<Place> {
    let Base::Var(v) = lv.base else { return None };
    let steps = lv
        .proj
        .iter()
        .map(|p| match *p {
            Proj::Field { strukt, index } => Step::Field(strukt.0, index),
            Proj::Index(_) => Step::Index,
        })
        .collect();
    Some((v, steps))
}

/// Whether one path is a prefix of the other (the places overlap).
fn overlaps(a: &[Step], b: &[Step]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// What a statement does to memory that may hold a thread id: the places whose address it takes
/// (except the thread id of a `pthread_create`, reported separately), the places it assigns, the
/// struct fields it assigns through a pointer, and the structs it assigns whole through one.
#[derive(Default)]
struct Touched {
    addr: Vec<Place>,
    created: Option<Place>,
    written: Vec<Place>,
    fields_through_pointers: Vec<(u32, u32)>,
    structs_through_pointers: Vec<u32>,
}

fn touched(p: &Program, kind: &StmtKind, creates: &FxHashSet<FuncId>) -> Touched {
    fn op_walk(op: &Operand, t: &mut Touched) {
        match op {
            Operand::AddrOf(lv) => {
                if let Some(pl) = place_of(lv) {
                    t.addr.push(pl);
                }
                lv_walk(lv, t);
            }
            Operand::Use(lv) => lv_walk(lv, t),
            Operand::Cast(_, inner) | Operand::VaArg(_, inner) => op_walk(inner, t),
            Operand::Arith(_, ops) => ops.iter().for_each(|o| op_walk(o, t)),
            Operand::Const(_) | Operand::Func(_) | Operand::Str(_) => {}
        }
    }
    fn lv_walk(lv: &Lval, t: &mut Touched) {
        if let Base::Deref(op) = &lv.base {
            op_walk(op, t);
        }
    }
    let dst_walk = |lv: &Lval, t: &mut Touched| {
        match place_of(lv) {
            Some(pl) => t.written.push(pl),
            None => {
                if let Some(Proj::Field { strukt, index }) = lv.proj.last() {
                    t.fields_through_pointers.push((strukt.0, *index));
                }
                if let crate::ctypes::Type::Struct(sid) = p.types.get(p.lval_type(lv)) {
                    t.structs_through_pointers.push(sid.0);
                }
            }
        }
        lv_walk(lv, t);
    };
    let mut t = Touched::default();
    match kind {
        StmtKind::Assign { dst, src } => {
            dst_walk(dst, &mut t);
            op_walk(src, &mut t);
        }
        StmtKind::Call { dst, callee, args } => {
            if let Some(d) = dst {
                dst_walk(d, &mut t);
            }
            if let Callee::Indirect(op) = callee {
                op_walk(op, &mut t);
            }
            let mut rest = args.as_slice();
            if let (Callee::Direct(c), Some(first)) = (callee, args.first()) {
                if creates.contains(c) {
                    if let Operand::AddrOf(lv) = strip(first) {
                        if let Some(pl) = place_of(lv) {
                            t.created = Some(pl);
                            lv_walk(lv, &mut t);
                            rest = &args[1..];
                        }
                    }
                }
            }
            rest.iter().for_each(|o| op_walk(o, &mut t));
        }
        StmtKind::Eval(op) => op_walk(op, &mut t),
        StmtKind::Asm { operands } => operands.iter().for_each(|lv| dst_walk(lv, &mut t)),
    }
    t
}

/// Everything in the program that may change a thread id, to decide which ids a join can trust.
#[derive(Default)]
struct Writers {
    creates: FxHashMap<Place, usize>,
    written: FxHashMap<VarId, Vec<Vec<Step>>>,
    addr: FxHashMap<VarId, Vec<Vec<Step>>>,
    fields_through_pointers: FxHashSet<(u32, u32)>,
    structs_through_pointers: FxHashSet<u32>,
}

impl Writers {
    /// Whether the thread id at `path` can only hold the thread of its one create: no other
    /// create or assignment overlaps it, its address (or an address inside it) is not taken, and
    /// if the address of an enclosing struct is taken, no code writes that field or one of those
    /// structs through a pointer.
    fn trustworthy(&self, path: &IdPath) -> bool {
        let steps: Vec<Step> = path
            .fields
            .iter()
            .map(|&(s, i)| Step::Field(s, i))
            .chain(path.index.map(|_| Step::Index))
            .collect();
        if self.creates.get(&(path.var, steps.clone())) != Some(&1) {
            return false;
        }
        if self
            .creates
            .iter()
            .any(|((v, other), _)| *v == path.var && *other != steps && overlaps(other, &steps))
        {
            return false;
        }
        if self
            .written
            .get(&path.var)
            .is_some_and(|w| w.iter().any(|w| overlaps(w, &steps)))
        {
            return false;
        }
        let mut enclosing_escapes = false;
        for a in self.addr.get(&path.var).map(Vec::as_slice).unwrap_or(&[]) {
            if a.len() >= steps.len() {
                if overlaps(a, &steps) {
                    return false;
                }
            } else if overlaps(a, &steps) {
                enclosing_escapes = true;
            }
        }
        if enclosing_escapes {
            let field_written = path
                .fields
                .last()
                .is_some_and(|f| self.fields_through_pointers.contains(f));
            let struct_written = path
                .fields
                .iter()
                .any(|(s, _)| self.structs_through_pointers.contains(s));
            if field_written || struct_written || path.index.is_some() {
                return false;
            }
        }
        true
    }
}

/// The control-flow graph of one function, for loop questions.
struct Cfg {
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    exits: Vec<bool>,
}

impl Cfg {
    fn new(f: &Func) -> Cfg {
        let n = f.blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        let mut exits = vec![false; n];
        for (b, block) in f.blocks.iter().enumerate() {
            let targets: Vec<usize> = match &block.term {
                Term::Goto(t) => vec![t.0 as usize],
                Term::Branch {
                    then_block,
                    else_block,
                    ..
                } => vec![then_block.0 as usize, else_block.0 as usize],
                Term::Multi(ts) => ts.iter().map(|t| t.0 as usize).collect(),
                Term::Return(..) | Term::Exit => {
                    exits[b] = true;
                    Vec::new()
                }
            };
            for t in targets {
                if t < n {
                    succs[b].push(t);
                    preds[t].push(b);
                }
            }
        }
        Cfg {
            succs,
            preds,
            exits,
        }
    }

    /// The natural loop of a counted loop: its head and every block that reaches its increment
    /// without passing through the head.
    fn natural_loop(&self, l: &CountedLoop) -> FxHashSet<usize> {
        let head = l.head.0 as usize;
        let mut set = FxHashSet::default();
        set.insert(head);
        let mut stack = vec![l.step.0 as usize];
        while let Some(b) = stack.pop() {
            if set.insert(b) {
                stack.extend(self.preds[b].iter().copied());
            }
        }
        set
    }

    /// Whether `b` lies on a cycle that does not use the loop's back edge (it is inside another
    /// loop, nested or enclosing).
    fn on_other_cycle(&self, b: usize, l: &CountedLoop) -> bool {
        let (head, step) = (l.head.0 as usize, l.step.0 as usize);
        // Search for a path from a successor of `b` back to `b` that avoids the edge step→head.
        let mut seen = vec![false; self.succs.len()];
        let mut stack: Vec<usize> = Vec::new();
        for &s in &self.succs[b] {
            if !(b == step && s == head) {
                stack.push(s);
            }
        }
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            for &s in &self.succs[x] {
                if !(x == step && s == head) {
                    stack.push(s);
                }
            }
        }
        false
    }

    /// Whether every path from the loop's body to its increment passes through `through`.
    fn on_every_iteration(&self, l: &CountedLoop, through: usize) -> bool {
        let (body, step) = (l.body.0 as usize, l.step.0 as usize);
        if through == body || through == step {
            return true;
        }
        let head = l.head.0 as usize;
        let mut seen = vec![false; self.succs.len()];
        let mut stack = vec![body];
        while let Some(x) = stack.pop() {
            if x == through || x == head || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            if x == step {
                return false;
            }
            stack.extend(self.succs[x].iter().copied());
        }
        true
    }

    /// Whether the loop is left only by its condition failing (no `break`, `return`, `goto` out,
    /// or call that does not return).
    fn exits_only_at_head(&self, l: &CountedLoop, blocks: &FxHashSet<usize>) -> bool {
        let head = l.head.0 as usize;
        blocks
            .iter()
            .filter(|&&b| b != head)
            .all(|&b| !self.exits[b] && self.succs[b].iter().all(|s| blocks.contains(s)))
    }
}

/// Where a create or join call sits and what it names.
struct Site {
    at: StmtAt,
    path: IdPath,
    /// The counted loop it is in, if its index is that loop's counter.
    in_loop: Option<usize>,
    /// Whether the statement's block lies on any cycle.
    cyclic: bool,
}

/// Finds the thread handles of a program.
pub fn plan(p: &Program) -> JoinPlan {
    let by_name = |name: &str| -> FxHashSet<FuncId> {
        p.funcs
            .iter_enumerated()
            .filter(|(_, f)| f.name == name)
            .map(|(id, _)| id)
            .collect()
    };
    let creates = by_name("pthread_create");
    let joins = by_name("pthread_join");

    // Whole-program: everything that may change a thread id.
    let mut writers = Writers::default();
    let mut assigns: FxHashMap<VarId, Vec<StmtAt>> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let t = touched(p, &stmt.kind, &creates);
                for (v, steps) in t.written {
                    assigns.entry(v).or_default().push((f, b, k));
                    writers.written.entry(v).or_default().push(steps);
                }
                for (v, steps) in t.addr {
                    writers.addr.entry(v).or_default().push(steps);
                }
                writers
                    .fields_through_pointers
                    .extend(t.fields_through_pointers);
                writers
                    .structs_through_pointers
                    .extend(t.structs_through_pointers);
                if let Some(pl) = t.created {
                    *writers.creates.entry(pl).or_default() += 1;
                }
            }
        }
    }

    // Joins of a global thread id (a single thread, not an array element) may be in any
    // function: the create's thread is unique in the program if its function runs once, which the
    // thread analysis checks (`JoinPlan::global`).
    let mut global_joins: Vec<(StmtAt, IdPath)> = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == FuncOrigin::User) {
            continue;
        }
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } = &stmt.kind
                else {
                    continue;
                };
                if !joins.contains(c) {
                    continue;
                }
                let Some(Operand::Use(lv)) = args.first().map(strip) else {
                    continue;
                };
                let Some(path) = id_path(lv) else { continue };
                if path.index.is_none()
                    && writers.trustworthy(&path)
                    && matches!(
                        p.vars[path.var].kind,
                        VarKind::Global {
                            thread_local: false,
                            ..
                        }
                    )
                {
                    global_joins.push(((f, b, k), path));
                }
            }
        }
    }

    let mut plan = JoinPlan::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == FuncOrigin::User) {
            continue;
        }
        let cfg = Cfg::new(func);
        let loops: Vec<(CountedLoop, FxHashSet<usize>)> = func
            .counted_loops
            .iter()
            .map(|l| (*l, cfg.natural_loop(l)))
            .collect();
        let cyclic: Vec<bool> = (0..func.blocks.len())
            .map(|b| on_any_cycle(&cfg, b))
            .collect();
        let mut create_sites = Vec::new();
        let mut join_sites = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } = &stmt.kind
                else {
                    continue;
                };
                let is_create = creates.contains(c);
                if !is_create && !joins.contains(c) {
                    continue;
                }
                let lv = match (is_create, args.first().map(strip)) {
                    (true, Some(Operand::AddrOf(lv))) | (false, Some(Operand::Use(lv))) => lv,
                    _ => continue,
                };
                let Some(path) = id_path(lv) else { continue };
                if !writers.trustworthy(&path) {
                    continue;
                }
                let in_loop = path.index.and_then(|i| {
                    loops
                        .iter()
                        .position(|(l, blocks)| l.counter == i && blocks.contains(&(b.0 as usize)))
                });
                let site = Site {
                    at: (f, b, k),
                    path,
                    in_loop,
                    cyclic: cyclic[b.0 as usize],
                };
                if is_create {
                    create_sites.push(site);
                } else {
                    join_sites.push(site);
                }
            }
        }
        for create in &create_sites {
            let handle = ThreadHandle(plan.handles);
            let mut used = false;
            match (create.path.index, create.in_loop) {
                (None, _) if !create.cyclic => {
                    if matches!(
                        p.vars[create.path.var].kind,
                        VarKind::Global {
                            thread_local: false,
                            ..
                        }
                    ) {
                        for (at, _) in global_joins.iter().filter(|(_, path)| *path == create.path)
                        {
                            plan.join_after.insert(*at, handle);
                            plan.global.push(handle);
                            used = true;
                        }
                    } else {
                        for join in join_sites.iter().filter(|j| j.path == create.path) {
                            plan.join_after.insert(join.at, handle);
                            used = true;
                        }
                    }
                }
                (Some(_), Some(li)) => {
                    let (l1, blocks1) = &loops[li];
                    if !loop_is_clean(p, func, f, l1, blocks1, &assigns)
                        || cfg.on_other_cycle(create.at.1 .0 as usize, l1)
                        || cfg.on_other_cycle(l1.head.0 as usize, l1)
                    {
                        continue;
                    }
                    for join in &join_sites {
                        let Some(lj) = join.in_loop else { continue };
                        let (l2, blocks2) = &loops[lj];
                        let same_array = join.path.var == create.path.var
                            && join.path.fields == create.path.fields;
                        let same_range =
                            l1.start == l2.start && l1.op == l2.op && l1.bound == l2.bound;
                        let exit = l2.exit.0 as usize;
                        if same_array
                            && same_range
                            && bound_is_fixed(p, f, l1, &assigns, blocks1, blocks2)
                            && loop_is_clean(p, func, f, l2, blocks2, &assigns)
                            && cfg.on_every_iteration(l2, join.at.1 .0 as usize)
                            && cfg.exits_only_at_head(l2, blocks2)
                            && cfg.preds[exit] == [l2.head.0 as usize]
                        {
                            plan.join_at_entry
                                .entry((f, l2.exit))
                                .or_default()
                                .push(handle);
                            used = true;
                        }
                    }
                }
                _ => {}
            }
            if used {
                plan.create.insert(create.at, handle);
                plan.handles += 1;
            }
            plan.global.dedup();
        }
    }
    plan
}

/// Whether a block lies on a cycle of the control flow.
fn on_any_cycle(cfg: &Cfg, b: usize) -> bool {
    let mut seen = vec![false; cfg.succs.len()];
    let mut stack: Vec<usize> = cfg.succs[b].clone();
    while let Some(x) = stack.pop() {
        if x == b {
            return true;
        }
        if !std::mem::replace(&mut seen[x], true) {
            stack.extend(cfg.succs[x].iter().copied());
        }
    }
    false
}

/// A counted loop whose counter changes only in its increment: a local of this function whose
/// address is never taken, assigned only by the loop's initialisation and increment.
fn loop_is_clean(
    p: &Program,
    func: &Func,
    f: FuncId,
    l: &CountedLoop,
    blocks: &FxHashSet<usize>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    let counter = &p.vars[l.counter];
    if counter.address_taken
        || !matches!(counter.kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f)
    {
        return false;
    }
    // Inside the loop, the counter is written only by the increment: the last statement of the
    // step block.
    let step = l.step.0 as usize;
    let step_last = func.blocks[l.step].stmts.len().checked_sub(1);
    let writes_in_loop = assigns
        .get(&l.counter)
        .map(|v| {
            v.iter()
                .filter(|(g, b, k)| {
                    *g == f
                        && blocks.contains(&(b.0 as usize))
                        && !(b.0 as usize == step && Some(*k) == step_last)
                })
                .count()
        })
        .unwrap_or(0);
    writes_in_loop == 0
}

/// Whether a variable bound has the same value in both loops: a constant, a parameter never
/// assigned, or a local assigned exactly once outside both loops, neither with its address taken.
fn bound_is_fixed(
    p: &Program,
    f: FuncId,
    l: &CountedLoop,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    blocks1: &FxHashSet<usize>,
    blocks2: &FxHashSet<usize>,
) -> bool {
    match l.bound {
        LoopBound::Const(_) => true,
        LoopBound::Var(v) => {
            let var = &p.vars[v];
            let writes: Vec<&StmtAt> = assigns
                .get(&v)
                .map(|w| w.iter().collect())
                .unwrap_or_default();
            if var.address_taken {
                return false;
            }
            if matches!(var.kind, VarKind::Param(g, _) if g == f) {
                return writes.is_empty();
            }
            matches!(var.kind, VarKind::Local(g) if g == f)
                && writes.len() == 1
                && writes.iter().all(|(g, b, _)| {
                    *g == f
                        && !blocks1.contains(&(b.0 as usize))
                        && !blocks2.contains(&(b.0 as usize))
                })
        }
    }
}
