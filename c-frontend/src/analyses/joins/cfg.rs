//! The control-flow graph of one function, for the loop questions of matching: natural loops,
//! other cycles, what runs on every iteration, how a loop is left, reachability.

use std::cell::OnceCell;

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashSet;

use super::*;

/// The control-flow graph of one function, for loop questions.
pub(crate) struct Cfg {
    pub(super) succs: Vec<Vec<usize>>,
    pub(super) preds: Vec<Vec<usize>>,
    /// Blocks that end with `Term::Return` or `Term::Exit`.
    pub(super) exits: Vec<bool>,
    /// Blocks that end with `Term::Return`.
    pub(super) returns: Vec<bool>,
    /// Blocks on a cycle, made at the first [`on_any_cycle`].
    cyclic: OnceCell<Vec<bool>>,
}

impl Cfg {
    pub(crate) fn new(f: &Func) -> Cfg {
        let n = f.blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        let mut exits = vec![false; n];
        let mut returns = vec![false; n];
        for (b, block) in f.blocks.iter().enumerate() {
            returns[b] = matches!(block.term, Term::Return(..));
            exits[b] = matches!(block.term, Term::Return(..) | Term::Exit);
            for t in block.term.successors() {
                let t = t.0 as usize;
                if t < n {
                    succs[b].push(t);
                    preds[t].push(b);
                }
            }
        }
        Cfg {
            succs,
            preds,
            exits,
            returns,
            cyclic: OnceCell::new(),
        }
    }

    /// The natural loop of a counted loop: its head and every block that reaches its increment
    /// without passing through the head.
    pub(super) fn natural_loop(&self, l: &CountedLoop) -> FxHashSet<usize> {
        let head = l.head.0 as usize;
        let mut set = FxHashSet::default();
        set.insert(head);
        let mut stack = vec![l.step.0 as usize];
        while let Some(b) = stack.pop() {
            if set.insert(b) {
                stack.extend(self.preds[b].iter().copied());
            }
        }
        set
    }

    /// Whether `b` lies on a cycle that does not use the loop's back edge (it is inside another
    /// loop, nested or enclosing). A loop nested in another is entered again by the outer
    /// loop's cycle, which reaches the loop's head without its back edge, while from `b` itself
    /// every way out of the loop takes the back edge first: so the head is asked too.
    pub(super) fn on_other_cycle(&self, b: usize, l: &CountedLoop) -> bool {
        self.returns_avoiding_back_edge(b, l)
            || self.returns_avoiding_back_edge(l.head.0 as usize, l)
    }

    /// [`Cfg::on_other_cycle`], for cycles that do not pass block `avoid` either.
    pub(super) fn on_other_cycle_avoiding(&self, b: usize, l: &CountedLoop, avoid: usize) -> bool {
        self.returns_avoiding(b, l, Some(avoid))
    }

    /// Whether a path from a successor of `b` leads back to `b` without the loop's edge
    /// step→head.
    fn returns_avoiding_back_edge(&self, b: usize, l: &CountedLoop) -> bool {
        self.returns_avoiding(b, l, None)
    }

    /// Whether a path from a successor of `b` leads back to `b` without the loop's edge
    /// step→head, and without entering `avoid`.
    fn returns_avoiding(&self, b: usize, l: &CountedLoop, avoid: Option<usize>) -> bool {
        let (head, step) = (l.head.0 as usize, l.step.0 as usize);
        let mut seen = vec![false; self.succs.len()];
        if let Some(a) = avoid {
            seen[a] = true;
        }
        let mut stack: Vec<usize> = Vec::new();
        for &s in &self.succs[b] {
            if !(b == step && s == head) {
                stack.push(s);
            }
        }
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            for &s in &self.succs[x] {
                if !(x == step && s == head) {
                    stack.push(s);
                }
            }
        }
        false
    }

    /// Whether every path from the loop's body to its increment passes through `through`.
    pub(super) fn on_every_iteration(&self, l: &CountedLoop, through: usize) -> bool {
        let (body, step) = (l.body.0 as usize, l.step.0 as usize);
        if through == body || through == step {
            return true;
        }
        let head = l.head.0 as usize;
        let mut seen = vec![false; self.succs.len()];
        let mut stack = vec![body];
        while let Some(x) = stack.pop() {
            if x == through || x == head || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            if x == step {
                return false;
            }
            stack.extend(self.succs[x].iter().copied());
        }
        true
    }

    /// Whether the loop is left only by its condition failing (no `break`, `return` or `goto`
    /// out), apart from paths that end the program or thread without returning: every other
    /// edge out of the loop leads to blocks from which every path ends in `Term::Exit` (or never
    /// ends) without returning, coming back into the loop, or running code after the loop (see
    /// the module doc on `longjmp`).
    pub(super) fn exits_only_at_head(&self, l: &CountedLoop, blocks: &FxHashSet<usize>) -> bool {
        let head = l.head.0 as usize;
        // The code after the loop: what its exit reaches without going through its head again.
        let after = self.reachable(l.exit.0 as usize, |x| x == head);
        blocks.iter().filter(|&&b| b != head).all(|&b| {
            !self.exits[b]
                && self.succs[b].iter().all(|&s| {
                    blocks.contains(&s)
                        || self
                            .reachable(s, |_| false)
                            .iter()
                            .enumerate()
                            .all(|(x, &r)| {
                                !r || !(after[x] || blocks.contains(&x) || self.returns[x])
                            })
                })
        })
    }

    /// The blocks reachable from `from` (included) without entering a block where `stop` holds.
    /// Whether every path from the entry of `func` to statement `k` of block `b` meets a
    /// statement that `mark` says `Some(true)` of after the last one it says `Some(false)` of:
    /// a backward search from the statement that stops at the first marked statement of each
    /// path, and fails at a `Some(false)` or at the entry.
    pub(super) fn passes_before(
        &self,
        func: &crate::ir::Func,
        at: (BlockId, usize),
        mark: impl Fn(BlockId, usize) -> Option<bool>,
    ) -> bool {
        self.passes_before_edges(func, at, mark, |_, _| false)
    }

    /// [`Cfg::passes_before`], where an edge `(from, to)` that `edge` accepts also counts as a
    /// marked `Some(true)` point (a branch's side: the null side of a test).
    pub(crate) fn passes_before_edges(
        &self,
        func: &crate::ir::Func,
        (b, k): (BlockId, usize),
        mark: impl Fn(BlockId, usize) -> Option<bool>,
        edge: impl Fn(BlockId, BlockId) -> bool,
    ) -> bool {
        let mut seen = vec![false; self.preds.len()];
        let mut stack = vec![(b, k)];
        while let Some((bb, end)) = stack.pop() {
            match (0..end).rev().find_map(|kk| mark(bb, kk)) {
                Some(true) => continue,
                Some(false) => return false,
                None if bb == BlockId(0) => return false,
                None => {}
            }
            for &pred in &self.preds[bb.0 as usize] {
                if edge(BlockId(pred as u32), bb) {
                    continue;
                }
                if !std::mem::replace(&mut seen[pred], true) {
                    let pred = BlockId(pred as u32);
                    stack.push((pred, func.blocks[pred].stmts.len()));
                }
            }
        }
        true
    }

    pub(super) fn reachable(&self, from: usize, stop: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.succs.len()];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if stop(x) || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            stack.extend(self.succs[x].iter().copied());
        }
        seen
    }
}

/// Whether a block lies on a cycle of the control flow: a path from one of its successors leads
/// back to it. The blocks on cycles are found once per graph, as the blocks of strongly
/// connected components of more than one block or with an edge to themselves: asked by a walk
/// from each block, the question cost the blocks of the function each time, and an interpreter's
/// loop of 8,000 cases in one function spent 2 of its 5.5 s in it.
pub(crate) fn on_any_cycle(cfg: &Cfg, b: usize) -> bool {
    cfg.cyclic.get_or_init(|| blocks_on_cycles(cfg))[b]
}

/// Kosaraju's algorithm (petgraph's walks keep their own stacks: a function of thousands of
/// blocks in a chain does not recurse as deep).
fn blocks_on_cycles(cfg: &Cfg) -> Vec<bool> {
    let n = cfg.succs.len();
    let mut graph = DiGraph::<(), ()>::with_capacity(n, n);
    for _ in 0..n {
        graph.add_node(());
    }
    let mut cyclic = vec![false; n];
    for (b, succs) in cfg.succs.iter().enumerate() {
        for &s in succs {
            graph.add_edge(NodeIndex::new(b), NodeIndex::new(s), ());
            cyclic[b] |= s == b;
        }
    }
    for component in petgraph::algo::kosaraju_scc(&graph) {
        if component.len() > 1 {
            for x in component {
                cyclic[x.index()] = true;
            }
        }
    }
    cyclic
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The question asked by a walk from the block's successors, as it was before the
    /// components.
    fn returns_to(cfg: &Cfg, b: usize) -> bool {
        let mut seen = vec![false; cfg.succs.len()];
        let mut stack: Vec<usize> = cfg.succs[b].clone();
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if !std::mem::replace(&mut seen[x], true) {
                stack.extend(cfg.succs[x].iter().copied());
            }
        }
        false
    }

    fn graph(n: usize, edges: &[(usize, usize)]) -> Cfg {
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for &(a, b) in edges {
            succs[a % n].push(b % n);
            preds[b % n].push(a % n);
        }
        Cfg {
            succs,
            preds,
            exits: vec![false; n],
            returns: vec![false; n],
            cyclic: OnceCell::new(),
        }
    }

    proptest! {
        #[test]
        fn blocks_on_cycles_are_the_blocks_a_walk_returns_to(
            n in 1usize..24,
            edges in proptest::collection::vec((0usize..24, 0usize..24), 0..40),
        ) {
            let cfg = graph(n, &edges);
            for b in 0..n {
                prop_assert_eq!(on_any_cycle(&cfg, b), returns_to(&cfg, b), "block {}", b);
            }
        }
    }

    #[test]
    fn a_chain_of_many_blocks_is_on_no_cycle_and_its_loop_is() {
        let n = 200_000;
        let mut edges: Vec<(usize, usize)> = (0..n - 1).map(|b| (b, b + 1)).collect();
        edges.push((n - 1, n - 2));
        let cfg = graph(n, &edges);
        assert!(!on_any_cycle(&cfg, 0));
        assert!(!on_any_cycle(&cfg, n - 3));
        assert!(on_any_cycle(&cfg, n - 2) && on_any_cycle(&cfg, n - 1));
    }
}
