//! Obviously correct, slow versions of the solver's closures, for property tests.
//!
//! Each function applies the paper's rules literally to a fixpoint over small inputs, with none
//! of the fast versions' indexing, region restriction or worklists. The property tests in
//! `solver/tests/` check that the fast algorithms compute the same relations.

use std::collections::BTreeSet;

use fixedbitset::FixedBitSet;

use crate::constraints::{Constraints, Lock, Polarity, Rho, RhoKind, SiteKind};
use crate::ids::Idx;
use crate::scope::Scope;

/// The matched-flow relation `M(a, b)` of figure 8a: the least relation containing identity and
/// flow (and pack flow) edges, closed under transitivity and under
/// `x —(ᵢ→ g, M(g, d), d —)ᵢ→ y ⇒ M(x, y)`, where every label that is not generic at the binder
/// of `i` carries both self-loops `(ᵢ` and `)ᵢ` (\[Inst\]: `l⃗ ⪯ᵢ± l⃗`).
pub fn matched_relation(c: &Constraints) -> Vec<FixedBitSet> {
    let n = c.rhos.len();
    let mut m: Vec<FixedBitSet> = (0..n).map(|_| FixedBitSet::with_capacity(n)).collect();
    for (i, row) in m.iter_mut().enumerate() {
        row.insert(i);
    }
    for &(a, b) in c.flows.iter().chain(&c.pack_flows) {
        m[a.index()].insert(b.index());
    }
    loop {
        let mut changed = false;
        // Transitive closure (Warshall).
        for k in 0..n {
            for i in 0..n {
                if i != k && m[i].contains(k) {
                    let row_k = m[k].clone();
                    let before = m[i].count_ones(..);
                    m[i].union_with(&row_k);
                    changed |= m[i].count_ones(..) != before;
                }
            }
        }
        for (site, data) in c.sites.iter_enumerated() {
            if data.kind != SiteKind::Inst {
                continue;
            }
            let non_generic = |r: usize| !c.generic_at(c.rhos[Rho::new(r)].scope, data.binder);
            let mut opens: Vec<(usize, usize)> = Vec::new();
            let mut closes: Vec<(usize, usize)> = Vec::new();
            for inst in c.rho_insts.iter().filter(|x| x.site == site) {
                match inst.polarity {
                    Polarity::Neg => opens.push((inst.instance.index(), inst.generic.index())),
                    Polarity::Pos => closes.push((inst.generic.index(), inst.instance.index())),
                }
            }
            for r in (0..n).filter(|&r| non_generic(r)) {
                opens.push((r, r));
                closes.push((r, r));
            }
            for &(x, g) in &opens {
                for &(d, y) in &closes {
                    if m[g].contains(d) && !m[x].contains(y) {
                        m[x].insert(y);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return m;
        }
    }
}

/// Lock classes after unification and semi-unification (figure 8a), by repeated scans: a class id
/// for every lock.
pub fn lock_classes(c: &Constraints) -> Vec<usize> {
    let n = c.locks.len();
    let mut class: Vec<usize> = (0..n).collect();
    fn find(class: &mut [usize], mut x: usize) -> usize {
        while class[x] != x {
            x = class[x];
        }
        x
    }
    let union = |class: &mut Vec<usize>, a: usize, b: usize| -> bool {
        let (ra, rb) = (find(class, a), find(class, b));
        if ra == rb {
            return false;
        }
        class[ra.max(rb)] = ra.min(rb);
        true
    };
    for &(a, b) in &c.lock_eqs {
        union(&mut class, a.index(), b.index());
    }
    loop {
        let mut changed = false;
        // A class is generic at a site's binder only if every member was created inside it.
        let members = |class: &mut Vec<usize>, r: usize| -> Vec<usize> {
            (0..n).filter(|&x| find(class, x) == r).collect()
        };
        for &(g, site, x) in c.lock_insts.iter().chain(&c.pack_lock_maps) {
            let data = &c.sites[site];
            let r = find(&mut class, g.index());
            let ms = members(&mut class, r);
            let generic = match data.kind {
                SiteKind::Inst => ms
                    .iter()
                    .all(|&m| c.generic_at(c.locks[Lock::new(m)].scope, data.binder)),
                SiteKind::Pack(u) => ms.iter().all(|&m| c.locks[Lock::new(m)].opened == Some(u)),
            };
            if !generic {
                changed |= union(&mut class, r, x.index());
            }
        }
        let insts: Vec<_> = c
            .lock_insts
            .iter()
            .chain(&c.pack_lock_maps)
            .copied()
            .collect();
        for (k, &(g1, s1, x1)) in insts.iter().enumerate() {
            for &(g2, s2, x2) in &insts[k + 1..] {
                if s1 == s2 && find(&mut class, g1.index()) == find(&mut class, g2.index()) {
                    changed |= union(&mut class, x1.index(), x2.index());
                }
            }
        }
        if !changed {
            break;
        }
    }
    (0..n).map(|x| find(&mut class, x)).collect()
}

/// Correlations at the root for constraint sets without effects or packs: facts
/// `(ρ, ℓ, s, tag)` closed under figure 8b literally — backwards along *every* matched-flow pair,
/// and through every instantiation site of the fact's scope (a label without an image at a site
/// is its own image) — plus, at the root, backwards from a call's result to the function's result
/// label, tagged with the call. Locks are named by their class (see [`lock_classes`]) and images
/// are the explicit lock instantiations. Returns the `(ρ, lock class, tag)` triples at the root
/// for allocation labels.
pub fn root_correlations(c: &Constraints) -> BTreeSet<(Rho, usize, Option<u32>)> {
    let m = {
        let mut no_pack = c.clone();
        no_pack.pack_flows.clear();
        matched_relation(&no_pack)
    };
    let class = lock_classes(c);
    let image = |l: usize, site| -> usize {
        for &(g, s, x) in &c.lock_insts {
            if s == site && class[g.index()] == class[l] {
                return class[x.index()];
            }
        }
        class[l]
    };
    type F = (usize, usize, Scope, Option<u32>);
    let mut facts: BTreeSet<F> = BTreeSet::new();
    for a in c.accesses.iter() {
        facts.insert((a.rho.index(), class[a.lock.index()], a.scope, None));
    }
    loop {
        let mut new: Vec<F> = Vec::new();
        for &(r, l, s, tag) in &facts {
            for (p, row) in m.iter().enumerate() {
                if p != r && row.contains(r) {
                    new.push((p, l, s, tag));
                }
            }
            if s == Scope::ROOT {
                for inst in c.rho_insts.iter() {
                    if inst.polarity == Polarity::Pos && inst.instance.index() == r {
                        new.push((inst.generic.index(), l, s, tag.or(Some(inst.site.0))));
                    }
                }
                continue;
            }
            for (site, data) in c.sites.iter_enumerated() {
                if data.kind != SiteKind::Inst || data.binder != s {
                    continue;
                }
                let l2 = image(l, site);
                let imgs: Vec<usize> = c
                    .rho_insts
                    .iter()
                    .filter(|x| x.site == site && x.generic.index() == r)
                    .map(|x| x.instance.index())
                    .collect();
                if imgs.is_empty() {
                    new.push((r, l2, data.context, None));
                } else {
                    for r2 in imgs {
                        new.push((r2, l2, data.context, None));
                    }
                }
            }
        }
        let before = facts.len();
        facts.extend(new);
        if facts.len() == before {
            break;
        }
    }
    facts
        .into_iter()
        .filter(|&(r, _, s, _)| s == Scope::ROOT && c.rhos[Rho::new(r)].kind == RhoKind::Alloc)
        .map(|(r, l, _, tag)| (Rho::new(r), l, tag))
        .collect()
}
