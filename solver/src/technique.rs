//! The techniques of the analysis that can be switched off one by one, to measure what each buys
//! (the paper's table 3).
//!
//! [`Technique`] is the one list of them: its flag is the command-line switch, its tag the name
//! the test fixtures' `needs=` annotations use, and [`Techniques`] the set of those that are on,
//! which every phase (the C front end's constraint generation, the thread analysis) reads. A new
//! technique is one variant here plus the code that consults it.
//!
//! Switching a technique off never hides a race: each can only make more accesses racy
//! (`--field-insensitive` may also merge several warnings into one, as it merges locations;
//! `--no-linearity` lets locks that stand for several run-time locks count as held, which is the
//! paper's unsound baseline).

/// One technique of the analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// Non-linear locks (allocated in loops, in arrays, conflated) never count as held (§2.2).
    Linearity,
    /// Only accesses that may happen at the same time in two threads need a common lock (§3.2);
    /// without it, every location with a write must be consistently correlated.
    Sharing,
    /// Labels private to a run of a function are checked there ([Down-Fork], §3.2).
    DownFork,
    /// `pthread_join` ends the threads it certainly joins.
    Joins,
    /// Accesses through a local pointer to fresh, unpublished memory are not shared (§3.2).
    Uniqueness,
    /// A `void *` keeps one entry per type class cast to or from it (§3.4); off, every cast
    /// between `T *` and `void *` conflates the `T` memory.
    Void,
    /// Each struct field is its own location (§3.4); off, all fields of an object are one.
    FieldSensitivity,
    /// Each function is its own generalisation scope, instantiated at each call (figure 6
    /// \[Inst\]); off, every label lives at the root (one set of labels for all calls).
    ContextSensitivity,
    /// An access inside its own object while that object's lock is held is correlated with the
    /// object's own lock, as inside an `unpack` of an existential package (§3.3): inferred
    /// unpacks in C. Off, a lock protects only while its label is linear.
    Existentials,
    /// Branches on variables that hold one value in every run (configuration that never
    /// changes) go the one way they can, and the code behind the other side is not analysed
    /// (C front end, `fold`).
    Configuration,
}

impl Technique {
    /// Every technique, in the order of the paper's table 3 columns as locksmith prints them.
    pub const ALL: [Technique; 10] = [
        Technique::Linearity,
        Technique::Sharing,
        Technique::DownFork,
        Technique::Joins,
        Technique::Uniqueness,
        Technique::Void,
        Technique::FieldSensitivity,
        Technique::ContextSensitivity,
        Technique::Existentials,
        Technique::Configuration,
    ];

    /// The name of the technique in the fixtures' `needs=` tags.
    pub fn tag(self) -> &'static str {
        match self {
            Technique::Linearity => "linearity",
            Technique::Sharing => "sharing",
            Technique::DownFork => "down-fork",
            Technique::Joins => "joins",
            Technique::Uniqueness => "uniqueness",
            Technique::Void => "void",
            Technique::FieldSensitivity => "field",
            Technique::ContextSensitivity => "context",
            Technique::Existentials => "existentials",
            Technique::Configuration => "configuration",
        }
    }

    /// The command-line switch that turns the technique off, without its leading `--`.
    pub fn flag(self) -> &'static str {
        match self {
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
    pub fn help(self) -> &'static str {
        match self {
            Technique::Linearity => {
                "Let non-linear locks (allocated in loops, in arrays, conflated) count as held"
            }
            Technique::Sharing => {
                "Treat every pair of accesses as concurrent: every location with a write needs a lock"
            }
            Technique::DownFork => {
                "Check locations private to one run of a function at `main`, as if all runs shared them"
            }
            Technique::Joins => "Ignore `pthread_join`: joined threads stay concurrent with what follows",
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

    /// The technique a `needs=` tag names.
    pub fn from_tag(tag: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.tag() == tag)
    }

    /// The technique a switch turns off, given with or without its leading `--`.
    pub fn from_flag(flag: &str) -> Option<Technique> {
        let flag = flag.strip_prefix("--").unwrap_or(flag);
        Technique::ALL.into_iter().find(|t| t.flag() == flag)
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// A set of techniques that are on; the default has all of them on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Techniques(u16);

impl Techniques {
    /// Every technique on.
    pub fn all() -> Techniques {
        Techniques(Technique::ALL.iter().fold(0, |bits, t| bits | t.bit()))
    }

    /// Whether `t` is on.
    pub fn has(self, t: Technique) -> bool {
        self.0 & t.bit() != 0
    }

    /// Switches `t` off.
    pub fn disable(&mut self, t: Technique) {
        self.0 &= !t.bit();
    }

    /// The set with `t` switched off.
    pub fn without(mut self, t: Technique) -> Techniques {
        self.disable(t);
        self
    }
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques::all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_round_trip() {
        for t in Technique::ALL {
            assert_eq!(Technique::from_tag(t.tag()), Some(t));
            assert_eq!(Technique::from_flag(t.flag()), Some(t));
            assert_eq!(Technique::from_flag(&format!("--{}", t.flag())), Some(t));
        }
        assert_eq!(Technique::from_flag("--no-such"), None);
    }

    #[test]
    fn sets_switch_one_technique_off() {
        let all = Techniques::all();
        for t in Technique::ALL {
            let off = all.without(t);
            assert!(!off.has(t));
            for u in Technique::ALL.into_iter().filter(|&u| u != t) {
                assert!(off.has(u));
            }
        }
    }
}
