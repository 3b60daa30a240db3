//! Lexer, parser and printer for the concrete syntax of λ▷ (given in docs/lambda.md).
//!
//! This module owns the boundary between text and the [`Program`] arena: [`parse`] reads a whole
//! source file into an AST whose every node carries the byte span of its text, and
//! [`print_program`]/[`print_expr`] write any AST back as text that `parse` reads to the same tree.
//!
//! Parsing is recursive descent, which is the clearest way to write this grammar down, but λ▷
//! programs produced by tools can nest very deeply (long `let` chains, generated nesting). So
//! [`parse`] runs the parser on a thread of its own with a large, lazily committed stack, and the
//! parser refuses inputs nested more than [`MAX_NESTING_DEPTH`] levels deep with a [`SyntaxError`]
//! rather than overflowing. The printer needs no such care: it keeps its work on the heap.

mod lexer;
mod parser;
mod print;

use crate::ast::{Program, SourceFile, Span};
use std::fmt;

pub use print::{print_expr, print_program};

/// The first problem found in a source file: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    /// The offending token, or an empty span at the end of the text for a premature end of input.
    pub span: Span,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// How many levels of nesting [`parse`] accepts before reporting "expression nested too deeply".
pub const MAX_NESTING_DEPTH: u32 = 200_000;

/// The stack sizes to try for the parser thread, each with the nesting limit it can support. The
/// first is what [`parse`] normally gets; the smaller ones only matter on systems that refuse to
/// reserve that much address space, where a lower limit is better than no parse at all.
const PARSER_THREADS: [(usize, u32); 3] = [
    (1 << 30, MAX_NESTING_DEPTH),
    (1 << 27, MAX_NESTING_DEPTH / 8),
    (1 << 24, MAX_NESTING_DEPTH / 64),
];

/// Parses `text` (the contents of the file `file_name`) as one λ▷ expression.
///
/// Never panics and never overflows the stack, whatever the input; every problem is reported as
/// the [`SyntaxError`] of the first offending token.
pub fn parse(file_name: &str, text: &str) -> Result<Program, SyntaxError> {
    if u32::try_from(text.len()).is_err() {
        return Err(SyntaxError {
            message: "the file is too large: spans are 32-bit byte offsets".to_string(),
            span: Span::default(),
        });
    }
    let file = SourceFile::new(file_name, text);
    let shared = &file;
    let (exprs, root) = std::thread::scope(|scope| {
        for (stack_size, max_depth) in PARSER_THREADS {
            let spawned = std::thread::Builder::new()
                .name("lambda-parser".to_string())
                .stack_size(stack_size)
                .spawn_scoped(scope, move || parser::parse_file(shared, max_depth));
            if let Ok(handle) = spawned {
                return match handle.join() {
                    Ok(result) => result,
                    Err(panic) => std::panic::resume_unwind(panic),
                };
            }
        }
        Err(SyntaxError {
            message: "could not start a thread to run the parser on".to_string(),
            span: Span::default(),
        })
    })?;
    Ok(Program { file, exprs, root })
}
