//! The JSON contract test: docs/json.md lists every serialised model type
//! with its fields, and this test serialises one fully populated sample of each type and checks
//! that the keys are exactly the documented ones, in both directions.
//!
//! It only reads docs/json.md and serialises samples; a failure means the model and its
//! documentation disagree, and one of them must be fixed by hand.

use std::collections::{BTreeMap, BTreeSet};

use c_frontend::diagnostics::FatalKind;
use serde::Serialize;
use serde_json::Value;

use super::model::*;

const JSON_DOC: &str = include_str!("../../docs/json.md");

/// The fields docs/json.md documents per type: `**`Type`**` lines, each followed by a table whose
/// first column names the fields in backquotes.
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let mut types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in JSON_DOC.lines() {
        if let Some(rest) = line.strip_prefix("**`") {
            let name = rest.split('`').next().unwrap_or_default().to_string();
            types.entry(name.clone()).or_default();
            current = Some(name);
        } else if line.starts_with("##") {
            current = None;
        } else if let (Some(name), Some(row)) = (&current, line.strip_prefix("| ")) {
            let cell = row.split(" |").next().unwrap_or_default();
            let fields = types.get_mut(name).expect("the current type is listed");
            // Backquoted words of the first cell are field names; the header row has none.
            fields.extend(cell.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    types
}

fn keys(sample: impl Serialize) -> BTreeSet<String> {
    match serde_json::to_value(sample).expect("samples serialise") {
        Value::Object(map) => map.keys().cloned().collect(),
        other => panic!("a sample is not an object: {other}"),
    }
}

fn position() -> Position {
    Position {
        file: "f".into(),
        line: 1,
        column: 2,
    }
}

fn configured_function() -> ConfiguredFunction {
    ConfiguredFunction {
        function: "f".into(),
        file: "f".into(),
        line: 1,
    }
}

fn configuration_constant() -> ConfigurationConstant {
    ConfigurationConstant {
        name: "x".into(),
        value: 0,
        file: "f".into(),
        line: 1,
    }
}

fn handmade_lock() -> HandmadeLock {
    HandmadeLock {
        function: "rd_lock".into(),
        role: "read lock".into(),
        file: "f".into(),
        line: 1,
    }
}

fn suppression_warning() -> SuppressionWarning {
    SuppressionWarning {
        file: "f".into(),
        line: 3,
        message: "m".into(),
    }
}

fn configuration_warning() -> ConfigurationWarning {
    ConfigurationWarning {
        file: Some("locksmith.toml".into()),
        line: Some(2),
        column: Some(12),
        message: "m".into(),
    }
}

fn stopped() -> Stopped {
    Stopped {
        limit: "time",
        amount: "90 s".into(),
        phase: "sharing".into(),
        races_checked: "none",
        locations_not_listed: Some(3),
    }
}

fn location() -> LocationLabel {
    LocationLabel {
        label: "ρ0".into(),
        description: "d".into(),
        position: position(),
    }
}

fn lock() -> LockLabel {
    LockLabel {
        label: "ℓ0".into(),
        description: "d".into(),
        position: Some(position()),
    }
}

fn access() -> LambdaAccess {
    LambdaAccess {
        position: position(),
        write: true,
    }
}

fn fresh() -> FreshLocks {
    FreshLocks {
        description: "d".into(),
        position: position(),
    }
}

fn held() -> HeldLock {
    HeldLock {
        lock: lock(),
        accesses: vec![access()],
        path: vec![call()],
    }
}

fn call() -> CallSite {
    CallSite {
        call: "c".into(),
        position: position(),
    }
}

fn race() -> Race {
    let race_access = RaceAccess {
        position: position(),
        end_column: Some(3),
        write: true,
        atomic: true,
        locks: vec!["m".into()],
        path: vec!["main".into()],
        thread: "t".into(),
        also_in: vec!["u".into()],
        also_in_omitted: 1,
        via: Some("memcpy".into()),
    };
    Race {
        code: DATA_RACE,
        kind: WarningKind::Race,
        location: RaceLocation {
            name: "x".into(),
            declared: Some(FileLine {
                file: "f".into(),
                line: 1,
            }),
        },
        aliases: vec![RaceLocation {
            name: "y".into(),
            declared: None,
        }],
        aliases_omitted: 1,
        note: Some("n".into()),
        accesses: vec![race_access.clone()].into(),
        context: vec![race_access.clone()].into(),
        consequences: Some(Consequences {
            position: position(),
            why: "w".into(),
            races: Vec::new(),
        }),
        unfollowed: Some("u".into()),
        sources: Vec::new(),
    }
}

fn deadlock() -> Deadlock {
    let acquisition = Acquisition {
        position: position(),
        lock: "b".into(),
        locks: vec!["a".into()],
        path: vec!["main".into()],
        thread: "t".into(),
        via: Some("lock_wrapper".into()),
        held_at: vec![HeldAt {
            lock: "a".into(),
            position: position(),
        }],
    };
    Deadlock {
        code: DEADLOCK,
        kind: WarningKind::Deadlock,
        locks: vec!["a".into(), "b".into()],
        self_deadlock: true,
        note: Some("n".into()),
        acquisitions: vec![acquisition],
    }
}

fn lock_leak() -> LockLeak {
    LockLeak {
        code: LOCK_LEAK,
        kind: WarningKind::LockLeak,
        lock: "m".into(),
        function: "f".into(),
        leak: LeakKind::Return,
        position: position(),
        other: position(),
        taken: vec![position()],
    }
}

fn violation(detail: ViolationDetail) -> BTreeSet<String> {
    keys(Violation::new(detail))
}

fn unanalysed() -> Unanalysed {
    Unanalysed {
        code: "unanalysed/parse-error",
        function: "f".into(),
        file: "f".into(),
        line: 1,
        column: 2,
        reason: "r".into(),
        may_run: true,
    }
}

fn unsound() -> Unsound {
    Unsound {
        code: "unsound/inline-asm",
        position: position(),
        what: "w".into(),
    }
}

/// A sample of every serialised type, with every optional field present, by its documented name.
fn samples() -> BTreeMap<&'static str, BTreeSet<String>> {
    let race = race();
    let deadlock = deadlock();
    let leak = lock_leak();
    let warnings = vec![
        Warning::Race(race.clone()),
        Warning::Deadlock(deadlock.clone()),
        Warning::LockLeak(leak.clone()),
    ];
    let (unanalysed, unsound) = (unanalysed(), unsound());
    let annotation = AnnotationProblem {
        code: "existential/escape",
        position: position(),
        message: "m".into(),
    };
    let binding = Binding {
        name: "x".into(),
        ty: "int".into(),
        quantified: vec![],
        position: position(),
    };
    let error = ErrorReport {
        code: ErrorCode::Fatal(FatalKind::NoMain),
        message: "m".into(),
        file: Some("f".into()),
        line: Some(1),
        column: Some(2),
    };
    BTreeMap::from([
        (
            "CheckReport",
            keys(CheckReport {
                warnings,
                unanalysed: vec![unanalysed.clone()],
                unmodelled: vec!["g".into()],
                unordered: vec!["s".into()],
                unsound: vec![unsound.clone()],
                annotations: vec![annotation.clone()],
                suppression_warnings: vec![suppression_warning()],
                left_out: Vec::new(),
                suppressed: 1,
                baselined: 1,
                configuration: Some("locksmith.toml".into()),
                configuration_warnings: vec![configuration_warning()],
                configured: vec![configured_function()],
                constants: vec![configuration_constant()],
                handmade_locks: vec![handmade_lock()],
                stopped: Some(stopped()),
                verdict: Verdict::Incomplete,
                allow_incomplete: false,
                baseline_written: false,
            }),
        ),
        ("ConfiguredFunction", keys(configured_function())),
        ("ConfigurationConstant", keys(configuration_constant())),
        ("HandmadeLock", keys(handmade_lock())),
        ("Stopped", keys(stopped())),
        ("ConfigurationWarning", keys(configuration_warning())),
        ("SuppressionWarning", keys(suppression_warning())),
        ("Race", keys(&race)),
        ("RaceLocation", keys(&race.location)),
        (
            "Consequences",
            keys(
                race.consequences
                    .as_ref()
                    .expect("the sample has consequences"),
            ),
        ),
        ("RaceAccess", keys(&race.accesses[0])),
        ("Deadlock", keys(&deadlock)),
        ("Acquisition", keys(&deadlock.acquisitions[0])),
        ("LockLeak", keys(&leak)),
        ("Unanalysed", keys(&unanalysed)),
        ("Unsound", keys(&unsound)),
        ("AnnotationProblem", keys(&annotation)),
        (
            "LambdaReport",
            keys(LambdaReport {
                file: "f".into(),
                verdict: Verdict::Violations,
                violations: vec![],
                types: Some(vec![binding.clone()]),
                constraints: Some(ConstraintListing::default()),
                graph: Some(ConstraintGraph::default()),
            }),
        ),
        (
            "Inconsistent",
            violation(ViolationDetail::Inconsistent {
                location: location(),
                allocations: vec![location()],
                locks: vec![held()],
            }),
        ),
        (
            "ExistentialEscape",
            violation(ViolationDetail::ExistentialEscape {
                location: location(),
                lock: lock(),
                accesses: vec![access()],
            }),
        ),
        (
            "Nonlinear",
            violation(ViolationDetail::Nonlinear {
                lock: LockAtom::Fresh(fresh()),
                at: position(),
                cause: NonlinearCause::Disjoint,
            }),
        ),
        (
            "RecursiveEffect",
            violation(ViolationDetail::RecursiveEffect {
                locks: vec![LockAtom::Lock(lock())],
                function: Some(RecursiveFunction {
                    function: "f".into(),
                    position: position(),
                }),
            }),
        ),
        (
            "Saturated",
            violation(ViolationDetail::Saturated {
                location: location(),
                limit: 16,
            }),
        ),
        ("NoConvergence", violation(ViolationDetail::NoConvergence)),
        ("LocationLabel", keys(location())),
        ("LockLabel", keys(lock())),
        ("FreshLocks", keys(fresh())),
        ("HeldLock", keys(held())),
        ("LambdaAccess", keys(access())),
        ("CallSite", keys(call())),
        ("Position", keys(position())),
        ("Binding", keys(&binding)),
        ("Failure", keys(Failure::new(error.clone()))),
        ("ErrorReport", keys(&error)),
    ])
}

#[test]
fn readme_documents_exactly_the_serialised_fields() {
    let documented = documented();
    let samples = samples();
    let doc_types: BTreeSet<&str> = documented.keys().map(String::as_str).collect();
    let sample_types: BTreeSet<&str> = samples.keys().copied().collect();
    assert_eq!(
        doc_types, sample_types,
        "docs/json.md's types and the model's samples differ"
    );
    for (name, fields) in &samples {
        assert_eq!(
            &documented[*name], fields,
            "docs/json.md's fields of `{name}` and its serialised keys differ"
        );
    }
}

/// Variants that serialise without a tag must not be mistaken for one another by a reader: a
/// lock atom is a `LockLabel` exactly when it has a `label`.
#[test]
fn lock_atoms_are_told_apart_by_their_label() {
    assert!(keys(LockAtom::Lock(lock())).contains("label"));
    assert!(!keys(LockAtom::Fresh(fresh())).contains("label"));
}

/// The JSON renderer prints keys sorted, whatever the field declaration order.
#[test]
fn json_keys_come_out_sorted() {
    let report = Report::Error(Failure::new(ErrorReport {
        code: ErrorCode::Syntax,
        message: "m".into(),
        file: Some("f".into()),
        line: Some(1),
        column: Some(2),
    }));
    let text = crate::render::rendered(crate::render::Format::Json, &report);
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.split('"').next())
        .collect();
    assert_eq!(
        keys,
        ["error", "code", "column", "file", "line", "message", "verdict"]
    );
}

/// A check report's `verdict` follows what it holds, and the exit status follows the verdict:
/// `races` 1, `incomplete` 3 (0 under `--allow-incomplete`), `race-free` 0, `error` 2.
#[test]
fn verdicts_and_exit_statuses() {
    let unanalysed = |may_run| Unanalysed {
        code: "unanalysed/parse-error",
        function: "f".into(),
        file: "f".into(),
        line: 1,
        column: 2,
        reason: "r".into(),
        may_run,
    };
    let report = |warnings: Vec<Warning>, unanalysed: Vec<Unanalysed>, allow_incomplete| {
        let mut r = CheckReport {
            warnings,
            unanalysed,
            unmodelled: vec![],
            unordered: vec![],
            unsound: vec![],
            annotations: vec![],
            suppression_warnings: vec![],
            left_out: Vec::new(),
            suppressed: 0,
            baselined: 0,
            configuration: None,
            configuration_warnings: vec![],
            configured: vec![],
            constants: vec![],
            handmade_locks: vec![],
            stopped: None,
            verdict: Verdict::Error,
            allow_incomplete,
            baseline_written: false,
        };
        r.settle();
        r
    };
    let cases = [
        (report(vec![], vec![], false), "race-free", 0),
        (
            report(vec![], vec![unanalysed(false)], false),
            "race-free",
            0,
        ),
        (
            report(vec![], vec![unanalysed(true)], false),
            "incomplete",
            3,
        ),
        (
            report(vec![], vec![unanalysed(true)], true),
            "incomplete",
            0,
        ),
        (
            report(vec![Warning::Race(race())], vec![unanalysed(true)], false),
            "races",
            1,
        ),
        (
            report(vec![Warning::Deadlock(deadlock())], vec![], true),
            "races",
            1,
        ),
        (
            report(vec![Warning::LockLeak(lock_leak())], vec![], false),
            "races",
            1,
        ),
    ];
    for (r, verdict, exit) in cases {
        assert_eq!(serde_json::to_value(&r).unwrap()["verdict"], verdict);
        assert_eq!(Report::Check(r).exit_status(), exit, "{verdict}");
    }
    let error = Report::Error(Failure::new(ErrorReport {
        code: ErrorCode::Fatal(FatalKind::NoMain),
        message: "m".into(),
        file: None,
        line: None,
        column: None,
    }));
    assert_eq!(serde_json::to_value(&error).unwrap()["verdict"], "error");
    assert_eq!(error.exit_status(), 2);
    assert_eq!(EXIT_INCOMPLETE, 3);
}
