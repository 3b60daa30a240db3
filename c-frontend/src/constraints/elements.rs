//! The lock labels of the elements of split arrays of locks ([`crate::analyses::lock_elements`]):
//! one per element named by a constant, made once at the root, and one per wrapper parameter
//! and array, generic in the wrapper, whose image at each call is the element the call names
//! (the lock side of [Inst], figure 6).
//!
//! This module makes labels and lock instantiations only; which arrays are split, and which
//! element a lock call names, the analysis decides.

use solver::threads::ObjectInfo;
use solver::{Lock, Scope, Site};

use super::ltypes::Node;
use super::{ElementName, Frame, Gen, RhoName};
use crate::analyses::lock_elements::{Element, LockArray};
use crate::ir::{FuncId, Operand};

impl Gen<'_> {
    /// The lock a lock call in `frame` takes or releases through `op` when `op` names an
    /// element of a split array: the element's own lock, or the wrapper's generic lock for the
    /// element its parameter names.
    pub(super) fn element_lock_of(&mut self, frame: &Frame, op: &Operand) -> Option<Lock> {
        if frame.inline.is_some() {
            return None;
        }
        let (array, e) = self
            .analysed
            .elements
            .element_of(self.program, frame.func, op)?;
        Some(self.element_lock(frame.func, &array, e))
    }

    /// The lock of element `e` of `array` as function `f` names it.
    fn element_lock(&mut self, f: FuncId, array: &LockArray, e: Element) -> Lock {
        // A constant names one element wherever it is written; a parameter is its function's.
        let key = match e {
            Element::Const(_) => (None, array.clone(), e),
            Element::Param(_) => (Some(f), array.clone(), e),
        };
        if let Some(&l) = self.element_locks.get(&key) {
            return l;
        }
        let scope = match e {
            Element::Const(_) => Scope::ROOT,
            Element::Param(_) => self.scope_of.get(&f).copied().unwrap_or(Scope::ROOT),
        };
        let l = self.constraints.new_lock(scope);
        self.element_locks.insert(key, l);
        l
    }

    /// At a call of `callee` with arguments `args` from `frame`'s function, made at `site`: the
    /// image of each of the callee's element-parameter locks is the element its argument names.
    pub(super) fn element_images(
        &mut self,
        frame: &Frame,
        callee: FuncId,
        args: &[Operand],
        site: Site,
    ) {
        if self.analysed.elements.is_empty() || frame.inline.is_some() {
            return;
        }
        for (k, array, e) in
            self.analysed
                .elements
                .call_elements(self.program, frame.func, callee, args)
        {
            let generic = self.element_lock(callee, &array, Element::Param(k));
            let image = self.element_lock(frame.func, &array, e);
            self.constraints.lock_inst(generic, site, image);
        }
    }

    /// At a call of `callee` from `frame`'s function: an argument that passes an element of a
    /// split array to a lock-pointer parameter is instantiated as a pointer to the element's own
    /// lock (the same location, a lock content of its own), so that the callee's lock behind
    /// the parameter has that lock as its image at the call.
    pub(super) fn element_arguments(
        &mut self,
        frame: &Frame,
        callee: FuncId,
        args: &[Operand],
        values: &mut [Option<Node>],
    ) {
        if self.analysed.elements.is_empty() || frame.inline.is_some() {
            return;
        }
        for (k, array, e) in
            self.analysed
                .elements
                .pointer_elements(self.program, frame.func, callee, args)
        {
            let Some(v) = values.get(k).copied().flatten() else {
                continue;
            };
            let l = self.element_lock(frame.func, &array, e);
            let (rho, _) = self.ltypes.deref(&mut self.constraints, v);
            let lock = self.ltypes.lock(l, frame.scope);
            values[k] = Some(self.ltypes.ptr(rho, lock, frame.scope));
        }
    }

    /// Each constant element's lock is an object of its own (linear: one global lock); an
    /// element of an array initialised with an attribute object may be a recursive mutex.
    pub(super) fn element_objects(&mut self, objects: &mut Vec<ObjectInfo>) {
        let locks: Vec<(bool, bool, Lock)> = self
            .element_locks
            .iter()
            .map(|((func, array, _), &l)| {
                (func.is_none(), self.attributed_arrays.contains(array), l)
            })
            .collect();
        for (constant, attributed, l) in locks {
            if constant {
                objects.push(ObjectInfo {
                    locks: vec![l],
                    array: false,
                    array_locks: Vec::new(),
                });
            }
            if attributed {
                self.attributed_locks.push(l);
            }
        }
    }

    /// The names of the element locks: `locks[2]`, and `locks[k]` inside a wrapper.
    pub(super) fn element_names(&self) -> Vec<(Lock, RhoName)> {
        let structs = &self.program.types.structs;
        self.element_locks
            .iter()
            .map(|((func, array, e), &l)| {
                let fields = array
                    .fields
                    .iter()
                    .map(|&(s, i)| {
                        structs[s]
                            .fields
                            .get(i as usize)
                            .map_or_else(|| format!("#{i}"), |x| x.name.clone())
                    })
                    .collect();
                let index = match (func, e) {
                    (Some(f), Element::Param(k)) => {
                        let param = self.program.funcs[*f].params.get(*k as usize);
                        param.map_or_else(|| "?".into(), |&v| self.program.vars[v].name.clone())
                    }
                    (_, Element::Const(c)) => c.to_string(),
                    (None, Element::Param(k)) => format!("#{k}"),
                };
                (
                    l,
                    RhoName::LockElement(Box::new(ElementName {
                        array: array.var,
                        fields,
                        index,
                    })),
                )
            })
            .collect()
    }
}
