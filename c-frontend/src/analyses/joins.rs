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
//!   (an integer constant, or a local assigned once; or a global or an integer member of a global
//!   struct, `cfg.nworkers`, whose address may be anywhere: such a match holds only under a
//!   [`BoundCheck`] that the thread analysis decides with label flow, since only it sees writes
//!   through pointers). The join loop must join on every iteration
//!   (the join dominates the increment) and leave only through its condition; the threads are
//!   ended where it exits.
//!
//!   The thread ids may also be the elements of a heap block, `pthread_t *w = calloc(n, …)`
//!   with `pthread_create(&w[i], …)` (or `w + i`) and `pthread_join(w[j], …)` (or `*(w + j)`).
//!   `w` must then be a local of the function, its address never taken, assigned exactly once,
//!   outside any cycle, with the result of `malloc` or `calloc`; and its value must never leave
//!   the function or be used to write the block: it may appear (through casts and arithmetic)
//!   only in branch conditions, in reads of the elements, as `free(w)`, and as the thread id of
//!   that one create (no other argument, assignment source, returned value, or destination of
//!   an assignment). The block is then reachable only through `w`, and only the create writes
//!   it. The loops must also start at a non-negative index (the IR does not keep whether a
//!   pointer is added to or subtracted from, so `w - i` is only excluded as undefined behaviour).
//!   The single idiom is not matched through a pointer: a constant index such as `w[1]` is
//!   dropped by the lowering, so `&w[1]` and `w[0]` look the same.
//!
//! In both, the thread-id variable must be written only by that one create: no other create,
//! assignment, or address taken anywhere in the program may change it, and the create loop's
//! counter must change only in its increment. An id inside a union is never trusted (members
//! overlap). When the address of a struct enclosing the id is taken (`&g_rep` handed to the
//! thread), no assignment anywhere may write the id's field or such a struct through a pointer,
//! and no library function (`memset`, `memcpy`, one without a model) may receive a pointer to
//! one. A thread-id array that is a global is also subject to the create's function running
//! once ([`JoinPlan::global`]). Anything else is left unmatched, which is sound: the threads
//! simply stay running.
//!
//! Knowingly unsound: array indexes are compared after removing casts, so
//! `th[(unsigned char)i]` over more than 256 threads is matched as `th[i]`.
//!
//! A join loop may contain paths that end the program or the thread (`exit`, `abort`, a call of
//! a `noreturn` function such as `die("…")`, `pthread_exit`: blocks ending in [`Term::Exit`]),
//! as in `if (pthread_join(th[i], NULL) != 0) die("join")`: the code after the loop never runs
//! on such a path, so the loop still joins every thread wherever it is left. `longjmp` is also
//! lowered to `Term::Exit`, and is accepted here although control may resume at its `setjmp`,
//! possibly after the join loop with threads still running: this is one of the places where
//! locksmith is knowingly unsound (`setjmp`/`longjmp` is not modelled).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::Type;
use crate::ir::{
    Base, BlockId, Callee, CountedLoop, Func, FuncId, FuncOrigin, LoopBound, LoopCmp, Lval,
    Operand, Program, Proj, StmtKind, Term, VarId, VarKind,
};
use crate::model::Kind;
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
    /// Handles of threads whose id is in a global: a single id's joins may be in other functions,
    /// and any of them is valid only if the create's function runs at most once.
    pub global: Vec<ThreadHandle>,
    /// Join loops whose bound is a global (or a member of one) the front end cannot prove
    /// unchanged between the loops: each holds only if no write may change the bound while the
    /// threads run, which the thread analysis decides with label flow.
    pub bound_checks: Vec<BoundCheck>,
    handles: u32,
}

/// A join loop's condition for ending the threads of `handle`: the global bound of its create
/// and join loops (`nthreads`, `cfg.nworkers`) is written neither by code of `func` that may run
/// between the start of the create loop and the exit of the join loop (`region`), nor by any
/// function called there, nor by any thread.
#[derive(Clone, Debug)]
pub struct BoundCheck {
    pub handle: ThreadHandle,
    pub func: FuncId,
    /// A [`LoopBound::Var`] of a global or a [`LoopBound::GlobalField`].
    pub bound: LoopBound,
    /// The blocks of `func` reachable from the create loop's head without passing the join
    /// loop's exit, in order.
    pub region: Vec<BlockId>,
}

/// Whether a loop bound has the same value in a create loop and its join loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fixed {
    /// Proved by the front end (a constant, or a local assigned once outside both loops).
    Proved,
    /// A global: left to the thread analysis ([`BoundCheck`]).
    IfUnwritten,
    No,
}

/// Where the memory holding a thread id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum IdBase {
    /// A variable.
    Var(VarId),
    /// The heap block a local pointer variable points to (its elements `w[i]`).
    Heap(VarId),
}

/// How a thread id is named: a variable, its field path, and for arrays the index variable; or
/// an element of the heap block a pointer points to (then the index is always there), with the
/// field path inside the element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct IdPath {
    base: IdBase,
    fields: Vec<(u32, u32)>,
    index: Option<VarId>,
}

impl IdPath {
    /// The variable of a path rooted at a variable.
    fn var(&self) -> Option<VarId> {
        match self.base {
            IdBase::Var(v) => Some(v),
            IdBase::Heap(_) => None,
        }
    }
}

fn id_path(lv: &Lval) -> Option<IdPath> {
    let Base::Var(var) = lv.base else { return None };
    let mut fields = Vec::new();
    let mut index = None;
    for p in &lv.proj {
        match *p {
            // A field after the index (`th[i].tid`) is not matched: the trust check compares
            // paths with the index last.
            Proj::Field { .. } if index.is_some() => return None,
            Proj::Field { strukt, index: i } => fields.push((strukt.0, i)),
            Proj::Index(Some(v)) if index.is_none() => index = Some(v),
            Proj::Index(_) => return None,
        }
    }
    Some(IdPath {
        base: IdBase::Var(var),
        fields,
        index,
    })
}

/// `w + i` (or `i + w`): the element `i` of what the local pointer `w` points to, where `w` is
/// read directly (a cast of `w` could change the element size, which the IR's types do not
/// keep) and `i` is an integer variable (casts of it are looked through, as for array indexes).
fn heap_element(p: &Program, op: &Operand) -> Option<(VarId, VarId)> {
    let Operand::Arith(t, ops) = op else {
        return None;
    };
    let [a, b] = ops.as_slice() else { return None };
    let plain = |op: &Operand| match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        _ => None,
    };
    let is_pointer = |v: VarId| matches!(p.types.get(p.vars[v].ty), Type::Pointer(_));
    let is_int = |v: VarId| matches!(p.types.get(p.vars[v].ty), Type::Int);
    [(a, b), (b, a)].into_iter().find_map(|(w, i)| {
        let w = plain(w)?;
        let i = plain(strip(i))?;
        (w != i && is_pointer(w) && is_int(i) && p.vars[w].ty == *t).then_some((w, i))
    })
}

/// A thread id in a heap block: `*(w + i)` with a field path (`w[i]`, `w[i].tid`).
fn heap_path(p: &Program, lv: &Lval) -> Option<IdPath> {
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    let (w, i) = heap_element(p, strip(ptr))?;
    let fields = lv
        .proj
        .iter()
        .map(|p| match *p {
            Proj::Field { strukt, index } => Some((strukt.0, index)),
            Proj::Index(_) => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some(IdPath {
        base: IdBase::Heap(w),
        fields,
        index: Some(i),
    })
}

/// The thread id named by the first argument of a create (its address) or of a join (its
/// value).
fn site_path(p: &Program, is_create: bool, arg: &Operand) -> Option<IdPath> {
    match (is_create, strip(arg)) {
        (true, Operand::AddrOf(lv)) | (false, Operand::Use(lv)) => {
            id_path(lv).or_else(|| heap_path(p, lv))
        }
        (true, ptr @ Operand::Arith(..)) => {
            let (w, i) = heap_element(p, ptr)?;
            Some(IdPath {
                base: IdBase::Heap(w),
                fields: Vec::new(),
                index: Some(i),
            })
        }
        _ => None,
    }
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
    /// Structs a library function (which may write through its arguments: `memset`, `memcpy`, or
    /// one without a model) receives a pointer to.
    structs_to_library: Vec<u32>,
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
                if let crate::ir::ctypes::Type::Struct(sid) = p.types.get(p.lval_type(lv)) {
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
            if let Callee::Direct(c) = callee {
                let func = &p.funcs[*c];
                let library = !(func.defined && func.origin == crate::ir::FuncOrigin::User);
                if library && !creates.contains(c) {
                    for a in args {
                        let ty = p.operand_type(strip(a));
                        if let Type::Pointer(e) = p.types.get(ty) {
                            if let Type::Struct(sid) | Type::Union(sid) = p.types.get(*e) {
                                t.structs_to_library.push(sid.0);
                            }
                        }
                    }
                }
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
    structs_to_library: FxHashSet<u32>,
    /// Structs that are unions: their members overlap, so a path through one is never trusted.
    unions: FxHashSet<u32>,
}

impl Writers {
    /// Whether the thread id at `path` can only hold the thread of its one create: no other
    /// create or assignment overlaps it, its address (or an address inside it) is not taken, and
    /// if the address of an enclosing struct is taken, no code writes that field or one of those
    /// structs through a pointer.
    fn trustworthy(&self, path: &IdPath) -> bool {
        let Some(var) = path.var() else {
            return false;
        };
        let steps: Vec<Step> = path
            .fields
            .iter()
            .map(|&(s, i)| Step::Field(s, i))
            .chain(path.index.map(|_| Step::Index))
            .collect();
        if self.creates.get(&(var, steps.clone())) != Some(&1) {
            return false;
        }
        if self
            .creates
            .iter()
            .any(|((v, other), _)| *v == var && *other != steps && overlaps(other, &steps))
        {
            return false;
        }
        if self
            .written
            .get(&var)
            .is_some_and(|w| w.iter().any(|w| overlaps(w, &steps)))
        {
            return false;
        }
        let mut enclosing_escapes = false;
        for a in self.addr.get(&var).map(Vec::as_slice).unwrap_or(&[]) {
            if a.len() >= steps.len() {
                if overlaps(a, &steps) {
                    return false;
                }
            } else if overlaps(a, &steps) {
                enclosing_escapes = true;
            }
        }
        if path.fields.iter().any(|(s, _)| self.unions.contains(s)) {
            return false;
        }
        if enclosing_escapes {
            if path
                .fields
                .iter()
                .any(|(s, _)| self.structs_to_library.contains(s))
            {
                return false;
            }
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
    /// Blocks that end with `Term::Return` or `Term::Exit`.
    exits: Vec<bool>,
    /// Blocks that end with `Term::Return`.
    returns: Vec<bool>,
}

impl Cfg {
    fn new(f: &Func) -> Cfg {
        let n = f.blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        let mut exits = vec![false; n];
        let mut returns = vec![false; n];
        for (b, block) in f.blocks.iter().enumerate() {
            returns[b] = matches!(block.term, Term::Return(..));
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
            returns,
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

    /// Whether the loop is left only by its condition failing (no `break`, `return` or `goto`
    /// out), apart from paths that end the program or thread without returning: every other
    /// edge out of the loop leads to blocks from which every path ends in `Term::Exit` (or never
    /// ends) without returning, coming back into the loop, or running code after the loop (see
    /// the module doc on `longjmp`).
    fn exits_only_at_head(&self, l: &CountedLoop, blocks: &FxHashSet<usize>) -> bool {
        let head = l.head.0 as usize;
        // The code after the loop: what its exit reaches without going through its head again.
        let after = self.reachable(l.exit.0 as usize, |x| x == head);
        blocks.iter().filter(|&&b| b != head).all(|&b| {
            !self.exits[b]
                && self.succs[b].iter().all(|&s| {
                    blocks.contains(&s)
                        || self
                            .reachable(s, |_| false)
                            .iter()
                            .enumerate()
                            .all(|(x, &r)| {
                                !r || !(after[x] || blocks.contains(&x) || self.returns[x])
                            })
                })
        })
    }

    /// The blocks reachable from `from` (included) without entering a block where `stop` holds.
    fn reachable(&self, from: usize, stop: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.succs.len()];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if stop(x) || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            stack.extend(self.succs[x].iter().copied());
        }
        seen
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
    let of_kind = |wanted: fn(Kind) -> bool| -> FxHashSet<FuncId> {
        p.funcs
            .indices()
            .filter(|&f| p.known_kind(f).is_some_and(wanted))
            .collect()
    };
    let creates = of_kind(|k| matches!(k, Kind::Fork { .. }));
    let joins = of_kind(|k| matches!(k, Kind::Join { .. }));
    let allocs = of_kind(|k| k == Kind::Alloc);
    let frees = of_kind(|k| matches!(k, Kind::Free { .. }));

    // Whole-program: everything that may change a thread id.
    let mut writers = Writers {
        unions: p
            .types
            .structs
            .iter_enumerated()
            .filter(|(_, d)| d.kind == crate::ir::ctypes::StructKind::Union)
            .map(|(sid, _)| sid.0)
            .collect(),
        ..Writers::default()
    };
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
                writers.structs_to_library.extend(t.structs_to_library);
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
                let Some(var) = path.var() else { continue };
                if path.index.is_none()
                    && writers.trustworthy(&path)
                    && matches!(
                        p.vars[var].kind,
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

    // Join loops over global arrays, in any function (a `stop` function for a `start` one).
    let mut global_join_loops: Vec<JoinLoop> = Vec::new();
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
        for (b, block) in func.blocks.iter_enumerated() {
            for stmt in &block.stmts {
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
                let Some(path) = args.first().and_then(|a| site_path(p, false, a)) else {
                    continue;
                };
                let IdBase::Var(var) = path.base else {
                    continue;
                };
                if !is_global(p, var) || !writers.trustworthy(&path) {
                    continue;
                }
                let Some(i) = path.index else { continue };
                let Some((l2, blocks2)) = loops
                    .iter()
                    .find(|(l, bl)| l.counter == i && bl.contains(&(b.0 as usize)))
                else {
                    continue;
                };
                if join_loop_complete(p, func, f, &cfg, l2, blocks2, b, &assigns) {
                    global_join_loops.push(JoinLoop {
                        func: f,
                        path,
                        l: *l2,
                        blocks: blocks2.clone(),
                    });
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
        let heaps = trusted_heaps(
            p,
            f,
            func,
            &cyclic,
            &assigns,
            &HeapFuncs {
                creates: &creates,
                allocs: &allocs,
                frees: &frees,
            },
        );
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
                let Some(path) = args.first().and_then(|a| site_path(p, is_create, a)) else {
                    continue;
                };
                let trusted = match path.base {
                    IdBase::Var(_) => writers.trustworthy(&path),
                    IdBase::Heap(w) => heaps.contains_key(&w),
                };
                if !trusted {
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
                    let Some(var) = create.path.var() else {
                        continue;
                    };
                    if matches!(
                        p.vars[var].kind,
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
                    // Through a pointer: its one assignment is before both loops (it is on no
                    // cycle, so in neither), and the indexes are not negative.
                    let heap_init = match create.path.base {
                        IdBase::Heap(w) => {
                            if l1.start < 0 {
                                continue;
                            }
                            heaps.get(&w).map(|b| b.0 as usize)
                        }
                        IdBase::Var(_) => None,
                    };
                    if let IdBase::Var(var) = create.path.base {
                        if is_global(p, var) {
                            // A global array: its join loops may be anywhere; the bound must be
                            // the same then as when the threads were created.
                            for jl in &global_join_loops {
                                let same_range = l1.start == jl.l.start
                                    && l1.op == jl.l.op
                                    && l1.bound == jl.l.bound;
                                let fixed = match l1.bound {
                                    LoopBound::Const(_) => Fixed::Proved,
                                    LoopBound::Var(v)
                                        if is_global(p, v)
                                            && global_bound_fixed(p, v, f, &cfg, l1, &assigns) =>
                                    {
                                        Fixed::Proved
                                    }
                                    _ if jl.func == f => {
                                        bound_is_fixed(p, f, l1, &assigns, blocks1, &jl.blocks)
                                    }
                                    _ => Fixed::No,
                                };
                                if jl.path.fields == create.path.fields
                                    && jl.path.base == create.path.base
                                    && same_range
                                    && fixed != Fixed::No
                                {
                                    if fixed == Fixed::IfUnwritten {
                                        plan.bound_checks
                                            .push(bound_check(handle, f, &cfg, l1, &jl.l));
                                    }
                                    plan.join_at_entry
                                        .entry((jl.func, jl.l.exit))
                                        .or_default()
                                        .push(handle);
                                    // The array could be refilled by another run of the creating
                                    // function (in another thread) before the join: only trusted
                                    // when that function runs once.
                                    plan.global.push(handle);
                                    used = true;
                                }
                            }
                            if used {
                                plan.create.insert(create.at, handle);
                                plan.handles += 1;
                            }
                            continue;
                        }
                    }
                    for join in &join_sites {
                        let Some(lj) = join.in_loop else { continue };
                        let (l2, blocks2) = &loops[lj];
                        let same_array = join.path.base == create.path.base
                            && join.path.fields == create.path.fields
                            && heap_init
                                .is_none_or(|b| !blocks1.contains(&b) && !blocks2.contains(&b));
                        let fixed = bound_is_fixed(p, f, l1, &assigns, blocks1, blocks2);
                        let same_range = l1.start == l2.start
                            && l1.op == l2.op
                            && l1.bound == l2.bound
                            && fixed != Fixed::No;
                        let created_count = !same_range
                            && joins_created_count(
                                func, f, &cfg, l1, blocks1, l2, create.at, &assigns, &creates,
                            );
                        if same_array
                            && (same_range || created_count)
                            && join_loop_complete(
                                p, func, f, &cfg, l2, blocks2, join.at.1, &assigns,
                            )
                        {
                            if same_range && fixed == Fixed::IfUnwritten {
                                plan.bound_checks.push(bound_check(handle, f, &cfg, l1, l2));
                            }
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
        failed_creates(f, func, &cfg, &cyclic, &creates, &mut plan);
    }
    plan
}

/// A `pthread_create` that fails starts no thread: on the branch taken when its result is not
/// zero (`if (rc != 0)`, `if (pthread_create(…))`), its thread is ended at once, as by a join.
/// Only for creates outside loops (the item ended would otherwise include earlier iterations'
/// threads), and only when the failure branch is entered from nowhere else.
fn failed_creates(
    f: FuncId,
    func: &Func,
    cfg: &Cfg,
    cyclic: &[bool],
    creates: &FxHashSet<FuncId>,
    plan: &mut JoinPlan,
) {
    for (b, block) in func.blocks.iter_enumerated() {
        if cyclic[b.0 as usize] {
            continue;
        }
        for k in 0..block.stmts.len() {
            let Some((failure, _)) = result_branch(func, b, k, creates) else {
                continue;
            };
            if cfg.preds[failure.0 as usize] != [b.0 as usize] {
                continue;
            }
            let handle = match plan.create.get(&(f, b, k)) {
                Some(&h) => h,
                None => {
                    let h = ThreadHandle(plan.handles);
                    plan.handles += 1;
                    plan.create.insert((f, b, k), h);
                    h
                }
            };
            plan.join_at_entry
                .entry((f, failure))
                .or_default()
                .push(handle);
        }
    }
}

/// When statement `k` of block `b` is a `pthread_create` whose result the block's terminator
/// tests (`rc = pthread_create(…); if (rc != 0)`, also through copies of `rc`): the blocks taken
/// when it fails and when it succeeds.
fn result_branch(
    func: &Func,
    b: BlockId,
    k: usize,
    creates: &FxHashSet<FuncId>,
) -> Option<(BlockId, BlockId)> {
    let plain = |op: &Operand| match strip(op) {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        _ => None,
    };
    let block = &func.blocks[b];
    let Term::Branch {
        cond,
        then_block,
        else_block,
        ..
    } = &block.term
    else {
        return None;
    };
    let tested = plain(cond)?;
    let StmtKind::Call {
        dst: Some(dst),
        callee: Callee::Direct(c),
        ..
    } = &block.stmts[k].kind
    else {
        return None;
    };
    if !creates.contains(c) || !dst.proj.is_empty() {
        return None;
    }
    let Base::Var(result) = dst.base else {
        return None;
    };
    // The variables holding the result at the end of the block.
    let mut names = vec![result];
    for later in &block.stmts[k + 1..] {
        let written = match &later.kind {
            StmtKind::Assign { dst, src } => {
                if let (Base::Var(x), true) = (&dst.base, dst.proj.is_empty()) {
                    let copy = plain(src).is_some_and(|v| names.contains(&v));
                    names.retain(|n| n != x);
                    if copy {
                        names.push(*x);
                    }
                }
                None
            }
            StmtKind::Call { dst: Some(d), .. } => match d.base {
                Base::Var(x) => Some(x),
                Base::Deref(_) => None,
            },
            _ => None,
        };
        if let Some(x) = written {
            names.retain(|n| *n != x);
        }
    }
    names
        .contains(&tested)
        .then_some((*then_block, *else_block))
}

/// Whether a join loop `for (i = S; i < n; i++)` joins every thread a create loop over the same
/// array started, where `n` is the create loop's own counter after that loop: the idiom that
/// stops creating at the first failure (`if (pthread_create(&t[n], …) != 0) break;`) and joins
/// the threads it has. Threads were started at indices `S ..` the counter's final value if the
/// counter changes only by the loop's increment (and its initialisation, before the loop), and
/// the loop is never left early after a create that succeeded: every early exit leaves from code
/// the create's success branch cannot reach within the iteration.
#[allow(clippy::too_many_arguments)]
fn joins_created_count(
    func: &Func,
    f: FuncId,
    cfg: &Cfg,
    l1: &CountedLoop,
    blocks1: &FxHashSet<usize>,
    l2: &CountedLoop,
    create: StmtAt,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    creates: &FxHashSet<FuncId>,
) -> bool {
    if l2.bound != LoopBound::Var(l1.counter) || l2.start != l1.start || l2.op != LoopCmp::Lt {
        return false;
    }
    let head = l1.head.0 as usize;
    let from_head = cfg.reachable(head, |_| false);
    let written_after = assigns
        .get(&l1.counter)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .any(|(g, b, _)| {
            *g != f || (!blocks1.contains(&(b.0 as usize)) && from_head[b.0 as usize])
        });
    if written_after {
        return false;
    }
    let (_, cb, ck) = create;
    let cbu = cb.0 as usize;
    let branch = result_branch(func, cb, ck, creates);
    // The code a successful create reaches before the next test of the loop condition.
    let success = match branch {
        Some((_, ok)) => cfg.reachable(ok.0 as usize, |x| x == head || !blocks1.contains(&x)),
        None => cfg.reachable(cbu, |x| x == head || !blocks1.contains(&x)),
    };
    blocks1.iter().filter(|&&b| b != head).all(|&b| {
        cfg.succs[b].iter().all(|&s| {
            if blocks1.contains(&s) {
                return true;
            }
            match branch {
                // The create's own block may leave only on failure.
                Some((failure, _)) if b == cbu => s == failure.0 as usize,
                _ => !success[b],
            }
        })
    })
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

/// Whether a bound has the same value in both loops: a constant, a parameter never assigned, or
/// a local assigned exactly once outside both loops, neither with its address taken, is proved
/// here; a global, or a member of one, is left to the thread analysis, which sees every write
/// through pointers too.
fn bound_is_fixed(
    p: &Program,
    f: FuncId,
    l: &CountedLoop,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    blocks1: &FxHashSet<usize>,
    blocks2: &FxHashSet<usize>,
) -> Fixed {
    let proved = |b: bool| if b { Fixed::Proved } else { Fixed::No };
    match l.bound {
        LoopBound::Const(_) => Fixed::Proved,
        LoopBound::GlobalField { .. } => Fixed::IfUnwritten,
        LoopBound::Var(v) if is_global(p, v) => Fixed::IfUnwritten,
        LoopBound::Var(v) => {
            let var = &p.vars[v];
            let writes: Vec<&StmtAt> = assigns
                .get(&v)
                .map(|w| w.iter().collect())
                .unwrap_or_default();
            if var.address_taken {
                return Fixed::No;
            }
            if matches!(var.kind, VarKind::Param(g, _) if g == f) {
                return proved(writes.is_empty());
            }
            proved(
                matches!(var.kind, VarKind::Local(g) if g == f)
                    && writes.len() == 1
                    && writes.iter().all(|(g, b, _)| {
                        *g == f
                            && !blocks1.contains(&(b.0 as usize))
                            && !blocks2.contains(&(b.0 as usize))
                    }),
            )
        }
    }
}

/// The condition on the global bound of a create loop `l1` and its join loop `l2` in `f`.
fn bound_check(
    handle: ThreadHandle,
    f: FuncId,
    cfg: &Cfg,
    l1: &CountedLoop,
    l2: &CountedLoop,
) -> BoundCheck {
    let exit = l2.exit.0 as usize;
    let region = cfg
        .reachable(l1.head.0 as usize, |b| b == exit)
        .iter()
        .enumerate()
        .filter(|(_, &r)| r)
        .map(|(b, _)| BlockId(b as u32))
        .collect();
    BoundCheck {
        handle,
        func: f,
        bound: l1.bound,
        region,
    }
}

/// A join loop over a global array, for creates in any function.
struct JoinLoop {
    func: FuncId,
    path: IdPath,
    l: CountedLoop,
    blocks: FxHashSet<usize>,
}

fn is_global(p: &Program, v: VarId) -> bool {
    matches!(
        p.vars[v].kind,
        VarKind::Global {
            thread_local: false,
            ..
        }
    )
}

/// Whether a join loop joins every element: its counter changes only in its increment, the join
/// (in block `join_block`) runs on every iteration, and the loop is left only through its
/// condition (or by ending the program), into an exit block entered from nowhere else.
#[allow(clippy::too_many_arguments)]
fn join_loop_complete(
    p: &Program,
    func: &Func,
    f: FuncId,
    cfg: &Cfg,
    l: &CountedLoop,
    blocks: &FxHashSet<usize>,
    join_block: BlockId,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    loop_is_clean(p, func, f, l, blocks, assigns)
        && cfg.on_every_iteration(l, join_block.0 as usize)
        && cfg.exits_only_at_head(l, blocks)
        && cfg.preds[l.exit.0 as usize] == [l.head.0 as usize]
}

/// Whether a global bound has one value from the create loop on: its address is never taken and
/// it is assigned only in the creating function `f`, before the create loop (in blocks the loop's
/// head cannot reach). `f` itself runs once ([`JoinPlan::global`]).
fn global_bound_fixed(
    p: &Program,
    v: VarId,
    f: FuncId,
    cfg: &Cfg,
    l: &CountedLoop,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    if p.vars[v].address_taken {
        return false;
    }
    let after = cfg.reachable(l.head.0 as usize, |_| false);
    assigns
        .get(&v)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .all(|(g, b, _)| *g == f && !after[b.0 as usize])
}

/// The functions that matter for thread ids in heap blocks.
struct HeapFuncs<'a> {
    creates: &'a FxHashSet<FuncId>,
    allocs: &'a FxHashSet<FuncId>,
    frees: &'a FxHashSet<FuncId>,
}

/// The variables whose pointer value an operand may be: `w` itself, through casts, arithmetic
/// and addresses of what it points to (`&w[k]`), but not values read through it (`w[k]`).
fn pointer_sources(op: &Operand, out: &mut Vec<VarId>) {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v), ..
        }) => out.push(*v),
        Operand::Use(_) | Operand::Const(_) | Operand::Func(_) | Operand::Str(_) => {}
        Operand::AddrOf(lv) => {
            if let Base::Deref(ptr) = &lv.base {
                pointer_sources(ptr, out);
            }
        }
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => pointer_sources(inner, out),
        Operand::Arith(_, ops) => ops.iter().for_each(|o| pointer_sources(o, out)),
    }
}

/// How often variable `v` is named in an operand, anywhere (read, address taken, or inside a
/// dereference or index).
fn op_mentions(op: &Operand, v: VarId) -> usize {
    match op {
        Operand::Use(lv) | Operand::AddrOf(lv) => lval_mentions(lv, v),
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => op_mentions(inner, v),
        Operand::Arith(_, ops) => ops.iter().map(|o| op_mentions(o, v)).sum(),
        Operand::Const(_) | Operand::Func(_) | Operand::Str(_) => 0,
    }
}

fn lval_mentions(lv: &Lval, v: VarId) -> usize {
    let base = match &lv.base {
        Base::Var(x) => usize::from(*x == v),
        Base::Deref(ptr) => op_mentions(ptr, v),
    };
    base + lv
        .proj
        .iter()
        .filter(|p| matches!(p, Proj::Index(Some(x)) if *x == v))
        .count()
}

/// How often variable `v` is named in a function's statements and terminators.
fn func_mentions(func: &Func, v: VarId) -> usize {
    let mut n = 0;
    for block in &func.blocks {
        for stmt in &block.stmts {
            n += match &stmt.kind {
                StmtKind::Assign { dst, src } => lval_mentions(dst, v) + op_mentions(src, v),
                StmtKind::Call { dst, callee, args } => {
                    dst.as_ref().map_or(0, |d| lval_mentions(d, v))
                        + match callee {
                            Callee::Indirect(op) => op_mentions(op, v),
                            Callee::Direct(_) => 0,
                        }
                        + args.iter().map(|a| op_mentions(a, v)).sum::<usize>()
                }
                StmtKind::Eval(op) => op_mentions(op, v),
                StmtKind::Asm { operands } => operands.iter().map(|l| lval_mentions(l, v)).sum(),
            };
        }
        n += match &block.term {
            Term::Branch { cond, .. } => op_mentions(cond, v),
            Term::Return(Some(op), _) => op_mentions(op, v),
            Term::Goto(_) | Term::Multi(_) | Term::Return(None, _) | Term::Exit => 0,
        };
    }
    n
}

/// Whether a call is `malloc` or `calloc` storing its result in plain variable `v`.
fn allocates_into(kind: &StmtKind, v: VarId, allocs: &FxHashSet<FuncId>) -> bool {
    matches!(kind, StmtKind::Call {
        dst: Some(Lval { base: Base::Var(d), proj, .. }),
        callee: Callee::Direct(c),
        ..
    } if *d == v && proj.is_empty() && allocs.contains(c))
}

/// The local pointers of a function through which thread ids in a heap block can be trusted,
/// with the block of their one assignment: a local of `f` whose address is never taken, assigned
/// exactly once, on no cycle, with a fresh `malloc` or `calloc` block (directly or through the
/// lowering's temporary, possibly cast); whose value never leaves the function or is used to
/// write the block (it appears only in branch conditions, in reads of the elements, as
/// `free(w)`, and as the thread id of at most one create, which must have the form `&w[i]` or
/// `w + i`). The block is then reachable only through `w`, and written only by that create.
fn trusted_heaps(
    p: &Program,
    f: FuncId,
    func: &Func,
    cyclic: &[bool],
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    fns: &HeapFuncs<'_>,
) -> FxHashMap<VarId, BlockId> {
    let only_write = |v: VarId| -> Option<(BlockId, usize)> {
        match assigns.get(&v).map(Vec::as_slice) {
            Some(&[(g, b, k)]) if g == f => Some((b, k)),
            _ => None,
        }
    };
    let mut candidates: FxHashMap<VarId, BlockId> = FxHashMap::default();
    for &w in &func.locals {
        let var = &p.vars[w];
        if var.address_taken
            || !matches!(var.kind, VarKind::Local(g) if g == f)
            || !matches!(p.types.get(var.ty), Type::Pointer(_))
        {
            continue;
        }
        let Some((b, k)) = only_write(w) else {
            continue;
        };
        if cyclic[b.0 as usize] {
            continue;
        }
        let fresh = match &func.blocks[b].stmts[k].kind {
            kind @ StmtKind::Call { .. } => allocates_into(kind, w, fns.allocs),
            StmtKind::Assign { dst, src } => {
                matches!(dst.base, Base::Var(d) if d == w)
                    && dst.proj.is_empty()
                    && match strip(src) {
                        Operand::Use(Lval {
                            base: Base::Var(tmp),
                            proj,
                            ..
                        }) if proj.is_empty() => {
                            // The lowering's temporary for the call's result: written only by
                            // the allocation and read only here.
                            let t = &p.vars[*tmp];
                            matches!(t.kind, VarKind::Temp(g) if g == f)
                                && !t.address_taken
                                && only_write(*tmp).is_some_and(|(tb, tk)| {
                                    allocates_into(
                                        &func.blocks[tb].stmts[tk].kind,
                                        *tmp,
                                        fns.allocs,
                                    )
                                })
                                && func_mentions(func, *tmp) == 2
                        }
                        _ => false,
                    }
            }
            _ => false,
        };
        if fresh {
            candidates.insert(w, b);
        }
    }
    if candidates.is_empty() {
        return candidates;
    }

    // Everything through which a candidate's value may leave or write the block.
    let mut escaped: Vec<VarId> = Vec::new();
    let mut created: FxHashMap<VarId, usize> = FxHashMap::default();
    let dst_sources = |dst: &Lval, out: &mut Vec<VarId>| match &dst.base {
        Base::Deref(ptr) => pointer_sources(ptr, out),
        Base::Var(v) => {
            // A plain variable written: the single assignment of a candidate is known; an
            // assignment of a candidate's field does not happen (they are pointers).
            if !dst.proj.is_empty() {
                out.push(*v);
            }
        }
    };
    for block in &func.blocks {
        for stmt in &block.stmts {
            match &stmt.kind {
                StmtKind::Assign { dst, src } => {
                    dst_sources(dst, &mut escaped);
                    pointer_sources(src, &mut escaped);
                }
                StmtKind::Call { dst, callee, args } => {
                    if let Some(d) = dst {
                        dst_sources(d, &mut escaped);
                    }
                    let direct = match callee {
                        Callee::Indirect(op) => {
                            pointer_sources(op, &mut escaped);
                            None
                        }
                        Callee::Direct(c) => Some(*c),
                    };
                    for (n, arg) in args.iter().enumerate() {
                        if n == 0 && direct.is_some_and(|c| fns.creates.contains(&c)) {
                            if let Some(IdPath {
                                base: IdBase::Heap(w),
                                ..
                            }) = site_path(p, true, arg)
                            {
                                *created.entry(w).or_default() += 1;
                                continue;
                            }
                        }
                        if direct.is_some_and(|c| fns.frees.contains(&c)) {
                            if let Operand::Use(Lval {
                                base: Base::Var(_),
                                proj,
                                ..
                            }) = strip(arg)
                            {
                                if proj.is_empty() {
                                    continue;
                                }
                            }
                        }
                        pointer_sources(arg, &mut escaped);
                    }
                }
                // Reads only.
                StmtKind::Eval(_) => {}
                StmtKind::Asm { operands } => {
                    for lv in operands {
                        escaped.extend(
                            candidates
                                .keys()
                                .copied()
                                .filter(|&w| lval_mentions(lv, w) > 0),
                        );
                    }
                }
            }
        }
        if let Term::Return(Some(op), _) = &block.term {
            pointer_sources(op, &mut escaped);
        }
    }
    for w in escaped {
        candidates.remove(&w);
    }
    candidates.retain(|w, _| created.get(w).is_none_or(|&n| n <= 1));
    candidates
}
