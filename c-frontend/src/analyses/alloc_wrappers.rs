//! Allocation wrappers (`xmalloc`, `s_malloc`): user functions that return memory a library
//! allocator made in them and did nothing else with, so each call of one is an allocation of its
//! own, as a call of `malloc` is.
//!
//! Label flow is context-sensitive, but a function's labelled types share their *shapes* across
//! its calls. A wrapper's object, cast to a struct at one call and used as a string at another,
//! takes both shapes, and a character view overlaps every other: every object the wrapper ever
//! made became one conflated location, so unrelated objects raced with each other. A call of a
//! wrapper found here gets a fresh object at the call instead of an instance of the wrapper's
//! result (the constraint generator; the call's other effects are generated as usual), which is
//! what the object is at run time: nothing but the wrapper saw it, and the wrapper stored nothing
//! in it that the fresh object would lack.
//!
//! A function qualifies when it returns a pointer and
//! - every `return` returns one of its *result variables* (possibly converted) or `NULL`;
//! - a result variable is a local or temporary whose address is never taken, assigned only the
//!   result of a library allocator (a model row of kind `Alloc`: `malloc`, `calloc`, a configured
//!   allocator) or of another qualifying wrapper, another result variable, or `NULL`;
//! - a result variable's value is used only to be compared or converted to an integer, copied to
//!   another result variable, returned, freed, or passed as the only pointer argument to a library
//!   function that keeps no copy of it (`memset`); it is never dereferenced, stored elsewhere or
//!   passed to a user function.
//!
//! A *reallocation wrapper* (`alloc(ptr, size) { ptr = realloc(ptr, size); … return ptr; }`)
//! returns either the object its caller passed or a fresh one: each call of one is a call of
//! `realloc` on that argument, as the model of `realloc` has it (the old object is read and
//! written, and flows into the fresh one). It qualifies as above, with one pointer parameter,
//! its address never taken, passed as the old object of a `realloc` (or of another reallocation
//! wrapper) whose result is a result variable: that parameter is a result variable too, and,
//! since the caller's object behind it is not the wrapper's to touch, no result variable may then
//! be passed to any library function but `free` and the reallocation. Before, the wrapper's object
//! was the shape every call gave it, as for any wrapper not recognised: a string at one call and
//! a struct holding a lock at another made one conflated location, and its lock was never held.
//!
//! It reads the IR and the library model only; it never creates labels or constraints.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::Type;
use crate::ir::visit::{walk_operand, Visitor};
use crate::ir::{
    Base, Callee, Func, FuncId, Lval, Operand, Origin, Program, StmtKind, Term, VarId, VarKind,
};
use crate::model::Kind;

/// A function each call of which allocates: an allocation wrapper, or a reallocation wrapper
/// with the parameter whose object it reallocates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AllocWrapper {
    pub func: FuncId,
    /// For a reallocation wrapper, the index of the parameter it reallocates.
    pub old: Option<u32>,
}

/// The allocation and reallocation wrappers of a program, in id order.
pub fn find(p: &Program) -> Vec<AllocWrapper> {
    let mut found: Found = FxHashMap::default();
    // A wrapper may call another: repeat until no new one qualifies.
    loop {
        let mut grew = false;
        for (f, func) in p.funcs.iter_enumerated() {
            if found.contains_key(&f) {
                continue;
            }
            if let Some(old) = qualifies(p, f, func, &found) {
                found.insert(f, old);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut out: Vec<AllocWrapper> = found
        .into_iter()
        .map(|(func, old)| AllocWrapper { func, old })
        .collect();
    out.sort();
    out
}

fn is_pointer(p: &Program, ty: crate::ir::ctypes::TypeId) -> bool {
    matches!(p.types.get(ty), Type::Pointer(_))
}

/// The variable an operand is, through conversions to pointers (`v`, `(T *)v`).
fn var_of(p: &Program, op: &Operand) -> Option<VarId> {
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        Operand::Cast(ty, inner) if is_pointer(p, *ty) => var_of(p, inner),
        _ => None,
    }
}

/// The wrappers found so far, with the parameter each reallocates.
type Found = FxHashMap<FuncId, Option<u32>>;

/// How a call makes its value, when it allocates: `Some(None)` for a library allocator or an
/// allocation wrapper found so far, `Some(Some(k))` for `realloc` or a reallocation wrapper
/// found so far, whose `k`th argument is the old object.
fn allocates(p: &Program, callee: &Callee, found: &Found) -> Option<Option<u32>> {
    let Callee::Direct(g) = callee else {
        return None;
    };
    match p.known_kind(*g) {
        Some(Kind::Alloc) => Some(None),
        Some(Kind::Realloc { old }) => Some(Some(u32::from(old))),
        _ => found.get(g).copied(),
    }
}

/// The parameter a function reallocates: the one pointer parameter, address never taken, that
/// is the old object of a reallocating call. `Err` when two parameters are.
fn reallocated_param(p: &Program, func: &Func, found: &Found) -> Result<Option<VarId>, ()> {
    let mut param = None;
    for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
        let StmtKind::Call { callee, args, .. } = &stmt.kind else {
            continue;
        };
        let Some(Some(k)) = allocates(p, callee, found) else {
            continue;
        };
        let Some(v) = args.get(k as usize).and_then(|a| var_of(p, a)) else {
            continue;
        };
        if !func.params.contains(&v) || p.vars[v].address_taken {
            continue;
        }
        match param {
            Some(other) if other != v => return Err(()),
            _ => param = Some(v),
        }
    }
    Ok(param)
}

/// Whether `f` is a wrapper: `Some(old)` with the index of the parameter it reallocates, if it
/// does.
fn qualifies(p: &Program, f: FuncId, func: &Func, found: &Found) -> Option<Option<u32>> {
    if !func.defined || func.origin != Origin::User || func.blocks.is_empty() {
        return None;
    }
    if p.known(f).is_some() {
        return None;
    }
    let returns_pointer = matches!(
        p.types.get(func.ty),
        Type::Function { ret, .. } if is_pointer(p, *ret)
    );
    if !returns_pointer {
        return None;
    }
    let reallocated = reallocated_param(p, func, found).ok()?;
    let local = |v: VarId| {
        let var = &p.vars[v];
        Some(v) == reallocated
            || (!var.address_taken
                && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f))
    };
    // The result variables: those returned, and those copied into them, and the parameter
    // reallocated.
    let mut results: FxHashSet<VarId> = reallocated.into_iter().collect();
    let mut returned = false;
    for block in func.blocks.iter() {
        match &block.term {
            Term::Return(Some(op), _) => match var_of(p, op) {
                Some(v) if local(v) => {
                    results.insert(v);
                    returned = true;
                }
                _ if is_null(op) => {}
                _ => return None,
            },
            Term::Return(None, _) => return None,
            _ => {}
        }
    }
    if !returned {
        return None;
    }
    loop {
        let mut grew = false;
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                if let StmtKind::Assign { dst, src } = &stmt.kind {
                    let Some(d) = dst.plain_var() else { continue };
                    if !results.contains(&d) {
                        continue;
                    }
                    if let Some(s) = var_of(p, src) {
                        if !local(s) {
                            return None;
                        }
                        grew |= results.insert(s);
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    let cx = Results {
        p,
        results: &results,
        found,
        reallocates: reallocated.is_some(),
    };
    let allowed = func.blocks.iter().all(|block| {
        block.stmts.iter().all(|stmt| cx.stmt_allowed(&stmt.kind))
            && term_allowed(p, &block.term, &results)
    });
    let index = |v: VarId| func.params.iter().position(|&q| q == v).map(|k| k as u32);
    allowed.then(|| reallocated.and_then(index))
}

/// Whether an operand is the null pointer constant (`0`, `(void *)0`): any other constant
/// converted to a pointer is no allocation.
fn is_null(op: &Operand) -> bool {
    matches!(op.without_casts(), Operand::Const(_, Some(0)))
}

/// Finds the uses of result variables an operand makes, other than as a compared or converted
/// integer: `value` is set when one's pointer value may flow on, `deref` when one is
/// dereferenced.
struct Uses<'a> {
    p: &'a Program,
    results: &'a FxHashSet<VarId>,
    value: bool,
    deref: bool,
}

impl Visitor for Uses<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        // A comparison or integer arithmetic yields no pointer: only what its operands
        // dereference counts, not the values they read.
        let integer = matches!(op, Operand::Arith(ty, _, _) | Operand::Cast(ty, _) if !is_pointer(self.p, *ty));
        let value = self.value;
        walk_operand(self, op);
        if integer {
            self.value = value;
        }
    }

    fn visit_lval(&mut self, lv: &Lval) {
        match &lv.base {
            Base::Var(v) => self.value |= self.results.contains(v),
            Base::Deref(op) => {
                // Whatever the dereferenced pointer is computed from is looked through.
                let value = std::mem::replace(&mut self.value, false);
                self.visit_operand(op);
                self.deref |= self.value;
                self.value = value;
            }
        }
    }
}

/// How an operand uses the result variables: (its pointer value may flow on, one is
/// dereferenced).
fn uses(p: &Program, op: &Operand, results: &FxHashSet<VarId>) -> (bool, bool) {
    let mut u = Uses {
        p,
        results,
        value: false,
        deref: false,
    };
    u.visit_operand(op);
    (u.value, u.deref)
}

/// Whether an lvalue written to dereferences a result variable (its base variable alone is the
/// destination, not a use).
fn lval_derefs(p: &Program, lv: &Lval, results: &FxHashSet<VarId>) -> bool {
    match &lv.base {
        Base::Var(_) => false,
        Base::Deref(op) => {
            let (value, deref) = uses(p, op, results);
            value || deref
        }
    }
}

/// What the uses of a function's result variables are checked against.
struct Results<'a> {
    p: &'a Program,
    results: &'a FxHashSet<VarId>,
    found: &'a Found,
    /// Whether a parameter is among the results: then its object is the caller's, and no result
    /// may go to a library function but `free` and a reallocation.
    reallocates: bool,
}

impl Results<'_> {
    fn stmt_allowed(&self, kind: &StmtKind) -> bool {
        let (p, results) = (self.p, self.results);
        match kind {
            StmtKind::Assign { dst, src } => {
                if lval_derefs(p, dst, results) {
                    return false;
                }
                let (value, deref) = uses(p, src, results);
                match dst.plain_var() {
                    Some(d) if results.contains(&d) => {
                        // Another result variable, or a constant.
                        !deref && (var_of(p, src).is_some() || is_null(src))
                    }
                    _ => !value && !deref,
                }
            }
            StmtKind::Call { dst, callee, args } => self.call_allowed(dst.as_ref(), callee, args),
            // A value evaluated for nothing goes nowhere.
            StmtKind::Eval(op) => !uses(p, op, results).1,
            StmtKind::Asm { operands } => !operands.iter().any(|lv| {
                lv.plain_var().is_some_and(|v| results.contains(&v)) || lval_derefs(p, lv, results)
            }),
        }
    }

    fn call_allowed(&self, dst: Option<&Lval>, callee: &Callee, args: &[Operand]) -> bool {
        let (p, results) = (self.p, self.results);
        let makes = allocates(p, callee, self.found);
        let into_result = dst.is_some_and(|d| d.plain_var().is_some_and(|v| results.contains(&v)));
        if let Some(d) = dst {
            if lval_derefs(p, d, results) || (into_result && makes.is_none()) {
                return false;
            }
        }
        if let Callee::Indirect(op) = callee {
            let (value, deref) = uses(p, op, results);
            if value || deref {
                return false;
            }
        }
        let arg_uses: Vec<(bool, bool)> = args.iter().map(|a| uses(p, a, results)).collect();
        if arg_uses.iter().any(|&(_, deref)| deref) {
            return false;
        }
        let passed: Vec<usize> = (0..args.len()).filter(|&k| arg_uses[k].0).collect();
        if passed.is_empty() {
            return true;
        }
        // Reallocated into a result variable: only as the old object, named alone.
        if let Some(Some(old)) = makes {
            return into_result
                && passed == [old as usize]
                && var_of(p, &args[old as usize]).is_some();
        }
        // Passed on: only to `free`, or alone to a library function that keeps nothing.
        let Callee::Direct(g) = callee else {
            return false;
        };
        let spec = p.known(*g);
        if spec.is_some_and(|s| matches!(s.kind, Kind::Free { .. })) {
            return true;
        }
        let pointer_args = args
            .iter()
            .filter(|a| is_pointer(p, p.operand_type(a)))
            .count();
        !self.reallocates
            && spec.is_some_and(|s| s.non_capturing)
            && passed.len() == 1
            && pointer_args == 1
    }
}

/// A branch may test a result variable; it must not look through one.
fn term_allowed(p: &Program, term: &Term, results: &FxHashSet<VarId>) -> bool {
    match term {
        Term::Branch { cond, .. } => !uses(p, cond, results).1,
        _ => true,
    }
}
