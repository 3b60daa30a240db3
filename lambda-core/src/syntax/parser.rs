//! The recursive-descent parser for λ▷.
//!
//! The grammar is layered by precedence. Each layer is one function:
//!
//! ```text
//! expr    ::= open | assign [ ";" expr ]                    (parse_expr)
//! open    ::= fun x -> expr | if0 expr then expr else expr  (parse_open)
//!           | let x = expr in expr | let rec f = fun x -> expr in expr
//!           | unpack (x, y) = expr in expr
//! assign  ::= prefix [ ":=" "[" expr "]" operand ]          (parse_assign)
//! operand ::= open | prefix                                 (parse_operand)
//! prefix  ::= ref operand | pack operand                    (parse_prefix)
//!           | "!" "[" expr "]" operand | app
//! app     ::= postfix { postfix }                           (parse_app)
//! postfix ::= atom { .1 | .2 }                              (parse_postfix)
//! atom    ::= x | n | newlock | ( expr ) | ( expr , expr )  (parse_atom)
//! ```
//!
//! The "open" forms extend as far to the right as possible, so they are only allowed where nothing
//! of the enclosing layer can follow them: at the start of an expression and as an operand. Every
//! cycle of the recursion passes through [`Parser::parse_expr`] or [`Parser::parse_operand`], which
//! count the nesting depth so that a hostile input runs into a [`SyntaxError`] instead of the end
//! of the stack.

use super::lexer::{lex, Tok, Token};
use super::SyntaxError;
use crate::ast::{Binder, Expr, ExprId, ExprKind, SourceFile, Span};
use solver::ids::IndexVec;

/// Errors are boxed inside the parser so that the `Result`s moved through every level of the
/// recursion stay two words wide, which keeps the per-level stack frames small.
type PResult<T> = Result<T, Box<SyntaxError>>;

/// Parses the whole of `file` as one expression, refusing to nest deeper than `max_depth`.
pub(crate) fn parse_file(
    file: &SourceFile,
    max_depth: u32,
) -> Result<(IndexVec<ExprId, Expr>, ExprId), SyntaxError> {
    parse_boxed(file, max_depth).map_err(|error| *error)
}

fn parse_boxed(file: &SourceFile, max_depth: u32) -> PResult<(IndexVec<ExprId, Expr>, ExprId)> {
    let lexed = lex(&file.text);
    let mut parser = Parser {
        file,
        tokens: lexed.tokens,
        lex_error: lexed.error,
        pos: 0,
        exprs: IndexVec::new(),
        depth: 0,
        max_depth,
    };
    let root = parser.parse_expr()?;
    if parser.peek() != Tok::Eof {
        let found = parser.found();
        return Err(parser.error_here(format!(
            "unexpected {found} after the end of the expression"
        )));
    }
    Ok((parser.exprs, root))
}

struct Parser<'a> {
    file: &'a SourceFile,
    /// Tokens ending in exactly one `Eof` or `Error` token, which is never consumed.
    tokens: Vec<Token>,
    lex_error: Option<SyntaxError>,
    pos: usize,
    exprs: IndexVec<ExprId, Expr>,
    depth: u32,
    max_depth: u32,
}

/// A short description of a construct that needs parentheses when used as a function argument.
fn argument_form(tok: Tok) -> Option<(&'static str, &'static str)> {
    Some(match tok {
        Tok::Fun => ("a `fun` expression", "(fun …)"),
        Tok::If0 => ("an `if0` expression", "(if0 …)"),
        Tok::Let => ("a `let` expression", "(let …)"),
        Tok::Unpack => ("an `unpack` expression", "(unpack …)"),
        Tok::Ref => ("a `ref` expression", "(ref …)"),
        Tok::Pack => ("a `pack` expression", "(pack …)"),
        Tok::Bang => ("a read `![…] …`", "(![…] …)"),
        _ => return None,
    })
}

fn starts_open_form(tok: Tok) -> bool {
    matches!(tok, Tok::Fun | Tok::If0 | Tok::Let | Tok::Unpack)
}

impl Parser<'_> {
    fn peek(&self) -> Tok {
        self.tokens[self.pos].kind
    }

    fn current(&self) -> Token {
        self.tokens[self.pos]
    }

    /// Consumes the current token. The final `Eof`/`Error` token is never consumed; callers only
    /// bump tokens they have already matched.
    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos];
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn text(&self, span: Span) -> &str {
        &self.file.text[span.start as usize..span.end as usize]
    }

    /// Describes the current token for an error message.
    fn found(&self) -> String {
        let token = self.current();
        match token.kind {
            Tok::Eof | Tok::Error => "end of input".to_string(),
            kind if kind.is_keyword() => format!("keyword `{}`", self.text(token.span)),
            _ => format!("`{}`", self.text(token.span)),
        }
    }

    /// An error at the current token. If lexing failed there, the lexical error is the real
    /// problem and is returned instead of `message`.
    fn error_here(&self, message: String) -> Box<SyntaxError> {
        let token = self.current();
        match (token.kind, &self.lex_error) {
            (Tok::Error, Some(error)) => Box::new(error.clone()),
            _ => Box::new(SyntaxError {
                message,
                span: token.span,
            }),
        }
    }

    /// "`expected`, found …" at the current token.
    fn expected(&self, expected: &str) -> Box<SyntaxError> {
        let found = self.found();
        self.error_here(format!("{expected}, found {found}"))
    }

    fn expect(&mut self, tok: Tok, expected: impl FnOnce() -> String) -> PResult<Token> {
        if self.peek() == tok {
            Ok(self.bump())
        } else {
            Err(self.expected(&expected()))
        }
    }

    fn binder(&mut self, expected: &str) -> PResult<Binder> {
        if self.peek() == Tok::Ident {
            let span = self.bump().span;
            Ok(Binder {
                name: self.text(span).to_string(),
                span,
            })
        } else {
            Err(self.expected(expected))
        }
    }

    fn mk(&mut self, kind: ExprKind, span: Span) -> ExprId {
        self.exprs.push(Expr { kind, span })
    }

    fn span(&self, id: ExprId) -> Span {
        self.exprs[id].span
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let limit = self.max_depth;
            return Err(Box::new(SyntaxError {
                message: format!("expression nested too deeply (the limit is {limit} levels)"),
                span: self.current().span,
            }));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A full expression: everything up to a closing delimiter, keyword or the end of input.
    fn parse_expr(&mut self) -> PResult<ExprId> {
        self.enter()?;
        let result = if starts_open_form(self.peek()) {
            self.parse_open()
        } else {
            self.parse_seq()
        };
        self.leave();
        result
    }

    fn parse_seq(&mut self) -> PResult<ExprId> {
        let first = self.parse_assign()?;
        if self.peek() == Tok::Semi {
            self.parse_seq_rest(first)
        } else {
            Ok(first)
        }
    }

    /// `; e2` after the first statement `first`.
    fn parse_seq_rest(&mut self, first: ExprId) -> PResult<ExprId> {
        self.bump();
        let second = self.parse_expr()?;
        let span = self.span(first).to(self.span(second));
        Ok(self.mk(ExprKind::Seq(first, second), span))
    }

    fn parse_assign(&mut self) -> PResult<ExprId> {
        let target = self.parse_prefix()?;
        if self.peek() == Tok::ColonEq {
            self.parse_assign_rest(target)
        } else {
            Ok(target)
        }
    }

    /// `:=[lock] value` after the assigned expression `target`.
    fn parse_assign_rest(&mut self, target: ExprId) -> PResult<ExprId> {
        self.bump();
        self.expect(Tok::LBracket, || {
            "expected `[` after `:=` (a write is written `target :=[lock] value`)".to_string()
        })?;
        let lock = self.parse_expr()?;
        self.expect(Tok::RBracket, || {
            "expected `]` after the lock of `:=[…]`".to_string()
        })?;
        let value = self.parse_operand()?;
        if self.peek() == Tok::ColonEq {
            return Err(self.chained_write());
        }
        let span = self.span(target).to(self.span(value));
        Ok(self.mk(
            ExprKind::Assign {
                target,
                lock,
                value,
            },
            span,
        ))
    }

    #[cold]
    fn chained_write(&self) -> Box<SyntaxError> {
        self.error_here(
            "a write cannot directly follow another write; add parentheses, as in \
             `a :=[l] (b :=[l] c)`"
                .to_string(),
        )
    }

    /// The operand of `ref`, `pack`, `![…]` and the value of `:=[…]`: a prefix expression, or an
    /// open form that then extends as far right as possible.
    fn parse_operand(&mut self) -> PResult<ExprId> {
        self.enter()?;
        let result = if starts_open_form(self.peek()) {
            self.parse_open()
        } else {
            self.parse_prefix()
        };
        self.leave();
        result
    }

    fn parse_prefix(&mut self) -> PResult<ExprId> {
        match self.peek() {
            Tok::Ref | Tok::Pack => self.parse_ref_or_pack(),
            Tok::Bang => self.parse_deref(),
            _ => self.parse_app(),
        }
    }

    fn parse_ref_or_pack(&mut self) -> PResult<ExprId> {
        let keyword = self.bump();
        let operand = self.parse_operand()?;
        let span = keyword.span.to(self.span(operand));
        let kind = if keyword.kind == Tok::Ref {
            ExprKind::Ref(operand)
        } else {
            ExprKind::Pack(operand)
        };
        Ok(self.mk(kind, span))
    }

    fn parse_deref(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        self.expect(Tok::LBracket, || {
            "expected `[` after `!` (a read is written `![lock] e`)".to_string()
        })?;
        let lock = self.parse_expr()?;
        self.expect(Tok::RBracket, || {
            "expected `]` after the lock of `![…]`".to_string()
        })?;
        let target = self.parse_operand()?;
        let span = start.to(self.span(target));
        Ok(self.mk(ExprKind::Deref { lock, target }, span))
    }

    fn parse_app(&mut self) -> PResult<ExprId> {
        let mut func = self.parse_postfix()?;
        loop {
            match self.peek() {
                Tok::Ident | Tok::Int(_) | Tok::Newlock | Tok::LParen => {
                    func = self.parse_argument(func)?;
                }
                tok if argument_form(tok).is_some() => return Err(self.argument_needs_parens()),
                _ => return Ok(func),
            }
        }
    }

    /// The argument of an application of `func`, which is the application's result.
    fn parse_argument(&mut self, func: ExprId) -> PResult<ExprId> {
        let arg = self.parse_postfix()?;
        let span = self.span(func).to(self.span(arg));
        Ok(self.mk(ExprKind::App { func, arg }, span))
    }

    #[cold]
    fn argument_needs_parens(&self) -> Box<SyntaxError> {
        let (what, example) = argument_form(self.peek()).unwrap_or(("this expression", "(…)"));
        self.error_here(format!(
            "{what} used as a function argument must be in parentheses: write `{example}`"
        ))
    }

    fn parse_postfix(&mut self) -> PResult<ExprId> {
        let tuple = self.parse_atom()?;
        if matches!(self.peek(), Tok::Proj(_)) {
            Ok(self.parse_projections(tuple))
        } else {
            Ok(tuple)
        }
    }

    /// The projections `.1`/`.2` applied to `tuple`, innermost first.
    fn parse_projections(&mut self, mut tuple: ExprId) -> ExprId {
        while let Tok::Proj(index) = self.peek() {
            let end = self.bump().span;
            let span = self.span(tuple).to(end);
            tuple = self.mk(ExprKind::Proj { tuple, index }, span);
        }
        tuple
    }

    fn parse_atom(&mut self) -> PResult<ExprId> {
        match self.peek() {
            Tok::LParen => self.parse_parenthesised(),
            Tok::Ident | Tok::Int(_) | Tok::Newlock => Ok(self.parse_leaf()),
            _ => Err(self.expected_expression()),
        }
    }

    /// A variable, integer or `newlock` at the current token.
    fn parse_leaf(&mut self) -> ExprId {
        let token = self.bump();
        let kind = match token.kind {
            Tok::Int(n) => ExprKind::Int(n),
            Tok::Newlock => ExprKind::Newlock,
            _ => ExprKind::Var(self.text(token.span).to_string()),
        };
        self.mk(kind, token.span)
    }

    #[cold]
    fn expected_expression(&self) -> Box<SyntaxError> {
        self.expected("expected an expression")
    }

    /// `( e )` or `( e1, e2 )`. A parenthesised expression keeps its node but its span grows to
    /// cover the parentheses, so that every span covers the full text of its expression.
    fn parse_parenthesised(&mut self) -> PResult<ExprId> {
        let open = self.bump().span;
        if self.peek() == Tok::RParen {
            return Err(self.empty_parentheses(open));
        }
        let first = self.parse_expr()?;
        match self.peek() {
            Tok::RParen => {
                let close = self.bump().span;
                self.exprs[first].span = open.to(close);
                Ok(first)
            }
            Tok::Comma => self.parse_pair_rest(open, first),
            _ => Err(self.unclosed(open)),
        }
    }

    /// `, e2)` after `(e1` of a pair.
    fn parse_pair_rest(&mut self, open: Span, first: ExprId) -> PResult<ExprId> {
        self.bump();
        let second = self.parse_expr()?;
        if self.peek() != Tok::RParen {
            return Err(self.pair_not_closed(open));
        }
        let close = self.bump().span;
        Ok(self.mk(ExprKind::Pair(first, second), open.to(close)))
    }

    #[cold]
    fn empty_parentheses(&self, open: Span) -> Box<SyntaxError> {
        Box::new(SyntaxError {
            message: "`()` is not an expression (λ▷ has no unit value)".to_string(),
            span: open.to(self.current().span),
        })
    }

    #[cold]
    fn pair_not_closed(&self, open: Span) -> Box<SyntaxError> {
        if self.peek() == Tok::Comma {
            self.error_here(
                "a pair has exactly two components; nest pairs as in `(a, (b, c))`".to_string(),
            )
        } else {
            self.unclosed(open)
        }
    }

    /// The error for a missing `)`, pointing back at the `(` it should close.
    #[cold]
    fn unclosed(&self, open: Span) -> Box<SyntaxError> {
        let at = self.file.line_col(open.start);
        self.expected(&format!(
            "expected `)` to close the `(` at line {}, column {}",
            at.line, at.column
        ))
    }

    /// The right-extending forms `fun`, `if0`, `let`, `let rec` and `unpack`.
    ///
    /// Each form has a function of its own: the live frames of this recursion are what limits the
    /// nesting depth, and unoptimised builds give a function one stack slot for every temporary
    /// of every branch, so one function for all forms would make every level pay for all of them.
    fn parse_open(&mut self) -> PResult<ExprId> {
        match self.peek() {
            Tok::Fun => self.parse_fun(),
            Tok::If0 => self.parse_if0(),
            Tok::Let if self.tokens.get(self.pos + 1).map(|t| t.kind) == Some(Tok::Rec) => {
                self.parse_let_rec()
            }
            Tok::Let => self.parse_let(),
            _ => self.parse_unpack(),
        }
    }

    fn parse_fun(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        let (param, body) = self.parse_fun_rest()?;
        let span = start.to(self.span(body));
        Ok(self.mk(ExprKind::Fun { param, body }, span))
    }

    fn parse_if0(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        let cond = self.parse_expr()?;
        self.expect(Tok::Then, || {
            "expected `then` after the condition of `if0`".to_string()
        })?;
        let then_branch = self.parse_expr()?;
        self.expect(Tok::Else, || {
            "expected `else` after the `then` branch of `if0`".to_string()
        })?;
        let else_branch = self.parse_expr()?;
        let span = start.to(self.span(else_branch));
        Ok(self.mk(
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            },
            span,
        ))
    }

    fn parse_let(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        let name = self.binder("expected a name after `let`")?;
        self.expect(Tok::Eq, || {
            format!("expected `=` after `let {}`", name.name)
        })?;
        let value = self.parse_expr()?;
        self.expect(Tok::In, || {
            format!("expected `in` after the value of `let {}`", name.name)
        })?;
        let body = self.parse_expr()?;
        let span = start.to(self.span(body));
        Ok(self.mk(ExprKind::Let { name, value, body }, span))
    }

    fn parse_let_rec(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        self.bump();
        let name = self.binder("expected a function name after `let rec`")?;
        self.expect(Tok::Eq, || {
            format!("expected `=` after `let rec {}`", name.name)
        })?;
        if self.peek() != Tok::Fun {
            return Err(self.let_rec_needs_fun(&name));
        }
        let fun_start = self.bump().span;
        let (param, fun_body) = self.parse_fun_rest()?;
        let fun_span = fun_start.to(self.span(fun_body));
        self.expect(Tok::In, || {
            format!(
                "expected `in` after the function bound by `let rec {}`",
                name.name
            )
        })?;
        let body = self.parse_expr()?;
        let span = start.to(self.span(body));
        Ok(self.mk(
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                fun_span,
                body,
            },
            span,
        ))
    }

    #[cold]
    fn let_rec_needs_fun(&self, name: &Binder) -> Box<SyntaxError> {
        self.expected(&format!(
            "let rec must bind a function: expected `fun` after `let rec {} =`",
            name.name
        ))
    }

    fn parse_unpack(&mut self) -> PResult<ExprId> {
        let start = self.bump().span;
        let (first, second) = self.parse_unpack_pattern()?;
        let package = self.parse_expr()?;
        self.expect(Tok::In, || {
            format!(
                "expected `in` after the package of `unpack ({}, {})`",
                first.name, second.name
            )
        })?;
        let body = self.parse_expr()?;
        let span = start.to(self.span(body));
        Ok(self.mk(
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            },
            span,
        ))
    }

    /// `(x, y) =` after an `unpack` keyword that the caller has consumed.
    fn parse_unpack_pattern(&mut self) -> PResult<(Binder, Binder)> {
        self.expect(Tok::LParen, || {
            "expected `(` after `unpack` (it is written `unpack (x, y) = e1 in e2`)".to_string()
        })?;
        let first = self.binder("expected a name after `unpack (`")?;
        self.expect(Tok::Comma, || {
            format!("expected `,` after `unpack ({}`", first.name)
        })?;
        let second = self.binder(&format!("expected a name after `unpack ({},`", first.name))?;
        self.expect(Tok::RParen, || {
            format!(
                "expected `)` after `unpack ({}, {}`",
                first.name, second.name
            )
        })?;
        self.expect(Tok::Eq, || {
            format!(
                "expected `=` after `unpack ({}, {})`",
                first.name, second.name
            )
        })?;
        Ok((first, second))
    }

    /// `x -> e` after a `fun` keyword that the caller has consumed.
    fn parse_fun_rest(&mut self) -> PResult<(Binder, ExprId)> {
        let param = self.binder("expected a parameter name after `fun`")?;
        self.expect(Tok::Arrow, || {
            format!("expected `->` after `fun {}`", param.name)
        })?;
        let body = self.parse_expr()?;
        Ok((param, body))
    }
}
