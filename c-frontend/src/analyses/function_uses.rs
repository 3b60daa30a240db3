//! How the program uses each function as a value: which are addressed (they may run from where
//! no call names them), which are used otherwise than as the start routine of a direct create
//! (called directly, or named elsewhere), and what each create hands the routine it starts.
//!
//! It reads the IR and the library model only.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{BlockId, Callee, FuncId, Operand, Program, StmtKind};
use crate::model::Kind;

/// How the program uses each function as a value.
#[derive(Default)]
pub struct FunctionUses {
    /// Functions whose address is taken anywhere (a thread's start routine, a callback, a
    /// function pointer's target): they may run from where no call names them.
    pub addressed: FxHashSet<FuncId>,
    /// Functions whose address is taken somewhere else than as the start routine of a direct
    /// `pthread_create`, or that are called directly.
    pub other_use: FxHashSet<FuncId>,
    /// The creates that start each function: where, and the argument handed to the thread.
    pub forks: FxHashMap<FuncId, Vec<(FuncId, BlockId, usize, Operand)>>,
}

impl crate::ir::visit::Visitor for FunctionUses {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::Func(g) = op {
            self.addressed.insert(*g);
            self.other_use.insert(*g);
        }
        crate::ir::visit::walk_operand(self, op);
    }
}

impl FunctionUses {
    /// Walks the whole program once, showing each statement to `each` (its function, block,
    /// index in the block and kind) on the way: [`crate::analyses::calls::Calls::of`] indexes
    /// the calls in the same walk.
    pub(crate) fn walk(
        p: &Program,
        mut each: impl FnMut(FuncId, BlockId, usize, &StmtKind),
    ) -> FunctionUses {
        use crate::ir::visit::{walk_stmt, walk_term, Visitor};
        let mut uses = FunctionUses::default();
        for (f, func) in p.funcs.iter_enumerated() {
            for (b, block) in func.blocks.iter_enumerated() {
                for (k, stmt) in block.stmts.iter().enumerate() {
                    each(f, b, k, &stmt.kind);
                    let StmtKind::Call { dst, callee, args } = &stmt.kind else {
                        walk_stmt(&mut uses, &stmt.kind);
                        continue;
                    };
                    let fork = match callee {
                        Callee::Direct(g) => match p.known_kind(*g) {
                            Some(Kind::Fork { func, arg, .. }) => Some((func, arg)),
                            _ => {
                                uses.other_use.insert(*g);
                                None
                            }
                        },
                        Callee::Indirect(op) => {
                            uses.visit_operand(op);
                            None
                        }
                    };
                    if let Some(d) = dst {
                        uses.visit_lval(d);
                    }
                    for (j, a) in args.iter().enumerate() {
                        let routine = a.without_casts();
                        match (fork, routine) {
                            (Some((func, arg)), Operand::Func(g)) if j == func as usize => {
                                uses.addressed.insert(*g);
                                let handed = arg.and_then(|a| args.get(usize::from(a))).cloned();
                                if let Some(handed) = handed {
                                    uses.forks.entry(*g).or_default().push((f, b, k, handed));
                                } else {
                                    uses.other_use.insert(*g);
                                }
                            }
                            _ => uses.visit_operand(a),
                        }
                    }
                }
                walk_term(&mut uses, &block.term);
            }
        }
        uses
    }
}
