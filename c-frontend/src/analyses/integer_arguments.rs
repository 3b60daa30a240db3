//! Start routines handed an integer: the parameters that only ever hold an integer converted to
//! a pointer, the standard way to give a thread its index (`pthread_create(&t, 0, work, (void
//! *)i)` and `long id = (long)arg;`).
//!
//! Converting a pointer to an integer is knowingly unsound in general (the integer may become a
//! pointer again, and locksmith does not follow it), and is reported as such. A parameter whose
//! every value was an integer before it was converted to a pointer points to no memory
//! locksmith tracks (an integer used as a pointer points into conflated memory already), so
//! converting it back to an integer loses nothing: no note is due there. Where the integer was
//! made from a pointer, that conversion has its own note.
//!
//! A parameter qualifies when it is the first of a function whose address is used only as the
//! start routine of direct `pthread_create`-like calls, each handing it an integer constant or a
//! value of integer type converted to a pointer; the parameter is never assigned and its
//! address never taken.
//!
//! It reads the IR and the library model only.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::Type;
use crate::ir::visit::{walk_operand, walk_stmt, walk_term, Visitor};
use crate::ir::{Callee, FuncId, Operand, Program, StmtKind, VarId};
use crate::model::Kind;

/// How each function is used as a value, and what its creates hand it.
#[derive(Default)]
struct Routines {
    /// Functions named anywhere but as the routine of a direct create.
    other_use: FxHashSet<FuncId>,
    /// Whether every create of the function hands it an integer.
    integer: FxHashMap<FuncId, bool>,
}

impl Visitor for Routines {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::Func(g) = op {
            self.other_use.insert(*g);
        }
        walk_operand(self, op);
    }
}

/// The parameters that only ever hold an integer converted to a pointer (see the module doc).
pub fn integer_parameters(p: &Program) -> FxHashSet<VarId> {
    let mut uses = Routines::default();
    for func in p.funcs.iter() {
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    dst,
                } = &stmt.kind
                else {
                    walk_stmt(&mut uses, &stmt.kind);
                    continue;
                };
                let Some(Kind::Fork {
                    func: routine, arg, ..
                }) = p.known_kind(*c)
                else {
                    walk_stmt(&mut uses, &stmt.kind);
                    continue;
                };
                if let Some(d) = dst {
                    uses.visit_lval(d);
                }
                for (j, a) in args.iter().enumerate() {
                    match a.without_casts() {
                        Operand::Func(g) if j == routine as usize => {
                            let handed = arg.and_then(|k| args.get(usize::from(k)));
                            let integer = handed.is_some_and(|h| is_integer(p, h));
                            *uses.integer.entry(*g).or_insert(true) &= integer;
                        }
                        _ => uses.visit_operand(a),
                    }
                }
            }
            walk_term(&mut uses, &block.term);
        }
    }
    let mut out = FxHashSet::default();
    for (&g, &integer) in &uses.integer {
        let Some(&param) = p.funcs[g].params.first() else {
            continue;
        };
        let var = &p.vars[param];
        if integer
            && !uses.other_use.contains(&g)
            && !var.address_taken
            && crate::analyses::unpacks::assigned_in(p, g, param).is_empty()
        {
            out.insert(param);
        }
    }
    out
}

/// Whether a create's argument is an integer: a constant, or a value of a type that is no
/// pointer, array or function, converted.
fn is_integer(p: &Program, op: &Operand) -> bool {
    let inner = op.without_casts();
    match inner {
        Operand::Const(..) => true,
        Operand::Use(_) | Operand::Arith(..) | Operand::VaArg(..) => !matches!(
            p.types.get(p.operand_type(inner)),
            Type::Pointer(_) | Type::Array(_) | Type::Function { .. }
        ),
        Operand::AddrOf(_) | Operand::Func(_) | Operand::Str(_) | Operand::Cast(..) => false,
    }
}
