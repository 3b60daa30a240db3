//! C types as the analysis sees them: integers and floats collapse to `Char`, `Int` and `Float`,
//! arrays lose their size, typedefs are resolved, and the POSIX lock types are recognised by
//! their typedef names so that a `pthread_mutex_t` object is a lock rather than glibc's union.
//!
//! Types are hash-consed in a [`TypeTable`]; structs and unions are identified by their tag across
//! translation units (a program's files agree on `struct conn`), anonymous ones are each distinct.

use rustc_hash::FxHashMap;
use solver::define_id;
use solver::ids::IndexVec;

use crate::model::{self, TypeModel};

define_id!(
    /// A type in the [`TypeTable`].
    pub struct TypeId, "ty";
);
define_id!(
    /// A struct or union definition in the [`TypeTable`].
    pub struct StructId, "struct";
);

/// Which POSIX lock a lock object is. All are treated as exclusive locks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LockKind {
    Mutex,
    Spin,
    RwLock,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    /// The character types `char`, `signed char` and `unsigned char` (and typedefs such as
    /// `uint8_t`): integers that may also view the bytes of any object (C11 6.5p7), which the
    /// `void*` model must know (paper §3.4, [`crate::constraints::views`]).
    Char,
    /// Every other integer type: `short`, `int`, `long`, `_Bool`, enums, `pthread_t`, …
    Int,
    Float,
    Pointer(TypeId),
    /// An array of any size; all elements are one location.
    Array(TypeId),
    Struct(StructId),
    Union(StructId),
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        variadic: bool,
    },
    /// `pthread_mutex_t`, `pthread_spinlock_t`, `pthread_rwlock_t`.
    Lock(LockKind),
    /// `pthread_cond_t`: holds no data the analysis tracks.
    Cond,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StructKind {
    Struct,
    Union,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: TypeId,
    /// Declared `_Atomic`: its reads and writes are atomic accesses, as for [`super::Var`].
    pub atomic: bool,
}

/// A struct or union. Consecutive bit-fields that share a storage unit are one memory location in
/// C11, so the lowering gives them one field (named after the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    pub tag: Option<String>,
    pub kind: StructKind,
    pub fields: Vec<Field>,
    /// False until a definition with a body has been seen.
    pub complete: bool,
    /// Defined by the library model or in a system header: a type the code locksmith cannot
    /// see knows, and may write in objects it is handed (a `struct sigaction` it fills, an
    /// event whose handler it stores). A type the program defines itself it does not know.
    pub system: bool,
}

impl StructDef {
    /// The index of the field called `name`.
    pub fn field(&self, name: &str) -> Option<u32> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u32)
    }
}

/// All types of a program.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: IndexVec<TypeId, Type>,
    interned: FxHashMap<Type, TypeId>,
    pub structs: IndexVec<StructId, StructDef>,
    pub struct_by_tag: FxHashMap<(StructKind, String), StructId>,
}

impl TypeTable {
    pub fn new() -> TypeTable {
        TypeTable::default()
    }

    /// The id of `t`, adding it if it is new.
    pub fn intern(&mut self, t: Type) -> TypeId {
        if let Some(&id) = self.interned.get(&t) {
            return id;
        }
        let id = self.types.push(t.clone());
        self.interned.insert(t, id);
        id
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id]
    }

    /// Makes every struct and union type name the struct `canon` maps its own to
    /// ([`super::compatible`]). Two ids may then stand for one type: ids are compared after
    /// this only through what they stand for.
    pub fn redirect_structs(&mut self, canon: &IndexVec<StructId, StructId>) {
        for t in self.types.iter_mut() {
            match t {
                Type::Struct(s) | Type::Union(s) => *s = canon[*s],
                _ => {}
            }
        }
        self.interned = self
            .types
            .iter_enumerated()
            .rev()
            .map(|(id, t)| (t.clone(), id))
            .collect();
    }

    /// The id of `t` if it has been interned.
    pub fn lookup(&self, t: &Type) -> Option<TypeId> {
        self.interned.get(t).copied()
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }

    pub fn int(&mut self) -> TypeId {
        self.intern(Type::Int)
    }

    /// The type of a string literal: an array of characters.
    pub fn string(&mut self) -> TypeId {
        let char = self.intern(Type::Char);
        self.intern(Type::Array(char))
    }

    pub fn pointer(&mut self, to: TypeId) -> TypeId {
        self.intern(Type::Pointer(to))
    }

    /// The struct or union with this tag, created incomplete if it was not seen yet.
    pub fn struct_named(&mut self, kind: StructKind, tag: &str) -> StructId {
        if let Some(&id) = self.struct_by_tag.get(&(kind, tag.to_string())) {
            return id;
        }
        let id = self.structs.push(StructDef {
            tag: Some(tag.to_string()),
            kind,
            fields: Vec::new(),
            complete: false,
            system: false,
        });
        self.struct_by_tag.insert((kind, tag.to_string()), id);
        id
    }

    /// A struct or union with tag `tag` that is not the program's struct of that tag: one
    /// translation unit's own definition, different from the one the tag names elsewhere.
    pub fn struct_variant(&mut self, kind: StructKind, tag: &str) -> StructId {
        let id = self.anonymous_struct(kind);
        self.structs[id].tag = Some(tag.to_string());
        id
    }

    /// A new anonymous struct or union.
    pub fn anonymous_struct(&mut self, kind: StructKind) -> StructId {
        self.structs.push(StructDef {
            tag: None,
            kind,
            fields: Vec::new(),
            complete: false,
            system: false,
        })
    }

    /// The type of a struct or union value.
    pub fn struct_type(&mut self, id: StructId) -> TypeId {
        match self.structs[id].kind {
            StructKind::Struct => self.intern(Type::Struct(id)),
            StructKind::Union => self.intern(Type::Union(id)),
        }
    }

    /// What `t` points to, for pointers and arrays.
    pub fn pointee(&self, t: TypeId) -> Option<TypeId> {
        match self.get(t) {
            Type::Pointer(x) | Type::Array(x) => Some(*x),
            _ => None,
        }
    }

    /// Whether an object of type `t` holds a function pointer, in itself, in a member or
    /// element, or in an object it points to: what code given a pointer to it may call.
    pub fn reaches_function(&self, t: TypeId) -> bool {
        self.any_inside(t, true, |t| matches!(t, Type::Function { .. }))
    }

    /// Whether an object of type `t` holds a lock in its own memory: it is one, or an array,
    /// struct or union with one inside (pointers are not followed).
    pub fn holds_lock(&self, t: TypeId) -> bool {
        self.any_inside(t, false, |t| matches!(t, Type::Lock(_)))
    }

    /// Whether the members of struct or union `sid` hold only numbers (in nested structs and
    /// arrays too): no pointer, lock or function, and no struct whose body was never seen. A
    /// copy of such an object's bytes carries no label.
    pub fn holds_only_numbers(&self, sid: StructId) -> bool {
        let def = &self.structs[sid];
        def.complete && def.fields.iter().all(|f| self.only_numbers(f.ty))
    }

    /// Whether an object of type `t` holds only numbers, in its members and elements too (see
    /// [`TypeTable::holds_only_numbers`]).
    pub fn only_numbers(&self, t: TypeId) -> bool {
        let labelled = |ty: &Type| match ty {
            Type::Pointer(_) | Type::Lock(_) | Type::Function { .. } | Type::Void => true,
            Type::Struct(inner) | Type::Union(inner) => !self.structs[*inner].complete,
            Type::Char | Type::Int | Type::Float | Type::Array(_) | Type::Cond => false,
        };
        !self.any_inside(t, false, labelled)
    }

    /// Whether `found` holds of `t` or of a type inside it: its members and elements, and,
    /// `through_pointers`, what its pointers point to.
    fn any_inside(&self, t: TypeId, through_pointers: bool, found: impl Fn(&Type) -> bool) -> bool {
        let mut seen: rustc_hash::FxHashSet<TypeId> = rustc_hash::FxHashSet::default();
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            let ty = self.get(t);
            if found(ty) {
                return true;
            }
            match ty {
                Type::Array(x) => stack.push(*x),
                Type::Pointer(x) if through_pointers => stack.push(*x),
                Type::Struct(sid) | Type::Union(sid) => {
                    stack.extend(self.structs[*sid].fields.iter().map(|f| f.ty))
                }
                _ => {}
            }
        }
        false
    }

    /// The path of struct members from an object of type `t` to its first lock member, searching
    /// members in declaration order and nested structs depth first: empty when `t` is not a
    /// struct or has no lock member. A lock function handed a pointer to such a struct (a
    /// configured `my_lock(struct mylock *)`) takes that lock, the one its body would take.
    pub fn first_lock_member(&self, t: TypeId) -> Vec<(StructId, u32)> {
        let mut path = Vec::new();
        self.find_lock_member(t, &mut path);
        path
    }

    fn find_lock_member(&self, t: TypeId, path: &mut Vec<(StructId, u32)>) -> bool {
        let Type::Struct(sid) = *self.get(t) else {
            return matches!(self.get(t), Type::Lock(_)) && !path.is_empty();
        };
        // A struct cannot contain itself by value, but a bound keeps a malformed table finite.
        if path.len() > 16 {
            return false;
        }
        for (k, field) in self.structs[sid].fields.iter().enumerate() {
            path.push((sid, k as u32));
            if self.find_lock_member(field.ty, path) {
                return true;
            }
            path.pop();
        }
        false
    }

    /// Whether values of type `t` can hold pointers (directly or in fields).
    pub fn is_scalar(&self, t: TypeId) -> bool {
        matches!(
            self.get(t),
            Type::Char | Type::Int | Type::Float | Type::Void
        )
    }

    /// A short C-like rendering for messages.
    pub fn describe(&self, t: TypeId) -> String {
        self.describe_depth(t, 0)
    }

    fn describe_depth(&self, t: TypeId, depth: u32) -> String {
        if depth > 6 {
            return "…".into();
        }
        match self.get(t) {
            Type::Void => "void".into(),
            Type::Char => "char".into(),
            Type::Int => "int".into(),
            Type::Float => "double".into(),
            Type::Pointer(x) => format!("{}*", self.describe_depth(*x, depth + 1)),
            Type::Array(x) => format!("{}[]", self.describe_depth(*x, depth + 1)),
            Type::Struct(s) | Type::Union(s) => {
                let def = &self.structs[*s];
                let kw = if def.kind == StructKind::Struct {
                    "struct"
                } else {
                    "union"
                };
                match &def.tag {
                    Some(tag) => format!("{kw} {tag}"),
                    None => format!("{kw} <anonymous>"),
                }
            }
            Type::Function { .. } => "function".into(),
            Type::Lock(kind) => model::typedef_name(TypeModel::Lock(*kind)).into(),
            Type::Cond => model::typedef_name(TypeModel::Cond).into(),
        }
    }
}
