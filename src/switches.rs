//! The command line's switches that turn one technique of the analysis off each
//! ([`solver::technique::Technique`]), with their help texts: the CLI's words, kept here so that
//! the solver names techniques only by what they are. The matches are exhaustive, so a new
//! technique does not compile until it has a switch.

use solver::technique::Technique;

/// The switch that turns `t` off, without its leading `--`.
pub fn flag(t: Technique) -> &'static str {
    match t {
        Technique::Linearity => "no-linearity",
        Technique::Sharing => "no-sharing",
        Technique::DownFork => "no-down-fork",
        Technique::Joins => "no-joins",
        Technique::Uniqueness => "no-uniqueness",
        Technique::Void => "no-void",
        Technique::FieldSensitivity => "field-insensitive",
        Technique::ContextSensitivity => "context-insensitive",
        Technique::Existentials => "no-existentials",
        Technique::Configuration => "no-configuration",
    }
}

/// What the switch does, for the command line's help.
pub fn help(t: Technique) -> &'static str {
    match t {
        Technique::Linearity => {
            "Let non-linear locks (allocated in loops, in arrays, conflated) count as held"
        }
        Technique::Sharing => {
            "Treat every pair of accesses as concurrent: every location with a write needs a lock"
        }
        Technique::DownFork => {
            "Check locations private to one run of a function at `main`, as if all runs shared them"
        }
        Technique::Joins => {
            "Ignore `pthread_join`: joined threads stay concurrent with what follows"
        }
        Technique::Uniqueness => {
            "Count accesses through pointers to fresh, not yet published memory as shared"
        }
        Technique::Void => {
            "Conflate the memory of every cast between `T*` and `void*` (no per-type `void*` entries)"
        }
        Technique::FieldSensitivity => "Make all fields of a struct object one location",
        Technique::ContextSensitivity => {
            "Give each function one set of labels for all its calls (no instantiation per call)"
        }
        Technique::Existentials => {
            "Infer no unpacks: an object's own lock protects its data only when that lock is linear"
        }
        Technique::Configuration => {
            "Analyse code behind branches on variables that never change, as if they could"
        }
    }
}

/// The technique a switch turns off, given with or without its leading `--`.
pub fn from_flag(switch: &str) -> Option<Technique> {
    let switch = switch.strip_prefix("--").unwrap_or(switch);
    Technique::ALL.into_iter().find(|&t| flag(t) == switch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_distinct_and_round_trip() {
        for t in Technique::ALL {
            assert_eq!(from_flag(flag(t)), Some(t));
            assert_eq!(from_flag(&format!("--{}", flag(t))), Some(t));
        }
        assert_eq!(from_flag("--no-such"), None);
    }
}
