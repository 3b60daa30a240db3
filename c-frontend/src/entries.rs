//! Entry points for programs without `main` (`--entry f,g`, `--library`), as RELAY analyses
//! Linux: each entry point may be called by any number of threads at once, with arguments from
//! code locksmith cannot see (external memory). The check then starts from a *harness*, a
//! function added to the program that keeps calling [`Intrinsic::StartEntries`] in a loop with
//! every entry point: each call starts them as threads of code locksmith cannot see
//! ([`crate::model::Kind::StartsEntries`]), and the loop makes each run any number of times.
//!
//! This module only chooses the entry points and builds the harness in the IR; the constraint
//! generator treats the harness as it treats `main`.

use crate::ir::ctypes::Type;
use crate::ir::{Block, Callee, Func, FuncId, Operand, Origin, Program, Stmt, StmtKind, Term};
use crate::model::Intrinsic;

/// Where a check starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Entries {
    /// From `main` (whole programs).
    #[default]
    Main,
    /// From these functions, each called by any number of threads.
    Named(Vec<String>),
    /// From every function other files could call (defined, not `static`), except `main`.
    Library,
}

/// The name the harness is shown by in call paths.
pub const HARNESS: &str = "<callers of the entry points>";

/// The entry points `how` names, in id order; an error names a function that is not defined.
pub fn choose(p: &Program, how: &Entries) -> Result<Vec<FuncId>, String> {
    let defined = |f: &Func| f.defined && f.origin == Origin::User && !f.blocks.is_empty();
    let mut out: Vec<FuncId> = match how {
        Entries::Main => Vec::new(),
        Entries::Library => p
            .funcs
            .iter_enumerated()
            .filter(|(_, f)| defined(f) && !f.is_static && f.name != "main")
            .map(|(id, _)| id)
            .collect(),
        Entries::Named(names) => {
            let mut out = Vec::new();
            for name in names {
                let found: Vec<FuncId> = p
                    .funcs
                    .iter_enumerated()
                    .filter(|(_, f)| defined(f) && f.name == *name)
                    .map(|(id, _)| id)
                    .collect();
                if found.is_empty() {
                    return Err(format!(
                        "--entry {name}: no function `{name}` is defined in the program"
                    ));
                }
                out.extend(found);
            }
            out
        }
    };
    out.sort();
    out.dedup();
    if out.is_empty() {
        return Err("--library: the program defines no function other files could call".into());
    }
    Ok(out)
}

/// Adds the harness of `entries` to the program and returns it:
/// `bb0: __locksmith_start_entries(f, g, …); if (…) goto bb0; bb1: return;`.
pub fn harness(p: &mut Program, entries: &[FuncId]) -> FuncId {
    let pos = p.funcs[entries[0]].pos;
    let void = p.types.void();
    let int = p.types.int();
    let starts_ty = p.types.intern(Type::Function {
        ret: void,
        params: Vec::new(),
        variadic: true,
    });
    let harness_ty = p.types.intern(Type::Function {
        ret: void,
        params: Vec::new(),
        variadic: false,
    });
    let name = Intrinsic::StartEntries.name();
    let existing = p
        .funcs
        .iter_enumerated()
        .find(|(_, f)| f.name == name)
        .map(|(id, _)| id);
    let starts = match existing {
        Some(id) => id,
        None => {
            let id = p.funcs.push(declared(name.into(), starts_ty, pos));
            p.known.push(crate::model::Model::builtin().function(name));
            id
        }
    };
    let call = Stmt {
        kind: StmtKind::Call {
            dst: None,
            callee: Callee::Direct(starts),
            args: entries.iter().map(|&f| Operand::Func(f)).collect(),
        },
        pos,
    };
    let mut func = declared(HARNESS.into(), harness_ty, pos);
    func.defined = true;
    func.origin = Origin::User;
    func.blocks.push(Block {
        stmts: vec![call],
        term: Term::Branch {
            cond: Operand::Const(int, None),
            then_block: crate::ir::BlockId(0),
            else_block: crate::ir::BlockId(1),
            pos,
            compare: None,
        },
    });
    func.blocks.push(Block {
        stmts: Vec::new(),
        term: Term::Return(None, pos),
    });
    let id = p.funcs.push(func);
    p.known.push(None);
    id
}

/// A function declared without a body.
fn declared(name: String, ty: crate::ir::ctypes::TypeId, pos: crate::ir::Pos) -> Func {
    Func {
        name,
        ty,
        params: Vec::new(),
        locals: Vec::new(),
        blocks: solver::ids::IndexVec::new(),
        pos,
        defined: false,
        is_static: false,
        origin: Origin::Stub,
        counted_loops: Vec::new(),
        const_pointees: Vec::new(),
    }
}
