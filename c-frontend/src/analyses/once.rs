//! The functions that run at most once in a run of the program: `main`, when nothing calls it
//! or takes its address, and a user function whose only use anywhere is one direct call, made
//! by a function that runs once, at a statement on no cycle of that function's control flow.
//!
//! Such a function is entered at most once, by the main thread: a loop in it runs once, so a
//! counted loop's counter takes each value once in the whole run — what the hand-offs of a
//! counter's value or of an array's elements to the threads of a create rest on
//! ([`crate::analyses::unpacks`]). A program's start-up is often split so (`main` calls
//! `start_scan()`, which creates the workers in a loop and waits for them).
//!
//! A `longjmp` back into a function that already returned from the call, or a call of the
//! function through a pointer made from an integer, would run it again; locksmith assumes
//! neither (both are reported elsewhere as unsound where it sees them).
//!
//! It reads the IR and its call sites ([`Calls`]) only.

use crate::analyses::calls::Calls;
use crate::ir::{FuncId, Origin, Program};

/// The functions that run at most once (see the module doc), sorted.
pub fn run_once(p: &Program, calls: &Calls, main: FuncId) -> Vec<FuncId> {
    let mut once = vec![false; p.funcs.len()];
    if calls.main_is_called(main) {
        return Vec::new();
    }
    let addressed = calls.addressed();
    once[main.0 as usize] = true;
    let mut work = vec![main];
    while let Some(f) = work.pop() {
        let func = &p.funcs[f];
        let cfg = crate::analyses::joins::cfg::Cfg::new(func);
        for (b, _, g, _) in func.direct_calls() {
            let callee = &p.funcs[g];
            let single = calls.call_count(g) == 1 && addressed.binary_search(&g).is_err();
            if single
                && callee.defined
                && !callee.blocks.is_empty()
                && callee.origin == Origin::User
                && !crate::analyses::joins::cfg::on_any_cycle(&cfg, b.0 as usize)
                && !std::mem::replace(&mut once[g.0 as usize], true)
            {
                work.push(g);
            }
        }
    }
    p.funcs.indices().filter(|f| once[f.0 as usize]).collect()
}
