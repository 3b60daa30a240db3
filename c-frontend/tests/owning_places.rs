//! Owning places (`c_frontend::analyses::unpacks::OwningPlaces`): a pointer member, or the
//! elements of the blocks one points to, owns its blocks when every store puts a fresh block
//! there and every read only dereferences, compares or frees it — never when a store puts a
//! pointer from elsewhere, a read is kept, the place's address is taken, the holding struct is
//! copied, or a reallocation may hand back a block another place holds.

mod support;

use c_frontend::analyses::unpacks::OwningPlaces;
use support::lower;

const DECLARATIONS: &str = "typedef unsigned long size_t;
void *malloc(size_t);
void *realloc(void *, size_t);
void free(void *);
void *memcpy(void *, const void *, size_t);
char *strncpy(char *, const char *, size_t);
size_t strlen(const char *);
struct item { int v; };
";

/// The owning places of a program (after [`DECLARATIONS`]).
fn owning(source: &str) -> Vec<String> {
    let mut p = lower(&format!("{DECLARATIONS}{source}"));
    // What the driver finds before the front-end analyses run.
    p.alloc_wrappers = c_frontend::analyses::alloc_wrappers::find(&p);
    p.non_capturing_functions = c_frontend::analyses::stub_captures::non_capturing_functions(&p);
    OwningPlaces::of(&p, &c_frontend::analyses::calls::Calls::of(&p)).names(&p)
}

const RECORD: &str = "struct rec { struct item **items; char *name; int n; };
struct rec *r;
void fill(const char *s) {
    int k;
    r->items = malloc(4 * sizeof(struct item *));
    for (k = 0; k < 4; k++) {
        r->items[k] = malloc(sizeof(struct item));
        r->items[k]->v = k;
    }
    r->name = malloc(strlen(s) + 1);
    strncpy(r->name, s, strlen(s));
    if (strlen(r->name) == 0 || !r->items)
        r->n = 0;
}
void drop(void) {
    int k;
    for (k = 0; k < 4; k++)
        free(r->items[k]);
    free(r->items);
    free(r->name);
    r->items = 0;
}
";

#[test]
fn fresh_blocks_only_dereferenced_are_owned() {
    assert_eq!(owning(RECORD), ["rec.items", "rec.items[]", "rec.name"]);
}

#[test]
fn a_kept_read_leaves_the_place_unowned() {
    // An element kept in a global.
    assert_eq!(
        owning(&format!(
            "{RECORD}struct item *last; void keep(void) {{ last = r->items[0]; }}"
        )),
        ["rec.items", "rec.name"]
    );
    // The block kept in a local, or handed to a function of the program: its elements are
    // then not reached only through it either.
    let kept = [
        "void keep(void) { struct item **mine = r->items; mine[0]->v = 1; }",
        "void use(struct item **); void keep(void) { use(r->items); }",
    ];
    for extra in kept {
        assert_eq!(owning(&format!("{RECORD}{extra}")), ["rec.name"], "{extra}");
    }
}

#[test]
fn a_store_of_anything_but_a_fresh_block_leaves_the_place_unowned() {
    let stores = [
        // Another place's block.
        "struct rec *other; void share(void) { other->name = r->name; }",
        // A block that a reallocation may return unmoved.
        "void grow(void) { char *t = realloc(r->name, 64); r->name = t; }",
        // A block handed back by a library function (`strcpy` returns its destination).
        "char *spare; void again(void) { spare = strncpy(r->name, \"x\", 1); }",
        // A fresh block also kept elsewhere.
        "char *spare; void twice(void) { char *t = malloc(8); spare = t; r->name = t; }",
    ];
    for extra in stores {
        assert_eq!(
            owning(&format!("{RECORD}{extra}")),
            ["rec.items", "rec.items[]"],
            "{extra}"
        );
    }
}

#[test]
fn a_taken_address_or_a_copied_holder_leaves_every_place_unowned() {
    assert_eq!(
        owning(&format!(
            "{RECORD}char **where(void) {{ return &r->name; }}"
        )),
        ["rec.items", "rec.items[]"]
    );
    assert_eq!(
        owning(&format!(
            "{RECORD}struct item **inside(void) {{ return &r->items[1]; }}"
        )),
        ["rec.name"]
    );
    assert!(owning(&format!(
        "{RECORD}struct rec saved; void save(void) {{ saved = *r; }}"
    ))
    .is_empty());
    assert!(owning(&format!(
        "{RECORD}struct rec saved; void save(void) {{ memcpy(&saved, r, sizeof saved); }}"
    ))
    .is_empty());
    // A union holding the struct overlays its places with other members.
    assert!(owning(&format!(
        "{RECORD}union view {{ struct rec rec; char *raw[3]; }};"
    ))
    .is_empty());
    // A block of pointers copied out duplicates its elements; a block of characters may be
    // read by a library function that keeps no copy.
    assert_eq!(
        owning(&format!(
            "{RECORD}struct item *out[4]; void dump(void) {{ memcpy(out, r->items, sizeof out); }}"
        )),
        ["rec.name"]
    );
}

/// A struct holding a lock, made by a constructor and taken through a lock wrapper.
const GATES: &str = "typedef union { char size[40]; long align; } pthread_mutex_t;
int pthread_mutex_init(pthread_mutex_t *, const void *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
struct gate { pthread_mutex_t mu; long value; };
struct gate *gate_new(long v) {
    struct gate *g = malloc(sizeof *g);
    if (g == 0)
        return 0;
    pthread_mutex_init(&g->mu, 0);
    g->value = v;
    return g;
}
void hold(struct gate *g) { pthread_mutex_lock(&g->mu); }
void let_go(struct gate *g) { pthread_mutex_unlock(&g->mu); }
struct stash { struct gate *have; int count; };
struct stash left;
void stash_init(struct stash *s) { s->have = gate_new(0); s->count = 0; }
void stash_add(struct stash *s) { hold(s->have); s->count++; let_go(s->have); }
";

#[test]
fn a_constructed_plain_block_handed_to_functions_that_keep_nothing_is_owned() {
    assert_eq!(owning(GATES), ["stash.have"]);
}

#[test]
fn a_constructor_that_publishes_its_block_or_a_block_with_pointers_is_not_owning() {
    // The constructor keeps a copy of the block it returns.
    let published = GATES.replace("g->value = v;", "g->value = v; last = g;");
    assert!(owning(&format!("struct gate *last;\n{published}")).is_empty());
    // A block holding a pointer handed to a function: the function may copy what it points to.
    let pointers = GATES.replace("long value;", "long value; struct gate *next;");
    assert!(owning(&pointers).is_empty());
    // The member's value kept by the function it is handed to.
    let kept = GATES.replace(
        "void hold(struct gate *g) {",
        "struct gate *seen; void hold(struct gate *g) { seen = g;",
    );
    assert!(owning(&kept).is_empty());
    // An address inside the block handed to a function that keeps nothing, or kept.
    let direct = GATES.replace("hold(s->have);", "pthread_mutex_lock(&s->have->mu);");
    assert_eq!(owning(&direct), ["stash.have"]);
    let inside = GATES.replace(
        "void stash_add(struct stash *s) {",
        "long *counter; void stash_add(struct stash *s) { counter = &s->have->value;",
    );
    assert!(owning(&inside).is_empty());
}

#[test]
fn a_struct_handed_to_a_thread_that_only_converts_it_back_is_not_copied() {
    let threads = "typedef unsigned long pthread_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
void *run(void *arg) { struct stash *s = arg; stash_add(s); return 0; }
void start(void) { pthread_t t; pthread_create(&t, 0, run, &left); }
";
    assert_eq!(owning(&format!("{GATES}{threads}")), ["stash.have"]);
    // An explicit conversion back is the same.
    let cast = threads.replace(
        "struct stash *s = arg;",
        "struct stash *s = (struct stash *)arg;",
    );
    assert_eq!(owning(&format!("{GATES}{cast}")), ["stash.have"]);
    // The routine copies the struct through its `void *`.
    let copied = threads.replace(
        "struct stash *s = arg;",
        "struct stash copy; memcpy(&copy, arg, sizeof copy); struct stash *s = arg;",
    );
    assert!(owning(&format!("{GATES}{copied}")).is_empty());
    // The routine is started with another struct too, or called directly.
    let other = threads.replace(
        "void start(void) {",
        "struct item it; void more(void) { pthread_t u; pthread_create(&u, 0, run, &it); }\nvoid start(void) {",
    );
    assert!(owning(&format!("{GATES}{other}")).is_empty());
    let direct = threads.replace(
        "void start(void) {",
        "void again(void) { run(&left); }\nvoid start(void) {",
    );
    assert!(owning(&format!("{GATES}{direct}")).is_empty());
}
