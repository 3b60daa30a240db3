//! Which of the functions locksmith could not analyse may run: a run that misses one
//! of them is incomplete, never race-free, while one that misses only code that cannot run loses
//! nothing.
//!
//! A function may run when the program's roots reach it through the code that was analysed:
//! `main` (or the harness that calls the entry points of `--entry` and `--library`) and the
//! initializers of globals. A function is reached by a direct call, and by its address taken
//! anywhere in reached code (a function pointer stored, a thread's start routine, a callback
//! handed to a library or to unknown code): a function whose address is never taken in code that
//! runs cannot be called through a pointer. The walk is over the IR, so it needs no resolution
//! of function pointers and over-approximates the solver's call graph.
//!
//! What is not analysed is then decided conservatively:
//! - a function whose body was lost ([`Lost::Body`]) or an item the parser could not take apart
//!   ([`Lost::Item`], maybe a function definition) may run when a function of its name is
//!   reached; under `--library` also when other files could call it (no `static` function of
//!   that name);
//! - once a function whose body was lost is reached, that body is code locksmith cannot see and
//!   may call any function: every lost body or item then counts;
//! - a typedef or a declaration that defines no function ([`Lost::Declaration`]) never runs; the
//!   functions that use it and cannot be lowered are listed on their own.
//!
//! Functions are matched by name (two `static` functions of one name in different files are
//! both taken), which can only count more.

use rustc_hash::FxHashSet;
use solver::ids::IndexVec;

use crate::diagnostics::{Lost, Unanalysed};
use crate::driver::CheckResult;
use crate::entries::Entries;
use crate::ir::visit::{self, Visitor};
use crate::ir::{Callee, FuncId, Operand, Origin, Program, StmtKind};

/// For each function not analysed, in the order of [`CheckResult::unanalysed`], whether it may
/// run.
pub fn unanalysed_may_run(r: &CheckResult) -> Vec<bool> {
    let library = matches!(r.entries, Entries::Library);
    may_run(&r.program, &[r.root], library, &r.unanalysed())
}

/// [`unanalysed_may_run`] for `unanalysed` entries of program `p` started at `roots` (and at the
/// initializers of globals); `library` when every function other files could call is an entry.
pub fn may_run(
    p: &Program,
    roots: &[FuncId],
    library: bool,
    unanalysed: &[&Unanalysed],
) -> Vec<bool> {
    let reached = reached(p, roots);
    let functions = |u: &Unanalysed| -> Vec<FuncId> {
        let names: FxHashSet<&str> = u.name.split(", ").collect();
        p.funcs
            .iter_enumerated()
            .filter(|(_, f)| names.contains(f.name.as_str()))
            .map(|(id, _)| id)
            .collect()
    };
    let lost_bodies: FxHashSet<&str> = unanalysed
        .iter()
        .filter(|u| u.lost != Lost::Declaration)
        .flat_map(|u| u.name.split(", "))
        .collect();
    // A reached function without a body that was lost (not a library function): unknown code
    // runs, and may call anything.
    let unknown_runs = p
        .funcs
        .iter_enumerated()
        .any(|(id, f)| reached[id] && f.blocks.is_empty() && lost_bodies.contains(f.name.as_str()));
    unanalysed
        .iter()
        .map(|u| {
            if u.lost == Lost::Declaration {
                return false;
            }
            let funcs = functions(u);
            let exported = library
                && u.name != "main"
                && funcs
                    .iter()
                    .all(|&f| !p.funcs[f].is_static && p.funcs[f].origin == Origin::User);
            unknown_runs || exported || funcs.iter().any(|&f| reached[f])
        })
        .collect()
}

/// The functions the roots and the initializers of globals reach by calls and taken addresses.
pub(crate) fn reached(p: &Program, roots: &[FuncId]) -> IndexVec<FuncId, bool> {
    let mut seen: IndexVec<FuncId, bool> = p.funcs.iter().map(|_| false).collect();
    let mut work: Vec<FuncId> = roots.to_vec();
    work.push(p.global_init);
    while let Some(f) = work.pop() {
        if std::mem::replace(&mut seen[f], true) {
            continue;
        }
        let mut named = Named(Vec::new());
        for block in &p.funcs[f].blocks {
            for s in &block.stmts {
                if let StmtKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } = &s.kind
                {
                    named.0.push(*g);
                }
            }
            visit::walk_block(&mut named, block);
        }
        work.extend(named.0.into_iter().filter(|&g| !seen[g]));
    }
    seen
}

/// The functions an operand names as values (their addresses).
struct Named(Vec<FuncId>);

impl Visitor for Named {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::Func(f) = op {
            self.0.push(*f);
        }
        visit::walk_operand(self, op);
    }
}
