//! Pass 1 of inference: the *shapes* of λ▷ types, i.e. types without labels.
//!
//! λ▷ is polymorphic only in its labels (the polytypes `(∀.τ, l⃗)` of figure 4 quantify labels);
//! the structure of types is monomorphic, as in Rehof and Fähndrich's polymorphic label flow. So
//! shapes are inferred first by plain unification over the whole program, which finds every
//! ordinary type error (exit status 2). Pass 2 ([`crate::infer`]) then knows the shape of every
//! expression and can create labelled types of the right structure.

use ena::unify::{InPlaceUnificationTable, UnifyKey};
use rustc_hash::FxHashMap;

use crate::ast::{Binder, ExprId, ExprKind, Program, Span};
use solver::ids::IndexVec;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeVar(u32);

impl UnifyKey for ShapeVar {
    type Value = ();
    fn index(&self) -> u32 {
        self.0
    }
    fn from_index(i: u32) -> Self {
        ShapeVar(i)
    }
    fn tag() -> &'static str {
        "ShapeVar"
    }
}

/// A shape constructor; children are shape variables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Con {
    Int,
    Lock,
    Ref(ShapeVar),
    Pair(ShapeVar, ShapeVar),
    Fun(ShapeVar, ShapeVar),
    /// An existential package `pack (e1, e2)`; the child is the shape of the packed pair.
    Packed(ShapeVar),
}

/// A fully resolved shape. Unconstrained variables resolve to `Int`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Int,
    Lock,
    Ref(Box<Shape>),
    Pair(Box<Shape>, Box<Shape>),
    Fun(Box<Shape>, Box<Shape>),
    /// The package class (the representative variable of the packed pair) and the pair's shape.
    Packed(u32, Box<Shape>),
}

/// An ordinary type error: the program cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub message: String,
    pub span: Span,
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The shape of every expression and binder.
pub struct Shapes {
    table: InPlaceUnificationTable<ShapeVar>,
    cons: Vec<Option<Con>>,
    pub expr: IndexVec<ExprId, ShapeVar>,
    /// Shapes of names bound by `fun`, `let`, `let rec` (the function and its parameter) and
    /// `unpack`, keyed by the binding expression and the binder's position in it (0 for the
    /// name of `fun`, `let` and `let rec` and the first name of `unpack`, 1 for the parameter of
    /// `let rec` and the second name of `unpack`).
    pub binder: FxHashMap<(ExprId, u8), ShapeVar>,
}

impl Shapes {
    fn fresh(&mut self) -> ShapeVar {
        self.cons.push(None);
        self.table.new_key(())
    }

    fn with(&mut self, con: Con) -> ShapeVar {
        let v = self.fresh();
        self.cons[v.0 as usize] = Some(con);
        v
    }

    fn con(&mut self, v: ShapeVar) -> Option<Con> {
        let r = self.table.find(v);
        self.cons[r.0 as usize]
    }

    /// The resolved shape of `v`.
    pub fn resolve(&mut self, v: ShapeVar) -> Shape {
        match self.con(v) {
            None | Some(Con::Int) => Shape::Int,
            Some(Con::Lock) => Shape::Lock,
            Some(Con::Ref(a)) => Shape::Ref(Box::new(self.resolve(a))),
            Some(Con::Pair(a, b)) => {
                Shape::Pair(Box::new(self.resolve(a)), Box::new(self.resolve(b)))
            }
            Some(Con::Fun(a, b)) => {
                Shape::Fun(Box::new(self.resolve(a)), Box::new(self.resolve(b)))
            }
            Some(Con::Packed(a)) => {
                let class = self.table.find(a).0;
                Shape::Packed(class, Box::new(self.resolve(a)))
            }
        }
    }

    /// A short rendering of a shape for error messages.
    pub fn describe(&mut self, v: ShapeVar) -> String {
        fn go(s: &mut Shapes, v: ShapeVar, depth: u32) -> String {
            if depth > 4 {
                return "…".into();
            }
            match s.con(v) {
                None => "?".into(),
                Some(Con::Int) => "int".into(),
                Some(Con::Lock) => "lock".into(),
                Some(Con::Ref(a)) => format!("ref {}", atom(s, a, depth)),
                Some(Con::Pair(a, b)) => {
                    format!("{} * {}", atom(s, a, depth), atom(s, b, depth))
                }
                Some(Con::Fun(a, b)) => format!("{} -> {}", atom(s, a, depth), go(s, b, depth + 1)),
                Some(Con::Packed(a)) => format!("packed {}", atom(s, a, depth)),
            }
        }
        fn atom(s: &mut Shapes, v: ShapeVar, depth: u32) -> String {
            let text = go(s, v, depth + 1);
            match s.con(v) {
                Some(Con::Fun(..)) | Some(Con::Pair(..)) | Some(Con::Ref(_))
                | Some(Con::Packed(_)) => {
                    format!("({text})")
                }
                _ => text,
            }
        }
        go(self, v, 0)
    }

    fn occurs(&mut self, v: ShapeVar, inside: ShapeVar) -> bool {
        let target = self.table.find(v);
        let mut stack = vec![inside];
        let mut steps = 0usize;
        while let Some(x) = stack.pop() {
            steps += 1;
            if steps > 1_000_000 {
                return true;
            }
            let r = self.table.find(x);
            if r == target {
                return true;
            }
            match self.cons[r.0 as usize] {
                None | Some(Con::Int) | Some(Con::Lock) => {}
                Some(Con::Ref(a)) | Some(Con::Packed(a)) => stack.push(a),
                Some(Con::Pair(a, b)) | Some(Con::Fun(a, b)) => {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        false
    }

    /// Unifies `a` and `b`; on failure, returns the two clashing descriptions.
    fn unify(&mut self, a: ShapeVar, b: ShapeVar) -> Result<(), ()> {
        let mut pending = vec![(a, b)];
        while let Some((a, b)) = pending.pop() {
            let (ra, rb) = (self.table.find(a), self.table.find(b));
            if ra == rb {
                continue;
            }
            let (ca, cb) = (self.cons[ra.0 as usize], self.cons[rb.0 as usize]);
            let merged = match (ca, cb) {
                (None, None) => None,
                (None, Some(c)) => {
                    if self.occurs(ra, rb) {
                        return Err(());
                    }
                    Some(c)
                }
                (Some(c), None) => {
                    if self.occurs(rb, ra) {
                        return Err(());
                    }
                    Some(c)
                }
                (Some(x), Some(y)) => {
                    match (x, y) {
                        (Con::Int, Con::Int) | (Con::Lock, Con::Lock) => {}
                        (Con::Ref(p), Con::Ref(q)) | (Con::Packed(p), Con::Packed(q)) => {
                            pending.push((p, q))
                        }
                        (Con::Pair(p1, p2), Con::Pair(q1, q2))
                        | (Con::Fun(p1, p2), Con::Fun(q1, q2)) => {
                            pending.push((p1, q1));
                            pending.push((p2, q2));
                        }
                        _ => return Err(()),
                    }
                    Some(x)
                }
            };
            self.table.union(ra, rb);
            let r = self.table.find(ra);
            self.cons[r.0 as usize] = merged;
        }
        Ok(())
    }
}

struct Pass1<'a> {
    program: &'a Program,
    shapes: Shapes,
    env: FxHashMap<String, Vec<ShapeVar>>,
}

impl Pass1<'_> {
    fn expect(
        &mut self,
        got: ShapeVar,
        want: ShapeVar,
        span: Span,
        what: &str,
    ) -> Result<(), TypeError> {
        let before_got = self.shapes.describe(got);
        let before_want = self.shapes.describe(want);
        self.shapes.unify(got, want).map_err(|()| TypeError {
            message: format!("{what}: expected {before_want}, found {before_got}"),
            span,
        })
    }

    fn bind(&mut self, name: &str, at: (ExprId, u8), v: ShapeVar) {
        self.env.entry(name.to_string()).or_default().push(v);
        self.shapes.binder.insert(at, v);
    }

    fn unbind(&mut self, name: &str) {
        if let Some(stack) = self.env.get_mut(name) {
            stack.pop();
        }
    }

    fn expr(&mut self, id: ExprId) -> Result<ShapeVar, TypeError> {
        let e = self.program.expr(id);
        let span = e.span;
        let v = match &e.kind {
            ExprKind::Var(x) => match self.env.get(x).and_then(|s| s.last()) {
                Some(&v) => v,
                None => {
                    return Err(TypeError {
                        message: format!("unbound name `{x}`"),
                        span,
                    });
                }
            },
            ExprKind::Int(_) => self.shapes.with(Con::Int),
            ExprKind::Newlock => self.shapes.with(Con::Lock),
            ExprKind::Fun { param, body } => {
                let a = self.shapes.fresh();
                self.bind(&param.name, (id, 0), a);
                let r = self.expr(*body)?;
                self.unbind(&param.name);
                self.shapes.with(Con::Fun(a, r))
            }
            ExprKind::App { func, arg } => self.app(*func, *arg)?,
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => {
                let c = self.expr(*cond)?;
                let int = self.shapes.with(Con::Int);
                let cspan = self.program.expr(*cond).span;
                self.expect(c, int, cspan, "the condition of `if0` must be an integer")?;
                let t = self.expr(*then_branch)?;
                let f = self.expr(*else_branch)?;
                let espan = self.program.expr(*else_branch).span;
                self.expect(f, t, espan, "the branches of `if0` have different types")?;
                t
            }
            ExprKind::Pair(a, b) => {
                let x = self.expr(*a)?;
                let y = self.expr(*b)?;
                self.shapes.with(Con::Pair(x, y))
            }
            ExprKind::Proj { tuple, index } => {
                let t = self.expr(*tuple)?;
                let (x, y) = (self.shapes.fresh(), self.shapes.fresh());
                let want = self.shapes.with(Con::Pair(x, y));
                let tspan = self.program.expr(*tuple).span;
                self.expect(
                    t,
                    want,
                    tspan,
                    "projection from something that is not a pair",
                )?;
                if *index == 1 {
                    x
                } else {
                    y
                }
            }
            ExprKind::Let { name, value, body } => {
                let v = self.expr(*value)?;
                self.bind(&name.name, (id, 0), v);
                let b = self.expr(*body)?;
                self.unbind(&name.name);
                b
            }
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                fun_span,
                body,
            } => self.let_rec(id, name, param, *fun_body, *fun_span, *body)?,
            ExprKind::Seq(a, b) => {
                self.expr(*a)?;
                self.expr(*b)?
            }
            ExprKind::Ref(e) => {
                let x = self.expr(*e)?;
                self.shapes.with(Con::Ref(x))
            }
            ExprKind::Deref { lock, target } => self.deref(*lock, *target)?,
            ExprKind::Assign {
                target,
                lock,
                value,
            } => self.assign(*target, *lock, *value)?,
            ExprKind::Pack(e) => {
                let x = self.expr(*e)?;
                let (a, b) = (self.shapes.fresh(), self.shapes.fresh());
                let pair = self.shapes.with(Con::Pair(a, b));
                let espan = self.program.expr(*e).span;
                self.expect(x, pair, espan, "only pairs can be packed")?;
                self.shapes.with(Con::Packed(x))
            }
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => self.unpack(id, first, second, *package, *body)?,
        };
        self.shapes.expr[id] = v;
        Ok(v)
    }

    /// `func arg`: the function's shape is known, unknown (made a function of the argument's
    /// shape), or not a function at all.
    fn app(&mut self, func: ExprId, arg: ExprId) -> Result<ShapeVar, TypeError> {
        let f = self.expr(func)?;
        let a = self.expr(arg)?;
        let aspan = self.program.expr(arg).span;
        match self.shapes.con(f) {
            Some(Con::Fun(p, r)) => {
                self.expect(a, p, aspan, "this argument has the wrong type")?;
                Ok(r)
            }
            None => {
                let r = self.shapes.fresh();
                let want = self.shapes.with(Con::Fun(a, r));
                let fspan = self.program.expr(func).span;
                self.expect(f, want, fspan, "this expression is applied to an argument")?;
                Ok(r)
            }
            Some(_) => {
                let found = self.shapes.describe(f);
                Err(TypeError {
                    message: format!(
                        "this expression has type {found} and cannot be applied to an argument"
                    ),
                    span: self.program.expr(func).span,
                })
            }
        }
    }

    /// `let rec name = fun param -> fun_body in body` (expression `id`): the function's uses in
    /// its own body and in `body` share one shape (structure is monomorphic).
    fn let_rec(
        &mut self,
        id: ExprId,
        name: &Binder,
        param: &Binder,
        fun_body: ExprId,
        fun_span: Span,
        body: ExprId,
    ) -> Result<ShapeVar, TypeError> {
        let f = self.shapes.fresh();
        self.bind(&name.name, (id, 0), f);
        let a = self.shapes.fresh();
        self.bind(&param.name, (id, 1), a);
        let r = self.expr(fun_body)?;
        self.unbind(&param.name);
        let fun = self.shapes.with(Con::Fun(a, r));
        self.expect(
            fun,
            f,
            fun_span,
            "this recursive function is used at another type",
        )?;
        let b = self.expr(body)?;
        self.unbind(&name.name);
        Ok(b)
    }

    /// `![lock] target`: a lock, and a reference whose contents are the result.
    fn deref(&mut self, lock: ExprId, target: ExprId) -> Result<ShapeVar, TypeError> {
        let l = self.expr(lock)?;
        let lk = self.shapes.with(Con::Lock);
        let lspan = self.program.expr(lock).span;
        self.expect(l, lk, lspan, "the lock of `![…]` must be a lock")?;
        let t = self.expr(target)?;
        let c = self.shapes.fresh();
        let want = self.shapes.with(Con::Ref(c));
        let tspan = self.program.expr(target).span;
        self.expect(t, want, tspan, "only references can be read")?;
        Ok(c)
    }

    /// `target :=[lock] value`: a reference, a lock, and a value of the reference's contents.
    fn assign(
        &mut self,
        target: ExprId,
        lock: ExprId,
        value: ExprId,
    ) -> Result<ShapeVar, TypeError> {
        let t = self.expr(target)?;
        let c = self.shapes.fresh();
        let want = self.shapes.with(Con::Ref(c));
        let tspan = self.program.expr(target).span;
        self.expect(t, want, tspan, "only references can be assigned")?;
        let l = self.expr(lock)?;
        let lk = self.shapes.with(Con::Lock);
        let lspan = self.program.expr(lock).span;
        self.expect(l, lk, lspan, "the lock of `:=[…]` must be a lock")?;
        let v = self.expr(value)?;
        let vspan = self.program.expr(value).span;
        self.expect(v, c, vspan, "the assigned value has the wrong type")?;
        Ok(v)
    }

    /// `unpack (first, second) = package in body` (expression `id`): a package of a pair, whose
    /// components the two names are bound to.
    fn unpack(
        &mut self,
        id: ExprId,
        first: &Binder,
        second: &Binder,
        package: ExprId,
        body: ExprId,
    ) -> Result<ShapeVar, TypeError> {
        let p = self.expr(package)?;
        let (a, b) = (self.shapes.fresh(), self.shapes.fresh());
        let pair = self.shapes.with(Con::Pair(a, b));
        let want = self.shapes.with(Con::Packed(pair));
        let pspan = self.program.expr(package).span;
        self.expect(
            p,
            want,
            pspan,
            "only packages made by `pack` can be unpacked",
        )?;
        self.bind(&first.name, (id, 0), a);
        self.bind(&second.name, (id, 1), b);
        let r = self.expr(body)?;
        self.unbind(&second.name);
        self.unbind(&first.name);
        Ok(r)
    }
}

/// Infers the shape of every expression of `program`.
pub fn infer_shapes(program: &Program) -> Result<Shapes, TypeError> {
    let mut shapes = Shapes {
        table: InPlaceUnificationTable::new(),
        cons: Vec::new(),
        expr: IndexVec::new(),
        binder: FxHashMap::default(),
    };
    let placeholder = shapes.fresh();
    shapes.expr = IndexVec::from_elem_n(placeholder, program.exprs.len());
    let mut pass = Pass1 {
        program,
        shapes,
        env: FxHashMap::default(),
    };
    pass.expr(program.root)?;
    Ok(pass.shapes)
}
