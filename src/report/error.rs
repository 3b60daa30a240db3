//! Builds the report of a run that cannot analyse its input, for either command: a front-end
//! fatal error of `locksmith check`, a λ▷ syntax or type error, or a file that cannot be read or
//! written.
//!
//! Every error path of both commands goes through here, so that every format shows errors in one
//! shape. This module never prints and never decides whether something is an error.

use c_frontend::diagnostics::Fatal;
use lambda_core::ast::{SourceFile, Span};

use super::model::{ErrorCode, ErrorReport, Failure, Report};

/// A fatal error of the C front end (its message names the file), or of the configuration (at
/// its file, line and column).
pub fn fatal(fatal: &Fatal) -> Report {
    let at = fatal.at.as_ref();
    Report::Error(Failure::new(ErrorReport {
        code: ErrorCode::Fatal(fatal.kind),
        message: fatal.message.clone(),
        file: at.map(|p| p.file.clone()),
        line: at.map(|p| p.line),
        column: at.map(|p| p.column),
    }))
}

/// An error at a place in a λ▷ source file (`code` is [`ErrorCode::Syntax`] or
/// [`ErrorCode::Type`]).
pub fn at_span(file: &SourceFile, span: Span, code: ErrorCode, message: &str) -> Report {
    let lc = file.line_col(span.start);
    Report::Error(Failure::new(ErrorReport {
        code,
        message: message.to_string(),
        file: Some(file.name.clone()),
        line: Some(lc.line),
        column: Some(lc.column),
    }))
}

/// An error about a whole file: it cannot be read, is not text, or cannot be written.
pub fn about_file(code: ErrorCode, file: &str, message: String) -> Report {
    Report::Error(Failure::new(ErrorReport {
        code,
        message,
        file: Some(file.to_string()),
        line: None,
        column: None,
    }))
}
