//! Object hand-offs: a create loop that gives each thread a fresh object and keeps a pointer to
//! it in a local array at the thread's index, so that its join loop can take the object back.
//!
//! ```c
//! for (i = 0; i < N; i++) {
//!     jobs[i] = malloc(sizeof *jobs[i]);      // or x = malloc(…); …; jobs[i] = x;
//!     jobs[i]->in = i;
//!     pthread_create(&t[i], 0, work, jobs[i]);
//! }
//! for (j = 0; j < N; j++) {
//!     pthread_join(t[j], 0);
//!     use(jobs[j]->out); free(jobs[j]);       // thread j has ended; the others own others
//! }
//! ```
//!
//! The thread owns its fresh argument (the unpack analysis's package `Thread`, an inferred
//! unpack, paper §3.3 figure 10's [Unpack]); after
//! `pthread_join(t[j])` its creator's accesses through `jobs[j]` are inside that package too,
//! which the unpack analysis adds from [`super::JoinPlan::object_joins`].
//!
//! Why `jobs[j]` is then thread `t[j]`'s object: the create lies in a clean counted loop over
//! `i` on no other cycle, so each run of the function passes it once per value of `i`; it hands
//! over a pointer that the uniqueness analysis knows is fresh and also held by `jobs[i]`; every
//! store into `jobs` is `jobs[i] = …` in that loop, where no path leads from the create to it
//! without passing the loop's head (so each run of the body stores its own element, before its
//! create), and `jobs` is a local array named only by element (its address never produced,
//! [`uniqueness`]); the ids go to `&t[i]` of a local array
//! that only that create and joins of `t[j]` in clean counted loops name. So after the create
//! loop `jobs[k]` and `t[k]` are the object and the thread of one run of its body. Only the
//! creator's accesses through `jobs[j]` in the join's block after the join, up to an assignment
//! of `j`, are taken back.
//!
//! This module reads the IR, the library model and the uniqueness analysis only.

use crate::analyses::uniqueness::{self, Holder, Index};
use crate::ir::{Base, BlockId, FuncId, Operand, Proj, StmtKind, VarId};
use crate::model::Kind;

use super::{FnFacts, Planner, TakeBack};

impl Planner<'_> {
    /// The joins that take back the objects the create at `at` (of the fork `c` with `args`)
    /// hands over, when it is an object hand-off (see the module doc).
    pub(super) fn object_handoff(
        &self,
        fx: &FnFacts<'_>,
        unique: &mut Option<uniqueness::Uniqueness>,
        at: (BlockId, usize),
        c: FuncId,
        args: &[Operand],
    ) -> Option<Vec<TakeBack>> {
        let (b, k) = at;
        let Some(Kind::Fork {
            id: Some(id),
            arg: Some(arg),
            ..
        }) = self.p.known_kind(c)
        else {
            return None;
        };
        let (ids, counter) = self.local_indexed(fx, args.get(usize::from(id))?, true)?;
        if !self.in_clean_loop(fx, b.0 as usize, counter) {
            return None;
        }
        let handed = uniqueness::base_holder(self.p, args.get(usize::from(arg))?)?;
        // Only a store `objects[counter] = …` can put the handed object in an element by the
        // counter (`stored_only_before` asks where); without one, the uniqueness of the
        // function is not worth computing.
        let stores_element = fx.func.blocks.iter().flat_map(|bl| &bl.stmts).any(|s| {
            matches!(&s.kind, StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                if matches!(dst.proj.as_slice(), [Proj::Index(Some(i))] if *i == counter))
        });
        if !stores_element {
            return None;
        }
        let unique = unique.get_or_insert_with(|| uniqueness::analyse(self.p, fx.f));
        let objects = std::iter::once(handed)
            .chain(unique.same_object(b, k, handed))
            .find_map(|h| match h {
                Holder::Elem(a, Index::Var(i)) if i == counter => Some(a),
                _ => None,
            })?;
        if !self.stored_only_before(fx, objects, counter, at) {
            return None;
        }
        self.element_joins(fx, (fx.f, b, k), ids, objects)
    }

    /// Whether every store into the array `objects` is `objects[counter] = …` in the counted
    /// loop over `counter` that holds the create at `(b, k)`, and none runs after the create
    /// before the loop's head is reached again: each run of the loop's body stores only its own
    /// element, before its create.
    fn stored_only_before(
        &self,
        fx: &FnFacts<'_>,
        objects: VarId,
        counter: VarId,
        (b, k): (BlockId, usize),
    ) -> bool {
        let at = b.0 as usize;
        let Some((l, blocks)) = fx
            .loops
            .iter()
            .find(|(l, blocks)| l.counter == counter && blocks.contains(&at))
        else {
            return false;
        };
        let head = l.head.0 as usize;
        let mut after = vec![false; fx.func.blocks.len()];
        for &s in &fx.cfg.succs[at] {
            for (x, r) in fx.cfg.reachable(s, |x| x == head).into_iter().enumerate() {
                after[x] |= r;
            }
        }
        fx.func.blocks.iter_enumerated().all(|(bb, block)| {
            block.stmts.iter().enumerate().all(|(kk, stmt)| {
                let dst = match &stmt.kind {
                    StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => dst,
                    StmtKind::Asm { operands } => {
                        return !operands
                            .iter()
                            .any(|lv| matches!(lv.base, Base::Var(v) if v == objects));
                    }
                    _ => return true,
                };
                if !matches!(dst.base, Base::Var(v) if v == objects) {
                    return true;
                }
                let x = bb.0 as usize;
                let own_element =
                    matches!(dst.proj.as_slice(), [Proj::Index(Some(i))] if *i == counter);
                let before_create = if x == at { kk < k } else { !after[x] };
                own_element && blocks.contains(&x) && before_create
            })
        })
    }
}
