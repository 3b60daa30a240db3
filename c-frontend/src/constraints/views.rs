//! The types a `void*` is viewed at (paper §3.4, "Analysis of void*"): the keys of the typed
//! entries [`crate::constraints::ltypes::Shape::Void`] keeps for the memory a `void*` points to, and which of
//! them may overlap.
//!
//! LOCKSMITH keeps, for each `void*`, the set of non-`void` types cast to or from it and unifies
//! casts at the same type with the matching entry; it admits this is unsound for up- and
//! downcasts of structs. We keep the set but conflate two entries whenever C lets an object of
//! one be accessed as the other (C11 6.5p7 and 6.7.2.1p15): a struct or union overlaps whatever
//! its first member (every member, for a union) overlaps, recursively. Two pointer members
//! overlap only when they may point to one type: a `void *` or `char *` member, or a pointer to
//! an incomplete type, meets every pointer. Two different structs whose first members meet
//! share only their common initial members ([`Overlap::Prefix`]); any other overlap is one
//! node ([`Overlap::Whole`]). Entries and members left apart are types a program cannot
//! access as each other without undefined behaviour, so the model is sound for programs whose
//! `void*` casts respect C's effective types. A character type may view the bytes of anything;
//! it is the one exception, an entry apart whose memory the analysis makes one location with
//! the other entries' instead (`LTypes::settle_byte_views`).
//!
//! This module owns only the type-level questions; it never touches labels or nodes.

use crate::ir::ctypes::{StructId, Type, TypeId, TypeTable};

/// A class of C types that one entry of a `void*` content stands for. Integer widths are not
/// told apart (they carry no labels); pointers are one class, so two pointer views of one
/// `void*` unify their targets as any pointer assignment would.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ViewKey {
    /// A character type: may access the bytes of any object.
    Char,
    Int,
    Float,
    /// Any data pointer.
    Ptr,
    /// A function pointer.
    Fun,
    /// A POSIX lock object.
    Lock,
    Struct(StructId),
    Union(StructId),
}

/// How deep [`prefix`] follows first members (C types cannot nest by value without bound, but
/// incomplete or malformed definitions must not loop).
const MAX_NESTING: u32 = 16;

/// The key of memory of type `ty` seen through a `ty*`, or `None` for `void` and for function
/// types (a function pointer is not a pointer to data).
pub fn key_of_type(types: &TypeTable, ty: TypeId) -> Option<ViewKey> {
    Some(match types.get(ty) {
        Type::Void | Type::Function { .. } => return None,
        Type::Char => ViewKey::Char,
        Type::Int | Type::Cond => ViewKey::Int,
        Type::Float => ViewKey::Float,
        Type::Pointer(to) if matches!(types.get(*to), Type::Function { .. }) => ViewKey::Fun,
        Type::Pointer(_) => ViewKey::Ptr,
        Type::Array(elem) => return key_of_type(types, *elem),
        Type::Struct(sid) => ViewKey::Struct(*sid),
        Type::Union(sid) => ViewKey::Union(*sid),
        Type::Lock(_) => ViewKey::Lock,
    })
}

/// Every key that memory of class `key` may also be accessed as at its start — the key itself
/// and, for a struct, the keys of its first member; for a union, of all its members — with the
/// C type of each member it passes through (`None` for `key` itself, whose type a class does
/// not say).
fn prefix_types(types: &TypeTable, key: ViewKey) -> Vec<(ViewKey, Option<TypeId>)> {
    let mut out: Vec<(ViewKey, Option<TypeId>)> = Vec::new();
    let mut stack = vec![(key, None, 0u32)];
    while let Some((k, ty, depth)) = stack.pop() {
        if out.contains(&(k, ty)) {
            continue;
        }
        out.push((k, ty));
        if depth >= MAX_NESTING {
            continue;
        }
        let members: &[_] = match k {
            ViewKey::Struct(sid) => {
                let fields = &types.structs[sid].fields;
                &fields[..fields.len().min(1)]
            }
            ViewKey::Union(sid) => &types.structs[sid].fields,
            _ => &[],
        };
        for f in members {
            if let Some(m) = key_of_type(types, f.ty) {
                stack.push((m, Some(f.ty), depth + 1));
            }
        }
    }
    out
}

/// Whether memory viewed at `a` may also be accessed at `b` without undefined behaviour, so that
/// the two entries of a `void*` content must be one node. A character view may access the bytes
/// of anything, but it is never one node with another view: bytes carry no labels, so what the
/// two must share is the location, not the node (`LTypes::blob_ties`).
///
/// Two views meeting at a pointer member (a struct whose first member is a pointer, and another
/// such struct or a pointer view) overlap only when the two pointers may point to the same
/// type ([`pointers_may_alias`]): a `struct list` beginning with a `listNode *` and a `struct
/// dict` beginning with a `dictType *` cannot be read as each other without reading a pointer
/// through an incompatible type (C11 6.5p7), while a generic `void *` or `char *` member, or a
/// view that is just "a pointer", still meets every pointer.
pub fn overlap(types: &TypeTable, a: ViewKey, b: ViewKey) -> bool {
    if a == b {
        return true;
    }
    if a == ViewKey::Char || b == ViewKey::Char {
        // The bytes of memory are an entry apart from the views that hold labels: the
        // analysis makes them one location with every other entry's
        // (`LTypes::settle_byte_views`) instead of one node, which made every view one blob.
        // Numbers hold no labels either, and a bare number shape may be either.
        return matches!(
            (a, b),
            (ViewKey::Char, ViewKey::Int | ViewKey::Float)
                | (ViewKey::Int | ViewKey::Float, ViewKey::Char)
        );
    }
    let pa = prefix_types(types, a);
    let pb = prefix_types(types, b);
    pa.iter().any(|&(ka, ta)| {
        pb.iter().any(|&(kb, tb)| {
            ka == kb
                && (ka != ViewKey::Ptr
                    || match (ta, tb) {
                        (Some(ta), Some(tb)) => pointers_may_alias(types, ta, tb),
                        _ => true,
                    })
        })
    })
}

/// How two entries of one `void*` content that [`overlap`] are made one: two different structs
/// whose first members are of one class share their *common initial sequence* only, every
/// other pair of overlapping views is one node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// Neither may be accessed as the other: each entry keeps its own node.
    Apart,
    /// Two structs whose first `n` members are pairwise of one class (C11 6.5.2.3p6, and 6.5p7
    /// for the rest): each of those members is one location and one content in both, and each
    /// struct keeps its own members after them. A `struct job { long id; void (*run)(void); }`
    /// and a `struct conn { long id; int fd; }` behind one `void *` share `id` alone: reading
    /// one's `fd` where the other's `run` is would read an object through an incompatible type.
    Prefix(u32),
    /// Anything else that overlaps (one view a member of the other, a union, a scalar and a
    /// struct beginning with it): one node.
    Whole,
}

/// [`overlap`], and how the two views meet when they do.
pub fn overlap_kind(types: &TypeTable, a: ViewKey, b: ViewKey) -> Overlap {
    if !overlap(types, a, b) {
        return Overlap::Apart;
    }
    match (a, b) {
        (ViewKey::Struct(x), ViewKey::Struct(y)) if x != y => {
            match common_initial_members(types, x, y) {
                None | Some(0) => Overlap::Whole,
                Some(n) => Overlap::Prefix(n),
            }
        }
        _ => Overlap::Whole,
    }
}

/// How many leading members structs `x` and `y` have pairwise of one class: the same key, and
/// for pointers, targets that may be one type ([`pointers_may_alias`]). Integers of any width
/// are one class, as everywhere in this module, so the sequence may be longer than C's, never
/// shorter: members of one type are of one class, and pair by position as they do by offset.
/// An array (of any length: the IR does not keep it) ends the sequence after its pair, as the
/// offsets after it may differ; a scalar and an array of it pair as the scalar and the array's
/// first element do. 0 when the first members differ (a struct whose first member is the
/// other struct, or begins as it does): such views are one node. `None` when the two part at
/// a character member: bytes where the other has something else (the `sa_data` of a `struct
/// sockaddr`, through which a library fills a `struct sockaddr_in`) may read and write the
/// rest of the other, so the views are one node too.
fn common_initial_members(types: &TypeTable, x: StructId, y: StructId) -> Option<u32> {
    let (fx, fy) = (&types.structs[x].fields, &types.structs[y].fields);
    let mut n = 0;
    for (a, b) in fx.iter().zip(fy) {
        let (Some(ka), Some(kb)) = (key_of_type(types, a.ty), key_of_type(types, b.ty)) else {
            break;
        };
        if ka != kb && (ka == ViewKey::Char || kb == ViewKey::Char) {
            return None;
        }
        if ka != kb || (ka == ViewKey::Ptr && !pointers_may_alias(types, a.ty, b.ty)) {
            break;
        }
        n += 1;
        let is_array = |ty| matches!(types.get(ty), Type::Array(_));
        if is_array(a.ty) || is_array(b.ty) {
            break;
        }
    }
    Some(n)
}

/// Whether two pointer types (or arrays, which decay to them) may point to one object seen at
/// both: the same pointee, a pointee that views anything (`void`, a character type), a pointee
/// no definition describes, or pointers to pointers that may alias in turn.
fn pointers_may_alias(types: &TypeTable, a: TypeId, b: TypeId) -> bool {
    let (Some(pa), Some(pb)) = (types.pointee(a), types.pointee(b)) else {
        return true;
    };
    let complete = |sid: &StructId| types.structs[*sid].complete;
    match (types.get(pa), types.get(pb)) {
        (Type::Void | Type::Char, _) | (_, Type::Void | Type::Char) => true,
        (Type::Struct(x), Type::Struct(y)) | (Type::Union(x), Type::Union(y)) => {
            x == y || !complete(x) || !complete(y)
        }
        (Type::Struct(x) | Type::Union(x), _) | (_, Type::Struct(x) | Type::Union(x)) => {
            !complete(x)
        }
        (Type::Pointer(_) | Type::Array(_), Type::Pointer(_) | Type::Array(_)) => {
            pointers_may_alias(types, pa, pb)
        }
        // Numbers of any width are one class; two function types (no key) meet too.
        _ => key_of_type(types, pa) == key_of_type(types, pb),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ctypes::{Field, StructKind};

    fn with_struct(t: &mut TypeTable, tag: &str, fields: &[TypeId]) -> StructId {
        let sid = t.struct_named(StructKind::Struct, tag);
        t.structs[sid].fields = fields
            .iter()
            .enumerate()
            .map(|(i, &ty)| Field {
                name: format!("f{i}"),
                ty,
                atomic: false,
            })
            .collect();
        t.structs[sid].complete = true;
        sid
    }

    #[test]
    fn unrelated_structs_stay_apart_and_prefixes_overlap() {
        let mut t = TypeTable::new();
        let int = t.int();
        let char = t.intern(Type::Char);
        let chars = t.intern(Type::Array(char));
        let counter = with_struct(&mut t, "counter", &[int]);
        let label = with_struct(&mut t, "label", &[chars, int]);
        let counter_ty = t.struct_type(counter);
        let derived = with_struct(&mut t, "derived", &[counter_ty, int]);
        let (c, l, d) = (
            ViewKey::Struct(counter),
            ViewKey::Struct(label),
            ViewKey::Struct(derived),
        );
        assert!(!overlap(&t, c, l), "a long-first and a char-first struct");
        assert!(overlap(&t, c, d), "a struct and one embedding it first");
        assert!(
            overlap(&t, d, ViewKey::Int),
            "a struct and its first member's type"
        );
        assert!(
            !overlap(&t, l, ViewKey::Int),
            "the second member is not at the start"
        );
        assert!(
            !overlap(&t, ViewKey::Char, c),
            "bytes are an entry of their own, tied by location, not by node"
        );
        assert!(!overlap(&t, l, ViewKey::Char), "even a char-first struct");
        assert!(overlap(&t, ViewKey::Char, ViewKey::Char));
        assert!(
            overlap(&t, ViewKey::Char, ViewKey::Float),
            "numbers hold no labels"
        );
        assert!(!overlap(&t, ViewKey::Ptr, c));
    }

    #[test]
    fn pointer_first_members_overlap_only_where_their_targets_may() {
        let mut t = TypeTable::new();
        let int = t.int();
        let void = t.intern(Type::Void);
        let void_ptr = t.pointer(void);
        let node = with_struct(&mut t, "node", &[]);
        let node_ty = t.struct_type(node);
        let node_ptr = t.pointer(node_ty);
        let kind = with_struct(&mut t, "kind", &[int]);
        let kind_ty = t.struct_type(kind);
        let kind_ptr = t.pointer(kind_ty);
        let list = with_struct(&mut t, "list", &[node_ptr, int]);
        let dict = with_struct(&mut t, "dict", &[kind_ptr, int]);
        let header = with_struct(&mut t, "header", &[void_ptr]);
        let chain = with_struct(&mut t, "chain", &[node_ptr]);
        let opaque = t.struct_named(StructKind::Struct, "opaque");
        let opaque_ty = t.struct_type(opaque);
        let opaque_ptr = t.pointer(opaque_ty);
        let handle = with_struct(&mut t, "handle", &[opaque_ptr]);
        let (l, d) = (ViewKey::Struct(list), ViewKey::Struct(dict));
        assert!(!overlap(&t, l, d), "a node* first and a kind* first");
        assert!(
            overlap(&t, l, ViewKey::Struct(chain)),
            "both begin with a node*"
        );
        assert!(
            overlap(&t, ViewKey::Struct(header), l),
            "a void* first meets any"
        );
        assert!(overlap(&t, ViewKey::Struct(header), d));
        assert!(
            overlap(&t, ViewKey::Ptr, d),
            "a bare pointer view meets any"
        );
        assert!(
            overlap(&t, ViewKey::Struct(handle), d),
            "a pointer to an incomplete type may point anywhere"
        );
    }

    #[test]
    fn structs_with_common_initial_members_share_only_those() {
        let mut t = TypeTable::new();
        let int = t.int();
        let char = t.intern(Type::Char);
        let chars = t.intern(Type::Array(char));
        let ints = t.intern(Type::Array(int));
        let float = t.intern(Type::Float);
        let void = t.intern(Type::Void);
        let void_ptr = t.pointer(void);
        let job = with_struct(&mut t, "job", &[int, int, void_ptr, int]);
        let probe = with_struct(&mut t, "probe", &[int, int, float]);
        let stamps = with_struct(&mut t, "stamps", &[ints, int]);
        let pair = with_struct(&mut t, "pair", &[int, int]);
        let any = with_struct(&mut t, "any", &[int, chars]);
        let inet = with_struct(&mut t, "inet", &[int, int, int]);
        let job_ty = t.struct_type(job);
        let derived = with_struct(&mut t, "derived", &[job_ty, float]);
        let key = ViewKey::Struct;
        assert_eq!(
            overlap_kind(&t, key(job), key(probe)),
            Overlap::Prefix(2),
            "two integers in common, then a pointer against a float"
        );
        assert_eq!(overlap_kind(&t, key(probe), key(job)), Overlap::Prefix(2));
        assert_eq!(
            overlap_kind(&t, key(stamps), key(pair)),
            Overlap::Prefix(1),
            "an array ends the sequence after its pair"
        );
        assert_eq!(
            overlap_kind(&t, key(any), key(inet)),
            Overlap::Whole,
            "bytes where the other has a number may view the rest of it"
        );
        assert_eq!(
            overlap_kind(&t, key(derived), key(job)),
            Overlap::Whole,
            "a struct beginning with the other is one node with it"
        );
        assert_eq!(overlap_kind(&t, key(job), ViewKey::Int), Overlap::Whole);
        assert_eq!(overlap_kind(&t, key(job), key(job)), Overlap::Whole);
        assert_eq!(overlap_kind(&t, key(job), ViewKey::Ptr), Overlap::Apart);
    }

    #[test]
    fn unions_overlap_every_member() {
        let mut t = TypeTable::new();
        let int = t.int();
        let float = t.intern(Type::Float);
        let sid = t.struct_named(StructKind::Union, "u");
        t.structs[sid].fields = vec![
            Field {
                name: "i".into(),
                ty: int,
                atomic: false,
            },
            Field {
                name: "d".into(),
                ty: float,
                atomic: false,
            },
        ];
        let u = ViewKey::Union(sid);
        assert!(overlap(&t, u, ViewKey::Int));
        assert!(overlap(&t, u, ViewKey::Float));
        assert!(!overlap(&t, u, ViewKey::Ptr));
    }
}
