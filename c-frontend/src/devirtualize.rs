//! Calls through pointers that can reach one function only: `(*my_free)(p)`, where `my_free` is
//! only ever assigned `free` (`static void (*my_free)(void *) = &free;`), becomes a direct call
//! of what it holds (of `free` itself when it holds `free`'s thunk, [`crate::lower::thunks`]).
//!
//! Label flow types a call through a pointer with the one instance of the function's type that
//! the pointer carries: every call through `my_free` frees one conflated object (the lock of one
//! call, the job of another), and every call through `my_malloc_f = malloc` returns one object
//! that takes every caller's shape. A direct call is an instance of its own (paper figure 6,
//! \[Inst\]), and a call of an allocator or of an allocation wrapper is a fresh object
//! ([`crate::analyses::alloc_wrappers`]).
//!
//! A *slot* is a variable, or a member of a struct variable reached by fields only
//! (`mutex_api.enter`, `cfg.mem.alloc`: a table of methods picked once, as a database engine
//! keeps its mutex and allocator methods). A slot *holds* a set of functions when its
//! variable's address is never taken (nothing writes it through a pointer, not even unknown
//! code), no write of the variable names it through an element or a union member, and each
//! write of the slot stores a function designator, with no other write of a struct containing
//! it (`api = spare;` may bring any function). The writes are its initializer and the
//! assignments in functions that may run: those `main` (or the open world's harness) and the
//! global initializers reach by direct calls and by addresses taken in reached code
//! ([`crate::reach`]; a thread library's `yarn_mem(lease, vacate)` that nobody calls assigns
//! nothing). A parameter holds its arguments, so it is never assumed. A call through a slot
//! that holds one function calls that function (or a null pointer, which does not return). As in
//! [`crate::fold`], every write must be seen: nothing is rewritten when a function could not be
//! lowered, a global is not assumed when the configuration replaced a function's body, and in an
//! open world a global that other code can name (not `static`) is never assumed.
//!
//! This pass owns that rewrite only; it runs on the linked program after the configuration is
//! folded and before every analysis.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::{StructId, StructKind, TypeTable};
use crate::ir::{Base, Callee, FuncId, Operand, Program, Proj, StmtKind, VarId, VarKind};

/// Rewrites each call through a variable that holds one function into a direct call of it;
/// returns how many calls were rewritten.
pub fn devirtualize(p: &mut Program, main: FuncId, open_world: bool) -> usize {
    if !p.unanalysed.is_empty() {
        return 0;
    }
    let held = HeldFunctions::of(p, main, open_world);
    let thunks = std::mem::take(&mut p.thunks);
    let mut rewritten = 0;
    for func in p.funcs.iter_mut() {
        for stmt in func.blocks.iter_mut().flat_map(|b| b.stmts.iter_mut()) {
            let StmtKind::Call { callee, .. } = &mut stmt.kind else {
                continue;
            };
            let Callee::Indirect(op) = callee else {
                continue;
            };
            if let Some(&[g]) = held.targets(&p.types, op) {
                // A thunk's library function is called directly: the model, its names and
                // its positions are a direct call's.
                let g = match thunks.binary_search_by_key(&g, |&(t, _)| t) {
                    Ok(k) => thunks[k].1,
                    Err(_) => g,
                };
                *callee = Callee::Direct(g);
                rewritten += 1;
            }
        }
    }
    p.thunks = thunks;
    rewritten
}

/// A function pointer a call may read: a variable, or a member of a struct variable reached by
/// fields only (`api.enter`, `cfg.mem.alloc`; no index, no union member).
type Slot = (VarId, Vec<(StructId, u32)>);

/// The functions each slot may hold, for the slots whose every value is a designator
/// ([module docs](self)); a slot missing from `known` may hold anything.
struct HeldFunctions {
    known: FxHashMap<Slot, Vec<FuncId>>,
}

impl HeldFunctions {
    fn of(p: &Program, main: FuncId, open_world: bool) -> HeldFunctions {
        // The global initializers are among the roots of what runs.
        let runs = crate::reach::reached(p, &[main]);
        let mut known: FxHashMap<Slot, Vec<FuncId>> = FxHashMap::default();
        // Slots written with something else than a designator: a member is unknown when one of
        // them is the member or a struct containing it (`api = other;`, `api.mutex = *from;`).
        let mut unknown: FxHashSet<Slot> = FxHashSet::default();
        // Variables written where no slot names the place (an element, a union member,
        // inline assembly): nothing in them is known.
        let mut unknown_vars: FxHashSet<VarId> = FxHashSet::default();
        let funcs = p.funcs.indices().filter(|&f| runs[f]);
        for stmt in funcs.flat_map(|f| p.funcs[f].blocks.iter().flat_map(|b| &b.stmts)) {
            let (dst, src) = match &stmt.kind {
                StmtKind::Assign { dst, src } => (dst, Some(src)),
                StmtKind::Call { dst: Some(dst), .. } => (dst, None),
                StmtKind::Asm { operands } => {
                    unknown_vars.extend(operands.iter().filter_map(|lv| match lv.base {
                        Base::Var(v) => Some(v),
                        Base::Deref(_) => None,
                    }));
                    continue;
                }
                _ => continue,
            };
            let Base::Var(v) = dst.base else { continue };
            let Some(members) = members(&p.types, &dst.proj) else {
                unknown_vars.insert(v);
                continue;
            };
            match src.map(Operand::without_casts) {
                Some(Operand::Func(g)) => known.entry((v, members)).or_default().push(*g),
                _ => {
                    unknown.insert((v, members));
                }
            }
        }
        known.retain(|(v, members), held| {
            let var = &p.vars[*v];
            let assumed = match var.kind {
                VarKind::Global {
                    defined, is_static, ..
                } => defined && (is_static || !open_world) && p.configured.is_empty(),
                VarKind::Local(_) | VarKind::Temp(_) => true,
                VarKind::Param(..) | VarKind::StringLit => false,
            };
            held.sort();
            held.dedup();
            let overwritten =
                (0..=members.len()).any(|k| unknown.contains(&(*v, members[..k].to_vec())));
            assumed && !var.address_taken && !unknown_vars.contains(v) && !overwritten
        });
        HeldFunctions { known }
    }

    /// The functions a call through `op` may call, when they are known.
    fn targets(&self, types: &TypeTable, op: &Operand) -> Option<&[FuncId]> {
        self.known.get(&pointer_slot(types, op)?).map(Vec::as_slice)
    }
}

/// The members a projection names, when it is fields of structs only.
fn members(types: &TypeTable, proj: &[Proj]) -> Option<Vec<(StructId, u32)>> {
    proj.iter()
        .map(|step| match *step {
            Proj::Field { strukt, index } if types.structs[strukt].kind == StructKind::Struct => {
                Some((strukt, index))
            }
            _ => None,
        })
        .collect()
}

/// The slot a called pointer is read from: `fp`, `api.enter` or `*fp`, through conversions.
fn pointer_slot(types: &TypeTable, op: &Operand) -> Option<Slot> {
    match op.without_casts() {
        Operand::Use(lv) => match &lv.base {
            Base::Var(v) => Some((*v, members(types, &lv.proj)?)),
            Base::Deref(inner) if lv.proj.is_empty() => pointer_slot(types, inner),
            Base::Deref(_) => None,
        },
        _ => None,
    }
}
