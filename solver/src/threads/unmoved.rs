//! Which flow components a call or fork site leaves where they are, decided from a few numbers
//! per component instead of by translating each member.
//!
//! Through a site, a fact of component `κ` in the callee moves to the images of `κ`'s members
//! ([`super::facts`], figure 8b). Most facts that cross a site are about labels the site does
//! not instantiate: a global's that is not [fixed](super::facts) only because it belongs to some
//! function's run, a label of an enclosing scope. For those the translation is `κ` itself, not
//! internal, and finding that out through the memo of translations cost a probe of a table of
//! hundreds of thousands of entries per location and site (sshfs: 10.8 of 14.4 million located
//! facts translated were such). The test here is exact where it answers: a component stays when
//! none of its members has an image anywhere, none belongs to the callee's run, and none is of
//! a scope within the site's binder (generic there). Where it cannot tell (a member with images
//! at some site, members of several homes) it answers no, and the caller translates.
//!
//! This module never translates a label and never decides a race.

use crate::cfl::Components;
use crate::constraints::{Constraints, Rho, Site};
use crate::correlation::Index;
use crate::scope::{Scope, ScopeTree};

use super::privacy::Homes;
use super::FnId;

/// What the test needs to know of a component's members.
#[derive(Copy, Clone, Debug)]
struct Members {
    /// The least and greatest pre-order entry number of their scopes.
    first: u32,
    last: u32,
    /// The function whose run they belong to: `Some(None)` none does, `Some(Some(f))` every one
    /// that belongs to a run belongs to `f`'s, `None` several functions' runs.
    home: Option<Option<FnId>>,
    /// Some member has an image at some site.
    imaged: bool,
}

/// The per-component summary, indexed by the component's representative.
pub struct Unmoved {
    members: Vec<Members>,
    /// False when the scope tree has no pre-order numbers: the test then always answers no.
    numbered: bool,
}

impl Unmoved {
    pub fn new(
        c: &Constraints,
        comps: &Components,
        index: &Index,
        homes: &Homes,
        scopes: &ScopeTree,
    ) -> Unmoved {
        let blank = Members {
            first: u32::MAX,
            last: 0,
            home: Some(None),
            imaged: false,
        };
        let mut members = vec![blank; comps.of.len()];
        let numbered = scopes.interval(Scope::ROOT).is_some();
        for (rho, info) in c.rhos.iter_enumerated() {
            let m = &mut members[comps.of[rho].0 as usize];
            let entry = scopes.interval(info.scope).map_or(0, |(entry, _)| entry);
            m.first = m.first.min(entry);
            m.last = m.last.max(entry);
            m.home = match (m.home, homes.home_of(rho)) {
                (home, None) => home,
                (Some(None), Some(f)) => Some(Some(f)),
                (Some(Some(g)), Some(f)) if g == f => Some(Some(f)),
                _ => None,
            };
        }
        for (generic, _) in index.rho_images.keys() {
            members[comps.of[generic].0 as usize].imaged = true;
        }
        Unmoved { members, numbered }
    }

    /// Whether a fact of component `comp` in `callee` is, in the caller at `site`, a fact of
    /// `comp` itself and not an internal copy: exactly what [`super::facts`] would translate it
    /// to. `false` when that is not known without translating.
    pub fn stays(
        &self,
        c: &Constraints,
        scopes: &ScopeTree,
        comp: Rho,
        site: Site,
        callee: FnId,
    ) -> bool {
        let m = &self.members[comp.0 as usize];
        if m.imaged || !self.numbered {
            return false;
        }
        match m.home {
            Some(None) => {}
            Some(Some(f)) if f != callee => {}
            _ => return false,
        }
        let binder = c.sites[site].binder;
        if binder == Scope::ROOT {
            // Nothing is generic at the root's sites, and no member has an image.
            return true;
        }
        let Some((a, b)) = scopes.interval(binder) else {
            return false;
        };
        m.last < a || m.first > b
    }
}
