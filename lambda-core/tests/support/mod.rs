//! Test support shared by the integration tests of `lambda-core` (included with `mod support;`).
//!
//! It provides an owned tree form of λ▷ expressions ([`Term`]) with one constructor function per
//! construct, so that tests can write programs without a parser; lowering of terms into the
//! arena [`Program`] and lifting back; a printer for readable failure messages ([`show`]); a
//! checker for the monomorphic shape system of λ▷ ([`check_shapes`]); and, in [`gen`], random
//! well-typed programs for property tests.

#![allow(dead_code)]

pub mod gen;

use lambda_core::ast::{Binder, Expr, ExprId, ExprKind, Program, SourceFile, Span};
use solver::ids::IndexVec;
use std::fmt;

/// A λ▷ expression as an owned tree; see [`ExprKind`] for the meaning of each construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Var(String),
    Int(i64),
    /// `fun param -> body`.
    Fun(String, Box<Term>),
    App(Box<Term>, Box<Term>),
    If0(Box<Term>, Box<Term>, Box<Term>),
    Pair(Box<Term>, Box<Term>),
    Proj(Box<Term>, u8),
    Let(String, Box<Term>, Box<Term>),
    /// `let rec name = fun param -> fun_body in body`.
    LetRec(String, String, Box<Term>, Box<Term>),
    Seq(Box<Term>, Box<Term>),
    Newlock,
    Ref(Box<Term>),
    /// `![lock] target`, stored as `Deref(lock, target)`.
    Deref(Box<Term>, Box<Term>),
    /// `target :=[lock] value`, stored as `Assign(target, lock, value)`.
    Assign(Box<Term>, Box<Term>, Box<Term>),
    Pack(Box<Term>),
    /// `unpack (first, second) = package in body`.
    Unpack(String, String, Box<Term>, Box<Term>),
}

/// The variable `name`.
pub fn var(name: &str) -> Term {
    Term::Var(name.to_string())
}

/// The integer literal `n`.
pub fn int(n: i64) -> Term {
    Term::Int(n)
}

/// The function `fun param -> body`.
pub fn fun(param: &str, body: Term) -> Term {
    Term::Fun(param.to_string(), Box::new(body))
}

/// The application `func arg`.
pub fn app(func: Term, arg: Term) -> Term {
    Term::App(Box::new(func), Box::new(arg))
}

/// `func arg1 arg2 …`, applying the arguments from left to right.
pub fn apps(func: Term, args: impl IntoIterator<Item = Term>) -> Term {
    args.into_iter().fold(func, app)
}

/// The conditional `if0 cond then then_branch else else_branch`.
pub fn if0(cond: Term, then_branch: Term, else_branch: Term) -> Term {
    Term::If0(Box::new(cond), Box::new(then_branch), Box::new(else_branch))
}

/// The pair `(left, right)`.
pub fn pair(left: Term, right: Term) -> Term {
    Term::Pair(Box::new(left), Box::new(right))
}

/// The projection `tuple.index`.
pub fn proj(tuple: Term, index: u8) -> Term {
    Term::Proj(Box::new(tuple), index)
}

/// The binding `let name = value in body`.
pub fn let_(name: &str, value: Term, body: Term) -> Term {
    Term::Let(name.to_string(), Box::new(value), Box::new(body))
}

/// The recursive binding `let rec name = fun param -> fun_body in body`.
pub fn let_rec(name: &str, param: &str, fun_body: Term, body: Term) -> Term {
    Term::LetRec(
        name.to_string(),
        param.to_string(),
        Box::new(fun_body),
        Box::new(body),
    )
}

/// The sequence `first; second`.
pub fn seq(first: Term, second: Term) -> Term {
    Term::Seq(Box::new(first), Box::new(second))
}

/// The sequence `e1; e2; …; en` of a non-empty list of terms.
pub fn seqs(terms: impl IntoIterator<Item = Term>) -> Term {
    let mut terms: Vec<Term> = terms.into_iter().collect();
    let mut result = terms.pop().expect("seqs needs at least one term");
    while let Some(first) = terms.pop() {
        result = seq(first, result);
    }
    result
}

/// The lock allocation `newlock`.
pub fn newlock() -> Term {
    Term::Newlock
}

/// The allocation `ref init`.
pub fn ref_(init: Term) -> Term {
    Term::Ref(Box::new(init))
}

/// The read `![lock] target`.
pub fn deref(lock: Term, target: Term) -> Term {
    Term::Deref(Box::new(lock), Box::new(target))
}

/// The write `target :=[lock] value`.
pub fn assign(target: Term, lock: Term, value: Term) -> Term {
    Term::Assign(Box::new(target), Box::new(lock), Box::new(value))
}

/// The package `pack contents`.
pub fn pack(contents: Term) -> Term {
    Term::Pack(Box::new(contents))
}

/// The opening `unpack (first, second) = package in body`.
pub fn unpack(first: &str, second: &str, package: Term, body: Term) -> Term {
    Term::Unpack(
        first.to_string(),
        second.to_string(),
        Box::new(package),
        Box::new(body),
    )
}

impl Term {
    /// The direct subterms, in evaluation order (the same order as [`Program::children`]).
    pub fn children(&self) -> Vec<&Term> {
        match self {
            Term::Var(_) | Term::Int(_) | Term::Newlock => vec![],
            Term::Fun(_, body) | Term::Proj(body, _) | Term::Ref(body) | Term::Pack(body) => {
                vec![body]
            }
            Term::App(a, b) | Term::Pair(a, b) | Term::Seq(a, b) | Term::Deref(a, b) => {
                vec![a, b]
            }
            Term::Let(_, a, b) | Term::LetRec(_, _, a, b) | Term::Unpack(_, _, a, b) => {
                vec![a, b]
            }
            Term::If0(a, b, c) | Term::Assign(a, b, c) => vec![a, b, c],
        }
    }

    fn children_mut(&mut self) -> Vec<&mut Term> {
        match self {
            Term::Var(_) | Term::Int(_) | Term::Newlock => vec![],
            Term::Fun(_, body) | Term::Proj(body, _) | Term::Ref(body) | Term::Pack(body) => {
                vec![body]
            }
            Term::App(a, b) | Term::Pair(a, b) | Term::Seq(a, b) | Term::Deref(a, b) => {
                vec![a, b]
            }
            Term::Let(_, a, b) | Term::LetRec(_, _, a, b) | Term::Unpack(_, _, a, b) => {
                vec![a, b]
            }
            Term::If0(a, b, c) | Term::Assign(a, b, c) => vec![a, b, c],
        }
    }

    /// All subterms in pre-order, starting with the term itself.
    pub fn subterms(&self) -> Vec<&Term> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(term) = stack.pop() {
            out.push(term);
            stack.extend(term.children().into_iter().rev());
        }
        out
    }

    /// The number of nodes of the term.
    pub fn size(&self) -> usize {
        1 + self.children().into_iter().map(Term::size).sum::<usize>()
    }

    /// The subterm at pre-order position `position` (the root is position 0).
    pub fn at(&self, position: usize) -> Option<&Term> {
        let mut remaining = position;
        let mut current = self;
        'descend: loop {
            if remaining == 0 {
                return Some(current);
            }
            remaining -= 1;
            for child in current.children() {
                let size = child.size();
                if remaining < size {
                    current = child;
                    continue 'descend;
                }
                remaining -= size;
            }
            return None;
        }
    }

    /// Replaces the subterm at pre-order position `position` by `replacement`; returns whether
    /// the position exists.
    pub fn replace_at(&mut self, position: usize, replacement: Term) -> bool {
        if position == 0 {
            *self = replacement;
            return true;
        }
        let mut remaining = position - 1;
        for child in self.children_mut() {
            let size = child.size();
            if remaining < size {
                return child.replace_at(remaining, replacement);
            }
            remaining -= size;
        }
        false
    }

    /// Whether the variable `name` occurs free in the term.
    pub fn has_free(&self, name: &str) -> bool {
        match self {
            Term::Var(x) => x == name,
            Term::Fun(param, body) => param != name && body.has_free(name),
            Term::Let(x, value, body) => value.has_free(name) || (x != name && body.has_free(name)),
            Term::LetRec(f, param, fun_body, body) => {
                (f != name && param != name && fun_body.has_free(name))
                    || (f != name && body.has_free(name))
            }
            Term::Unpack(first, second, package, body) => {
                package.has_free(name) || (first != name && second != name && body.has_free(name))
            }
            _ => self
                .children()
                .into_iter()
                .any(|child| child.has_free(name)),
        }
    }
}

/// Lowers a term into a program whose spans are all `Span::default()`, in a source file
/// `gen.lam` with empty text.
pub fn program(term: &Term) -> Program {
    lower_program(term, false)
}

/// Lowers a term into a program in which the node at pre-order position `i` has the span
/// `i..i + 1`, so that tests can tell expressions apart by their spans.
pub fn program_with_spans(term: &Term) -> Program {
    lower_program(term, true)
}

/// The span that [`program_with_spans`] gives to the node at pre-order position `position`.
pub fn span_at(position: usize) -> Span {
    Span::new(position, position + 1)
}

fn lower_program(term: &Term, numbered: bool) -> Program {
    let mut lowering = Lowering {
        exprs: IndexVec::new(),
        next_position: 0,
        numbered,
    };
    let root = lowering.lower(term);
    Program {
        file: SourceFile::new("gen.lam", ""),
        exprs: lowering.exprs,
        root,
    }
}

struct Lowering {
    exprs: IndexVec<ExprId, Expr>,
    next_position: usize,
    numbered: bool,
}

impl Lowering {
    fn lower(&mut self, term: &Term) -> ExprId {
        let span = if self.numbered {
            span_at(self.next_position)
        } else {
            Span::default()
        };
        self.next_position += 1;
        let binder = |name: &str| Binder {
            name: name.to_string(),
            span: Span::default(),
        };
        let kind = match term {
            Term::Var(x) => ExprKind::Var(x.clone()),
            Term::Int(n) => ExprKind::Int(*n),
            Term::Fun(param, body) => ExprKind::Fun {
                param: binder(param),
                body: self.lower(body),
            },
            Term::App(func, arg) => {
                let func = self.lower(func);
                ExprKind::App {
                    func,
                    arg: self.lower(arg),
                }
            }
            Term::If0(cond, then_branch, else_branch) => {
                let cond = self.lower(cond);
                let then_branch = self.lower(then_branch);
                ExprKind::If0 {
                    cond,
                    then_branch,
                    else_branch: self.lower(else_branch),
                }
            }
            Term::Pair(left, right) => {
                let left = self.lower(left);
                ExprKind::Pair(left, self.lower(right))
            }
            Term::Proj(tuple, index) => ExprKind::Proj {
                tuple: self.lower(tuple),
                index: *index,
            },
            Term::Let(name, value, body) => {
                let value = self.lower(value);
                ExprKind::Let {
                    name: binder(name),
                    value,
                    body: self.lower(body),
                }
            }
            Term::LetRec(name, param, fun_body, body) => {
                let fun_body = self.lower(fun_body);
                ExprKind::LetRec {
                    name: binder(name),
                    param: binder(param),
                    fun_body,
                    fun_span: span,
                    body: self.lower(body),
                }
            }
            Term::Seq(first, second) => {
                let first = self.lower(first);
                ExprKind::Seq(first, self.lower(second))
            }
            Term::Newlock => ExprKind::Newlock,
            Term::Ref(init) => ExprKind::Ref(self.lower(init)),
            Term::Deref(lock, target) => {
                let lock = self.lower(lock);
                ExprKind::Deref {
                    lock,
                    target: self.lower(target),
                }
            }
            Term::Assign(target, lock, value) => {
                let target = self.lower(target);
                let lock = self.lower(lock);
                ExprKind::Assign {
                    target,
                    lock,
                    value: self.lower(value),
                }
            }
            Term::Pack(contents) => ExprKind::Pack(self.lower(contents)),
            Term::Unpack(first, second, package, body) => {
                let package = self.lower(package);
                ExprKind::Unpack {
                    first: binder(first),
                    second: binder(second),
                    package,
                    body: self.lower(body),
                }
            }
        };
        self.exprs.push(Expr { kind, span })
    }
}

/// Lifts the expression `id` of `program` back into a term.
pub fn term_of(program: &Program, id: ExprId) -> Term {
    let sub = |child: ExprId| Box::new(term_of(program, child));
    match &program.expr(id).kind {
        ExprKind::Var(x) => Term::Var(x.clone()),
        ExprKind::Int(n) => Term::Int(*n),
        ExprKind::Fun { param, body } => Term::Fun(param.name.clone(), sub(*body)),
        ExprKind::App { func, arg } => Term::App(sub(*func), sub(*arg)),
        ExprKind::If0 {
            cond,
            then_branch,
            else_branch,
        } => Term::If0(sub(*cond), sub(*then_branch), sub(*else_branch)),
        ExprKind::Pair(left, right) => Term::Pair(sub(*left), sub(*right)),
        ExprKind::Proj { tuple, index } => Term::Proj(sub(*tuple), *index),
        ExprKind::Let { name, value, body } => {
            Term::Let(name.name.clone(), sub(*value), sub(*body))
        }
        ExprKind::LetRec {
            name,
            param,
            fun_body,
            body,
            ..
        } => Term::LetRec(
            name.name.clone(),
            param.name.clone(),
            sub(*fun_body),
            sub(*body),
        ),
        ExprKind::Seq(first, second) => Term::Seq(sub(*first), sub(*second)),
        ExprKind::Newlock => Term::Newlock,
        ExprKind::Ref(init) => Term::Ref(sub(*init)),
        ExprKind::Deref { lock, target } => Term::Deref(sub(*lock), sub(*target)),
        ExprKind::Assign {
            target,
            lock,
            value,
        } => Term::Assign(sub(*target), sub(*lock), sub(*value)),
        ExprKind::Pack(contents) => Term::Pack(sub(*contents)),
        ExprKind::Unpack {
            first,
            second,
            package,
            body,
        } => Term::Unpack(
            first.name.clone(),
            second.name.clone(),
            sub(*package),
            sub(*body),
        ),
    }
}

/// Renders a program in λ▷ concrete syntax, for failure messages. Compound subexpressions are
/// parenthesised except in the trailing body positions of `let`, `fun`, `else` and `unpack`.
pub fn show(program: &Program) -> String {
    term_of(program, program.root).to_string()
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_term(&mut out, self, 0);
        f.write_str(&out)
    }
}

fn is_atom(term: &Term) -> bool {
    matches!(
        term,
        Term::Var(_) | Term::Int(_) | Term::Newlock | Term::Pair(..)
    )
}

/// Whether printing `term` without parentheses would let a following token be read as part of
/// it (its last part is a sequence or a binding form).
fn is_open_ended(term: &Term) -> bool {
    match term {
        Term::Fun(_, body) => is_open_ended(body),
        Term::If0(_, _, else_branch) => is_open_ended(else_branch),
        Term::Seq(..) | Term::Let(..) | Term::LetRec(..) | Term::Unpack(..) => true,
        _ => false,
    }
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    out.push_str(&"  ".repeat(indent));
}

/// Writes `term` in a position where it must be a single atom, adding parentheses if needed.
fn write_atom(out: &mut String, term: &Term, indent: usize) {
    if is_atom(term) {
        write_term(out, term, indent);
    } else {
        out.push('(');
        write_term(out, term, indent + 1);
        out.push(')');
    }
}

fn write_term(out: &mut String, term: &Term, indent: usize) {
    match term {
        Term::Var(x) => out.push_str(x),
        Term::Int(n) => out.push_str(&n.to_string()),
        Term::Newlock => out.push_str("newlock"),
        Term::Fun(param, body) => {
            out.push_str(&format!("fun {param} -> "));
            write_term(out, body, indent);
        }
        Term::App(func, arg) => {
            if matches!(**func, Term::App(..)) {
                write_term(out, func, indent);
            } else {
                write_atom(out, func, indent);
            }
            out.push(' ');
            write_atom(out, arg, indent);
        }
        Term::If0(cond, then_branch, else_branch) => {
            out.push_str("if0 ");
            write_atom(out, cond, indent);
            out.push_str(" then ");
            write_atom(out, then_branch, indent);
            out.push_str(" else ");
            write_term(out, else_branch, indent);
        }
        Term::Pair(left, right) => {
            out.push('(');
            write_atom(out, left, indent);
            out.push_str(", ");
            write_atom(out, right, indent);
            out.push(')');
        }
        Term::Proj(tuple, index) => {
            write_atom(out, tuple, indent);
            out.push_str(&format!(".{index}"));
        }
        Term::Let(name, value, body) => {
            out.push_str(&format!("let {name} = "));
            if is_open_ended(value) {
                write_atom(out, value, indent + 1);
            } else {
                write_term(out, value, indent + 1);
            }
            out.push_str(" in");
            newline(out, indent);
            write_term(out, body, indent);
        }
        Term::LetRec(name, param, fun_body, body) => {
            out.push_str(&format!("let rec {name} = fun {param} -> "));
            if is_open_ended(fun_body) {
                write_atom(out, fun_body, indent + 1);
            } else {
                write_term(out, fun_body, indent + 1);
            }
            out.push_str(" in");
            newline(out, indent);
            write_term(out, body, indent);
        }
        Term::Seq(first, second) => {
            write_atom(out, first, indent);
            out.push(';');
            newline(out, indent);
            write_term(out, second, indent);
        }
        Term::Ref(init) => {
            out.push_str("ref ");
            write_atom(out, init, indent);
        }
        Term::Deref(lock, target) => {
            out.push_str("![");
            write_term(out, lock, indent);
            out.push_str("] ");
            write_atom(out, target, indent);
        }
        Term::Assign(target, lock, value) => {
            write_atom(out, target, indent);
            out.push_str(" :=[");
            write_term(out, lock, indent);
            out.push_str("] ");
            write_atom(out, value, indent);
        }
        Term::Pack(contents) => {
            out.push_str("pack ");
            write_atom(out, contents, indent);
        }
        Term::Unpack(first, second, package, body) => {
            out.push_str(&format!("unpack ({first}, {second}) = "));
            if is_open_ended(package) {
                write_atom(out, package, indent + 1);
            } else {
                write_term(out, package, indent + 1);
            }
            out.push_str(" in");
            newline(out, indent);
            write_term(out, body, indent);
        }
    }
}

/// A shape: the type of a λ▷ value with its lock and location labels erased. `Packed(a, b)` is
/// the shape `packed(a × b)` of `pack e` where `e : a × b`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Int,
    Lock,
    Ref(Box<Shape>),
    Pair(Box<Shape>, Box<Shape>),
    Fun(Box<Shape>, Box<Shape>),
    Packed(Box<Shape>, Box<Shape>),
}

impl Shape {
    /// The shape `ref contents`.
    pub fn reference(contents: Shape) -> Shape {
        Shape::Ref(Box::new(contents))
    }

    /// The shape `left × right`.
    pub fn pair(left: Shape, right: Shape) -> Shape {
        Shape::Pair(Box::new(left), Box::new(right))
    }

    /// The shape `param → result`.
    pub fn fun(param: Shape, result: Shape) -> Shape {
        Shape::Fun(Box::new(param), Box::new(result))
    }

    /// The curried function shape `p1 → p2 → … → result`.
    pub fn curried(params: &[Shape], result: Shape) -> Shape {
        params
            .iter()
            .rev()
            .fold(result, |acc, param| Shape::fun(param.clone(), acc))
    }

    /// The shape `packed(left × right)`.
    pub fn packed(left: Shape, right: Shape) -> Shape {
        Shape::Packed(Box::new(left), Box::new(right))
    }

    /// The parameters of a curried function shape and its final result (no parameters and the
    /// shape itself when it is not a function).
    pub fn params(&self) -> (Vec<&Shape>, &Shape) {
        let mut params = Vec::new();
        let mut current = self;
        while let Shape::Fun(param, result) = current {
            params.push(&**param);
            current = result;
        }
        (params, current)
    }

    /// The shape of the result of applying a function of this shape to `count` arguments.
    pub fn applied(&self, count: usize) -> Option<&Shape> {
        let mut current = self;
        for _ in 0..count {
            match current {
                Shape::Fun(_, result) => current = result,
                _ => return None,
            }
        }
        Some(current)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Int => write!(f, "int"),
            Shape::Lock => write!(f, "lock"),
            Shape::Ref(contents) => write!(f, "ref ({contents})"),
            Shape::Pair(left, right) => write!(f, "({left} * {right})"),
            Shape::Fun(param, result) => write!(f, "({param} -> {result})"),
            Shape::Packed(left, right) => write!(f, "packed({left} * {right})"),
        }
    }
}

/// Checks that `program` is well typed in the monomorphic shape system of λ▷ (every binder has a
/// single shape, no polymorphism) and returns the shape of its root. Shape variables left
/// unconstrained default to `int`.
pub fn check_shapes(program: &Program) -> Result<Shape, String> {
    let shapes = term_shapes(&term_of(program, program.root))?;
    Ok(shapes.into_iter().next().unwrap_or(Shape::Int))
}

/// The shape of every subterm of a well-shaped term, indexed by pre-order position.
pub fn term_shapes(term: &Term) -> Result<Vec<Shape>, String> {
    let mut inference = Inference {
        nodes: Vec::new(),
        parent: Vec::new(),
        positions: Vec::new(),
    };
    let mut env = Vec::new();
    inference.infer(term, &mut env)?;
    let positions = std::mem::take(&mut inference.positions);
    Ok(positions
        .into_iter()
        .map(|node| inference.resolve(node))
        .collect())
}

/// A node of the unification graph used by [`term_shapes`].
#[derive(Copy, Clone, Debug)]
enum Node {
    Unknown,
    Int,
    Lock,
    Ref(usize),
    Pair(usize, usize),
    Fun(usize, usize),
    Packed(usize, usize),
}

struct Inference {
    nodes: Vec<Node>,
    parent: Vec<usize>,
    positions: Vec<usize>,
}

impl Inference {
    fn node(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.parent.push(self.parent.len());
        self.nodes.len() - 1
    }

    fn unknown(&mut self) -> usize {
        self.node(Node::Unknown)
    }

    fn find(&mut self, mut id: usize) -> usize {
        while self.parent[id] != id {
            self.parent[id] = self.parent[self.parent[id]];
            id = self.parent[id];
        }
        id
    }

    fn occurs(&mut self, var: usize, in_node: usize) -> bool {
        let root = self.find(in_node);
        if root == var {
            return true;
        }
        match self.nodes[root] {
            Node::Unknown | Node::Int | Node::Lock => false,
            Node::Ref(a) => self.occurs(var, a),
            Node::Pair(a, b) | Node::Fun(a, b) | Node::Packed(a, b) => {
                self.occurs(var, a) || self.occurs(var, b)
            }
        }
    }

    fn unify(&mut self, a: usize, b: usize) -> Result<(), String> {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return Ok(());
        }
        match (self.nodes[a], self.nodes[b]) {
            (Node::Unknown, _) => {
                if self.occurs(a, b) {
                    return Err("cyclic shape".to_string());
                }
                self.parent[a] = b;
                Ok(())
            }
            (_, Node::Unknown) => self.unify(b, a),
            (Node::Int, Node::Int) | (Node::Lock, Node::Lock) => Ok(()),
            (Node::Ref(x), Node::Ref(y)) => {
                self.parent[a] = b;
                self.unify(x, y)
            }
            (Node::Pair(x1, x2), Node::Pair(y1, y2))
            | (Node::Fun(x1, x2), Node::Fun(y1, y2))
            | (Node::Packed(x1, x2), Node::Packed(y1, y2)) => {
                self.parent[a] = b;
                self.unify(x1, y1)?;
                self.unify(x2, y2)
            }
            _ => Err(format!(
                "shape mismatch: {} vs {}",
                self.resolve(a),
                self.resolve(b)
            )),
        }
    }

    fn resolve(&mut self, id: usize) -> Shape {
        let root = self.find(id);
        match self.nodes[root] {
            Node::Unknown | Node::Int => Shape::Int,
            Node::Lock => Shape::Lock,
            Node::Ref(a) => Shape::reference(self.resolve(a)),
            Node::Pair(a, b) => Shape::pair(self.resolve(a), self.resolve(b)),
            Node::Fun(a, b) => Shape::fun(self.resolve(a), self.resolve(b)),
            Node::Packed(a, b) => Shape::packed(self.resolve(a), self.resolve(b)),
        }
    }

    fn infer(&mut self, term: &Term, env: &mut Vec<(String, usize)>) -> Result<usize, String> {
        let position = self.positions.len();
        self.positions.push(usize::MAX);
        let result = match term {
            Term::Var(x) => match env.iter().rev().find(|(name, _)| name == x) {
                Some((_, node)) => *node,
                None => return Err(format!("unbound variable `{x}`")),
            },
            Term::Int(_) => self.node(Node::Int),
            Term::Newlock => self.node(Node::Lock),
            Term::Fun(param, body) => {
                let param_node = self.unknown();
                env.push((param.clone(), param_node));
                let body_node = self.infer(body, env);
                env.pop();
                self.node(Node::Fun(param_node, body_node?))
            }
            Term::App(func, arg) => {
                let func_node = self.infer(func, env)?;
                let arg_node = self.infer(arg, env)?;
                let result = self.unknown();
                let expected = self.node(Node::Fun(arg_node, result));
                self.unify(func_node, expected)?;
                result
            }
            Term::If0(cond, then_branch, else_branch) => {
                let cond_node = self.infer(cond, env)?;
                let int = self.node(Node::Int);
                self.unify(cond_node, int)?;
                let then_node = self.infer(then_branch, env)?;
                let else_node = self.infer(else_branch, env)?;
                self.unify(then_node, else_node)?;
                then_node
            }
            Term::Pair(left, right) => {
                let left = self.infer(left, env)?;
                let right = self.infer(right, env)?;
                self.node(Node::Pair(left, right))
            }
            Term::Proj(tuple, index) => {
                let tuple_node = self.infer(tuple, env)?;
                let (left, right) = (self.unknown(), self.unknown());
                let expected = self.node(Node::Pair(left, right));
                self.unify(tuple_node, expected)?;
                match index {
                    1 => left,
                    2 => right,
                    _ => return Err(format!("projection index {index}")),
                }
            }
            Term::Let(name, value, body) => {
                let value_node = self.infer(value, env)?;
                env.push((name.clone(), value_node));
                let body_node = self.infer(body, env);
                env.pop();
                body_node?
            }
            Term::LetRec(name, param, fun_body, body) => {
                let (param_node, result_node) = (self.unknown(), self.unknown());
                let fun_node = self.node(Node::Fun(param_node, result_node));
                env.push((name.clone(), fun_node));
                env.push((param.clone(), param_node));
                let fun_body_node = self.infer(fun_body, env);
                env.pop();
                let checked = fun_body_node.and_then(|node| self.unify(node, result_node));
                let body_node = checked.and_then(|()| self.infer(body, env));
                env.pop();
                body_node?
            }
            Term::Seq(first, second) => {
                self.infer(first, env)?;
                self.infer(second, env)?
            }
            Term::Ref(init) => {
                let init = self.infer(init, env)?;
                self.node(Node::Ref(init))
            }
            Term::Deref(lock, target) => {
                let lock_node = self.infer(lock, env)?;
                let lock_shape = self.node(Node::Lock);
                self.unify(lock_node, lock_shape)?;
                let target_node = self.infer(target, env)?;
                let contents = self.unknown();
                let expected = self.node(Node::Ref(contents));
                self.unify(target_node, expected)?;
                contents
            }
            Term::Assign(target, lock, value) => {
                let target_node = self.infer(target, env)?;
                let lock_node = self.infer(lock, env)?;
                let lock_shape = self.node(Node::Lock);
                self.unify(lock_node, lock_shape)?;
                let value_node = self.infer(value, env)?;
                let expected = self.node(Node::Ref(value_node));
                self.unify(target_node, expected)?;
                value_node
            }
            Term::Pack(contents) => {
                let contents_node = self.infer(contents, env)?;
                let (left, right) = (self.unknown(), self.unknown());
                let expected = self.node(Node::Pair(left, right));
                self.unify(contents_node, expected)?;
                self.node(Node::Packed(left, right))
            }
            Term::Unpack(first, second, package, body) => {
                let package_node = self.infer(package, env)?;
                let (left, right) = (self.unknown(), self.unknown());
                let expected = self.node(Node::Packed(left, right));
                self.unify(package_node, expected)?;
                env.push((first.clone(), left));
                env.push((second.clone(), right));
                let body_node = self.infer(body, env);
                env.pop();
                env.pop();
                body_node?
            }
        };
        self.positions[position] = result;
        Ok(result)
    }
}
