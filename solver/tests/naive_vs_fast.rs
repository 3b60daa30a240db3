//! The fast closures agree with the naive, literal ones on random constraint sets.

use proptest::prelude::*;
use solver::ids::Idx;
use solver::{naive, Constraints, Lock, Polarity, Rho, RhoKind, Scope, SiteKind};

/// A recipe for a random constraint set; indices are taken modulo the sizes.
#[derive(Debug, Clone)]
struct Recipe {
    scope_parents: Vec<usize>,
    rho_scopes: Vec<(usize, bool)>,
    lock_scopes: Vec<usize>,
    sites: Vec<(usize, usize)>,
    flows: Vec<(usize, usize)>,
    pack_flows: Vec<(usize, usize)>,
    rho_insts: Vec<(usize, usize, bool, usize)>,
    lock_insts: Vec<(usize, usize, usize)>,
    lock_eqs: Vec<(usize, usize)>,
    accesses: Vec<(usize, usize, usize)>,
}

fn recipe() -> impl Strategy<Value = Recipe> {
    (
        prop::collection::vec(0usize..8, 1..5),
        prop::collection::vec((0usize..8, any::<bool>()), 2..12),
        prop::collection::vec(0usize..8, 1..6),
        prop::collection::vec((0usize..8, 0usize..8), 1..5),
        prop::collection::vec((0usize..16, 0usize..16), 0..16),
        prop::collection::vec((0usize..16, 0usize..16), 0..3),
        prop::collection::vec((0usize..16, 0usize..8, any::<bool>(), 0usize..16), 0..14),
        prop::collection::vec((0usize..8, 0usize..8, 0usize..8), 0..8),
        prop::collection::vec((0usize..8, 0usize..8), 0..2),
        prop::collection::vec((0usize..16, 0usize..8, 0usize..8), 1..8),
    )
        .prop_map(
            |(
                scope_parents,
                rho_scopes,
                lock_scopes,
                sites,
                flows,
                pack_flows,
                rho_insts,
                lock_insts,
                lock_eqs,
                accesses,
            )| Recipe {
                scope_parents,
                rho_scopes,
                lock_scopes,
                sites,
                flows,
                pack_flows,
                rho_insts,
                lock_insts,
                lock_eqs,
                accesses,
            },
        )
}

/// Builds constraints from a recipe, keeping the invariant that an explicit instantiation's
/// generic label is generic at the site's binder.
fn build(r: &Recipe, with_pack: bool) -> Constraints {
    let mut c = Constraints::new();
    let mut scopes = vec![Scope::ROOT];
    for &p in &r.scope_parents {
        let parent = scopes[p % scopes.len()];
        scopes.push(c.new_scope(parent));
    }
    let ns = scopes.len();
    for &(s, alloc) in &r.rho_scopes {
        c.new_rho(
            scopes[s % ns],
            if alloc {
                RhoKind::Alloc
            } else {
                RhoKind::Plain
            },
        );
    }
    for &s in &r.lock_scopes {
        c.new_lock(scopes[s % ns]);
    }
    for &(b, ctx) in &r.sites {
        // Binders are never the root.
        let binder = scopes[1 + b % (ns - 1)];
        c.new_site(binder, scopes[ctx % ns], SiteKind::Inst);
    }
    let nr = c.rhos.len();
    let nl = c.locks.len();
    let nsite = c.sites.len();
    for &(a, b) in &r.flows {
        c.flow(Rho::new(a % nr), Rho::new(b % nr));
    }
    if with_pack {
        for &(a, b) in &r.pack_flows {
            c.pack_flow(Rho::new(a % nr), Rho::new(b % nr));
        }
    }
    let sites: Vec<_> = c.sites.indices().collect();
    for &(g, s, pos, x) in &r.rho_insts {
        let site = sites[s % nsite];
        let (g, x) = (Rho::new(g % nr), Rho::new(x % nr));
        if c.generic_at(c.rhos[g].scope, c.sites[site].binder) {
            let pol = if pos { Polarity::Pos } else { Polarity::Neg };
            c.rho_inst(g, site, pol, x);
        }
    }
    for &(g, s, x) in &r.lock_insts {
        let site = sites[s % nsite];
        let (g, x) = (Lock::new(g % nl), Lock::new(x % nl));
        if c.generic_at(c.locks[g].scope, c.sites[site].binder) {
            c.lock_inst(g, site, x);
        }
    }
    for &(a, b) in &r.lock_eqs {
        c.lock_eq(Lock::new(a % nl), Lock::new(b % nl));
    }
    for &(rho, l, s) in &r.accesses {
        let rho = Rho::new(rho % nr);
        c.access(rho, Lock::new(l % nl), true, scopes[s % ns]);
    }
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Reachability over flow and summary edges equals the naive matched-flow relation.
    #[test]
    fn matched_flow_agrees(r in recipe()) {
        let c = build(&r, true);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let fast = solver::cfl::close(&c, &scopes, &solver::stats::Stats::off());
        let slow = naive::matched_relation(&c);
        for a in c.rhos.indices() {
            let reach = fast.reachable(a);
            let expected: Vec<Rho> = slow[a.index()].ones().map(Rho::new).collect();
            prop_assert_eq!(reach, expected, "from {:?}", a);
        }
    }

    /// The union-find with semi-unification produces the naive classes.
    #[test]
    fn lock_classes_agree(r in recipe()) {
        let c = build(&r, false);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let mut fast = solver::locks::unify_all(&c, &scopes);
        let slow = naive::lock_classes(&c);
        for a in c.locks.indices() {
            for b in c.locks.indices() {
                prop_assert_eq!(
                    fast.find(a) == fast.find(b),
                    slow[a.index()] == slow[b.index()],
                    "{:?} {:?}", a, b
                );
            }
        }
    }

    /// Correlations reaching the root at allocation sites agree with the naive closure of
    /// figure 8b applied to every matched-flow pair, plus the walk back from results.
    #[test]
    fn root_correlations_agree(r in recipe()) {
        let c = build(&r, false);
        let sol = solver::solve(&c);
        let slow = naive::root_correlations(&c);
        let classes = naive::lock_classes(&c);
        // Name each fast lock class by the naive class of any original member.
        let mut fast = std::collections::BTreeSet::new();
        for f in sol.root_facts() {
            if c.rhos[f.rho].kind != RhoKind::Alloc {
                continue;
            }
            let member = c.locks.indices().find(|&l| sol.rep(l) == f.lock).expect("a member");
            fast.insert((f.rho, classes[member.index()], f.tag.map(|s| s.0)));
        }
        prop_assert_eq!(fast, slow);
    }
}
