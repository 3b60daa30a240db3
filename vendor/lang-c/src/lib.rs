//! C language parser and abstract syntax tree
//!
//! ```
//! use lang_c::driver::{Config, parse};
//!
//! fn main() {
//!     let config = Config::default();
//!     println!("{:?}", parse(&config, "example.c"));
//! }
//! ```

#![allow(deprecated)]
#![allow(ellipsis_inclusive_range_patterns)]
// locksmith patch: the generated parser and the 2015-edition code warn under newer compilers.
#![allow(warnings)]

// locksmith patch: serde for the syntax tree (the parse cache), behind the `serde` feature.
#[cfg(feature = "serde")]
#[macro_use]
extern crate serde;

// locksmith patch (PATCHES.md 5): FxHash for the parser's own tables.
extern crate rustc_hash;

pub mod ast;
pub mod driver;
pub mod loc;
pub mod print;
pub mod span;
pub mod visit;

mod astutil;
mod env;
mod parser;
mod strings;

#[cfg(test)]
mod tests;
// locksmith patch (PATCHES.md 4): tests of the GNU C rules.
#[cfg(test)]
mod tests_gnu;
