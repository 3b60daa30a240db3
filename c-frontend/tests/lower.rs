//! Tests of the lowering from lang-c ASTs to the C IR: dumps of small programs that each exercise
//! a few constructs, direct checks of types, linking and positions, and the repository's C
//! corpus lowered without any function left unanalysed.

use c_frontend::ir::ctypes::{LockKind, Type};
use c_frontend::ir::dump::{dump, dump_func};
use c_frontend::ir::{Base, FuncId, Operand, Origin, Program, StmtKind, Term, VarId, VarKind};
use c_frontend::lower::Lowerer;
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

fn lower_units(units: &[(&str, Origin)]) -> Program {
    let mut files = FileTable::new();
    let mut lw = Lowerer::new();
    for (i, (text, origin)) in units.iter().enumerate() {
        let parse = lang_c::driver::parse_preprocessed(
            &lang_c::driver::Config::with_gcc(),
            text.to_string(),
        )
        .unwrap_or_else(|e| panic!("parse error in unit {i}: {e:?}"));
        let map = SourceMap::new(text, &format!("u{i}.c"), &mut files);
        lw.add_unit(&parse.unit, &map, *origin);
    }
    let p = lw.finish(files, Vec::new());
    check_invariants(&p);
    p
}

fn lower(text: &str) -> Program {
    lower_units(&[(text, Origin::User)])
}

fn func_id(p: &Program, name: &str) -> FuncId {
    p.funcs
        .indices()
        .find(|f| p.funcs[*f].name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn func(p: &Program, name: &str) -> String {
    dump_func(p, func_id(p, name))
}

/// The variables called `name`, in creation order.
fn vars_named(p: &Program, name: &str) -> Vec<VarId> {
    p.vars
        .indices()
        .filter(|v| p.vars[*v].name == name)
        .collect()
}

fn var(p: &Program, name: &str) -> VarId {
    let vs = vars_named(p, name);
    assert_eq!(vs.len(), 1, "variables named {name}");
    vs[0]
}

/// The lines of the program dump that describe globals and string literals.
fn globals(p: &Program) -> String {
    dump(p)
        .lines()
        .filter(|l| l.starts_with("global ") || l.starts_with("string "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compares `actual` with `expected`, written indented in the test source: the common
/// indentation and the blank first and last lines are removed.
fn check(actual: &str, expected: &str) {
    let lines: Vec<&str> = expected.lines().collect();
    let body: Vec<&str> = lines
        .iter()
        .copied()
        .skip_while(|l| l.trim().is_empty())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .skip_while(|l| l.trim().is_empty())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let indent = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min();
    let want: Vec<&str> = body
        .iter()
        .map(|l| l.get(indent.unwrap_or(0)..).unwrap_or(""))
        .collect();
    let want = want.join("\n");
    let got = actual.trim_end();
    if want != got {
        panic!("dump differs\n--- expected\n{want}\n--- actual\n{got}\n---");
    }
}

#[test]
fn arithmetic_casts_and_reads() {
    let p = lower(
        "int g, *gp, arr[3]; double d;
         void f(int x, int *q) {
           g = x + 1;
           gp = gp + x;
           gp = 1 + gp;
           g = gp - q;
           d = d * 2;
           g = -x + ~x + !x;
           g = x < 3;
           g = (int)d;
           g = sizeof(struct { int a; }) + sizeof g + _Alignof(int);
           g = (x, 7);
           x;
           *q;
           (void)x;
           1;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int, int*)
          param x: int
          param q: int*
          bb0:
            g = arith<int>(x, #int)
            gp = arith<int*>(gp, x)
            gp = arith<int*>(#int, gp)
            g = arith<int>(gp, q)
            d = arith<double>(d, #int)
            g = arith<int>(arith<int>(arith<int>(x), arith<int>(x)), arith<int>(x))
            g = arith<int>(x, #int)
            g = (int)d
            g = arith<int>(arith<int>(#int, #int), #int)
            eval x
            g = #int
            eval x
            eval *q
            eval x
            return
    "#,
    );
}

#[test]
fn assignments_and_increments() {
    let p = lower(
        "int g, h, *p;
         void f(int x) {
           g = x;
           g = h = x;
           g += x;
           p += 2;
           x++;
           g = x++;
           g = ++x;
           g = x--;
           --x;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int)
          param x: int
          local tmp0: int
          local tmp1: int
          bb0:
            g = x
            h = x
            g = h
            g = arith<int>(g, x)
            p = arith<int*>(p, #int)
            x = arith<int>(x, #int)
            tmp0 = x
            x = arith<int>(tmp0, #int)
            g = tmp0
            x = arith<int>(x, #int)
            g = x
            tmp1 = x
            x = arith<int>(tmp1, #int)
            g = tmp1
            x = arith<int>(x, #int)
            return
    "#,
    );
}

#[test]
fn calls_direct_indirect_and_implicit() {
    let p = lower(
        "int f(int);
         void v(void);
         int (*fp)(int);
         struct ops { void (*run)(int); } *o;
         int g;
         void t(void) {
           g = f(f(1));
           v();
           f(2);
           g = (*fp)(3) + fp(4) + (&f)(5) + (*f)(6);
           o->run(g);
           (*o->run)(7);
           fp = f;
           fp = &f;
           g = undeclared(8);
         }",
    );
    check(
        &func(&p, "t"),
        r#"
        fn t: void()
          local tmp0: int
          local tmp1: int
          local tmp2: int
          local tmp3: int
          local tmp4: int
          local tmp5: int
          local tmp6: int
          bb0:
            tmp0 = call f(#int)
            tmp1 = call f(tmp0)
            g = tmp1
            call v()
            call f(#int)
            tmp2 = call (*fp)(#int)
            tmp3 = call (*fp)(#int)
            tmp4 = call f(#int)
            tmp5 = call f(#int)
            g = arith<int>(arith<int>(arith<int>(tmp2, tmp3), tmp4), tmp5)
            call (*(*o).run)(g)
            call (*(*o).run)(#int)
            fp = @f (through a pointer)
            fp = @f (through a pointer)
            tmp6 = call undeclared(#int)
            g = tmp6
            return
    "#,
    );
    // `f` has no body: as a value it is its thunk, which calls it directly.
    check(
        &func(&p, "f (through a pointer)"),
        r#"
        fn f (through a pointer): int(int) static
          param arg0: int
          local result: int
          bb0:
            result = call f(arg0)
            return result
    "#,
    );
    let u = &p.funcs[func_id(&p, "undeclared")];
    assert!(!u.defined && u.blocks.is_empty());
    assert_eq!(
        c_frontend::ir::dump::dump_func(&p, func_id(&p, "undeclared")).trim(),
        "fn undeclared: int() declared"
    );
}

#[test]
fn arrays_decay_and_indexing() {
    let p = lower(
        "int a[10], m[3][4], *p, i;
         char *s;
         struct S { int arr[4]; int *q; } st, *sp;
         void f(void) {
           p = a;
           a[i] = p[i];
           p[0] = a[0];
           p = m[i];
           i = m[1][2];
           i = 2[a];
           p = &a[i];
           st.q = &st.arr[1];
           i = sp->arr[i];
           i = *a;
           s = \"hi\";
           i = \"hi\"[i];
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void()
          bb0:
            p = &a
            eval i
            a[] = *(arith<int*>(p, i))
            *p = a[0]
            eval i
            p = &m[]
            i = m[1][2]
            i = a[2]
            eval i
            p = &a[]
            st.q = &st.arr[1]
            eval i
            i = (*sp).arr[]
            i = a[]
            s = "hi"
            i = *(arith<char*>("hi", i))
            return
    "#,
    );
    check(
        &globals(&p),
        r#"
        global a: int[] addr
        global m: int[][] addr
        global p: int*
        global i: int
        global s: char*
        global st: struct S addr
        global sp: struct S*
        string "hi"
        string "hi"
    "#,
    );
}

#[test]
fn struct_fields_through_values_and_pointers() {
    let p = lower(
        "struct node { int val; struct node *next; struct { int a, b; } pair; };
         struct node n, *head;
         int g;
         void f(struct node *p) {
           n.val = 1;
           p->val = n.pair.b;
           head->next->next->val = 2;
           g = (*p).next->val;
           n = *p;
           p = &n;
           g = (&n)->val;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(struct node*)
          param p: struct node*
          bb0:
            n.val = #int
            (*p).val = n.pair.b
            (*(*(*head).next).next).val = #int
            g = (*(*p).next).val
            n = *p
            p = &n
            g = n.val
            return
    "#,
    );
}

#[test]
fn anonymous_members_are_reached_through_the_outer_struct() {
    let p = lower(
        "struct outer { int k; struct { int x; int y; }; union { int *ptr; long bits; }; };
         struct outer o = { 1, { 2, 3 }, { 0 } };
         struct outer o2 = { .y = 5, .ptr = 0 };
         int g;
         void f(struct outer *p) { o.x = 1; g = p->y; o.ptr = &g; }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(struct outer*)
          param p: struct outer*
          bb0:
            o.<anonymous>.x = #int
            g = (*p).<anonymous>.y
            o.<anonymous>.ptr = &g
            return
    "#,
    );
    check(
        &func(&p, "<global-init>"),
        r#"
        fn <global-init>: void() static init
          bb0:
            o.k = #int
            o.<anonymous>.x = #int
            o.<anonymous>.y = #int
            o.<anonymous>.ptr = #int
            o2.<anonymous>.y = #int
            o2.<anonymous>.ptr = #int
            return
    "#,
    );
    let sid = p.types.struct_by_tag[&(
        c_frontend::ir::ctypes::StructKind::Struct,
        "outer".to_string(),
    )];
    let names: Vec<&str> = p.types.structs[sid]
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, ["k", "<anonymous>", "<anonymous>"]);
}

#[test]
fn bit_field_runs_fold_into_one_field() {
    let p = lower(
        "struct flags { int a : 1; int b : 2; int : 0; int c : 3; int d; unsigned e : 1, : 2, f : 1; int : 4; };
         struct flags fl = { 1, 1, 1, 5, 1, 1 };
         void t(void) { fl.a = 1; fl.b = 2; fl.c = 3; fl.d = 4; fl.f = fl.e; }",
    );
    let sid = p.types.struct_by_tag[&(
        c_frontend::ir::ctypes::StructKind::Struct,
        "flags".to_string(),
    )];
    let names: Vec<&str> = p.types.structs[sid]
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, ["a", "c", "d", "e"]);
    check(
        &func(&p, "t"),
        r#"
        fn t: void()
          bb0:
            fl.a = #int
            fl.a = #int
            fl.c = #int
            fl.d = #int
            fl.e = fl.e
            return
    "#,
    );
    check(
        &func(&p, "<global-init>"),
        r#"
        fn <global-init>: void() static init
          bb0:
            fl.a = #int
            fl.a = #int
            fl.c = #int
            fl.d = #int
            fl.e = #int
            fl.e = #int
            return
    "#,
    );
}

#[test]
fn types_of_declarations() {
    let p = lower(
        "typedef union { char c[40]; long l; } pthread_mutex_t;
         typedef struct { int a; } pthread_cond_t;
         typedef int pthread_rwlock_t;
         typedef volatile int pthread_spinlock_t;
         typedef __builtin_va_list va_list;
         typedef pthread_mutex_t my_mutex;
         struct S { int x; my_mutex m; pthread_cond_t c; pthread_rwlock_t rw; pthread_spinlock_t sp; };
         struct S s;
         pthread_mutex_t *mp;
         va_list ap;
         _Atomic(int *) atomic_ptr;
         _Atomic int atomic_int;
         long double ld;
         float _Complex cf;
         _Bool flag;
         enum color { RED, GREEN = 5, BLUE } col;
         typeof(col) col2;
         typeof(int *) ip;
         __typeof__(&s) sp;
         int (*handlers[4])(int, char **);
         char *(*getter)(void);
         int kr();
         int proto(void);
         int var(int, ...);
         void takes(int a[], void cb(int));
         int krdef(a, b) int a; char *b; { return a + *b; }",
    );
    check(
        &globals(&p),
        r#"
        global s: struct S
        global mp: pthread_mutex_t*
        global ap: void*
        global atomic_ptr: int*
        global atomic_int: int
        global ld: double
        global cf: double
        global flag: int
        global col: int
        global col2: int
        global ip: int*
        global sp: struct S*
        global handlers: (int(int, char**))*[] addr
        global getter: (char*())*
    "#,
    );
    let sig = |name: &str| func(&p, name).lines().next().unwrap().to_string();
    assert_eq!(sig("kr"), "fn kr: int() declared");
    assert_eq!(sig("proto"), "fn proto: int() declared");
    assert_eq!(sig("var"), "fn var: int(int, ...) declared");
    assert_eq!(sig("takes"), "fn takes: void(int*, (void(int))*) declared");
    assert_eq!(sig("krdef"), "fn krdef: int(int, char*)");
    let field_ty = |i: usize| {
        let Type::Struct(sid) = p.types.get(p.vars[var(&p, "s")].ty) else {
            panic!("struct")
        };
        p.types.get(p.types.structs[*sid].fields[i].ty).clone()
    };
    assert_eq!(field_ty(1), Type::Lock(LockKind::Mutex));
    assert_eq!(field_ty(2), Type::Cond);
    assert_eq!(field_ty(3), Type::Lock(LockKind::RwLock));
    assert_eq!(field_ty(4), Type::Lock(LockKind::Spin));
}

#[test]
fn globals_link_across_units() {
    let p = lower_units(&[
        (
            "extern int shared; int tentative; static int priv = 1; extern int only_declared;
             _Thread_local int tls;
             static int helper(void) { return priv; }
             int user1(void) { shared = only_declared; return helper() + tentative; }",
            Origin::User,
        ),
        (
            "int shared = 3; int tentative; static int priv = 2; extern _Thread_local int tls;
             static int helper(void) { return priv + 1; }
             int user2(void) { return helper() + shared + tls; }",
            Origin::User,
        ),
    ]);
    check(
        &globals(&p),
        r#"
        global shared: int
        global tentative: int
        global priv: int static
        global only_declared: int extern
        global tls: int thread_local
        global priv: int static
    "#,
    );
    assert_eq!(vars_named(&p, "shared").len(), 1);
    assert_eq!(vars_named(&p, "priv").len(), 2);
    let helpers: Vec<FuncId> = p
        .funcs
        .indices()
        .filter(|f| p.funcs[*f].name == "helper")
        .collect();
    assert_eq!(helpers.len(), 2);
    assert!(helpers
        .iter()
        .all(|f| p.funcs[*f].is_static && p.funcs[*f].defined));
    // Each unit's `helper` reads its own `priv`.
    let reads = |f: FuncId| format!("{:?}", p.funcs[f].blocks);
    let privs = vars_named(&p, "priv");
    assert!(reads(helpers[0]).contains(&format!("Var({:?})", privs[0])));
    assert!(reads(helpers[1]).contains(&format!("Var({:?})", privs[1])));
    assert_eq!(
        p.vars[var(&p, "shared")].pos.file,
        p.funcs[func_id(&p, "user2")].pos.file
    );
    check(
        &func(&p, "<global-init>"),
        r#"
        fn <global-init>: void() static init
          bb0:
            priv = #int
            shared = #int
            priv = #int
            return
    "#,
    );
}

#[test]
fn user_definitions_beat_stubs_in_either_order() {
    let stub =
        "unsigned long strlen(const char *s) { const char *p = s; while (*p) p++; return p - s; }
                int stub_only(int x) { return x; }";
    let user = "unsigned long strlen(const char *s) { int n = 0; return n; }
                int main(void) { return strlen(\"a\") + stub_only(1); }";
    for units in [
        [(stub, Origin::Stub), (user, Origin::User)],
        [(user, Origin::User), (stub, Origin::Stub)],
    ] {
        let p = lower_units(&units);
        check(
            &func(&p, "strlen"),
            r#"
        fn strlen: int(char*)
          param s: char*
          local n: int
          bb0:
            n = #int
            return n
    "#,
        );
        assert_eq!(p.funcs[func_id(&p, "stub_only")].origin, Origin::Stub);
        assert_eq!(p.funcs.iter().filter(|f| f.name == "strlen").count(), 1);
        // The replaced stub body's variables are gone.
        assert!(vars_named(&p, "p").is_empty());
    }
    let p = lower_units(&[
        ("int twice(void) { return 1; }", Origin::User),
        (
            "int twice(void) { return 2; } int other(void) { return twice(); }",
            Origin::User,
        ),
    ]);
    check(
        &func(&p, "twice"),
        r#"
        fn twice: int()
          bb0:
            return #int
    "#,
    );
    assert!(p.unanalysed.is_empty());
}

#[test]
fn global_initializers_go_to_global_init_in_order() {
    let p = lower(
        "struct inner { int *a; int b[2]; };
         struct outer { int k; struct inner in; struct inner arr[2]; char name[8]; int *tail; };
         int x, y, z;
         int *tab[4] = { &x, [2] = &y, &z };
         struct outer o1 = { 1, { &x, { 2, 3 } }, { [1] = { .a = &y } }, \"hi\", &z };
         struct outer o2 = { 1, &x, 2, 3, &y, 4, 5, &z, 6, 7, \"ab\", &x };
         struct outer o3 = { .in.a = &x, .arr[1].b = { 1, 2 }, .tail = &y };
         char s1[] = \"abc\";
         char *s2 = \"abc\";
         union u { int *p; long l; } uu = { &x };
         int pick = 1 ? 2 : 3;
         int f(void) { static int count = 5; static int *pc = &count; count++; return *pc; }
         int last = 9;",
    );
    check(
        &func(&p, "<global-init>"),
        r#"
        fn <global-init>: void() static init
          local tmp0: int
          bb0:
            tab[] = &x
            tab[] = &y
            tab[] = &z
            o1.k = #int
            o1.in.a = &x
            o1.in.b[] = #int
            o1.in.b[] = #int
            o1.arr[].a = &y
            o1.name[] = #int
            o1.tail = &z
            o2.k = #int
            o2.in.a = &x
            o2.in.b[] = #int
            o2.in.b[] = #int
            o2.arr[].a = &y
            o2.arr[].b[] = #int
            o2.arr[].b[] = #int
            o2.arr[].a = &z
            o2.arr[].b[] = #int
            o2.arr[].b[] = #int
            o2.name[] = #int
            o2.tail = &x
            o3.in.a = &x
            o3.arr[].b[] = #int
            o3.arr[].b[] = #int
            o3.tail = &y
            s1[] = #int
            s2 = "abc"
            uu.p = &x
            tmp0 = #int
            pick = tmp0
            f.count = #int
            f.pc = &f.count
            last = #int
            return
    "#,
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: int()
          bb0:
            f.count = arith<int>(f.count, #int)
            return *f.pc
    "#,
    );
    let count = &p.vars[var(&p, "f.count")];
    assert_eq!(
        count.kind,
        VarKind::Global {
            thread_local: false,
            defined: true,
            is_static: true
        }
    );
    assert!(count.address_taken);
}

#[test]
fn local_initializers_are_assignments_in_place() {
    let p = lower(
        "struct pt { int x, y; int *p; };
         int g;
         void f(int n) {
           g = 1;
           int a = n, b[3] = { n, 2 };
           struct pt pt = { .y = n, .p = &g };
           char name[] = \"xy\";
           int vla[n + g];
           g = a + pt.x + vla[0];
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int)
          param n: int
          local a: int
          local b: int[] addr
          local pt: struct pt
          local name: char[] addr
          local vla: int[] addr
          bb0:
            g = #int
            a = n
            b[] = n
            b[] = #int
            pt.y = n
            pt.p = &g
            name[] = #int
            eval arith<int>(n, g)
            g = arith<int>(arith<int>(a, pt.x), vla[0])
            return
    "#,
    );
}

#[test]
fn try_lock_tests_acquire_on_the_success_edge() {
    let p = lower(
        "typedef struct { int x; } pthread_mutex_t;
         typedef int pthread_spinlock_t;
         typedef int pthread_rwlock_t;
         int pthread_mutex_trylock(pthread_mutex_t *m);
         int pthread_spin_trylock(pthread_spinlock_t *m);
         int pthread_rwlock_trywrlock(pthread_rwlock_t *m);
         pthread_mutex_t m, *mp;
         pthread_spinlock_t s;
         pthread_rwlock_t rw;
         int g;
         void eq(void) { if (pthread_mutex_trylock(&m) == 0) g = 1; }
         void zero_first(void) { if (0 == pthread_mutex_trylock(mp)) g = 1; }
         void negated(void) { if (!pthread_mutex_trylock(&m)) g = 1; }
         void ne(void) { if (pthread_mutex_trylock(&m) != 0) return; g = 1; }
         void alone(void) { if (pthread_spin_trylock(&s)) g = 2; else g = 1; }
         void assigned(void) { int r; if ((r = pthread_rwlock_trywrlock(&rw)) == 0) g = 1; }
         void in_and(int k) { if (k && pthread_mutex_trylock(&m) == 0) g = 1; }
         void in_or(int k) { if (k || pthread_mutex_trylock(&m)) return; g = 1; }
         void spin(void) { while (pthread_mutex_trylock(&m)) ; g = 1; }",
    );
    check(
        &func(&p, "eq"),
        r#"
        fn eq: void()
          local tmp0: int
          bb0:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb2
          bb1:
            return
          bb2:
            call __locksmith_acquire(&m)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "zero_first"),
        r#"
        fn zero_first: void()
          local tmp0: int
          bb0:
            tmp0 = call pthread_mutex_trylock(mp)
            if tmp0 then bb1 else bb2
          bb1:
            return
          bb2:
            call __locksmith_acquire(mp)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "negated"),
        r#"
        fn negated: void()
          local tmp0: int
          bb0:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb2
          bb1:
            return
          bb2:
            call __locksmith_acquire(&m)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "ne"),
        r#"
        fn ne: void()
          local tmp0: int
          bb0:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb2
          bb1:
            return
          bb2:
            call __locksmith_acquire(&m)
            g = #int
            return
    "#,
    );
    check(
        &func(&p, "alone"),
        r#"
        fn alone: void()
          local tmp0: int
          bb0:
            tmp0 = call pthread_spin_trylock(&s)
            if tmp0 then bb2 else bb3
          bb1:
            return
          bb2:
            g = #int
            goto bb1
          bb3:
            call __locksmith_acquire(&s)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "assigned"),
        r#"
        fn assigned: void()
          local r: int
          local tmp0: int
          bb0:
            tmp0 = call pthread_rwlock_trywrlock(&rw)
            r = tmp0
            if r then bb1 else bb2
          bb1:
            return
          bb2:
            call __locksmith_acquire(&rw)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "in_and"),
        r#"
        fn in_and: void(int)
          param k: int
          local tmp0: int
          bb0:
            if k then bb2 else bb1
          bb1:
            return
          bb2:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb3
          bb3:
            call __locksmith_acquire(&m)
            g = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "in_or"),
        r#"
        fn in_or: void(int)
          param k: int
          local tmp0: int
          bb0:
            if k then bb1 else bb2
          bb1:
            return
          bb2:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb3
          bb3:
            call __locksmith_acquire(&m)
            g = #int
            return
    "#,
    );
    check(
        &func(&p, "spin"),
        r#"
        fn spin: void()
          local tmp0: int
          bb0:
            goto bb1
          bb1:
            tmp0 = call pthread_mutex_trylock(&m)
            if tmp0 then bb1 else bb2
          bb2:
            call __locksmith_acquire(&m)
            g = #int
            return
    "#,
    );
    check(
        &func(&p, "__locksmith_acquire"),
        r#"
        fn __locksmith_acquire: void(void*) declared stub
    "#,
    );
}

#[test]
fn no_return_calls_end_the_block() {
    let p = lower(
        "void exit(int); void abort(void); void pthread_exit(void *);
         __attribute__((noreturn)) void die(const char *);
         _Noreturn void die2(void);
         void fatal(void) __attribute__((__noreturn__));
         int g, h;
         void f(int k) {
           if (k) exit(1);
           g = 1;
           if (k > 1) die(\"x\");
           if (k > 2) die2();
           if (k > 3) fatal();
           if (k > 4) abort();
           if (k > 5) pthread_exit(0);
           if (k > 6) __builtin_unreachable();
           h = 2;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int)
          param k: int
          bb0:
            if k then bb2 else bb1
          bb1:
            g = #int
            if arith<int>(k, #int) then bb4 else bb3
          bb2:
            call exit(#int)
            exit
          bb3:
            if arith<int>(k, #int) then bb6 else bb5
          bb4:
            call die("x")
            exit
          bb5:
            if arith<int>(k, #int) then bb8 else bb7
          bb6:
            call die2()
            exit
          bb7:
            if arith<int>(k, #int) then bb10 else bb9
          bb8:
            call fatal()
            exit
          bb9:
            if arith<int>(k, #int) then bb12 else bb11
          bb10:
            call abort()
            exit
          bb11:
            if arith<int>(k, #int) then bb14 else bb13
          bb12:
            call pthread_exit(#int)
            exit
          bb13:
            h = #int
            return
          bb14:
            exit
    "#,
    );
}

#[test]
fn short_circuit_conditions_and_values() {
    let p = lower(
        "int g, h;
         int f(int a, int b, int *p) {
           if (a && b) g = 1;
           if (a || !b) g = 2;
           if (p && *p) g = 3;
           g = a && b;
           a || (h = 1);
           return a ? b : g;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: int(int, int, int*)
          param a: int
          param b: int
          param p: int*
          local tmp0: int
          local tmp1: int
          bb0:
            if a then bb3 else bb1
          bb1:
            if a then bb5 else bb6
          bb2:
            g = #int
            goto bb1
          bb3:
            if b then bb2 else bb1
          bb4:
            if p then bb9 else bb7
          bb5:
            g = #int
            goto bb4
          bb6:
            if b then bb4 else bb5
          bb7:
            if a then bb13 else bb11
          bb8:
            g = #int
            goto bb7
          bb9:
            if *p then bb8 else bb7
          bb10:
            tmp0 = #int
            goto bb12
          bb11:
            tmp0 = #int
            goto bb12
          bb12:
            g = tmp0
            if a then bb15 else bb14
          bb13:
            if b then bb10 else bb11
          bb14:
            h = #int
            goto bb15
          bb15:
            if a then bb16 else bb17
          bb16:
            tmp1 = b
            goto bb18
          bb17:
            tmp1 = g
            goto bb18
          bb18:
            return tmp1
    "#,
    );
}

#[test]
fn switch_dispatches_to_every_case() {
    let p = lower(
        "int g, h;
         void f(int k) { switch (k) { case 0: g = 0; case 1: g = 1; break; case 2 ... 4: { h = 1; } } g = 9; }
         void d(int k) { switch (k + g) { default: g = 2; break; case 7: g = 7; } }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int)
          param k: int
          bb0:
            eval k
            switch bb2, bb3, bb4, bb1
          bb1:
            g = #int
            return
          bb2:
            g = #int
            goto bb3
          bb3:
            g = #int
            goto bb1
          bb4:
            h = #int
            goto bb1
    "#,
    );
    check(
        &func(&p, "d"),
        r#"
        fn d: void(int)
          param k: int
          bb0:
            eval arith<int>(k, g)
            switch bb2, bb3
          bb1:
            return
          bb2:
            g = #int
            goto bb1
          bb3:
            g = #int
            goto bb1
    "#,
    );
}

#[test]
fn loops_gotos_and_labels() {
    let p = lower(
        "int g, h;
         void loops(int n) {
           int i = 0;
           while (i < n) { if (i == 5) break; i++; }
           do { if (i == 3) continue; g++; } while (i++ < n);
           for (int j = 0; j < n; j++) { if (j == 2) continue; h += j; }
           for (;;) { if (g) break; }
         }
         void jumps(int k) { again: if (k) goto done; k--; goto again; done: g = 1; }
         void forever(void) { while (1) { h++; } }
         void never(void) { do { g = 1; } while (0); while (0) { h = 1; } }",
    );
    check(
        &func(&p, "loops"),
        r#"
        fn loops: void(int)
          param n: int
          local i: int
          local tmp0: int
          local j: int
          bb0:
            i = #int
            goto bb1
          bb1:
            if arith<int>(i, n) then bb2 else bb4
          bb2:
            if arith<int>(i, #int) then bb4 else bb3
          bb3:
            i = arith<int>(i, #int)
            goto bb1
          bb4:
            if arith<int>(i, #int) then bb5 else bb7
          bb5:
            tmp0 = i
            i = arith<int>(tmp0, #int)
            if arith<int>(tmp0, n) then bb4 else bb6
          bb6:
            j = #int
            goto bb8
          bb7:
            g = arith<int>(g, #int)
            goto bb5
          bb8:
            if arith<int>(j, n) then bb9 else bb12
          bb9:
            if arith<int>(j, #int) then bb10 else bb11
          bb10:
            j = arith<int>(j, #int)
            goto bb8
          bb11:
            h = arith<int>(h, j)
            goto bb10
          bb12:
            if g then bb13 else bb12
          bb13:
            return
    "#,
    );
    check(
        &func(&p, "jumps"),
        r#"
        fn jumps: void(int)
          param k: int
          bb0:
            goto bb1
          bb1:
            if k then bb3 else bb2
          bb2:
            k = arith<int>(k, #int)
            goto bb1
          bb3:
            g = #int
            return
    "#,
    );
    check(
        &func(&p, "forever"),
        r#"
        fn forever: void()
          bb0:
            goto bb1
          bb1:
            h = arith<int>(h, #int)
            goto bb1
    "#,
    );
    check(
        &func(&p, "never"),
        r#"
        fn never: void()
          bb0:
            g = #int
            return
    "#,
    );
}

#[test]
fn statement_expressions_and_conditionals() {
    let p = lower(
        "int g, h;
         int f(int k, int *p) {
           g = ({ int z = k * 2; h = z; z + 1; });
           ({ g = 1; });
           int *q = k ? p : 0;
           k ? (void)0 : (void)h;
           return k ? g : h;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: int(int, int*)
          param k: int
          param p: int*
          local z: int
          local q: int*
          local tmp0: int*
          local tmp1: int
          bb0:
            z = arith<int>(k, #int)
            h = z
            g = arith<int>(z, #int)
            g = #int
            if k then bb1 else bb2
          bb1:
            tmp0 = p
            goto bb3
          bb2:
            tmp0 = #int
            goto bb3
          bb3:
            q = tmp0
            if k then bb5 else bb4
          bb4:
            eval h
            goto bb5
          bb5:
            if k then bb6 else bb7
          bb6:
            tmp1 = g
            goto bb8
          bb7:
            tmp1 = h
            goto bb8
          bb8:
            return tmp1
    "#,
    );
}

#[test]
fn compound_literals_are_fresh_objects() {
    let p = lower(
        "struct pt { int x, y; int *p; };
         int g;
         struct pt *gp = &(struct pt){ 1, 2, &g };
         int *f(int k) {
           struct pt *p = &(struct pt){ .y = k, .p = &g };
           int *a = (int[]){ 1, k };
           g = ((struct pt){ 3, k }).y;
           return a;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: int*(int)
          param k: int
          local p: struct pt*
          local tmp0: struct pt addr
          local a: int*
          local tmp1: int[] addr
          local tmp2: struct pt
          bb0:
            tmp0.y = k
            tmp0.p = &g
            p = &tmp0
            tmp1[] = #int
            tmp1[] = k
            a = &tmp1
            tmp2.x = #int
            tmp2.y = k
            g = tmp2.y
            return a
    "#,
    );
    check(
        &func(&p, "<global-init>"),
        r#"
        fn <global-init>: void() static init
          bb0:
            <compound-literal>.x = #int
            <compound-literal>.y = #int
            <compound-literal>.p = &g
            gp = &<compound-literal>
            return
    "#,
    );
    let lit = var(&p, "<compound-literal>");
    assert!(matches!(
        p.vars[lit].kind,
        VarKind::Global {
            is_static: true,
            ..
        }
    ));
    assert!(p.vars[lit].address_taken);
}

#[test]
fn builtins_varargs_generic_and_asm() {
    let p = lower(
        "typedef __builtin_va_list va_list;
         struct S { int a, b; };
         int g, h;
         int sum(int n, ...) {
           va_list ap;
           __builtin_va_start(ap, n);
           int s = __builtin_va_arg(ap, int);
           __builtin_va_end(ap);
           return s;
         }
         void misc(int k, int *p) {
           g = _Generic(k, int: h, default: k);
           g = _Generic(p, int *: k, default: h);
           if (__builtin_expect(k > 2, 0)) g = 1;
           h = __builtin_offsetof(struct S, b);
           __asm__ volatile (\"\" : \"=r\"(g) : \"r\"(h + 1), \"m\"(*p));
           __asm__(\"nop\");
           g = __builtin_clz(k);
         }",
    );
    check(
        &func(&p, "sum"),
        r#"
        fn sum: int(int, ...)
          param n: int
          local ap: void*
          local s: int
          bb0:
            call __builtin_va_start(ap, n)
            s = va_arg<int>(ap)
            call __builtin_va_end(ap)
            return s
    "#,
    );
    check(
        &func(&p, "misc"),
        r#"
        fn misc: void(int, int*)
          param k: int
          param p: int*
          local tmp0: int
          bb0:
            g = h
            g = k
            if arith<int>(k, #int) then bb2 else bb1
          bb1:
            h = #int
            eval arith<int>(h, #int)
            asm(g, *p)
            asm()
            tmp0 = call __builtin_clz(k)
            g = tmp0
            return
          bb2:
            g = #int
            goto bb1
    "#,
    );
}

#[test]
fn block_scopes_shadow_and_extern_declarations_link() {
    let p = lower(
        "int g, h;
         typedef int T;
         void f(void) {
           { int i = 1; g = i; }
           { int i = 2; h = i; }
           { extern int g; int h = g; T T = 3; g = T + h; }
         }",
    );
    let is = vars_named(&p, "i");
    assert_eq!(is.len(), 2);
    assert!(is
        .iter()
        .all(|v| p.vars[*v].kind == VarKind::Local(func_id(&p, "f"))));
    let hs = vars_named(&p, "h");
    assert_eq!(hs.len(), 2);
    assert!(matches!(p.vars[hs[0]].kind, VarKind::Global { .. }));
    assert_eq!(vars_named(&p, "g").len(), 1);
    check(
        &func(&p, "f"),
        r#"
        fn f: void()
          local i: int
          local i: int
          local h: int
          local T: int
          bb0:
            i = #int
            g = i
            i = #int
            h = i
            h = g
            T = #int
            g = arith<int>(T, h)
            return
    "#,
    );
    let f = &p.funcs[func_id(&p, "f")];
    let assigned: Vec<VarId> = f.blocks[c_frontend::ir::BlockId(0)]
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { dst, .. } => match dst.base {
                Base::Var(v) => Some(v),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(assigned[0], is[0]);
    assert_eq!(assigned[2], is[1]);
    assert_eq!(assigned[3], hs[0]);
    assert_eq!(assigned[4], hs[1]);
}

#[test]
fn unsupported_functions_are_reported_and_kept_declared() {
    let p = lower(
        "int g;
         void ok1(void) { g = 1; }
         void bad1(void) { g = 2; goto nowhere; }
         void bad2(void) { g = undeclared + 1; }
         void bad3(void) { break; }
         void bad4(int k) { switch (k) { case 1: ; } case 2: ; }
         void bad5(void) { struct q { int a; } s; s.b = 1; }
         void bad6(void) { static int z = nosuch; }
         int gbad = nosuch2;
         void ok2(void) { bad1(); g = 3; }",
    );
    let names: Vec<&str> = p.unanalysed.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(
        names,
        ["bad1", "bad2", "bad3", "bad4", "bad5", "bad6", "gbad"]
    );
    for u in &p.unanalysed[..6] {
        let f = &p.funcs[func_id(&p, &u.name)];
        assert!(!f.defined && f.blocks.is_empty() && f.params.is_empty() && f.locals.is_empty());
        assert_eq!(u.pos, f.pos);
    }
    assert_eq!(
        p.unanalysed[0].reason,
        "`goto nowhere` names no label of the function (line 3, column 35)"
    );
    assert_eq!(
        p.unanalysed[1].reason,
        "undeclared identifier `undeclared` (line 4, column 32)"
    );
    assert_eq!(p.unanalysed[6].reason, "undeclared identifier `nosuch2`");
    check(
        &func(&p, "ok2"),
        r#"
        fn ok2: void()
          bb0:
            call bad1()
            g = #int
            return
    "#,
    );
    assert!(p.funcs[func_id(&p, "ok1")].defined);
}

#[test]
fn positions_of_accesses_variables_and_functions() {
    let text = "# 1 \"main.c\"\nstruct s { int f; };\n# 1 \"defs.h\" 1\nint g;\n# 3 \"main.c\" 2\nvoid f(struct s *p)\n{\n  p->f = g;\n  if (g) return;\n}\n";
    let mut files = FileTable::new();
    let parse =
        lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), text.to_string())
            .unwrap();
    let map = SourceMap::new(text, "unit.i", &mut files);
    let mut lw = Lowerer::new();
    lw.add_unit(&parse.unit, &map, Origin::User);
    let p = lw.finish(files, Vec::new());
    let at = |pos: c_frontend::ir::Pos| (p.files[pos.file].clone(), pos.line, pos.column);
    assert_eq!(at(p.vars[var(&p, "g")].pos), ("defs.h".into(), 1, 5));
    assert_eq!(at(p.vars[var(&p, "p")].pos), ("main.c".into(), 3, 18));
    let f = &p.funcs[func_id(&p, "f")];
    assert_eq!(at(f.pos), ("main.c".into(), 3, 6));
    let b0 = &f.blocks[c_frontend::ir::BlockId(0)];
    let StmtKind::Assign { dst, src } = &b0.stmts[0].kind else {
        panic!("assignment first")
    };
    assert_eq!(at(b0.stmts[0].pos), ("main.c".into(), 5, 3));
    assert_eq!(at(dst.pos), ("main.c".into(), 5, 3));
    let Base::Deref(ptr) = &dst.base else {
        panic!("p->f dereferences p")
    };
    let Operand::Use(plv) = &**ptr else {
        panic!("p is read")
    };
    assert_eq!(at(plv.pos), ("main.c".into(), 5, 3));
    let Operand::Use(glv) = src else {
        panic!("g is read")
    };
    assert_eq!(at(glv.pos), ("main.c".into(), 5, 10));
    let Term::Branch { pos, .. } = &b0.term else {
        panic!("if")
    };
    assert_eq!(at(*pos), ("main.c".into(), 6, 7));
    let returns: Vec<_> = f
        .blocks
        .iter()
        .filter_map(|b| match &b.term {
            Term::Return(None, pos) => Some(at(*pos)),
            _ => None,
        })
        .collect();
    let mut returns = returns;
    returns.sort();
    assert_eq!(returns, [("main.c".into(), 6, 10), ("main.c".into(), 7, 1)]);
}

#[test]
fn deep_else_if_chains_and_expressions_do_not_overflow() {
    let n = 20000;
    let mut text = String::from("int g, h;\nvoid f(int x) {\n");
    for i in 0..n {
        text.push_str(&format!(
            "  {}if (x == {i}) g = {i};\n",
            if i == 0 { "" } else { "else " }
        ));
    }
    text.push_str("  h = 0");
    for _ in 0..n {
        text.push_str(" + x");
    }
    text.push_str(";\n  if (x");
    for _ in 0..n {
        text.push_str(" && g");
    }
    text.push_str(") h = 1;\n}\n");
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let p = lower(&text);
            p.funcs[func_id(&p, "f")].blocks.len()
        })
        .expect("spawn");
    assert_eq!(handle.join().expect("no stack overflow"), 3 * n + 3);
}
/// The programs of the repository's corpus: each race fixture alone, and each directory of
/// `tests/programs/` as one program of several units.
fn corpus() -> Vec<Vec<std::path::PathBuf>> {
    fn c_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        entries
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for group in c_files(&root.join("tests/races")) {
        for f in c_files(&group) {
            if f.extension().is_some_and(|e| e == "c") {
                out.push(vec![f]);
            }
        }
    }
    for program in c_files(&root.join("tests/programs")) {
        let units: Vec<_> = c_files(&program)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "c"))
            .collect();
        if !units.is_empty() {
            out.push(units);
        }
    }
    out
}

fn preprocess(path: &std::path::Path) -> String {
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../libc-stubs/include");
    let out = std::process::Command::new("gcc")
        .args([
            "-E",
            "-D__thread=_Thread_local",
            "-D__extension__=",
            "-D__int128=long",
            "-D__int128_t=long",
            "-D__uint128_t=unsigned long",
            "-D__float128=_Float128",
            "-D__builtin_types_compatible_p(a,b)=0",
            "-D__LOCKSMITH__",
        ])
        .arg(format!("-I{}", include.display()))
        .arg(path)
        .output()
        .expect("gcc runs");
    assert!(out.status.success(), "gcc -E failed on {}", path.display());
    String::from_utf8(out.stdout).expect("preprocessed text is UTF-8")
}

#[test]
fn corpus_lowers_without_unanalysed_functions() {
    if std::process::Command::new("gcc")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("gcc not available: skipping");
        return;
    }
    let programs = corpus();
    assert!(programs.len() > 100, "found {} programs", programs.len());
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut problems = Vec::new();
            for units in programs {
                let mut ft = FileTable::new();
                let mut lw = Lowerer::new();
                for path in &units {
                    let name = path.display().to_string();
                    let parse = c_frontend::syntax::parse::parse_unit(
                        c_frontend::syntax::preprocess::Preprocessed {
                            name: name.clone(),
                            text: preprocess(path),
                        },
                    )
                    .unwrap_or_else(|e| panic!("{}: parse error {e:?}", path.display()));
                    assert!(
                        parse.dropped.is_empty(),
                        "{name}: recovery dropped {:?}",
                        parse.dropped
                    );
                    let map = SourceMap::new(&parse.text, &name, &mut ft);
                    lw.add_unit(&parse.unit, &map, Origin::User);
                }
                let p = lw.finish(ft, Vec::new());
                for u in &p.unanalysed {
                    problems.push(format!(
                        "{}: {} at {}:{}: {}",
                        p.files[u.pos.file], u.name, u.pos.line, u.pos.column, u.reason
                    ));
                }
                check_invariants(&p);
                let mains = p
                    .funcs
                    .iter()
                    .filter(|f| f.name == "main" && f.defined)
                    .count();
                assert_eq!(mains, 1, "{}: one main", units[0].display());
            }
            problems
        })
        .expect("spawn");
    let problems = handle.join().expect("no panic while lowering the corpus");
    assert!(problems.is_empty(), "unanalysed:\n{}", problems.join("\n"));
}

/// Structural invariants of the IR (see the module doc of `ir`).
fn check_invariants(p: &Program) {
    use c_frontend::ir::ctypes::Type;
    use c_frontend::ir::{Base, Callee, Lval, Operand, StmtKind, Term};
    fn lval(p: &Program, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            operand(p, op);
        }
    }
    fn operand(p: &Program, op: &Operand) {
        match op {
            Operand::Use(lv) => {
                lval(p, lv);
                assert!(
                    !matches!(p.types.get(p.lval_type(lv)), Type::Array(_)),
                    "Use of an array"
                );
            }
            Operand::AddrOf(lv) => {
                lval(p, lv);
                let t = p.operand_type(op);
                assert!(
                    matches!(p.types.get(t), Type::Pointer(_)),
                    "address type not interned"
                );
                if let Base::Var(v) = lv.base {
                    assert!(
                        p.vars[v].address_taken,
                        "address of {} taken",
                        p.vars[v].name
                    );
                }
            }
            Operand::Func(_) | Operand::Str(_) => {
                let t = p.operand_type(op);
                assert!(
                    matches!(p.types.get(t), Type::Pointer(_)),
                    "pointer type not interned"
                );
            }
            Operand::Cast(_, o) | Operand::VaArg(_, o) => operand(p, o),
            Operand::Arith(_, _, ops) => ops.iter().for_each(|o| operand(p, o)),
            Operand::Const(..) => {}
        }
    }
    for (fid, f) in p.funcs.iter_enumerated() {
        assert_eq!(
            f.defined,
            !f.blocks.is_empty(),
            "{}: defined iff it has blocks",
            f.name
        );
        for (i, v) in f.params.iter().enumerate() {
            assert_eq!(
                p.vars[*v].kind,
                c_frontend::ir::VarKind::Param(fid, i as u32)
            );
        }
        for b in f.blocks.iter() {
            for s in &b.stmts {
                match &s.kind {
                    StmtKind::Assign { dst, src } => {
                        lval(p, dst);
                        operand(p, src);
                    }
                    StmtKind::Call { dst, callee, args } => {
                        if let Some(d) = dst {
                            lval(p, d);
                        }
                        if let Callee::Indirect(op) = callee {
                            operand(p, op);
                        }
                        args.iter().for_each(|a| operand(p, a));
                    }
                    StmtKind::Eval(op) => operand(p, op),
                    StmtKind::Asm { operands } => operands.iter().for_each(|l| lval(p, l)),
                }
            }
            let n = f.blocks.len() as u32;
            match &b.term {
                Term::Goto(t) => assert!(t.0 < n),
                Term::Branch {
                    cond,
                    then_block,
                    else_block,
                    ..
                } => {
                    operand(p, cond);
                    assert!(then_block.0 < n && else_block.0 < n);
                }
                Term::Multi(ts, _) => assert!(ts.iter().all(|t| t.0 < n)),
                Term::Return(Some(op), _) => operand(p, op),
                _ => {}
            }
        }
    }
}

#[test]
fn address_of_dereference_and_struct_values() {
    let p = lower(
        "struct pt { int x, y; };
         struct pt make(int);
         const char *name;
         int g, *gp;
         void f(int *q) {
           q = &*q;
           g = *&g;
           gp = &g;
           g = make(1).y;
           g = (g ? make(2) : make(3)).x;
           name = __func__;
         }",
    );
    check(
        &func(&p, "f"),
        r#"
        fn f: void(int*)
          param q: int*
          local tmp0: struct pt
          local tmp1: struct pt
          local tmp2: struct pt
          local tmp3: struct pt
          bb0:
            q = q
            g = g
            gp = &g
            tmp0 = call make(#int)
            g = tmp0.y
            if g then bb1 else bb2
          bb1:
            tmp1 = call make(#int)
            tmp3 = tmp1
            goto bb3
          bb2:
            tmp2 = call make(#int)
            tmp3 = tmp2
            goto bb3
          bb3:
            g = tmp3.x
            name = "f"
            return
    "#,
    );
    assert!(p.vars[var(&p, "g")].address_taken);
    assert!(!p.vars[var(&p, "q")].address_taken);
}

/// Where accessed expressions end (`Program::extents`): the longest lvalue or call starting at a
/// position, without the white space lang-c's spans take in after an identifier, and nothing
/// for an expression continued on the next line.
#[test]
fn extents_end_each_accessed_expression() {
    let text = "struct s { int x; int y[3]; struct s *n; };\n\
                struct s g, *gp; int v, *q;\n\
                int f(int a);\n\
                void h(void) {\n\
                v = 1; v += 2 ; *q = 3;\n\
                (*gp).x = 4; gp->y[1] = 5; gp->n->x = v ;\n\
                g . x = f(v) + f(\n\
                2);\n\
                }\n";
    let p = lower(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut extents: Vec<(u32, String)> = p
        .extents
        .iter()
        .map(|(pos, &end)| {
            let line = lines[pos.line as usize - 1];
            let range = pos.column as usize - 1..end as usize - 1;
            (pos.line, line[range].to_string())
        })
        .collect();
    extents.sort();
    let shown: Vec<String> = extents.iter().map(|(l, e)| format!("{l}: {e}")).collect();
    assert_eq!(
        shown,
        [
            "5: *q",
            "5: q",
            "5: v",
            "5: v",
            "6: (*gp).x",
            "6: gp",
            "6: gp->n->x",
            "6: gp->y[1]",
            "6: v",
            "7: f(v)",
            "7: g . x",
            "7: v",
        ],
        "{extents:?}"
    );
}

/// A `switch` keeps which values go to each target: its labels' (merged where two land on one
/// block), and `None` for the default or the end.
#[test]
fn switch_keeps_the_values_of_its_cases() {
    let p = lower(
        "int g;
         void f(int k) { switch (k) { case 1: case 2: g = 1; break; case 3 ... 5: g = 3; } }
         void e(int k) { switch (k) { case -1: g = 1; default: g = 2; } }",
    );
    let cases = |name: &str| {
        let (_, func) = (p.funcs.iter_enumerated())
            .find(|(_, f)| f.name == name)
            .expect("defined");
        match &func.blocks[c_frontend::ir::BlockId(0)].term {
            Term::Multi(targets, Some(cases)) => (targets.len(), cases.0.clone()),
            other => panic!("not a switch: {other:?}"),
        }
    };
    assert_eq!(
        cases("f"),
        (
            3,
            vec![Some(vec![(1, 1), (2, 2)]), Some(vec![(3, 5)]), None]
        )
    );
    assert_eq!(cases("e"), (2, vec![Some(vec![(-1, -1)]), None]));
    let c = c_frontend::ir::Cases(vec![Some(vec![(1, 2)]), None, Some(vec![(7, 7)])]);
    assert_eq!(c.target_of(2), Some(0));
    assert_eq!(c.target_of(7), Some(2));
    assert_eq!(c.target_of(3), Some(1));
}
