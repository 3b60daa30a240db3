//! Presumed counter joins (`JoinPlan::presumed`): a wait for a counter of running threads to
//! reach zero that a counter join does not trust — its test reads the counter without the
//! lock the count-downs hold, or a thread that joins the workers counts it down — is recorded
//! as presumed, with the creates it counts. A trusted counter join is never presumed; nor is a
//! wait whose counter is written otherwise, counted down by a thread that joins nothing, or
//! not counted on every path from a create to the test.

mod support;

use c_frontend::analyses::joins::plan;
use support::{defined, lower};

const DECLARATIONS: &str = "typedef unsigned long pthread_t;
typedef struct { int x; } pthread_mutex_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int usleep(unsigned);
pthread_mutex_t m;
struct { unsigned short running; int n; } o;
pthread_t ids[8];
int results[8];
";

/// What the plan of a program (after [`DECLARATIONS`]) presumes, one line per presumed join:
/// the counter, how many creates it counts, whether a reaper counts it down, whether the test
/// is unlocked; and how many trusted counter joins it has.
fn presumed(source: &str) -> (Vec<String>, usize) {
    let p = lower(&format!("{DECLARATIONS}{source}"));
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        Some(defined(&p, "main")),
        &solver::stats::Stats::off(),
    );
    let lines = jp
        .presumed
        .iter()
        .map(|j| {
            format!(
                "{} creates={} reaper={} unlocked={}",
                j.counter,
                j.creates.len(),
                j.reaper,
                j.unlocked_test
            )
        })
        .collect();
    (lines, jp.join_at_entry.len())
}

const WORKER: &str = "void *worker(void *a) {
    results[(long)a] = 1;
    pthread_mutex_lock(&m);
    o.running--;
    pthread_mutex_unlock(&m);
    return 0;
}
";

/// `main` starting the workers, counting each after its create, then `wait`.
fn starting(wait: &str) -> String {
    format!(
        "{WORKER}int main(void) {{
    pthread_t t;
    for (long i = 0; i < o.n; i++) {{
        pthread_create(&t, 0, worker, (void *)i);
        pthread_mutex_lock(&m);
        o.running++;
        pthread_mutex_unlock(&m);
    }}
{wait}
    return results[0];
}}"
    )
}

const UNLOCKED_WAIT: &str = "    while ((int)o.running > 0) usleep(10);";

#[test]
fn a_wait_that_reads_the_counter_without_its_lock_is_presumed() {
    let (lines, trusted) = presumed(&starting(UNLOCKED_WAIT));
    assert_eq!(
        lines,
        ["o.running creates=1 reaper=false unlocked=true"],
        "trusted: {trusted}"
    );
    assert_eq!(trusted, 0);
}

#[test]
fn a_wait_that_holds_the_lock_is_a_trusted_counter_join_not_a_presumed_one() {
    let wait = "    pthread_mutex_lock(&m);
    while (o.running > 0) { pthread_mutex_unlock(&m); usleep(10); pthread_mutex_lock(&m); }
    pthread_mutex_unlock(&m);";
    let (lines, trusted) = presumed(&starting(wait));
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(trusted, 1);
}

#[test]
fn a_reaper_that_joins_then_counts_down_is_presumed() {
    let source = "void *worker(void *a) { results[(long)a] = 1; ids[(long)a] = 0; return 0; }
void *reaper(void *a) {
    for (;;)
        for (int x = 0; x < 8; x++)
            if (ids[x] && pthread_join(ids[x], 0) == 0) {
                pthread_mutex_lock(&m);
                o.running--;
                pthread_mutex_unlock(&m);
            }
    return a;
}
int main(void) {
    pthread_t t, r;
    pthread_create(&r, 0, reaper, 0);
    for (long i = 0; i < o.n; i++) {
        while (pthread_create(&t, 0, worker, (void *)i) != 0) usleep(10);
        pthread_mutex_lock(&m);
        o.running++;
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    while (o.running > 0) { pthread_mutex_unlock(&m); usleep(10); pthread_mutex_lock(&m); }
    pthread_mutex_unlock(&m);
    return results[0];
}";
    let (lines, _) = presumed(source);
    assert_eq!(lines, ["o.running creates=1 reaper=true unlocked=false"]);
}

/// `main` starting a reaper thread running `body`, then workers it counts up unlocked, then
/// polling the count.
fn reaping(body: &str) -> String {
    format!(
        "void *worker(void *a) {{ results[(long)a] = 1; return 0; }}
void *reaper(void *a) {{
    {body}
    return a;
}}
int main(void) {{
    pthread_t t, r;
    pthread_create(&r, 0, reaper, 0);
    for (long i = 0; i < o.n; i++) {{
        pthread_create(&t, 0, worker, (void *)i);
        o.running++;
    }}
    while (o.running > 0) usleep(10);
    return results[0];
}}"
    )
}

#[test]
fn a_count_down_by_a_thread_that_joins_nothing_is_not_presumed() {
    let reaper =
        "for (;;) { pthread_mutex_lock(&m); o.running--; pthread_mutex_unlock(&m); usleep(10); }";
    assert!(presumed(&reaping(reaper)).0.is_empty());
}

#[test]
fn a_reaper_that_counts_down_twice_per_join_is_not_presumed() {
    let reaper = "for (int x = 0; x < 8; x++) {
        pthread_join(ids[x], 0);
        o.running--;
        usleep(10);
        o.running--;
    }";
    assert!(presumed(&reaping(reaper)).0.is_empty());
}

#[test]
fn a_counter_written_otherwise_is_not_presumed() {
    for write in [
        "o.running = o.running * 2;",
        "o.running += 2; o.running -= 2;",
        "o.running = -1;",
    ] {
        let wait = format!("    {write}\n{UNLOCKED_WAIT}");
        assert!(presumed(&starting(&wait)).0.is_empty(), "{write}");
    }
    let worker_sets = starting(UNLOCKED_WAIT).replace("o.running--;", "o.running = 0;");
    assert!(presumed(&worker_sets).0.is_empty());
}

#[test]
fn a_create_the_counter_misses_on_some_path_is_not_presumed() {
    let source = format!(
        "{WORKER}int main(void) {{
    pthread_t t;
    for (long i = 0; i < o.n; i++) {{
        pthread_create(&t, 0, worker, (void *)i);
        if (i % 2) continue;
        o.running++;
    }}
{UNLOCKED_WAIT}
    return results[0];
}}"
    );
    assert!(presumed(&source).0.is_empty());
}

#[test]
fn a_create_retried_while_it_fails_is_counted_once() {
    let source = starting(UNLOCKED_WAIT).replace(
        "pthread_create(&t, 0, worker, (void *)i);",
        "while (pthread_create(&t, 0, worker, (void *)i) != 0) usleep(10);",
    );
    assert_eq!(
        presumed(&source).0,
        ["o.running creates=1 reaper=false unlocked=true"]
    );
    let regardless = starting(UNLOCKED_WAIT).replace(
        "pthread_create(&t, 0, worker, (void *)i);",
        "pthread_create(&t, 0, worker, (void *)i); pthread_create(&t, 0, worker, (void *)i);",
    );
    assert!(presumed(&regardless).0.is_empty());
}
