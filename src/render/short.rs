//! The short format: one line per finding, `file:line:col: warning: …`, the shape compilers
//! print, for editors' error lists and `grep`. A check's warning is placed at its first racing
//! access (a deadlock at its first lock call); a λ▷ violation at its location or where the
//! locks meet. Each function not analysed is a line too: a `warning` when it may run (the
//! check is then incomplete), a `note` when it cannot; a race that is only the consequence of
//! another is a `note` line after it; a run that reached its time or memory
//! limit ends with `locksmith: warning: … [stopped]`. Nothing else is printed: no source
//! lines, no summary (an error's one line goes to stderr as in every format).

use std::io::{self, Write};

use super::{RenderContext, RenderError, Renderer};
use crate::report::model::{
    CheckReport, Deadlock, LambdaReport, Position, ViolationDetail, Warning,
};
use crate::report::Report;

/// The short format: the report, one line per finding.
pub struct Short;

impl Renderer for Short {
    fn render(
        &self,
        report: &Report,
        _cx: &RenderContext,
        out: &mut dyn Write,
    ) -> Result<(), RenderError> {
        match report {
            Report::Check(check) => render_check(check, out)?,
            Report::Lambda(lambda) => render_lambda(lambda, out)?,
            Report::Error(_) => {}
        }
        Ok(())
    }
}

fn at(p: &Position) -> String {
    format!("{}:{}:{}", p.file, p.line, p.column)
}

/// A deadlock's one line, at its first lock call.
fn deadlock_line(d: &Deadlock, out: &mut dyn Write) -> io::Result<()> {
    let Some(first) = d.acquisitions.first() else {
        return Ok(());
    };
    let what = if d.self_deadlock {
        format!("possible self-deadlock on {}", d.locks.join(", "))
    } else {
        let mut cycle = d.locks.clone();
        cycle.extend(d.locks.first().cloned());
        format!("possible deadlock: {}", cycle.join(" -> "))
    };
    writeln!(out, "{}: warning: {what} [{}]", at(&first.position), d.code)
}

fn render_check(r: &CheckReport, out: &mut dyn Write) -> io::Result<()> {
    for w in &r.warnings {
        let w = match w {
            Warning::Race(race) => race,
            Warning::Deadlock(d) => {
                deadlock_line(d, out)?;
                continue;
            }
            Warning::LockLeak(l) => {
                let title = super::leak_title(l);
                writeln!(out, "{}: warning: {title} [{}]", at(&l.position), l.code)?;
                continue;
            }
        };
        let Some(first) = w.accesses.first() else {
            continue;
        };
        let others = match w.aliases.len() + w.aliases_omitted {
            0 => String::new(),
            n => format!(" (and {n} other name{})", if n == 1 { "" } else { "s" }),
        };
        writeln!(
            out,
            "{}: warning: possible data race on {}{others} [{}]",
            at(&first.position),
            w.location.name,
            w.code
        )?;
        for c in w.consequences.iter().flat_map(|c| &c.races) {
            let Some(first) = c.accesses.first() else {
                continue;
            };
            writeln!(
                out,
                "{}: note: possible data race on {}, a consequence of the race on {} [{}]",
                at(&first.position),
                c.location.name,
                w.location.name,
                c.code
            )?;
        }
    }
    for a in &r.annotations {
        writeln!(
            out,
            "{}: warning: {} [{}]",
            at(&a.position),
            a.message,
            a.code
        )?;
    }
    for u in &r.unanalysed {
        let (level, counted) = if u.may_run {
            ("warning", "")
        } else {
            ("note", " (not counted: it cannot run)")
        };
        writeln!(
            out,
            "{}:{}:{}: {level}: {} not analysed: {}{counted} [{}]",
            u.file, u.line, u.column, u.function, u.reason, u.code
        )?;
    }
    for w in &r.configuration_warnings {
        writeln!(out, "{}", super::configuration_warning(w))?;
    }
    for w in &r.suppression_warnings {
        writeln!(out, "{}", super::suppression_warning(w))?;
    }
    if let Some(s) = &r.stopped {
        writeln!(out, "locksmith: warning: {} [stopped]", super::stop(s))?;
    }
    Ok(())
}

/// Where a λ▷ violation is placed, and what it is in words.
pub(super) fn violation_place(detail: &ViolationDetail) -> (Option<&Position>, String) {
    match detail {
        ViolationDetail::Inconsistent { location, .. } => (
            Some(&location.position),
            format!(
                "{} is not consistently correlated with one lock",
                location.label
            ),
        ),
        ViolationDetail::ExistentialEscape { location, lock, .. } => (
            Some(&location.position),
            format!("{} escapes the package of {}", location.label, lock.label),
        ),
        ViolationDetail::Nonlinear { at, .. } => {
            (Some(at), "a lock that may stand for two locks".to_string())
        }
        ViolationDetail::RecursiveEffect { function, .. } => (
            function.as_ref().map(|f| &f.position),
            "a recursive function with an effect".to_string(),
        ),
        ViolationDetail::Saturated { location, .. } => (
            Some(&location.position),
            format!("{} is correlated with too many locks", location.label),
        ),
        ViolationDetail::NoConvergence => (None, "resolution did not converge".to_string()),
    }
}

fn render_lambda(r: &LambdaReport, out: &mut dyn Write) -> io::Result<()> {
    for v in &r.violations {
        let (place, what) = violation_place(&v.detail);
        let place = place.map_or_else(|| r.file.clone(), at);
        writeln!(out, "{place}: error: {what} [{}]", v.code)?;
    }
    Ok(())
}
