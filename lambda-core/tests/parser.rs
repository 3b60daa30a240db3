//! Tests of the λ▷ lexer, parser and printer: precedence and associativity against explicitly
//! parenthesised equivalents, spans and positions, error messages, deep nesting, and property
//! tests that the parser never panics and that printing then parsing gives back the same tree.

use expect_test::{expect, Expect};
use lambda_core::ast::{Binder, Expr, ExprId, ExprKind, Program, SourceFile, Span};
use lambda_core::syntax::{parse, print_expr, print_program, SyntaxError};
use proptest::prelude::*;
use solver::ids::IndexVec;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Renders the subtree at `id` as an S-expression without spans, so that two trees can be compared
/// structurally. It uses an explicit stack because the deep-nesting tests build trees tens of
/// thousands of levels deep.
fn sexp_of(program: &Program, id: ExprId) -> String {
    enum Work<'a> {
        Text(&'a str),
        Owned(String),
        Expr(ExprId),
    }
    let mut out = String::new();
    let mut stack = vec![Work::Expr(id)];
    while let Some(work) = stack.pop() {
        let id = match work {
            Work::Text(text) => {
                out.push_str(text);
                continue;
            }
            Work::Owned(text) => {
                out.push_str(&text);
                continue;
            }
            Work::Expr(id) => id,
        };
        let (head, names, children): (&str, Vec<&str>, Vec<ExprId>) = match &program.expr(id).kind {
            ExprKind::Var(name) => {
                out.push_str(name);
                continue;
            }
            ExprKind::Int(n) => {
                out.push_str(&format!("#{n}"));
                continue;
            }
            ExprKind::Newlock => {
                out.push_str("newlock");
                continue;
            }
            ExprKind::Fun { param, body } => ("fun", vec![&param.name], vec![*body]),
            ExprKind::App { func, arg } => ("app", vec![], vec![*func, *arg]),
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => ("if0", vec![], vec![*cond, *then_branch, *else_branch]),
            ExprKind::Pair(a, b) => ("pair", vec![], vec![*a, *b]),
            ExprKind::Proj { tuple, index } => (
                if *index == 1 { "proj1" } else { "proj2" },
                vec![],
                vec![*tuple],
            ),
            ExprKind::Let { name, value, body } => ("let", vec![&name.name], vec![*value, *body]),
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                body,
                ..
            } => (
                "letrec",
                vec![&name.name, &param.name],
                vec![*fun_body, *body],
            ),
            ExprKind::Seq(a, b) => ("seq", vec![], vec![*a, *b]),
            ExprKind::Ref(e) => ("ref", vec![], vec![*e]),
            ExprKind::Deref { lock, target } => ("deref", vec![], vec![*lock, *target]),
            ExprKind::Assign {
                target,
                lock,
                value,
            } => ("assign", vec![], vec![*target, *lock, *value]),
            ExprKind::Pack(e) => ("pack", vec![], vec![*e]),
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => (
                "unpack",
                vec![&first.name, &second.name],
                vec![*package, *body],
            ),
        };
        let mut items = vec![Work::Text("("), Work::Text(head)];
        for name in names {
            items.push(Work::Owned(format!(" {name}")));
        }
        for child in children {
            items.push(Work::Text(" "));
            items.push(Work::Expr(child));
        }
        items.push(Work::Text(")"));
        stack.extend(items.into_iter().rev());
    }
    out
}

fn sexp(program: &Program) -> String {
    sexp_of(program, program.root)
}

fn parse_ok(text: &str) -> Program {
    match parse("test.lam", text) {
        Ok(program) => program,
        Err(error) => panic!("parse of {text:?} failed: {error:?}"),
    }
}

fn tree(text: &str) -> String {
    sexp(&parse_ok(text))
}

/// Asserts that `text` parses to the same tree as its explicitly parenthesised form.
#[track_caller]
fn same(text: &str, parenthesised: &str) {
    assert_eq!(
        tree(text),
        tree(parenthesised),
        "{text:?} vs {parenthesised:?}"
    );
}

/// An error as `line:col-line:col: message`, for comparison with an expectation.
fn error_of(text: &str) -> String {
    let error = match parse("test.lam", text) {
        Ok(program) => panic!("{text:?} parsed as {}", sexp(&program)),
        Err(error) => error,
    };
    let file = SourceFile::new("test.lam", text);
    let (start, end) = (
        file.line_col(error.span.start),
        file.line_col(error.span.end),
    );
    format!(
        "{}:{}-{}:{}: {}",
        start.line, start.column, end.line, end.column, error.message
    )
}

#[track_caller]
fn check_error(text: &str, expected: Expect) {
    expected.assert_eq(&error_of(text));
}

fn span_text(program: &Program, span: Span) -> &str {
    &program.file.text[span.start as usize..span.end as usize]
}

// ---------------------------------------------------------------------------------------------
// Precedence and associativity
// ---------------------------------------------------------------------------------------------

#[test]
fn application_is_left_associative_and_binds_tighter_than_prefix_operators() {
    same("f x y", "(f x) y");
    same("f x y z", "((f x) y) z");
    same("ref f x", "ref (f x)");
    same("![l] f x", "![l] (f x)");
    same("pack f x", "pack (f x)");
    same("f newlock 1", "(f newlock) 1");
    same("f (fun x -> x) y", "(f (fun x -> x)) y");
    expect![["(app (app f x) y)"]].assert_eq(&tree("f x y"));
}

#[test]
fn prefix_operators_nest() {
    same("ref ref 0", "ref (ref 0)");
    same("pack ![l] r", "pack (![l] r)");
    same("![l] ![m] r", "![l] (![m] r)");
    same("ref pack ![l] f x", "ref (pack (![l] (f x)))");
    expect![["(ref (ref #0))"]].assert_eq(&tree("ref ref 0"));
}

#[test]
fn projections_are_postfix_and_bind_tightest() {
    same("x.1.2", "(x.1).2");
    same("f x.1", "f (x.1)");
    same("(a, b).2.1", "((a, b).2).1");
    same("ref x.2", "ref (x.2)");
    same("1.2", "(1).2");
    expect![["(proj1 (proj2 (pair a b)))"]].assert_eq(&tree("(a, b).2.1"));
}

#[test]
fn writes_take_prefix_operands_and_bind_tighter_than_sequencing() {
    same("r :=[l] f x; y", "(r :=[l] (f x)); y");
    same("ref r :=[l] 3", "(ref r) :=[l] 3");
    same("![l] r :=[l] 1", "(![l] r) :=[l] 1");
    same("r :=[l] ref f x", "r :=[l] (ref (f x))");
    same("r :=[l] fun x -> x; y", "r :=[l] (fun x -> (x; y))");
    same("r :=[a; b] v", "r :=[(a; b)] v");
    expect![["(seq (assign r l (app f x)) y)"]].assert_eq(&tree("r :=[l] f x; y"));
}

#[test]
fn sequencing_is_right_associative_and_loosest() {
    same("a; b; c", "a; (b; c)");
    same("f x; g y", "(f x); (g y)");
    same("a; fun x -> x; b", "a; (fun x -> (x; b))");
    expect![["(seq a (seq b c))"]].assert_eq(&tree("a; b; c"));
}

#[test]
fn right_extending_forms_swallow_sequences() {
    same("fun x -> a; b", "fun x -> (a; b)");
    same("if0 c then a else b; d", "if0 c then a else (b; d)");
    same("let x = 1 in a; b", "let x = 1 in (a; b)");
    same(
        "let rec f = fun x -> x in a; b",
        "let rec f = fun x -> x in (a; b)",
    );
    same("unpack (x, y) = p in x; y", "unpack (x, y) = p in (x; y)");
    same("ref fun x -> x; y", "ref (fun x -> (x; y))");
    same("![l] let x = r in x; y", "![l] (let x = r in (x; y))");
    same(
        "pack if0 c then a else b; d",
        "pack (if0 c then a else (b; d))",
    );
    same("fun x -> fun y -> x y", "fun x -> (fun y -> (x y))");
    expect![["(fun x (seq a b))"]].assert_eq(&tree("fun x -> a; b"));
}

#[test]
fn keyword_delimited_parts_are_full_expressions() {
    same("let x = a; b in c", "let x = (a; b) in c");
    same(
        "let x = let y = 1 in y; y in x",
        "let x = (let y = 1 in (y; y)) in x",
    );
    same(
        "if0 let x = 1 in x then a; b else c",
        "if0 (let x = 1 in x) then (a; b) else c",
    );
    same("![a; b] c", "![(a; b)] c");
    same("unpack (x, y) = a; b in x", "unpack (x, y) = (a; b) in x");
    same(
        "let rec f = fun x -> let y = x in y; f y in f 0",
        "let rec f = fun x -> (let y = x in (y; (f y))) in (f 0)",
    );
    same("(a; b, fun x -> x)", "((a; b), (fun x -> x))");
}

#[test]
fn identifiers_include_underscore_primes_and_keyword_prefixes() {
    expect![["(fun _ (app (app (app x' rec0) iff) in_))"]]
        .assert_eq(&tree("fun _ -> x' rec0 iff in_"));
}

#[test]
fn comments_nest_and_separate_tokens() {
    same("f (* a (* nested *) b *) x", "f x");
    same("(* leading *) x (* trailing *)", "x");
    same("let(*c*)x=1(*c*)in x", "let x = 1 in x");
    expect![["(app f x)"]].assert_eq(&tree("f(* λ is fine in comments *)x"));
}

#[test]
fn integers_cover_the_i64_range() {
    expect![["(pair #0 #9223372036854775807)"]].assert_eq(&tree("(0, 9223372036854775807)"));
    expect![["#7"]].assert_eq(&tree("007"));
}

// ---------------------------------------------------------------------------------------------
// Spans and positions
// ---------------------------------------------------------------------------------------------

#[test]
fn spans_cover_the_text_of_each_expression() {
    let program = parse_ok("let x = f a b in (x; y)");
    let root = program.expr(program.root);
    assert_eq!(root.span, Span::new(0, 23));
    let ExprKind::Let { name, value, body } = &root.kind else {
        panic!("not a let")
    };
    assert_eq!(
        name,
        &Binder {
            name: "x".to_string(),
            span: Span::new(4, 5)
        }
    );
    assert_eq!(span_text(&program, program.expr(*value).span), "f a b");
    let ExprKind::App { func, .. } = program.expr(*value).kind else {
        panic!("not an app")
    };
    assert_eq!(span_text(&program, program.expr(func).span), "f a");
    // A parenthesised expression's span includes its parentheses.
    assert_eq!(span_text(&program, program.expr(*body).span), "(x; y)");
}

#[test]
fn let_rec_records_the_span_of_its_function() {
    let program = parse_ok("let rec loop = fun n -> loop n in loop 0");
    let ExprKind::LetRec {
        name,
        param,
        fun_span,
        fun_body,
        ..
    } = &program.expr(program.root).kind
    else {
        panic!("not a let rec")
    };
    assert_eq!(span_text(&program, name.span), "loop");
    assert_eq!(span_text(&program, param.span), "n");
    assert_eq!(span_text(&program, *fun_span), "fun n -> loop n");
    assert_eq!(span_text(&program, program.expr(*fun_body).span), "loop n");
}

#[test]
fn errors_report_line_and_column() {
    let text = "let x = 1 in\nlet y = x in\nif0 y 3 else 4";
    let error = parse("prog.lam", text).unwrap_err();
    let file = SourceFile::new("prog.lam", text);
    assert_eq!(file.position(error.span), "prog.lam:3:9");
    assert_eq!(
        error.to_string(),
        "expected `then` after the condition of `if0`, found keyword `else`"
    );
    // Columns count characters, so a λ in a comment earlier on the line does not shift them.
    check_error(
        "(* λ *) x )",
        expect![["1:11-1:12: unexpected `)` after the end of the expression"]],
    );
}

#[test]
fn comment_errors_point_at_the_opening_of_the_outermost_comment() {
    check_error(
        "x (* a (* b *) c",
        expect![["1:3-1:5: unterminated comment"]],
    );
    check_error("x\n  (* (* *)", expect![["2:3-2:5: unterminated comment"]]);
    check_error("(*)", expect![["1:1-1:3: unterminated comment"]]);
}

// ---------------------------------------------------------------------------------------------
// Error messages
// ---------------------------------------------------------------------------------------------

#[test]
fn errors_for_missing_keywords() {
    check_error(
        "let x = 1",
        expect![["1:10-1:10: expected `in` after the value of `let x`, found end of input"]],
    );
    check_error(
        "let x = 1 x; y)",
        expect![["1:15-1:16: expected `in` after the value of `let x`, found `)`"]],
    );
    check_error(
        "if0 x 1 else 2",
        expect![["1:9-1:13: expected `then` after the condition of `if0`, found keyword `else`"]],
    );
    check_error(
        "if0 x then 1",
        expect![[
            "1:13-1:13: expected `else` after the `then` branch of `if0`, found end of input"
        ]],
    );
    check_error(
        "fun x x",
        expect![["1:7-1:8: expected `->` after `fun x`, found `x`"]],
    );
    check_error(
        "fun in -> x",
        expect![["1:5-1:7: expected a parameter name after `fun`, found keyword `in`"]],
    );
    check_error(
        "let = 3 in x",
        expect![["1:5-1:6: expected a name after `let`, found `=`"]],
    );
    check_error(
        "unpack x = p in x",
        expect![[
            "1:8-1:9: expected `(` after `unpack` (it is written `unpack (x, y) = e1 in e2`), found `x`"
        ]],
    );
    check_error(
        "unpack (x y) = p in x",
        expect![["1:11-1:12: expected `,` after `unpack (x`, found `y`"]],
    );
    check_error(
        "unpack (x, y) = p",
        expect![[
            "1:18-1:18: expected `in` after the package of `unpack (x, y)`, found end of input"
        ]],
    );
}

#[test]
fn errors_for_let_rec() {
    check_error(
        "let rec f = 3 in f",
        expect![[
            "1:13-1:14: let rec must bind a function: expected `fun` after `let rec f =`, found `3`"
        ]],
    );
    check_error(
        "let rec f = (fun x -> x) in f",
        expect![[
            "1:13-1:14: let rec must bind a function: expected `fun` after `let rec f =`, found `(`"
        ]],
    );
    check_error(
        "let rec = fun x -> x in f",
        expect![["1:9-1:10: expected a function name after `let rec`, found `=`"]],
    );
    check_error(
        "let rec f = fun x -> x",
        expect![[
            "1:23-1:23: expected `in` after the function bound by `let rec f`, found end of input"
        ]],
    );
}

#[test]
fn errors_for_parentheses() {
    check_error(
        "(f x",
        expect![["1:5-1:5: expected `)` to close the `(` at line 1, column 1, found end of input"]],
    );
    check_error(
        "g\n  (a, (b\n   c) d ]",
        expect!["3:9-3:10: expected `)` to close the `(` at line 2, column 3, found `]`"],
    );
    check_error(
        "f x)",
        expect![["1:4-1:5: unexpected `)` after the end of the expression"]],
    );
    check_error(
        "()",
        expect![["1:1-1:3: `()` is not an expression (λ▷ has no unit value)"]],
    );
    check_error(
        "(a, b, c)",
        expect![["1:6-1:7: a pair has exactly two components; nest pairs as in `(a, (b, c))`"]],
    );
    check_error(
        "(a,)",
        expect![["1:4-1:5: expected an expression, found `)`"]],
    );
}

#[test]
fn errors_for_reads_and_writes() {
    check_error(
        "a :=[l] b :=[l] c",
        expect![[
            "1:11-1:13: a write cannot directly follow another write; add parentheses, as in `a :=[l] (b :=[l] c)`"
        ]],
    );
    check_error(
        "r := 3",
        expect![[
            "1:6-1:7: expected `[` after `:=` (a write is written `target :=[lock] value`), found `3`"
        ]],
    );
    check_error(
        "![l r",
        expect![["1:6-1:6: expected `]` after the lock of `![…]`, found end of input"]],
    );
    check_error(
        "!r",
        expect![["1:2-1:3: expected `[` after `!` (a read is written `![lock] e`), found `r`"]],
    );
    check_error(
        "r : 3",
        expect![["1:3-1:4: unexpected character `:` (a write is written `target :=[lock] value`)"]],
    );
}

#[test]
fn errors_for_unparenthesised_arguments() {
    check_error(
        "f fun x -> x",
        expect![[
            "1:3-1:6: a `fun` expression used as a function argument must be in parentheses: write `(fun …)`"
        ]],
    );
    check_error(
        "f x let y = 1 in y",
        expect![[
            "1:5-1:8: a `let` expression used as a function argument must be in parentheses: write `(let …)`"
        ]],
    );
    check_error(
        "f ref x",
        expect![[
            "1:3-1:6: a `ref` expression used as a function argument must be in parentheses: write `(ref …)`"
        ]],
    );
    check_error(
        "f ![l] x",
        expect![[
            "1:3-1:4: a read `![…] …` used as a function argument must be in parentheses: write `(![…] …)`"
        ]],
    );
}

#[test]
fn errors_for_trailing_and_missing_tokens() {
    check_error(
        "x y in z",
        expect![["1:5-1:7: unexpected keyword `in` after the end of the expression"]],
    );
    check_error(
        "",
        expect![["1:1-1:1: expected an expression, found end of input"]],
    );
    check_error(
        "(* only a comment *)",
        expect![["1:21-1:21: expected an expression, found end of input"]],
    );
    check_error(
        "x;",
        expect![["1:3-1:3: expected an expression, found end of input"]],
    );
    check_error(
        "let x = in x",
        expect![["1:9-1:11: expected an expression, found keyword `in`"]],
    );
}

#[test]
fn errors_for_bad_tokens() {
    check_error(
        "fun x -> λ",
        expect![["1:10-1:11: unexpected character `λ`"]],
    );
    check_error(
        "x.3",
        expect![["1:2-1:4: there is no projection `.3`: pairs only have `.1` and `.2`"]],
    );
    check_error(
        "x . 1",
        expect![[
            "1:3-1:4: expected `1` or `2` right after `.` (a projection is written `e.1` or `e.2`)"
        ]],
    );
    check_error(
        "9223372036854775808",
        expect![[
            "1:1-1:20: integer literal `9223372036854775808` is too large (the largest integer is 9223372036854775807)"
        ]],
    );
    check_error("12ab", expect![["1:1-1:5: malformed number `12ab`"]]);
    check_error("x.1y", expect![["1:2-1:5: malformed projection `.1y`"]]);
    check_error(
        "-1",
        expect![[
            "1:1-1:2: unexpected character `-` (λ▷ has no arithmetic or negative numbers, and `->` only follows `fun x`)"
        ]],
    );
    check_error("x\t\u{0}", expect![["1:3-1:4: unexpected character `\\0`"]]);
    check_error(
        "a\u{a0}b",
        expect![["1:2-1:3: unexpected character `\\u{a0}`"]],
    );
    check_error("'a'", expect![["1:1-1:2: unexpected character `'`"]]);
}

#[test]
fn the_first_problem_in_reading_order_is_reported() {
    // The grammatical error comes first, so the bad character after it is not reported.
    check_error(
        "let x = in λ",
        expect![["1:9-1:11: expected an expression, found keyword `in`"]],
    );
    // Here the bad character comes first.
    check_error("f λ )", expect![["1:3-1:4: unexpected character `λ`"]]);
}

// ---------------------------------------------------------------------------------------------
// Deep nesting and large inputs
// ---------------------------------------------------------------------------------------------

#[test]
fn unclosed_parentheses_are_an_error_not_a_crash() {
    let text = "(".repeat(50_000);
    let error = parse("deep.lam", &text).unwrap_err();
    assert_eq!(error.message, "expected an expression, found end of input");
    assert_eq!(error.span, Span::new(50_000, 50_000));
}

#[test]
fn deep_but_acceptable_nesting_parses() {
    let depth = 100_000;
    let text = format!("{}x{}", "(".repeat(depth), ")".repeat(depth));
    let program = parse_ok(&text);
    assert_eq!(program.exprs.len(), 1);
    assert_eq!(program.expr(program.root).span, Span::new(0, 2 * depth + 1));

    let text = format!("{}0", "ref ".repeat(depth));
    let program = parse_ok(&text);
    assert_eq!(program.exprs.len(), depth + 1);
    assert_eq!(tree(&print_program(&program)), sexp(&program));
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    let error = parse("deep.lam", &"(".repeat(250_000)).unwrap_err();
    assert_eq!(
        error.message,
        "expression nested too deeply (the limit is 200000 levels)"
    );
    assert_eq!(error.span, Span::new(200_000, 200_001));

    let error = parse("deep.lam", &"fun x -> ".repeat(250_000)).unwrap_err();
    assert_eq!(
        error.message,
        "expression nested too deeply (the limit is 200000 levels)"
    );
}

#[test]
fn long_let_chains_parse_and_print() {
    let n = 30_000;
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("let x{i} = {i} in\n"));
    }
    text.push_str("x0");
    let program = parse_ok(&text);
    assert_eq!(program.exprs.len(), 2 * n + 1);
    let mut id = program.root;
    let mut lets = 0;
    while let ExprKind::Let { body, .. } = program.expr(id).kind {
        lets += 1;
        id = body;
    }
    assert_eq!(lets, n);
    assert_eq!(program.expr(id).kind, ExprKind::Var("x0".to_string()));
    // The printer lays the chain out one binding per line, exactly as written.
    assert_eq!(print_program(&program), text);
}

#[test]
fn large_programs_parse() {
    let mut text = String::from("let l = newlock in\nlet x = ref 0 in\n");
    for i in 0..20_000 {
        text.push_str(&format!("x :=[l] (![l] x, {i}).1;\n"));
    }
    text.push('x');
    let program = parse_ok(&text);
    assert!(program.exprs.len() > 100_000);
    assert_eq!(tree(&print_program(&program)), sexp(&program));
}

// ---------------------------------------------------------------------------------------------
// The printer
// ---------------------------------------------------------------------------------------------

/// Builds programs directly, including shapes the parser never produces.
struct Builder {
    exprs: IndexVec<ExprId, Expr>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            exprs: IndexVec::new(),
        }
    }

    fn add(&mut self, kind: ExprKind) -> ExprId {
        self.exprs.push(Expr {
            kind,
            span: Span::default(),
        })
    }

    fn var(&mut self, name: &str) -> ExprId {
        self.add(ExprKind::Var(name.to_string()))
    }

    fn finish(self, root: ExprId) -> Program {
        Program {
            file: SourceFile::new("built.lam", ""),
            exprs: self.exprs,
            root,
        }
    }
}

fn binder(name: &str) -> Binder {
    Binder {
        name: name.to_string(),
        span: Span::default(),
    }
}

#[test]
fn printer_parenthesises_shapes_the_parser_cannot_produce_directly() {
    let mut b = Builder::new();
    let f = b.var("f");
    let x = b.var("x");
    let fun = b.add(ExprKind::Fun {
        param: binder("x"),
        body: x,
    });
    let app = b.add(ExprKind::App { func: f, arg: fun });
    let a = b.var("a");
    let seq_left = b.add(ExprKind::Seq(app, a));
    let c = b.var("c");
    let seq = b.add(ExprKind::Seq(seq_left, c));
    let program = b.finish(seq);
    expect![["(f (fun x -> x); a); c"]].assert_eq(&print_expr(&program, program.root));
    assert_eq!(tree(&print_program(&program)), sexp(&program));
    expect![["f (fun x -> x)"]].assert_eq(&print_expr(&program, app));
}

#[test]
fn printer_keeps_right_extending_forms_from_swallowing_what_follows() {
    let mut b = Builder::new();
    let r = b.var("r");
    let l = b.var("l");
    let x = b.var("x");
    let fun = b.add(ExprKind::Fun {
        param: binder("x"),
        body: x,
    });
    let write = b.add(ExprKind::Assign {
        target: r,
        lock: l,
        value: fun,
    });
    let y = b.var("y");
    let seq = b.add(ExprKind::Seq(write, y));
    let reference = b.add(ExprKind::Ref(fun));
    let write_to_ref = b.add(ExprKind::Assign {
        target: reference,
        lock: l,
        value: y,
    });
    let pair = b.add(ExprKind::Pair(seq, write_to_ref));
    let nested_write = b.add(ExprKind::Assign {
        target: r,
        lock: l,
        value: write,
    });
    let app_of_write = b.add(ExprKind::App {
        func: nested_write,
        arg: pair,
    });
    let program = b.finish(app_of_write);
    let printed = print_program(&program);
    expect!["(r :=[l] (r :=[l] fun x -> x)) (r :=[l] (fun x -> x); y, ref (fun x -> x) :=[l] y)"]
        .assert_eq(&printed);
    assert_eq!(tree(&printed), sexp(&program));
}

#[test]
fn print_program_lays_out_the_top_level_chain_one_statement_per_line() {
    let text = "let l = newlock in let r = ref 0 in let rec f = fun n -> if0 n then 0 else \
                (r :=[l] n; f 0) in unpack (a, b) = pack (l, r) in f 1; ![l] r";
    let program = parse_ok(text);
    expect![[r#"
        let l = newlock in
        let r = ref 0 in
        let rec f = fun n -> if0 n then 0 else r :=[l] n; f 0 in
        unpack (a, b) = pack (l, r) in
        f 1;
        ![l] r"#]]
    .assert_eq(&print_program(&program));
    expect!["let l = newlock in let r = ref 0 in let rec f = fun n -> if0 n then 0 else r :=[l] n; f 0 in unpack (a, b) = pack (l, r) in f 1; ![l] r"]
        .assert_eq(&print_expr(&program, program.root));
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/// A generated expression, converted into a [`Program`] by [`to_program`].
#[derive(Clone, Debug)]
enum Gen {
    Var(String),
    Int(i64),
    Newlock,
    Fun(String, Box<Gen>),
    App(Box<Gen>, Box<Gen>),
    If0(Box<Gen>, Box<Gen>, Box<Gen>),
    Pair(Box<Gen>, Box<Gen>),
    Proj(Box<Gen>, u8),
    Let(String, Box<Gen>, Box<Gen>),
    LetRec(String, String, Box<Gen>, Box<Gen>),
    Seq(Box<Gen>, Box<Gen>),
    Ref(Box<Gen>),
    Deref(Box<Gen>, Box<Gen>),
    Assign(Box<Gen>, Box<Gen>, Box<Gen>),
    Pack(Box<Gen>),
    Unpack(String, String, Box<Gen>, Box<Gen>),
}

fn add_gen(exprs: &mut IndexVec<ExprId, Expr>, gen: &Gen) -> ExprId {
    let mut sub = |g: &Gen| add_gen(exprs, g);
    let kind = match gen {
        Gen::Var(name) => ExprKind::Var(name.clone()),
        Gen::Int(n) => ExprKind::Int(*n),
        Gen::Newlock => ExprKind::Newlock,
        Gen::Fun(x, body) => ExprKind::Fun {
            param: binder(x),
            body: sub(body),
        },
        Gen::App(f, a) => ExprKind::App {
            func: sub(f),
            arg: sub(a),
        },
        Gen::If0(c, t, e) => ExprKind::If0 {
            cond: sub(c),
            then_branch: sub(t),
            else_branch: sub(e),
        },
        Gen::Pair(a, b) => ExprKind::Pair(sub(a), sub(b)),
        Gen::Proj(e, index) => ExprKind::Proj {
            tuple: sub(e),
            index: *index,
        },
        Gen::Let(x, v, b) => ExprKind::Let {
            name: binder(x),
            value: sub(v),
            body: sub(b),
        },
        Gen::LetRec(f, x, fb, b) => ExprKind::LetRec {
            name: binder(f),
            param: binder(x),
            fun_body: sub(fb),
            fun_span: Span::default(),
            body: sub(b),
        },
        Gen::Seq(a, b) => ExprKind::Seq(sub(a), sub(b)),
        Gen::Ref(e) => ExprKind::Ref(sub(e)),
        Gen::Deref(l, t) => ExprKind::Deref {
            lock: sub(l),
            target: sub(t),
        },
        Gen::Assign(t, l, v) => ExprKind::Assign {
            target: sub(t),
            lock: sub(l),
            value: sub(v),
        },
        Gen::Pack(e) => ExprKind::Pack(sub(e)),
        Gen::Unpack(x, y, p, b) => ExprKind::Unpack {
            first: binder(x),
            second: binder(y),
            package: sub(p),
            body: sub(b),
        },
    };
    exprs.push(Expr {
        kind,
        span: Span::default(),
    })
}

fn to_program(gen: &Gen) -> Program {
    let mut exprs = IndexVec::new();
    let root = add_gen(&mut exprs, gen);
    Program {
        file: SourceFile::new("generated.lam", ""),
        exprs,
        root,
    }
}

fn arb_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x"),
        Just("y"),
        Just("f"),
        Just("_"),
        Just("x'"),
        Just("rec0"),
        Just("iff"),
        Just("in_"),
        Just("funny"),
    ]
    .prop_map(String::from)
}

fn arb_gen() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        arb_name().prop_map(Gen::Var),
        prop_oneof![0i64..20, Just(i64::MAX)].prop_map(Gen::Int),
        Just(Gen::Newlock),
    ];
    leaf.prop_recursive(7, 80, 3, |inner| {
        let boxed = inner.prop_map(Box::new);
        prop_oneof![
            (arb_name(), boxed.clone()).prop_map(|(x, b)| Gen::Fun(x, b)),
            (boxed.clone(), boxed.clone()).prop_map(|(f, a)| Gen::App(f, a)),
            (boxed.clone(), boxed.clone(), boxed.clone()).prop_map(|(c, t, e)| Gen::If0(c, t, e)),
            (boxed.clone(), boxed.clone()).prop_map(|(a, b)| Gen::Pair(a, b)),
            (boxed.clone(), 1u8..=2).prop_map(|(e, i)| Gen::Proj(e, i)),
            (arb_name(), boxed.clone(), boxed.clone()).prop_map(|(x, v, b)| Gen::Let(x, v, b)),
            (arb_name(), arb_name(), boxed.clone(), boxed.clone())
                .prop_map(|(f, x, fb, b)| Gen::LetRec(f, x, fb, b)),
            (boxed.clone(), boxed.clone()).prop_map(|(a, b)| Gen::Seq(a, b)),
            boxed.clone().prop_map(Gen::Ref),
            (boxed.clone(), boxed.clone()).prop_map(|(l, t)| Gen::Deref(l, t)),
            (boxed.clone(), boxed.clone(), boxed.clone())
                .prop_map(|(t, l, v)| Gen::Assign(t, l, v)),
            boxed.clone().prop_map(Gen::Pack),
            (arb_name(), arb_name(), boxed.clone(), boxed)
                .prop_map(|(x, y, p, b)| Gen::Unpack(x, y, p, b)),
        ]
    })
}

fn arb_token() -> impl Strategy<Value = String> {
    const TOKENS: &[&str] = &[
        "fun",
        "if0",
        "then",
        "else",
        "let",
        "rec",
        "in",
        "newlock",
        "ref",
        "pack",
        "unpack",
        "(",
        ")",
        "[",
        "]",
        ",",
        ".",
        ".1",
        ".2",
        ".3",
        ";",
        ":=",
        ":",
        "!",
        "->",
        "-",
        "=",
        "(*",
        "*)",
        "λ",
        "\n",
        "x",
        "_",
        "f'",
        "99999999999999999999",
    ];
    prop_oneof![
        3 => prop::sample::select(TOKENS).prop_map(String::from),
        1 => "[0-9]{1,3}",
    ]
}

/// Every node's span, reparsed on its own, gives the node's subtree back; binders' spans hold
/// their names.
fn assert_spans_consistent(program: &Program) {
    for (id, expr) in program.exprs.iter_enumerated() {
        let text = span_text(program, expr.span);
        assert_eq!(
            tree(text),
            sexp_of(program, id),
            "span of {id:?} is {text:?}"
        );
        let binders: Vec<&Binder> = match &expr.kind {
            ExprKind::Fun { param, .. } => vec![param],
            ExprKind::Let { name, .. } => vec![name],
            ExprKind::LetRec {
                name,
                param,
                fun_span,
                ..
            } => {
                assert!(span_text(program, *fun_span).starts_with("fun"));
                vec![name, param]
            }
            ExprKind::Unpack { first, second, .. } => vec![first, second],
            _ => vec![],
        };
        for binder in binders {
            assert_eq!(span_text(program, binder.span), binder.name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_deeply_nested_soup(
        opener in prop::sample::select(&[
            "(", "ref ", "![", "pack ", "fun x -> ", "let x = ", "if0 ", "x; ", "f (", "(x, ",
            "a :=[l] ", "a :=[", "unpack (x, y) = ",
        ][..]),
        depth in 0usize..60_000,
        tail in prop::collection::vec(arb_token(), 0..20),
    ) {
        let text = format!("{}{}", opener.repeat(depth), tail.join(" "));
        let _ = parse("deep.lam", &text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in ".*") {
        let _ = parse("fuzz.lam", &text);
    }

    #[test]
    fn parser_never_panics_on_token_soup(
        tokens in prop::collection::vec(arb_token(), 0..60),
        spaced in any::<bool>(),
    ) {
        let text = tokens.join(if spaced { " " } else { "" });
        if let Err(SyntaxError { span, .. }) = parse("soup.lam", &text) {
            prop_assert!(span.start <= span.end && span.end as usize <= text.len());
        }
    }

    #[test]
    fn printing_then_parsing_gives_the_same_tree(gen in arb_gen()) {
        let program = to_program(&gen);
        let expected = sexp(&program);
        let printed = print_program(&program);
        let reparsed = parse("printed.lam", &printed)
            .map_err(|e| TestCaseError::fail(format!("{printed:?} failed to parse: {e:?}")))?;
        prop_assert_eq!(sexp(&reparsed), expected.clone(), "printed as {:?}", printed);
        let one_line = print_expr(&program, program.root);
        prop_assert!(!one_line.contains('\n'));
        prop_assert_eq!(tree(&one_line), expected);
        for id in program.exprs.indices() {
            prop_assert_eq!(tree(&print_expr(&program, id)), sexp_of(&program, id));
        }
        // Printing a parsed program gives the same text again: the printer is a fixed point.
        prop_assert_eq!(print_program(&reparsed), printed);
        assert_spans_consistent(&reparsed);
    }
}
