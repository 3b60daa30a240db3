//! Expressions: values, effects, lvalues and conditions.
//!
//! As in CIL, side effects (assignments, calls, increments) become statements in evaluation
//! order and the value of an expression is a side-effect-free [`Operand`] whose reads happen where
//! the operand is used. `&&`, `||` and `?:` become control flow, so each path sees only the reads
//! that really happen on it.

use lang_c::ast::{
    ArraySize, BinaryOperator as B, BinaryOperatorExpression, CallExpression, CompoundLiteral,
    ConditionalExpression, Constant, DeclaratorKind, DerivedDeclarator, Expression,
    GenericAssociation, GenericSelection, MemberOperator, TypeName, UnaryOperator as U,
    UnaryOperatorExpression,
};
use lang_c::span::Node;

use super::builder::{SavedTryLock, TryHow};
use super::types::ANON_MEMBER;
use super::{unsupported, Binding, FuncInfo, UnitCx, R};
use crate::ir::ctypes::{StructId, Type, TypeId};
use crate::ir::{
    ArithOp, Base, BlockId, Callee, Comparison, Func, FuncId, Lval, Operand, Origin, Pos, Proj,
    Stmt, StmtKind, Term, VarId, VarKind,
};
use crate::model::{Atomic, AtomicOp, Intrinsic, Kind, LockMode, Spec, TrySuccess, ATOMIC_ACCESS};

/// Predefined identifiers naming the current function (C11 6.4.2.2 and GNU spellings).
fn is_function_name_ident(name: &str) -> bool {
    matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
}

/// The lvalue naming variable `v`, written at `pos`.
pub(super) fn var_lval(v: VarId, pos: Pos) -> Lval {
    Lval {
        base: Base::Var(v),
        proj: Vec::new(),
        pos,
    }
}

/// Whether evaluating the operand reads memory (so an expression statement must keep it).
pub(super) fn has_reads(op: &Operand) -> bool {
    match op {
        Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => false,
        Operand::Use(_) | Operand::VaArg(..) => true,
        Operand::AddrOf(lv) => lval_has_reads(lv),
        Operand::Cast(_, o) => has_reads(o),
        Operand::Arith(_, _, ops) => ops.iter().any(has_reads),
    }
}

/// The byte just past the last token of `e`. lang-c's span of an expression ending in an
/// identifier takes in the white space after it (`v ` in `v = 1`); the identifier's own span
/// does not.
fn expr_end(e: &Node<Expression>) -> usize {
    match &e.node {
        Expression::Identifier(id) => id.span.end,
        Expression::UnaryOperator(u) => match u.node.operator.node {
            U::PostIncrement | U::PostDecrement => e.span.end,
            _ => expr_end(&u.node.operand),
        },
        Expression::Cast(c) => expr_end(&c.node.expression),
        Expression::BinaryOperator(b) if b.node.operator.node != B::Index => expr_end(&b.node.rhs),
        _ => e.span.end,
    }
}

/// Whether computing the location of `lv` reads memory (the pointer of a dereference).
fn lval_has_reads(lv: &Lval) -> bool {
    match &lv.base {
        Base::Var(_) => false,
        Base::Deref(op) => has_reads(op),
    }
}

/// The callee expression without the `*` and `&` that leave a function designator unchanged.
fn peel_designator(mut e: &Node<Expression>) -> &Node<Expression> {
    while let Expression::UnaryOperator(u) = &e.node {
        match u.node.operator.node {
            U::Indirection | U::Address => e = &u.node.operand,
            _ => break,
        }
    }
    e
}

/// Whether `e` is the integer literal 0.
fn is_zero(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => i
                .number
                .trim_start_matches("0x")
                .trim_start_matches("0X")
                .chars()
                .all(|c| c == '0'),
            _ => false,
        },
        _ => false,
    }
}

/// The text of a (possibly concatenated) string literal, in one pair of quotes.
fn literal_text(parts: &[String]) -> String {
    let mut body = String::new();
    for p in parts {
        if let (Some(start), Some(end)) = (p.find('"'), p.rfind('"')) {
            if end > start {
                body.push_str(&p[start + 1..end]);
            }
        }
    }
    let mut short: String = body.chars().take(40).collect();
    if short.len() < body.len() {
        short.push('…');
    }
    format!("\"{short}\"")
}

/// How a condition tests the result of a try-lock call.
struct TryLockTest<'e> {
    /// The call, or an assignment of the call to a variable.
    side: &'e Node<Expression>,
    /// `Some(zero_first)` when compared with 0 (`== 0` or `!= 0`); `None` when tested alone.
    compare: Option<bool>,
    /// The condition is true exactly when the call returned 0 (so the lock is held on the
    /// true edge of a try-lock that returns 0 when it succeeds).
    zero_when_true: bool,
    /// How the lock is held when the call succeeds, and what it then returns.
    how: TryHow,
}

impl<'a> UnitCx<'a> {
    fn int_const(&mut self) -> Operand {
        Operand::Const(self.lw.types.int(), None)
    }

    fn void_const(&mut self) -> Operand {
        Operand::Const(self.lw.types.void(), None)
    }

    pub(super) fn op_type(&self, op: &Operand) -> TypeId {
        self.lw.operand_type(op)
    }

    pub(super) fn lval_type(&self, lv: &Lval) -> TypeId {
        self.lw.lval_type(lv)
    }

    pub(super) fn emit(&mut self, kind: StmtKind, pos: Pos) {
        self.fb.emit(Stmt { kind, pos });
    }

    fn is_pointer(&self, t: TypeId) -> bool {
        matches!(self.lw.types.get(t), Type::Pointer(_))
    }

    /// `char`, `int` and every other integer type (not a pointer, not floating).
    fn is_integer(&self, t: TypeId) -> bool {
        matches!(self.lw.types.get(t), Type::Char | Type::Int)
    }

    fn is_void(&self, t: TypeId) -> bool {
        matches!(self.lw.types.get(t), Type::Void)
    }

    /// `&lv`, interning its pointer type.
    pub(super) fn addr_of(&mut self, lv: Lval) -> Operand {
        self.lw.intern_address_type(&lv);
        Operand::AddrOf(lv)
    }

    fn func_operand(&mut self, f: FuncId) -> Operand {
        let t = self.lw.funcs[f].ty;
        self.lw.types.pointer(t);
        Operand::Func(f)
    }

    /// The value of an lvalue: arrays decay to the address of their elements; the read of an
    /// atomic object is an atomic access, made into a temporary.
    fn lval_value(&mut self, lv: Lval) -> Operand {
        let t = self.lval_type(&lv);
        match self.lw.types.get(t) {
            Type::Array(_) => self.addr_of(lv),
            _ if self.is_atomic(&lv) => {
                let pos = lv.pos;
                let tmp = var_lval(self.new_temp(t, pos), pos);
                self.atomic_bracket(pos, false);
                let read = StmtKind::Assign {
                    dst: tmp.clone(),
                    src: Operand::Use(lv),
                };
                self.emit(read, pos);
                self.atomic_bracket(pos, true);
                Operand::Use(tmp)
            }
            _ => Operand::Use(lv),
        }
    }

    /// Whether an lvalue denotes an atomic object: a variable or member declared `_Atomic`
    /// (or an element of an array of them). An object reached through a pointer to an atomic
    /// type is not recognised (the pointee's qualifier is not kept): its accesses count as
    /// plain, which can only add warnings.
    fn is_atomic(&self, lv: &Lval) -> bool {
        let mut atomic = match &lv.base {
            Base::Var(v) => self.lw.vars[*v].atomic,
            Base::Deref(_) => false,
        };
        for p in &lv.proj {
            if let Proj::Field { strukt, index } = p {
                atomic = self.lw.types.structs[*strukt].fields[*index as usize].atomic;
            }
        }
        atomic
    }

    /// A call of the function that begins (or, with `end`, ends) an atomic access
    /// ([`ATOMIC_ACCESS`]): the statements between the two are one atomic operation.
    fn atomic_bracket(&mut self, pos: Pos, end: bool) {
        let (begin_name, end_name, _) = ATOMIC_ACCESS;
        let f = self.implicit_func(if end { end_name } else { begin_name }, pos);
        let call = StmtKind::Call {
            dst: None,
            callee: Callee::Direct(f),
            args: Vec::new(),
        };
        self.emit(call, pos);
    }

    /// Notes an assignment to `lv` (or its address being taken): a local variable assigned a
    /// try-lock's result (`trylock`, with the lock operand and how it acquires) becomes a saved result
    /// that tests of it may use, and any other assignment to a variable that held one spoils
    /// it, emptying the acquires its tests made ([`SavedTryLock`]).
    pub(super) fn assigned(&mut self, lv: &Lval, trylock: Option<(Operand, TryHow)>) {
        let Base::Var(v) = lv.base else {
            return;
        };
        if !lv.proj.is_empty() || !matches!(self.lw.vars[v].kind, VarKind::Local(_)) {
            return;
        }
        match self.fb.trylock_results.get_mut(&v) {
            Some(saved) => {
                saved.spoiled = true;
                for b in std::mem::take(&mut saved.acquires) {
                    self.fb.clear_block(b);
                }
            }
            None => {
                if let Some((lock, how)) = trylock {
                    let saved = SavedTryLock {
                        lock,
                        how,
                        acquires: Vec::new(),
                        spoiled: false,
                    };
                    self.fb.trylock_results.insert(v, saved);
                }
            }
        }
    }

    /// The try-lock result a local variable holds, if it holds one.
    fn saved_trylock(&self, name: &str) -> Option<&SavedTryLock> {
        match self.lookup(name) {
            Some(Binding::Var(v)) => self.fb.trylock_results.get(&v).filter(|s| !s.spoiled),
            _ => None,
        }
    }

    /// `src` with its reads made first, into a temporary, when it has any: the value an atomic
    /// access stores is read before the access, not as part of it.
    fn read_first(&mut self, src: Operand, pos: Pos) -> Operand {
        if !has_reads(&src) {
            return src;
        }
        let t = self.op_type(&src);
        let tmp = var_lval(self.new_temp(t, pos), pos);
        self.emit(
            StmtKind::Assign {
                dst: tmp.clone(),
                src,
            },
            pos,
        );
        Operand::Use(tmp)
    }

    /// `*op`, simplifying `*&lv` to `lv` (and `*array` to its element).
    fn deref(&mut self, op: Operand, pos: Pos) -> Lval {
        match op {
            Operand::AddrOf(mut lv) => {
                let t = self.lval_type(&lv);
                if matches!(self.lw.types.get(t), Type::Array(_)) {
                    lv.proj.push(Proj::Index(None));
                }
                lv.pos = pos;
                lv
            }
            other => Lval {
                base: Base::Deref(Box::new(other)),
                proj: Vec::new(),
                pos,
            },
        }
    }

    /// A new string literal variable (one per occurrence).
    fn string_lit(&mut self, name: String, pos: Pos) -> VarId {
        let ty = self.lw.types.string();
        let char = self.lw.types.intern(Type::Char);
        self.lw.types.pointer(char);
        self.new_var(name, ty, VarKind::StringLit, pos)
    }

    fn function_name_lit(&mut self, pos: Pos) -> VarId {
        let name = format!("\"{}\"", self.func_name);
        self.string_lit(name, pos)
    }

    /// The function `name` used without any declaration (C89 implicit declaration `int name()`).
    fn implicit_func(&mut self, name: &str, pos: Pos) -> FuncId {
        if let Some(&f) = self.lw.global_funcs.get(name) {
            self.bind_file(name, Binding::Func(f));
            return f;
        }
        let int = self.lw.types.int();
        let ty = self.lw.types.intern(Type::Function {
            ret: int,
            params: Vec::new(),
            variadic: false,
        });
        let f = self.lw.new_func(name, ty, false, self.origin, pos);
        self.lw.global_funcs.insert(name.to_string(), f);
        self.bind_file(name, Binding::Func(f));
        f
    }

    /// The intrinsic called on the edge where a try-lock succeeded, acquiring in `mode`.
    fn acquire_func(&mut self, pos: Pos, mode: LockMode) -> FuncId {
        self.intrinsic_func(pos, Intrinsic::acquire(mode))
    }

    /// The function of a lock intrinsic (`void f(void *)`), declared on first use.
    pub(super) fn intrinsic_func(&mut self, pos: Pos, intrinsic: Intrinsic) -> FuncId {
        let name = intrinsic.name();
        if let Some(&f) = self.lw.global_funcs.get(name) {
            return f;
        }
        let void = self.lw.types.void();
        let vp = self.lw.types.pointer(void);
        let ty = self.lw.types.intern(Type::Function {
            ret: void,
            params: vec![vp],
            variadic: false,
        });
        self.lw.types.pointer(ty);
        let f = self.lw.new_func(name, ty, false, Origin::Stub, pos);
        self.lw.func_info[f].prototyped = true;
        self.lw.global_funcs.insert(name.to_string(), f);
        f
    }

    /// Whether a call of `f` never returns: declared so, a library function the model says
    /// never returns (`exit`, `abort`, `pthread_exit`, `longjmp`), or one the user's
    /// configuration says never returns, `static` or not.
    fn is_noreturn(&self, f: FuncId) -> bool {
        let func = &self.lw.funcs[f];
        let named = !func.is_static || self.lw.model.configured(&func.name).is_some();
        self.lw.func_info[f].noreturn
            || (named && self.model_spec(&func.name).is_some_and(|s| s.noreturn))
    }

    /// What the library model says about a function called by `name`.
    fn model_spec(&self, name: &str) -> Option<Spec> {
        self.lw.model.function(name)
    }

    /// For a call of a function that returns one of its arguments (`__builtin_expect`), that
    /// argument.
    fn returned_argument<'e>(
        &self,
        name: &str,
        args: &'e [Node<Expression>],
    ) -> Option<&'e Node<Expression>> {
        match self.model_spec(name)?.kind {
            Kind::ReturnsArg { arg } => args.get(usize::from(arg)),
            _ => None,
        }
    }

    /// Evaluates, for their reads, the array sizes a type name spells: C evaluates the size
    /// expressions of a variably modified type where `sizeof`, `_Alignof` or a cast names it
    /// (C11 6.5.3.4p2, 6.7.6.2p5), so `sizeof(int[g])` reads `g`. A constant size reads nothing.
    fn array_sizes(&mut self, tn: &'a Node<TypeName>) -> R<()> {
        let mut declarator = tn.node.declarator.as_ref();
        while let Some(d) = declarator {
            for derived in &d.node.derived {
                if let DerivedDeclarator::Array(a) = &derived.node {
                    if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                        &a.node.size
                    {
                        self.effect(e)?;
                    }
                }
            }
            declarator = match &d.node.kind.node {
                DeclaratorKind::Declarator(inner) => Some(inner),
                _ => None,
            };
        }
        Ok(())
    }

    // ----- values -----

    /// Lowers `e` for its value.
    pub(super) fn expr(&mut self, e: &'a Node<Expression>) -> R<Operand> {
        let pos = match &e.node {
            // What is read here: its extent is underlined in reports.
            Expression::Identifier(_) => self.lval_pos(e.span, expr_end(e)),
            Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                self.lval_pos(e.span, expr_end(e))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                self.lval_pos(e.span, expr_end(e))
            }
            _ => self.pos(e.span),
        };
        match &e.node {
            Expression::Identifier(id) => self.ident_value(&id.node.name, pos),
            Expression::Constant(c) => Ok(match c.node {
                Constant::Float(_) => Operand::Const(self.lw.types.intern(Type::Float), None),
                _ => Operand::Const(self.lw.types.int(), self.const_eval(e)),
            }),
            Expression::StringLiteral(s) => {
                let v = self.string_lit(literal_text(&s.node), pos);
                Ok(Operand::Str(v))
            }
            Expression::GenericSelection(g) => {
                let chosen = self.generic_choice(g, pos)?;
                self.expr(chosen)
            }
            Expression::Member(_) => {
                let lv = self.lval(e)?;
                Ok(self.lval_value(lv))
            }
            Expression::Call(c) => Ok(self.call(c, pos, true)?.0),
            Expression::CompoundLiteral(cl) => {
                let lv = self.compound_literal(cl, pos)?;
                Ok(self.lval_value(lv))
            }
            Expression::SizeOfTy(t) => {
                self.array_sizes(&t.node.0)?;
                Ok(self.int_const())
            }
            Expression::AlignOf(t) => {
                self.array_sizes(&t.node.0)?;
                Ok(self.int_const())
            }
            Expression::SizeOfVal(_) | Expression::OffsetOf(_) => Ok(self.int_const()),
            Expression::UnaryOperator(u) => self.unary(u, pos),
            Expression::Cast(c) => {
                let t = self.type_name(&c.node.type_name)?;
                self.array_sizes(&c.node.type_name)?;
                let op = self.expr(&c.node.expression)?;
                Ok(Operand::Cast(t, Box::new(op)))
            }
            Expression::BinaryOperator(b) => self.binary(b, e, pos),
            Expression::Conditional(c) => self
                .conditional(c, pos, true)
                .map(|v| v.expect("value requested")),
            Expression::Comma(list) => {
                let Some((last, init)) = list.split_last() else {
                    return unsupported(pos, "empty comma expression");
                };
                for x in init {
                    self.effect(x)?;
                }
                self.expr(last)
            }
            Expression::VaArg(v) => {
                let t = self.type_name(&v.node.type_name)?;
                let ap = self.expr(&v.node.va_list)?;
                Ok(Operand::VaArg(t, Box::new(ap)))
            }
            Expression::Statement(s) => self.stmt_expr(s, true),
            // The address of a label (GNU) is code, not memory: a `void *` that points to no
            // object. Where it may jump to is the function's computed `goto`s' concern.
            Expression::LabelAddress(_) => Ok(Operand::Const(self.void_pointer(), None)),
        }
    }

    fn void_pointer(&mut self) -> TypeId {
        let void = self.lw.types.void();
        self.lw.types.pointer(void)
    }

    fn ident_value(&mut self, name: &str, pos: Pos) -> R<Operand> {
        match self.lookup(name) {
            Some(Binding::Var(v)) => Ok(self.lval_value(var_lval(v, pos))),
            Some(Binding::Func(f)) => Ok(self.func_operand(f)),
            Some(Binding::Enum(v)) => Ok(Operand::Const(self.lw.types.int(), v)),
            Some(Binding::Typedef { .. }) => {
                unsupported(pos, format!("type name `{name}` used as a value"))
            }
            None if is_function_name_ident(name) => Ok(Operand::Str(self.function_name_lit(pos))),
            None | Some(Binding::LocalLabel(_)) => {
                unsupported(pos, format!("undeclared identifier `{name}`"))
            }
        }
    }

    fn unary(&mut self, u: &'a Node<UnaryOperatorExpression>, pos: Pos) -> R<Operand> {
        let x = &u.node.operand;
        match u.node.operator.node {
            U::Address => self.address_of(x),
            U::Indirection => {
                let op = self.expr(x)?;
                let t = self.op_type(&op);
                let is_fn = |t: TypeId| matches!(self.lw.types.get(t), Type::Function { .. });
                if is_fn(t) || self.lw.types.pointee(t).is_some_and(is_fn) {
                    // `*f` of a function (pointer) is the function designator, which decays
                    // back to the same pointer.
                    return Ok(op);
                }
                let lv = self.deref(op, pos);
                Ok(self.lval_value(lv))
            }
            ref u @ (U::Plus | U::Minus) => {
                let op = self.expr(x)?;
                let t = self.numeric(self.op_type(&op), self.op_type(&op));
                let which = if *u == U::Plus {
                    ArithOp::Plus
                } else {
                    ArithOp::Neg
                };
                Ok(Operand::Arith(t, which, vec![op]))
            }
            ref u @ (U::Complement | U::Negate) => {
                let op = self.expr(x)?;
                let which = if *u == U::Complement {
                    ArithOp::BitNot
                } else {
                    ArithOp::Not
                };
                Ok(Operand::Arith(self.lw.types.int(), which, vec![op]))
            }
            ref op @ (U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement) => {
                let post = matches!(op, U::PostIncrement | U::PostDecrement);
                Ok(self
                    .incdec(x, incdec_step(op), post, pos, true)?
                    .expect("value requested"))
            }
        }
    }

    fn address_of(&mut self, x: &'a Node<Expression>) -> R<Operand> {
        match &x.node {
            Expression::UnaryOperator(inner) if inner.node.operator.node == U::Indirection => {
                return self.expr(&inner.node.operand);
            }
            Expression::Identifier(id) => {
                if let Some(Binding::Func(f)) = self.lookup(&id.node.name) {
                    return Ok(self.func_operand(f));
                }
            }
            _ => {}
        }
        let lv = self.lval(x)?;
        self.assigned(&lv, None);
        let t = self.lval_type(&lv);
        if matches!(self.lw.types.get(t), Type::Function { .. }) {
            if let (Base::Deref(op), true) = (&lv.base, lv.proj.is_empty()) {
                return Ok((**op).clone());
            }
        }
        Ok(self.addr_of(lv))
    }

    /// `++x`, `x++`, `--x`, `x--`: one read and one write of `x`; a used postfix value is the old
    /// one, kept in a temporary.
    fn incdec(
        &mut self,
        x: &'a Node<Expression>,
        step: i64,
        post: bool,
        pos: Pos,
        want: bool,
    ) -> R<Option<Operand>> {
        let lv = self.lval(x)?;
        self.assigned(&lv, None);
        let t = self.lval_type(&lv);
        let one = Operand::Const(self.lw.types.int(), Some(1));
        if self.is_atomic(&lv) {
            // `++` and `--` of an atomic object are atomic read-modify-writes (C11 6.5.2.4p2).
            return Ok(self.atomic_update(lv, t, (step_op(step), one), post, pos, want));
        }
        self.record_step(t, pos, Some(step));
        if post && want {
            let tmp = var_lval(self.new_temp(t, pos), pos);
            self.emit(
                StmtKind::Assign {
                    dst: tmp.clone(),
                    src: Operand::Use(lv.clone()),
                },
                pos,
            );
            let src = Operand::Arith(t, step_op(step), vec![Operand::Use(tmp.clone()), one]);
            self.emit(StmtKind::Assign { dst: lv, src }, pos);
            return Ok(Some(Operand::Use(tmp)));
        }
        let src = Operand::Arith(t, step_op(step), vec![Operand::Use(lv.clone()), one]);
        // The value of `a = b = NULL`'s inner assignment is the value stored (C11 6.5.16p3),
        // not a second read of `b`: a value that reads no memory is used again as it is.
        let value = (want && !has_reads(&src)).then(|| {
            let t = self.lval_type(&lv);
            Operand::Cast(t, Box::new(src.clone()))
        });
        self.emit(
            StmtKind::Assign {
                dst: lv.clone(),
                src,
            },
            pos,
        );
        Ok(want.then(|| value.unwrap_or(Operand::Use(lv))))
    }

    /// `Float` if either operand type is floating, else `Int`.
    fn numeric(&mut self, a: TypeId, b: TypeId) -> TypeId {
        let is_float = |t: TypeId| matches!(self.lw.types.get(t), Type::Float);
        if is_float(a) || is_float(b) {
            self.lw.types.intern(Type::Float)
        } else {
            self.lw.types.int()
        }
    }

    /// The type of `a op b` for arithmetic operators: pointer ± integer is the pointer type,
    /// pointer − pointer is an integer.
    fn arith_type(&mut self, op: &B, a: TypeId, b: TypeId) -> TypeId {
        match op {
            B::Plus | B::AssignPlus if self.is_pointer(a) => a,
            B::Plus if self.is_pointer(b) => b,
            B::Minus if self.is_pointer(a) && self.is_pointer(b) => self.lw.types.int(),
            B::Minus | B::AssignMinus if self.is_pointer(a) => a,
            _ => self.numeric(a, b),
        }
    }

    fn binary(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        e: &'a Node<Expression>,
        pos: Pos,
    ) -> R<Operand> {
        let op = &b.node.operator.node;
        match op {
            B::Index => {
                let lv = self.lval(e)?;
                Ok(self.lval_value(lv))
            }
            B::Assign => Ok(self.assign(b, pos, true)?.expect("value requested")),
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => Ok(self
                .compound_assign(b, pos, true)?
                .expect("value requested")),
            B::LogicalAnd | B::LogicalOr => self.logical_value(e, pos),
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let l = self.expr(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                Ok(Operand::Arith(
                    self.lw.types.int(),
                    arith_op(op),
                    vec![l, r],
                ))
            }
            _ => self.arith_binary(b),
        }
    }

    fn arith_binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> R<Operand> {
        let l = self.expr(&b.node.lhs)?;
        let r = self.expr(&b.node.rhs)?;
        let (lt, rt) = (self.op_type(&l), self.op_type(&r));
        let t = self.arith_type(&b.node.operator.node, lt, rt);
        Ok(Operand::Arith(
            t,
            arith_op(&b.node.operator.node),
            vec![l, r],
        ))
    }

    /// `lhs = rhs`: its value, when wanted, is a re-read of `lhs`.
    fn assign(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        pos: Pos,
        want: bool,
    ) -> R<Option<Operand>> {
        let lv = self.lval(&b.node.lhs)?;
        let src = match (&b.node.rhs.node, self.trylock_call(&b.node.rhs)) {
            (Expression::Call(c), Some(how)) => {
                let (value, lock) = self.call(c, self.pos(b.node.rhs.span), true)?;
                self.assigned(&lv, lock.map(|l| (l, how)));
                value
            }
            _ => {
                let src = self.expr(&b.node.rhs)?;
                self.assigned(&lv, None);
                src
            }
        };
        if self.is_atomic(&lv) {
            // An atomic store; its value is the value stored, not a re-read.
            let src = self.read_first(src, pos);
            self.atomic_bracket(pos, false);
            self.emit(
                StmtKind::Assign {
                    dst: lv,
                    src: src.clone(),
                },
                pos,
            );
            self.atomic_bracket(pos, true);
            return Ok(want.then_some(src));
        }
        if let Some(step) = self.plain_step(&b.node.lhs, &b.node.rhs) {
            let t = self.lval_type(&lv);
            self.record_step(t, pos, Some(step));
        }
        // The value of `a = b = NULL`'s inner assignment is the value stored (C11 6.5.16p3),
        // not a second read of `b`: a value that reads no memory is used again as it is.
        let value = (want && !has_reads(&src)).then(|| {
            let t = self.lval_type(&lv);
            Operand::Cast(t, Box::new(src.clone()))
        });
        self.emit(
            StmtKind::Assign {
                dst: lv.clone(),
                src,
            },
            pos,
        );
        Ok(want.then(|| value.unwrap_or(Operand::Use(lv))))
    }

    /// The constant `k` of `x = x + k` or `x = x - k` (as `-k`), through conversions of the
    /// right-hand side, when `x` is written the same way on both sides (an identifier and member
    /// names only, so that reading it twice names one object).
    fn plain_step(&self, lhs: &'a Node<Expression>, rhs: &'a Node<Expression>) -> Option<i64> {
        let mut rhs = rhs;
        while let Expression::Cast(c) = &rhs.node {
            rhs = &c.node.expression;
        }
        let Expression::BinaryOperator(b) = &rhs.node else {
            return None;
        };
        let mut x = &b.node.lhs;
        while let Expression::Cast(c) = &x.node {
            x = &c.node.expression;
        }
        if !same_object_name(lhs, x) {
            return None;
        }
        let k = self.const_eval(&b.node.rhs)?;
        match b.node.operator.node {
            B::Plus => Some(k),
            B::Minus => k.checked_neg(),
            _ => None,
        }
    }

    /// Records that the statement written at `pos` adds `step` to an lvalue of type `t`
    /// ([`crate::ir::Program::steps`]); pointers and unknown steps record nothing but spoil
    /// the position.
    fn record_step(&mut self, t: TypeId, pos: Pos, step: Option<i64>) {
        let step = step.filter(|_| self.is_integer(t)).unwrap_or(0);
        self.lw
            .steps
            .entry(pos)
            .and_modify(|s| {
                if *s != step {
                    *s = 0;
                }
            })
            .or_insert(step);
    }

    /// `lhs op= rhs` is `lhs = lhs op rhs` with `lhs` evaluated once.
    fn compound_assign(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        pos: Pos,
        want: bool,
    ) -> R<Option<Operand>> {
        let lv = self.lval(&b.node.lhs)?;
        self.assigned(&lv, None);
        let r = self.expr(&b.node.rhs)?;
        let lt = self.lval_type(&lv);
        let rt = self.op_type(&r);
        let t = match self.arith_type(&b.node.operator.node, lt, rt) {
            t if self.is_pointer(t) => t,
            _ => lt,
        };
        if self.is_atomic(&lv) {
            // An atomic read-modify-write (C11 6.5.16.2p3).
            let r = self.read_first(r, pos);
            let which = arith_op(&b.node.operator.node);
            return Ok(self.atomic_update(lv, t, (which, r), false, pos, want));
        }
        let step = match b.node.operator.node {
            B::AssignPlus => self.const_eval(&b.node.rhs),
            B::AssignMinus => self.const_eval(&b.node.rhs).and_then(i64::checked_neg),
            _ => None,
        };
        self.record_step(t, pos, step);
        let src = Operand::Arith(
            t,
            arith_op(&b.node.operator.node),
            vec![Operand::Use(lv.clone()), r],
        );
        // The value of `a = b = NULL`'s inner assignment is the value stored (C11 6.5.16p3),
        // not a second read of `b`: a value that reads no memory is used again as it is.
        let value = (want && !has_reads(&src)).then(|| {
            let t = self.lval_type(&lv);
            Operand::Cast(t, Box::new(src.clone()))
        });
        self.emit(
            StmtKind::Assign {
                dst: lv.clone(),
                src,
            },
            pos,
        );
        Ok(want.then(|| value.unwrap_or(Operand::Use(lv))))
    }

    /// `lv = lv op r` as one atomic access; its value is the old value (`post`) or the new one.
    fn atomic_update(
        &mut self,
        lv: Lval,
        t: TypeId,
        (op, r): (ArithOp, Operand),
        post: bool,
        pos: Pos,
        want: bool,
    ) -> Option<Operand> {
        let lt = self.lval_type(&lv);
        let old = var_lval(self.new_temp(lt, pos), pos);
        let new = var_lval(self.new_temp(t, pos), pos);
        self.atomic_bracket(pos, false);
        let read = StmtKind::Assign {
            dst: old.clone(),
            src: Operand::Use(lv.clone()),
        };
        self.emit(read, pos);
        let combine = StmtKind::Assign {
            dst: new.clone(),
            src: Operand::Arith(t, op, vec![Operand::Use(old.clone()), r]),
        };
        self.emit(combine, pos);
        let write = StmtKind::Assign {
            dst: lv,
            src: Operand::Use(new.clone()),
        };
        self.emit(write, pos);
        self.atomic_bracket(pos, true);
        want.then_some(Operand::Use(if post { old } else { new }))
    }

    /// `a && b` or `a || b` as a value: short-circuit control flow storing 1 or 0 in a temporary.
    fn logical_value(&mut self, e: &'a Node<Expression>, pos: Pos) -> R<Operand> {
        let int = self.lw.types.int();
        let tmp = var_lval(self.new_temp(int, pos), pos);
        let (t, f, join) = (
            self.fb.new_block(),
            self.fb.new_block(),
            self.fb.new_block(),
        );
        self.cond(e, t, f)?;
        for b in [t, f] {
            self.fb.switch_to(b);
            let one_or_zero = self.int_const();
            self.emit(
                StmtKind::Assign {
                    dst: tmp.clone(),
                    src: one_or_zero,
                },
                pos,
            );
            self.fb.goto(join);
        }
        self.fb.switch_to(join);
        Ok(Operand::Use(tmp))
    }

    /// The type of `c ? a : b` from the types of its arms.
    pub(super) fn merge_arm_types(&mut self, a: TypeId, b: TypeId) -> TypeId {
        if a == b {
            return a;
        }
        if self.is_void(a) || self.is_void(b) {
            return self.lw.types.void();
        }
        match (self.is_pointer(a), self.is_pointer(b)) {
            (true, true) => {
                let void = self.lw.types.void();
                let vp = self.lw.types.pointer(void);
                if a == vp || b == vp {
                    vp
                } else {
                    a
                }
            }
            (true, false) => a,
            (false, true) => b,
            (false, false) => match (self.lw.types.get(a), self.lw.types.get(b)) {
                (Type::Char | Type::Int | Type::Float, Type::Char | Type::Int | Type::Float) => {
                    self.numeric(a, b)
                }
                _ => a,
            },
        }
    }

    /// `c ? a : b`: branches assigning a temporary (no temporary for `void` or an unused value).
    /// Evaluates the condition `a` of `a ?: b` (GNU) once into a temporary and branches on it
    /// to `t` (nonzero) or `f`; returns the temporary, which is the result on `t`'s side.
    fn elvis_condition(
        &mut self,
        a: &'a Node<Expression>,
        t: crate::ir::BlockId,
        f: crate::ir::BlockId,
        pos: Pos,
    ) -> R<Lval> {
        let value = self.expr(a)?;
        let ty = self.op_type(&value);
        let ty = self.decay_type(ty);
        let tmp = var_lval(self.new_temp(ty, pos), pos);
        let apos = self.pos(a.span);
        self.emit(
            StmtKind::Assign {
                dst: tmp.clone(),
                src: value,
            },
            apos,
        );
        self.fb.terminate(Term::Branch {
            cond: Operand::Use(tmp.clone()),
            then_block: t,
            else_block: f,
            pos: apos,
            compare: None,
        });
        Ok(tmp)
    }

    fn conditional(
        &mut self,
        c: &'a Node<ConditionalExpression>,
        pos: Pos,
        want: bool,
    ) -> R<Option<Operand>> {
        let (bt, bf, join) = (
            self.fb.new_block(),
            self.fb.new_block(),
            self.fb.new_block(),
        );
        // `a ?: b` (GNU) evaluates `a` once, and its value is the result when it is nonzero.
        let saved = if is_elvis(c) {
            Some(self.elvis_condition(&c.node.condition, bt, bf, pos)?)
        } else {
            self.cond(&c.node.condition, bt, bf)?;
            None
        };
        if !want {
            self.fb.switch_to(bt);
            if saved.is_none() {
                self.effect(&c.node.then_expression)?;
            }
            self.fb.goto(join);
            self.fb.switch_to(bf);
            self.effect(&c.node.else_expression)?;
            self.fb.goto(join);
            self.fb.switch_to(join);
            return Ok(None);
        }
        self.fb.switch_to(bt);
        let a = match saved {
            Some(value) => self.lval_value(value),
            None => self.expr(&c.node.then_expression)?,
        };
        let a_end = self.fb.suspend();
        self.fb.switch_to(bf);
        let b = self.expr(&c.node.else_expression)?;
        let b_end = self.fb.suspend();
        let (at, btt) = (self.op_type(&a), self.op_type(&b));
        let t = self.merge_arm_types(at, btt);
        let void = self.is_void(t);
        let tmp = if void {
            None
        } else {
            Some(var_lval(self.new_temp(t, pos), pos))
        };
        let arms = [
            (a_end, a, self.pos(c.node.then_expression.span)),
            (b_end, b, self.pos(c.node.else_expression.span)),
        ];
        for (end, op, arm_pos) in arms {
            let Some(end) = end else { continue };
            match &tmp {
                Some(tmp) => self.fb.emit_to(
                    end,
                    Stmt {
                        kind: StmtKind::Assign {
                            dst: tmp.clone(),
                            src: op,
                        },
                        pos: arm_pos,
                    },
                ),
                None if has_reads(&op) => self.fb.emit_to(
                    end,
                    Stmt {
                        kind: StmtKind::Eval(op),
                        pos: arm_pos,
                    },
                ),
                None => {}
            }
            self.fb.set_term(end, Term::Goto(join));
        }
        self.fb.switch_to(join);
        Ok(Some(match tmp {
            Some(tmp) => Operand::Use(tmp),
            None => self.void_const(),
        }))
    }

    /// A compound literal: a fresh object initialized member by member. At file scope (in a
    /// global initializer) it has static storage, so it is a static global rather than a
    /// temporary.
    pub(super) fn compound_literal(&mut self, cl: &'a Node<CompoundLiteral>, pos: Pos) -> R<Lval> {
        let t = self.type_name(&cl.node.type_name)?;
        let v = if self.in_global_init() {
            let kind = VarKind::Global {
                thread_local: false,
                defined: true,
                is_static: true,
            };
            self.new_var("<compound-literal>".to_string(), t, kind, pos)
        } else {
            self.new_temp(t, pos)
        };
        let lv = var_lval(v, pos);
        self.init_list(&lv, t, &cl.node.initializer_list)?;
        Ok(lv)
    }

    /// The association a generic selection picks: the first whose type is the controlling
    /// expression's type (after lvalue conversion), else `default`, else the first.
    fn generic_choice(
        &mut self,
        g: &'a Node<GenericSelection>,
        pos: Pos,
    ) -> R<&'a Node<Expression>> {
        let t = self.type_of(&g.node.expression)?;
        let t = self.decay_type(t);
        let mut default = None;
        let mut first = None;
        for a in &g.node.associations {
            match &a.node {
                GenericAssociation::Type(at) => {
                    let ty = self.type_name(&at.node.type_name)?;
                    if ty == t {
                        return Ok(&at.node.expression);
                    }
                    first.get_or_insert(&*at.node.expression);
                }
                GenericAssociation::Default(e) => {
                    default = Some(&**e);
                    first.get_or_insert(&**e);
                }
            }
        }
        match default.or(first) {
            Some(e) => Ok(e),
            None => unsupported(pos, "generic selection without associations"),
        }
    }

    // ----- calls -----

    /// Lowers a call; returns its value (`Use` of a temporary, or a `void` constant when no value
    /// is wanted or there is none) and the operand of its first argument.
    pub(super) fn call(
        &mut self,
        c: &'a Node<CallExpression>,
        pos: Pos,
        want: bool,
    ) -> R<(Operand, Option<Operand>)> {
        // The accesses of a library function's model are reported at its call, which reports
        // then underline whole.
        self.lval_pos(c.span, c.span.end);
        let args_e = &c.node.arguments;
        let mut direct = None;
        // The calls that bracket this one when it runs as an atomic section.
        let mut section = None;
        if let Expression::Identifier(id) = &peel_designator(&c.node.callee).node {
            let name = id.node.name.as_str();
            section = self.lw.model.atomic_section(name);
            let binding = self.lookup(name);
            if matches!(binding, None | Some(Binding::Func(_))) {
                match self.model_spec(name).map(|s| s.kind) {
                    Some(Kind::ReturnsArg { arg }) if args_e.len() > usize::from(arg) => {
                        let mut value = None;
                        for (k, a) in args_e.iter().enumerate() {
                            if k == usize::from(arg) {
                                value = Some(self.expr(a)?);
                            } else {
                                self.effect(a)?;
                            }
                        }
                        return Ok((value.expect("the argument exists"), None));
                    }
                    Some(Kind::Unreachable) => {
                        self.fb.terminate(Term::Exit);
                        return Ok((self.void_const(), None));
                    }
                    Some(Kind::Atomic(atomic)) => return self.atomic_call(atomic, args_e, pos),
                    Some(Kind::SemInit { value, .. } | Kind::BarrierInit { count: value, .. }) => {
                        let v = args_e
                            .get(usize::from(value))
                            .and_then(|e| self.const_eval(e));
                        self.lw.init_values.entry(pos).or_default().push(v);
                    }
                    Some(Kind::MutexType { kind }) => {
                        let v = args_e
                            .get(usize::from(kind))
                            .and_then(|e| self.const_eval(e));
                        self.lw.relock_may_fail |= crate::model::relock_may_fail(v);
                    }
                    _ => {}
                }
                match name {
                    "asm" | "__asm" | "__asm__" if binding.is_none() => {
                        self.emit(
                            StmtKind::Asm {
                                operands: Vec::new(),
                            },
                            pos,
                        );
                        return Ok((self.void_const(), None));
                    }
                    _ => {}
                }
            }
            direct = match binding {
                Some(Binding::Func(f)) => Some(f),
                None => Some(self.implicit_func(name, self.pos(id.span))),
                _ => None,
            };
        }
        let callee = match direct {
            Some(f) => Callee::Direct(f),
            None => Callee::Indirect(self.expr(&c.node.callee)?),
        };
        let mut args = Vec::with_capacity(args_e.len());
        for a in args_e {
            args.push(self.expr(a)?);
        }
        let fty = match &callee {
            Callee::Direct(f) => self.lw.funcs[*f].ty,
            Callee::Indirect(op) => {
                let t = self.op_type(op);
                self.lw.types.pointee(t).unwrap_or(t)
            }
        };
        let ret = match self.lw.types.get(fty) {
            Type::Function { ret, .. } => *ret,
            _ => self.lw.types.int(),
        };
        let dst = if want && !self.is_void(ret) {
            Some(var_lval(self.new_temp(ret, pos), pos))
        } else {
            None
        };
        let value = match &dst {
            Some(lv) => Operand::Use(lv.clone()),
            None => self.void_const(),
        };
        let first = args.first().cloned();
        let section = section
            .map(|(begin, end)| (self.implicit_func(begin, pos), self.implicit_func(end, pos)));
        let bracket = |this: &mut Self, f: FuncId| {
            let call = StmtKind::Call {
                dst: None,
                callee: Callee::Direct(f),
                args: Vec::new(),
            };
            this.emit(call, pos);
        };
        if let Some((begin, _)) = section {
            bracket(self, begin);
        }
        self.emit(StmtKind::Call { dst, callee, args }, pos);
        if let Some((_, end)) = section {
            bracket(self, end);
        }
        if direct.is_some_and(|f| self.is_noreturn(f)) {
            self.fb.terminate(Term::Exit);
        }
        Ok((value, first))
    }

    /// An atomic operation ([`Atomic`]): its reads and writes of the atomic object, between
    /// calls of the two functions of [`ATOMIC_ACCESS`] (whose stubs take a lock nothing else
    /// takes, so two atomic accesses are never a race and an atomic and a plain one still are,
    /// C11 5.1.2.4p25). The value stored is evaluated before, and the expected value of a
    /// compare-exchange is read before and written after, as plain accesses.
    fn atomic_call(
        &mut self,
        atomic: Atomic,
        args_e: &'a [Node<Expression>],
        pos: Pos,
    ) -> R<(Operand, Option<Operand>)> {
        let mut args = Vec::with_capacity(args_e.len());
        for a in args_e {
            args.push(self.expr(a)?);
        }
        let arg = |k: u8| args.get(usize::from(k)).cloned();
        let Some(ptr) = arg(atomic.ptr) else {
            return unsupported(pos, "atomic operation without its object");
        };
        let obj = self.deref(ptr.clone(), pos);
        let t = match self.lw.types.get(self.lval_type(&obj)) {
            Type::Void | Type::Function { .. } => self.lw.types.int(),
            _ => self.lval_type(&obj),
        };
        let value = match atomic.value.and_then(arg) {
            Some(v) if atomic.by_ref => Operand::Use(self.deref(v, pos)),
            Some(v) => v,
            None => self.int_const(),
        };
        let value = self.read_first(value, pos);
        let expected = match atomic.op {
            AtomicOp::CompareExchange { expected } => arg(expected).map(|e| self.deref(e, pos)),
            _ => None,
        };
        if let Some(e) = &expected {
            self.emit(StmtKind::Eval(Operand::Use(e.clone())), pos);
        }
        let old = var_lval(self.new_temp(t, pos), pos);
        self.atomic_bracket(pos, false);
        if atomic.op != AtomicOp::Store {
            let read = StmtKind::Assign {
                dst: old.clone(),
                src: Operand::Use(obj.clone()),
            };
            self.emit(read, pos);
        }
        let stored = match atomic.op {
            AtomicOp::Load => None,
            AtomicOp::Update => Some(Operand::Arith(
                t,
                ArithOp::Other,
                vec![Operand::Use(old.clone()), value],
            )),
            AtomicOp::Add => Some(Operand::Arith(
                t,
                ArithOp::Add,
                vec![Operand::Use(old.clone()), value],
            )),
            _ => Some(value),
        };
        if let Some(src) = stored {
            self.emit(StmtKind::Assign { dst: obj, src }, pos);
        }
        self.atomic_bracket(pos, true);
        if let Some(e) = expected {
            let back = StmtKind::Assign {
                dst: e,
                src: Operand::Use(old.clone()),
            };
            self.emit(back, pos);
        }
        if let Some(out) = atomic.out.and_then(arg) {
            let out = self.deref(out, pos);
            let back = StmtKind::Assign {
                dst: out,
                src: Operand::Use(old.clone()),
            };
            self.emit(back, pos);
        }
        let result = match atomic.op {
            AtomicOp::Store => self.void_const(),
            AtomicOp::CompareExchange { .. } | AtomicOp::CompareSwap => self.int_const(),
            AtomicOp::Load | AtomicOp::Exchange | AtomicOp::Update | AtomicOp::Add => {
                Operand::Use(old)
            }
        };
        Ok((result, Some(ptr)))
    }

    // ----- effects -----

    /// Lowers `e` for its side effects and reads only.
    pub(super) fn effect(&mut self, e: &'a Node<Expression>) -> R<()> {
        let pos = self.pos(e.span);
        match &e.node {
            Expression::Call(c) => {
                self.call(c, pos, false)?;
            }
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Assign => {
                    self.assign(b, pos, false)?;
                }
                B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseXor
                | B::AssignBitwiseOr => {
                    self.compound_assign(b, pos, false)?;
                }
                B::LogicalAnd | B::LogicalOr => {
                    let (rhs, join) = (self.fb.new_block(), self.fb.new_block());
                    if b.node.operator.node == B::LogicalAnd {
                        self.cond(&b.node.lhs, rhs, join)?;
                    } else {
                        self.cond(&b.node.lhs, join, rhs)?;
                    }
                    self.fb.switch_to(rhs);
                    self.effect(&b.node.rhs)?;
                    self.fb.goto_and_switch(join);
                }
                _ => self.eval_for_reads(e, pos)?,
            },
            Expression::UnaryOperator(u) => match u.node.operator.node {
                ref op @ (U::PreIncrement
                | U::PreDecrement
                | U::PostIncrement
                | U::PostDecrement) => {
                    self.incdec(&u.node.operand, incdec_step(op), false, pos, false)?;
                }
                _ => self.eval_for_reads(e, pos)?,
            },
            Expression::Comma(list) => {
                for x in list.iter() {
                    self.effect(x)?;
                }
            }
            Expression::Conditional(c) => {
                self.conditional(c, pos, false)?;
            }
            Expression::Cast(c) => {
                self.array_sizes(&c.node.type_name)?;
                self.effect(&c.node.expression)?
            }
            Expression::Statement(s) => {
                self.stmt_expr(s, false)?;
            }
            Expression::GenericSelection(g) => {
                let chosen = self.generic_choice(g, pos)?;
                self.effect(chosen)?;
            }
            _ => self.eval_for_reads(e, pos)?,
        }
        Ok(())
    }

    fn eval_for_reads(&mut self, e: &'a Node<Expression>, pos: Pos) -> R<()> {
        let op = self.expr(e)?;
        if has_reads(&op) {
            self.emit(StmtKind::Eval(op), pos);
        }
        Ok(())
    }

    // ----- lvalues -----

    /// Lowers `e` as an lvalue. An expression that is not one (a call returning a struct, a
    /// conditional) is stored in a temporary, which is then the lvalue.
    pub(super) fn lval(&mut self, e: &'a Node<Expression>) -> R<Lval> {
        let pos = self.lval_pos(e.span, expr_end(e));
        match &e.node {
            Expression::Identifier(id) => {
                let name = id.node.name.as_str();
                match self.lookup(name) {
                    Some(Binding::Var(v)) => Ok(var_lval(v, pos)),
                    None if is_function_name_ident(name) => {
                        Ok(var_lval(self.function_name_lit(pos), pos))
                    }
                    None => unsupported(pos, format!("undeclared identifier `{name}`")),
                    Some(_) => unsupported(pos, format!("`{name}` is not an object")),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                let op = self.expr(&u.node.operand)?;
                Ok(self.deref(op, pos))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                self.index_lval(&b.node.lhs, &b.node.rhs, pos)
            }
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.lval(&m.node.expression)?,
                    MemberOperator::Indirect => {
                        let op = self.expr(&m.node.expression)?;
                        self.deref(op, pos)
                    }
                };
                self.field(base, &m.node.identifier.node.name, pos)
            }
            Expression::StringLiteral(s) => {
                let v = self.string_lit(literal_text(&s.node), pos);
                Ok(var_lval(v, pos))
            }
            Expression::CompoundLiteral(cl) => self.compound_literal(cl, pos),
            Expression::GenericSelection(g) => {
                let chosen = self.generic_choice(g, pos)?;
                self.lval(chosen)
            }
            _ => match self.expr(e)? {
                Operand::Use(lv) => Ok(lv),
                other => {
                    let t = self.op_type(&other);
                    let tmp = var_lval(self.new_temp(t, pos), pos);
                    self.emit(
                        StmtKind::Assign {
                            dst: tmp.clone(),
                            src: other,
                        },
                        pos,
                    );
                    Ok(tmp)
                }
            },
        }
    }

    /// `a[i]`: an element of array `a`, or of what pointer `a` points to (then `a + i` is the
    /// pointer, so the reads of `i` happen at the access). `i[a]` is accepted too.
    fn index_lval(
        &mut self,
        a: &'a Node<Expression>,
        i: &'a Node<Expression>,
        pos: Pos,
    ) -> R<Lval> {
        let ao = self.expr(a)?;
        let io = self.expr(i)?;
        let swapped = !self.is_pointer(self.op_type(&ao)) && self.is_pointer(self.op_type(&io));
        let (base, idx, idx_expr) = if swapped { (io, ao, a) } else { (ao, io, i) };
        if let Operand::AddrOf(lv) | Operand::Use(lv) = &base {
            let t = self.lval_type(lv);
            if matches!(self.lw.types.get(t), Type::Lock(_) | Type::Cond) {
                // An array member of a lock's representation (`c.__data.__g_refs[0]`), which
                // `field` took for the opaque object itself: the element is the object too.
                if has_reads(&idx) {
                    self.emit(StmtKind::Eval(idx), pos);
                }
                let (Operand::AddrOf(mut lv) | Operand::Use(mut lv)) = base else {
                    unreachable!("matched above")
                };
                lv.pos = pos;
                return Ok(lv);
            }
        }
        if let Operand::AddrOf(lv) = &base {
            let t = self.lval_type(lv);
            if matches!(self.lw.types.get(t), Type::Array(_)) {
                let mut var = index_var(&idx);
                let constant = if var.is_none() && !has_reads(&idx) {
                    self.const_eval(idx_expr)
                } else {
                    None
                };
                if var.is_none() && is_member_read(&idx) {
                    var = Some(self.read_into_temp(idx, pos));
                } else if has_reads(&idx) {
                    self.emit(StmtKind::Eval(idx), pos);
                }
                let Operand::AddrOf(mut lv) = base else {
                    unreachable!("matched above")
                };
                lv.proj.push(match constant {
                    Some(k) => Proj::ConstIndex(k),
                    None => Proj::Index(var),
                });
                lv.pos = pos;
                return Ok(lv);
            }
        }
        // `p[0]` is `*p`; any other index moves the pointer to another element, which an
        // analysis matching `*p` (the object a thread owns, a lock's own object) must not take
        // for `p`'s own, so it stays pointer arithmetic even when it is a constant.
        let zero = matches!(idx.without_casts(), Operand::Const(_, Some(0)));
        let idx = if base.plain_var().is_some() && is_member_read(&idx) {
            Operand::Use(var_lval(self.read_into_temp(idx, pos), pos))
        } else {
            idx
        };
        let ptr = if has_reads(&idx) || !zero {
            let t = self.op_type(&base);
            Operand::Arith(t, ArithOp::Add, vec![base, idx])
        } else {
            base
        };
        // `p[i]` is `*(p + i)`: the element is the pointer's target, with no projection (an
        // `Index` here would take the element type of the element).
        Ok(Lval {
            base: Base::Deref(Box::new(ptr)),
            proj: Vec::new(),
            pos,
        })
    }

    /// An index `a[p->id]` (or `q[p->id]` through a pointer variable) read into a temporary that
    /// the index then names, so that analyses of indices (a thread's slot) see one variable, as
    /// for `a[id]`.
    fn read_into_temp(&mut self, idx: Operand, pos: Pos) -> VarId {
        let ty = self.op_type(&idx);
        let tmp = self.new_temp(ty, pos);
        self.emit(
            StmtKind::Assign {
                dst: var_lval(tmp, pos),
                src: idx,
            },
            pos,
        );
        tmp
    }

    /// `base.name`, through anonymous members if needed.
    fn field(&mut self, mut base: Lval, name: &str, pos: Pos) -> R<Lval> {
        let t = self.lval_type(&base);
        let sid = match self.lw.types.get(t) {
            Type::Struct(s) | Type::Union(s) => *s,
            // A member of a lock or condition variable's C library representation
            // (`c.__data.__wseq`): locksmith models the object as opaque, so the member is the
            // object itself.
            Type::Lock(_) | Type::Cond => return Ok(base),
            _ => {
                return unsupported(
                    pos,
                    format!("member `{name}` of a value that is not a struct or union"),
                )
            }
        };
        let Some(path) = self.find_field(sid, name) else {
            return unsupported(
                pos,
                format!("no member named `{name}` in {}", self.lw.types.describe(t)),
            );
        };
        base.proj.extend(
            path.into_iter()
                .map(|(strukt, index)| Proj::Field { strukt, index }),
        );
        base.pos = pos;
        Ok(base)
    }

    /// The fields leading to member `name` of struct `sid`: the member itself, the field of its
    /// bit-field run, or a path through anonymous members.
    pub(super) fn find_field(&self, sid: StructId, name: &str) -> Option<Vec<(StructId, u32)>> {
        let def = &self.lw.types.structs[sid];
        if let Some(i) = def.field(name) {
            return Some(vec![(sid, i)]);
        }
        if let Some(info) = self.lw.struct_info(sid) {
            if let Some((_, i)) = info.aliases.iter().find(|(n, _)| n == name) {
                return Some(vec![(sid, *i)]);
            }
        }
        for (i, f) in def.fields.iter().enumerate() {
            if f.name != ANON_MEMBER {
                continue;
            }
            if let Type::Struct(inner) | Type::Union(inner) = self.lw.types.get(f.ty) {
                if let Some(mut rest) = self.find_field(*inner, name) {
                    rest.insert(0, (sid, i as u32));
                    return Some(rest);
                }
            }
        }
        None
    }

    // ----- conditions -----

    /// Lowers `e` as a condition: control goes to `t` when it is true and to `f` otherwise.
    /// The current block is closed afterwards.
    pub(super) fn cond(&mut self, e: &'a Node<Expression>, t: BlockId, f: BlockId) -> R<()> {
        let pos = self.pos(e.span);
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == U::Negate => {
                return self.cond(&u.node.operand, f, t);
            }
            // `x != 0` and `x == 0` branch on `x` itself, so that the analysis can tell which
            // branch a call's result (`pthread_create`'s error code) was zero on.
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, B::NotEquals | B::Equals)
                    && (is_zero(&b.node.rhs) || is_zero(&b.node.lhs)) =>
            {
                let x = if is_zero(&b.node.rhs) {
                    &b.node.lhs
                } else {
                    &b.node.rhs
                };
                return if b.node.operator.node == B::NotEquals {
                    self.cond(x, t, f)
                } else {
                    self.cond(x, f, t)
                };
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::LogicalAnd => {
                let mid = self.fb.new_block();
                self.cond(&b.node.lhs, mid, f)?;
                self.fb.switch_to(mid);
                return self.cond(&b.node.rhs, t, f);
            }
            Expression::BinaryOperator(b) if b.node.operator.node == B::LogicalOr => {
                let mid = self.fb.new_block();
                self.cond(&b.node.lhs, t, mid)?;
                self.fb.switch_to(mid);
                return self.cond(&b.node.rhs, t, f);
            }
            Expression::Comma(list) => {
                if let Some((last, init)) = list.split_last() {
                    for x in init {
                        self.effect(x)?;
                    }
                    return self.cond(last, t, f);
                }
            }
            Expression::Conditional(c) if is_elvis(c) => {
                // `a ?: b`: true when `a` is, else when `b` is.
                let bf = self.fb.new_block();
                self.cond(&c.node.condition, t, bf)?;
                self.fb.switch_to(bf);
                return self.cond(&c.node.else_expression, t, f);
            }
            Expression::Conditional(c) => {
                let (bt, bf) = (self.fb.new_block(), self.fb.new_block());
                self.cond(&c.node.condition, bt, bf)?;
                self.fb.switch_to(bt);
                self.cond(&c.node.then_expression, t, f)?;
                self.fb.switch_to(bf);
                return self.cond(&c.node.else_expression, t, f);
            }
            Expression::Constant(c) => {
                if let Constant::Integer(_) = &c.node {
                    let target = if is_zero(e) { f } else { t };
                    self.fb.goto(target);
                    return Ok(());
                }
            }
            Expression::Call(c) => {
                if let Expression::Identifier(id) = &peel_designator(&c.node.callee).node {
                    if let Some(arg) = self.returned_argument(&id.node.name, &c.node.arguments) {
                        if matches!(self.lookup(&id.node.name), None | Some(Binding::Func(_))) {
                            return self.cond(arg, t, f);
                        }
                    }
                }
            }
            _ => {}
        }
        if let Some(test) = self.trylock_test(e) {
            return self.trylock_cond(test, t, f, pos);
        }
        let compare = match &e.node {
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Equals => Some(Comparison::Eq),
                B::NotEquals => Some(Comparison::Ne),
                B::Less => Some(Comparison::Lt),
                B::Greater => Some(Comparison::Gt),
                B::LessOrEqual => Some(Comparison::Le),
                B::GreaterOrEqual => Some(Comparison::Ge),
                _ => None,
            },
            _ => None,
        };
        let op = self.expr(e)?;
        // The comparison is kept only where its lowering is the two operands' arithmetic.
        let compare =
            compare.filter(|_| matches!(&op, Operand::Arith(_, _, ops) if ops.len() == 2));
        self.fb.terminate(Term::Branch {
            cond: op,
            then_block: t,
            else_block: f,
            pos,
            compare,
        });
        Ok(())
    }

    /// How a try-lock call acquires its lock, if `e` is one.
    pub(super) fn trylock_call(&self, e: &'a Node<Expression>) -> Option<TryHow> {
        let Expression::Call(c) = &e.node else {
            return None;
        };
        if c.node.arguments.is_empty() {
            return None;
        }
        let Expression::Identifier(id) = &peel_designator(&c.node.callee).node else {
            return None;
        };
        if !matches!(self.lookup(&id.node.name), None | Some(Binding::Func(_))) {
            return None;
        }
        match self.model_spec(&id.node.name)?.kind {
            Kind::TryAcquire { mode, success, .. } => Some(TryHow { mode, success }),
            _ => None,
        }
    }

    /// A try-lock call, `r = call`, or a variable holding a saved result: how it acquires.
    fn trylock(&self, e: &'a Node<Expression>) -> Option<TryHow> {
        match &e.node {
            Expression::Call(_) => self.trylock_call(e),
            Expression::BinaryOperator(b) if b.node.operator.node == B::Assign => {
                self.trylock_call(&b.node.rhs)
            }
            Expression::Identifier(id) => self.saved_trylock(&id.node.name).map(|s| s.how),
            _ => None,
        }
    }

    /// Recognises `f(m) == 0`, `0 == f(m)`, `f(m) != 0`, `0 != f(m)` and `f(m)` for a try-lock
    /// `f` (with `f(m)` possibly `(r = f(m))`); `!`, `&&` and `||` around them are handled by
    /// [`UnitCx::cond`] swapping and splitting targets. A comparison with a nonzero constant
    /// (`f(m) == EBUSY`) is read as a test of the result being nonzero: for a try-lock that
    /// returns 0 on success it names a failure, and the lock is held where the result is not
    /// that code, as a valid lock's try-lock returns 0 or `EBUSY`; for one that returns nonzero
    /// on success (`f(m) == 1`, `f(m) == true`) it names the success.
    fn trylock_test(&self, e: &'a Node<Expression>) -> Option<TryLockTest<'a>> {
        if let Expression::BinaryOperator(b) = &e.node {
            let eq = match b.node.operator.node {
                B::Equals => true,
                B::NotEquals => false,
                // `(r = f(m))` tested alone.
                B::Assign => {
                    return self.trylock(e).map(|how| TryLockTest {
                        side: e,
                        compare: None,
                        zero_when_true: false,
                        how,
                    })
                }
                _ => return None,
            };
            // `Some(true)` for 0, `Some(false)` for a failure code.
            let constant = |x: &Node<Expression>| {
                if is_zero(x) {
                    Some(true)
                } else {
                    self.const_eval(x).map(|v| v == 0)
                }
            };
            let sides = [
                (&b.node.lhs, &b.node.rhs, false),
                (&b.node.rhs, &b.node.lhs, true),
            ];
            for (call, other, zero_first) in sides {
                if let (Some(zero), Some(how)) = (constant(other), self.trylock(call)) {
                    return Some(TryLockTest {
                        side: call,
                        compare: Some(zero_first),
                        zero_when_true: eq == zero,
                        how,
                    });
                }
            }
            return None;
        }
        self.trylock(e).map(|how| TryLockTest {
            side: e,
            compare: None,
            zero_when_true: false,
            how,
        })
    }

    /// Lowers a try-lock test: the call as usual, then a branch whose edge taken when the call
    /// returned 0 goes through a new block calling the acquire intrinsic on the same lock.
    fn trylock_cond(&mut self, test: TryLockTest<'a>, t: BlockId, f: BlockId, pos: Pos) -> R<()> {
        let side_pos = self.pos(test.side.span);
        let (value, lock) = match &test.side.node {
            Expression::Call(c) => self.call(c, side_pos, true)?,
            Expression::BinaryOperator(b) => {
                let lv = self.lval(&b.node.lhs)?;
                let Expression::Call(c) = &b.node.rhs.node else {
                    return unsupported(side_pos, "malformed try-lock assignment");
                };
                let (v, lock) = self.call(c, self.pos(b.node.rhs.span), true)?;
                self.emit(
                    StmtKind::Assign {
                        dst: lv.clone(),
                        src: v,
                    },
                    side_pos,
                );
                // This test is the result's first; later tests of the variable are plain.
                self.assigned(&lv, None);
                (Operand::Use(lv), lock)
            }
            Expression::Identifier(id) => {
                let saved = self.saved_trylock(&id.node.name).map(|s| s.lock.clone());
                (self.ident_value(&id.node.name, side_pos)?, saved)
            }
            _ => return unsupported(side_pos, "malformed try-lock test"),
        };
        let Some(lock) = lock else {
            return unsupported(side_pos, "try-lock call without its lock");
        };
        let cond = match test.compare {
            None => value,
            Some(zero_first) => {
                let zero = self.int_const();
                let ops = if zero_first {
                    vec![zero, value]
                } else {
                    vec![value, zero]
                };
                Operand::Arith(self.lw.types.int(), ArithOp::Other, ops)
            }
        };
        let acquire = self.acquire_func(pos, test.how.mode);
        let acq = self.fb.new_block();
        // The lock is held on the edge where the result is the success value: 0 for POSIX's
        // try-locks, anything else for those that return "got it".
        let success_when_true = test.zero_when_true == (test.how.success == TrySuccess::Zero);
        let held = if success_when_true { t } else { f };
        let call = StmtKind::Call {
            dst: None,
            callee: Callee::Direct(acquire),
            args: vec![lock],
        };
        self.fb.emit_to(
            acq,
            Stmt {
                kind: call,
                pos: side_pos,
            },
        );
        self.fb.set_term(acq, Term::Goto(held));
        if let Expression::Identifier(id) = &test.side.node {
            if let Some(Binding::Var(v)) = self.lookup(&id.node.name) {
                if let Some(saved) = self.fb.trylock_results.get_mut(&v) {
                    saved.acquires.push(acq);
                    saved.spoiled = true;
                }
            }
        }
        let (then_block, else_block) = if success_when_true {
            (acq, f)
        } else {
            (t, acq)
        };
        self.fb.terminate(Term::Branch {
            cond,
            then_block,
            else_block,
            pos,
            compare: None,
        });
        Ok(())
    }

    // ----- types of expressions without lowering them (`typeof`, `_Generic`) -----

    pub(super) fn decay_type(&mut self, t: TypeId) -> TypeId {
        match self.lw.types.get(t) {
            Type::Array(e) => {
                let e = *e;
                self.lw.types.pointer(e)
            }
            Type::Function { .. } => self.lw.types.pointer(t),
            _ => t,
        }
    }

    /// The type of `e` without evaluating it.
    pub(super) fn type_of(&mut self, e: &'a Node<Expression>) -> R<TypeId> {
        let pos = self.pos(e.span);
        let int = self.lw.types.int();
        Ok(match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Binding::Var(v)) => self.lw.vars[v].ty,
                Some(Binding::Func(f)) => self.lw.funcs[f].ty,
                Some(Binding::Enum(_)) => int,
                None if is_function_name_ident(&id.node.name) => self.lw.types.string(),
                _ => return unsupported(pos, format!("cannot type `{}`", id.node.name)),
            },
            Expression::Constant(c) => match c.node {
                Constant::Float(_) => self.lw.types.intern(Type::Float),
                _ => int,
            },
            Expression::StringLiteral(_) => self.lw.types.string(),
            Expression::GenericSelection(g) => {
                let chosen = self.generic_choice(g, pos)?;
                self.type_of(chosen)?
            }
            Expression::Member(m) => {
                let bt = self.type_of(&m.node.expression)?;
                let st = match m.node.operator.node {
                    MemberOperator::Direct => bt,
                    MemberOperator::Indirect => {
                        let d = self.decay_type(bt);
                        self.lw.types.pointee(d).unwrap_or(d)
                    }
                };
                let name = &m.node.identifier.node.name;
                let path = match self.lw.types.get(st) {
                    Type::Struct(s) | Type::Union(s) => self.find_field(*s, name),
                    _ => None,
                };
                match path.and_then(|p| p.last().copied()) {
                    Some((s, i)) => self.lw.types.structs[s].fields[i as usize].ty,
                    None => return unsupported(pos, format!("no member named `{name}`")),
                }
            }
            Expression::Call(c) => {
                let callee = peel_designator(&c.node.callee);
                if let Expression::Identifier(id) = &callee.node {
                    if let Some(arg) = self.returned_argument(&id.node.name, &c.node.arguments) {
                        return self.type_of(arg);
                    }
                    if self.lookup(&id.node.name).is_none() {
                        return Ok(int);
                    }
                }
                let ct = self.type_of(&c.node.callee)?;
                let ct = self.decay_type(ct);
                let ft = self.lw.types.pointee(ct).unwrap_or(ct);
                match self.lw.types.get(ft) {
                    Type::Function { ret, .. } => *ret,
                    _ => int,
                }
            }
            Expression::CompoundLiteral(cl) => self.type_name(&cl.node.type_name)?,
            Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => int,
            Expression::UnaryOperator(u) => {
                let x = &u.node.operand;
                match u.node.operator.node {
                    U::Address => {
                        let t = self.type_of(x)?;
                        let target = match self.lw.types.get(t) {
                            Type::Array(e) => *e,
                            _ => t,
                        };
                        self.lw.types.pointer(target)
                    }
                    U::Indirection => {
                        let t = self.type_of(x)?;
                        let t = self.decay_type(t);
                        match self.lw.types.get(t) {
                            Type::Pointer(p) => *p,
                            _ => t,
                        }
                    }
                    U::Negate | U::Complement => int,
                    _ => {
                        let t = self.type_of(x)?;
                        self.decay_type(t)
                    }
                }
            }
            Expression::Cast(c) => self.type_name(&c.node.type_name)?,
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                match op {
                    B::Index => {
                        let l = self.type_of(&b.node.lhs)?;
                        let l = self.decay_type(l);
                        let r = self.type_of(&b.node.rhs)?;
                        let r = self.decay_type(r);
                        self.lw
                            .types
                            .pointee(l)
                            .or(self.lw.types.pointee(r))
                            .unwrap_or(int)
                    }
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                    | B::LogicalAnd
                    | B::LogicalOr => int,
                    B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr => self.type_of(&b.node.lhs)?,
                    _ => {
                        let l = self.type_of(&b.node.lhs)?;
                        let l = self.decay_type(l);
                        let r = self.type_of(&b.node.rhs)?;
                        let r = self.decay_type(r);
                        self.arith_type(op, l, r)
                    }
                }
            }
            Expression::Conditional(c) => {
                let a = self.type_of(&c.node.then_expression)?;
                let a = self.decay_type(a);
                let b = self.type_of(&c.node.else_expression)?;
                let b = self.decay_type(b);
                self.merge_arm_types(a, b)
            }
            Expression::Comma(list) => match list.last() {
                Some(last) => self.type_of(last)?,
                None => int,
            },
            Expression::VaArg(v) => self.type_name(&v.node.type_name)?,
            Expression::Statement(s) => self.stmt_expr_type(s).unwrap_or(int),
            Expression::LabelAddress(_) => self.void_pointer(),
        })
    }

    /// The type of a statement expression: that of its last expression statement, typed in a
    /// scope holding its declarations' types (`None` when that is not possible).
    fn stmt_expr_type(&mut self, s: &'a Node<lang_c::ast::Statement>) -> Option<TypeId> {
        use lang_c::ast::{BlockItem, Statement};
        let Statement::Compound(items) = &s.node else {
            return None;
        };
        let Some(last) = items.last() else {
            return Some(self.lw.types.void());
        };
        let BlockItem::Statement(st) = &last.node else {
            return Some(self.lw.types.void());
        };
        let Statement::Expression(Some(e)) = &st.node else {
            return Some(self.lw.types.void());
        };
        // The declarations get variables of the current body that no body lists; `finish`
        // drops them.
        self.scopes.push(Default::default());
        let owner = self.fb.func;
        for item in &items[..items.len() - 1] {
            let BlockItem::Declaration(d) = &item.node else {
                continue;
            };
            let Ok(specs) = self.decl_specs(&d.node.specifiers, None) else {
                continue;
            };
            for id in &d.node.declarators {
                if let Ok(dd) = self.declarator(specs.ty, &id.node.declarator) {
                    if let Some(n) = dd.name {
                        let pos = self.pos(n.span);
                        let v = self.lw.vars.push(crate::ir::Var {
                            name: n.node.name.clone(),
                            ty: dd.ty,
                            kind: VarKind::Temp(owner),
                            pos,
                            address_taken: false,
                            captured: false,
                            origin: self.origin,
                            atomic: false,
                            volatile: false,
                            signal_atomic: false,
                        });
                        self.bind(&n.node.name, Binding::Var(v));
                    }
                }
            }
        }
        let t = self.type_of(e).ok();
        self.scopes.pop();
        t
    }
}

impl super::Lowerer {
    /// A new declaration-only function.
    pub(super) fn new_func(
        &mut self,
        name: &str,
        ty: TypeId,
        is_static: bool,
        origin: Origin,
        pos: Pos,
    ) -> FuncId {
        let f = self.funcs.push(Func {
            name: name.to_string(),
            ty,
            params: Vec::new(),
            locals: Vec::new(),
            blocks: Default::default(),
            counted_loops: Vec::new(),
            const_pointees: Vec::new(),
            pos,
            defined: false,
            is_static,
            origin,
        });
        self.func_info.push(FuncInfo::default());
        f
    }
}

/// Whether an array index is a member read through a pointer variable (`p->id`, possibly
/// converted): a read with no other effect.
fn is_member_read(idx: &Operand) -> bool {
    matches!(idx.without_casts(), Operand::Use(Lval { base: Base::Deref(ptr), proj, .. })
        if ptr.plain_var().is_some()
            && !proj.is_empty()
            && proj.iter().all(|s| matches!(s, Proj::Field { .. })))
}

/// The variable an array index reads, when the index is just that variable (possibly converted).
fn index_var(idx: &Operand) -> Option<VarId> {
    match idx {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        Operand::Cast(_, inner) => index_var(inner),
        _ => None,
    }
}

/// Whether a conditional is GNU's `a ?: b`: `lang-c` (`vendor/lang-c/PATCHES.md`, 4) gives its omitted middle
/// operand as a copy of the condition with the condition's own span, which no written middle
/// operand can have (it comes after the `?`).
pub(super) fn is_elvis(c: &Node<ConditionalExpression>) -> bool {
    c.node.then_expression.span == c.node.condition.span
}

/// What `++` (1) or `--` (-1) adds.
/// The operator of `x = x + step` for a step of ±1.
fn step_op(step: i64) -> ArithOp {
    if step > 0 {
        ArithOp::Add
    } else {
        ArithOp::Sub
    }
}

/// The operator of a binary expression (of `x op= y`, the operator applied).
fn arith_op(op: &B) -> ArithOp {
    use crate::ir::Comparison as C;
    match op {
        B::Plus | B::AssignPlus => ArithOp::Add,
        B::Minus | B::AssignMinus => ArithOp::Sub,
        B::Multiply | B::AssignMultiply => ArithOp::Mul,
        B::Divide | B::AssignDivide => ArithOp::Div,
        B::Modulo | B::AssignModulo => ArithOp::Rem,
        B::ShiftLeft | B::AssignShiftLeft => ArithOp::Shl,
        B::ShiftRight | B::AssignShiftRight => ArithOp::Shr,
        B::BitwiseAnd | B::AssignBitwiseAnd => ArithOp::BitAnd,
        B::BitwiseOr | B::AssignBitwiseOr => ArithOp::BitOr,
        B::BitwiseXor | B::AssignBitwiseXor => ArithOp::BitXor,
        B::Less => ArithOp::Compare(C::Lt),
        B::Greater => ArithOp::Compare(C::Gt),
        B::LessOrEqual => ArithOp::Compare(C::Le),
        B::GreaterOrEqual => ArithOp::Compare(C::Ge),
        B::Equals => ArithOp::Compare(C::Eq),
        B::NotEquals => ArithOp::Compare(C::Ne),
        B::Index | B::Assign | B::LogicalAnd | B::LogicalOr => ArithOp::Other,
    }
}

fn incdec_step(op: &U) -> i64 {
    match op {
        U::PreIncrement | U::PostIncrement => 1,
        _ => -1,
    }
}

/// Whether two expressions name one object the same way: one identifier, then the same member
/// names (`o.count`, `c`), with no call, index or dereference that could name another object on
/// a second reading.
fn same_object_name(a: &Node<Expression>, b: &Node<Expression>) -> bool {
    match (&a.node, &b.node) {
        (Expression::Identifier(x), Expression::Identifier(y)) => x.node.name == y.node.name,
        (Expression::Member(x), Expression::Member(y)) => {
            x.node.operator.node == y.node.operator.node
                && x.node.operator.node == MemberOperator::Direct
                && x.node.identifier.node.name == y.node.identifier.node.name
                && same_object_name(&x.node.expression, &y.node.expression)
        }
        _ => false,
    }
}
