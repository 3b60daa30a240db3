//! locksmith patch (PATCHES.md 4): tests of the GNU C rules of `parser_gnu.rs`.

use ast::*;
use env::Env;
use parser;
use span::Node;

fn parse(src: &str) -> TranslationUnit {
    match parser::translation_unit(src, &mut Env::with_gnu()) {
        Ok(u) => u,
        Err(e) => panic!("{src}: {e}"),
    }
}

fn rejected_without_gnu(src: &str) -> bool {
    parser::translation_unit(src, &mut Env::with_core()).is_err()
}

/// The block items of the body of the unit's only (or last) function.
fn body(u: &TranslationUnit) -> Vec<Node<BlockItem>> {
    for ext in u.0.iter().rev() {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            if let Statement::Compound(items) = &f.node.statement.node {
                return items.clone();
            }
        }
    }
    panic!("no function body");
}

fn stmt(item: &Node<BlockItem>) -> &Statement {
    match &item.node {
        BlockItem::Statement(s) => &s.node,
        other => panic!("not a statement: {other:?}"),
    }
}

/// The expression of an expression statement, or the initializer of a one-name declaration.
fn expr(item: &Node<BlockItem>) -> &Expression {
    match &item.node {
        BlockItem::Statement(s) => match &s.node {
            Statement::Expression(Some(e)) => &e.node,
            other => panic!("not an expression statement: {other:?}"),
        },
        BlockItem::Declaration(d) => match &d.node.declarators[0].node.initializer {
            Some(Node {
                node: Initializer::Expression(e),
                ..
            }) => &e.node,
            other => panic!("no initializer: {other:?}"),
        },
        other => panic!("no expression: {other:?}"),
    }
}

#[test]
fn elvis_keeps_one_condition_span() {
    let src = "int *f(int *p, int *q) { return p ?: q; }";
    let u = parse(src);
    let items = body(&u);
    let Statement::Return(Some(e)) = stmt(&items[0]) else {
        panic!("no return");
    };
    let Expression::Conditional(c) = &e.node else {
        panic!("not a conditional: {e:?}");
    };
    assert_eq!(c.node.then_expression.span, c.node.condition.span);
    // The binary expression's span takes the blanks after it, as the generated rule's does.
    assert_eq!(src[c.node.condition.span.start..c.node.condition.span.end].trim(), "p");
    assert_eq!(&src[c.node.else_expression.span.start..c.node.else_expression.span.end], "q");
    assert!(rejected_without_gnu(src));
}

#[test]
fn ordinary_conditional_is_unchanged() {
    let u = parse("int f(int a, int b) { return a ? b : a ? 1 : 2; }");
    let items = body(&u);
    let Statement::Return(Some(e)) = stmt(&items[0]) else {
        panic!("no return");
    };
    let Expression::Conditional(c) = &e.node else {
        panic!("not a conditional");
    };
    assert_ne!(c.node.then_expression.span, c.node.condition.span);
    assert!(matches!(c.node.else_expression.node, Expression::Conditional(_)));
}

#[test]
fn labels_as_values_and_computed_goto() {
    let src = "void f(void) { void *l = &&done; goto *l; done: ; }";
    let u = parse(src);
    let items = body(&u);
    match expr(&items[0]) {
        Expression::LabelAddress(id) => assert_eq!(id.node.name, "done"),
        other => panic!("not a label address: {other:?}"),
    }
    match stmt(&items[1]) {
        Statement::GotoComputed(e) => {
            assert_eq!(&src[e.span.start..e.span.end], "l");
        }
        other => panic!("not a computed goto: {other:?}"),
    }
    // `a && b` is still the logical operator.
    let u = parse("int g(int a, int b) { return a && b; }");
    let items = body(&u);
    let Statement::Return(Some(e)) = stmt(&items[0]) else {
        panic!("no return");
    };
    assert!(matches!(e.node, Expression::BinaryOperator(_)));
    assert!(rejected_without_gnu(src));
}

#[test]
fn local_labels_and_nested_functions() {
    let src = "int g; void f(void) { __label__ a, b; int x; int inc(int k) { return k + x; } \
               g = inc(1); a: b: ; }";
    let u = parse(src);
    let items = body(&u);
    match &items[0].node {
        BlockItem::LocalLabels(ls) => {
            let names: Vec<&str> = ls.iter().map(|l| l.node.name.as_str()).collect();
            assert_eq!(names, ["a", "b"]);
        }
        other => panic!("not local labels: {other:?}"),
    }
    match &items[2].node {
        BlockItem::NestedFunction(f) => {
            assert!(matches!(f.node.statement.node, Statement::Compound(_)));
        }
        other => panic!("not a nested function: {other:?}"),
    }
    assert!(matches!(expr(&items[3]), Expression::BinaryOperator(_)));
}

#[test]
fn asm_goto_lists_its_labels() {
    let src = "void f(int x) { asm goto (\"\" : : \"r\"(x) : \"memory\" : out, again); \
               asm volatile goto (\"\" :::: out); asm inline (\"nop\"); again: out: ; }";
    let u = parse(src);
    let items = body(&u);
    let Statement::Asm(a) = stmt(&items[0]) else {
        panic!("not asm");
    };
    let AsmStatement::GnuExtended(g) = &a.node else {
        panic!("not extended asm");
    };
    assert_eq!(g.inputs.len(), 1);
    assert_eq!(g.clobbers.len(), 1);
    let labels: Vec<&str> = g.labels.iter().map(|l| l.node.name.as_str()).collect();
    assert_eq!(labels, ["out", "again"]);
    let Statement::Asm(a) = stmt(&items[1]) else {
        panic!("not asm");
    };
    let AsmStatement::GnuExtended(g) = &a.node else {
        panic!("not extended asm");
    };
    assert!(g.qualifier.is_some());
    assert_eq!(g.labels.len(), 1);
    assert!(matches!(stmt(&items[2]), Statement::Asm(_)));
}

#[test]
fn attributes_on_statements_labels_and_tags() {
    let u = parse(
        "struct __attribute__((packed)) s { int a; char b; } v; \
         union __attribute__((aligned(8))) u { int a; }; \
         void f(int k) { switch (k) { case 0: v.a++; __attribute__((fallthrough)); \
         default: v.b++; } goto l; l: __attribute__((unused)); v.a++; }",
    );
    let ExternalDeclaration::Declaration(d) = &u.0[0].node else {
        panic!("not a declaration");
    };
    let DeclarationSpecifier::TypeSpecifier(t) = &d.node.specifiers[0].node else {
        panic!("not a type");
    };
    let TypeSpecifier::Struct(s) = &t.node else {
        panic!("not a struct");
    };
    assert_eq!(s.node.identifier.as_ref().map(|i| i.node.name.as_str()), Some("s"));
    assert_eq!(s.node.declarations.as_ref().map(Vec::len), Some(2));
    let items = body(&u);
    let Statement::Labeled(l) = stmt(&items[2]) else {
        panic!("not labeled");
    };
    assert!(matches!(l.node.statement.node, Statement::Expression(None)));
}

#[test]
fn gcc_types_and_thread_storage() {
    let u = parse(
        "__thread int a; __int128 b; unsigned __int128 c; __float128 d; __bf16 e; \
         __int128_t f; __uint128_t g; _Float32 h; _Float64x i; \
         void k(void) { __auto_type p = &a; *p = 1; }",
    );
    let ExternalDeclaration::Declaration(d) = &u.0[0].node else {
        panic!("not a declaration");
    };
    assert!(d.node.specifiers.iter().any(|s| matches!(
        s.node,
        DeclarationSpecifier::StorageClass(Node {
            node: StorageClassSpecifier::ThreadLocal,
            ..
        })
    )));
    let ExternalDeclaration::Declaration(d) = &u.0[2].node else {
        panic!("not a declaration");
    };
    let kinds: Vec<&DeclarationSpecifier> = d.node.specifiers.iter().map(|s| &s.node).collect();
    assert!(matches!(
        kinds[..],
        [
            DeclarationSpecifier::TypeSpecifier(Node {
                node: TypeSpecifier::Unsigned,
                ..
            }),
            DeclarationSpecifier::TypeSpecifier(Node {
                node: TypeSpecifier::Long,
                ..
            })
        ]
    ));
    assert!(matches!(body(&u)[0].node, BlockItem::Declaration(_)));
}

#[test]
fn attributes_between_enum_and_tag() {
    let u = parse(
        "enum __attribute__((packed)) color { RED, GREEN = 4, }; \
         enum __attribute__((packed)) color c; int f(void) { return GREEN; }",
    );
    let tag = |k: usize| {
        let ExternalDeclaration::Declaration(d) = &u.0[k].node else {
            panic!("not a declaration");
        };
        let DeclarationSpecifier::TypeSpecifier(t) = &d.node.specifiers[0].node else {
            panic!("not a type");
        };
        let TypeSpecifier::Enum(e) = &t.node else {
            panic!("not an enum");
        };
        let name = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        (name, e.node.enumerators.len())
    };
    assert_eq!(tag(0), (Some("color".to_string()), 2));
    assert_eq!(tag(1), (Some("color".to_string()), 0));
    assert!(rejected_without_gnu("enum __attribute__((packed)) e { A };"));
}

#[test]
fn a_declaration_right_after_a_label() {
    let u = parse("int f(int x) { goto l; l: int y = x + 1; m: __attribute__((unused)) int z = y; return z; }");
    let items = body(&u);
    // `goto l;`, `l:` (a labeled null statement), `int y…`, `m:`, `int z…`, `return z;`.
    assert_eq!(items.len(), 6, "{items:?}");
    let Statement::Labeled(l) = stmt(&items[1]) else {
        panic!("not labeled");
    };
    assert!(matches!(l.node.statement.node, Statement::Expression(None)));
    assert!(matches!(items[2].node, BlockItem::Declaration(_)));
    assert!(matches!(items[4].node, BlockItem::Declaration(_)));
    assert!(rejected_without_gnu("int f(int x) { l: int y = x; return y; }"));
}

#[test]
fn real_and_imag_parts_read_as_their_operand() {
    let u = parse("double f(_Complex double z) { return __real__ z + __imag z; }");
    let items = body(&u);
    let Statement::Return(Some(e)) = stmt(&items[0]) else {
        panic!("not a return");
    };
    let Expression::BinaryOperator(b) = &e.node else {
        panic!("not a sum: {e:?}");
    };
    for side in [&b.node.lhs, &b.node.rhs] {
        assert!(
            matches!(&side.node, Expression::Identifier(i) if i.node.name == "z"),
            "{side:?}"
        );
    }
    assert!(rejected_without_gnu("double f(_Complex double z) { return __real__ z; }"));
}
