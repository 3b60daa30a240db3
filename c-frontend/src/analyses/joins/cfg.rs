//! The control-flow graph of one function, for the loop questions of matching: natural loops,
//! other cycles, what runs on every iteration, how a loop is left, reachability.

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

/// Whether a block lies on a cycle of the control flow.
pub(crate) fn on_any_cycle(cfg: &Cfg, b: usize) -> bool {
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
