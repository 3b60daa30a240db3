//! SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format"), the format code-scanning
//! services and editors read: one `run` of locksmith, one `result` per finding.
//!
//! A data race is a result of rule `data-race` whose primary location is its first racing
//! access; the other racing accesses are its related locations, and each racing access's call
//! path from its thread's start is one thread flow of its code flow. A potential deadlock is a
//! result of rule `deadlock` placed in the same way at its lock calls. Annotation misuse, places
//! where the analysis is knowingly unsound (level `note`) and functions not analysed (level
//! `warning` when they may run, which makes the check incomplete; `note` when they cannot) are
//! results of their own codes. The run's property bag holds the check's `verdict`; its
//! invocation says whether the run analysed its input (`executionSuccessful`), and a run that
//! could not is a document without results whose invocation carries the error. Files are named relative to the source root
//! (`--source-root`, the current directory by default), through the `uriBaseId` `SRCROOT`.
//! Each result has a `partialFingerprints` entry computed from what does not move when lines do
//! (the rule, the location's name without line numbers, the accessing functions and access
//! kinds), so code scanning follows a finding across commits.
//!
//! The document is built from typed structs (below, which also deserialise, for the tests); this
//! module reads the report model only.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::short::violation_place;
use super::{HelpUri, RenderContext, RenderError, Renderer};
use crate::report::model::{
    Acquisition, CheckReport, Deadlock, LambdaReport, LeftOut, LockLeak, Position, Race,
    RaceAccess, Verdict, Warning, DEADLOCK, LOCK_LEAK,
};
use crate::report::triage::without_line_numbers;
use crate::report::Report;

/// The schema every document names.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SarifLog {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub version: String,
    pub runs: Vec<Run>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub tool: Tool,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub original_uri_base_ids: BTreeMap<String, ArtifactLocation>,
    pub results: Vec<SarifResult>,
    /// The run of the tool: whether it analysed what it was given, and why not.
    #[serde(default)]
    pub invocations: Vec<Invocation>,
    /// The check's verdict, as in JSON (a SARIF property bag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<RunProperties>,
}

/// One run of locksmith: `executionSuccessful` is false for a run that could not analyse its
/// input (exit status 2), whose error is the one notification.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    pub execution_successful: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_execution_notifications: Vec<Notification>,
}

/// A message of the tool about its own run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Notification {
    pub level: String,
    pub message: Message,
}

/// The property bag of a run of `locksmith check`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunProperties {
    /// `race-free`, `races` or `incomplete`.
    pub verdict: Verdict,
    /// Where a run out of budget stopped, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tool {
    pub driver: ToolComponent,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ToolComponent {
    pub name: String,
    pub version: String,
    pub information_uri: String,
    pub rules: Vec<ReportingDescriptor>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportingDescriptor {
    pub id: String,
    pub short_description: Message,
    /// What a finding of the rule means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_description: Option<Message>,
    /// What to do about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<Message>,
    /// Where its documentation is (`--help-uri`; none without it: the project publishes no
    /// site of its own to point at).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help_uri: Option<String>,
    pub default_configuration: Configuration,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Configuration {
    pub level: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Message {
    pub text: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: String,
    pub rule_index: usize,
    pub level: String,
    pub message: Message,
    pub locations: Vec<Location>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_flows: Vec<CodeFlow>,
    pub partial_fingerprints: BTreeMap<String, String>,
    /// Why the result is not shown as a finding: a comment in the source, or the baseline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressions: Vec<Suppression>,
}

/// A result left out by triage: `inSource` (a `locksmith: ignore` comment, at its place) or
/// `external` (the baseline).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Suppression {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub justification: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_location: Option<PhysicalLocation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_column: Option<u32>,
    /// The column just past the accessed expression (SARIF's end is exclusive), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CodeFlow {
    pub thread_flows: Vec<ThreadFlow>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ThreadFlow {
    pub message: Message,
    pub locations: Vec<ThreadFlowLocation>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ThreadFlowLocation {
    pub location: Location,
}

/// Where a step of a call path (`callee (file:line)`, as the report writes it) is made.
fn step_call(step: &str) -> Option<(&str, u32)> {
    let inner = step.strip_suffix(')')?;
    let (_, at) = inner.rsplit_once(" (")?;
    let (file, line) = at.rsplit_once(':')?;
    Some((file, line.parse().ok()?))
}

/// The base id files are named relative to.
const ROOT: &str = "SRCROOT";

/// The ids of the rules only `locksmith lambda` reports (λ▷ verdicts); the others are only
/// `locksmith check`'s. A run lists the rules of its command.
const LAMBDA_RULES: &[&str] = &[
    "inconsistent",
    "existential-escape",
    "nonlinear",
    "recursive-effect",
    "saturated",
    "no-convergence",
];

/// What a finding of rule `id` means, and what to do about one (by the rule's family).
fn explained(id: &str) -> (&'static str, &'static str) {
    let family = id.split('/').next().unwrap_or(id);
    match family {
        "data-race" => (
            "Two threads may access the location at the same time, at least one of them \
             writing, and no lock is held at both accesses: the location is not consistently \
             correlated with a lock (LOCKSMITH, PLDI 2006).",
            "Hold one lock at every access of the location (the warning lists the racing \
             accesses with the locks each holds, and the protected ones as context), or order \
             the threads (a join, a barrier). An accepted race is silenced by \
             `// locksmith: ignore data-race` with the reason, on a racing line.",
        ),
        "deadlock" => (
            "Threads that may run at once take locks of a cycle in opposite orders, each \
             waiting for a lock another holds; or a thread waits for a lock it holds itself.",
            "Take the locks of the cycle in one order in every thread, or release one before \
             waiting for the next; do not lock again a non-recursive lock already held.",
        ),
        "lock-leak" => (
            "A function still holds a lock where it should not: it returns holding a lock it \
             releases before its other returns (an early return between lock and unlock), or \
             its loop goes back to the head holding a lock the next round takes again.",
            "Release the lock on every path out of the function (or hold it on every path, if \
             the function is meant to return holding it), and before the loop goes round. An \
             intended conditional hold is silenced by `// locksmith: ignore lock-leak` on the \
             line where the lock is still held.",
        ),
        "existential" => (
            "An annotation of locksmith.h is misused, or code breaks what it declares about a \
             struct and the lock that guards its fields.",
            "Declare the struct with LOCKSMITH_EXISTENTIAL, pack an object once it is \
             initialised and before it is published, and access its guarded fields only \
             between LOCKSMITH_UNPACK and LOCKSMITH_END_UNPACK, holding its lock.",
        ),
        "unsound" => (
            "locksmith does not follow what this construct does: a race it hides may be \
             missed.",
            "Check the code around it by hand, or write it with constructs locksmith follows.",
        ),
        "unanalysed" => (
            "A function (or declaration) could not be read, so races in it are not reported; \
             while it may run, the verdict is incomplete.",
            "Rewrite the construct the message names, or report it as a locksmith bug; \
             --allow-incomplete accepts an incomplete verdict.",
        ),
        _ => (
            "A λ▷ program breaks the type-and-effect discipline of LOCKSMITH's formal core.",
            "See the λ▷ tutorial in locksmith's README for what each verdict means.",
        ),
    }
}

/// The rules of the command that made `report` (none for a run that failed).
fn rules_of(report: &Report) -> Vec<&'static (&'static str, &'static str, &'static str)> {
    let lambda = match report {
        Report::Check(_) => false,
        Report::Lambda(_) => true,
        Report::Error(_) => return Vec::new(),
    };
    RULES
        .iter()
        .filter(|r| LAMBDA_RULES.contains(&r.0) == lambda)
        .collect()
}

/// The rules results may name: id, what it is, default level.
const RULES: &[(&str, &str, &str)] = &[
    (
        "data-race",
        "Two threads may access a location at the same time, one writing, without a common lock",
        "warning",
    ),
    (
        "lock-leak",
        "A function returns holding a lock it releases on other paths, or its loop goes round \
         holding a lock it takes again",
        "warning",
    ),
    (
        "inconsistent",
        "A λ▷ location is accessed under two locks",
        "error",
    ),
    (
        "existential-escape",
        "A λ▷ location opened by one unpack is accessed under another package's lock",
        "error",
    ),
    (
        "nonlinear",
        "A λ▷ lock label may stand for two run-time locks",
        "error",
    ),
    (
        "recursive-effect",
        "A λ▷ recursive function has an effect",
        "error",
    ),
    (
        "saturated",
        "A location is correlated with too many locks to analyse",
        "error",
    ),
    ("no-convergence", "Resolution did not converge", "error"),
    (
        "existential/unknown-field",
        "LOCKSMITH_EXISTENTIAL names no such struct field",
        "warning",
    ),
    (
        "existential/not-declared",
        "Pack or unpack of a struct not declared existential",
        "warning",
    ),
    (
        "existential/end-without-start",
        "LOCKSMITH_END_UNPACK without its LOCKSMITH_UNPACK",
        "warning",
    ),
    (
        "existential/assigned-in-unpack",
        "The unpacked pointer is assigned before the unpack ends",
        "warning",
    ),
    (
        "existential/outside-unpack",
        "A guarded field is accessed outside every unpack",
        "warning",
    ),
    (
        "existential/escape",
        "The address of a guarded field is taken",
        "warning",
    ),
    (
        "existential/pack-after-publish",
        "An object is packed after it was published",
        "warning",
    ),
    (
        "unsound/inline-asm",
        "Inline assembly: its effects are not modelled",
        "note",
    ),
    (
        "unsound/va-arg-parameter",
        "va_arg on a va_list parameter is not tracked",
        "note",
    ),
    (
        "unsound/pointer-to-integer",
        "A pointer converted to an integer is not tracked",
        "note",
    ),
    (
        "unsound/longjmp",
        "longjmp: execution resuming at its setjmp is not followed",
        "note",
    ),
    (
        "unsound/deadlock-cycles-not-searched",
        "A lock order with more cycles than the deadlock check walks: long ones not all searched",
        "note",
    ),
    (
        "unanalysed/parse-error",
        "A declaration does not parse: it is not analysed",
        "warning",
    ),
    (
        "unanalysed/unsupported",
        "A construct locksmith does not support: its function is not analysed",
        "warning",
    ),
    (
        "unanalysed/internal-error",
        "locksmith failed on a function: it is not analysed",
        "warning",
    ),
    (
        "deadlock",
        "Threads may each hold a lock while waiting for the next of a cycle, or a thread may wait for a lock it holds",
        "warning",
    ),
];

/// The SARIF format: the report as one SARIF document.
pub struct Sarif;

impl Renderer for Sarif {
    fn render(
        &self,
        report: &Report,
        cx: &RenderContext,
        out: &mut dyn Write,
    ) -> Result<(), RenderError> {
        // Serialising the document cannot fail: every map key is a string and no type has a
        // fallible `Serialize` implementation.
        let text =
            serde_json::to_string_pretty(&log(report, cx.source_root(), cx.help_uri.as_ref()))
                .expect("the SARIF document serialises to JSON");
        writeln!(out, "{text}")?;
        Ok(())
    }
}

/// The document of a report, files named relative to `root`, each rule's documentation at
/// `help_uri`. A run that failed has no results, and its invocation says it did not succeed,
/// with the error (besides the error line on stderr): a pipeline that uploads the file never
/// gets an empty one.
fn log(report: &Report, root: &Path, help_uri: Option<&HelpUri>) -> SarifLog {
    let mut b = Builder {
        root,
        results: Vec::new(),
        rules: rules_of(report),
    };
    let invocation = match report {
        Report::Check(c) => {
            b.check(c);
            Invocation {
                execution_successful: true,
                tool_execution_notifications: Vec::new(),
            }
        }
        Report::Lambda(l) => {
            b.lambda(l);
            Invocation {
                execution_successful: true,
                tool_execution_notifications: Vec::new(),
            }
        }
        Report::Error(failure) => Invocation {
            execution_successful: false,
            tool_execution_notifications: vec![Notification {
                level: "error".into(),
                message: Message {
                    text: failure.error.message.clone(),
                },
            }],
        },
    };
    let base = ArtifactLocation {
        uri: file_uri(root),
        uri_base_id: None,
    };
    SarifLog {
        schema: SCHEMA.into(),
        version: "2.1.0".into(),
        runs: vec![Run {
            tool: Tool {
                driver: ToolComponent {
                    name: "locksmith".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    information_uri: "https://doi.org/10.1145/1133981.1134019".into(),
                    rules: b
                        .rules
                        .iter()
                        .map(|&&(id, what, level)| ReportingDescriptor {
                            id: id.into(),
                            short_description: Message { text: what.into() },
                            full_description: Some(Message {
                                text: explained(id).0.into(),
                            }),
                            help: Some(Message {
                                text: explained(id).1.into(),
                            }),
                            help_uri: help_uri.map(|uri| uri.of(id)),
                            default_configuration: Configuration {
                                level: level.into(),
                            },
                        })
                        .collect(),
                },
            },
            original_uri_base_ids: BTreeMap::from([(ROOT.to_string(), base)]),
            results: b.results,
            invocations: vec![invocation],
            properties: match report {
                Report::Check(c) => Some(RunProperties {
                    verdict: c.verdict,
                    stopped: c.stopped.as_ref().map(super::stop),
                }),
                _ => None,
            },
        }],
    }
}

/// A directory as a `file:` URI ending in `/`.
fn file_uri(dir: &Path) -> String {
    let mut s = String::from("file://");
    for part in dir.to_string_lossy().split('/').filter(|p| !p.is_empty()) {
        s.push('/');
        s.push_str(&percent_encode(part));
    }
    s.push('/');
    s
}

/// The characters of a path segment a URI may not hold literally, escaped.
fn percent_encode(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~+@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

struct Builder<'a> {
    root: &'a Path,
    results: Vec<SarifResult>,
    /// The rules the run lists ([`rules_of`]): a result's `ruleIndex` is into them.
    rules: Vec<&'static (&'static str, &'static str, &'static str)>,
}

impl Builder<'_> {
    fn physical(&self, file: &str, line: u32, column: Option<u32>) -> PhysicalLocation {
        // The report names files relative to the source root when they are under it.
        let path = crate::report::check::resolve_file(file, self.root);
        let absolute = if path.is_absolute() {
            path
        } else {
            std::env::current_dir()
                .map(|d| d.join(&path))
                .unwrap_or(path)
        };
        let artifact = match absolute.strip_prefix(self.root) {
            Ok(rel) => ArtifactLocation {
                uri: rel
                    .to_string_lossy()
                    .split('/')
                    .map(percent_encode)
                    .collect::<Vec<_>>()
                    .join("/"),
                uri_base_id: Some(ROOT.into()),
            },
            Err(_) => ArtifactLocation {
                uri: file_uri(&absolute).trim_end_matches('/').to_string(),
                uri_base_id: None,
            },
        };
        PhysicalLocation {
            artifact_location: artifact,
            region: (line > 0).then_some(Region {
                start_line: line,
                start_column: column.filter(|&c| c > 0),
                end_column: None,
            }),
        }
    }

    fn at(&self, p: &Position, message: Option<String>) -> Location {
        Location {
            id: None,
            physical_location: Some(self.physical(&p.file, p.line, Some(p.column))),
            message: message.map(|text| Message { text }),
        }
    }

    /// An access's location, its region ending after the accessed expression when the report
    /// knows where (`end_column`: the column just past it, as SARIF's `endColumn`).
    fn access_at(&self, a: &RaceAccess, message: Option<String>) -> Location {
        let mut at = self.at(&a.position, message);
        if let Some(region) = at
            .physical_location
            .as_mut()
            .and_then(|p| p.region.as_mut())
        {
            region.end_column = a.end_column;
        }
        at
    }

    fn push(&mut self, rule: &str, message: String, locations: Vec<Location>, key: &str) {
        let (index, level) = self
            .rules
            .iter()
            .enumerate()
            .find(|(_, r)| r.0 == rule)
            .map(|(i, r)| (i, r.2))
            .unwrap_or((0, "warning"));
        self.results.push(SarifResult {
            rule_id: rule.into(),
            rule_index: index,
            level: level.into(),
            message: Message { text: message },
            locations,
            related_locations: Vec::new(),
            code_flows: Vec::new(),
            partial_fingerprints: BTreeMap::from([(
                "locksmith/v1".to_string(),
                fingerprint(&format!("{rule}|{key}")),
            )]),
            suppressions: Vec::new(),
        });
    }

    /// One warning's result.
    fn warning(&mut self, w: &Warning) {
        match w {
            Warning::Race(race) => self.race(race, None),
            Warning::Deadlock(d) => self.deadlock(d),
            Warning::LockLeak(l) => self.lock_leak(l),
        }
    }

    /// A lock leak: a result of rule `lock-leak` where the lock is still held, with where it is
    /// not and where it is taken as related locations.
    fn lock_leak(&mut self, l: &LockLeak) {
        let (held, other) = super::leak_labels(l);
        let message = format!(
            "{}: {held}; {other} ({}:{}:{})",
            super::leak_title(l),
            l.other.file,
            l.other.line,
            l.other.column
        );
        let entry = crate::report::triage::leak_entry(l);
        let key = format!("{}|{}", entry.location, entry.accesses.join(","));
        let primary = self.at(&l.position, Some(held));
        self.push(LOCK_LEAK, message, vec![primary], &key);
        let mut related = vec![Location {
            id: Some(1),
            ..self.at(&l.other, Some(other))
        }];
        related.extend(l.taken.iter().enumerate().map(|(i, t)| Location {
            id: Some(i + 2),
            ..self.at(t, Some(format!("takes {}", l.lock)))
        }));
        if let Some(last) = self.results.last_mut() {
            last.related_locations = related;
        }
    }

    fn check(&mut self, r: &CheckReport) {
        for w in &r.warnings {
            self.warning(w);
        }
        // Left out by triage: results with their suppression, so code scanning shows them as
        // dismissed rather than fixed.
        for (w, how) in &r.left_out {
            self.warning(w);
            let suppression = match how {
                LeftOut::Comment { file, line } => Suppression {
                    kind: "inSource".into(),
                    justification: Some(format!("a locksmith: ignore comment at {file}:{line}")),
                },
                LeftOut::Baseline => Suppression {
                    kind: "external".into(),
                    justification: Some("recorded in the baseline".into()),
                },
            };
            if let Some(last) = self.results.last_mut() {
                last.suppressions = vec![suppression];
            }
        }
        for a in &r.annotations {
            let loc = self.at(&a.position, None);
            self.push(a.code, a.message.clone(), vec![loc], &a.message);
        }
        for u in &r.unsound {
            let loc = self.at(&u.position, None);
            self.push(u.code, u.what.clone(), vec![loc], &u.what);
        }
        for u in &r.unanalysed {
            let loc = Location {
                id: None,
                physical_location: Some(self.physical(&u.file, u.line, Some(u.column))),
                message: None,
            };
            let text = if u.may_run {
                format!(
                    "{} is not analysed, so the result is incomplete: {}",
                    u.function, u.reason
                )
            } else {
                format!(
                    "{} is not analysed (not counted: it cannot run): {}",
                    u.function, u.reason
                )
            };
            self.push(u.code, text, vec![loc], &u.function);
            if !u.may_run {
                if let Some(last) = self.results.last_mut() {
                    last.level = "note".into();
                }
            }
        }
    }

    /// A race: a result of rule `data-race` at its first racing access, the others related,
    /// one thread flow per access; then its consequences, each a result of level `note` whose
    /// message names its `cause`.
    fn race(&mut self, w: &Race, cause: Option<&str>) {
        let Some(first) = w.accesses.first() else {
            return;
        };
        let describe = |a: &RaceAccess| {
            let kind = a.kind();
            let locks = if a.locks.is_empty() {
                "no locks".to_string()
            } else {
                a.locks.join(", ")
            };
            format!("{kind} holding {locks}, in {}", a.thread)
        };
        let mut message = format!(
            "possible data race on {}: {} at {}:{}:{}",
            w.location.name,
            describe(first),
            first.position.file,
            first.position.line,
            first.position.column
        );
        for a in &w.accesses[1..] {
            message.push_str(&format!(
                "; {} at {}:{}:{}",
                describe(a),
                a.position.file,
                a.position.line,
                a.position.column
            ));
        }
        if let Some(note) = &w.note {
            message.push_str(&format!(". {note}"));
        }
        if let Some(unfollowed) = &w.unfollowed {
            message.push_str(&format!(". {unfollowed}"));
        }
        if let Some(cause) = cause {
            message.push_str(&format!(". {cause}"));
        }
        // What identifies the warning across edits is what a baseline records of it.
        let entry = crate::report::triage::race_entry(w);
        let key = format!("{}|{}", entry.location, entry.accesses.join(","));
        let primary = self.access_at(first, Some(describe(first)));
        self.push("data-race", message, vec![primary], &key);
        let related: Vec<Location> = w.accesses[1..]
            .iter()
            .enumerate()
            .map(|(i, a)| Location {
                id: Some(i + 1),
                ..self.access_at(a, Some(describe(a)))
            })
            .collect();
        let flows: Vec<ThreadFlow> = w
            .accesses
            .iter()
            .map(|a| self.thread_flow(&a.path, &a.thread, self.access_at(a, Some(describe(a)))))
            .collect();
        if let Some(last) = self.results.last_mut() {
            last.related_locations = related;
            last.code_flows = vec![CodeFlow {
                thread_flows: flows,
            }];
            if cause.is_some() {
                last.level = "note".into();
            }
        }
        if let Some(c) = &w.consequences {
            let cause = format!(
                "A consequence of the race on {} (the wait at {}:{}:{}): {}",
                w.location.name, c.position.file, c.position.line, c.position.column, c.why
            );
            for race in &c.races {
                self.race(race, Some(&cause));
            }
        }
    }

    /// A deadlock: a result of rule `deadlock` at its first lock call, the others related, and
    /// one thread flow per lock call.
    fn deadlock(&mut self, d: &Deadlock) {
        let Some(first) = d.acquisitions.first() else {
            return;
        };
        let describe = |a: &Acquisition| {
            let locks = if a.locks.is_empty() {
                "no locks".to_string()
            } else {
                a.locks.join(", ")
            };
            format!("waits for {} holding {locks}, in {}", a.lock, a.thread)
        };
        let mut message = if d.self_deadlock {
            format!("possible self-deadlock on {}", d.locks.join(", "))
        } else {
            let mut cycle = d.locks.clone();
            cycle.extend(d.locks.first().cloned());
            format!("possible deadlock: {}", cycle.join(" -> "))
        };
        for a in &d.acquisitions {
            let p = &a.position;
            message.push_str(&format!(
                "; {} at {}:{}:{}",
                describe(a),
                p.file,
                p.line,
                p.column
            ));
        }
        if let Some(note) = &d.note {
            message.push_str(&format!(". {note}"));
        }
        let entry = crate::report::triage::deadlock_entry(d);
        let key = format!("{}|{}", entry.location, entry.accesses.join(","));
        let primary = self.at(&first.position, Some(describe(first)));
        self.push(DEADLOCK, message, vec![primary], &key);
        let related: Vec<Location> = d.acquisitions[1..]
            .iter()
            .enumerate()
            .map(|(i, a)| Location {
                id: Some(i + 1),
                ..self.at(&a.position, Some(describe(a)))
            })
            .collect();
        let flows: Vec<ThreadFlow> = d
            .acquisitions
            .iter()
            .map(|a| self.thread_flow(&a.path, &a.thread, self.at(&a.position, Some(describe(a)))))
            .collect();
        if let Some(last) = self.results.last_mut() {
            last.related_locations = related;
            last.code_flows = vec![CodeFlow {
                thread_flows: flows,
            }];
        }
    }

    /// A thread flow: the steps of a call path, each at its call (`callee (file:line)`: the
    /// line of the call, so that each step opens where it is made; the root has none), then
    /// the place it leads to.
    fn thread_flow(&self, path: &[String], thread: &str, place: Location) -> ThreadFlow {
        let mut locations: Vec<ThreadFlowLocation> = path
            .iter()
            .map(|step| ThreadFlowLocation {
                location: Location {
                    id: None,
                    physical_location: step_call(step)
                        .map(|(file, line)| self.physical(file, line, None)),
                    message: Some(Message { text: step.clone() }),
                },
            })
            .collect();
        locations.push(ThreadFlowLocation { location: place });
        ThreadFlow {
            message: Message {
                text: thread.to_string(),
            },
            locations,
        }
    }

    fn lambda(&mut self, r: &LambdaReport) {
        for v in &r.violations {
            let (place, what) = violation_place(&v.detail);
            let loc = match place {
                Some(p) => self.at(p, None),
                None => Location {
                    id: None,
                    physical_location: Some(self.physical(&r.file, 0, None)),
                    message: None,
                },
            };
            self.push(
                v.code,
                what.clone(),
                vec![loc],
                &without_line_numbers(&what),
            );
        }
    }
}

/// A stable 64-bit FNV-1a hash, in hex.
fn fingerprint(key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_ignore_line_numbers_only() {
        let a = without_line_numbers("memory allocated by malloc at x.c:12 in main");
        let b = without_line_numbers("memory allocated by malloc at x.c:40 in main");
        assert_eq!(a, b);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_ne!(
            fingerprint("data-race|x|f:true"),
            fingerprint("data-race|y|f:true")
        );
    }

    #[test]
    fn uris_escape_what_a_path_segment_cannot_hold() {
        assert_eq!(file_uri(Path::new("/a b/c")), "file:///a%20b/c/");
        assert_eq!(percent_encode("x#1.c"), "x%231.c");
    }
}
