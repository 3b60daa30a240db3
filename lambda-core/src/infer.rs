//! Pass 2 of inference: labelled types and constraint generation (paper figures 5–7).
//!
//! With every expression's shape known from pass 1 ([`crate::shapes`]), this pass walks the
//! program once, gives every type fresh labels of the right structure, and emits the constraints of
//! each rule into a [`solver::Constraints`]. Structured subtyping and instantiation are decomposed
//! here (figure 7) so the solver only ever sees atomic label constraints.

use rustc_hash::FxHashMap;

use crate::ast::{Binder, ExprId, ExprKind, Program, Span};
use crate::shapes::{Shape, Shapes};
use solver::ids::IndexVec;
use solver::{
    Access, Constraints, EffectExpr, EffectNode, EffectVar, Lock, Mark, Polarity, Rho, RhoKind,
    Scope, Site, SiteKind, Unpack,
};

/// A labelled λ▷ type (figure 4): `int | τ × τ | τ →^χ τ | lock ℓ | ref^ρ τ`, plus existential
/// packages (§3.3), whose labels are bound and therefore not part of the type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Lock(Lock),
    Ref(Rho, Box<Ty>),
    Pair(Box<Ty>, Box<Ty>),
    Fun(Box<Ty>, EffectVar, Box<Ty>),
    /// A package; the number names its package class (all packages that may flow together).
    Packed(u32),
}

impl Ty {
    /// The free labels `fl(τ)`: every location and lock label in the type (not in effects).
    pub fn labels(&self, rhos: &mut Vec<Rho>, locks: &mut Vec<Lock>) {
        match self {
            Ty::Int | Ty::Packed(_) => {}
            Ty::Lock(l) => locks.push(*l),
            Ty::Ref(r, t) => {
                rhos.push(*r);
                t.labels(rhos, locks);
            }
            Ty::Pair(a, b) | Ty::Fun(a, _, b) => {
                a.labels(rhos, locks);
                b.labels(rhos, locks);
            }
        }
    }
}

/// Why a label exists, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Allocated by `ref` (a location) or `newlock` (a lock).
    Alloc,
    /// Part of the type of the variable named here.
    Binder(String),
    /// Part of the instance of a polymorphic name at a use site.
    Instance(Site),
    /// Part of the type of an expression (the result of a conditional, a reference's contents).
    Expr,
    /// Opened by an `unpack`.
    Opened,
    /// A fresh lock created by the solver for the locks a call allocates.
    Materialised { generic: Lock, site: Site },
}

/// Where a label, site or effect comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub span: Span,
    pub role: Role,
}

/// A name bound by `let` or `let rec`, with its inferred type.
#[derive(Clone, Debug)]
pub struct BindingInfo {
    pub name: String,
    pub span: Span,
    pub ty: Ty,
    /// The scope whose labels are quantified, for generalised bindings.
    pub generic: Option<Scope>,
}

/// The output of inference: the constraints and everything needed to explain them.
pub struct Analysis {
    pub constraints: Constraints,
    pub rho_origin: IndexVec<Rho, Origin>,
    pub lock_origin: IndexVec<Lock, Origin>,
    /// The use of a polymorphic name (or the `pack`) each site stands for.
    pub site_origin: IndexVec<Site, Origin>,
    pub access_span: IndexVec<Access, Span>,
    /// The expression that built each disjoint union, for linearity reports.
    pub effect_span: IndexVec<EffectNode, Span>,
    /// `let rec` functions whose effect must be empty: the effect variable and the name.
    pub rec_effects: Vec<(EffectVar, String, Span)>,
    pub bindings: Vec<BindingInfo>,
}

#[derive(Clone, Debug)]
enum Binding {
    Mono(Ty),
    /// `(∀.τ, l⃗)`: the labels of `τ` created in `binder` are quantified; the others are `l⃗`.
    Poly {
        ty: Ty,
        binder: Scope,
    },
}

struct PackRecord {
    class: u32,
    ty: Ty,
    span: Span,
    scope: Scope,
}

struct UnpackRecord {
    class: u32,
    unpack: Unpack,
    opened: Ty,
}

struct Pass2<'a> {
    program: &'a Program,
    shapes: &'a mut Shapes,
    c: Constraints,
    env: FxHashMap<String, Vec<Binding>>,
    scope: Scope,
    effect_scope: IndexVec<EffectVar, Scope>,
    rho_origin: IndexVec<Rho, Origin>,
    lock_origin: IndexVec<Lock, Origin>,
    site_origin: IndexVec<Site, Origin>,
    access_span: IndexVec<Access, Span>,
    effect_span: IndexVec<EffectNode, Span>,
    rec_effects: Vec<(EffectVar, String, Span)>,
    bindings: Vec<BindingInfo>,
    packs: Vec<PackRecord>,
    unpacks: Vec<UnpackRecord>,
    empty: EffectNode,
}

impl Pass2<'_> {
    fn rho(&mut self, kind: RhoKind, origin: Origin) -> Rho {
        self.rho_origin.push(origin);
        self.c.new_rho(self.scope, kind)
    }

    fn lock(&mut self, origin: Origin) -> Lock {
        self.lock_origin.push(origin);
        self.c.new_lock(self.scope)
    }

    fn effect_var(&mut self) -> EffectVar {
        self.effect_scope.push(self.scope);
        self.c.new_effect_var()
    }

    fn effect(&mut self, e: EffectExpr, span: Span) -> EffectNode {
        self.effect_span.push(span);
        self.c.effect(e)
    }

    /// `ε₁ ⊎ ε₂`, skipping empty operands.
    fn disjoint(&mut self, a: EffectNode, b: EffectNode, span: Span) -> EffectNode {
        if a == self.empty {
            return b;
        }
        if b == self.empty {
            return a;
        }
        self.effect(EffectExpr::Disjoint(a, b), span)
    }

    /// A type of shape `shape` with fresh labels in the current scope.
    fn fresh(&mut self, shape: &Shape, origin: &Origin) -> Ty {
        match shape {
            Shape::Int => Ty::Int,
            Shape::Lock => Ty::Lock(self.lock(origin.clone())),
            Shape::Ref(s) => {
                let r = self.rho(RhoKind::Plain, origin.clone());
                Ty::Ref(r, Box::new(self.fresh(s, origin)))
            }
            Shape::Pair(a, b) => Ty::Pair(
                Box::new(self.fresh(a, origin)),
                Box::new(self.fresh(b, origin)),
            ),
            Shape::Fun(a, b) => {
                let x = self.fresh(a, origin);
                let chi = self.effect_var();
                let y = self.fresh(b, origin);
                Ty::Fun(Box::new(x), chi, Box::new(y))
            }
            Shape::Packed(class, _) => Ty::Packed(*class),
        }
    }

    fn fresh_of(&mut self, id: ExprId, origin: &Origin) -> Ty {
        let shape = self.shapes.resolve(self.shapes.expr[id]);
        self.fresh(&shape, origin)
    }

    /// A fresh type for the name bound at position `index` of expression `at`.
    fn binder_ty(&mut self, b: &Binder, at: ExprId, index: u8) -> Ty {
        let v = self.shapes.binder[&(at, index)];
        let shape = self.shapes.resolve(v);
        self.fresh(
            &shape,
            &Origin {
                span: b.span,
                role: Role::Binder(b.name.clone()),
            },
        )
    }

    /// `τ₁ ≤ τ₂`, decomposed by figure 7a.
    fn subtype(&mut self, a: &Ty, b: &Ty) {
        match (a, b) {
            (Ty::Int, Ty::Int) => {}
            // [Sub-Lock]: locks are unified, never subtyped.
            (Ty::Lock(x), Ty::Lock(y)) => self.c.lock_eq(*x, *y),
            // [Sub-Ref]: covariant label, invariant contents.
            (Ty::Ref(r1, t1), Ty::Ref(r2, t2)) => {
                self.c.flow(*r1, *r2);
                self.subtype(t1, t2);
                self.subtype(t2, t1);
            }
            (Ty::Pair(a1, b1), Ty::Pair(a2, b2)) => {
                self.subtype(a1, a2);
                self.subtype(b1, b2);
            }
            // [Sub-Fun]: contravariant domain, covariant range and effect.
            (Ty::Fun(a1, e1, r1), Ty::Fun(a2, e2, r2)) => {
                self.subtype(a2, a1);
                self.subtype(r1, r2);
                if e1 != e2 {
                    let n = self.effect(EffectExpr::Var(*e1), Span::default());
                    self.c.effect_bound(n, *e2);
                }
            }
            (Ty::Packed(_), Ty::Packed(_)) => {}
            _ => unreachable!("shapes were unified in pass 1: {a:?} vs {b:?}"),
        }
    }

    /// `τ ⪯ᵢᵖ τ'` with `τ'` a fresh copy of `τ` (figure 7b). Labels not generic at `binder` are
    /// kept as they are: they are their own image (`l⃗ ⪯ᵢ± l⃗`).
    fn instantiate(
        &mut self,
        t: &Ty,
        site: Site,
        pol: Polarity,
        binder: Scope,
        origin: &Origin,
    ) -> Ty {
        match t {
            Ty::Int => Ty::Int,
            Ty::Packed(k) => Ty::Packed(*k),
            Ty::Lock(l) => {
                if self.c.generic_at(self.c.locks[*l].scope, binder) {
                    let x = self.lock(origin.clone());
                    self.c.lock_inst(*l, site, x);
                    Ty::Lock(x)
                } else {
                    Ty::Lock(*l)
                }
            }
            Ty::Ref(r, inner) => {
                let r2 = if self.c.generic_at(self.c.rhos[*r].scope, binder) {
                    let x = self.rho(RhoKind::Plain, origin.clone());
                    self.c.rho_inst(*r, site, pol, x);
                    x
                } else {
                    *r
                };
                // [Inst-Ref]: contents are instantiated at both polarities.
                let inner2 = self.instantiate_both(inner, site, binder, origin);
                Ty::Ref(r2, Box::new(inner2))
            }
            Ty::Pair(a, b) => Ty::Pair(
                Box::new(self.instantiate(a, site, pol, binder, origin)),
                Box::new(self.instantiate(b, site, pol, binder, origin)),
            ),
            Ty::Fun(a, chi, b) => {
                // [Inst-Fun]: the domain flips polarity.
                let a2 = self.instantiate(a, site, pol.flip(), binder, origin);
                let chi2 = if self.c.scopes.within(self.effect_scope[*chi], binder)
                    && binder != Scope::ROOT
                {
                    let x = self.effect_var();
                    self.c.effect_inst(*chi, site, pol, x);
                    x
                } else {
                    *chi
                };
                let b2 = self.instantiate(b, site, pol, binder, origin);
                Ty::Fun(Box::new(a2), chi2, Box::new(b2))
            }
        }
    }

    /// `τ ⪯ᵢ± τ'`: one fresh copy related at both polarities.
    fn instantiate_both(&mut self, t: &Ty, site: Site, binder: Scope, origin: &Origin) -> Ty {
        let copy = self.instantiate(t, site, Polarity::Pos, binder, origin);
        self.relate(t, &copy, site, Polarity::Neg);
        copy
    }

    /// Adds instantiation constraints at polarity `pol` between `t` and an existing copy.
    fn relate(&mut self, t: &Ty, copy: &Ty, site: Site, pol: Polarity) {
        match (t, copy) {
            (Ty::Ref(r, a), Ty::Ref(r2, a2)) => {
                if r != r2 {
                    self.c.rho_inst(*r, site, pol, *r2);
                }
                self.relate(a, a2, site, pol);
            }
            (Ty::Pair(a, b), Ty::Pair(a2, b2)) => {
                self.relate(a, a2, site, pol);
                self.relate(b, b2, site, pol);
            }
            (Ty::Fun(a, e, b), Ty::Fun(a2, e2, b2)) => {
                self.relate(a, a2, site, pol.flip());
                if e != e2 {
                    self.c.effect_inst(*e, site, pol, *e2);
                }
                self.relate(b, b2, site, pol);
            }
            _ => {}
        }
    }

    /// \[Down\] (figure 6), applied once at every \[Lam\]: the effect of a function body keeps only
    /// the locks that escape through `fl(Γ) ∪ fl(τ)`. `fl(Γ)` is every label created before
    /// `outer`, the mark taken when the lambda began (see [`solver::FilterData`]).
    fn down(&mut self, body_effect: EffectNode, outer: Mark, param: &Ty, result: &Ty) -> EffectVar {
        let chi = self.effect_var();
        let (mut rhos, mut locks) = (Vec::new(), Vec::new());
        param.labels(&mut rhos, &mut locks);
        result.labels(&mut rhos, &mut locks);
        rhos.sort();
        rhos.dedup();
        locks.sort();
        locks.dedup();
        self.c
            .filter(body_effect, chi, rhos, locks, outer, self.scope);
        chi
    }

    fn bind(&mut self, name: &str, b: Binding) {
        self.env.entry(name.to_string()).or_default().push(b);
    }

    fn unbind(&mut self, name: &str) {
        if let Some(s) = self.env.get_mut(name) {
            s.pop();
        }
    }

    /// `(fun x -> body) arg` for a non-generalising `let` and for `;`: \[Lam\] with \[Down\], then
    /// \[App\].
    fn apply_lambda(
        &mut self,
        param: Option<(&Binder, ExprId)>,
        arg_ty: Ty,
        arg_effect: EffectNode,
        body: ExprId,
        span: Span,
    ) -> (Ty, EffectNode) {
        let outer = self.c.mark();
        let param_ty = match param {
            Some((b, at)) => {
                let t = self.binder_ty(b, at, 0);
                self.subtype(&arg_ty, &t);
                self.bindings.push(BindingInfo {
                    name: b.name.clone(),
                    span: b.span,
                    ty: t.clone(),
                    generic: None,
                });
                self.bind(&b.name, Binding::Mono(t.clone()));
                t
            }
            None => arg_ty,
        };
        let (body_ty, body_effect) = self.expr(body);
        if let Some((b, _)) = param {
            self.unbind(&b.name);
        }
        let chi = self.down(body_effect, outer, &param_ty, &body_ty);
        let chi_node = self.effect(EffectExpr::Var(chi), span);
        (body_ty, self.disjoint(arg_effect, chi_node, span))
    }

    /// The type and effect of expression `id`, by the rule of figures 5 and 6 for its form (§3.3
    /// for packages). The rules that bind names, touch memory or open packages have methods of
    /// their own below.
    fn expr(&mut self, id: ExprId) -> (Ty, EffectNode) {
        let e = self.program.expr(id).clone();
        let span = e.span;
        let here = Origin {
            span,
            role: Role::Expr,
        };
        match e.kind {
            // [Id] and [Inst]
            ExprKind::Var(x) => self.var(x, span),
            // [Int]
            ExprKind::Int(_) => (Ty::Int, self.empty),
            // [Lam] with [Down]
            ExprKind::Fun { param, body } => {
                let outer = self.c.mark();
                let pt = self.binder_ty(&param, id, 0);
                self.bind(&param.name, Binding::Mono(pt.clone()));
                let (bt, be) = self.expr(body);
                self.unbind(&param.name);
                let chi = self.down(be, outer, &pt, &bt);
                (Ty::Fun(Box::new(pt), chi, Box::new(bt)), self.empty)
            }
            // [App]
            ExprKind::App { func, arg } => {
                let (ft, fe) = self.expr(func);
                let (at, ae) = self.expr(arg);
                let Ty::Fun(param, chi, result) = ft else {
                    unreachable!("shape checked")
                };
                self.subtype(&at, &param);
                let both = self.disjoint(fe, ae, span);
                let call = self.effect(EffectExpr::Var(chi), span);
                (*result, self.disjoint(both, call, span))
            }
            // [Cond]
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => {
                let (_, ce) = self.expr(cond);
                let (t1, e1) = self.expr(then_branch);
                let (t2, e2) = self.expr(else_branch);
                let t = self.fresh_of(id, &here);
                self.subtype(&t1, &t);
                self.subtype(&t2, &t);
                let either = self.effect(EffectExpr::Union(e1, e2), span);
                (t, self.disjoint(ce, either, span))
            }
            // [Pair]
            ExprKind::Pair(a, b) => {
                let (ta, ea) = self.expr(a);
                let (tb, eb) = self.expr(b);
                (
                    Ty::Pair(Box::new(ta), Box::new(tb)),
                    self.disjoint(ea, eb, span),
                )
            }
            // [Proj]
            ExprKind::Proj { tuple, index } => {
                let (t, eff) = self.expr(tuple);
                let Ty::Pair(a, b) = t else {
                    unreachable!("shape checked")
                };
                (if index == 1 { *a } else { *b }, eff)
            }
            // [Let], or [Lam] and [App] when the value is not a syntactic value
            ExprKind::Let { name, value, body } => self.let_in(id, &name, value, body, span),
            // [Fix]
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                fun_span,
                body,
            } => self.let_rec(id, &name, &param, fun_body, fun_span, body),
            // `e1; e2` is `(fun _ -> e2) e1`.
            ExprKind::Seq(a, b) => {
                let (at, ae) = self.expr(a);
                self.apply_lambda(None, at, ae, b, span)
            }
            // [Newlock]
            ExprKind::Newlock => {
                let l = self.lock(Origin {
                    span,
                    role: Role::Alloc,
                });
                let eff = self.effect(EffectExpr::Single(l), span);
                (Ty::Lock(l), eff)
            }
            // [Ref]
            ExprKind::Ref(inner) => {
                let (t, eff) = self.expr(inner);
                let r = self.rho(
                    RhoKind::Alloc,
                    Origin {
                        span,
                        role: Role::Alloc,
                    },
                );
                let contents = self.fresh_of(inner, &here);
                self.subtype(&t, &contents);
                (Ty::Ref(r, Box::new(contents)), eff)
            }
            // [Deref]
            ExprKind::Deref { lock, target } => self.deref(lock, target, span),
            // [Assign]
            ExprKind::Assign {
                target,
                lock,
                value,
            } => self.assign(target, lock, value, span),
            // §3.3
            ExprKind::Pack(inner) => self.pack(id, inner, span),
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => self.unpack(&first, &second, package, body, span),
        }
    }

    /// \[Id\] (figure 5) for a name bound monomorphically, \[Inst\] (figure 6) for one bound by
    /// a generalising `let` or `let rec`: a fresh instance at a new instantiation site.
    fn var(&mut self, x: String, span: Span) -> (Ty, EffectNode) {
        let binding = self
            .env
            .get(&x)
            .and_then(|s| s.last())
            .cloned()
            .expect("bound in pass 1");
        match binding {
            Binding::Mono(t) => (t, self.empty),
            Binding::Poly { ty, binder } => {
                let site = self.c.new_site(binder, self.scope, SiteKind::Inst);
                self.site_origin.push(Origin {
                    span,
                    role: Role::Binder(x),
                });
                let origin = Origin {
                    span,
                    role: Role::Instance(site),
                };
                (
                    self.instantiate(&ty, site, Polarity::Pos, binder, &origin),
                    self.empty,
                )
            }
        }
    }

    /// `let name = value in body` (expression `id`): \[Let\] (figure 6) when `value` is a syntactic
    /// value, generalising the labels created while typing it; otherwise `(fun name -> body) value`.
    fn let_in(
        &mut self,
        id: ExprId,
        name: &Binder,
        value: ExprId,
        body: ExprId,
        span: Span,
    ) -> (Ty, EffectNode) {
        if !self.program.is_value(value) {
            let (vt, ve) = self.expr(value);
            return self.apply_lambda(Some((name, id)), vt, ve, body, span);
        }
        let outer = self.scope;
        self.scope = self.c.new_scope(outer);
        let binder = self.scope;
        let (vt, _) = self.expr(value);
        self.scope = outer;
        self.bindings.push(BindingInfo {
            name: name.name.clone(),
            span: name.span,
            ty: vt.clone(),
            generic: Some(binder),
        });
        self.bind(&name.name, Binding::Poly { ty: vt, binder });
        let r = self.expr(body);
        self.unbind(&name.name);
        r
    }

    /// `let rec name = fun param -> fun_body in body` (expression `id`): \[Fix\] (figure 6). The
    /// function is typed in a scope of its own with `name` bound polymorphically (polymorphic
    /// recursion), its body with \[Lam\] and \[Down\], and its effect must be empty.
    fn let_rec(
        &mut self,
        id: ExprId,
        name: &Binder,
        param: &Binder,
        fun_body: ExprId,
        fun_span: Span,
        body: ExprId,
    ) -> (Ty, EffectNode) {
        let outer = self.scope;
        self.scope = self.c.new_scope(outer);
        let binder = self.scope;
        let outer_mark = self.c.mark();
        let f_ty = self.binder_ty(name, id, 0);
        self.bind(
            &name.name,
            Binding::Poly {
                ty: f_ty.clone(),
                binder,
            },
        );
        let pt = self.binder_ty(param, id, 1);
        self.bind(&param.name, Binding::Mono(pt.clone()));
        let (bt, be) = self.expr(fun_body);
        self.unbind(&param.name);
        let chi = self.down(be, outer_mark, &pt, &bt);
        let fun_ty = Ty::Fun(Box::new(pt), chi, Box::new(bt));
        self.subtype(&fun_ty, &f_ty);
        let Ty::Fun(_, top, _) = &f_ty else {
            unreachable!("shape checked")
        };
        self.c.require_empty(*top);
        self.rec_effects.push((*top, name.name.clone(), fun_span));
        self.scope = outer;
        self.bindings.push(BindingInfo {
            name: name.name.clone(),
            span: name.span,
            ty: f_ty,
            generic: Some(binder),
        });
        let r = self.expr(body);
        self.unbind(&name.name);
        r
    }

    /// `![lock] target`: \[Deref\] (figure 5), a read correlating the location with the lock.
    fn deref(&mut self, lock: ExprId, target: ExprId, span: Span) -> (Ty, EffectNode) {
        let (lt, le) = self.expr(lock);
        let (tt, te) = self.expr(target);
        let (Ty::Lock(l), Ty::Ref(r, contents)) = (lt, tt) else {
            unreachable!("shape checked")
        };
        let a = self.c.access(r, l, false, self.scope);
        self.access_span.push(span);
        debug_assert_eq!(a.0 as usize + 1, self.access_span.len());
        (*contents, self.disjoint(le, te, span))
    }

    /// `target :=[lock] value`: \[Assign\] (figure 5), a write correlating the location with the
    /// lock; the value flows into the contents.
    fn assign(
        &mut self,
        target: ExprId,
        lock: ExprId,
        value: ExprId,
        span: Span,
    ) -> (Ty, EffectNode) {
        let (tt, te) = self.expr(target);
        let (lt, le) = self.expr(lock);
        let (vt, ve) = self.expr(value);
        let (Ty::Lock(l), Ty::Ref(r, contents)) = (lt, tt) else {
            unreachable!("shape checked")
        };
        self.subtype(&vt, &contents);
        self.c.access(r, l, true, self.scope);
        self.access_span.push(span);
        let first = self.disjoint(te, le, span);
        (vt, self.disjoint(first, ve, span))
    }

    /// `pack inner` (expression `id`), §3.3: the package's labels are bound; they are related to
    /// each `unpack` of its package class later (`pack_relate`).
    fn pack(&mut self, id: ExprId, inner: ExprId, span: Span) -> (Ty, EffectNode) {
        let (t, eff) = self.expr(inner);
        let Shape::Packed(class, _) = self.shapes.resolve(self.shapes.expr[id]) else {
            unreachable!("shape checked")
        };
        self.packs.push(PackRecord {
            class,
            ty: t,
            span,
            scope: self.scope,
        });
        (Ty::Packed(class), eff)
    }

    /// `unpack (first, second) = package in body`, §3.3: binds the two names to a pair of fresh
    /// opened labels, recorded to be related to every pack site of the package class.
    fn unpack(
        &mut self,
        first: &Binder,
        second: &Binder,
        package: ExprId,
        body: ExprId,
        span: Span,
    ) -> (Ty, EffectNode) {
        let (pt, pe) = self.expr(package);
        let Ty::Packed(class) = pt else {
            unreachable!("shape checked")
        };
        let Shape::Packed(_, pair) = self.shapes.resolve(self.shapes.expr[package]) else {
            unreachable!("shape checked")
        };
        let unpack = self.c.new_unpack();
        let origin = Origin {
            span,
            role: Role::Opened,
        };
        let opened = self.fresh_opened(&pair, unpack, &origin);
        self.unpacks.push(UnpackRecord {
            class,
            unpack,
            opened: opened.clone(),
        });
        let Ty::Pair(a, b) = opened else {
            unreachable!("packages hold pairs")
        };
        self.bindings.push(BindingInfo {
            name: first.name.clone(),
            span: first.span,
            ty: (*a).clone(),
            generic: None,
        });
        self.bindings.push(BindingInfo {
            name: second.name.clone(),
            span: second.span,
            ty: (*b).clone(),
            generic: None,
        });
        self.bind(&first.name, Binding::Mono(*a));
        self.bind(&second.name, Binding::Mono(*b));
        let (bt, be) = self.expr(body);
        self.unbind(&second.name);
        self.unbind(&first.name);
        (bt, self.disjoint(pe, be, span))
    }

    /// Fresh labels opened by `unpack`: every label of the package's pair is bound.
    fn fresh_opened(&mut self, shape: &Shape, u: Unpack, origin: &Origin) -> Ty {
        match shape {
            Shape::Int => Ty::Int,
            Shape::Lock => {
                self.lock_origin.push(origin.clone());
                Ty::Lock(self.c.new_opened_lock(self.scope, u))
            }
            Shape::Ref(s) => {
                let r = self.rho(RhoKind::Opened(u), origin.clone());
                Ty::Ref(r, Box::new(self.fresh_opened(s, u, origin)))
            }
            Shape::Pair(a, b) => Ty::Pair(
                Box::new(self.fresh_opened(a, u, origin)),
                Box::new(self.fresh_opened(b, u, origin)),
            ),
            Shape::Fun(a, b) => {
                let x = self.fresh_opened(a, u, origin);
                let chi = self.effect_var();
                let y = self.fresh_opened(b, u, origin);
                Ty::Fun(Box::new(x), chi, Box::new(y))
            }
            Shape::Packed(class, _) => Ty::Packed(*class),
        }
    }

    /// Relates the concrete type packed at site `site` to the labels opened by an unpack:
    /// pack maps for correlation, flows for reachability (covariant), both ways under `ref`.
    fn pack_relate(
        &mut self,
        concrete: &Ty,
        opened: &Ty,
        site: Site,
        covariant: bool,
        invariant: bool,
    ) {
        match (concrete, opened) {
            (Ty::Lock(c), Ty::Lock(o)) => self.c.pack_lock_maps.push((*o, site, *c)),
            (Ty::Ref(rc, tc), Ty::Ref(ro, to)) => {
                self.c.pack_rho_maps.push((*ro, site, *rc));
                if covariant || invariant {
                    self.c.pack_flow(*rc, *ro);
                }
                if !covariant || invariant {
                    self.c.pack_flow(*ro, *rc);
                }
                self.pack_relate(tc, to, site, covariant, true);
            }
            (Ty::Pair(a, b), Ty::Pair(a2, b2)) => {
                self.pack_relate(a, a2, site, covariant, invariant);
                self.pack_relate(b, b2, site, covariant, invariant);
            }
            (Ty::Fun(a, ec, b), Ty::Fun(a2, eo, b2)) => {
                self.pack_relate(a, a2, site, !covariant, invariant);
                self.pack_relate(b, b2, site, covariant, invariant);
                let n = self.effect(EffectExpr::Var(*ec), Span::default());
                self.c.effect_bound(n, *eo);
            }
            _ => {}
        }
    }

    /// Connects every pack site to every unpack of the same package class (§3.3).
    fn link_packages(&mut self) {
        let packs = std::mem::take(&mut self.packs);
        let unpacks = std::mem::take(&mut self.unpacks);
        for u in &unpacks {
            for p in packs.iter().filter(|p| p.class == u.class) {
                let site = self
                    .c
                    .new_site(Scope::ROOT, p.scope, SiteKind::Pack(u.unpack));
                self.site_origin.push(Origin {
                    span: p.span,
                    role: Role::Expr,
                });
                self.pack_relate(&p.ty, &u.opened, site, true, false);
            }
        }
    }
}

/// Runs pass 2 on a program whose shapes are known.
pub fn generate(program: &Program, shapes: &mut Shapes) -> Analysis {
    let mut c = Constraints::new();
    let empty = c.effect(EffectExpr::Empty);
    let mut pass = Pass2 {
        program,
        shapes,
        c,
        env: FxHashMap::default(),
        scope: Scope::ROOT,
        effect_scope: IndexVec::new(),
        rho_origin: IndexVec::new(),
        lock_origin: IndexVec::new(),
        site_origin: IndexVec::new(),
        access_span: IndexVec::new(),
        effect_span: IndexVec::new(),
        rec_effects: Vec::new(),
        bindings: Vec::new(),
        packs: Vec::new(),
        unpacks: Vec::new(),
        empty,
    };
    pass.effect_span.push(Span::default());
    pass.expr(program.root);
    pass.link_packages();
    Analysis {
        constraints: pass.c,
        rho_origin: pass.rho_origin,
        lock_origin: pass.lock_origin,
        site_origin: pass.site_origin,
        access_span: pass.access_span,
        effect_span: pass.effect_span,
        rec_effects: pass.rec_effects,
        bindings: pass.bindings,
    }
}
