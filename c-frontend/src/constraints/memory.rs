//! Memory as the generator sees it: the location and content of every lvalue, the value of
//! every operand, conversions between pointer types (the `void *` model of paper §3.4), and the
//! accesses reads and writes make ([Deref] and [Assign], figure 5: each is a correlation
//! `ρ ▷ ℓ` with the locks held, found later by the thread analysis from the access event).
//!
//! It creates labels and constraints through [`super::ltypes`]; it never decides sharing.

use super::ltypes::{Node, RhoOrigin, Shape};
use super::{name_of, AccessSite, Frame, Gen, GenEvent, Object, RhoName};
use crate::analyses::{uniqueness, unpacks};
use crate::constraints::views;
use crate::diagnostics::{Unsound, UnsoundKind};
use crate::ir::ctypes::{Type, TypeId};
use crate::ir::{Base, FuncId, Lval, Operand, Origin, Pos, Proj, VarId, VarKind};
use solver::threads::{AccessInfo, Event, Mode as LockMode};
use solver::{Lock, Rho, RhoKind, Scope, Technique};

impl Gen<'_> {
    /// The location and content of a variable in the current frame.
    pub(super) fn var(&mut self, frame: &Frame, v: VarId) -> (Rho, Node) {
        if let Some(&x) = frame.inline_vars.get(&v) {
            return x;
        }
        if let Some(x) = self.var_rho[v] {
            return x;
        }
        // A variable of a function not processed (a stub's local seen outside inlining).
        let made = self.variable_location(v, frame.scope);
        self.var_rho[v] = Some(made);
        made
    }

    pub(super) fn shareable(&self, frame: &Frame, v: VarId) -> bool {
        if frame.inline_vars.contains_key(&v) {
            return false;
        }
        let var = &self.program.vars[v];
        match var.kind {
            // Each thread's copy of a thread-local is its own; another thread reaches it only
            // through a pointer, so it is shareable only when its address is taken (its
            // accesses by name are then the own copy's, `AccessInfo::own_copy`). The library
            // model's own never is (`ThreadProgram::thread_local`).
            VarKind::Global { thread_local, .. } => {
                !thread_local || (var.address_taken && var.origin != Origin::Stub)
            }
            VarKind::StringLit => true,
            VarKind::Local(_) | VarKind::Param(..) => var.address_taken,
            VarKind::Temp(_) => var.address_taken,
        }
    }

    pub(super) fn access(&mut self, frame: &Frame, rho: Rho, pos: Pos, write: bool) {
        let (pos, via) = frame.report_at(pos);
        let a = self.accesses.push(AccessInfo {
            rho,
            write,
            opened: self.opening,
            own_copy: self.own_copy,
        });
        self.access_sites.push(AccessSite {
            pos,
            func: frame.func,
            write,
            via,
            beside_lock: None,
        });
        self.current.push(GenEvent::Event(Event::Access(a)));
    }

    pub(super) fn whole_access(
        &mut self,
        frame: &Frame,
        rho: Rho,
        content: Node,
        pos: Pos,
        write: bool,
    ) {
        let (pos, via) = frame.report_at(pos);
        self.ltypes.mark_inspected(&mut self.constraints, content);
        self.current.push(GenEvent::Whole {
            rho,
            content,
            pos,
            write,
            via,
            func: frame.func,
            opened: self.opening,
            own_copy: self.own_copy,
        });
    }

    /// The location an lvalue denotes and its content, recording the reads made to compute it.
    pub(super) fn place(&mut self, frame: &mut Frame, lv: &Lval) -> (Rho, Node, bool) {
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
                    None => self.ltypes.var(frame.scope),
                };
                let (r, n) = self.ltypes.deref(&mut self.constraints, value);
                (r, n, !unique)
            }
        };
        for p in &lv.proj {
            match *p {
                Proj::Field { strukt, index } => {
                    let (r, n) = self
                        .ltypes
                        .field(&mut self.constraints, node, rho, strukt, index);
                    rho = r;
                    node = n;
                }
                Proj::Index(_) | Proj::ConstIndex(_) => {}
            }
        }
        (rho, node, shareable)
    }

    /// Reads an lvalue: an access if it is memory other threads may see; returns its content.
    pub(super) fn read(&mut self, frame: &mut Frame, lv: &Lval) -> Node {
        let (rho, node, shareable) = self.place(frame, lv);
        if shareable {
            self.shared_access(frame, lv, rho, node, false);
        }
        self.versioned_read(frame, lv, node)
    }

    /// An access of shareable memory at `lv` (its location and content already found): of each
    /// field when it is a struct, and inside an unpack when `lv` lies in an object whose own
    /// lock is held ([`crate::analyses::unpacks`]): [Unpack] of figure 10 opens the package,
    /// and the access is correlated with the package's opened lock ℓ′ (`AccessInfo::opened`).
    fn shared_access(&mut self, frame: &Frame, lv: &Lval, rho: Rho, node: Node, write: bool) {
        if self.no_accesses {
            return;
        }
        let opened = self.opened_lock(frame, lv, false);
        self.opening = opened;
        self.own_copy = matches!(lv.base, Base::Var(v)
            if matches!(self.program.vars[v].kind, VarKind::Global { thread_local: true, .. }));
        if self.is_aggregate(self.program.lval_type(lv)) {
            self.whole_access(frame, rho, node, lv.pos, write);
        } else {
            self.access(frame, rho, lv.pos, write);
            if opened.is_none() && frame.inline.is_none() {
                self.annotation_access(frame, lv);
                let beside = self.lock_beside(lv);
                if let Some(site) = self.access_sites.iter_mut().next_back() {
                    site.beside_lock = beside;
                }
            }
        }
        self.opening = None;
        self.own_copy = false;
    }

    /// The lock kept beside the field `lv` names last: another field of the same struct whose
    /// type is a lock (or an array of locks).
    fn lock_beside(&self, lv: &Lval) -> Option<(crate::ir::ctypes::StructId, u32)> {
        let Some(&Proj::Field { strukt, index }) = lv.proj.last() else {
            return None;
        };
        let types = &self.program.types;
        let is_lock = |mut ty| loop {
            match types.get(ty) {
                Type::Lock(_) => return true,
                Type::Array(inner) => ty = *inner,
                _ => return false,
            }
        };
        types.structs[strukt]
            .fields
            .iter()
            .enumerate()
            .find(|(i, f)| *i as u32 != index && is_lock(f.ty))
            .map(|(i, _)| (strukt, i as u32))
    }

    /// The opened lock of the unpack `lv` lies in, made at the package's first unpack, with the
    /// mode its object's lock is held in.
    ///
    /// With `whole`, the access is a library call's, which may reach past the object `lv` names
    /// (`memset(p, 0, n * size)`): a handed element ([`unpacks::Package::Element`]) does not
    /// contain it.
    /// The opened lock of the object pointer `op` points to, accessed whole (by a library
    /// function). The object `&x` points to is `x` itself: a member handed to a library
    /// function (`snprintf(t->name, …)`) is that member of its unpacked object.
    pub(super) fn opened_through(
        &mut self,
        frame: &Frame,
        op: &Operand,
        pos: Pos,
    ) -> Option<(Lock, LockMode)> {
        let lv = match op.without_casts() {
            Operand::AddrOf(lv) => lv.clone(),
            _ => Lval {
                base: Base::Deref(Box::new(op.clone())),
                proj: Vec::new(),
                pos,
            },
        };
        self.opened_lock(frame, &lv, true)
    }

    /// Whether pointer `op` is the address of (a part of) the calling thread's own copy of a
    /// thread-local, taken by its name (`tls_buf`, `&tls.count`), or a stub's parameter that
    /// received one: a library function handed it works on that copy in the calling thread.
    pub(super) fn own_copy_through(&self, frame: &Frame, op: &Operand) -> bool {
        match op.without_casts() {
            Operand::AddrOf(Lval {
                base: Base::Var(v), ..
            }) => matches!(
                self.program.vars[*v].kind,
                VarKind::Global {
                    thread_local: true,
                    ..
                }
            ),
            other => frame
                .inline
                .as_ref()
                .is_some_and(|i| other.plain_var().is_some_and(|v| i.own_args.contains(&v))),
        }
    }

    fn opened_lock(&mut self, frame: &Frame, lv: &Lval, whole: bool) -> Option<(Lock, LockMode)> {
        if let Some(inlining) = &frame.inline {
            // Inside a stub, only what a parameter points to whose argument was opened.
            let Base::Deref(op) = &lv.base else {
                return None;
            };
            let param = op.plain_var()?;
            return inlining
                .opened_args
                .iter()
                .find(|(v, _)| *v == param)
                .map(|&(_, opened)| opened);
        }
        let own = unpacks::enclosing(
            self.program,
            frame.func,
            &self.analysed.owning,
            &frame.own,
            lv,
        )?;
        if whole
            && own.package == unpacks::Package::Element
            && !unpacks::within_member(self.program, frame.func, own, lv)
        {
            return None;
        }
        let lock = match self.opened_at.get(&own.package) {
            Some(&k) => self.opened[k].1,
            None => {
                let l = self.constraints.new_lock(Scope::ROOT);
                self.opened_at
                    .insert(own.package.clone(), self.opened.len());
                self.opened.push((own.package.clone(), l));
                l
            }
        };
        Some((lock, own.mode))
    }

    pub(super) fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(self.program.types.get(ty), Type::Struct(_) | Type::Union(_))
    }

    /// The value of an operand, or `None` for a constant (which carries no labels).
    /// Evaluates a branch's condition, whose value is only tested.
    pub(super) fn eval_tested(&mut self, frame: &mut Frame, cond: &Operand) {
        frame.testing = true;
        self.eval(frame, cond);
        frame.testing = false;
    }

    pub(super) fn eval(&mut self, frame: &mut Frame, op: &Operand) -> Option<Node> {
        match op {
            Operand::Const(..) => None,
            Operand::Use(lv) => Some(self.read(frame, lv)),
            Operand::AddrOf(lv) => {
                self.annotation_address(frame, lv);
                let (rho, node, _) = self.place(frame, lv);
                Some(self.ltypes.ptr(rho, node, frame.scope))
            }
            Operand::Func(f) => Some(self.ltypes.fun(vec![*f], frame.scope)),
            Operand::Str(v) => {
                let (rho, node) = self.var(frame, *v);
                Some(self.ltypes.ptr(rho, node, frame.scope))
            }
            Operand::Cast(ty, inner) => {
                let from = self.program.operand_type(inner);
                let value = self.eval(frame, inner);
                // A thread's index handed as a pointer and converted back (`(long)arg`) was an
                // integer all along: no note.
                let integer = inner
                    .plain_var()
                    .is_some_and(|v| self.analysed.integer_params.contains(&v));
                let pos = (!integer).then_some(self.cur_pos);
                self.convert(frame, value, from, *ty, pos)
            }
            Operand::Arith(ty, _, ops) => {
                let values: Vec<Option<Node>> = ops.iter().map(|o| self.eval(frame, o)).collect();
                if !self.is_pointer(*ty) {
                    return None;
                }
                // Pointer arithmetic keeps labels: the result may point wherever a pointer
                // operand points.
                let result = self.ltypes.of_type(&mut self.constraints, *ty, frame.scope);
                for (o, v) in ops.iter().zip(values) {
                    if let Some(v) = v {
                        if self.is_pointer(self.program.operand_type(o)) {
                            self.ltypes.flow(&mut self.constraints, v, result);
                        }
                    }
                }
                Some(result)
            }
            Operand::VaArg(ty, ap) => {
                self.eval(frame, ap);
                let node = self.ltypes.of_type(&mut self.constraints, *ty, frame.scope);
                if frame.inline.is_some() {
                    // A library stub taking a `va_list`: what it reads was read at the call of
                    // the user's variadic function that handed the list on.
                    return Some(node);
                }
                if self.is_variadic(frame.func) {
                    let (_, _, va) = self.signature(frame.func);
                    self.ltypes.unify(&mut self.constraints, va, node);
                    return Some(node);
                }
                // `va_arg` on a `va_list` received as a parameter: where it came from is not
                // tracked.
                self.unsound.push(Unsound {
                    pos: self.cur_pos,
                    kind: UnsoundKind::VaArgParameter,
                });
                Some(node)
            }
        }
    }

    pub(super) fn is_variadic(&self, f: FuncId) -> bool {
        matches!(
            self.program.types.get(self.program.funcs[f].ty),
            Type::Function { variadic: true, .. }
        )
    }

    pub(super) fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(
            self.program.types.get(ty),
            Type::Pointer(_) | Type::Array(_)
        )
    }

    /// A value converted from type `from` to `to` (an explicit or implicit cast).
    pub(super) fn convert(
        &mut self,
        frame: &mut Frame,
        value: Option<Node>,
        from: TypeId,
        to: TypeId,
        pos: Option<Pos>,
    ) -> Option<Node> {
        let value = value?;
        let from_ptr = self.is_pointer(from)
            || matches!(self.ltypes.shape(value), Shape::Ptr { .. } | Shape::Fun(_));
        let to_ptr = self.is_pointer(to);
        match (from_ptr, to_ptr) {
            (true, true) | (false, false) => {
                if from_ptr {
                    if let Some(v) = self.void_cast(value, from, to, frame.scope) {
                        return Some(v);
                    }
                    if let Some(v) = self.container_cast(value, to, frame.scope) {
                        return Some(v);
                    }
                }
                let target = self.ltypes.of_type(&mut self.constraints, to, frame.scope);
                self.ltypes.flow(&mut self.constraints, value, target);
                Some(target)
            }
            (false, true) => {
                // An integer used as a pointer: it points into conflated memory.
                Some(self.integer_pointer())
            }
            (true, false) => {
                // A pointer turned into an integer that is only tested can never be used as
                // a pointer again: nothing is lost.
                if let (Some(pos), false) = (pos, frame.testing) {
                    // Inside an inlined stub, the user's call is the place to show.
                    self.unsound.push(Unsound {
                        pos: frame.report_at(pos).0,
                        kind: UnsoundKind::PointerToInteger,
                    });
                }
                None
            }
        }
    }

    /// A cast of a pointer to a struct member back to the struct (`(struct S *)&s.first`, or
    /// `container_of`'s `(struct S *)((char *)p - offsetof(struct S, m))`): a pointer to the
    /// struct the member belongs to, so the struct's other fields are the object's own. `None`
    /// when the memory is not known to be a member of a struct of the target type.
    fn container_cast(&mut self, value: Node, to: TypeId, scope: Scope) -> Option<Node> {
        let Type::Struct(sid) = self.program.types.get(self.program.types.pointee(to)?) else {
            return None;
        };
        let sid = *sid;
        if !matches!(
            self.ltypes.shape(value),
            Shape::Ptr { .. } | Shape::Blob { .. }
        ) {
            return None;
        }
        let (rho, content) = self.ltypes.deref(&mut self.constraints, value);
        let parent = self
            .ltypes
            .container_of(&mut self.constraints, content, sid)?;
        let target = self.ltypes.new_rho(
            &mut self.constraints,
            scope,
            RhoKind::Plain,
            RhoOrigin::Target,
        );
        self.constraints.flow(rho, target);
        Some(self.ltypes.ptr(target, parent, scope))
    }

    /// A cast between `T*` and `void*` (paper §3.4): the pointer's label flows, and the `T`
    /// memory is the `void*` content's entry for `T`'s class. `None` for any other pointer cast.
    pub(super) fn void_cast(
        &mut self,
        value: Node,
        from: TypeId,
        to: TypeId,
        scope: Scope,
    ) -> Option<Node> {
        let types = &self.program.types;
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
            self.ltypes.shape(value),
            Shape::Ptr { .. } | Shape::Var | Shape::Blob { .. }
        ) {
            return None;
        }
        let (rho, content) = self.ltypes.deref(&mut self.constraints, value);
        let target = self.ltypes.of_type(&mut self.constraints, to, scope);
        let (target_rho, target_content) = self.ltypes.deref(&mut self.constraints, target);
        self.constraints.flow(rho, target_rho);
        let (void_content, typed_content) = if void_to {
            (target_content, content)
        } else {
            (content, target_content)
        };
        if !self.techniques.has(Technique::Void) {
            // The baseline: memory cast to or from `void*` is conflated, unless it is untyped
            // memory getting its first type.
            let fresh = void_from && matches!(self.ltypes.shape(content), Shape::Var);
            if !fresh {
                self.ltypes.conflate(&mut self.constraints, content);
            }
        }
        let entry = self
            .ltypes
            .view(&mut self.constraints, void_content, key, Some(typed));
        self.ltypes
            .unify(&mut self.constraints, entry, typed_content);
        Some(target)
    }

    pub(super) fn integer_pointer(&mut self) -> Node {
        if let Some(n) = self.int_blob {
            return n;
        }
        let v = self.ltypes.var(Scope::ROOT);
        self.ltypes.conflate(&mut self.constraints, v);
        let (rho, content) = self.ltypes.deref(&mut self.constraints, v);
        let n = self.ltypes.ptr(rho, content, Scope::ROOT);
        self.int_blob = Some(n);
        n
    }

    /// Stores a value into an lvalue (an assignment, a call's result).
    pub(super) fn store(
        &mut self,
        frame: &mut Frame,
        dst: &Lval,
        value: Option<Node>,
        from: Option<TypeId>,
    ) {
        self.annotation_store(frame, dst);
        let (rho, node, shareable) = self.place(frame, dst);
        let ty = self.program.lval_type(dst);
        if shareable {
            self.shared_access(frame, dst, rho, node, true);
        }
        if let Some(v) = value {
            let v = match from {
                Some(from_ty) if from_ty != ty => {
                    self.convert(frame, Some(v), from_ty, ty, Some(dst.pos))
                }
                _ => Some(v),
            };
            if let Some(v) = v {
                let target = self.versioned_store(frame, dst, node);
                self.ltypes.flow(&mut self.constraints, v, target);
            }
        }
    }

    /// Whether a pointer operand certainly points into memory no other thread can reach yet.
    pub(super) fn is_unique(&self, frame: &Frame, op: &Operand) -> bool {
        !frame.unique.is_empty()
            && uniqueness::base_holder(self.program, op).is_some_and(|h| frame.unique.contains(&h))
    }

    /// Accesses the whole object the pointer operand `op` (whose value is `arg`) points to, as
    /// a library call does: inside an unpack when `*op` lies in one, like [`Gen::read`].
    pub(super) fn touch_through(
        &mut self,
        frame: &mut Frame,
        op: Option<&Operand>,
        arg: Option<Node>,
        pos: Pos,
        write: bool,
    ) {
        self.opening = op.and_then(|op| self.opened_through(frame, op, pos));
        self.own_copy = op.is_some_and(|op| self.own_copy_through(frame, op));
        self.touch(frame, arg, pos, write);
        self.opening = None;
        self.own_copy = false;
    }

    /// Accesses the whole object a pointer argument points to.
    pub(super) fn touch(&mut self, frame: &mut Frame, arg: Option<Node>, pos: Pos, write: bool) {
        let Some(v) = arg else { return };
        if matches!(self.ltypes.shape(v), Shape::Fun(_)) {
            return;
        }
        let (rho, content) = self.ltypes.deref(&mut self.constraints, v);
        self.whole_access(frame, rho, content, pos, write);
    }

    /// A fresh location for the variable `v` in `scope`, with the content its type has.
    pub(super) fn variable_location(&mut self, v: VarId, scope: Scope) -> (Rho, Node) {
        let rho = self.ltypes.new_rho(
            &mut self.constraints,
            scope,
            RhoKind::Plain,
            RhoOrigin::Object,
        );
        let ty = self.program.vars[v].ty;
        let node = self
            .ltypes
            .content_of_type(&mut self.constraints, ty, scope);
        (rho, node)
    }

    /// A fresh object allocated at a call of library function `by` (or of the stub being
    /// inlined).
    pub(super) fn new_object(&mut self, frame: &mut Frame, pos: Pos, by: FuncId) -> Node {
        let scope = frame.scope;
        let rho = self.ltypes.new_rho(
            &mut self.constraints,
            scope,
            RhoKind::Alloc,
            RhoOrigin::Object,
        );
        let content = self.ltypes.var(scope);
        self.ltypes.mark_object(content);
        let (pos, by) = match frame.report_at(pos) {
            (at, Some(stub)) => (at, stub),
            (pos, None) => (pos, name_of(self.program, by).to_string()),
        };
        self.rho_names.insert(
            rho,
            RhoName::Alloc {
                pos,
                func: frame.func,
                by,
            },
        );
        let o = self.objects.push(Object {
            rho,
            content,
            array: false,
        });
        self.current.push(GenEvent::Event(Event::Alloc(o)));
        self.ltypes.ptr(rho, content, scope)
    }

    pub(super) fn is_array(&self, ty: TypeId) -> bool {
        matches!(self.program.types.get(ty), Type::Array(_))
    }
}
