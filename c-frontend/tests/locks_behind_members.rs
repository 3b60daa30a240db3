//! Locks behind owning members (`Package::Behind` of `analyses/unpacks`): a lock in the block
//! an owning member points to, taken directly or through a wrapper, is the own lock of the
//! object holding the member; a store into the member, or a call that may make one, ends the
//! unpack in the thread that makes it.

mod support;

use c_frontend::analyses::unpacks::{enclosing, OwningPlaces, Package};
use c_frontend::ir::{Base, Proj, StmtKind};

const PROGRAM: &str = "typedef unsigned long size_t;
void *malloc(size_t);
void abort(void);
typedef union { char size[40]; long align; } pthread_mutex_t;
int pthread_mutex_init(pthread_mutex_t *, const void *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
struct gate { pthread_mutex_t mu; long uses; };
struct gate *gate_new(void) {
    struct gate *g = malloc(sizeof *g);
    if (g == 0)
        abort();
    pthread_mutex_init(&g->mu, 0);
    g->uses = 0;
    return g;
}
void hold(struct gate *g) { pthread_mutex_lock(&g->mu); }
void let_go(struct gate *g) { pthread_mutex_unlock(&g->mu); }
struct stash { struct gate *have; int count; int other; };
struct stash left;
void renew(struct stash *s) { s->have = gate_new(); }
void renew_left(void) { left.have = gate_new(); }
void apply(void (*)(void));
typedef int pthread_once_t;
int pthread_once(pthread_once_t *, void (*)(void));
pthread_once_t once;
void nothing(struct stash *s) { s->other = 0; }
void add(struct stash *s) {
    BODY
}
int main(void) {
    left.have = gate_new();
    add(&left);
    return 0;
}
";

/// The packages of the unpacks the stores of `add`'s body into the member `count` lie in, in
/// order.
fn count_unpacks(body: &str) -> Vec<Option<Package>> {
    let mut p = support::lower(&PROGRAM.replace("BODY", body));
    p.alloc_wrappers = c_frontend::analyses::alloc_wrappers::find(&p);
    p.non_capturing_functions = c_frontend::analyses::stub_captures::non_capturing_functions(&p);
    let (main, add) = (support::defined(&p, "main"), support::defined(&p, "add"));
    let owning = OwningPlaces::of(&p, &c_frontend::analyses::calls::Calls::of(&p));
    let unpacks = support::unpacks_of(&p, main);
    let mut out = Vec::new();
    for (b, block) in p.funcs[add].blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            let StmtKind::Assign { dst, .. } = &stmt.kind else {
                continue;
            };
            let names_count = matches!(dst.base, Base::Deref(_))
                && matches!(dst.proj.last(), Some(Proj::Field { strukt, index })
                    if p.types.structs[*strukt].fields[*index as usize].name == "count");
            if names_count {
                let held = unpacks.get(&add).map(|u| u.before(b, k)).unwrap_or(&[]);
                out.push(enclosing(&p, add, &owning, held, dst).map(|h| h.package.clone()));
            }
        }
    }
    out
}

fn behind(p: &[Option<Package>]) -> Vec<bool> {
    p.iter()
        .map(|h| matches!(h, Some(Package::Behind(..))))
        .collect()
}

#[test]
fn a_lock_behind_an_owning_member_is_its_objects_own() {
    // Through the wrapper, and directly.
    assert_eq!(
        behind(&count_unpacks(
            "hold(s->have); s->count = 1; let_go(s->have); s->count = 2;"
        )),
        [true, false]
    );
    assert_eq!(
        behind(&count_unpacks(
            "pthread_mutex_lock(&s->have->mu); s->count = 1; pthread_mutex_unlock(&s->have->mu);"
        )),
        [true]
    );
}

#[test]
fn a_store_into_the_member_ends_the_unpack() {
    // The store itself, and a call of a function that makes one.
    assert_eq!(
        behind(&count_unpacks(
            "hold(s->have); s->count = 1; s->have = gate_new(); s->count = 2;"
        )),
        [true, false]
    );
    assert_eq!(
        behind(&count_unpacks(
            "hold(s->have); nothing(s); s->count = 1; renew(s); s->count = 2;"
        )),
        [true, false]
    );
    // Code locksmith cannot see, handed the function that stores, may call it back.
    assert_eq!(
        behind(&count_unpacks(
            "hold(s->have); s->count = 1; apply(renew_left); s->count = 2;"
        )),
        [true, false]
    );
    // A library function that calls back the function it is handed.
    assert_eq!(
        behind(&count_unpacks(
            "hold(s->have); s->count = 1; pthread_once(&once, renew_left); s->count = 2;"
        )),
        [true, false]
    );
}
