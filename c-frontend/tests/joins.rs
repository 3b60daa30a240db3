//! Which `pthread_create` calls get a thread handle and where their threads are joined
//! ([`c_frontend::analyses::joins::plan`]): single creates and joins, create and join loops over array
//! variables and over heap blocks (`calloc`/`malloc`), join loops with paths that end the
//! program, and the many near misses that must stay unmatched because the join might miss a
//! thread.
//!
//! Wrappers: a call of a create wrapper is a create like `pthread_create` (`C…` on the call), a
//! call of a join wrapper a join; the create inside a create wrapper shows as `W… (wrapped)`.
//!
//! Each program marks lines with a trailing `// NAME` comment: `C…` on a create, `J…` on a single
//! join or on the `for` line of a join loop. A plan is summarised as `create -> join` lines, a
//! global handle (joinable in another function) followed by ` (global)`.

use std::path::PathBuf;

use c_frontend::analyses::joins::{plan, JoinPlan};
use c_frontend::ir::{Origin, Program, StmtKind, Term};
use c_frontend::lower::Lowerer;
use c_frontend::syntax::parse::parse_unit;
use c_frontend::syntax::preprocess::{preprocess, PreprocessOptions};
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

/// Declarations every program here uses: thread start routines, a `noreturn` error function.
const PRELUDE: &str = "#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <assert.h>
int shared;
void *worker(void *arg) { shared++; return arg; }
__attribute__((noreturn)) void die(const char *msg) { perror(msg); exit(1); }
void use(void *p);
";

/// Preprocesses (with gcc, for `#include <pthread.h>`), parses and lowers one C unit, in which
/// every function lowers.
fn lower(test: &str, text: &str) -> Program {
    let p = lower_any(test, text);
    assert!(p.unanalysed.is_empty(), "unanalysed: {:?}", p.unanalysed);
    p
}

/// [`lower`], also when a function cannot be lowered.
fn lower_any(test: &str, text: &str) -> Program {
    let dir = std::env::temp_dir().join(format!("locksmith-joins-{}-{test}", std::process::id()));
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
    lw.finish(files, Vec::new())
}

/// The marker of a source line (1-based): the first word of its trailing `//` comment.
fn marker(text: &str, line: u32) -> String {
    let l = text.lines().nth(line as usize - 1).unwrap_or("");
    match l.rfind("//") {
        Some(at) => l[at + 2..]
            .split_whitespace()
            .next()
            .unwrap_or("?")
            .to_string(),
        None => format!("line {line}: {}", l.trim()),
    }
}

/// The lowered program of `text` and its plan, from its `main`.
fn planned(test: &str, text: &str) -> (Program, JoinPlan) {
    let p = lower(test, text);
    let main = p
        .funcs
        .iter_enumerated()
        .find(|(_, f)| f.defined && f.name == "main")
        .map(|(id, _)| id);
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        main,
        &solver::stats::Stats::off(),
    );
    (p, jp)
}

/// The plan of a program (the prelude followed by `body`), as sorted `create -> join` lines.
fn summary(test: &str, body: &str) -> Vec<String> {
    let text = format!("{PRELUDE}{body}");
    let (p, jp) = planned(test, &text);
    summarise(&p, &jp, &text)
}

fn summarise(p: &Program, jp: &JoinPlan, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (&(f, b, k), &h) in &jp.create {
        let func = &p.funcs[f];
        let create = marker(text, func.blocks[b].stmts[k].pos.line);
        // The create inside a create wrapper: its threads are joined by its callers' handles.
        if jp.wrapped.contains(&h) {
            out.push(format!("{create} (wrapped)"));
            continue;
        }
        let global = if jp.global.contains(&h) {
            " (global)"
        } else {
            ""
        };
        let mut joins = Vec::new();
        for (&(g, c, j), &h2) in &jp.join_after {
            if h2 == h {
                joins.push(marker(text, p.funcs[g].blocks[c].stmts[j].pos.line));
            }
        }
        for (&(g, block), hs) in &jp.join_at_entry {
            if !hs.contains(&h) {
                continue;
            }
            // The join loop whose exit this is, named by its `for` line: the line of the
            // initializer `i = START` ending the block before its head.
            let gf = &p.funcs[g];
            for l in gf.counted_loops.iter().filter(|l| l.exit == block) {
                let init = gf.blocks.iter_enumerated().find(|(id, bl)| {
                    *id != l.step
                        && matches!(bl.term, Term::Goto(t) if t == l.head)
                        && bl
                            .stmts
                            .last()
                            .is_some_and(|s| matches!(&s.kind, StmtKind::Assign { .. }))
                });
                let line = init
                    .and_then(|(_, bl)| bl.stmts.last())
                    .map_or(0, |s| s.pos.line);
                joins.push(marker(text, line));
            }
        }
        assert!(
            !joins.is_empty(),
            "create {create} has a handle but no join"
        );
        joins.sort();
        for j in joins {
            out.push(format!("{create} -> {j}{global}"));
        }
    }
    out.sort();
    out
}

fn check(test: &str, body: &str, want: &[&str]) {
    assert_eq!(summary(test, body), want, "{test}");
}

fn unmatched(test: &str, body: &str) {
    check(test, body, &[]);
}

// ----- single creates -----

#[test]
fn single_local() {
    check(
        "single_local",
        "int main(void) {
           pthread_t t;
           pthread_create(&t, NULL, worker, NULL); // C1
           pthread_join(t, NULL); // J1
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn single_struct_field() {
    check(
        "single_field",
        "struct job { int id; pthread_t tid; };
         int main(void) {
           struct job j;
           j.id = 1;
           pthread_create(&j.tid, NULL, worker, &j.id); // C1
           pthread_join(j.tid, NULL); // J1
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn single_global_joined_in_another_function() {
    check(
        "single_global",
        "pthread_t bg;
         void start(void) { pthread_create(&bg, NULL, worker, NULL); } // C1
         void stop(void) { pthread_join(bg, NULL); } // J1
         int main(void) { start(); stop(); return shared; }",
        &["C1 -> J1 (global)"],
    );
}

#[test]
fn single_two_creates_on_one_id() {
    unmatched(
        "single_two_creates",
        "int main(void) {
           pthread_t t;
           pthread_create(&t, NULL, worker, NULL); // C1
           pthread_create(&t, NULL, worker, NULL); // C2
           pthread_join(t, NULL); // J1
           return shared;
         }",
    );
}

#[test]
fn single_id_assigned_elsewhere() {
    unmatched(
        "single_assigned",
        "int main(int argc, char **argv) {
           pthread_t t, u;
           pthread_create(&t, NULL, worker, NULL); // C1
           pthread_create(&u, NULL, worker, NULL); // C2
           if (argc > 1) t = u;
           pthread_join(t, NULL); // J1
           return shared;
         }",
    );
}

#[test]
fn single_address_passed_elsewhere() {
    unmatched(
        "single_escapes",
        "int main(void) {
           pthread_t t;
           pthread_create(&t, NULL, worker, NULL); // C1
           use(&t);
           pthread_join(t, NULL); // J1
           return shared;
         }",
    );
}

#[test]
fn single_create_in_a_loop() {
    unmatched(
        "single_in_loop",
        "int main(int argc, char **argv) {
           pthread_t t;
           while (argc-- > 0)
             pthread_create(&t, NULL, worker, NULL); // C1
           pthread_join(t, NULL); // J1
           return shared;
         }",
    );
}

// ----- loops over array variables -----

#[test]
fn array_loops_constant_bound() {
    check(
        "array_const",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
        &["C1 -> J1"],
    );
}

/// Found by fuzzing: a function that cannot be lowered drops its variables, which renumbers the
/// others; the counted loops and the index variables of the functions after it kept the old
/// numbers (past the end of the table: a crash; or another variable: no match), so the loops
/// were matched no more.
#[test]
fn loops_with_a_create_retried_while_it_fails() {
    // A create that fails starts no thread: retried until it succeeds, one thread per run.
    check(
        "retried",
        "int main(void) {
           pthread_t th[8];
           for (int i = 0; i < 8; i++)
             while (pthread_create(&th[i], NULL, worker, NULL) != 0) // C1
               ;
           for (int i = 0; i < 8; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
        &["C1 -> J1"],
    );
    // Retried on success as well: two threads in one run, the first's id overwritten.
    unmatched(
        "retried_always",
        "int main(void) {
           pthread_t th[8];
           for (int i = 0; i < 8; i++)
             for (int k = 0; k < 2; k++)
               pthread_create(&th[i], NULL, worker, NULL); // C1
           for (int i = 0; i < 8; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn loops_after_a_function_that_does_not_lower() {
    let body = "static void broken(void) { int a, b, c; a = b = c = no_such_variable; }
         int main(int argc, char **argv) {
           pthread_t th[8];
           for (int i = 0; i < 8; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (int i = 0; i < 8; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }";
    let text = format!("{PRELUDE}{body}");
    let p = lower_any("after_broken", &text);
    assert_eq!(p.unanalysed.len(), 1, "{:?}", p.unanalysed);
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        None,
        &solver::stats::Stats::off(),
    );
    assert_eq!(summarise(&p, &jp, &text), ["C1 -> J1"]);
}

#[test]
fn array_loops_variable_bound_and_die_in_join_loop() {
    check(
        "array_var_die",
        "int main(int argc, char **argv) {
           pthread_t th[64];
           int n = atoi(argv[1]);
           for (int i = 0; i < n; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (int j = 0; j < n; j++) { // J1
             int rc = pthread_join(th[j], NULL);
             if (rc != 0) die(\"join\");
           }
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn array_join_loop_shorter() {
    unmatched(
        "array_shorter",
        "int main(int argc, char **argv) {
           pthread_t th[64];
           int n = atoi(argv[1]);
           int i;
           for (i = 0; i < n; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < n - 1; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_join_loop_other_bound() {
    unmatched(
        "array_other_bound",
        "int main(int argc, char **argv) {
           pthread_t th[64];
           int n = atoi(argv[1]), m = atoi(argv[2]);
           int i;
           for (i = 0; i < n; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < m; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_join_loop_starts_at_one() {
    unmatched(
        "array_start_one",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 1; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_break_in_join_loop() {
    unmatched(
        "array_break",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             if (pthread_join(th[i], NULL) != 0)
               break;
           }
           return shared;
         }",
    );
}

#[test]
fn array_return_in_join_loop() {
    unmatched(
        "array_return",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             if (pthread_join(th[i], NULL) != 0)
               return 1;
           }
           return shared;
         }",
    );
}

#[test]
fn array_exit_path_reaching_code_after_the_loop() {
    // The error path leaves the loop for code after it, which then ends the program: the code
    // there runs with threads still running.
    unmatched(
        "array_goto_out",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             if (pthread_join(th[i], NULL) != 0)
               goto out;
           }
           shared = 0;
         out:
           shared = 1;
           exit(0);
         }",
    );
}

#[test]
fn array_join_in_one_branch_only() {
    unmatched(
        "array_one_branch",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             if (argc > i)
               pthread_join(th[i], NULL);
           }
           return shared;
         }",
    );
}

#[test]
fn array_create_loop_nested_in_another_loop() {
    unmatched(
        "array_nested",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i, k;
           for (k = 0; k < argc; k++)
             for (i = 0; i < N; i++)
               pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn member_of_a_local_struct_array() {
    // The id in a member of each element (`w[i].tid`), the element handed to its thread.
    check(
        "array_member",
        "#define N 4
         struct slot { pthread_t tid; int id; };
         int main(void) {
           struct slot w[N];
           int i;
           for (i = 0; i < N; i++) {
             w[i].id = i;
             pthread_create(&w[i].tid, NULL, worker, &w[i]); // C1
           }
           for (i = 0; i < N; i++) // J1
             pthread_join(w[i].tid, NULL);
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn member_of_a_struct_array_written_through_a_pointer() {
    // A thread handed its element may write the id through it (here a thread of another
    // routine, through the pointer it gets): any such write, or a create into the member
    // through a pointer, rejects the id; `meddle`'s own thread is matched.
    for (name, body) in [
        ("array_member_written", "s->tid = 0;"),
        (
            "array_member_created",
            "pthread_create(&s->tid, NULL, worker, NULL);",
        ),
    ] {
        check(
            name,
            &format!(
                "#define N 4
                 struct slot {{ pthread_t tid; int id; }};
                 void *meddle(void *a) {{ struct slot *s = a; {body} return a; }}
                 int main(void) {{
                   struct slot w[N];
                   pthread_t m;
                   int i;
                   for (i = 0; i < N; i++)
                     pthread_create(&w[i].tid, NULL, worker, &w[i]); // C1
                   pthread_create(&m, NULL, meddle, &w[0]); // C2
                   for (i = 0; i < N; i++) // J1
                     pthread_join(w[i].tid, NULL);
                   pthread_join(m, NULL); // J2
                   return shared;
                 }}"
            ),
            &["C2 -> J2"],
        );
    }
}

#[test]
fn rounds_of_create_and_join_loops_in_another_loop() {
    // Each round joins its threads before the next round's creates: matched.
    check(
        "array_rounds",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i, k;
           for (k = 0; k < argc; k++) {
             for (i = 0; i < N; i++)
               pthread_create(&th[i], NULL, worker, NULL); // C1
             for (i = 0; i < N; i++) // J1
               pthread_join(th[i], NULL);
             shared++;
           }
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn rounds_that_may_skip_their_joins() {
    // A round that goes on to the next without joining overwrites the ids of running threads.
    unmatched(
        "array_rounds_skipped",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i, k;
           for (k = 0; k < argc; k++) {
             for (i = 0; i < N; i++)
               pthread_create(&th[i], NULL, worker, NULL); // C1
             if (argv[k][0] == '-')
               continue;
             for (i = 0; i < N; i++) // J1
               pthread_join(th[i], NULL);
           }
           return shared;
         }",
    );
}

#[test]
fn array_two_create_loops_on_one_array() {
    unmatched(
        "array_two_creates",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C2
           for (i = 0; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_element_assigned_elsewhere() {
    unmatched(
        "array_assigned",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           th[0] = th[1];
           for (i = 0; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_counter_modified_in_create_loop() {
    unmatched(
        "array_counter_create",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++) {
             pthread_create(&th[i], NULL, worker, NULL); // C1
             i++;
           }
           for (i = 0; i < N; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn array_counter_modified_in_join_loop() {
    unmatched(
        "array_counter_join",
        "#define N 4
         int main(void) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             pthread_join(th[i], NULL);
             i += 1;
           }
           return shared;
         }",
    );
}

// ----- loops over heap blocks -----

#[test]
fn heap_calloc() {
    check(
        "heap_calloc",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = calloc(n, sizeof *workers);
           if (workers == NULL)
             return 1;
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, (void *)(long)i); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           free(workers);
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn heap_malloc_pointer_arithmetic_and_exit_in_join_loop() {
    check(
        "heap_malloc",
        "int main(int argc, char **argv) {
           size_t n = atoi(argv[1]);
           size_t i;
           pthread_t *workers;
           workers = (pthread_t *)malloc(n * sizeof(pthread_t));
           if (!workers) { perror(\"malloc\"); exit(1); }
           for (i = 0; i < n; i++)
             pthread_create(workers + i, NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             if (pthread_join(*(workers + i), NULL))
               exit(1);
           free(workers);
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn heap_die_assert_and_abort_in_join_loop() {
    check(
        "heap_die",
        "#define handle_error_en(en, msg) do { errno = en; perror(msg); exit(1); } while (0)
         #include <errno.h>
         int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int rc;
           pthread_t *w = calloc(n, sizeof(pthread_t));
           for (int i = 0; i < n; i++) {
             rc = pthread_create(&w[i], NULL, worker, NULL); // C1
             if (rc) die(\"create\");
           }
           for (int i = 0; i < n; i++) { // J1
             rc = pthread_join(w[i], NULL);
             if (rc) handle_error_en(rc, \"join\");
             assert(rc == 0);
             if (rc == 3) { if (argc) abort(); else die(\"x\"); }
             if (rc == 4) pthread_exit(NULL);
           }
           free(w);
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn heap_index_forms_and_struct_field() {
    check(
        "heap_forms",
        "struct slot { pthread_t tid; };
         int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *a = malloc(n * sizeof *a);
           struct slot *s = calloc(n, sizeof *s);
           for (i = 0; i < n; i++)
             pthread_create(&i[a], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++)
             pthread_create(&s[i].tid, NULL, worker, NULL); // C2
           for (i = 0; i < n; i++) // J1
             pthread_join(*(i + a), NULL);
           for (i = 0; i < n; i++) // J2
             pthread_join(s[i].tid, NULL);
           free(a);
           free(s);
           return shared;
         }",
        &["C1 -> J1", "C2 -> J2"],
    );
}

#[test]
fn heap_loops_in_a_helper_function() {
    check(
        "heap_helper",
        "void run(int n) {
           pthread_t *w = calloc(n, sizeof *w);
           int i;
           for (i = 0; i < n; i++)
             pthread_create(&w[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(w[i], NULL);
           free(w);
         }
         int main(int argc, char **argv) { run(atoi(argv[1])); return shared; }",
        &["C1 -> J1"],
    );
}

/// A heap create loop and join loop around `MIDDLE`, with join loop `JOIN` (header and body).
fn heap_program(middle: &str, join: &str) -> String {
    format!(
        "int main(int argc, char **argv) {{
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = calloc(n, sizeof *workers);
           pthread_t *other = calloc(n, sizeof *other);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           {middle}
           {join}
           free(workers);
           free(other);
           return shared;
         }}"
    )
}

const JOIN: &str = "for (i = 0; i < n; i++) pthread_join(workers[i], NULL); // J1";

#[test]
fn heap_reference_program_matches() {
    // The program the negative tests below vary.
    check("heap_reference", &heap_program("", JOIN), &["C1 -> J1"]);
    check(
        "heap_reference_reads",
        &heap_program(
            "printf(\"%lu\\n\", (unsigned long)workers[0]); (void)workers; if (workers) shared = 1;",
            JOIN,
        ),
        &["C1 -> J1"],
    );
}

#[test]
fn heap_join_loop_shorter_or_other_bound() {
    unmatched(
        "heap_shorter",
        &heap_program(
            "",
            "for (i = 0; i < n - 1; i++) pthread_join(workers[i], NULL); // J1",
        ),
    );
    unmatched(
        "heap_other_bound",
        &heap_program(
            "int m = atoi(argv[2]);",
            "for (i = 0; i < m; i++) pthread_join(workers[i], NULL); // J1",
        ),
    );
    unmatched(
        "heap_le",
        &heap_program(
            "",
            "for (i = 0; i <= n; i++) pthread_join(workers[i], NULL); // J1",
        ),
    );
}

#[test]
fn heap_join_loop_starts_at_one() {
    unmatched(
        "heap_start_one",
        &heap_program(
            "",
            "for (i = 1; i < n; i++) pthread_join(workers[i], NULL); // J1",
        ),
    );
}

#[test]
fn heap_join_loop_over_another_block() {
    unmatched(
        "heap_other_block",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) pthread_join(other[i], NULL); // J1",
        ),
    );
}

#[test]
fn heap_break_return_or_one_branch_in_join_loop() {
    unmatched(
        "heap_break",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) { if (pthread_join(workers[i], NULL)) break; } // J1",
        ),
    );
    unmatched(
        "heap_return",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) { if (pthread_join(workers[i], NULL)) return 1; } // J1",
        ),
    );
    unmatched(
        "heap_one_branch",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) { if (argc > i) pthread_join(workers[i], NULL); } // J1",
        ),
    );
}

#[test]
fn heap_counter_modified_in_join_loop() {
    unmatched(
        "heap_counter",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) { pthread_join(workers[i], NULL); i++; } // J1",
        ),
    );
}

#[test]
fn heap_two_creates_on_one_block() {
    unmatched(
        "heap_two_creates",
        &heap_program(
            "for (i = 0; i < n; i++) pthread_create(&workers[i], NULL, worker, NULL); // C2",
            JOIN,
        ),
    );
    unmatched(
        "heap_create_first",
        &heap_program("pthread_create(workers, NULL, worker, NULL); // C2", JOIN),
    );
}

#[test]
fn heap_element_assigned_elsewhere() {
    unmatched(
        "heap_elem_assigned",
        &heap_program("workers[0] = workers[1];", JOIN),
    );
    unmatched(
        "heap_elem_assigned_deref",
        &heap_program("*workers = 0;", JOIN),
    );
    unmatched(
        "heap_memset",
        &heap_program("memset(workers, 0, sizeof *workers);", JOIN),
    );
}

#[test]
fn heap_pointer_passed_to_another_function() {
    unmatched("heap_use", &heap_program("use(workers);", JOIN));
    unmatched("heap_use_elem", &heap_program("use(&workers[1]);", JOIN));
    unmatched("heap_use_plus", &heap_program("use(workers + 2);", JOIN));
    // As the argument of the thread itself.
    unmatched(
        "heap_thread_arg",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = calloc(n, sizeof *workers);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, workers); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_pointer_reassigned() {
    unmatched(
        "heap_realloc",
        &heap_program("workers = realloc(workers, 2 * n * sizeof *workers);", JOIN),
    );
    unmatched("heap_swap", &heap_program("workers = other;", JOIN));
    unmatched(
        "heap_null_first",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = NULL;
           workers = calloc(n, sizeof *workers);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_pointer_aliased() {
    unmatched(
        "heap_alias",
        &heap_program("pthread_t *p = workers; *p = 0;", JOIN),
    );
    unmatched(
        "heap_alias_plus",
        &heap_program("pthread_t *p = workers + 1; use(p);", JOIN),
    );
}

#[test]
fn heap_pointer_stored_in_a_global_or_returned() {
    unmatched(
        "heap_global",
        &format!("pthread_t *g;\n{}", heap_program("g = workers;", JOIN)),
    );
    unmatched(
        "heap_returned",
        "pthread_t *start(int n) {
           int i;
           pthread_t *workers = calloc(n, sizeof *workers);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return workers;
         }",
    );
}

#[test]
fn heap_pointer_not_fresh() {
    // A parameter, or a pointer into memory that has other names: the elements could be
    // written through those between the loops.
    unmatched(
        "heap_param",
        "void run(pthread_t *workers, int n) {
           int i;
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
         }",
    );
    unmatched(
        "heap_from_array",
        "pthread_t pool[16];
         int main(void) {
           int i;
           pthread_t *workers = pool;
           for (i = 0; i < 16; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < 16; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
    unmatched(
        "heap_wrapper",
        "void *xcalloc(size_t n, size_t s);
         int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = xcalloc(n, sizeof *workers);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_allocated_in_a_loop() {
    unmatched(
        "heap_alloc_loop",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i, k;
           for (k = 0; k < 2; k++) {
             pthread_t *workers = calloc(n, sizeof *workers);
             for (i = 0; i < n; i++)
               pthread_create(&workers[i], NULL, worker, NULL); // C1
             for (i = 0; i < n; i++) // J1
               pthread_join(workers[i], NULL);
           }
           return shared;
         }",
    );
}

#[test]
fn heap_cast_pointer_or_other_index() {
    // A cast of the pointer may change the element size, which the IR's types do not keep.
    unmatched(
        "heap_void",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           void *v = calloc(n, sizeof(pthread_t));
           for (i = 0; i < n; i++)
             pthread_create((pthread_t *)v + i, NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(((pthread_t *)v)[i], NULL);
           return shared;
         }",
    );
    unmatched(
        "heap_shifted_index",
        &heap_program(
            "",
            "for (i = 0; i < n; i++) pthread_join(workers[i + 1], NULL); // J1",
        ),
    );
}

#[test]
fn heap_fields_written_through_the_pointer() {
    // Conservative: any write through the pointer rejects it, even of another field.
    unmatched(
        "heap_field_written",
        "struct slot { int id; pthread_t tid; };
         int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           struct slot *s = calloc(n, sizeof *s);
           for (i = 0; i < n; i++) {
             s[i].id = i;
             pthread_create(&s[i].tid, NULL, worker, NULL); // C1
           }
           for (i = 0; i < n; i++) // J1
             pthread_join(s[i].tid, NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_create_loop_nested_in_another_loop() {
    unmatched(
        "heap_nested",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i, k;
           pthread_t *workers = calloc(n, sizeof *workers);
           for (k = 0; k < argc; k++)
             for (i = 0; i < n; i++)
               pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_loops_starting_below_zero() {
    // `w - i` and `w + i` are the same in the IR: indexes must not be negative.
    unmatched(
        "heap_negative",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i;
           pthread_t *workers = calloc(n + 1, sizeof *workers);
           for (i = -1; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = -1; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn heap_allocated_on_a_cycle() {
    // Conservative: an allocation that may run several times is not trusted, even before the
    // create loop.
    unmatched(
        "heap_alloc_cycle",
        "int main(int argc, char **argv) {
           int n = atoi(argv[1]);
           int i, k;
           pthread_t *workers;
           for (k = 0; k < 2; k++)
             workers = calloc(n, sizeof *workers);
           for (i = 0; i < n; i++)
             pthread_create(&workers[i], NULL, worker, NULL); // C1
           for (i = 0; i < n; i++) // J1
             pthread_join(workers[i], NULL);
           return shared;
         }",
    );
}

#[test]
fn die_in_a_join_loop_inside_another_loop() {
    // The code after the join loop leads back to it through the outer loop; the error path
    // still never runs code after the join loop.
    check(
        "array_die_nested_join",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i, k;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (k = 0; k < argc; k++) {
             for (i = 0; i < N; i++) { // J1
               if (pthread_join(th[i], NULL) != 0)
                 die(\"join\");
             }
           }
           return shared;
         }",
        &["C1 -> J1"],
    );
}

#[test]
fn exit_path_shared_with_code_after_the_loop() {
    // The error block is also reached from after the loop: still no code after the loop runs
    // on the error path (it only exits), but it is rejected, conservatively, like any edge out
    // of the loop to code that runs after it.
    unmatched(
        "array_shared_fail",
        "#define N 4
         int main(int argc, char **argv) {
           pthread_t th[N];
           int i;
           for (i = 0; i < N; i++)
             pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < N; i++) { // J1
             if (pthread_join(th[i], NULL) != 0)
               goto fail;
           }
           if (argc > 3)
             goto fail;
           return shared;
         fail:
           exit(1);
         }",
    );
}

// ----- ids that other memory operations may overwrite -----

#[test]
fn single_id_in_a_union_is_not_trusted() {
    unmatched(
        "union_member",
        "union slot { pthread_t t; long l; };
         int main(void) {
           union slot u;
           pthread_create(&u.t, NULL, worker, NULL); // C1
           u.l = 0;
           pthread_join(u.t, NULL); // J1
           return shared;
         }",
    );
}

#[test]
fn enclosing_struct_cleared_by_a_library_function() {
    unmatched(
        "enclosing_memset",
        "struct rep { pthread_t thread; long final; };
         struct rep g;
         int main(void) {
           pthread_create(&g.thread, NULL, worker, &g); // C1
           memset(&g, 0, sizeof g);
           pthread_join(g.thread, NULL); // J1
           return shared;
         }",
    );
}

#[test]
fn enclosing_struct_handed_to_the_thread_is_trusted() {
    check(
        "enclosing_thread_arg",
        "struct rep { pthread_t thread; long final; };
         struct rep g;
         int main(void) {
           pthread_create(&g.thread, NULL, worker, &g); // C1
           pthread_join(g.thread, NULL); // J1
           return shared;
         }",
        &["C1 -> J1 (global)"],
    );
}

#[test]
fn global_array_loops_are_global() {
    check(
        "global_array_loops",
        "pthread_t th[4];
         int main(void) {
           int i;
           for (i = 0; i < 4; i++) pthread_create(&th[i], NULL, worker, NULL); // C1
           for (i = 0; i < 4; i++) // J1
             pthread_join(th[i], NULL);
           return shared;
         }",
        &["C1 -> J1 (global)"],
    );
}

// ----- create and join wrappers -----

#[test]
fn wrappers_create_and_join() {
    check(
        "wrappers",
        "static int spawn(pthread_t *t, void *(*f)(void *), void *a) {
           return pthread_create(t, NULL, f, a); // W1
         }
         static void wait_for(pthread_t t) { pthread_join(t, NULL); }
         static void wait_twice(pthread_t t) { shared++; wait_for(t); }
         int main(void) {
           pthread_t t, u, v[4];
           spawn(&t, worker, NULL); // C1
           spawn(&u, worker, NULL); // C2
           wait_for(t); // J1
           wait_twice(u); // J2
           for (int i = 0; i < 4; i++) spawn(&v[i], worker, NULL); // C3
           for (int i = 0; i < 4; i++) wait_for(v[i]); // J3
           return shared;
         }",
        &["C1 -> J1", "C2 -> J2", "C3 -> J3", "W1 (wrapped)"],
    );
}

#[test]
fn wrappers_the_library_join_of_a_wrapper_create() {
    check(
        "wrapper_then_pthread_join",
        "static void spawn(pthread_t *t) {
           if (pthread_create(t, NULL, worker, NULL) != 0) // W1
             die(\"create\");
         }
         int main(void) {
           pthread_t t;
           spawn(&t); // C1
           pthread_join(t, NULL); // J1
           return shared;
         }",
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

/// A create wrapper that returns the id (`t = start(…)`), initialising a variable or assigned,
/// joined directly or through a join wrapper; one that also keeps the id, one whose create is in
/// a loop and one that may return another id are not wrappers.
#[test]
fn wrappers_that_return_the_id() {
    check(
        "value_wrappers",
        "pthread_t kept;
         static pthread_t start(void) {
           pthread_t t;
           pthread_create(&t, NULL, worker, NULL); // W1
           return t;
         }
         static pthread_t start_keeping(void) {
           pthread_t t;
           pthread_create(&t, NULL, worker, NULL);
           kept = t;
           return t;
         }
         static pthread_t start_looping(void) {
           pthread_t t;
           for (int i = 0; i < 2; i++) pthread_create(&t, NULL, worker, NULL);
           return t;
         }
         static pthread_t start_or_kept(int c) {
           pthread_t t;
           if (c) return kept;
           pthread_create(&t, NULL, worker, NULL);
           return t;
         }
         static void wait_for(pthread_t t) { pthread_join(t, NULL); }
         int main(int argc, char **argv) {
           pthread_t a = start(); // C1
           pthread_t b, c, d, e;
           b = start(); // C2
           pthread_join(a, NULL); // J1
           wait_for(b); // J2
           c = start_keeping(); wait_for(c);
           d = start_looping(); wait_for(d);
           e = start_or_kept(argc); wait_for(e);
           return shared;
         }",
        &["C1 -> J1", "C2 -> J2", "W1 (wrapped)"],
    );
}

/// Functions that are not wrappers (the pointer kept, the create in a loop, the pointer moved,
/// a join on one branch only, the parameter overwritten), and calls of real wrappers that match
/// nothing: a global id, an id whose address a non-wrapper took, a failure branch of a wrapper.
#[test]
fn wrappers_that_are_not() {
    check(
        "not_wrappers",
        "pthread_t saved, g;
         static void keeps(pthread_t *t) {
           pthread_create(t, NULL, worker, NULL);
           saved = *t;
         }
         static void looping(pthread_t *t) {
           for (int i = 0; i < 2; i++) pthread_create(t, NULL, worker, NULL);
         }
         static void moves(pthread_t *t) {
           t++;
           pthread_create(t, NULL, worker, NULL);
         }
         static void maybe_wait(pthread_t t, int c) { if (c) pthread_join(t, NULL); }
         static void wait_other(pthread_t t) { t = saved; pthread_join(t, NULL); }
         static int spawn(pthread_t *t) { return pthread_create(t, NULL, worker, NULL); } // W1
         static void wait_for(pthread_t t) { pthread_join(t, NULL); }
         int main(int argc, char **argv) {
           pthread_t a, b, c, d, e;
           keeps(&a); wait_for(a);
           looping(&b); wait_for(b);
           moves(&c); wait_for(c);
           spawn(&d); maybe_wait(d, argc);
           spawn(&e); wait_other(e);
           spawn(&g); wait_for(g);
           if (spawn(&a)) return 1;
           return shared;
         }",
        &["W1 (wrapped)"],
    );
}

// ----- thread pools in an object -----

/// A pool's create wrapper (its create shown as `W… (wrapped)`) and its callers: `pool_create`
/// is a create of all its workers, `pool_destroy` a join of all of them.
const POOL: &str = "struct pool { pthread_t *threads; int size; struct worker *workers; };
         struct worker { pthread_t tid; int n; };
         static struct pool *pool_create(int n) {
           struct pool *p = malloc(sizeof *p);
           memset(p, 0, sizeof *p);
           p->size = n;
           p->threads = malloc(n * sizeof(pthread_t));
           for (int i = 0; i < n; i++)
             pthread_create(&p->threads[i], NULL, worker, p); // W1
           return p;
         }
         static void pool_destroy(struct pool *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->threads[j], NULL);
           free(q->threads);
         }
";

#[test]
fn pool_wrappers() {
    check(
        "pool",
        &format!(
            "{POOL}
             int main(void) {{
               struct pool *p = pool_create(4); // C1
               pool_destroy(p); // J1
               return shared;
             }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

/// The pool join wrapper's own parameter handle is joined on entry to its join loop's exit,
/// and the call that joins the pool's handle maps it to that handle; a call of the wrapper on
/// a pool it cannot match maps nothing.
#[test]
fn pool_join_wrapper_parameter_handle() {
    let text = format!(
        "{PRELUDE}{POOL}
         struct pool *other;
         int main(void) {{
           struct pool *p = pool_create(4);
           pool_destroy(p); // J1
           pool_destroy(other); // J2
           return shared;
         }}"
    );
    let (p, jp) = planned("pool_param", &text);
    let destroy = p
        .funcs
        .iter_enumerated()
        .find(|(_, f)| f.defined && f.name == "pool_destroy")
        .map(|(id, _)| id)
        .expect("pool_destroy");
    let inside: Vec<_> = jp
        .join_at_entry
        .iter()
        .filter(|((f, _), _)| *f == destroy)
        .flat_map(|(_, hs)| hs.iter().copied())
        .collect();
    assert_eq!(
        inside.len(),
        1,
        "one parameter handle, joined at the loop's exit"
    );
    let calls: Vec<String> = jp
        .param_joins
        .iter()
        .map(|(&(f, b, k), &(param, joined))| {
            assert_eq!(param, inside[0]);
            assert_eq!(Some(&joined), jp.join_after.get(&(f, b, k)));
            marker(&text, p.funcs[f].blocks[b].stmts[k].pos.line)
        })
        .collect();
    assert_eq!(calls, ["J1"]);
}

/// A create wrapper may return `NULL` on a failure: a join through it never returns.
#[test]
fn wrappers_returning_null_on_failure() {
    check(
        "pool_null",
        "struct pool { pthread_t *threads; int size; };
         typedef struct th { pthread_t id; } th;
         static struct pool *pool_create(int n) {
           struct pool *p = malloc(sizeof *p);
           if (!p) return NULL;
           p->size = n;
           p->threads = malloc(n * sizeof(pthread_t));
           if (!p->threads) return NULL;
           for (int i = 0; i < n; i++)
             if (pthread_create(&p->threads[i], NULL, worker, p) != 0) // W1
               return NULL;
           return p;
         }
         static void pool_destroy(struct pool *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->threads[j], NULL);
         }
         static th *launch(void) {
           th *t = malloc(sizeof *t);
           if (t == NULL) return NULL;
           pthread_create(&t->id, NULL, worker, NULL); // W2
           return t;
         }
         static void join(th *t) { pthread_join(t->id, NULL); }
         int main(void) {
           struct pool *p = pool_create(4); // C1
           th *t = launch(); // C2
           if (!p || !t) return 1;
           pool_destroy(p); // J1
           join(t); // J2
           return shared;
         }",
        &["C1 -> J1", "C2 -> J2", "W1 (wrapped)", "W2 (wrapped)"],
    );
    // A return of anything else is no pool's.
    check(
        "pool_other_return",
        "struct pool { pthread_t *threads; int size; };
         struct pool spare;
         static struct pool *pool_create(int n) {
           struct pool *p = malloc(sizeof *p);
           if (n > 8) return &spare;
           p->size = n;
           p->threads = malloc(n * sizeof(pthread_t));
           for (int i = 0; i < n; i++)
             pthread_create(&p->threads[i], NULL, worker, p);
           return p;
         }
         static void pool_destroy(struct pool *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->threads[j], NULL);
         }
         int main(void) {
           struct pool *p = pool_create(4);
           pool_destroy(p);
           return shared;
         }",
        &[],
    );
}

/// A pool `main` owns, filled by an init wrapper called once (`pool_init(&pool, n)`), is joined
/// by `main`'s destroy of the same variable; with a second call of the init wrapper anywhere,
/// or a destroy of another variable only, the init wrapper is no pool's (its create keeps no
/// handle).
#[test]
fn pools_main_owns() {
    let pool = "struct pool { pthread_t *threads; int size; };
         struct pool one, two;
         static int pool_init(struct pool *p, int n) {
           p->size = n;
           p->threads = malloc(n * sizeof(pthread_t));
           if (!p->threads) return -1;
           for (int i = 0; i < n; i++)
             pthread_create(&p->threads[i], NULL, worker, p); // W1
           return 0;
         }
         static void pool_destroy(struct pool *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->threads[j], NULL);
         }
";
    check(
        "pool_init",
        &format!(
            "{pool}
             int main(void) {{
               if (pool_init(&one, 4)) return 1; // C1
               pool_destroy(&one); // J1
               return shared;
             }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
    check(
        "pool_init_twice",
        &format!(
            "{pool}
             static void again(void) {{ pool_init(&one, 2); }}
             int main(void) {{
               pool_init(&one, 4);
               again();
               pool_destroy(&one);
               return shared;
             }}"
        ),
        &[],
    );
    check(
        "pool_init_other",
        &format!(
            "{pool}
             int main(void) {{
               pool_init(&one, 4);
               pool_destroy(&two);
               return shared;
             }}"
        ),
        &[],
    );
}

/// A handle create wrapper and a handle join wrapper.
const HANDLE_WRAPPERS: &str = "typedef struct th { pthread_t id; } th;
         static th *launch(void) {
           th *t = malloc(sizeof *t);
           pthread_create(&t->id, NULL, worker, NULL); // W1
           return t;
         }
         static void join(th *t) { pthread_join(t->id, NULL); }
";

/// A join of a copy of the handle (`k = h; join(k)`) joins the handle the copy was made of.
#[test]
fn handle_copies() {
    check(
        "handle_copies",
        &format!(
            "{HANDLE_WRAPPERS}
         int main(int argc, char **argv) {{
           th *a = launch(); // C1
           th *b = launch(); // C2
           th *k = a;
           th *m = k;
           a = b;
           join(m); // J1
           th *n = argc > 1 ? a : b;
           join(n);
           return shared;
         }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

/// Handles kept in elements of a local array by constant indexes (`ths[0] = launch(); …
/// join(ths[0])`): each element written once is a place of its own. An element written twice,
/// one also written through a variable index, or an array whose address escapes matches nothing.
#[test]
fn handles_in_constant_elements() {
    check(
        "handle_elements",
        &format!(
            "{HANDLE_WRAPPERS}
         static void keep(th **all) {{ (void)all; }}
         int main(int argc, char **argv) {{
           th *ths[3], *twice[2], *mixed[2], *kept[2];
           ths[0] = launch(); // C1
           ths[1] = launch(); // C2
           twice[0] = launch();
           if (argc > 1) twice[0] = launch();
           mixed[1] = launch();
           for (int i = 0; i < argc && i < 2; i++) mixed[i] = 0;
           kept[0] = launch();
           keep(kept);
           join(ths[1]); // J2
           join(ths[0]); // J1
           join(twice[0]);
           join(mixed[1]);
           join(kept[0]);
           return shared;
         }}"
        ),
        &["C1 -> J1", "C2 -> J2", "W1 (wrapped)"],
    );
}

#[test]
fn pool_of_worker_structs_bounded_by_its_member() {
    check(
        "pool_structs",
        "struct crew { struct worker *workers; int size; };
         struct worker { pthread_t tid; int n; };
         static struct crew *crew_create(int n) {
           struct crew *c = malloc(sizeof *c);
           c->size = n;
           c->workers = calloc(n, sizeof(struct worker));
           for (int k = 0; k < n; k++)
             c->workers[k].n = k;
           for (int i = 0; i < c->size; i++)
             pthread_create(&c->workers[i].tid, NULL, worker, &c->workers[i]); // W1
           return c;
         }
         static void crew_destroy(struct crew *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->workers[j].tid, NULL);
         }
         int main(void) {
           struct crew *c = crew_create(4); // C1
           crew_destroy(c); // J1
           return shared;
         }",
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

#[test]
fn pool_of_an_array_member() {
    let pool = "struct pool { pthread_t ids[8]; int size; };
         static struct pool *pool_open(int n) {
           struct pool *p = malloc(sizeof *p);
           p->size = n;
           for (int i = 0; i < p->size; i++)
             pthread_create(&p->ids[i], NULL, worker, p); // W1
           return p;
         }
         static void pool_close(struct pool *q) {
           for (int j = 0; j < q->size; j++)
             pthread_join(q->ids[j], NULL);
         }
";
    check(
        "pool_array",
        &format!(
            "{pool}
             int main(void) {{
               struct pool *p = pool_open(4); // C1
               pool_close(p); // J1
               return shared;
             }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
    // An element written, the array handed out, an element's address taken: no pool.
    let variants = [
        "void clobber(struct pool *q) { q->ids[0] = 0; }",
        "pthread_t *leak(struct pool *q) { return q->ids; }",
        "pthread_t *one(struct pool *q) { return &q->ids[1]; }",
    ];
    for (k, extra) in variants.iter().enumerate() {
        check(
            &format!("pool_array_miss_{k}"),
            &format!(
                "{pool}
                 {extra}
                 int main(void) {{
                   struct pool *p = pool_open(4);
                   pool_close(p);
                   return shared;
                 }}"
            ),
            &[],
        );
    }
}

/// Near misses: each function of the first list breaks a condition on the pool's members, and
/// the create wrapper is then no pool's (its create keeps no handle); each destroy of the second
/// is no pool's join wrapper; and a destroy of another pool, or of a copy of it, joins that pool
/// only.
#[test]
fn pool_near_misses() {
    let variants = [
        // The count changes after the workers start.
        "void resize(struct pool *q) { q->size = 1; }",
        // The block is replaced.
        "void swap(struct pool *q, pthread_t *t) { q->threads = t; }",
        // An element is written other than by the create.
        "void clobber(struct pool *q) { q->threads[0] = 0; }",
        // The block escapes.
        "pthread_t *leak(struct pool *q) { return q->threads; }",
        // The count's address is taken.
        "int *count(struct pool *q) { return &q->size; }",
        // The pool is cleared by a library function.
        "void clear(struct pool *q) { memset(q, 0, sizeof *q); }",
        // The pool is copied whole.
        "void copy(struct pool *q, struct pool *r) { *q = *r; }",
    ];
    for (k, extra) in variants.iter().enumerate() {
        check(
            &format!("pool_miss_{k}"),
            &format!(
                "{POOL}
                 {extra}
                 int main(void) {{
                   struct pool *p = pool_create(4);
                   pool_destroy(p);
                   return shared;
                 }}"
            ),
            &[],
        );
    }
    // The destroy starts late, or may return before joining, or joins another pool.
    let destroys = [
        "for (int j = 1; j < q->size; j++) pthread_join(q->threads[j], NULL);",
        "if (!q) return; for (int j = 0; j < q->size; j++) pthread_join(q->threads[j], NULL);",
        "for (int j = 0; j < q->size; j++) { if (j == 2) break; pthread_join(q->threads[j], NULL); }",
    ];
    for (k, destroy) in destroys.iter().enumerate() {
        let program = POOL.replace(
            "for (int j = 0; j < q->size; j++)
             pthread_join(q->threads[j], NULL);",
            destroy,
        );
        check(
            &format!("pool_destroy_miss_{k}"),
            &format!(
                "{program}
                 int main(void) {{
                   struct pool *p = pool_create(4);
                   pool_destroy(p);
                   return shared;
                 }}"
            ),
            &["W1 (wrapped)"],
        );
    }
    check(
        "pool_other_object",
        &format!(
            "{POOL}
             int main(void) {{
               struct pool *p = pool_create(4);
               struct pool *r = pool_create(2); // C1
               pool_destroy(r); // J1
               return p != 0;
             }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
    check(
        "pool_reassigned",
        &format!(
            "{POOL}
             int main(void) {{
               struct pool *p = pool_create(4);
               struct pool *r = pool_create(2); // C1
               p = r;
               pool_destroy(p); // J1
               return shared;
             }}"
        ),
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

// ----- failed creates -----

/// The blocks where a create's threads are ended on its failure branch, as the lines of the
/// first statement of each such block.
fn failure_lines(test: &str, body: &str) -> Vec<u32> {
    let text = format!("{PRELUDE}{body}");
    let p = lower(test, &text);
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        None,
        &solver::stats::Stats::off(),
    );
    let mut out = Vec::new();
    for (&(f, b), hs) in &jp.join_at_entry {
        let func = &p.funcs[f];
        if func.counted_loops.iter().any(|l| l.exit == b) {
            continue;
        }
        assert!(hs.iter().all(|h| jp.create.values().any(|c| c == h)));
        if let Some(s) = func.blocks[b].stmts.first() {
            out.push(s.pos.line - PRELUDE.lines().count() as u32);
        }
    }
    out.sort();
    out
}

#[test]
fn failure_branch_of_a_create_ends_its_thread() {
    let lines = failure_lines(
        "failed_create",
        "int main(void) {
           pthread_t t;
           int rc = pthread_create(&t, NULL, worker, NULL);
           if (rc != 0) {
             shared = 2;
             return 1;
           }
           if (pthread_create(&t, NULL, worker, NULL))
             shared = 3;
           return 0;
         }",
    );
    assert_eq!(lines, vec![5, 9]);
}

#[test]
fn failure_branch_in_a_loop_or_shared_is_not_used() {
    let lines = failure_lines(
        "failed_create_loop",
        "int main(int argc, char **argv) {
           pthread_t t;
           for (int i = 0; i < 4; i++)
             if (pthread_create(&t, NULL, worker, NULL) != 0)
               shared = 2;
           int rc = pthread_create(&t, NULL, worker, NULL);
           if (argc > 1) goto fail;
           if (rc == 0) return 0;
         fail:
           shared = 3;
           return 1;
         }",
    );
    assert_eq!(lines, Vec::<u32>::new());
}

// ----- hand-shakes through a semaphore -----

/// The semaphore hand-shakes of a program, as `POST -> WAIT…` lines by marker.
fn semaphore_handshakes(test: &str, body: &str) -> Vec<String> {
    let text = format!("#include <semaphore.h>\n#include <signal.h>\n{PRELUDE}{body}");
    let (p, jp) = planned(test, &text);
    let at = |(f, b, k): (c_frontend::ir::FuncId, c_frontend::ir::BlockId, usize)| {
        marker(&text, p.funcs[f].blocks[b].stmts[k].pos.line)
    };
    jp.handshakes
        .iter()
        .filter(|h| !h.wait_calls.is_empty())
        .map(|h| {
            let mut waits: Vec<String> = h.wait_calls.iter().map(|&w| at(w)).collect();
            waits.sort();
            format!("{} -> {}", at(h.signal), waits.join(" "))
        })
        .collect()
}

/// A producer started once by `main` posts, main waits: one hand-shake. (The library stubs,
/// whose `sem_destroy` the fixture `tests/races/sync/semaphore_handshake.c` calls, are not
/// lowered here.)
const SEM_PROGRAM: &str = "
sem_t ready;
int table;
void *producer(void *arg) { table = 1; sem_post(&ready); /* P */ return arg; }
int main(void) {
    pthread_t t;
    sem_init(&ready, 0, INIT);
    pthread_create(&t, NULL, producer, NULL);
    EXTRA
    sem_wait(&ready); // W
    pthread_join(t, NULL);
    return table;
}
";

fn sem_program(init: &str, extra: &str) -> String {
    SEM_PROGRAM
        .replace("INIT", init)
        .replace("EXTRA", extra)
        .replace("/* P */", "// P\n")
}

#[test]
fn semaphore_posted_once_by_one_thread() {
    assert_eq!(
        semaphore_handshakes("sem_once", &sem_program("0", "")),
        ["P -> W"]
    );
}

#[test]
fn semaphore_posted_by_main() {
    let body = "
sem_t go;
int settings;
void *worker2(void *arg) { sem_wait(&go); /* W */ return arg; }
int main(void) {
    pthread_t t;
    sem_init(&go, 0, 0);
    pthread_create(&t, NULL, worker2, NULL);
    settings = 1;
    sem_post(&go); // P
    pthread_join(t, NULL);
    return 0;
}
"
    .replace("/* W */", "// W\n");
    assert_eq!(semaphore_handshakes("sem_main", &body), ["P -> W"]);
}

/// The near misses: each breaks one step of the argument (`posts.rs`).
#[test]
fn semaphore_near_misses() {
    let none: [&str; 0] = [];
    // Starts at 1: a wait need not wait.
    assert_eq!(semaphore_handshakes("sem_one", &sem_program("1", "")), none);
    // Not a constant.
    assert_eq!(
        semaphore_handshakes("sem_var", &sem_program("(unsigned)shared", "")),
        none
    );
    // Posted a second time, by main.
    assert_eq!(
        semaphore_handshakes("sem_twice", &sem_program("0", "sem_post(&ready);")),
        none
    );
    // Its address goes to code locksmith cannot see, which may post it.
    assert_eq!(
        semaphore_handshakes("sem_unknown", &sem_program("0", "use(&ready);")),
        none
    );
    // A post through a pointer may post it.
    assert_eq!(
        semaphore_handshakes(
            "sem_pointer",
            &sem_program("0", "sem_t *q = (sem_t *)use; if (q) sem_post(q);")
        ),
        none
    );
    // A signal handler may interrupt a wait, which then returns without a post.
    assert_eq!(
        semaphore_handshakes(
            "sem_handler",
            &sem_program("0", "signal(SIGUSR1, (void (*)(int))die);")
        ),
        none
    );
    // The producer is started in a loop: more than one thread posts.
    let looped = sem_program("0", "").replace(
        "pthread_create(&t, NULL, producer, NULL);",
        "for (int i = 0; i < 2; i++) pthread_create(&t, NULL, producer, NULL);",
    );
    assert_eq!(semaphore_handshakes("sem_loop", &looped), none);
    // An element of an array of semaphores names no one semaphore.
    let array = sem_program("0", "")
        .replace("sem_t ready;", "sem_t readies[2];")
        .replace("&ready", "&readies[0]")
        .replace("sem_wait(&readies[0]);", "sem_wait(&readies[1]);");
    assert_eq!(semaphore_handshakes("sem_array", &array), none);
}

/// A completion semaphore: `N` workers post once each, the waiter waits `N` times in a loop;
/// the hand-shake's wait is the loop's exit (`E`, marked on the line after it).
fn completion(test: &str, create_loop: &str, wait_loop: &str, post: &str) -> Vec<String> {
    let text = format!(
        "#include <semaphore.h>\n{PRELUDE}
sem_t done;
int results[4];
void *finisher(void *arg) {{ results[0] = 1; {post} return arg; }}
int main(void) {{
    pthread_t t[4];
    sem_init(&done, 0, 0);
    {create_loop} pthread_create(&t[i], NULL, finisher, NULL);
    {wait_loop} sem_wait(&done);
    shared = results[0]; // E
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    return 0;
}}
"
    );
    let (p, jp) = planned(test, &text);
    jp.handshakes
        .iter()
        .flat_map(|h| &h.waits)
        .map(|&(f, b)| {
            let block = &p.funcs[f].blocks[b];
            let line = block.stmts.first().map_or(0, |s| s.pos.line);
            marker(&text, line)
        })
        .collect()
}

#[test]
fn semaphore_completion_counts_its_posters() {
    let each = "for (int i = 0; i < 4; i++)";
    let once = "sem_post(&done);";
    assert_eq!(completion("sem_done", each, each, once), ["E"]);
    let none: [&str; 0] = [];
    // One wait fewer than workers.
    let fewer = "for (int i = 0; i < 3; i++)";
    assert_eq!(completion("sem_fewer", each, fewer, once), none);
    // A worker may post twice.
    let twice = "for (int k = 0; k < 2; k++) sem_post(&done);";
    assert_eq!(completion("sem_twice_each", each, each, twice), none);
    // The wait loop may be left early.
    let breaks = "for (int i = 0; i < 4; i++) if (shared) break; else";
    assert_eq!(completion("sem_break", each, breaks, once), none);
}

// ----- hand-shakes through a flag's value -----

/// The flag hand-shakes of a program, as `SIGNAL: N waits` lines by the signal's marker.
fn flag_handshakes(test: &str, body: &str) -> Vec<String> {
    let text = format!("{PRELUDE}{body}");
    let (p, jp) = planned(test, &text);
    jp.handshakes
        .iter()
        .filter(|h| h.wait_calls.is_empty())
        .map(|h| {
            let (f, b, k) = h.signal;
            let line = p.funcs[f].blocks[b].stmts[k].pos.line;
            format!("{}: {} waits", marker(&text, line), h.waits.len())
        })
        .collect()
}

/// A state machine: the loader moves `state` from 0 through `LOADING` to `READY`, each store
/// holding `m`; a reader waiting for `READY` (`STORE` replaced by the loader's second store,
/// `TEST` by the reader's loop condition, `EXTRA` by more code in `main`).
const STATES: &str = "
enum { IDLE, LOADING, READY };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int state;
long table;
void *loader(void *arg) {
    pthread_mutex_lock(&m);
    state = LOADING; // L
    pthread_mutex_unlock(&m);
    table = 1;
    pthread_mutex_lock(&m);
    STORE; // R
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return arg;
}
void *reader(void *arg) {
    pthread_mutex_lock(&m);
    while (TEST)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return (void *)table;
}
int main(void) {
    pthread_t l, r;
    pthread_create(&l, NULL, loader, NULL);
    pthread_create(&r, NULL, reader, NULL);
    EXTRA
    pthread_join(r, NULL);
    pthread_join(l, NULL);
    return 0;
}
";

fn states(store: &str, test: &str, extra: &str) -> String {
    STATES
        .replace("STORE", store)
        .replace("TEST", test)
        .replace("EXTRA", extra)
}

#[test]
fn a_state_waited_for_is_signalled_by_its_one_store() {
    let ready = states("state = READY", "state != READY", "");
    assert_eq!(flag_handshakes("states_ready", &ready), ["R: 1 waits"]);
    let flipped = states("state = READY", "READY != state", "");
    assert_eq!(flag_handshakes("states_flipped", &flipped), ["R: 1 waits"]);
    // The first state is signalled by its own store, before the table is filled.
    let loading = states("state = READY", "state != LOADING", "");
    assert_eq!(flag_handshakes("states_loading", &loading), ["L: 1 waits"]);
}

/// The near misses: each breaks one step of the argument.
#[test]
fn state_near_misses() {
    let none: Vec<String> = Vec::new();
    // `READY` stored twice: the waiter may have seen either store.
    let twice = states("state = READY", "state != READY", "state = READY;");
    assert_eq!(flag_handshakes("states_twice", &twice), none);
    // A store of a value not known.
    let unknown = states("state = READY", "state != READY", "state = shared;");
    assert_eq!(flag_handshakes("states_unknown", &unknown), none);
    // A step: the flag may reach any value.
    let step = states("state++", "state != READY", "");
    assert_eq!(flag_handshakes("states_step", &step), none);
    // Waiting for a value nothing stores, or for the value before any store.
    let never = states("state = READY", "state != 7", "");
    assert_eq!(flag_handshakes("states_never", &never), none);
    let initial = states("state = READY", "state != IDLE", "");
    assert_eq!(flag_handshakes("states_initial", &initial), none);
    // An ordering test is not a wait for one value.
    let ordered = states("state = READY", "state < READY", "");
    assert_eq!(flag_handshakes("states_ordered", &ordered), none);
}

// ----- arrays handed to a create helper and a join helper -----

/// Helpers that start and join the threads of the array they are given (`arrays.rs`): `MAIN`
/// replaced by `main`'s body, `JOIN_START` by the join loop's start, `EARLY` by code before it.
const HELPERS: &str = "
static void start_all(pthread_t *t, int n) {
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, NULL); // W1
}
static void join_all(pthread_t *t, int n) {
    EARLY
    for (int j = JOIN_START; j < n; j++)
        pthread_join(t[j], NULL);
}
int main(int argc, char **argv) {
    (void)argv;
    pthread_t t[4], u[4];
    MAIN
    return shared;
}
";

fn helpers(main: &str, join_start: &str, early: &str) -> String {
    HELPERS
        .replace("MAIN", main)
        .replace("JOIN_START", join_start)
        .replace("EARLY", early)
}

#[test]
fn an_array_started_and_joined_by_helpers() {
    let both = "start_all(t, 4); // C1\n    join_all(t, 4); // J1\n";
    check(
        "arrays_both",
        &helpers(both, "0", ""),
        &["C1 -> J1", "W1 (wrapped)"],
    );
    let twice = "start_all(t, 4); // C1\n    join_all(t, 4); // J1\n    join_all(t, 4); // J2\n";
    check(
        "arrays_twice",
        &helpers(twice, "0", ""),
        &["C1 -> J1", "C1 -> J2", "W1 (wrapped)"],
    );
    // A block from an allocator, tested and freed.
    let heap = "pthread_t *h = malloc(4 * sizeof *h);\n    if (!h) return 1;\n    start_all(h, 4); // C1\n    join_all(h, 4); // J1\n    free(h);\n";
    check(
        "arrays_heap",
        &helpers(heap, "0", ""),
        &["C1 -> J1", "W1 (wrapped)"],
    );
    // A count in a variable nothing assigns after the create helper's call.
    let var =
        "int n = argc > 4 ? 4 : argc;\n    start_all(t, n); // C1\n    join_all(t, n); // J1\n";
    check(
        "arrays_count_var",
        &helpers(var, "0", ""),
        &["C1 -> J1", "W1 (wrapped)"],
    );
}

/// The near misses: each breaks one step of the argument (`arrays.rs`).
#[test]
fn array_helper_near_misses() {
    let joined = "start_all(t, 4);\n    join_all(t, 4);\n";
    // Another count, another array, the array named elsewhere.
    unmatched(
        "arrays_count",
        &helpers("start_all(t, 4);\n    join_all(t, 3);\n", "0", ""),
    );
    unmatched(
        "arrays_other",
        &helpers("start_all(t, 4);\n    join_all(u, 4);\n", "0", ""),
    );
    // A block whose pointer is copied, or that is not fresh.
    unmatched(
        "arrays_heap_copied",
        &helpers("pthread_t *h = malloc(4 * sizeof *h);\n    use(h);\n    start_all(h, 4);\n    join_all(h, 4);\n", "0", ""),
    );
    unmatched(
        "arrays_heap_not_fresh",
        &helpers(
            "pthread_t *h = t;\n    start_all(h, 4);\n    join_all(h, 4);\n",
            "0",
            "",
        ),
    );
    // A count variable changed after the create helper's call, or whose address is taken.
    unmatched(
        "arrays_count_changed",
        &helpers(
            "int n = 4;\n    start_all(t, n);\n    n--;\n    join_all(t, n);\n",
            "0",
            "",
        ),
    );
    unmatched(
        "arrays_count_addressed",
        &helpers(
            "int n = 4;\n    use(&n);\n    start_all(t, n);\n    join_all(t, n);\n",
            "0",
            "",
        ),
    );
    unmatched(
        "arrays_named",
        &helpers(&format!("{joined}    u[0] = t[0];\n"), "0", ""),
    );
    // The create helper called twice, or in a loop.
    unmatched(
        "arrays_started_twice",
        &helpers(
            "start_all(t, 4);\n    start_all(u, 4);\n    join_all(t, 4);\n",
            "0",
            "",
        ),
    );
    unmatched(
        "arrays_in_loop",
        &helpers(
            "for (int k = 0; k < argc; k++) start_all(t, 4);\n    join_all(t, 4);\n",
            "0",
            "",
        ),
    );
    // A join loop from another start, or one a return may skip.
    unmatched("arrays_start", &helpers(joined, "1", ""));
    unmatched("arrays_early", &helpers(joined, "0", "if (n > 8) return;"));
}

/// The turns of a program (the prelude followed by `body`), one line per turn variable: the
/// markers of its starts (the first statement of the block entered), then of its stores.
fn turns(test: &str, body: &str) -> Vec<String> {
    let text = format!("{PRELUDE}{body}");
    let (p, jp) = planned(test, &text);
    jp.turns
        .iter()
        .map(|t| {
            let first = |(f, b): (c_frontend::ir::FuncId, c_frontend::ir::BlockId)| {
                let block = &p.funcs[f].blocks[b];
                let pos = match block.stmts.first() {
                    Some(s) => s.pos,
                    None => match &block.term {
                        Term::Branch { pos, .. } | Term::Return(_, pos) => *pos,
                        _ => return "?".to_string(),
                    },
                };
                marker(&text, pos.line)
            };
            let mut starts: Vec<String> = t.starts.iter().map(|&s| first(s)).collect();
            starts.sort();
            let mut stores: Vec<String> = (t.stores.iter())
                .map(|&(f, b, k)| marker(&text, p.funcs[f].blocks[b].stmts[k].pos.line))
                .collect();
            stores.sort();
            format!("{} / {}", starts.join(" "), stores.join(" "))
        })
        .collect()
}

/// Main and one worker take turns through `turn` (`turns.rs`): `WORKERS` workers are started,
/// `MAIN_STORE` is what main does to hand the turn over, `WAIT` how the worker waits.
fn turn_program(workers: &str, main_store: &str, wait: &str) -> String {
    "
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int turn;
long slot;
void *taker(void *arg) {
    for (;;) {
        pthread_mutex_lock(&mu);
        WAIT
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu); // T1
        shared += slot;
        pthread_mutex_lock(&mu);
        turn = 0; // S1
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&mu);
    }
    return arg;
}
int main(void) {
    pthread_t t[2];
    turn = 0; // S0
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, taker, NULL);
    for (long k = 0; k < 4; k++) {
        pthread_mutex_lock(&mu);
        while (turn != 0)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu); // T0
        slot = k;
        MAIN_STORE
    }
    return 0;
}
"
    .replace("WORKERS", workers)
    .replace("MAIN_STORE", main_store)
    .replace("WAIT", wait)
}

const HAND_OVER: &str =
    "pthread_mutex_lock(&mu);\n        turn = 1; // S2\n        pthread_mutex_unlock(&mu);";
const WAIT_ONE: &str = "while (turn != 1)";

#[test]
fn turn_between_main_and_one_worker() {
    assert_eq!(
        turns("turn_one", &turn_program("1", HAND_OVER, WAIT_ONE)),
        ["T0 T1 / S0 S1 S2"]
    );
    // `while (!turn)` waits for any nonzero value: still apart from main's 0.
    assert_eq!(
        turns("turn_truth", &turn_program("1", HAND_OVER, "while (!turn)")),
        ["T0 T1 / S0 S1 S2"]
    );
}

/// The near misses: each breaks one step of the argument (`turns.rs`).
#[test]
fn turn_near_misses() {
    let none: [&str; 0] = [];
    // Two workers may both see 1 before either stores 0.
    assert_eq!(
        turns("turn_two", &turn_program("2", HAND_OVER, WAIT_ONE)),
        none
    );
    // Main hands the turn over a second time, after its turn has ended.
    let twice = format!("{HAND_OVER}\n        pthread_mutex_lock(&mu);\n        turn = 1;\n        pthread_mutex_unlock(&mu);");
    assert_eq!(
        turns("turn_twice", &turn_program("1", &twice, WAIT_ONE)),
        none
    );
    // The store does not hold the mutex.
    assert_eq!(
        turns("turn_unlocked", &turn_program("1", "turn = 1;", WAIT_ONE)),
        none
    );
    // The worker waits for a value main's turn also has: `turn != 2` holds of 0.
    assert_eq!(
        turns(
            "turn_overlap",
            &turn_program("1", HAND_OVER, "while (turn == 2)")
        ),
        none
    );
    // A constant that some integer type holds as another value (`-1u` is `0xffffffff`).
    assert_eq!(
        turns(
            "turn_large",
            &turn_program("1", HAND_OVER, "while (turn != 1000)")
        ),
        none
    );
    // The hand-over in a helper, also called where main's turn has ended.
    let helper = |main_store: &str| {
        turn_program("1", main_store, WAIT_ONE).replace(
            "int main(void) {",
            "void give(int v) { pthread_mutex_lock(&mu); turn = v; pthread_mutex_unlock(&mu); }\nint main(void) {",
        )
    };
    assert_eq!(
        turns("turn_helper_after", &helper("give(1);\n        give(1);")),
        none
    );
}

/// A store in a helper that every caller calls in its turn ends that turn.
#[test]
fn turn_handed_over_by_a_helper() {
    let program = turn_program("1", "give(1); // G", WAIT_ONE).replace(
        "int main(void) {",
        "void give(int v) {\n    pthread_mutex_lock(&mu);\n    turn = v; // S2\n    pthread_mutex_unlock(&mu);\n}\nint main(void) {",
    );
    assert_eq!(turns("turn_helper", &program), ["T0 T1 / S0 S1 S2"]);
}

/// Main and a worker take turns through helpers: `wait_turn(me)` returns in a turn of `me`,
/// `pass_turn(to)` ends it. `MAIN_ARG` is what main waits for, `SECOND` starts a second
/// thread.
fn helper_turns(main_arg: &str, second: &str) -> String {
    "
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int turn;
long slot;
void wait_turn(int me) {
    pthread_mutex_lock(&mu);
    while (turn != me)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu); // T
}
void pass_turn(int to) {
    pthread_mutex_lock(&mu);
    turn = to; // S
    pthread_mutex_unlock(&mu);
}
void *taker(void *arg) {
    wait_turn(1);
    shared += slot;
    pass_turn(0);
    return arg;
}
int main(int argc, char **argv) {
    pthread_t t, u;
    pthread_create(&t, NULL, taker, NULL);
    SECOND
    for (long k = 0; k < argc; k++) {
        wait_turn(MAIN_ARG);
        slot = k;
        pass_turn(1);
    }
    return 0;
}
"
    .replace("MAIN_ARG", main_arg)
    .replace("SECOND", second)
}

#[test]
fn turn_taken_through_helpers() {
    assert_eq!(turns("turn_helpers", &helper_turns("0", "")), ["T / S"]);
    let none: [&str; 0] = [];
    // A value the call does not say: main's turn could be the taker's.
    assert_eq!(
        turns("turn_helpers_unknown", &helper_turns("argc & 1", "")),
        none
    );
    // Two threads of one routine: it runs in two.
    let second = "pthread_create(&u, NULL, taker, NULL);";
    assert_eq!(
        turns("turn_helpers_twice", &helper_turns("0", second)),
        none
    );
    // Two routines, each started once, both wait for 1.
    let other = helper_turns("0", "pthread_create(&u, NULL, other, NULL);").replace(
        "int main(",
        "void *other(void *arg) { wait_turn(1); shared--; pass_turn(0); return arg; }\nint main(",
    );
    assert_eq!(turns("turn_helpers_two", &other), none);
    // The same with 2: apart from main's and the taker's.
    let apart = other.replace("wait_turn(1); shared--", "wait_turn(2); shared--");
    assert_eq!(turns("turn_helpers_apart", &apart), ["T / S"]);
}

/// A monitor that waits for a value main's turn also has, but never stores the variable, holds
/// no turn: main's and the worker's turns stand.
#[test]
fn turn_with_an_observer() {
    let program = turn_program("1", HAND_OVER, WAIT_ONE).replace(
        "int main(void) {",
        "void *monitor(void *arg) {\n    pthread_mutex_lock(&mu);\n    while (turn == 1)\n        pthread_cond_wait(&cv, &mu);\n    pthread_mutex_unlock(&mu); // M\n    return arg;\n}\nint main(void) {",
    );
    let program = program.replace(
        "    turn = 0; // S0\n",
        "    turn = 0; // S0\n    pthread_t m;\n    pthread_create(&m, NULL, monitor, NULL);\n",
    );
    assert_eq!(turns("turn_observer", &program), ["T0 T1 / S0 S1 S2"]);
    // An observer that stores: it takes a turn of values main's has too.
    let storing = program.replace(
        "    pthread_mutex_unlock(&mu); // M\n",
        "    turn = 0;\n    pthread_mutex_unlock(&mu); // M\n",
    );
    let none: [&str; 0] = [];
    assert_eq!(turns("turn_observer_storing", &storing), none);
}

/// A turn variable in a union: a store of another member changes it too.
#[test]
fn turn_in_a_union() {
    let program = |sibling: &str| {
        turn_program("1", HAND_OVER, WAIT_ONE)
            .replace("(turn ", "(u.turn ")
            .replace(" turn = ", " u.turn = ")
            .replace("int turn;", "union { int turn; unsigned char raw; } u;")
            .replace("slot = k;", &format!("slot = k;\n        {sibling}"))
    };
    assert_eq!(turns("turn_union", &program("")), ["T0 T1 / S0 S1 S2"]);
    let none: [&str; 0] = [];
    assert_eq!(turns("turn_union_raw", &program("u.raw = 1;")), none);
}

/// The turns found in `body` through lock objects (`turn_objects.rs`): the markers of the calls
/// that start a turn, and of the stores, direct or through a helper's parameter.
fn object_turns(test: &str, body: &str) -> Vec<String> {
    let text = format!("{PRELUDE}{body}");
    let (p, jp) = planned(test, &text);
    let at = |(f, b, k): (c_frontend::ir::FuncId, c_frontend::ir::BlockId, usize)| {
        marker(&text, p.funcs[f].blocks[b].stmts[k].pos.line)
    };
    jp.turns
        .iter()
        .map(|t| {
            let mut calls: Vec<String> = t.start_calls.iter().map(|&s| at(s)).collect();
            let mut stores: Vec<String> = (t.stores.iter().chain(&t.param_stores))
                .map(|&s| at(s))
                .collect();
            calls.sort();
            calls.dedup();
            stores.sort();
            stores.dedup();
            format!("{} / {}", calls.join(" "), stores.join(" "))
        })
        .collect()
}

/// A loader and main hand a value in a lock object over through helpers, as a thread library
/// does: `LOADER_WAIT` is how the loader waits, `MAIN_HAND` how main hands the turn over.
fn object_program(loader_wait: &str, main_hand: &str) -> String {
    "
struct bolt { pthread_mutex_t mutex; pthread_cond_t cond; long value; };
struct bolt state = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }; // I
long batch;
static void possess(struct bolt *b) { pthread_mutex_lock(&b->mutex); }
static void release(struct bolt *b) { pthread_mutex_unlock(&b->mutex); }
static void twist(struct bolt *b, int op, long val) {
    if (op == 0)
        b->value = val; // P0
    else
        b->value += val; // P1
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->mutex);
}
static void wait_for(struct bolt *b, int op, long val) {
    if (op == 0) {
        while (b->value != val)
            pthread_cond_wait(&b->cond, &b->mutex);
    } else {
        while (b->value == val)
            pthread_cond_wait(&b->cond, &b->mutex);
    }
}
void *loader(void *arg) {
    for (int i = 0; i < 3; i++) {
        possess(&state);
        LOADER_WAIT
        release(&state);
        shared += batch;
        possess(&state);
        twist(&state, 0, 0);
    }
    return arg;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    for (int i = 0; i < 3; i++) {
        possess(&state);
        wait_for(&state, 0, 0); // W0
        release(&state);
        batch = i;
        MAIN_HAND
    }
    pthread_join(t, NULL);
    return 0;
}
"
    .replace("LOADER_WAIT", loader_wait)
    .replace("MAIN_HAND", main_hand)
}

const LOADER_WAITS: &str = "wait_for(&state, 1, 0); // W1";
const MAIN_HANDS: &str = "possess(&state);\n        twist(&state, 1, 1);";

#[test]
fn turn_through_a_lock_object() {
    assert_eq!(
        object_turns("turn_object", &object_program(LOADER_WAITS, MAIN_HANDS)),
        ["W0 W1 / I P0 P1"]
    );
}

/// The near misses of turns through lock objects: each breaks one step of the argument.
#[test]
fn turn_through_a_lock_object_near_misses() {
    let none: [&str; 0] = [];
    let check = |test: &str, program: String| assert_eq!(object_turns(test, &program), none);
    // The loader waits for a value other than 3: main's 0 too.
    check(
        "turn_object_overlap",
        object_program("wait_for(&state, 1, 3);", MAIN_HANDS),
    );
    // main stores without the mutex.
    check(
        "turn_object_unlocked",
        object_program(LOADER_WAITS, "twist(&state, 1, 1);"),
    );
    // The object's address escapes to code that may write the value.
    check(
        "turn_object_escapes",
        object_program(LOADER_WAITS, MAIN_HANDS)
            .replace("batch = i;", "batch = i;\n        use(&state);"),
    );
    // A helper that copies its parameter may write through the copy.
    let copying = object_program(LOADER_WAITS, MAIN_HANDS).replace(
        "        b->value += val; // P1",
        "        { struct bolt *c = b; c->value += val; }",
    );
    check("turn_object_copied", copying);
    // A store in main's first turn, before the wait, is in no turn.
    check(
        "turn_object_early_store",
        object_program(LOADER_WAITS, MAIN_HANDS)
            .replace("        possess(&state);\n        wait_for(&state, 0, 0); // W0", "        possess(&state);\n        twist(&state, 0, 0);\n        possess(&state);\n        wait_for(&state, 0, 0); // W0"),
    );
}

/// A helper that sets the value before any thread exists stores it in no turn, and needs none;
/// the same helper called once a thread runs breaks the argument.
#[test]
fn turn_through_a_lock_object_set_before_threads() {
    let init = |at: &str| {
        let program = object_program(LOADER_WAITS, MAIN_HANDS).replace(
            "void *loader(void *arg) {",
            "static void reset(struct bolt *b) { b->value = 0; } // R\nvoid *loader(void *arg) {",
        );
        match at {
            "before" => program.replace(
                "    pthread_t t;\n",
                "    pthread_t t;\n    reset(&state); // R0\n",
            ),
            _ => program.replace(
                "    pthread_join(t, NULL);\n",
                "    reset(&state);\n    pthread_join(t, NULL);\n",
            ),
        }
    };
    assert_eq!(
        object_turns("turn_object_reset", &init("before")),
        ["W0 W1 / I P0 P1 R"]
    );
    let none: [&str; 0] = [];
    assert_eq!(object_turns("turn_object_reset_late", &init("after")), none);
}

/// A wait helper that chooses its comparison with a `switch` on a constant argument, as a
/// thread library's does: each call takes the case its constant names.
#[test]
fn turn_through_a_lock_object_waited_for_by_a_switch() {
    let switched = |program: String| {
        program.replace(
            "    if (op == 0) {\n        while (b->value != val)\n            pthread_cond_wait(&b->cond, &b->mutex);\n    } else {\n        while (b->value == val)\n            pthread_cond_wait(&b->cond, &b->mutex);\n    }",
            "    switch (op) {\n    case 0:\n        while (b->value != val)\n            pthread_cond_wait(&b->cond, &b->mutex);\n        break;\n    case 1 ... 2:\n        while (b->value == val)\n            pthread_cond_wait(&b->cond, &b->mutex);\n    }",
        )
    };
    let program = switched(object_program(LOADER_WAITS, MAIN_HANDS));
    assert!(program.contains("switch (op)"));
    assert_eq!(
        object_turns("turn_object_switch", &program),
        ["W0 W1 / I P0 P1"]
    );
    let none: [&str; 0] = [];
    let overlap = switched(object_program("wait_for(&state, 2, 3);", MAIN_HANDS));
    assert_eq!(object_turns("turn_object_switch_overlap", &overlap), none);
}

/// [`object_program`] with its lock object made on the heap by a constructor and kept in a
/// global pointer that `main` sets before it starts the loader.
fn pointer_program(constructor_extra: &str) -> String {
    object_program(LOADER_WAITS, MAIN_HANDS)
        .replace(
            "struct bolt state = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }; // I",
            &format!(
                "struct bolt *state, *last;
struct bolt *new_bolt(void) {{
    struct bolt *b = malloc(sizeof *b);
    if (!b)
        abort();
    pthread_mutex_init(&b->mutex, NULL);
    pthread_cond_init(&b->cond, NULL);
    b->value = 0;
    {constructor_extra}
    return b;
}}"
            ),
        )
        .replace("(&state", "(state")
        .replace(
            "    pthread_t t;\n",
            "    pthread_t t;\n    state = new_bolt();\n",
        )
}

#[test]
fn turn_through_a_lock_object_behind_a_pointer() {
    assert_eq!(
        object_turns("turn_pointer", &pointer_program("")),
        ["W0 W1 / P0 P1"]
    );
    // Made in `main` itself, tested for null and set up through the pointer before any thread.
    let in_main = pointer_program("").replace(
        "    state = new_bolt();\n",
        "    state = malloc(sizeof *state);\n    if (!state)\n        abort();\n    pthread_mutex_init(&state->mutex, NULL);\n    state->value = 0; // S\n",
    );
    assert_eq!(
        object_turns("turn_pointer_in_main", &in_main),
        ["W0 W1 / P0 P1 S"]
    );
    let none: [&str; 0] = [];
    let check = |test: &str, program: String| assert_eq!(object_turns(test, &program), none);
    // The constructor keeps a copy of the object elsewhere.
    check("turn_pointer_kept", pointer_program("last = b;"));
    // The pointer is set again once the loader runs.
    check(
        "turn_pointer_set_late",
        pointer_program("").replace(
            "    pthread_join(t, NULL);\n",
            "    pthread_join(t, NULL);\n    state = new_bolt();\n",
        ),
    );
    // The pointer is set once a thread may run (started through a pointer to its routine).
    check(
        "turn_pointer_set_after_a_create",
        pointer_program("")
            .replace("    state = new_bolt();\n", "")
            .replace(
                "    pthread_create(&t, NULL, loader, NULL);\n",
                "    void *(*routine)(void *) = loader;\n    pthread_create(&t, NULL, routine, NULL);\n    state = new_bolt();\n",
            ),
    );
    // The pointer is handed to code that may keep it or write through it.
    check(
        "turn_pointer_escapes",
        pointer_program("").replace("batch = i;", "batch = i;\n        use(state);"),
    );
}

/// A monitor that waits through the helper for a value main's turn has too, and never stores
/// the value, holds no turn: main's and the loader's stand. One that stores breaks them.
#[test]
fn turn_through_a_lock_object_with_an_observer() {
    let with_monitor = |after_wait: &str| {
        object_program(LOADER_WAITS, MAIN_HANDS)
            .replace(
                "int main(void) {",
                &format!(
                    "void *monitor(void *arg) {{\n    possess(&state);\n    wait_for(&state, 1, 1); // M\n    {after_wait}\n    return arg;\n}}\nint main(void) {{"
                ),
            )
            .replace(
                "    pthread_create(&t, NULL, loader, NULL);\n",
                "    pthread_create(&t, NULL, loader, NULL);\n    pthread_t m;\n    pthread_create(&m, NULL, monitor, NULL);\n",
            )
    };
    assert_eq!(
        object_turns("turn_object_observer", &with_monitor("release(&state);")),
        ["W0 W1 / I P0 P1"]
    );
    let none: [&str; 0] = [];
    assert_eq!(
        object_turns(
            "turn_object_observer_storing",
            &with_monitor("twist(&state, 0, 0);")
        ),
        none
    );
}
