//! The whole C pipeline for `locksmith check`: preprocess and parse every file (with recovery),
//! lower them together with the libc stubs into one linked program, generate constraints, and run
//! the thread analysis. It returns data; rendering is the command line's job.

use std::path::PathBuf;

use crate::constraints::{self, Generated};
use crate::diagnostics::{Fatal, FatalKind, Unanalysed, UnanalysedKind};
use crate::ir::{Origin, Program};
use crate::lower::Lowerer;
use crate::syntax::embedded;
use crate::syntax::parse::{self, DroppedKind};
use crate::syntax::preprocess::{self, PreprocessOptions};
use crate::syntax::srcmap::{FileTable, SourceMap};
use solver::threads::{self, ThreadSolution};
use solver::Techniques;

/// Options of `locksmith check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub preprocess: PreprocessOptions,
    /// The techniques that are on (all by default), for every phase.
    pub techniques: Techniques,
}

/// Everything a report needs.
pub struct CheckResult {
    pub program: Program,
    pub generated: Generated,
    pub solution: ThreadSolution,
}

/// Adds one preprocessed-and-parsed unit to the program being lowered.
fn add_unit(
    lowerer: &mut Lowerer,
    files: &mut FileTable,
    unanalysed: &mut Vec<Unanalysed>,
    pre: preprocess::Preprocessed,
    origin: Origin,
) -> Result<(), Fatal> {
    let name = pre.name.clone();
    let parsed = parse::parse_unit(pre).map_err(|e| {
        let kind = if e.internal {
            FatalKind::Internal
        } else {
            FatalKind::NotC
        };
        Fatal::new(kind, e.message)
    })?;
    let map = SourceMap::new(&parsed.text, &name, files);
    for d in &parsed.dropped {
        let kept = match d.kind {
            DroppedKind::FunctionBody => "its body is not analysed",
            DroppedKind::Typedef => "it is read as `int`",
            DroppedKind::Declaration => "it is skipped",
        };
        unanalysed.push(Unanalysed {
            name: d.name.clone(),
            pos: map.pos(d.offset),
            kind: UnanalysedKind::ParseError,
            reason: format!("{}; {kept}", d.reason),
        });
    }
    lowerer.add_unit(&parsed.unit, &map, origin);
    Ok(())
}

/// Analyses the C program made of `inputs`.
pub fn check(inputs: &[PathBuf], options: &CheckOptions) -> Result<CheckResult, Fatal> {
    if inputs.is_empty() {
        return Err(Fatal::new(FatalKind::NoInput, "no input files"));
    }
    let mut files = FileTable::new();
    let mut lowerer = Lowerer::new();
    let mut unanalysed = Vec::new();

    // The libc stubs, analysed with every program.
    let dir = embedded::data_dir().map_err(|e| {
        Fatal::new(
            FatalKind::Internal,
            format!("cannot write locksmith's data files: {e}"),
        )
    })?;
    let stub_path = dir.join("stubs").join(embedded::STUB_UNIT);
    let stubs = preprocess::preprocess(&stub_path, &options.preprocess).map_err(|e| {
        Fatal::new(
            FatalKind::Internal,
            format!("cannot preprocess the libc stubs: {}", e.message),
        )
    })?;
    add_unit(
        &mut lowerer,
        &mut files,
        &mut Vec::new(),
        stubs,
        Origin::Stub,
    )?;

    let front = std::time::Instant::now();
    for path in inputs {
        let pre = preprocess::preprocess(path, &options.preprocess)
            .map_err(|e| Fatal::new(FatalKind::Preprocess, e.message))?;
        add_unit(&mut lowerer, &mut files, &mut unanalysed, pre, Origin::User)?;
    }
    let program = lowerer.finish(files, unanalysed);
    if solver::stats::enabled() {
        solver::stats::record_seconds("preprocess, parse and lower", front.elapsed().as_secs_f64());
    }
    let main = program
        .funcs
        .iter_enumerated()
        .find(|(_, f)| f.name == "main" && f.defined && f.origin == Origin::User)
        .map(|(id, _)| id)
        .ok_or_else(|| no_main(&program, inputs))?;
    let generated = solver::stats::time("generate", || {
        constraints::generate(&program, main, options.techniques)
    });
    let solution = solver::stats::time("solve", || {
        threads::solve(
            &generated.constraints,
            &generated.threads,
            options.techniques,
        )
    });
    Ok(CheckResult {
        program,
        generated,
        solution,
    })
}

/// Why there is no `main` to start from: it could not be parsed or lowered (then the error is
/// named), or no file defines it.
fn no_main(program: &Program, inputs: &[PathBuf]) -> Fatal {
    if let Some(u) = program.unanalysed.iter().find(|u| u.name == "main") {
        return Fatal::new(
            FatalKind::NoMain,
            format!(
                "`main` at {}:{} could not be analysed: {}; locksmith checks whole programs from `main`",
                program.files[u.pos.file], u.pos.line, u.reason
            ),
        );
    }
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    Fatal::new(
        FatalKind::NoMain,
        format!(
            "no `main` function in {}: locksmith checks whole programs (add the file that defines main)",
            names.join(", ")
        ),
    )
}

/// [`check`] on a thread with a large stack: parsing and lowering recurse over deeply nested C.
pub fn check_on_large_stack(
    inputs: Vec<PathBuf>,
    options: CheckOptions,
) -> Result<CheckResult, Fatal> {
    std::thread::Builder::new()
        .name("locksmith-check".into())
        .stack_size(1 << 30)
        .spawn(move || check(&inputs, &options))
        .map_err(|e| {
            Fatal::new(
                FatalKind::Internal,
                format!("cannot start the analysis thread: {e}"),
            )
        })?
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A developer's view of a result (printed by `locksmith check` to stderr when the environment
/// variable `LOCKSMITH_DEBUG` is set): every access with its label, and every fact with its
/// function, thread, position, locks and write flag.
pub fn debug_dump(r: &CheckResult) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let p = &r.program;
    for (f, func) in p.funcs.iter_enumerated() {
        if func.defined && func.origin == Origin::User {
            out.push_str(&crate::ir::dump::dump_func(p, f));
        }
    }
    for (a, site) in r.generated.access_sites.iter_enumerated() {
        let info = r.generated.threads.accesses[a];
        let file = &p.files[site.pos.file];
        let home = r
            .solution
            .homes
            .home_of(info.rho)
            .map(|f| p.funcs[r.generated.fn_func[f]].name.as_str());
        let images = r
            .generated
            .constraints
            .rho_insts
            .iter()
            .filter(|i| i.generic == info.rho)
            .count();
        let _ = writeln!(
            out,
            "access {a:?} {}:{}:{} {:?} {} in {} (home {}, {images} images, scope {:?})",
            file,
            site.pos.line,
            site.pos.column,
            info.rho,
            if info.write { "write" } else { "read" },
            p.funcs[site.func].name,
            home.unwrap_or("main"),
            r.generated.constraints.rhos[info.rho].scope,
        );
    }
    for (pos, why) in &r.generated.conflations {
        let _ = writeln!(
            out,
            "conflated at {}:{}:{}: {why}",
            p.files[pos.file], pos.line, pos.column
        );
    }
    for (fid, body) in r.generated.threads.funcs.iter_enumerated() {
        let _ = writeln!(out, "events of {}:", p.funcs[r.generated.fn_func[fid]].name);
        for (b, block) in body.blocks.iter().enumerate() {
            let _ = writeln!(
                out,
                "  b{b} -> {:?}{}: {:?}",
                block.succs,
                if block.returns { " returns" } else { "" },
                block.events
            );
        }
    }
    let mut trusted: Vec<_> = r.solution.mhp.unique_handle.iter().collect();
    trusted.sort();
    let _ = writeln!(out, "trusted global handles: {trusted:?}");
    for (id, f) in r.solution.facts.iter_enumerated() {
        let func = &p.funcs[r.generated.fn_func[f.func]].name;
        let held = r.solution.sets.get(f.held);
        let _ = writeln!(
            out,
            "fact {id:?} {:?} in {func} {:?} at {} held {:?} tag {:?} joined {:?} inside {:?} {}",
            f.rho,
            f.thread,
            f.point,
            held,
            f.tag,
            r.solution.handle_sets.get(f.joined),
            r.solution.site_sets.get(f.inside),
            if f.writes { "writes" } else { "reads" }
        );
    }
    out
}
