//! Lock labels: unification and semi-unification (paper figure 8a, first and third rules).
//!
//! Locks are never subtyped (\[Sub-Lock\], figure 7a): labels that flow together are unified in an
//! `ena` union-find table. Each class also keeps its *images*: for every instantiation site `i`
//! the lock it is instantiated to (`ℓ ⪯ᵢ ℓ'`). Semi-unification requires the substitution at a
//! site to be a function, so two images of one class at one site are unified:
//!
//! ```text
//! C ∪ {ℓ₀ ⪯ᵢ ℓ₁} ∪ {ℓ₀ ⪯ᵢ ℓ₂}  ⇒  C[ℓ₂ ↦ ℓ₁] ∪ {ℓ₀ ⪯ᵢ ℓ₁}
//! ```
//!
//! A class that is not generic at the binder of `i` is its own image there (\[Inst\]: `l⃗ ⪯ᵢ± l⃗`),
//! so any explicit image it has at `i` is unified with it. Unions only ever merge classes and no
//! label is created here, so the closure always terminates (atomic semi-unification; the paper's
//! non-termination came from structured terms, which the front ends decompose beforehand).

use ena::unify::{InPlaceUnificationTable, UnifyKey};

use crate::constraints::{Constraints, Lock, Site, SiteData, SiteKind, Unpack};
use crate::ids::{Idx, IndexVec};
use crate::scope::{Scope, ScopeTree};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct LockKey(u32);

impl UnifyKey for LockKey {
    type Value = ();
    fn index(&self) -> u32 {
        self.0
    }
    fn from_index(i: u32) -> Self {
        LockKey(i)
    }
    fn tag() -> &'static str {
        "LockKey"
    }
}

/// Per-class data, valid at class representatives.
#[derive(Clone, Debug, Default)]
struct ClassData {
    /// The outermost scope of any member: the class is generic only where all members are.
    scope: Option<Scope>,
    /// `Some(u)` when every member was opened by unpack `u`.
    opened: Option<Unpack>,
    /// The member with the smallest id (the oldest label).
    oldest: Option<Lock>,
    /// Images at sites, sorted by site.
    images: Vec<(Site, Lock)>,
}

/// The union-find table of lock labels with their instantiation images.
#[derive(Clone)]
pub struct LockTable {
    table: InPlaceUnificationTable<LockKey>,
    class: IndexVec<Lock, ClassData>,
    pending: Vec<(Lock, Lock)>,
    unions: usize,
}

impl LockTable {
    /// A table holding every lock label of `c`, with no constraint applied yet.
    pub fn new(c: &Constraints) -> LockTable {
        let mut t = LockTable {
            table: InPlaceUnificationTable::new(),
            class: IndexVec::new(),
            pending: Vec::new(),
            unions: 0,
        };
        for (_, data) in c.locks.iter_enumerated() {
            t.push(data.scope, data.opened);
        }
        t
    }

    fn push(&mut self, scope: Scope, opened: Option<Unpack>) -> Lock {
        let key = self.table.new_key(());
        let id = Lock::new(self.class.len());
        self.class.push(ClassData {
            scope: Some(scope),
            opened,
            oldest: Some(id),
            images: Vec::new(),
        });
        debug_assert_eq!(key.0 as usize, id.index());
        id
    }

    /// Creates a fresh lock label in `scope` (a materialised effect image, figure 8c).
    pub fn fresh(&mut self, scope: Scope) -> Lock {
        self.push(scope, None)
    }

    pub fn len(&self) -> usize {
        self.class.len()
    }

    pub fn is_empty(&self) -> bool {
        self.class.is_empty()
    }

    /// The representative of `l`'s class.
    pub fn find(&mut self, l: Lock) -> Lock {
        Lock(self.table.find(LockKey(l.0)).0)
    }

    /// The number of unions performed so far (to detect progress between solver rounds).
    pub fn union_count(&self) -> usize {
        self.unions
    }

    /// The scope of `l`'s class: the class is generic exactly inside it.
    pub fn scope(&mut self, l: Lock) -> Scope {
        let r = self.find(l);
        self.class[r].scope.unwrap_or(Scope::ROOT)
    }

    /// The oldest member of `l`'s class: the class was in `fl(Γ)` of a lambda if this is below the
    /// lambda's mark.
    pub fn oldest(&mut self, l: Lock) -> Lock {
        let r = self.find(l);
        self.class[r].oldest.unwrap_or(r)
    }

    pub fn opened(&mut self, l: Lock) -> Option<Unpack> {
        let r = self.find(l);
        self.class[r].opened
    }

    /// The image of `l`'s class at `site`, if one was recorded.
    pub fn image(&mut self, l: Lock, site: Site) -> Option<Lock> {
        let r = self.find(l);
        let images = &self.class[r].images;
        let x = images
            .binary_search_by_key(&site, |&(s, _)| s)
            .ok()
            .map(|i| images[i].1)?;
        Some(self.find(x))
    }

    /// The classes of every image of `l`'s class, one per site where it has one, in site order.
    pub fn images_of(&mut self, l: Lock) -> Vec<Lock> {
        let r = self.find(l);
        let images: Vec<Lock> = self.class[r].images.iter().map(|&(_, x)| x).collect();
        images.into_iter().map(|x| self.find(x)).collect()
    }

    /// Whether every site keeps `l`'s class as it is: a class of the root scope, opened by no
    /// unpack, with no image at any site. Translated through any site ([`Self::image`], else
    /// [`Self::generic_at_site`]), it is its representative.
    pub fn site_invariant(&mut self, l: Lock) -> bool {
        let r = self.find(l);
        let data = &self.class[r];
        data.images.is_empty()
            && data.opened.is_none()
            && data.scope.unwrap_or(Scope::ROOT) == Scope::ROOT
    }

    /// Whether the class of `l` is instantiated (rather than kept) at `site`.
    pub fn generic_at_site(&mut self, l: Lock, site: &SiteData, scopes: &ScopeTree) -> bool {
        let r = self.find(l);
        let data = &self.class[r];
        match site.kind {
            SiteKind::Inst => {
                site.binder != Scope::ROOT
                    && scopes.within(data.scope.unwrap_or(Scope::ROOT), site.binder)
            }
            SiteKind::Pack(u) => data.opened == Some(u),
        }
    }

    /// Requests `a = b` (\[Sub-Lock\]); call [`LockTable::close`] to apply.
    pub fn unify(&mut self, a: Lock, b: Lock) {
        self.pending.push((a, b));
    }

    /// Records `generic ⪯ᵢ instance` and applies semi-unification.
    pub fn add_image(
        &mut self,
        generic: Lock,
        site: Site,
        instance: Lock,
        sites: &IndexVec<Site, SiteData>,
        scopes: &ScopeTree,
    ) {
        let r = self.find(generic);
        if !self.generic_at_site(r, &sites[site], scopes) {
            // Not quantified at this site: its image is itself ([Inst], `l⃗ ⪯ᵢ l⃗`).
            self.pending.push((r, instance));
            return;
        }
        let images = &mut self.class[r].images;
        match images.binary_search_by_key(&site, |&(s, _)| s) {
            Ok(i) => {
                let existing = images[i].1;
                self.pending.push((existing, instance));
            }
            Err(i) => images.insert(i, (site, instance)),
        }
    }

    /// Applies pending unifications and the semi-unification rule to a fixpoint.
    pub fn close(&mut self, sites: &IndexVec<Site, SiteData>, scopes: &ScopeTree) {
        while let Some((a, b)) = self.pending.pop() {
            crate::budget::poll();
            let (ra, rb) = (self.find(a), self.find(b));
            if ra == rb {
                continue;
            }
            let da = std::mem::take(&mut self.class[ra]);
            let db = std::mem::take(&mut self.class[rb]);
            self.table.union(LockKey(ra.0), LockKey(rb.0));
            self.unions += 1;
            let r = self.find(ra);
            let scope = match (da.scope, db.scope) {
                (Some(x), Some(y)) => Some(scopes.common_ancestor(x, y)),
                (x, y) => x.or(y),
            };
            let opened = if da.opened == db.opened {
                da.opened
            } else {
                None
            };
            let oldest = match (da.oldest, db.oldest) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            self.class[r] = ClassData {
                scope,
                opened,
                oldest,
                images: Vec::new(),
            };
            // Re-insert the images of both classes: duplicates at one site and images that are
            // no longer generic become pending unions.
            for (site, x) in da.images.into_iter().chain(db.images) {
                self.add_image(r, site, x, sites, scopes);
            }
        }
    }

    /// Every recorded `(class representative, site, image)` triple, sorted.
    pub fn all_images(&mut self) -> Vec<(Lock, Site, Lock)> {
        let mut out = Vec::new();
        for l in self.class.indices() {
            if self.find(l) != l {
                continue;
            }
            let images = self.class[l].images.clone();
            for (s, x) in images {
                let x = self.find(x);
                out.push((l, s, x));
            }
        }
        out.sort();
        out
    }
}

/// Builds the table for `c` and applies all of its lock constraints.
pub fn unify_all(c: &Constraints, scopes: &ScopeTree) -> LockTable {
    let mut t = LockTable::new(c);
    for &(a, b) in &c.lock_eqs {
        t.unify(a, b);
    }
    t.close(&c.sites, scopes);
    for &(g, s, x) in c.lock_insts.iter().chain(&c.pack_lock_maps) {
        t.add_image(g, s, x, &c.sites, scopes);
    }
    t.close(&c.sites, scopes);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::SiteKind;

    #[test]
    fn two_images_at_one_site_are_unified() {
        let mut c = Constraints::new();
        let f = c.new_scope(Scope::ROOT);
        let l0 = c.new_lock(f);
        let l1 = c.new_lock(Scope::ROOT);
        let l2 = c.new_lock(Scope::ROOT);
        let l3 = c.new_lock(Scope::ROOT);
        let i = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        let j = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        c.lock_inst(l0, i, l1);
        c.lock_inst(l0, i, l2);
        c.lock_inst(l0, j, l3);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let mut t = unify_all(&c, &scopes);
        assert_eq!(t.find(l1), t.find(l2));
        assert_ne!(t.find(l1), t.find(l3));
        assert_ne!(t.find(l0), t.find(l1));
    }

    #[test]
    fn a_non_generic_lock_is_its_own_image() {
        let mut c = Constraints::new();
        let f = c.new_scope(Scope::ROOT);
        let global = c.new_lock(Scope::ROOT);
        let copy = c.new_lock(Scope::ROOT);
        let i = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        c.lock_inst(global, i, copy);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let mut t = unify_all(&c, &scopes);
        assert_eq!(t.find(global), t.find(copy));
    }

    #[test]
    fn unifying_with_an_outer_lock_makes_images_collapse() {
        // ℓg is generic in f with image ℓa at i; unifying ℓg with a global lock makes it
        // non-generic, so its image must be the global itself.
        let mut c = Constraints::new();
        let f = c.new_scope(Scope::ROOT);
        let lg = c.new_lock(f);
        let la = c.new_lock(Scope::ROOT);
        let global = c.new_lock(Scope::ROOT);
        let i = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        c.lock_inst(lg, i, la);
        c.lock_eq(lg, global);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let mut t = unify_all(&c, &scopes);
        assert_eq!(t.find(la), t.find(global));
    }
}
