//! Linearity of lock labels for C (paper §2.2, §3.1): a lock label is *linear* when it stands for
//! at most one run-time lock in each context. Non-linear locks "are treated as always released":
//! they never count as held, so they never hide a race.
//!
//! λ▷ proves linearity with effects; for C this module decides it from where lock objects are
//! created. A lock class is non-linear when it holds locks of two different objects (conflated by
//! flow), or of an object that is an array or lies in an array field (at any depth), or that is
//! allocated in a loop or in a recursive
//! function — or when it is the image at a call site of a lock allocated in the callee, and that
//! call may happen several times (in a loop or recursion).
//!
//! A class that is *not* instantiated at its function's calls (it reaches a global, so \[Inst\] of
//! figure 6 maps it to itself) is the same label in every run of that function: it stands for one
//! lock per run, and so for several locks as soon as the function may run twice while the class is
//! kept — called from two places, from a loop or recursion, or from a caller that itself runs twice
//! with the class kept. The effect system of λ▷ sees this as the lock occurring twice in `ε ⊎ ε'`;
//! here [`KeptRuns`] walks the callers instead.
//!
//! Beyond the paper: an object made by the creation of a lazily filled global pointer, or by
//! one of its companions, that runs at most once per epoch of that pointer
//! ([`super::epochs`]), is one object at a time however often the creation runs, and so are
//! its images at the creation's call. The lock behind an owning member (the front end's
//! packages, `ThreadProgram::steady`) is one lock only when the member keeps its block while
//! threads run ([`super::epochs::unsteady`]).

use rustc_hash::{FxHashMap, FxHashSet};

use super::epochs::OncePerEpoch;
use super::mhp::Mhp;
use super::structure::Structure;
use super::{Event, FnId, ObjectId, ThreadProgram};
use crate::constraints::{Constraints, Lock, Site};
use crate::locks::LockTable;
use crate::scope::{Scope, ScopeTree};

/// An object a lock class may stand for: an object itself, or its copy made by a call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Origin {
    Object(ObjectId),
    Copy(ObjectId, Site),
}

/// The locks that never count as held, and those that stand for no lock the program made.
pub struct Linearity {
    nonlinear: FxHashSet<Lock>,
    grounding: Grounding,
}

/// Which lock classes stand for locks the program made: those an object's lock reaches,
/// directly or as its image at a call, and the generic locks bound at calls (their releases are
/// translated there). Any other class is the lock behind an uninitialised or unknown pointer.
#[derive(Clone, Debug, Default)]
pub struct Grounding {
    grounded: FxHashSet<Lock>,
    bound: FxHashSet<Lock>,
    /// Every lock is a lock the program made (event graphs built by hand, without objects).
    everything: bool,
}

impl Grounding {
    pub fn new(p: &ThreadProgram, locks: &mut LockTable) -> Grounding {
        let mut grounded: FxHashSet<Lock> = FxHashSet::default();
        for info in p.objects.iter() {
            for &l in &info.locks {
                grounded.insert(locks.find(l));
            }
        }
        let images = locks.all_images();
        let mut bound: FxHashSet<Lock> = FxHashSet::default();
        loop {
            let before = grounded.len();
            for &(g, _, x) in &images {
                let (g, x) = (locks.find(g), locks.find(x));
                bound.insert(g);
                if grounded.contains(&g) {
                    grounded.insert(x);
                }
            }
            if grounded.len() == before {
                break;
            }
        }
        Grounding {
            grounded,
            bound,
            everything: false,
        }
    }

    /// Every lock stands for a lock the program made: for event graphs that name their locks
    /// directly, without the objects that hold them.
    pub fn everything() -> Grounding {
        Grounding {
            everything: true,
            ..Grounding::default()
        }
    }

    /// Whether `l` stands for no lock the program made.
    fn is_ungrounded(&self, locks: &mut LockTable, l: Lock) -> bool {
        let r = locks.find(l);
        !self.everything && !self.grounded.contains(&r) && !self.bound.contains(&r)
    }
}

impl Linearity {
    /// Whether a lock (any member of its class) is linear.
    pub fn is_linear(&self, locks: &mut LockTable, l: Lock) -> bool {
        !self.nonlinear.contains(&locks.find(l))
    }

    /// Whether a lock stands for no lock the program made (see [`Grounding`]): releasing it
    /// may release any lock.
    pub fn is_ungrounded(&self, locks: &mut LockTable, l: Lock) -> bool {
        self.grounding.is_ungrounded(locks, l)
    }

    /// Everything linear (the `--no-linearity` switch); which locks are grounded is still known.
    pub fn all_linear(grounding: Grounding) -> Linearity {
        Linearity {
            nonlinear: FxHashSet::default(),
            grounding,
        }
    }
}

/// Decides linearity for every lock class of a C program.
pub fn decide(
    c: &Constraints,
    scopes: &ScopeTree,
    p: &ThreadProgram,
    s: &Structure,
    mhp: &Mhp,
    locks: &mut LockTable,
) -> Linearity {
    let once = OncePerEpoch::of(p, s, mhp);
    let unsteady = super::epochs::unsteady(p, s, mhp);
    // Where each object is created, and whether that point may run several times per run of its
    // function. Objects without an allocation event are globals: created once.
    let mut object_multi: FxHashMap<ObjectId, bool> = FxHashMap::default();
    let mut object_home: FxHashMap<ObjectId, FnId> = FxHashMap::default();
    for (o, info) in p.objects.iter_enumerated() {
        // A lock behind a member whose block may change while threads run is several locks.
        object_multi.insert(o, info.array || unsteady.contains(&o));
    }
    for (f, body) in p.funcs.iter_enumerated() {
        for (b, block) in body.blocks.iter().enumerate() {
            for e in &block.events {
                if let Event::Alloc(o) = *e {
                    object_home.insert(o, f);
                    let in_loop = s.cyclic[f].get(b).copied().unwrap_or(false);
                    if in_loop || s.recursive[f] {
                        object_multi.insert(o, true);
                    }
                }
            }
        }
    }
    // Whether a site's call may happen several times per run of its caller, and who calls it.
    let mut site_multi: FxHashMap<Site, bool> = FxHashMap::default();
    let mut site_caller: FxHashMap<Site, FnId> = FxHashMap::default();
    for points in s.callers.iter().chain(s.forkers.iter()) {
        for pt in points {
            let m = s.in_loop(pt) || s.recursive[pt.caller];
            site_multi.insert(pt.site, m);
            site_caller.insert(pt.site, pt.caller);
        }
    }
    let mut kept = KeptRuns {
        scopes,
        p,
        s,
        memo: FxHashMap::default(),
    };

    // Origins of each class: the objects holding its locks, then copies through images.
    // An origin is multiple per class: one lock of an object may reach a global (and be kept at
    // every call) while its neighbour is instantiated per call.
    let mut origins: FxHashMap<Lock, FxHashSet<Origin>> = FxHashMap::default();
    let mut multi: FxHashMap<(Lock, Origin), bool> = FxHashMap::default();
    for (o, info) in p.objects.iter_enumerated() {
        for &l in &info.locks {
            let r = locks.find(l);
            origins.entry(r).or_default().insert(Origin::Object(o));
            let kept_twice = match object_home.get(&o) {
                Some(&f) => kept.runs_multi(f, locks.scope(r)),
                None => false,
            };
            let in_array = info.array_locks.contains(&l);
            // An epoch's creation makes one object at a time however often it runs.
            let runs_twice = match once.objects.contains(&o) {
                true => info.array,
                false => object_multi.get(&o).copied().unwrap_or(false) || kept_twice,
            };
            let m = runs_twice || in_array;
            let entry = multi.entry((r, Origin::Object(o))).or_insert(false);
            *entry |= m;
        }
    }
    let images = locks.all_images();
    loop {
        crate::budget::poll_now();
        let mut changed = false;
        for &(g, site, x) in &images {
            if !matches!(c.sites[site].kind, crate::constraints::SiteKind::Inst) {
                continue;
            }
            let Some(from) = origins.get(&g).cloned() else {
                continue;
            };
            let kept_twice = match site_caller.get(&site) {
                Some(&caller) => kept.runs_multi(caller, locks.scope(x)),
                None => false,
            };
            let site_m = !once.sites.contains(&site)
                && (site_multi.get(&site).copied().unwrap_or(false) || kept_twice);
            for o in from {
                let object = match o {
                    Origin::Object(ob) | Origin::Copy(ob, _) => ob,
                };
                let copy = Origin::Copy(object, site);
                let m = multi.get(&(g, o)).copied().unwrap_or(false) || site_m;
                let entry = multi.entry((x, copy)).or_insert(false);
                if m && !*entry {
                    *entry = true;
                    changed = true;
                }
                changed |= origins.entry(x).or_default().insert(copy);
            }
        }
        if !changed {
            break;
        }
    }
    let mut nonlinear = FxHashSet::default();
    for (l, os) in &origins {
        if os.len() > 1
            || os
                .iter()
                .any(|&o| multi.get(&(*l, o)).copied().unwrap_or(false))
        {
            nonlinear.insert(*l);
        }
    }
    Linearity {
        nonlinear,
        grounding: Grounding::new(p, locks),
    }
}

/// Whether a function may run several times while a lock class is *kept* — not instantiated at
/// the function's calls and forks (figure 6 \[Inst\] maps labels outside the callee's scope to
/// themselves), so that every run's lock is the same label.
struct KeptRuns<'a> {
    scopes: &'a ScopeTree,
    p: &'a ThreadProgram,
    s: &'a Structure,
    memo: FxHashMap<(FnId, Scope), bool>,
}

impl KeptRuns<'_> {
    /// Whether `f` may run more than once with a class of scope `class_scope` kept. At a function
    /// whose calls instantiate the class, each run's lock is a different image (the origins' copies
    /// track those), so the walk stops there; otherwise it counts `f`'s calls and forks (one in a
    /// loop or a recursive caller counts as many) and, with exactly one, asks the same of its caller.
    fn runs_multi(&mut self, f: FnId, class_scope: Scope) -> bool {
        let mut chain = Vec::new();
        let mut g = f;
        let answer = loop {
            if let Some(&m) = self.memo.get(&(g, class_scope)) {
                break m;
            }
            let binder = self.p.funcs[g].scope;
            if binder != Scope::ROOT && self.scopes.within(class_scope, binder) {
                break false;
            }
            // `main` runs once; a recursive function may run many times.
            if Some(g) == self.p.main || self.s.recursive[g] {
                break self.s.recursive[g];
            }
            let points: Vec<_> = self.s.callers[g].iter().chain(&self.s.forkers[g]).collect();
            let many = points
                .iter()
                .any(|pt| self.s.in_loop(pt) || self.s.recursive[pt.caller]);
            if many || points.len() > 1 {
                break true;
            }
            // A function nobody calls never runs.
            let Some(pt) = points.first() else {
                break false;
            };
            // A chain of single callers without recursion cannot revisit a function, but guard
            // anyway: a revisit means a cycle, which runs several times.
            if chain.contains(&g) {
                break true;
            }
            chain.push(g);
            g = pt.caller;
        };
        for h in chain {
            self.memo.insert((h, class_scope), answer);
        }
        self.memo.insert((g, class_scope), answer);
        answer
    }
}
