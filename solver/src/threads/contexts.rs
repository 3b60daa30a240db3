//! What a context ([`Ctx`]: which thread, where, after what) becomes through a call or a fork:
//! the one translation of contexts that the correlation facts ([`super::facts`]) and the lock
//! order ([`super::order`]) both apply, each with its own translation of locks.
//!
//! Through a call, the thread stays the same; the point becomes the call's point in the
//! caller, the joined threads gain those the caller joined before the call, and for the
//! function's own thread the threads started inside the call that may still be running at the
//! event are added to `inside`. Through a fork, the function's own thread becomes the child
//! started at the fork's site, which keeps where it was in its function as a level of its nest
//! ([`super::nest`]).
//!
//! This module owns the interned sets and nests contexts name; it never decides a race.

use rustc_hash::FxHashMap;

use super::check::Ctx;
use super::facts::Thread;
use super::mhp::{HandleSetId, HandleSets, Mhp, Point, SiteSetId, SiteSets};
use super::nest::{Level, NestId, Nests};
use super::structure::{CallPoint, Structure};
use super::FnId;

/// The tables the ids of contexts stand for, and the translation of contexts.
#[derive(Clone, Debug)]
pub struct Contexts {
    pub handle_sets: HandleSets,
    pub site_sets: SiteSets,
    pub nests: Nests,
    /// The fork sites whose threads may be running at a point of a function, interned.
    live: FxHashMap<(FnId, Point), SiteSetId>,
}

impl Contexts {
    pub fn new(mhp: &Mhp) -> Contexts {
        Contexts {
            handle_sets: mhp.handle_sets.clone(),
            site_sets: SiteSets::default(),
            nests: Nests::default(),
            live: FxHashMap::default(),
        }
    }

    /// The context of an event of `f` at `point` by `f`'s own thread.
    pub fn own(&self, point: Point, joined: HandleSetId, phase: super::phases::Phase) -> Ctx {
        Ctx {
            thread: Thread::Current,
            point,
            joined,
            inside: self.site_sets.empty(),
            nest: NestId::NONE,
            phase,
        }
    }

    /// What `ctx`, a context of `f`, becomes in the caller at `pt`: a function of
    /// [`Contexts::call_view`] of `ctx` alone.
    pub fn through_call(&mut self, mhp: &Mhp, f: FnId, ctx: &Ctx, pt: &CallPoint) -> Ctx {
        let view = self.call_view(mhp, f, ctx);
        self.view_through_call(mhp, &view, pt)
    }

    /// What a context whose [`Contexts::call_view`] is `view` becomes in the caller at `pt`.
    pub fn view_through_call(&mut self, mhp: &Mhp, view: &Ctx, pt: &CallPoint) -> Ctx {
        Ctx {
            point: mhp.point(pt.caller, pt.block, pt.index),
            joined: self.joined_through(mhp, pt, view.joined),
            ..*view
        }
    }

    /// What [`Contexts::through_call`] reads of `ctx`, a context of `f`, whatever the call:
    /// no point (the caller's call point replaces it), and in `inside` the threads started
    /// in `f` that may still be running there for `f`'s own thread, none for another. Two
    /// contexts with one view become the same context through every call, so a fact whose
    /// view was carried up already needs no carrying again.
    pub fn call_view(&mut self, mhp: &Mhp, f: FnId, ctx: &Ctx) -> Ctx {
        let inside = if ctx.thread == Thread::Current {
            let here = self.live_sites(mhp, f, ctx.point);
            self.site_sets.union(ctx.inside, here)
        } else {
            self.site_sets.empty()
        };
        Ctx {
            point: super::mhp::NO_POINT,
            inside,
            ..*ctx
        }
    }

    /// What `ctx`, a context of `f`, becomes through the fork at `pt`: the child thread's. It
    /// keeps where it was in the child's function ([`super::nest`]), unless that function
    /// starts no thread (every fact in it is then the child's own, and nothing is ordered
    /// there) or the fork is on a cycle of calls and forks (the child may start threads that
    /// start its like again: nests would only grow, one level per turn, and multiply the facts
    /// by the positions of each level).
    pub fn through_fork(
        &mut self,
        mhp: &Mhp,
        s: &Structure,
        f: FnId,
        ctx: &Ctx,
        pt: &CallPoint,
    ) -> Ctx {
        let thread = match ctx.thread {
            Thread::Current => Thread::Forked(pt.site),
            t => t,
        };
        let cyclic = s.thread_scc_of[pt.caller] == s.thread_scc_of[f];
        let nest = if mhp.may_fork[f] && !cyclic {
            // The child's own accesses at points that start no thread are told apart only by
            // the threads running there.
            let point = match ctx.thread {
                Thread::Current => mhp.same_threads_point(f, ctx.point),
                Thread::Forked(_) => ctx.point,
            };
            let level = Level {
                site: pt.site,
                func: f,
                thread: ctx.thread,
                point,
                joined: ctx.joined,
                inside: ctx.inside,
            };
            self.nests.push(level, ctx.nest)
        } else {
            NestId::NONE
        };
        Ctx {
            thread,
            point: mhp.point(pt.caller, pt.block, pt.index),
            joined: self.joined_through(mhp, pt, ctx.joined),
            inside: self.site_sets.empty(),
            nest,
            phase: ctx.phase,
        }
    }

    /// The unique threads joined before an event, as seen from a caller (or forker): those the
    /// caller joined before the call, and those joined inside. A pool join wrapper's parameter
    /// handle joined inside the call stands, at a call that joins a pool's handle, for that
    /// handle ([`Mhp::param_joins`]).
    fn joined_through(&mut self, mhp: &Mhp, pt: &CallPoint, inside: HandleSetId) -> HandleSetId {
        let before = mhp.joined_at(pt.caller, pt.block, pt.index);
        let inside = match mhp.param_joins.get(&pt.site) {
            Some(&(param, joined)) if self.handle_sets.get(inside).contains(&param) => {
                let mut set: Vec<_> = self.handle_sets.get(inside).to_vec();
                set.retain(|&h| h != param);
                set.push(joined);
                set.sort();
                set.dedup();
                self.handle_sets.intern(set)
            }
            _ => inside,
        };
        self.handle_sets.union(before, inside)
    }

    fn live_sites(&mut self, mhp: &Mhp, f: FnId, point: Point) -> SiteSetId {
        if let Some(&here) = self.live.get(&(f, point)) {
            return here;
        }
        let here = self.site_sets.intern(mhp.live_sites(f, point));
        self.live.insert((f, point), here);
        here
    }
}
