//! Struct and union types that are one type under two names.
//!
//! C11 6.2.7 makes two struct types of different translation units compatible when their tags
//! and members agree. Tools that merge a program into one file (CIL, as the merged real programs
//! are) rename the tags of the copies (`fd_set___0`), and a program may convert between two
//! declarations of one layout; the analysis would then conflate the two shapes into one blob
//! (and every object reaching it). Here the members decide, not the tag: complete structs (or
//! unions) whose members have the same names and compatible types, recursively, are one type,
//! named after the first.
//!
//! A member named `__x` is the member `x`: system headers name members by the feature macros in
//! force (glibc's `struct tm` has `tm_zone` under `_DEFAULT_SOURCE` and `__tm_zone` when a
//! program defines `_POSIX_C_SOURCE`; `fd_set` has `fds_bits` or `__fds_bits`), so a program
//! built in a strict mode and the library stubs (built with the GNU extensions) declare one
//! type under two sets of names. Without this, every object handed to such a stub became one
//! blob with the stub's static storage, and stack locals looked shared.
//!
//! Merging is sound: it never merges two objects, only lets a value converted between the two
//! names keep its fields apart, which their identical layout guarantees. Incomplete types and
//! structs whose members differ in any name (but that prefix) or type stay apart.
//!
//! This pass rewrites the finished [`Program`] before constraint generation; it never looks at
//! statements except to rename the struct of a member access.

use std::collections::BTreeMap;

use solver::ids::{Idx, IndexVec};

use super::ctypes::{StructId, StructKind, Type, TypeId, TypeTable};
use super::visit::{stmt_lvals_mut, term_lvals_mut};
use super::{LoopBound, Lval, Program, Proj};

/// The class of each struct: the struct it is one type with whose members have the fewest
/// reserved names (`__x`), the smallest id of those.
pub fn compatible_classes(types: &TypeTable) -> IndexVec<StructId, StructId> {
    // Start from what needs no recursion: kind, completeness and member names. An incomplete
    // struct is a class of its own.
    let mut class: Vec<usize> = {
        let keys: Vec<(bool, bool, Vec<&str>, usize)> = types
            .structs
            .iter_enumerated()
            .map(|(s, d)| {
                let names = d.fields.iter().map(|f| member_name(&f.name)).collect();
                let own = if d.complete { 0 } else { s.index() + 1 };
                (d.complete, d.kind == StructKind::Union, names, own)
            })
            .collect();
        number(&keys)
    };
    // Refine by the members' types, seen through the current classes, until stable (the
    // coarsest partition in which members of one class have types of one class).
    loop {
        let keys: Vec<(usize, Vec<String>)> = types
            .structs
            .iter()
            .enumerate()
            .map(|(s, d)| {
                let sigs = d
                    .fields
                    .iter()
                    .map(|f| signature(types, f.ty, &class, 0))
                    .collect();
                (class[s], sigs)
            })
            .collect();
        let refined = number(&keys);
        let before = class
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let after = refined
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        class = refined;
        if after == before {
            break;
        }
    }
    // Each class is named after its member with the fewest reserved names (the program's own
    // `next` rather than a header's `__next`), the first of those.
    let mut named: BTreeMap<usize, (usize, StructId)> = BTreeMap::new();
    for (s, &k) in class.iter().enumerate() {
        let id = StructId::new(s);
        let reserved = types.structs[id]
            .fields
            .iter()
            .filter(|f| member_name(&f.name) != f.name)
            .count();
        let best = named.entry(k).or_insert((reserved, id));
        if reserved < best.0 {
            *best = (reserved, id);
        }
    }
    class.iter().map(|k| named[k].1).collect()
}

/// A member's name as the comparison sees it: without the `__` that reserved-name variants of
/// system headers put before it.
fn member_name(name: &str) -> &str {
    name.strip_prefix("__")
        .filter(|rest| !rest.is_empty())
        .unwrap_or(name)
}

/// Numbers distinct keys in order of first appearance.
fn number<K: Ord + Clone>(keys: &[K]) -> Vec<usize> {
    let mut ids: BTreeMap<K, usize> = BTreeMap::new();
    keys.iter()
        .map(|k| {
            let next = ids.len();
            *ids.entry(k.clone()).or_insert(next)
        })
        .collect()
}

/// A type's structure with struct and union types replaced by their class: equal signatures
/// are compatible types. Recursion only goes through pointers, arrays and function types, whose
/// depth the declarations bound (a struct stops it).
fn signature(types: &TypeTable, t: TypeId, class: &[usize], depth: u32) -> String {
    if depth > 32 {
        return "?".into();
    }
    let inner = |u: TypeId| signature(types, u, class, depth + 1);
    match types.get(t) {
        Type::Void => "v".into(),
        Type::Char => "c".into(),
        Type::Int => "i".into(),
        Type::Float => "f".into(),
        Type::Pointer(u) => format!("*{}", inner(*u)),
        Type::Array(u) => format!("[{}", inner(*u)),
        Type::Struct(s) => format!("s{}", class[s.index()]),
        Type::Union(s) => format!("u{}", class[s.index()]),
        Type::Function {
            ret,
            params,
            variadic,
        } => {
            let params: Vec<String> = params.iter().map(|&p| inner(p)).collect();
            format!("({}:{}{})", inner(*ret), params.join(","), variadic)
        }
        Type::Lock(k) => format!("L{k:?}"),
        Type::Cond => "C".into(),
    }
}

/// Makes every use of a struct type use its class's representative: the types naming it and
/// the member accesses of the IR. Returns how many structs were merged into another.
pub fn merge_compatible_structs(p: &mut Program) -> usize {
    let canon = compatible_classes(&p.types);
    let merged = canon.iter_enumerated().filter(|(s, c)| s != *c).count();
    if merged == 0 {
        return 0;
    }
    p.types.redirect_structs(&canon);
    for e in &mut p.existentials {
        e.strukt = canon[e.strukt];
    }
    let mut canonical = |lv: &mut Lval| {
        for p in &mut lv.proj {
            if let Proj::Field { strukt, .. } = p {
                *strukt = canon[*strukt];
            }
        }
    };
    for func in p.funcs.iter_mut() {
        for block in func.blocks.iter_mut() {
            for stmt in &mut block.stmts {
                stmt_lvals_mut(&mut stmt.kind, &mut canonical);
            }
            term_lvals_mut(&mut block.term, &mut canonical);
        }
        for l in &mut func.counted_loops {
            if let LoopBound::GlobalField { strukt, .. } | LoopBound::Member { strukt, .. } =
                &mut l.bound
            {
                *strukt = canon[*strukt];
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ctypes::Field;

    fn define(t: &mut TypeTable, tag: &str, fields: &[(&str, TypeId)]) -> StructId {
        let sid = t.struct_named(StructKind::Struct, tag);
        t.structs[sid].fields = fields
            .iter()
            .map(|&(name, ty)| Field {
                name: name.into(),
                ty,
                atomic: false,
            })
            .collect();
        t.structs[sid].complete = true;
        sid
    }

    #[test]
    fn renamed_copies_are_one_type_and_different_layouts_stay_apart() {
        let mut t = TypeTable::new();
        let int = t.int();
        let chr = t.intern(Type::Char);
        // Two renamed copies of a linked list node, each pointing to its own kind.
        let a = t.struct_named(StructKind::Struct, "node");
        let b = t.struct_named(StructKind::Struct, "node___0");
        let pa = {
            let s = t.struct_type(a);
            t.pointer(s)
        };
        let pb = {
            let s = t.struct_type(b);
            t.pointer(s)
        };
        define(&mut t, "node", &[("next", pa), ("value", int)]);
        define(&mut t, "node___0", &[("next", pb), ("value", int)]);
        // Same names, a member of another type: not the same layout.
        let c = define(&mut t, "node___1", &[("next", pa), ("value", chr)]);
        // Same types, another member name.
        let d = define(&mut t, "pair", &[("first", pa), ("value", int)]);
        let canon = compatible_classes(&t);
        assert_eq!(canon[b], a);
        assert_eq!(canon[a], a);
        assert_eq!(canon[c], c);
        assert_eq!(canon[d], d);
    }

    #[test]
    fn reserved_name_variants_of_a_header_are_one_type() {
        let mut t = TypeTable::new();
        let int = t.int();
        let chr = t.intern(Type::Char);
        let text = t.pointer(chr);
        // glibc's `struct tm` under `_DEFAULT_SOURCE` and under `_POSIX_C_SOURCE`.
        let gnu = define(&mut t, "tm", &[("tm_sec", int), ("tm_zone", text)]);
        let strict = define(&mut t, "tm___0", &[("tm_sec", int), ("__tm_zone", text)]);
        // Another name after the prefix is another member.
        let other = define(&mut t, "tm___1", &[("tm_sec", int), ("__tm_name", text)]);
        // Named after the copy without reserved names, whichever comes first.
        let strict_first = define(&mut t, "rec", &[("__next", text), ("value", int)]);
        let plain = define(&mut t, "rec___0", &[("next", text), ("value", int)]);
        let canon = compatible_classes(&t);
        assert_eq!(canon[strict], gnu);
        assert_eq!(canon[other], other);
        assert_eq!((canon[strict_first], canon[plain]), (plain, plain));
    }

    #[test]
    fn incomplete_structs_are_never_merged() {
        let mut t = TypeTable::new();
        let a = t.struct_named(StructKind::Struct, "opaque");
        let b = t.struct_named(StructKind::Struct, "hidden");
        let canon = compatible_classes(&t);
        assert_eq!((canon[a], canon[b]), (a, b));
    }
}
