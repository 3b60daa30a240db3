//! The C front end of locksmith (paper §3). Its folders follow the pipeline:
//!
//! - [`syntax`]: the system preprocessor, parsing with `lang-c` with error recovery, and the
//!   source map from preprocessed offsets back to `file:line:col`;
//! - [`lower`]: lowering each translation unit to the IR and linking them into one program;
//! - [`ir`]: the small CIL-like intermediate representation and its C types;
//! - [`model`]: what locksmith knows about library functions by name (pthreads, allocation, the
//!   stubs' intrinsics) — the only place that spells a library function's name;
//! - [`rwlocks`]: the program's own readers/writer lock functions, recognised as lock calls;
//! - [`fold`]: branches decided by configuration that never changes, and the code they make
//!   unreachable emptied, [`devirtualize`]: calls through pointers that hold one function
//!   made direct, and [`specialise`]: thread starters copied per start routine — the three
//!   changes to the IR after lowering;
//! - [`analyses`]: front-end analyses on the IR — allocation and reallocation wrappers, matching
//!   joins with creates, uniqueness, inferred unpacks, lock elements, mutex-like semaphores and
//!   hand-made reader sections, barriers, startup stores, signal masks, returns on lock failure;
//!   a stage of their own, whose result is one frozen value ([`analyses::Analysed`]);
//! - [`constraints`]: labelled C types and the generation of LOCKSMITH's constraints and event
//!   graphs into the shared `solver`: a walk over the program that reads the analyses' result
//!   and never computes an analysis of the IR itself;
//! - [`driver`]: the whole pipeline for `locksmith check`, and [`diagnostics`], what it reports
//!   besides races (not analysed, knowingly unsound, fatal), each with a stable code; [`reach`]
//!   which of the functions not analysed may run; [`signals`] which signals the program sends
//!   itself (for reports on handlers of signals only another process sends); [`entries`] the
//!   entry points of a program without `main`; [`explain`] what a report asks of a result
//!   (lock names, call paths).
//!
//! It never prints reports and never decides races (the solver does); it returns analysis data
//! for the command-line crate to render.

pub mod analyses;
pub mod constraints;
pub mod devirtualize;
pub mod diagnostics;
pub mod driver;
pub mod entries;
pub mod explain;
pub mod fold;
pub mod ir;
pub mod lower;
pub mod model;
pub mod reach;
pub mod rwlocks;
pub mod signals;
pub mod specialise;
pub mod syntax;
