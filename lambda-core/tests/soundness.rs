//! The soundness theorem of λ▷ (paper §2.3) as a property: for random well-typed programs that use
//! let-polymorphism, higher-order functions, pairs, conditionals, `newlock` inside functions,
//! recursion and existentials, if the analysis accepts a program (exit status 0), no run of the
//! reference interpreter accesses one location constant R under two different lock constants L.

mod support;

use lambda_core::check::check_here;
use lambda_core::erase::erase_existentials;
use lambda_core::interp;
use proptest::prelude::*;
use support::gen::{arb_program, arb_program_with, generate, GenConfig};
use support::show;

const FUEL: u64 = 200_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn accepted_programs_never_access_a_location_under_two_locks(p in arb_program()) {
        let checked = check_here(&p).expect("generated programs are well typed");
        if checked.is_ok() {
            let run = interp::run(&p, FUEL);
            prop_assert!(
                run.is_consistently_correlated(),
                "accepted, but locations {:?} were accessed under two locks:\n{}",
                run.inconsistent_locations(),
                show(&p)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// The `--no-existentials` baseline is sound too: with every package erased to its pair
    /// (which runs the same way), an accepted program never races.
    #[test]
    fn accepted_programs_without_existentials_never_race(p in arb_program()) {
        let erased = erase_existentials(&p);
        let checked = check_here(&erased).expect("erasing packages keeps programs well typed");
        if checked.is_ok() {
            let run = interp::run(&p, FUEL);
            prop_assert!(
                run.is_consistently_correlated(),
                "accepted without existentials, but locations {:?} were accessed under two \
                 locks:\n{}",
                run.inconsistent_locations(),
                show(&p)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same property on larger, deeper programs.
    #[test]
    fn accepted_large_programs_never_access_a_location_under_two_locks(
        p in arb_program_with(GenConfig { max_depth: 4, max_nodes: 600, ..GenConfig::default() })
    ) {
        let checked = check_here(&p).expect("generated programs are well typed");
        if checked.is_ok() {
            let run = interp::run(&p, FUEL);
            prop_assert!(
                run.is_consistently_correlated(),
                "accepted, but locations {:?} were accessed under two locks:\n{}",
                run.inconsistent_locations(),
                show(&p)
            );
        }
    }
}

/// The property is only meaningful if the analysis accepts a good share of programs, including
/// ones that exercise the hard parts; this checks the rates on a fixed sample and shows them.
#[test]
fn the_analysis_accepts_most_consistent_programs() {
    let (mut accepted, mut consistent, mut consistent_accepted, mut total) = (0, 0, 0, 0);
    for seed in 0..1500u64 {
        let p = generate(seed, &GenConfig::default());
        let checked = check_here(&p).expect("well typed");
        let run = interp::run(&p, FUEL);
        total += 1;
        if run.is_consistently_correlated() {
            consistent += 1;
            if checked.is_ok() {
                consistent_accepted += 1;
            }
        }
        if checked.is_ok() {
            accepted += 1;
            assert!(
                run.is_consistently_correlated(),
                "seed {seed} accepted but inconsistent:\n{}",
                show(&p)
            );
        }
    }
    println!(
        "{total} programs: {accepted} accepted; {consistent} consistent at run time, of which {consistent_accepted} accepted"
    );
    assert!(
        accepted * 5 >= total,
        "fewer than a fifth of the programs are accepted"
    );
}
