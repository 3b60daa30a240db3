//! Effects and linearity (paper figure 8c and the `occurs(ℓ, ε) ≤ 1` check of §2.3).
//!
//! The paper's rewrite rules copy effects across every instantiation site, creating a fresh lock
//! for each `{ℓ} ⪯ᵢ χ`; along a chain of instantiations that double the effect each time this is
//! exponential. Here effects stay a DAG and each node gets a *memoised occurrence count*: a map from
//! atoms to `occurs`, capped at 2 (only `≤ 1` matters). An atom is either a lock class or the
//! bundle `Anon(i)` of fresh images created at site `i` for locks that have no explicit image
//! there. Fresh images are distinct from every other lock and from each other, so a bundle can
//! stand for all of them without being enumerated; a lock is materialised (given an explicit
//! image) only when a correlation needs it, by [`crate::correlation`].
//!
//! Evaluation is a monotone fixpoint over cells — effect nodes, effect variables, \[Down\] filters
//! and instantiations — with a worklist, so cycles (recursion, higher-order flow) terminate.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::constraints::{
    Constraints, EffectExpr, EffectNode, EffectVar, Filter, Lock, Polarity, Site,
};
use crate::ids::{Idx, IndexVec};
use crate::locks::LockTable;
use crate::scope::ScopeTree;

/// What an effect may contain: a lock class, or all fresh locks made at one site.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    Lock(Lock),
    /// The fresh images created at this instantiation site (figure 8c, `{ℓ} ⪯ᵢ χ` with `ℓ'`
    /// fresh) for locks that no type or correlation forced to a specific label.
    Anon(Site),
}

/// A solved effect: each atom with its occurrence count, 1 or 2 (meaning "two or more").
pub type Occurrences = Vec<(Atom, u8)>;

/// A place where a lock occurs twice in one disjoint union: a linearity violation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NonLinear {
    /// `ε ⊎ ε'` with the atom on both sides.
    Disjoint { node: EffectNode, atom: Atom },
    /// Two different locks instantiated to the same label at a site.
    Inst { site: Site, atom: Atom },
}

/// The solved effects of a program.
pub struct Effects {
    pub vars: IndexVec<EffectVar, Occurrences>,
    pub nonlinear: Vec<NonLinear>,
    /// `effect(τ) = ∅` constraints that failed, with the offending atoms.
    pub nonempty: Vec<(EffectVar, Vec<Atom>)>,
    /// For each instantiation site, the lock classes its instantiated effects contain.
    pub site_locks: IndexVec<Site, Vec<Lock>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Cell {
    Node(EffectNode),
    Var(EffectVar),
    Filter(Filter),
    Inst(usize),
}

fn join_max(a: &Occurrences, b: &Occurrences) -> Occurrences {
    merge(a, b, |x, y| x.max(y))
}

fn join_sum(a: &Occurrences, b: &Occurrences) -> Occurrences {
    merge(a, b, |x, y| (x + y).min(2))
}

fn merge(a: &Occurrences, b: &Occurrences, f: impl Fn(u8, u8) -> u8) -> Occurrences {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(&(x, cx)), Some(&(y, cy))) if x == y => {
                out.push((x, f(cx, cy)));
                i += 1;
                j += 1;
            }
            (Some(&(x, cx)), Some(&(y, _))) if x < y => {
                out.push((x, f(cx, 0)));
                i += 1;
            }
            (Some(_), Some(&(y, cy))) => {
                out.push((y, f(0, cy)));
                j += 1;
            }
            (Some(&(x, cx)), None) => {
                out.push((x, f(cx, 0)));
                i += 1;
            }
            (None, Some(&(y, cy))) => {
                out.push((y, f(0, cy)));
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    out
}

/// Normalises a list of atoms with counts: sorted, collisions summed and capped at 2.
fn normalise(mut v: Vec<(Atom, u8)>) -> Occurrences {
    v.sort();
    let mut out: Occurrences = Vec::with_capacity(v.len());
    for (a, c) in v {
        match out.last_mut() {
            Some((b, d)) if *b == a => *d = (*d + c).min(2),
            _ => out.push((a, c)),
        }
    }
    out
}

/// What `escapes(ℓ, l⃗)` of \[Down\] needs to know (figure 6, with `l⃗ = fl(Γ) ∪ fl(τ)`): a lock
/// escapes if it is in `l⃗` or correlated with a location in `l⃗`. Both sets only grow between
/// solver rounds, so the effects they filter only grow too.
#[derive(Clone, Debug, Default)]
pub struct Escapes {
    /// Per filter: lock classes escaping through its `fl(τ)` (the lambda's own type).
    pub explicit: IndexVec<Filter, FxHashSet<Lock>>,
    /// Per lock class: the oldest location label it is correlated with, anywhere. A lock escapes
    /// through `fl(Γ)` when this label is older than the lambda.
    pub oldest_rho: FxHashMap<Lock, crate::constraints::Rho>,
}

impl Escapes {
    /// Whether lock `l` escapes through filter `f`.
    pub fn escapes(
        &self,
        c: &Constraints,
        scopes: &ScopeTree,
        f: Filter,
        l: Lock,
        locks: &mut LockTable,
    ) -> bool {
        let l = locks.find(l);
        let data = &c.filters[f];
        !scopes.within(locks.scope(l), data.scope)
            || locks.oldest(l) < data.outer_locks
            || self.explicit[f].contains(&l)
            || self
                .oldest_rho
                .get(&l)
                .is_some_and(|r| *r < data.outer_rhos)
    }

    /// Re-keys the sets by class representatives after unifications.
    pub fn normalise(&mut self, locks: &mut LockTable) {
        for set in self.explicit.iter_mut() {
            let old = std::mem::take(set);
            *set = old.into_iter().map(|l| locks.find(l)).collect();
        }
        let old = std::mem::take(&mut self.oldest_rho);
        for (l, r) in old {
            let l = locks.find(l);
            let e = self.oldest_rho.entry(l).or_insert(r);
            *e = (*e).min(r);
        }
    }
}

struct Eval<'a> {
    c: &'a Constraints,
    scopes: &'a ScopeTree,
    locks: &'a mut LockTable,
    escapes: &'a Escapes,
}

impl Eval<'_> {
    fn atom_of(&mut self, l: Lock) -> Atom {
        Atom::Lock(self.locks.find(l))
    }

    /// Renames an effect across site `i` (figure 8c, the instantiation block). Returns the
    /// renamed effect and the atoms where two different source atoms collided.
    fn rename(&mut self, v: &Occurrences, site: Site) -> (Occurrences, Vec<Atom>) {
        let data = &self.c.sites[site];
        let recursive = data.is_recursive(self.scopes);
        let mut out = Vec::with_capacity(v.len());
        for &(atom, count) in v {
            let target = match atom {
                Atom::Lock(l) => {
                    if !self.locks.generic_at_site(l, data, self.scopes) {
                        Atom::Lock(self.locks.find(l))
                    } else if let Some(x) = self.locks.image(l, site) {
                        Atom::Lock(x)
                    } else if recursive {
                        // Polymorphic recursion may not allocate escaping locks ([Fix]); such
                        // locks are reported by the `effect(τ) = ∅` check, and keeping them as
                        // themselves here guarantees termination.
                        Atom::Lock(self.locks.find(l))
                    } else {
                        Atom::Anon(site)
                    }
                }
                Atom::Anon(j) => {
                    let made_inside = self.scopes.within(self.c.sites[j].context, data.binder);
                    if made_inside && data.binder != crate::scope::Scope::ROOT {
                        Atom::Anon(site)
                    } else {
                        Atom::Anon(j)
                    }
                }
            };
            out.push((target, count));
        }
        // Collisions: distinct source atoms landing on one target.
        let mut sorted = out.clone();
        sorted.sort();
        let mut collisions = Vec::new();
        for w in sorted.windows(2) {
            if w[0].0 == w[1].0 {
                collisions.push(w[0].0);
            }
        }
        collisions.dedup();
        (normalise(out), collisions)
    }

    fn filter(&mut self, v: &Occurrences, f: Filter) -> Occurrences {
        let mut out = Vec::with_capacity(v.len());
        for &(a, count) in v {
            let keep = match a {
                // A fresh image that no type or correlation mentions cannot escape.
                Atom::Anon(_) => false,
                Atom::Lock(l) => self.escapes.escapes(self.c, self.scopes, f, l, self.locks),
            };
            if keep {
                out.push((a, count));
            }
        }
        out
    }
}

/// The cells of the fixpoint and who depends on whom: numbered nodes first, then variables,
/// filters and instantiations.
struct Cells {
    n_nodes: usize,
    n_vars: usize,
    n_filters: usize,
    /// Every cell, by number.
    cells: Vec<Cell>,
    /// Dependents: when a cell's value grows, these cells must be recomputed.
    dependents: Vec<Vec<usize>>,
    /// The cells each effect variable is the join of.
    var_sources: IndexVec<EffectVar, Vec<Cell>>,
}

impl Cells {
    /// The cells of the effect constraints of `c` and their dependencies.
    fn new(c: &Constraints) -> Cells {
        let n_nodes = c.effect_nodes.len();
        let n_vars = c.effect_vars.len();
        let n_filters = c.filters.len();
        let n_insts = c.effect_insts.len();
        let total = n_nodes + n_vars + n_filters + n_insts;
        let mut cells: Vec<Cell> = Vec::with_capacity(total);
        cells.extend(c.effect_nodes.indices().map(Cell::Node));
        cells.extend(c.effect_vars.indices().map(Cell::Var));
        cells.extend(c.filters.indices().map(Cell::Filter));
        cells.extend((0..n_insts).map(Cell::Inst));
        let mut g = Cells {
            n_nodes,
            n_vars,
            n_filters,
            cells,
            dependents: vec![Vec::new(); total],
            var_sources: IndexVec::from_elem_n(Vec::new(), n_vars),
        };
        for (n, e) in c.effect_nodes.iter_enumerated() {
            let me = g.index(Cell::Node(n));
            match *e {
                EffectExpr::Empty | EffectExpr::Single(_) => {}
                EffectExpr::Var(v) => g.depends(Cell::Var(v), me),
                EffectExpr::Disjoint(a, b) | EffectExpr::Union(a, b) => {
                    g.depends(Cell::Node(a), me);
                    g.depends(Cell::Node(b), me);
                }
            }
        }
        for &(node, var) in &c.effect_bounds {
            g.depends(Cell::Node(node), g.index(Cell::Var(var)));
            g.var_sources[var].push(Cell::Node(node));
        }
        for (f, data) in c.filters.iter_enumerated() {
            g.depends(Cell::Node(data.effect), g.index(Cell::Filter(f)));
            g.depends(Cell::Filter(f), g.index(Cell::Var(data.target)));
            g.var_sources[data.target].push(Cell::Filter(f));
        }
        for (k, inst) in c.effect_insts.iter().enumerate() {
            let (from, to) = match inst.polarity {
                Polarity::Pos => (inst.generic, inst.instance),
                Polarity::Neg => (inst.instance, inst.generic),
            };
            g.depends(Cell::Var(from), g.index(Cell::Inst(k)));
            g.depends(Cell::Inst(k), g.index(Cell::Var(to)));
            g.var_sources[to].push(Cell::Inst(k));
        }
        g
    }

    /// The number of `cell`.
    fn index(&self, cell: Cell) -> usize {
        match cell {
            Cell::Node(n) => n.index(),
            Cell::Var(v) => self.n_nodes + v.index(),
            Cell::Filter(f) => self.n_nodes + self.n_vars + f.index(),
            Cell::Inst(k) => self.n_nodes + self.n_vars + self.n_filters + k,
        }
    }

    /// Records that cell number `dependent` is recomputed when `cell` grows.
    fn depends(&mut self, cell: Cell, dependent: usize) {
        let i = self.index(cell);
        self.dependents[i].push(dependent);
    }
}

impl Eval<'_> {
    /// The least solution: the value of every cell, by number, computed with a worklist.
    fn fixpoint(&mut self, g: &Cells) -> Vec<Occurrences> {
        let c = self.c;
        let total = g.cells.len();
        let mut values: Vec<Occurrences> = vec![Vec::new(); total];
        let mut queued = vec![true; total];
        let mut work: std::collections::VecDeque<usize> = (0..total).collect();
        while let Some(i) = work.pop_front() {
            queued[i] = false;
            let new = match g.cells[i] {
                Cell::Node(n) => match c.effect_nodes[n] {
                    EffectExpr::Empty => Vec::new(),
                    EffectExpr::Single(l) => vec![(self.atom_of(l), 1)],
                    EffectExpr::Var(v) => values[g.index(Cell::Var(v))].clone(),
                    EffectExpr::Disjoint(a, b) => join_sum(
                        &values[g.index(Cell::Node(a))],
                        &values[g.index(Cell::Node(b))],
                    ),
                    EffectExpr::Union(a, b) => join_max(
                        &values[g.index(Cell::Node(a))],
                        &values[g.index(Cell::Node(b))],
                    ),
                },
                Cell::Var(v) => {
                    let mut acc = Vec::new();
                    for src in &g.var_sources[v] {
                        acc = join_max(&acc, &values[g.index(*src)]);
                    }
                    acc
                }
                Cell::Filter(f) => {
                    let inner = values[g.index(Cell::Node(c.filters[f].effect))].clone();
                    self.filter(&inner, f)
                }
                Cell::Inst(k) => {
                    let inst = c.effect_insts[k];
                    match inst.polarity {
                        Polarity::Pos => {
                            let src = values[g.index(Cell::Var(inst.generic))].clone();
                            self.rename(&src, inst.site).0
                        }
                        // What the caller's argument allocates belongs to the caller: its locks
                        // are not generic in the function and keep their names.
                        Polarity::Neg => values[g.index(Cell::Var(inst.instance))].clone(),
                    }
                }
            };
            // Values only grow; joining with the old value keeps the iteration monotone even when
            // renaming maps atoms differently as classes merge.
            let merged = join_max(&values[i], &new);
            if merged != values[i] {
                values[i] = merged;
                for &d in &g.dependents[i] {
                    if !queued[d] {
                        queued[d] = true;
                        work.push_back(d);
                    }
                }
            }
        }
        values
    }

    /// Linearity violations: a disjoint union whose two sides share an atom, or a renaming that
    /// maps two distinct atoms to one, one report per atom (its first violation). (Counts alone
    /// cannot locate them: through recursion, a count of 2 produced at a union flows back into
    /// that union's own operands.)
    fn nonlinear(&mut self, g: &Cells, values: &[Occurrences]) -> Vec<NonLinear> {
        let c = self.c;
        let mut nonlinear = Vec::new();
        for (n, e) in c.effect_nodes.iter_enumerated() {
            if let EffectExpr::Disjoint(a, b) = *e {
                let va = &values[g.index(Cell::Node(a))];
                let vb = &values[g.index(Cell::Node(b))];
                for (atom, _) in va {
                    if vb.binary_search_by_key(atom, |&(x, _)| x).is_ok() {
                        nonlinear.push(NonLinear::Disjoint {
                            node: n,
                            atom: *atom,
                        });
                    }
                }
            }
        }
        for inst in c
            .effect_insts
            .iter()
            .filter(|x| x.polarity == Polarity::Pos)
        {
            let (generic, site) = (inst.generic, inst.site);
            let src = values[g.index(Cell::Var(generic))].clone();
            for atom in self.rename(&src, site).1 {
                nonlinear.push(NonLinear::Inst { site, atom });
            }
        }
        nonlinear.sort();
        let mut seen = FxHashSet::default();
        nonlinear.retain(|v| {
            let atom = match v {
                NonLinear::Disjoint { atom, .. } | NonLinear::Inst { atom, .. } => *atom,
            };
            seen.insert(atom)
        });
        nonlinear
    }
}

/// For each instantiation site, the lock classes in the solved effects `vars` it instantiates.
fn site_locks(
    c: &Constraints,
    vars: &IndexVec<EffectVar, Occurrences>,
) -> IndexVec<Site, Vec<Lock>> {
    let mut site_locks: IndexVec<Site, Vec<Lock>> =
        IndexVec::from_elem_n(Vec::new(), c.sites.len());
    for inst in c
        .effect_insts
        .iter()
        .filter(|x| x.polarity == Polarity::Pos)
    {
        for &(atom, _) in &vars[inst.generic] {
            if let Atom::Lock(l) = atom {
                site_locks[inst.site].push(l);
            }
        }
    }
    for v in site_locks.iter_mut() {
        v.sort();
        v.dedup();
    }
    site_locks
}

/// Solves all effect constraints of `c` given the current lock classes and escape sets.
pub fn evaluate(
    c: &Constraints,
    scopes: &ScopeTree,
    locks: &mut LockTable,
    escapes: &Escapes,
) -> Effects {
    let cells = Cells::new(c);
    let mut ev = Eval {
        c,
        scopes,
        locks,
        escapes,
    };
    let values = ev.fixpoint(&cells);
    let nonlinear = ev.nonlinear(&cells, &values);

    let vars: IndexVec<EffectVar, Occurrences> = c
        .effect_vars
        .indices()
        .map(|v| values[cells.index(Cell::Var(v))].clone())
        .collect();
    let mut nonempty = Vec::new();
    for &v in &c.empty_effects {
        let atoms: Vec<Atom> = vars[v].iter().map(|&(a, _)| a).collect();
        if !atoms.is_empty() {
            nonempty.push((v, atoms));
        }
    }
    nonempty.sort();
    nonempty.dedup();

    Effects {
        site_locks: site_locks(c, &vars),
        vars,
        nonlinear,
        nonempty,
    }
}
