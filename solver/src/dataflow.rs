//! One generic forward dataflow solver, for the intraprocedural fixpoints of the analyses.
//!
//! A function is a graph of blocks `0..n` given by their successor lists, entered at block 0. The
//! caller says what a state is and gives three things: the state at the entry, the *transfer* of a
//! whole block (its state at the end from its state at the start), and the *join* that merges the
//! state flowing along an edge into the state at the start of its target. [`forward`] returns the
//! state at the start of every block, at the fixpoint.
//!
//! A block that no path reaches has no state (`None`): for a *may* analysis (union at merges)
//! that is "nothing flows", for a *must* analysis (intersection) it is ⊤, "no path yet"; in both
//! cases the first state to arrive is taken as it is, and later ones are joined into it. A transfer
//! returns `None` when control cannot leave the block (it calls a function that never returns):
//! nothing flows to the successors then.
//!
//! The worklist is first-in first-out, starts with every block in index order, and holds a block at
//! most once; blocks without a state are skipped. The order of transfers and joins, and so of
//! anything they intern, depends only on the graph. Successors out of range are ignored.
//!
//! The transfer and the join both get `ctx`, the mutable context they share (an interner of sets,
//! say); pass `&mut ()` when there is none.

use std::collections::{BTreeSet, VecDeque};

use fixedbitset::FixedBitSet;

/// The state at the start of every block of a forward dataflow problem, at its fixpoint (see the
/// module documentation). `join(ctx, into, incoming)` merges `incoming` into `into` and says
/// whether `into` changed.
pub fn forward<'g, C, S: Clone>(
    ctx: &mut C,
    n: usize,
    succs: impl Fn(usize) -> &'g [u32],
    entry: S,
    transfer: impl FnMut(&mut C, usize, S) -> Option<S>,
    join: impl FnMut(&mut C, &mut S, &S) -> bool,
) -> Vec<Option<S>> {
    forward_on_edges(ctx, n, succs, entry, transfer, join, |_, _, _, _| None)
}

/// [`forward`], where the state that flows along an edge may depend on the edge:
/// `edge(ctx, from, to, out)` is `None` for the state at the end of `from` as it is, and
/// otherwise the state that flows instead (`Some(None)`: none, the edge is never taken).
pub fn forward_on_edges<'g, C, S: Clone>(
    ctx: &mut C,
    n: usize,
    succs: impl Fn(usize) -> &'g [u32],
    entry: S,
    mut transfer: impl FnMut(&mut C, usize, S) -> Option<S>,
    mut join: impl FnMut(&mut C, &mut S, &S) -> bool,
    mut edge: impl FnMut(&mut C, usize, usize, &S) -> Option<Option<S>>,
) -> Vec<Option<S>> {
    let mut start: Vec<Option<S>> = vec![None; n];
    if n == 0 {
        return start;
    }
    start[0] = Some(entry);
    let mut queued = vec![true; n];
    let mut work: VecDeque<usize> = (0..n).collect();
    while let Some(b) = work.pop_front() {
        queued[b] = false;
        let Some(input) = start[b].clone() else {
            continue;
        };
        let Some(out) = transfer(ctx, b, input) else {
            continue;
        };
        for &s in succs(b) {
            let s = s as usize;
            if s >= n {
                continue;
            }
            let instead = edge(ctx, b, s, &out);
            let flows = match &instead {
                None => &out,
                Some(Some(other)) => other,
                Some(None) => continue,
            };
            let changed = match &mut start[s] {
                Some(into) => join(ctx, into, flows),
                slot @ None => {
                    *slot = Some(flows.clone());
                    true
                }
            };
            if changed && !queued[s] {
                queued[s] = true;
                work.push_back(s);
            }
        }
    }
    start
}

/// The join of a may analysis over bit sets: union. Whether `into` grew.
pub fn union_bits(into: &mut FixedBitSet, incoming: &FixedBitSet) -> bool {
    let before = into.count_ones(..);
    into.union_with(incoming);
    into.count_ones(..) != before
}

/// The join of a must analysis over sets: intersection. Whether `into` shrank.
pub fn intersect<T: Ord>(into: &mut BTreeSet<T>, incoming: &BTreeSet<T>) -> bool {
    let before = into.len();
    into.retain(|x| incoming.contains(x));
    into.len() != before
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reachable blocks by a may analysis: `0 → 1 → 2 ⟲`, `3` unreached.
    #[test]
    fn may_and_must() {
        let succs: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![1, 2], vec![0]];
        // Which blocks a path to each block's start has gone through.
        let seen = forward(
            &mut (),
            succs.len(),
            |b| &succs[b],
            FixedBitSet::with_capacity(4),
            |_, b, mut s| {
                s.insert(b);
                Some(s)
            },
            |_, into, incoming| union_bits(into, incoming),
        );
        let ones = |b: usize| seen[b].as_ref().map(|s| s.ones().collect::<Vec<_>>());
        assert_eq!(ones(0), Some(vec![]));
        assert_eq!(ones(1), Some(vec![0, 1, 2]));
        assert_eq!(ones(2), Some(vec![0, 1, 2]));
        assert_eq!(ones(3), None);
        // Which blocks every path to each block's start has gone through; block 1 never lets
        // control out.
        let must = forward(
            &mut (),
            succs.len(),
            |b| &succs[b],
            BTreeSet::new(),
            |_, b, mut s: BTreeSet<usize>| {
                s.insert(b);
                (b != 1).then_some(s)
            },
            |_, into, incoming| intersect(into, incoming),
        );
        assert_eq!(must[1], Some(BTreeSet::from([0])));
        assert_eq!(must[2], None);
    }
}
