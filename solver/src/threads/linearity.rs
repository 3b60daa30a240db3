//! Linearity of lock labels for C (paper §2.2, §3.1): a lock label is *linear* when it stands for
//! at most one run-time lock in each context. Non-linear locks "are treated as always released":
//! they never count as held, so they never hide a race.
//!
//! λ▷ proves linearity with effects; for C this module decides it from where lock objects are
//! created. A lock class is non-linear when it holds locks of two different objects (conflated by
//! flow), or of an object that is an array, or that is allocated in a loop or in a recursive
//! function — or when it is the image at a call site of a lock allocated in the callee, and that
//! call may happen several times (in a loop or recursion).

use rustc_hash::{FxHashMap, FxHashSet};

use super::structure::Structure;
use super::{Event, ObjectId, ThreadProgram};
use crate::constraints::{Constraints, Lock, Site};
use crate::locks::LockTable;

/// An object a lock class may stand for: an object itself, or its copy made by a call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Origin {
    Object(ObjectId),
    Copy(ObjectId, Site),
}

/// The locks that never count as held.
pub struct Linearity {
    nonlinear: FxHashSet<Lock>,
}

impl Linearity {
    /// Whether a lock (any member of its class) is linear.
    pub fn is_linear(&self, locks: &mut LockTable, l: Lock) -> bool {
        !self.nonlinear.contains(&locks.find(l))
    }

    /// Everything linear (the `--no-linearity` switch).
    pub fn all_linear() -> Linearity {
        Linearity {
            nonlinear: FxHashSet::default(),
        }
    }
}

/// Decides linearity for every lock class of a C program.
pub fn decide(
    c: &Constraints,
    p: &ThreadProgram,
    s: &Structure,
    locks: &mut LockTable,
) -> Linearity {
    // Where each object is created, and whether that point may run several times.
    let mut object_multi: FxHashMap<ObjectId, bool> = FxHashMap::default();
    for (o, info) in p.objects.iter_enumerated() {
        object_multi.insert(o, info.array);
    }
    for (f, body) in p.funcs.iter_enumerated() {
        for (b, block) in body.blocks.iter().enumerate() {
            for e in &block.events {
                if let Event::Alloc(o) = *e {
                    let in_loop = s.cyclic[f].get(b).copied().unwrap_or(false);
                    if in_loop || s.recursive[f] {
                        object_multi.insert(o, true);
                    }
                }
            }
        }
    }
    // Whether a site's call may happen several times per run of its caller.
    let mut site_multi: FxHashMap<Site, bool> = FxHashMap::default();
    for points in s.callers.iter().chain(s.forkers.iter()) {
        for pt in points {
            let m = s.in_loop(pt) || s.recursive[pt.caller];
            site_multi.insert(pt.site, m);
        }
    }

    // Origins of each class: the objects holding its locks, then copies through images.
    let mut origins: FxHashMap<Lock, FxHashSet<Origin>> = FxHashMap::default();
    let mut multi: FxHashMap<Origin, bool> = FxHashMap::default();
    for (o, info) in p.objects.iter_enumerated() {
        for &l in &info.locks {
            let r = locks.find(l);
            origins.entry(r).or_default().insert(Origin::Object(o));
            multi.insert(
                Origin::Object(o),
                object_multi.get(&o).copied().unwrap_or(false),
            );
        }
    }
    let images = locks.all_images();
    loop {
        let mut changed = false;
        for &(g, site, x) in &images {
            if !matches!(c.sites[site].kind, crate::constraints::SiteKind::Inst) {
                continue;
            }
            let Some(from) = origins.get(&g).cloned() else {
                continue;
            };
            let site_m = site_multi.get(&site).copied().unwrap_or(false);
            for o in from {
                let object = match o {
                    Origin::Object(ob) | Origin::Copy(ob, _) => ob,
                };
                let copy = Origin::Copy(object, site);
                let m = multi.get(&o).copied().unwrap_or(false) || site_m;
                let entry = multi.entry(copy).or_insert(false);
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
        if os.len() > 1 || os.iter().any(|o| multi.get(o).copied().unwrap_or(false)) {
            nonlinear.insert(*l);
        }
    }
    Linearity { nonlinear }
}
