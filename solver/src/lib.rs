//! The constraint language of LOCKSMITH and its resolution (paper figures 4 and 8).
//!
//! It owns the labels — locations ρ, locks ℓ, effect variables χ, instantiation sites i — the
//! constraint store, and every resolution algorithm: lock unification and semi-unification, CFL
//! matched flow for locations, correlation propagation, effects and linearity, existential pack
//! sites, and (for C) flow-sensitive locksets and sharing.
//!
//! It must never parse anything, know the syntax of C or λ▷, or print: front ends generate
//! constraints through its API, and it returns plain data for them to render.

pub mod budget;
pub mod cfl;
pub mod constraints;
pub mod correlation;
pub mod dataflow;
pub mod effects;
pub mod hashed;
pub mod ids;
pub mod locks;
pub mod naive;
pub mod scope;
pub mod solve;
pub mod stats;
pub mod technique;
pub mod threads;

pub use constraints::*;
pub use scope::{Scope, ScopeTree};
pub use solve::{solve, Solution, Violation};
pub use technique::{Technique, Techniques};
