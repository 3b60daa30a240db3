//! The techniques of the analysis that can be switched off one by one, to measure what each buys
//! (the paper's table 3).
//!
//! [`Technique`] is the one list of them: its tag is the name the test fixtures' `needs=`
//! annotations use, and [`Techniques`] the set of those that are on, which every phase (the C
//! front end's constraint generation, the thread analysis) reads. The command line's switch for
//! each, and its help, belong to the CLI (`src/switches.rs`), whose exhaustive match makes a new
//! technique one variant here, its switch there, and the code that consults it.
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

    /// The technique a `needs=` tag names.
    pub fn from_tag(tag: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.tag() == tag)
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
    fn tags_round_trip() {
        for t in Technique::ALL {
            assert_eq!(Technique::from_tag(t.tag()), Some(t));
        }
        assert_eq!(Technique::from_tag("no-such"), None);
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
