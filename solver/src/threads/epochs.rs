//! Which creations make one object at a time: the epochs of a lazily filled global pointer
//! ([`ThreadProgram::epochs`], found by the front end) whose argument holds here, for
//! [`super::linearity`] (an extension beyond the paper, whose linearity counts an object made
//! by a function that runs twice as two).
//!
//! The front end checked that each creation runs at most once while the guard stays set, and
//! that the guard and its companions are never copied, so that only a thread running one of
//! their *users* (the functions that name them) reaches their objects. What is left needs the
//! threads: the creations' functions run in no thread (so no two creations overlap), and at
//! every reset of the guard no other thread that may run a user may be running (so no such
//! thread runs across two epochs, and each sees at most one object of each creation).
//!
//! A function runs alone at one of its points, for those threads, when it runs in no thread,
//! no such thread it started may be running there but those a join since ended
//! ([`Mhp::runs_beside`]), and every call of it is made at a point where its caller runs alone
//! but for the threads of handles the callee (or one it called) joined before the point asked,
//! up to `main` (`stop() { join_all(); gate = NULL; }`, whose caller started the threads). A
//! function no call names (one run from unknown code), a recursive one, and one a thread
//! starts never run alone.
//!
//! The same question decides whether a lock behind an owning member stays one lock
//! ([`unsteady`]): each store of a block into the member must be made where no other thread
//! runs, so that every thread that locks the block through the member finds the same one.
//!
//! This module never changes the program; it only answers which epochs hold.

use rustc_hash::{FxHashMap, FxHashSet};

use super::mhp::{reachable_from_threads, Mhp};
use super::structure::Structure;
use super::{AccessId, Event, FnId, ObjectId, ThreadHandle, ThreadProgram};
use crate::constraints::Site;
use crate::ids::IndexVec;

/// What the epochs that hold make once at a time: the objects their creations allocate, and
/// the instantiation sites of their calls.
#[derive(Default)]
pub struct OncePerEpoch {
    pub objects: FxHashSet<ObjectId>,
    pub sites: FxHashSet<Site>,
}

impl OncePerEpoch {
    /// The objects and sites of every epoch of `p` whose creators run in no thread and whose
    /// resets are each made where no thread that may reach the guard's objects runs beside.
    pub fn of(p: &ThreadProgram, s: &Structure, mhp: &Mhp) -> OncePerEpoch {
        let mut out = OncePerEpoch::default();
        if p.epochs.is_empty() {
            return out;
        }
        let Scan {
            at,
            callers,
            site_callees,
        } = Scan::of(p, &all_resets(p));
        let thread_code = reachable_from_threads(p);
        for epoch in &p.epochs {
            let relevant = reaching_sites(&callers, &site_callees, &epoch.users);
            let mut alone = Alone::new(p, s, mhp, &thread_code, &relevant);
            let holds = epoch.creators.iter().all(|&f| !thread_code[f])
                && epoch
                    .resets
                    .iter()
                    .all(|a| at.get(a).is_some_and(|&(f, event)| alone.at(f, event, &[])));
            if holds {
                out.objects.extend(epoch.objects.iter().copied());
                out.sites.extend(epoch.sites.iter().copied());
            }
        }
        out
    }
}

/// The program with the joins of each alias that holds ([`ThreadProgram::guard_joins`]) made
/// joins of the handle it stands for; `None` when none does (the aliases' joins end nothing).
/// An alias holds when the functions that test the guard, those of the handles' creates and
/// the creations of its epoch run in no thread, and no thread of its handle (or started under
/// one) runs beside any reset of the guard, by `mhp`, the threads without those joins. The
/// events keep their places, so the points of `mhp` are the new program's too.
pub fn settle_guard_joins(p: &ThreadProgram, s: &Structure, mhp: &Mhp) -> Option<ThreadProgram> {
    if p.guard_joins.is_empty() {
        return None;
    }
    let Scan { at, .. } = Scan::of(p, &all_resets(p));
    let thread_code = reachable_from_threads(p);
    let mut stands_for: FxHashMap<ThreadHandle, ThreadHandle> = FxHashMap::default();
    for g in &p.guard_joins {
        let epoch = &p.epochs[g.epoch];
        let in_no_thread =
            (g.testers.iter().chain(&g.forkers).chain(&epoch.creators)).all(|&f| !thread_code[f]);
        if !in_no_thread {
            continue;
        }
        // Each handle on its own: a thread of it running while the guard is null would have
        // run across a reset, whatever the other handles' threads do.
        for &(alias, handle) in &g.aliases {
            let relevant = started_under(p, &std::iter::once(handle).collect());
            let mut alone = Alone::new(p, s, mhp, &thread_code, &relevant);
            let holds = (epoch.resets.iter())
                .all(|a| at.get(a).is_some_and(|&(f, event)| alone.at(f, event, &[])));
            if holds {
                stands_for.insert(alias, handle);
            }
        }
    }
    if stands_for.is_empty() {
        return None;
    }
    let mut out = p.clone();
    for body in out.funcs.iter_mut() {
        for e in body.blocks.iter_mut().flat_map(|b| b.events.iter_mut()) {
            if let Event::Join(h) = e {
                if let Some(&handle) = stands_for.get(h) {
                    *h = handle;
                }
            }
        }
    }
    Some(out)
}

/// The resets of every epoch's guard.
fn all_resets(p: &ThreadProgram) -> FxHashSet<AccessId> {
    (p.epochs.iter())
        .flat_map(|e| e.resets.iter().copied())
        .collect()
}

/// The fork sites whose threads a fork with one of `handles` starts, and those their threads
/// start, and so on: the threads that run only while such a thread runs or after.
fn started_under(p: &ThreadProgram, handles: &FxHashSet<ThreadHandle>) -> FxHashSet<Site> {
    let mut sites: FxHashSet<Site> = FxHashSet::default();
    let mut seen: FxHashSet<FnId> = FxHashSet::default();
    let mut stack: Vec<FnId> = Vec::new();
    let events = |f: FnId| p.funcs[f].blocks.iter().flat_map(|b| b.events.iter());
    for f in p.funcs.indices() {
        for e in events(f) {
            if let Event::Fork {
                site,
                callee,
                handle: Some(h),
            } = *e
            {
                if handles.contains(&h) {
                    sites.insert(site);
                    if seen.insert(callee) {
                        stack.push(callee);
                    }
                }
            }
        }
    }
    while let Some(f) = stack.pop() {
        for e in events(f) {
            let callee = match *e {
                Event::Fork { site, callee, .. } => {
                    sites.insert(site);
                    callee
                }
                Event::Call { callee, .. } => callee,
                _ => continue,
            };
            if seen.insert(callee) {
                stack.push(callee);
            }
        }
    }
    sites
}

/// One walk of the event graphs: where the accesses asked about are made, who calls or starts
/// each function, and the functions each fork site starts.
struct Scan {
    at: FxHashMap<AccessId, (FnId, (u32, u32))>,
    callers: IndexVec<FnId, Vec<FnId>>,
    site_callees: FxHashMap<Site, Vec<FnId>>,
}

impl Scan {
    fn of(p: &ThreadProgram, asked: &FxHashSet<AccessId>) -> Scan {
        let mut out = Scan {
            at: FxHashMap::default(),
            callers: IndexVec::from_elem_n(Vec::new(), p.funcs.len()),
            site_callees: FxHashMap::default(),
        };
        for (f, body) in p.funcs.iter_enumerated() {
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    match *e {
                        Event::Access(a) if asked.contains(&a) => {
                            out.at.insert(a, (f, (b as u32, k as u32)));
                        }
                        Event::Call { callee, .. } => out.callers[callee].push(f),
                        Event::Fork { site, callee, .. } => {
                            out.callers[callee].push(f);
                            out.site_callees.entry(site).or_default().push(callee);
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }
}

/// The fork sites whose threads may come to run one of `users`: those starting a function
/// from which a chain of calls and forks leads to one.
fn reaching_sites(
    callers: &IndexVec<FnId, Vec<FnId>>,
    site_callees: &FxHashMap<Site, Vec<FnId>>,
    users: &[FnId],
) -> FxHashSet<Site> {
    let mut reaching: FxHashSet<FnId> = users.iter().copied().collect();
    let mut stack: Vec<FnId> = reaching.iter().copied().collect();
    while let Some(f) = stack.pop() {
        for &c in &callers[f] {
            if reaching.insert(c) {
                stack.push(c);
            }
        }
    }
    (site_callees.iter())
        .filter(|(_, callees)| callees.iter().any(|c| reaching.contains(c)))
        .map(|(&site, _)| site)
        .collect()
}

/// The objects of [`ThreadProgram::steady`] that do not hold: one of their stores may be made
/// while another thread that may reach the member's users runs, or is made nowhere the event
/// graphs say. Their lock stands for several locks over a run, and is not linear (paper §3.1:
/// a linear lock stands for at most one run-time lock).
pub fn unsteady(p: &ThreadProgram, s: &Structure, mhp: &Mhp) -> FxHashSet<ObjectId> {
    let mut out = FxHashSet::default();
    if p.steady.is_empty() {
        return out;
    }
    let asked: FxHashSet<AccessId> = (p.steady.iter())
        .flat_map(|steady| steady.stores.iter().copied())
        .collect();
    let Scan {
        at,
        callers,
        site_callees,
    } = Scan::of(p, &asked);
    let thread_code = reachable_from_threads(p);
    for steady in &p.steady {
        let relevant = reaching_sites(&callers, &site_callees, &steady.users);
        let mut alone = Alone::new(p, s, mhp, &thread_code, &relevant);
        let holds = (steady.stores.iter())
            .all(|a| at.get(a).is_some_and(|&(f, event)| alone.at(f, event, &[])));
        if !holds {
            out.insert(steady.object);
        }
    }
    out
}

/// Whether a function runs alone at a point: no other thread may be running there.
struct Alone<'a> {
    p: &'a ThreadProgram,
    s: &'a Structure,
    mhp: &'a Mhp,
    thread_code: &'a IndexVec<FnId, bool>,
    /// The fork sites whose threads may reach the guard's objects: no other thread matters.
    relevant: &'a FxHashSet<Site>,
    /// Whether each function asked so far runs alone on entry, once the threads of the
    /// handles joined below it are ended.
    entry: FxHashMap<(FnId, Vec<ThreadHandle>), bool>,
}

impl<'a> Alone<'a> {
    fn new(
        p: &'a ThreadProgram,
        s: &'a Structure,
        mhp: &'a Mhp,
        thread_code: &'a IndexVec<FnId, bool>,
        relevant: &'a FxHashSet<Site>,
    ) -> Alone<'a> {
        Alone {
            p,
            s,
            mhp,
            thread_code,
            relevant,
            entry: FxHashMap::default(),
        }
    }

    /// Whether `f` runs alone at event `index` of `block`, given the handles joined (ending all
    /// their threads) in the runs it is called from, below this point of the call chain: the
    /// threads its own run started are ended there, or are those of a handle it or they
    /// joined since.
    fn at(&mut self, f: FnId, (block, index): (u32, u32), below: &[ThreadHandle]) -> bool {
        let mut ended: Vec<ThreadHandle> = below.to_vec();
        let joined = self.mhp.joined_at(f, block, index);
        ended.extend(self.mhp.handle_sets.get(joined).iter().copied());
        ended.sort();
        ended.dedup();
        let point = self.mhp.point(f, block, index);
        let relevant = |site: Site| self.relevant.contains(&site);
        !self.thread_code[f]
            && !self.mhp.runs_beside(f, point, &ended, relevant)
            && self.on_entry(f, ended)
    }

    fn on_entry(&mut self, f: FnId, ended: Vec<ThreadHandle>) -> bool {
        if Some(f) == self.p.main {
            return !self.s.recursive[f];
        }
        let key = (f, ended);
        if let Some(&known) = self.entry.get(&key) {
            return known;
        }
        // A cycle of calls is recursion, which never runs alone; guard the walk anyway.
        self.entry.insert(key.clone(), false);
        let calls = &self.s.callers[f];
        let ok = !self.s.recursive[f]
            && self.s.forkers[f].is_empty()
            && !calls.is_empty()
            && calls
                .iter()
                .all(|cp| self.at(cp.caller, (cp.block, cp.index), &key.1));
        self.entry.insert(key, ok);
        ok
    }
}
