//! Tests of ownership handed over through locked lists (`analyses/unpacks/lists.rs`): the takes
//! and publications it accepts, and each condition of its soundness argument that, broken,
//! leaves the worker's node unowned.

mod support;

use c_frontend::analyses::unpacks::{analyse_ownership, enclosing, OwningPlaces, Package};
use c_frontend::ir::{Base, Lval, Operand, Program, StmtKind};

const PRELUDE: &str = "typedef unsigned long pthread_t;
    typedef union { char c[40]; long l; } pthread_mutex_t;
    int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
    int pthread_join(pthread_t, void **);
    int pthread_mutex_lock(pthread_mutex_t *);
    int pthread_mutex_unlock(pthread_mutex_t *);
    void *malloc(unsigned long);
    void free(void *);
    void *memset(void *, int, unsigned long);
    struct node { int in, out; struct node *next; };
    pthread_mutex_t m, other;
    struct node *head, *tail;
";

/// `get` takes a node off the list (`GET`), `put` appends one (`PUT`), the worker computes on
/// what it took; `EXTRA` is more code in `main`, `MORE` more functions.
const PROGRAM: &str = "
struct node *get(void) {
    struct node *t;
    GET
    return t;
}
void put(struct node *n) {
    PUT
}
MORE
void *work(void *arg) {
    struct node *t = get();
    if (t != 0)
        t->out = t->in;
    return arg;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, work, 0);
    pthread_create(&b, 0, work, 0);
    struct node *n = malloc(sizeof *n);
    n->in = 1;
    put(n);
    EXTRA;
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
";

const GET: &str = "pthread_mutex_lock(&m);
    t = head;
    if (t != 0) {
        head = t->next;
        if (head == 0)
            tail = 0;
    }
    pthread_mutex_unlock(&m);";

const APPEND: &str = "n->next = 0;
    pthread_mutex_lock(&m);
    if (tail != 0)
        tail->next = n;
    else
        head = n;
    tail = n;
    pthread_mutex_unlock(&m);";

const PUSH: &str = "pthread_mutex_lock(&m);
    n->next = head;
    head = n;
    pthread_mutex_unlock(&m);";

/// Whether the worker's store into `t->out` is owned.
fn owned(get: &str, put: &str, extra: &str, more: &str) -> bool {
    owned_in(&fill(PROGRAM, get, put, extra, more))
}

/// `program` with its placeholders filled in, after the prelude.
fn fill(program: &str, get: &str, put: &str, extra: &str, more: &str) -> String {
    format!(
        "{PRELUDE}{}",
        program
            .replace("GET", get)
            .replace("PUT", put)
            .replace("EXTRA", extra)
            .replace("MORE", more)
    )
}

/// Whether the first store through a pointer in `work` of the program `text` holds the owned
/// package.
fn owned_in(text: &str) -> bool {
    first_store_owned(text, "work", &|_, dst| matches!(dst.base, Base::Deref(_)))
}

/// Whether the first store of function `func` of the program `text` whose destination `pick`
/// accepts lies inside the owned package.
fn first_store_owned(text: &str, func: &str, pick: &dyn Fn(&Program, &Lval) -> bool) -> bool {
    let p = support::lower(text);
    let (main, f) = (support::defined(&p, "main"), support::defined(&p, func));
    let calls = c_frontend::analyses::calls::Calls::of(&p);
    let owning = OwningPlaces::of(&p, &calls);
    let mut unpacks = support::unpacks_of(&p, main);
    analyse_ownership(&p, &calls, main, &mut unpacks);
    let Some(u) = unpacks.get(&f) else {
        return false;
    };
    let owned = p.funcs[f]
        .blocks
        .iter_enumerated()
        .find_map(|(b, block)| {
            block
                .stmts
                .iter()
                .enumerate()
                .find_map(|(k, stmt)| match &stmt.kind {
                    StmtKind::Assign { dst, .. } if pick(&p, dst) => Some(
                        enclosing(&p, f, &owning, u.before(b, k), dst)
                            .is_some_and(|h| h.package == Package::Owned),
                    ),
                    _ => None,
                })
        })
        .expect("a store");
    owned
}

#[test]
fn the_forms_of_a_take_and_a_publication() {
    assert!(owned(GET, APPEND, "", ""));
    assert!(owned(GET, PUSH, "", ""));
    // The unlink through the head, and a take that returns at once when the list is empty.
    let through_head = "pthread_mutex_lock(&m);
        t = head;
        if (t != 0)
            head = head->next;
        pthread_mutex_unlock(&m);";
    assert!(owned(through_head, PUSH, "", ""));
    let early = "pthread_mutex_lock(&m);
        t = head;
        if (!t) { pthread_mutex_unlock(&m); return 0; }
        head = t->next;
        pthread_mutex_unlock(&m);";
    assert!(owned(early, APPEND, "", ""));
    // Emptying the list, and clearing a node's link, anywhere.
    assert!(owned(GET, APPEND, "head = 0; tail = 0", ""));
}

#[test]
fn a_take_that_may_not_unlink_is_none() {
    // A peek: the node stays on the list.
    let peek = "pthread_mutex_lock(&m); t = head; pthread_mutex_unlock(&m);";
    assert!(!owned(peek, APPEND, "", ""));
    // The unlink after the mutex was released.
    let late = "pthread_mutex_lock(&m);
        t = head;
        pthread_mutex_unlock(&m);
        if (t != 0) head = t->next;";
    assert!(!owned(late, APPEND, "", ""));
    // No mutex at all.
    let bare = "t = head; if (t != 0) head = t->next;";
    assert!(!owned(bare, APPEND, "", ""));
    // The unlink only on some paths where the node is there.
    let sometimes = "pthread_mutex_lock(&m);
        t = head;
        if (t != 0 && t->in > 0)
            head = t->next;
        pthread_mutex_unlock(&m);";
    assert!(!owned(sometimes, APPEND, "", ""));
    // A call between the read and the unlink (it may release the mutex).
    let call = "pthread_mutex_lock(&m);
        t = head;
        if (t != 0) { pthread_mutex_unlock(&m); pthread_mutex_lock(&m); head = t->next; }
        pthread_mutex_unlock(&m);";
    assert!(!owned(call, APPEND, "", ""));
}

#[test]
fn a_list_any_store_may_corrupt_is_not_followed() {
    // A publication without the mutex.
    let bare_push = "n->next = head; head = n;";
    assert!(!owned(GET, bare_push, "", ""));
    // A push under another mutex than the takes'.
    let other =
        "pthread_mutex_lock(&other); n->next = head; head = n; pthread_mutex_unlock(&other);";
    assert!(!owned(GET, other, "", ""));
    // An append whose link was not cleared.
    let dirty = "pthread_mutex_lock(&m);
        if (tail != 0) tail->next = n; else head = n;
        tail = n;
        pthread_mutex_unlock(&m);";
    assert!(!owned(GET, dirty, "", ""));
    // The node published twice: after the first, `main` no longer owns it.
    assert!(!owned(GET, APPEND, "put(n)", ""));
    // A node stored into a link by someone not owning it.
    assert!(!owned(
        GET,
        APPEND,
        "pthread_mutex_lock(&m); if (head) head->next = n; pthread_mutex_unlock(&m)",
        ""
    ));
    // The head's address taken, and a link's.
    assert!(!owned(GET, APPEND, "struct node **h = &head; *h = n", ""));
    assert!(!owned(
        GET,
        APPEND,
        "struct node **l = &n->next; (void)l",
        ""
    ));
    // A whole node copied over a node that is not owned.
    assert!(!owned(
        GET,
        APPEND,
        "pthread_mutex_lock(&m); if (head) *head = *n; pthread_mutex_unlock(&m)",
        ""
    ));
    // A library function given a node nobody owns.
    assert!(!owned(
        GET,
        APPEND,
        "pthread_mutex_lock(&m); if (head) memset(head, 0, 8); pthread_mutex_unlock(&m)",
        ""
    ));
    // A node converted and kept as another pointer type.
    assert!(!owned(
        GET,
        APPEND,
        "",
        "void *keep; void hide(struct node *x) { keep = (void *)x; }"
    ));
}

#[test]
fn ownership_ends_where_the_pointer_is_let_go() {
    // The worker stores its node before writing it: the write is no longer owned.
    for (store, expected) in [("seen = t", false), ("free(0)", true)] {
        let program = PROGRAM.replace(
            "t->out = t->in;",
            &format!("{{ {store}; t->out = t->in; }}"),
        );
        let text = fill(&program, GET, APPEND, "", "void *seen;");
        assert_eq!(owned_in(&text), expected, "{store}");
    }
}

/// A list whose head lies in a pool object the workers are handed: `get` takes from `q`
/// (`GET`), `put` appends to it (`PUT`); `EXTRA` is more code in `main`, `MORE` more functions.
const POOL_PROGRAM: &str = "
struct pool { pthread_mutex_t m; struct node *head, *tail; };
MORE
struct node *get(struct pool *q) {
    struct node *t;
    GET
    return t;
}
void put(struct pool *q, struct node *n) {
    PUT
}
void *work(void *arg) {
    struct node *t = get(arg);
    if (t != 0)
        t->out = t->in;
    return arg;
}
int main(void) {
    pthread_t a, b;
    struct pool *q = malloc(sizeof *q);
    q->head = 0;
    q->tail = 0;
    pthread_create(&a, 0, work, q);
    pthread_create(&b, 0, work, q);
    struct node *n = malloc(sizeof *n);
    n->in = 1;
    put(q, n);
    EXTRA;
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
";

const POOL_GET: &str = "pthread_mutex_lock(&q->m);
    t = q->head;
    if (t != 0) {
        q->head = t->next;
        if (q->head == 0)
            q->tail = 0;
    }
    pthread_mutex_unlock(&q->m);";

const POOL_APPEND: &str = "n->next = 0;
    pthread_mutex_lock(&q->m);
    if (q->tail != 0)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    pthread_mutex_unlock(&q->m);";

/// Whether the worker's store into `t->out` is owned, with the pool program.
fn pool_owned(get: &str, put: &str, extra: &str, more: &str) -> bool {
    owned_in(&fill(POOL_PROGRAM, get, put, extra, more))
}

#[test]
fn a_head_in_an_object_under_its_own_mutex() {
    assert!(pool_owned(POOL_GET, POOL_APPEND, "", ""));
    let push =
        "pthread_mutex_lock(&q->m); n->next = q->head; q->head = n; pthread_mutex_unlock(&q->m);";
    assert!(pool_owned(POOL_GET, push, "", ""));
    // A global mutex guarding every pool works too.
    let get = POOL_GET.replace("&q->m", "&m");
    assert!(pool_owned(
        &get,
        &POOL_APPEND.replace("&q->m", "&m"),
        "",
        ""
    ));
}

#[test]
fn a_head_in_an_object_any_store_may_corrupt_is_not_followed() {
    // The take under another object's mutex.
    let other = "struct pool *o = q + 1;
        pthread_mutex_lock(&o->m);
        t = q->head;
        if (t != 0) q->head = t->next;
        pthread_mutex_unlock(&o->m);";
    assert!(!pool_owned(other, POOL_APPEND, "", ""));
    // The pool pointer moved between the read and the unlink.
    let moved = "pthread_mutex_lock(&q->m);
        t = q->head;
        if (t != 0) { q = q + 0; q->head = t->next; }
        pthread_mutex_unlock(&q->m);";
    assert!(!pool_owned(moved, POOL_APPEND, "", ""));
    // A head stored through another way of naming it, and a whole pool copied over one.
    let pools = "struct pool pools[2]; void reset(struct node *x) { pools[1].head = x; }";
    assert!(!pool_owned(POOL_GET, POOL_APPEND, "", pools));
    let nested =
        "struct outer { int k; struct pool p; } o; void f(struct node *x) { o.p.head = x; }";
    assert!(!pool_owned(POOL_GET, POOL_APPEND, "", nested));
    let copy = "void copy(struct pool *a, struct pool *b) { *a = *b; }";
    assert!(!pool_owned(POOL_GET, POOL_APPEND, "", copy));
    // A library function that may write a pool nobody owns.
    assert!(!pool_owned(
        POOL_GET,
        POOL_APPEND,
        "memset(q, 0, sizeof *q)",
        ""
    ));
}

/// Whether `put`'s store through `tail` (the append) holds the owned package: the tail points
/// to no node anyone owns.
fn append_owned(get: &str, put: &str, extra: &str, more: &str) -> bool {
    let through_tail = |p: &Program, dst: &Lval| {
        matches!(&dst.base, Base::Deref(op)
            if op.plain_var().is_some_and(|v| p.vars[v].name == "tail"))
    };
    first_store_owned(&fill(PROGRAM, get, put, extra, more), "put", &through_tail)
}

#[test]
fn an_append_through_a_tail_that_never_points_to_an_owned_node() {
    assert!(append_owned(GET, APPEND, "", ""));
    // The take does not reset the tail when it empties the list.
    let no_reset = GET.replace("if (head == 0)\n            tail = 0;", "");
    assert!(!append_owned(&no_reset, APPEND, "", ""));
    // The append does not move the tail.
    let unmoved = APPEND.replace("tail = n;", "");
    assert!(!append_owned(GET, &unmoved, "", ""));
    // The tail set to a node pushed in front of the list.
    let pushed = APPEND.replace("tail = n;", "n->next = head; head = n; tail = n;");
    assert!(!append_owned(GET, &pushed, "", ""));
    // The tail's address taken, and the tail set to a node nobody published.
    assert!(!append_owned(
        GET,
        APPEND,
        "struct node **t = &tail; (void)t",
        ""
    ));
    let elsewhere =
        "void set(struct node *x) { pthread_mutex_lock(&m); tail = x; pthread_mutex_unlock(&m); }";
    assert!(!append_owned(GET, APPEND, "", elsewhere));
}

/// Whether `put`'s store through `q->tail` (the append) holds the owned package, with the pool
/// program: the member tail points to no node anyone owns.
fn member_append_owned(get: &str, put: &str, extra: &str, more: &str) -> bool {
    let through_member = |_: &Program, dst: &Lval| match &dst.base {
        Base::Deref(op) => matches!(op.without_casts(), Operand::Use(lv)
            if matches!(lv.base, Base::Deref(_)) && !lv.proj.is_empty()),
        Base::Var(_) => false,
    };
    first_store_owned(
        &fill(POOL_PROGRAM, get, put, extra, more),
        "put",
        &through_member,
    )
}

#[test]
fn an_append_through_a_member_tail_that_never_points_to_an_owned_node() {
    assert!(member_append_owned(POOL_GET, POOL_APPEND, "", ""));
    // The take does not reset the tail when it empties the list, or resets it on another test.
    let no_reset = POOL_GET.replace("if (q->head == 0)\n            q->tail = 0;", "");
    assert_ne!(no_reset, POOL_GET);
    assert!(!member_append_owned(&no_reset, POOL_APPEND, "", ""));
    let other_test = POOL_GET.replace("if (q->head == 0)", "if (t->in == 0)");
    assert!(!member_append_owned(&other_test, POOL_APPEND, "", ""));
    // The append does not move the tail, or moves it after the section.
    let unmoved = POOL_APPEND.replace("q->tail = n;", "");
    assert!(!member_append_owned(POOL_GET, &unmoved, "", ""));
    let late = POOL_APPEND.replace(
        "q->tail = n;\n    pthread_mutex_unlock(&q->m);",
        "pthread_mutex_unlock(&q->m);\n    q->tail = n;",
    );
    assert_ne!(late, POOL_APPEND);
    assert!(!member_append_owned(POOL_GET, &late, "", ""));
    // The tail's address taken, and a tail set to a node nobody published into its pool.
    assert!(!member_append_owned(
        POOL_GET,
        POOL_APPEND,
        "struct node **t = &q->tail; (void)t",
        ""
    ));
    let elsewhere = "void set(struct pool *o, struct node *x) { o->tail = x; }";
    assert!(!member_append_owned(POOL_GET, POOL_APPEND, "", elsewhere));
}
