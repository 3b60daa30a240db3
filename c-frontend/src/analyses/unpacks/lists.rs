//! Objects handed over through a locked list: ownership that moves with the pointer (§3.2's
//! uniqueness carried across calls and threads, the existential pack of §3.3 at a hand-off
//! point, RacerD's ownership). A thread owns the object a pointer variable holds while no other
//! thread can reach it: from its allocation, or from taking it off a list, until the pointer is
//! let go. Every access through an owned pointer holds one opened lock, [`Package::Owned`], so
//! two of them never race; an access through any other pointer holds no such lock and still
//! races with them.
//!
//! **Ownership.** A pointer variable owns its object ([`uniqueness`]'s must analysis, which says
//! when the pointer escapes: stored anywhere, returned, handed to a user function or to a library
//! function that may keep it) when the object came from an allocation, from a *take* (below),
//! from a call of a function whose every return returns an owned pointer or null, or, for a
//! parameter, from every call of the function handing it an owned pointer that no other
//! argument of the call holds (callers first; nothing for a function called through a pointer,
//! `main`, a recursive one).
//!
//! **Lists.** The *link* `S.nf` is a field of a struct `S` that points to `S`. A *head* is a
//! global pointer to `S` or a member path of a global struct, or a member path of every object
//! of a struct `Q` (`q->head`, named through a stable local `q`), whose address is never taken.
//! A *take* of a head `H` is `j = H; … H = j->nf;` with a mutex held throughout — a global one,
//! or for a member head the one at a member path of the same object (`q->lock`) — with no call
//! that may release or wait on it in between, no other store to `H` and `q` not assigned: the
//! node leaves the list and `j` owns it. Takes make ownership only when every store the program
//! may make into a head of the link (any lvalue naming a member head's last member, or a
//! whole value holding its struct, included) or into the link field of any object (the global initialisers
//! included) is one of these:
//!
//! - a null pointer;
//! - a take's `H = j->nf`;
//! - *publishing* an owned `x` whose link this function last set to null: `H = x`, or the
//!   append `t->nf = x` for any `t`;
//! - *pushing* an owned `x`: `x->nf = v` for `v` read from `H`, then `H = x`, within one
//!   section of the mutex that held `v`'s read (nothing written to `H` in between);
//! - any store into the link of an object the storing thread owns.
//!
//! Publications and pushes hold the mutex every take holds (one guard common to all of them: a
//! global mutex, or the mutex at one member path of the list's own object; an append, whose
//! list is not known, may hold that path's mutex of any object). The link and heads are never
//! named by address (`&H`, `&x->nf`), objects of `S` are written as a whole only through owned
//! pointers or in locals nobody addresses, a pointer to `S` (or to an object holding a member
//! head) is converted to another pointer type only to be handed to a library function, and is
//! handed to one that may store through it (`Kind::may_store_through`) only when owned, and no
//! union holds an `S`. Otherwise the link's lists are not followed (and the iteration drops
//! them until the rest is consistent).
//!
//! **Why that is sound.** Count the edges from heads and from the links of objects no thread
//! owns. Every object has at most one such incoming edge, and an owned object none: true at
//! start (heads and links are initialised null), and kept by each store above. A null store
//! removes an edge. A take moves `H` from `j` to `j`'s successor while `j`'s own edge stops
//! counting (j is owned now), and the mutex makes the read and the store of `H` one step for
//! every other take and push. A publication gives the owned `x` its one edge; `x`'s link, which
//! its owner set to null, may since have been set by a stale append (`t` pointing to an owned
//! node) only to a node that had no counted edge, so that node gets one. A push makes `x`'s
//! link take over `H`'s edge, under the mutex, so no take moves `H` in between. A store into an
//! owned object's link changes no counted edge. So a node reachable from a head is owned by
//! nobody and reached once: one take removes it, and only a publication by an owner puts it
//! back. The thread owning an object is then unique at each moment, and since publications
//! and takes of a list hold its one mutex, each owner's accesses happen before the next
//! owner's. (An append under another object's mutex than the list's is a store into a link
//! that the take's read of that link races with, and that race is reported: the link's
//! accesses hold no common lock.) Two accesses of one cell through owned pointers are
//! therefore in one thread or ordered.
//!
//! **Tails.** A global pointer `T` (no head) that appends of a link go through, and whose
//! appending functions store into one global head `H` of the link, is `H`'s tail when it never
//! points to a node someone owns: every store into `T` is null or a node this section
//! published into `H`'s list with its link null (so the last node), every append through `T`
//! is followed in its section by `T = x`, every other append of the link is an owner's, and
//! every take off `H` sets `T` to null where `H` may have become null. A node `T` points to is
//! then the last of `H`'s list or one no list reaches, so nobody owns it, and the append
//! `T->nf = x`, under the list's mutex like every take and publication of the node, holds the
//! owned package too ([`Owned::resident`]).
//!
//! **Member tails.** A pointer member `t` of the struct `Q` of a member head `h` (both direct
//! members, `q->h` and `q->t`), through which appends of the link go (`q->t->nf = x`), is the
//! tail of `h`'s list in every object of `Q` under the same conditions, object by object: every
//! store into any object's `t` (named by its member, in whatever way) is null or `q->t = x`
//! for a stable local `q` and a node this section published into `q->h`'s list with its link
//! null, through `q->h` itself or through `q->t`; every append through `q->t` is followed in
//! its section by `q->t = x`; every other append of the link is an owner's; every take off
//! `q->h` sets `q->t` to null where `q->h` may have become null; and `t`'s address is never
//! taken. The argument is the global tail's, for each object: `Q` objects are written whole
//! only where their heads are (a whole-value store breaks the link), so a node `q->t` points to
//! is the last of `q->h`'s list or one no list reaches, and the append through it holds the
//! owned package too ([`Owned::resident_members`]).
//!
//! Assumptions, as elsewhere in the front end: the program is well typed (a link is written only
//! through an lvalue of `S`, not byte-wise through another type), and freed memory is not used
//! again (a node freed while on a list is undefined behaviour).
//!
//! This module reads the IR and the library model only; it never creates labels.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::function_uses::FunctionUses;
use crate::analyses::uniqueness::{self, Holder, Sources, Uniqueness};
use crate::ir::ctypes::{StructId, StructKind, Type, TypeId};
use crate::ir::visit::Visitor;
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Program, Proj, StmtKind, Term, VarId,
    VarKind,
};
use crate::model::{Kind, LockMode, Releasing};

/// A link field: the struct and the index of its field that points to the struct.
type Link = (StructId, u32);

/// An append through a member tail: the statement, the stable local whose object holds the
/// tail, and the tail's member.
pub(super) type MemberAppend = (At, VarId, (StructId, u32));

/// Where a list head lies: in a global variable, or in every object of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Root {
    Global(VarId),
    /// At the member path from objects of the struct the path's first step names.
    Member,
}

/// A list head: where it lies and the member path to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Head {
    root: Root,
    fields: Vec<(StructId, u32)>,
}

/// One head of one list: a global head, or a member head in the object a stable local points
/// to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Place {
    head: Head,
    object: Option<VarId>,
}

/// A mutex a statement holds by name: `&m.f…` of a global `m`, or `&q->f…` for a stable
/// local `q` (the mutex of the object `q` points to, while `q` is not assigned).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Mutex {
    Global(VarId, Vec<(StructId, u32)>),
    Member(VarId, Vec<(StructId, u32)>),
}

/// A mutex as the sections of a list see it: a global one, or the one at a member path of the
/// object that holds the list's head.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Guard {
    Global(VarId, Vec<(StructId, u32)>),
    Own(Vec<(StructId, u32)>),
}

/// The guards of the mutexes `held`, for a section on the list at `place` (`None`: an append,
/// whose list is not known, for which any object's mutex at the path counts).
fn guards(held: &BTreeSet<Mutex>, place: Option<&Place>) -> BTreeSet<Guard> {
    held.iter()
        .filter_map(|m| match m {
            Mutex::Global(v, f) => Some(Guard::Global(*v, f.clone())),
            Mutex::Member(q, f) => match place {
                Some(place) if place.object != Some(*q) => None,
                _ => Some(Guard::Own(f.clone())),
            },
        })
        .collect()
}

/// A statement of a function: block and index.
pub(super) type At = (u32, u32);

/// A fact of the must analysis that recognises takes, pushes and publications.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fact {
    /// The variable holds the value read from the head in the current section of the mutexes
    /// the fact keeps, and nothing was stored into the head since.
    Read(VarId, Place),
    /// The link of the object the variable points to holds a value read from the head, in the
    /// current section of the fact's mutexes, and nothing was stored into the head since.
    Pushed(VarId, Place),
    /// This function last set the link of the object the variable points to to null.
    Cleared(VarId),
    /// The variable, its link null, was stored, in the current section of the mutexes held,
    /// into the global head the second variable names or the link of the node its tail points
    /// to (or into the link of the node a global pointer that is no tail, the second variable,
    /// points to): it is the last node of that list.
    Published(VarId, VarId),
    /// The variable, its link null, was stored, in the current section of the mutexes held,
    /// into the member head at the place (`q->head`), or appended through that head's member
    /// tail in the same object (`q->tail->link = x`): it is the last node of that list.
    PublishedAt(VarId, Place),
}

/// Facts with the mutexes held since each began, and the mutexes held now.
#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    facts: BTreeMap<Fact, BTreeSet<Mutex>>,
    held: BTreeSet<Mutex>,
}

impl State {
    /// The meet of a must analysis: what both incoming states know.
    fn meet(&mut self, other: &State) -> bool {
        let before = self.clone();
        self.held.retain(|k| other.held.contains(k));
        self.facts.retain(|f, locks| match other.facts.get(f) {
            Some(theirs) => {
                locks.retain(|k| theirs.contains(k));
                true
            }
            None => false,
        });
        *self != before
    }

    /// `v` is assigned: what it held, and the object it pointed to, are another's now.
    fn forget_var(&mut self, v: VarId) {
        self.facts.retain(|f, _| match f {
            Fact::Read(x, place) | Fact::Pushed(x, place) => *x != v && place.object != Some(v),
            Fact::Cleared(x) => *x != v,
            Fact::Published(x, into) => *x != v && *into != v,
            Fact::PublishedAt(x, place) => *x != v && place.object != Some(v),
        });
        let member = |m: &Mutex| matches!(m, Mutex::Member(q, _) if *q == v);
        self.held.retain(|m| !member(m));
        for locks in self.facts.values_mut() {
            locks.retain(|m| !member(m));
        }
    }

    fn forget_head(&mut self, h: &Head) {
        self.facts.retain(|f, _| match f {
            Fact::Read(_, g) | Fact::Pushed(_, g) => g.head != *h,
            Fact::Cleared(_) | Fact::Published(..) | Fact::PublishedAt(..) => true,
        });
    }

    /// A link of some object was written: what this function set in links may be gone.
    fn forget_links(&mut self) {
        self.facts.retain(|f, _| {
            matches!(
                f,
                Fact::Read(..) | Fact::Published(..) | Fact::PublishedAt(..)
            )
        });
    }

    /// A mutex may have been released since: sections end.
    fn forget_sections(&mut self) {
        self.facts.retain(|f, _| matches!(f, Fact::Cleared(_)));
    }
}

/// What the ownership analysis finds.
pub(super) struct Owned {
    /// For each function with a body, the unique pointers ([`Uniqueness`]) its allocations,
    /// takes, calls and parameters give it.
    pub(super) unique: FxHashMap<FuncId, Uniqueness>,
    /// Statements where the accesses through a global pointer are the owner's: the unlink
    /// `H = H->next` of a take, where `H` still points to the taken node, and an append
    /// through a tail, whose node nobody owns and whose owners' accesses are ordered with it by
    /// the list's mutex.
    pub(super) resident: FxHashMap<FuncId, Vec<(At, VarId)>>,
    /// Statements where the accesses through a member tail are the owner's: an append
    /// `q->t->link = x` through the member tail `t` of the object the stable local `q` points
    /// to, whose node nobody owns and whose owners' accesses are ordered with it by the list's
    /// mutex.
    pub(super) resident_members: FxHashMap<FuncId, Vec<MemberAppend>>,
}

/// The owned pointers of every function with a body ([`Owned`]).
pub(super) fn owned_pointers(
    p: &Program,
    main: FuncId,
    uses: &FunctionUses,
    order: &[(FuncId, bool)],
) -> Owned {
    let candidates = takes(p);
    let mut links: BTreeSet<Link> = candidates.iter().map(|t| t.link).collect();
    let mut unions = union_members(p);
    links.retain(|l| !unions.contains(&l.0));
    unions.clear();
    loop {
        let taken: Vec<&Take> = candidates
            .iter()
            .filter(|t| links.contains(&t.link))
            .collect();
        let owned = ownership(p, main, uses, order, &taken);
        let checks = if links.is_empty() {
            Checks {
                broken: BTreeSet::new(),
                appends: Vec::new(),
                member_appends: Vec::new(),
            }
        } else {
            broken_links(p, &links, &candidates, &owned)
        };
        let broken = checks.broken;
        if broken.is_empty() {
            let mut resident: FxHashMap<FuncId, Vec<(At, VarId)>> = FxHashMap::default();
            for (f, at, tail) in checks.appends {
                resident.entry(f).or_default().push((at, tail));
            }
            let mut resident_members: FxHashMap<FuncId, Vec<MemberAppend>> = FxHashMap::default();
            for (f, at, q, tail) in checks.member_appends {
                resident_members.entry(f).or_default().push((at, q, tail));
            }
            for t in taken {
                if let (None, Root::Global(g), true) =
                    (t.from, &t.head.head.root, t.head.head.fields.is_empty())
                {
                    resident.entry(t.func).or_default().push((t.unlink, *g));
                }
            }
            return Owned {
                unique: owned,
                resident,
                resident_members,
            };
        }
        links.retain(|l| !broken.contains(l));
    }
}

/// A take: in `func`, the read at `at` of `head` into `var`, which the unlink at `unlink`
/// (`head = var->link` or `head = head->link`) follows on every path where `var` is not null.
struct Take {
    func: FuncId,
    at: At,
    var: VarId,
    head: Place,
    link: Link,
    unlink: At,
    /// The unlink's `x` in `head = x->link` (`None`: the head itself).
    from: Option<VarId>,
}

/// The structs some union holds by value: their links are never followed.
fn union_members(p: &Program) -> FxHashSet<StructId> {
    let mut out = FxHashSet::default();
    for def in p.types.structs.iter() {
        if def.kind == StructKind::Union {
            for f in &def.fields {
                held_structs(p, f.ty, &mut out);
            }
        }
    }
    out
}

/// Adds every struct that a value of type `ty` holds (itself, its members', its elements').
fn held_structs(p: &Program, ty: TypeId, out: &mut FxHashSet<StructId>) {
    match p.types.get(ty) {
        Type::Array(e) => held_structs(p, *e, out),
        Type::Struct(s) | Type::Union(s) if out.insert(*s) => {
            for f in &p.types.structs[*s].fields {
                held_structs(p, f.ty, out);
            }
        }
        _ => {}
    }
}

/// The struct a pointer type points to.
fn pointee_struct(p: &Program, ty: TypeId) -> Option<StructId> {
    match p.types.get(p.types.pointee(ty)?) {
        Type::Struct(s) => Some(*s),
        _ => None,
    }
}

/// The member path of an lvalue's projections, when they are all members.
fn member_path(proj: &[Proj]) -> Option<Vec<(StructId, u32)>> {
    proj.iter()
        .map(|s| match *s {
            Proj::Field { strukt, index } => Some((strukt, index)),
            Proj::Index(_) | Proj::ConstIndex(_) => None,
        })
        .collect()
}

/// The head an lvalue of function `f` names, with the struct of the nodes it points to: a
/// global (not thread-local) pointer to a struct or a member path of a global, or a member
/// path of the object a stable local of `f` points to (`q->head`).
fn head_of(p: &Program, f: FuncId, lv: &Lval) -> Option<(Place, StructId)> {
    let fields = member_path(&lv.proj)?;
    let node = pointee_struct(p, p.lval_type(lv))?;
    let place = match &lv.base {
        Base::Var(v) => {
            if !matches!(
                p.vars[*v].kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            ) {
                return None;
            }
            Place {
                head: Head {
                    root: Root::Global(*v),
                    fields,
                },
                object: None,
            }
        }
        Base::Deref(op) => {
            let q = op.plain_var().filter(|&q| super::stable_local(p, f, q))?;
            if fields.is_empty() {
                return None;
            }
            Place {
                head: Head {
                    root: Root::Member,
                    fields,
                },
                object: Some(q),
            }
        }
    };
    Some((place, node))
}

/// The mutex an argument of function `f` names ([`Mutex`]).
fn named_mutex(p: &Program, f: FuncId, op: &Operand) -> Option<Mutex> {
    let Operand::AddrOf(lv) = op.without_casts() else {
        return None;
    };
    let fields = member_path(&lv.proj)?;
    match &lv.base {
        Base::Var(v)
            if matches!(
                p.vars[*v].kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            ) =>
        {
            Some(Mutex::Global(*v, fields))
        }
        Base::Deref(op) => {
            let q = op.plain_var().filter(|&q| super::stable_local(p, f, q))?;
            Some(Mutex::Member(q, fields))
        }
        Base::Var(_) => None,
    }
}

/// The link an lvalue names, `(*x).nf` for any pointer expression `x`, with the variable `x`
/// when it is a plain one.
fn link_of(p: &Program, lv: &Lval) -> Option<(Link, Option<VarId>)> {
    let Some(&Proj::Field { strukt, index }) = lv.proj.last() else {
        return None;
    };
    if pointee_struct(p, p.lval_type(lv)) != Some(strukt) {
        return None;
    }
    let var = match (&lv.base, lv.proj.len()) {
        (Base::Deref(op), 1) => op.plain_var(),
        _ => None,
    };
    Some(((strukt, index), var))
}

/// An unlink `head = x->link`: the statement, its head and link, and `x` (`None` when it is the
/// head itself).
struct Unlink {
    at: At,
    head: Place,
    link: Link,
    from: Option<VarId>,
}

/// The unlinks of a function: a head of a link's struct assigned the link of the object a
/// plain variable or the head itself points to.
fn unlinks(p: &Program, f: FuncId, func: &Func) -> Vec<Unlink> {
    let mut out = Vec::new();
    for (b, block) in func.blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            let StmtKind::Assign { dst, src } = &stmt.kind else {
                continue;
            };
            let Some((head, node)) = head_of(p, f, dst) else {
                continue;
            };
            let Operand::Use(read) = src.without_casts() else {
                continue;
            };
            let Some((link, from)) = link_of(p, read) else {
                continue;
            };
            let from_head = match &read.base {
                Base::Deref(op) => match op.without_casts() {
                    Operand::Use(lv) => head_of(p, f, lv).is_some_and(|(h, _)| h == head),
                    _ => false,
                },
                Base::Var(_) => false,
            };
            let from = if from_head { None } else { from };
            if link.0 == node && (from.is_some() || from_head) {
                out.push(Unlink {
                    at: (b.0, k as u32),
                    head,
                    link,
                    from,
                });
            }
        }
    }
    out
}

/// Every take of the program: a read `j = H` of a head into a local nobody addresses, after
/// which every path where `j` is not null reaches an unlink of `H` ([`reaches_unlink`]).
fn takes(p: &Program) -> Vec<Take> {
    let mut out = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        let unlinks = unlinks(p, f, func);
        if unlinks.is_empty() {
            continue;
        }
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Assign { dst, src } = &stmt.kind else {
                    continue;
                };
                let Some(j) = dst.plain_var().filter(|&j| super::stable_local(p, f, j)) else {
                    continue;
                };
                let Operand::Use(read) = src.without_casts() else {
                    continue;
                };
                let Some((head, _)) = head_of(p, f, read) else {
                    continue;
                };
                let at = (b.0, k as u32);
                for u in &unlinks {
                    if u.head == head
                        && u.from.is_none_or(|x| x == j)
                        && reaches_unlink(p, func, at, j, u)
                    {
                        out.push(Take {
                            func: f,
                            at,
                            var: j,
                            head: head.clone(),
                            link: u.link,
                            unlink: u.at,
                            from: u.from,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Whether every path from the read at `at` on which `j` may not be null reaches the unlink
/// `u`, with nothing in between that names `j`, stores into `u`'s head, calls or returns: the
/// branches on `j` lead the null side away. So `j` owns its object (or holds null) from the
/// read on, since the unlink certainly takes it off the list.
fn reaches_unlink(p: &Program, func: &Func, at: At, j: VarId, u: &Unlink) -> bool {
    let last = u.head.head.fields.last().copied();
    let writes_head = |k: &StmtKind| match k {
        StmtKind::Assign { dst, .. } => match (&u.head.head.root, dst.plain_var()) {
            (Root::Global(g), _) => matches!(dst.base, Base::Var(v) if v == *g),
            (Root::Member, Some(v)) => u.head.object == Some(v),
            (Root::Member, None) => dst.proj.last().is_none_or(
                |s| matches!(*s, Proj::Field { strukt, index } if last == Some((strukt, index))),
            ),
        },
        StmtKind::Call { .. } | StmtKind::Asm { .. } => true,
        StmtKind::Eval(_) => false,
    };
    must_reach(
        p,
        func,
        at,
        &|here, _| here == u.at,
        &|k| writes_head(k) || names(k, j),
        Some(Side::NonNull(j)),
    )
}

/// Whether a statement names the variable `v` anywhere.
fn names(kind: &StmtKind, v: VarId) -> bool {
    struct Names {
        v: VarId,
        found: bool,
    }
    impl Visitor for Names {
        fn visit_var(&mut self, v: VarId) {
            self.found |= v == self.v;
        }
    }
    let mut n = Names { v, found: false };
    crate::ir::visit::walk_stmt(&mut n, kind);
    n.found
}

/// For a branch condition that tests whether `j` is null: whether `j` is non-null on the
/// `then` side (`Some(true)`: `if (j)`, `if (j != 0)`) or on the `else` side (`Some(false)`:
/// `if (!j)`, `if (j == 0)`).
fn null_test(cond: &Operand, is_j: &dyn Fn(&Operand) -> bool) -> Option<bool> {
    let is_null = |op: &Operand| op.constant() == Some(0);
    match cond.without_casts() {
        op if is_j(op) => Some(true),
        Operand::Arith(_, op, args) => match (op, args.as_slice()) {
            (crate::ir::ArithOp::Not, [a]) => null_test(a, is_j).map(|t| !t),
            (crate::ir::ArithOp::Compare(c), [a, b])
                if (is_j(a) && is_null(b)) || (is_null(a) && is_j(b)) =>
            {
                match c {
                    crate::ir::Comparison::Ne => Some(true),
                    crate::ir::Comparison::Eq => Some(false),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// The ownership of every function with a body, given the takes that make it.
fn ownership(
    p: &Program,
    main: FuncId,
    uses: &FunctionUses,
    order: &[(FuncId, bool)],
    taken: &[&Take],
) -> FxHashMap<FuncId, Uniqueness> {
    let mut taken_in: FxHashMap<FuncId, FxHashMap<At, VarId>> = FxHashMap::default();
    for t in taken {
        taken_in.entry(t.func).or_default().insert(t.at, t.var);
    }
    fn sources<'s>(
        taken_in: &FxHashMap<FuncId, FxHashMap<At, VarId>>,
        f: FuncId,
        params: Vec<VarId>,
        results: &'s FxHashSet<FuncId>,
    ) -> Sources<'s> {
        Sources {
            params,
            owned_results: Some(results),
            taken: taken_in.get(&f).cloned().unwrap_or_default(),
        }
    }
    // Functions returning owned objects, callees first, from their own sources only (a
    // parameter's ownership would only add to them).
    let mut returning: FxHashSet<FuncId> = FxHashSet::default();
    for &(f, recursive) in order.iter().rev() {
        if recursive || !may_return_owned(p, &p.funcs[f]) {
            continue;
        }
        let unique = uniqueness::analyse_with(p, f, &sources(&taken_in, f, Vec::new(), &returning));
        if returns_owned(p, &p.funcs[f], &unique) {
            returning.insert(f);
        }
    }
    // Parameters handed owned objects, callers first.
    uniqueness::with_handed_params(p, main, &uses.addressed, order, |f, params| {
        uniqueness::analyse_with(p, f, &sources(&taken_in, f, params, &returning))
    })
}

/// Whether every return of `func` returns null or a plain pointer variable, and one of them
/// a variable: what [`returns_owned`] asks of a function before its uniqueness, which is
/// computed only for the functions that pass.
pub(super) fn may_return_owned(p: &Program, func: &Func) -> bool {
    let mut any = false;
    for block in func.blocks.iter() {
        let Term::Return(value, _) = &block.term else {
            continue;
        };
        let Some(value) = value else { return false };
        if value.constant() == Some(0) {
            continue;
        }
        if value.plain_var().is_none()
            || !matches!(p.types.get(p.operand_type(value)), Type::Pointer(_))
        {
            return false;
        }
        any = true;
    }
    any
}

/// Whether every return of `func` returns a pointer it owns, or null (and one returns a
/// pointer).
pub(super) fn returns_owned(p: &Program, func: &Func, unique: &Uniqueness) -> bool {
    let mut any = false;
    for (b, block) in func.blocks.iter_enumerated() {
        let Term::Return(value, _) = &block.term else {
            continue;
        };
        let Some(value) = value else { return false };
        if value.constant() == Some(0) {
            continue;
        }
        let owned = value
            .plain_var()
            .is_some_and(|v| unique.at_term(b).any(|h| h == Holder::Var(v)));
        if !owned || !matches!(p.types.get(p.operand_type(value)), Type::Pointer(_)) {
            return false;
        }
        any = true;
    }
    any
}

/// The checks of every store into a list ([`owned_pointers`]), and the mutexes each take,
/// push and publication holds.
struct Checker<'a> {
    p: &'a Program,
    links: &'a BTreeSet<Link>,
    /// The heads of the followed links.
    heads: Vec<(Head, Link)>,
    /// The function being checked.
    func: FuncId,
    /// The takes of the followed links: the variables read from the head, by function and
    /// unlink.
    takes: FxHashMap<(FuncId, At), Vec<VarId>>,
    /// Links whose lists are not followed after all.
    broken: BTreeSet<Link>,
    /// The guards held by each take, push and publication of a link.
    sections: Vec<(Link, BTreeSet<Guard>)>,
    /// Each link's tail, with its head: when the link has one head, a global pointer, and one
    /// global pointer `T` other than it that appends go through (`T->next = x`).
    tails: FxHashMap<VarId, VarId>,
    /// Tails that may come to point to a node someone owns.
    stale: FxHashSet<VarId>,
    /// The appends through a tail: function, statement, tail.
    appends: Vec<(FuncId, At, VarId)>,
    /// The member tails of the followed links ([`member_tails`]).
    member_tails: Vec<MemberTail>,
    /// Member tails (by index) that may come to point to a node someone owns.
    stale_members: FxHashSet<usize>,
    /// The appends through a member tail: function, statement, the stable local whose object
    /// holds the tail, and the tail's index.
    member_appends: Vec<(FuncId, At, VarId, usize)>,
    /// The structs each type's values hold ([`Checker::held`]).
    held: RefCell<FxHashMap<TypeId, Rc<FxHashSet<StructId>>>>,
}

/// The checks over the whole program: the links whose lists must not be followed, and the
/// appends through a tail (function, statement, tail).
fn broken_links(
    p: &Program,
    links: &BTreeSet<Link>,
    candidates: &[Take],
    owned: &FxHashMap<FuncId, Uniqueness>,
) -> Checks {
    let mut c = Checker {
        p,
        links,
        heads: Vec::new(),
        func: FuncId(0),
        takes: FxHashMap::default(),
        broken: BTreeSet::new(),
        sections: Vec::new(),
        tails: FxHashMap::default(),
        stale: FxHashSet::default(),
        appends: Vec::new(),
        member_tails: Vec::new(),
        stale_members: FxHashSet::default(),
        member_appends: Vec::new(),
        held: RefCell::default(),
    };
    for t in candidates.iter().filter(|t| links.contains(&t.link)) {
        if !c.heads.contains(&(t.head.head.clone(), t.link)) {
            c.heads.push((t.head.head.clone(), t.link));
        }
        c.takes.entry((t.func, t.unlink)).or_default().push(t.var);
    }
    c.tails = tails(p, links, &c.heads);
    c.member_tails = member_tails(p, links, &c.heads);
    let none = Uniqueness::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !func.blocks.is_empty() {
            c.function(f, func, owned.get(&f).unwrap_or(&none));
        }
    }
    let mut common: FxHashMap<Link, BTreeSet<Guard>> = FxHashMap::default();
    for (link, locks) in std::mem::take(&mut c.sections) {
        match common.get_mut(&link) {
            Some(all) => all.retain(|k| locks.contains(k)),
            None => {
                common.insert(link, locks);
            }
        }
    }
    for &link in links {
        if common.get(&link).is_none_or(BTreeSet::is_empty) {
            c.broken.insert(link);
        }
    }
    let stale = std::mem::take(&mut c.stale);
    c.appends.retain(|(_, _, tail)| !stale.contains(tail));
    let stale = std::mem::take(&mut c.stale_members);
    let member_appends = c
        .member_appends
        .iter()
        .filter(|(_, _, _, k)| !stale.contains(k))
        .map(|&(f, at, q, k)| (f, at, q, c.member_tails[k].tail))
        .collect();
    Checks {
        broken: c.broken,
        appends: c.appends,
        member_appends,
    }
}

/// What the whole-program checks find: the links whose lists must not be followed, the
/// appends through a tail (function, statement, tail) and those through a member tail
/// (function, statement, the stable local whose object holds the tail, the tail's member).
struct Checks {
    broken: BTreeSet<Link>,
    appends: Vec<(FuncId, At, VarId)>,
    member_appends: Vec<(FuncId, At, VarId, (StructId, u32))>,
}

/// A member tail: a pointer member `Q.t` of the struct `Q` whose member `Q.h` is a head of the
/// link, through which appends of the link go (`q->t->link = x`).
struct MemberTail {
    tail: (StructId, u32),
    head: Head,
    link: Link,
}

/// The member tails of the followed links ([`Checker::member_tails`]): a member `t` of the
/// struct of a member head `h` (a direct member, `q->h`) of a link, pointing to the link's
/// struct, through which some append of the link goes (`q->t->link = x`), when it is no head
/// itself and the struct holds no other head of the link.
fn member_tails(p: &Program, links: &BTreeSet<Link>, heads: &[(Head, Link)]) -> Vec<MemberTail> {
    let direct: Vec<(&Head, Link)> = heads
        .iter()
        .filter(|(h, l)| links.contains(l) && h.root == Root::Member && h.fields.len() == 1)
        .map(|(h, l)| (h, *l))
        .collect();
    let mut through: BTreeSet<((StructId, u32), Link)> = BTreeSet::new();
    for func in p.funcs.iter() {
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                let StmtKind::Assign { dst, .. } = &stmt.kind else {
                    continue;
                };
                if let (Some((link, None)), Some(tail)) = (link_of(p, dst), tail_member(dst)) {
                    through.insert((tail, link));
                }
            }
        }
    }
    let mut out = Vec::new();
    for (tail, link) in through {
        let mut of_struct = direct
            .iter()
            .filter(|(h, l)| *l == link && h.fields[0].0 == tail.0);
        let (Some((head, _)), None) = (of_struct.next(), of_struct.next()) else {
            continue;
        };
        let is_head = heads.iter().any(|(h, _)| h.fields.last() == Some(&tail));
        if !is_head && head.fields[0] != tail {
            out.push(MemberTail {
                tail,
                head: (*head).clone(),
                link,
            });
        }
    }
    out
}

/// The stable local `q` of `f` and the member `t` of an append `q->t->link = …`.
fn appended_through_member(p: &Program, f: FuncId, dst: &Lval) -> Option<(VarId, (StructId, u32))> {
    let member = tail_member(dst)?;
    let Base::Deref(op) = &dst.base else {
        return None;
    };
    let Operand::Use(inner) = op.without_casts() else {
        return None;
    };
    let Base::Deref(obj) = &inner.base else {
        return None;
    };
    let q = obj.plain_var().filter(|&q| super::stable_local(p, f, q))?;
    Some((q, member))
}

/// The member `t` of an append `x->t->link = …` through a member (`x` any pointer).
fn tail_member(dst: &Lval) -> Option<(StructId, u32)> {
    let Base::Deref(op) = &dst.base else {
        return None;
    };
    let Operand::Use(inner) = op.without_casts() else {
        return None;
    };
    match (&inner.base, inner.proj.as_slice()) {
        (Base::Deref(_), [Proj::Field { strukt, index }]) => Some((*strukt, *index)),
        _ => None,
    }
}

/// The tails of the followed links ([`Checker::tails`]), with their heads: a global pointer
/// (not a head) that appends of a link go through, and the one global head of the link that the
/// functions appending through it also store into.
fn tails(p: &Program, links: &BTreeSet<Link>, heads: &[(Head, Link)]) -> FxHashMap<VarId, VarId> {
    let global_heads: FxHashSet<VarId> = heads
        .iter()
        .filter(|(h, l)| links.contains(l) && h.fields.is_empty())
        .filter_map(|(h, _)| match h.root {
            Root::Global(g) => Some(g),
            Root::Member => None,
        })
        .collect();
    let mut candidates: BTreeMap<VarId, BTreeSet<VarId>> = BTreeMap::new();
    for func in p.funcs.iter() {
        let mut through = BTreeSet::new();
        let mut stored = BTreeSet::new();
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                let StmtKind::Assign { dst, src } = &stmt.kind else {
                    continue;
                };
                if let Some((link, Some(t))) = link_of(p, dst) {
                    if links.contains(&link)
                        && !global_heads.contains(&t)
                        && matches!(p.vars[t].kind, VarKind::Global { .. })
                    {
                        through.insert(t);
                    }
                }
                if let Some(h) = dst.plain_var().filter(|h| global_heads.contains(h)) {
                    if src.plain_var().is_some() {
                        stored.insert(h);
                    }
                }
            }
        }
        for t in through {
            candidates
                .entry(t)
                .or_default()
                .extend(stored.iter().copied());
        }
    }
    candidates
        .into_iter()
        .filter(|(_, hs)| hs.len() == 1)
        .filter_map(|(t, hs)| hs.first().map(|&h| (t, h)))
        .collect()
}

/// The side of the branches on whether a variable is null that a walk ([`must_reach`]) follows:
/// the other side needs nothing.
#[derive(Clone, Copy)]
enum Side {
    /// Where the variable may not be null; a branch that tests it otherwise ends the walk.
    NonNull(VarId),
    Null(VarId),
    /// Where the member `q->f` (of the object the stable local `q` points to) may be null.
    NullMember(VarId, (StructId, u32)),
}

impl Side {
    /// Whether the branch `cond` tests the side's variable or member against null: `Some(true)`
    /// when its then-side is where it is not null.
    fn test(self, cond: &Operand) -> Option<bool> {
        match self {
            Side::NonNull(v) | Side::Null(v) => null_test(cond, &|op| op.plain_var() == Some(v)),
            Side::NullMember(q, field) => null_test(
                cond,
                &|op| matches!(op.without_casts(), Operand::Use(lv) if is_member_of(lv, q, field)),
            ),
        }
    }
}

/// Whether `lv` is `q->f` for the plain variable `q` and the member `f`.
fn is_member_of(lv: &Lval, q: VarId, (strukt, index): (StructId, u32)) -> bool {
    matches!(&lv.base, Base::Deref(op) if op.plain_var() == Some(q))
        && matches!(lv.proj.as_slice(), [Proj::Field { strukt: s, index: i }] if *s == strukt && *i == index)
}

/// Whether every path from the statement after `at` reaches a statement `target` accepts (by
/// its place and kind), through no call that may release a mutex or wait, no statement
/// `forbidden` names, no return; with `side`, a branch on whether a variable is null leads only
/// to that side.
fn must_reach(
    p: &Program,
    func: &Func,
    at: At,
    target: &dyn Fn(At, &StmtKind) -> bool,
    forbidden: &dyn Fn(&StmtKind) -> bool,
    side: Option<Side>,
) -> bool {
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    let mut work = vec![(at.0, at.1 as usize + 1)];
    while let Some((b, from)) = work.pop() {
        let block = &func.blocks[BlockId(b)];
        let mut reached = false;
        for (k, stmt) in block.stmts.iter().enumerate().skip(from) {
            if target((b, k as u32), &stmt.kind) {
                reached = true;
                break;
            }
            let blocked = match &stmt.kind {
                StmtKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } => !p.known_kind(*g).is_some_and(|k| {
                    !matches!(k, Kind::Wait { .. }) && k.releasing() == Releasing::Nothing
                }),
                StmtKind::Call { .. } | StmtKind::Asm { .. } => true,
                StmtKind::Assign { .. } | StmtKind::Eval(_) => false,
            };
            if blocked || forbidden(&stmt.kind) {
                return false;
            }
        }
        if reached {
            continue;
        }
        let next: Vec<BlockId> = match &block.term {
            Term::Goto(t) => vec![*t],
            Term::Multi(ts, _) => ts.clone(),
            Term::Branch {
                cond,
                then_block,
                else_block,
                ..
            } => match side.map(|side| (side, side.test(cond))) {
                Some((Side::NonNull(_), Some(true)))
                | Some((Side::Null(_) | Side::NullMember(..), Some(false))) => {
                    vec![*then_block]
                }
                Some((Side::NonNull(_), Some(false)))
                | Some((Side::Null(_) | Side::NullMember(..), Some(true))) => {
                    vec![*else_block]
                }
                Some((Side::NonNull(v), None))
                    if uniqueness::mentions_any(cond, &[Holder::Var(v)]) =>
                {
                    return false
                }
                _ => vec![*then_block, *else_block],
            },
            Term::Return(..) => return false,
            Term::Exit => Vec::new(),
        };
        for t in next {
            if seen.insert(t.0) {
                work.push((t.0, 0));
            }
        }
    }
    true
}

impl Checker<'_> {
    /// The must analysis of one function, then each statement checked in the state before it.
    fn function(&mut self, f: FuncId, func: &Func, unique: &Uniqueness) {
        self.func = f;
        let succs = func.successor_lists();
        let entry = solver::dataflow::forward(
            &mut *self,
            func.blocks.len(),
            |b| &succs[b],
            State::default(),
            |c, b, mut state| {
                for stmt in &func.blocks[BlockId(b as u32)].stmts {
                    c.transfer(&mut state, &stmt.kind);
                }
                Some(state)
            },
            |_, into: &mut State, incoming| into.meet(incoming),
        );
        for (b, state) in entry.into_iter().enumerate() {
            let Some(mut state) = state else { continue };
            let block = &func.blocks[BlockId(b as u32)];
            for (k, stmt) in block.stmts.iter().enumerate() {
                let owned: FxHashSet<Holder> =
                    uniqueness::as_set(unique.before(BlockId(b as u32), k));
                let at = (b as u32, k as u32);
                self.statement(f, at, &state, &owned, &stmt.kind);
                self.transfer(&mut state, &stmt.kind);
            }
            self.term(&block.term);
        }
    }

    /// The heads of followed links that a store into `lv` may change, each with whether `lv`
    /// is that head itself: a global head, the global enclosing it, any lvalue naming a member
    /// head's last member, or a whole struct value holding that member's struct.
    fn heads_written(&self, lv: &Lval) -> Vec<(Head, Link, bool)> {
        let path = member_path(&lv.proj);
        let ty = self.p.lval_type(lv);
        let mut out = Vec::new();
        for (h, link) in &self.heads {
            let written = match &h.root {
                Root::Global(g) => match (&lv.base, &path) {
                    (Base::Var(v), Some(path)) if v == g => {
                        h.fields.starts_with(path).then(|| *path == h.fields)
                    }
                    (Base::Var(v), None) if v == g => Some(false),
                    _ => None,
                },
                // Any object's member of the head's last struct is a head of some list (the
                // struct may be a member of another, reached through a pointer to it).
                Root::Member => {
                    let last = h.fields.last().copied();
                    let held = self.held(ty);
                    let names_last = lv.proj.last().is_some_and(|s| {
                        matches!(*s, Proj::Field { strukt, index } if last == Some((strukt, index)))
                    });
                    if names_last {
                        Some(path.as_ref().is_some_and(|p| *p == h.fields))
                    } else if last.is_some_and(|(s, _)| held.contains(&s)) {
                        Some(false)
                    } else {
                        None
                    }
                }
            };
            if let Some(exact) = written {
                out.push((h.clone(), *link, exact));
            }
        }
        out
    }

    /// The followed links whose objects a store of a whole value into `lv` writes, other than
    /// through the link's own field.
    fn links_held(&self, lv: &Lval) -> Vec<Link> {
        let held = self.held(self.p.lval_type(lv));
        self.links
            .iter()
            .copied()
            .filter(|l| held.contains(&l.0))
            .collect()
    }

    /// The structs a value of type `ty` holds ([`held_structs`]), found once per type: the
    /// checks ask for every store and every argument of the program.
    fn held(&self, ty: TypeId) -> Rc<FxHashSet<StructId>> {
        if let Some(found) = self.held.borrow().get(&ty) {
            return Rc::clone(found);
        }
        let mut held = FxHashSet::default();
        held_structs(self.p, ty, &mut held);
        let held = Rc::new(held);
        self.held.borrow_mut().insert(ty, Rc::clone(&held));
        held
    }

    /// Checks a store into a tail: null, or a node this section published.
    fn tail_store(&mut self, state: &State, dst: &Lval, src: Option<&Operand>, null: bool) {
        let Some(tail) = dst.plain_var().filter(|t| self.tails.contains_key(t)) else {
            return;
        };
        let head = self.tails[&tail];
        let published = src
            .and_then(Operand::plain_var)
            .is_some_and(|x| state.facts.contains_key(&Fact::Published(x, head)));
        if !null && !published {
            self.stale.insert(tail);
        }
    }

    /// An append `t->link = x` at `at`: through a tail, it must be followed in its section by
    /// `tail = x`, and then the tail's node is the appender's to write (it is on no one's
    /// hands); any other append may give a tail's node a successor without moving the tail.
    fn tail_append(
        &mut self,
        f: FuncId,
        at: At,
        link: Link,
        base: Option<VarId>,
        src: Option<&Operand>,
    ) {
        let of_link: Vec<VarId> = self
            .tails
            .iter()
            .filter(|(_, h)| {
                self.heads.contains(&(
                    Head {
                        root: Root::Global(**h),
                        fields: Vec::new(),
                    },
                    link,
                ))
            })
            .map(|(t, _)| *t)
            .collect();
        let x = src.and_then(Operand::plain_var);
        for tail in of_link {
            let moved = base == Some(tail)
                && x.is_some_and(|x| {
                    let target = |_: At, k: &StmtKind| {
                        matches!(k, StmtKind::Assign { dst, src }
                            if dst.plain_var() == Some(tail) && src.plain_var() == Some(x))
                    };
                    let forbidden = |k: &StmtKind| {
                        matches!(k, StmtKind::Assign { dst, .. }
                            if dst.plain_var() == Some(tail) || dst.plain_var() == Some(x))
                    };
                    must_reach(self.p, &self.p.funcs[f], at, &target, &forbidden, None)
                });
            if moved {
                self.appends.push((f, at, tail));
            } else {
                self.stale.insert(tail);
            }
        }
    }

    /// The member tails an lvalue names by their member (in any object): a store there, or its
    /// address taken, must be checked.
    fn member_tails_named(&self, lv: &Lval) -> Vec<usize> {
        let Some(&Proj::Field { strukt, index }) = lv.proj.last() else {
            return Vec::new();
        };
        (0..self.member_tails.len())
            .filter(|&k| self.member_tails[k].tail == (strukt, index))
            .collect()
    }

    /// A member tail named where nothing is checked (its address taken, an `asm` operand): it
    /// may come to point anywhere.
    fn member_tail_named(&mut self, lv: &Lval) {
        let named = self.member_tails_named(lv);
        self.stale_members.extend(named);
    }

    /// Checks a store into a member tail: null, or `q->t = x` for a node this section
    /// published into `q`'s list of the tail's head.
    fn member_tail_store(&mut self, state: &State, dst: &Lval, src: Option<&Operand>, null: bool) {
        for k in self.member_tails_named(dst) {
            let tail = &self.member_tails[k];
            let q = match &dst.base {
                Base::Deref(op) if dst.proj.len() == 1 => op.plain_var(),
                _ => None,
            };
            let published = match (q, src.and_then(Operand::plain_var)) {
                (Some(q), Some(x)) => state.facts.contains_key(&Fact::PublishedAt(
                    x,
                    Place {
                        head: tail.head.clone(),
                        object: Some(q),
                    },
                )),
                _ => false,
            };
            if !null && !published {
                self.stale_members.insert(k);
            }
        }
    }

    /// An append `x->t->link = y` at `at` through a member: through a member tail `q->t` of a
    /// stable local `q`, it must be followed in its section by `q->t = y`; any other append of
    /// the link may give a member tail's node a successor without moving the tail.
    fn member_tail_append(
        &mut self,
        f: FuncId,
        at: At,
        link: Link,
        dst: &Lval,
        src: Option<&Operand>,
    ) {
        let through = appended_through_member(self.p, f, dst);
        let x = src.and_then(Operand::plain_var);
        for k in 0..self.member_tails.len() {
            let tail = &self.member_tails[k];
            if tail.link != link {
                continue;
            }
            let moved = match (through, x) {
                (Some((q, member)), Some(x)) if member == tail.tail => {
                    let target = |_: At, kind: &StmtKind| {
                        matches!(kind, StmtKind::Assign { dst, src }
                            if is_member_of(dst, q, member) && src.plain_var() == Some(x))
                    };
                    let forbidden = |kind: &StmtKind| {
                        matches!(kind, StmtKind::Assign { dst, .. }
                            if is_member_of(dst, q, member)
                                || dst.plain_var() == Some(q)
                                || dst.plain_var() == Some(x))
                    };
                    must_reach(self.p, &self.p.funcs[f], at, &target, &forbidden, None).then_some(q)
                }
                _ => None,
            };
            match moved {
                Some(q) => self.member_appends.push((f, at, q, k)),
                None => {
                    self.stale_members.insert(k);
                }
            }
        }
    }

    /// A take at `at` off the list of the member head at `place` (`q->h`): where the list may
    /// have become empty, the member tail of `q` must be reset to null within the section.
    fn member_tail_reset(&mut self, at: At, place: &Place) {
        let (Root::Member, Some(q), [head_member]) =
            (&place.head.root, place.object, place.head.fields.as_slice())
        else {
            return;
        };
        let head_member = *head_member;
        for k in 0..self.member_tails.len() {
            let tail = self.member_tails[k].tail;
            if self.member_tails[k].head != place.head {
                continue;
            }
            let target = |_: At, kind: &StmtKind| {
                matches!(kind, StmtKind::Assign { dst, src }
                    if is_member_of(dst, q, tail) && src.constant() == Some(0))
            };
            let forbidden = |kind: &StmtKind| {
                matches!(kind, StmtKind::Assign { dst, .. }
                    if is_member_of(dst, q, tail)
                        || is_member_of(dst, q, head_member)
                        || dst.plain_var() == Some(q))
            };
            let func = &self.p.funcs[self.func];
            let side = Side::NullMember(q, head_member);
            if !must_reach(self.p, func, at, &target, &forbidden, Some(side)) {
                self.stale_members.insert(k);
            }
        }
    }

    /// A take at `at` off the list of `head`: where the list may have become empty, its tail
    /// must be reset to null within the section.
    fn tail_reset(&mut self, at: At, head: &Head) {
        let (Root::Global(h), true) = (&head.root, head.fields.is_empty()) else {
            return;
        };
        let h = *h;
        let of_head: Vec<VarId> = self
            .tails
            .iter()
            .filter(|(_, hd)| **hd == h)
            .map(|(t, _)| *t)
            .collect();
        for tail in of_head {
            let target = |_: At, k: &StmtKind| {
                matches!(k, StmtKind::Assign { dst, src }
                    if dst.plain_var() == Some(tail) && src.constant() == Some(0))
            };
            let forbidden = |k: &StmtKind| {
                matches!(k, StmtKind::Assign { dst, .. }
                    if dst.plain_var() == Some(tail) || dst.plain_var() == Some(h))
            };
            let func = &self.p.funcs[self.func];
            if !must_reach(self.p, func, at, &target, &forbidden, Some(Side::Null(h))) {
                self.stale.insert(tail);
            }
        }
    }

    /// The followed links whose links or heads a pointer of type `ty` reaches: its pointee holds
    /// a node, or a struct on the path to a member head.
    fn reached(&self, ty: TypeId) -> Vec<Link> {
        let Some(t) = self.p.types.pointee(ty) else {
            return Vec::new();
        };
        let held = self.held(t);
        let mut out: Vec<Link> = self
            .links
            .iter()
            .copied()
            .filter(|l| held.contains(&l.0))
            .collect();
        for (h, l) in &self.heads {
            if h.root == Root::Member && h.fields.iter().any(|(s, _)| held.contains(s)) {
                out.push(*l);
            }
        }
        out
    }

    /// Whether `lv` is a local variable nobody addresses (no list can reach it).
    fn private_local(&self, lv: &Lval) -> bool {
        matches!(lv.base, Base::Var(v)
            if !self.p.vars[v].address_taken
                && matches!(self.p.vars[v].kind, VarKind::Local(_) | VarKind::Temp(_)))
    }

    fn statement(
        &mut self,
        f: FuncId,
        at: At,
        state: &State,
        owned: &FxHashSet<Holder>,
        kind: &StmtKind,
    ) {
        let is_owned = |op: &Operand| {
            op.plain_var()
                .is_some_and(|v| owned.contains(&Holder::Var(v)))
        };
        match kind {
            StmtKind::Assign { dst, src } => {
                self.store(f, at, state, &is_owned, dst, Some(src));
                self.conversions(src);
            }
            StmtKind::Call { dst, callee, args } => {
                if let Some(dst) = dst {
                    self.store(f, at, state, &is_owned, dst, None);
                }
                let kind = match callee {
                    Callee::Direct(g) => self.p.known_kind(*g),
                    Callee::Indirect(_) => None,
                };
                let user = matches!(callee, Callee::Direct(g)
                    if self.p.known(*g).is_none() && !self.p.funcs[*g].blocks.is_empty());
                for (i, arg) in args.iter().enumerate() {
                    let inner = arg.without_casts();
                    let ty = self.p.operand_type(inner);
                    let reached = self.reached(ty);
                    let converted = self.p.operand_type(arg) != ty;
                    let fine = if user {
                        !converted
                    } else {
                        is_owned(inner) || kind.is_some_and(|k| !k.may_store_through(i))
                    };
                    if !fine {
                        self.broken.extend(reached);
                    }
                    self.conversions_inside(arg);
                }
                if let Callee::Indirect(op) = callee {
                    self.conversions(op);
                }
            }
            StmtKind::Eval(op) => self.conversions(op),
            StmtKind::Asm { operands } => {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        if self.tails.contains_key(&v) {
                            self.stale.insert(v);
                        }
                    }
                    self.member_tail_named(lv);
                    let mut hit = self.links_held(lv);
                    hit.extend(self.heads_written(lv).into_iter().map(|(_, l, _)| l));
                    self.broken.extend(hit);
                }
            }
        }
    }

    /// Checks a store into `dst` of `src` (`None`: a call's result).
    fn store(
        &mut self,
        f: FuncId,
        at: At,
        state: &State,
        is_owned: &dyn Fn(&Operand) -> bool,
        dst: &Lval,
        src: Option<&Operand>,
    ) {
        self.addresses_in_lval(dst);
        let null = src.is_some_and(|s| s.constant() == Some(0));
        self.tail_store(state, dst, src, null);
        self.member_tail_store(state, dst, src, null);
        let named = head_of(self.p, self.func, dst).map(|(place, _)| place);
        for (head, link, exact) in self.heads_written(dst) {
            let fact = |fact: Fact| state.facts.get(&fact).filter(|l| !l.is_empty()).cloned();
            let place = named.as_ref().filter(|place| exact && place.head == head);
            let section = match (src, place) {
                _ if null => Some(None),
                (Some(src), Some(place)) => {
                    let taken = self.takes.get(&(f, at)).and_then(|vars| {
                        let mut common: Option<BTreeSet<Mutex>> = None;
                        for &j in vars {
                            let locks = fact(Fact::Read(j, place.clone()))?;
                            common = Some(match common {
                                Some(c) => c.intersection(&locks).cloned().collect(),
                                None => locks,
                            });
                        }
                        common.filter(|l| !l.is_empty())
                    });
                    let x = src.plain_var();
                    let published = x.filter(|_| is_owned(src)).and_then(|x| {
                        if state.facts.contains_key(&Fact::Cleared(x)) {
                            Some(state.held.clone())
                        } else {
                            fact(Fact::Pushed(x, place.clone()))
                        }
                    });
                    if taken.is_some() {
                        self.tail_reset(at, &head);
                        self.member_tail_reset(at, place);
                    }
                    taken
                        .or(published)
                        .map(|locks| Some(guards(&locks, Some(place))))
                }
                _ => None,
            };
            match section {
                Some(Some(locks)) => self.sections.push((link, locks)),
                Some(None) => {}
                None => {
                    self.broken.insert(link);
                }
            }
        }
        if let Some((link, base)) = link_of(self.p, dst) {
            if self.links.contains(&link) {
                let owner = base.is_some_and(|v| {
                    is_owned(&Operand::Use(Lval {
                        base: Base::Var(v),
                        proj: Vec::new(),
                        pos: dst.pos,
                    }))
                });
                let appended = src.and_then(|s| {
                    let x = s.plain_var()?;
                    (is_owned(s) && state.facts.contains_key(&Fact::Cleared(x))).then_some(())
                });
                if null || owner {
                } else if appended.is_some() {
                    self.sections.push((link, guards(&state.held, None)));
                    self.tail_append(f, at, link, base, src);
                    self.member_tail_append(f, at, link, dst, src);
                } else {
                    self.broken.insert(link);
                }
            }
            return;
        }
        let whole = self.links_held(dst);
        if !whole.is_empty() && !self.private_local(dst) {
            let owner = match &dst.base {
                Base::Deref(op) => is_owned(op),
                Base::Var(_) => false,
            };
            if !owner {
                self.broken.extend(whole);
            }
        }
    }
}

impl Checker<'_> {
    /// Scans an operand for addresses of heads and links and for converted node pointers.
    fn conversions(&mut self, op: &Operand) {
        self.scan(op, true);
    }

    /// Scans a call's argument: its outer conversions are the call's to check.
    fn conversions_inside(&mut self, arg: &Operand) {
        self.scan(arg.without_casts(), true);
    }

    /// Scans the operands an lvalue reads to find its place.
    fn addresses_in_lval(&mut self, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            self.scan(op, true);
        }
    }

    fn term(&mut self, term: &Term) {
        match term {
            Term::Return(Some(op), _) => self.scan(op, true),
            Term::Branch { cond, .. } => self.scan(cond, false),
            _ => {}
        }
    }

    fn scan(&mut self, op: &Operand, conversions: bool) {
        let mut found = Vec::new();
        let mut stack = vec![op];
        while let Some(op) = stack.pop() {
            match op {
                Operand::Cast(ty, inner) => {
                    let from = self.p.operand_type(inner);
                    if conversions
                        && from != *ty
                        && matches!(self.p.types.get(*ty), Type::Pointer(_))
                    {
                        if let Some(t) = self.p.types.pointee(from) {
                            let held = self.held(t);
                            found
                                .extend(self.links.iter().copied().filter(|l| held.contains(&l.0)));
                        }
                    }
                    stack.push(inner);
                }
                Operand::AddrOf(lv) | Operand::Use(lv) => {
                    if matches!(op, Operand::AddrOf(_)) {
                        // A global head's or its enclosing struct's address would let a store
                        // name it otherwise; a member head is found by its member wherever
                        // its object is.
                        found.extend(
                            self.heads_written(lv)
                                .into_iter()
                                .filter(|(h, _, exact)| *exact || h.root != Root::Member)
                                .map(|(_, l, _)| l),
                        );
                        if let Some((l, _)) = link_of(self.p, lv) {
                            found.push(l);
                        }
                        if let Base::Var(v) = lv.base {
                            if self.tails.contains_key(&v) {
                                self.stale.insert(v);
                            }
                        }
                        self.member_tail_named(lv);
                    }
                    if let Base::Deref(inner) = &lv.base {
                        stack.push(inner);
                    }
                }
                Operand::Arith(_, _, ops) => stack.extend(ops),
                Operand::VaArg(_, inner) => stack.push(inner),
                Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
            }
        }
        self.broken
            .extend(found.into_iter().filter(|l| self.links.contains(l)));
    }

    /// The must analysis's step over one statement.
    fn transfer(&self, state: &mut State, kind: &StmtKind) {
        match kind {
            StmtKind::Assign { dst, src } => {
                // A node published with its link null is the last of its list.
                let cleared = src
                    .plain_var()
                    .is_some_and(|x| state.facts.contains_key(&Fact::Cleared(x)));
                self.stored(state, dst);
                let link = link_of(self.p, dst).filter(|(l, _)| self.links.contains(l));
                let null = src.constant() == Some(0);
                if link.is_some() && !null {
                    state.forget_links();
                }
                let read = match src.without_casts() {
                    Operand::Use(lv) => head_of(self.p, self.func, lv)
                        .map(|(place, _)| place)
                        .filter(|place| self.heads.iter().any(|(h, _)| *h == place.head)),
                    _ => None,
                };
                if let Some(j) = dst.plain_var() {
                    state.forget_var(j);
                    if let Some(place) = read.clone().filter(|pl| pl.object != Some(j)) {
                        if !state.held.is_empty() {
                            state.facts.insert(Fact::Read(j, place), state.held.clone());
                        }
                    }
                }
                if let Some(x) = src.plain_var().filter(|_| !null && cleared) {
                    for place in self.published_at(dst) {
                        state
                            .facts
                            .insert(Fact::PublishedAt(x, place), BTreeSet::new());
                    }
                    // An append through a tail publishes into its head's list.
                    let into = match (&link, dst.plain_var()) {
                        (Some((_, Some(b))), _) => Some(self.tails.get(b).copied().unwrap_or(*b)),
                        (None, Some(h)) => self
                            .heads_written(dst)
                            .iter()
                            .any(|(_, _, exact)| *exact)
                            .then_some(h),
                        _ => None,
                    };
                    if let Some(into) =
                        into.filter(|v| matches!(self.p.vars[*v].kind, VarKind::Global { .. }))
                    {
                        state
                            .facts
                            .insert(Fact::Published(x, into), BTreeSet::new());
                    }
                }
                if let Some((link, Some(x))) = link {
                    let head_read =
                        read.filter(|place| self.heads.contains(&(place.head.clone(), link)));
                    if null {
                        state.facts.insert(Fact::Cleared(x), BTreeSet::new());
                    } else if let Some(h) = head_read {
                        if !state.held.is_empty() {
                            state.facts.insert(Fact::Pushed(x, h), state.held.clone());
                        }
                    } else if let Some(v) = src.plain_var() {
                        let pushed: Vec<(Fact, BTreeSet<Mutex>)> = state
                            .facts
                            .iter()
                            .filter_map(|(fact, locks)| match fact {
                                Fact::Read(r, h)
                                    if *r == v && self.heads.contains(&(h.head.clone(), link)) =>
                                {
                                    Some((Fact::Pushed(x, h.clone()), locks.clone()))
                                }
                                _ => None,
                            })
                            .collect();
                        state.facts.extend(pushed);
                    }
                }
            }
            StmtKind::Call { dst, callee, args } => {
                let kind = match callee {
                    Callee::Direct(g) => self.p.known_kind(*g),
                    Callee::Indirect(_) => None,
                };
                let keeps_sections = kind.is_some_and(|k| {
                    !matches!(k, Kind::Wait { .. }) && k.releasing() == Releasing::Nothing
                });
                if !keeps_sections {
                    state.forget_sections();
                }
                let stores = args.iter().enumerate().any(|(i, a)| {
                    !self
                        .reached(self.p.operand_type(a.without_casts()))
                        .is_empty()
                        && kind.is_none_or(|k| k.may_store_through(i))
                });
                if stores {
                    state.forget_links();
                }
                self.held_after(state, kind, args);
                if let Some(dst) = dst {
                    self.stored(state, dst);
                    if let Some(v) = dst.plain_var() {
                        state.forget_var(v);
                    }
                }
            }
            StmtKind::Eval(_) => {}
            StmtKind::Asm { .. } => *state = State::default(),
        }
    }

    /// The member heads a store of a node into `dst` publishes it into: `q->h` itself, or the
    /// list of `q->h` through its member tail (`q->t->link = x`), for a stable local `q`.
    fn published_at(&self, dst: &Lval) -> Vec<Place> {
        if let Some((place, _)) = head_of(self.p, self.func, dst) {
            if place.object.is_some()
                && place.head.root == Root::Member
                && self.heads.iter().any(|(h, _)| *h == place.head)
            {
                return vec![place];
            }
        }
        let (Some((link, None)), Some((q, member))) = (
            link_of(self.p, dst),
            appended_through_member(self.p, self.func, dst),
        ) else {
            return Vec::new();
        };
        self.member_tails
            .iter()
            .filter(|t| t.link == link && t.tail == member)
            .map(|t| Place {
                head: t.head.clone(),
                object: Some(q),
            })
            .collect()
    }

    /// A store into `dst` ends what it overwrites: the reads of a head it changes, and what this
    /// function set in links when it writes whole nodes.
    fn stored(&self, state: &mut State, dst: &Lval) {
        for (head, _, _) in self.heads_written(dst) {
            state.forget_head(&head);
        }
        if link_of(self.p, dst).is_none()
            && !self.links_held(dst).is_empty()
            && !self.private_local(dst)
        {
            state.forget_links();
        }
    }

    /// The global mutexes held after a call: an exclusive acquire of one adds it, a release
    /// removes it (all of them when it names none), and anything that may release, or whose
    /// effect the model does not give, forgets them all. A wait holds its mutex again when it
    /// returns.
    fn held_after(&self, state: &mut State, kind: Option<Kind>, args: &[Operand]) {
        let named = |a: crate::model::Arg| {
            args.get(usize::from(a))
                .and_then(|op| named_mutex(self.p, self.func, op))
        };
        match kind {
            Some(Kind::Acquire {
                lock,
                mode: LockMode::Exclusive,
                ..
            }) => {
                if let Some(k) = named(lock) {
                    state.held.insert(k);
                }
            }
            Some(Kind::Release { lock }) => match named(lock) {
                Some(k) => {
                    state.held.remove(&k);
                }
                None => state.held.clear(),
            },
            Some(k) if k.releasing() == Releasing::Nothing => {}
            _ => state.held.clear(),
        }
    }
}
