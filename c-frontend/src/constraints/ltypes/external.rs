//! External memory: the memory of code locksmith cannot see, one object per type class at the
//! root ([`LTypes::mark_external`]). This module owns the external objects, flags nodes as
//! external and links each external node to its class's object once its shape says its class:
//! memory of a class becomes that object, a pointer carries the object's label, and everything
//! reachable from external memory is external again.
//!
//! It never decides which memory is external (the generator marks it), and it never unifies two
//! nodes directly: every link is a unification put on the work list or an emitted flow, so the
//! work list stays the one order in which the table changes.

use super::{ExternalClass, LTypes, Node, Rel, RhoOrigin, Shape, Work};
use crate::constraints::views::ViewKey;
use solver::{Constraints, Rho, RhoKind, Scope};

impl LTypes<'_> {
    /// Makes a node part of *external memory*: the memory of code locksmith cannot see. Per
    /// type class (as in the `void*` model, but only the exact class: a byte view does not merge
    /// the classes here) external memory is one object, at the root, that pointers from unknown
    /// code point to and objects handed to unknown code belong to. A node marked external is
    /// unified with its class's object once its shape says its class; a pointer marked external
    /// carries the label of that object and points to external memory again, so everything
    /// reachable from external memory is external. The objects made so far are in
    /// [`LTypes::external_objects`].
    pub fn mark_external(&mut self, c: &mut Constraints, n: Node) {
        self.flag_external(n);
        self.run(c);
    }

    /// The external object of each type class made so far: its class, location label and
    /// content, in the order they were made.
    pub fn external_objects(&self) -> &[(ExternalClass, Rho, Node)] {
        &self.external
    }

    fn flag_external(&mut self, n: Node) {
        let r = self.root(n);
        if !self.data[r.0 as usize].external {
            self.data[r.0 as usize].external = true;
            self.work.push(Work::External(r));
        }
    }

    /// The external object of class `class`, made on first use.
    fn external_object(&mut self, c: &mut Constraints, class: ExternalClass) -> (Rho, Node) {
        if let Some(&(_, rho, n)) = self.external.iter().find(|e| e.0 == class) {
            return (rho, n);
        }
        let rho = self.new_rho(c, Scope::ROOT, RhoKind::Alloc, RhoOrigin::Object);
        let n = match class {
            ExternalClass::View(key) => self.node_of_key(c, key, Scope::ROOT),
            ExternalClass::Untyped => self.node(Shape::Void(Vec::new()), Scope::ROOT),
        };
        let r = self.root(n);
        self.data[r.0 as usize].external = true;
        self.data[r.0 as usize].object = true;
        self.external.push((class, rho, r));
        self.work.push(Work::External(r));
        for k in 0..self.visible_globals.len() {
            let (global_rho, global) = self.visible_globals[k];
            let g = self.root(global);
            if Self::visible_class(&self.data[g.0 as usize].shape) == Some(class) {
                self.link_visible(c, (global_rho, g), (rho, r));
            }
        }
        (rho, r)
    }

    /// Registers a global other files can see (not `static`): its memory, labelled `rho`, may
    /// be what unknown code hands out or reaches. Unknown code can name it (`extern struct S s;
    /// struct S *get_s(void) { return &s; }`), so a pointer from unknown code to memory of the
    /// global's class may point to it. This goes beyond the paper, which sees the whole
    /// program.
    ///
    /// The link is made only once unknown code has memory of the global's class (its external
    /// object, [`LTypes::external_objects`]): the global's label flows into the object's
    /// (`ρ_global ≤ ρ_object`: an access through the object's label may be to the global, an
    /// access to the global by name is to the global only), and a [`Rel::MayBe`] relation does
    /// the same field by field ([`LTypes::sync_may_be`]). Unifying the global with the object
    /// instead would make every visible global of a class one location with every other one
    /// and with everything handed to unknown code.
    pub fn visible_global(&mut self, c: &mut Constraints, rho: Rho, content: Node) {
        self.visible_globals.push((rho, content));
        let g = self.root(content);
        let class = Self::visible_class(&self.data[g.0 as usize].shape);
        let object = self.external.iter().find(|e| Some(e.0) == class).copied();
        if let Some((_, object_rho, object)) = object {
            self.link_visible(c, (rho, g), (object_rho, object));
        }
        self.run(c);
    }

    /// The visible global `(ρ, memory)` may be the external object `(ρ, memory)`.
    fn link_visible(&mut self, c: &mut Constraints, global: (Rho, Node), object: (Rho, Node)) {
        self.emit_flow(c, global.0, object.0);
        self.add_rel(Rel::MayBe {
            global: global.1,
            object: object.1,
        });
    }

    /// The class of external memory a visible global of this shape may be: a struct or a
    /// union. Not a scalar, a pointer or a function pointer: the external memory of such a class
    /// is every `int`, `char` or pointer cell unknown code hands out (every `char *` it returns,
    /// every `T **` it fills), one object whatever the types behind it, and linking would make
    /// every visible global of that shape one location with all of them (README, "Where
    /// locksmith is knowingly unsound").
    fn visible_class(shape: &Shape) -> Option<ExternalClass> {
        Self::external_class(shape).filter(|k| {
            matches!(
                k,
                ExternalClass::View(ViewKey::Struct(_) | ViewKey::Union(_))
            )
        })
    }

    /// Synchronises `global` may be `object` (see [`LTypes::visible_global`]). Each field the
    /// global has flows into the object's same field (made if missing) and is related again;
    /// a union's members likewise. Below that, what unknown code may store or call in the
    /// global is external: a pointer, a function pointer or a `void*` content of the global is
    /// marked external memory (its target becomes the external object of its class, its
    /// functions may be called by unknown code). Scalars have nothing to link, and a lock
    /// locked by unknown code is not seen either way; a content of unknown shape waits.
    pub(super) fn sync_may_be(&mut self, c: &mut Constraints, global: Node, object: Node) {
        let (g, o) = (self.root(global), self.root(object));
        if g == o {
            return;
        }
        match (
            self.data[g.0 as usize].shape.clone(),
            &self.data[o.0 as usize].shape,
        ) {
            (Shape::Struct { sid, fields }, Shape::Struct { sid: so, .. }) if sid == *so => {
                let scope = self.data[o.0 as usize].scope;
                for f in fields {
                    let at = self.field_slot(c, o, sid, f.index, scope, false);
                    self.emit_flow(c, f.rho, at.rho);
                    self.add_rel(Rel::MayBe {
                        global: f.content,
                        object: at.content,
                    });
                }
            }
            (Shape::Union { sid, inner }, &Shape::Union { sid: so, inner: at }) if sid == so => {
                self.add_rel(Rel::MayBe {
                    global: inner,
                    object: at,
                });
            }
            (Shape::Var | Shape::Scalar | Shape::Lock(_), _) => {}
            _ => self.flag_external(g),
        }
    }

    /// A function pointer member of a struct the program defines, in external memory: unknown
    /// code may call what it holds (its functions flow into external memory's function
    /// pointers), but does not store into it, for it does not know the struct's layout (the
    /// struct is not a library's, [`crate::ir::ctypes::StructDef::system`]). So a call through
    /// it calls what the program stored there, not every function unknown code was ever
    /// given: a table of callbacks filled at start-up and handed to a library with its object
    /// keeps its entries apart. This departs from merging every function pointer of external
    /// memory into one (sound for code that writes the program's structs, which real libraries
    /// do only through types they define); README lists it among the knowingly unsound places.
    fn link_program_callback(&mut self, c: &mut Constraints, cell: Node) {
        let (_, object) = self.external_object(c, ExternalClass::View(ViewKey::Fun));
        self.add_rel(Rel::Flow {
            source: cell,
            target: object,
        });
    }

    /// The class of external memory a content of this shape belongs to, if its shape says.
    fn external_class(shape: &Shape) -> Option<ExternalClass> {
        match shape {
            Shape::Void(_) => Some(ExternalClass::Untyped),
            other => other.view_key().map(ExternalClass::View),
        }
    }

    /// Links an external node to external memory by its shape: memory of a class is that class's
    /// object (a character, which has no inside, and a pointer, whose targets of different types
    /// must not meet, excepted); a pointer carries the label of the object of its target's class
    /// (once the target has a shape) and its target is external; the members of a struct or
    /// union, and the entries of a `void*` content, are external. A node of unknown shape waits
    /// until it has one.
    pub(super) fn do_external(&mut self, c: &mut Constraints, n: Node) {
        let r = self.root(n);
        let shape = self.data[r.0 as usize].shape.clone();
        if !matches!(shape, Shape::Var) {
            // Pointers that waited for this target's shape can be linked now.
            if let Some(waiting) = self.external_waiting.remove(&r) {
                self.work.extend(waiting.into_iter().map(Work::External));
            }
        }
        let own_class = Self::external_class(&shape).filter(|k| {
            !matches!(
                k,
                ExternalClass::View(ViewKey::Char) | ExternalClass::View(ViewKey::Ptr)
            )
        });
        if let Some(class) = own_class {
            let (_, obj) = self.external_object(c, class);
            if self.root(obj) != r {
                self.work.push(Work::Unify(r, obj));
                return;
            }
        }
        match shape {
            Shape::Ptr { rho, to } => {
                self.flag_external(to);
                let t = self.root(to);
                match Self::external_class(&self.data[t.0 as usize].shape) {
                    Some(class) => {
                        let (ext_rho, _) = self.external_object(c, class);
                        self.emit_flow(c, ext_rho, rho);
                        self.emit_flow(c, rho, ext_rho);
                    }
                    None => self.external_waiting.entry(t).or_default().push(r),
                }
            }
            Shape::Struct { sid, fields } => {
                let own_type = !self.types.structs[sid].system;
                for f in fields {
                    let content = self.root(f.content);
                    if own_type && matches!(self.data[content.0 as usize].shape, Shape::Fun(_)) {
                        self.link_program_callback(c, f.content);
                    } else {
                        self.flag_external(f.content);
                    }
                }
            }
            Shape::Union { inner, .. } => self.flag_external(inner),
            Shape::Void(entries) => {
                for (_, e) in entries {
                    self.flag_external(e);
                }
            }
            Shape::Var | Shape::Scalar | Shape::Lock(_) | Shape::Fun(_) | Shape::Blob { .. } => {}
        }
    }
}
