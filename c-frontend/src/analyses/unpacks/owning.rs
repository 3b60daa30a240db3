//! Owning pointers: a struct member that only ever holds a fresh block of its own, and whose
//! value is only ever dereferenced, makes the block part of the object that holds the member.
//! An access `O->f[k]…` then lies in whatever unpack `O` lies in (paper §3.3, figure 10's
//! [Unpack]: the package of `O` grows to what only `O` reaches).
//!
//! ```c
//! hosts[id]->checks = malloc(n * sizeof(struct check *));      // fresh, into an owning member
//! for (x = 0; x < n; x++) {
//!     hosts[id]->checks[x] = malloc(sizeof(struct check));     // fresh, into an owning element
//!     hosts[id]->checks[x]->passed = 0;                        // in `hosts[id]`'s package
//! }
//! ```
//!
//! A *place class* names the pointer locations of a program alike: the member `f` of every
//! object of struct type `S` ([`Place::Member`]), or the elements of every block a place of a
//! class points to ([`Place::Element`]). A class is *owning* when, in the whole program:
//!
//! - every store into one of its places stores the null constant or a fresh block: the result
//!   of an allocation (never a reallocation, which may return the block it was given) or of a
//!   *constructor* (a function of the program each of whose returns returns null or a block
//!   that is fresh and unpublished there, [`super::super::uniqueness`]: `gate_new()` that
//!   allocates a struct holding a mutex and initialises it), called right there or held by a
//!   local that holds only it and is read only by this store;
//! - every read of one of its places is the base of a dereference (`*(O->f + k)`, `O->f[k]`),
//!   a comparison or `!`, the block handed to `free`, or, for a *plain* block (one that holds
//!   no pointer: scalars, locks and condition variables, and structs and arrays of them), a
//!   pointer handed to a function that keeps no copy of it and returns no pointer
//!   ([`Program::keeps_no_argument`]: a library function, or one of the program's, such as a
//!   lock wrapper `hold(O->gate)`);
//! - its address is never taken, nor an address inside a block it holds (`&O->f[k]`) but
//!   one handed straight to a function that keeps no copy, where it holds no pointer
//!   (`pthread_mutex_lock(&O->f->mu)`), it
//!   lies in no union (not even inside a struct a union holds) and in no struct of the
//!   library's, and no object holding it may be copied
//!   whole: no struct assignment of it, and no pointer to it converted to another pointer type
//!   (as `memcpy`'s `void *` parameters do), but to hand it to `free`, or as the argument of
//!   a create whose start routine only converts it back (`handed_back`);
//! - for the elements of blocks, the place holding the blocks is owning too.
//!
//! Why that is sound: every block a place of an owning class holds is fresh when stored, and no
//! copy of its address is ever kept (not in a variable, not in memory, not by a library call,
//! not by copying the holding object), so the only way to it is through the one place that
//! holds it, inside the one object `O` that holds that place. An access that reaches it through
//! `O`'s place therefore touches `O`'s own memory as far as races go: if it holds `O`'s unpack,
//! any other access of the block reaches it through `O` too, and holds that same unpack or
//! races as any access of `O` would.
//!
//! This module reads the IR and the library model only; it never creates labels.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::ir::ctypes::{StructId, Type, TypeId};
use crate::ir::visit::{walk_lval, walk_operand, walk_stmt, Visitor};
use crate::ir::{ArithOp, Base, Callee, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId};
use crate::model::Kind;

/// A class of pointer locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// The member at this index of every object of the struct type.
    Member(StructId, u32),
    /// The elements of every block a place of the class points to.
    Element(Box<Place>),
}

/// The owning place classes of a program (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct OwningPlaces {
    owning: FxHashSet<Place>,
    /// The functions that name each owning member (read it, store into it, or reach through
    /// it), in id order.
    users: FxHashMap<(StructId, u32), Vec<FuncId>>,
}

impl OwningPlaces {
    /// The owning classes of `p`.
    pub fn of(p: &Program, calls: &Calls) -> OwningPlaces {
        let copied = copied_structs(p, calls);
        let tallies = tally(p);
        let mut users = FxHashMap::default();
        let mut found: FxHashSet<Place> = tallies
            .into_iter()
            .filter(|(place, t)| {
                let (strukt, _) = root(place);
                t.pointer_stored
                    && !t.spoiled
                    && t.reads == t.allowed
                    && t.inner_addresses == t.excused
                    && !copied.contains(&strukt)
            })
            .map(|(place, t)| {
                if let Place::Member(s, i) = place {
                    users.insert((s, i), t.users);
                }
                place
            })
            .collect();
        // The elements of a block are reached only through it when the block is.
        let whole = found.clone();
        found.retain(|place| parents_owning(place, &whole));
        users.retain(|&(s, i), _| found.contains(&Place::Member(s, i)));
        OwningPlaces {
            owning: found,
            users,
        }
    }

    /// The functions that name the owning member `member`, in id order.
    pub fn users(&self, member: (StructId, u32)) -> &[FuncId] {
        self.users.get(&member).map_or(&[], Vec::as_slice)
    }

    /// The owning classes as the program names them, sorted: `S.f` for a member, `S.f[]` for
    /// the elements of the blocks it points to.
    pub fn names(&self, p: &Program) -> Vec<String> {
        fn name(p: &Program, place: &Place) -> String {
            match place {
                Place::Member(s, i) => {
                    let def = &p.types.structs[*s];
                    let field = def.fields.get(*i as usize).map_or("?", |f| f.name.as_str());
                    format!("{}.{field}", def.tag.as_deref().unwrap_or("<anonymous>"))
                }
                Place::Element(inner) => format!("{}[]", name(p, inner)),
            }
        }
        let mut out: Vec<String> = self.owning.iter().map(|c| name(p, c)).collect();
        out.sort();
        out
    }

    /// Whether `lv` is a member of a struct of an owning class (not an element of a block).
    pub fn owns(&self, lv: &Lval) -> bool {
        self.member(lv).is_some()
    }

    /// The owning member `lv` is, as its struct and field index.
    pub fn member(&self, lv: &Lval) -> Option<(StructId, u32)> {
        match place_of(lv)? {
            place @ Place::Member(s, i) if self.owning.contains(&place) => Some((s, i)),
            _ => None,
        }
    }

    /// The place an lvalue is reached through, when it lies in a block only an owning place
    /// points to: `*(e + k)…` or `*e…` where `e` reads a place of an owning class.
    pub fn holder<'l>(&self, lv: &'l Lval) -> Option<&'l Lval> {
        if self.owning.is_empty() {
            return None;
        }
        let inner = dereferenced(lv)?;
        self.owning.contains(&place_of(inner)?).then_some(inner)
    }
}

/// Whether every place a class's blocks are reached through is owning too.
fn parents_owning(place: &Place, owning: &FxHashSet<Place>) -> bool {
    match place {
        Place::Member(..) => true,
        Place::Element(inner) => owning.contains(inner) && parents_owning(inner, owning),
    }
}

/// The lvalue whose value `lv` dereferences: `*(e + k)…` or `*e…` (through conversions) for a
/// read `e` of it.
fn dereferenced(lv: &Lval) -> Option<&Lval> {
    let Base::Deref(op) = &lv.base else {
        return None;
    };
    deref_base(op)
}

/// The lvalue an address operand reads: `e` or `e + k` (through conversions).
fn deref_base(op: &Operand) -> Option<&Lval> {
    let base = match op.without_casts() {
        Operand::Arith(_, ArithOp::Add | ArithOp::Sub, ops) => ops.first()?.without_casts(),
        other => other,
    };
    match base {
        Operand::Use(inner) => Some(inner),
        _ => None,
    }
}

/// The class of a location: a member of a struct (the last step of the lvalue, not in a
/// union), or an element `*(e + k)` of a block a place of a class points to.
pub fn place_of(lv: &Lval) -> Option<Place> {
    match lv.proj.last() {
        Some(Proj::Field { strukt, index }) => Some(Place::Member(*strukt, *index)),
        Some(_) => None,
        None => Some(Place::Element(Box::new(place_of(dereferenced(lv)?)?))),
    }
}

/// The struct types some object of which may be copied whole or overlaid: assigned as a
/// struct, viewed through a pointer of another type, a union, or a struct of the library's,
/// with the struct types they contain. A pointer is viewed
/// so when converted, explicitly or by assignment, argument passing (to a library function, a
/// function through a pointer, or a parameter of another type: `memcpy(&copy, r, sizeof
/// copy)` takes `void *`) or return; only `free`'s argument is exempt.
fn copied_structs(p: &Program, calls: &Calls) -> FxHashSet<StructId> {
    let mut views = Views {
        p,
        found: FxHashSet::default(),
    };
    let uses = &calls.uses;
    for func in p.funcs.iter() {
        let returns = match p.types.get(func.ty) {
            Type::Function { ret, .. } => Some(*ret),
            _ => None,
        };
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                match &stmt.kind {
                    StmtKind::Assign { dst, src } => {
                        let ty = p.lval_type(dst);
                        if let Type::Struct(s) | Type::Union(s) = p.types.get(ty) {
                            views.found.insert(*s);
                        }
                        views.convert(p.operand_type(src), Some(ty));
                    }
                    StmtKind::Call { callee, args, .. } => {
                        // A thread's argument its routine only converts back is no view:
                        // neither passed nor converted.
                        let handed = handed_back(p, uses, callee, args);
                        views.pass(callee, args, handed);
                        if let Some(k) = handed {
                            let mut unconverted = stmt.kind.clone();
                            if let StmtKind::Call { args, .. } = &mut unconverted {
                                args[k] = args[k].without_casts().clone();
                            }
                            walk_stmt(&mut views, &unconverted);
                            continue;
                        }
                    }
                    _ => {}
                }
                walk_stmt(&mut views, &stmt.kind);
            }
            if let (crate::ir::Term::Return(Some(op), _), Some(ret)) = (&block.term, returns) {
                views.convert(p.operand_type(op), Some(ret));
            }
            crate::ir::visit::walk_term(&mut views, &block.term);
        }
    }
    // A union overlays its members, and code locksmith cannot see may copy the structs it
    // defines: as good as copied.
    for (s, def) in p.types.structs.iter_enumerated() {
        if def.kind == crate::ir::ctypes::StructKind::Union || def.system {
            views.found.insert(s);
        }
    }
    // A copy of a struct copies every struct it contains.
    let direct = views.found;
    let mut copied = direct.clone();
    let mut stack: Vec<StructId> = direct.into_iter().collect();
    while let Some(s) = stack.pop() {
        for field in &p.types.structs[s].fields {
            let mut t = field.ty;
            while let Type::Array(e) = p.types.get(t) {
                t = *e;
            }
            if let Type::Struct(inner) | Type::Union(inner) = p.types.get(t) {
                if copied.insert(*inner) {
                    stack.push(*inner);
                }
            }
        }
    }
    copied
}

/// The index of the argument of a thread create (`pthread_create(&t, NULL, run, &stash)`) that
/// hands the routine a pointer to a struct which the routine only converts back to that type
/// (by an explicit conversion, or by assigning its parameter to a variable of that type). The
/// routine must be a function of the program that is only ever used as the start routine of
/// direct creates, each handing it a pointer of that one type. The struct is then seen only as
/// itself, and every further conversion is found where it is made.
fn handed_back(
    p: &Program,
    uses: &super::super::function_uses::FunctionUses,
    callee: &Callee,
    args: &[Operand],
) -> Option<usize> {
    let Callee::Direct(g) = callee else {
        return None;
    };
    let Some(Kind::Fork {
        func,
        arg: Some(arg),
        ..
    }) = p.known_kind(*g)
    else {
        return None;
    };
    let Operand::Func(routine) = args.get(usize::from(func))?.without_casts() else {
        return None;
    };
    let handed = args.get(usize::from(arg))?;
    let ty = p.operand_type(handed.without_casts());
    let Type::Pointer(e) = p.types.get(ty) else {
        return None;
    };
    if !matches!(p.types.get(*e), Type::Struct(_)) {
        return None;
    }
    let r = &p.funcs[*routine];
    let param = *r.params.first()?;
    let one_type = (uses.forks.get(routine)).is_some_and(|forks| {
        forks
            .iter()
            .all(|(.., op)| p.operand_type(op.without_casts()) == ty)
    });
    if !r.defined || p.vars[param].address_taken || uses.other_use.contains(routine) || !one_type {
        return None;
    }
    let mut uses = BackConversions {
        param,
        ty,
        other: false,
    };
    for stmt in r.blocks.iter().flat_map(|b| &b.stmts) {
        match &stmt.kind {
            StmtKind::Assign { dst, src }
                if src.plain_var() == Some(param) && matches!(src, Operand::Use(_)) =>
            {
                if p.lval_type(dst) != ty || dst.plain_var() == Some(param) {
                    uses.other = true;
                }
                walk_lval(&mut uses, dst);
            }
            kind => walk_stmt(&mut uses, kind),
        }
    }
    for block in r.blocks.iter() {
        crate::ir::visit::walk_term(&mut uses, &block.term);
    }
    (!uses.other).then_some(usize::from(arg))
}

/// Whether a routine's parameter is read otherwise than converted back to `ty`.
struct BackConversions {
    param: VarId,
    ty: TypeId,
    other: bool,
}

impl Visitor for BackConversions {
    fn visit_operand(&mut self, op: &Operand) {
        match op {
            Operand::Cast(to, inner) if inner.plain_var() == Some(self.param) => {
                if *to != self.ty || !matches!(**inner, Operand::Use(_)) {
                    self.other = true;
                }
            }
            Operand::Use(lv) | Operand::AddrOf(lv) if lv.plain_var() == Some(self.param) => {
                self.other = true;
            }
            _ => walk_operand(self, op),
        }
    }
}

/// The struct types a pointer to which is converted to another type.
struct Views<'a> {
    p: &'a Program,
    found: FxHashSet<StructId>,
}

impl Views<'_> {
    /// A value of type `from` converted to `to` (to anything, for `None`).
    fn convert(&mut self, from: TypeId, to: Option<TypeId>) {
        if to == Some(from) {
            return;
        }
        if let Type::Pointer(e) = self.p.types.get(from) {
            if let Type::Struct(s) | Type::Union(s) = self.p.types.get(*e) {
                self.found.insert(*s);
            }
        }
    }

    /// The arguments of a call but the one at `skip`: converted to the parameter types of a
    /// function of the program, to anything by a library function or a call through a pointer,
    /// but `free`'s.
    fn pass(&mut self, callee: &Callee, args: &[Operand], skip: Option<usize>) {
        let params = match callee {
            Callee::Direct(g) if matches!(self.p.known_kind(*g), Some(Kind::Free { .. })) => {
                return;
            }
            Callee::Direct(g) if self.p.funcs[*g].defined && self.p.known(*g).is_none() => {
                match self.p.types.get(self.p.funcs[*g].ty) {
                    Type::Function { params, .. } => params.clone(),
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        for (i, a) in args.iter().enumerate().filter(|&(i, _)| Some(i) != skip) {
            let from = self.p.operand_type(a);
            // Unknown code, or a variadic argument, may view it as anything.
            self.convert(from, params.get(i).copied());
        }
    }
}

impl Visitor for Views<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::Cast(to, inner) = op {
            self.convert(self.p.operand_type(inner), Some(*to));
        }
        walk_operand(self, op);
    }
}

/// The operand inside its conversions.
fn strip(op: &Operand) -> &Operand {
    op.without_casts()
}

/// The struct at the root of a class, whose objects hold its places.
fn root(place: &Place) -> (StructId, u32) {
    match place {
        Place::Member(s, i) => (*s, *i),
        Place::Element(inner) => root(inner),
    }
}

/// What one walk of the program saw of a place class: how often its places are read, how
/// many of those reads only dereference, compare or free, and whether anything else made its
/// blocks reachable another way (a store of no fresh block, an address taken).
#[derive(Default)]
struct Tally {
    reads: usize,
    allowed: usize,
    spoiled: bool,
    /// Whether the program stores a pointer into a place of the class: only such a class
    /// holds blocks.
    pointer_stored: bool,
    /// How often an address inside a block of the class is taken (`&O->f->mu`), and how many
    /// of those are handed straight to a function that keeps no copy, where the address holds
    /// no pointer (`pthread_mutex_lock(&O->f->mu)`).
    inner_addresses: usize,
    excused: usize,
    /// The functions that name a place of the class, in id order.
    users: Vec<FuncId>,
}

/// The tallies of every place class, in one walk of the program (see the module doc).
fn tally(p: &Program) -> FxHashMap<Place, Tally> {
    let mut t = Tallies {
        p,
        by_place: FxHashMap::default(),
        constructors: std::cell::RefCell::new(FxHashMap::default()),
        current: FuncId(0),
    };
    for (f, func) in p.funcs.iter_enumerated() {
        t.current = f;
        let reads = local_reads(func);
        for block in func.blocks.iter() {
            for stmt in &block.stmts {
                t.store(f, &reads, &stmt.kind);
                t.count_call(&stmt.kind);
                walk_stmt(&mut t, &stmt.kind);
            }
            // A branch on the place itself only tests it.
            if let crate::ir::Term::Branch { cond, .. } = &block.term {
                if let Some(place) = read_place(cond) {
                    t.entry(place).allowed += 1;
                }
            }
            crate::ir::visit::walk_term(&mut t, &block.term);
        }
    }
    t.by_place
}

/// The place class a read names: `e` (through conversions) for an lvalue `e` of one.
fn read_place(op: &Operand) -> Option<Place> {
    match strip(op) {
        Operand::Use(lv) => place_of(lv),
        _ => None,
    }
}

/// How many times each variable of a function is read or addressed by name.
fn local_reads(func: &crate::ir::Func) -> FxHashMap<VarId, usize> {
    struct Reads(FxHashMap<VarId, usize>);
    impl Visitor for Reads {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::Use(lv) | Operand::AddrOf(lv) = op {
                if let Base::Var(v) = lv.base {
                    *self.0.entry(v).or_default() += 1;
                }
            }
            walk_operand(self, op);
        }
    }
    let mut r = Reads(FxHashMap::default());
    for block in func.blocks.iter() {
        for stmt in &block.stmts {
            walk_stmt(&mut r, &stmt.kind);
        }
        crate::ir::visit::walk_term(&mut r, &block.term);
    }
    r.0
}

/// The walk that fills the tallies.
struct Tallies<'a> {
    p: &'a Program,
    by_place: FxHashMap<Place, Tally>,
    /// Whether each function asked about is a constructor ([`constructor`]).
    constructors: std::cell::RefCell<FxHashMap<FuncId, bool>>,
    /// The function whose statements are walked.
    current: FuncId,
}

impl Tallies<'_> {
    fn entry(&mut self, place: Place) -> &mut Tally {
        let t = self.by_place.entry(place).or_default();
        if t.users.last() != Some(&self.current) {
            t.users.push(self.current);
        }
        t
    }

    /// A store into a place of a class spoils it unless it stores null or a fresh block.
    fn store(&mut self, f: FuncId, reads: &FxHashMap<VarId, usize>, kind: &StmtKind) {
        let p = self.p;
        if let StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } = kind {
            if let Some(place) = place_of(dst) {
                if matches!(p.types.get(p.lval_type(dst)), Type::Pointer(_)) {
                    self.entry(place).pointer_stored = true;
                }
            }
        }
        match kind {
            StmtKind::Assign { dst, src } => {
                if let Some(place) = place_of(dst) {
                    let fresh = |c: &Callee| self.allocates(c);
                    if src.constant() != Some(0) && !fresh_local(p, f, reads, src, fresh) {
                        self.entry(place).spoiled = true;
                    }
                }
            }
            StmtKind::Call {
                dst: Some(dst),
                callee,
                ..
            } => {
                if let Some(place) = place_of(dst) {
                    if !self.allocates(callee) {
                        self.entry(place).spoiled = true;
                    }
                }
            }
            StmtKind::Asm { operands } => {
                for place in operands.iter().filter_map(place_of) {
                    self.entry(place).spoiled = true;
                }
            }
            _ => {}
        }
    }

    /// Whether a call returns a fresh block (never one it was given): an allocation, or a
    /// constructor's.
    fn allocates(&self, callee: &Callee) -> bool {
        let p = self.p;
        allocates(p, callee)
            || matches!(callee, Callee::Direct(g) if *self.constructors.borrow_mut()
                .entry(*g)
                .or_insert_with(|| constructor(p, *g)))
    }

    /// The reads handed to a call that allow it: `free`'s block, or a plain block handed to a
    /// function that keeps no pointer; and the addresses inside blocks such a function is
    /// handed, where they hold no pointer.
    fn count_call(&mut self, kind: &StmtKind) {
        let p = self.p;
        let StmtKind::Call {
            callee: Callee::Direct(g),
            args,
            dst,
        } = kind
        else {
            return;
        };
        let frees = matches!(p.known_kind(*g), Some(Kind::Free { .. }));
        // Its result may be the block again (`strcpy` returns its destination) only when it is
        // a pointer.
        let returns_pointer = dst
            .as_ref()
            .is_some_and(|d| matches!(p.types.get(p.lval_type(d)), Type::Pointer(_)));
        let keeps_none = p.keeps_no_argument(*g)
            && !returns_pointer
            && !matches!(p.known_kind(*g), Some(Kind::ReturnsArg { .. }));
        for a in args {
            if let Operand::AddrOf(inside) = strip(a) {
                let plain = holds_no_pointer(p, p.lval_type(inside), &mut Vec::new());
                if let Some(place) = dereferenced(inside).and_then(place_of) {
                    if keeps_none && plain {
                        self.entry(place).excused += 1;
                    }
                }
                continue;
            }
            let Operand::Use(lv) = strip(a) else { continue };
            let Some(place) = place_of(lv) else { continue };
            let plain = matches!(p.types.get(p.lval_type(lv)),
                Type::Pointer(e) if holds_no_pointer(p, *e, &mut Vec::new()));
            if frees || (keeps_none && plain) {
                self.entry(place).allowed += 1;
            }
        }
    }
}

impl Visitor for Tallies<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        match op {
            Operand::Use(lv) => {
                if let Some(place) = place_of(lv) {
                    self.entry(place).reads += 1;
                }
            }
            // The place's own address, or an address inside the block it holds (`&O->f[k]`).
            Operand::AddrOf(lv) => {
                if let Some(place) = place_of(lv) {
                    self.entry(place).spoiled = true;
                }
                if let Some(place) = dereferenced(lv).and_then(place_of) {
                    self.entry(place).inner_addresses += 1;
                }
            }
            Operand::Arith(_, ArithOp::Compare(_) | ArithOp::Not, ops) => {
                for place in ops.iter().filter_map(read_place) {
                    self.entry(place).allowed += 1;
                }
            }
            _ => {}
        }
        walk_operand(self, op);
    }

    fn visit_lval(&mut self, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            if let Some(place) = deref_base(op).and_then(place_of) {
                self.entry(place).allowed += 1;
            }
        }
        crate::ir::visit::walk_lval(self, lv);
    }
}

/// Whether a value of type `ty` holds no pointer, at any depth: scalars, locks, condition
/// variables, and structs (not unions, whose members overlay) and arrays of them. `seen` holds
/// the structs on the way (a struct cannot contain itself but through a pointer).
fn holds_no_pointer(p: &Program, ty: TypeId, seen: &mut Vec<StructId>) -> bool {
    match p.types.get(ty) {
        Type::Char | Type::Int | Type::Float | Type::Lock(_) | Type::Cond => true,
        Type::Array(e) => holds_no_pointer(p, *e, seen),
        Type::Struct(s) if !seen.contains(s) => {
            let def = &p.types.structs[*s];
            seen.push(*s);
            let plain = def.kind == crate::ir::ctypes::StructKind::Struct
                && !def.system
                && def.fields.iter().all(|f| holds_no_pointer(p, f.ty, seen));
            seen.pop();
            plain
        }
        _ => false,
    }
}

/// Whether `g` is a *constructor*: a function of the program each of whose returns returns
/// null or a block fresh and unpublished at that point, one of them a block
/// (`lists::returns_owned` on its [`crate::analyses::uniqueness`]): it allocated the block
/// and only initialised it, handing it at most to functions that keep no copy
/// (`pthread_mutex_init(&g->mu, NULL)`). Only its direct calls are asked about.
fn constructor(p: &Program, g: FuncId) -> bool {
    let func = &p.funcs[g];
    func.defined
        && p.known(g).is_none()
        && super::lists::may_return_owned(p, func)
        && super::lists::returns_owned(p, func, &crate::analyses::uniqueness::analyse(p, g))
}

/// Whether a call returns a fresh block (never one it was given).
fn allocates(p: &Program, callee: &Callee) -> bool {
    match callee {
        Callee::Direct(g) => p.is_alloc_wrapper(*g) || p.known(*g).is_some_and(|s| s.fresh_result),
        Callee::Indirect(_) => false,
    }
}

/// Whether `op` (through conversions) reads a local of `f` that holds a fresh block and is read
/// nowhere else (`reads` counts the reads of `f`'s variables): assigned once, by an allocation
/// or by a copy of such a local.
fn fresh_local(
    p: &Program,
    f: FuncId,
    reads: &FxHashMap<VarId, usize>,
    op: &Operand,
    allocates: impl Fn(&Callee) -> bool,
) -> bool {
    let mut current = op;
    // A chain of copies is as long as the function's statements at most.
    for _ in 0..=p.funcs[f]
        .blocks
        .iter()
        .map(|b| b.stmts.len())
        .sum::<usize>()
    {
        let Some(t) = current
            .plain_var()
            .filter(|&t| super::stable_local(p, f, t))
        else {
            return false;
        };
        if reads.get(&t) != Some(&1) {
            return false;
        }
        let &[(b, k)] = super::program::assigned_in(p, f, t).as_slice() else {
            return false;
        };
        match &p.funcs[f].blocks[b].stmts[k].kind {
            StmtKind::Call { callee, .. } => return allocates(callee),
            StmtKind::Assign { src, .. } => current = src,
            _ => return false,
        }
    }
    false
}
