//! The types a `void*` is viewed at (paper §3.4, "Analysis of void*"): the keys of the typed
//! entries [`crate::constraints::ltypes::Shape::Void`] keeps for the memory a `void*` points to, and which of
//! them may overlap.
//!
//! LOCKSMITH keeps, for each `void*`, the set of non-`void` types cast to or from it and unifies
//! casts at the same type with the matching entry; it admits this is unsound for up- and
//! downcasts of structs. We keep the set but conflate two entries whenever C lets an object of
//! one be accessed as the other (C11 6.5p7 and 6.7.2.1p15): a character type views the bytes of
//! anything, and a struct or union overlaps whatever its first member (every member, for a
//! union) overlaps, recursively. Entries left apart are types a program cannot access as each
//! other without undefined behaviour, so the model is sound for programs whose `void*` casts
//! respect C's effective types.
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

/// Every key that memory of class `key` may also be accessed as at its start: the key itself
/// and, for a struct, the keys of its first member; for a union, of all its members.
pub fn prefix(types: &TypeTable, key: ViewKey) -> Vec<ViewKey> {
    let mut out = Vec::new();
    let mut stack = vec![(key, 0u32)];
    while let Some((k, depth)) = stack.pop() {
        if out.contains(&k) {
            continue;
        }
        out.push(k);
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
                stack.push((m, depth + 1));
            }
        }
    }
    out.sort();
    out
}

/// Whether memory viewed at `a` may also be accessed at `b` without undefined behaviour, so that
/// the two entries of a `void*` content must be one.
pub fn overlap(types: &TypeTable, a: ViewKey, b: ViewKey) -> bool {
    if a == b || a == ViewKey::Char || b == ViewKey::Char {
        return true;
    }
    let pa = prefix(types, a);
    prefix(types, b).iter().any(|k| pa.binary_search(k).is_ok())
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
        assert!(overlap(&t, ViewKey::Char, c), "bytes of anything");
        assert!(overlap(&t, l, ViewKey::Char));
        assert!(!overlap(&t, ViewKey::Ptr, c));
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
