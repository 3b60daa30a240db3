//! The JSON format: the report model serialised, pretty-printed, one object per run.
//!
//! The contract is the model's types (`crate::report::model`); this renderer adds, renames and
//! drops nothing. Keys come out sorted (the report goes through `serde_json::Value`, whose maps
//! are ordered), so the output does not depend on field declaration order.

use crate::report::Report;

/// The report as one pretty-printed JSON object, with a final newline.
pub fn render(report: &Report) -> String {
    // Serialising the model cannot fail: every map key is a field name and no type has a
    // fallible `Serialize` implementation.
    let value = serde_json::to_value(report).expect("the report model serialises to JSON");
    format!("{value:#}\n")
}
