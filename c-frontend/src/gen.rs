//! Constraint generation for C (paper §3): from the IR to LOCKSMITH's label constraints and to
//! one event graph per function for the thread analysis.
//!
//! Every variable and allocation site is an object with a location label ρ and a content node
//! ([`crate::ltypes`]). Reading or writing memory through an lvalue is an access event; calls of
//! user functions are instantiation sites; the POSIX thread and lock functions, allocation and
//! the `__locksmith_*` intrinsics of the stubs are modelled here by name; libc stubs are inlined
//! at each call, so their accesses happen in the caller, on the caller's types, at the call's
//! position. Calls through function pointers and `pthread_create`'s thread function are resolved
//! by flow: each target reached becomes a call or fork site, until no new target appears.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ctypes::{Type, TypeId};
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, FuncOrigin, LoopBound, Lval, Operand, Pos, Program, Proj,
    StmtKind, Term, VarId, VarKind,
};
use crate::joins::{self, JoinPlan, StmtAt};
use crate::ltypes::{LTypes, Node, Pol, RhoOrigin, Shape};
use crate::uniqueness;
use crate::views;
use solver::ids::IndexVec;
use solver::threads::{
    AccessId, AccessInfo, BoundCondition, Event, EventBlock, FnBody, FnId, ObjectId, ObjectInfo,
    ThreadHandle, ThreadProgram,
};
use solver::{Constraints, Lock, Rho, RhoKind, Scope, Site, SiteKind};

/// How deep stub calls are inlined into each other before the rest is treated as unmodelled.
const INLINE_DEPTH: u32 = 4;

/// Where an access happens, for reports.
#[derive(Clone, Debug)]
pub struct AccessSite {
    pub pos: Pos,
    pub func: FuncId,
    pub write: bool,
    /// The library function whose stub made the access, if any.
    pub via: Option<String>,
}

/// What a location label stands for, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RhoName {
    Var(VarId),
    Alloc { pos: Pos, func: FuncId, by: String },
    Field { parent: Box<RhoName>, field: String },
    Other,
}

/// What a call site is, for call paths in reports.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    pub pos: Pos,
    pub caller: FuncId,
    pub callee: FuncId,
    pub fork: bool,
}

/// A place where the analysis is knowingly unsound.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unsound {
    pub pos: Pos,
    pub what: String,
}

/// The result of constraint generation.
pub struct Generated {
    pub constraints: Constraints,
    pub threads: ThreadProgram,
    pub access_sites: IndexVec<AccessId, AccessSite>,
    pub rho_names: IndexVec<Rho, RhoName>,
    /// The objects and field paths holding each lock label, for naming locks.
    pub lock_names: FxHashMap<Lock, RhoName>,
    pub sites: FxHashMap<Site, SiteInfo>,
    /// The user function behind each thread-analysis function.
    pub fn_func: IndexVec<FnId, FuncId>,
    pub unmodelled: BTreeSet<String>,
    pub unsound: Vec<Unsound>,
    /// Where memory was conflated and why (for the developer's debug output).
    pub conflations: Vec<(Pos, String)>,
}

/// A call whose targets are known only after flow: through a function pointer, or a fork.
struct Pending {
    caller: FuncId,
    fork: bool,
    /// For a fork: the handle a join can name it by.
    handle: Option<ThreadHandle>,
    node: Node,
    args: Vec<Option<Node>>,
    result: Option<Node>,
    pos: Pos,
    done: BTreeSet<FuncId>,
}

/// An event, or a placeholder for the calls a pending call will expand to.
enum GenEvent {
    Event(Event),
    Pending(usize),
    /// An access to a whole struct, expanded to its fields once all fields are known.
    Whole {
        rho: Rho,
        content: Node,
        pos: Pos,
        write: bool,
        via: Option<String>,
        func: FuncId,
    },
}

/// Per-function state while generating.
struct Frame {
    func: FuncId,
    scope: Scope,
    /// Variables of an inlined stub, mapped to fresh labels and nodes in the caller.
    inline_vars: FxHashMap<VarId, (Rho, Node)>,
    /// The stub being inlined: its name, the call's position, and its extra variadic arguments.
    inline: Option<(String, Pos, Vec<Option<Node>>)>,
    depth: u32,
    /// Values returned by an inlined stub.
    returned: Vec<Node>,
    /// Pointer variables that certainly point into memory no other thread can reach yet
    /// ([`crate::uniqueness`]): accesses through them are not shared.
    unique: FxHashSet<VarId>,
}

struct Gen<'a> {
    p: &'a Program,
    c: Constraints,
    t: LTypes<'a>,
    scope_of: FxHashMap<FuncId, Scope>,
    var_rho: IndexVec<VarId, Option<(Rho, Node)>>,
    /// Parameter, return and variadic nodes of each user function.
    sig: FxHashMap<FuncId, (Vec<Node>, Option<Node>, Node)>,
    fn_of: FxHashMap<FuncId, FnId>,
    fn_func: IndexVec<FnId, FuncId>,
    blocks: FxHashMap<FuncId, Vec<Vec<GenEvent>>>,
    current: Vec<GenEvent>,
    pending: Vec<Pending>,
    accesses: IndexVec<AccessId, AccessInfo>,
    access_sites: IndexVec<AccessId, AccessSite>,
    objects: IndexVec<ObjectId, (Rho, Node, bool)>,
    rho_names: FxHashMap<Rho, RhoName>,
    sites: FxHashMap<Site, SiteInfo>,
    unmodelled: BTreeSet<String>,
    unsound: Vec<Unsound>,
    thread_local: Vec<Rho>,
    int_blob: Option<Node>,
    /// The position of the statement being generated.
    cur_pos: Pos,
    /// The strongly connected component of each user function in the direct call graph, for
    /// functions that are recursive (a component of several functions, or one calling itself).
    recursive_scc: FxHashMap<FuncId, usize>,
    switches: Switches,
    /// User functions that take values out of their own variadic arguments with `va_arg`.
    uses_va_arg: FxHashSet<FuncId>,
    /// Which creates and joins match (see [`crate::joins`]).
    joins: JoinPlan,
    /// The user statement being generated (`None` inside an inlined stub).
    cur_stmt: Option<StmtAt>,
}

fn name_of(p: &Program, f: FuncId) -> &str {
    &p.funcs[f].name
}

impl<'a> Gen<'a> {
    fn is_user_body(&self, f: FuncId) -> bool {
        let func = &self.p.funcs[f];
        func.defined && func.origin == FuncOrigin::User
    }

    /// The location and content of a variable in the current frame.
    fn var(&mut self, frame: &Frame, v: VarId) -> (Rho, Node) {
        if let Some(&x) = frame.inline_vars.get(&v) {
            return x;
        }
        if let Some(x) = self.var_rho[v] {
            return x;
        }
        // A variable of a function not processed (a stub's local seen outside inlining).
        let scope = frame.scope;
        let ty = self.p.vars[v].ty;
        let rho = self
            .t
            .new_rho(&mut self.c, scope, RhoKind::Plain, RhoOrigin::Object);
        let node = self.t.content_of_type(&mut self.c, ty, scope);
        self.var_rho[v] = Some((rho, node));
        (rho, node)
    }

    fn shareable(&self, frame: &Frame, v: VarId) -> bool {
        if frame.inline_vars.contains_key(&v) {
            return false;
        }
        let var = &self.p.vars[v];
        match var.kind {
            VarKind::Global { thread_local, .. } => !thread_local,
            VarKind::StringLit => true,
            VarKind::Local(_) | VarKind::Param(..) => var.address_taken,
            VarKind::Temp(_) => var.address_taken,
        }
    }

    fn access(&mut self, frame: &Frame, rho: Rho, pos: Pos, write: bool) {
        let (pos, via) = match &frame.inline {
            Some((name, at, _)) => (*at, Some(name.clone())),
            None => (pos, None),
        };
        let a = self.accesses.push(AccessInfo { rho, write });
        self.access_sites.push(AccessSite {
            pos,
            func: frame.func,
            write,
            via,
        });
        self.current.push(GenEvent::Event(Event::Access(a)));
    }

    fn whole_access(&mut self, frame: &Frame, rho: Rho, content: Node, pos: Pos, write: bool) {
        let (pos, via) = match &frame.inline {
            Some((name, at, _)) => (*at, Some(name.clone())),
            None => (pos, None),
        };
        self.current.push(GenEvent::Whole {
            rho,
            content,
            pos,
            write,
            via,
            func: frame.func,
        });
    }

    /// The location an lvalue denotes and its content, recording the reads made to compute it.
    fn place(&mut self, frame: &mut Frame, lv: &Lval) -> (Rho, Node, bool) {
        let (mut rho, mut node, shareable) = match &lv.base {
            Base::Var(v) => {
                let (r, n) = self.var(frame, *v);
                (r, n, self.shareable(frame, *v))
            }
            Base::Deref(op) => {
                let unique = self.is_unique(frame, op);
                let value = self.eval(frame, op);
                let value = match value {
                    Some(v) => v,
                    None => self.t.var(frame.scope),
                };
                let (r, n) = self.t.deref(&mut self.c, value);
                (r, n, !unique)
            }
        };
        for p in &lv.proj {
            match *p {
                Proj::Field { strukt, index } => {
                    let (r, n) = self.t.field(&mut self.c, node, rho, strukt, index);
                    rho = r;
                    node = n;
                }
                Proj::Index(_) => {}
            }
        }
        (rho, node, shareable)
    }

    /// Reads an lvalue: an access if it is memory other threads may see; returns its content.
    fn read(&mut self, frame: &mut Frame, lv: &Lval) -> Node {
        let (rho, node, shareable) = self.place(frame, lv);
        if shareable {
            let ty = self.p.lval_type(lv);
            if self.is_aggregate(ty) {
                self.whole_access(frame, rho, node, lv.pos, false);
            } else {
                self.access(frame, rho, lv.pos, false);
            }
        }
        node
    }

    fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(self.p.types.get(ty), Type::Struct(_) | Type::Union(_))
    }

    /// The value of an operand, or `None` for a constant (which carries no labels).
    fn eval(&mut self, frame: &mut Frame, op: &Operand) -> Option<Node> {
        match op {
            Operand::Const(_) => None,
            Operand::Use(lv) => Some(self.read(frame, lv)),
            Operand::AddrOf(lv) => {
                let (rho, node, _) = self.place(frame, lv);
                Some(self.t.ptr(rho, node, frame.scope))
            }
            Operand::Func(f) => Some(self.t.fun(vec![*f], frame.scope)),
            Operand::Str(v) => {
                let (rho, node) = self.var(frame, *v);
                Some(self.t.ptr(rho, node, frame.scope))
            }
            Operand::Cast(ty, inner) => {
                let from = self.p.operand_type(inner);
                let value = self.eval(frame, inner);
                let pos = self.cur_pos;
                self.convert(frame, value, from, *ty, Some(pos))
            }
            Operand::Arith(ty, ops) => {
                let values: Vec<Option<Node>> = ops.iter().map(|o| self.eval(frame, o)).collect();
                if !self.is_pointer(*ty) {
                    return None;
                }
                // Pointer arithmetic keeps labels: the result may point wherever a pointer
                // operand points.
                let result = self.t.of_type(&mut self.c, *ty, frame.scope);
                for (o, v) in ops.iter().zip(values) {
                    if let Some(v) = v {
                        if self.is_pointer(self.p.operand_type(o)) {
                            self.t.flow(&mut self.c, v, result);
                        }
                    }
                }
                Some(result)
            }
            Operand::VaArg(ty, ap) => {
                self.eval(frame, ap);
                let node = self.t.of_type(&mut self.c, *ty, frame.scope);
                if frame.inline.is_some() {
                    // A library stub taking a `va_list`: what it reads was read at the call of
                    // the user's variadic function that handed the list on.
                    return Some(node);
                }
                if self.is_variadic(frame.func) {
                    let (_, _, va) = self.signature(frame.func);
                    self.t.unify(&mut self.c, va, node);
                    return Some(node);
                }
                // `va_arg` on a `va_list` received as a parameter: where it came from is not
                // tracked.
                self.unsound.push(Unsound {
                    pos: self.cur_pos,
                    what: "va_arg on a va_list parameter: the values it yields are not tracked"
                        .into(),
                });
                Some(node)
            }
        }
    }

    fn is_variadic(&self, f: FuncId) -> bool {
        matches!(
            self.p.types.get(self.p.funcs[f].ty),
            Type::Function { variadic: true, .. }
        )
    }

    fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.p.types.get(ty), Type::Pointer(_) | Type::Array(_))
    }

    /// A value converted from type `from` to `to` (an explicit or implicit cast).
    fn convert(
        &mut self,
        frame: &mut Frame,
        value: Option<Node>,
        from: TypeId,
        to: TypeId,
        pos: Option<Pos>,
    ) -> Option<Node> {
        let value = value?;
        let from_ptr = self.is_pointer(from)
            || matches!(self.t.shape(value), Shape::Ptr { .. } | Shape::Fun(_));
        let to_ptr = self.is_pointer(to);
        match (from_ptr, to_ptr) {
            (true, true) | (false, false) => {
                if from_ptr {
                    if let Some(v) = self.void_cast(value, from, to, frame.scope) {
                        return Some(v);
                    }
                }
                let target = self.t.of_type(&mut self.c, to, frame.scope);
                self.t.flow(&mut self.c, value, target);
                Some(target)
            }
            (false, true) => {
                // An integer used as a pointer: it points into conflated memory.
                Some(self.integer_pointer())
            }
            (true, false) => {
                if let Some(pos) = pos {
                    self.unsound.push(Unsound {
                        pos,
                        what: "a pointer converted to an integer is not tracked".into(),
                    });
                }
                None
            }
        }
    }

    /// A cast between `T*` and `void*` (paper §3.4): the pointer's label flows, and the `T`
    /// memory is the `void*` content's entry for `T`'s class. `None` for any other pointer cast.
    fn void_cast(&mut self, value: Node, from: TypeId, to: TypeId, scope: Scope) -> Option<Node> {
        let types = &self.p.types;
        let (fp, tp) = (types.pointee(from)?, types.pointee(to)?);
        let (void_from, void_to) = (
            matches!(types.get(fp), Type::Void),
            matches!(types.get(tp), Type::Void),
        );
        let typed = match (void_from, void_to) {
            (false, true) => fp,
            (true, false) => tp,
            _ => return None,
        };
        let key = views::key_of_type(types, typed)?;
        if !matches!(
            self.t.shape(value),
            Shape::Ptr { .. } | Shape::Var | Shape::Blob { .. }
        ) {
            return None;
        }
        let (rho, content) = self.t.deref(&mut self.c, value);
        let target = self.t.of_type(&mut self.c, to, scope);
        let (target_rho, target_content) = self.t.deref(&mut self.c, target);
        self.c.flow(rho, target_rho);
        let (void_content, typed_content) = if void_to {
            (target_content, content)
        } else {
            (content, target_content)
        };
        if !self.switches.void_model {
            // The baseline: memory cast to or from `void*` is conflated, unless it is untyped
            // memory getting its first type.
            let fresh = void_from && matches!(self.t.shape(content), Shape::Var);
            if !fresh {
                self.t.conflate(&mut self.c, content);
            }
        }
        let entry = self.t.view(&mut self.c, void_content, key, Some(typed));
        self.t.unify(&mut self.c, entry, typed_content);
        Some(target)
    }

    fn integer_pointer(&mut self) -> Node {
        if let Some(n) = self.int_blob {
            return n;
        }
        let v = self.t.var(Scope::ROOT);
        self.t.conflate(&mut self.c, v);
        let (rho, content) = self.t.deref(&mut self.c, v);
        let n = self.t.ptr(rho, content, Scope::ROOT);
        self.int_blob = Some(n);
        n
    }

    /// Stores a value into an lvalue (an assignment, a call's result).
    fn store(&mut self, frame: &mut Frame, dst: &Lval, value: Option<Node>, from: Option<TypeId>) {
        let (rho, node, shareable) = self.place(frame, dst);
        let ty = self.p.lval_type(dst);
        if shareable {
            if self.is_aggregate(ty) {
                self.whole_access(frame, rho, node, dst.pos, true);
            } else {
                self.access(frame, rho, dst.pos, true);
            }
        }
        if let Some(v) = value {
            let v = match from {
                Some(from_ty) if from_ty != ty => {
                    self.convert(frame, Some(v), from_ty, ty, Some(dst.pos))
                }
                _ => Some(v),
            };
            if let Some(v) = v {
                self.t.flow(&mut self.c, v, node);
            }
        }
    }

    /// Parameters, result and variadic node of a user function (created on first use).
    fn signature(&mut self, f: FuncId) -> (Vec<Node>, Option<Node>, Node) {
        if let Some(s) = self.sig.get(&f) {
            return s.clone();
        }
        let scope = self.scope_of.get(&f).copied().unwrap_or(Scope::ROOT);
        let func: &Func = &self.p.funcs[f];
        let mut params = Vec::new();
        for &v in &func.params {
            let node = match self.var_rho[v] {
                Some((_, n)) => n,
                None => {
                    let ty = self.p.vars[v].ty;
                    let kind = if self.p.vars[v].address_taken {
                        RhoKind::Alloc
                    } else {
                        RhoKind::Plain
                    };
                    let rho = self.t.new_rho(&mut self.c, scope, kind, RhoOrigin::Object);
                    let n = self.t.content_of_type(&mut self.c, ty, scope);
                    self.var_rho[v] = Some((rho, n));
                    self.rho_names.insert(rho, RhoName::Var(v));
                    n
                }
            };
            params.push(node);
        }
        let ret = match self.p.types.get(func.ty) {
            Type::Function { ret, .. } if !matches!(self.p.types.get(*ret), Type::Void) => {
                let ret = *ret;
                Some(self.t.of_type(&mut self.c, ret, scope))
            }
            _ => None,
        };
        let va = self.t.var(scope);
        let s = (params, ret, va);
        self.sig.insert(f, s.clone());
        s
    }

    /// A call of a user function at a new site: its signature instantiated against the
    /// arguments and the result.
    fn call_site(
        &mut self,
        frame: &Frame,
        callee: FuncId,
        args: &[Option<Node>],
        result: Option<Node>,
        pos: Pos,
        fork: bool,
    ) -> Site {
        let binder = self.scope_of.get(&callee).copied().unwrap_or(Scope::ROOT);
        let site = self.c.new_site(binder, frame.scope, SiteKind::Inst);
        self.sites.insert(
            site,
            SiteInfo {
                pos,
                caller: frame.func,
                callee,
                fork,
            },
        );
        // A call inside a recursive cycle is monomorphic (as in the paper, where recursive
        // functions are typed with a monomorphic fix): instantiating the callee's signature
        // afresh at such a site would unfold recursive data structures without end.
        if let (Some(a), Some(b)) = (
            self.recursive_scc.get(&frame.func),
            self.recursive_scc.get(&callee),
        ) {
            if a == b {
                self.t.set_monomorphic(site);
            }
        }
        let (params, ret, va) = self.signature(callee);
        for (k, arg) in args.iter().enumerate() {
            let Some(a) = *arg else { continue };
            match params.get(k) {
                Some(&p) => self.t.instantiate(&mut self.c, p, a, site, Pol::Neg),
                // Variadic arguments reach the callee only through `va_arg`. For a callee that
                // uses it, every argument that carries labels is an instance of the one variadic
                // node (scalars carry none: instantiating them would only make a pointer and an
                // integer meet and conflate). Other callees hand their `va_list` to the library
                // (`vsnprintf`), which reads what the arguments point to: the caller reads them
                // at the call instead (see `StmtKind::Call`).
                None if self.uses_va_arg.contains(&callee)
                    && !matches!(self.t.shape(a), Shape::Scalar) =>
                {
                    self.t.instantiate(&mut self.c, va, a, site, Pol::Neg);
                }
                None => {}
            }
        }
        if let (Some(r), Some(res)) = (ret, result) {
            self.t.instantiate(&mut self.c, r, res, site, Pol::Pos);
        }
        site
    }

    /// The user statement being generated, when `frame` is the user function itself (not a stub
    /// inlined into it).
    fn user_stmt(&self, frame: &Frame) -> Option<StmtAt> {
        if frame.inline.is_some() {
            return None;
        }
        self.cur_stmt.filter(|(f, _, _)| *f == frame.func)
    }

    /// Whether a pointer operand certainly points into memory no other thread can reach yet.
    fn is_unique(&self, frame: &Frame, op: &Operand) -> bool {
        !frame.unique.is_empty()
            && uniqueness::base_var(self.p, op).is_some_and(|v| frame.unique.contains(&v))
    }

    fn lock_arg(&mut self, args: &[Option<Node>], k: usize) -> Option<Lock> {
        let v = args.get(k).copied().flatten()?;
        let (_, content) = self.t.deref(&mut self.c, v);
        Some(self.t.lock_of(&mut self.c, content))
    }

    /// Accesses the whole object a pointer argument points to.
    fn touch(&mut self, frame: &mut Frame, arg: Option<Node>, pos: Pos, write: bool) {
        let Some(v) = arg else { return };
        if matches!(self.t.shape(v), Shape::Fun(_)) {
            return;
        }
        let (rho, content) = self.t.deref(&mut self.c, v);
        self.whole_access(frame, rho, content, pos, write);
    }

    fn new_object(&mut self, frame: &mut Frame, pos: Pos, by: &str) -> Node {
        let scope = frame.scope;
        let rho = self
            .t
            .new_rho(&mut self.c, scope, RhoKind::Alloc, RhoOrigin::Object);
        let content = self.t.var(scope);
        let (pos, by) = match &frame.inline {
            Some((name, at, _)) => (*at, name.clone()),
            None => (pos, by.to_string()),
        };
        self.rho_names.insert(
            rho,
            RhoName::Alloc {
                pos,
                func: frame.func,
                by,
            },
        );
        let o = self.objects.push((rho, content, false));
        self.current.push(GenEvent::Event(Event::Alloc(o)));
        self.t.ptr(rho, content, scope)
    }

    /// Models a call of a function without a user body: intrinsics, stubs, and the rest.
    fn library_call(
        &mut self,
        frame: &mut Frame,
        f: FuncId,
        args: &[Option<Node>],
        arg_ops: &[Operand],
        result: Option<Node>,
        pos: Pos,
    ) {
        let name = name_of(self.p, f).to_string();
        let set_result = |g: &mut Gen, value: Node| {
            if let Some(r) = result {
                g.t.flow(&mut g.c, value, r);
            }
        };
        match name.as_str() {
            "pthread_mutex_lock"
            | "pthread_mutex_timedlock"
            | "pthread_spin_lock"
            | "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_timedrdlock"
            | "pthread_rwlock_timedwrlock"
            | "__locksmith_acquire" => {
                if let Some(l) = self.lock_arg(args, 0) {
                    self.current.push(GenEvent::Event(Event::Acquire(l)));
                }
            }
            "pthread_mutex_unlock"
            | "pthread_spin_unlock"
            | "pthread_rwlock_unlock"
            | "__locksmith_release" => {
                if let Some(l) = self.lock_arg(args, 0) {
                    self.current.push(GenEvent::Event(Event::Release(l)));
                }
            }
            "pthread_cond_wait" | "pthread_cond_timedwait" => {
                if let Some(l) = self.lock_arg(args, 1) {
                    self.current.push(GenEvent::Event(Event::Release(l)));
                    self.current.push(GenEvent::Event(Event::Acquire(l)));
                }
            }
            "pthread_create" => {
                self.touch(frame, args.first().copied().flatten(), pos, true);
                if let Some(fnode) = args.get(2).copied().flatten() {
                    let arg = args.get(3).copied().flatten();
                    let handle = self
                        .user_stmt(frame)
                        .and_then(|at| self.joins.create.get(&at).copied());
                    self.pending_call(frame, fnode, vec![arg], None, pos, true);
                    if let Some(last) = self.pending.last_mut() {
                        last.handle = handle;
                    }
                }
            }
            "signal" | "bsd_signal" | "sysv_signal" => {
                if let Some(fnode) = args.get(1).copied().flatten() {
                    self.pending_call(frame, fnode, Vec::new(), None, pos, true);
                }
            }
            "sigaction" => {
                if let Some(act) = args.get(1).copied().flatten() {
                    let (_, content) = self.t.deref(&mut self.c, act);
                    let handler = self.t.var(frame.scope);
                    let targets = self.t.funs_inside(content);
                    let hnode = self.t.fun(targets, frame.scope);
                    self.t.unify(&mut self.c, handler, hnode);
                    self.pending_call(frame, handler, Vec::new(), None, pos, true);
                }
                self.touch(frame, args.get(2).copied().flatten(), pos, true);
            }
            "pthread_join" => {
                self.touch(frame, args.get(1).copied().flatten(), pos, true);
                if let Some(h) = self
                    .user_stmt(frame)
                    .and_then(|at| self.joins.join_after.get(&at).copied())
                {
                    self.current.push(GenEvent::Event(Event::Join(h)));
                }
            }
            "pthread_once" => {
                if let Some(fnode) = args.get(1).copied().flatten() {
                    self.pending_call(frame, fnode, Vec::new(), None, pos, false);
                }
            }
            "pthread_key_create" => self.touch(frame, args.first().copied().flatten(), pos, true),
            "pthread_getspecific" => {
                // Thread-specific data is private to the calling thread.
                if let Some(r) = result {
                    let fresh = self.t.var(frame.scope);
                    let (_rho, _) = self.t.deref(&mut self.c, fresh);
                    self.t.flow(&mut self.c, fresh, r);
                }
            }
            "malloc" | "calloc" | "valloc" | "aligned_alloc" | "memalign" | "pvalloc"
            | "__locksmith_alloc" => {
                let obj = self.new_object(frame, pos, &name);
                set_result(self, obj);
            }
            "realloc" | "reallocarray" => {
                let obj = self.new_object(frame, pos, &name);
                if let Some(old) = args.first().copied().flatten() {
                    self.t.flow(&mut self.c, old, obj);
                }
                set_result(self, obj);
            }
            "posix_memalign" => {
                let obj = self.new_object(frame, pos, &name);
                if let Some(out) = args.first().copied().flatten() {
                    let (rho, content) = self.t.deref(&mut self.c, out);
                    self.access(frame, rho, pos, true);
                    self.t.flow(&mut self.c, obj, content);
                }
            }
            "__locksmith_read" | "__locksmith_write" | "free" => {
                if !arg_ops.first().is_some_and(|op| self.is_unique(frame, op)) {
                    let write = name != "__locksmith_read";
                    self.touch(frame, args.first().copied().flatten(), pos, write);
                }
            }
            "__locksmith_copy" => {
                let (dst, src) = (
                    args.first().copied().flatten(),
                    args.get(1).copied().flatten(),
                );
                if !arg_ops.get(1).is_some_and(|op| self.is_unique(frame, op)) {
                    self.touch(frame, src, pos, false);
                }
                if !arg_ops.first().is_some_and(|op| self.is_unique(frame, op)) {
                    self.touch(frame, dst, pos, true);
                }
                if let (Some(d), Some(s)) = (dst, src) {
                    let (_, dc) = self.t.deref(&mut self.c, d);
                    let (_, sc) = self.t.deref(&mut self.c, s);
                    self.t.flow(&mut self.c, sc, dc);
                }
            }
            "__locksmith_nondet" => {}
            "__locksmith_read_varargs" | "__locksmith_write_varargs" => {
                let write = name == "__locksmith_write_varargs";
                let extra = frame
                    .inline
                    .as_ref()
                    .map(|(_, _, v)| v.clone())
                    .unwrap_or_default();
                for v in extra.into_iter().flatten() {
                    if matches!(self.t.shape(v), Shape::Ptr { .. }) {
                        self.touch(frame, Some(v), pos, write);
                    }
                }
            }
            "longjmp" | "siglongjmp" | "_longjmp" => {
                // Lowered as the end of the path; where control resumes is not followed.
                self.unsound.push(Unsound {
                    pos,
                    what: format!(
                        "{name}: execution resuming at its setjmp is not followed (the code after \
                         the setjmp is analysed only as reached normally)"
                    ),
                });
            }
            _ if is_no_effect(&name) => {}
            _ => {
                let func = &self.p.funcs[f];
                if func.defined && func.origin == FuncOrigin::Stub && frame.depth < INLINE_DEPTH {
                    self.inline_stub(frame, f, args, arg_ops, result, pos);
                    return;
                }
                // An unmodelled function: it may write whatever its pointer arguments point to,
                // and a pointer it returns points to fresh memory.
                self.unmodelled.insert(name.clone());
                for (k, v) in args.iter().enumerate() {
                    let is_ptr = arg_ops
                        .get(k)
                        .map(|o| self.is_pointer(self.p.operand_type(o)))
                        .unwrap_or(false);
                    if is_ptr {
                        self.touch(frame, *v, pos, true);
                    }
                }
                if let Some(r) = result {
                    if matches!(self.t.shape(r), Shape::Ptr { .. }) {
                        let obj = self.new_object(frame, pos, &name);
                        self.t.flow(&mut self.c, obj, r);
                    }
                }
            }
        }
    }

    /// Generates a stub's body in the caller: its variables are fresh in the caller's scope, its
    /// parameters receive the arguments, and its accesses are reported at the call.
    fn inline_stub(
        &mut self,
        frame: &mut Frame,
        f: FuncId,
        args: &[Option<Node>],
        arg_ops: &[Operand],
        result: Option<Node>,
        pos: Pos,
    ) {
        let func = &self.p.funcs[f];
        // A stub that only reads or writes through its arguments sees a unique argument as
        // unique too.
        let unique: FxHashSet<VarId> = if uniqueness::non_capturing(&func.name) {
            func.params
                .iter()
                .zip(arg_ops)
                .filter(|(_, op)| self.is_unique(frame, op))
                .map(|(&v, _)| v)
                .collect()
        } else {
            FxHashSet::default()
        };
        let scope = frame.scope;
        let mut vars = FxHashMap::default();
        for &v in func.params.iter().chain(&func.locals) {
            let ty = self.p.vars[v].ty;
            let rho = self
                .t
                .new_rho(&mut self.c, scope, RhoKind::Plain, RhoOrigin::Object);
            let node = self.t.content_of_type(&mut self.c, ty, scope);
            vars.insert(v, (rho, node));
        }
        for (k, &v) in func.params.iter().enumerate() {
            if let Some(a) = args.get(k).copied().flatten() {
                let (_, node) = vars[&v];
                self.t.flow(&mut self.c, a, node);
            }
        }
        let extra: Vec<Option<Node>> = args.iter().skip(func.params.len()).copied().collect();
        let (via, at) = match &frame.inline {
            Some((name, at, _)) => (name.clone(), *at),
            None => (func.name.clone(), pos),
        };
        let mut inner = Frame {
            func: frame.func,
            scope,
            inline_vars: vars,
            inline: Some((via, at, extra)),
            depth: frame.depth + 1,
            returned: Vec::new(),
            unique,
        };
        let blocks: Vec<BlockId> = func.blocks.indices().collect();
        for b in blocks {
            let block = &self.p.funcs[f].blocks[b];
            for stmt in &block.stmts {
                self.stmt(&mut inner, &stmt.kind, stmt.pos);
            }
            match &block.term {
                Term::Branch { cond, .. } => {
                    self.eval(&mut inner, cond);
                }
                Term::Return(Some(op), _) => {
                    if let Some(v) = self.eval(&mut inner, op) {
                        inner.returned.push(v);
                    }
                }
                _ => {}
            }
        }
        if let Some(r) = result {
            for v in inner.returned {
                self.t.flow(&mut self.c, v, r);
            }
        }
    }

    fn pending_call(
        &mut self,
        frame: &Frame,
        node: Node,
        args: Vec<Option<Node>>,
        result: Option<Node>,
        pos: Pos,
        fork: bool,
    ) {
        let id = self.pending.len();
        self.pending.push(Pending {
            caller: frame.func,
            fork,
            handle: None,
            node,
            args,
            result,
            pos: frame.inline.as_ref().map(|(_, at, _)| *at).unwrap_or(pos),
            done: BTreeSet::new(),
        });
        self.current.push(GenEvent::Pending(id));
    }

    fn stmt(&mut self, frame: &mut Frame, kind: &StmtKind, pos: Pos) {
        self.cur_pos = pos;
        self.t.at(encode_pos(pos));
        match kind {
            StmtKind::Assign { dst, src } => {
                let value = self.eval(frame, src);
                let from = self.p.operand_type(src);
                self.store(frame, dst, value, Some(from));
            }
            StmtKind::Eval(op) => {
                self.eval(frame, op);
            }
            StmtKind::Asm { operands } => {
                self.unsound.push(Unsound {
                    pos,
                    what: "inline assembly: its effects are not modelled".into(),
                });
                for lv in operands {
                    let (rho, _, shareable) = self.place(frame, lv);
                    if shareable {
                        self.access(frame, rho, lv.pos, true);
                    }
                }
            }
            StmtKind::Call { dst, callee, args } => {
                let values: Vec<Option<Node>> = args.iter().map(|a| self.eval(frame, a)).collect();
                let result = dst.as_ref().map(|d| {
                    let ty = self.p.lval_type(d);
                    self.t.of_type(&mut self.c, ty, frame.scope)
                });
                match callee {
                    Callee::Direct(f) if self.is_user_body(*f) => {
                        let site = self.call_site(frame, *f, &values, result, pos, false);
                        if !self.uses_va_arg.contains(f) {
                            let fixed = self.signature(*f).0.len();
                            for v in values.iter().skip(fixed).flatten() {
                                if matches!(self.t.shape(*v), Shape::Ptr { .. }) {
                                    self.touch(frame, Some(*v), pos, false);
                                }
                            }
                        }
                        let callee = self.fn_of[f];
                        self.current
                            .push(GenEvent::Event(Event::Call { site, callee }));
                    }
                    Callee::Direct(f) => self.library_call(frame, *f, &values, args, result, pos),
                    Callee::Indirect(op) => {
                        if let Some(fnode) = self.eval(frame, op) {
                            self.pending_call(frame, fnode, values.clone(), result, pos, false);
                        }
                    }
                }
                if let (Some(d), Some(r)) = (dst, result) {
                    self.store(frame, d, Some(r), None);
                }
            }
        }
    }

    /// Generates one user function.
    fn function(&mut self, f: FuncId) {
        let func = &self.p.funcs[f];
        let scope = self.scope_of[&f];
        let mut frame = Frame {
            func: f,
            scope,
            inline_vars: FxHashMap::default(),
            inline: None,
            depth: 0,
            returned: Vec::new(),
            unique: FxHashSet::default(),
        };
        let (_, ret, _) = self.signature(f);
        let unique = if self.switches.uniqueness {
            uniqueness::analyse(self.p, f)
        } else {
            uniqueness::Uniqueness::default()
        };
        let mut out: Vec<Vec<GenEvent>> = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            self.current = Vec::new();
            if b == BlockId(0) {
                // Locals whose address is taken are objects created at each entry.
                for &v in func.locals.iter().chain(&func.params) {
                    if self.p.vars[v].address_taken {
                        let (rho, node) = self.var(&frame, v);
                        let o = self
                            .objects
                            .push((rho, node, self.is_array(self.p.vars[v].ty)));
                        self.current.push(GenEvent::Event(Event::Alloc(o)));
                    }
                }
            }
            if let Some(handles) = self.joins.join_at_entry.get(&(f, b)) {
                for &h in handles {
                    self.current.push(GenEvent::Event(Event::Join(h)));
                }
            }
            for (k, stmt) in block.stmts.iter().enumerate() {
                self.cur_stmt = Some((f, b, k));
                frame.unique = uniqueness::as_set(unique.before(b, k));
                self.stmt(&mut frame, &stmt.kind, stmt.pos);
            }
            self.cur_stmt = None;
            frame.unique = uniqueness::as_set(unique.at_term(b));
            match &block.term {
                Term::Branch { cond, .. } => {
                    self.eval(&mut frame, cond);
                }
                Term::Return(Some(op), _) => {
                    let value = self.eval(&mut frame, op);
                    if let (Some(v), Some(r)) = (value, ret) {
                        let from = self.p.operand_type(op);
                        let to = match self.p.types.get(func.ty) {
                            Type::Function { ret, .. } => *ret,
                            _ => from,
                        };
                        if let Some(v) = self.convert(&mut frame, Some(v), from, to, None) {
                            self.t.flow(&mut self.c, v, r);
                        }
                    }
                }
                _ => {}
            }
            out.push(std::mem::take(&mut self.current));
        }
        self.blocks.insert(f, out);
    }

    fn is_array(&self, ty: TypeId) -> bool {
        matches!(self.p.types.get(ty), Type::Array(_))
    }

    /// Resolves calls through function pointers and forks until no new target appears.
    fn resolve_pending(&mut self) -> Vec<Vec<(Site, FuncId)>> {
        let mut expansions: Vec<Vec<(Site, FuncId)>> = vec![Vec::new(); self.pending.len()];
        loop {
            let mut progress = false;
            for (id, expansion) in expansions.iter_mut().enumerate() {
                let targets = self.t.targets(self.pending[id].node);
                for t in targets {
                    if self.pending[id].done.contains(&t) {
                        continue;
                    }
                    self.pending[id].done.insert(t);
                    progress = true;
                    let pd = &self.pending[id];
                    let (caller, pos, fork) = (pd.caller, pd.pos, pd.fork);
                    let args = pd.args.clone();
                    let result = pd.result;
                    if !self.is_user_body(t) {
                        // A library function called through a pointer (a comparator such as
                        // `strcmp`): modelled as unmodelled, on the arguments.
                        let name = name_of(self.p, t).to_string();
                        if !is_no_effect(&name) {
                            self.unmodelled.insert(name);
                        }
                        continue;
                    }
                    let scope = self.scope_of.get(&caller).copied().unwrap_or(Scope::ROOT);
                    let frame = Frame {
                        func: caller,
                        scope,
                        inline_vars: FxHashMap::default(),
                        inline: None,
                        depth: 0,
                        returned: Vec::new(),
                        unique: FxHashSet::default(),
                    };
                    let site = self.call_site(&frame, t, &args, result, pos, fork);
                    expansion.push((site, t));
                }
            }
            if !progress {
                return expansions;
            }
        }
    }

    /// The location labels to check for an object: its own, and its fields' when its content is
    /// a struct (recursively). A location holding conflated memory is one location with the blob
    /// (`tied`, from [`LTypes::blob_ties`]): only the outer label is checked, so a race on it is
    /// reported once.
    fn units(&mut self, rho: Rho, content: Node, tied: &[(Rho, Rho)], out: &mut Vec<Rho>) {
        out.push(rho);
        out.extend(
            self.t
                .field_labels(content)
                .into_iter()
                .filter(|r| !tied.iter().any(|t| t.1 == *r)),
        );
    }
}

/// Records the sizes of the constraint store in the developer's statistics.
fn record_constraint_stats(c: &Constraints) {
    use solver::stats::count;
    count("constraints: scopes", c.scopes.len());
    count("constraints: rhos", c.rhos.len());
    count("constraints: locks", c.locks.len());
    count("constraints: sites", c.sites.len());
    count("constraints: flows", c.flows.len());
    count("constraints: rho insts", c.rho_insts.len());
    count("constraints: lock eqs", c.lock_eqs.len());
    count("constraints: lock insts", c.lock_insts.len());
}

/// Library functions with no memory effect the analysis needs (thread attributes, condition
/// variable signalling, lock initialisation, compiler builtins).
fn is_no_effect(name: &str) -> bool {
    name.starts_with("__builtin_")
        || name.starts_with("pthread_attr_")
        || name.starts_with("pthread_mutexattr_")
        || name.starts_with("pthread_condattr_")
        || name.starts_with("pthread_rwlockattr_")
        || matches!(
            name,
            "pthread_mutex_init"
                | "pthread_mutex_destroy"
                | "pthread_mutex_trylock"
                | "pthread_spin_init"
                | "pthread_spin_destroy"
                | "pthread_spin_trylock"
                | "pthread_rwlock_init"
                | "pthread_rwlock_destroy"
                | "pthread_rwlock_tryrdlock"
                | "pthread_rwlock_trywrlock"
                | "pthread_cond_init"
                | "pthread_cond_destroy"
                | "pthread_cond_signal"
                | "pthread_cond_broadcast"
                | "pthread_self"
                | "pthread_equal"
                | "pthread_detach"
                | "pthread_exit"
                | "pthread_cancel"
                | "pthread_kill"
                | "pthread_sigmask"
                | "pthread_setcancelstate"
                | "pthread_setcanceltype"
                | "pthread_testcancel"
                | "pthread_setname_np"
                | "pthread_yield"
                | "pthread_key_delete"
                | "pthread_setspecific"
                | "sched_yield"
                | "exit"
                | "_exit"
                | "_Exit"
                | "abort"
                | "quick_exit"
                | "__assert_fail"
                | "longjmp"
                | "siglongjmp"
                | "setjmp"
                | "_setjmp"
                | "sigsetjmp"
                | "__sigsetjmp"
        )
}

/// The user functions whose bodies use `va_arg`.
fn functions_using_va_arg(p: &Program) -> FxHashSet<FuncId> {
    fn uses(op: &Operand) -> bool {
        match op {
            Operand::VaArg(..) => true,
            Operand::Use(lv) | Operand::AddrOf(lv) => lv_uses(lv),
            Operand::Cast(_, inner) => uses(inner),
            Operand::Arith(_, ops) => ops.iter().any(uses),
            Operand::Const(_) | Operand::Func(_) | Operand::Str(_) => false,
        }
    }
    fn lv_uses(lv: &Lval) -> bool {
        matches!(&lv.base, Base::Deref(op) if uses(op))
    }
    let mut out = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        let in_stmts = func
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .any(|s| match &s.kind {
                StmtKind::Assign { dst, src } => lv_uses(dst) || uses(src),
                StmtKind::Call { dst, callee, args } => {
                    dst.as_ref().is_some_and(lv_uses)
                        || matches!(callee, Callee::Indirect(op) if uses(op))
                        || args.iter().any(uses)
                }
                StmtKind::Eval(op) => uses(op),
                StmtKind::Asm { .. } => false,
            });
        let in_terms = func.blocks.iter().any(|b| match &b.term {
            Term::Branch { cond, .. } => uses(cond),
            Term::Return(Some(op), _) => uses(op),
            _ => false,
        });
        if in_stmts || in_terms {
            out.insert(f);
        }
    }
    out
}

/// A position as one number, for [`LTypes::at`].
pub fn encode_pos(pos: Pos) -> u64 {
    ((pos.file.0 as u64) << 40) | ((pos.line as u64) << 16) | (pos.column as u64 & 0xffff)
}

fn decode_pos(at: u64) -> Pos {
    Pos {
        file: crate::ir::FileId((at >> 40) as u32),
        line: ((at >> 16) & 0xff_ffff) as u32,
        column: (at & 0xffff) as u32,
    }
}

/// The recursive components of the direct call graph of the user functions: each function on a
/// cycle mapped to the index of its strongly connected component.
fn recursive_components(p: &Program) -> FxHashMap<FuncId, usize> {
    let mut graph = petgraph::graphmap::DiGraphMap::<u32, (), rustc_hash::FxBuildHasher>::default();
    let mut self_calls = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == FuncOrigin::User) {
            continue;
        }
        graph.add_node(f.0);
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                if let StmtKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } = &stmt.kind
                {
                    graph.add_edge(f.0, g.0, ());
                    if *g == f {
                        self_calls.insert(f.0);
                    }
                }
            }
        }
    }
    let mut out = FxHashMap::default();
    for (k, component) in petgraph::algo::tarjan_scc(&graph).into_iter().enumerate() {
        if component.len() > 1 || self_calls.contains(&component[0]) {
            for f in component {
                out.insert(FuncId(f), k);
            }
        }
    }
    out
}

/// The front end's techniques, each of which can be switched off to measure what it buys (the
/// paper's table 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Switches {
    /// Accesses through a local pointer to fresh, unescaped memory are not shared.
    pub uniqueness: bool,
    /// A `void*` keeps one entry per type class cast to or from it (paper §3.4). Off, every cast
    /// between `T*` and `void*` conflates the `T` memory (the baseline of the paper's table 3),
    /// except the first type given to memory that has none yet (a fresh allocation).
    pub void_model: bool,
    /// Each struct field is its own location (paper §3.4). Off, all fields of one struct object
    /// share one location label (their contents, and the locks among them, stay apart).
    pub field_sensitive: bool,
    /// Each function is its own generalisation scope, so every call instantiates the callee's
    /// labels afresh (paper §3.1, figure 6 \[Inst\]). Off, every label lives at the root: one
    /// function's labels are the same at all of its calls (monomorphic, as the paper's
    /// context-insensitive column of table 3), and a lock a function allocates stands for one
    /// lock per run of it (see the solver's linearity).
    pub context_sensitive: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            uniqueness: true,
            void_model: true,
            field_sensitive: true,
            context_sensitive: true,
        }
    }
}

/// The join-loop conditions of the plan (`joins::BoundCheck`), with the bound's label: the
/// global's, or its member's (created here if no access made it). Every check becomes a
/// condition, so none is lost: the plan only matches loops in user functions with bodies, which
/// all have an event graph.
fn bound_conditions(g: &mut Gen) -> Vec<BoundCondition> {
    let checks = std::mem::take(&mut g.joins.bound_checks);
    checks
        .into_iter()
        .map(|check| {
            let bound = match check.bound {
                LoopBound::Var(v) => g.var_rho[v].map(|(rho, _)| rho),
                LoopBound::GlobalField { var, strukt, index } => g.var_rho[var]
                    .map(|(rho, node)| g.t.field(&mut g.c, node, rho, strukt, index).0),
                LoopBound::Const(_) => None,
            };
            BoundCondition {
                handle: check.handle,
                func: g.fn_of[&check.func],
                bound,
                region: check.region.iter().map(|b| b.0).collect(),
            }
        })
        .collect()
}

/// Generates the constraints and event graphs of a linked program whose entry is `main`.
pub fn generate(p: &Program, main: FuncId, switches: Switches) -> Generated {
    let mut c = Constraints::new();
    let mut t = LTypes::new(&p.types);
    t.void_model = switches.void_model;
    t.field_sensitive = switches.field_sensitive;
    let mut scope_of = FxHashMap::default();
    let mut fn_of = FxHashMap::default();
    let mut fn_func = IndexVec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == FuncOrigin::User) {
            continue;
        }
        let scope = if f == main || !switches.context_sensitive {
            Scope::ROOT
        } else {
            c.new_scope(Scope::ROOT)
        };
        scope_of.insert(f, scope);
        fn_of.insert(f, fn_func.push(f));
    }
    scope_of.insert(p.global_init, Scope::ROOT);
    let mut g = Gen {
        p,
        c,
        t,
        scope_of,
        var_rho: IndexVec::from_elem_n(None, p.vars.len()),
        sig: FxHashMap::default(),
        fn_of,
        fn_func,
        blocks: FxHashMap::default(),
        current: Vec::new(),
        pending: Vec::new(),
        accesses: IndexVec::new(),
        access_sites: IndexVec::new(),
        objects: IndexVec::new(),
        rho_names: FxHashMap::default(),
        sites: FxHashMap::default(),
        unmodelled: BTreeSet::new(),
        unsound: Vec::new(),
        thread_local: Vec::new(),
        int_blob: None,
        cur_pos: p.funcs[main].pos,
        recursive_scc: recursive_components(p),
        joins: joins::plan(p),
        uses_va_arg: functions_using_va_arg(p),
        switches,
        cur_stmt: None,
    };

    // Variables: globals and string literals at the root, locals in their function's scope.
    for (v, var) in p.vars.iter_enumerated() {
        let (scope, kind) = match var.kind {
            VarKind::Global { .. } | VarKind::StringLit => (Scope::ROOT, RhoKind::Alloc),
            VarKind::Local(f) | VarKind::Param(f, _) | VarKind::Temp(f) => {
                let Some(&s) = g.scope_of.get(&f) else {
                    continue;
                };
                let kind = if var.address_taken {
                    RhoKind::Alloc
                } else {
                    RhoKind::Plain
                };
                (s, kind)
            }
        };
        let rho = g.t.new_rho(&mut g.c, scope, kind, RhoOrigin::Object);
        let node = g.t.content_of_type(&mut g.c, var.ty, scope);
        g.var_rho[v] = Some((rho, node));
        g.rho_names.insert(rho, RhoName::Var(v));
        if let VarKind::Global { thread_local, .. } = var.kind {
            if thread_local {
                g.thread_local.push(rho);
            }
            if !matches!(var.kind, VarKind::StringLit) {
                let array = g.is_array(var.ty);
                g.objects.push((rho, node, array));
            }
        }
    }

    // Global initializers: constraints only (they run before any thread, so no accesses).
    {
        let init = p.global_init;
        let mut frame = Frame {
            func: init,
            scope: Scope::ROOT,
            inline_vars: FxHashMap::default(),
            inline: None,
            depth: 0,
            returned: Vec::new(),
            unique: FxHashSet::default(),
        };
        for block in p.funcs[init].blocks.iter() {
            for stmt in &block.stmts {
                g.stmt(&mut frame, &stmt.kind, stmt.pos);
            }
        }
        g.current.clear();
    }
    let user: Vec<FuncId> = g.fn_func.iter().copied().collect();
    solver::stats::time("generate: function bodies", || {
        for f in user {
            g.function(f);
        }
    });
    let expansions = solver::stats::time("generate: indirect calls", || g.resolve_pending());
    let events_start = std::time::Instant::now();

    // Event graphs.
    let mut threads = ThreadProgram::default();
    let fns: Vec<(FnId, FuncId)> = g.fn_func.iter_enumerated().map(|(i, &f)| (i, f)).collect();
    for (fid, f) in fns {
        let func = &p.funcs[f];
        let gen_blocks = g.blocks.remove(&f).unwrap_or_default();
        let mut blocks = Vec::with_capacity(gen_blocks.len());
        for (b, events) in gen_blocks.into_iter().enumerate() {
            let mut out = Vec::with_capacity(events.len());
            for e in events {
                match e {
                    GenEvent::Event(ev) => out.push(ev),
                    GenEvent::Pending(id) => {
                        let (fork, handle) = (g.pending[id].fork, g.pending[id].handle);
                        for &(site, target) in &expansions[id] {
                            let callee = g.fn_of[&target];
                            out.push(if fork {
                                Event::Fork {
                                    site,
                                    callee,
                                    handle,
                                }
                            } else {
                                Event::Call { site, callee }
                            });
                        }
                    }
                    GenEvent::Whole {
                        rho,
                        content,
                        pos,
                        write,
                        via,
                        func: in_func,
                    } => {
                        let mut labels = Vec::new();
                        let tied = g.t.blob_ties(rho, content);
                        g.units(rho, content, &tied, &mut labels);
                        for r in labels {
                            let a = g.accesses.push(AccessInfo { rho: r, write });
                            g.access_sites.push(AccessSite {
                                pos,
                                func: in_func,
                                write,
                                via: via.clone(),
                            });
                            out.push(Event::Access(a));
                        }
                    }
                }
            }
            let block = &func.blocks[BlockId(b as u32)];
            let (succs, returns) = match &block.term {
                Term::Goto(t) => (vec![t.0], false),
                Term::Branch {
                    then_block,
                    else_block,
                    ..
                } => (vec![then_block.0, else_block.0], false),
                Term::Multi(ts) => (ts.iter().map(|t| t.0).collect(), false),
                Term::Return(..) => (Vec::new(), true),
                Term::Exit => (Vec::new(), false),
            };
            blocks.push(EventBlock {
                events: out,
                succs,
                returns,
            });
        }
        threads.funcs.push(FnBody {
            scope: g.scope_of[&f],
            blocks,
        });
        debug_assert_eq!(threads.funcs.len(), fid.0 as usize + 1);
    }
    threads.main = g.fn_of.get(&main).copied();

    if solver::stats::enabled() {
        solver::stats::record_seconds(
            "generate: event graphs",
            events_start.elapsed().as_secs_f64(),
        );
    }
    // Objects: their locks (known now that every field used has been created), checked units.
    let objects = std::mem::take(&mut g.objects);
    for (rho, content, array) in objects.iter().copied() {
        // A location holding conflated memory is the blob's label too (`LTypes::blob_ties`).
        let tied = g.t.blob_ties(rho, content);
        for &(at, blob) in &tied {
            g.c.flow(at, blob);
            g.c.flow(blob, at);
        }
        let locks = g.t.locks_inside(content);
        threads.objects.push(ObjectInfo { locks, array });
        g.units(rho, content, &tied, &mut threads.checked);
    }
    threads.checked.sort();
    threads.checked.dedup();
    threads.thread_local = g.thread_local.clone();
    threads.global_handles = g.joins.global.clone();
    threads.bound_conditions = bound_conditions(&mut g);
    threads.accesses = std::mem::take(&mut g.accesses);
    solver::stats::count("threads: accesses", threads.accesses.len());
    solver::stats::count("threads: functions", threads.funcs.len());

    // Names of labels for reports: objects by variable or allocation site, fields by path.
    let mut rho_names: IndexVec<Rho, RhoName> =
        IndexVec::from_elem_n(RhoName::Other, g.c.rhos.len());
    for (r, n) in g.rho_names.drain() {
        rho_names[r] = n;
    }
    // Locks by the object and field path holding them (the first object to reach one names it).
    let mut lock_names = FxHashMap::default();
    for &(rho, content, _) in objects.iter() {
        let mut stack = vec![(content, rho_names[rho].clone())];
        let mut seen = rustc_hash::FxHashSet::default();
        while let Some((node, name)) = stack.pop() {
            let node = g.t.representative(node);
            if !seen.insert(node) {
                continue;
            }
            if let Shape::Lock(l) = g.t.shape(node) {
                lock_names.entry(l).or_insert_with(|| name.clone());
            }
            if let Shape::Void(entries) = g.t.shape(node) {
                // Each type the memory is viewed at is the same object.
                stack.extend(entries.into_iter().map(|(_, n)| (n, name.clone())));
            }
            if let Shape::Struct { sid, fields } = g.t.shape(node) {
                for f in fields {
                    let field = p.types.structs[sid]
                        .fields
                        .get(f.index as usize)
                        .map(|x| x.name.clone())
                        .unwrap_or_default();
                    let fname = RhoName::Field {
                        parent: Box::new(name.clone()),
                        field,
                    };
                    if rho_names[f.rho] == RhoName::Other {
                        rho_names[f.rho] = fname.clone();
                    }
                    stack.push((f.content, fname));
                }
            }
        }
    }
    for (o, (rho, _, _)) in objects.iter().enumerate() {
        for &l in &threads.objects[ObjectId(o as u32)].locks {
            lock_names
                .entry(l)
                .or_insert_with(|| rho_names[*rho].clone());
        }
    }
    if solver::stats::enabled() {
        g.t.record_stats();
        record_constraint_stats(&g.c);
    }
    let mut unsound = std::mem::take(&mut g.unsound);
    unsound.sort();
    unsound.dedup();
    Generated {
        constraints: g.c,
        threads,
        access_sites: g.access_sites,
        rho_names,
        lock_names,
        sites: g.sites,
        fn_func: g.fn_func,
        unmodelled: g.unmodelled,
        unsound,
        conflations: std::mem::take(&mut g.t.conflations)
            .into_iter()
            .map(|(at, why)| (decode_pos(at), why))
            .collect(),
    }
}
