//! Labelled C types (paper §3): the shapes of C values with location labels ρ on pointers,
//! lock labels ℓ on lock objects, and function targets on function pointers.
//!
//! Every C value or memory content has a *node* in a union-find table. A node's [`Shape`] says
//! what it is: a pointer `Ptr { ρ, to }` to locations labelled ρ whose content is node `to`, a
//! struct whose fields are created lazily (paper §3.4: a struct with hundreds of fields costs only
//! the fields used), a lock, a function-pointer target set, a scalar, or not known yet (`Var`, the
//! content of a `void*` nobody has cast).
//!
//! Assignments make the top-level pointer labels *flow* (`ρ ≤ ρ'`, context-sensitive through the
//! solver's CFL analysis) and *unify* the contents below them — LOCKSMITH's invariant reference
//! contents, whose two-way flow puts both sides in one strongly connected component anyway.
//! Calls and forks *instantiate* a function's generic nodes: a relation between a generic node
//! and the caller's node is recorded and kept in sync as either side gains structure, emitting
//! `ρ ⪯ᵢᵖ ρ'` and `ℓ ⪯ᵢ ℓ'` constraints into the solver (figure 7b made lazy).
//!
//! Three choices keep this sound where C is untyped:
//! - the content of a `void*` is a [`Shape::Void`] with one entry per type class it is cast to
//!   or from (paper §3.4); casts at one class meet at that entry, classes C lets overlap
//!   ([`crate::constraints::views::overlap`]) share an entry, and with `--no-void` every class shares one;
//! - a generic node whose shape is still unknown (a `void*` the function never casts) stays
//!   related to each caller's node until it gets a shape;
//! - contents of incompatible shapes (a cast between unrelated structs, a pointer used as an
//!   integer) are *conflated* into a local blob: one location label and one lock label for
//!   everything inside, closed under dereference.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::constraints::views::{self, ViewKey};
use crate::ir::ctypes::{StructId, StructKind, Type, TypeId, TypeTable};
use crate::ir::FuncId;
use solver::ids::IndexVec;
use solver::{Constraints, Lock, Polarity, Rho, RhoKind, Scope, Site};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(u32);

/// A field of a struct node: its location label and its content.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FieldSlot {
    pub index: u32,
    pub rho: Rho,
    pub content: Node,
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Not known yet: the content of a `void*` that has not been cast.
    Var,
    /// Integers and floats: no labels.
    Scalar,
    /// A pointer to locations `rho` whose content is `to`.
    Ptr { rho: Rho, to: Node },
    /// A struct; fields are created on first use, sorted by index.
    Struct {
        sid: StructId,
        fields: Vec<FieldSlot>,
    },
    /// A union: every member is the union's own location; their contents are one node.
    Union { sid: StructId, inner: Node },
    /// A lock object (`pthread_mutex_t` and friends).
    Lock(Lock),
    /// A function pointer value: the functions it may point to (sorted).
    Fun(Vec<FuncId>),
    /// Conflated memory: every location inside is `rho`, every lock is `lock`, every function
    /// pointer may call `funs`; dereferencing or projecting stays in the blob.
    Blob {
        rho: Rho,
        lock: Lock,
        funs: Vec<FuncId>,
    },
    /// The memory a `void*` points to (paper §3.4): the node it is at each type class it has
    /// been cast to or from, sorted by key. Classes that may overlap share one node.
    Void(Vec<(ViewKey, Node)>),
}

impl Shape {
    /// The view a content of this shape is, when it meets a `void*` content without a cast. A
    /// bare scalar could be a character, which views everything.
    fn view_key(&self) -> Option<ViewKey> {
        Some(match self {
            Shape::Scalar => ViewKey::Char,
            Shape::Ptr { .. } => ViewKey::Ptr,
            Shape::Fun(_) => ViewKey::Fun,
            Shape::Lock(_) => ViewKey::Lock,
            Shape::Struct { sid, .. } => ViewKey::Struct(*sid),
            Shape::Union { sid, .. } => ViewKey::Union(*sid),
            Shape::Var | Shape::Blob { .. } | Shape::Void(_) => return None,
        })
    }
}

/// The polarity of a relation between a generic node and an instance.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pol {
    Pos,
    Neg,
    Both,
}

impl Pol {
    fn polarities(self) -> &'static [Polarity] {
        match self {
            Pol::Pos => &[Polarity::Pos],
            Pol::Neg => &[Polarity::Neg],
            Pol::Both => &[Polarity::Pos, Polarity::Neg],
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Rel {
    /// `generic ⪯ᵢᵖ instance`.
    Inst {
        generic: Node,
        instance: Node,
        site: Site,
        pol: Pol,
    },
    /// The values of `source` flow to `target` (`source ≤ target`).
    Flow { source: Node, target: Node },
}

#[derive(Clone, Debug)]
struct NodeData {
    shape: Shape,
    scope: Scope,
    /// How many instantiations created this node (0 for nodes of the program's own types).
    depth: u8,
    /// Relations this node takes part in (kept at the representative).
    rels: Vec<u32>,
    /// Whether this is (or was unified with) the memory a `void*` points to: where two
    /// dissimilar types meet here, they become entries of a [`Shape::Void`] instead of a blob.
    void_content: bool,
    /// Whether this is (or was unified with) the memory of an object — an allocation site or a
    /// variable. A generic object content of unknown shape takes the shape its callers give it,
    /// so that the fields they use exist on the object itself, where races are checked.
    object: bool,
    /// For a pointer held in a field that exists only because a caller uses it (see
    /// [`LTypes::field_slot`]): the pointer's C type, given to the node when the function itself
    /// first uses the value. Until then the node is a `Var`, which instantiation does not copy.
    pending: Option<TypeId>,
    /// Whether this is part of *external memory* (see [`LTypes::mark_external`]): its pointers
    /// point to external memory, its fields and members are external again.
    external: bool,
    /// The structs this memory is a field of: (struct node, its struct, the field's index). C
    /// lets a pointer to a member be turned back into a pointer to the enclosing struct
    /// (`container_of`, a cast to the type of the first member's struct), which must reach that
    /// very struct and its other fields.
    parents: BTreeSet<(Node, StructId, u32)>,
}

/// Where a location label came from, for naming it in reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RhoOrigin {
    /// The location of a variable or of an allocation site (set by the generator).
    Object,
    /// A field of a struct content.
    Field {
        strukt: StructId,
        index: u32,
        parent: Node,
    },
    /// A pointer value's target (not an object itself).
    Target,
    /// A copy made at an instantiation site.
    Instance,
    /// Conflated memory.
    Blob,
}

/// Whether a relation still needs synchronising. Unification makes relations redundant: two
/// relations whose endpoints became the same pair of nodes (with the same site and polarity) say
/// the same thing, and a relation between a node and itself has nothing to copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RelState {
    Live,
    /// A duplicate of another live relation, or a flow from a node to itself: never synchronised
    /// again (its endpoints' roots can only merge further, never split).
    Dead,
    /// An instantiation of a node by itself at a site: nothing to synchronise, but it still takes
    /// part in [`LTypes::one_instance_per_site`] (the node is its own image there, so any other
    /// image at that site is unified with it).
    SelfInst,
}

/// Work items, processed in order so that deep structures never recurse on the Rust stack.
#[derive(Copy, Clone, Debug)]
enum Work {
    Unify(Node, Node),
    Sync(u32),
    /// The node is external memory: its pointers and members are linked to it.
    External(Node),
    /// The node is reachable from this scope: it and everything below it live there too.
    Widen(Node, Scope),
}

/// The table of labelled type nodes for one program, and the label constraints it emits.
pub struct LTypes<'a> {
    pub types: &'a TypeTable,
    /// The union-find parent of each node (itself for a representative).
    parent: Vec<Node>,
    data: Vec<NodeData>,
    rels: Vec<Rel>,
    /// Per relation: whether a [`Work::Sync`] of it is waiting in the work list.
    queued: Vec<bool>,
    /// Per relation: whether it is still synchronised ([`RelState`]).
    rel_state: Vec<RelState>,
    /// Every live relation by its current form ([`LTypes::canonical`]), to find duplicates.
    /// A form whose nodes are all representatives is current; forms of merged nodes stay behind,
    /// unreachable, since a node that stops being a representative never becomes one again.
    rel_index: FxHashMap<Rel, u32>,
    /// The relation that gives each generic node its instance at a site (keyed by
    /// representatives, like `rel_index`), for [`LTypes::one_instance_per_site`].
    instance_at: FxHashMap<(Node, Site), u32>,
    /// The content node of each blob, by the blob's location label ([`LTypes::blob_content`]).
    blob_contents: FxHashMap<Rho, Node>,
    work: Vec<Work>,
    /// Nodes whose function-target sets grew since [`LTypes::take_grown_funs`] was last called.
    grown_funs: Vec<Node>,
    emitted_flows: FxHashSet<(Rho, Rho)>,
    emitted_insts: FxHashSet<(Rho, Site, Polarity, Rho)>,
    emitted_lock_insts: FxHashSet<(Lock, Site, Lock)>,
    /// The origin of every location label created here.
    pub rho_origin: IndexVec<Rho, RhoOrigin>,
    /// Sites whose relations unify instead of instantiating (calls inside a recursive cycle).
    monomorphic: FxHashSet<Site>,
    /// The depth given to nodes created now (while synchronising an instantiation).
    creating_depth: u8,
    /// Why memory was conflated, for the developer's debug output: the generator's position
    /// (set with [`LTypes::at`]) and the shapes that met.
    pub conflations: Vec<(u64, String)>,
    position: u64,
    /// Whether a `void*` content keeps one entry per type class (paper §3.4, on by default);
    /// off (`--no-void`), every class cast to or from one `void*` is conflated.
    pub void_model: bool,
    /// Whether each field of a struct has its own location label (on by default); off
    /// (`--field-insensitive`), the fields of one struct node share the label of the first.
    pub field_sensitive: bool,
    /// Work items processed, by kind (unify, sync, widen), for the developer's statistics.
    work_done: [u64; 3],
    /// The external object of each type class made so far (see [`LTypes::mark_external`]).
    external: Vec<(ExternalClass, Rho, Node)>,
    /// External pointers whose target had no shape yet, by the target's representative: their
    /// label is linked to external memory once the target's class is known.
    external_waiting: FxHashMap<Node, Vec<Node>>,
}

/// A type class of external memory: a class of the `void*` model, or the untyped memory a
/// `void*` of unknown code points to (one object holding every class stored through one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExternalClass {
    View(ViewKey),
    Untyped,
}

/// Instantiations nested deeper than this unify instead of copying. Copies of recursive struct
/// types through cycles of calls would otherwise unfold forever.
const MAX_DEPTH: u8 = 6;

impl<'a> LTypes<'a> {
    pub fn new(types: &'a TypeTable) -> LTypes<'a> {
        LTypes {
            types,
            parent: Vec::new(),
            data: Vec::new(),
            rels: Vec::new(),
            queued: Vec::new(),
            rel_state: Vec::new(),
            rel_index: FxHashMap::default(),
            instance_at: FxHashMap::default(),
            blob_contents: FxHashMap::default(),
            work: Vec::new(),
            grown_funs: Vec::new(),
            emitted_flows: FxHashSet::default(),
            emitted_insts: FxHashSet::default(),
            emitted_lock_insts: FxHashSet::default(),
            rho_origin: IndexVec::new(),
            monomorphic: FxHashSet::default(),
            conflations: Vec::new(),
            position: 0,
            creating_depth: 0,
            void_model: true,
            field_sensitive: true,
            work_done: [0; 3],
            external: Vec::new(),
            external_waiting: FxHashMap::default(),
        }
    }

    /// Records the table's sizes and work in the developer's statistics ([`solver::stats`]).
    pub fn record_stats(&self) {
        use solver::stats::count;
        count("ltypes: nodes", self.data.len());
        count("ltypes: relations", self.rels.len());
        let insts = self
            .rels
            .iter()
            .filter(|r| matches!(r, Rel::Inst { .. }))
            .count();
        count("ltypes: instantiation relations", insts);
        count("ltypes: unify work", self.work_done[0] as usize);
        count("ltypes: sync work", self.work_done[1] as usize);
        count("ltypes: widen work", self.work_done[2] as usize);
    }

    /// Makes the relations of `site` unify: used for calls between functions of one recursive
    /// cycle, where polymorphic recursion over recursive struct types would not terminate.
    /// Records the position being generated (an opaque number for the debug output).
    pub fn at(&mut self, position: u64) {
        self.position = position;
    }

    fn note_conflation(&mut self, why: String) {
        if self.conflations.len() < 10_000 {
            self.conflations.push((self.position, why));
        }
    }

    pub fn set_monomorphic(&mut self, site: Site) {
        self.monomorphic.insert(site);
    }

    /// The representative of `n`, halving the path on the way.
    fn root(&mut self, n: Node) -> Node {
        let mut x = n;
        loop {
            let p = self.parent[x.0 as usize];
            if p == x {
                return x;
            }
            let gp = self.parent[p.0 as usize];
            self.parent[x.0 as usize] = gp;
            x = gp;
        }
    }

    /// The current shape of `n`.
    pub fn shape(&mut self, n: Node) -> Shape {
        let r = self.root(n);
        self.data[r.0 as usize].shape.clone()
    }

    pub fn scope(&mut self, n: Node) -> Scope {
        let r = self.root(n);
        self.data[r.0 as usize].scope
    }

    pub fn same(&mut self, a: Node, b: Node) -> bool {
        self.root(a) == self.root(b)
    }

    /// A fresh location label (recording its origin).
    pub fn new_rho(
        &mut self,
        c: &mut Constraints,
        scope: Scope,
        kind: RhoKind,
        origin: RhoOrigin,
    ) -> Rho {
        let r = c.new_rho(scope, kind);
        self.rho_origin.push(origin);
        debug_assert_eq!(self.rho_origin.len(), c.rhos.len());
        r
    }

    fn node(&mut self, shape: Shape, scope: Scope) -> Node {
        let n = Node(self.data.len() as u32);
        self.parent.push(n);
        let depth = self.creating_depth;
        self.data.push(NodeData {
            shape,
            scope,
            depth,
            rels: Vec::new(),
            void_content: false,
            object: false,
            pending: None,
            external: false,
            parents: BTreeSet::new(),
        });
        debug_assert_eq!(n.0 as usize + 1, self.data.len());
        n
    }

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
        (rho, r)
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
    fn do_external(&mut self, c: &mut Constraints, n: Node) {
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
            Shape::Struct { fields, .. } => {
                for f in fields {
                    self.flag_external(f.content);
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

    /// Marks a content node as the memory of an object (see `NodeData::object`).
    pub fn mark_object(&mut self, n: Node) {
        let r = self.root(n);
        self.data[r.0 as usize].object = true;
    }

    /// A node of unknown shape.
    pub fn var(&mut self, scope: Scope) -> Node {
        self.node(Shape::Var, scope)
    }

    pub fn scalar(&mut self, scope: Scope) -> Node {
        self.node(Shape::Scalar, scope)
    }

    /// A pointer value to the given location and content.
    pub fn ptr(&mut self, rho: Rho, to: Node, scope: Scope) -> Node {
        self.node(Shape::Ptr { rho, to }, scope)
    }

    /// A function pointer value that may call `targets`.
    pub fn fun(&mut self, mut targets: Vec<FuncId>, scope: Scope) -> Node {
        targets.sort();
        targets.dedup();
        self.node(Shape::Fun(targets), scope)
    }

    /// A fresh node for a *value* of C type `ty`. The content of `void*` is unknown (`Var`); a
    /// pointer to a function is a function-target set.
    pub fn of_type(&mut self, c: &mut Constraints, ty: TypeId, scope: Scope) -> Node {
        match self.types.get(ty).clone() {
            Type::Void => {
                let n = self.var(scope);
                self.data[n.0 as usize].void_content = true;
                n
            }
            Type::Char | Type::Int | Type::Float | Type::Cond => self.scalar(scope),
            Type::Pointer(to) if matches!(self.types.get(to), Type::Function { .. }) => {
                self.fun(Vec::new(), scope)
            }
            Type::Pointer(to) | Type::Array(to) => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Target);
                let content = self.of_type(c, to, scope);
                self.ptr(rho, content, scope)
            }
            Type::Struct(sid) => self.node(
                Shape::Struct {
                    sid,
                    fields: Vec::new(),
                },
                scope,
            ),
            Type::Union(sid) => {
                let inner = self.var(scope);
                self.node(Shape::Union { sid, inner }, scope)
            }
            Type::Function { .. } => self.fun(Vec::new(), scope),
            Type::Lock(_) => {
                let l = c.new_lock(scope);
                self.node(Shape::Lock(l), scope)
            }
        }
    }

    /// A fresh node for the *content of a location* of type `ty`: like [`LTypes::of_type`], but an
    /// array's content is its element's (all elements are one location).
    pub fn content_of_type(&mut self, c: &mut Constraints, ty: TypeId, scope: Scope) -> Node {
        match self.types.get(ty) {
            Type::Array(elem) => {
                let elem = *elem;
                self.content_of_type(c, elem, scope)
            }
            _ => self.of_type(c, ty, scope),
        }
    }

    /// The location and content of field `index` of a struct content `n`, creating it lazily.
    /// Projecting a union or a blob stays on the given location.
    pub fn field(
        &mut self,
        c: &mut Constraints,
        n: Node,
        at: Rho,
        sid: StructId,
        index: u32,
    ) -> (Rho, Node) {
        let r = self.root(n);
        match self.data[r.0 as usize].shape.clone() {
            Shape::Struct { sid: s, fields } if s == sid => {
                if let Ok(k) = fields.binary_search_by_key(&index, |f| f.index) {
                    let slot = fields[k];
                    if self.materialise(c, slot.content) {
                        self.run(c);
                    }
                    return (slot.rho, slot.content);
                }
                let scope = self.data[r.0 as usize].scope;
                let slot = self.new_field(c, r, sid, index, scope, false);
                self.run(c);
                (slot.rho, slot.content)
            }
            Shape::Var => {
                self.set_shape(
                    r,
                    Shape::Struct {
                        sid,
                        fields: Vec::new(),
                    },
                );
                self.field(c, r, at, sid, index)
            }
            Shape::Union { sid: s, inner } if s == sid => {
                let ty = self.member_type(sid, index);
                let member = match ty {
                    Some(t) => {
                        let scope = self.data[r.0 as usize].scope;
                        self.content_of_type(c, t, scope)
                    }
                    None => {
                        let scope = self.data[r.0 as usize].scope;
                        self.var(scope)
                    }
                };
                self.unify(c, inner, member);
                (at, inner)
            }
            Shape::Blob { rho, .. } => (rho, r),
            Shape::Void(_) => {
                let key = match self.types.structs[sid].kind {
                    StructKind::Struct => ViewKey::Struct(sid),
                    StructKind::Union => ViewKey::Union(sid),
                };
                let e = self.view(c, r, key, None);
                self.field(c, e, at, sid, index)
            }
            other => {
                // A struct projected as another type: conflate.
                self.note_conflation(format!("{other:?} projected as a field of {sid:?}"));
                self.conflate(c, r);
                self.field(c, r, at, sid, index)
            }
        }
    }

    fn member_type(&self, sid: StructId, index: u32) -> Option<TypeId> {
        self.types.structs[sid]
            .fields
            .get(index as usize)
            .map(|f| f.ty)
    }

    fn new_field(
        &mut self,
        c: &mut Constraints,
        r: Node,
        sid: StructId,
        index: u32,
        scope: Scope,
        lazy: bool,
    ) -> FieldSlot {
        let shared = match &self.data[r.0 as usize].shape {
            Shape::Struct { fields, .. } if !self.field_sensitive => fields.first().map(|f| f.rho),
            _ => None,
        };
        let rho = match shared {
            Some(rho) => rho,
            None => self.new_rho(
                c,
                scope,
                RhoKind::Plain,
                RhoOrigin::Field {
                    strukt: sid,
                    index,
                    parent: r,
                },
            ),
        };
        let content = match self.member_type(sid, index) {
            Some(t) if lazy && self.is_data_pointer(t) => {
                let n = self.var(scope);
                self.data[n.0 as usize].pending = Some(t);
                n
            }
            Some(t) => self.content_of_type(c, t, scope),
            None => self.var(scope),
        };
        let slot = FieldSlot {
            index,
            rho,
            content,
        };
        self.data[content.0 as usize]
            .parents
            .insert((r, sid, index));
        if let Shape::Struct { fields, .. } = &mut self.data[r.0 as usize].shape {
            let at = fields.partition_point(|f| f.index < index);
            fields.insert(at, slot);
        }
        self.resync(r);
        slot
    }

    /// The struct of type `sid` enclosing memory `n`: the one `n` is known to be a field of, or,
    /// for conflated memory (bytes reached through a character pointer, as `container_of` does),
    /// a struct made for it, which the relations at call sites connect with the struct the
    /// caller's memory belongs to. `None` for other memory not known to be a member.
    pub fn container_of(&mut self, c: &mut Constraints, n: Node, sid: StructId) -> Option<Node> {
        if let Some(p) = self.parent_of(n, sid) {
            return Some(p);
        }
        let r = self.root(n);
        // Bytes (a character pointer's arithmetic) may be any member; a struct may be the first
        // member of a struct of the target type (C11 6.7.2.1p15).
        let first_member = match self.data[r.0 as usize].shape {
            Shape::Struct { sid: inner, .. } => self.types.structs[sid]
                .fields
                .first()
                .is_some_and(|f| *self.types.get(f.ty) == Type::Struct(inner)),
            Shape::Blob { .. } => true,
            _ => false,
        };
        if !first_member {
            return None;
        }
        let scope = self.data[r.0 as usize].scope;
        let parent = self.node(
            Shape::Struct {
                sid,
                fields: Vec::new(),
            },
            scope,
        );
        // The member is somewhere inside: which field is not known (the offset is a constant
        // the IR does not keep), so the link names none.
        self.data[r.0 as usize]
            .parents
            .insert((parent, sid, u32::MAX));
        self.resync(r);
        self.run(c);
        Some(parent)
    }

    /// The nodes a relation between `g` and `i` really relates: when one side is a struct and
    /// the other a member of a struct of that type (a step back from a member to its struct on
    /// one side of a call), the struct enclosing the member.
    fn containers(&mut self, g: Node, i: Node) -> (Node, Node) {
        let (g, i) = (self.root(g), self.root(i));
        let sid_of = |t: &Self, n: Node| match t.data[n.0 as usize].shape {
            Shape::Struct { sid, .. } => Some(sid),
            _ => None,
        };
        if let (Some(sg), Some(si)) = (sid_of(self, g), sid_of(self, i)) {
            if sg != si {
                if let Some(p) = self.parent_of(i, sg) {
                    return (g, p);
                }
                if let Some(p) = self.parent_of(g, si) {
                    return (p, i);
                }
            }
        }
        (g, i)
    }

    /// Relates the enclosing structs of two related nodes: the struct the callee made around
    /// memory it stepped back from ([`LTypes::container_of`]) is the caller's struct around the
    /// same memory. (Structs around a field are related already, through the field.)
    fn sync_parents(&mut self, g: Node, i: Node, site: Site) {
        let gp: Vec<(Node, StructId, u32)> = self.data[g.0 as usize]
            .parents
            .iter()
            .copied()
            .filter(|p| p.2 == u32::MAX)
            .collect();
        if gp.is_empty() {
            return;
        }
        let ip = self.data[i.0 as usize].parents.clone();
        for &(pg, sid, _) in &gp {
            for &(pi, _, _) in ip.iter().filter(|p| p.1 == sid) {
                self.add_rel(Rel::Inst {
                    generic: pg,
                    instance: pi,
                    site,
                    pol: Pol::Both,
                });
            }
        }
    }

    /// For memory `r` seen at class `key`: the enclosing struct, when `key` is the struct `r` is
    /// a field of.
    fn member_of(&mut self, r: Node, key: ViewKey) -> Option<Node> {
        match key {
            ViewKey::Struct(sid) => self.parent_of(r, sid),
            _ => None,
        }
    }

    /// The struct of type `sid` that memory `n` is a field of, if any (C11 6.7.2.1p15: a
    /// pointer to a struct's first member, suitably converted, points to the struct, and
    /// `container_of` steps back from any member).
    pub fn parent_of(&mut self, n: Node, sid: StructId) -> Option<Node> {
        let r = self.root(n);
        let parent = self.data[r.0 as usize]
            .parents
            .iter()
            .find(|p| p.1 == sid)
            .map(|p| p.0)?;
        Some(self.root(parent))
    }

    /// Whether the content of a location of C type `ty` is a pointer to data (an array's content
    /// is its element's).
    fn is_data_pointer(&self, ty: TypeId) -> bool {
        match self.types.get(ty) {
            Type::Array(elem) => self.is_data_pointer(*elem),
            Type::Pointer(to) => !matches!(self.types.get(*to), Type::Function { .. }),
            _ => false,
        }
    }

    /// Gives a pending pointer node ([`NodeData::pending`]) the shape of its C type, through the
    /// work list; `false` when `n` is not pending.
    fn materialise(&mut self, c: &mut Constraints, n: Node) -> bool {
        let r = self.root(n);
        let d = &self.data[r.0 as usize];
        let Some(ty) = d.pending.filter(|_| matches!(d.shape, Shape::Var)) else {
            return false;
        };
        let scope = d.scope;
        self.data[r.0 as usize].pending = None;
        let typed = self.content_of_type(c, ty, scope);
        self.work.push(Work::Unify(r, typed));
        true
    }

    /// The pointer view of a value node: its target location and content. An unknown value
    /// becomes a pointer to fresh memory; a scalar or blob used as a pointer is conflated.
    pub fn deref(&mut self, c: &mut Constraints, n: Node) -> (Rho, Node) {
        let r = self.root(n);
        match self.data[r.0 as usize].shape.clone() {
            Shape::Ptr { rho, to } => (rho, to),
            Shape::Var => {
                let scope = self.data[r.0 as usize].scope;
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Target);
                let to = self.var(scope);
                self.set_shape(r, Shape::Ptr { rho, to });
                self.run(c);
                (rho, to)
            }
            Shape::Blob { rho, .. } => (rho, r),
            Shape::Void(_) => {
                let e = self.view(c, r, ViewKey::Ptr, None);
                self.deref(c, e)
            }
            other => {
                self.note_conflation(format!("{other:?} used as a pointer"));
                self.conflate(c, r);
                self.deref(c, r)
            }
        }
    }

    /// The lock label of a lock content (refining an unknown content to a lock).
    pub fn lock_of(&mut self, c: &mut Constraints, n: Node) -> Lock {
        let r = self.root(n);
        match self.data[r.0 as usize].shape.clone() {
            Shape::Lock(l) => l,
            Shape::Blob { lock, .. } => lock,
            Shape::Var => {
                let scope = self.data[r.0 as usize].scope;
                let l = c.new_lock(scope);
                self.set_shape(r, Shape::Lock(l));
                self.run(c);
                l
            }
            Shape::Void(_) => {
                let e = self.view(c, r, ViewKey::Lock, None);
                self.lock_of(c, e)
            }
            other => {
                self.note_conflation(format!("{other:?} used as a lock"));
                self.conflate(c, r);
                self.lock_of(c, r)
            }
        }
    }

    /// The node of the memory `n` at type class `key` (paper §3.4): `n` is the content of a
    /// `void*` and `key` the class of a type it is cast to or from (`ty`, when the C type is
    /// known, gives the entry its exact shape). Casts at one class meet at one entry; an entry is
    /// unified with every entry C lets it overlap, and with every other entry under `--no-void`.
    pub fn view(&mut self, c: &mut Constraints, n: Node, key: ViewKey, ty: Option<TypeId>) -> Node {
        let e = self.view_entry(c, n, key, ty);
        self.run(c);
        self.root(e)
    }

    /// [`LTypes::view`] without running the work list.
    fn view_entry(
        &mut self,
        c: &mut Constraints,
        n: Node,
        key: ViewKey,
        ty: Option<TypeId>,
    ) -> Node {
        let r = self.root(n);
        let scope = self.data[r.0 as usize].scope;
        let fresh = |t: &mut Self, c: &mut Constraints| match ty {
            Some(ty) => t.content_of_type(c, ty, scope),
            None => t.node_of_key(c, key, scope),
        };
        let entries = match self.data[r.0 as usize].shape.clone() {
            Shape::Void(entries) => entries,
            Shape::Blob { .. } => return r,
            // Memory seen at one class only is simply of that class: the entry structure is
            // built when a second class arrives, so single-typed `void*` contents keep the
            // context-sensitive treatment of any typed content.
            Shape::Var => {
                let e = fresh(self, c);
                self.work.push(Work::Unify(r, e));
                return r;
            }
            typed => match typed.view_key() {
                Some(k) if k == key => return r,
                // Memory that is a member of a struct seen as that struct (the first member's
                // struct, or `container_of`): the struct itself, not a merge of the two views.
                Some(_) if self.member_of(r, key).is_some() => {
                    return self.member_of(r, key).expect("checked above");
                }
                Some(k) if !self.void_model || views::overlap(self.types, k, key) => {
                    self.note_conflation(format!("void* viewed as {k:?} and {key:?}"));
                    let e = fresh(self, c);
                    self.work.push(Work::Unify(r, e));
                    return r;
                }
                // A typed content seen at a second, separate class: its shape becomes an entry.
                Some(k) => vec![(k, self.node(typed, scope))],
                None => return r,
            },
        };
        if let Ok(k) = entries.binary_search_by_key(&key, |e| e.0) {
            return entries[k].1;
        }
        let e = fresh(self, c);
        let entries = self.merge_views(entries, vec![(key, e)]);
        self.set_shape(r, Shape::Void(entries));
        e
    }

    /// A fresh content node of type class `key`.
    fn node_of_key(&mut self, c: &mut Constraints, key: ViewKey, scope: Scope) -> Node {
        let shape = match key {
            ViewKey::Char | ViewKey::Int | ViewKey::Float => Shape::Scalar,
            ViewKey::Ptr => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Target);
                let to = self.var(scope);
                Shape::Ptr { rho, to }
            }
            ViewKey::Fun => Shape::Fun(Vec::new()),
            ViewKey::Lock => Shape::Lock(c.new_lock(scope)),
            ViewKey::Struct(sid) => Shape::Struct {
                sid,
                fields: Vec::new(),
            },
            ViewKey::Union(sid) => {
                let inner = self.var(scope);
                Shape::Union { sid, inner }
            }
        };
        self.node(shape, scope)
    }

    /// The entries of two `void*` contents that became one: entries of one class are unified, and
    /// each new class is unified with the classes it overlaps (all of them without the `void*`
    /// model). No entry is the merged node itself: `merge_shapes` conflates such a content
    /// (`views_itself`) before it gets here, and a stored `Void` shape never holds one.
    fn merge_views(
        &mut self,
        mut into: Vec<(ViewKey, Node)>,
        more: Vec<(ViewKey, Node)>,
    ) -> Vec<(ViewKey, Node)> {
        let mut added = Vec::new();
        for (key, n) in more {
            match into.binary_search_by_key(&key, |e| e.0) {
                Ok(k) => self.work.push(Work::Unify(into[k].1, n)),
                Err(k) => {
                    into.insert(k, (key, n));
                    added.push((key, n));
                }
            }
        }
        for (key, n) in added {
            for &(other, m) in &into {
                if other != key && (!self.void_model || views::overlap(self.types, key, other)) {
                    self.note_conflation(format!("void* viewed as {key:?} and {other:?}"));
                    self.work.push(Work::Unify(n, m));
                }
            }
        }
        into
    }

    /// The functions a function-pointer value may call.
    pub fn targets(&mut self, n: Node) -> Vec<FuncId> {
        match self.shape(n) {
            Shape::Fun(t) => t,
            Shape::Blob { funs, .. } => funs,
            _ => Vec::new(),
        }
    }

    /// Nodes whose function-target sets grew since the last call (for resolving indirect calls).
    pub fn take_grown_funs(&mut self) -> Vec<Node> {
        std::mem::take(&mut self.grown_funs)
    }

    fn set_shape(&mut self, r: Node, shape: Shape) {
        self.data[r.0 as usize].shape = shape;
        self.resync(r);
    }

    fn resync(&mut self, r: Node) {
        if self.data[r.0 as usize].external {
            self.work.push(Work::External(r));
        }
        for k in 0..self.data[r.0 as usize].rels.len() {
            let id = self.data[r.0 as usize].rels[k];
            self.push_sync(id);
        }
    }

    /// Schedules a synchronisation of relation `id`, unless one is already waiting: a sync reads
    /// the current shapes of both endpoints when it runs, so one pending sync covers every change
    /// made before it runs.
    fn push_sync(&mut self, id: u32) {
        let k = id as usize;
        if self.rel_state[k] == RelState::Live && !self.queued[k] {
            self.queued[k] = true;
            self.work.push(Work::Sync(id));
        }
    }

    /// The relations of the absorbed side of a unification, rewritten to their endpoints'
    /// representatives ([`LTypes::canonical`]), without redundant ones: a relation equal to
    /// another live one, or a flow from a node to itself, is dropped ([`RelState`]). Relations of
    /// the side that stays the representative keep their form, so only this side is visited.
    fn rekey(&mut self, rels: Vec<u32>) -> Vec<u32> {
        let mut out = Vec::with_capacity(rels.len());
        for id in rels {
            let k = id as usize;
            if self.rel_state[k] == RelState::Dead {
                continue;
            }
            let rel = self.canonical(self.rels[k]);
            match self.rel_index.get(&rel) {
                Some(&other) if other != id && self.rel_state[other as usize] != RelState::Dead => {
                    self.rel_state[k] = RelState::Dead;
                    continue;
                }
                _ => {}
            }
            match rel {
                Rel::Flow { source, target } if source == target => {
                    self.rel_state[k] = RelState::Dead;
                    continue;
                }
                Rel::Inst {
                    generic, instance, ..
                } if generic == instance => self.rel_state[k] = RelState::SelfInst,
                _ => {}
            }
            self.rels[k] = rel;
            self.rel_index.insert(rel, id);
            self.one_instance_per_site(id);
            out.push(id);
        }
        out
    }

    /// `a = b` on contents.
    pub fn unify(&mut self, c: &mut Constraints, a: Node, b: Node) {
        self.work.push(Work::Unify(a, b));
        self.run(c);
    }

    /// The values of `source` flow to `target` (an assignment, an argument, a cast).
    pub fn flow(&mut self, c: &mut Constraints, source: Node, target: Node) {
        self.add_rel(Rel::Flow { source, target });
        self.run(c);
    }

    /// `generic ⪯ᵢᵖ instance`: `instance` is the caller's view of `generic` at `site`.
    pub fn instantiate(
        &mut self,
        c: &mut Constraints,
        generic: Node,
        instance: Node,
        site: Site,
        pol: Pol,
    ) {
        self.add_rel(Rel::Inst {
            generic,
            instance,
            site,
            pol,
        });
        self.run(c);
    }

    fn add_rel(&mut self, rel: Rel) {
        let rel = self.canonical(rel);
        if let Rel::Flow { source, target } = rel {
            if source == target {
                // A node's values flow to itself: nothing to synchronise.
                return;
            }
        }
        if let Some(&other) = self.rel_index.get(&rel) {
            if self.rel_state[other as usize] != RelState::Dead {
                return;
            }
        }
        let id = self.rels.len() as u32;
        self.rels.push(rel);
        self.queued.push(false);
        self.rel_state.push(RelState::Live);
        self.rel_index.insert(rel, id);
        self.one_instance_per_site(id);
        let (a, b) = match rel {
            Rel::Inst {
                generic, instance, ..
            } => (generic, instance),
            Rel::Flow { source, target } => (source, target),
        };
        self.data[a.0 as usize].rels.push(id);
        if b != a {
            self.data[b.0 as usize].rels.push(id);
        }
        self.push_sync(id);
    }

    fn canonical(&mut self, rel: Rel) -> Rel {
        match rel {
            Rel::Inst {
                generic,
                instance,
                site,
                pol,
            } => Rel::Inst {
                generic: self.root(generic),
                instance: self.root(instance),
                site,
                pol,
            },
            Rel::Flow { source, target } => Rel::Flow {
                source: self.root(source),
                target: self.root(target),
            },
        }
    }

    /// Turns `n` into a blob, absorbing its current structure.
    pub fn conflate(&mut self, c: &mut Constraints, n: Node) {
        let r = self.root(n);
        if matches!(self.data[r.0 as usize].shape, Shape::Blob { .. }) {
            return;
        }
        let scope = self.data[r.0 as usize].scope;
        let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
        let lock = c.new_lock(scope);
        let blob = self.node(
            Shape::Blob {
                rho,
                lock,
                funs: Vec::new(),
            },
            scope,
        );
        self.work.push(Work::Unify(r, blob));
        self.run(c);
    }

    fn emit_flow(&mut self, c: &mut Constraints, a: Rho, b: Rho) {
        if a != b && self.emitted_flows.insert((a, b)) {
            c.flow(a, b);
        }
    }

    fn emit_rho_inst(&mut self, c: &mut Constraints, g: Rho, site: Site, pol: Pol, i: Rho) {
        for &p in pol.polarities() {
            if self.emitted_insts.insert((g, site, p, i)) {
                c.rho_inst(g, site, p, i);
            }
        }
    }

    fn emit_lock_inst(&mut self, c: &mut Constraints, g: Lock, site: Site, i: Lock) {
        if self.emitted_lock_insts.insert((g, site, i)) {
            c.lock_inst(g, site, i);
        }
    }

    fn add_funs(&mut self, r: Node, more: &[FuncId]) {
        let data = &mut self.data[r.0 as usize];
        let list = match &mut data.shape {
            Shape::Fun(t) => t,
            Shape::Blob { funs, .. } => funs,
            _ => return,
        };
        let before = list.len();
        list.extend_from_slice(more);
        list.sort();
        list.dedup();
        if list.len() != before {
            self.grown_funs.push(r);
            self.resync(r);
        }
    }

    fn run(&mut self, c: &mut Constraints) {
        while let Some(w) = self.work.pop() {
            match w {
                Work::Unify(a, b) => {
                    self.work_done[0] += 1;
                    self.do_unify(c, a, b)
                }
                Work::Sync(id) => {
                    self.work_done[1] += 1;
                    self.queued[id as usize] = false;
                    self.do_sync(c, id)
                }
                Work::Widen(n, scope) => {
                    self.work_done[2] += 1;
                    self.do_widen(c, n, scope)
                }
                Work::External(n) => self.do_external(c, n),
            }
        }
    }

    /// Unifies two nodes (their contents are one, figure 7a's invariant reference contents).
    ///
    /// Only the relations of a side whose view changed are synchronised again: a side whose
    /// shape, scope, depth and `void*` flag are exactly the merged node's has had every one of
    /// its relations synchronised against this very view already. When a node with many
    /// relations (a global's content, related to the view of every caller) absorbs a small one
    /// that brings nothing new, this visits the small side's relations only, instead of all of
    /// them at every unification (mt-daapd: 1 165 syncs per unification before).
    fn do_unify(&mut self, c: &mut Constraints, a: Node, b: Node) {
        // A struct meeting a member of a struct of its type is that enclosing struct.
        let (ra, rb) = self.containers(a, b);
        if ra == rb {
            return;
        }
        let da = std::mem::replace(&mut self.data[ra.0 as usize].shape, Shape::Var);
        let db = std::mem::replace(&mut self.data[rb.0 as usize].shape, Shape::Var);
        let views = [
            (da.clone(), self.view_of(ra)),
            (db.clone(), self.view_of(rb)),
        ];
        let scope = self.common_scope(ra, rb, c);
        let rels_a = std::mem::take(&mut self.data[ra.0 as usize].rels);
        let rels_b = std::mem::take(&mut self.data[rb.0 as usize].rels);
        let depth = self.data[ra.0 as usize]
            .depth
            .min(self.data[rb.0 as usize].depth);
        // The side with more relations stays the representative: the other side's relations
        // are the ones rewritten, so each relation is rewritten O(log n) times in all.
        let a_stays = rels_a.len() >= rels_b.len();
        let r = if a_stays { ra } else { rb };
        let absorbed = if a_stays { rb } else { ra };
        self.parent[absorbed.0 as usize] = r;
        if let Some(waiting) = self.external_waiting.remove(&absorbed) {
            self.external_waiting.entry(r).or_default().extend(waiting);
        }
        let (kept, moved) = if a_stays {
            (&rels_a, &rels_b)
        } else {
            (&rels_b, &rels_a)
        };
        let mut rels = kept.clone();
        let moved = moved.clone();
        rels.extend(self.rekey(moved));
        let void_content =
            self.data[ra.0 as usize].void_content || self.data[rb.0 as usize].void_content;
        let object = self.data[ra.0 as usize].object || self.data[rb.0 as usize].object;
        let pending = self.data[ra.0 as usize]
            .pending
            .or(self.data[rb.0 as usize].pending);
        let external = self.data[ra.0 as usize].external || self.data[rb.0 as usize].external;
        // The smaller set goes into the larger: a large blob's set is never rebuilt.
        let mut parents = std::mem::take(&mut self.data[ra.0 as usize].parents);
        let mut other = std::mem::take(&mut self.data[rb.0 as usize].parents);
        if other.len() > parents.len() {
            std::mem::swap(&mut parents, &mut other);
        }
        parents.extend(other);
        let shape = self.merge_shapes(c, da, db, scope, r, void_content);
        if matches!(shape, Shape::Fun(_) | Shape::Blob { .. }) {
            self.grown_funs.push(r);
        }
        let merged = (scope, depth, void_content, object);
        let changed = [
            !same_view(&views[0].0, &shape) || views[0].1 != merged,
            !same_view(&views[1].0, &shape) || views[1].1 != merged,
        ];
        let pending = if matches!(shape, Shape::Var) {
            pending
        } else {
            None
        };
        self.data[r.0 as usize] = NodeData {
            shape,
            scope,
            depth,
            rels,
            void_content,
            object,
            pending,
            external,
            parents,
        };
        self.widen_inside(c, r, scope);
        if external {
            self.work.push(Work::External(r));
        }
        for (side, list) in [&rels_a, &rels_b].into_iter().enumerate() {
            if changed[side] {
                for &id in list {
                    self.push_sync(id);
                }
            }
        }
    }

    /// What, besides its shape, a node's relations are synchronised against.
    fn view_of(&self, r: Node) -> (Scope, u8, bool, bool) {
        let d = &self.data[r.0 as usize];
        (d.scope, d.depth, d.void_content, d.object)
    }

    /// Widens a node's scope to (the common ancestor with) `scope`. A node of a function's scope
    /// unified with one of an outer scope — a local buffer stored through a global pointer — is
    /// reachable from there: its labels are no longer the function's own, so they are neither
    /// copied at the function's call sites nor private to one of its runs.
    fn do_widen(&mut self, c: &mut Constraints, n: Node, scope: Scope) {
        let r = self.root(n);
        let old = self.data[r.0 as usize].scope;
        let new = if old == scope {
            old
        } else {
            c.scopes.common_ancestor(old, scope)
        };
        if new == old {
            return;
        }
        self.data[r.0 as usize].scope = new;
        self.widen_inside(c, r, new);
        // The node is no longer generic where it was: its instantiations become unifications.
        self.resync(r);
    }

    /// Widens the labels of a node's shape and schedules its children, keeping the invariant that
    /// nothing below a node lives in a narrower scope than the node.
    fn widen_inside(&mut self, c: &mut Constraints, r: Node, scope: Scope) {
        fn widen_rho(c: &mut Constraints, rho: Rho, scope: Scope) {
            let s = c.rhos[rho].scope;
            if s != scope {
                c.rhos[rho].scope = c.scopes.common_ancestor(s, scope);
            }
        }
        fn widen_lock(c: &mut Constraints, l: Lock, scope: Scope) {
            let s = c.locks[l].scope;
            if s != scope {
                c.locks[l].scope = c.scopes.common_ancestor(s, scope);
            }
        }
        match self.data[r.0 as usize].shape.clone() {
            Shape::Var | Shape::Scalar | Shape::Fun(_) => {}
            Shape::Ptr { rho, to } => {
                widen_rho(c, rho, scope);
                self.work.push(Work::Widen(to, scope));
            }
            Shape::Struct { fields, .. } => {
                for f in fields {
                    widen_rho(c, f.rho, scope);
                    self.work.push(Work::Widen(f.content, scope));
                }
            }
            Shape::Union { inner, .. } => self.work.push(Work::Widen(inner, scope)),
            Shape::Void(entries) => {
                for (_, n) in entries {
                    self.work.push(Work::Widen(n, scope));
                }
            }
            Shape::Lock(l) => widen_lock(c, l, scope),
            Shape::Blob { rho, lock, .. } => {
                widen_rho(c, rho, scope);
                widen_lock(c, lock, scope);
            }
        }
    }

    /// Semi-unification for nodes: the substitution at a site is a function, so a generic node
    /// has one instance per site; two instances at one site are unified. Without this a recursive
    /// struct would unfold forever at a call site. Called for relation `id` in its current form
    /// whenever it is added or rewritten: the first relation seen for a generic node and site
    /// stands for that pair, and the instance of every other one is unified with its instance.
    fn one_instance_per_site(&mut self, id: u32) {
        let Rel::Inst {
            generic,
            instance,
            site,
            ..
        } = self.rels[id as usize]
        else {
            return;
        };
        match self.instance_at.get(&(generic, site)) {
            Some(&other) if other != id => {
                let Rel::Inst {
                    generic: g2,
                    instance: i2,
                    ..
                } = self.rels[other as usize]
                else {
                    unreachable!("instance_at holds instantiations only");
                };
                if self.root(g2) == generic {
                    let i2 = self.root(i2);
                    if i2 != instance {
                        self.work.push(Work::Unify(i2, instance));
                    }
                    return;
                }
                self.instance_at.insert((generic, site), id);
            }
            Some(_) => {}
            None => {
                self.instance_at.insert((generic, site), id);
            }
        }
    }

    fn common_scope(&mut self, a: Node, b: Node, c: &Constraints) -> Scope {
        let (sa, sb) = (self.data[a.0 as usize].scope, self.data[b.0 as usize].scope);
        if sa == sb {
            sa
        } else {
            c.scopes.common_ancestor(sa, sb)
        }
    }

    /// The shape of two unified nodes; sub-structure is unified through the work list.
    ///
    /// Two labels in the same place of both shapes (two pointers' targets, one field, two
    /// blobs, two locks) become one location: they flow both ways (figure 7a, \[Sub-Ref\] in
    /// both directions; `ℓ = ℓ'` for locks, \[Sub-Lock\]), one strongly connected component
    /// for every rule of figure 8. The merged shape keeps the *older* label (the smaller id),
    /// which is widened to the merged scope like any label of the shape. Which label of the
    /// component later constraints name does not matter to the solver, but keeping the older
    /// one makes a node's labels stable: a node that keeps absorbing new nodes (a global
    /// unified with the view of every caller, memory conflated again and again) would otherwise
    /// take the newcomer's labels each time, and every relation of the node would emit its
    /// instantiations again under yet another name (automount: 55 million `ρ ⪯ᵢ ρ'` for 459
    /// sites and 78 000 labels, 294 000 with the older label kept).
    fn merge_shapes(
        &mut self,
        c: &mut Constraints,
        a: Shape,
        b: Shape,
        scope: Scope,
        r: Node,
        void_content: bool,
    ) -> Shape {
        match (a, b) {
            (Shape::Var, s) | (s, Shape::Var) => s,
            (Shape::Void(a), Shape::Void(b)) => {
                if self.views_itself(&a, r) || self.views_itself(&b, r) {
                    return self.conflate_shapes(c, Shape::Void(a), Shape::Void(b));
                }
                Shape::Void(self.merge_views(a, b))
            }
            (Shape::Void(entries), typed) | (typed, Shape::Void(entries))
                if typed.view_key().is_some() =>
            {
                if self.views_itself(&entries, r) {
                    return self.conflate_shapes(c, Shape::Void(entries), typed);
                }
                // A `void*` content met a typed one without a cast (an argument at a site that
                // does not instantiate, a monomorphic flow): the typed shape becomes an entry.
                let key = typed.view_key().expect("checked by the guard");
                let moved = self.node(typed, scope);
                Shape::Void(self.merge_views(entries, vec![(key, moved)]))
            }
            (Shape::Scalar, Shape::Scalar) => Shape::Scalar,
            (Shape::Ptr { rho: r1, to: t1 }, Shape::Ptr { rho: r2, to: t2 }) => {
                self.emit_flow(c, r1, r2);
                self.emit_flow(c, r2, r1);
                self.work.push(Work::Unify(t1, t2));
                Shape::Ptr {
                    rho: r1.min(r2),
                    to: t1,
                }
            }
            (
                Shape::Struct {
                    sid: s1,
                    fields: f1,
                },
                Shape::Struct {
                    sid: s2,
                    fields: f2,
                },
            ) if s1 == s2 => {
                if let (false, Some(a), Some(b)) = (self.field_sensitive, f1.first(), f2.first()) {
                    // Field-insensitive: the one location of each side is the same location.
                    self.emit_flow(c, a.rho, b.rho);
                    self.emit_flow(c, b.rho, a.rho);
                }
                let mut fields = f1.clone();
                for g in f2 {
                    match fields.binary_search_by_key(&g.index, |f| f.index) {
                        Ok(k) => {
                            let f = fields[k];
                            self.emit_flow(c, f.rho, g.rho);
                            self.emit_flow(c, g.rho, f.rho);
                            self.work.push(Work::Unify(f.content, g.content));
                            fields[k].rho = f.rho.min(g.rho);
                        }
                        Err(k) => fields.insert(k, g),
                    }
                }
                Shape::Struct { sid: s1, fields }
            }
            (Shape::Union { sid: s1, inner: i1 }, Shape::Union { sid: s2, inner: i2 })
                if s1 == s2 =>
            {
                self.work.push(Work::Unify(i1, i2));
                Shape::Union { sid: s1, inner: i1 }
            }
            (Shape::Lock(l1), Shape::Lock(l2)) => {
                c.lock_eq(l1, l2);
                Shape::Lock(l1.min(l2))
            }
            (Shape::Fun(mut t1), Shape::Fun(t2)) => {
                t1.extend(t2);
                t1.sort();
                t1.dedup();
                Shape::Fun(t1)
            }
            (
                Shape::Blob { rho, lock, funs },
                Shape::Blob {
                    rho: rho2,
                    lock: lock2,
                    funs: funs2,
                },
            ) => {
                let funs = self.absorb(
                    c,
                    rho,
                    lock,
                    funs,
                    Shape::Blob {
                        rho: rho2,
                        lock: lock2,
                        funs: funs2,
                    },
                );
                Shape::Blob {
                    rho: rho.min(rho2),
                    lock: lock.min(lock2),
                    funs,
                }
            }
            (Shape::Blob { rho, lock, funs }, other) | (other, Shape::Blob { rho, lock, funs }) => {
                let funs = self.absorb(c, rho, lock, funs, other);
                Shape::Blob { rho, lock, funs }
            }
            (a, b) => match (a.view_key(), b.view_key()) {
                (Some(ka), Some(kb))
                    if void_content && self.void_model && !views::overlap(self.types, ka, kb) =>
                {
                    // Two types met in the memory of a `void*` (paper §3.4): each keeps its own
                    // entry.
                    let (na, nb) = (self.node(a, scope), self.node(b, scope));
                    Shape::Void(self.merge_views(vec![(ka, na)], vec![(kb, nb)]))
                }
                _ => self.conflate_shapes(c, a, b),
            },
        }
    }

    /// Incompatible shapes (a cast between unrelated types, a `void*` content unified with one
    /// of its own views): both are conflated into a blob. Its labels are outer (root) labels: a
    /// conflated location is never a copy.
    fn conflate_shapes(&mut self, c: &mut Constraints, a: Shape, b: Shape) -> Shape {
        self.note_conflation(format!("{a:?} meets {b:?}"));
        let scope = Scope::ROOT;
        let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
        let lock = c.new_lock(scope);
        let funs = self.absorb(c, rho, lock, Vec::new(), a);
        let funs = self.absorb(c, rho, lock, funs, b);
        Shape::Blob { rho, lock, funs }
    }

    /// Whether a `void*` content that became node `r` has `r` itself among its views: memory
    /// that is both untyped and one of its own typed views has no consistent entry structure.
    fn views_itself(&mut self, entries: &[(ViewKey, Node)], r: Node) -> bool {
        entries.iter().any(|&(_, n)| self.root(n) == r)
    }

    /// The node of the memory inside the blob labelled `rho` (with lock `lock`): what its
    /// pointers point to and its fields hold. Conflated memory is closed under dereference, so
    /// this is one node per blob, made at the first absorption and kept in `blob_contents`;
    /// like the blob's labels it lives at the root (a conflated location is never a copy).
    /// A fresh node at every absorption would be the same memory split into unrelated nodes
    /// with the same labels, each with its own relations and function targets (mt-daapd made
    /// 372 000 of them before its first function was generated).
    fn blob_content(&mut self, rho: Rho, lock: Lock) -> Node {
        if let Some(&n) = self.blob_contents.get(&rho) {
            return self.root(n);
        }
        let blob = self.node(
            Shape::Blob {
                rho,
                lock,
                funs: Vec::new(),
            },
            Scope::ROOT,
        );
        self.blob_contents.insert(rho, blob);
        blob
    }

    /// Absorbs a shape into the blob `(rho, lock, funs)`: all its labels become the blob's.
    fn absorb(
        &mut self,
        c: &mut Constraints,
        rho: Rho,
        lock: Lock,
        mut funs: Vec<FuncId>,
        s: Shape,
    ) -> Vec<FuncId> {
        match s {
            Shape::Var | Shape::Scalar => {}
            Shape::Ptr { rho: r, to } => {
                self.emit_flow(c, r, rho);
                self.emit_flow(c, rho, r);
                let blob = self.blob_content(rho, lock);
                self.work.push(Work::Unify(to, blob));
            }
            Shape::Struct { fields, .. } => {
                for f in fields {
                    self.emit_flow(c, f.rho, rho);
                    self.emit_flow(c, rho, f.rho);
                    let blob = self.blob_content(rho, lock);
                    self.work.push(Work::Unify(f.content, blob));
                }
            }
            Shape::Union { inner, .. } => {
                let blob = self.blob_content(rho, lock);
                self.work.push(Work::Unify(inner, blob));
            }
            Shape::Void(entries) => {
                let blob = self.blob_content(rho, lock);
                for (_, n) in entries {
                    self.work.push(Work::Unify(n, blob));
                }
            }
            Shape::Lock(l) => c.lock_eq(l, lock),
            Shape::Fun(t) => funs.extend(t),
            Shape::Blob {
                rho: r,
                lock: l,
                funs: f,
            } => {
                self.emit_flow(c, r, rho);
                self.emit_flow(c, rho, r);
                c.lock_eq(l, lock);
                funs.extend(f);
            }
        }
        funs.sort();
        funs.dedup();
        funs
    }

    fn do_sync(&mut self, c: &mut Constraints, id: u32) {
        match self.rels[id as usize] {
            Rel::Flow { source, target } => self.sync_flow(c, source, target),
            Rel::Inst {
                generic,
                instance,
                site,
                pol,
            } => self.sync_inst(c, generic, instance, site, pol),
        }
    }

    fn sync_flow(&mut self, c: &mut Constraints, source: Node, target: Node) {
        let (s, t) = (self.root(source), self.root(target));
        if s == t {
            return;
        }
        // A value flowing is used: a pending pointer gets its type first (the unification
        // synchronises this relation again).
        let pending_s = self.materialise(c, s);
        if self.materialise(c, t) || pending_s {
            return;
        }
        let (ss, ts) = (
            self.data[s.0 as usize].shape.clone(),
            self.data[t.0 as usize].shape.clone(),
        );
        match (ss, ts) {
            (Shape::Var, Shape::Var) => {}
            (Shape::Scalar, Shape::Scalar) => {}
            (Shape::Ptr { rho: r1, to: t1 }, Shape::Ptr { rho: r2, to: t2 }) => {
                self.emit_flow(c, r1, r2);
                self.work.push(Work::Unify(t1, t2));
            }
            (
                Shape::Struct {
                    sid: s1,
                    fields: f1,
                },
                Shape::Struct {
                    sid: s2,
                    fields: f2,
                },
            ) if s1 == s2 => {
                // A struct copy: every field's value flows, for the fields either side uses.
                let mut indices: Vec<u32> = f1.iter().chain(&f2).map(|f| f.index).collect();
                indices.sort();
                indices.dedup();
                for index in indices {
                    let at_s = f1.iter().find(|f| f.index == index).map(|f| f.content);
                    let at_t = f2.iter().find(|f| f.index == index).map(|f| f.content);
                    let scope_s = self.data[s.0 as usize].scope;
                    let scope_t = self.data[t.0 as usize].scope;
                    let a = match at_s {
                        Some(x) => x,
                        None => self.new_field(c, s, s1, index, scope_s, false).content,
                    };
                    let b = match at_t {
                        Some(x) => x,
                        None => self.new_field(c, t, s1, index, scope_t, false).content,
                    };
                    self.add_rel(Rel::Flow {
                        source: a,
                        target: b,
                    });
                }
            }
            (Shape::Union { sid: s1, inner: i1 }, Shape::Union { sid: s2, inner: i2 })
                if s1 == s2 =>
            {
                self.add_rel(Rel::Flow {
                    source: i1,
                    target: i2,
                });
            }
            (Shape::Fun(t1), Shape::Fun(_)) => self.add_funs(t, &t1),
            (Shape::Lock(l1), Shape::Lock(l2)) => c.lock_eq(l1, l2),
            _ => self.work.push(Work::Unify(s, t)),
        }
    }

    fn sync_inst(
        &mut self,
        c: &mut Constraints,
        generic: Node,
        instance: Node,
        site: Site,
        pol: Pol,
    ) {
        let (g, i) = self.containers(generic, instance);
        if g == i {
            return;
        }
        let binder = c.sites[site].binder;
        let g_scope = self.data[g.0 as usize].scope;
        let depth = self.data[g.0 as usize]
            .depth
            .max(self.data[i.0 as usize].depth);
        if binder == Scope::ROOT
            || !c.scopes.within(g_scope, binder)
            || self.monomorphic.contains(&site)
            || depth >= MAX_DEPTH
        {
            // Not quantified at this site: its image is itself (`l⃗ ⪯ᵢ l⃗`), so the instantiation
            // is plain subtyping with the generic's own labels — the argument flows into the
            // parameter, the result out of the return (\[Sub\], figure 7a); contents, which are
            // invariant, are unified. Monomorphic (recursive) sites and deep copies are treated
            // the same way: a recursive call passing a local buffer as the parameter then does
            // not make the buffer and every caller's argument one location.
            match pol {
                Pol::Neg => self.add_rel(Rel::Flow {
                    source: i,
                    target: g,
                }),
                Pol::Pos => self.add_rel(Rel::Flow {
                    source: g,
                    target: i,
                }),
                Pol::Both => self.work.push(Work::Unify(g, i)),
            }
            return;
        }
        self.creating_depth = depth + 1;
        self.sync_structure(c, g, i, site, pol);
        self.creating_depth = 0;
    }

    fn sync_structure(&mut self, c: &mut Constraints, g: Node, i: Node, site: Site, pol: Pol) {
        self.sync_parents(g, i, site);
        let gs = self.data[g.0 as usize].shape.clone();
        let mut is = self.data[i.0 as usize].shape.clone();
        match (&gs, &is) {
            // An object the callee allocates without giving it a type (an allocation wrapper
            // returning `void *`) is the memory every caller's copy is: it takes the shape a
            // caller gives its copy, so the fields the callers use are created on the object
            // itself (where its races are checked), and are then synchronised as usual.
            (Shape::Var, _) if self.data[g.0 as usize].object && !matches!(is, Shape::Var) => {
                let mirrored = self.mirror(c, &is, self.data[g.0 as usize].scope);
                self.data[g.0 as usize].void_content |= self.data[i.0 as usize].void_content;
                self.set_shape(g, mirrored);
                return self.sync_structure(c, g, i, site, pol);
            }
            // A generic content the callee never looks into (an uncast `void*`) stays related
            // to each caller's content; if the callee later gives it a shape, the relation is
            // synchronised again. Memory the callee stores such a pointer into is reachable from
            // an outer scope, so it is widened there and unified, not copied (`do_widen`).
            (Shape::Var, _) => return,
            (_, Shape::Var) => {
                is = self.mirror(c, &gs, self.data[i.0 as usize].scope);
                self.data[i.0 as usize].void_content |= self.data[g.0 as usize].void_content;
                self.set_shape(i, is.clone());
            }
            _ => {}
        }
        match (gs, is) {
            (Shape::Scalar, Shape::Scalar) => {}
            (Shape::Ptr { rho: rg, to: tg }, Shape::Ptr { rho: ri, to: ti }) => {
                self.emit_rho_inst(c, rg, site, pol, ri);
                self.add_rel(Rel::Inst {
                    generic: tg,
                    instance: ti,
                    site,
                    pol: Pol::Both,
                });
            }
            (
                Shape::Struct { sid, fields },
                Shape::Struct {
                    sid: si,
                    fields: fields_i,
                },
            ) if sid == si => {
                // Lazy fields are created on both sides: a field the caller uses must have a
                // generic pre-image too, or the caller's label would be cut off from the object
                // the callee allocated (and the check, which looks at that object, would miss it).
                let mut indices: Vec<u32> =
                    fields.iter().chain(&fields_i).map(|f| f.index).collect();
                indices.sort();
                indices.dedup();
                let (scope_g, scope_i) =
                    (self.data[g.0 as usize].scope, self.data[i.0 as usize].scope);
                for index in indices {
                    let fg = self.field_slot(c, g, sid, index, scope_g, true);
                    let fi = self.field_slot(c, i, sid, index, scope_i, false);
                    self.emit_rho_inst(c, fg.rho, site, Pol::Both, fi.rho);
                    self.add_rel(Rel::Inst {
                        generic: fg.content,
                        instance: fi.content,
                        site,
                        pol: Pol::Both,
                    });
                }
            }
            (Shape::Union { sid, inner: ig }, Shape::Union { sid: si, inner: ii }) if sid == si => {
                self.add_rel(Rel::Inst {
                    generic: ig,
                    instance: ii,
                    site,
                    pol: Pol::Both,
                });
            }
            (Shape::Lock(lg), Shape::Lock(li)) => self.emit_lock_inst(c, lg, site, li),
            (Shape::Fun(tg), Shape::Fun(ti)) => match pol {
                Pol::Pos => self.add_funs(i, &tg),
                Pol::Neg => self.add_funs(g, &ti),
                Pol::Both => {
                    self.add_funs(i, &tg);
                    self.add_funs(g, &ti);
                }
            },
            (
                Shape::Blob {
                    rho: rg,
                    lock: lg,
                    funs: fg,
                },
                Shape::Blob {
                    rho: ri,
                    lock: li,
                    funs: fi,
                },
            ) => {
                self.emit_rho_inst(c, rg, site, Pol::Both, ri);
                self.emit_lock_inst(c, lg, site, li);
                self.add_funs(i, &fg);
                self.add_funs(g, &fi);
            }
            (Shape::Void(ge), Shape::Void(ie)) => {
                // Entry by entry, created on both sides as lazy fields are.
                let mut keys: Vec<ViewKey> = ge.iter().chain(&ie).map(|e| e.0).collect();
                keys.sort();
                keys.dedup();
                for key in keys {
                    let a = self.view_entry(c, g, key, None);
                    let b = self.view_entry(c, i, key, None);
                    self.add_rel(Rel::Inst {
                        generic: a,
                        instance: b,
                        site,
                        pol: Pol::Both,
                    });
                }
            }
            (Shape::Blob { .. }, _) => {
                // The caller's view of conflated memory is conflated too.
                self.conflate_later(c, i);
            }
            (_, Shape::Blob { .. }) => self.conflate_later(c, g),
            // An untyped object of the callee (an allocation wrapper's `malloc`) that callers
            // use at different types: each caller's copy is an instance of the object's entry
            // for its own type, so the object holds every caller's fields while each copy keeps
            // only its own (unifying them would give every caller every other caller's type).
            (gs, is)
                if self.data[g.0 as usize].object
                    && self.data[g.0 as usize].void_content
                    && is.view_key().is_some()
                    && gs.view_key() != is.view_key() =>
            {
                let key = is.view_key().expect("checked above");
                let e = self.view_entry(c, g, key, None);
                self.add_rel(Rel::Inst {
                    generic: e,
                    instance: i,
                    site,
                    pol: Pol::Both,
                });
            }
            // Anything else — among them a callee's `void*` content meeting the caller's typed
            // memory without a cast on either side (an argument the generator could not convert)
            // — is one node, where a typed shape becomes the entry of its type (`void*` stays
            // monomorphic there, as in the paper's basic model).
            _ => self.work.push(Work::Unify(g, i)),
        }
    }

    fn conflate_later(&mut self, c: &mut Constraints, n: Node) {
        let scope = self.data[n.0 as usize].scope;
        let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
        let lock = c.new_lock(scope);
        let blob = self.node(
            Shape::Blob {
                rho,
                lock,
                funs: Vec::new(),
            },
            scope,
        );
        self.work.push(Work::Unify(n, blob));
    }

    /// The slot of field `index` of struct node `n`, created if missing. With `lazy`, a missing
    /// field is created on the generic side of an instantiation because the instance has it
    /// (figure 7b made lazy: a field the caller uses needs a generic pre-image, so that a caller
    /// reaching an object the callee allocated reaches that object's field). When the field
    /// holds a pointer, the callee has not used that pointer (it would have created the field),
    /// so its value is left *pending*: a `Var`, which instantiation does not copy, until the
    /// callee itself uses it ([`LTypes::materialise`]). This departs from copying the field's
    /// whole type at once: the pending value's own labels (the pointer's target and below) are
    /// not created, so no instantiation constraint is emitted for them; having no constraint in
    /// the callee, they could only link the instances of different sites to each other, which
    /// matched flow never does (`(ᵢ` closed by `)ⱼ`). What it saves: a caller whose structure
    /// is cyclic (a list it walks) made the callee's acyclic view of it unfold one copy per
    /// level, every pointer field a branch, until [`MAX_DEPTH`] (mt-daapd: 1.6 million nodes
    /// made at the last level alone).
    fn field_slot(
        &mut self,
        c: &mut Constraints,
        n: Node,
        sid: StructId,
        index: u32,
        scope: Scope,
        lazy: bool,
    ) -> FieldSlot {
        let r = self.root(n);
        if let Shape::Struct { fields, .. } = &self.data[r.0 as usize].shape {
            if let Ok(k) = fields.binary_search_by_key(&index, |f| f.index) {
                return fields[k];
            }
        }
        self.new_field(c, r, sid, index, scope, lazy)
    }

    /// A fresh shape of the same constructor as `s`, for an instance in `scope`.
    fn mirror(&mut self, c: &mut Constraints, s: &Shape, scope: Scope) -> Shape {
        match s {
            Shape::Var => Shape::Var,
            Shape::Scalar => Shape::Scalar,
            Shape::Ptr { .. } => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Instance);
                let to = self.var(scope);
                Shape::Ptr { rho, to }
            }
            Shape::Struct { sid, .. } => Shape::Struct {
                sid: *sid,
                fields: Vec::new(),
            },
            Shape::Union { sid, .. } => {
                let inner = self.var(scope);
                Shape::Union { sid: *sid, inner }
            }
            Shape::Lock(_) => Shape::Lock(c.new_lock(scope)),
            Shape::Fun(_) => Shape::Fun(Vec::new()),
            Shape::Void(_) => Shape::Void(Vec::new()),
            Shape::Blob { .. } => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
                Shape::Blob {
                    rho,
                    lock: c.new_lock(scope),
                    funs: Vec::new(),
                }
            }
        }
    }

    /// The memory a content node describes, without following pointers: the node and, for
    /// structs, unions and `void*` contents, the nodes inside it (recursively), as
    /// representatives, each once.
    fn contents_below(&mut self, n: Node) -> Vec<Node> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        let mut seen = FxHashSet::default();
        while let Some(x) = stack.pop() {
            let r = self.root(x);
            if !seen.insert(r) {
                continue;
            }
            out.push(r);
            match &self.data[r.0 as usize].shape {
                Shape::Struct { fields, .. } => stack.extend(fields.iter().map(|f| f.content)),
                Shape::Union { inner, .. } => stack.push(*inner),
                Shape::Void(entries) => stack.extend(entries.iter().map(|e| e.1)),
                _ => {}
            }
        }
        out
    }

    /// Every location label of the memory a content node describes, without following pointers:
    /// the fields of structs (recursively), or none for scalars and pointers. Used to expand an
    /// access to a whole struct into accesses of its fields.
    pub fn field_labels(&mut self, n: Node) -> Vec<Rho> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            match &self.data[r.0 as usize].shape {
                Shape::Struct { fields, .. } => out.extend(fields.iter().map(|f| f.rho)),
                Shape::Blob { rho, .. } => out.push(*rho),
                _ => {}
            }
        }
        out
    }

    /// Pairs `(ρ, β)` where location `ρ` — the object `rho` itself or one of its fields, at any
    /// depth — holds conflated memory labelled `β`. A blob's locations include the memory's own
    /// start, which an access through a character pointer (the usual cause of the conflation)
    /// touches under the object's label rather than the blob's: the two must be one location.
    pub fn blob_ties(&mut self, rho: Rho, content: Node) -> Vec<(Rho, Rho)> {
        let mut out = Vec::new();
        let mut stack = vec![(rho, content)];
        let mut seen = FxHashSet::default();
        while let Some((at, x)) = stack.pop() {
            let r = self.root(x);
            if !seen.insert((at, r)) {
                continue;
            }
            match &self.data[r.0 as usize].shape {
                Shape::Blob { rho: b, .. } => out.push((at, *b)),
                Shape::Struct { fields, .. } => {
                    stack.extend(fields.iter().map(|f| (f.rho, f.content)));
                }
                Shape::Union { inner, .. } => stack.push((at, *inner)),
                Shape::Void(entries) => stack.extend(entries.iter().map(|e| (at, e.1))),
                _ => {}
            }
        }
        out
    }

    /// The lock labels stored in the memory a content node describes (not following pointers).
    pub fn locks_inside(&mut self, n: Node) -> Vec<Lock> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            match &self.data[r.0 as usize].shape {
                Shape::Lock(l) => out.push(*l),
                Shape::Blob { lock, .. } => out.push(*lock),
                _ => {}
            }
        }
        out
    }

    /// The function pointers stored in a content (not following pointers), e.g. the handler in a
    /// `struct sigaction`.
    pub fn funs_inside(&mut self, n: Node) -> Vec<FuncId> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            match &self.data[r.0 as usize].shape {
                Shape::Fun(t) => out.extend(t.iter().copied()),
                Shape::Blob { funs, .. } => out.extend(funs.iter().copied()),
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The representative of each node, for callers keeping per-node maps.
    pub fn representative(&mut self, n: Node) -> Node {
        self.root(n)
    }

    /// Count of nodes (for statistics).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Whether a relation synchronised against shape `old` needs no new synchronisation now that its
/// node has shape `merged` (the result of [`LTypes::merge_shapes`] with `old` on one side): the
/// same constructor with the same labels, fields, function targets and `void*` classes. Child
/// nodes are not compared: `merge_shapes` unifies the children of both sides, and a relation
/// between children is carried over to the representative when they are unified.
fn same_view(old: &Shape, merged: &Shape) -> bool {
    match (old, merged) {
        (Shape::Var, Shape::Var) | (Shape::Scalar, Shape::Scalar) => true,
        (Shape::Ptr { rho: a, .. }, Shape::Ptr { rho: b, .. }) => a == b,
        (
            Shape::Struct {
                sid: s1,
                fields: f1,
            },
            Shape::Struct {
                sid: s2,
                fields: f2,
            },
        ) => {
            s1 == s2
                && f1.len() == f2.len()
                && f1
                    .iter()
                    .zip(f2)
                    .all(|(x, y)| x.index == y.index && x.rho == y.rho)
        }
        (Shape::Union { sid: s1, .. }, Shape::Union { sid: s2, .. }) => s1 == s2,
        (Shape::Lock(a), Shape::Lock(b)) => a == b,
        (Shape::Fun(a), Shape::Fun(b)) => a == b,
        (Shape::Blob { .. }, Shape::Blob { .. }) => old == merged,
        (Shape::Void(a), Shape::Void(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0)
        }
        _ => false,
    }
}

/// Nodes keyed by representative, for maps that must survive unification.
pub type NodeMap<T> = FxHashMap<Node, T>;
