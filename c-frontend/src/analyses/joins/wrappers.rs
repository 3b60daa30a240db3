//! Thread-creation and join wrappers: user functions that create or join a thread on behalf of
//! their caller, named by one of their parameters. The plan then treats a call of one as a
//! create or a join of the thread id its caller hands over, with the same rules as
//! `pthread_create` and `pthread_join` themselves.
//!
//! - A **create wrapper** (`int spawn(pthread_t *t, …) { return pthread_create(t, …); }`) has
//!   one `pthread_create` whose thread-id argument is a pointer parameter, read there and nowhere
//!   else in the function (so the id is written into the caller's variable and nothing else is
//!   done with the pointer), never assigned, its address never taken, on no cycle of the
//!   function (one thread per call at most). Its caller's `spawn(&t, …)` is a create of `t`; the
//!   threads the wrapper's create starts during that call are the caller's threads of that
//!   handle (`solver::threads::Event::Call`). Whether the wrapper's result tells that the create
//!   failed is not followed: a failure branch of the call keeps the thread running.
//! - A **join wrapper** (`void wait_for(pthread_t t) { pthread_join(t, 0); }`) joins a thread-id
//!   parameter, never assigned and its address never taken, in a block every path from the entry
//!   to a return passes through (paths that end the program or the thread need not). Its caller's
//!   `wait_for(t)` is a join of `t`. A join wrapper may join through another join wrapper.
//!
//! A wrapper called through a function pointer is an ordinary call. Thread ids in globals are not
//! followed through create wrappers (a global's create may be joined in another function, which
//! the thread analysis allows only for creates it sees as forks).

use rustc_hash::FxHashMap;

use super::*;
use crate::ir::visit::{walk_func, Visitor};

/// The wrappers of a program.
#[derive(Default)]
pub(super) struct Wrappers {
    /// Each create wrapper: the index of its thread-id parameter and its create statement.
    pub(super) creates: FxHashMap<FuncId, (Arg, StmtAt)>,
    /// Each join wrapper: the index of its thread-id parameter.
    pub(super) joins: FxHashMap<FuncId, Arg>,
}

/// Counts the places a variable is named in a function.
struct Uses {
    var: VarId,
    count: usize,
}

impl Visitor for Uses {
    fn visit_var(&mut self, v: VarId) {
        if v == self.var {
            self.count += 1;
        }
    }
}

/// The parameter index of `op` when it is a plain read of a parameter of `func` whose address is
/// never taken.
fn param_read(p: &Program, func: &Func, op: &Operand) -> Option<Arg> {
    let Operand::Use(Lval {
        base: Base::Var(v),
        proj,
        ..
    }) = op.without_casts()
    else {
        return None;
    };
    if !proj.is_empty() || p.vars[*v].address_taken {
        return None;
    }
    let k = func.params.iter().position(|x| x == v)?;
    Arg::try_from(k).ok()
}

/// The calls of `func` to a function of `table`, with the argument the table names.
fn calls_in<'f>(
    func: &'f Func,
    f: FuncId,
    table: &'f FxHashMap<FuncId, Arg>,
) -> impl Iterator<Item = (StmtAt, &'f Operand)> + 'f {
    func.blocks.iter_enumerated().flat_map(move |(b, block)| {
        block
            .stmts
            .iter()
            .enumerate()
            .filter_map(move |(k, stmt)| match &stmt.kind {
                StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } => {
                    let a = table.get(c)?;
                    Some(((f, b, k), args.get(usize::from(*a))?))
                }
                _ => None,
            })
    })
}

/// Whether `v` is assigned anywhere in `func` (a parameter can be assigned only there).
fn assigned(func: &Func, v: VarId) -> bool {
    let writes = |lv: &Lval| matches!(lv.base, Base::Var(x) if x == v);
    func.blocks.iter().any(|block| {
        block.stmts.iter().any(|s| match &s.kind {
            StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => writes(dst),
            StmtKind::Asm { operands } => operands.iter().any(writes),
            _ => false,
        })
    })
}

/// Finds the create and join wrappers among the user functions, given the library's creates and
/// joins with their thread-id arguments.
pub(super) fn find(
    p: &Program,
    lib_creates: &FxHashMap<FuncId, Arg>,
    lib_joins: &FxHashMap<FuncId, Arg>,
) -> Wrappers {
    let mut out = Wrappers::default();
    let user: Vec<(FuncId, &Func)> = p
        .funcs
        .iter_enumerated()
        .filter(|(_, func)| func.defined && func.origin == Origin::User)
        .collect();
    for &(f, func) in &user {
        let mut by_param: FxHashMap<Arg, Vec<StmtAt>> = FxHashMap::default();
        for (at, id) in calls_in(func, f, lib_creates) {
            if let Some(k) = param_read(p, func, id) {
                by_param.entry(k).or_default().push(at);
            }
        }
        let mut found: Vec<(Arg, StmtAt)> = by_param
            .into_iter()
            .filter_map(|(k, sites)| match sites.as_slice() {
                [at] => Some((k, *at)),
                _ => None,
            })
            .filter(|&(k, (_, b, _))| {
                let var = func.params[usize::from(k)];
                let mut uses = Uses { var, count: 0 };
                walk_func(&mut uses, func);
                uses.count == 1
                    && !assigned(func, var)
                    && !on_any_cycle(&Cfg::new(func), b.0 as usize)
            })
            .collect();
        // One thread id per wrapper: with two, which one a caller's join names is not followed.
        found.sort();
        if let [(k, at)] = found.as_slice() {
            out.creates.insert(f, (*k, *at));
        }
    }
    // Join wrappers, to a fixpoint: a wrapper may join through another.
    let mut joins = lib_joins.clone();
    loop {
        let mut grew = false;
        for &(f, func) in &user {
            if joins.contains_key(&f) {
                continue;
            }
            let cfg = Cfg::new(func);
            let joined = calls_in(func, f, &joins).find_map(|((_, b, _), id)| {
                let k = param_read(p, func, id)?;
                let var = func.params[usize::from(k)];
                let reach = cfg.reachable(0, |x| x == b.0 as usize);
                let avoidable = reach.iter().enumerate().any(|(x, &r)| r && cfg.returns[x]);
                (!avoidable && !assigned(func, var)).then_some(k)
            });
            if let Some(k) = joined {
                joins.insert(f, k);
                out.joins.insert(f, k);
                grew = true;
            }
        }
        if !grew {
            return out;
        }
    }
}
