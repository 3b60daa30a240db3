//! From files to `lang-c` syntax trees: running the system preprocessor ([`preprocess`]) with the
//! embedded headers and stubs ([`embedded`]), parsing with recovery from declarations `lang-c`
//! rejects ([`parse`]), keeping parsed units across runs ([`parse_cache`]), and mapping
//! preprocessed positions back to the user's files ([`srcmap`]).
//!
//! Nothing here knows the IR or the analysis; the syntax trees it returns are dropped by the
//! lowering once a unit is lowered.

pub mod embedded;
pub mod parse;
pub mod parse_cache;
pub mod preprocess;
pub mod srcmap;
