//! Thread pools kept in an object: a *pool create wrapper* starts its workers by a create loop
//! into a block a member of a fresh object points to, keeps their number in another member, and
//! returns the object; a *pool join wrapper* joins them by a join loop bounded by that member.
//!
//! ```c
//! struct pool *pool_create(int n) {               void pool_destroy(struct pool *q) {
//!     struct pool *p = malloc(sizeof *p);             for (int j = 0; j < q->n; j++)
//!     p->n = n;                                           pthread_join(q->threads[j], 0);
//!     p->threads = malloc(n * sizeof(pthread_t));     …
//!     for (int i = 0; i < n; i++)                 }
//!         pthread_create(&p->threads[i], 0, work, p);
//!     return p;
//! }
//! ```
//!
//! The caller's `p = pool_create(…)` is then a create of the pool's threads and `pool_destroy(p)`
//! a join of all of them, matched as the calls of handle wrappers are ([`super::wrappers`]): in
//! one function, where the same assignment of `p` reaches the join. A pool `main` owns is filled
//! by an *init wrapper* of the same shape given its address (`pool_init(&pool, n)`), called once
//! in the whole program, by `main` on no cycle, and joined by `main`'s calls of a join wrapper
//! on the same variable ([`InitPool`]). Here `main` may be any function that runs once
//! ([`crate::analyses::once`]). Writes by a global's initializer, which runs before
//! `main`, do not count in what follows.
//!
//! Why the join loop joins every thread the create loop started:
//!
//! - The *ids member* (`threads`) is written once in the whole program: by the create wrapper,
//!   before its create loop, with a block fresh from an allocator that nothing else names. Every
//!   other use of it reads it to read an element (a join's id), to free the block, or in a branch
//!   condition; the wrapper's create is the one place that takes an element's address. So the
//!   create is the only writer of the elements. When each element is a struct holding its thread
//!   id in a field (`pthread_create(&p->workers[i].tid, …, &p->workers[i])`), the block may be
//!   used freely instead, as long as that field is written by nothing in the program but the
//!   create ([`Writers::handle_trusted`]: no assignment through a pointer, no other create, no
//!   address of it taken, no struct holding it assigned whole through a pointer or handed to a
//!   library function).
//! - Or the ids are an *array member* (`pthread_t ids[8]`) of the fresh object, and nothing in
//!   the program writes an element, takes the address of one or reads the array whole (its
//!   address) but the create; with worker structs as elements, nothing but the create writes
//!   their id field, as above.
//! - The *count member* (`n`) is written once in the whole program, by the create wrapper: before
//!   its create loop when the loop is bounded by it (`i < p->n`), or otherwise on every way to a
//!   return of the pool, as an uncast copy of the loop's bound (a parameter the wrapper never
//!   assigns, or the same constant). Either way it holds the create loop's bound from the return
//!   on. The wrapper may also return `NULL` (a failure): the join wrapper dereferences its
//!   parameter on every path, so a join of that pool never returns.
//! - The create loop is clean (its counter changes only in its increment), on no other cycle,
//!   from a non-negative start. The join loop starts and compares as it does, is bounded by the
//!   count member of the object the join wrapper's parameter (never assigned) points to, joins on
//!   every iteration and leaves only through its condition, and every way from the join
//!   wrapper's entry to a return passes its exit.
//! - Neither member is reached other than by naming it: no address of either is taken, and
//!   their struct is no union, is never assigned whole through a pointer, and is never handed to
//!   a library function that may write it (`free` does not count).
//!
//! Knowingly unsound, as for every thread id: a write through a pointer cast from another type
//! (`(char *)p + offset`, or a `void *` handed to `memset`) is not seen, and an integer member
//! is assumed to hold any value the loops' counters take (the IR does not keep integer widths).
//! Counts kept by increments in the create loop (`p->started++`) are not followed: those pools
//! stay running.

use rustc_hash::FxHashMap;

use super::wrappers::{assigned, calls_in};
use super::*;
use crate::ir::ctypes::StructId;
use crate::ir::visit::{walk_block, walk_operand, Mentions, Visitor};

/// A struct member: the struct and the member's index.
type Member = (u32, u32);

/// A pool's thread ids, as a field path: the ids member, then the id's field in an element.
type IdsPath = Vec<(u32, u32)>;

/// The pool wrappers of a program.
#[derive(Default)]
pub(super) struct Pools {
    /// Each pool create wrapper: its ids member (as a field path) and its create statement.
    pub(super) creates: FxHashMap<FuncId, (IdsPath, StmtAt)>,
    /// Each pool join wrapper: the index of its pool parameter and the ids member.
    pub(super) joins: FxHashMap<FuncId, (Arg, IdsPath)>,
    /// The exit of each pool join wrapper's join loop: every thread of the pool has been
    /// joined on entry to it.
    pub(super) join_exits: FxHashMap<FuncId, BlockId>,
    /// The pools `main` owns ([`InitPool`]).
    pub(super) inits: Vec<InitPool>,
}

/// A pool in a variable of `main` (or a global), started by a pool *init wrapper* — the create
/// wrapper's shape, but filling the object its parameter points to instead of a fresh one —
/// called once in the whole program, by `main` (or another function that runs once) on no
/// cycle (`pool_init(&pool, n)`), and joined by the calls of a pool join wrapper on the same
/// variable in that function (`pool_destroy(&pool)`).
/// The one call fills the object once: its members are written nowhere else.
pub(super) struct InitPool {
    /// The create inside the init wrapper.
    pub(super) create: StmtAt,
    /// The call of the init wrapper, by a function that runs once.
    pub(super) call: StmtAt,
    /// That function's calls of the join wrapper on the same variable.
    pub(super) joins: Vec<StmtAt>,
}

/// The member an lvalue ends in.
fn last_member(lv: &Lval) -> Option<Member> {
    match lv.proj.last() {
        Some(Proj::Field { strukt, index }) => Some((strukt.0, *index)),
        _ => None,
    }
}

/// The address of element `i` of the block a pointer member points to, `x.m + i` (as
/// `&x.m[i]` lowers), computed in the member's own pointer type: the lvalue read for the
/// member's value, the member, and the index variable.
fn element_of<'o>(p: &Program, op: &'o Operand) -> Option<(&'o Lval, Member, VarId)> {
    let Operand::Arith(t, _, ops) = op.without_casts() else {
        return None;
    };
    let [a, b] = ops.as_slice() else { return None };
    let member = |o: &'o Operand| match o {
        Operand::Use(lv) => {
            let (s, i) = last_member(lv)?;
            let decl = &p.types.structs[StructId(s)];
            (decl.fields.get(i as usize)?.ty == *t).then_some((lv, (s, i)))
        }
        _ => None,
    };
    [(a, b), (b, a)]
        .into_iter()
        .find_map(|(m, i)| member(m).and_then(|(lv, mem)| Some((lv, mem, i.plain_var()?))))
}

/// A thread id in an element of a pool's ids, as a create (its address) or a join (its value)
/// names it: `*(x->m + i)` for a block a pointer member holds, or `x->m[i]` for an array member,
/// followed by the id's field path in the element. The pool pointer `x` (a plain variable), the
/// ids member, the index variable, the field path, and whether the member is an array.
struct ElementSite {
    object: VarId,
    ids: Member,
    index: VarId,
    in_element: Vec<(u32, u32)>,
    array: bool,
}

fn element_site(p: &Program, lv: &Lval) -> Option<ElementSite> {
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    if let Some(object) = ptr.plain_var() {
        let [Proj::Field { strukt, index }, Proj::Index(Some(i)), rest @ ..] = lv.proj.as_slice()
        else {
            return None;
        };
        let ty = p.types.structs[*strukt].fields.get(*index as usize)?.ty;
        if !matches!(p.types.get(ty), crate::ir::ctypes::Type::Array(_)) {
            return None;
        }
        return Some(ElementSite {
            object,
            ids: (strukt.0, *index),
            index: *i,
            in_element: fields_of(rest)?,
            array: true,
        });
    }
    let (member_lv, ids, index) = element_of(p, ptr)?;
    let (object, _) = member_of_var(member_lv)?;
    Some(ElementSite {
        object,
        ids,
        index,
        in_element: fields_of(&lv.proj)?,
        array: false,
    })
}

/// Whether an lvalue names array member `m` with an index right after it (an element of it).
fn indexes_member(lv: &Lval, m: Member) -> Option<bool> {
    let k = lv
        .proj
        .iter()
        .position(|p| matches!(p, Proj::Field { strukt, index } if (strukt.0, *index) == m))?;
    Some(matches!(
        lv.proj.get(k + 1),
        Some(Proj::Index(_) | Proj::ConstIndex(_))
    ))
}

/// What the whole program does with an array member of thread ids: reads of its elements are
/// harmless; any other use (a write, an address taken, the array read whole, which is its
/// address) is counted in `other`.
struct ArrayUses {
    m: Member,
    other: usize,
}

impl Visitor for ArrayUses {
    fn visit_operand(&mut self, op: &Operand) {
        match op {
            Operand::Use(lv) if indexes_member(lv, self.m) == Some(false) => self.other += 1,
            Operand::AddrOf(lv) if indexes_member(lv, self.m).is_some() => self.other += 1,
            _ => {}
        }
        walk_operand(self, op);
    }
}

/// The uses of array member `m` other than reads of its elements, in the whole program (the
/// create's address of its element is one of them).
fn array_other_uses(p: &Program, m: Member) -> usize {
    let mut uses = ArrayUses { m, other: 0 };
    for func in p.funcs.iter() {
        // A global's initializer runs before `main`: its writes come before any create.
        let init = func.origin == Origin::GlobalInit;
        for block in func.blocks.iter() {
            walk_block(&mut uses, block);
            for stmt in block.stmts.iter().filter(|_| !init) {
                let dsts: Vec<&Lval> = match &stmt.kind {
                    StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                        vec![dst]
                    }
                    StmtKind::Asm { operands } => operands.iter().collect(),
                    StmtKind::Call { dst: None, .. } | StmtKind::Eval(_) => Vec::new(),
                };
                uses.other += dsts
                    .iter()
                    .filter(|d| indexes_member(d, m).is_some())
                    .count();
            }
        }
    }
    uses.other
}

/// Whether `ptr`, the dereferenced operand of an lvalue, addresses an element of the block
/// member `m` points to (`*(x.m + i)`, or `*x.m` for the first).
fn addresses_element(p: &Program, ptr: &Operand, m: Member) -> bool {
    match ptr.without_casts() {
        Operand::Use(lv) => last_member(lv) == Some(m),
        other => element_of(p, other).is_some_and(|(_, mem, _)| mem == m),
    }
}

/// Counts the reads of a member's value (`Use` of an lvalue ending in it) and the addresses of
/// it taken.
struct MemberUses {
    m: Member,
    reads: usize,
    addressed: usize,
}

impl Visitor for MemberUses {
    fn visit_operand(&mut self, op: &Operand) {
        match op {
            Operand::Use(lv) if last_member(lv) == Some(self.m) => self.reads += 1,
            Operand::AddrOf(lv) if last_member(lv) == Some(self.m) => self.addressed += 1,
            _ => {}
        }
        walk_operand(self, op);
    }
}

/// How many reads of member `m`'s value an operand makes only to read an element of its block.
fn element_reads(p: &Program, op: &Operand, m: Member) -> usize {
    match op {
        Operand::Use(lv) => match &lv.base {
            Base::Deref(ptr) if addresses_element(p, ptr, m) => 1,
            Base::Deref(ptr) => element_reads(p, ptr, m),
            Base::Var(_) => 0,
        },
        Operand::AddrOf(lv) => match &lv.base {
            Base::Deref(ptr) if !addresses_element(p, ptr, m) => element_reads(p, ptr, m),
            _ => 0,
        },
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => element_reads(p, inner, m),
        Operand::Arith(_, _, ops) => ops.iter().map(|o| element_reads(p, o, m)).sum(),
        Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => 0,
    }
}

/// The reads of member `m` that an assignment's destination makes to find the place (a write to
/// an element itself is not one of them).
fn dst_reads(p: &Program, dst: &Lval, m: Member) -> usize {
    match &dst.base {
        Base::Deref(ptr) if !addresses_element(p, ptr, m) => element_reads(p, ptr, m),
        _ => 0,
    }
}

/// What the whole program does with one member.
struct MemberFacts {
    /// The statements that write it.
    writes: Vec<StmtAt>,
    /// Reads of its value.
    reads: usize,
    /// Reads of its value that only read an element of its block, free the block, or test it.
    harmless_reads: usize,
    addressed: usize,
}

fn member_facts(p: &Program, m: Member, frees: &FxHashSet<FuncId>) -> MemberFacts {
    let mut uses = MemberUses {
        m,
        reads: 0,
        addressed: 0,
    };
    let mut writes = Vec::new();
    let mut harmless = 0;
    for (f, func) in p.funcs.iter_enumerated() {
        // A global's initializer runs before `main`: its writes come before any create.
        let init = func.origin == Origin::GlobalInit;
        for (b, block) in func.blocks.iter_enumerated() {
            walk_block(&mut uses, block);
            for (k, stmt) in block.stmts.iter().enumerate() {
                let writes_m = |lv: &Lval| last_member(lv) == Some(m);
                harmless += match &stmt.kind {
                    StmtKind::Assign { dst, src } => {
                        if !init && writes_m(dst) {
                            writes.push((f, b, k));
                        }
                        dst_reads(p, dst, m) + element_reads(p, src, m)
                    }
                    StmtKind::Call { dst, callee, args } => {
                        if !init && dst.as_ref().is_some_and(writes_m) {
                            writes.push((f, b, k));
                        }
                        let freed = matches!(callee, Callee::Direct(c) if frees.contains(c))
                            && args.first().is_some_and(
                                |a| matches!(a.without_casts(), Operand::Use(lv) if writes_m(lv)),
                            );
                        let callee_reads = match callee {
                            Callee::Indirect(op) => element_reads(p, op, m),
                            Callee::Direct(_) => 0,
                        };
                        usize::from(freed)
                            + dst.as_ref().map_or(0, |d| dst_reads(p, d, m))
                            + callee_reads
                            + args.iter().map(|a| element_reads(p, a, m)).sum::<usize>()
                    }
                    StmtKind::Eval(op) => element_reads(p, op, m),
                    StmtKind::Asm { operands } => {
                        if !init && operands.iter().any(writes_m) {
                            writes.push((f, b, k));
                        }
                        0
                    }
                };
            }
            harmless += match &block.term {
                Term::Branch { cond, .. } => {
                    let mut tested = MemberUses {
                        m,
                        reads: 0,
                        addressed: 0,
                    };
                    tested.visit_operand(cond);
                    tested.reads
                }
                Term::Return(Some(op), _) => element_reads(p, op, m),
                _ => 0,
            };
        }
    }
    MemberFacts {
        writes,
        reads: uses.reads,
        harmless_reads: harmless,
        addressed: uses.addressed,
    }
}

/// The `(struct, member)` steps of a projection made of fields only.
fn fields_of(proj: &[Proj]) -> Option<Vec<(u32, u32)>> {
    proj.iter()
        .map(|p| match *p {
            Proj::Field { strukt, index } => Some((strukt.0, index)),
            Proj::Index(_) | Proj::ConstIndex(_) => None,
        })
        .collect()
}

/// `(*v).m` for a plain local or parameter `v`: the variable and the member.
fn member_of_var(lv: &Lval) -> Option<(VarId, Member)> {
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    let [Proj::Field { strukt, index }] = lv.proj.as_slice() else {
        return None;
    };
    Some((ptr.plain_var()?, (strukt.0, *index)))
}

/// Whether the members of struct `s` are reached only by naming them: neither `s` nor a struct
/// or union holding one (directly, or in a member or array element, at any depth) is assigned
/// whole through a pointer or handed to a library function that may write it, and `s` is no
/// union.
fn struct_named_only(p: &Program, writers: &Writers, s: u32) -> bool {
    use crate::ir::ctypes::Type;
    // The structs holding `s` by value, to a fixpoint.
    let mut holders = vec![s];
    loop {
        let before = holders.len();
        for (sid, decl) in p.types.structs.iter_enumerated() {
            if holders.contains(&sid.0) {
                continue;
            }
            let holds = decl.fields.iter().any(|f| {
                let mut ty = p.types.get(f.ty);
                while let Type::Array(e) = ty {
                    ty = p.types.get(*e);
                }
                matches!(ty, Type::Struct(x) | Type::Union(x) if holders.contains(&x.0))
            });
            if holds {
                holders.push(sid.0);
            }
        }
        if holders.len() == before {
            break;
        }
    }
    !writers.unions.contains(&s)
        && holders.iter().all(|h| {
            !writers.structs_through_pointers.contains(h) && !writers.structs_to_library.contains(h)
        })
}

/// Finds the pool wrappers of a program (see the module's doc); `once` are the functions that
/// run at most once, sorted, which may own a pool an init wrapper fills.
pub(super) fn find(
    p: &Program,
    once: &[FuncId],
    calls: &ThreadCalls,
    writers: &Writers,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> Pools {
    let mut pools = Pools::default();
    let (lib_creates, lib_joins) = library_calls(p, calls);
    let user = || {
        p.funcs
            .iter_enumerated()
            .filter(|(_, func)| func.defined && func.origin == Origin::User)
    };
    let mut create_loops: Vec<(IdsPath, Member, CountedLoop)> = Vec::new();
    let mut init_wrappers: Vec<(FuncId, Arg, IdsPath, StmtAt)> = Vec::new();
    for (f, func) in user() {
        let Some(shape) = pool_create(p, f, func, &lib_creates, assigns) else {
            continue;
        };
        let PoolCreate {
            ids,
            array,
            in_element,
            count,
            at,
            l1,
            init,
        } = shape;
        let trusted = |m: Member, elements: bool| {
            if elements && array {
                // An array member is never written or addressed but by the create; with ids in
                // fields of its elements, those fields are written by nothing else.
                let ids_ok = if in_element.is_empty() {
                    array_other_uses(p, m) == 1
                } else {
                    writers.handle_trusted(&in_element)
                };
                return ids_ok && struct_named_only(p, writers, m.0);
            }
            let facts = member_facts(p, m, &calls.frees);
            let once = match facts.writes.as_slice() {
                [w] => w.0 == f,
                _ => false,
            };
            // The elements are thread ids: the create's own read of the member is the one read
            // that is not harmless. In elements that are structs, the id field is written by
            // nothing in the program but the create, whatever else is done with the block.
            let elements_ok = match (elements, in_element.is_empty()) {
                (false, _) => true,
                (true, true) => facts.reads == facts.harmless_reads + 1,
                (true, false) => writers.handle_trusted(&in_element),
            };
            once && elements_ok && facts.addressed == 0 && struct_named_only(p, writers, m.0)
        };
        if trusted(ids, true) && trusted(count, false) {
            let mut path = vec![ids];
            path.extend(in_element.iter().copied());
            match init {
                None => {
                    pools.creates.insert(f, (path.clone(), at));
                }
                Some(k) => init_wrappers.push((f, k, path.clone(), at)),
            }
            create_loops.push((path, count, l1));
        }
    }
    // Join wrappers only of the pools found, and only functions that join build their graphs.
    if create_loops.is_empty() {
        return pools;
    }
    for (g, func) in user() {
        if calls_in(func, g, &lib_joins).next().is_none() {
            continue;
        }
        let cfg = Cfg::new(func);
        let loops = counted_loops(func, &cfg);
        let found = calls_in(func, g, &lib_joins).find_map(|((_, b, _), id)| {
            let Operand::Use(lv) = id.without_casts() else {
                return None;
            };
            let ElementSite {
                object: q,
                ids,
                index: j,
                in_element,
                ..
            } = element_site(p, lv)?;
            let mut path = vec![ids];
            path.extend(in_element);
            let k = func.params.iter().position(|&x| x == q)?;
            let k = Arg::try_from(k).ok().filter(|_| !p.vars[q].address_taken)?;
            let (_, count, l1) = create_loops.iter().find(|c| c.0 == path)?;
            let (l2, blocks2) = loops
                .iter()
                .find(|(l, bl)| l.counter == j && bl.contains(&(b.0 as usize)))?;
            let bounded = l2.bound
                == LoopBound::Member {
                    ptr: q,
                    strukt: StructId(count.0),
                    index: count.1,
                };
            let reach = cfg.reachable(0, |x| x == l2.exit.0 as usize);
            let unavoidable = !reach.iter().enumerate().any(|(x, &r)| r && cfg.returns[x]);
            (bounded
                && l2.start == l1.start
                && l2.op == l1.op
                && unavoidable
                && !assigned(func, q)
                && join_loop_complete(p, func, g, &cfg, l2, blocks2, b, assigns))
            .then_some((k, path, l2.exit))
        });
        if let Some((k, path, exit)) = found {
            pools.joins.insert(g, (k, path));
            pools.join_exits.insert(g, exit);
        }
    }
    pools.inits = init_wrappers
        .into_iter()
        .filter_map(|(f, k, path, create)| init_pool(p, once, f, k, &path, create, &pools.joins))
        .collect();
    pools
}

/// The library's creates and joins, each with the position of its thread-id argument.
pub(super) fn library_calls(
    p: &Program,
    calls: &ThreadCalls,
) -> (FxHashMap<FuncId, Arg>, FxHashMap<FuncId, Arg>) {
    let lib_creates: FxHashMap<FuncId, Arg> = calls
        .creates
        .iter()
        .filter(|(f, _)| calls.library_creates.contains(f))
        .map(|(f, k)| (*f, *k))
        .collect();
    let lib_joins: FxHashMap<FuncId, Arg> = p
        .funcs
        .indices()
        .filter_map(|f| match p.known_kind(f) {
            Some(Kind::Join { id, .. }) => Some((f, id)),
            _ => None,
        })
        .collect();
    (lib_creates, lib_joins)
}

/// The one statement of the program that names function `f`, when it is a direct call of it:
/// `None` when `f` is called twice, or its address is taken (it may be called through a
/// pointer).
pub(super) fn only_call(p: &Program, f: FuncId) -> Option<StmtAt> {
    let mut calls = Vec::new();
    for (g, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            for (i, stmt) in block.stmts.iter().enumerate() {
                let mentions_f = match &stmt.kind {
                    StmtKind::Call { callee, args, .. } => {
                        matches!(callee, Callee::Direct(c) if *c == f)
                            || args.iter().any(|a| names_function(a, f))
                    }
                    StmtKind::Assign { src, .. } => names_function(src, f),
                    StmtKind::Eval(op) => names_function(op, f),
                    StmtKind::Asm { .. } => false,
                };
                if mentions_f {
                    calls.push((g, b, i));
                }
            }
        }
    }
    let [call] = calls.as_slice() else {
        return None;
    };
    match &p.funcs[call.0].blocks[call.1].stmts[call.2].kind {
        StmtKind::Call {
            callee: Callee::Direct(c),
            ..
        } if *c == f => Some(*call),
        _ => None,
    }
}

/// The calls that start and join a pool of init wrapper `f` ([`InitPool`]): `f`'s one call in
/// the program, on no cycle of a function that runs once ([`crate::analyses::once`]: `main`,
/// or one `main` calls once outside its loops), with the address of a variable as the pool,
/// and that function's calls of a join wrapper of the same ids with the address of that
/// variable.
fn init_pool(
    p: &Program,
    once: &[FuncId],
    f: FuncId,
    k: Arg,
    path: &IdsPath,
    create: StmtAt,
    joins: &FxHashMap<FuncId, (Arg, IdsPath)>,
) -> Option<InitPool> {
    // One call, by name, in a function that runs once, on no cycle of it.
    let call = &only_call(p, f)?;
    let owner = call.0;
    if once.binary_search(&owner).is_err() {
        return None;
    }
    let func = &p.funcs[owner];
    let cfg = Cfg::new(func);
    if on_any_cycle(&cfg, call.1 .0 as usize) {
        return None;
    }
    let pool_of = |args: &[Operand], k: Arg| match args.get(usize::from(k))?.without_casts() {
        Operand::AddrOf(lv) => lv.plain_var(),
        _ => None,
    };
    let StmtKind::Call {
        callee: Callee::Direct(_),
        args,
        ..
    } = &func.blocks[call.1].stmts[call.2].kind
    else {
        return None;
    };
    let pool = pool_of(args, k)?;
    let mut found = Vec::new();
    for (b, block) in func.blocks.iter_enumerated() {
        for (i, stmt) in block.stmts.iter().enumerate() {
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                args,
                ..
            } = &stmt.kind
            {
                if let Some((j, ids)) = joins.get(g) {
                    if ids == path && pool_of(args, *j) == Some(pool) {
                        found.push((owner, b, i));
                    }
                }
            }
        }
    }
    (!found.is_empty()).then_some(InitPool {
        create,
        call: *call,
        joins: found,
    })
}

/// Whether an operand names function `f` as a value (its address taken: it may be called
/// through a pointer).
fn names_function(op: &Operand, f: FuncId) -> bool {
    match op {
        Operand::Func(g) => *g == f,
        Operand::Cast(_, inner) | Operand::VaArg(_, inner) => names_function(inner, f),
        Operand::Arith(_, _, ops) => ops.iter().any(|o| names_function(o, f)),
        Operand::Use(_) | Operand::AddrOf(_) | Operand::Const(..) | Operand::Str(_) => false,
    }
}

/// The shape of a pool create wrapper, before the whole-program facts of its members.
struct PoolCreate {
    /// The member holding the block, or the array of ids.
    ids: Member,
    /// Whether `ids` is an array member (`pthread_t threads[8]`) rather than a pointer to a
    /// block.
    array: bool,
    /// The field path of the thread id in each element: empty for a block of `pthread_t`s,
    /// `tid` for `&p->workers[i].tid`.
    in_element: Vec<(u32, u32)>,
    /// The member holding the count.
    count: Member,
    /// The create.
    at: StmtAt,
    /// The create loop.
    l1: CountedLoop,
    /// For an init wrapper, the parameter pointing to the pool it fills.
    init: Option<Arg>,
}

/// Whether `f` has the shape of a pool create wrapper.
fn pool_create(
    p: &Program,
    f: FuncId,
    func: &Func,
    lib_creates: &FxHashMap<FuncId, Arg>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> Option<PoolCreate> {
    let creates: Vec<(StmtAt, &Operand)> = calls_in(func, f, lib_creates).collect();
    let [(at, id)] = creates.as_slice() else {
        return None;
    };
    let Operand::AddrOf(lv) = id.without_casts() else {
        return None;
    };
    let ElementSite {
        object: th,
        ids,
        index: i,
        in_element,
        array,
    } = element_site(p, lv)?;
    let cfg = Cfg::new(func);
    let init = if super::wrappers::returns_fresh_object(p, f, func, &cfg, th) {
        None
    } else {
        let k = func.params.iter().position(|&x| x == th)?;
        if p.vars[th].address_taken || assigned(func, th) {
            return None;
        }
        Some(Arg::try_from(k).ok()?)
    };
    let loops = counted_loops(func, &cfg);
    let create_block = at.1 .0 as usize;
    let (l1, blocks1) = loops
        .iter()
        .find(|(l, bl)| l.counter == i && bl.contains(&create_block))?;
    if l1.start < 0
        || !loop_is_clean(p, func, f, l1, blocks1, assigns)
        || cfg.on_other_cycle(create_block, l1)
        || cfg.on_other_cycle(l1.head.0 as usize, l1)
    {
        return None;
    }
    let from_head = cfg.reachable(l1.head.0 as usize, |_| false);
    // The writes of `(*th).member` in `f`, with their blocks and the value of an assignment.
    let stores = || {
        func.blocks.iter_enumerated().flat_map(move |(b, block)| {
            block.stmts.iter().filter_map(move |s| match &s.kind {
                StmtKind::Assign { dst, src } => {
                    let (v, m) = member_of_var(dst)?;
                    (v == th).then_some((b, m, Some(src)))
                }
                StmtKind::Call { dst: Some(dst), .. } => {
                    let (v, m) = member_of_var(dst)?;
                    (v == th).then_some((b, m, None))
                }
                _ => None,
            })
        })
    };
    // The block is allocated before the create loop: a fresh block no one else names. An
    // array member is in the fresh object itself.
    let fresh_ids = array
        || stores().any(|(b, m, src)| {
            m == ids && !from_head[b.0 as usize] && src.is_some_and(|s| fresh_temp(p, f, func, s))
        });
    let count = match l1.bound {
        LoopBound::Member { ptr, strukt, index } if ptr == th => {
            let count = (strukt.0, index);
            stores()
                .any(|(b, m, _)| m == count && !from_head[b.0 as usize])
                .then_some(count)
        }
        LoopBound::Var(_) | LoopBound::Const(_) => stores().find_map(|(b, m, src)| {
            let copies_bound = match (l1.bound, src?) {
                (
                    LoopBound::Var(v),
                    Operand::Use(Lval {
                        base: Base::Var(x),
                        proj,
                        ..
                    }),
                ) => {
                    *x == v
                        && proj.is_empty()
                        && !p.vars[v].address_taken
                        && matches!(p.vars[v].kind, VarKind::Param(g, _) if g == f)
                        && !assigned(func, v)
                }
                (LoopBound::Const(k), Operand::Const(_, Some(c))) => k == *c,
                _ => false,
            };
            // On every way to a return of the pool (a return of `NULL` fails), or to any
            // return of an init wrapper.
            let reach = cfg.reachable(0, |x| x == b.0 as usize);
            let on_every_way = !reach.iter().enumerate().any(|(x, &r)| {
                r && match &func.blocks[BlockId(x as u32)].term {
                    Term::Return(op, _) => {
                        init.is_some() || op.as_ref().and_then(Operand::plain_var) == Some(th)
                    }
                    _ => false,
                }
            });
            (copies_bound && on_every_way && !on_any_cycle(&cfg, b.0 as usize)).then_some(m)
        }),
        _ => None,
    }?;
    (fresh_ids && count != ids).then_some(PoolCreate {
        ids,
        array,
        in_element,
        count,
        at: *at,
        l1: *l1,
        init,
    })
}

/// Whether `src`, stored in the ids member, is a temporary or local of `f` assigned once with a
/// fresh block ([`fresh_block`]) and named nowhere but there and in that store.
fn fresh_temp(p: &Program, f: FuncId, func: &Func, src: &Operand) -> bool {
    let Some(tmp) = src.plain_var() else {
        return false;
    };
    let mut mentions = Mentions::of(tmp);
    crate::ir::visit::walk_func(&mut mentions, func);
    mentions.count == 2 && fresh_block(p, f, func, tmp)
}
