//! Control structure of the analysed program: loops in each function, the call graph and its
//! strongly connected components, and which functions and fork sites may run more than once.

use petgraph::graph::{DiGraph, NodeIndex};

use super::{Event, FnId, ThreadProgram};
use crate::constraints::Site;
use crate::ids::{Idx, IndexVec};

/// Where a call or fork happens.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallPoint {
    pub caller: FnId,
    pub block: u32,
    pub index: u32,
    pub site: Site,
}

pub struct Structure {
    /// Per function and block: whether the block lies on a cycle of the function's control flow.
    pub cyclic: IndexVec<FnId, Vec<bool>>,
    /// The calls of each function.
    pub callers: IndexVec<FnId, Vec<CallPoint>>,
    /// The forks that start a thread running each function.
    pub forkers: IndexVec<FnId, Vec<CallPoint>>,
    /// Whether the function is on a cycle of the call graph.
    pub recursive: IndexVec<FnId, bool>,
    /// Strongly connected components of the call graph, callees before callers.
    pub sccs: Vec<Vec<FnId>>,
    /// Strongly connected components of the graph of calls and forks, callees and thread
    /// functions before the functions that call or start them.
    pub thread_sccs: Vec<Vec<FnId>>,
    /// The index in `thread_sccs` of each function's component.
    pub thread_scc_of: IndexVec<FnId, usize>,
    /// Whether the function may run more than once in one run of the program.
    pub runs_multi: IndexVec<FnId, bool>,
}

/// The strongly connected components of a graph of functions, in reverse topological order
/// (petgraph's Tarjan lists them so: targets first), each sorted.
fn components(graph: &DiGraph<FnId, ()>) -> Vec<Vec<FnId>> {
    petgraph::algo::tarjan_scc(graph)
        .into_iter()
        .map(|c| {
            let mut v: Vec<FnId> = c.into_iter().map(|x| graph[x]).collect();
            v.sort();
            v
        })
        .collect()
}

impl Structure {
    pub fn new(p: &ThreadProgram) -> Structure {
        let n = p.funcs.len();
        let mut cyclic = IndexVec::new();
        let mut callers: IndexVec<FnId, Vec<CallPoint>> = IndexVec::from_elem_n(Vec::new(), n);
        let mut forkers: IndexVec<FnId, Vec<CallPoint>> = IndexVec::from_elem_n(Vec::new(), n);
        let mut graph: DiGraph<FnId, ()> = DiGraph::with_capacity(n, 0);
        let nodes: Vec<NodeIndex> = (0..n).map(|i| graph.add_node(FnId::new(i))).collect();
        let mut with_forks = graph.clone();
        for (f, body) in p.funcs.iter_enumerated() {
            cyclic.push(cyclic_blocks(&body.blocks));
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    let point = |site| CallPoint {
                        caller: f,
                        block: b as u32,
                        index: k as u32,
                        site,
                    };
                    match *e {
                        Event::Call { site, callee, .. } => {
                            callers[callee].push(point(site));
                            graph.add_edge(nodes[f.index()], nodes[callee.index()], ());
                            with_forks.add_edge(nodes[f.index()], nodes[callee.index()], ());
                        }
                        Event::Fork { site, callee, .. } => {
                            forkers[callee].push(point(site));
                            with_forks.add_edge(nodes[f.index()], nodes[callee.index()], ());
                        }
                        _ => {}
                    }
                }
            }
        }
        let sccs = components(&graph);
        let thread_sccs = components(&with_forks);
        let mut thread_scc_of = IndexVec::from_elem_n(0, n);
        for (k, c) in thread_sccs.iter().enumerate() {
            for &f in c {
                thread_scc_of[f] = k;
            }
        }
        let mut recursive = IndexVec::from_elem_n(false, n);
        for c in &sccs {
            let self_loop = c.len() == 1 && callers[c[0]].iter().any(|p| p.caller == c[0]);
            if c.len() > 1 || self_loop {
                for &f in c {
                    recursive[f] = true;
                }
            }
        }
        let mut s = Structure {
            cyclic,
            callers,
            forkers,
            recursive,
            sccs,
            thread_sccs,
            thread_scc_of,
            runs_multi: IndexVec::new(),
        };
        s.runs_multi = s.compute_runs_multi(p);
        s
    }

    /// Whether the event at a point may execute more than once per run of its function.
    pub fn in_loop(&self, point: &CallPoint) -> bool {
        self.cyclic[point.caller]
            .get(point.block as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Whether a call or fork point may execute more than once in one run of the program.
    pub fn point_multi(&self, point: &CallPoint) -> bool {
        self.in_loop(point) || self.runs_multi[point.caller]
    }

    fn compute_runs_multi(&self, p: &ThreadProgram) -> IndexVec<FnId, bool> {
        let n = p.funcs.len();
        let mut multi = IndexVec::from_elem_n(false, n);
        for f in p.funcs.indices() {
            let entries = self.callers[f].len() + self.forkers[f].len();
            multi[f] = Some(f) != p.main && (entries > 1 || self.recursive[f]);
        }
        // Propagate: a function called or forked from a loop, or from a function that runs more
        // than once, runs more than once too.
        loop {
            let mut changed = false;
            for f in p.funcs.indices() {
                if multi[f] || Some(f) == p.main {
                    continue;
                }
                let from_multi = self.callers[f]
                    .iter()
                    .chain(&self.forkers[f])
                    .any(|pt| self.in_loop(pt) || multi[pt.caller]);
                if from_multi {
                    multi[f] = true;
                    changed = true;
                }
            }
            if !changed {
                return multi;
            }
        }
    }
}

/// Which blocks lie on a cycle of the control-flow graph (a loop).
fn cyclic_blocks(blocks: &[super::EventBlock]) -> Vec<bool> {
    let n = blocks.len();
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(n, 0);
    let nodes: Vec<NodeIndex> = (0..n).map(|_| graph.add_node(())).collect();
    let mut out = vec![false; n];
    for (b, block) in blocks.iter().enumerate() {
        for &s in &block.succs {
            if s as usize == b {
                out[b] = true;
            }
            if (s as usize) < n {
                graph.add_edge(nodes[b], nodes[s as usize], ());
            }
        }
    }
    for c in petgraph::algo::tarjan_scc(&graph) {
        if c.len() > 1 {
            for x in c {
                out[x.index()] = true;
            }
        }
    }
    out
}
