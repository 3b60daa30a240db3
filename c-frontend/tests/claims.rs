//! Claimed indices (`c_frontend::analyses::claims`): a local holds claimed values only when every
//! claim of its counter reads and adds a positive constant in one indivisible step (one global
//! mutex for all of them, or an atomic add) and nothing else writes the counter once threads may
//! run — never for a claim without a lock, under two mutexes, by an atomic `or`, of a counter
//! another function resets, or for a local changed after its claim. A function returning a
//! claimed value claims for its callers; one returning a value computed from it does not.

mod support;

use c_frontend::analyses::claims::find;
use support::{defined, lower};

/// The declarations of the mutex functions every program here uses.
const MUTEX: &str = "typedef struct { int x; } pthread_mutex_t;
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
";

/// The claim locals of a program (after [`MUTEX`]), as `function.local`, sorted.
fn claimed(source: &str) -> Vec<String> {
    let p = lower(&format!("{MUTEX}{source}"));
    let claims = find(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        Some(defined(&p, "main")),
    );
    let mut out: Vec<String> = claims
        .locals
        .iter()
        .flat_map(|(&f, locals)| {
            let p = &p;
            locals
                .iter()
                .map(move |&(v, _)| format!("{}.{}", p.funcs[f].name, p.vars[v].name))
        })
        .filter(|name| !name.contains("tmp"))
        .collect();
    out.sort();
    out
}

const PROGRAM: &str = "
pthread_mutex_t m, m2, ms[2];
int next, atomic_next, ored, two_locks, reset, bumped, unlocked, striped;
struct { int pos; } cfg;
void locked(void) { int i; pthread_mutex_lock(&m); i = next++; pthread_mutex_unlock(&m); (void)i; }
void member(void) { int j; pthread_mutex_lock(&m); j = cfg.pos; cfg.pos += 2; pthread_mutex_unlock(&m); (void)j; }
void atomic(void) { int a = __sync_fetch_and_add(&atomic_next, 1); (void)a; }
void or_claim(void) { int o = __sync_fetch_and_or(&ored, 1); (void)o; }
void first(void) { int f; pthread_mutex_lock(&m); f = two_locks++; pthread_mutex_unlock(&m); (void)f; }
void second(void) { int s; pthread_mutex_lock(&m2); s = two_locks++; pthread_mutex_unlock(&m2); (void)s; }
void resets(void) { int r; pthread_mutex_lock(&m); r = reset++; reset = 0; pthread_mutex_unlock(&m); (void)r; }
void changed(void) { int c; pthread_mutex_lock(&m); c = bumped++; pthread_mutex_unlock(&m); c++; (void)c; }
void bare(void) { int u = unlocked++; (void)u; }
void stripe(void) { int e; pthread_mutex_lock(&ms[1]); e = striped++; pthread_mutex_unlock(&ms[1]); (void)e; }
int main(void) { next = 0; return 0; }
";

#[test]
fn claims_are_atomic_reads_of_counters_nothing_else_writes() {
    assert_eq!(claimed(PROGRAM), ["atomic.a", "locked.i", "member.j"]);
}

#[test]
fn a_store_in_main_after_a_call_is_no_startup_store() {
    let late = PROGRAM.replace(
        "int main(void) { next = 0; return 0; }",
        "int main(void) { locked(); next = 0; return 0; }",
    );
    assert_eq!(claimed(&late), ["atomic.a", "member.j"]);
    // Nor is one in a `main` the program calls again.
    let again = PROGRAM.replace(
        "int main(void) { next = 0; return 0; }",
        "int main(void) { next = 0; return 0; }\nvoid restart(void) { main(); }",
    );
    assert_eq!(claimed(&again), ["atomic.a", "member.j"]);
}

#[test]
fn a_function_returning_a_claimed_value_claims_for_its_callers() {
    let program = "
pthread_mutex_t m;
int rows, other;
int next_row(void) { int r; pthread_mutex_lock(&m); r = rows++; pthread_mutex_unlock(&m); return r; }
int shifted(void) { int s; pthread_mutex_lock(&m); s = other++; pthread_mutex_unlock(&m); return s + 1; }
void worker(void) { int w; while ((w = next_row()) < 8) { } }
void shifted_worker(void) { int x = shifted(); (void)x; }
int main(void) { return 0; }
";
    assert_eq!(claimed(program), ["next_row.r", "shifted.s", "worker.w"]);
}

/// Whether some statement of `worker` indexes a claimed chunk by `j`, with `body` placed after
/// a claim of `step` values into `start`.
fn chunk_indexed(step: &str, body: &str) -> bool {
    chunk_after(&format!("start = next; next += {step};"), body)
}

/// Whether some statement of `worker` indexes a claimed chunk by `j`, with `body` placed after
/// `claim` under the mutex.
fn chunk_after(claim: &str, body: &str) -> bool {
    let program = "
pthread_mutex_t m;
int next;
long out[100];
void worker(void) {
    int start, end, j;
    pthread_mutex_lock(&m); CLAIM pthread_mutex_unlock(&m);
    BODY
}
int main(void) { return 0; }
"
    .replace("CLAIM", claim)
    .replace("BODY", body);
    let p = lower(&format!("{MUTEX}{program}"));
    let claims = find(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        Some(defined(&p, "main")),
    );
    let worker = defined(&p, "worker");
    c_frontend::analyses::chunks::chunk_indexes(&p, worker, &claims)
        .values()
        .flatten()
        .any(|&(v, _)| p.vars[v].name == "j")
}

#[test]
fn a_chunk_is_the_claimed_value_up_to_the_least_step() {
    let walk = "for (j = start; j < start + 8; j++) out[j] = 1;";
    assert!(chunk_indexed("8", walk));
    let cut =
        "end = start + 8; if (end > 100) end = 100; for (j = start; j < end; j++) out[j] = 1;";
    assert!(chunk_indexed("8", cut));
    let conditional =
        "end = start + 8 < 100 ? start + 8 : 100; for (j = start; j < end; j++) out[j] = 1;";
    assert!(chunk_indexed("8", conditional));
    // Past the step, from below the claimed value, a bound raised again, a step backwards.
    assert!(!chunk_indexed("4", walk));
    assert!(!chunk_indexed("8", &walk.replace("start + 8", "start + 9")));
    assert!(!chunk_indexed(
        "8",
        &walk.replace("j = start;", "j = start - 1;")
    ));
    let raised = cut.replace("end = 100;", "end = 100; else end = end + 1;");
    assert!(!chunk_indexed("8", &raised));
    assert!(!chunk_indexed(
        "8",
        &walk.replace("out[j] = 1;", "{ out[j] = 1; j -= 2; }")
    ));
}

#[test]
fn a_claim_may_add_first_but_not_beside_claims_that_read_first() {
    let program = "
pthread_mutex_t m;
int pre, mixed, shared;
void pre_only(void) { int a; pthread_mutex_lock(&m); a = ++pre; pthread_mutex_unlock(&m); (void)a; }
void pre_too(void) { int b; pthread_mutex_lock(&m); pre += 2; b = pre; pthread_mutex_unlock(&m); (void)b; }
void mixed_pre(void) { int c; pthread_mutex_lock(&m); c = ++mixed; pthread_mutex_unlock(&m); (void)c; }
void mixed_post(void) { int d; pthread_mutex_lock(&m); d = mixed++; pthread_mutex_unlock(&m); (void)d; }
void both(void) { int e, f; pthread_mutex_lock(&m); e = shared; shared = shared + 1; f = shared; pthread_mutex_unlock(&m); (void)e; (void)f; }
int main(void) { return 0; }
";
    assert_eq!(claimed(program), ["pre_only.a", "pre_too.b"]);
    // A claim that adds first owns only the value it read: no chunk after it.
    let walk = "for (j = start; j < start + 8; j++) out[j] = 1;";
    assert!(chunk_after("start = next; next += 8;", walk));
    assert!(!chunk_after("next += 8; start = next;", walk));
}
