//! The λ▷ printer: turns an AST back into concrete syntax that [`parse`](super::parse) maps to the
//! same tree.
//!
//! The printer works for every AST, not only for the shapes the parser produces: it inserts
//! parentheses wherever the grammar would otherwise read the text differently, for example around
//! a `fun` used as an argument or a `;` on the left of another `;`. It uses an explicit work stack
//! instead of recursion, so printing a program nested tens of thousands of levels deep needs no
//! more stack than printing a single variable.

use crate::ast::{ExprId, ExprKind, Program};

/// Prints the whole program in concrete syntax.
///
/// The chain of `let`, `let rec`, `unpack` and `;` at the top of the program is written one
/// binding or statement per line, the way λ▷ programs are usually laid out; everything nested
/// inside is written on one line.
pub fn print_program(program: &Program) -> String {
    Printer::new(program, true).run(program.root)
}

/// Prints one subexpression of `program` on a single line, e.g. for a diagnostic.
pub fn print_expr(program: &Program, id: ExprId) -> String {
    Printer::new(program, false).run(id)
}

/// How tightly a position binds, loosest first. An expression can be printed without parentheses
/// in a position whose level is at most the expression's own level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    /// A full expression: anything may appear, including `e1; e2`.
    Seq,
    /// The left of `;`.
    Assign,
    /// The operand of a prefix operator, and both sides of `:=[…]`.
    Prefix,
    /// The function of an application.
    App,
    /// An application argument or the operand of `.1`/`.2`.
    Postfix,
}

/// The level an expression needs its position to have to be printed without parentheses.
/// `None` stands for the right-extending forms, which [`needs_parens`] treats specially.
fn own_level(kind: &ExprKind) -> Option<Level> {
    Some(match kind {
        ExprKind::Var(_)
        | ExprKind::Int(_)
        | ExprKind::Newlock
        | ExprKind::Pair(..)
        | ExprKind::Proj { .. } => Level::Postfix,
        ExprKind::App { .. } => Level::App,
        ExprKind::Ref(_) | ExprKind::Pack(_) | ExprKind::Deref { .. } => Level::Prefix,
        ExprKind::Assign { .. } => Level::Assign,
        ExprKind::Seq(..) => Level::Seq,
        ExprKind::Fun { .. }
        | ExprKind::If0 { .. }
        | ExprKind::Let { .. }
        | ExprKind::LetRec { .. }
        | ExprKind::Unpack { .. } => return None,
    })
}

/// Whether `kind`, printed at a position of `level`, must be parenthesised. `tail` says whether
/// the position is at the right end of the enclosing full expression (followed only by a closing
/// delimiter, a keyword such as `in`, or the end of input). A right-extending form such as `fun`
/// would swallow anything that follows it, so it is only safe at such a position, and only where
/// the grammar admits it without parentheses (at the start of an expression and as an operand).
fn needs_parens(kind: &ExprKind, level: Level, tail: bool) -> bool {
    match own_level(kind) {
        Some(own) => own < level,
        None => !(tail && level <= Level::Prefix),
    }
}

enum Item<'a> {
    Text(&'static str),
    Name(&'a str),
    Int(i64),
    /// A line break between the statements of the top-level chain.
    Break,
    Expr {
        id: ExprId,
        level: Level,
        tail: bool,
        /// Whether this expression belongs to the top-level `let`/`;` chain of `print_program`.
        spine: bool,
    },
}

struct Printer<'a> {
    program: &'a Program,
    multiline: bool,
    out: String,
    /// Pending work, in reverse order of output.
    stack: Vec<Item<'a>>,
}

impl<'a> Printer<'a> {
    fn new(program: &'a Program, multiline: bool) -> Self {
        Printer {
            program,
            multiline,
            out: String::new(),
            stack: Vec::new(),
        }
    }

    fn run(mut self, root: ExprId) -> String {
        self.stack.push(Item::Expr {
            id: root,
            level: Level::Seq,
            tail: true,
            spine: true,
        });
        while let Some(item) = self.stack.pop() {
            match item {
                Item::Text(text) => self.out.push_str(text),
                Item::Name(name) => self.out.push_str(name),
                Item::Int(n) => self.out.push_str(&n.to_string()),
                Item::Break => self.out.push('\n'),
                Item::Expr {
                    id,
                    level,
                    tail,
                    spine,
                } => self.expand(id, level, tail, spine),
            }
        }
        self.out
    }

    /// Schedules `items` to be printed in the given order.
    fn emit<const N: usize>(&mut self, items: [Item<'a>; N]) {
        self.stack.extend(items.into_iter().rev());
    }

    /// A full expression in a delimited position (inside brackets, before a keyword, …).
    fn full(id: ExprId) -> Item<'a> {
        Item::Expr {
            id,
            level: Level::Seq,
            tail: true,
            spine: false,
        }
    }

    /// A subexpression in a position of `level` that more text follows, outside the top-level
    /// chain.
    fn inner(id: ExprId, level: Level) -> Item<'a> {
        Item::Expr {
            id,
            level,
            tail: false,
            spine: false,
        }
    }

    /// The full expression after `in` or `;`, which continues the top-level chain if `spine`.
    fn rest(id: ExprId, tail: bool, spine: bool) -> Item<'a> {
        Item::Expr {
            id,
            level: Level::Seq,
            tail,
            spine,
        }
    }

    /// The separator after `in` or `;`: a line break in the top-level chain, a space elsewhere.
    fn separator(&self, spine: bool) -> Item<'a> {
        if spine && self.multiline {
            Item::Break
        } else {
            Item::Text(" ")
        }
    }

    /// Prints `id` at a position of `level`: in parentheses if the position needs them, else by
    /// scheduling its parts.
    fn expand(&mut self, id: ExprId, level: Level, tail: bool, spine: bool) {
        let program = self.program;
        let kind = &program.expr(id).kind;
        if needs_parens(kind, level, tail) {
            self.emit([Item::Text("("), Self::full(id), Item::Text(")")]);
            return;
        }
        let operand = |id| Item::Expr {
            id,
            level: Level::Prefix,
            tail,
            spine: false,
        };
        match kind {
            ExprKind::Var(name) => self.out.push_str(name),
            ExprKind::Int(n) => self.out.push_str(&n.to_string()),
            ExprKind::Newlock => self.out.push_str("newlock"),
            ExprKind::Fun { param, body } => self.emit([
                Item::Text("fun "),
                Item::Name(&param.name),
                Item::Text(" -> "),
                Self::full(*body),
            ]),
            ExprKind::App { func, arg } => self.emit([
                Self::inner(*func, Level::App),
                Item::Text(" "),
                Self::inner(*arg, Level::Postfix),
            ]),
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => self.emit([
                Item::Text("if0 "),
                Self::full(*cond),
                Item::Text(" then "),
                Self::full(*then_branch),
                Item::Text(" else "),
                Self::full(*else_branch),
            ]),
            ExprKind::Pair(first, second) => self.emit([
                Item::Text("("),
                Self::full(*first),
                Item::Text(", "),
                Self::full(*second),
                Item::Text(")"),
            ]),
            ExprKind::Proj { tuple, index } => self.emit([
                Self::inner(*tuple, Level::Postfix),
                Item::Text("."),
                Item::Int(i64::from(*index)),
            ]),
            ExprKind::Let { name, value, body } => {
                let separator = self.separator(spine);
                self.emit([
                    Item::Text("let "),
                    Item::Name(&name.name),
                    Item::Text(" = "),
                    Self::full(*value),
                    Item::Text(" in"),
                    separator,
                    Self::rest(*body, true, spine),
                ])
            }
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                body,
                ..
            } => {
                let separator = self.separator(spine);
                self.emit([
                    Item::Text("let rec "),
                    Item::Name(&name.name),
                    Item::Text(" = fun "),
                    Item::Name(&param.name),
                    Item::Text(" -> "),
                    Self::full(*fun_body),
                    Item::Text(" in"),
                    separator,
                    Self::rest(*body, true, spine),
                ])
            }
            ExprKind::Seq(first, second) => {
                let separator = self.separator(spine);
                self.emit([
                    Self::inner(*first, Level::Assign),
                    Item::Text(";"),
                    separator,
                    Self::rest(*second, tail, spine),
                ])
            }
            ExprKind::Ref(e) => self.emit([Item::Text("ref "), operand(*e)]),
            ExprKind::Pack(e) => self.emit([Item::Text("pack "), operand(*e)]),
            ExprKind::Deref { lock, target } => self.emit([
                Item::Text("!["),
                Self::full(*lock),
                Item::Text("] "),
                operand(*target),
            ]),
            ExprKind::Assign {
                target,
                lock,
                value,
            } => self.emit([
                Self::inner(*target, Level::Prefix),
                Item::Text(" :=["),
                Self::full(*lock),
                Item::Text("] "),
                operand(*value),
            ]),
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => {
                let separator = self.separator(spine);
                self.emit([
                    Item::Text("unpack ("),
                    Item::Name(&first.name),
                    Item::Text(", "),
                    Item::Name(&second.name),
                    Item::Text(") = "),
                    Self::full(*package),
                    Item::Text(" in"),
                    separator,
                    Self::rest(*body, true, spine),
                ])
            }
        }
    }
}
