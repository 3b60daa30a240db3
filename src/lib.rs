//! The locksmith command line: argument handling, the report model of both commands, and one
//! renderer per output format (text, short, JSON, SARIF, HTML, DOT). It holds no analysis logic;
//! that lives in
//! `solver`, `lambda-core` and `c-frontend`, whose `explain` modules answer what a report asks.
//!
//! - [`check`] and [`lambda`]: the two commands, wiring analysis, report and rendering;
//! - [`args`] and [`compdb`]: what `check` is given: response files, a build's compilation
//!   database; [`limits`]: the words of `--time-limit` and `--memory-limit`;
//! - [`config`]: the configuration file `locksmith.toml` of `check`; [`switches`]: the
//!   switches that turn one technique of the analysis off each, with their help;
//! - [`report`]: the report model (the JSON contract), its builders and triage (suppression
//!   comments, baselines);
//! - [`render`]: the formats; [`progress`]: what a long phase shows on a terminal.

pub mod args;
pub mod check;
pub mod compdb;
pub mod config;
pub mod lambda;
pub mod limits;
pub mod progress;
pub mod render;
pub mod report;
pub mod switches;
