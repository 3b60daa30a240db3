//! Calls (paper §3.1): a call of a user function is an instantiation site of its signature
//! (figure 6 \[Inst\]: arguments negative, the result positive), a call of a library function
//! is what the model says it does ([`crate::model::Kind`]), a stub is inlined at the call, and a
//! call through a function pointer (or a fork) waits until flow has found its targets.
//!
//! It never reads a library function's name: the model does.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use super::ltypes::{Node, Pol, RhoOrigin, Shape};
use super::{
    name_of, AcquireSite, Callers, Frame, Gen, GenEvent, Inlining, LibraryCall, Object, Pending,
    RhoName, SiteInfo,
};
use crate::analyses::joins::StmtAt;
use crate::analyses::uniqueness;
use crate::diagnostics::{Unsound, UnsoundKind};
use crate::ir::ctypes::{LockKind, Type, TypeId};
use crate::ir::{BlockId, Func, FuncId, Operand, Origin, Pos, Term};
use crate::model::{Arg, Kind, LockMode};
use solver::threads::{AcquireInfo, Event};
use solver::{Lock, Rho, RhoKind, Scope, Site, SiteKind, Technique};

/// How deep stub calls are inlined into each other before the rest is treated as unmodelled.
const INLINE_DEPTH: u32 = 4;

impl Gen<'_> {
    /// Parameters, result and variadic node of a user function (created on first use).
    pub(super) fn signature(&mut self, f: FuncId) -> (Vec<Node>, Option<Node>, Node) {
        if let Some(s) = self.sig.get(&f) {
            return s.clone();
        }
        let scope = self.scope_of.get(&f).copied().unwrap_or(Scope::ROOT);
        let func: &Func = &self.program.funcs[f];
        let mut params = Vec::new();
        for &v in &func.params {
            let node = match self.var_rho[v] {
                Some((_, n)) => n,
                None => {
                    let ty = self.program.vars[v].ty;
                    let kind = if self.program.vars[v].address_taken {
                        RhoKind::Alloc
                    } else {
                        RhoKind::Plain
                    };
                    let rho =
                        self.ltypes
                            .new_rho(&mut self.constraints, scope, kind, RhoOrigin::Object);
                    let n = self
                        .ltypes
                        .content_of_type(&mut self.constraints, ty, scope);
                    self.var_rho[v] = Some((rho, n));
                    self.rho_names.insert(rho, RhoName::Var(v));
                    n
                }
            };
            params.push(node);
        }
        let ret = match self.program.types.get(func.ty) {
            Type::Function { ret, .. } if !matches!(self.program.types.get(*ret), Type::Void) => {
                let ret = *ret;
                Some(self.ltypes.of_type(&mut self.constraints, ret, scope))
            }
            _ => None,
        };
        let va = self.ltypes.var(scope);
        let s = (params, ret, va);
        self.sig.insert(f, s.clone());
        s
    }

    /// A call of a user function at a new site: its signature instantiated against the
    /// arguments and the result.
    pub(super) fn call_site(
        &mut self,
        frame: &Frame,
        callee: FuncId,
        args: &[Option<Node>],
        result: Option<Node>,
        pos: Pos,
        fork: bool,
    ) -> Site {
        let binder = self.scope_of.get(&callee).copied().unwrap_or(Scope::ROOT);
        let site = self
            .constraints
            .new_site(binder, frame.scope, SiteKind::Inst);
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
            self.analysed.recursive_scc.get(&frame.func),
            self.analysed.recursive_scc.get(&callee),
        ) {
            if a == b {
                self.ltypes.set_monomorphic(site);
            }
        }
        let (params, ret, va) = self.signature(callee);
        for (k, arg) in args.iter().enumerate() {
            let Some(a) = *arg else { continue };
            match params.get(k) {
                Some(&p) => self
                    .ltypes
                    .instantiate(&mut self.constraints, p, a, site, Pol::Neg),
                // Variadic arguments reach the callee only through `va_arg`. For a callee that
                // uses it, every argument that carries labels is an instance of the one variadic
                // node (scalars carry none: instantiating them would only make a pointer and an
                // integer meet and conflate). Other callees hand their `va_list` to the library
                // (`vsnprintf`), which reads what the arguments point to: the caller reads them
                // at the call instead (see `StmtKind::Call`).
                None if self.analysed.uses_va_arg.contains(&callee)
                    && !matches!(self.ltypes.shape(a), Shape::Scalar) =>
                {
                    self.ltypes
                        .instantiate(&mut self.constraints, va, a, site, Pol::Neg);
                }
                None => {}
            }
        }
        if let (Some(r), Some(res)) = (ret, result) {
            self.ltypes
                .instantiate(&mut self.constraints, r, res, site, Pol::Pos);
        }
        site
    }

    /// The user statement being generated, when `frame` is the user function itself (not a stub
    /// inlined into it).
    pub(super) fn user_stmt(&self, frame: &Frame) -> Option<StmtAt> {
        if frame.inline.is_some() {
            return None;
        }
        self.cur_stmt.filter(|(f, _, _)| *f == frame.func)
    }

    /// The lock a lock function's pointer argument points to: the lock object itself, or, for
    /// a pointer to a struct, its first lock member ([`TypeTable::first_lock_member`]).
    ///
    /// [`TypeTable::first_lock_member`]: crate::ir::ctypes::TypeTable::first_lock_member
    fn held_lock_arg(
        &mut self,
        frame: &Frame,
        args: &[Option<Node>],
        arg_ops: &[Operand],
        k: Arg,
    ) -> Option<Lock> {
        let v = args.get(usize::from(k)).copied().flatten()?;
        if let Some(l) = arg_ops
            .get(usize::from(k))
            .and_then(|op| self.element_lock_of(frame, op))
        {
            return Some(l);
        }
        let (mut rho, mut content) = self.ltypes.deref(&mut self.constraints, v);
        let ty = arg_ops
            .get(usize::from(k))
            .map(|op| self.program.operand_type(op));
        if let Some(pointee) = ty.and_then(|t| self.program.types.pointee(t)) {
            for (sid, index) in self.program.types.first_lock_member(pointee) {
                (rho, content) = self
                    .ltypes
                    .field(&mut self.constraints, content, rho, sid, index);
            }
        }
        Some(self.ltypes.lock_of(&mut self.constraints, content))
    }

    /// The lock a pointer argument points to.
    pub(super) fn lock_arg(&mut self, args: &[Option<Node>], k: Arg) -> Option<Lock> {
        let v = args.get(usize::from(k)).copied().flatten()?;
        let (_, content) = self.ltypes.deref(&mut self.constraints, v);
        Some(self.ltypes.lock_of(&mut self.constraints, content))
    }

    /// The index of the parameter of the function running in `frame` that `op` reads, when that
    /// parameter is never assigned and its address never taken: its value is the argument of
    /// every call. Not for a stub's frame, whose parameters are the stub's.
    fn unchanged_param(&self, frame: &Frame, op: &Operand) -> Option<u32> {
        let Operand::Use(lv) = op.without_casts() else {
            return None;
        };
        let (crate::ir::Base::Var(v), true) = (&lv.base, lv.proj.is_empty()) else {
            return None;
        };
        crate::analyses::lock_elements::unchanged_param(self.program, frame.func, *v)
    }

    /// Records lock `l`, acquired or released through `op`, in
    /// [`solver::threads::ThreadProgram::relock_fails`] unless `op` is a pointer to a mutex or a
    /// spin lock and no mutex of the program may be error-checking: read-write locks, locks of
    /// unknown type (a `void *`, a flag of a verification task's atomic section) and
    /// `pthread_once` controls keep the plain lock sets.
    fn note_relock(&mut self, l: Lock, op: Option<&Operand>) {
        let types = &self.program.types;
        let counts = !self.program.relock_may_fail
            && op.is_some_and(|op| {
                let pointee = types.pointee(self.program.operand_type(op));
                matches!(
                    pointee.map(|t| types.get(t)),
                    Some(Type::Lock(LockKind::Mutex | LockKind::Spin))
                )
            });
        if !counts {
            self.relock_fails.push(l);
        }
    }

    /// Models a call of a function without a user body by what the library model says it does
    /// ([`crate::model::Kind`]): locks, threads, allocation, the stubs' intrinsics; a function
    /// modelled by a stub is inlined, and any other is unmodelled.
    pub(super) fn library_call(&mut self, frame: &mut Frame, call: LibraryCall<'_>) {
        let LibraryCall {
            f,
            args,
            arg_ops,
            result,
            pos,
        } = call;
        self.annotation_call(frame, f, arg_ops, pos);
        self.signal_mask(frame);
        if self.program.known[f].is_some_and(|s| s.unordered) {
            self.unordered.insert(name_of(self.program, f).to_string());
        }
        let arg = |k: Arg| args.get(usize::from(k)).copied().flatten();
        let op = |k: Arg| arg_ops.get(usize::from(k));
        let unique_arg = |g: &Gen, frame: &Frame, k: Arg| {
            arg_ops
                .get(usize::from(k))
                .is_some_and(|op| g.is_unique(frame, op))
        };
        match self.program.known_kind(f) {
            Some(Kind::Acquire { lock, mode, waits }) => {
                if let Some(l) = self.held_lock_arg(frame, args, arg_ops, lock) {
                    self.note_relock(l, op(lock));
                    self.lock_call(frame, l, mode, waits, pos);
                }
            }
            Some(Kind::LockInit { lock, attr }) => self.lock_init(&call, lock, attr),
            // A condition wait releases its mutex and waits for it again.
            Some(kind @ (Kind::Release { lock } | Kind::Wait { lock })) => {
                if let Some(l) = self.held_lock_arg(frame, args, arg_ops, lock) {
                    self.note_relock(l, op(lock));
                    self.current.push(GenEvent::Event(Event::Release(l)));
                    if matches!(kind, Kind::Wait { .. }) {
                        let retaken = AcquireInfo {
                            waits: true,
                            retakes: true,
                        };
                        self.lock_call_of(frame, l, LockMode::Exclusive, retaken, pos);
                    }
                }
            }
            Some(Kind::Fork { id, func, arg: a }) => self.fork(frame, &call, id, func, a),
            Some(Kind::SignalHandler { handler }) => {
                if let Some(fnode) = arg(handler) {
                    let before = self.pending.len();
                    self.pending_call(frame, fnode, Vec::new(), None, pos, true);
                    self.installs_signal_handler(before, arg_ops);
                }
            }
            Some(Kind::SigAction { act, old }) => {
                let before = self.pending.len();
                self.sig_action(frame, arg(act), arg(old), pos);
                self.installs_signal_handler(before, arg_ops);
            }
            Some(Kind::Join { out, .. }) => {
                self.touch(frame, out.and_then(arg), pos, true);
                if let Some(h) = self
                    .user_stmt(frame)
                    .and_then(|at| self.analysed.joins.join_after.get(&at).copied())
                {
                    self.current.push(GenEvent::Event(Event::Join(h)));
                }
            }
            Some(Kind::CallOnce { control, func }) => {
                self.call_once(frame, args, control, func, pos)
            }
            Some(Kind::BarrierWait { barrier }) => self.barrier_wait(f, op(barrier)),
            Some(Kind::SemWait { sem }) => self.semaphore(frame, &call, sem, true),
            Some(Kind::SemPost { sem }) => self.semaphore(frame, &call, sem, false),
            Some(Kind::WritesArg { arg: a }) => self.touch(frame, arg(a), pos, true),
            Some(Kind::ThreadPrivate) => {
                // Thread-specific data is private to the calling thread.
                if let Some(r) = result {
                    let fresh = self.ltypes.var(frame.scope);
                    self.ltypes.deref(&mut self.constraints, fresh);
                    self.ltypes.flow(&mut self.constraints, fresh, r);
                }
            }
            Some(Kind::Alloc) => {
                let obj = self.new_object(frame, pos, f);
                self.set_result(result, obj);
            }
            Some(Kind::Realloc { old }) => self.realloc(frame, &call, old),
            Some(Kind::AllocInto { out }) => {
                let obj = self.new_object(frame, pos, f);
                if let Some(out) = arg(out) {
                    let (rho, content) = self.ltypes.deref(&mut self.constraints, out);
                    self.access(frame, rho, pos, true);
                    self.ltypes.flow(&mut self.constraints, obj, content);
                }
            }
            Some(Kind::Free { ptr }) => {
                if !unique_arg(self, frame, ptr) {
                    self.touch_through(frame, op(ptr), arg(ptr), pos, true);
                }
            }
            Some(Kind::Access { ptr, write }) => {
                if !unique_arg(self, frame, ptr) {
                    self.touch_through(frame, op(ptr), arg(ptr), pos, write);
                }
            }
            Some(Kind::Copy { dst, src }) => {
                if !unique_arg(self, frame, src) {
                    self.touch_through(frame, op(src), arg(src), pos, false);
                }
                if !unique_arg(self, frame, dst) {
                    self.touch_through(frame, op(dst), arg(dst), pos, true);
                }
                if let (Some(d), Some(s)) = (arg(dst), arg(src)) {
                    let (_, dc) = self.ltypes.deref(&mut self.constraints, d);
                    let (_, sc) = self.ltypes.deref(&mut self.constraints, s);
                    self.ltypes.flow(&mut self.constraints, sc, dc);
                }
            }
            Some(Kind::VarargsAccess { write }) => self.touch_varargs(frame, pos, write),
            Some(Kind::Atomic(atomic)) => {
                // The lowering expands every direct call of an atomic operation into its
                // accesses; one reached otherwise reads and writes its object plainly.
                self.touch(frame, arg(atomic.ptr), pos, false);
                self.touch(frame, arg(atomic.ptr), pos, true);
            }
            Some(Kind::StartsEntries) => self.start_entries(frame, args, pos),
            Some(Kind::LongJmp) => {
                // Lowered as the end of the path; where control resumes is not followed.
                self.unsound.push(Unsound {
                    pos,
                    kind: UnsoundKind::LongJmp(f),
                });
            }
            Some(
                Kind::NoEffect
                | Kind::SemInit { .. }
                | Kind::BarrierInit { .. }
                | Kind::MutexType { .. }
                | Kind::TryAcquire { .. }
                | Kind::ReturnsArg { .. }
                | Kind::Unreachable,
            ) => {}
            Some(Kind::Stub) | None => {
                let func = &self.program.funcs[f];
                if func.defined && func.origin == Origin::Stub && frame.depth < INLINE_DEPTH {
                    self.inline_stub(frame, f, args, arg_ops, result, pos);
                } else {
                    self.unmodelled_call(frame, f, args, arg_ops, result, pos);
                }
            }
        }
    }

    /// The harness of `--entry`/`--library` ([`crate::entries`]): every function argument starts
    /// as threads of code locksmith cannot see, with external arguments.
    fn start_entries(&mut self, frame: &mut Frame, args: &[Option<Node>], pos: Pos) {
        let entries = self.ltypes.fun(Vec::new(), frame.scope);
        for &v in args.iter().flatten() {
            if matches!(self.ltypes.shape(v), Shape::Fun(_)) {
                self.ltypes.flow(&mut self.constraints, v, entries);
            }
        }
        self.pending_call(frame, entries, Vec::new(), None, pos, true);
        if let Some(last) = self.pending.last_mut() {
            last.callers = Callers::Unknown;
        }
    }

    /// `sigaction`: the handler stored in `*act` runs as a thread from here on; the old action is
    /// written to `*old`.
    fn sig_action(&mut self, frame: &mut Frame, act: Option<Node>, old: Option<Node>, pos: Pos) {
        if let Some(act) = act {
            let (_, content) = self.ltypes.deref(&mut self.constraints, act);
            let handler = self.ltypes.var(frame.scope);
            self.ltypes.mark_inspected(&mut self.constraints, content);
            let targets = self.ltypes.funs_inside(content);
            let hnode = self.ltypes.fun(targets, frame.scope);
            self.ltypes.unify(&mut self.constraints, handler, hnode);
            self.pending_call(frame, handler, Vec::new(), None, pos, true);
        }
        self.touch(frame, old, pos, true);
    }

    /// Marks the pending forks made since there were `before` as the installation of a handler
    /// of the signal that the call's first argument names (`signal(SIGUSR1, h)`,
    /// `sigaction(SIGUSR1, &act, 0)`).
    fn installs_signal_handler(&mut self, before: usize, arg_ops: &[Operand]) {
        let number = arg_ops.first().and_then(Operand::constant);
        for pending in &mut self.pending[before..] {
            pending.signal = true;
            pending.signal_number = number;
        }
    }

    /// A call of `sigprocmask` or `pthread_sigmask` ([`crate::analyses::signal_masks`]): the
    /// mask lock of each signal it may unblock is released, and that of each it certainly
    /// blocks is held from here on, as a hold without a lock call (it orders no locks).
    fn signal_mask(&mut self, frame: &Frame) {
        let Some(change) = self
            .user_stmt(frame)
            .and_then(|at| self.analysed.masks.changes.get(&at).copied())
        else {
            return;
        };
        for &(n, l) in &self.mask_locks {
            let signal = 1u64 << (n - 1);
            if change.unblocks & signal != 0 {
                self.current.push(GenEvent::Event(Event::Release(l)));
            }
            if change.blocks & signal != 0 {
                self.current.push(GenEvent::Event(Event::Acquire(
                    l,
                    LockMode::Exclusive,
                    None,
                )));
            }
        }
    }

    /// `pthread_create(args[id], _, args[func], args[arg])`: a pending fork of what `func` may
    /// point to, with the handle joins name its threads by and the bound on how many one run
    /// of the caller starts.
    fn fork(
        &mut self,
        frame: &mut Frame,
        call: &LibraryCall<'_>,
        id: Option<Arg>,
        func: Arg,
        a: Option<Arg>,
    ) {
        let arg = |k: Arg| call.args.get(usize::from(k)).copied().flatten();
        self.touch(frame, id.and_then(arg), call.pos, true);
        let Some(fnode) = arg(func) else { return };
        let at = self.user_stmt(frame);
        let handle = at.and_then(|at| self.analysed.joins.create.get(&at).copied());
        let trips = at.and_then(|at| self.analysed.joins.create_trips.get(&at).copied());
        let through_param = call
            .arg_ops
            .get(usize::from(func))
            .and_then(|o| self.unchanged_param(frame, o));
        let handed = a.map(arg).into_iter().collect();
        self.pending_call(frame, fnode, handed, None, call.pos, true);
        if let Some(last) = self.pending.last_mut() {
            last.handle = handle;
            last.through_param = through_param;
            last.trips = trips;
        }
    }

    /// `pthread_barrier_wait` of the barrier that orders phases ([`crate::analyses::barriers`])
    /// ends a phase; of any other barrier it orders nothing, and reports say so.
    fn barrier_wait(&mut self, f: FuncId, barrier: Option<&Operand>) {
        let named = barrier.and_then(|o| crate::analyses::barriers::named_barrier(self.program, o));
        match (&self.analysed.barrier, named) {
            (Some(b), Some((var, fields))) if b.var == var && b.fields == fields => {
                self.current.push(GenEvent::Event(Event::BarrierWait));
            }
            _ => {
                self.unordered.insert(name_of(self.program, f).to_string());
            }
        }
    }

    /// `sem_wait` (`wait`) or `sem_post` of a semaphore that behaves as a mutex is an acquire or
    /// a release of it; of a hand-shake's semaphore ([`crate::analyses::joins::JoinPlan::handshakes`])
    /// it is the hand-shake's post or wait; of any other semaphore it orders nothing, and
    /// reports say so.
    fn semaphore(&mut self, frame: &Frame, call: &LibraryCall<'_>, sem: Arg, wait: bool) {
        let (f, args, arg_ops) = (call.f, call.args, call.arg_ops);
        if self
            .cur_stmt
            .is_some_and(|at| self.analysed.reader_sections.calls.contains_key(&at))
        {
            // A first reader's wait or a last reader's post: the readers' shared hold says it.
            return;
        }
        if self.cur_stmt.is_some_and(|at| {
            self.analysed
                .joins
                .handshakes
                .iter()
                .any(|h| h.signal == at || h.wait_calls.contains(&at))
        }) {
            // The post or a wait of a semaphore hand-shake: its events say it.
            return;
        }
        let key = arg_ops
            .get(usize::from(sem))
            .and_then(crate::analyses::semaphores::sem_key);
        let lock = match key {
            Some(k) if self.analysed.mutex_sems.contains(&k) => self.lock_arg(args, sem),
            _ => None,
        };
        match lock {
            Some(l) if wait => self.lock_call(frame, l, LockMode::Exclusive, true, call.pos),
            Some(l) => self.current.push(GenEvent::Event(Event::Release(l))),
            None => {
                self.unordered.insert(name_of(self.program, f).to_string());
            }
        }
    }

    /// A reader's count-up (`after`) or count-down (before it) of a readers section
    /// ([`crate::analyses::reader_sections`]): the reader holds the semaphore shared from its
    /// count-up to its count-down. Like `pthread_once`'s shared hold, no lock call: nothing
    /// waits for it, and it orders no locks.
    pub(super) fn reader_section(&mut self, frame: &mut Frame, at: StmtAt, after: bool) {
        let sections = &self.analysed.reader_sections;
        let op = if after {
            sections.acquire_after.get(&at)
        } else {
            sections.release_before.get(&at)
        };
        let Some(op) = op.cloned() else { return };
        let node = self.eval(frame, &op);
        let Some(l) = self.lock_arg(&[node], 0) else {
            return;
        };
        let event = if after {
            Event::Acquire(l, LockMode::Shared, None)
        } else {
            Event::Release(l)
        };
        self.current.push(GenEvent::Event(event));
    }

    /// A turn ([`crate::analyses::joins::Turn`]): a thread that starts one holds the turn
    /// variable's own lock exclusively (`start`), until its store of the variable gives it
    /// back. No lock call: nothing waits for it, and it orders no locks.
    pub(super) fn turn_event(&mut self, frame: &mut Frame, var: &crate::ir::Lval, start: bool) {
        let accesses_off = std::mem::replace(&mut self.no_accesses, true);
        let node = self.eval(frame, &Operand::AddrOf(var.clone()));
        self.no_accesses = accesses_off;
        let Some(l) = self.lock_arg(&[node], 0) else {
            return;
        };
        let event = if start {
            Event::Acquire(l, LockMode::Exclusive, None)
        } else {
            Event::Release(l)
        };
        self.current.push(GenEvent::Event(event));
        if start && !self.turn_locks.iter().any(|(k, _)| *k == l) {
            // A variable in the object a global pointer holds is named after the pointer.
            let mut name = RhoName::Var(match &var.base {
                crate::ir::Base::Var(v) => *v,
                crate::ir::Base::Deref(op) => match op.plain_var() {
                    Some(v) => v,
                    None => return,
                },
            });
            for proj in &var.proj {
                if let crate::ir::Proj::Field { strukt, index } = proj {
                    let field = &self.program.types.structs[*strukt].fields[*index as usize];
                    name = RhoName::Field {
                        parent: Box::new(name),
                        field: field.name.clone(),
                    };
                }
            }
            self.turn_locks.push((l, name));
        }
    }

    /// `pthread_once(c, f)`: `f` runs once, holding the control `c` as a lock, and every call
    /// returns only after it has run. So the calling thread goes on holding `c` shared: `f`'s
    /// accesses (under `c` held exclusively) are ordered before every access that follows a
    /// call on the same control, and accesses that follow such calls in two threads exclude
    /// nothing (shared with shared), as they should. A control that is not linear protects
    /// nothing, as any lock.
    fn call_once(
        &mut self,
        frame: &Frame,
        args: &[Option<Node>],
        control: Arg,
        func: Arg,
        pos: Pos,
    ) {
        let once = self.lock_arg(args, control);
        if let Some(l) = once {
            self.lock_call(frame, l, LockMode::Exclusive, true, pos);
        }
        if let Some(fnode) = args.get(usize::from(func)).copied().flatten() {
            self.pending_call(frame, fnode, Vec::new(), None, pos, false);
        }
        if let Some(l) = once {
            // The shared hold that orders what follows after the function has run is no
            // lock call: nothing waits for it, and it orders no locks.
            self.current.push(GenEvent::Event(Event::Release(l)));
            self.current
                .push(GenEvent::Event(Event::Acquire(l, LockMode::Shared, None)));
        }
    }

    /// `pthread_mutex_init(&m, attr)`: with an attribute object (not a null constant), `m` may
    /// be a recursive mutex ([`solver::threads::ThreadProgram::attributed_locks`]).
    fn lock_init(&mut self, call: &LibraryCall<'_>, lock: Arg, attr: Arg) {
        let attributes = call
            .arg_ops
            .get(usize::from(attr))
            .is_some_and(|a| a.without_casts().constant() != Some(0));
        if let Some(l) = self.lock_arg(call.args, lock).filter(|_| attributes) {
            self.attributed_locks.push(l);
        }
        if let Some(array) = call
            .arg_ops
            .get(usize::from(lock))
            .and_then(|op| self.analysed.elements.array_of(self.program, op))
            .filter(|_| attributes)
        {
            self.attributed_arrays.insert(array);
        }
    }

    /// A lock call that acquires `l` in `mode` at `pos`: its acquire event, with the call
    /// recorded for the deadlock check. `waits`: the call blocks until the lock is free.
    fn lock_call(&mut self, frame: &Frame, l: Lock, mode: LockMode, waits: bool, pos: Pos) {
        self.lock_call_of(
            frame,
            l,
            mode,
            AcquireInfo {
                waits,
                retakes: false,
            },
            pos,
        );
    }

    /// [`Gen::lock_call`] with what the deadlock and lock-leak checks know of the call.
    fn lock_call_of(
        &mut self,
        frame: &Frame,
        l: Lock,
        mode: LockMode,
        info: AcquireInfo,
        pos: Pos,
    ) {
        let (pos, via) = frame.report_at(pos);
        let acq = self.acquisitions.push(info);
        self.acquire_sites.push(AcquireSite {
            pos,
            func: frame.func,
            via,
        });
        self.current
            .push(GenEvent::Event(Event::Acquire(l, mode, Some(acq))));
    }

    /// `realloc`: the old block's contents are copied (a read) and the block is ended (a write,
    /// as by `free`); the new block may be the old one, so the old block's pointers flow in.
    pub(super) fn realloc(&mut self, frame: &mut Frame, call: &LibraryCall<'_>, k: Arg) {
        let old = call.args.get(usize::from(k)).copied().flatten();
        let unique = call
            .arg_ops
            .get(usize::from(k))
            .is_some_and(|op| self.is_unique(frame, op));
        if !unique {
            self.touch(frame, old, call.pos, false);
            self.touch(frame, old, call.pos, true);
        }
        let obj = self.new_object(frame, call.pos, call.f);
        if let Some(old) = old {
            self.ltypes.flow(&mut self.constraints, old, obj);
        }
        self.set_result(call.result, obj);
    }

    /// Accesses through every pointer among the variadic arguments of the user's call of the stub
    /// being inlined (printf's `%s`, scanf's `%d`).
    fn touch_varargs(&mut self, frame: &mut Frame, pos: Pos, write: bool) {
        let (extra, opened, own) = frame
            .inline
            .as_ref()
            .map(|i| (i.extra.clone(), i.opened_extra.clone(), i.own_extra.clone()))
            .unwrap_or_default();
        for (k, v) in extra.into_iter().enumerate() {
            let Some(v) = v else { continue };
            if matches!(self.ltypes.shape(v), Shape::Ptr { .. }) {
                // A variadic argument that points into an unpacked object of the caller is
                // touched inside that unpack, as a parameter's is (`Inlining::opened_args`).
                self.opening = opened.get(k).copied().flatten();
                self.own_copy = own.get(k).copied().unwrap_or(false);
                self.touch(frame, Some(v), pos, write);
                self.opening = None;
                self.own_copy = false;
            }
        }
    }

    /// Stores a call's value into its result node, if the result is used.
    pub(super) fn set_result(&mut self, result: Option<Node>, value: Node) {
        if let Some(r) = result {
            self.ltypes.flow(&mut self.constraints, value, r);
        }
    }

    /// A call of a function with neither a body nor a model: code locksmith cannot see, modelled
    /// as real libraries behave (see [`super::ltypes::LTypes::mark_external`] for *external
    /// memory*, the memory of unknown code, one object per type class, shared by all threads).
    /// It reads and writes its own state (one location for all unknown code) and the objects its
    /// pointer arguments point to (only reads those of `const T *` parameters); an object handed to it through a `void *`, or handed to it
    /// together with a function to call, becomes external memory (it may keep it and hand it
    /// back, or pass it to the function); a pointer it returns
    /// points into external memory; and a function passed to it may
    /// run, as a thread started at this call, with external arguments (callback registration,
    /// `atexit`). Functions it can reach through the structs and arrays it is given are stored
    /// in external memory; [`Gen::external_callbacks`] starts them.
    pub(super) fn unmodelled_call(
        &mut self,
        frame: &mut Frame,
        f: FuncId,
        args: &[Option<Node>],
        arg_ops: &[Operand],
        result: Option<Node>,
        pos: Pos,
    ) {
        let name = name_of(self.program, f).to_string();
        self.unmodelled.insert(name.clone());
        let callbacks = self.ltypes.fun(Vec::new(), frame.scope);
        // Given a function to call, unknown code may hand it anything else it is given.
        let calls_back = args
            .iter()
            .flatten()
            .any(|&v| matches!(self.ltypes.shape(v), Shape::Fun(_)));
        for (k, v) in args.iter().enumerate() {
            let (Some(v), Some(op)) = (*v, arg_ops.get(k)) else {
                continue;
            };
            if matches!(self.ltypes.shape(v), Shape::Fun(_)) {
                self.ltypes.flow(&mut self.constraints, v, callbacks);
                continue;
            }
            let ty = self.program.operand_type(op);
            if !self.is_pointer(ty) {
                continue;
            }
            self.touch_as(frame, Some(v), pos, false, &name);
            // What a `const T *` parameter points to is read only: C lets the function write
            // it only by casting the qualifier away (README, "Code locksmith cannot see").
            if !self.program.funcs[f]
                .const_pointees
                .get(k)
                .copied()
                .unwrap_or(false)
            {
                self.touch_as(frame, Some(v), pos, true, &name);
            }
            // An untyped pointer is what libraries keep (a context, a stored item): its object
            // becomes external memory. A typed pointer is taken as used during the call only —
            // but the functions its object holds (an ops table, an event with its handler) may
            // be called later, from any thread: registering them is why it is handed over. They
            // run as the functions stored in external memory do ([`Gen::external_callbacks`]).
            let declared = match self.program.types.get(self.program.funcs[f].ty) {
                Type::Function { params, .. } => params.get(k).copied(),
                _ => None,
            };
            let untyped = [Some(ty), declared].into_iter().flatten().any(|t| {
                self.program
                    .types
                    .pointee(t)
                    .is_some_and(|t| matches!(self.program.types.get(t), Type::Void))
            });
            if let Some(pointee) = self.program.types.pointee(ty) {
                let (rho, content) = self.ltypes.deref(&mut self.constraints, v);
                let mut held = Vec::new();
                self.held_functions(pointee, rho, content, 0, &mut held);
                let kept = self.kept_callbacks();
                for f in held {
                    self.ltypes.flow(&mut self.constraints, f, kept);
                }
            }
            if untyped || calls_back {
                let kept = self.ltypes.of_type(&mut self.constraints, ty, Scope::ROOT);
                self.ltypes.mark_external(&mut self.constraints, kept);
                self.ltypes.flow(&mut self.constraints, v, kept);
            }
        }
        if let Some(r) = result {
            self.ltypes.mark_external(&mut self.constraints, r);
        }
        let (state, state_content) = self.unknown_state();
        let state_ptr = self.ltypes.ptr(state, state_content, Scope::ROOT);
        self.touch_as(frame, Some(state_ptr), pos, false, &name);
        self.touch_as(frame, Some(state_ptr), pos, true, &name);
        self.pending_call(frame, callbacks, Vec::new(), None, pos, true);
        if let Some(last) = self.pending.last_mut() {
            last.callers = Callers::Unknown;
        }
    }

    /// The functions unknown code keeps to call later: those of the objects handed to it
    /// ([`Gen::held_functions`]); [`Gen::external_callbacks`] starts them with those stored in
    /// external memory.
    fn kept_callbacks(&mut self) -> Node {
        if let Some(n) = self.kept_callbacks {
            return n;
        }
        let n = self.ltypes.fun(Vec::new(), Scope::ROOT);
        self.kept_callbacks = Some(n);
        n
    }

    /// The function pointers an object of type `ty` (location `rho`, content `node`) holds: in
    /// itself, its struct members and elements, and the objects its pointers point to, four
    /// levels deep — what code given a pointer to it may call. Members are made as lazy fields
    /// are. (A union's members are not searched: a function pointer only a union holds is
    /// missed.)
    fn held_functions(
        &mut self,
        ty: TypeId,
        rho: Rho,
        node: Node,
        depth: u32,
        out: &mut Vec<Node>,
    ) {
        const MAX_DEPTH: u32 = 4;
        let types = &self.program.types;
        let reaches = *self
            .holds_callbacks
            .entry(ty)
            .or_insert_with(|| types.reaches_function(ty));
        if !reaches || depth > MAX_DEPTH {
            return;
        }
        match self.program.types.get(ty).clone() {
            Type::Pointer(to) if matches!(self.program.types.get(to), Type::Function { .. }) => {
                out.push(node)
            }
            Type::Pointer(to) => {
                let (r, n) = self.ltypes.deref(&mut self.constraints, node);
                self.held_functions(to, r, n, depth + 1, out);
            }
            Type::Array(element) => self.held_functions(element, rho, node, depth, out),
            Type::Struct(sid) => {
                let fields: Vec<TypeId> = self.program.types.structs[sid]
                    .fields
                    .iter()
                    .map(|f| f.ty)
                    .collect();
                for (k, fty) in fields.into_iter().enumerate() {
                    let (r, n) = self
                        .ltypes
                        .field(&mut self.constraints, node, rho, sid, k as u32);
                    self.held_functions(fty, r, n, depth, out);
                }
            }
            _ => {}
        }
    }

    /// Accesses the whole object a pointer points to on behalf of the library function `name`:
    /// reported at the user's call, inside `name` (or the stub being inlined).
    fn touch_as(&mut self, frame: &Frame, arg: Option<Node>, pos: Pos, write: bool, name: &str) {
        let Some(v) = arg else { return };
        let (rho, content) = self.ltypes.deref(&mut self.constraints, v);
        self.ltypes.mark_inspected(&mut self.constraints, content);
        let (at, via) = frame.report_at(pos);
        self.current.push(GenEvent::Whole {
            rho,
            content,
            pos: at,
            write,
            via: Some(via.unwrap_or_else(|| name.to_string())),
            func: frame.func,
            opened: None,
            own_copy: false,
        });
    }

    /// The state of code locksmith cannot see (a library's own globals): one location, made at
    /// the first call of unknown code.
    fn unknown_state(&mut self) -> (Rho, Node) {
        if let Some(x) = self.unknown_state {
            return x;
        }
        let rho = self.ltypes.new_rho(
            &mut self.constraints,
            Scope::ROOT,
            RhoKind::Alloc,
            RhoOrigin::Object,
        );
        let content = self.ltypes.scalar(Scope::ROOT);
        self.rho_names.insert(rho, RhoName::UnknownState);
        self.objects.push(Object {
            rho,
            content,
            array: true,
        });
        self.unknown_state = Some((rho, content));
        (rho, content)
    }

    /// The functions stored in external memory, and those of objects handed to unknown code
    /// ([`Gen::kept_callbacks`]), may be called by unknown code at any time, in any thread:
    /// they run as threads started when `main` starts, with external arguments. (Started
    /// earlier than at the call that hands them over, which is sound; knowing which call that
    /// is would take a fork site per call of unknown code and stored function.)
    pub(super) fn external_callbacks(&mut self, main: FuncId) {
        let node = self.kept_callbacks();
        let id = self.pending.len();
        self.pending.push(Pending {
            caller: main,
            fork: true,
            handle: None,
            through_param: None,
            trips: None,
            node,
            args: Vec::new(),
            result: None,
            pos: self.program.funcs[main].pos,
            done: BTreeSet::new(),
            callers: Callers::UnknownFromExternalMemory,
            signal: false,
            signal_number: None,
        });
        if let Some(entry) = self.blocks.get_mut(&main).and_then(|b| b.first_mut()) {
            entry.insert(0, GenEvent::Pending(id));
        }
    }

    /// The uniqueness of a stub's own pointers ([`uniqueness::analyse`]), computed once per
    /// stub; none when uniqueness is off. It reads the IR only, but stays here, lazy, instead
    /// of in [`crate::analyses::Analysed::uniqueness`] with the user functions': only the
    /// stubs a call inlines need it, and most of the stubs' functions are never called.
    fn stub_uniqueness(&mut self, f: FuncId) -> std::rc::Rc<uniqueness::Uniqueness> {
        if let Some(u) = self.stub_unique.get(&f) {
            return u.clone();
        }
        let u = if self.techniques.has(Technique::Uniqueness) {
            uniqueness::analyse(self.program, f)
        } else {
            uniqueness::Uniqueness::default()
        };
        let u = std::rc::Rc::new(u);
        self.stub_unique.insert(f, u.clone());
        u
    }

    /// Makes the versions of startup stores that the functions unknown code may run from the
    /// start of `main` may see escape ([`Gen::startup_callbacks`]); whether that changed
    /// anything (then calls through pointers are resolved again).
    fn external_callbacks_touch_startup(&mut self) -> bool {
        if self.analysed.startup.is_empty() {
            return false;
        }
        let callbacks: Vec<FuncId> = self
            .pending
            .iter()
            .filter(|pd| pd.callers == Callers::UnknownFromExternalMemory)
            .flat_map(|pd| pd.done.iter().copied())
            .collect();
        self.startup_callbacks(&callbacks)
    }

    /// Values unknown code could pass to a callback `f`: for each pointer parameter, a pointer
    /// into external memory.
    fn external_arguments(&mut self, f: FuncId) -> Vec<Option<Node>> {
        let params = self.program.funcs[f].params.clone();
        params
            .into_iter()
            .map(|v| {
                let ty = self.program.vars[v].ty;
                if !self.is_pointer(ty) {
                    return None;
                }
                let x = self.ltypes.of_type(&mut self.constraints, ty, Scope::ROOT);
                self.ltypes.mark_external(&mut self.constraints, x);
                Some(x)
            })
            .collect()
    }

    /// Generates a stub's body in the caller: its variables are fresh in the caller's scope, its
    /// parameters receive the arguments, and its accesses are reported at the call.
    pub(super) fn inline_stub(
        &mut self,
        frame: &mut Frame,
        f: FuncId,
        args: &[Option<Node>],
        arg_ops: &[Operand],
        result: Option<Node>,
        pos: Pos,
    ) {
        let func = &self.program.funcs[f];
        // A stub that only reads or writes through its arguments sees a unique argument as
        // unique too.
        let unique: FxHashSet<uniqueness::Holder> = if self.program.keeps_no_argument(f) {
            func.params
                .iter()
                .zip(arg_ops)
                .filter(|(_, op)| self.is_unique(frame, op))
                .map(|(&v, _)| uniqueness::Holder::Var(v))
                .collect()
        } else {
            FxHashSet::default()
        };
        let scope = frame.scope;
        let mut vars = FxHashMap::default();
        for &v in func.params.iter().chain(&func.locals) {
            vars.insert(v, self.variable_location(v, scope));
        }
        for (k, &v) in func.params.iter().enumerate() {
            if let Some(a) = args.get(k).copied().flatten() {
                let (_, node) = vars[&v];
                self.ltypes.flow(&mut self.constraints, a, node);
            }
        }
        let extra: Vec<Option<Node>> = args.iter().skip(func.params.len()).copied().collect();
        let (stub, at) = match &frame.inline {
            Some(i) => (i.stub.clone(), i.at),
            None => (func.name.clone(), pos),
        };
        let params = self.program.funcs[f].params.clone();
        let opened_args = params
            .iter()
            .zip(arg_ops)
            .filter_map(|(&v, op)| Some((v, self.opened_through(frame, op, pos)?)))
            .collect();
        let opened_extra = arg_ops
            .iter()
            .skip(params.len())
            .map(|op| self.opened_through(frame, op, pos))
            .collect();
        let own_args = params
            .iter()
            .zip(arg_ops)
            .filter(|(_, op)| self.own_copy_through(frame, op))
            .map(|(&v, _)| v)
            .collect();
        let own_extra = arg_ops
            .iter()
            .skip(params.len())
            .map(|op| self.own_copy_through(frame, op))
            .collect();
        let mut inner = Frame {
            func: frame.func,
            scope,
            inline_vars: vars,
            inline: Some(Inlining {
                stub,
                at,
                extra,
                opened_args,
                opened_extra,
                own_args,
                own_extra,
            }),
            depth: frame.depth + 1,
            returned: Vec::new(),
            unique,
            own: Vec::new(),
            testing: false,
        };
        // The stub's own fresh, unpublished pointers (the memory `strdup` fills before it
        // returns it), as in user functions (§3.2).
        let fresh = self.stub_uniqueness(f);
        let given = std::mem::take(&mut inner.unique);
        let blocks: Vec<BlockId> = func.blocks.indices().collect();
        for b in blocks {
            let block = &self.program.funcs[f].blocks[b];
            for (k, stmt) in block.stmts.iter().enumerate() {
                inner.unique = given.clone();
                inner.unique.extend(fresh.before(b, k));
                self.stmt(&mut inner, &stmt.kind, stmt.pos);
            }
            inner.unique = given.clone();
            inner.unique.extend(fresh.at_term(b));
            match &block.term {
                Term::Branch { cond, .. } => {
                    self.eval_tested(&mut inner, cond);
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
                self.ltypes.flow(&mut self.constraints, v, r);
            }
        }
    }

    pub(super) fn pending_call(
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
            through_param: None,
            trips: None,
            node,
            args,
            result,
            pos: frame.report_at(pos).0,
            done: BTreeSet::new(),
            callers: Callers::Program,
            signal: false,
            signal_number: None,
        });
        self.current.push(GenEvent::Pending(id));
    }

    /// Resolves calls through function pointers and forks until no new target appears.
    pub(super) fn resolve_pending(&mut self) -> Vec<Vec<(Site, FuncId)>> {
        let mut expansions: Vec<Vec<(Site, FuncId)>> = vec![Vec::new(); self.pending.len()];
        loop {
            let mut progress = false;
            for (id, expansion) in expansions.iter_mut().enumerate() {
                let mut targets = self.ltypes.targets(self.pending[id].node);
                if self.pending[id].callers == Callers::UnknownFromExternalMemory {
                    for (_, _, n) in self.ltypes.external_objects().to_vec() {
                        targets.extend(self.ltypes.funs_inside(n));
                    }
                    targets.sort();
                    targets.dedup();
                }
                for t in targets {
                    if self.pending[id].done.contains(&t) {
                        continue;
                    }
                    self.pending[id].done.insert(t);
                    progress = true;
                    let pd = &self.pending[id];
                    let (caller, pos, fork) = (pd.caller, pd.pos, pd.fork);
                    let (external, result) = (pd.callers != Callers::Program, pd.result);
                    let args = if external && self.is_user_body(t) {
                        self.external_arguments(t)
                    } else {
                        self.pending[id].args.clone()
                    };
                    if !self.is_user_body(t) {
                        // A library function called through a pointer (a comparator such as
                        // `strcmp`): modelled as unmodelled, on the arguments.
                        let quiet = matches!(
                            self.program.known_kind(t),
                            Some(
                                Kind::NoEffect
                                    | Kind::LockInit { .. }
                                    | Kind::TryAcquire { .. }
                                    | Kind::LongJmp
                            )
                        );
                        if !quiet {
                            self.unmodelled.insert(name_of(self.program, t).to_string());
                        }
                        continue;
                    }
                    let scope = self.scope_of.get(&caller).copied().unwrap_or(Scope::ROOT);
                    let frame = Frame::new(caller, scope);
                    let site = self.call_site(&frame, t, &args, result, pos, fork);
                    expansion.push((site, t));
                }
            }
            if !progress
                && !self.external_callbacks_touch_startup()
                && !self.ltypes.settle_preimages(&mut self.constraints)
            {
                return expansions;
            }
        }
    }
}
