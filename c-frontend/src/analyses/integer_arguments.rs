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
//! A parameter qualifies when it is the first of a function that is never called directly and
//! whose address is used only as the start routine of direct `pthread_create`-like calls
//! ([`FunctionUses`]), each handing it an integer constant or a value of integer type
//! converted to a pointer; the parameter is never assigned and its address never taken.
//!
//! It reads the IR and the library model only.

use rustc_hash::FxHashSet;

use crate::analyses::calls::Calls;
use crate::ir::ctypes::Type;
use crate::ir::{Operand, Program, VarId};

/// The parameters that only ever hold an integer converted to a pointer (see the module doc).
pub fn integer_parameters(p: &Program, calls: &Calls) -> FxHashSet<VarId> {
    let uses = &calls.uses;
    let mut out = FxHashSet::default();
    for (g, sites) in &uses.forks {
        let Some(&param) = p.funcs[*g].params.first() else {
            continue;
        };
        if !uses.other_use.contains(g)
            && sites.iter().all(|(_, _, _, handed)| is_integer(p, handed))
            && !p.vars[param].address_taken
            && crate::analyses::unpacks::assigned_in(p, *g, param).is_empty()
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
