//! locksmith patch (PATCHES.md 4): GNU C constructs `gcc -std=gnu11` reads and the generated
//! parser did not, as rules written by hand beside it.
//!
//! Each `__parse_*` function here replaces the generated rule of the same name (renamed
//! `*_generated` in `parser.rs`): most try the generated rule first and only on its failure try
//! the GNU form, so that everything the generated parser read parses exactly as before; the
//! replaced ones (`conditional_expression0`, `labeled_statement`, `struct_or_union_specifier`)
//! follow their grammar rule step by step with the GNU part added. Every GNU form is read only
//! when GNU extensions are on (`env.extensions_gnu`), like the grammar's `gnu<…>` rules.
//!
//! This module never changes what an input the generated parser accepted means.

use super::RuleResult::{self, Failed, Matched};
use super::*;

/// `Some((position, value))` for a match.
fn ok<T>(r: RuleResult<T>) -> Option<(usize, T)> {
    match r {
        Matched(p, v) => Some((p, v)),
        Failed => None,
    }
}

fn done<T>(r: Option<(usize, T)>) -> RuleResult<T> {
    match r {
        Some((p, v)) => Matched(p, v),
        None => Failed,
    }
}

/// Whitespace (the grammar's `_`, which always matches).
fn ws<'i>(input: &'i str, state: &mut ParseState<'i>, pos: usize, env: &mut Env) -> usize {
    match __parse__(input, state, pos, env) {
        Matched(p, _) => p,
        Failed => pos,
    }
}

/// The literal `s` at `pos`.
fn lit<'i>(input: &'i str, state: &mut ParseState<'i>, pos: usize, s: &'static str) -> Option<usize> {
    ok(slice_eq(input, state, pos, s)).map(|(p, _)| p)
}

/// The keyword `kw` at `pos`, not followed by an identifier character (the grammar's `K<…>`).
fn keyword(input: &str, pos: usize, kw: &str) -> Option<usize> {
    let rest = input.get(pos..)?;
    if !rest.starts_with(kw) {
        return None;
    }
    let end = pos + kw.len();
    match input.as_bytes().get(end) {
        Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => None,
        _ => Some(end),
    }
}

/// The first of `kws` at `pos`.
fn any_keyword(input: &str, pos: usize, kws: &[&str]) -> Option<usize> {
    kws.iter().find_map(|kw| keyword(input, pos, kw))
}

/// A comma-separated list of zero or more items (the grammar's `cs0<…>`), and the position after
/// the last item.
fn comma_list<'i, T>(
    input: &'i str,
    state: &mut ParseState<'i>,
    pos: usize,
    env: &mut Env,
    item: fn(&'i str, &mut ParseState<'i>, usize, &mut Env) -> RuleResult<T>,
) -> (usize, Vec<T>) {
    let mut out = Vec::new();
    let mut at = pos;
    loop {
        let start = if out.is_empty() {
            at
        } else {
            let p = ws(input, state, at, env);
            let Some(p) = lit(input, state, p, ",") else {
                break;
            };
            ws(input, state, p, env)
        };
        match ok(item(input, state, start, env)) {
            Some((p, v)) => {
                out.push(v);
                at = p;
            }
            None => break,
        }
    }
    (at, out)
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

/// `conditional_expression0`, with GNU's `a ?: b`. The omitted operand is represented by a copy of
/// the condition with the condition's own span: a `then_expression` whose span equals the
/// condition's is the omitted operand, evaluated once (the condition's value), which is how a
/// consumer tells `a ?: b` from `a ? a : b`.
pub(super) fn __parse_conditional_expression0<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<Expression> {
    let Some((p, a)) = ok(__parse_binary_expression0(input, state, pos, env)) else {
        return Failed;
    };
    let p = ws(input, state, p, env);
    if let Some((q, (b, c))) = ok(__parse_conditional_expressionT(input, state, p, env)) {
        return Matched(q, conditional(a, b, c));
    }
    if env.extensions_gnu {
        if let Some((q, c)) = elvis_tail(input, state, p, env) {
            let b = Box::new(a.clone());
            return Matched(q, conditional(a, b, Box::new(c)));
        }
    }
    Matched(p, a.node)
}

fn conditional(
    a: Node<Expression>,
    b: Box<Node<Expression>>,
    c: Box<Node<Expression>>,
) -> Expression {
    let span = Span::span(a.span.start, c.span.end);
    Expression::Conditional(Box::new(Node::new(
        ConditionalExpression {
            condition: Box::new(a),
            then_expression: b,
            else_expression: c,
        },
        span,
    )))
}

/// `? : b` of `a ?: b`.
fn elvis_tail<'i>(
    input: &'i str,
    state: &mut ParseState<'i>,
    pos: usize,
    env: &mut Env,
) -> Option<(usize, Node<Expression>)> {
    let p = lit(input, state, pos, "?")?;
    let p = ws(input, state, p, env);
    let p = lit(input, state, p, ":")?;
    let l = ws(input, state, p, env);
    let (r, c) = ok(__parse_conditional_expression0(input, state, l, env))?;
    Some((r, Node::new(c, Span::span(l, r))))
}

/// `unary_expression0`, with GNU's `&&label`, and `__real__ z`/`__imag__ z` (a part of a
/// complex number), read as their operand `z`: the part is that object's memory, which is all
/// the tree needs to say (it has no node for them). They are tried first, since the generated
/// rule would read `__real__` as an identifier.
pub(super) fn __parse_unary_expression0<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<Expression> {
    if env.extensions_gnu {
        let part = (|| {
            let p = any_keyword(input, pos, &["__real__", "__imag__", "__real", "__imag"])?;
            let p = ws(input, state, p, env);
            ok(__parse_cast_expression0(input, state, p, env))
        })();
        if part.is_some() {
            return done(part);
        }
    }
    if let Matched(p, e) = __parse_unary_expression0_generated(input, state, pos, env) {
        return Matched(p, e);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let label = (|| {
        let p = lit(input, state, pos, "&&")?;
        let p = ws(input, state, p, env);
        let (q, id) = ok(__parse_identifier(input, state, p, env))?;
        Some((q, Expression::LabelAddress(Box::new(id))))
    })();
    done(label)
}

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

/// `storage_class_specifier0`, with GNU's `__thread` (as `_Thread_local`).
pub(super) fn __parse_storage_class_specifier0<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<StorageClassSpecifier> {
    if let Matched(p, s) = __parse_storage_class_specifier0_generated(input, state, pos, env) {
        return Matched(p, s);
    }
    match keyword(input, pos, "__thread") {
        Some(p) if env.extensions_gnu => Matched(p, StorageClassSpecifier::ThreadLocal),
        _ => Failed,
    }
}

/// `type_specifier_nonunique`, with gcc's `__int128` (as `long`, whose `signed`/`unsigned` it
/// takes) and its extra floating types `__float128`, `__ibm128`, `__float80` and `__bf16` (as
/// `double`). Only the kind of a type matters to its readers here, not its width.
pub(super) fn __parse_type_specifier_nonunique<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<TypeSpecifier> {
    if let Matched(p, t) = __parse_type_specifier_nonunique_generated(input, state, pos, env) {
        return Matched(p, t);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    if let Some(p) = any_keyword(input, pos, &["__int128__", "__int128"]) {
        return Matched(p, TypeSpecifier::Long);
    }
    let floats = ["__float128", "__ibm128", "__float80", "__bf16"];
    match any_keyword(input, pos, &floats) {
        Some(p) => Matched(p, TypeSpecifier::Double),
        None => Failed,
    }
}

/// `struct_or_union_specifier`, with GNU attributes between the keyword and the tag
/// (`struct __attribute__((packed)) s { … }`), which are read and dropped: the tree has no place
/// for them, and none of them changes which objects a program accesses.
pub(super) fn __parse_struct_or_union_specifier<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<StructType> {
    let spec = (|| {
        let (p, kind) = ok(__parse_struct_or_union(input, state, pos, env))?;
        let kind = Node::new(kind, Span::span(pos, p));
        let mut p = ws(input, state, p, env);
        if env.extensions_gnu {
            if let Some((q, _)) = ok(__parse_attribute_specifier_list(input, state, p, env)) {
                p = ws(input, state, q, env);
            }
        }
        let (p, identifier) = match ok(__parse_identifier(input, state, p, env)) {
            Some((q, i)) => (q, Some(i)),
            None => (p, None),
        };
        let p = ws(input, state, p, env);
        let (p, declarations) = ok(__parse_struct_or_union_body(input, state, p, env))?;
        Some((
            p,
            StructType {
                kind,
                identifier,
                declarations,
            },
        ))
    })();
    done(spec)
}

/// `enum_specifier`, with GNU attributes between `enum` and the tag
/// (`enum __attribute__((packed)) e { … }`), read and dropped like a struct's.
pub(super) fn __parse_enum_specifier<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<EnumType> {
    if let Matched(p, e) = __parse_enum_specifier_generated(input, state, pos, env) {
        return Matched(p, e);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let spec = (|| {
        let p = keyword(input, pos, "enum")?;
        let p = ws(input, state, p, env);
        let (q, _) = ok(__parse_attribute_specifier_list(input, state, p, env))?;
        if q == p {
            return None;
        }
        let p = ws(input, state, q, env);
        let (p, identifier) = match ok(__parse_identifier(input, state, p, env)) {
            Some((q, i)) => (q, Some(i)),
            None => (p, None),
        };
        let after_tag = p;
        let p = ws(input, state, p, env);
        let Some(p) = lit(input, state, p, "{") else {
            // `enum __attribute__((…)) e` names the enum without a body.
            return identifier.map(|identifier| {
                let identifier = Some(identifier);
                let enumerators = Vec::new();
                (after_tag, EnumType { identifier, enumerators })
            });
        };
        let p = ws(input, state, p, env);
        let (p, enumerators) = comma_list(input, state, p, env, enumerator_node);
        if enumerators.is_empty() {
            return None;
        }
        let mut p = ws(input, state, p, env);
        if let Some(q) = lit(input, state, p, ",") {
            p = ws(input, state, q, env);
        }
        let p = lit(input, state, p, "}")?;
        Some((p, EnumType { identifier, enumerators }))
    })();
    done(spec)
}

/// One enumerator with its span, as the generated rule makes it.
fn enumerator_node<'i>(
    input: &'i str,
    state: &mut ParseState<'i>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<Node<Enumerator>> {
    match __parse_enumerator(input, state, pos, env) {
        Matched(p, e) => Matched(p, Node::new(e, Span::span(pos, p))),
        Failed => Failed,
    }
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

/// `statement0`, with GNU statement attributes (`__attribute__((fallthrough));`), read as a null
/// statement.
pub(super) fn __parse_statement0<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<Statement> {
    if let Matched(p, s) = __parse_statement0_generated(input, state, pos, env) {
        return Matched(p, s);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let attributed = (|| {
        let (p, _) = ok(__parse_attribute_specifier_list(input, state, pos, env))?;
        if p == pos {
            return None;
        }
        let p = ws(input, state, p, env);
        let p = lit(input, state, p, ";")?;
        Some((p, Statement::Expression(None)))
    })();
    done(attributed)
}

/// `labeled_statement`, with GNU attributes after the colon (`l: __attribute__((unused));`),
/// read and dropped.
pub(super) fn __parse_labeled_statement<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<LabeledStatement> {
    let labeled = (|| {
        let (p, label) = ok(__parse_label(input, state, pos, env))?;
        let label = Node::new(label, Span::span(pos, p));
        let p = ws(input, state, p, env);
        let p = lit(input, state, p, ":")?;
        let mut p = ws(input, state, p, env);
        if env.extensions_gnu {
            if let Some((q, _)) = ok(__parse_attribute_specifier_list(input, state, p, env)) {
                p = ws(input, state, q, env);
            }
        }
        let (p, statement) = ok(__parse_statement(input, state, p, env))?;
        Some((p, LabeledStatement { label, statement }))
    })();
    done(labeled)
}

/// `jump_statement`, with GNU's computed `goto *expression;`.
pub(super) fn __parse_jump_statement<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<Statement> {
    if let Matched(p, s) = __parse_jump_statement_generated(input, state, pos, env) {
        return Matched(p, s);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let computed = (|| {
        let p = keyword(input, pos, "goto")?;
        let p = ws(input, state, p, env);
        let p = lit(input, state, p, "*")?;
        let l = ws(input, state, p, env);
        let (r, e) = ok(__parse_expression0(input, state, l, env))?;
        let p = ws(input, state, r, env);
        let p = lit(input, state, p, ";")?;
        let e = Box::new(Node::new(e, Span::span(l, r)));
        Some((p, Statement::GotoComputed(e)))
    })();
    done(computed)
}

/// `block_item`, with GNU local label declarations (`__label__ a, b;`) and nested function
/// definitions.
pub(super) fn __parse_block_item<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<BlockItem> {
    if let Matched(p, b) = __parse_block_item_generated(input, state, pos, env) {
        return Matched(p, b);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let labels = (|| {
        let p = keyword(input, pos, "__label__")?;
        let p = ws(input, state, p, env);
        let (p, ids) = comma_list(input, state, p, env, __parse_identifier);
        if ids.is_empty() {
            return None;
        }
        let p = ws(input, state, p, env);
        let p = lit(input, state, p, ";")?;
        Some((p, BlockItem::LocalLabels(ids)))
    })();
    if labels.is_some() {
        return done(labels);
    }
    // A label right before a declaration (`l: int x = 0;`), which gcc reads: the label labels a
    // null statement and the declaration is the next block item, which is what it means.
    let before_declaration = (|| {
        let (p, label) = ok(__parse_label(input, state, pos, env))?;
        let label = Node::new(label, Span::span(pos, p));
        let p = ws(input, state, p, env);
        let p = lit(input, state, p, ":")?;
        let mut end = p;
        let mut p = ws(input, state, p, env);
        if let Some((q, _)) = ok(__parse_attribute_specifier_list(input, state, p, env)) {
            if q > p {
                end = q;
                p = ws(input, state, q, env);
            }
        }
        // Only a declaration may follow (a statement would have matched the labeled
        // statement); it is parsed again as the next block item.
        ok(__parse_declaration(input, state, p, env))?;
        let null = Node::new(Statement::Expression(None), Span::span(end, end));
        let labeled = LabeledStatement {
            label,
            statement: Box::new(null),
        };
        let span = Span::span(pos, end);
        let statement = Node::new(Statement::Labeled(Node::new(labeled, span)), span);
        Some((end, BlockItem::Statement(statement)))
    })();
    if before_declaration.is_some() {
        return done(before_declaration);
    }
    env.enter_scope();
    let nested = ok(__parse_function_definition(input, state, pos, env));
    env.leave_scope();
    done(nested.map(|(p, f)| {
        let f = Node::new(f, Span::span(pos, p));
        (p, BlockItem::NestedFunction(f))
    }))
}

/// `asm_statement0`, with the qualifiers `goto` and `inline` in any order beside `volatile`, and
/// the label list of `asm goto` after a fourth colon.
pub(super) fn __parse_asm_statement0<'input>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
) -> RuleResult<AsmStatement> {
    if let Matched(p, a) = __parse_asm_statement0_generated(input, state, pos, env) {
        return Matched(p, a);
    }
    done(asm_goto(input, state, pos, env))
}

fn asm_goto<'i>(
    input: &'i str,
    state: &mut ParseState<'i>,
    pos: usize,
    env: &mut Env,
) -> Option<(usize, AsmStatement)> {
    let mut p = any_keyword(input, pos, &["asm", "__asm__", "__asm"])?;
    let mut qualifier = None;
    loop {
        p = ws(input, state, p, env);
        if let Some(q) = any_keyword(input, p, &["goto", "inline", "__inline__", "__inline"]) {
            p = q;
        } else if let Some((q, t)) = ok(__parse_type_qualifier(input, state, p, env)) {
            qualifier = qualifier.or(Some(t));
            p = q;
        } else {
            break;
        }
    }
    let p = lit(input, state, p, "(")?;
    let p = ws(input, state, p, env);
    let (mut p, template) = ok(__parse_string_literal(input, state, p, env))?;
    let mut sections = 0;
    let mut outputs = Vec::new();
    let mut inputs = Vec::new();
    let mut clobbers = Vec::new();
    let mut labels = Vec::new();
    while sections < 4 {
        let q = ws(input, state, p, env);
        let Some(q) = lit(input, state, q, ":") else {
            break;
        };
        let q = ws(input, state, q, env);
        p = match sections {
            0 | 1 => {
                let (q, list) = ok(__parse_asm_operand_list(input, state, q, env))?;
                *(if sections == 0 { &mut outputs } else { &mut inputs }) = list;
                q
            }
            2 => {
                let (q, list) = comma_list(input, state, q, env, __parse_string_literal);
                clobbers = list;
                q
            }
            _ => {
                let (q, list) = comma_list(input, state, q, env, __parse_identifier);
                labels = list;
                q
            }
        };
        sections += 1;
    }
    let p = ws(input, state, p, env);
    let p = lit(input, state, p, ")")?;
    let p = ws(input, state, p, env);
    let p = lit(input, state, p, ";")?;
    let stmt = if sections == 0 {
        AsmStatement::GnuBasic(template)
    } else {
        AsmStatement::GnuExtended(GnuExtendedAsmStatement {
            qualifier,
            template,
            outputs,
            inputs,
            clobbers,
            labels,
        })
    };
    Some((p, stmt))
}
