//! The λ▷ calculus of the LOCKSMITH paper (§2): its syntax, a parser with source positions, the
//! type-and-effect inference of figures 5–7 that emits constraints into the shared `solver`, and a
//! call-by-value reference interpreter used to test the soundness theorem.
//!
//! This crate knows nothing about C, and it never prints: it returns data (types, constraints,
//! diagnostics with spans) for the command-line crate to render.

pub mod ast;
pub mod check;
pub mod erase;
pub mod explain;
pub mod infer;
pub mod interp;
pub mod shapes;
pub mod syntax;
