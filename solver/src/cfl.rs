//! Matched flow of location labels by CFL-reachability (paper figure 8a, last two rules;
//! Rehof and Fähndrich, POPL 2001).
//!
//! The flow graph has plain edges `ρ ≤ ρ'`, open edges `ρ' —(ᵢ→ ρ` for `ρ ⪯ᵢ⁻ ρ'` (an argument
//! entering a polymorphic function at site `i`) and close edges `ρ —)ᵢ→ ρ'` for `ρ ⪯ᵢ⁺ ρ'` (a
//! result leaving it). A valid path matches parentheses. The matched-flow rule
//!
//! ```text
//! C ∪ {ρ₁ ⪯ᵢ⁻ ρ₀} ∪ {ρ₁ ≤ ρ₂} ∪ {ρ₂ ⪯ᵢ⁺ ρ₃}  ∪⇒  {ρ₀ ≤ ρ₃}
//! ```
//!
//! adds *summary edges*, after which matched reachability is plain reachability over flow and
//! summary edges. Labels that are not generic at the binder of `i` are their own image at `i`
//! (`l⃗ ⪯ᵢ± l⃗`); instead of materialising those self-loops for every label and site, the
//! tabulation treats such labels as implicit entries and exits:
//!
//! - a path entering at site `i` that reaches a non-generic label `g` yields `ρ₀ ≤ g`;
//! - a non-generic label `g` that flows into the function's region and reaches a result yields
//!   `g ≤ ρ₃` for every site `i` of that binder.
//!
//! Each entry is explored only inside the region of its binder (the labels generic there), so the
//! work is bounded by the sum over binders of entries × region edges, within the paper's O(n³).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::constraints::{Constraints, Polarity, Rho};
use crate::correlation::Rows;
use crate::ids::{Idx, IndexVec};
use crate::scope::{Scope, ScopeTree};
use crate::stats::Stats;

/// The flow graph closed under matched flow.
#[derive(Clone, Debug)]
pub struct FlowGraph {
    /// Plain flow and summary edges, the graph over which matched reachability is reachability.
    /// Pack flows are not included: correlations cross them only through pack maps.
    pub preds: IndexVec<Rho, Vec<Rho>>,
    /// Pack flows (`ρ ≤ ρ'` into or out of an existential package), for reachability.
    pub pack_succ: IndexVec<Rho, Vec<Rho>>,
    /// `succ` counterpart of `preds`.
    pub succ: IndexVec<Rho, Vec<Rho>>,
    /// Summary edges `ρ₀ ≤ ρ₃` derived by the matched-flow rule, sorted.
    pub summaries: Vec<(Rho, Rho)>,
}

impl FlowGraph {
    /// Every label reachable from `from` by matched flow (flow, pack and summary edges).
    pub fn reachable(&self, from: Rho) -> Vec<Rho> {
        let mut seen = vec![false; self.succ.len()];
        let mut stack = vec![from];
        let mut out = Vec::new();
        seen[from.index()] = true;
        while let Some(n) = stack.pop() {
            out.push(n);
            for &m in self.succ[n].iter().chain(&self.pack_succ[n]) {
                if !seen[m.index()] {
                    seen[m.index()] = true;
                    stack.push(m);
                }
            }
        }
        out.sort();
        out
    }
}

/// The strongly connected components of the flow graph (flow and summary edges, not pack flows).
///
/// Figure 8b's first rule moves a correlation from a label to every label flowing into it, so
/// every label of a component has the same correlations: a correlation can be kept once per
/// component. Unification makes such components common and large (contents are unified, their
/// labels flow both ways: zfs-fuse has one of 10 932 labels).
#[derive(Clone, Debug)]
pub struct Components {
    /// The representative of each label's component: its smallest label.
    pub of: IndexVec<Rho, Rho>,
    /// The labels of each component (sorted), at its representative; empty for other labels.
    pub members: IndexVec<Rho, Vec<Rho>>,
    /// At each representative: the representatives of the other components with an edge into
    /// it (sorted).
    pub preds: IndexVec<Rho, Vec<Rho>>,
}

impl FlowGraph {
    /// The strongly connected components of the graph, by Tarjan's algorithm without recursion.
    pub fn components(&self) -> Components {
        let n = self.preds.len();
        const NONE: u32 = u32::MAX;
        let mut index = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, usize)> = Vec::new();
        let mut counter = 0u32;
        let mut of: IndexVec<Rho, Rho> = (0..n).map(|i| Rho(i as u32)).collect();
        let mut members: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
        for root in 0..n as u32 {
            if index[root as usize] != NONE {
                continue;
            }
            index[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            calls.push((root, 0));
            while let Some(&mut (v, ref mut next)) = calls.last_mut() {
                let edges = &self.preds[Rho(v)];
                if *next < edges.len() {
                    let w = edges[*next].0;
                    *next += 1;
                    if index[w as usize] == NONE {
                        index[w as usize] = counter;
                        low[w as usize] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        calls.push((w, 0));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut component = Vec::new();
                    loop {
                        let w = stack
                            .pop()
                            .expect("the component's labels are on the stack");
                        on_stack[w as usize] = false;
                        component.push(Rho(w));
                        if w == v {
                            break;
                        }
                    }
                    component.sort();
                    let rep = component[0];
                    for &m in &component {
                        of[m] = rep;
                    }
                    members[rep] = component;
                }
            }
        }
        let mut preds: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
        for (b, ps) in self.preds.iter_enumerated() {
            for &a in ps {
                if of[a] != of[b] {
                    preds[of[b]].push(of[a]);
                }
            }
        }
        for v in preds.iter_mut() {
            v.sort();
            v.dedup();
        }
        Components { of, members, preds }
    }
}

crate::define_id!(struct EntryId, "E";);

/// How many entries reaching one label are found by scanning `reached_by` before they are also
/// kept in a hash set ([`Tabulation::first_in_region`]).
const SCANNED: usize = 16;

/// An entry of the tabulation: a label reached by an open edge (or a boundary edge) of sites of
/// `binder`. Sixteen bytes: the opens are a range of [`Tabulation::opens`], and what grows while
/// the entry is explored (rarely anything) is kept apart, in [`Tabulation::grown`]. (Each entry
/// held its own vectors and hash sets, 144 bytes, and large programs have millions of entries
/// that reach only themselves: bigstruct at 1M lines, 2.9M.)
struct Entry {
    binder: Scope,
    /// Open edges into `node` from sites of `binder`: `(site, caller label)`, the range of
    /// [`Tabulation::opens`] sorted by site, so that the caller labels of one site (a function
    /// called from a thousand places has a thousand opens, each matched against every exit)
    /// are one run of it.
    opens: (u32, u32),
    /// Where its [`Grown`] is in [`Tabulation::grown`], `NOT_GROWN` until it has one.
    grown: u32,
}

const NOT_GROWN: u32 = u32::MAX;

/// What an entry gathers while it is explored.
#[derive(Default)]
struct Grown {
    /// Labels outside the region with a flow edge into the entry's label.
    outer_preds: Vec<Rho>,
    outer_seen: FxHashSet<Rho>,
    /// Results reached so far: `(site, instance label)`.
    exit_seen: FxHashSet<(u32, Rho)>,
    /// Their instance labels, each once: what an outer predecessor flows to. One label is often
    /// the result at many sites, and pairing each outer predecessor with each site's result
    /// was quadratic.
    exit_labels: Vec<Rho>,
    exit_label_seen: FxHashSet<Rho>,
}

/// The positive instantiations `ρ ⪯ᵢ⁺ ρ'` out of each label `ρ`, as `(binder of i, i, ρ')`:
/// a row per label ([`Rows`]), sorted by binder, in the constraints' order within one. Rows,
/// not a hash map by (label, binder) of vectors: the tabulation looks them up at every label
/// each entry reaches, and the map's probe and its vector were two cache misses each time
/// (bigstruct at 1M lines: 3.6M vectors).
struct Closes(Rows<(Scope, u32, Rho)>);

impl Closes {
    fn new(c: &Constraints) -> Closes {
        let mut closes: Vec<(u32, (Scope, u32, Rho))> = (c.rho_insts.iter())
            .filter(|inst| inst.polarity == Polarity::Pos)
            .map(|inst| {
                let binder = c.sites[inst.site].binder;
                (inst.generic.0, (binder, inst.site.0, inst.instance))
            })
            .collect();
        // Stable: each row keeps the order of its pairs, so one binder's keep the constraints'.
        closes.sort_by_key(|&(_, (binder, _, _))| binder);
        Closes(Rows::new(c.rhos.len(), closes.iter().copied()))
    }

    /// The positions in `n`'s row of its instantiations at sites of `binder`.
    fn range(&self, n: Rho, binder: Scope) -> std::ops::Range<usize> {
        let row = self.0.row(n.0);
        let first = row.partition_point(|&(b, _, _)| b < binder);
        first..first + row[first..].partition_point(|&(b, _, _)| b == binder)
    }
}

struct Tabulation<'a> {
    c: &'a Constraints,
    scopes: &'a ScopeTree,
    succ: IndexVec<Rho, Vec<Rho>>,
    /// The positive instantiations out of each label, by the binder of their site:
    /// [`Closes`].
    closes: Closes,
    entries: IndexVec<EntryId, Entry>,
    /// The opens of every entry, by entry and site ([`Entry::opens`]).
    opens: Vec<(u32, Rho)>,
    grown: Vec<Grown>,
    /// The caller labels of an entry's opens, each once, made when the entry first leaves its
    /// region: what flows to each label it leaves at. One caller label is often the argument
    /// at many sites, and pairing each site's with each label left at was quadratic (a
    /// cache-server probe of 1,600 commands: 5.6M attempts). Made only for an entry of more
    /// than [`SCANNED`] opens, and empty when no label is there twice: then the opens
    /// themselves serve. (Kept in the `Grown` of every entry that leaves its region, it cost
    /// mt-daapd 14 MiB.)
    open_labels: FxHashMap<EntryId, Vec<Rho>>,
    entry_of: FxHashMap<(Rho, Scope), EntryId>,
    seen: FxHashSet<(EntryId, Rho)>,
    reached_by: IndexVec<Rho, Vec<EntryId>>,
    summaries: FxHashSet<(Rho, Rho)>,
    summary_list: Vec<(Rho, Rho)>,
    /// Where the summaries out of each label start in `succ`: after its flow edges.
    first_summary: IndexVec<Rho, u32>,
    work: Vec<(EntryId, Rho)>,
}

impl<'a> Tabulation<'a> {
    fn in_region(&self, n: Rho, binder: Scope) -> bool {
        self.c.generic_at(self.c.rhos[n].scope, binder)
    }

    fn entry(&mut self, node: Rho, binder: Scope) -> EntryId {
        if let Some(&e) = self.entry_of.get(&(node, binder)) {
            return e;
        }
        let e = self.entries.push(Entry {
            binder,
            opens: (0, 0),
            grown: NOT_GROWN,
        });
        self.entry_of.insert((node, binder), e);
        self.work.push((e, node));
        e
    }

    /// What entry `e` has gathered, made empty on first use.
    fn grown(&mut self, e: EntryId) -> &mut Grown {
        if self.entries[e].grown == NOT_GROWN {
            self.entries[e].grown = self.grown.len() as u32;
            self.grown.push(Grown::default());
        }
        &mut self.grown[self.entries[e].grown as usize]
    }

    /// The labels of the results entry `e` has reached so far, each once.
    fn exit_labels(&self, e: EntryId) -> &[Rho] {
        match self.entries[e].grown {
            NOT_GROWN => &[],
            k => &self.grown[k as usize].exit_labels,
        }
    }

    /// Registers `from ≤ to` as a boundary-in edge for every binder whose region contains `to`
    /// but not `from`.
    fn boundary(&mut self, from: Rho, to: Rho) {
        let from_scope = self.c.rhos[from].scope;
        let mut s = self.c.rhos[to].scope;
        while s != Scope::ROOT && !self.scopes.within(from_scope, s) {
            let e = self.entry(to, s);
            let grown = self.grown(e);
            if grown.outer_seen.insert(from) {
                grown.outer_preds.push(from);
                let exits = self.exit_labels(e).to_vec();
                for y in exits {
                    self.add_summary(from, y);
                }
            }
            s = self.scopes.parent(s).unwrap_or(Scope::ROOT);
        }
    }

    /// Adds the summary edge `a ≤ b` if it is new. The summaries out of `a` are the end of
    /// `succ[a]` (after its flow edges), scanned while few; a label with many has them in
    /// `summaries` too (as [`Tabulation::first_in_region`] keeps the entries of a label).
    fn add_summary(&mut self, a: Rho, b: Rho) {
        if a == b {
            return;
        }
        let own = &self.succ[a][self.first_summary[a] as usize..];
        if own.len() < SCANNED {
            if own.contains(&b) {
                return;
            }
        } else if !self.summaries.insert((a, b)) {
            return;
        }
        self.summary_list.push((a, b));
        self.succ[a].push(b);
        let first = self.first_summary[a] as usize;
        if self.succ[a].len() - first == SCANNED {
            for &m in &self.succ[a][first..] {
                self.summaries.insert((a, m));
            }
        }
        for i in 0..self.reached_by[a].len() {
            let e = self.reached_by[a][i];
            self.work.push((e, b));
        }
        self.boundary(a, b);
    }

    /// The caller labels of the opens `start..end`, each once, or none when no label is there
    /// twice (the opens serve then: see [`Tabulation::open_labels`]).
    fn distinct_open_labels(&self, start: u32, end: u32) -> Vec<Rho> {
        let mut labels: Vec<Rho> = (self.opens[start as usize..end as usize].iter())
            .map(|&(_, m)| m)
            .collect();
        labels.sort_unstable();
        labels.dedup();
        if labels.len() == (end - start) as usize {
            labels = Vec::new();
        }
        labels
    }

    /// Whether entry `e` reaches label `n` of its region for the first time, recording it: the
    /// entries that reached `n` are `reached_by[n]`, scanned while short; a label many entries
    /// reach has them in `seen` too. (One hash set of every pair was most of the tabulation's
    /// time on large programs: millions of pairs, a cache miss each.)
    fn first_in_region(&mut self, e: EntryId, n: Rho) -> bool {
        let list = &self.reached_by[n];
        if list.len() < SCANNED {
            if list.contains(&e) {
                return false;
            }
        } else if !self.seen.insert((e, n)) {
            return false;
        }
        self.reached_by[n].push(e);
        if self.reached_by[n].len() == SCANNED {
            for &m in &self.reached_by[n] {
                self.seen.insert((m, n));
            }
        }
        true
    }

    fn run(&mut self) {
        while let Some((e, n)) = self.work.pop() {
            crate::budget::poll();
            let binder = self.entries[e].binder;
            let inside = self.in_region(n, binder);
            if inside {
                if !self.first_in_region(e, n) {
                    continue;
                }
            } else if !self.seen.insert((e, n)) {
                continue;
            }
            if !inside {
                // Left the region at a label that is its own image at every site of `binder`:
                // the implicit `)ᵢ` self-loop closes each open edge into the entry.
                let (start, end) = self.entries[e].opens;
                let large = (end - start) as usize > SCANNED;
                let labels = if large {
                    (self.open_labels.remove(&e))
                        .unwrap_or_else(|| self.distinct_open_labels(start, end))
                } else {
                    Vec::new()
                };
                if labels.is_empty() {
                    for k in start..end {
                        self.add_summary(self.opens[k as usize].1, n);
                    }
                } else {
                    for &m in &labels {
                        self.add_summary(m, n);
                    }
                }
                if large {
                    self.open_labels.insert(e, labels);
                }
                continue;
            }
            for k in self.closes.range(n, binder) {
                let (_, site, y) = self.closes.0.row(n.0)[k];
                let grown = self.grown(e);
                if !grown.exit_seen.insert((site, y)) {
                    continue;
                }
                let (start, end) = self.entries[e].opens;
                let opens = &self.opens[start as usize..end as usize];
                let from = start as usize + opens.partition_point(|&(s, _)| s < site);
                let mut at = from;
                while at < end as usize && self.opens[at].0 == site {
                    let m = self.opens[at].1;
                    self.add_summary(m, y);
                    at += 1;
                }
                let grown = self.grown(e);
                if !grown.exit_label_seen.insert(y) {
                    // Its outer predecessors already flow to `y`, through another site.
                    continue;
                }
                grown.exit_labels.push(y);
                let outer = grown.outer_preds.clone();
                for g in outer {
                    self.add_summary(g, y);
                }
            }
            for i in 0..self.succ[n].len() {
                let m = self.succ[n][i];
                self.work.push((e, m));
            }
        }
    }
}

/// Builds the flow graph of `c` and closes it under matched flow. `scopes` must be frozen.
pub fn close(c: &Constraints, scopes: &ScopeTree, stats: &Stats) -> FlowGraph {
    let n = c.rhos.len();
    let mut succ: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
    let mut pack_succ: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
    for &(a, b) in &c.flows {
        succ[a].push(b);
    }
    for &(a, b) in &c.pack_flows {
        pack_succ[a].push(b);
    }
    // The tabulation walks pack flows like plain flows: they carry values.
    let mut walk_succ = succ.clone();
    for &(a, b) in &c.pack_flows {
        walk_succ[a].push(b);
    }
    let first_summary = walk_succ.iter().map(|v| v.len() as u32).collect();
    let mut t = Tabulation {
        c,
        scopes,
        succ: walk_succ,
        first_summary,
        closes: Closes::new(c),
        entries: IndexVec::new(),
        opens: Vec::new(),
        grown: Vec::new(),
        open_labels: FxHashMap::default(),
        entry_of: FxHashMap::default(),
        seen: FxHashSet::default(),
        reached_by: IndexVec::from_elem_n(Vec::new(), n),
        summaries: FxHashSet::default(),
        summary_list: Vec::new(),
        work: Vec::new(),
    };
    let mut opens: Vec<(EntryId, u32, Rho)> = Vec::new();
    for inst in &c.rho_insts {
        let binder = c.sites[inst.site].binder;
        match inst.polarity {
            Polarity::Neg => {
                let e = t.entry(inst.generic, binder);
                opens.push((e, inst.site.0, inst.instance));
            }
            Polarity::Pos => {}
        }
    }
    opens.sort_unstable();
    t.opens = opens.iter().map(|&(_, site, m)| (site, m)).collect();
    let mut start = 0;
    for run in opens.chunk_by(|a, b| a.0 == b.0) {
        let end = start + run.len() as u32;
        t.entries[run[0].0].opens = (start, end);
        start = end;
    }
    drop(opens);
    for &(a, b) in c.flows.iter().chain(&c.pack_flows) {
        t.boundary(a, b);
    }
    t.run();
    stats.count("cfl: entries", t.entries.len());
    stats.count(
        "cfl: entry-label pairs in regions",
        t.reached_by.iter().map(Vec::len).sum(),
    );
    stats.count("cfl: summaries", t.summary_list.len());

    let mut summaries = t.summary_list;
    summaries.sort();
    for &(a, b) in &summaries {
        succ[a].push(b);
    }
    let mut preds: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
    for (a, outs) in succ.iter_enumerated() {
        for &b in outs {
            preds[b].push(a);
        }
    }
    for v in preds.iter_mut().chain(succ.iter_mut()) {
        v.sort();
        v.dedup();
    }
    FlowGraph {
        preds,
        pack_succ,
        succ,
        summaries,
    }
}
