//! What the IR tests share: lowering one preprocessed C unit, as the driver would, without gcc,
//! and finding its functions. Each test binary uses a part of it.
#![allow(dead_code)]

use c_frontend::ir::{FuncId, Origin, Program};
use c_frontend::lower::Lowerer;
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

/// Parses and lowers `text`, a unit that needs no preprocessing, as the user's file `u.c`.
pub fn lower(text: &str) -> Program {
    let mut files = FileTable::new();
    let mut lw = Lowerer::new();
    let parse =
        lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), text.to_string())
            .unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let map = SourceMap::new(text, "u.c", &mut files);
    lw.add_unit(&parse.unit, &map, Origin::User);
    lw.finish(files, Vec::new())
}

/// The function of `p` named `name` that has a body.
pub fn defined(p: &Program, name: &str) -> FuncId {
    p.funcs
        .iter_enumerated()
        .find(|(_, f)| f.defined && f.name == name)
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no function {name} with a body"))
}

/// The unpacks of every function of `p`, run from `main` as the front-end analyses run them:
/// one index of the calls, the owning places, the join plan and the releasers.
pub fn unpacks_of(
    p: &Program,
    main: FuncId,
) -> rustc_hash::FxHashMap<FuncId, c_frontend::analyses::unpacks::Unpacks> {
    use c_frontend::analyses::{calls::Calls, joins::plan, unpacks};
    let calls = Calls::of(p);
    let owning = unpacks::OwningPlaces::of(p, &calls);
    let jp = plan(p, &calls, Some(main), &solver::stats::Stats::off());
    unpacks::analyse_program(p, &calls, main, &owning, &unpacks::releasers(p), &jp)
}
