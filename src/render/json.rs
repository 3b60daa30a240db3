//! The JSON format: the report model serialised, pretty-printed, one object per run.
//!
//! The contract is the model's types (`crate::report::model`); this renderer adds, renames and
//! drops nothing. Keys come out sorted (the report goes through `serde_json::Value`, whose maps
//! are ordered), so the output does not depend on field declaration order.
//!
//! A check report is rendered one warning at a time, and each distinct list of accesses once:
//! the locations of one flow component share their list ([`Race::accesses`]), which on a large
//! program is thousands of accesses repeated for hundreds of locations. The text produced is the
//! same as serialising the whole report at once (a test below holds it to that).

use std::collections::hash_map::Entry;
use std::io::{self, Write};
use std::rc::Rc;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::{RenderContext, RenderError, Renderer};
use crate::report::model::{CheckReport, Race, RaceAccess, Warning};
use crate::report::Report;

/// The JSON format: the report as one pretty-printed JSON object, with a final newline.
pub struct Json;

impl Renderer for Json {
    fn render(
        &self,
        report: &Report,
        _cx: &RenderContext,
        out: &mut dyn Write,
    ) -> Result<(), RenderError> {
        match report {
            Report::Check(check) => render_check(check, out)?,
            other => out.write_all(whole(other).as_bytes())?,
        }
        Ok(())
    }
}

/// Any serialisable value pretty-printed with sorted keys, without a final newline.
fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
    // Serialising the model cannot fail: every map key is a field name and no type has a
    // fallible `Serialize` implementation.
    let value = serde_json::to_value(value).expect("the report model serialises to JSON");
    format!("{value:#}")
}

/// A report serialised at once.
fn whole(report: &Report) -> String {
    format!("{}\n", pretty(report))
}

/// Indents every line but the first by `by`: a value pretty-printed on its own, placed where
/// its first line starts after a key at that depth. (JSON strings cannot hold a raw newline, so
/// every newline is between tokens.)
fn indent(text: &str, by: &str) -> String {
    text.replace('\n', &format!("\n{by}"))
}

/// A check report: the object without its warnings (`warnings` is the last key), then each
/// warning without its lists of accesses (`accesses` and `context` emptied), then each list,
/// spliced in where it was emptied.
fn render_check(check: &CheckReport, out: &mut dyn Write) -> io::Result<()> {
    const WARNINGS_EMPTY: &str = "\"warnings\": []";
    const ACCESSES_EMPTY: &str = "\"accesses\": []";
    const CONTEXT_EMPTY: &str = "\"context\": []";
    let no_warnings = CheckReport {
        warnings: Vec::new(),
        ..check.clone()
    };
    let head = pretty(&no_warnings);
    let at = match head.rfind(WARNINGS_EMPTY) {
        Some(at) if !check.warnings.is_empty() => at,
        _ => return out.write_all(whole(&Report::Check(check.clone())).as_bytes()),
    };
    out.write_all(&head.as_bytes()[..at])?;
    out.write_all(b"\"warnings\": [")?;
    // A list shared by several warnings is made once; the others are written as they are
    // made, element by element, so no list is held whole as text.
    let mut uses: FxHashMap<*const RaceAccess, usize> = FxHashMap::default();
    for warning in &check.warnings {
        if let Warning::Race(race) = warning {
            for list in [&race.accesses, &race.context] {
                *uses.entry(list.as_ptr()).or_default() += 1;
            }
        }
    }
    let mut made: FxHashMap<*const RaceAccess, Vec<u8>> = FxHashMap::default();
    for (k, warning) in check.warnings.iter().enumerate() {
        out.write_all(if k == 0 { "\n    " } else { ",\n    " }.as_bytes())?;
        let race = match warning {
            Warning::Race(race) => race,
            Warning::Deadlock(d) => {
                out.write_all(indent(&pretty(d), "    ").as_bytes())?;
                continue;
            }
            Warning::LockLeak(l) => {
                out.write_all(indent(&pretty(l), "    ").as_bytes())?;
                continue;
            }
        };
        let bare = Race {
            accesses: Rc::from(Vec::new()),
            context: Rc::from(Vec::new()),
            ..race.clone()
        };
        // The warning, indented as an element of `warnings`; each non-empty list goes where
        // its key holds an empty one, indented as a field of the warning.
        let text = indent(&pretty(&bare), "    ");
        let mut rest = text.as_str();
        for (empty, key, list) in [
            (ACCESSES_EMPTY, "accesses", &race.accesses),
            (CONTEXT_EMPTY, "context", &race.context),
        ] {
            if list.is_empty() {
                continue;
            }
            // The warning's own `accesses` is its first key; its own `context` follows its
            // `consequences` (keys are sorted), whose races may hold empty lists of their own.
            let found = if key == "context" {
                rest.rfind(empty)
            } else {
                rest.find(empty)
            };
            let Some(at) = found else { continue };
            out.write_all(&rest.as_bytes()[..at])?;
            write!(out, "\"{key}\": ")?;
            if uses[&list.as_ptr()] > 1 {
                let text = match made.entry(list.as_ptr()) {
                    Entry::Occupied(made) => made.into_mut(),
                    Entry::Vacant(entry) => {
                        let mut text = Vec::new();
                        write_list(list, &mut text)?;
                        entry.insert(text)
                    }
                };
                out.write_all(text)?;
            } else {
                write_list(list, out)?;
            }
            rest = &rest[at + empty.len()..];
        }
        out.write_all(rest.as_bytes())?;
    }
    out.write_all(b"\n  ]")?;
    out.write_all(&head.as_bytes()[at + WARNINGS_EMPTY.len()..])?;
    out.write_all(b"\n")
}

/// A non-empty list of accesses as `pretty` prints it, indented as a field of a warning that
/// is an element of `warnings` (six spaces), one element at a time.
fn write_list(list: &[RaceAccess], out: &mut dyn Write) -> io::Result<()> {
    const AT: &str = "      ";
    out.write_all(b"[")?;
    for (k, access) in list.iter().enumerate() {
        out.write_all(if k == 0 { "\n" } else { ",\n" }.as_bytes())?;
        out.write_all(AT.as_bytes())?;
        out.write_all(b"  ")?;
        out.write_all(indent(&pretty(access), &format!("{AT}  ")).as_bytes())?;
    }
    out.write_all(b"\n")?;
    out.write_all(AT.as_bytes())?;
    out.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{
        Acquisition, Deadlock, FileLine, Position, RaceAccess, RaceLocation, WarningKind,
    };

    fn access(line: u32, write: bool) -> RaceAccess {
        RaceAccess {
            position: Position {
                file: "a.c".into(),
                line,
                column: 3,
            },
            end_column: None,
            write,
            atomic: false,
            locks: vec!["m".into()],
            path: vec!["main".into(), "worker (a.c:9)".into()],
            thread: "the main thread".into(),
            also_in: Vec::new(),
            also_in_omitted: 0,
            via: None,
        }
    }

    /// A deadlock between the locks `a` and `b`.
    fn deadlock() -> Warning {
        let call = |lock: &str, held: &str, line: u32| Acquisition {
            position: Position {
                file: "a.c".into(),
                line,
                column: 5,
            },
            lock: lock.into(),
            locks: vec![held.into()],
            path: vec!["main".into(), "worker (a.c:9)".into()],
            thread: "the thread running worker started at a.c:9".into(),
            via: None,
            held_at: Vec::new(),
        };
        Warning::Deadlock(Deadlock {
            code: crate::report::model::DEADLOCK,
            kind: WarningKind::Deadlock,
            locks: vec!["a".into(), "b".into()],
            self_deadlock: false,
            note: None,
            acquisitions: vec![call("b", "a", 20), call("a", "b", 30)],
        })
    }

    fn race(name: &str, accesses: Rc<[RaceAccess]>) -> Warning {
        let context: Rc<[RaceAccess]> = if name == "h" {
            vec![access(9, false)].into()
        } else {
            Rc::from(Vec::new())
        };
        Warning::Race(Race {
            code: crate::report::model::DATA_RACE,
            kind: WarningKind::Race,
            location: RaceLocation {
                name: name.into(),
                declared: Some(FileLine {
                    file: "a.c".into(),
                    line: 1,
                }),
            },
            aliases: Vec::new(),
            aliases_omitted: 0,
            note: Some(
                "a \"quoted\" note\nwith \"accesses\": [] and \"context\": [] inside".into(),
            ),
            accesses,
            context,
            consequences: None,
            unfollowed: None,
            sources: Vec::new(),
        })
    }

    /// A race with two consequences, one whose own context is empty: the warning's lists must
    /// be spliced in where the warning's own keys are, not the consequences'.
    fn caused(name: &str, accesses: Rc<[RaceAccess]>) -> Warning {
        let Warning::Race(mut cause) = race(name, accesses.clone()) else {
            unreachable!("race() makes a race")
        };
        let races = ["g", "h"]
            .into_iter()
            .filter_map(|n| match race(n, vec![access(20, true)].into()) {
                Warning::Race(r) => Some(r),
                _ => None,
            })
            .collect();
        cause.context = vec![access(30, false)].into();
        cause.unfollowed = Some("u".into());
        cause.consequences = Some(crate::report::model::Consequences {
            position: crate::report::model::Position {
                file: "a.c".into(),
                line: 2,
                column: 3,
            },
            why: "w".into(),
            races,
        });
        Warning::Race(cause)
    }

    /// Rendering warning by warning, with shared lists spliced in, gives exactly the text of
    /// serialising the whole report.
    #[test]
    fn spliced_rendering_is_the_whole_serialisation() {
        let shared: Rc<[RaceAccess]> = vec![access(4, true), access(7, false)].into();
        for warnings in [
            Vec::new(),
            vec![race("g", shared.clone())],
            vec![
                race("g", shared.clone()),
                race("h", shared.clone()),
                race("k", vec![access(12, true)].into()),
            ],
            vec![deadlock()],
            vec![caused("c", shared.clone()), race("g", shared.clone())],
            vec![
                race("g", shared.clone()),
                deadlock(),
                race("h", shared.clone()),
            ],
        ] {
            let report = CheckReport {
                warnings,
                unmodelled: vec!["lib_f".into()],
                verdict: crate::report::model::Verdict::Races,
                ..CheckReport::default()
            };
            let report = Report::Check(report);
            assert_eq!(
                crate::render::rendered(crate::render::Format::Json, &report),
                whole(&report)
            );
        }
    }
}
