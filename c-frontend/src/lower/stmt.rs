//! Statements, declarations, initializers, function definitions and file-scope items.

use lang_c::ast::{
    AsmStatement, BinaryOperator as B, BlockItem, Declaration, DeclarationSpecifier, Designator,
    Expression, Extension, ExternalDeclaration, ForInitializer, ForStatement, FunctionDefinition,
    FunctionSpecifier, Identifier, Initializer, InitializerListItem, Label, MemberOperator,
    Statement, StorageClassSpecifier, TranslationUnit, UnaryOperator, WhileStatement,
};
use lang_c::span::Node;
use rustc_hash::FxHashMap;

use super::builder::{Chunk, FuncBuilder, SwitchCx, LOCAL_LABEL_SEP};
use super::expr::{has_reads, var_lval};
use super::types::{Declared, Specs};
use super::{
    local_label_key, unsupported, Binding, Lowerer, Member, Redefinition, UnitCx, Unsupported, R,
};
use crate::diagnostics::{Lost, Unanalysed, UnanalysedKind};
use crate::ir::ctypes::{StructId, Type, TypeId};
use crate::ir::{
    Base, Cases, CountedLoop, FuncId, LoopBound, LoopCmp, Lval, Operand, Origin, Pos, Proj,
    StmtKind, Term, VarId, VarKind,
};
use crate::model::Intrinsic;
use crate::syntax::srcmap::SourceMap;

/// The parameters of a function definition: their names (if any) and adjusted types.
type ParamList<'a> = Vec<(Option<&'a Node<Identifier>>, TypeId)>;

/// What a function definition's head declares.
struct Signature<'a> {
    name: &'a Node<Identifier>,
    /// With the function's type, its parameters adjusted.
    decl: Declared<'a>,
    params: ParamList<'a>,
    is_static: bool,
    noreturn: bool,
    /// `inline`, or an attribute that lets another definition stand in for this one (`weak`,
    /// `gnu_inline`): not an external definition another unit may not repeat.
    replaceable: bool,
}

/// Whether a definition is `inline` or carries `weak` or `gnu_inline`: then another unit may
/// define the same function too (an inline definition is not an external one, C11 6.7.4 7; a
/// weak one gives way to a strong one at link time).
fn replaceable_definition(fd: &Node<FunctionDefinition>) -> bool {
    let attribute = |exts: &[Node<Extension>]| {
        exts.iter().any(|e| match &e.node {
            Extension::Attribute(a) => {
                matches!(
                    a.name.node.trim_matches('_'),
                    "weak" | "gnu_inline" | "weakref"
                )
            }
            _ => false,
        })
    };
    attribute(&fd.node.declarator.node.extensions)
        || fd.node.specifiers.iter().any(|s| match &s.node {
            DeclarationSpecifier::Function(f) => f.node == FunctionSpecifier::Inline,
            DeclarationSpecifier::Extension(exts) => attribute(exts),
            _ => false,
        })
}

/// The labels whose address a function body takes (`&&label`, GNU), by name as written, in
/// order of first appearance; those of nested functions are theirs.
fn taken_labels(body: &Node<Statement>) -> Vec<String> {
    use lang_c::visit::Visit;
    struct Taken(Vec<String>);
    impl<'ast> Visit<'ast> for Taken {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast lang_c::span::Span) {
            if let Expression::LabelAddress(l) = e {
                if !self.0.contains(&l.node.name) {
                    self.0.push(l.node.name.clone());
                }
            }
            lang_c::visit::visit_expression(self, e, span);
        }
        fn visit_block_item(&mut self, b: &'ast BlockItem, span: &'ast lang_c::span::Span) {
            if !matches!(b, BlockItem::NestedFunction(_)) {
                lang_c::visit::visit_block_item(self, b, span);
            }
        }
    }
    let mut t = Taken(Vec::new());
    t.visit_statement(&body.node, &body.span);
    t.0
}

/// Lowers every external declaration of `unit`, in source order.
pub(super) fn lower_unit(
    lw: &mut Lowerer,
    unit: &TranslationUnit,
    map: &SourceMap,
    origin: Origin,
) {
    let global_init = lw.global_init;
    let mut cx = UnitCx {
        lw,
        map,
        origin,
        scopes: vec![FxHashMap::default()],
        fb: FuncBuilder::new(global_init),
        func_name: String::new(),
        auto_type: None,
        own_tags: FxHashMap::default(),
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => cx.file_declaration(d),
            ExternalDeclaration::StaticAssert(sa) => cx.static_assert(&sa.node, ext.span),
            ExternalDeclaration::FunctionDefinition(fd) => cx.function_definition(fd),
        }
    }
}

impl UnitCx<'_> {
    /// A file-scope `_Static_assert`: `LOCKSMITH_EXISTENTIAL(tag, lock, fields…)` of
    /// `locksmith.h` is one whose message reads `locksmith:existential:TAG:LOCK:F1, F2`; the
    /// rest are ignored.
    fn static_assert(&mut self, sa: &lang_c::ast::StaticAssert, span: lang_c::span::Span) {
        let text: String = sa
            .message
            .node
            .iter()
            .map(|piece| piece.trim_matches('"'))
            .collect();
        let Some(rest) = text.strip_prefix("locksmith:existential:") else {
            return;
        };
        let pos = self.pos(span);
        let mut parts = rest.splitn(3, ':');
        let tag = parts.next().unwrap_or("");
        let field = parts.next().unwrap_or("");
        let guarded: Vec<&str> = parts
            .next()
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        let sid = self
            .lw
            .types
            .structs
            .iter_enumerated()
            .find(|(_, d)| {
                d.complete
                    && d.kind == crate::ir::ctypes::StructKind::Struct
                    && d.tag.as_deref() == Some(tag)
            })
            .map(|(s, _)| s);
        let unknown = |field: &str| crate::diagnostics::Annotation {
            pos,
            kind: crate::diagnostics::AnnotationKind::UnknownField {
                strukt: tag.to_string(),
                field: field.to_string(),
            },
        };
        let Some(s) = sid else {
            self.lw.annotations.push(unknown(field));
            return;
        };
        let def = &self.lw.types.structs[s];
        let Some(lock) = def.field(field) else {
            self.lw.annotations.push(unknown(field));
            return;
        };
        let mut indices = Vec::new();
        for g in &guarded {
            match def.field(g) {
                Some(i) if i != lock => indices.push(i),
                _ => self.lw.annotations.push(unknown(g)),
            }
        }
        if guarded.is_empty() {
            // No field named: the lock guards every other field.
            indices = (0..def.fields.len() as u32)
                .filter(|&i| i != lock)
                .collect();
        }
        self.lw.existentials.push(crate::ir::Existential {
            strukt: s,
            lock,
            guarded: indices,
            pos,
        });
    }
}

/// The name a `typedef` declaration gives its type when the first declarator is a plain name.
fn typedef_hint(d: &Declaration) -> Option<&str> {
    let first = d.declarators.first()?;
    let decl = &first.node.declarator.node;
    match &decl.kind.node {
        lang_c::ast::DeclaratorKind::Identifier(id) if decl.derived.is_empty() => {
            Some(&id.node.name)
        }
        _ => None,
    }
}

/// The identifier a declarator declares, if any.
pub(super) fn declarator_name(d: &lang_c::ast::Declarator) -> Option<&Node<Identifier>> {
    let mut cur = d;
    loop {
        match &cur.kind.node {
            lang_c::ast::DeclaratorKind::Identifier(id) => return Some(id),
            lang_c::ast::DeclaratorKind::Abstract => return None,
            lang_c::ast::DeclaratorKind::Declarator(inner) => cur = &inner.node,
        }
    }
}

impl<'a> UnitCx<'a> {
    /// A file-scope declaration that cannot be lowered (it defines no function).
    fn report(&mut self, name: String, u: Unsupported) {
        self.report_as(name, u, UnanalysedKind::Unsupported, Lost::Declaration);
    }

    fn report_as(&mut self, name: String, u: Unsupported, kind: UnanalysedKind, lost: Lost) {
        self.lw.unanalysed.push(Unanalysed {
            name,
            pos: u.pos,
            kind,
            lost,
            reason: u.reason,
        });
    }

    fn is_function_type(&self, t: TypeId) -> bool {
        matches!(self.lw.types.get(t), Type::Function { .. })
    }

    // ----- file scope -----

    fn file_declaration(&mut self, d: &'a Node<Declaration>) {
        let specs = self.auto_typed(d);
        let specs =
            match specs.and_then(|()| self.decl_specs(&d.node.specifiers, typedef_hint(&d.node))) {
                Ok(s) => s,
                Err(u) => {
                    let name = d
                        .node
                        .declarators
                        .first()
                        .and_then(|id| declarator_name(&id.node.declarator.node))
                        .map_or_else(|| "<declaration>".to_string(), |n| n.node.name.clone());
                    self.report(name, *u);
                    return;
                }
            };
        for id in &d.node.declarators {
            if let Err(u) = self.file_declarator(&specs, id) {
                let name = declarator_name(&id.node.declarator.node)
                    .map_or_else(|| "<declaration>".to_string(), |n| n.node.name.clone());
                self.report(name, *u);
            }
        }
    }

    fn file_declarator(
        &mut self,
        specs: &Specs,
        id: &'a Node<lang_c::ast::InitDeclarator>,
    ) -> R<()> {
        let decl = self.declarator(specs.ty, &id.node.declarator)?;
        let Some(name_node) = decl.name else {
            return Ok(());
        };
        let name = name_node.node.name.as_str();
        let pos = self.pos(name_node.span);
        if specs.storage == Some(StorageClassSpecifier::Typedef) {
            let atomic = self.declares_atomic(specs.atomic, specs.ty, decl.ty);
            self.bind(
                name,
                Binding::Typedef {
                    ty: decl.ty,
                    atomic,
                    volatile: specs.volatile || decl.volatile,
                },
            );
            return Ok(());
        }
        if self.is_function_type(decl.ty) {
            let is_static = specs.storage == Some(StorageClassSpecifier::Static);
            let f = self.declare_func(name, &decl, is_static, specs.noreturn, pos);
            self.bind_file(name, Binding::Func(f));
            return Ok(());
        }
        let is_static = specs.storage == Some(StorageClassSpecifier::Static);
        let is_extern = specs.storage == Some(StorageClassSpecifier::Extern);
        let init = &id.node.initializer;
        let v = self.file_scope_var(
            name,
            decl.ty,
            is_static,
            is_extern,
            init.is_some(),
            specs.thread_local,
            pos,
        );
        if self.declares_atomic(specs.atomic, specs.ty, decl.ty) {
            self.lw.vars[v].atomic = true;
        }
        self.lw.vars[v].volatile |= specs.volatile || decl.volatile;
        self.lw.vars[v].signal_atomic |= self.declares_signal_atomic(specs, decl.ty);
        if let Some(init) = init {
            let chunks = self.initializer_chunk(v, decl.ty, init, pos)?;
            self.lw.init_chunks.extend(chunks);
        }
        Ok(())
    }

    /// The variable a file-scope declaration denotes: the unit's earlier declaration of the name,
    /// the program's non-`static` global of that name, or a new one.
    #[allow(clippy::too_many_arguments)]
    fn file_scope_var(
        &mut self,
        name: &str,
        ty: TypeId,
        is_static: bool,
        is_extern: bool,
        has_init: bool,
        thread_local: bool,
        pos: Pos,
    ) -> VarId {
        let defining = !is_extern || has_init;
        let existing = match self.file_binding(name) {
            Some(Binding::Var(v)) => Some(v),
            _ if is_static => None,
            _ => self.lw.global_vars.get(name).copied(),
        };
        let v = match existing {
            Some(v) => {
                let var = &mut self.lw.vars[v];
                if let VarKind::Global {
                    thread_local: tl,
                    defined,
                    ..
                } = &mut var.kind
                {
                    *tl |= thread_local;
                    if defining && !*defined {
                        *defined = true;
                        var.ty = ty;
                        var.pos = pos;
                    }
                }
                v
            }
            None => {
                let kind = VarKind::Global {
                    thread_local,
                    defined: defining,
                    is_static,
                };
                let v = self.new_var(name.to_string(), ty, kind, pos);
                if !is_static {
                    self.lw.global_vars.insert(name.to_string(), v);
                }
                v
            }
        };
        self.bind_file(name, Binding::Var(v));
        v
    }

    /// A block-scope `extern` declaration: the unit's file-scope variable or the program's global.
    fn extern_var(&mut self, name: &str, ty: TypeId, thread_local: bool, pos: Pos) -> VarId {
        if let Some(Binding::Var(v)) = self.file_binding(name) {
            return v;
        }
        if let Some(&v) = self.lw.global_vars.get(name) {
            return v;
        }
        let kind = VarKind::Global {
            thread_local,
            defined: false,
            is_static: false,
        };
        let v = self.new_var(name.to_string(), ty, kind, pos);
        self.lw.global_vars.insert(name.to_string(), v);
        v
    }

    /// The function a declaration denotes (the unit's earlier declaration, the program's
    /// non-`static` function of that name, or a new one), updated with what this declaration
    /// says. The caller binds the name.
    fn declare_func(
        &mut self,
        name: &str,
        decl: &Declared<'_>,
        is_static: bool,
        noreturn: bool,
        pos: Pos,
    ) -> FuncId {
        let prototyped = decl.params.is_some() || decl.kr_names.is_some_and(|k| !k.is_empty());
        let existing = match self.file_binding(name) {
            Some(Binding::Func(f)) => Some(f),
            _ if is_static => None,
            _ => self.lw.global_funcs.get(name).copied(),
        };
        let f = match existing {
            Some(f) => f,
            None => {
                let f = self.lw.new_func(name, decl.ty, is_static, self.origin, pos);
                if !is_static {
                    self.lw.global_funcs.insert(name.to_string(), f);
                }
                f
            }
        };
        let info = &mut self.lw.func_info[f];
        if info.def_origin.is_none() && (prototyped || !info.prototyped) {
            self.lw.funcs[f].ty = decl.ty;
            info.prototyped |= prototyped;
        }
        if let Some(params) = &decl.params {
            // Compatible declarations agree on the qualifiers of what their parameters point
            // to (C11 6.7.6.3 §15), so any prototype says it.
            self.lw.funcs[f].const_pointees = params.iter().map(|p| p.const_pointee).collect();
        }
        info.noreturn |= noreturn || decl.noreturn;
        f
    }

    /// Lowers an initializer of a static object into global-init chunks (its own, then those of
    /// any function-`static` it declares).
    fn initializer_chunk(
        &mut self,
        v: VarId,
        ty: TypeId,
        init: &'a Node<Initializer>,
        pos: Pos,
    ) -> R<Vec<Chunk>> {
        let depth = self.scopes.len();
        let saved = std::mem::replace(&mut self.fb, FuncBuilder::new(self.lw.global_init));
        let r = self.init(&var_lval(v, pos), ty, init);
        let fb = std::mem::replace(&mut self.fb, saved);
        self.scopes.truncate(depth);
        r?;
        let (chunk, mut statics) = fb.into_chunk(pos);
        statics.insert(0, chunk);
        Ok(statics)
    }

    // ----- function definitions -----

    /// Lowers a function definition; one that cannot be lowered stays declared only and is
    /// reported at its name, with the offending construct's position in the reason.
    fn function_definition(&mut self, fd: &'a Node<FunctionDefinition>) {
        // A panic while lowering one function is contained: the function is listed as not
        // analysed, with the panic's message, and the rest of the program is lowered.
        let lowered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.function_definition_inner(fd)
        }));
        let (lowered, kind) = match lowered {
            Ok(r) => (r, UnanalysedKind::Unsupported),
            Err(panic) => {
                let failed = Unsupported {
                    reason: format!(
                        "internal error: {}",
                        crate::diagnostics::panic_message(panic.as_ref())
                    ),
                    pos: self.pos(fd.span),
                };
                (Err(Box::new(failed)), UnanalysedKind::Internal)
            }
        };
        if let Err(u) = lowered {
            let (name, pos) = match declarator_name(&fd.node.declarator.node) {
                Some(n) => (n.node.name.clone(), self.pos(n.span)),
                None => ("<function>".to_string(), u.pos),
            };
            let reason = if u.pos == pos {
                u.reason
            } else {
                format!(
                    "{} (line {}, column {})",
                    u.reason, u.pos.line, u.pos.column
                )
            };
            self.report_as(name, Unsupported { reason, pos }, kind, Lost::Body);
        }
        self.scopes.truncate(1);
    }

    fn function_definition_inner(&mut self, fd: &'a Node<FunctionDefinition>) -> R<()> {
        let sig = self.signature(fd)?;
        let name = sig.name.node.name.clone();
        let pos = self.pos(sig.name.span);
        let f = self.declare_func(&name, &sig.decl, sig.is_static, sig.noreturn, pos);
        self.bind_file(&name, Binding::Func(f));
        solver::stats::inject_panic(format_args!("lower:{name}"));
        let lower_it = match self.lw.func_info[f].def_origin {
            None => true,
            Some(Origin::Stub) => self.origin == Origin::User,
            Some(_) => false,
        };
        if self.origin == Origin::User {
            let external = !self.lw.funcs[f].is_static && !sig.replaceable;
            let info = &mut self.lw.func_info[f];
            match info.user_definition {
                None => info.user_definition = Some((pos, external)),
                Some((first, true)) if external => {
                    self.lw.redefined.push(Redefinition {
                        name: name.clone(),
                        first,
                        second: pos,
                    });
                }
                Some(_) => {}
            }
        }
        if !lower_it {
            return Ok(());
        }
        self.lw.func_info[f].def_origin = Some(self.origin);
        self.func_name = name;
        self.lower_body(f, fd, &sig, pos)
    }

    /// The name, type and parameters of a function definition.
    fn signature(&mut self, fd: &'a Node<FunctionDefinition>) -> R<Signature<'a>> {
        let specs = self.decl_specs(&fd.node.specifiers, None)?;
        let decl = self.declarator(specs.ty, &fd.node.declarator)?;
        let Some(name_node) = decl.name else {
            return unsupported(self.pos(fd.span), "function definition without a name");
        };
        let pos = self.pos(name_node.span);
        let Type::Function { ret, variadic, .. } = self.lw.types.get(decl.ty).clone() else {
            return unsupported(pos, "function definition without a function type");
        };
        let params: ParamList<'a> = match (&decl.params, decl.kr_names) {
            (Some(ps), _) => ps.iter().map(|p| (p.name, p.ty)).collect(),
            (None, Some(names)) => self.kr_params(fd, names)?,
            (None, None) => Vec::new(),
        };
        let ty = self.lw.types.intern(Type::Function {
            ret,
            params: params.iter().map(|p| p.1).collect(),
            variadic,
        });
        Ok(Signature {
            name: name_node,
            decl: Declared { ty, ..decl },
            params,
            is_static: specs.storage == Some(StorageClassSpecifier::Static),
            noreturn: specs.noreturn,
            replaceable: replaceable_definition(fd),
        })
    }

    /// Lowers the body of `fd` as the definition of `f`, in a scope of its own inside the
    /// current ones (the file scope, or a nested function's enclosing blocks).
    fn lower_body(
        &mut self,
        f: FuncId,
        fd: &'a Node<FunctionDefinition>,
        sig: &Signature<'a>,
        pos: Pos,
    ) -> R<()> {
        let depth = self.scopes.len();
        let saved = std::mem::replace(&mut self.fb, FuncBuilder::new(f));
        self.scopes.push(FxHashMap::default());
        let result = self.function_body(f, &sig.params, fd, pos);
        self.scopes.truncate(depth);
        let fb = std::mem::replace(&mut self.fb, saved);
        let param_vars = result?;
        if let Some((label, lpos)) = fb.undefined_label() {
            return unsupported(
                lpos,
                format!("`goto {label}` names no label of the function"),
            );
        }
        let end = self.map.pos(fd.node.statement.span.end.saturating_sub(1));
        let done = fb.finish(end);
        let func = &mut self.lw.funcs[f];
        func.ty = sig.decl.ty;
        func.params = param_vars;
        func.locals = done.locals;
        func.blocks = done.blocks.into_iter().collect();
        func.counted_loops = done.counted_loops;
        func.pos = pos;
        func.defined = true;
        func.is_static |= sig.is_static;
        func.origin = self.origin;
        self.lw.func_info[f].prototyped = true;
        self.lw.init_chunks.extend(done.statics);
        Ok(())
    }

    /// A nested function definition (GNU): a `static` function of its own, named
    /// `OUTER.NAME` in reports, bound to `NAME` in the enclosing block from its definition on.
    /// Its body is lowered inside the enclosing scopes, so the enclosing function's locals it
    /// names are the same variables (the same locations); the finished program marks them
    /// address-taken ([`Lowerer::finish`]), since the nested function reaches them through the
    /// enclosing frame, from any thread it is called on. A pointer to it is a function pointer
    /// like any other. If it cannot be lowered, neither can the enclosing function.
    fn nested_function(&mut self, fd: &'a Node<FunctionDefinition>) -> R<()> {
        let sig = self.signature(fd)?;
        let written = sig.name.node.name.clone();
        let pos = self.pos(sig.name.span);
        let name = format!("{}.{written}", self.func_name);
        let f = self.lw.new_func(&name, sig.decl.ty, true, self.origin, pos);
        self.lw.func_info[f].noreturn |= sig.noreturn || sig.decl.noreturn;
        self.lw.func_info[f].def_origin = Some(self.origin);
        self.bind(&written, Binding::Func(f));
        let outer = std::mem::replace(&mut self.func_name, name);
        let r = self.lower_body(f, fd, &sig, pos);
        self.func_name = outer;
        r
    }

    /// The parameters of a K&R definition, typed by its declaration list (`int` if undeclared).
    fn kr_params(
        &mut self,
        fd: &'a Node<FunctionDefinition>,
        names: &'a [Node<Identifier>],
    ) -> R<ParamList<'a>> {
        let mut types: FxHashMap<&str, TypeId> = FxHashMap::default();
        for d in &fd.node.declarations {
            let specs = self.decl_specs(&d.node.specifiers, None)?;
            for id in &d.node.declarators {
                let dd = self.declarator(specs.ty, &id.node.declarator)?;
                if let Some(n) = dd.name {
                    let t = self.adjust_param(dd.ty);
                    types.insert(n.node.name.as_str(), t);
                }
            }
        }
        let int = self.lw.types.int();
        Ok(names
            .iter()
            .map(|n| {
                (
                    Some(n),
                    types.get(n.node.name.as_str()).copied().unwrap_or(int),
                )
            })
            .collect())
    }

    fn function_body(
        &mut self,
        f: FuncId,
        params: &[(Option<&'a Node<Identifier>>, TypeId)],
        fd: &'a Node<FunctionDefinition>,
        pos: Pos,
    ) -> R<Vec<VarId>> {
        let mut vars = Vec::with_capacity(params.len());
        for (i, (name, ty)) in params.iter().enumerate() {
            let (n, p) = match name {
                Some(id) => (id.node.name.clone(), self.pos(id.span)),
                None => (format!("<param{i}>"), pos),
            };
            let v = self.new_var(n.clone(), *ty, VarKind::Param(f, i as u32), p);
            if name.is_some() {
                self.bind(&n, Binding::Var(v));
            }
            vars.push(v);
        }
        self.fb.taken_labels = taken_labels(&fd.node.statement);
        match &fd.node.statement.node {
            Statement::Compound(items) => {
                for item in items {
                    self.block_item(item)?;
                }
                self.flag_lock(items, pos)?;
            }
            _ => self.stmt(&fd.node.statement)?,
        }
        Ok(vars)
    }

    /// A function that runs as an atomic section (the verification tasks' convention) and whose
    /// body is `assume(v == 0); v = K;` (K a nonzero constant) waits until the flag `v` is free
    /// and takes it atomically: it acquires a lock, the flag's own. One whose body is
    /// `[assume(v == K);] v = 0;` releases it. The intrinsic call is added at the end of the body,
    /// so the function's summary acquires or releases the flag's lock for its callers; the
    /// flag's accesses stay plain accesses (inside the section).
    fn flag_lock(&mut self, items: &'a [Node<BlockItem>], pos: Pos) -> R<()> {
        if self.lw.model.atomic_section(&self.func_name).is_none() {
            return Ok(());
        }
        let stmts: Option<Vec<&'a Node<Expression>>> = items
            .iter()
            .map(|i| match &i.node {
                BlockItem::Statement(s) => match &s.node {
                    Statement::Expression(Some(e)) => Some(&**e),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let Some(stmts) = stmts else {
            return Ok(());
        };
        let found = match stmts.as_slice() {
            [test, set] => match (self.assumed_flag(test), self.flag_store(set)) {
                (Some((v, false)), Some((w, true))) if v == w => Some((v, Intrinsic::Acquire)),
                (Some((v, true)), Some((w, false))) if v == w => Some((v, Intrinsic::Release)),
                _ => None,
            },
            [clear] => match self.flag_store(clear) {
                Some((v, false)) => Some((v, Intrinsic::Release)),
                _ => None,
            },
            _ => None,
        };
        let Some((flag, intrinsic)) = found else {
            return Ok(());
        };
        let f = self.intrinsic_func(pos, intrinsic);
        let lv = var_lval(flag, pos);
        let arg = self.addr_of(lv);
        self.emit(
            StmtKind::Call {
                dst: None,
                callee: crate::ir::Callee::Direct(f),
                args: vec![arg],
            },
            pos,
        );
        Ok(())
    }

    /// `assume(v == C)` for a global `v` and a constant `C`: `(v, C != 0)`.
    fn assumed_flag(&self, e: &'a Node<Expression>) -> Option<(VarId, bool)> {
        let Expression::Call(c) = &e.node else {
            return None;
        };
        let Expression::Identifier(id) = &c.node.callee.node else {
            return None;
        };
        if !self.lw.model.is_assume(&id.node.name) {
            return None;
        }
        let [arg] = c.node.arguments.as_slice() else {
            return None;
        };
        let Expression::BinaryOperator(b) = &arg.node else {
            return None;
        };
        if b.node.operator.node != lang_c::ast::BinaryOperator::Equals {
            return None;
        }
        let v = self.global_flag(&b.node.lhs)?;
        Some((v, self.const_eval(&b.node.rhs)? != 0))
    }

    /// `v = C` for a global `v` and a constant `C`: `(v, C != 0)`.
    fn flag_store(&self, e: &'a Node<Expression>) -> Option<(VarId, bool)> {
        let Expression::BinaryOperator(b) = &e.node else {
            return None;
        };
        if b.node.operator.node != lang_c::ast::BinaryOperator::Assign {
            return None;
        }
        let v = self.global_flag(&b.node.lhs)?;
        Some((v, self.const_eval(&b.node.rhs)? != 0))
    }

    /// The global integer variable an expression names.
    fn global_flag(&self, e: &'a Node<Expression>) -> Option<VarId> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        match self.lookup(&id.node.name) {
            Some(Binding::Var(v)) if matches!(self.lw.vars[v].kind, VarKind::Global { .. }) => {
                Some(v)
            }
            _ => None,
        }
    }

    // ----- statements -----

    fn block_item(&mut self, item: &'a Node<BlockItem>) -> R<()> {
        match &item.node {
            BlockItem::Declaration(d) => self.local_declaration(d),
            BlockItem::StaticAssert(_) => Ok(()),
            BlockItem::Statement(s) => self.stmt(s),
            BlockItem::NestedFunction(fd) => self.nested_function(fd),
            BlockItem::LocalLabels(ids) => {
                self.fb.local_label_scopes += 1;
                let scope = self.fb.local_label_scopes;
                for id in ids {
                    self.bind(&local_label_key(&id.node.name), Binding::LocalLabel(scope));
                }
                Ok(())
            }
        }
    }

    /// The name a label written `name` has in the function's label table: a label a block
    /// declares local (`__label__`, GNU) gets its scope's number, so that each expansion of a
    /// macro with local labels has labels of its own.
    fn label_name(&self, name: &str) -> String {
        match self.lookup(&local_label_key(name)) {
            Some(Binding::LocalLabel(scope)) => format!("{name}{LOCAL_LABEL_SEP}{scope}"),
            _ => name.to_string(),
        }
    }

    pub(super) fn stmt(&mut self, s: &'a Node<Statement>) -> R<()> {
        let pos = self.pos(s.span);
        match &s.node {
            Statement::Labeled(l) => self.labeled(l, pos),
            Statement::Compound(items) => {
                self.scopes.push(FxHashMap::default());
                for item in items {
                    self.block_item(item)?;
                }
                self.scopes.pop();
                Ok(())
            }
            Statement::Expression(Some(e)) => self.effect(e),
            Statement::Expression(None) => Ok(()),
            Statement::If(_) => self.if_chain(s),
            Statement::Switch(sw) => {
                let op = self.expr(&sw.node.expression)?;
                let epos = self.pos(sw.node.expression.span);
                self.emit(StmtKind::Eval(op), epos);
                let dispatch = self.fb.cur();
                self.fb.suspend();
                let exit = self.fb.new_block();
                self.fb.switches.push(SwitchCx::default());
                self.fb.breaks.push(exit);
                let r = self.stmt(&sw.node.statement);
                self.fb.breaks.pop();
                let cx = self.fb.switches.pop().expect("pushed above");
                r?;
                self.fb.goto(exit);
                let mut targets = cx.targets;
                let mut values = cx.values;
                if !cx.has_default {
                    targets.push(exit);
                    values.push(None);
                }
                let cases = cx.constant.then(|| Box::new(Cases(values)));
                self.fb.set_term(dispatch, Term::Multi(targets, cases));
                self.fb.switch_to(exit);
                Ok(())
            }
            Statement::While(w) => self.while_loop(&w.node),
            Statement::DoWhile(d) => {
                let (body, test, exit) = (
                    self.fb.new_block(),
                    self.fb.new_block(),
                    self.fb.new_block(),
                );
                self.fb.goto_and_switch(body);
                self.loop_body(&d.node.statement, exit, test)?;
                self.fb.goto_and_switch(test);
                self.cond(&d.node.expression, body, exit)?;
                self.fb.switch_to(exit);
                Ok(())
            }
            Statement::For(fs) => {
                self.scopes.push(FxHashMap::default());
                match &fs.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => self.effect(e)?,
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                }
                // Read after the initializer, so that a counter it declares is in scope.
                let counted = self.counted_for(&fs.node);
                let (head, body, step, exit) = (
                    self.fb.new_block(),
                    self.fb.new_block(),
                    self.fb.new_block(),
                    self.fb.new_block(),
                );
                if let Some(counted) = counted {
                    self.fb
                        .counted_loops
                        .push(counted_loop([head, body, step, exit], counted));
                }
                self.fb.goto_and_switch(head);
                match &fs.node.condition {
                    Some(c) => self.cond(c, body, exit)?,
                    None => self.fb.goto(body),
                }
                self.fb.switch_to(body);
                self.loop_body(&fs.node.statement, exit, step)?;
                self.fb.goto_and_switch(step);
                if let Some(e) = &fs.node.step {
                    self.effect(e)?;
                }
                self.fb.goto(head);
                self.fb.switch_to(exit);
                self.scopes.pop();
                Ok(())
            }
            Statement::Goto(label) => {
                let name = self.label_name(&label.node.name);
                let b = self.fb.label_block(&name, pos);
                self.fb.goto(b);
                Ok(())
            }
            Statement::GotoComputed(target) => {
                // The target address is read, then control may go to any label whose address
                // the function takes.
                self.effect(target)?;
                self.fb.computed_goto();
                Ok(())
            }
            Statement::Continue => match self.fb.continues.last() {
                Some(&b) => {
                    self.fb.goto(b);
                    Ok(())
                }
                None => unsupported(pos, "`continue` outside a loop"),
            },
            Statement::Break => match self.fb.breaks.last() {
                Some(&b) => {
                    self.fb.goto(b);
                    Ok(())
                }
                None => unsupported(pos, "`break` outside a loop or switch"),
            },
            Statement::Return(e) => {
                let op = match e {
                    Some(x) => {
                        let op = self.expr(x)?;
                        let t = self.op_type(&op);
                        if matches!(self.lw.types.get(t), Type::Void) {
                            if has_reads(&op) {
                                self.emit(StmtKind::Eval(op), pos);
                            }
                            None
                        } else {
                            Some(op)
                        }
                    }
                    None => None,
                };
                self.fb.terminate(Term::Return(op, pos));
                Ok(())
            }
            Statement::Asm(a) => self.asm(a, pos),
        }
    }

    /// A labelled statement: a `goto` label, or a `case`/`default` of the enclosing `switch`.
    fn labeled(&mut self, l: &'a Node<lang_c::ast::LabeledStatement>, pos: Pos) -> R<()> {
        match &l.node.label.node {
            Label::Identifier(id) => {
                let name = self.label_name(&id.node.name);
                let (b, fresh) = self.fb.define_label(&name, pos);
                if !fresh {
                    return unsupported(pos, format!("label `{}` defined twice", id.node.name));
                }
                self.fb.goto_and_switch(b);
            }
            Label::Case(_) | Label::CaseRange(_) | Label::Default => {
                let b = self.fb.new_block();
                let values = match &l.node.label.node {
                    Label::Case(e) => self.const_eval(e).map(|k| Some(vec![(k, k)])),
                    Label::CaseRange(r) => {
                        match (self.const_eval(&r.node.low), self.const_eval(&r.node.high)) {
                            (Some(lo), Some(hi)) => Some(Some(vec![(lo, hi)])),
                            _ => None,
                        }
                    }
                    _ => Some(None),
                };
                let Some(sw) = self.fb.switches.last_mut() else {
                    return unsupported(pos, "case label outside a switch");
                };
                sw.targets.push(b);
                sw.constant &= values.is_some();
                sw.values.push(values.flatten());
                sw.has_default |= matches!(l.node.label.node, Label::Default);
                self.fb.goto_and_switch(b);
            }
        }
        self.stmt(&l.node.statement)
    }

    /// The counter, start, comparison and bound of a `for` loop of the canonical counting form
    /// (see [`CountedLoop`]), read from its syntax; `None` for any other loop. Called after the
    /// initializer is lowered, with the loop's scope current.
    fn counted_for(&self, fs: &'a ForStatement) -> Option<(VarId, i64, LoopCmp, LoopBound)> {
        let (counter, start) = match &fs.initializer.node {
            ForInitializer::Expression(e) => match &e.node {
                Expression::BinaryOperator(b) if b.node.operator.node == B::Assign => (
                    self.counter_var(&b.node.lhs)?,
                    self.const_eval(&b.node.rhs)?,
                ),
                _ => return None,
            },
            ForInitializer::Declaration(d) => {
                let [id] = d.node.declarators.as_slice() else {
                    return None;
                };
                let Some(Initializer::Expression(e)) =
                    id.node.initializer.as_ref().map(|i| &i.node)
                else {
                    return None;
                };
                let name = declarator_name(&id.node.declarator.node)?;
                let v = match self.lookup(&name.node.name) {
                    Some(Binding::Var(v)) => v,
                    _ => return None,
                };
                (self.is_counter(v).then_some(v)?, self.const_eval(e)?)
            }
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => return None,
        };
        let (op, bound) = self.counted_condition(counter, fs.condition.as_deref()?)?;
        let increments = self.increments(counter, fs.step.as_deref()?);
        increments.then_some((counter, start, op, bound))
    }

    /// The comparison and bound of a counted loop's condition `counter OP bound`.
    fn counted_condition(
        &self,
        counter: VarId,
        cond: &'a Node<Expression>,
    ) -> Option<(LoopCmp, LoopBound)> {
        let Expression::BinaryOperator(c) = &cond.node else {
            return None;
        };
        let op = match c.node.operator.node {
            B::Less => LoopCmp::Lt,
            B::LessOrEqual => LoopCmp::Le,
            B::NotEquals => LoopCmp::Ne,
            _ => return None,
        };
        if self.counter_var(&c.node.lhs)? != counter {
            return None;
        }
        let bound = match self.const_eval(&c.node.rhs) {
            Some(k) => LoopBound::Const(k),
            None if matches!(c.node.rhs.node, Expression::Member(_)) => {
                self.member_bound(&c.node.rhs)?
            }
            None => {
                let Expression::Identifier(id) = &c.node.rhs.node else {
                    return None;
                };
                let Some(Binding::Var(v)) = self.lookup(&id.node.name) else {
                    return None;
                };
                let kind_ok = matches!(
                    self.lw.vars[v].kind,
                    VarKind::Global { .. } | VarKind::Local(_) | VarKind::Param(..)
                );
                if v == counter || !kind_ok || !matches!(self.var_type(v), Type::Int) {
                    return None;
                }
                LoopBound::Var(v)
            }
        };
        Some((op, bound))
    }

    /// Whether `e` adds one to `counter` (`i++`, `++i`, `i += 1`, `i = i + 1`, `i = 1 + i`).
    fn increments(&self, counter: VarId, e: &'a Node<Expression>) -> bool {
        let is_counter = |e: &'a Node<Expression>| self.counter_var(e) == Some(counter);
        let is_one = |e: &'a Node<Expression>| self.const_eval(e) == Some(1);
        match &e.node {
            Expression::UnaryOperator(u) => {
                matches!(
                    u.node.operator.node,
                    UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
                ) && is_counter(&u.node.operand)
            }
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::AssignPlus => is_counter(&b.node.lhs) && is_one(&b.node.rhs),
                B::Assign if is_counter(&b.node.lhs) => match &b.node.rhs.node {
                    Expression::BinaryOperator(sum) if sum.node.operator.node == B::Plus => {
                        (is_counter(&sum.node.lhs) && is_one(&sum.node.rhs))
                            || (is_one(&sum.node.lhs) && is_counter(&sum.node.rhs))
                    }
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    fn while_loop(&mut self, w: &'a WhileStatement) -> R<()> {
        if let Some(counted) = self.counted_while(w) {
            return self.counted_while_loop(w, counted);
        }
        let (head, body, exit) = (
            self.fb.new_block(),
            self.fb.new_block(),
            self.fb.new_block(),
        );
        self.fb.goto_and_switch(head);
        self.cond(&w.expression, body, exit)?;
        self.fb.switch_to(body);
        self.loop_body(&w.statement, exit, head)?;
        self.fb.goto(head);
        self.fb.switch_to(exit);
        Ok(())
    }

    /// The counter, start, comparison and bound of a `while` loop that counts: the statement
    /// just lowered (the last of the current block) is `i = START` for an integer local `i`, the
    /// condition is `i OP bound` as in a `for` loop, and the body is a compound statement whose
    /// last statement increments `i`. It is lowered as `for (i = START; cond; i++)` would be
    /// ([`Self::counted_while_loop`]), which is how CIL writes every `for` loop.
    fn counted_while(&self, w: &'a WhileStatement) -> Option<(VarId, i64, LoopCmp, LoopBound)> {
        let StmtKind::Assign { dst, src } = &self.fb.last_stmt()?.kind else {
            return None;
        };
        let Base::Var(counter) = dst.base else {
            return None;
        };
        let Operand::Const(_, Some(start)) = src.without_casts() else {
            return None;
        };
        if !dst.proj.is_empty() || !self.is_counter(counter) {
            return None;
        }
        let (op, bound) = self.counted_condition(counter, &w.expression)?;
        let Statement::Compound(items) = &w.statement.node else {
            return None;
        };
        let BlockItem::Statement(last) = &items.last()?.node else {
            return None;
        };
        let Statement::Expression(Some(step)) = &last.node else {
            return None;
        };
        self.increments(counter, step)
            .then_some((counter, *start, op, bound))
    }

    /// Lowers a counting `while` loop ([`Self::counted_while`]) with the blocks of a counted
    /// `for`: the body but its last statement, then the increment in a step block of its own. A
    /// `continue` goes to the head (skipping the increment, as C says); if the body has one, the
    /// head has a third predecessor and the loop is not recorded as counted.
    fn counted_while_loop(
        &mut self,
        w: &'a WhileStatement,
        counted: (VarId, i64, LoopCmp, LoopBound),
    ) -> R<()> {
        let Statement::Compound(items) = &w.statement.node else {
            unreachable!("counted_while checked the body");
        };
        let (last, rest) = items.split_last().expect("counted_while checked the body");
        let (head, body, step, exit) = (
            self.fb.new_block(),
            self.fb.new_block(),
            self.fb.new_block(),
            self.fb.new_block(),
        );
        self.fb.goto_and_switch(head);
        self.cond(&w.expression, body, exit)?;
        self.fb.switch_to(body);
        self.fb.breaks.push(exit);
        self.fb.continues.push(head);
        self.scopes.push(FxHashMap::default());
        let r = rest.iter().try_for_each(|item| self.block_item(item));
        self.fb.breaks.pop();
        self.fb.continues.pop();
        r?;
        self.fb.goto_and_switch(step);
        self.block_item(last)?;
        self.scopes.pop();
        self.fb.goto(head);
        self.fb.switch_to(exit);
        if self.fb.edges_into(head) == 2 {
            self.fb
                .counted_loops
                .push(counted_loop([head, body, step, exit], counted));
        }
        Ok(())
    }

    /// `g.field` or `p->field` as a loop bound: an integer member (not through an anonymous
    /// member) of a global struct variable that is not thread-local, or of the struct a local or
    /// parameter pointer points to.
    fn member_bound(&self, e: &'a Node<Expression>) -> Option<LoopBound> {
        let Expression::Member(m) = &e.node else {
            return None;
        };
        let Expression::Identifier(id) = &m.node.expression.node else {
            return None;
        };
        let Some(Binding::Var(var)) = self.lookup(&id.node.name) else {
            return None;
        };
        let direct = m.node.operator.node == MemberOperator::Direct;
        let sid = match (direct, &self.lw.vars[var].kind, self.var_type(var)) {
            (
                true,
                VarKind::Global {
                    thread_local: false,
                    ..
                },
                Type::Struct(sid),
            ) => *sid,
            (false, VarKind::Local(_) | VarKind::Param(..), Type::Pointer(to)) => {
                let Type::Struct(sid) = self.lw.types.get(*to) else {
                    return None;
                };
                *sid
            }
            _ => return None,
        };
        let [(strukt, index)] = self.find_field(sid, &m.node.identifier.node.name)?[..] else {
            return None;
        };
        let field_ty = self.lw.types.structs[strukt].fields[index as usize].ty;
        if !matches!(self.lw.types.get(field_ty), Type::Int) {
            return None;
        }
        Some(if direct {
            LoopBound::GlobalField { var, strukt, index }
        } else {
            LoopBound::Member {
                ptr: var,
                strukt,
                index,
            }
        })
    }

    /// The variable `e` names if it is a plain identifier that can count a loop.
    fn counter_var(&self, e: &'a Node<Expression>) -> Option<VarId> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        match self.lookup(&id.node.name) {
            Some(Binding::Var(v)) if self.is_counter(v) => Some(v),
            _ => None,
        }
    }

    /// Whether `v` can count a loop: an integer local or parameter of the function being lowered.
    fn is_counter(&self, v: VarId) -> bool {
        let f = self.fb.func;
        let own = match self.lw.vars[v].kind {
            VarKind::Local(g) | VarKind::Param(g, _) => g == f,
            _ => false,
        };
        own && matches!(self.var_type(v), Type::Int)
    }

    fn var_type(&self, v: VarId) -> &Type {
        self.lw.types.get(self.lw.vars[v].ty)
    }

    fn loop_body(
        &mut self,
        body: &'a Node<Statement>,
        exit: crate::ir::BlockId,
        next: crate::ir::BlockId,
    ) -> R<()> {
        self.fb.breaks.push(exit);
        self.fb.continues.push(next);
        let r = self.stmt(body);
        self.fb.breaks.pop();
        self.fb.continues.pop();
        r
    }

    /// `if … else if … else …`, iteratively so that long chains do not nest Rust frames.
    fn if_chain(&mut self, s: &'a Node<Statement>) -> R<()> {
        let join = self.fb.new_block();
        let mut cur = s;
        loop {
            let Statement::If(ifs) = &cur.node else {
                self.stmt(cur)?;
                break;
            };
            let then_b = self.fb.new_block();
            let else_b = if ifs.node.else_statement.is_some() {
                self.fb.new_block()
            } else {
                join
            };
            self.cond(&ifs.node.condition, then_b, else_b)?;
            self.fb.switch_to(then_b);
            self.stmt(&ifs.node.then_statement)?;
            self.fb.goto(join);
            match &ifs.node.else_statement {
                Some(e) => {
                    self.fb.switch_to(else_b);
                    cur = e;
                }
                None => break,
            }
        }
        self.fb.goto(join);
        self.fb.switch_to(join);
        Ok(())
    }

    fn asm(&mut self, a: &'a Node<AsmStatement>, pos: Pos) -> R<()> {
        let mut operands = Vec::new();
        if let AsmStatement::GnuExtended(g) = &a.node {
            for o in g.outputs.iter().chain(&g.inputs) {
                let e = &o.node.variable_name;
                if self.is_lvalue_expr(e) {
                    operands.push(self.lval(e)?);
                } else {
                    let op = self.expr(e)?;
                    if has_reads(&op) {
                        self.emit(StmtKind::Eval(op), self.pos(e.span));
                    }
                }
            }
        }
        self.emit(StmtKind::Asm { operands }, pos);
        if let AsmStatement::GnuExtended(g) = &a.node {
            if !g.labels.is_empty() {
                // `asm goto` falls through or jumps to any of its labels.
                let next = self.fb.new_block();
                let mut targets = vec![next];
                for l in &g.labels {
                    let name = self.label_name(&l.node.name);
                    targets.push(self.fb.label_block(&name, self.pos(l.span)));
                }
                self.fb.terminate(Term::Multi(targets, None));
                self.fb.switch_to(next);
            }
        }
        Ok(())
    }

    fn is_lvalue_expr(&self, e: &'a Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(id) => {
                matches!(self.lookup(&id.node.name), Some(Binding::Var(_)))
            }
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            Expression::BinaryOperator(b) => {
                b.node.operator.node == lang_c::ast::BinaryOperator::Index
            }
            Expression::Member(_) | Expression::CompoundLiteral(_) => true,
            _ => false,
        }
    }

    /// A GNU statement expression `({ … })`: its value is that of its last expression statement.
    pub(super) fn stmt_expr(&mut self, s: &'a Node<Statement>, want: bool) -> R<Operand> {
        let void = Operand::Const(self.lw.types.void(), None);
        let Statement::Compound(items) = &s.node else {
            self.stmt(s)?;
            return Ok(void);
        };
        self.scopes.push(FxHashMap::default());
        let mut value = void;
        for (i, item) in items.iter().enumerate() {
            if want && i + 1 == items.len() {
                if let BlockItem::Statement(st) = &item.node {
                    if let Statement::Expression(Some(e)) = &st.node {
                        value = self.expr(e)?;
                        break;
                    }
                }
            }
            self.block_item(item)?;
        }
        self.scopes.pop();
        Ok(value)
    }

    // ----- declarations in blocks -----

    /// Sets [`UnitCx::auto_type`] for a declaration whose type is `__auto_type` (GNU): the type
    /// of its one declarator's initializer, arrays and functions decayed to pointers, as gcc
    /// infers it. Any other declaration clears it.
    fn auto_typed(&mut self, d: &'a Node<Declaration>) -> R<()> {
        self.auto_type = None;
        let auto = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, lang_c::ast::DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, lang_c::ast::TypeSpecifier::TypedefName(id)
                    if id.node.name == super::AUTO_TYPE))
        });
        if !auto || matches!(self.lookup(super::AUTO_TYPE), Some(Binding::Typedef { .. })) {
            return Ok(());
        }
        let init = match d.node.declarators.as_slice() {
            [id] => id.node.initializer.as_ref(),
            _ => None,
        };
        let Some(Node {
            node: Initializer::Expression(e),
            ..
        }) = init
        else {
            return unsupported(
                self.pos(d.span),
                "`__auto_type` needs one declarator with an initializer expression",
            );
        };
        let t = self.type_of(e)?;
        self.auto_type = Some(self.decay_type(t));
        Ok(())
    }

    fn local_declaration(&mut self, d: &'a Node<Declaration>) -> R<()> {
        self.auto_typed(d)?;
        let specs = self.decl_specs(&d.node.specifiers, typedef_hint(&d.node))?;
        for id in &d.node.declarators {
            self.local_declarator(&specs, id)?;
        }
        Ok(())
    }

    fn local_declarator(
        &mut self,
        specs: &Specs,
        id: &'a Node<lang_c::ast::InitDeclarator>,
    ) -> R<()> {
        let decl = self.declarator(specs.ty, &id.node.declarator)?;
        let Some(name_node) = decl.name else {
            return Ok(());
        };
        let name = name_node.node.name.as_str();
        let pos = self.pos(name_node.span);
        let ty = decl.ty;
        if specs.storage == Some(StorageClassSpecifier::Typedef) {
            let atomic = self.declares_atomic(specs.atomic, specs.ty, ty);
            let volatile = specs.volatile || decl.volatile;
            self.bind(
                name,
                Binding::Typedef {
                    ty,
                    atomic,
                    volatile,
                },
            );
            return Ok(());
        }
        if self.is_function_type(ty) {
            let f = self.declare_func(name, &decl, false, specs.noreturn, pos);
            self.bind(name, Binding::Func(f));
            return Ok(());
        }
        let init = &id.node.initializer;
        let is_static = specs.storage == Some(StorageClassSpecifier::Static)
            || (specs.storage.is_none() && specs.thread_local);
        if specs.storage == Some(StorageClassSpecifier::Extern) {
            let v = self.extern_var(name, ty, specs.thread_local, pos);
            self.bind(name, Binding::Var(v));
            if init.is_some() {
                return unsupported(
                    pos,
                    format!("block-scope `extern {name}` with an initializer"),
                );
            }
        } else if is_static {
            {
                let kind = VarKind::Global {
                    thread_local: specs.thread_local,
                    defined: true,
                    is_static: true,
                };
                let v = self.new_var(format!("{}.{}", self.func_name, name), ty, kind, pos);
                self.lw.vars[v].atomic = self.declares_atomic(specs.atomic, specs.ty, ty);
                self.lw.vars[v].volatile = specs.volatile || decl.volatile;
                self.lw.vars[v].signal_atomic = self.declares_signal_atomic(specs, ty);
                self.bind(name, Binding::Var(v));
                if let Some(init) = init {
                    let chunks = self.initializer_chunk(v, ty, init, pos)?;
                    self.fb.statics.extend(chunks);
                }
            }
        } else {
            {
                let v = self.new_var(name.to_string(), ty, VarKind::Local(self.fb.func), pos);
                self.lw.vars[v].atomic = self.declares_atomic(specs.atomic, specs.ty, ty);
                self.lw.vars[v].volatile = specs.volatile || decl.volatile;
                self.fb.locals.push(v);
                self.bind(name, Binding::Var(v));
                for size in decl.array_sizes.iter().flatten() {
                    if self.const_eval(size).is_none() {
                        let op = self.expr(size)?;
                        if has_reads(&op) {
                            self.emit(StmtKind::Eval(op), self.pos(size.span));
                        }
                    }
                }
                if let Some(init) = init {
                    self.init(&var_lval(v, pos), ty, init)?;
                }
            }
        }
        Ok(())
    }

    // ----- initializers -----

    pub(super) fn init(&mut self, lv: &Lval, ty: TypeId, init: &'a Node<Initializer>) -> R<()> {
        match &init.node {
            Initializer::Expression(e) => self.init_expr(lv, ty, e),
            Initializer::List(items) => self.init_list(lv, ty, items),
        }
    }

    pub(super) fn init_list(
        &mut self,
        lv: &Lval,
        ty: TypeId,
        items: &'a [Node<InitializerListItem>],
    ) -> R<()> {
        let mut i = 0;
        self.init_aggregate(lv, ty, items, &mut i, true, None)
    }

    /// Initializes `lv` from one expression. A string literal initializing a character array
    /// writes constants into it; a lock is only written when copied from another object.
    fn init_expr(&mut self, lv: &Lval, ty: TypeId, e: &'a Node<Expression>) -> R<()> {
        let pos = self.pos(e.span);
        match self.lw.types.get(ty) {
            Type::Array(_) if matches!(e.node, Expression::StringLiteral(_)) => {
                let dst = with_index(lv);
                let src = Operand::Const(self.lw.types.int(), None);
                self.emit(StmtKind::Assign { dst, src }, pos);
            }
            Type::Lock(_) | Type::Cond => {
                let op = self.expr(e)?;
                if has_reads(&op) {
                    self.emit(
                        StmtKind::Assign {
                            dst: lv.clone(),
                            src: op,
                        },
                        pos,
                    );
                }
            }
            _ => {
                let src = match (&e.node, self.trylock_call(e)) {
                    (Expression::Call(c), Some(how)) => {
                        let (value, lock) = self.call(c, pos, true)?;
                        self.assigned(lv, lock.map(|l| (l, how)));
                        value
                    }
                    _ => {
                        let src = self.expr(e)?;
                        self.assigned(lv, None);
                        src
                    }
                };
                self.emit(
                    StmtKind::Assign {
                        dst: lv.clone(),
                        src,
                    },
                    pos,
                );
            }
        }
        Ok(())
    }

    fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(
            self.lw.types.get(ty),
            Type::Array(_) | Type::Struct(_) | Type::Union(_)
        )
    }

    /// Whether expression `e` initializes a whole aggregate of type `ty` (a string for a
    /// character array, a struct value for a struct) rather than its first member.
    fn initializes_whole(&mut self, ty: TypeId, e: &'a Node<Expression>) -> bool {
        match self.lw.types.get(ty) {
            Type::Array(_) => matches!(e.node, Expression::StringLiteral(_)),
            _ => self.type_of(e).is_ok_and(|t| t == ty),
        }
    }

    /// Initializes the object `lv` of type `ty` from `items[*i..]` (C11 6.7.9). A braced list is
    /// consumed entirely; with brace elision (`braced` false) only the items this sub-object
    /// takes are: one per member, `len` elements for an array of known size, and never an item
    /// with a designator (it belongs to the enclosing braced list).
    fn init_aggregate(
        &mut self,
        lv: &Lval,
        ty: TypeId,
        items: &'a [Node<InitializerListItem>],
        i: &mut usize,
        braced: bool,
        len: Option<u64>,
    ) -> R<()> {
        match self.lw.types.get(ty).clone() {
            Type::Array(elem) => {
                let sub = with_index(lv);
                let mut count = 0u64;
                while let Some(item) = items.get(*i) {
                    if !item.node.designation.is_empty() {
                        if !braced {
                            return Ok(());
                        }
                        self.init_designated(
                            &sub,
                            elem,
                            &item.node.designation[1..],
                            &item.node.initializer,
                        )?;
                        *i += 1;
                        continue;
                    }
                    if !braced && len.is_some_and(|n| count >= n) {
                        return Ok(());
                    }
                    self.init_member(&sub, elem, items, i, None)?;
                    count += 1;
                }
            }
            Type::Struct(sid) | Type::Union(sid) => {
                let is_union = matches!(self.lw.types.get(ty), Type::Union(_));
                let members: Vec<Member> = self
                    .lw
                    .struct_info(sid)
                    .map(|s| s.members.clone())
                    .unwrap_or_default();
                let mut m = 0usize;
                while let Some(item) = items.get(*i) {
                    if let Some(first) = item.node.designation.first() {
                        if !braced {
                            return Ok(());
                        }
                        let pos = self.pos(first.span);
                        let Designator::Member(id) = &first.node else {
                            return unsupported(pos, "array designator in a struct initializer");
                        };
                        let Some((k, path)) = self.member_path(sid, &members, &id.node.name) else {
                            return unsupported(pos, format!("no member named `{}`", id.node.name));
                        };
                        let (sub, sub_ty) = self.project(lv, &path);
                        self.init_designated(
                            &sub,
                            sub_ty,
                            &item.node.designation[1..],
                            &item.node.initializer,
                        )?;
                        m = k + 1;
                        *i += 1;
                        continue;
                    }
                    if m >= members.len() || (is_union && m >= 1) {
                        if braced {
                            // Excess initializers (a constraint violation compilers only warn
                            // about) initialize nothing, but are still evaluated.
                            self.init_effects(std::slice::from_ref(item))?;
                            *i += 1;
                            continue;
                        }
                        return Ok(());
                    }
                    let mem = members[m].clone();
                    let (sub, sub_ty) = self.project(lv, &[(sid, mem.field)]);
                    self.init_member(&sub, sub_ty, items, i, mem.array_len)?;
                    m += 1;
                }
            }
            lock @ (Type::Lock(_) | Type::Cond) => {
                // `PTHREAD_MUTEX_INITIALIZER` and friends: the lock's own representation, which
                // the analysis does not model; only their evaluation is kept, and the kind of
                // mutex they may make.
                if lock == Type::Lock(crate::ir::ctypes::LockKind::Mutex) {
                    self.note_mutex_kind(lv, &items[*i..]);
                }
                self.init_effects(&items[*i..])?;
                *i = items.len();
            }
            _ => {
                if let Some(item) = items.get(*i) {
                    self.init(lv, ty, &item.node.initializer)?;
                    self.init_effects(&items[*i + 1..])?;
                }
                *i = items.len();
            }
        }
        Ok(())
    }

    /// A static initializer of a mutex `lv` may make an error-checking or a recursive one
    /// (glibc's `PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP` and
    /// `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` hold the kind among zeros). A value that is
    /// not a constant a normal, recursive or adaptive mutex has
    /// ([`crate::model::relock_may_fail`]) makes every mutex of the program keep plain lock
    /// sets ([`crate::ir::Program::relock_may_fail`]); one that is not a normal or adaptive
    /// mutex's, whose second lock blocks, tells the deadlock check that locking `lv` again may
    /// not block ([`Intrinsic::LockKind`](crate::model::Intrinsic), as `pthread_mutex_init`
    /// with attributes does).
    fn note_mutex_kind(&mut self, lv: &Lval, items: &'a [Node<InitializerListItem>]) {
        let mut values = Vec::new();
        collect_constants(self, items, &mut values);
        self.lw.relock_may_fail |= values.iter().any(|&v| crate::model::relock_may_fail(v));
        if values.iter().any(|v| !matches!(v, Some(0 | 3))) {
            let pos = lv.pos;
            let f = self.intrinsic_func(pos, crate::model::Intrinsic::LockKind);
            let arg = self.addr_of(lv.clone());
            self.emit(
                StmtKind::Call {
                    dst: None,
                    callee: crate::ir::Callee::Direct(f),
                    args: vec![arg.clone(), arg],
                },
                pos,
            );
        }
    }

    /// Evaluates initializer items that initialize nothing, for their side effects and reads.
    fn init_effects(&mut self, items: &'a [Node<InitializerListItem>]) -> R<()> {
        for item in items {
            match &item.node.initializer.node {
                Initializer::Expression(e) => self.effect(e)?,
                Initializer::List(inner) => self.init_effects(inner)?,
            }
        }
        Ok(())
    }

    /// Initializes a member or element from the next (undesignated) item, entering it with
    /// brace elision when the item is an expression that does not initialize it whole.
    fn init_member(
        &mut self,
        sub: &Lval,
        ty: TypeId,
        items: &'a [Node<InitializerListItem>],
        i: &mut usize,
        len: Option<u64>,
    ) -> R<()> {
        let item = &items[*i];
        match &item.node.initializer.node {
            Initializer::List(inner) => {
                *i += 1;
                let mut j = 0;
                self.init_aggregate(sub, ty, inner, &mut j, true, None)
            }
            Initializer::Expression(e) => {
                if self.is_aggregate(ty) && !self.initializes_whole(ty, e) {
                    let before = *i;
                    self.init_aggregate(sub, ty, items, i, false, len)?;
                    if *i == before {
                        *i += 1;
                    }
                    Ok(())
                } else {
                    *i += 1;
                    self.init_expr(sub, ty, e)
                }
            }
        }
    }

    /// Applies the remaining designators of an item, then initializes the designated object.
    fn init_designated(
        &mut self,
        lv: &Lval,
        ty: TypeId,
        rest: &'a [Node<Designator>],
        init: &'a Node<Initializer>,
    ) -> R<()> {
        let Some((d, rest)) = rest.split_first() else {
            return match &init.node {
                Initializer::List(items) => self.init_list(lv, ty, items),
                Initializer::Expression(e)
                    if self.is_aggregate(ty) && !self.initializes_whole(ty, e) =>
                {
                    self.init_first_scalar(lv, ty, e)
                }
                Initializer::Expression(e) => self.init_expr(lv, ty, e),
            };
        };
        let pos = self.pos(d.span);
        match (&d.node, self.lw.types.get(ty).clone()) {
            (Designator::Index(_) | Designator::Range(_), Type::Array(elem)) => {
                self.init_designated(&with_index(lv), elem, rest, init)
            }
            (Designator::Member(id), Type::Struct(sid) | Type::Union(sid)) => {
                let Some(path) = self.find_field(sid, &id.node.name) else {
                    return unsupported(pos, format!("no member named `{}`", id.node.name));
                };
                let (sub, sub_ty) = self.project(lv, &path);
                self.init_designated(&sub, sub_ty, rest, init)
            }
            _ => unsupported(pos, "designator does not match the initialized type"),
        }
    }

    /// `.agg = e` with brace elision: `e` initializes the first scalar inside `agg`.
    fn init_first_scalar(&mut self, lv: &Lval, ty: TypeId, e: &'a Node<Expression>) -> R<()> {
        let (mut lv, mut ty) = (lv.clone(), ty);
        loop {
            match self.lw.types.get(ty).clone() {
                Type::Array(elem) => {
                    lv = with_index(&lv);
                    ty = elem;
                }
                Type::Struct(sid) | Type::Union(sid) => {
                    let Some(first) = self
                        .lw
                        .struct_info(sid)
                        .and_then(|s| s.members.first().cloned())
                    else {
                        return Ok(());
                    };
                    (lv, ty) = self.project(&lv, &[(sid, first.field)]);
                }
                _ => break,
            }
            if !self.is_aggregate(ty) || self.initializes_whole(ty, e) {
                break;
            }
        }
        self.init_expr(&lv, ty, e)
    }

    /// The position among `members` of member `name` (possibly inside an anonymous member) and
    /// the fields leading to it.
    fn member_path(
        &self,
        sid: StructId,
        members: &[Member],
        name: &str,
    ) -> Option<(usize, Vec<(StructId, u32)>)> {
        for (k, m) in members.iter().enumerate() {
            match &m.name {
                Some(n) if n == name => return Some((k, vec![(sid, m.field)])),
                None => {
                    let fty = self.lw.types.structs[sid].fields[m.field as usize].ty;
                    if let Type::Struct(inner) | Type::Union(inner) = self.lw.types.get(fty) {
                        if let Some(rest) = self.find_field(*inner, name) {
                            let mut path = vec![(sid, m.field)];
                            path.extend(rest);
                            return Some((k, path));
                        }
                    }
                }
                Some(_) => {}
            }
        }
        None
    }

    /// `lv` with field projections appended, and the type of the result.
    fn project(&self, lv: &Lval, path: &[(StructId, u32)]) -> (Lval, TypeId) {
        let mut out = lv.clone();
        let mut ty = self.lval_type(lv);
        for &(strukt, index) in path {
            out.proj.push(Proj::Field { strukt, index });
            ty = self.lw.types.structs[strukt].fields[index as usize].ty;
        }
        (out, ty)
    }
}

/// An element of the array `lv` (all elements are one location).
fn with_index(lv: &Lval) -> Lval {
    let mut out = lv.clone();
    out.proj.push(Proj::Index(None));
    out
}

/// The values of the leaves of an initializer (`None` for one that is not a constant).
fn collect_constants<'a>(
    lw: &UnitCx<'a>,
    items: &'a [Node<InitializerListItem>],
    out: &mut Vec<Option<i64>>,
) {
    for item in items {
        match &item.node.initializer.node {
            Initializer::List(inner) => collect_constants(lw, inner, out),
            Initializer::Expression(e) => out.push(lw.const_eval(e)),
        }
    }
}

/// The record of a counted loop lowered into these blocks (head, body, step, exit).
fn counted_loop(
    [head, body, step, exit]: [crate::ir::BlockId; 4],
    (counter, start, op, bound): (VarId, i64, LoopCmp, LoopBound),
) -> CountedLoop {
    CountedLoop {
        head,
        body,
        step,
        exit,
        counter,
        start,
        op,
        bound,
    }
}
