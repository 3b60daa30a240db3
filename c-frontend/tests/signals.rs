//! Which signals a program sends itself (`c_frontend::signals`): constants named by the calls
//! that send one, a number computed at run time or a sender called through a pointer (any
//! signal), and the signals the system raises for what the program does, which never come only
//! from outside.

mod support;

use c_frontend::signals::{self, Sent};

/// The declarations the programs below call, as the C library declares them.
const DECLS: &str = "int raise(int sig); int kill(int pid, int sig); \
                     int pthread_kill(unsigned long t, int sig); unsigned alarm(unsigned s); \
                     void abort(void); int setitimer(int which, const void *v, void *o);\n";

fn sent(body: &str) -> Sent {
    signals::sent(&support::lower(&format!("{DECLS}{body}")))
}

#[test]
fn constants_named_by_senders_are_sent() {
    let s = sent("int main(void) { raise(10); kill(0, 15); pthread_kill(0, 12); return 0; }");
    assert!(!s.any);
    assert_eq!(s.signals.iter().copied().collect::<Vec<_>>(), [10, 12, 15]);
    assert!(!s.only_from_outside(10));
    assert!(s.only_from_outside(1), "SIGHUP is sent by nobody here");
    assert!(s.only_from_outside(2));
}

#[test]
fn timers_and_abort_send_their_own_signals() {
    let s = sent("int main(void) { alarm(3); setitimer(2, 0, 0); abort(); return 0; }");
    assert!(!s.any);
    assert_eq!(s.signals.iter().copied().collect::<Vec<_>>(), [6, 14, 27]);
    assert!(!s.only_from_outside(14), "alarm sends SIGALRM");
}

#[test]
fn a_computed_signal_or_a_sender_through_a_pointer_may_be_any() {
    let computed = sent("int main(int argc, char **argv) { return raise(argc); }");
    assert!(computed.any);
    assert!(!computed.only_from_outside(10));
    let pointer = sent(
        "int (*send)(int) = raise;\n\
         int main(void) { return send(10); }",
    );
    assert!(pointer.any);
}

#[test]
fn signals_the_system_raises_never_come_only_from_outside() {
    let s = sent("int main(void) { return 0; }");
    for system in [11, 13, 17, 6, 8] {
        assert!(!s.only_from_outside(system), "signal {system}");
    }
    assert_eq!(signals::name(10), Some("SIGUSR1"));
    assert_eq!(signals::name(31), Some("SIGSYS"));
    assert_eq!(signals::name(0), None);
    assert_eq!(signals::name(64), None);
}
