//! The locksmith command line: argument parsing and report rendering (text, JSON, DOT).
//! It holds no analysis logic; that lives in `solver`, `lambda-core` and `c-frontend`.

pub mod check;
pub mod lambda;
