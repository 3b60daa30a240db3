//! Registry joins: a program that keeps every thread it starts in a linked list and empties the
//! list by joining (a thread library's `join_all()`, an extension beyond the paper). Where the
//! list is seen empty, every thread started into it has been joined.
//!
//! ```c
//! struct worker { pthread_t tid; struct worker *link; } *roster;   // the list
//! void spawn(…) {
//!     struct worker *w = malloc(sizeof *w);
//!     pthread_create(&w->tid, 0, run, arg);        // a registration: a create into a fresh node,
//!     w->link = roster; roster = w;                // then pushed on every way to a return
//! }
//! int reap_all(void) {
//!     while (roster != NULL) {                     // the test: its null side is a join point
//!         struct worker **at = &roster, *w = *at;  // a cursor, and the node it points to
//!         pthread_join(w->tid, 0);
//!         *at = w->link;                           // an unlink, of a node joined before
//!         free(w);
//!     }
//! }
//! ```
//!
//! Checked on the IR, for a node struct `N` with a thread-id member `id` and a link member
//! `link` (of type `N *`) and a list, a global variable `L` of type `N *`:
//!
//! - Every `pthread_create` into `&x->id` of an `N` is a *registration*: `x` is a local holding
//!   a fresh block (assigned once, from an allocator), the create lies on no cycle, and every
//!   way from it to a return passes a *push* `x->link = L; L = x` (two statements of one block,
//!   nothing between them writing the list), with no assignment of `x`, no write of the list
//!   and no call that may reach a test of the list on the way.
//! - The list is written only by those pushes, by *unlinks* of a node `w` — `L = w->link` after
//!   `w = L`, `q->link = w->link` after `w = q->link`, or `*c = w->link` after `w = *c` through
//!   a cursor `c` — each made after a `pthread_join(w->id, …)` on every way there (or a join
//!   of `v->id` for a local `v` that `w` was then found equal to, yarn's `join(ally)`, which
//!   joins first and looks the node up after), with the variable joined unchanged since, and
//!   nothing writing the list between the load and the unlink; by *moves* (below); and by
//!   initializers storing null. A way on which `w` was found null reaches no unlink (`w->link`
//!   would fault), nor does one through a call of a function that never returns. A cursor is
//!   a local of type `N **` assigned only `&L` or `&e->link`, and used only through `*c`; those
//!   addresses are taken for cursors only.
//! - Nothing else writes a node's `id` or `link`, or a whole node; no function of the library
//!   but `free` is handed a pointer to a node.
//!
//! Then a node leaves the list only after its thread was joined, and every registered thread's
//! node is in the list from its push until then. The thread analysis also requires every
//! function that registers, pushes, unlinks or tests to run in no thread
//! (`ThreadProgram::registries`): all the list's writes are then made by one thread, in order,
//! and a test that sees `L` null, in that thread, comes after every registration so far, each
//! pushed and each unlinked after its join. So on entry to the null side of a test of `L` (a
//! block entered only from it), every registered thread is joined, however many there were: a
//! join of the registry's handle, whose joins end all its threads wherever they happen.
//!
//! **Moves.** A thread library's threads may reorder the list themselves: yarn's `reenter`
//! moves a finished thread's node to the head, `*c = w->link; w->link = L; L = w;` (three
//! statements of one block, after `w = *c` as for an unlink). A move leaves the list's nodes as
//! they were, but while it runs the list may be seen without `w`, or empty. So a registry with
//! moves also needs a mutex `M` ([`crate::analyses::held`], through lock wrappers such as
//! `possess(&threads_lock)`) held at every push, unlink and move, and on every way from the load
//! of each unlinked or moved node to its write, with no call between that may let go of it
//! (a condition wait included); and only the tests made holding `M` are join points. Then no
//! test or write that holds `M` sees a move half done, and the functions that only move may run
//! in any thread.
//!
//! Knowingly unsound: a node written through a pointer of another type (`void *v = n;
//! memset(v, 0, …)`) is not seen, as for the thread ids of [`super::pools`]; and a
//! `pthread_join` that fails (of an invalid or detached thread, a program error) is taken as
//! a join.

use rustc_hash::{FxHashMap, FxHashSet};

use std::collections::BTreeSet;

use super::cfg::{on_any_cycle, Cfg};
#[cfg(doc)]
use super::failed;
use super::{fresh_block, Planner, StmtAt, ThreadCalls};
use crate::analyses::calls::Calls;
use crate::analyses::held::{Held, Named, Wrappers};
use crate::analyses::never_returns::ends_path;
use crate::ir::ctypes::{StructId, Type};
use crate::ir::visit::{walk_func, Mentions};
use crate::ir::{
    Base, BlockId, Callee, Comparison, FuncId, Lval, Operand, Origin, Program, Proj, StmtKind,
    Term, VarId, VarKind,
};
use solver::threads::ThreadHandle;

/// A list of every thread started into its nodes, found to be joined where it is seen empty.
#[derive(Clone, Debug)]
pub(super) struct Registry {
    /// The registrations' creates.
    pub(super) creates: Vec<StmtAt>,
    /// The null sides of the tests of the list: on entry to each, every registered thread is
    /// joined.
    pub(super) joined: Vec<(FuncId, BlockId)>,
    /// The functions that register, push, unlink or test, sorted: each must run in no thread.
    pub(super) functions: Vec<FuncId>,
}

impl Planner<'_> {
    /// The registries of the program into the plan: a handle for each create (the one a
    /// create wrapper's create already has, which names no join of its own), joined on entry
    /// to the null side of each test of the list. A create's handle whose only joins are on
    /// its failure branch ([`failed`]) becomes the registry's, without them: a registry's
    /// joins end all its threads, and such a branch (which must push the node, or end the
    /// program) ends none of the others. A registry one of whose creates has a handle joined
    /// otherwise is left out.
    pub(super) fn registries(&mut self) {
        for registry in find(self.p, self.index, &self.calls) {
            let own: Vec<Option<ThreadHandle>> = (registry.creates.iter())
                .map(|at| self.plan.create.get(at).copied())
                .collect();
            let joined_otherwise = |h: &ThreadHandle| {
                !self.plan.wrapped.contains(h) && self.plan.join_after.values().any(|j| j == h)
            };
            if own.iter().flatten().any(joined_otherwise) {
                continue;
            }
            let mut handles = Vec::new();
            for (&at, own) in registry.creates.iter().zip(own) {
                let h = match own {
                    Some(h) if self.plan.wrapped.contains(&h) => h,
                    Some(h) => {
                        for joined in self.plan.join_at_entry.values_mut() {
                            joined.retain(|&j| j != h);
                        }
                        h
                    }
                    None => {
                        let h = ThreadHandle(self.plan.handles);
                        self.plan.handles += 1;
                        self.plan.create.insert(at, h);
                        h
                    }
                };
                handles.push(h);
            }
            self.plan
                .join_at_entry
                .retain(|_, joined| !joined.is_empty());
            handles.sort();
            handles.dedup();
            for &at in &registry.joined {
                self.plan
                    .join_at_entry
                    .entry(at)
                    .or_default()
                    .extend(handles.iter().copied());
            }
            self.plan.registries.push((handles, registry.functions));
        }
    }
}

/// A node struct and its members: the thread id and the link.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    strukt: StructId,
    id: u32,
    link: u32,
}

/// The registries of the program.
pub(super) fn find(p: &Program, index: &Calls, calls: &ThreadCalls) -> Vec<Registry> {
    let mut creates: FxHashMap<(StructId, u32), Vec<(StmtAt, VarId)>> = FxHashMap::default();
    for site in index.sites_calling_any(calls.library_creates.iter().copied()) {
        if let Some((x, strukt, id)) = node_create(calls, Calls::stmt(p, &site)) {
            creates
                .entry((strukt, id))
                .or_default()
                .push(((site.caller, site.block, site.stmt), x));
        }
    }
    let mut keys: Vec<(StructId, u32)> = creates.keys().copied().collect();
    keys.sort();
    keys.into_iter()
        .filter_map(|key| registry(p, calls, index, key, &creates[&key]))
        .collect()
}

/// A library create into `&x->id`, `x` a local pointer to a struct: `x`, the struct and `id`.
fn node_create(calls: &ThreadCalls, kind: &StmtKind) -> Option<(VarId, StructId, u32)> {
    let StmtKind::Call {
        callee: Callee::Direct(g),
        args,
        ..
    } = kind
    else {
        return None;
    };
    if !calls.library_creates.contains(g) {
        return None;
    }
    let arg = args.get(calls.id_arg(*g, true)?)?;
    let Operand::AddrOf(lv) = arg.without_casts() else {
        return None;
    };
    let (x, strukt, id) = member_of_local(lv)?;
    Some((x, strukt, id))
}

/// `x->m` for a plain variable `x`: the variable, the struct and the member.
fn member_of_local(lv: &Lval) -> Option<(VarId, StructId, u32)> {
    let Base::Deref(op) = &lv.base else {
        return None;
    };
    let Operand::Use(base) = op.without_casts() else {
        return None;
    };
    match lv.proj.as_slice() {
        [Proj::Field { strukt, index }] => Some((base.plain_var()?, *strukt, *index)),
        _ => None,
    }
}

/// Whether `lv` is the member `member` of some `strukt` object.
fn is_member(lv: &Lval, strukt: StructId, member: u32) -> bool {
    matches!(lv.proj.last(), Some(Proj::Field { strukt: s, index }) if *s == strukt && *index == member)
}

/// The registry of node struct `strukt` with thread id `id`, if every create into it is a
/// registration and the list is written only as the module says.
fn registry(
    p: &Program,
    calls: &ThreadCalls,
    graph: &Calls,
    (strukt, id): (StructId, u32),
    creates: &[(StmtAt, VarId)],
) -> Option<Registry> {
    let &((f0, b0, k0), x0) = creates.first()?;
    // The list and link the first registration pushes onto: every other must push there too.
    let (_, (list, link)) = registration(p, (f0, b0, k0), x0, None, &FxHashSet::default())?;
    let node = Node { strukt, id, link };
    if !is_list(p, list, strukt) {
        return None;
    }
    let tests = null_tests(p, list);
    let testers: FxHashSet<FuncId> = tests.iter().map(|&(f, _, _)| f).collect();
    let reaching_tests = graph.may_write(&testers);
    let mut functions: Vec<FuncId> = testers.iter().copied().collect();
    let mut pushes: FxHashSet<StmtAt> = FxHashSet::default();
    for &((f, b, k), x) in creates {
        let push = registration(p, (f, b, k), x, Some((list, node)), &reaching_tests);
        let (push, onto) = push?;
        if onto != (list, link) {
            return None;
        }
        pushes.extend(push);
        functions.push(f);
    }
    let cursors = cursors(p, list, node);
    let cursors = cursors?;
    if !node_untouched(p, calls, node, creates) {
        return None;
    }
    let mut writers: FxHashSet<FuncId> = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if (func.blocks.iter().flat_map(|b| &b.stmts)).any(|s| writes_list(p, &s.kind, list, node))
        {
            writers.insert(f);
        }
    }
    let moves = moves(p, list, node);
    let never = crate::analyses::never_returns::never_returning(p, graph);
    let writes = ListWrites {
        p,
        list,
        node,
        pushes: &pushes,
        cursors: &cursors,
        moves: &moves,
        writing: graph.may_write(&writers),
        never: &never,
    };
    let checked = writes.check()?;
    functions.extend(checked.writers);
    let tests = if checked.movers.is_empty() {
        tests
    } else {
        // Threads reorder the list: only a test made holding the mutex that every write
        // holds sees it whole.
        Discipline::tests(p, graph, never, &checked.windows, tests)?
    };
    let mut joined = Vec::new();
    for (f, b, null) in tests {
        // The null side must be entered only from the test.
        let preds = p.funcs[f]
            .blocks
            .iter_enumerated()
            .filter(|(_, bl)| bl.term.successors().contains(&null));
        if preds.map(|(pb, _)| pb).collect::<Vec<_>>() == [b] {
            joined.push((f, null));
        }
    }
    functions.sort();
    functions.dedup();
    joined.sort();
    Some(Registry {
        creates: creates.iter().map(|&(at, _)| at).collect(),
        joined,
        functions,
    })
}

/// The push of `x` whose second statement (`L = x`) is statement `j`: the list and the link.
fn push_at(p: &Program, f: FuncId, b: BlockId, j: usize, x: VarId) -> Option<(VarId, u32)> {
    let stmts = &p.funcs[f].blocks[b].stmts;
    let StmtKind::Assign { dst, src } = &stmts[j].kind else {
        return None;
    };
    let list = dst.plain_var()?;
    if value_var(src) != Some(x) || j == 0 {
        return None;
    }
    let StmtKind::Assign { dst: d, src: s } = &stmts[j - 1].kind else {
        return None;
    };
    let (y, _, link) = member_of_local(d)?;
    (y == x && value_var(s) == Some(list)).then_some((list, link))
}

/// The variable whose value `op` is, itself (through conversions).
fn value_var(op: &Operand) -> Option<VarId> {
    match op.without_casts() {
        Operand::Use(lv) => lv.plain_var(),
        _ => None,
    }
}

/// Whether `v` may be a list of `strukt` nodes: a global, not thread-local, pointer to it.
fn is_list(p: &Program, v: VarId, strukt: StructId) -> bool {
    let var = &p.vars[v];
    matches!(
        var.kind,
        VarKind::Global {
            thread_local: false,
            ..
        }
    ) && matches!(p.types.get(var.ty), Type::Pointer(t) if matches!(p.types.get(*t), Type::Struct(s) if *s == strukt))
}

/// The tests of `list` against null in the program: function, block, null side.
fn null_tests(p: &Program, list: VarId) -> Vec<(FuncId, BlockId, BlockId)> {
    let mut out = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            if let Some(null) = crate::analyses::singletons::null_side(&block.term, list) {
                out.push((f, b, null));
            }
        }
    }
    out
}

/// The pushes of the create at `at` into `x->id`, and the list and link they push onto, if it
/// is a registration: `x` fresh, the create on no cycle, and every way from it to a return
/// passing a push of `x` (onto one list), with `x` unchanged, nothing writing the list and no
/// call reaching a test of it (one of `reaching_tests`) on the way. Without the list and its
/// node (`known`), only the first push is looked for.
fn registration(
    p: &Program,
    (f, b, k): StmtAt,
    x: VarId,
    known: Option<(VarId, Node)>,
    reaching_tests: &FxHashSet<FuncId>,
) -> Option<(Vec<StmtAt>, (VarId, u32))> {
    let func = &p.funcs[f];
    let cfg = Cfg::new(func);
    if !fresh_block(p, f, func, x) || on_any_cycle(&cfg, b.0 as usize) {
        return None;
    }
    let mut pushes = Vec::new();
    let mut onto: Option<(VarId, u32)> = None;
    // A forward walk over statements from just after the create, stopping at a push.
    let mut seen: FxHashSet<BlockId> = FxHashSet::default();
    let mut stack: Vec<(BlockId, usize)> = vec![(b, k + 1)];
    while let Some((bb, from)) = stack.pop() {
        let stmts = &func.blocks[bb].stmts;
        let mut pushed = false;
        for j in from..stmts.len() {
            if let Some(found) = push_at(p, f, bb, j, x) {
                if onto.is_some_and(|o| o != found) {
                    return None;
                }
                onto = Some(found);
                pushes.push((f, bb, j));
                pushed = true;
                break;
            }
            let kind = &stmts[j].kind;
            let reaches_test = match kind {
                StmtKind::Call { callee, .. } => {
                    !matches!(callee, Callee::Direct(g) if !reaching_tests.contains(g))
                }
                _ => false,
            };
            let is_push_link = j + 1 < stmts.len() && push_at(p, f, bb, j + 1, x).is_some();
            let writes = known.is_some_and(|(list, n)| writes_list(p, kind, list, n));
            if reaches_test || assigns(kind, x) || (writes && !is_push_link) {
                return None;
            }
        }
        if pushed {
            if known.is_none() {
                break;
            }
            continue;
        }
        match &func.blocks[bb].term {
            Term::Return(..) => return None,
            term => {
                for s in term.successors() {
                    if seen.insert(s) {
                        stack.push((s, 0));
                    }
                }
            }
        }
    }
    Some((pushes, onto?))
}

/// Whether a statement assigns variable `v` by name.
fn assigns(kind: &StmtKind, v: VarId) -> bool {
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
            matches!(dst.base, Base::Var(d) if d == v)
        }
        StmtKind::Asm { operands } => operands
            .iter()
            .any(|lv| matches!(lv.base, Base::Var(d) if d == v)),
        _ => false,
    }
}

/// Whether a statement may write the list: `list` itself, a link member, a whole node, or a
/// node pointer through a pointer (a cursor).
fn writes_list(p: &Program, kind: &StmtKind, list: VarId, node: Node) -> bool {
    let dst = match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => dst,
        StmtKind::Asm { .. } => return true,
        _ => return false,
    };
    let ty = p.lval_type(dst);
    matches!(dst.base, Base::Var(v) if v == list)
        || is_member(dst, node.strukt, node.link)
        || is_node(p, ty, node.strukt)
        || (matches!(dst.base, Base::Deref(_)) && points_to_node(p, ty, node.strukt))
}

/// Whether type `ty` is the node struct.
fn is_node(p: &Program, ty: crate::ir::ctypes::TypeId, strukt: StructId) -> bool {
    matches!(p.types.get(ty), Type::Struct(s) if *s == strukt)
}

/// Whether type `ty` is a pointer to the node struct.
fn points_to_node(p: &Program, ty: crate::ir::ctypes::TypeId, strukt: StructId) -> bool {
    matches!(p.types.get(ty), Type::Pointer(t) if is_node(p, *t, strukt))
}

/// The loads an unlink of node `w` must follow: where the link it overwrites pointed to `w`.
enum Load {
    /// `w = L`, for `L = w->link`.
    Head,
    /// `w = q->link`, for `q->link = w->link`.
    Member(VarId),
    /// `w = *c`, for `*c = w->link`.
    Cursor(VarId),
}

/// What every write of the list is checked against.
struct ListWrites<'a> {
    p: &'a Program,
    list: VarId,
    node: Node,
    /// The pushes of the registrations: the statement storing the node into the list.
    pushes: &'a FxHashSet<StmtAt>,
    /// The cursors: locals of type `N **` used only as the module says.
    cursors: &'a FxHashSet<VarId>,
    /// The statements of the moves ([`moves`]), each with the move's first statement.
    moves: &'a FxHashMap<StmtAt, StmtAt>,
    /// The functions a call of which may write the list.
    writing: FxHashSet<FuncId>,
    /// The functions that never return: a way through a call of one reaches no write.
    never: &'a FxHashSet<FuncId>,
}

/// What [`ListWrites::check`] found: the functions whose writes are pushes and unlinks (which
/// must run in no thread), those that only move nodes, and the stretch of each unlink and move
/// from the load of its node on.
struct Checked {
    writers: Vec<FuncId>,
    movers: Vec<FuncId>,
    windows: Vec<Window>,
}

/// A write of the list: the statement, and for an unlink or a move, the node it unlinks,
/// loaded on every way to it (a push's two statements are adjacent).
#[derive(Clone, Debug)]
struct Window {
    at: StmtAt,
    node: Option<VarId>,
}

impl ListWrites<'_> {
    /// The functions that write the list, if every write is a push, an unlink after a join, a
    /// move, or an initializer's null.
    fn check(&self) -> Option<Checked> {
        let p = self.p;
        let mut out = Checked {
            writers: Vec::new(),
            movers: Vec::new(),
            windows: Vec::new(),
        };
        for (f, func) in p.funcs.iter_enumerated() {
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    if !writes_list(p, &stmt.kind, self.list, self.node) {
                        continue;
                    }
                    let StmtKind::Assign { dst, src } = &stmt.kind else {
                        return None;
                    };
                    if f == p.global_init {
                        if dst.plain_var() == Some(self.list) && src.constant() == Some(0) {
                            continue;
                        }
                        return None;
                    }
                    if let Some(&first) = self.moves.get(&(f, b, k)) {
                        if first == (f, b, k) {
                            let (w, load) = self.unlink(dst, src)?;
                            if !self.loaded(f, (b, k), w, &load) {
                                return None;
                            }
                            out.windows.push(Window {
                                at: first,
                                node: Some(w),
                            });
                        }
                        out.movers.push(f);
                        continue;
                    }
                    out.windows.push(self.allowed((f, b, k), dst, src)?);
                    out.writers.push(f);
                }
            }
        }
        Some(out)
    }

    /// The node an unlink `dst = w->link` unlinks and the load that must come before it.
    fn unlink(&self, dst: &Lval, src: &Operand) -> Option<(VarId, Load)> {
        let node = self.node;
        let Operand::Use(from) = src.without_casts() else {
            return None;
        };
        let (w, strukt, link) = member_of_local(from)?;
        if (strukt, link) != (node.strukt, node.link) {
            return None;
        }
        let load = if dst.plain_var() == Some(self.list) {
            Load::Head
        } else if let Some((q, s, l)) = member_of_local(dst) {
            if (s, l) != (node.strukt, node.link) {
                return None;
            }
            Load::Member(q)
        } else {
            match (&dst.base, dst.proj.is_empty()) {
                (Base::Deref(c), true) => match value_var(c) {
                    Some(c) if self.cursors.contains(&c) => Load::Cursor(c),
                    _ => return None,
                },
                _ => return None,
            }
        };
        Some((w, load))
    }

    /// The write `dst = src` at `at` of `f` as a window, if it is a push or an unlink after a
    /// join.
    fn allowed(&self, (f, b, k): StmtAt, dst: &Lval, src: &Operand) -> Option<Window> {
        let (list, node) = (self.list, self.node);
        let at = (f, b, k);
        let push = (dst.plain_var() == Some(list) && self.pushes.contains(&at))
            || (is_member(dst, node.strukt, node.link) && self.pushes.contains(&(f, b, k + 1)));
        if push {
            return Some(Window { at, node: None });
        }
        let (w, load) = self.unlink(dst, src)?;
        (self.loaded(f, (b, k), w, &load) && self.joined(f, (b, k), w))
            .then_some(Window { at, node: Some(w) })
    }

    /// Whether every way to the unlink at `at` loads `w` as `load` says, with nothing writing
    /// `w`, the variable loaded through, or the list since.
    fn loaded(&self, f: FuncId, at: (BlockId, usize), w: VarId, load: &Load) -> bool {
        let p = self.p;
        let func = &p.funcs[f];
        let through = match load {
            Load::Head => None,
            Load::Member(v) | Load::Cursor(v) => Some(*v),
        };
        Cfg::new(func).passes_before(func, at, |bb, kk| {
            let kind = &func.blocks[bb].stmts[kk].kind;
            if ends_path(kind, self.never) {
                return Some(true);
            }
            if let StmtKind::Assign { dst, src } = kind {
                if dst.plain_var() == Some(w) {
                    return Some(self.is_load(src, load));
                }
            }
            let calls_writer = matches!(kind, StmtKind::Call { callee, .. }
                if !matches!(callee, Callee::Direct(g) if !self.writing.contains(g)));
            let disturbs = assigns(kind, w)
                || through.is_some_and(|v| assigns(kind, v))
                || writes_list(p, kind, self.list, self.node)
                || calls_writer;
            disturbs.then_some(false)
        })
    }

    /// Whether `src` is the load `load`.
    fn is_load(&self, src: &Operand, load: &Load) -> bool {
        let Operand::Use(lv) = src.without_casts() else {
            return false;
        };
        match load {
            Load::Head => lv.plain_var() == Some(self.list),
            Load::Member(q) => member_of_local(lv) == Some((*q, self.node.strukt, self.node.link)),
            Load::Cursor(c) => {
                lv.proj.is_empty()
                    && matches!(&lv.base, Base::Deref(op) if value_var(op) == Some(*c))
            }
        }
    }

    /// Whether every way to `at` joins `w->id` with `w` unchanged since, or joins `v->id` for a
    /// local `v` that `w` was then found equal to (`if (w == v)`, its equal side: yarn's
    /// `join(ally)` looks its node up in the list after the join) with `v` unchanged since. A
    /// way on which `w` was found null reaches no unlink of it (`w->link` would fault there).
    fn joined(&self, f: FuncId, (b, k): (BlockId, usize), w: VarId) -> bool {
        let p = self.p;
        let func = &p.funcs[f];
        let cfg = Cfg::new(func);
        let mut seen: FxHashSet<(BlockId, VarId)> = FxHashSet::default();
        let mut stack = vec![(b, k, w)];
        while let Some((bb, end, v)) = stack.pop() {
            let stmts = &func.blocks[bb].stmts[..end];
            match stmts.iter().rev().find_map(|s| self.marks(&s.kind, v)) {
                Some(true) => continue,
                Some(false) => return false,
                None if bb == BlockId(0) => return false,
                None => {}
            }
            for &pred in &cfg.preds[bb.0 as usize] {
                let pred = BlockId(pred as u32);
                let term = &func.blocks[pred].term;
                if crate::analyses::singletons::null_side(term, v) == Some(bb) {
                    continue;
                }
                let v = match equal_side(term, v) {
                    Some((side, other)) if side == bb => other,
                    _ => v,
                };
                if seen.insert((pred, v)) {
                    stack.push((pred, func.blocks[pred].stmts.len(), v));
                }
            }
        }
        true
    }

    /// `Some(true)` for a join of `v->id`, `Some(false)` for an assignment of `v`.
    fn marks(&self, kind: &StmtKind, v: VarId) -> Option<bool> {
        let node = self.node;
        if let StmtKind::Call {
            callee: Callee::Direct(g),
            args,
            ..
        } = kind
        {
            if let Some(crate::model::Kind::Join { id, .. }) = self.p.known_kind(*g) {
                let joins_v = args
                    .get(usize::from(id))
                    .is_some_and(|a| match a.without_casts() {
                        Operand::Use(lv) => member_of_local(lv) == Some((v, node.strukt, node.id)),
                        _ => false,
                    });
                if joins_v {
                    return Some(true);
                }
            }
        }
        assigns(kind, v).then_some(false)
    }
}

/// The side of a branch on which `v` equals another plain variable (`v == u` or `u == v`,
/// through conversions), with that variable.
fn equal_side(term: &Term, v: VarId) -> Option<(BlockId, VarId)> {
    let Term::Branch {
        cond: Operand::Arith(_, _, ops),
        then_block,
        else_block,
        compare: Some(op @ (Comparison::Eq | Comparison::Ne)),
        ..
    } = term
    else {
        return None;
    };
    if then_block == else_block || ops.len() != 2 {
        return None;
    }
    let (a, b) = (value_var(&ops[0])?, value_var(&ops[1])?);
    let other = match (a == v, b == v) {
        (true, false) => b,
        (false, true) => a,
        _ => return None,
    };
    Some((
        if *op == Comparison::Eq {
            *then_block
        } else {
            *else_block
        },
        other,
    ))
}

/// The *moves* of the program: a node unlinked and pushed back at the head at once, three
/// statements of one block (`*c = w->link; w->link = L; L = w;`, or with `L` or `q->link` as
/// the link unlinked from), which leave the list's nodes as they were (yarn's `reenter`
/// moving a finished thread to the head). Each of the three statements, with the first.
fn moves(p: &Program, list: VarId, node: Node) -> FxHashMap<StmtAt, StmtAt> {
    let mut out = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            let stmts = &block.stmts;
            for (k, stmt) in stmts.iter().enumerate().take(stmts.len().saturating_sub(2)) {
                let StmtKind::Assign { src, .. } = &stmt.kind else {
                    continue;
                };
                let Operand::Use(from) = src.without_casts() else {
                    continue;
                };
                let Some((w, strukt, link)) = member_of_local(from) else {
                    continue;
                };
                if (strukt, link) != (node.strukt, node.link)
                    || !writes_list(p, &stmt.kind, list, node)
                    || push_at(p, f, b, k + 2, w) != Some((list, link))
                {
                    continue;
                }
                for j in k..k + 3 {
                    out.insert((f, b, j), (f, b, k));
                }
            }
        }
    }
    out
}

/// The mutex every write of a list that threads reorder is made under: held at each write, and
/// from the load of each unlinked or moved node to its unlink or move, with nothing on the way
/// that may let go of it (a wait for a condition included). Then a move, made in one piece
/// under it, is never seen half done by a write or a test that holds it.
struct Discipline<'p> {
    p: &'p Program,
    wrappers: Wrappers,
    /// The mutexes each function asked about holds, through lock wrappers.
    helds: FxHashMap<FuncId, Held>,
}

impl<'p> Discipline<'p> {
    /// The tests of `tests` made holding the one mutex every write of `windows` holds as said
    /// above; `None` when no mutex is.
    fn tests(
        p: &'p Program,
        graph: &Calls,
        never: FxHashSet<FuncId>,
        windows: &[Window],
        tests: Vec<(FuncId, BlockId, BlockId)>,
    ) -> Option<Vec<(FuncId, BlockId, BlockId)>> {
        let mut d = Discipline {
            p,
            wrappers: Wrappers::of(p, graph, never),
            helds: FxHashMap::default(),
        };
        let mut candidates: Option<BTreeSet<Named>> = None;
        for window in windows {
            let mut here = d.held_before(window.at);
            here.retain(|n| matches!(n, Named::Var(_)));
            match &mut candidates {
                Some(c) => c.retain(|n| here.contains(n)),
                None => candidates = Some(here),
            }
        }
        let lock = candidates?.into_iter().find(|lock| {
            windows.iter().all(|w| match w.node {
                None => true,
                Some(v) => d.held_since_load(w.at, v, lock),
            })
        })?;
        let held_at_test = |d: &mut Discipline, (f, b): (FuncId, BlockId)| {
            let at = (f, b, p.funcs[f].blocks[b].stmts.len());
            d.held_before(at).contains(&lock)
        };
        Some(
            tests
                .into_iter()
                .filter(|&(f, b, _)| held_at_test(&mut d, (f, b)))
                .collect(),
        )
    }

    fn held(&mut self, f: FuncId) -> &Held {
        let (p, wrappers) = (self.p, &self.wrappers);
        self.helds
            .entry(f)
            .or_insert_with(|| Held::with_wrappers(p, &p.funcs[f], wrappers))
    }

    /// The mutexes certainly held before statement `k` of block `b` of `f`.
    fn held_before(&mut self, (f, b, k): StmtAt) -> BTreeSet<Named> {
        let p = self.p;
        self.held(f);
        let held = &self.helds[&f];
        (held.named_before(p, &p.funcs[f], b, k, Some(&self.wrappers))).unwrap_or_default()
    }

    /// Whether on every way to the write at `at`, `lock` is held at the load of node `w` and
    /// nothing between lets go of it.
    fn held_since_load(&mut self, (f, b, k): StmtAt, w: VarId, lock: &Named) -> bool {
        let p = self.p;
        let func = &p.funcs[f];
        self.held(f);
        let (held, wrappers) = (&self.helds[&f], &self.wrappers);
        Cfg::new(func).passes_before(func, (b, k), |bb, kk| {
            let kind = &func.blocks[bb].stmts[kk].kind;
            if wrappers.never_returns(kind) {
                return Some(true);
            }
            // The first assignment of `w` on the way back is its load ([`ListWrites::loaded`]).
            if assigns(kind, w) {
                let at_load = held.named_before(p, func, bb, kk, Some(wrappers));
                return Some(at_load.is_some_and(|h| h.contains(lock)));
            }
            held.may_let_go(p, wrappers, kind, lock).then_some(false)
        })
    }
}

/// The locals of type `N **` that hold the address of the list or of a link member: each
/// assigned only such addresses and otherwise only dereferenced. `None` when such an address
/// is taken for anything else, or such a local is used otherwise.
fn cursors(p: &Program, list: VarId, node: Node) -> Option<FxHashSet<VarId>> {
    let mut out: FxHashSet<VarId> = FxHashSet::default();
    let mut addresses = AddressesOf {
        list,
        node,
        count: 0,
    };
    let mut assigned = 0;
    for (f, func) in p.funcs.iter_enumerated() {
        walk_func(&mut addresses, func);
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let StmtKind::Assign { dst, src } = &stmt.kind else {
                continue;
            };
            let Operand::AddrOf(lv) = src.without_casts() else {
                continue;
            };
            if lv.plain_var() != Some(list) && !is_member(lv, node.strukt, node.link) {
                continue;
            }
            let c = dst.plain_var()?;
            let var = &p.vars[c];
            if var.address_taken
                || !matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f)
            {
                return None;
            }
            out.insert(c);
            assigned += 1;
        }
    }
    if addresses.count != assigned {
        return None;
    }
    for &c in &out {
        let (VarKind::Local(f) | VarKind::Temp(f)) = p.vars[c].kind else {
            return None;
        };
        let func = &p.funcs[f];
        let mut all = Mentions::of(c);
        walk_func(&mut all, func);
        let mut derefs = DerefsOf { var: c, count: 0 };
        walk_func(&mut derefs, func);
        let stores = func
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .filter(|s| {
                matches!(&s.kind, StmtKind::Assign { dst, src }
                if dst.plain_var() == Some(c) && matches!(src.without_casts(), Operand::AddrOf(_)))
            })
            .count();
        if all.count != derefs.count + stores {
            return None;
        }
    }
    Some(out)
}

/// How often a walk takes the address of the list or of a link member.
struct AddressesOf {
    list: VarId,
    node: Node,
    count: usize,
}

impl crate::ir::visit::Visitor for AddressesOf {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::AddrOf(lv) = op {
            if lv.plain_var() == Some(self.list) || is_member(lv, self.node.strukt, self.node.link)
            {
                self.count += 1;
            }
        }
        crate::ir::visit::walk_operand(self, op);
    }
}

/// How often a walk dereferences a variable's value (`*c`, `c->m`).
struct DerefsOf {
    var: VarId,
    count: usize,
}

impl crate::ir::visit::Visitor for DerefsOf {
    fn visit_lval(&mut self, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            if value_var(op) == Some(self.var) {
                self.count += 1;
            }
        }
        crate::ir::visit::walk_lval(self, lv);
    }
}

/// Whether nothing but the registrations' creates writes a node's thread id, no statement
/// writes a whole node, and no library function but `free` is handed a pointer to a node or
/// to a node pointer.
fn node_untouched(
    p: &Program,
    calls: &ThreadCalls,
    node: Node,
    creates: &[(StmtAt, VarId)],
) -> bool {
    let mut ids = IdAddresses { node, count: 0 };
    for func in p.funcs.iter() {
        walk_func(&mut ids, func);
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            match &stmt.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                    if is_member(dst, node.strukt, node.id)
                        || is_node(p, p.lval_type(dst), node.strukt) =>
                {
                    return false;
                }
                StmtKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } => {
                    let user = p.funcs[*g].defined && p.funcs[*g].origin == Origin::User;
                    let handed = args.iter().any(|a| {
                        let ty = p.operand_type(a.without_casts());
                        points_to_node(p, ty, node.strukt)
                            || matches!(p.types.get(ty), Type::Pointer(t) if points_to_node(p, *t, node.strukt))
                    });
                    if handed && !user && !calls.frees.contains(g) {
                        return false;
                    }
                }
                _ => {}
            }
        }
    }
    ids.count == creates.len()
}

/// How often a walk takes the address of a node's thread id.
struct IdAddresses {
    node: Node,
    count: usize,
}

impl crate::ir::visit::Visitor for IdAddresses {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::AddrOf(lv) = op {
            if is_member(lv, self.node.strukt, self.node.id) {
                self.count += 1;
            }
        }
        crate::ir::visit::walk_operand(self, op);
    }
}
