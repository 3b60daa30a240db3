//! Where a fact was inside the threads it came out of: the thread structure of every thread, not
//! only of the location's home.
//!
//! The check compares facts at a location's home ([`super::privacy`]). There, a thread `P` that
//! the home starts and a child `C` that `P` starts have both become facts of the home's fork of
//! `P`: `Forked` threads at one point. The home alone cannot tell whether `P` wrote before it
//! started `C`, or after it joined `C`; only `P`'s own function can ([`super::mhp`] per
//! function). So when a fact crosses a fork out of a thread's function, it keeps its context
//! there — its thread, point, joined threads and threads started inside, as a [`Level`] — and
//! the levels it already had, deeper first: its *nest*. The check then orders two facts that
//! left the home's thread through the same fork event as the thread they left through orders
//! them, unless two threads of that fork may overlap with their subtrees
//! ([`super::mhp::Mhp::tree_overlap`]); see `check::Checker::ordered_below`.
//!
//! A nest keeps at most [`MAX_DEPTH`] levels, dropping the deepest beyond (a thread function that
//! starts itself would otherwise nest without end): a fact without a level where another has one
//! is simply not ordered by it.

use rustc_hash::FxHashMap;

use super::facts::Thread;
use super::mhp::{HandleSetId, Point, SiteSetId};
use super::FnId;
use crate::constraints::Site;

crate::define_id!(
    /// An interned nest; [`NestId::NONE`] is the empty one.
    pub struct NestId, "nest";
);

impl NestId {
    /// No level: the fact crossed no fork, or the thread it left through starts no thread.
    pub const NONE: NestId = NestId(0);
}

/// The most levels a nest keeps.
pub const MAX_DEPTH: usize = 4;

/// A fact's context in the function of a thread it came out of, as the fork of `site` left it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    /// The fork the fact left the thread's function through.
    pub site: Site,
    /// The thread's function (the fork's callee).
    pub func: FnId,
    /// The fact's thread, point, joined threads and threads started inside, in `func`.
    pub thread: Thread,
    pub point: Point,
    pub joined: HandleSetId,
    pub inside: SiteSetId,
}

/// A level and the nest the fact had in `level.func` (its deeper levels).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Nest {
    level: Level,
    inner: NestId,
    depth: usize,
}

/// Interned nests.
#[derive(Clone, Debug, Default)]
pub struct Nests {
    /// Nest `NestId(k)` is entry `k - 1`.
    nests: Vec<Nest>,
    index: FxHashMap<(Level, NestId), NestId>,
}

impl Nests {
    /// The outermost level of a nest and its deeper levels, or `None` for [`NestId::NONE`].
    pub fn get(&self, id: NestId) -> Option<(Level, NestId)> {
        let k = (id.0 as usize).checked_sub(1)?;
        let n = &self.nests[k];
        Some((n.level, n.inner))
    }

    fn depth(&self, id: NestId) -> usize {
        (id.0 as usize)
            .checked_sub(1)
            .map_or(0, |k| self.nests[k].depth)
    }

    /// The nest of a fact leaving a thread's function through a fork: `level` over the nest
    /// `inner` the fact had there, cut to [`MAX_DEPTH`] levels.
    pub fn push(&mut self, level: Level, inner: NestId) -> NestId {
        let inner = self.truncate(inner, MAX_DEPTH - 1);
        self.intern(level, inner)
    }

    /// The first `keep` levels of `id`.
    fn truncate(&mut self, id: NestId, keep: usize) -> NestId {
        if self.depth(id) <= keep {
            return id;
        }
        let Some((level, inner)) = self.get(id).filter(|_| keep > 0) else {
            return NestId::NONE;
        };
        let inner = self.truncate(inner, keep - 1);
        self.intern(level, inner)
    }

    fn intern(&mut self, level: Level, inner: NestId) -> NestId {
        if let Some(&id) = self.index.get(&(level, inner)) {
            return id;
        }
        let depth = self.depth(inner) + 1;
        self.nests.push(Nest {
            level,
            inner,
            depth,
        });
        let id = NestId(self.nests.len() as u32);
        self.index.insert((level, inner), id);
        id
    }
}

/// The levels of a nest, outermost first (for dumps).
pub fn levels(nests: &Nests, mut id: NestId) -> Vec<Level> {
    let mut out = Vec::new();
    while let Some((level, inner)) = nests.get(id) {
        out.push(level);
        id = inner;
    }
    out
}
