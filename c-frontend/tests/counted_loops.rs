//! The `for` loops of canonical counting form that the lowering records in
//! [`Func::counted_loops`]: which headers are recognised (with macros, enum constants and constant
//! arithmetic folded), which are not, and the block structure every record promises, checked on
//! each recorded loop of every program here.

use std::path::PathBuf;

use c_frontend::ir::dump::dump_loops;
use c_frontend::ir::{
    Base, CountedLoop, Func, FuncId, LoopBound, LoopCmp, Operand, Origin, Program, StmtKind, Term,
    VarKind,
};
use c_frontend::lower::Lowerer;
use c_frontend::syntax::parse::parse_unit;
use c_frontend::syntax::preprocess::{preprocess, PreprocessOptions};
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

/// Preprocesses (with gcc, so that `#define` and `#include <pthread.h>` work), parses and lowers
/// one C unit, then checks the documented shape of every counted loop.
fn lower(test: &str, text: &str) -> Program {
    let dir = std::env::temp_dir().join(format!(
        "locksmith-counted-loops-{}-{test}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    let path: PathBuf = dir.join("prog.c");
    std::fs::write(&path, text).expect("write test file");
    let opts = PreprocessOptions {
        compiler: "gcc".into(),
        ..PreprocessOptions::default()
    };
    let pre = preprocess(&path, &opts);
    let _ = std::fs::remove_dir_all(&dir);
    let parsed = parse_unit(pre.expect("preprocess")).expect("parse");
    assert!(parsed.dropped.is_empty(), "dropped: {:?}", parsed.dropped);
    let mut files = FileTable::new();
    let map = SourceMap::new(&parsed.text, &parsed.name, &mut files);
    let mut lw = Lowerer::new();
    lw.add_unit(&parsed.unit, &map, Origin::User);
    let p = lw.finish(files, Vec::new());
    assert!(p.unanalysed.is_empty(), "unanalysed: {:?}", p.unanalysed);
    for f in p.funcs.indices() {
        for l in &p.funcs[f].counted_loops {
            check_shape(&p, f, l);
        }
    }
    p
}

fn func_id(p: &Program, name: &str) -> FuncId {
    p.funcs
        .indices()
        .find(|f| p.funcs[*f].name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn func<'p>(p: &'p Program, name: &str) -> &'p Func {
    &p.funcs[func_id(p, name)]
}

/// The counted loops of a function, rendered one per line.
fn loops(p: &Program, name: &str) -> String {
    dump_loops(p, func_id(p, name)).trim_end().to_string()
}

/// Whether `op` is `Use` of the plain variable `v`.
fn is_use_of(op: &Operand, v: c_frontend::ir::VarId) -> bool {
    matches!(op, Operand::Use(lv) if matches!(lv.base, Base::Var(x) if x == v) && lv.proj.is_empty())
}

/// Whether `op` is a constant expression as lowered: constants, casts and arithmetic of them.
fn is_constant(op: &Operand) -> bool {
    match op {
        Operand::Const(..) => true,
        Operand::Cast(_, o) => is_constant(o),
        Operand::Arith(_, _, os) => os.iter().all(is_constant),
        _ => false,
    }
}

/// Everything `CountedLoop`'s documentation promises about the blocks of a record.
fn check_shape(p: &Program, f: FuncId, l: &CountedLoop) {
    let func = &p.funcs[f];
    let name = &func.name;
    assert!(
        matches!(p.vars[l.counter].kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f),
        "{name}: counter is a local or parameter"
    );
    let head = &func.blocks[l.head];
    assert!(head.stmts.is_empty(), "{name}: head has no statements");
    let Term::Branch {
        cond,
        then_block,
        else_block,
        ..
    } = &head.term
    else {
        panic!("{name}: head ends with a branch");
    };
    assert_eq!((*then_block, *else_block), (l.body, l.exit), "{name}");
    let Operand::Arith(_, _, args) = cond else {
        panic!("{name}: the condition is a comparison");
    };
    assert!(is_use_of(&args[0], l.counter), "{name}: condition reads i");
    if let LoopBound::Var(b) = l.bound {
        assert!(is_use_of(&args[1], b), "{name}: condition reads the bound");
    }
    // The step ends with the increment `i = arith(i, #int)` (or `arith(#int, i)`) and jumps
    // back.
    let step = &func.blocks[l.step];
    assert!(
        matches!(step.term, Term::Goto(h) if h == l.head),
        "{name}: step jumps to head"
    );
    let last = step.stmts.last().expect("step has the increment");
    let StmtKind::Assign { dst, src } = &last.kind else {
        panic!("{name}: the increment is an assignment");
    };
    assert!(matches!(dst.base, Base::Var(v) if v == l.counter) && dst.proj.is_empty());
    let Operand::Arith(_, _, a) = src else {
        panic!("{name}: increment is arithmetic");
    };
    assert!(
        matches!(&a[..], [x, Operand::Const(..)] | [Operand::Const(..), x] if is_use_of(x, l.counter)),
        "{name}: increment is i = i + const"
    );
    // Exactly two predecessors: the block ending with `i = START` and the step.
    let preds: Vec<_> = func
        .blocks
        .iter_enumerated()
        .filter(|(_, b)| match &b.term {
            Term::Goto(t) => *t == l.head,
            Term::Branch {
                then_block,
                else_block,
                ..
            } => *then_block == l.head || *else_block == l.head,
            Term::Multi(ts, _) => ts.contains(&l.head),
            _ => false,
        })
        .map(|(id, _)| id)
        .collect();
    assert_eq!(preds.len(), 2, "{name}: head predecessors {preds:?}");
    assert!(preds.contains(&l.step), "{name}: step precedes head");
    let pre = preds.iter().find(|b| **b != l.step).unwrap();
    let pre = &func.blocks[*pre];
    assert!(matches!(pre.term, Term::Goto(h) if h == l.head));
    let init = pre.stmts.last().expect("initializer");
    assert!(
        matches!(&init.kind, StmtKind::Assign { dst, src }
            if matches!(dst.base, Base::Var(v) if v == l.counter) && is_constant(src)),
        "{name}: the block before the loop ends with i = START"
    );
}

#[test]
fn canonical_forms_with_constant_bounds() {
    let p = lower(
        "constant",
        "#define N 4
         #define START 1
         enum { SMALL = 3, LARGE = SMALL * 4 };
         int g;
         void lt(void) { int i; for (i = 0; i < N; i++) g += i; }
         void le(void) { int i; for (i = START; i <= N; ++i) g += i; }
         void ne(void) { int i; for (i = 0; i != N; i += 1) g += i; }
         void assign(void) { int i; for (i = 0; i < N; i = i + 1) g += i; }
         void assign_rev(void) { int i; for (i = 0; i < N; i = 1 + i) g += i; }
         void parens(void) { int i; for (i = (2); i < (N); i++) g += i; }
         void arith(void) { int i; for (i = -1; i < 2*8; i++) g += i; }
         void enums(void) { int i; for (i = SMALL; i < LARGE; i++) g += i; }
         void chars(void) { int i; for (i = 'a'; i <= 'z'; i++) g += i; }
         void decl(void) { for (int i = 0; i < N; i++) g += i; }
         void param(int i) { for (i = 0; i < N; i++) g += i; }
         void typed(void) { unsigned long i; for (i = 0UL; i < 0x10; i++) g += i; }",
    );
    let f = func(&p, "lt");
    assert_eq!(f.counted_loops.len(), 1);
    let l = f.counted_loops[0];
    assert_eq!(
        (l.start, l.op, l.bound),
        (0, LoopCmp::Lt, LoopBound::Const(4))
    );
    assert_eq!(p.vars[l.counter].name, "i");
    // A body without branches is merged with the increment: body and step are one block.
    assert_eq!(l.body, l.step);
    assert_eq!(
        loops(&p, "lt"),
        "  loop bb1: i = 0; i < 4; body bb2, step bb2, exit bb3"
    );
    for (name, want) in [
        ("le", "i = 1; i <= 4"),
        ("ne", "i = 0; i != 4"),
        ("assign", "i = 0; i < 4"),
        ("assign_rev", "i = 0; i < 4"),
        ("parens", "i = 2; i < 4"),
        ("arith", "i = -1; i < 16"),
        ("enums", "i = 3; i < 12"),
        ("chars", "i = 97; i <= 122"),
        ("decl", "i = 0; i < 4"),
        ("param", "i = 0; i < 4"),
        ("typed", "i = 0; i < 16"),
    ] {
        let got = loops(&p, name);
        assert_eq!(got.lines().count(), 1, "{name}: {got}");
        assert!(got.contains(&format!(": {want};")), "{name}: {got}");
    }
    let f = func(&p, "param");
    assert!(matches!(
        p.vars[f.counted_loops[0].counter].kind,
        VarKind::Param(..)
    ));
}

#[test]
fn variable_bounds() {
    let p = lower(
        "variable",
        "int nthreads, g;
         void param(int n) { int i; for (i = 0; i < n; i++) g++; }
         void global(void) { for (int i = 0; i < nthreads; i++) g++; }
         void local(void) { int m = g; for (int i = 0; i <= m; i++) g++; }
         enum { K = 2 };
         void shadow(void) { int K = g; for (int i = 0; i != K; i++) g++; }",
    );
    let n = func(&p, "param").params[0];
    assert_eq!(func(&p, "param").counted_loops[0].bound, LoopBound::Var(n));
    assert_eq!(
        loops(&p, "param"),
        "  loop bb1: i = 0; i < n; body bb2, step bb2, exit bb3"
    );
    let l = func(&p, "global").counted_loops[0];
    let LoopBound::Var(v) = l.bound else {
        panic!("variable bound")
    };
    assert!(matches!(p.vars[v].kind, VarKind::Global { .. }));
    assert_eq!(p.vars[v].name, "nthreads");
    let l = func(&p, "local").counted_loops[0];
    assert_eq!(l.op, LoopCmp::Le);
    assert!(matches!(l.bound, LoopBound::Var(v) if p.vars[v].name == "m"));
    // A local hiding an enum constant is a variable bound.
    let l = func(&p, "shadow").counted_loops[0];
    assert_eq!(l.op, LoopCmp::Ne);
    assert!(matches!(l.bound, LoopBound::Var(v) if p.vars[v].name == "K"));
}

#[test]
fn member_bounds() {
    let p = lower(
        "member",
        "struct pool { int size; long *items; } cfg;
         int g;
         void global(void) { for (int i = 0; i < cfg.size; i++) g++; }
         void through(struct pool *q) { for (int i = 0; i < q->size; i++) g++; }
         void local(void) { struct pool *q = &cfg; for (int i = 0; i < q->size; i++) g++; }
         void not_int(struct pool *q) { for (int i = 0; i < q->items; i++) g++; }
         void nested(struct pool **q) { for (int i = 0; i < (*q)->size; i++) g++; }",
    );
    assert_eq!(
        loops(&p, "global"),
        "  loop bb1: i = 0; i < cfg.size; body bb2, step bb2, exit bb3"
    );
    assert_eq!(
        loops(&p, "through"),
        "  loop bb1: i = 0; i < q->size; body bb2, step bb2, exit bb3"
    );
    let q = func(&p, "through").params[0];
    assert!(matches!(
        func(&p, "through").counted_loops[0].bound,
        LoopBound::Member { ptr, index: 0, .. } if ptr == q
    ));
    assert_eq!(
        loops(&p, "local"),
        "  loop bb1: i = 0; i < q->size; body bb2, step bb2, exit bb3"
    );
    // A pointer member, or a member through an expression, is not a bound.
    assert!(func(&p, "not_int").counted_loops.is_empty());
    assert!(func(&p, "nested").counted_loops.is_empty());
}

#[test]
fn create_and_join_loops() {
    let p = lower(
        "pthread",
        "#include <pthread.h>
         #define NTHREADS 4
         int counter;
         void *worker(void *arg) { counter++; return arg; }
         int main(void) {
           pthread_t t[NTHREADS];
           int i;
           for (i = 0; i < NTHREADS; i++)
             pthread_create(&t[i], NULL, worker, NULL);
           for (i = 0; i < NTHREADS; i++)
             pthread_join(t[i], NULL);
           return counter;
         }",
    );
    let f = func(&p, "main");
    assert_eq!(f.counted_loops.len(), 2, "{}", loops(&p, "main"));
    let (create, join) = (f.counted_loops[0], f.counted_loops[1]);
    assert_eq!(create.counter, join.counter);
    assert_eq!(
        (create.start, create.op, create.bound),
        (join.start, join.op, join.bound)
    );
    assert_eq!(create.bound, LoopBound::Const(4));
    // The create loop's exit is the join loop's initializer block.
    assert!(create.head < join.head);
    let calls = |b| {
        f.blocks[b]
            .stmts
            .iter()
            .filter(|s| matches!(s.kind, StmtKind::Call { .. }))
            .count()
    };
    assert_eq!(calls(create.body), 1);
    assert_eq!(calls(join.body), 1);
}

#[test]
fn block_structure_with_continue_break_nesting_and_empty_bodies() {
    let p = lower(
        "structure",
        "int g, h;
         void cont(void) {
           for (int i = 0; i < 8; i++) { if (i == 2) continue; g += i; }
         }
         void brk(void) {
           for (int i = 0; i < 8; i++) { if (g) break; g += i; }
           h = 1;
         }
         void empty(void) { int i; for (i = 0; i < 8; i++); g = i; }
         void nested(int n) {
           for (int i = 0; i < n; i++)
             for (int j = 0; j < i; j++)
               g += j;
         }
         void labelled(void) {
           for (int i = 0; i < 8; i++) { top: g++; if (g < 3) goto top; }
         }",
    );
    // With a `continue`, the step is a block of its own that the `continue` jumps to.
    let l = func(&p, "cont").counted_loops[0];
    assert_ne!(l.body, l.step);
    assert_eq!(
        loops(&p, "cont"),
        "  loop bb1: i = 0; i < 8; body bb2, step bb3, exit bb4"
    );
    // A `break` still records the loop; it goes to `exit`.
    let f = func(&p, "brk");
    let l = f.counted_loops[0];
    let Term::Branch {
        then_block,
        else_block,
        ..
    } = f.blocks[l.body].term
    else {
        panic!("body tests g");
    };
    assert_eq!(then_block, l.exit);
    assert_ne!(else_block, l.exit);
    // An empty body: the branch goes straight to the step.
    let l = func(&p, "empty").counted_loops[0];
    assert_eq!(l.body, l.step);
    assert_eq!(
        loops(&p, "empty"),
        "  loop bb1: i = 0; i < 8; body bb2, step bb2, exit bb3"
    );
    // Nested loops: outer first; the inner loop's exit is the outer loop's step, and the outer
    // body is the block with the inner initializer.
    let f = func(&p, "nested");
    let [outer, inner] = f.counted_loops[..] else {
        panic!("two loops: {}", loops(&p, "nested"));
    };
    assert_eq!(p.vars[outer.counter].name, "i");
    assert_eq!(p.vars[inner.counter].name, "j");
    assert!(matches!(inner.bound, LoopBound::Var(v) if v == outer.counter));
    assert_eq!(inner.exit, outer.step);
    assert!(matches!(f.blocks[outer.body].term, Term::Goto(h) if h == inner.head));
    // A body starting with a label: `body` is the label's block.
    let f = func(&p, "labelled");
    assert_eq!(f.counted_loops.len(), 1);
}

#[test]
fn other_loops_are_not_recorded() {
    let p = lower(
        "negative",
        "#define N 4
         int g, x, *ptr;
         int f(void);
         void dec(void) { int i; for (i = N; i > 0; i--) g++; }
         void dec_lt(void) { int i; for (i = 0; i < N; i--) g++; }
         void by_two(void) { int i; for (i = 0; i < N; i += 2) g++; }
         void forever(void) { int i; for (i = 0;; i++) if (g) break; }
         void empty_header(void) { for (;;) if (g) break; }
         void and(void) { int i; for (i = 0; i < N && x; i++) g++; }
         void other_cond(void) { int i, j = 0; for (i = 0; j < N; i++) g++; }
         void other_step(void) { int i, j = 0; for (i = 0; i < N; j++) g++; }
         void call_init(void) { int i; for (i = f(); i < N; i++) g++; }
         void call_bound(void) { int i; for (i = 0; i < f(); i++) g++; }
         void var_init(int s) { int i; for (i = s; i < N; i++) g++; }
         void no_init(void) { int i = 0; for (; i < N; i++) g++; }
         void reversed(void) { int i; for (i = 0; N > i; i++) g++; }
         void greater(void) { int i; for (i = 0; i > -N; i++) g++; }
         void cast(void) { int i; for (i = 0; (long)i < N; i++) g++; }
         void global_counter(void) { for (x = 0; x < N; x++) g++; }
         void static_counter(void) { static int i; for (i = 0; i < N; i++) g++; }
         void pointer(void) { int *p; for (p = 0; p < ptr; p++) g++; }
         void two_decls(void) { for (int i = 0, j = 0; i < N; i++) g += j; }
         void comma_step(void) { int i, j; for (i = 0; i < N; i++, j++) g++; }
         void self_bound(void) { int i; for (i = 0; i < i; i++) g++; }
         void not_one(void) { int i; for (i = 0; i < N; i = i + 2) g++; }
         void other_sum(void) { int i, j = 0; for (i = 0; i < N; i = j + 1) g++; }
         void returns(void) { for (int i = 0; i < N; i++) { g++; return; } }
         void dead(void) { return; for (int i = 0; i < N; i++) g++; }
         void into(void) { int i; goto in; for (i = 0; i < N; i++) { in: g++; } }",
    );
    for f in p.funcs.iter() {
        assert!(
            f.counted_loops.is_empty(),
            "{} records {}",
            f.name,
            loops(&p, &f.name)
        );
    }
}

#[test]
fn counting_while_loops() {
    let p = lower(
        "while",
        "#define N 4
         int g;
         void cil(void) { int i; i = 0; while (i < N) { g += i; i ++; } }
         void decl(int n) { int i = 1; while (i <= n) { g++; i = i + 1; } }
         void breaks(void) { int i; i = 0; while (i != N) { if (g) break; g++; i += 1; } }
         void nested(void) {
             int i, j; i = 0;
             while (i < N) { j = 0; while (j < N) { g++; j++; } i++; }
         }",
    );
    for (name, want) in [
        ("cil", "i = 0; i < 4"),
        ("decl", "i = 1; i <= n"),
        ("breaks", "i = 0; i != 4"),
    ] {
        let got = loops(&p, name);
        assert_eq!(got.lines().count(), 1, "{name}: {got}");
        assert!(got.contains(&format!(": {want};")), "{name}: {got}");
    }
    assert_eq!(loops(&p, "nested").lines().count(), 2);
}

#[test]
fn other_while_loops_are_not_recorded() {
    let p = lower(
        "while-negative",
        "#define N 4
         int g;
         void skips_increment(void) {
             int i; i = 0;
             while (i < N) { if (g) { i++; continue; } g++; i++; }
         }
         void no_init(int i) { while (i < N) { g++; i++; } }
         void init_before_other(void) { int i; i = 0; g++; while (i < N) { g++; i++; } }
         void labelled(void) { int i; i = 0; again: while (i < N) { g++; i++; } if (g) goto again; }
         void increment_not_last(void) { int i; i = 0; while (i < N) { i++; g++; } }
         void decrements(void) { int i; i = N; while (i > 0) { g++; i--; } }
         void not_compound(void) { int i; i = 0; while (i < N) i++; }
         void global_counter(void) { g = 0; while (g < N) { g++; } }",
    );
    for f in p.funcs.iter() {
        assert!(
            f.counted_loops.is_empty(),
            "{} records {}",
            f.name,
            loops(&p, &f.name)
        );
    }
}
