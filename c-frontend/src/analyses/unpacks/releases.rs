//! What a call may release (for the unpack analysis, [`super`]): each function's summary, in names
//! its callers can translate — locks lying in variables, locks reached through its unassigned
//! parameters, or any lock — found by a walk up the direct calls. It reads the IR and the
//! library model only.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::ctypes::TypeId;
use crate::ir::{Base, Callee, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId};
use crate::model::{Kind, Releasing};

/// Which locks a call may release: only locks lying in these variables (`unlock(&g)`,
/// `unlock(&g.f)`) or reached through these parameters of the function called (`unlock(m)`,
/// `unlock(&s->lock)` for parameters `m`, `s` it never assigns), or any lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Releases {
    Some(Vec<Released>),
    Any,
}

/// One lock a function may release, named as its caller can translate it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Released {
    /// A lock lying in this variable.
    Var(VarId),
    /// A lock reached through the pointer passed as this parameter.
    Param(u32),
}

impl Releases {
    const NONE: Releases = Releases::Some(Vec::new());

    fn join(&mut self, other: &Releases) -> bool {
        match (&mut *self, other) {
            (Releases::Any, _) => false,
            (_, Releases::Any) => {
                *self = Releases::Any;
                true
            }
            (Releases::Some(a), Releases::Some(b)) => {
                let before = a.len();
                a.extend(b);
                a.sort();
                a.dedup();
                a.len() != before
            }
        }
    }
}

/// The variable whose own lock a lock operand names (`&g`, `&g.f`: no pointer, no index).
fn own_variable(arg: &Operand) -> Option<VarId> {
    match arg.without_casts() {
        Operand::AddrOf(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.iter().all(|s| matches!(s, Proj::Field { .. })) => Some(*v),
        _ => None,
    }
}

/// The parameters of each function that it never assigns (so a pointer parameter still
/// points where its caller's argument did).
pub(super) struct Params<'p> {
    p: &'p Program,
    unassigned: FxHashMap<FuncId, Vec<VarId>>,
}

impl<'p> Params<'p> {
    pub(super) fn new(p: &'p Program) -> Params<'p> {
        Params {
            p,
            unassigned: FxHashMap::default(),
        }
    }

    fn unassigned(&mut self, f: FuncId) -> &[VarId] {
        let p = self.p;
        self.unassigned.entry(f).or_insert_with(|| {
            let func = &p.funcs[f];
            let assigned: FxHashSet<VarId> = func
                .blocks
                .iter()
                .flat_map(|b| &b.stmts)
                .filter_map(|s| match &s.kind {
                    StmtKind::Assign { dst, .. } => Some(dst),
                    StmtKind::Call { dst, .. } => dst.as_ref(),
                    _ => None,
                })
                .filter_map(|d| match (&d.base, d.proj.is_empty()) {
                    (Base::Var(v), true) => Some(*v),
                    _ => None,
                })
                .collect();
            func.params
                .iter()
                .copied()
                .filter(|v| !assigned.contains(v) && !p.vars[*v].address_taken)
                .collect()
        })
    }

    /// How function `f` names the lock operand `arg` it releases (or passes on to be released).
    fn name(&mut self, f: FuncId, arg: &Operand) -> Option<Released> {
        if let Some(v) = own_variable(arg) {
            return Some(Released::Var(v));
        }
        let v = crate::analyses::uniqueness::base_var(self.p, arg)?;
        let j = self.p.funcs[f].params.iter().position(|&x| x == v)?;
        self.unassigned(f)
            .contains(&v)
            .then_some(Released::Param(j as u32))
    }

    /// What a call in `f` releases, in `f`'s names (`None`: nothing).
    pub(super) fn at_call(
        &mut self,
        f: FuncId,
        summaries: &FxHashMap<FuncId, Releases>,
        callee: &Callee,
        args: &[Operand],
    ) -> Option<Releases> {
        let p = self.p;
        let g = match callee {
            Callee::Direct(g) => *g,
            Callee::Indirect(_) => return Some(Releases::Any),
        };
        let translate = |this: &mut Self, list: &[Released]| -> Releases {
            let mut out = Vec::new();
            for r in list {
                match *r {
                    Released::Var(v) => out.push(Released::Var(v)),
                    Released::Param(j) => {
                        match args.get(j as usize).and_then(|a| this.name(f, a)) {
                            Some(x) => out.push(x),
                            None => return Releases::Any,
                        }
                    }
                }
            }
            let mut out = Releases::Some(out);
            out.join(&Releases::NONE);
            out
        };
        match p.known_kind(g).map(Kind::releasing) {
            Some(Releasing::Lock(lock)) => Some(match args.get(lock as usize) {
                Some(a) => match self.name(f, a) {
                    Some(x) => Releases::Some(vec![x]),
                    None => Releases::Any,
                },
                None => Releases::Any,
            }),
            Some(Releasing::Any) => Some(Releases::Any),
            Some(Releasing::Body) | None => {
                if p.funcs[g].blocks.is_empty() {
                    // Code locksmith cannot see.
                    Some(Releases::Any)
                } else {
                    match summaries.get(&g) {
                        Some(Releases::Any) => Some(Releases::Any),
                        Some(Releases::Some(list)) => Some(translate(self, list)),
                        None => None,
                    }
                }
            }
            Some(Releasing::Nothing) => None,
        }
    }
}

/// What each function with a body may release when called, directly or in what it calls, in
/// the names its callers can translate ([`Released`]): a release, a call through a pointer,
/// code locksmith cannot see (which may call back into the program) or inline assembly may
/// release any lock. Functions that release nothing are absent.
pub fn releasers(p: &Program) -> FxHashMap<FuncId, Releases> {
    let mut params = Params::new(p);
    let mut callers: FxHashMap<FuncId, Vec<FuncId>> = FxHashMap::default();
    for (f, func) in p.funcs.iter_enumerated() {
        for s in func.blocks.iter().flat_map(|b| &b.stmts) {
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &s.kind
            {
                callers.entry(*g).or_default().push(f);
            }
        }
    }
    let mut out: FxHashMap<FuncId, Releases> = FxHashMap::default();
    let mut work: Vec<FuncId> = p.funcs.indices().rev().collect();
    let mut queued: FxHashSet<FuncId> = work.iter().copied().collect();
    // Each function's set is recomputed from its statements whenever a callee's grew; sets
    // only grow, so this ends.
    while let Some(f) = work.pop() {
        queued.remove(&f);
        let mut now = Releases::NONE;
        for s in p.funcs[f].blocks.iter().flat_map(|b| &b.stmts) {
            match &s.kind {
                StmtKind::Call { callee, args, .. } => {
                    if let Some(r) = params.at_call(f, &out, callee, args) {
                        now.join(&r);
                    }
                }
                StmtKind::Asm { .. } => {
                    now.join(&Releases::Any);
                }
                _ => {}
            }
        }
        let changed = match out.get_mut(&f) {
            Some(old) => old.join(&now),
            None if now != Releases::NONE => {
                out.insert(f, now);
                true
            }
            None => false,
        };
        if changed {
            for &c in callers.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
                if queued.insert(c) {
                    work.push(c);
                }
            }
        }
    }
    out
}

/// Whether the memory of variable `v` may hold an object of type `t` (`v` itself, or a member
/// or element of it at any depth): a lock released as `v`'s may be the lock of such an object
/// reached through a pointer.
pub(super) fn may_contain(p: &Program, v: VarId, t: TypeId) -> bool {
    let types = &p.types;
    let mut stack = vec![p.vars[v].ty];
    let mut seen = FxHashSet::default();
    while let Some(ty) = stack.pop() {
        if ty == t {
            return true;
        }
        if !seen.insert(ty) {
            continue;
        }
        match types.get(ty) {
            crate::ir::ctypes::Type::Array(inner) => stack.push(*inner),
            crate::ir::ctypes::Type::Struct(s) | crate::ir::ctypes::Type::Union(s) => {
                stack.extend(types.structs[*s].fields.iter().map(|f| f.ty))
            }
            _ => {}
        }
    }
    false
}
