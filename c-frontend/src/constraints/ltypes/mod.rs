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
//!   ([`crate::constraints::views::overlap`]) share an entry (two structs with common initial
//!   members share those members only, `voids.rs`), and with `--no-void` every class shares one;
//!   the bytes (the `Char` entry) are apart, and memory seen both as bytes and at another class is
//!   one location with everything inside it ([`LTypes::settle_byte_views`]);
//! - a generic node whose shape is still unknown (a `void*` the function never casts) stays
//!   related to each caller's node until it gets a shape;
//! - contents of incompatible shapes (a cast between unrelated structs, a pointer used as an
//!   integer) are *conflated* into a local blob: one location label and one lock label for
//!   everything inside, closed under dereference.
//!
//! The table lives here with its construction, its union-find and the public entry points the
//! generator calls; the work it schedules is done in submodules, each an `impl LTypes` block:
//! `unify.rs` (unification, shape merging, conflation into blobs, scope widening),
//! `relations.rs` (the flow and instantiation relations, flow synchronisation),
//! `instances.rs` (instantiation at call sites), `funs.rs` (function lists, shared by the nodes
//! that must hold the same functions), `structs.rs` (lazy fields and enclosing
//! structs), `voids.rs` (the entries of a `void*` content and its bytes), `external.rs` (external memory) and
//! `queries.rs` (read-only questions about contents).

mod external;
mod funs;
mod instances;
mod preimages;
mod queries;
mod relations;
mod structs;
mod unify;
mod voids;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::constraints::views::ViewKey;
use crate::ir::ctypes::{StructId, Type, TypeId, TypeTable};
use crate::ir::FuncId;
use solver::ids::IndexVec;
use solver::{Constraints, Lock, Polarity, Rho, RhoKind, Scope, Site};

pub use funs::FunList;
use funs::FunListData;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(u32);

impl Node {
    /// No node, where a relation's mark needs one (`LTypes::parked`).
    const NONE: Node = Node(u32::MAX);
}

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
    /// A function pointer value: the functions it may point to, a list it may share with
    /// other nodes ([`funs`]).
    Fun(FunList),
    /// Conflated memory: every location inside is `rho`, every lock is `lock`, every function
    /// pointer may call `funs`; dereferencing or projecting stays in the blob.
    Blob { rho: Rho, lock: Lock, funs: FunList },
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
    /// The memory `global` of a global other files can see may be the external object
    /// `object` of its class ([`LTypes::visible_global`]).
    MayBe { global: Node, object: Node },
}

impl Rel {
    /// The two nodes related.
    fn nodes(self) -> (Node, Node) {
        match self {
            Rel::Inst {
                generic, instance, ..
            } => (generic, instance),
            Rel::Flow { source, target } => (source, target),
            Rel::MayBe { global, object } => (global, object),
        }
    }
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
    /// Whether something reads every field this memory has, whoever made it: a whole-object
    /// access (`memset`, a library call given a pointer to it) or a search for the functions it
    /// holds. Every field an instance of it has then needs a pre-image here
    /// ([`LTypes::needs_preimage`]).
    inspected: bool,
    /// Whether this is a member of a union or an entry of a `void*` content: memory inside other
    /// memory that no `parents` link leads back to, so what reads that memory whole cannot be
    /// found from here ([`LTypes::needs_preimage`] keeps every field of it).
    held: bool,
    /// Whether a synchronisation left out a pre-image of a field only an instance has: its
    /// relations are synchronised again once generation is over ([`LTypes::settle_preimages`]).
    lazy: bool,
    /// The structs this memory is a field of: (struct node, its struct, the field's index). C
    /// lets a pointer to a member be turned back into a pointer to the enclosing struct
    /// (`container_of`, a cast to the type of the first member's struct), which must reach that
    /// very struct and its other fields.
    parents: structs::Parents,
    /// For a character view of memory that other views may also see: the `void*` content whose
    /// bytes these are (its `Char` entry, or anything a byte of it was copied into), else
    /// [`Node::NONE`]. A byte copied is possibly part of a pointer, so bytes of two contents
    /// meeting make the two contents one ([`LTypes::bytes_meet`]), as two blobs meeting did.
    bytes_of: Node,
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
    /// A struct endpoint of the relation gained the field: only that field is paired
    /// ([`LTypes::do_sync_field`]).
    SyncField(u32, u32),
    /// The node is external memory: its pointers and members are linked to it.
    External(Node),
    /// The node is reachable from this scope: it and everything below it live there too.
    Widen(Node, Scope),
    /// Two struct views of one `void*` content share their first members
    /// ([`LTypes::do_share_prefix`]).
    Prefix(Node, Node, u32),
    /// The function list grew, or a list that grew was linked into it: its outs are
    /// synchronised again ([`LTypes::do_funs_grew`]).
    FunsGrew(FunList),
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
    /// Per relation `g ⪯ᵢ i`: the representative `i` had when a field holding numbers that only
    /// it has was left out of `g` ([`LTypes::needs_preimage`]), or [`Node::NONE`]. The next
    /// such fields `i` gains skip the relation, which [`LTypes::settle_preimages`] synchronises
    /// again whole through `g`, and a whole synchronisation clears the mark. A caller's struct
    /// of many counters is an instance of many callees' views that name few of them; without
    /// the mark each counter it gains was offered to each of those views.
    parked: Vec<Node>,
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
    /// The blobs made of views of numbers only (a `struct sockaddr_in` filled field by field,
    /// then cast to a `struct sockaddr *`), with the scope each was made in: nothing inside
    /// them carries a label, so their content node stays in that scope instead of the root's
    /// ([`LTypes::blob_content`]) until something that does is absorbed ([`LTypes::promote`]).
    number_blobs: FxHashMap<Rho, Scope>,
    /// The memory seen both as bytes and at another type, once generation is over
    /// ([`LTypes::settle_byte_views`]): an object whose content is in it is one location with
    /// everything inside it ([`LTypes::blob_ties`]).
    byte_views: voids::ByteViews,
    /// The blob node of each location label whose content node is in `blob_contents`: the two
    /// share their function targets ([`LTypes::share_blob_funs`]).
    blob_tops: FxHashMap<Rho, Node>,
    work: Vec<Work>,
    /// The function lists, a union-find of their own ([`funs`]).
    fun_lists: Vec<FunListData>,
    /// For each pair of root lists of which the first flowed into the second: how much of the
    /// first's functions, in the order they were added, had moved ([`LTypes::flow_funs`]).
    funs_moved: FxHashMap<(FunList, FunList), u32>,
    emitted_flows: FxHashSet<(Rho, Rho)>,
    /// The instantiations `ρ ⪯ᵢᵖ ρ'` emitted so far: the first of each instance label `ρ'` by
    /// that label ([`FirstInst`]), the others in `emitted_insts`. An instance label is nearly
    /// always made for one generic label at one site, so asking whether an instantiation is new
    /// reads the instance's own slot, not a hash set of millions (bigstruct at 1M lines: 7.35M
    /// instantiations, a cache miss or two per ask).
    first_inst: IndexVec<Rho, FirstInst>,
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
    /// Work items processed, by kind (unify, sync, widen, field sync), the fields paired by
    /// synchronisations and the relations visited as outs of function lists ([`funs`]), for the
    /// developer's statistics.
    work_done: [u64; 6],
    /// Pre-images of fields made on generic nodes because an instance has the field, and those
    /// left out ([`LTypes::needs_preimage`]), for [`LTypes::settle_preimages`] and the statistics.
    preimages: [u64; 2],
    /// The generic nodes whose synchronisations left out a pre-image, in the order they did.
    lazy_nodes: Vec<Node>,
    /// What asks each node for pre-images, by representative, with the length of its relation
    /// list when this was read ([`LTypes::demand_of`]).
    demand: FxHashMap<Node, (usize, preimages::Demand)>,
    /// For each struct, by id, once asked: the indices of its fields that hold more than numbers
    /// ([`LTypes::labelled_fields`]).
    labelled: Vec<Option<Box<[u32]>>>,
    /// The external object of each type class made so far (see [`LTypes::mark_external`]).
    external: Vec<(ExternalClass, Rho, Node)>,
    /// External pointers whose target had no shape yet, by the target's representative: their
    /// label is linked to external memory once the target's class is known.
    external_waiting: FxHashMap<Node, Vec<Node>>,
    /// The location label and content of every global other files can see
    /// ([`LTypes::visible_global`]).
    visible_globals: Vec<(Rho, Node)>,
}

/// The first instantiation emitted for an instance label: its generic label and site, and the
/// polarities emitted (bit 1 positive, bit 2 negative; none for a label not yet an instance).
#[derive(Copy, Clone, Debug)]
struct FirstInst {
    generic: Rho,
    site: Site,
    polarities: u8,
}

impl FirstInst {
    const NONE: FirstInst = FirstInst {
        generic: Rho(0),
        site: Site(0),
        polarities: 0,
    };
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
            parked: Vec::new(),
            rel_state: Vec::new(),
            rel_index: FxHashMap::default(),
            instance_at: FxHashMap::default(),
            blob_contents: FxHashMap::default(),
            number_blobs: FxHashMap::default(),
            byte_views: voids::ByteViews::default(),
            blob_tops: FxHashMap::default(),
            work: Vec::new(),
            fun_lists: Vec::new(),
            funs_moved: FxHashMap::default(),
            emitted_flows: FxHashSet::default(),
            first_inst: IndexVec::new(),
            emitted_insts: FxHashSet::default(),
            emitted_lock_insts: FxHashSet::default(),
            rho_origin: IndexVec::new(),
            monomorphic: FxHashSet::default(),
            conflations: Vec::new(),
            position: 0,
            creating_depth: 0,
            void_model: true,
            field_sensitive: true,
            work_done: [0; 6],
            preimages: [0; 2],
            lazy_nodes: Vec::new(),
            demand: FxHashMap::default(),
            labelled: Vec::new(),
            external: Vec::new(),
            external_waiting: FxHashMap::default(),
            visible_globals: Vec::new(),
        }
    }

    /// Records the table's sizes and work in the developer's statistics ([`solver::stats`]).
    pub fn record_stats(&self, stats: &solver::stats::Stats) {
        stats.count("ltypes: nodes", self.data.len());
        stats.count("ltypes: relations", self.rels.len());
        let insts = self
            .rels
            .iter()
            .filter(|r| matches!(r, Rel::Inst { .. }))
            .count();
        stats.count("ltypes: instantiation relations", insts);
        stats.count("ltypes: unify work", self.work_done[0] as usize);
        stats.count("ltypes: sync work", self.work_done[1] as usize);
        stats.count("ltypes: widen work", self.work_done[2] as usize);
        stats.count("ltypes: field sync work", self.work_done[3] as usize);
        stats.count("ltypes: field pairings", self.work_done[4] as usize);
        stats.count(
            "ltypes: function-list outs visited",
            self.work_done[5] as usize,
        );
        stats.count("ltypes: field pre-images made", self.preimages[0] as usize);
        stats.count(
            "ltypes: field pre-images left out",
            self.preimages[1] as usize,
        );
        stats.count("ltypes: function lists", self.root_lists());
    }

    /// Records the position being generated (an opaque number for the debug output).
    pub fn at(&mut self, position: u64) {
        self.position = position;
    }

    fn note_conflation(&mut self, why: String) {
        if self.conflations.len() < 10_000 {
            self.conflations.push((self.position, why));
        }
    }

    /// Makes the relations of `site` unify: used for calls between functions of one recursive
    /// cycle, where polymorphic recursion over recursive struct types would not terminate.
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
        let list = match shape {
            Shape::Fun(l) | Shape::Blob { funs: l, .. } => Some(l),
            _ => None,
        };
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
            inspected: false,
            held: false,
            lazy: false,
            parents: structs::Parents::default(),
            bytes_of: Node::NONE,
        });
        debug_assert_eq!(n.0 as usize + 1, self.data.len());
        if let Some(l) = list {
            self.add_member(l, n);
        }
        self.note_held(n);
        n
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

    /// A lock content whose lock label is `l`.
    pub fn lock(&mut self, l: Lock, scope: Scope) -> Node {
        self.node(Shape::Lock(l), scope)
    }

    /// A pointer value to the given location and content.
    pub fn ptr(&mut self, rho: Rho, to: Node, scope: Scope) -> Node {
        self.node(Shape::Ptr { rho, to }, scope)
    }

    /// A function pointer value that may call `targets`.
    pub fn fun(&mut self, targets: Vec<FuncId>, scope: Scope) -> Node {
        let list = self.new_fun_list(targets);
        self.node(Shape::Fun(list), scope)
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

    /// Gives representative `r` a new shape. The outs of a list it held keep its relations,
    /// which is only more synchronisation.
    fn set_shape(&mut self, r: Node, shape: Shape) {
        let was_fun = matches!(self.data[r.0 as usize].shape, Shape::Fun(_));
        let was_var = matches!(self.data[r.0 as usize].shape, Shape::Var);
        let list = match shape {
            Shape::Fun(l) | Shape::Blob { funs: l, .. } => Some(l),
            _ => None,
        };
        self.data[r.0 as usize].shape = shape;
        if let Some(l) = list {
            self.add_member(l, r);
        }
        if was_fun && !matches!(self.data[r.0 as usize].shape, Shape::Fun(_)) {
            let rels = self.data[r.0 as usize].rels.clone();
            self.outs_around_former_fun(&rels);
        }
        if was_var && !matches!(self.data[r.0 as usize].shape, Shape::Var) {
            let rels = self.data[r.0 as usize].rels.clone();
            self.generic_typed(r, &rels);
        }
        self.note_held(r);
        self.resync(r);
    }

    pub(super) fn resync(&mut self, r: Node) {
        self.resync_with(r, None);
    }

    /// Struct node `r` gained field `index`: each of its relations pairs that field alone
    /// ([`LTypes::do_sync_field`]), unless a synchronisation of the whole relation is waiting.
    pub(super) fn resync_field(&mut self, r: Node, index: u32) {
        self.resync_with(r, Some(index));
    }

    /// Schedules the relations of `r` again: whole, or for one new field.
    fn resync_with(&mut self, r: Node, field: Option<u32>) {
        if self.data[r.0 as usize].external {
            self.work.push(Work::External(r));
        }
        let numbers = match (field, &self.data[r.0 as usize].shape) {
            (Some(index), Shape::Struct { sid, .. }) => self.holds_numbers(*sid, index),
            _ => false,
        };
        for k in 0..self.data[r.0 as usize].rels.len() {
            let id = self.data[r.0 as usize].rels[k];
            match field {
                None => self.push_sync(id),
                Some(index) => {
                    if self.rel_state[id as usize] == RelState::Live
                        && !self.queued[id as usize]
                        && !(numbers && self.parked[id as usize] == r)
                    {
                        self.work.push(Work::SyncField(id, index));
                    }
                }
            }
        }
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

    fn emit_flow(&mut self, c: &mut Constraints, a: Rho, b: Rho) {
        if a != b && self.emitted_flows.insert((a, b)) {
            c.flow(a, b);
        }
    }

    fn emit_rho_inst(&mut self, c: &mut Constraints, g: Rho, site: Site, pol: Pol, i: Rho) {
        for &p in pol.polarities() {
            if self.newly_emitted(g, site, p, i) {
                c.rho_inst(g, site, p, i);
            }
        }
    }

    /// Whether `g ⪯ᵢᵖ i` at `site` is emitted for the first time, recording it.
    fn newly_emitted(&mut self, g: Rho, site: Site, p: Polarity, i: Rho) -> bool {
        let bit = match p {
            Polarity::Pos => 1,
            Polarity::Neg => 2,
        };
        self.first_inst.ensure(i, FirstInst::NONE);
        let slot = &mut self.first_inst[i];
        if slot.polarities == 0 {
            *slot = FirstInst {
                generic: g,
                site,
                polarities: bit,
            };
            return true;
        }
        if slot.generic == g && slot.site == site {
            let new = slot.polarities & bit == 0;
            slot.polarities |= bit;
            return new;
        }
        self.emitted_insts.insert((g, site, p, i))
    }

    fn emit_lock_inst(&mut self, c: &mut Constraints, g: Lock, site: Site, i: Lock) {
        if self.emitted_lock_insts.insert((g, site, i)) {
            c.lock_inst(g, site, i);
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
                    self.parked[id as usize] = Node::NONE;
                    self.do_sync(c, id)
                }
                Work::SyncField(id, index) => {
                    self.work_done[3] += 1;
                    self.do_sync_field(c, id, index)
                }
                Work::Widen(n, scope) => {
                    self.work_done[2] += 1;
                    self.do_widen(c, n, scope)
                }
                Work::External(n) => self.do_external(c, n),
                Work::Prefix(a, b, members) => self.do_share_prefix(c, a, b, members),
                Work::FunsGrew(l) => self.do_funs_grew(l),
            }
        }
    }
}

/// Nodes keyed by representative, for maps that must survive unification.
pub type NodeMap<T> = FxHashMap<Node, T>;
