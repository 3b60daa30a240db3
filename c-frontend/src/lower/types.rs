//! C declarations to analysis types: specifiers and declarators to [`TypeId`]s, struct and union
//! layouts, enumeration constants and integer constant expressions.

use lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, EnumType,
    Expression, Extension, FunctionDeclarator, FunctionSpecifier, Identifier, PointerQualifier,
    SpecifierQualifier, StorageClassSpecifier, StructDeclaration, StructType, TypeName, TypeOf,
    TypeQualifier, TypeSpecifier,
};
use lang_c::span::Node;

use super::{unsupported, Binding, Member, StructInfo, UnitCx, R};
use crate::ir::ctypes::{Field, StructId, StructKind, Type, TypeId};
use crate::ir::Origin;
use crate::model::TypeModel;

/// The name given to an anonymous struct or union member (C11 6.7.2.1 §13); no identifier can be
/// spelled like this.
pub(super) const ANON_MEMBER: &str = "<anonymous>";

/// What the specifiers of a declaration say.
pub(super) struct Specs {
    pub ty: TypeId,
    /// `typedef`, `extern`, `static`, `auto` or `register` (`_Thread_local` is separate).
    pub storage: Option<StorageClassSpecifier>,
    pub thread_local: bool,
    pub noreturn: bool,
    /// `_Atomic`, as a qualifier, a specifier or through a typedef name: an object declared
    /// with these specifiers is atomic unless its declarator makes it a pointer or function.
    pub atomic: bool,
    /// `volatile`, as a qualifier or through a typedef name.
    pub volatile: bool,
    /// `const`, as a qualifier (not through a typedef name).
    pub constant: bool,
    /// The type is named `sig_atomic_t`.
    pub sig_atomic_t: bool,
}

/// A parameter of a function declarator.
pub(super) struct ParamDecl<'a> {
    pub name: Option<&'a Node<Identifier>>,
    pub ty: TypeId,
    /// A pointer to `const`: `const T *p` or `const T p[]` ([`crate::ir::Func::const_pointees`]).
    pub const_pointee: bool,
}

/// What one declarator declares.
pub(super) struct Declared<'a> {
    pub name: Option<&'a Node<Identifier>>,
    pub ty: TypeId,
    /// The parameters when the declared entity is a function with a prototype.
    pub params: Option<Vec<ParamDecl<'a>>>,
    /// The identifier list when the declared entity is a K&R function.
    pub kr_names: Option<&'a [Node<Identifier>]>,
    pub noreturn: bool,
    /// The size expression of every array derivation, outermost first (`None` for `[]`).
    pub array_sizes: Vec<Option<&'a Node<Expression>>>,
    /// Whether a pointer derivation is qualified `volatile` (`int *volatile p`).
    pub volatile: bool,
}

/// Whether an attribute list says the function does not return.
pub(super) fn has_noreturn_attr(exts: &[Node<Extension>]) -> bool {
    exts.iter().any(|e| match &e.node {
        Extension::Attribute(a) => a.name.node.trim_matches('_') == "noreturn",
        _ => false,
    })
}

impl<'a> UnitCx<'a> {
    /// Resolves declaration specifiers. `typedef_name` is the name a `typedef` declares, used to
    /// identify a tagless struct across units.
    pub(super) fn decl_specs(
        &mut self,
        specs: &'a [Node<DeclarationSpecifier>],
        typedef_name: Option<&str>,
    ) -> R<Specs> {
        let mut storage = None;
        let mut thread_local = false;
        let mut noreturn = false;
        let mut atomic = false;
        let mut volatile = false;
        let mut constant = false;
        let mut tspecs = Vec::new();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    StorageClassSpecifier::ThreadLocal => thread_local = true,
                    ref other => storage = Some(other.clone()),
                },
                DeclarationSpecifier::TypeSpecifier(t) => tspecs.push(t),
                DeclarationSpecifier::Function(f) => {
                    noreturn |= f.node == FunctionSpecifier::Noreturn
                }
                DeclarationSpecifier::Extension(exts) => noreturn |= has_noreturn_attr(exts),
                DeclarationSpecifier::TypeQualifier(q) => {
                    atomic |= q.node == TypeQualifier::Atomic;
                    volatile |= q.node == TypeQualifier::Volatile;
                    constant |= q.node == TypeQualifier::Const;
                }
                DeclarationSpecifier::Alignment(_) => {}
            }
        }
        atomic |= self.atomic_specifiers(&tspecs);
        let sig_atomic_t = tspecs.iter().any(
            |t| matches!(&t.node, TypeSpecifier::TypedefName(id) if id.node.name == "sig_atomic_t"),
        );
        volatile |= tspecs.iter().any(|t| {
            matches!(&t.node, TypeSpecifier::TypedefName(id)
                if matches!(self.lookup(&id.node.name), Some(Binding::Typedef { volatile: true, .. })))
        });
        let hint = if storage == Some(StorageClassSpecifier::Typedef) {
            typedef_name
        } else {
            None
        };
        let ty = self.base_type(&tspecs, hint)?;
        Ok(Specs {
            ty,
            storage,
            thread_local,
            noreturn,
            atomic,
            volatile,
            constant,
            sig_atomic_t,
        })
    }

    /// Whether type specifiers name an atomic type: `_Atomic(T)` or an atomic typedef name.
    fn atomic_specifiers(&self, tspecs: &[&'a Node<TypeSpecifier>]) -> bool {
        tspecs.iter().any(|t| match &t.node {
            TypeSpecifier::Atomic(_) => true,
            TypeSpecifier::TypedefName(id) => matches!(
                self.lookup(&id.node.name),
                Some(Binding::Typedef { atomic: true, .. })
            ),
            _ => false,
        })
    }

    /// Whether a specifier-qualifier list (of a struct member) makes the member atomic.
    fn spec_qual_atomic(&self, specs: &'a [Node<SpecifierQualifier>]) -> bool {
        let tspecs: Vec<&Node<TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let qualified = specs.iter().any(|s| {
            matches!(&s.node, SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
        });
        qualified || self.atomic_specifiers(&tspecs)
    }

    /// Whether an object of type `declared`, declared with specifiers naming `base` that are
    /// atomic, is itself atomic: its declarator added only array dimensions (`_Atomic int *p`
    /// is a plain pointer to atomic integers).
    pub(super) fn declares_atomic(&self, atomic: bool, base: TypeId, declared: TypeId) -> bool {
        let mut t = declared;
        while t != base {
            match self.lw.types.get(t) {
                Type::Array(elem) => t = *elem,
                _ => return false,
            }
        }
        atomic
    }

    /// Whether an object declared with these specifiers is `volatile sig_atomic_t` (or an array
    /// of them): [`crate::ir::Var::signal_atomic`].
    pub(super) fn declares_signal_atomic(&self, specs: &Specs, declared: TypeId) -> bool {
        self.declares_atomic(specs.sig_atomic_t && specs.volatile, specs.ty, declared)
    }

    /// The type named by a specifier-qualifier list (struct members, type names).
    pub(super) fn spec_qual_type(&mut self, specs: &'a [Node<SpecifierQualifier>]) -> R<TypeId> {
        self.spec_qual_type_named(specs, None)
    }

    /// As [`UnitCx::spec_qual_type`], naming a tagless struct it defines after `hint`.
    fn spec_qual_type_named(
        &mut self,
        specs: &'a [Node<SpecifierQualifier>],
        hint: Option<&str>,
    ) -> R<TypeId> {
        let tspecs: Vec<&Node<TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        self.base_type(&tspecs, hint)
    }

    /// Combines type specifiers: the character types are `Char`; all other integer kinds, enums
    /// and `_Bool` are `Int`; all floating kinds and `_Complex` are `Float`; a struct, union,
    /// typedef name or `typeof` names its type.
    fn base_type(&mut self, tspecs: &[&'a Node<TypeSpecifier>], hint: Option<&str>) -> R<TypeId> {
        let mut named = None;
        let mut float = false;
        let mut void = false;
        let mut char = false;
        for t in tspecs {
            match &t.node {
                TypeSpecifier::Void => void = true,
                TypeSpecifier::Char => char = true,
                TypeSpecifier::Short
                | TypeSpecifier::Int
                | TypeSpecifier::Long
                | TypeSpecifier::Signed
                | TypeSpecifier::Unsigned
                | TypeSpecifier::Bool => {}
                TypeSpecifier::Float
                | TypeSpecifier::Double
                | TypeSpecifier::Complex
                | TypeSpecifier::TS18661Float(_) => float = true,
                TypeSpecifier::Atomic(tn) => named = Some(self.type_name(tn)?),
                TypeSpecifier::Struct(st) => named = Some(self.struct_type(st, hint)?),
                TypeSpecifier::Enum(et) => {
                    self.enum_type(et);
                    named = Some(self.lw.types.int());
                }
                TypeSpecifier::TypedefName(id) => named = Some(self.typedef_type(id)?),
                TypeSpecifier::TypeOf(to) => {
                    named = Some(match &to.node {
                        TypeOf::Expression(e) => self.type_of(e)?,
                        TypeOf::Type(tn) => self.type_name(tn)?,
                    })
                }
            }
        }
        Ok(match named {
            Some(t) => t,
            None if float => self.lw.types.intern(Type::Float),
            None if void => self.lw.types.void(),
            None if char => self.lw.types.intern(Type::Char),
            None => self.lw.types.int(),
        })
    }

    /// A typedef name: the POSIX lock types and `va_list` are recognised by name whatever their
    /// definition; other names resolve through the scopes.
    fn typedef_type(&mut self, id: &'a Node<Identifier>) -> R<TypeId> {
        let types = &mut self.lw.types;
        let special = match self.lw.model.typedef(&id.node.name) {
            Some(TypeModel::Lock(kind)) => Some(Type::Lock(kind)),
            Some(TypeModel::Cond) => Some(Type::Cond),
            Some(TypeModel::VaList) => {
                let void = types.void();
                Some(Type::Pointer(void))
            }
            None => None,
        };
        if let Some(t) = special {
            return Ok(types.intern(t));
        }
        match self.lookup(&id.node.name) {
            Some(Binding::Typedef { ty, .. }) => Ok(ty),
            None if id.node.name == super::AUTO_TYPE && self.auto_type.is_some() => {
                Ok(self.auto_type.unwrap_or_else(|| self.lw.types.int()))
            }
            // gcc's built-in names of its 128-bit integers (a `.i` file is not preprocessed
            // with locksmith's definitions of them).
            None if matches!(id.node.name.as_str(), "__int128_t" | "__uint128_t") => {
                Ok(self.lw.types.int())
            }
            _ => unsupported(
                self.pos(id.span),
                format!("unknown type name `{}`", id.node.name),
            ),
        }
    }

    pub(super) fn type_name(&mut self, tn: &'a Node<TypeName>) -> R<TypeId> {
        let base = self.spec_qual_type(&tn.node.specifiers)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    /// Applies a declarator to the specifiers' type. lang-c lists the derivations of each
    /// declarator level in the order they apply to the base type, and a parenthesised inner
    /// declarator applies to the result.
    pub(super) fn declarator(&mut self, base: TypeId, d: &'a Node<Declarator>) -> R<Declared<'a>> {
        let mut out = Declared {
            name: None,
            ty: base,
            params: None,
            kr_names: None,
            noreturn: false,
            array_sizes: Vec::new(),
            volatile: false,
        };
        let mut cur = &d.node;
        loop {
            out.noreturn |= has_noreturn_attr(&cur.extensions);
            for dd in &cur.derived {
                match &dd.node {
                    DerivedDeclarator::Pointer(qs) => {
                        out.volatile |= qs.iter().any(|q| {
                            matches!(&q.node, PointerQualifier::TypeQualifier(t)
                                if t.node == TypeQualifier::Volatile)
                        });
                        out.ty = self.lw.types.pointer(out.ty);
                        out.params = None;
                        out.kr_names = None;
                    }
                    DerivedDeclarator::Block(_) => {
                        out.ty = self.lw.types.pointer(out.ty);
                        out.params = None;
                        out.kr_names = None;
                    }
                    DerivedDeclarator::Array(a) => {
                        out.array_sizes.push(match &a.node.size {
                            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                                Some(&**e)
                            }
                            ArraySize::Unknown | ArraySize::VariableUnknown => None,
                        });
                        out.ty = self.lw.types.intern(Type::Array(out.ty));
                        out.params = None;
                        out.kr_names = None;
                    }
                    DerivedDeclarator::Function(fd) => {
                        let (params, variadic) = self.param_list(fd)?;
                        let tys = params.iter().map(|p| p.ty).collect();
                        out.ty = self.lw.types.intern(Type::Function {
                            ret: out.ty,
                            params: tys,
                            variadic,
                        });
                        out.params = Some(params);
                        out.kr_names = None;
                    }
                    DerivedDeclarator::KRFunction(ids) => {
                        out.ty = self.lw.types.intern(Type::Function {
                            ret: out.ty,
                            params: Vec::new(),
                            variadic: false,
                        });
                        out.params = None;
                        out.kr_names = Some(ids);
                    }
                }
            }
            match &cur.kind.node {
                DeclaratorKind::Abstract => break,
                DeclaratorKind::Identifier(id) => {
                    out.name = Some(id);
                    break;
                }
                DeclaratorKind::Declarator(inner) => cur = &inner.node,
            }
        }
        Ok(out)
    }

    /// The parameters of a prototype, with array and function types adjusted to pointers
    /// (C11 6.7.6.3 §7–8); `(void)` has none.
    fn param_list(&mut self, fd: &'a Node<FunctionDeclarator>) -> R<(Vec<ParamDecl<'a>>, bool)> {
        let mut params = Vec::with_capacity(fd.node.parameters.len());
        for p in &fd.node.parameters {
            let specs = self.decl_specs(&p.node.specifiers, None)?;
            let (name, ty) = match &p.node.declarator {
                Some(d) => {
                    let dd = self.declarator(specs.ty, d)?;
                    (dd.name, dd.ty)
                }
                None => (None, specs.ty),
            };
            // One derivation from the qualified base type: the pointee is that type.
            let one_level = match self.lw.types.get(ty) {
                Type::Pointer(to) | Type::Array(to) => *to == specs.ty,
                _ => false,
            };
            params.push(ParamDecl {
                name,
                ty: self.adjust_param(ty),
                const_pointee: specs.constant && one_level,
            });
        }
        let void = self.lw.types.void();
        if params.len() == 1 && params[0].name.is_none() && params[0].ty == void {
            params.clear();
        }
        Ok((params, fd.node.ellipsis == lang_c::ast::Ellipsis::Some))
    }

    pub(super) fn adjust_param(&mut self, ty: TypeId) -> TypeId {
        match self.lw.types.get(ty) {
            Type::Array(e) => {
                let e = *e;
                self.lw.types.pointer(e)
            }
            Type::Function { .. } => self.lw.types.pointer(ty),
            _ => ty,
        }
    }

    /// A struct or union specifier: tagged ones are shared by the whole program; a body
    /// completes the struct the first time one is seen. A tagless one with a `hint` (the typedef
    /// name declaring it, or the path of the member it is the type of) is shared by every unit
    /// that defines it with the same fields.
    fn struct_type(&mut self, st: &'a Node<StructType>, hint: Option<&str>) -> R<TypeId> {
        let kind = match st.node.kind.node {
            lang_c::ast::StructKind::Struct => StructKind::Struct,
            lang_c::ast::StructKind::Union => StructKind::Union,
        };
        let pos = self.pos(st.span);
        let Some(decls) = &st.node.declarations else {
            let Some(tag) = &st.node.identifier else {
                return unsupported(pos, "struct without tag or body");
            };
            let sid = self.tagged(kind, &tag.node.name);
            return Ok(self.lw.types.struct_type(sid));
        };
        let kw = if kind == StructKind::Struct {
            "struct"
        } else {
            "union"
        };
        let key = match (&st.node.identifier, hint) {
            (Some(tag), _) => Some(format!("{kw} {}", tag.node.name)),
            (None, Some(h)) => Some(h.to_string()),
            (None, None) => None,
        };
        let (mut fields, mut info) = self.struct_members(decls, key.as_deref())?;
        let sid = match (&st.node.identifier, hint) {
            (Some(tag), _) => {
                let sid = self.tagged(kind, &tag.node.name);
                let def = &self.lw.types.structs[sid];
                let same_members =
                    (def.fields.iter().map(|f| &f.name)).eq(fields.iter().map(|f| &f.name));
                if def.complete && !same_members {
                    // Another unit (or the library model) defined the tag with other members:
                    // this unit's definition is its own struct, whose members are lowered again
                    // so that the struct's references to its own tag name it.
                    let own = self.lw.types.struct_variant(kind, &tag.node.name);
                    self.own_tags.insert((kind, tag.node.name.clone()), own);
                    (fields, info) = self.struct_members(decls, key.as_deref())?;
                    own
                } else {
                    sid
                }
            }
            (None, Some(name)) => {
                let key = (kind, name.to_string());
                match self.lw.typedef_structs.get(&key) {
                    Some(&sid) if self.lw.types.structs[sid].fields == fields => sid,
                    _ => {
                        let sid = self.lw.types.anonymous_struct(kind);
                        self.lw.typedef_structs.entry(key).or_insert(sid);
                        sid
                    }
                }
            }
            (None, None) => self.lw.types.anonymous_struct(kind),
        };
        if !self.lw.types.structs[sid].complete {
            let def = &mut self.lw.types.structs[sid];
            def.fields = fields;
            def.complete = true;
            def.system = self.origin == Origin::Stub || self.map.in_system_header(st.span.start);
            *self.lw.struct_info_mut(sid) = info;
        }
        Ok(self.lw.types.struct_type(sid))
    }

    /// The struct a tag names in this unit: its own definition if it has one that differs from
    /// the program's ([`UnitCx::own_tags`]), the program's otherwise.
    fn tagged(&mut self, kind: StructKind, tag: &str) -> StructId {
        match self.own_tags.get(&(kind, tag.to_string())) {
            Some(&sid) => sid,
            None => self.lw.types.struct_named(kind, tag),
        }
    }

    /// The fields of a struct body. A run of consecutive bit-fields of non-zero width is one
    /// memory location (C11 3.14), so it becomes one field named after its first named member;
    /// later members of the run are aliases of it.
    fn struct_members(
        &mut self,
        decls: &'a [Node<StructDeclaration>],
        key: Option<&str>,
    ) -> R<(Vec<Field>, StructInfo)> {
        let mut fields: Vec<Field> = Vec::new();
        let mut info = StructInfo::default();
        // `Some(f)` inside a bit-field run: the run's field once a named member created it.
        let mut run: Option<Option<u32>> = None;
        for decl in decls {
            let StructDeclaration::Field(f) = &decl.node else {
                continue;
            };
            let member_key = key.map(|k| {
                let first = f
                    .node
                    .declarators
                    .first()
                    .and_then(|d| d.node.declarator.as_ref());
                match first.and_then(|d| super::stmt::declarator_name(&d.node)) {
                    Some(n) => format!("{k}.{}", n.node.name),
                    None => format!("{k}.<anonymous{}>", fields.len()),
                }
            });
            let ty = self.spec_qual_type_named(&f.node.specifiers, member_key.as_deref())?;
            let atomic = self.spec_qual_atomic(&f.node.specifiers);
            if f.node.declarators.is_empty() {
                run = None;
                if self.is_anonymous_member(&f.node.specifiers) {
                    let field = fields.len() as u32;
                    fields.push(Field {
                        name: ANON_MEMBER.to_string(),
                        ty,
                        atomic: false,
                    });
                    info.members.push(Member {
                        name: None,
                        field,
                        array_len: None,
                    });
                }
                continue;
            }
            for sd in &f.node.declarators {
                let (name, fty, sizes) = match &sd.node.declarator {
                    Some(d) => {
                        let dd = self.declarator(ty, d)?;
                        (dd.name.map(|n| n.node.name.clone()), dd.ty, dd.array_sizes)
                    }
                    None => (None, ty, Vec::new()),
                };
                if let Some(width) = &sd.node.bit_width {
                    if self.const_eval(width) == Some(0) {
                        run = None;
                        continue;
                    }
                    match (run, name) {
                        (Some(Some(field)), Some(n)) => {
                            info.aliases.push((n.clone(), field));
                            info.members.push(Member {
                                name: Some(n),
                                field,
                                array_len: None,
                            });
                        }
                        (_, Some(n)) => {
                            let field = fields.len() as u32;
                            let int = self.lw.types.int();
                            fields.push(Field {
                                name: n.clone(),
                                ty: int,
                                atomic: false,
                            });
                            info.members.push(Member {
                                name: Some(n),
                                field,
                                array_len: None,
                            });
                            run = Some(Some(field));
                        }
                        (Some(_), None) => {}
                        (None, None) => run = Some(None),
                    }
                } else {
                    run = None;
                    let Some(n) = name else { continue };
                    let field = fields.len() as u32;
                    let array_len = self.array_count(&sizes);
                    fields.push(Field {
                        name: n.clone(),
                        ty: fty,
                        atomic: self.declares_atomic(atomic, ty, fty),
                    });
                    info.members.push(Member {
                        name: Some(n),
                        field,
                        array_len,
                    });
                }
            }
        }
        Ok((fields, info))
    }

    /// A member declaration without declarators is an anonymous member when it is a tagless
    /// struct or union with a body.
    fn is_anonymous_member(&self, specs: &'a [Node<SpecifierQualifier>]) -> bool {
        specs.iter().any(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::Struct(st) => {
                    st.node.identifier.is_none() && st.node.declarations.is_some()
                }
                _ => false,
            },
            _ => false,
        })
    }

    /// The number of elements of an array declared with these sizes, when all are constants.
    pub(super) fn array_count(&self, sizes: &[Option<&Node<Expression>>]) -> Option<u64> {
        if sizes.is_empty() {
            return None;
        }
        let mut n: u64 = 1;
        for s in sizes {
            let v = self.const_eval((*s)?)?;
            n = n.checked_mul(u64::try_from(v).ok()?)?;
        }
        Some(n)
    }

    /// Declares the constants of an enum body in the current scope.
    fn enum_type(&mut self, et: &'a Node<EnumType>) {
        let mut next = Some(0i64);
        for en in &et.node.enumerators {
            let value = match &en.node.expression {
                Some(e) => self.const_eval(e),
                None => next,
            };
            self.bind(&en.node.identifier.node.name, Binding::Enum(value));
            next = value.and_then(|v| v.checked_add(1));
        }
    }

    /// The value of an integer constant expression, when it can be computed without type sizes.
    pub(super) fn const_eval(&self, e: &'a Node<Expression>) -> Option<i64> {
        use lang_c::ast::{BinaryOperator as B, Constant, UnaryOperator as U};
        match &e.node {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => parse_integer(i),
                Constant::Character(s) => char_value(s),
                Constant::Float(_) => None,
            },
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Binding::Enum(v)) => v,
                _ => None,
            },
            Expression::UnaryOperator(u) => {
                let x = self.const_eval(&u.node.operand)?;
                match u.node.operator.node {
                    U::Minus => x.checked_neg(),
                    U::Plus => Some(x),
                    U::Complement => Some(!x),
                    U::Negate => Some((x == 0) as i64),
                    _ => None,
                }
            }
            Expression::Cast(c) => self.const_eval(&c.node.expression),
            Expression::Conditional(c) => {
                if self.const_eval(&c.node.condition)? != 0 {
                    self.const_eval(&c.node.then_expression)
                } else {
                    self.const_eval(&c.node.else_expression)
                }
            }
            Expression::BinaryOperator(b) => {
                let l = self.const_eval(&b.node.lhs)?;
                let r = self.const_eval(&b.node.rhs)?;
                match b.node.operator.node {
                    B::Plus => l.checked_add(r),
                    B::Minus => l.checked_sub(r),
                    B::Multiply => l.checked_mul(r),
                    B::Divide => l.checked_div(r),
                    B::Modulo => l.checked_rem(r),
                    B::ShiftLeft => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                    B::ShiftRight => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
                    B::BitwiseAnd => Some(l & r),
                    B::BitwiseOr => Some(l | r),
                    B::BitwiseXor => Some(l ^ r),
                    B::Less => Some((l < r) as i64),
                    B::Greater => Some((l > r) as i64),
                    B::LessOrEqual => Some((l <= r) as i64),
                    B::GreaterOrEqual => Some((l >= r) as i64),
                    B::Equals => Some((l == r) as i64),
                    B::NotEquals => Some((l != r) as i64),
                    B::LogicalAnd => Some((l != 0 && r != 0) as i64),
                    B::LogicalOr => Some((l != 0 || r != 0) as i64),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The value of an integer literal (suffixes do not change it).
fn parse_integer(i: &lang_c::ast::Integer) -> Option<i64> {
    use lang_c::ast::IntegerBase;
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
    let digits = if digits.is_empty() { "0" } else { digits };
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

/// The value of a character constant such as `'a'`, `'\n'`, `'\x41'` or `L'x'`.
fn char_value(s: &str) -> Option<i64> {
    let start = s.find('\'')?;
    let body = s[start + 1..].strip_suffix('\'')?;
    let mut chars = body.chars();
    let c = chars.next()?;
    if c != '\\' {
        return Some(c as i64);
    }
    let rest: String = chars.collect();
    let v = match rest.as_str() {
        "n" => 10,
        "t" => 9,
        "r" => 13,
        "a" => 7,
        "b" => 8,
        "f" => 12,
        "v" => 11,
        "\\" => 92,
        "'" => 39,
        "\"" => 34,
        "?" => 63,
        r if r.starts_with('x') => i64::from_str_radix(&r[1..], 16).ok()?,
        r if r.chars().all(|c| c.is_digit(8)) && !r.is_empty() => i64::from_str_radix(r, 8).ok()?,
        _ => return None,
    };
    Some(v)
}
