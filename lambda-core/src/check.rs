//! The whole λ▷ pipeline: shapes, constraint generation and resolution.

use crate::ast::Program;
use crate::infer::{self, Analysis};
use crate::shapes::{self, TypeError};
use solver::Solution;

/// A program that type-checked, with its constraints and their solution.
pub struct Checked {
    pub analysis: Analysis,
    pub solution: Solution,
}

impl Checked {
    /// Consistently correlated and linear: the verdict of exit status 0.
    pub fn is_ok(&self) -> bool {
        self.solution.is_consistent()
    }
}

/// Infers and solves `program`. Fails only on ordinary type errors (unbound names, shape
/// mismatches). Inference recurses over the syntax tree, so it runs on a thread with a large stack
/// (virtual memory; only the pages used are committed) to accept deeply nested programs.
pub fn check(program: Program) -> Result<(Program, Checked), TypeError> {
    let worker = std::thread::Builder::new()
        .name("lambda-check".into())
        .stack_size(1 << 30)
        .spawn(move || {
            let result = check_here(&program);
            (program, result)
        })
        .expect("spawn the inference thread");
    let (program, result) = worker
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    result.map(|checked| (program, checked))
}

/// [`check`] on the current thread (for callers that already run on a large stack).
pub fn check_here(program: &Program) -> Result<Checked, TypeError> {
    let mut shapes = shapes::infer_shapes(program)?;
    let analysis = infer::generate(program, &mut shapes);
    let solution = solver::solve(&analysis.constraints);
    Ok(Checked { analysis, solution })
}
