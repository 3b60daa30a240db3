//! The report of a run, independent of its output format: the model ([`model`]) and the builders
//! that fill it from analysis results ([`check`], [`lambda`]) or from an error ([`error`]).
//!
//! Builders only convert ids into names and positions; they never analyse (the front ends'
//! `explain` modules answer every question about a result) and never print (the renderers in
//! `crate::render` do).

pub mod check;
mod consequences;
#[cfg(test)]
mod contract_tests;
pub mod error;
pub mod lambda;
pub mod model;
pub mod triage;

pub use model::Report;
