//! A forward *must* analysis over one function whose facts a branch may add to on each side:
//! the engine the range and chunk analyses share (`unpacks::ranges`, [`super::chunks`]). It
//! owns only the iteration; the facts, the step over a statement, what a condition says and
//! the meet of two paths are the caller's.

use crate::ir::{BlockId, Func, Operand, StmtKind, Term};

/// What a branch's condition adds on one side: `(facts, cond, then_side)` to the new facts.
pub(crate) type BranchFacts<'a, F> = &'a dyn Fn(&[F], &Operand, bool) -> Vec<F>;

/// The facts at the entry of each block of `func` (`None`: no path reaches it), from no facts
/// at its entry. `step` applies a statement; `branch(facts, cond, then_side)` gives the facts a
/// branch's condition adds on one side (added, and the facts sorted, only when new); `meet`
/// merges an incoming path into a block's facts and says whether they changed.
pub(crate) fn entry_facts<F: Clone + PartialEq + Ord>(
    func: &Func,
    step: &dyn Fn(&mut Vec<F>, &StmtKind),
    branch: BranchFacts<'_, F>,
    meet: &dyn Fn(&mut Vec<F>, &[F]) -> bool,
) -> Vec<Option<Vec<F>>> {
    let n = func.blocks.len();
    let mut entry: Vec<Option<Vec<F>>> = vec![None; n];
    if n == 0 {
        return entry;
    }
    entry[0] = Some(Vec::new());
    let mut work: Vec<usize> = vec![0];
    let mut queued = vec![false; n];
    queued[0] = true;
    while let Some(b) = work.pop() {
        queued[b] = false;
        let mut facts = entry[b].clone().unwrap_or_default();
        let block = &func.blocks[BlockId(b as u32)];
        for stmt in &block.stmts {
            step(&mut facts, &stmt.kind);
        }
        let mut edges: Vec<(BlockId, Vec<F>)> = Vec::new();
        match &block.term {
            Term::Branch {
                cond,
                then_block,
                else_block,
                ..
            } => {
                for (side, target) in [(true, then_block), (false, else_block)] {
                    let mut out = facts.clone();
                    let mut added = false;
                    for f in branch(&facts, cond, side) {
                        if !out.contains(&f) {
                            out.push(f);
                            added = true;
                        }
                    }
                    if added {
                        out.sort();
                    }
                    edges.push((*target, out));
                }
            }
            Term::Exit => {}
            t => {
                for s in t.successors() {
                    edges.push((s, facts.clone()));
                }
            }
        }
        for (s, incoming) in edges {
            let slot = &mut entry[s.0 as usize];
            let changed = match slot {
                None => {
                    *slot = Some(incoming);
                    true
                }
                Some(into) => meet(into, &incoming),
            };
            if changed && !queued[s.0 as usize] {
                queued[s.0 as usize] = true;
                work.push(s.0 as usize);
            }
        }
    }
    entry
}
