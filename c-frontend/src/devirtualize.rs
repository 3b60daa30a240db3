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
//! A variable *holds* a set of functions when its address is never taken (nothing writes it
//! through a pointer, not even unknown code) and each of its writes stores a function
//! designator: its initializer and the assignments in functions that may run, those `main` (or
//! the open world's harness) and the global initializers reach by direct calls and by addresses
//! taken in reached code ([`crate::reach`]; a thread library's `yarn_mem(lease, vacate)` that
//! nobody calls assigns nothing). A
//! parameter holds its arguments, so it is never assumed. A call through a variable that holds
//! one function calls that function (or a null pointer, which does not return). As in
//! [`crate::fold`], every write must be seen: nothing is rewritten when a function could not be
//! lowered, a global is not assumed when the configuration replaced a function's body, and in an
//! open world a global that other code can name (not `static`) is never assumed.
//!
//! This pass owns that rewrite only; it runs on the linked program after the configuration is
//! folded and before every analysis.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Base, Callee, FuncId, Lval, Operand, Program, StmtKind, VarId, VarKind};

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
            if let Some(&[g]) = held.targets(op) {
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

/// The functions each variable may hold, for the variables whose every value is a designator
/// ([module docs](self)); a variable missing from `known` may hold anything.
struct HeldFunctions {
    known: FxHashMap<VarId, Vec<FuncId>>,
}

impl HeldFunctions {
    fn of(p: &Program, main: FuncId, open_world: bool) -> HeldFunctions {
        // The global initializers are among the roots of what runs.
        let runs = crate::reach::reached(p, &[main]);
        let mut known: FxHashMap<VarId, Vec<FuncId>> = FxHashMap::default();
        let mut unknown: FxHashSet<VarId> = FxHashSet::default();
        let funcs = p.funcs.indices().filter(|&f| runs[f]);
        for stmt in funcs.flat_map(|f| p.funcs[f].blocks.iter().flat_map(|b| &b.stmts)) {
            let (dst, src) = match &stmt.kind {
                StmtKind::Assign { dst, src } => (dst, Some(src)),
                StmtKind::Call { dst: Some(dst), .. } => (dst, None),
                StmtKind::Asm { operands } => {
                    unknown.extend(operands.iter().filter_map(Lval::plain_var));
                    continue;
                }
                _ => continue,
            };
            let Some(v) = dst.plain_var() else { continue };
            match src.map(Operand::without_casts) {
                Some(Operand::Func(g)) => known.entry(v).or_default().push(*g),
                _ => {
                    unknown.insert(v);
                }
            }
        }
        known.retain(|&v, held| {
            let var = &p.vars[v];
            let assumed = match var.kind {
                VarKind::Global {
                    defined, is_static, ..
                } => defined && (is_static || !open_world) && p.configured.is_empty(),
                VarKind::Local(_) | VarKind::Temp(_) => true,
                VarKind::Param(..) | VarKind::StringLit => false,
            };
            held.sort();
            held.dedup();
            assumed && !var.address_taken && !unknown.contains(&v)
        });
        HeldFunctions { known }
    }

    /// The functions a call through `op` may call, when they are known.
    fn targets(&self, op: &Operand) -> Option<&[FuncId]> {
        let v = pointer_var(op)?;
        self.known.get(&v).map(Vec::as_slice)
    }
}

/// The variable a called pointer is read from: `fp` or `*fp`, through conversions.
fn pointer_var(op: &Operand) -> Option<VarId> {
    match op.without_casts() {
        Operand::Use(lv) if lv.proj.is_empty() => match &lv.base {
            Base::Var(v) => Some(*v),
            Base::Deref(inner) => pointer_var(inner),
        },
        _ => None,
    }
}
