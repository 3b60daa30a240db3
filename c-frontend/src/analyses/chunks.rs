//! Chunks of claimed elements: a worker that claims `k` values of a shared counter at once and
//! walks them (dynamic scheduling by chunks):
//!
//! ```c
//! pthread_mutex_lock(&m); start = next; next += CHUNK; pthread_mutex_unlock(&m);
//! end = start + CHUNK;
//! if (end > n) end = n;
//! for (j = start; j < end; j++)
//!     out[j] = f(in[j]);                 // only this claim's elements
//! ```
//!
//! A claim adds at least `k` (the counter's least step, [`Claims::steps`]) to the counter, so
//! the values `[s, s + k)` after a claimed value `s` are returned by no other claim
//! ([`crate::analyses::claims`]). An access `X[j]` where `s ≤ j < s + c`, for a claim local `s`
//! and a constant `c ≤ k`, lies in this claim's elements and no other's: it holds the claim
//! package of the counter, as `X[s]` does (an inferred unpack, paper §3.3 figure 10's [Unpack]
//! taken further, the package opened over the claim's whole chunk).
//!
//! A forward *must* analysis over each function with claim locals keeps, for stable locals
//! (address never taken, so only statements naming them change them), these facts:
//!
//! - `j ≥ s`: `j` was assigned `s` or `s + c` (`c ≥ 0`), and since then only increased by
//!   constants (`j++`, `j += 2`);
//! - `v < s + c` and `v ≤ s + c`, for a local or constant `v`: from an assignment `v = s + c`,
//!   a copy of a local that had the fact, or the side of a comparison taken (`j < s + c`,
//!   `j < end` where `end ≤ s + c`, the else side of `s + c < n` giving `n ≤ s + c`);
//! - `e > v`: the side of a comparison taken, so that `e = v` there keeps `e ≤ s + c`
//!   (`if (end > n) end = n;`).
//!
//! Any other assignment of a variable ends the facts that name it. Comparisons are read as on
//! integers of one sign: C's conversions of mixed signs are not followed (the IR keeps no
//! widths or signs), which is knowingly unsound only for a chunk bound compared across signs.
//!
//! Reads the IR only; it never creates labels.

use rustc_hash::FxHashMap;

use crate::analyses::claims::Claims;
use crate::ir::{ArithOp, BlockId, Comparison, Func, FuncId, Operand, Program, StmtKind};
use crate::ir::{VarId, VarKind};

/// A local or an integer constant, as the facts name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Val {
    Var(VarId),
    Const(i64),
}

/// A fact of the must analysis (`s` a claim local, `c` a constant).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fact {
    /// `j ≥ s`.
    AtLeast(VarId, VarId),
    /// `v < s + c`.
    Below(Val, VarId, i64),
    /// `v ≤ s + c`.
    AtMost(Val, VarId, i64),
    /// `e > v`.
    Above(VarId, Val),
}

impl Fact {
    fn names(&self, v: VarId) -> bool {
        let val = |x: &Val| *x == Val::Var(v);
        match self {
            Fact::AtLeast(j, s) => *j == v || *s == v,
            Fact::Below(x, s, _) | Fact::AtMost(x, s, _) => val(x) || *s == v,
            Fact::Above(e, x) => *e == v || val(x),
        }
    }
}

/// The chunk accesses of function `f`: for each statement, the locals `j` it may index a
/// claimed chunk by, each with the counter's number (the claim package to hold there).
pub fn chunk_indexes(
    p: &Program,
    f: FuncId,
    claims: &Claims,
) -> FxHashMap<(BlockId, usize), Vec<(VarId, u32)>> {
    let mut out: FxHashMap<(BlockId, usize), Vec<(VarId, u32)>> = FxHashMap::default();
    let Some(locals) = claims.locals.get(&f) else {
        return out;
    };
    let func = &p.funcs[f];
    let stable = |v: VarId| {
        let var = &p.vars[v];
        !var.address_taken
            && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == f)
    };
    let claimed: FxHashMap<VarId, u32> = locals.iter().copied().collect();
    let cx = Cx {
        claimed: &claimed,
        stable: &stable,
    };
    let entry = cx.entry_facts(func);
    for (b, block) in func.blocks.iter_enumerated() {
        let Some(mut facts) = entry[b.0 as usize].clone() else {
            continue;
        };
        for (k, stmt) in block.stmts.iter().enumerate() {
            let mut here: Vec<(VarId, u32)> = Vec::new();
            for fact in &facts {
                let Fact::AtLeast(j, s) = *fact else { continue };
                let Some(&n) = claimed.get(&s) else { continue };
                let step = claims.steps[n as usize];
                let bounded = facts.iter().any(|g| {
                    matches!(*g, Fact::Below(Val::Var(x), t, c) if x == j && t == s && c <= step)
                });
                if bounded && j != s && !here.contains(&(j, n)) {
                    here.push((j, n));
                }
            }
            if !here.is_empty() {
                out.insert((b, k), here);
            }
            cx.step(&mut facts, &stmt.kind);
        }
    }
    out
}

struct Cx<'a> {
    claimed: &'a FxHashMap<VarId, u32>,
    stable: &'a dyn Fn(VarId) -> bool,
}

impl Cx<'_> {
    fn val(&self, op: &Operand) -> Option<Val> {
        if let Some(k) = op.constant() {
            return Some(Val::Const(k));
        }
        op.plain_var().filter(|&v| (self.stable)(v)).map(Val::Var)
    }

    /// `s + c` (either order, `c ≥ 0`) for a claim local `s`, or `s` itself (`c = 0`).
    fn claim_plus(&self, op: &Operand) -> Option<(VarId, i64)> {
        let claim = |o: &Operand| o.plain_var().filter(|v| self.claimed.contains_key(v));
        if let Some(s) = claim(op) {
            return Some((s, 0));
        }
        let Operand::Arith(_, ArithOp::Add, ops) = op.without_casts() else {
            return None;
        };
        let [a, b] = ops.as_slice() else { return None };
        match (claim(a), claim(b), a.constant(), b.constant()) {
            (Some(s), _, _, Some(c)) | (_, Some(s), Some(c), _) if c >= 0 => Some((s, c)),
            _ => None,
        }
    }

    /// The facts after an assignment or call, from those before.
    fn step(&self, facts: &mut Vec<Fact>, kind: &StmtKind) {
        let (v, src) = match kind {
            StmtKind::Assign { dst, src } => match dst.plain_var() {
                Some(v) => (v, Some(src)),
                None => return,
            },
            StmtKind::Call { dst: Some(dst), .. } => match dst.plain_var() {
                Some(v) => (v, None),
                None => return,
            },
            StmtKind::Asm { .. } => {
                facts.clear();
                return;
            }
            _ => return,
        };
        let mut gen = Vec::new();
        if let (Some(src), true) = (src, (self.stable)(v)) {
            let src = src.without_casts();
            if let Some((s, c)) = self.claim_plus(src).filter(|&(s, _)| s != v) {
                gen.push(Fact::AtLeast(v, s));
                gen.push(Fact::AtMost(Val::Var(v), s, c));
                gen.push(Fact::Below(Val::Var(v), s, c + 1));
            } else if let Some(x) = self.val(src).filter(|x| *x != Val::Var(v)) {
                for f in facts.iter() {
                    match *f {
                        Fact::AtLeast(j, s) if Val::Var(j) == x => gen.push(Fact::AtLeast(v, s)),
                        Fact::Below(y, s, c) if y == x => gen.push(Fact::Below(Val::Var(v), s, c)),
                        Fact::AtMost(y, s, c) if y == x => {
                            gen.push(Fact::AtMost(Val::Var(v), s, c))
                        }
                        // `e = x` where `e > x` and `e ≤ s + c`: the new `e` is below `s + c`.
                        Fact::AtMost(Val::Var(e), s, c)
                            if e == v && facts.contains(&Fact::Above(v, x)) =>
                        {
                            gen.push(Fact::Below(Val::Var(v), s, c));
                            gen.push(Fact::AtMost(Val::Var(v), s, c));
                        }
                        _ => {}
                    }
                }
            } else if let Operand::Arith(_, ArithOp::Add, ops) = src {
                // `j = j + c`, `c ≥ 0`: still at least `s`.
                if let [a, b] = ops.as_slice() {
                    let same = |o: &Operand| o.plain_var() == Some(v);
                    let grows = (same(a) && b.constant().is_some_and(|c| c >= 0))
                        || (same(b) && a.constant().is_some_and(|c| c >= 0));
                    if grows {
                        gen.extend(
                            facts
                                .iter()
                                .filter(|f| matches!(f, Fact::AtLeast(j, _) if *j == v))
                                .cloned(),
                        );
                    }
                }
            }
        }
        facts.retain(|f| !f.names(v));
        for f in gen {
            if !facts.contains(&f) {
                facts.push(f);
            }
        }
        facts.sort();
    }

    /// What a branch's condition says on its then side (`true`) or else side: `a < b` as
    /// facts, for the comparisons of two locals or constants, or of one and `s + c`.
    fn branch_facts(&self, facts: &[Fact], cond: &Operand, then_side: bool) -> Vec<Fact> {
        let (cmp, a, b) = match cond.without_casts() {
            Operand::Arith(_, ArithOp::Compare(c), ops) => match ops.as_slice() {
                [a, b] => (*c, a, b),
                _ => return Vec::new(),
            },
            Operand::Arith(_, ArithOp::Not, ops) => {
                return match ops.as_slice() {
                    [inner] => self.branch_facts(facts, inner, !then_side),
                    _ => Vec::new(),
                };
            }
            _ => return Vec::new(),
        };
        // Normalise to `lo < hi` (strict) or `lo <= hi`.
        let (lo, hi, strict) = match (cmp, then_side) {
            (Comparison::Lt, true) | (Comparison::Ge, false) => (a, b, true),
            (Comparison::Gt, true) | (Comparison::Le, false) => (b, a, true),
            (Comparison::Le, true) | (Comparison::Gt, false) => (a, b, false),
            (Comparison::Ge, true) | (Comparison::Lt, false) => (b, a, false),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        let Some(x) = self.val(lo) else {
            return out;
        };
        if let Some((s, c)) = self.claim_plus(hi) {
            out.push(if strict {
                Fact::Below(x, s, c)
            } else {
                Fact::AtMost(x, s, c)
            });
        }
        if let Some(Val::Var(e)) = self.val(hi) {
            for f in facts {
                if let Fact::AtMost(y, s, c) = *f {
                    if y == Val::Var(e) {
                        out.push(if strict {
                            Fact::Below(x, s, c)
                        } else {
                            Fact::AtMost(x, s, c)
                        });
                    }
                }
            }
            if strict {
                out.push(Fact::Above(e, x));
            }
        }
        out
    }

    /// The facts at the entry of each block (`None`: no path reaches it).
    fn entry_facts(&self, func: &Func) -> Vec<Option<Vec<Fact>>> {
        crate::analyses::must::entry_facts(
            func,
            &|facts, kind| self.step(facts, kind),
            &|facts, cond, then_side| self.branch_facts(facts, cond, then_side),
            &|into, incoming| {
                let before = into.len();
                into.retain(|f| incoming.contains(f));
                into.len() != before
            },
        )
    }
}
