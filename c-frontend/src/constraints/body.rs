//! Function bodies: each statement of a user function in order, with the front-end facts it
//! needs (which pointers are unique, which joins end which threads, read from
//! [`crate::analyses::Analysed`]), building the event blocks the thread analysis runs on.

use super::ltypes::{Node, Shape};
use super::{encode_pos, Frame, Gen, GenEvent, LibraryCall, Object};
use crate::analyses::uniqueness;
use crate::analyses::unpacks::Unpacks;
use crate::diagnostics::{Unsound, UnsoundKind};
use crate::ir::ctypes::Type;
use crate::ir::{BlockId, Callee, FuncId, Operand, Origin, Pos, StmtKind, Term};
use crate::model::Arg;
use solver::threads::Event;

impl Gen<'_> {
    pub(super) fn is_user_body(&self, f: FuncId) -> bool {
        let func = &self.program.funcs[f];
        func.defined && func.origin == Origin::User
    }

    pub(super) fn stmt(&mut self, frame: &mut Frame, kind: &StmtKind, pos: Pos) {
        self.cur_pos = pos;
        self.ltypes.at(encode_pos(pos));
        match kind {
            StmtKind::Assign { dst, src } => {
                let value = self.eval(frame, src);
                let from = self.program.operand_type(src);
                self.store(frame, dst, value, Some(from));
            }
            StmtKind::Eval(op) => {
                self.eval(frame, op);
            }
            StmtKind::Asm { operands } => {
                self.unsound.push(Unsound {
                    pos,
                    kind: UnsoundKind::InlineAsm,
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
                    let ty = self.program.lval_type(d);
                    self.ltypes.of_type(&mut self.constraints, ty, frame.scope)
                });
                match callee {
                    Callee::Direct(f) if self.is_user_body(*f) => {
                        let mut values = values;
                        self.element_arguments(frame, *f, args, &mut values);
                        // A call of an allocation wrapper allocates, as a call of `malloc` does
                        // ([`crate::analyses::alloc_wrappers`]): its result is a fresh object
                        // made here ([Ref] of figure 5: a fresh ρ), not the instance ([Inst],
                        // figure 6) of the object whose shape every call of the wrapper shares.
                        // A reallocation wrapper's call is a call of `realloc` on the
                        // argument it reallocates, which is then not the callee's: instantiated,
                        // it would take the shape every caller gives its object.
                        let wrapper = self.program.alloc_wrapper(*f);
                        let returned = if wrapper.is_some() { None } else { result };
                        let old = wrapper.and_then(|w| w.old).map(|k| k as usize);
                        let mut instantiated = values.clone();
                        if let Some(slot) = old.and_then(|k| instantiated.get_mut(k)) {
                            *slot = None;
                        }
                        let site = self.call_site(frame, *f, &instantiated, returned, pos, false);
                        match (wrapper, old) {
                            (Some(_), Some(k)) => {
                                let call = LibraryCall {
                                    f: *f,
                                    args: &values,
                                    arg_ops: args,
                                    result,
                                    pos,
                                };
                                self.realloc(frame, &call, k as Arg);
                            }
                            (Some(_), None) => {
                                if let Some(r) = result {
                                    let object = self.new_object(frame, pos, *f);
                                    self.ltypes.flow(&mut self.constraints, object, r);
                                }
                            }
                            (None, _) => {}
                        }
                        self.element_images(frame, *f, args, site);
                        let named: Vec<(u32, FuncId)> = args
                            .iter()
                            .enumerate()
                            .filter_map(|(k, a)| match a.without_casts() {
                                Operand::Func(g) => Some((k as u32, *g)),
                                _ => None,
                            })
                            .collect();
                        if !named.is_empty() {
                            self.call_functions.insert(site, named);
                        }
                        if !self.analysed.uses_va_arg.contains(f) {
                            let fixed = self.signature(*f).0.len();
                            for v in values.iter().skip(fixed).flatten() {
                                if matches!(self.ltypes.shape(*v), Shape::Ptr { .. }) {
                                    self.touch(frame, Some(*v), pos, false);
                                }
                            }
                        }
                        let callee = self.fn_of[f];
                        // A create wrapper's call names the threads it starts; a join wrapper's
                        // call ends the threads of its handle once it returns.
                        let at = self.user_stmt(frame);
                        let handle = at.and_then(|at| self.analysed.joins.create.get(&at).copied());
                        self.current.push(GenEvent::Event(Event::Call {
                            site,
                            callee,
                            handle,
                        }));
                        if let Some(h) =
                            at.and_then(|at| self.analysed.joins.join_after.get(&at).copied())
                        {
                            self.current.push(GenEvent::Event(Event::Join(h)));
                        }
                        if let Some(&(param, joined)) =
                            at.and_then(|at| self.analysed.joins.param_joins.get(&at))
                        {
                            self.param_joins.push((site, param, joined));
                        }
                    }
                    Callee::Direct(f) => self.library_call(
                        frame,
                        LibraryCall {
                            f: *f,
                            args: &values,
                            arg_ops: args,
                            result,
                            pos,
                        },
                    ),
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
    pub(super) fn function(&mut self, f: FuncId) {
        let func = &self.program.funcs[f];
        let scope = self.scope_of[&f];
        let mut frame = Frame::new(f, scope);
        let (_, ret, _) = self.signature(f);
        let no_unique = uniqueness::Uniqueness::default();
        let unique = self.analysed.uniqueness.get(&f).unwrap_or(&no_unique);
        let no_unpacks = Unpacks::default();
        let unpacks = self.analysed.unpacks.get(&f).unwrap_or(&no_unpacks);
        let mut out: Vec<Vec<GenEvent>> = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            self.current = Vec::new();
            if b == BlockId(0) {
                // Locals whose address is taken are objects created at each entry.
                for &v in func.locals.iter().chain(&func.params) {
                    if self.program.vars[v].address_taken {
                        let (rho, node) = self.var(&frame, v);
                        let array = self.is_array(self.program.vars[v].ty);
                        let o = self.objects.push(Object {
                            rho,
                            content: node,
                            array,
                        });
                        self.current.push(GenEvent::Event(Event::Alloc(o)));
                    }
                }
            }
            if let Some(handles) = self.analysed.joins.join_at_entry.get(&(f, b)) {
                for &h in handles {
                    self.current.push(GenEvent::Event(Event::Join(h)));
                }
            }
            // Where a guard is seen null: joins of aliases, which the thread analysis makes
            // joins of their handles where its argument holds.
            for g in &self.analysed.guard_joins {
                if g.at.binary_search(&(f, b)).is_ok() {
                    for &(alias, _) in &g.aliases {
                        self.current.push(GenEvent::Event(Event::Join(alias)));
                    }
                }
            }
            // A presumed join: the thread analysis sets it aside but for its second check.
            for join in &self.analysed.joins.presumed {
                if join.test.0 == f && join.drained == b {
                    for &h in &join.handles {
                        self.current.push(GenEvent::Event(Event::Join(h)));
                    }
                }
            }
            // A thread starts a turn on entry to this block.
            for turn in &self.analysed.joins.turns {
                if turn.starts.binary_search(&(f, b)).is_ok() {
                    self.turn_event(&mut frame, &turn.var, true);
                }
            }
            // A hand-shake's waiter saw its flag set on entry to this block.
            for (n, h) in self.analysed.joins.handshakes.iter().enumerate() {
                if h.waits.contains(&(f, b)) {
                    self.current
                        .push(GenEvent::Event(Event::HandshakeWait(n as u32)));
                }
            }
            for (k, stmt) in block.stmts.iter().enumerate() {
                self.cur_stmt = Some((f, b, k));
                self.cur_point = Some((b, k));
                frame.unique = uniqueness::as_set(unique.before(b, k));
                frame.own = unpacks.before(b, k).to_vec();
                self.reader_section(&mut frame, (f, b, k), false);
                let before = self.epoch_marks();
                self.stmt(&mut frame, &stmt.kind, stmt.pos);
                self.epoch_events((f, b, k), before);
                self.member_store_events(&stmt.kind, before);
                self.reader_section(&mut frame, (f, b, k), true);
                // A store of a turn variable ends the thread's turn; a call of a helper that
                // returns in one starts it.
                for turn in &self.analysed.joins.turns {
                    if turn.stores.binary_search(&(f, b, k)).is_ok() {
                        self.turn_event(&mut frame, &turn.var, false);
                    }
                    if turn.start_calls.binary_search(&(f, b, k)).is_ok() {
                        self.turn_event(&mut frame, &turn.var, true);
                    }
                    if turn.param_stores.binary_search(&(f, b, k)).is_ok() {
                        if let StmtKind::Assign { dst, .. } = &stmt.kind {
                            self.turn_event(&mut frame, dst, false);
                        }
                    }
                }
                // A semaphore hand-shake's waiter has seen the post once its wait returned.
                for (n, h) in self.analysed.joins.handshakes.iter().enumerate() {
                    if h.wait_calls.contains(&(f, b, k)) {
                        self.current
                            .push(GenEvent::Event(Event::HandshakeWait(n as u32)));
                    }
                }
                // A hand-shake's signal: what the statement itself accessed came before it.
                if let Some(n) = self
                    .analysed
                    .joins
                    .handshakes
                    .iter()
                    .position(|h| h.signal == (f, b, k))
                {
                    self.current
                        .push(GenEvent::Event(Event::HandshakeSet(n as u32)));
                }
            }
            self.cur_stmt = None;
            self.cur_point = Some((b, block.stmts.len()));
            frame.unique = uniqueness::as_set(unique.at_term(b));
            frame.own = unpacks.at_term(b).to_vec();
            match &block.term {
                Term::Branch { cond, .. } => {
                    let first = self.access_sites.len();
                    self.eval_tested(&mut frame, cond);
                    for (k, join) in self.analysed.joins.presumed.iter().enumerate() {
                        if join.test == (f, b) {
                            let read = (first..self.access_sites.len())
                                .map(|a| solver::threads::AccessId(a as u32));
                            self.presumed_tests[k].extend(read);
                        }
                    }
                }
                Term::Return(Some(op), _) => {
                    let value = self.eval(&mut frame, op);
                    if let (Some(v), Some(r)) = (value, ret) {
                        let from = self.program.operand_type(op);
                        let to = match self.program.types.get(func.ty) {
                            Type::Function { ret, .. } => *ret,
                            _ => from,
                        };
                        if let Some(v) = self.convert(&mut frame, Some(v), from, to, None) {
                            self.ltypes.flow(&mut self.constraints, v, r);
                        }
                    }
                }
                _ => {}
            }
            out.push(std::mem::take(&mut self.current));
        }
        self.cur_point = None;
        self.blocks.insert(f, out);
    }
}
