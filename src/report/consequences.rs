//! Races that are consequences of another: a wait for a counter of running threads to reach
//! zero that the analysis presumes, but does not trust, to join the threads it counts
//! (`c_frontend::analyses::joins::PresumedJoin`). The races a check trusting the wait no longer
//! finds are listed under the race of the counter itself ([`Race::consequences`]), which is the
//! one to fix; when the counter does not race (a thread that joins the workers counts it down,
//! under its lock), each is reported on its own, saying which wait would order it
//! ([`Race::unfollowed`]).
//!
//! This module only moves built races and words what the explain query found; it never decides
//! what is a consequence.

use std::path::Path;

use c_frontend::analyses::joins::PresumedJoin;
use c_frontend::driver::CheckResult;
use c_frontend::explain::presumed_outcomes;
use rustc_hash::FxHashSet;

use super::check::position;
use super::model::{Consequences, Race};

/// `races`, with the consequences of each presumed join moved under its cause, or marked as
/// ordered by a synchronisation the analysis does not follow.
pub fn grouped(r: &CheckResult, root: &Path, mut races: Vec<Race>) -> Vec<Race> {
    for outcome in presumed_outcomes(r) {
        if outcome.vanished.is_empty() {
            continue;
        }
        let vanished: FxHashSet<u32> = outcome.vanished.iter().map(|&i| i as u32).collect();
        let causes: FxHashSet<u32> = outcome.causes.iter().map(|&i| i as u32).collect();
        let follows = |race: &Race| {
            !race.sources.is_empty() && race.sources.iter().all(|i| vanished.contains(i))
        };
        let is_cause = |race: &Race| race.sources.iter().any(|i| causes.contains(i));
        let join = outcome.join;
        if races.iter().any(is_cause) {
            // The cause never follows: its racing test of the counter is still found.
            let (moved, mut kept): (Vec<Race>, Vec<Race>) =
                races.into_iter().partition(|race| follows(race));
            match kept.iter_mut().find(|race| is_cause(race)) {
                Some(cause) => match &mut cause.consequences {
                    Some(existing) => existing.races.extend(moved),
                    None => {
                        cause.consequences = Some(Consequences {
                            position: position(&r.program, root, join.test_pos),
                            why: cause_words(r, join),
                            races: moved,
                        })
                    }
                },
                // Unreachable as the cause never follows; nothing is ever dropped.
                None => kept.extend(moved),
            }
            races = kept;
        } else {
            for race in races.iter_mut().filter(|race| follows(race)) {
                race.unfollowed
                    .get_or_insert_with(|| unfollowed_words(r, root, join));
            }
        }
    }
    races
}

/// Why the cause's consequences are its own, in words.
fn cause_words(r: &CheckResult, join: &PresumedJoin) -> String {
    let waiter = &r.program.funcs[join.test.0].name;
    format!(
        "`{waiter}` waits here for `{}` to reach 0. {} Were this wait a join of the threads the \
         counter counts ({}), the races below would not be reported: fix the wait, and they \
         are fixed",
        join.counter,
        broken_words(r, join),
        creates_words(r, join)
    )
}

/// A race's unfollowed synchronisation, in words.
fn unfollowed_words(r: &CheckResult, root: &Path, join: &PresumedJoin) -> String {
    let p = &r.program;
    let at = position(p, root, join.test_pos);
    format!(
        "ordered if the wait of `{}` at {}:{} for `{}` to reach 0 joins the threads it counts \
         ({}), which the analysis does not follow. {}",
        p.funcs[join.test.0].name,
        at.file,
        at.line,
        join.counter,
        creates_words(r, join),
        broken_words(r, join)
    )
}

/// What breaks the counter-join argument, in sentences.
fn broken_words(r: &CheckResult, join: &PresumedJoin) -> String {
    let by = &r.program.funcs[join.counted_down_by].name;
    let mut why = Vec::new();
    if join.unlocked_test {
        why.push("The wait reads it without the lock its count-downs hold.".to_string());
    }
    if join.reaper {
        why.push(format!(
            "`{by}` counts it down after joining a thread, which need not be one it counts."
        ));
    }
    if why.is_empty() {
        why.push(format!("`{by}` counts it down."));
    }
    why.join(" ")
}

/// The counted creates, in words: `started at line 12, 30`.
fn creates_words(r: &CheckResult, join: &PresumedJoin) -> String {
    let p = &r.program;
    let lines: Vec<String> = join
        .creates
        .iter()
        .map(|&(f, b, k)| p.funcs[f].blocks[b].stmts[k].pos.line.to_string())
        .collect();
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("started at {word} {}", lines.join(", "))
}
