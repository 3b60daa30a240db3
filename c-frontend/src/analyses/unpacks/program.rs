//! The unpack analysis of a whole program ([`super`]): function by function, callers first, with
//! what each lock wrapper leaves held, what each call hands to its callee's entry, and which
//! start routines own the fresh object they are created with. It reads the IR and the library
//! model only.

use rustc_hash::{FxHashMap, FxHashSet};

use super::releases::Releases;
use super::{analyse, stable_local, OwnLock, Package, Path, State, Step, Unpacks};
use crate::analyses::calls::Calls;
use crate::analyses::function_uses::FunctionUses;
use crate::analyses::joins::{JoinPlan, StmtAt};
use crate::analyses::uniqueness::{Holder, Uniqueness};
use crate::ir::VarKind;
use crate::ir::{Base, BlockId, FuncId, Lval, Operand, Program, StmtKind, Term, VarId};
use crate::model::LockMode;

/// The analysis of every function with a body, each started from the own locks all its callers
/// hold when they call it.
///
/// A callee's unpack may begin in its caller: `lock(&n->lock); bump(n); unlock(&n->lock);`
/// with `bump(struct node *n) { n->count++; }`. An own lock held at a call whose object is
/// `*v`, with `v` passed unchanged as a parameter of the same pointer type, is held at the
/// callee's entry on that parameter; a variable's own lock (no pointer, no index) is the same
/// lock in the callee. A function's entry holds what every call of it holds, so the functions
/// are analysed callers first (reverse post-order of the direct call graph); a function whose
/// address is taken (it may run as a thread or be called through a pointer), a recursive one,
/// `main` and a function nobody calls hold nothing at entry.
pub fn analyse_program(
    p: &Program,
    calls: &Calls,
    main: FuncId,
    owning_places: &super::OwningPlaces,
    releasers: &FxHashMap<FuncId, Releases>,
    plan: &JoinPlan,
) -> FxHashMap<FuncId, Unpacks> {
    let uses = &calls.uses;
    let storers = super::member_storers(p, calls, owning_places);
    let never = crate::analyses::never_returns::never_returning(p, calls);
    let whole = super::Whole {
        owning: owning_places,
        storers: &storers,
        never: &never,
    };
    // A global array's elements are the threads' own only when handed over by a function that
    // runs once (`main`, or a function only it calls, once): one that runs twice would hand
    // each element to two threads.
    let once = plan.run_once.as_slice();
    let handoffs: FxHashMap<StmtAt, (VarId, VarId)> = plan
        .element_handoffs
        .iter()
        .filter(|&(&(f, _, _), &(array, _))| {
            matches!(p.vars[array].kind, VarKind::Local(_)) || once.binary_search(&f).is_ok()
        })
        .map(|(&at, &x)| (at, x))
        .collect();
    let handoffs = &handoffs;
    let joins: FxHashMap<StmtAt, (VarId, VarId, StmtAt)> = plan
        .element_joins
        .iter()
        .filter(|(_, (_, _, create))| handoffs.contains_key(create))
        .map(|(&at, &x)| (at, x))
        .collect();
    let owning = uses.owning_threads(p, handoffs);
    // The creates whose routine owns its argument, and each function's hand-offs and
    // take-backs: found once, not by a scan of the program's for each function.
    let owned = uses.owned_creates(&owning);
    let handoffs_in = by_function(handoffs);
    let joins_in = by_function(&joins);
    let object_joins_in = by_function(&plan.object_joins);
    let ranges = super::ranges::field_ranges(p, plan, &uses.handed_elements(once, plan));
    let (slots, field_ranges) = (uses.slot_threads(p, once, plan, &owning), ranges);
    let mut slot_calls = super::slot_calls::SlotCalls::default();
    let mut allocated = super::slot_calls::AllocatedGlobals::default();
    let claims = crate::analyses::claims::find(p, calls, Some(main));
    let order = calls.callers_first();
    // Lock wrappers first, callees before callers: what each function certainly leaves held
    // in its parameters' objects when it returns (computed from an empty entry, which can only
    // leave less held).
    let mut exits: FxHashMap<FuncId, State> = FxHashMap::default();
    for &(f, recursive) in order.iter().rev() {
        if recursive {
            continue;
        }
        let result = analyse(p, f, whole, releasers, &exits, Vec::new());
        let left = left_held(p, f, &result);
        if !left.is_empty() {
            exits.insert(f, left);
        }
    }
    let mut entry: FxHashMap<FuncId, Option<State>> = FxHashMap::default();
    let mut out = FxHashMap::default();
    for &(f, recursive) in order {
        let start = match entry.remove(&f) {
            _ if owning.contains(&f) => thread_entry(p, f, uses.element_routine(f, handoffs)),
            Some(Some(s)) if !recursive && f != main && !uses.addressed.contains(&f) => s,
            _ => Vec::new(),
        };
        let mut result = analyse(p, f, whole, releasers, &exits, start);
        uses.hand_over_elements(p, f, &owned, in_function(&handoffs_in, f), &mut result);
        take_back_elements(p, f, &owned, in_function(&joins_in, f), &mut result);
        take_back_objects(p, f, &owned, in_function(&object_joins_in, f), &mut result);
        // A thread's slot, or the slot every call of this function hands on.
        let mut own: Vec<OwnLock> = match slots.get(&f) {
            Some(own) => own.clone(),
            None if !recursive && f != main && !uses.addressed.contains(&f) => {
                slot_calls.of(f).to_vec()
            }
            None => Vec::new(),
        };
        // The elements indexed by values claimed from a shared counter.
        if let Some(locals) = claims.locals.get(&f) {
            own.extend(locals.iter().map(|&(i, n)| claim_slot(i, n)));
        }
        own.extend(super::slot_calls::pointer_slots(p, f, &own, &mut allocated));
        own_slots(p, f, &own, &mut result);
        // The elements of a chunk of claimed values, where the index is known to lie in it.
        for (at, indexes) in crate::analyses::chunks::chunk_indexes(p, f, &claims) {
            let mut held: Vec<OwnLock> = indexes.iter().map(|&(j, n)| claim_slot(j, n)).collect();
            held.extend(super::slot_calls::pointer_slots(
                p,
                f,
                &held,
                &mut allocated,
            ));
            result.before.entry(at).or_default().extend(held);
        }
        let mut ranges = super::ranges::range_slots(p, plan, f, &own, &mut allocated);
        if let Some(bounds) = field_ranges.get(&f) {
            for (at, held) in super::ranges::field_range_slots(p, f, bounds, &mut allocated) {
                ranges.entry(at).or_default().extend(held);
            }
        }
        for (at, ranges) in ranges {
            result.before.entry(at).or_default().extend(ranges);
        }
        for (b, k, g, args) in p.funcs[f].direct_calls() {
            if p.funcs[g].blocks.is_empty() || p.funcs[g].origin != crate::ir::Origin::User {
                continue;
            }
            slot_calls.record_call(p, g, &own, args);
            let passed = passed_on(p, &p.funcs[g].params, result.before(b, k), args);
            match entry.entry(g).or_insert(None) {
                Some(held) => held.retain(|h| passed.contains(h)),
                slot @ None => *slot = Some(passed),
            }
        }
        out.insert(f, result);
    }
    out
}

/// Adds to the unpacks of the program the ownership of objects ([`super::lists`]): the owned
/// package held wherever a pointer variable owns its object. Its own step after
/// [`analyse_program`], which hands own locks on to callees: a callee's ownership is that
/// analysis's own (a parameter owns only what every caller handed over, and the caller stops
/// owning it there). It rests on the uniqueness analysis's escapes, so it runs only with it.
pub fn analyse_ownership(
    p: &Program,
    calls: &Calls,
    main: FuncId,
    unpacks: &mut FxHashMap<FuncId, Unpacks>,
) {
    let owned = super::lists::owned_pointers(p, main, &calls.uses, calls.callers_first());
    let mut unique: Vec<(FuncId, Uniqueness)> = owned.unique.into_iter().collect();
    unique.sort_by_key(|(f, _)| *f);
    for (f, unique) in unique {
        own_objects(p, f, &unique, unpacks.entry(f).or_default());
    }
    // Where a global pointer still points to the node a take owns, accesses through it are the
    // owner's too; so are those of the node a member tail `q->t` points to, where an append
    // goes through it (`Step::FieldPointee`).
    let globals = owned.resident.into_iter().flat_map(|(f, resident)| {
        resident
            .into_iter()
            .map(move |(at, g)| (f, at, g, Vec::new()))
    });
    let members = owned
        .resident_members
        .into_iter()
        .flat_map(|(f, resident)| {
            resident.into_iter().map(move |(at, q, (strukt, index))| {
                (f, at, q, vec![Step::FieldPointee(strukt, index)])
            })
        });
    for (f, (b, k), var, steps) in globals.chain(members) {
        let lock = OwnLock {
            object: Path {
                deref: Some(p.vars[var].ty),
                var,
                steps,
            },
            package: Package::Owned,
            mode: LockMode::Exclusive,
        };
        unpacks
            .entry(f)
            .or_default()
            .before
            .entry((BlockId(b), k as usize))
            .or_default()
            .push(lock);
    }
}

/// The owned package ([`Package::Owned`]) held before each statement of `f` where a pointer
/// variable owns its object.
fn own_objects(p: &Program, f: FuncId, unique: &Uniqueness, result: &mut Unpacks) {
    let locks = |holders: &mut dyn Iterator<Item = Holder>| -> Vec<OwnLock> {
        holders
            .filter_map(|h| match h {
                Holder::Var(v) => Some(OwnLock {
                    object: Path {
                        deref: Some(p.vars[v].ty),
                        var: v,
                        steps: Vec::new(),
                    },
                    package: Package::Owned,
                    mode: LockMode::Exclusive,
                }),
                Holder::Elem(..) => None,
            })
            .collect()
    };
    for (b, block) in p.funcs[f].blocks.iter_enumerated() {
        for k in 0..block.stmts.len() {
            let owned = locks(&mut unique.before(b, k));
            if !owned.is_empty() {
                result.before.entry((b, k)).or_default().extend(owned);
            }
        }
        let owned = locks(&mut unique.at_term(b));
        if !owned.is_empty() {
            result.at_term.entry(b).or_default().extend(owned);
        }
    }
}

impl FunctionUses {
    /// The start routines that own their argument: every create that starts them hands over a
    /// pointer to fresh memory no other thread can reach yet ([`uniqueness`]), or the element
    /// of an array (or of a block the creator allocated) that this create alone hands over, one
    /// element per run of its counted loop ([`JoinPlan::element_handoffs`]); they run from nowhere else, and they have a
    /// parameter to receive it. Their creator cannot touch fresh memory afterwards without the
    /// access being shared (the create published it), so each thread's argument object is its
    /// own; an element is touched by its creator inside the unpack only before the create
    /// ([`FunctionUses::hand_over_elements`]).
    ///
    /// [`uniqueness`]: crate::analyses::uniqueness
    /// [`JoinPlan::element_handoffs`]: crate::analyses::joins::JoinPlan::element_handoffs
    fn owning_threads(
        &self,
        p: &Program,
        handoffs: &FxHashMap<StmtAt, (VarId, VarId)>,
    ) -> FxHashSet<FuncId> {
        let mut unique_in: FxHashMap<FuncId, crate::analyses::uniqueness::Uniqueness> =
            FxHashMap::default();
        let mut out = FxHashSet::default();
        let mut started: Vec<&FuncId> = self.forks.keys().collect();
        started.sort();
        for &g in started {
            let param = p.funcs[g].params.first();
            if self.other_use.contains(&g)
                || p.funcs[g].blocks.is_empty()
                || !param.is_some_and(|&x| stable_local(p, g, x))
            {
                continue;
            }
            let all_fresh = self.forks[&g].iter().all(|(f, b, k, handed)| {
                if handoffs.contains_key(&(*f, *b, *k)) {
                    return true;
                }
                let unique = unique_in
                    .entry(*f)
                    .or_insert_with(|| crate::analyses::uniqueness::analyse(p, *f));
                crate::analyses::uniqueness::base_holder(p, handed)
                    .is_some_and(|h| unique.before(*b, *k).any(|x| x == h))
            });
            if all_fresh {
                out.insert(g);
            }
        }
        out
    }
}

impl FunctionUses {
    /// In a function that hands each thread of a counted loop its own element of an array
    /// (`a[i].x = …; pthread_create(…, &a[i])`), the accesses of that element made before the
    /// create in its block are inside the thread's unpack ([Unpack] of figure 10: the element
    /// is a package whose opened lock only its thread, and its creator before handing it over,
    /// hold) (package `Thread`): made in the
    /// loop's run that starts the element's thread, before it starts, they can meet only
    /// accesses of other elements by the other threads of the loop (package `Element`). Only
    /// when the routine started there owns its argument (`owning`).
    fn hand_over_elements(
        &self,
        p: &Program,
        f: FuncId,
        owned: &FxHashSet<StmtAt>,
        here: &[(StmtAt, (VarId, VarId))],
        result: &mut Unpacks,
    ) {
        for &((_, b, k), (array, counter)) in here {
            if !owned.contains(&(f, b, k)) {
                continue;
            }
            let own = element_lock(p, array, counter);
            for before in 0..k {
                result
                    .before
                    .entry((b, before))
                    .or_default()
                    .push(own.clone());
            }
        }
    }

    /// Whether some create of the routine `g` is an element hand-off.
    fn element_routine(&self, g: FuncId, handoffs: &FxHashMap<StmtAt, (VarId, VarId)>) -> bool {
        self.forks.get(&g).is_some_and(|sites| {
            sites
                .iter()
                .any(|(f, b, k, _)| handoffs.contains_key(&(*f, *b, *k)))
        })
    }

    /// The creates whose routine owns its argument (`owning`).
    fn owned_creates(&self, owning: &FxHashSet<FuncId>) -> FxHashSet<StmtAt> {
        self.forks
            .iter()
            .filter(|(routine, _)| owning.contains(routine))
            .flat_map(|(_, sites)| sites.iter().map(|&(g, b, k, _)| (g, b, k)))
            .collect()
    }
}

/// After `pthread_join(t[j])` of an element hand-off's thread (`JoinPlan::element_joins`),
/// the accesses of the handed element `a[j]` in the join's block, up to any assignment of
/// `j`, are inside the package `Element` again: the thread that owned that element has
/// ended, and the loop's other threads own other elements.
fn take_back_elements(
    p: &Program,
    f: FuncId,
    owned: &FxHashSet<StmtAt>,
    joins: &[(StmtAt, (VarId, VarId, StmtAt))],
    result: &mut Unpacks,
) {
    for &((_, b, k), (array, counter, create)) in joins {
        if !owned.contains(&create) {
            continue;
        }
        let own = element_lock(p, array, counter);
        hold_after(p, f, (b, k), &own, result, |kind| assigns(kind, counter));
    }
}

/// After `pthread_join(t[j])` of an object hand-off's thread ([`JoinPlan::object_joins`]),
/// the creator's accesses through `jobs[j]` in the join's block, up to any assignment of `j`
/// or of `jobs`, are inside the package `Thread` of the object `*jobs[j]`: the thread that
/// owned it has ended, and the loop's other threads own other objects. Only when the
/// routine started there owns its argument.
fn take_back_objects(
    p: &Program,
    f: FuncId,
    owned: &FxHashSet<StmtAt>,
    joins: &[(StmtAt, (VarId, VarId, StmtAt))],
    result: &mut Unpacks,
) {
    for &((_, b, k), (objects, counter, create)) in joins {
        let element = match p.types.get(p.vars[objects].ty) {
            crate::ir::ctypes::Type::Array(e) => *e,
            _ => continue,
        };
        if !owned.contains(&create) || !stable_local(p, f, counter) {
            continue;
        }
        let own = OwnLock {
            object: Path {
                deref: Some(element),
                var: objects,
                steps: vec![Step::Pointee(counter)],
            },
            package: Package::Thread,
            mode: LockMode::Exclusive,
        };
        hold_after(p, f, (b, k), &own, result, |kind| {
            assigns(kind, counter) || assigns(kind, objects) || matches!(kind, StmtKind::Asm { .. })
        });
    }
}

/// The entries of `f` in a map grouped by [`by_function`].
fn in_function<T>(grouped: &FxHashMap<FuncId, Vec<(StmtAt, T)>>, f: FuncId) -> &[(StmtAt, T)] {
    grouped.get(&f).map_or(&[], Vec::as_slice)
}

/// The entries of a map by statement, grouped by function, each group in order.
fn by_function<T: Copy>(map: &FxHashMap<StmtAt, T>) -> FxHashMap<FuncId, Vec<(StmtAt, T)>> {
    let mut out: FxHashMap<FuncId, Vec<(StmtAt, T)>> = FxHashMap::default();
    for (&at, &x) in map {
        out.entry(at.0).or_default().push((at, x));
    }
    for here in out.values_mut() {
        here.sort_unstable_by_key(|&(at, _)| at);
    }
    out
}

/// Whether a statement assigns the variable `v` by name (or a part of it).
fn assigns(kind: &StmtKind, v: VarId) -> bool {
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
            matches!(dst.base, Base::Var(d) if d == v)
        }
        _ => false,
    }
}

/// Holds `own` before each statement of block `b` after the join at `k`, up to the first that
/// `ends` it.
fn hold_after(
    p: &Program,
    f: FuncId,
    (b, k): (BlockId, usize),
    own: &OwnLock,
    result: &mut Unpacks,
    ends: impl Fn(&StmtKind) -> bool,
) {
    let stmts = &p.funcs[f].blocks[b].stmts;
    for (after, stmt) in stmts.iter().enumerate().skip(k + 1) {
        if ends(&stmt.kind) {
            break;
        }
        result
            .before
            .entry((b, after))
            .or_default()
            .push(own.clone());
    }
}

impl FunctionUses {
    /// The routines started by one create only, in a function that runs once (`once`), an
    /// element hand-off that does not hand over a counter's value, with that create.
    fn handed_elements(&self, once: &[FuncId], plan: &JoinPlan) -> Vec<(FuncId, StmtAt)> {
        let mut out: Vec<(FuncId, StmtAt)> = self
            .forks
            .iter()
            .filter_map(|(&g, sites)| match sites.as_slice() {
                [(f, b, k, _)] if once.binary_search(f).is_ok() && !self.other_use.contains(&g) => {
                    Some((g, (*f, *b, *k)))
                }
                _ => None,
            })
            .filter(|(_, create)| {
                !plan.value_handoffs.contains_key(create)
                    && plan.element_handoffs.contains_key(create)
            })
            .collect();
        out.sort();
        out
    }

    /// The routines whose threads index by the value they were started with
    /// ([`Package::Slot`]), with their slot: started only by one create handing over
    /// a counter's value ([`JoinPlan::value_handoffs`]), used nowhere else, with a first
    /// parameter never assigned (which indexes through conversions, `X[(long)arg]`) and the
    /// locals assigned once from that parameter. Or handed an
    /// element whose field holds the counter, or a fresh object whose pointer field points to
    /// the element of an array at the counter ([`super::field_slots`]).
    fn slot_threads(
        &self,
        p: &Program,
        once: &[FuncId],
        plan: &JoinPlan,
        owning: &FxHashSet<FuncId>,
    ) -> FxHashMap<FuncId, Vec<OwnLock>> {
        let mut out = FxHashMap::default();
        let mut routines: Vec<&FuncId> = self.forks.keys().collect();
        routines.sort();
        // Routines started by one create of a function that runs once handing over an element:
        // their slot may be a field of it.
        let mut by_field = Vec::new();
        // Routines started by one create of a function that runs once handing over fresh
        // memory: their slot may be what a pointer field of it points to.
        let mut by_pointer = Vec::new();
        for &g in routines {
            let [(f, b, k, _)] = self.forks[&g].as_slice() else {
                continue;
            };
            let create = (*f, *b, *k);
            if once.binary_search(f).is_err() || self.other_use.contains(&g) {
                continue;
            }
            if !plan.value_handoffs.contains_key(&create) {
                if plan.element_handoffs.contains_key(&create) {
                    by_field.push((g, create));
                } else if owning.contains(&g) {
                    by_pointer.push((g, create));
                }
                continue;
            }
            let func = &p.funcs[g];
            let Some(&param) = func.params.first() else {
                continue;
            };
            if !stable_local(p, g, param) || !assigned_in(p, g, param).is_empty() {
                continue;
            }
            // The locals assigned from the parameter, each assigned nowhere else.
            let mut found = Vec::new();
            for block in func.blocks.iter() {
                for stmt in &block.stmts {
                    let StmtKind::Assign { dst, src } = &stmt.kind else {
                        continue;
                    };
                    let from_param = matches!(
                        src.without_casts(),
                        Operand::Use(Lval { base: Base::Var(v), proj, .. })
                            if *v == param && proj.is_empty()
                    );
                    if let (Base::Var(id), true, true) =
                        (&dst.base, dst.proj.is_empty(), from_param)
                    {
                        if stable_local(p, g, *id) && assigned_in(p, g, *id).len() == 1 {
                            found.push(*id);
                        }
                    }
                }
            }
            // The parameter holds the value too, converted (`results[(long)arg]`, or
            // `int start(long id)` started through a converted pointer).
            let mut held = vec![value_slot(create, param)];
            held.extend(found.into_iter().map(|id| value_slot(create, id)));
            out.insert(g, held);
        }
        let single = |(g, own): (FuncId, OwnLock)| (g, vec![own]);
        if !by_field.is_empty() {
            out.extend(super::field_slots::field_slots(p, plan, &by_field));
        }
        if !by_pointer.is_empty() {
            out.extend(
                super::field_slots::pointee_slots(p, plan, &by_pointer)
                    .into_iter()
                    .map(single),
            );
        }
        out
    }
}

/// The statements of `g` that assign the variable `v` by name.
pub(crate) fn assigned_in(p: &Program, g: FuncId, v: VarId) -> Vec<(BlockId, usize)> {
    let mut out = Vec::new();
    for (b, block) in p.funcs[g].blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            if let StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } = &stmt.kind
            {
                if matches!(dst.base, Base::Var(d) if d == v) {
                    out.push((b, k));
                }
            }
        }
    }
    out
}

/// The slot of the threads of `create` that index by the local `id` ([`Package::Slot`]):
/// accesses of a global array indexed by `id` are inside it.
pub(super) fn value_slot(create: StmtAt, id: VarId) -> OwnLock {
    let (f, b, k) = create;
    OwnLock {
        object: Path {
            deref: None,
            var: id,
            steps: Vec::new(),
        },
        package: Package::Slot(f, b, k),
        mode: LockMode::Exclusive,
    }
}

/// The element claimed into the local `i` from the counter numbered `n` ([`Package::Claim`]):
/// accesses of a global array indexed by `i` are inside it.
fn claim_slot(i: VarId, n: u32) -> OwnLock {
    OwnLock {
        object: Path {
            deref: None,
            var: i,
            steps: Vec::new(),
        },
        package: Package::Claim(n),
        mode: LockMode::Exclusive,
    }
}

/// Every statement and terminator of a slot routine (or of a function every call of which
/// hands on a slot) `g` holds its slots `own`.
fn own_slots(p: &Program, g: FuncId, own: &[OwnLock], result: &mut Unpacks) {
    if own.is_empty() {
        return;
    }
    for (bb, block) in p.funcs[g].blocks.iter_enumerated() {
        for at in 0..block.stmts.len() {
            result
                .before
                .entry((bb, at))
                .or_default()
                .extend(own.iter().cloned());
        }
        // And its branch conditions (`if (X[id] > 0)`).
        result
            .at_term
            .entry(bb)
            .or_default()
            .extend(own.iter().cloned());
    }
}

/// The own lock of a handed element `array[counter]`: of an array, or through a pointer to a
/// block (`Step::PtrIndex`).
fn element_lock(p: &Program, array: VarId, counter: VarId) -> OwnLock {
    let object = match p.vars[array].ty {
        ty if matches!(p.types.get(ty), crate::ir::ctypes::Type::Pointer(_)) => Path {
            deref: Some(ty),
            var: array,
            steps: vec![Step::PtrIndex(counter)],
        },
        _ => Path {
            deref: None,
            var: array,
            steps: vec![Step::Index(counter)],
        },
    };
    OwnLock {
        object,
        package: Package::Element,
        mode: LockMode::Exclusive,
    }
}

/// The entry of a thread that owns its argument: the object its first parameter points to.
/// With `element`, some create hands the routine an element of an array rather than a fresh
/// object, and the ownership is the package [`Package::Element`].
fn thread_entry(p: &Program, g: FuncId, element: bool) -> State {
    let param = p.funcs[g].params[0];
    vec![OwnLock {
        object: Path {
            deref: Some(p.vars[param].ty),
            var: param,
            steps: Vec::new(),
        },
        package: if element {
            Package::Element
        } else {
            Package::Thread
        },
        mode: LockMode::Exclusive,
    }]
}

/// The own locks `f` leaves held at every return, in objects found through a parameter it never
/// assigns or in a global variable: a lock wrapper's summary.
fn left_held(p: &Program, f: FuncId, result: &Unpacks) -> State {
    let func = &p.funcs[f];
    let mut assigned: FxHashSet<VarId> = FxHashSet::default();
    for s in func.blocks.iter().flat_map(|b| &b.stmts) {
        let dst = match &s.kind {
            StmtKind::Assign { dst, .. } => Some(dst),
            StmtKind::Call { dst, .. } => dst.as_ref(),
            _ => None,
        };
        if let Some(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) = dst
        {
            if proj.is_empty() {
                assigned.insert(*v);
            }
        }
    }
    let mut out: Option<State> = None;
    for (b, block) in func.blocks.iter_enumerated() {
        if !matches!(block.term, Term::Return(..)) {
            continue;
        }
        let held = result.at_term(b);
        match &mut out {
            Some(o) => o.retain(|h| held.contains(h)),
            None => out = Some(held.to_vec()),
        }
    }
    let mut out = out.unwrap_or_default();
    out.retain(|h| {
        if h.package == Package::Written {
            return false;
        }
        let fields_only = h.object.steps.iter().all(|s| matches!(s, Step::Field(..)));
        let through_param = h.object.deref.is_some()
            && func.params.contains(&h.object.var)
            && !assigned.contains(&h.object.var);
        let global =
            h.object.deref.is_none() && matches!(p.vars[h.object.var].kind, VarKind::Global { .. });
        fields_only && (through_param || global)
    });
    out
}

/// The own locks a call hands to its callee's entry, named by the callee's parameters.
fn passed_on(p: &Program, params: &[VarId], held: &[OwnLock], args: &[Operand]) -> State {
    let mut out: State = Vec::new();
    for h in held {
        if h.package == Package::Written
            || h.object.steps.iter().any(|s| !matches!(s, Step::Field(..)))
        {
            continue;
        }
        let Some(ty) = h.object.deref else {
            if matches!(p.vars[h.object.var].kind, VarKind::Global { .. }) {
                out.push(h.clone());
            }
            continue;
        };
        for (j, a) in args.iter().enumerate() {
            let same = matches!(a, Operand::Use(Lval { base: Base::Var(v), proj, .. })
                if *v == h.object.var && proj.is_empty());
            let Some(&param) = params.get(j) else { break };
            if same && p.vars[param].ty == ty {
                out.push(OwnLock {
                    object: Path {
                        deref: Some(ty),
                        var: param,
                        steps: h.object.steps.clone(),
                    },
                    ..h.clone()
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
