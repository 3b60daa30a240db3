//! The text format: warnings and violations for a reader, then a summary line; and the one line
//! on stderr of a run that failed. A check's warning is one diagnostic in the style of rustc and
//! clang, put together by a function per warning kind (`race`) from the pieces of
//! `super::diagnostic`; λ▷ violations list each access with its source line.
//!
//! This renderer reads the report model and the source files it quotes (through the
//! [`SourceReader`] of its context); it never looks at analysis results and never changes what
//! the report says.

use std::collections::BTreeMap;
use std::io::{self, Write};

use rustc_hash::FxHashMap;

use super::diagnostic::{is_path, Painter};
use super::{RenderContext, RenderError, Renderer, SourceReader};
use crate::report::model::{
    AtomRef, CheckReport, Constraint, Deadlock, EffectToken, ErrorCode, ErrorReport, LambdaAccess,
    LambdaReport, LockLeak, NonlinearCause, Position, Race, RaceAccess, RaceLocation, Sign, Solved,
    Verdict, ViolationDetail, Warning,
};
use crate::report::Report;

/// The text format: the report for a reader; nothing on stdout for a failed run (its line goes
/// to stderr).
pub struct Text;

impl Renderer for Text {
    fn render(
        &self,
        report: &Report,
        cx: &RenderContext,
        out: &mut dyn Write,
    ) -> Result<(), RenderError> {
        match report {
            Report::Check(c) => check(c, cx, out)?,
            Report::Lambda(l) => lambda(l, &cx.sources, out)?,
            Report::Error(_) => {}
        }
        Ok(())
    }
}

/// The one line on stderr of a failed run: `file:line:col: what: message` for an error at a place
/// in a λ▷ program, `locksmith: error: message` for a front-end error of `check`, and
/// `locksmith: message` for a file that cannot be read or written.
pub fn error_line(e: &ErrorReport) -> String {
    if let (Some(file), Some(line), Some(column)) = (&e.file, e.line, e.column) {
        let what = match e.code {
            ErrorCode::Syntax => "syntax error",
            ErrorCode::Type => "type error",
            _ => "error",
        };
        return format!("{file}:{line}:{column}: {what}: {}\n", e.message);
    }
    format!("locksmith: error: {}\n", e.message)
}

fn pos(p: &Position) -> String {
    format!("{}:{}:{}", p.file, p.line, p.column)
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// The text of a check report, written to `s` warning by warning, then what was not analysed
/// and the summary line. The drawing of a list of accesses shared by several warnings
/// ([`Race::accesses`]) is made once.
fn check(r: &CheckReport, cx: &RenderContext, s: &mut dyn Write) -> io::Result<()> {
    let painter = Painter::new(cx.color);
    let sources = &cx.sources;
    let mut drawn = Drawn::default();
    for w in &r.warnings {
        match w {
            Warning::Race(w) => race(w, &painter, sources, &mut drawn, s)?,
            Warning::Deadlock(d) => deadlock(d, &painter, sources, s)?,
            Warning::LockLeak(l) => lock_leak(l, &painter, sources, s)?,
        }
    }
    tail(r, s)
}

/// One potential deadlock as one diagnostic: the cycle of locks, then each lock call with the
/// lock it waits for and the locks it holds, and the thread making it.
fn deadlock(
    d: &Deadlock,
    painter: &Painter,
    sources: &SourceReader,
    s: &mut dyn Write,
) -> io::Result<()> {
    let title = if d.self_deadlock {
        format!("possible self-deadlock on {}", d.locks.join(", "))
    } else {
        let mut cycle = d.locks.clone();
        cycle.extend(d.locks.first().cloned());
        format!("possible deadlock: {}", cycle.join(" -> "))
    };
    s.write_all(painter.warning_title(&title).as_bytes())?;
    s.write_all(painter.lock_calls(&d.acquisitions, sources).as_bytes())?;
    if let Some(note) = &d.note {
        s.write_all(painter.note(note).as_bytes())?;
    }
    s.write_all(b"\n")
}

/// One lock leak as one diagnostic: where the lock is still held, where it is not, and where
/// the function takes it.
fn lock_leak(
    l: &LockLeak,
    painter: &Painter,
    sources: &SourceReader,
    s: &mut dyn Write,
) -> io::Result<()> {
    s.write_all(painter.warning_title(&super::leak_title(l)).as_bytes())?;
    let (held, other) = super::leak_labels(l);
    s.write_all(
        painter
            .points(None, &[(&l.position, held)], sources)
            .as_bytes(),
    )?;
    s.write_all(
        painter
            .points(Some(&other), &[(&l.other, String::new())], sources)
            .as_bytes(),
    )?;
    if !l.taken.is_empty() {
        let taken: Vec<(&Position, String)> = l
            .taken
            .iter()
            .map(|t| (t, format!("takes {}", l.lock)))
            .collect();
        s.write_all(
            painter
                .points(Some("taken here"), &taken, sources)
                .as_bytes(),
        )?;
    }
    s.write_all(b"\n")
}

/// The drawings of lists of accesses, by the address of the list (racing and context lists are
/// distinct allocations).
type Drawn = FxHashMap<*const RaceAccess, String>;

/// One possible data race as one diagnostic: the title, the racing accesses with their threads,
/// the notes (what the location is, its other names, its declaration), then the other accesses
/// as secondary context.
fn race(
    w: &Race,
    painter: &Painter,
    sources: &SourceReader,
    drawn: &mut Drawn,
    s: &mut dyn Write,
) -> io::Result<()> {
    let name = &w.location.name;
    s.write_all(
        painter
            .warning_title(&format!("possible data race on {name}"))
            .as_bytes(),
    )?;
    let racing = drawn
        .entry(w.accesses.as_ptr())
        .or_insert_with(|| painter.racing(&w.accesses, sources));
    s.write_all(racing.as_bytes())?;
    if let Some(note) = &w.note {
        s.write_all(painter.note(note).as_bytes())?;
    }
    if !w.aliases.is_empty() {
        let names: Vec<String> = w.aliases.iter().map(location).collect();
        let more = match w.aliases_omitted {
            0 => String::new(),
            n => super::omitted_names(n),
        };
        s.write_all(
            painter
                .note(&format!("also named: {}{more}", names.join(", ")))
                .as_bytes(),
        )?;
    }
    if let Some(at) = &w.location.declared {
        let title = if is_path(name) {
            format!("{name} is declared")
        } else {
            "allocated".to_string()
        };
        s.write_all(painter.declaration(&title, name, at, sources).as_bytes())?;
    }
    if let Some(unfollowed) = &w.unfollowed {
        s.write_all(painter.note(unfollowed).as_bytes())?;
    }
    if !w.context.is_empty() {
        let context = drawn.entry(w.context.as_ptr()).or_insert_with(|| {
            painter.context("also accessed, protected or ordered", &w.context, sources)
        });
        s.write_all(context.as_bytes())?;
    }
    if let Some(c) = &w.consequences {
        let n = c.races.len();
        let title = format!(
            "{n} more race{} {} consequence{} of this one",
            plural(n),
            if n == 1 { "is a" } else { "are" },
            plural(n)
        );
        s.write_all(
            painter
                .points(
                    Some(&title),
                    &[(&c.position, "the wait".to_string())],
                    sources,
                )
                .as_bytes(),
        )?;
        s.write_all(painter.note(&c.why).as_bytes())?;
        let lines: Vec<String> = c.races.iter().map(consequence_line).collect();
        s.write_all(painter.note(&lines.join("\n")).as_bytes())?;
    }
    s.write_all(b"\n")
}

/// A consequence race in one line: its location, how many racing accesses it has, and where
/// the first write and the first other access are.
fn consequence_line(r: &Race) -> String {
    let n = r.accesses.len();
    let write = r.accesses.iter().find(|a| a.write);
    let other = r
        .accesses
        .iter()
        .find(|a| write.is_none_or(|w| !std::ptr::eq(*a, w)));
    let at = |a: &RaceAccess| format!("{} at {}:{}", a.kind(), a.position.file, a.position.line);
    let pair: Vec<String> = write.into_iter().chain(other).map(at).collect();
    format!(
        "possible data race on {} ({n} racing access{}: {})",
        r.location.name,
        if n == 1 { "" } else { "es" },
        pair.join(", ")
    )
}

/// A location's name, with where it is declared.
fn location(l: &RaceLocation) -> String {
    match &l.declared {
        Some(d) => format!("{} (declared at {}:{})", l.name, d.file, d.line),
        None => l.name.clone(),
    }
}

/// What follows the warnings: what was not analysed or is not followed, the annotation problems,
/// and the summary line.
fn tail(r: &CheckReport, s: &mut dyn Write) -> io::Result<()> {
    if !r.unanalysed.is_empty() {
        writeln!(s, "not analysed:")?;
        for u in &r.unanalysed {
            let counted = if u.may_run {
                ""
            } else {
                " (not counted: it cannot run)"
            };
            writeln!(
                s,
                "  {} at {}:{}: {}{counted}",
                u.function, u.file, u.line, u.reason
            )?;
        }
    }
    if !r.unmodelled.is_empty() {
        writeln!(
            s,
            "functions locksmith cannot see (modelled with external memory: they may touch what \
             they are handed, keep what they get through a void *, call back what they get): {}",
            r.unmodelled.join(", ")
        )?;
    }
    if !r.unordered.is_empty() {
        writeln!(
            s,
            "synchronisation locksmith does not follow (what it orders may still be reported): {}",
            r.unordered.join(", ")
        )?;
    }
    if !r.configured.is_empty() {
        let names: Vec<String> = r
            .configured
            .iter()
            .map(|c| format!("{} ({}:{})", c.function, c.file, c.line))
            .collect();
        writeln!(
            s,
            "functions the configuration models in place of their bodies (not analysed): {}",
            names.join(", ")
        )?;
    }
    if !r.constants.is_empty() {
        let names: Vec<String> = r
            .constants
            .iter()
            .map(|c| format!("{} = {} ({}:{})", c.name, c.value, c.file, c.line))
            .collect();
        writeln!(
            s,
            "configuration that never changes (the code behind branches on it is not analysed): {}",
            names.join(", ")
        )?;
    }
    if !r.handmade_locks.is_empty() {
        let names: Vec<String> = r
            .handmade_locks
            .iter()
            .map(|l| format!("{} ({}, {}:{})", l.function, l.role, l.file, l.line))
            .collect();
        writeln!(
            s,
            "readers/writer locks built by hand, modelled as lock calls (their bodies are not \
             analysed): {}",
            names.join(", ")
        )?;
    }
    unsound(r, s)?;
    for a in &r.annotations {
        writeln!(
            s,
            "annotation: {}: {} [{}]",
            pos(&a.position),
            a.message,
            a.code
        )?;
    }
    if let Some(file) = &r.configuration {
        writeln!(s, "configuration: {file}")?;
    }
    for w in &r.configuration_warnings {
        writeln!(s, "{}", super::configuration_warning(w))?;
    }
    for w in &r.suppression_warnings {
        writeln!(s, "{}", super::suppression_warning(w))?;
    }
    writeln!(s, "{}", summary(r))
}

/// `locksmith: N possible data races`, with the deadlocks, the lock leaks, the annotation
/// problems and what
/// triage left out; for an incomplete check, that nothing was found in what was analysed and
/// how many functions that may run were not.
fn summary(r: &CheckReport) -> String {
    let count = r.warnings.iter().filter(|w| w.race().is_some()).count();
    let consequences: usize = (r.warnings.iter().filter_map(|w| w.race()))
        .filter_map(|race| race.consequences.as_ref())
        .map(|c| c.races.len())
        .sum();
    let deadlocks = r.warnings.iter().filter(|w| w.deadlock().is_some()).count();
    let leaks = r
        .warnings
        .iter()
        .filter(|w| w.lock_leak().is_some())
        .count();
    let mut problems = match deadlocks {
        0 => String::new(),
        n => format!(", {n} possible deadlock{}", plural(n)),
    };
    if leaks > 0 {
        problems.push_str(&format!(", {leaks} possible lock leak{}", plural(leaks)));
    }
    if !r.annotations.is_empty() {
        let n = r.annotations.len();
        problems.push_str(&format!(", {n} annotation problem{}", plural(n)));
    }
    if r.suppressed > 0 {
        problems.push_str(&format!(" ({} suppressed by comments", r.suppressed));
        if r.baselined > 0 {
            problems.push_str(&format!(", {} in the baseline", r.baselined));
        }
        problems.push(')');
    } else if r.baselined > 0 {
        problems.push_str(&format!(" ({} in the baseline)", r.baselined));
    }
    let found = if r.verdict == Verdict::Incomplete {
        format!("no race found in what was analysed{problems}")
    } else {
        let more = match consequences {
            0 => String::new(),
            n => format!(" (and {n} more as their consequence{})", plural(n)),
        };
        format!(
            "{count} possible data race{}{more}{problems}",
            plural(count)
        )
    };
    match super::incompleteness(r) {
        Some(missing) => format!("locksmith: {found}; {missing}"),
        None => format!("locksmith: {found}"),
    }
}

/// One line per kind of unsoundness (in the order of its words), with its first five places.
fn unsound(r: &CheckReport, s: &mut dyn Write) -> io::Result<()> {
    let mut by_what: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for u in &r.unsound {
        by_what
            .entry(&u.what)
            .or_default()
            .push(format!("{}:{}", u.position.file, u.position.line));
    }
    for (what, places) in by_what {
        let more = if places.len() > 5 {
            format!(" and {} more", places.len() - 5)
        } else {
            String::new()
        };
        let shown: Vec<&str> = places.iter().take(5).map(String::as_str).collect();
        writeln!(s, "unsound: {what}: {}{more}", shown.join(", "))?;
    }
    Ok(())
}

fn lambda(r: &LambdaReport, sources: &SourceReader, s: &mut dyn Write) -> io::Result<()> {
    for v in &r.violations {
        violation(&v.detail, sources, s)?;
    }
    if let Some(bindings) = &r.types {
        for b in bindings {
            let prefix = if b.quantified.is_empty() {
                String::new()
            } else {
                format!("∀{}. ", b.quantified.join(" "))
            };
            writeln!(
                s,
                "{} : {prefix}{}    ({}:{})",
                b.name, b.ty, b.position.line, b.position.column
            )?;
        }
    }
    if let Some(listing) = &r.constraints {
        s.write_all(b"constraints:\n")?;
        for c in &listing.constraints {
            writeln!(s, "  {}", constraint(c))?;
        }
        s.write_all(b"solution:\n")?;
        for x in &listing.solution {
            writeln!(s, "  {}", solved(x))?;
        }
    }
    let count = r.violations.len();
    if count == 0 {
        writeln!(
            s,
            "{}: well typed, consistently correlated and linear",
            r.file
        )?;
    } else {
        writeln!(s, "{}: {count} violation{}", r.file, plural(count))?;
    }
    Ok(())
}

/// An access line of a λ▷ violation, with the source line it is on.
fn lambda_access(a: &LambdaAccess, sources: &SourceReader, s: &mut dyn Write) -> io::Result<()> {
    let kind = if a.write { "write" } else { "read" };
    let excerpt = sources
        .line(&a.position.file, a.position.line)
        .unwrap_or_default();
    writeln!(s, "    {kind} at {}    {excerpt}", pos(&a.position))
}

fn violation(v: &ViolationDetail, sources: &SourceReader, s: &mut dyn Write) -> io::Result<()> {
    match v {
        ViolationDetail::Inconsistent {
            location,
            allocations,
            locks,
        } => {
            writeln!(
                s,
                "error: location {} is not consistently correlated",
                location.description
            )?;
            // The allocations are worth a line unless the location is its only allocation.
            let only_itself = allocations.len() == 1 && allocations[0].label == location.label;
            if !allocations.is_empty() && !only_itself {
                let list: Vec<&str> = allocations
                    .iter()
                    .take(4)
                    .map(|a| a.description.as_str())
                    .collect();
                writeln!(s, "  it may be {}", list.join(", "))?;
            }
            for x in locks {
                writeln!(s, "  holding {}:", x.lock.description)?;
                for a in &x.accesses {
                    lambda_access(a, sources, s)?;
                }
                if !x.path.is_empty() {
                    let via: Vec<&str> = x.path.iter().map(|c| c.call.as_str()).collect();
                    writeln!(s, "      via {}", via.join(" -> "))?;
                }
            }
        }
        ViolationDetail::ExistentialEscape {
            location,
            lock,
            accesses,
        } => {
            writeln!(
                s,
                "error: {} guards location {}, which is not part of its package",
                lock.description, location.description
            )?;
            for a in accesses {
                lambda_access(a, sources, s)?;
            }
        }
        ViolationDetail::Nonlinear { lock, at, cause } => {
            writeln!(
                s,
                "error: {} may stand for two run-time locks (not linear)",
                lock.description()
            )?;
            match cause {
                NonlinearCause::Disjoint => {
                    let excerpt = sources.line(&at.file, at.line).unwrap_or_default();
                    writeln!(
                        s,
                        "  both sides of the expression at {} allocate it    {excerpt}",
                        pos(at)
                    )?;
                }
                NonlinearCause::Instantiation { call } => {
                    writeln!(s, "  two different locks become one at {call}")?;
                }
            }
        }
        ViolationDetail::RecursiveEffect { locks, function } => {
            match function {
                Some(f) => {
                    writeln!(
                        s,
                        "error: recursive function `{}` at {} allocates locks that escape a \
                         call, so its effect is not empty",
                        f.function,
                        pos(&f.position)
                    )?;
                }
                None => {
                    writeln!(s, "error: a recursive function's effect is not empty")?;
                }
            }
            let what: Vec<&str> = locks.iter().map(|l| l.description()).collect();
            writeln!(s, "  it allocates {}", what.join(", "))?;
        }
        ViolationDetail::Saturated { location, limit } => {
            writeln!(
                s,
                "error: location {} is correlated with more than {limit} locks in one context; \
                 it is reported without further analysis",
                location.description
            )?;
        }
        ViolationDetail::NoConvergence => {
            writeln!(
                s,
                "error: constraint resolution did not converge; the program is not accepted"
            )?;
        }
    }
    Ok(())
}

fn sign(s: Sign) -> &'static str {
    match s {
        Sign::Pos => "+",
        Sign::Neg => "-",
    }
}

fn effect(tokens: &[EffectToken]) -> String {
    let mut out = String::new();
    for t in tokens {
        match t {
            EffectToken::Empty => out.push('∅'),
            EffectToken::Lock(l) => out.push_str(&format!("{{ℓ{l}}}")),
            EffectToken::Var(v) => out.push_str(&format!("χ{v}")),
            EffectToken::Open => out.push('('),
            EffectToken::Close => out.push(')'),
            EffectToken::Disjoint => out.push_str(" ⊎ "),
            EffectToken::Union => out.push_str(" ∪ "),
        }
    }
    out
}

/// A generated constraint in the paper's notation.
fn constraint(c: &Constraint) -> String {
    match c {
        Constraint::Flow { from, to } => format!("ρ{from} ≤ ρ{to}"),
        Constraint::PackageFlow { from, to } => format!("ρ{from} ≤ ρ{to}   (package)"),
        Constraint::RhoInst {
            generic,
            sign: p,
            site,
            instance,
        } => format!("ρ{generic} ⪯{}{site} ρ{instance}", sign(*p)),
        Constraint::LockEq { a, b } => format!("ℓ{a} = ℓ{b}"),
        Constraint::LockInst {
            generic,
            site,
            instance,
        } => format!("ℓ{generic} ⪯{site} ℓ{instance}"),
        Constraint::PackLock { outer, site, inner } => {
            format!("ℓ{outer} ⪯{site} ℓ{inner}   (pack)")
        }
        Constraint::PackRho { outer, site, inner } => {
            format!("ρ{outer} ⪯{site} ρ{inner}   (pack)")
        }
        Constraint::Access {
            rho,
            lock,
            write,
            line,
            column,
        } => {
            let kind = if *write { "write" } else { "read" };
            format!("ρ{rho} ▷ ℓ{lock}   ({kind} at {line}:{column})")
        }
        Constraint::EffectBound { effect: e, var } => format!("{} ≤ χ{var}", effect(e)),
        Constraint::Filter { effect: e, target } => format!("{} ≤_l⃗ χ{target}", effect(e)),
        Constraint::EffectInst {
            generic,
            sign: p,
            site,
            instance,
        } => format!("χ{generic} ⪯{}{site} χ{instance}", sign(*p)),
        Constraint::EmptyEffect { var } => format!("effect(χ{var}) = ∅"),
    }
}

/// A fact of the solution in the paper's notation.
fn solved(x: &Solved) -> String {
    match x {
        Solved::LockClass { rep, members } => {
            let names: Vec<String> = members.iter().map(|m| format!("ℓ{m}")).collect();
            format!("ℓ{rep} = {{{}}}", names.join(", "))
        }
        Solved::MatchedFlow { from, to } => format!("ρ{from} ≤ ρ{to}   (matched flow)"),
        Solved::FreshLock {
            generic,
            site,
            image,
        } => format!("ℓ{generic} ⪯{site} ℓ{image}   (fresh lock of the call)"),
        Solved::Effect { var, atoms } => {
            let atoms: Vec<String> = atoms
                .iter()
                .map(|a| {
                    let name = match a.lock {
                        AtomRef::Lock(l) => format!("ℓ{l}"),
                        AtomRef::Fresh(site) => format!("fresh@{site}"),
                    };
                    if a.twice {
                        format!("{name}×2")
                    } else {
                        name
                    }
                })
                .collect();
            format!("χ{var} = {{{}}}", atoms.join(", "))
        }
        Solved::RootFact {
            rho,
            lock,
            copy_of: None,
        } => format!("ρ{rho} ▷ ℓ{lock}   (at the root)"),
        Solved::RootFact {
            rho,
            lock,
            copy_of: Some(t),
        } => format!("ρ{rho} ▷ ℓ{lock}   (at the root, copy of call {t})"),
    }
}
