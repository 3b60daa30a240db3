//! Abstract syntax of λ▷ (paper figure 2; the concrete syntax is given in docs/lambda.md).
//!
//! Expressions live in an arena ([`Program::exprs`]) and refer to their children by [`ExprId`], so
//! that later passes can keep per-expression side tables (shapes, labelled types) in `IndexVec`s.

use solver::define_id;
use solver::ids::IndexVec;

define_id!(
    /// An expression node of a parsed [`Program`].
    pub struct ExprId, "e";
);

/// A half-open byte range `[start, end)` in the source text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// The text of one λ▷ source file with a line table for turning byte offsets into positions.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The line and column of byte `offset` (clamped to the end of the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            column,
        }
    }

    /// `file:line:col` of the start of `span`.
    pub fn position(&self, span: Span) -> String {
        let lc = self.line_col(span.start);
        format!("{}:{}:{}", self.name, lc.line, lc.column)
    }

    /// The full text of the 1-based `line`, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize - 1)
            .unwrap_or(self.text.len());
        self.text[start as usize..end.max(start as usize)].trim_end_matches('\r')
    }
}

/// A name introduced by `fun`, `let`, `let rec` or `unpack`, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binder {
    pub name: String,
    pub span: Span,
}

/// One λ▷ expression. The comments give the concrete syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// `x`
    Var(String),
    /// `n` (a non-negative integer literal)
    Int(i64),
    /// `fun x -> e`
    Fun { param: Binder, body: ExprId },
    /// `e1 e2`
    App { func: ExprId, arg: ExprId },
    /// `if0 e0 then e1 else e2`
    If0 {
        cond: ExprId,
        then_branch: ExprId,
        else_branch: ExprId,
    },
    /// `(e1, e2)`
    Pair(ExprId, ExprId),
    /// `e.1` (`index == 1`) or `e.2` (`index == 2`)
    Proj { tuple: ExprId, index: u8 },
    /// `let x = e1 in e2`; generalised by inference only when `e1` is a syntactic value.
    Let {
        name: Binder,
        value: ExprId,
        body: ExprId,
    },
    /// `let rec f = fun x -> e1 in e2` (the paper's `fix f.λx.e1` bound to `f` in `e2`).
    /// `fun_span` covers `fun x -> e1`.
    LetRec {
        name: Binder,
        param: Binder,
        fun_body: ExprId,
        fun_span: Span,
        body: ExprId,
    },
    /// `e1; e2`, sugar for `(fun _ -> e2) e1`.
    Seq(ExprId, ExprId),
    /// `newlock`
    Newlock,
    /// `ref e`
    Ref(ExprId),
    /// `![lock] target`: read `target` holding `lock`.
    Deref { lock: ExprId, target: ExprId },
    /// `target :=[lock] value`: write `value` into `target` holding `lock`; has `value`'s type.
    Assign {
        target: ExprId,
        lock: ExprId,
        value: ExprId,
    },
    /// `pack e` (paper §3.3)
    Pack(ExprId),
    /// `unpack (x, y) = e1 in e2` (paper §3.3)
    Unpack {
        first: Binder,
        second: Binder,
        package: ExprId,
        body: ExprId,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// A parsed λ▷ program: an expression arena, its root and the source it came from.
#[derive(Clone, Debug)]
pub struct Program {
    pub file: SourceFile,
    pub exprs: IndexVec<ExprId, Expr>,
    pub root: ExprId,
}

impl Program {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id]
    }

    /// The direct subexpressions of `id`, in evaluation order.
    pub fn children(&self, id: ExprId) -> Vec<ExprId> {
        match &self.exprs[id].kind {
            ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Newlock => vec![],
            ExprKind::Fun { body, .. } => vec![*body],
            ExprKind::App { func, arg } => vec![*func, *arg],
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => {
                vec![*cond, *then_branch, *else_branch]
            }
            ExprKind::Pair(a, b) | ExprKind::Seq(a, b) => vec![*a, *b],
            ExprKind::Proj { tuple, .. } => vec![*tuple],
            ExprKind::Let { value, body, .. } => vec![*value, *body],
            ExprKind::LetRec { fun_body, body, .. } => vec![*fun_body, *body],
            ExprKind::Ref(e) | ExprKind::Pack(e) => vec![*e],
            ExprKind::Deref { lock, target } => vec![*lock, *target],
            ExprKind::Assign {
                target,
                lock,
                value,
            } => vec![*target, *lock, *value],
            ExprKind::Unpack { package, body, .. } => vec![*package, *body],
        }
    }

    /// Whether `id` is a syntactic value in the sense of the paper's \[Let\] rule:
    /// `v ::= n | fun x -> e | (v, v)`.
    pub fn is_value(&self, id: ExprId) -> bool {
        match &self.exprs[id].kind {
            ExprKind::Int(_) | ExprKind::Fun { .. } => true,
            ExprKind::Pair(a, b) => self.is_value(*a) && self.is_value(*b),
            _ => false,
        }
    }
}
