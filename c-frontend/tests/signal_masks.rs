//! What `sigprocmask` and `pthread_sigmask` calls block and unblock
//! (`c_frontend::analyses::signal_masks`): sets built by `sigemptyset`/`sigaddset` of constant
//! signals are followed, a set of unknown contents (a saved old mask, one built on one branch
//! only) blocks nothing and may unblock everything, and only signals with a handler count.

mod support;

use c_frontend::analyses::signal_masks::{self, MaskChange};

/// The declarations the programs below call, as the C library declares them (Linux's numbers:
/// `SIG_BLOCK` 0, `SIG_UNBLOCK` 1, `SIG_SETMASK` 2, `SIGINT` 2, `SIGTERM` 15).
const DECLS: &str = "typedef struct { unsigned long v[16]; } sigset_t;\n\
    typedef void (*handler_t)(int);\n\
    handler_t signal(int sig, handler_t h);\n\
    int sigemptyset(sigset_t *s); int sigfillset(sigset_t *s);\n\
    int sigaddset(sigset_t *s, int sig); int sigdelset(sigset_t *s, int sig);\n\
    int sigprocmask(int how, const sigset_t *s, sigset_t *old);\n\
    static void on(int s) { (void)s; }\n";

const INT: u64 = 1 << 1;
const TERM: u64 = 1 << 14;

fn changes(body: &str) -> Vec<MaskChange> {
    signal_masks::analyse(&support::lower(&format!("{DECLS}{body}")))
        .changes
        .into_values()
        .collect()
}

#[test]
fn a_built_set_blocks_its_signals_and_setting_a_saved_mask_unblocks_all() {
    let found = changes(
        "int main(void) { sigset_t s, old; signal(2, on); signal(15, on);
           sigemptyset(&s); sigaddset(&s, 2);
           sigprocmask(0, &s, &old);
           sigprocmask(2, &old, 0);
           sigprocmask(1, &s, 0); return 0; }",
    );
    let block = |blocks, unblocks| MaskChange { blocks, unblocks };
    assert_eq!(found, [block(INT, 0), block(0, INT | TERM), block(0, INT)]);
}

#[test]
fn a_set_built_on_one_branch_only_blocks_nothing() {
    let found = changes(
        "int main(int argc, char **argv) { sigset_t s; signal(2, on); (void)argv;
           if (argc > 1) { sigemptyset(&s); sigaddset(&s, 2); }
           sigprocmask(0, &s, 0); return 0; }",
    );
    assert_eq!(found, [MaskChange::default()]);
}

#[test]
fn a_full_set_less_one_signal_blocks_the_others_with_handlers() {
    let found = changes(
        "int main(void) { sigset_t s; signal(2, on); signal(15, on);
           sigfillset(&s); sigdelset(&s, 15); sigprocmask(0, &s, 0); return 0; }",
    );
    assert_eq!(
        found,
        [MaskChange {
            blocks: INT,
            unblocks: 0
        }]
    );
}

#[test]
fn a_set_assigned_whole_holds_what_it_was_given() {
    let found = changes(
        "int main(void) { sigset_t s, saved; signal(2, on);
           sigemptyset(&saved);
           sigemptyset(&s); sigaddset(&s, 2); s = saved;
           sigprocmask(0, &s, 0); return 0; }",
    );
    assert_eq!(found, [MaskChange::default()]);
}

#[test]
fn without_handlers_there_is_nothing_to_follow() {
    let masks = signal_masks::analyse(&support::lower(&format!(
        "{DECLS}int main(void) {{ sigset_t s; sigfillset(&s); sigprocmask(0, &s, 0); return 0; }}"
    )));
    assert!(masks.changes.is_empty() && masks.masked.is_empty());
}
