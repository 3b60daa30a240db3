//! Tests of `analyses::reader_sections`: the readers sections of a semaphore and a count it
//! finds, and the conditions of its soundness argument that, broken, leave none.

mod support;

use c_frontend::analyses::reader_sections::find;
use c_frontend::ir::Program;

const PRELUDE: &str = "typedef struct { int m_; } pthread_mutex_t;
    typedef struct { int s_; } sem_t;
    int pthread_mutex_lock(pthread_mutex_t *);
    int pthread_mutex_unlock(pthread_mutex_t *);
    int sem_wait(sem_t *);
    int sem_post(sem_t *);
    sem_t s; pthread_mutex_t m; int readers; int data;
";

const ENTER: &str = "pthread_mutex_lock(&m); if (!readers) sem_wait(&s); readers++;
    pthread_mutex_unlock(&m);";
const LEAVE: &str = "pthread_mutex_lock(&m); readers--; if (!readers) sem_post(&s);
    pthread_mutex_unlock(&m);";

fn lower(text: &str) -> Program {
    support::lower(&format!("{PRELUDE}{text}"))
}

/// How many count-ups, count-downs and semaphore calls the sections have.
fn sections(text: &str) -> (usize, usize, usize) {
    let r = find(&lower(text));
    (r.acquire_after.len(), r.release_before.len(), r.calls.len())
}

#[test]
fn a_reader_inside_holds_the_semaphore() {
    let text = format!("int read(void) {{ int v; {ENTER} v = data; {LEAVE} return v; }}");
    assert_eq!(sections(&text), (1, 1, 2));
}

#[test]
fn a_count_kept_without_the_mutex_is_no_section() {
    let enter = "if (!readers) sem_wait(&s); readers++;";
    let text = format!("int read(void) {{ int v; {enter} v = data; {LEAVE} return v; }}");
    assert_eq!(sections(&text), (0, 0, 0));
    let leave = "readers--; if (!readers) sem_post(&s);";
    let text = format!("int read(void) {{ int v; {enter} v = data; {leave} return v; }}");
    assert_eq!(sections(&text), (0, 0, 0));
}

#[test]
fn a_count_written_elsewhere_is_no_section() {
    let text = format!(
        "int read(void) {{ int v; {ENTER} v = data; {LEAVE} return v; }}
         void reset(void) {{ readers = 1; }}"
    );
    assert_eq!(sections(&text), (0, 0, 0));
    let zero = format!(
        "int read(void) {{ int v; {ENTER} v = data; {LEAVE} return v; }}
         void reset(void) {{ readers = 0; }}"
    );
    assert_eq!(sections(&zero), (1, 1, 2));
}

/// A count in a union: a store of the union's other member writes it too.
#[test]
fn a_count_in_a_union_written_through_another_member_is_no_section() {
    let in_union = |extra: &str| {
        format!(
            "union {{ int n; char raw; }} u;
             int read(void) {{ int v; {ENTER} v = data; {LEAVE} return v; }}
             {extra}"
        )
        .replace("readers", "u.n")
    };
    assert_eq!(sections(&in_union("")), (1, 1, 2));
    assert_eq!(
        sections(&in_union("void poke(void) { u.raw = 1; }")),
        (0, 0, 0)
    );
}

#[test]
fn a_count_down_without_a_count_up_before_it_is_no_section() {
    let text = format!(
        "void enter(void) {{ {ENTER} }}
         void leave(void) {{ {LEAVE} }}"
    );
    assert_eq!(sections(&text), (0, 0, 0));
    let one_path = format!(
        "int read(int c) {{ int v = 0; if (c) {{ {ENTER} }} v = data; {LEAVE} return v; }}"
    );
    assert_eq!(sections(&one_path), (0, 0, 0));
}
