//! `locksmith check`: runs the C pipeline on a program's files and reports in the chosen format.
//!
//! This module only wires the steps together (analysis in `c_frontend::driver`, the report in
//! `crate::report`, the output in `crate::render`); it neither analyses nor formats.

use std::path::{Path, PathBuf};

use c_frontend::diagnostics::{panic_message, Fatal, FatalKind};
use c_frontend::driver::{self, CheckOptions, Input};
use c_frontend::syntax::preprocess::PreprocessOptions;

use solver::stats::Stats;

use crate::compdb;
use crate::render::{self, Format, Outcome, RenderContext};
use crate::report::{self, Report};

/// What the command line asks to check: its `files`, which share the `global` flags, or, given a
/// compilation `database`, its C translation units that `files` select (all when there are none).
pub fn inputs(
    files: Vec<PathBuf>,
    database: Option<&Path>,
    global: &PreprocessOptions,
) -> Result<compdb::Selected, Fatal> {
    match database {
        Some(database) => compdb::load(database, &files, global),
        None => {
            // Every missing file is named at once, not the first one found by preprocessing.
            let missing: Vec<String> = files
                .iter()
                .filter(|f| !f.exists())
                .map(|f| f.display().to_string())
                .collect();
            match missing.as_slice() {
                [] => Ok(named_once(files)),
                [one] => Err(Fatal::new(
                    FatalKind::Preprocess,
                    format!("{one}: no such file"),
                )),
                many => Err(Fatal::new(
                    FatalKind::Preprocess,
                    format!("{}: no such files", many.join(", ")),
                )),
            }
        }
    }
}

/// The files of the command line, each file once (a shell glob and a name given again would
/// otherwise make it two units defining every function twice); the repeats are noted.
fn named_once(files: Vec<PathBuf>) -> compdb::Selected {
    let mut seen = std::collections::HashSet::new();
    let mut selected = compdb::Selected::default();
    for file in files {
        if seen.insert(compdb::select::identity(&file)) {
            selected.inputs.push(Input::from(file));
        } else {
            selected
                .notes
                .push(format!("{} is named again: checked once", file.display()));
        }
    }
    selected
}

/// The outcome of a run that could not start (a compilation database or a configuration that
/// cannot be used): `fatal` rendered in `format`, like every other error.
pub fn failed(
    fatal: &Fatal,
    format: Format,
    cx: &RenderContext,
    out: &mut dyn std::io::Write,
) -> Outcome {
    render::outcome(&report::error::fatal(fatal), format, cx, out)
}

/// Checks the C program made of `files` (paths sharing the global flags, or [`Input`]s with
/// their own) and renders the report in `format` to `out` as it is made (the returned outcome's
/// `stdout` is empty). With the environment variable `LOCKSMITH_DEBUG` set, the front end's debug
/// dump goes to stderr first.
pub fn run(
    files: Vec<impl Into<Input>>,
    options: CheckOptions,
    format: Format,
    cx: RenderContext,
    out: &mut dyn std::io::Write,
) -> Outcome {
    let stats = Stats::off();
    run_triaged(files, options, format, cx, &Triage::default(), &stats, out)
}

/// What a team has triaged ([`report::triage`]): the baseline to leave out, where to write
/// the baseline of this run's warnings, and whether an incomplete check (a function that may
/// run not analysed, nothing found) exits with 0 (`--allow-incomplete`).
#[derive(Clone, Debug, Default)]
pub struct Triage {
    pub baseline: Option<PathBuf>,
    pub write_baseline: Option<PathBuf>,
    pub allow_incomplete: bool,
}

/// [`run`], with suppression comments and baselines applied.
pub fn run_triaged(
    files: Vec<impl Into<Input>>,
    options: CheckOptions,
    format: Format,
    cx: RenderContext,
    triage: &Triage,
    stats: &Stats,
    out: &mut dyn std::io::Write,
) -> Outcome {
    // A baseline that cannot be read, or an output that cannot be written, is an error before
    // any analysis: never a report lost after it.
    let baseline = match triage.baseline.as_deref().map(read_baseline).transpose() {
        Ok(b) => b,
        Err(fatal) => return failed(&fatal, format, &cx, out),
    };
    if let Some(Err(fatal)) = triage.write_baseline.as_deref().map(can_write) {
        return failed(&fatal, format, &cx, out);
    }
    if let Some(dir) = &cx.output_dir {
        if let Err(e) = can_create_dir(dir) {
            let shown = dir.display().to_string();
            let message = format!("cannot write the HTML report into {shown}: {e}");
            let error =
                report::error::about_file(report::model::ErrorCode::Unwritable, &shown, message);
            return render::outcome(&error, format, &cx, out);
        }
    }
    let files: Vec<Input> = files.into_iter().map(Into::into).collect();
    // Reports name files relative to the source root (the current directory by default).
    let root = cx.source_root().to_path_buf();
    // As reports name them, so that a comment's place matches a warning's.
    let named: Vec<String> = files
        .iter()
        .map(|f| report::check::display_file(&f.path.display().to_string(), &root))
        .collect();
    let started = std::time::Instant::now();
    let limits = options.limits;
    let result = driver::check_on_large_stack(files, options, stats);
    // The report spends what is left of the run's budget.
    let limits = solver::budget::Limits {
        time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
        ..limits
    };
    let mut clock = stats.clock(crate::progress::PHASE_REPORT);
    // The report is built whole before any of it is written, so an internal error while
    // building it is one error, never half a report.
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        clock.run(|| match result {
            Ok(driver::Checked::Stopped(stopped)) => {
                let mut check = report::check::build_stopped(&stopped, &root);
                check.allow_incomplete = triage.allow_incomplete;
                Report::Check(check)
            }
            Ok(driver::Checked::Done(result)) => {
                if std::env::var_os("LOCKSMITH_DEBUG").is_some() {
                    eprint!("{}", driver::debug_dump(&result));
                }
                let mut check =
                    solver::budget::within(limits, || report::check::build(&result, &root));
                driver::drop_beside(result);
                let used = report::triage::apply(&mut check, None, &root);
                report::triage::review_comments(&mut check, &named, &used, &root);
                if let Some(path) = &triage.write_baseline {
                    if let Err(fatal) = write_baseline(path, &check) {
                        return report::error::fatal(&fatal);
                    }
                    check.baseline_written = true;
                }
                report::triage::apply(&mut check, baseline.as_ref(), &root);
                check.allow_incomplete = triage.allow_incomplete;
                Report::Check(check)
            }
            Err(fatal) => report::error::fatal(&fatal),
        })
    }));
    let report = built.unwrap_or_else(|panic| {
        report::error::fatal(&Fatal::new(
            FatalKind::Internal,
            format!(
                "internal error in report: {}",
                panic_message(panic.as_ref())
            ),
        ))
    });
    let outcome = clock.run(|| render::outcome(&report, format, &cx, out));
    clock.finish();
    outcome
}

fn read_baseline(path: &std::path::Path) -> Result<report::triage::Baseline, Fatal> {
    let fail = |why: String| {
        Fatal::new(
            FatalKind::Baseline,
            format!("{}: not a baseline: {why}", path.display()),
        )
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| fail(e.to_string()))
}

/// Whether the directory `dir` can be made (or is there): made, then what was made removed, so
/// that a run that fails later leaves nothing behind.
fn can_create_dir(dir: &Path) -> std::io::Result<()> {
    let made: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .collect();
    std::fs::create_dir_all(dir)?;
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
    Ok(())
}

/// Whether the baseline file `path` can be written: opened for appending (created, then removed,
/// when it does not exist yet), so that a run does not end by losing its report.
fn can_write(path: &std::path::Path) -> Result<(), Fatal> {
    let existed = path.exists();
    let opened = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path);
    match opened {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => Err(Fatal::new(
            FatalKind::Baseline,
            format!("{}: cannot write the baseline: {e}", path.display()),
        )),
    }
}

fn write_baseline(path: &std::path::Path, check: &report::model::CheckReport) -> Result<(), Fatal> {
    let baseline = report::triage::Baseline::of(check);
    let text = serde_json::to_string_pretty(&baseline).unwrap_or_default();
    std::fs::write(path, text + "\n").map_err(|e| {
        Fatal::new(
            FatalKind::Baseline,
            format!("{}: cannot write the baseline: {e}", path.display()),
        )
    })
}
