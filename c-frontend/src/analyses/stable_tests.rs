//! Branches on a variable, read with no conversion, that keeps its value from its first test
//! on: `if (use_lock)
//! lock(&m); … if (use_lock) unlock(&m);` with `use_lock` a parameter or local that no
//! statement reachable from a test of it assigns, and whose address is never taken. Every path
//! through such a test takes the same side at each test of the variable, so the side where it
//! is zero is never a path that took the other side before: the lock order's lock sets follow
//! that (`solver::threads::locksets`), where a path-insensitive join held `m` after the second
//! test on the path that skipped both.
//!
//! It reads the IR, the call index and the library model only; it never creates labels or
//! constraints.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::ir::{Base, BlockId, Func, FuncId, Operand, Program, StmtKind, Term, VarId, VarKind};
use crate::model::Kind;

/// A branch on a stable variable: the variable, as a number of its own in the function, and
/// the side taken when it is not zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StableTest {
    pub var: u32,
    pub when_set: BlockId,
}

/// The branches on stable variables of every function that takes a lock itself (a lock call
/// of the library model), by block: a lock taken under one test and released under another is
/// what a path-insensitive join keeps held. Elsewhere the tests are left to that join, which
/// only holds more.
pub fn stable_tests(p: &Program, calls: &Calls) -> FxHashMap<(FuncId, BlockId), StableTest> {
    let mut out = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !func.defined || !locks_itself(p, calls, f) {
            continue;
        }
        let mut tests: FxHashMap<VarId, Vec<BlockId>> = FxHashMap::default();
        for (b, block) in func.blocks.iter_enumerated() {
            if let Term::Branch { cond, .. } = &block.term {
                // A read with no conversion: two tests of `(char)v` and `v` may disagree.
                let read = match cond {
                    Operand::Use(lv) => lv.plain_var(),
                    _ => None,
                };
                if let Some(v) = read.filter(|&v| local_of(p, v, f)) {
                    tests.entry(v).or_default().push(b);
                }
            }
        }
        let mut vars: Vec<VarId> = tests.keys().copied().collect();
        vars.sort_unstable();
        let mut number = 0;
        for v in vars {
            let at = &tests[&v];
            if !stable(func, v, at) {
                continue;
            }
            for &b in at {
                let Term::Branch {
                    then_block,
                    else_block,
                    ..
                } = func.blocks[b].term
                else {
                    unreachable!("tests are branches")
                };
                if then_block != else_block {
                    let when_set = then_block;
                    out.insert(
                        (f, b),
                        StableTest {
                            var: number,
                            when_set,
                        },
                    );
                }
            }
            number += 1;
        }
    }
    out
}

/// Whether `f` makes a lock call of the library model.
fn locks_itself(p: &Program, calls: &Calls, f: FuncId) -> bool {
    (calls.sites_in(f).iter())
        .filter_map(|site| site.callee)
        .any(|g| matches!(p.known_kind(g), Some(Kind::Acquire { .. })))
}

/// Whether `v` is a parameter or local of `f` whose address is never taken.
fn local_of(p: &Program, v: VarId, f: FuncId) -> bool {
    let var = &p.vars[v];
    let own = matches!(var.kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f);
    own && !var.address_taken && !var.captured && !var.volatile
}

/// Whether no statement of a block reachable from one of the tests `at` assigns `v`.
fn stable(func: &Func, v: VarId, at: &[BlockId]) -> bool {
    let mut seen: FxHashSet<BlockId> = FxHashSet::default();
    let mut work: Vec<BlockId> = at
        .iter()
        .flat_map(|&b| func.blocks[b].term.successors())
        .collect();
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
            continue;
        }
        if func.blocks[b].stmts.iter().any(|s| assigns(&s.kind, v)) {
            return false;
        }
        work.extend(func.blocks[b].term.successors());
    }
    true
}

/// Whether a statement may write `v`.
fn assigns(kind: &StmtKind, v: VarId) -> bool {
    let names = |lv: &crate::ir::Lval| matches!(lv.base, Base::Var(x) if x == v);
    match kind {
        StmtKind::Assign { dst, .. } => names(dst),
        StmtKind::Call { dst, .. } => dst.as_ref().is_some_and(names),
        StmtKind::Asm { operands } => operands.iter().any(names),
        _ => false,
    }
}
