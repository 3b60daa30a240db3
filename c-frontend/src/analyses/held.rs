//! The mutexes a function certainly holds at each point, by the names the program gives them:
//! a must analysis per function, for the front-end analyses that need to know that an idiom's
//! statements run under one mutex (counter joins, readers sections of semaphores, the lists
//! of threads that threads reorder). It reads the IR and the model only.
//!
//! Without [`Wrappers`], a call of a user function may release anything. With them, a call of
//! a *lock wrapper* (`possess(&pool)`, whose body locks `&bolt->mutex` for its parameter
//! `bolt`) takes what the wrapper leaves held, named through the call's arguments, and lets
//! go only of what the wrapper may unlock.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::never_returns::ends_path;
use crate::analyses::semaphores::{sem_key, SemKey};
use crate::ir::{
    Base, BlockId, Callee, Func, FuncId, Lval, Operand, Origin, Program, Proj, StmtKind, Term,
    VarId, VarKind,
};
use crate::model::{Arg, Kind, LockMode, Releasing};

/// A mutex as a function names it: one lying in a variable (`&m`, `&o.m`, never an array
/// element), or one reached through a pointer parameter the function never assigns
/// (`&bolt->mutex`, or `m` itself), which its callers translate through their arguments.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Named {
    Var(SemKey),
    Param(u32, Vec<(u32, u32)>),
    /// A mutex in the object a global pointer points to (`&G->mutex`, `G` itself), named only
    /// for the analyses that ask ([`Held::entered_holding`]): `var` is the pointer.
    Pointee(SemKey),
}

/// What a call of a user function does to the mutexes its caller holds, in the function's
/// own names ([`Named`]). `None` stands for any mutex.
#[derive(Clone, Debug, Default)]
struct Summary {
    /// Held at every return, from an entry that holds nothing.
    leaves: Vec<Named>,
    /// May be unlocked somewhere in its body (taken again before it returns, it is also among
    /// `leaves`).
    releases: Option<Vec<Named>>,
    /// May be let go of for a while (a condition wait) and held again when it returns.
    pauses: Option<Vec<Named>>,
}

/// The lock wrappers' summaries, callees before callers; a recursive function, or one that
/// calls through a pointer or calls code the model does not know, may release anything.
pub(crate) struct Wrappers {
    summaries: FxHashMap<FuncId, Summary>,
    never: FxHashSet<FuncId>,
}

impl Wrappers {
    pub(crate) fn of(
        p: &Program,
        calls: &crate::analyses::calls::Calls,
        never: FxHashSet<FuncId>,
    ) -> Wrappers {
        let mut out = Wrappers {
            summaries: FxHashMap::default(),
            never,
        };
        for &(f, recursive) in calls.callers_first().iter().rev() {
            let func = &p.funcs[f];
            if recursive
                || !func.defined
                || func.origin != Origin::User
                || p.known_kind(f).is_some()
            {
                continue;
            }
            let summary = out.summarise(p, f);
            out.summaries.insert(f, summary);
        }
        out
    }

    /// Whether a statement is a call of a function that never returns.
    pub(crate) fn never_returns(&self, kind: &StmtKind) -> bool {
        ends_path(kind, &self.never)
    }

    fn summarise(&self, p: &Program, f: FuncId) -> Summary {
        let func = &p.funcs[f];
        let names = Names::of(p, func, true);
        let mut releases = Some(Vec::new());
        let mut pauses = Some(Vec::new());
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let Some(effect) = self.effect(p, &names, &stmt.kind) else {
                continue;
            };
            extend(&mut releases, effect.releases);
            extend(&mut pauses, effect.pauses);
        }
        let held = Held::with_wrappers(p, func, self);
        let mut leaves: Option<BTreeSet<Named>> = None;
        for (b, block) in func.blocks.iter_enumerated() {
            if !matches!(block.term, Term::Return(..)) {
                continue;
            }
            let Some(at) = held.named_before(p, func, b, block.stmts.len(), Some(self)) else {
                continue;
            };
            match &mut leaves {
                Some(l) => l.retain(|n| at.contains(n)),
                None => leaves = Some(at),
            }
        }
        Summary {
            leaves: leaves.unwrap_or_default().into_iter().collect(),
            releases,
            pauses,
        }
    }

    /// What a call statement lets go of, in the names of the function it lies in; `None` for
    /// a statement that is not a call.
    fn effect(&self, p: &Program, names: &Names, kind: &StmtKind) -> Option<Effect> {
        let StmtKind::Call { callee, args, .. } = kind else {
            return None;
        };
        let any = Effect {
            releases: None,
            pauses: None,
        };
        if ends_path(kind, &self.never) {
            // What a call that never returns lets go of, no caller holds any more.
            return Some(Effect {
                releases: Some(Vec::new()),
                pauses: Some(Vec::new()),
            });
        }
        let Callee::Direct(g) = callee else {
            return Some(any);
        };
        let named = |a: Arg| args.get(usize::from(a)).and_then(|op| names.name(p, op));
        match p.known_kind(*g) {
            Some(Kind::Wait { lock }) => Some(Effect {
                releases: Some(Vec::new()),
                pauses: named(lock).map(|n| vec![n]),
            }),
            Some(k) => Some(match k.releasing() {
                Releasing::Nothing => Effect {
                    releases: Some(Vec::new()),
                    pauses: Some(Vec::new()),
                },
                Releasing::Lock(lock) => Effect {
                    releases: named(lock).map(|n| vec![n]),
                    pauses: Some(Vec::new()),
                },
                Releasing::Any | Releasing::Body => any,
            }),
            None => {
                let Some(s) = self.summaries.get(g) else {
                    return Some(any);
                };
                Some(Effect {
                    releases: translate_all(p, names, args, s.releases.as_deref()),
                    pauses: translate_all(p, names, args, s.pauses.as_deref()),
                })
            }
        }
    }
}

/// What one call lets go of ([`Summary::releases`], [`Summary::pauses`]).
struct Effect {
    releases: Option<Vec<Named>>,
    pauses: Option<Vec<Named>>,
}

fn extend(into: &mut Option<Vec<Named>>, more: Option<Vec<Named>>) {
    match (into.as_mut(), more) {
        (Some(v), Some(m)) => {
            v.extend(m);
            v.sort();
            v.dedup();
        }
        _ => *into = None,
    }
}

/// A callee's names translated through a call's arguments; `None` (any) when one cannot be.
fn translate_all(
    p: &Program,
    names: &Names,
    args: &[Operand],
    list: Option<&[Named]>,
) -> Option<Vec<Named>> {
    list?.iter().map(|n| names.translate(p, n, args)).collect()
}

/// How a function names mutexes: its global variables, and its pointer parameters that it
/// never assigns and whose address it never takes. Without wrappers (`strict` false), as the
/// analyses that do not follow them always have: any `&v` or `&v.f…`, elements of an array
/// being one mutex ([`sem_key`]).
struct Names {
    params: Vec<Option<VarId>>,
    strict: bool,
    /// Whether mutexes behind global pointers are named ([`Named::Pointee`]).
    pointees: bool,
}

impl Names {
    fn of(p: &Program, func: &Func, strict: bool) -> Names {
        if !strict {
            return Names {
                params: Vec::new(),
                strict,
                pointees: false,
            };
        }
        let assigned: FxHashSet<VarId> = (func.blocks.iter().flat_map(|b| &b.stmts))
            .filter_map(|s| match &s.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                    dst.plain_var()
                }
                _ => None,
            })
            .collect();
        let params = (func.params.iter())
            .map(|&v| (!assigned.contains(&v) && !p.vars[v].address_taken).then_some(v))
            .collect();
        Names {
            params,
            strict,
            pointees: false,
        }
    }

    /// The name of the mutex a lock operand points to, if the function can name it.
    fn name(&self, p: &Program, op: &Operand) -> Option<Named> {
        if !self.strict {
            return sem_key(op).map(Named::Var);
        }
        match op.without_casts() {
            Operand::AddrOf(lv) => self.name_lval(p, lv),
            Operand::Use(lv) if lv.proj.is_empty() => {
                let v = lv.plain_var()?;
                match self.param(v) {
                    Some(i) => Some(Named::Param(i, Vec::new())),
                    None => self.pointee(p, v, Vec::new()),
                }
            }
            _ => None,
        }
    }

    fn name_lval(&self, p: &Program, lv: &Lval) -> Option<Named> {
        let fields = (lv.proj.iter())
            .map(|s| match s {
                Proj::Field { strukt, index } => Some((strukt.0, *index)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        match &lv.base {
            Base::Var(v) => {
                let global = matches!(
                    p.vars[*v].kind,
                    VarKind::Global {
                        thread_local: false,
                        ..
                    }
                );
                global.then_some(Named::Var(SemKey { var: *v, fields }))
            }
            Base::Deref(op) => {
                let Operand::Use(ptr) = op.without_casts() else {
                    return None;
                };
                if !ptr.proj.is_empty() {
                    return None;
                }
                let v = ptr.plain_var()?;
                match self.param(v) {
                    Some(i) => Some(Named::Param(i, fields)),
                    None => self.pointee(p, v, fields),
                }
            }
        }
    }

    /// The mutex at `fields` in what global pointer `v` points to, when pointees are named.
    fn pointee(&self, p: &Program, v: VarId, fields: Vec<(u32, u32)>) -> Option<Named> {
        let global = matches!(
            p.vars[v].kind,
            VarKind::Global {
                thread_local: false,
                ..
            }
        );
        (self.pointees && global).then_some(Named::Pointee(SemKey { var: v, fields }))
    }

    fn param(&self, v: VarId) -> Option<u32> {
        let i = self.params.iter().position(|&x| x == Some(v))?;
        Some(i as u32)
    }

    /// A callee's name in this function's names, through the call's arguments.
    fn translate(&self, p: &Program, named: &Named, args: &[Operand]) -> Option<Named> {
        match named {
            Named::Var(_) | Named::Pointee(_) => Some(named.clone()),
            Named::Param(i, fields) => {
                let base = self.name(p, args.get(*i as usize)?)?;
                Some(match base {
                    Named::Var(mut k) => {
                        k.fields.extend(fields.iter().copied());
                        Named::Var(k)
                    }
                    Named::Param(j, mut f) => {
                        f.extend(fields.iter().copied());
                        Named::Param(j, f)
                    }
                    Named::Pointee(mut k) => {
                        k.fields.extend(fields.iter().copied());
                        Named::Pointee(k)
                    }
                })
            }
        }
    }
}

/// The mutexes certainly held on entry to each block of a function and before each statement:
/// a must analysis over `pthread_mutex_lock`/`unlock` of mutexes the program names (`&m`,
/// `&o.m`). A call of a user function, of a stub, of a function the model does not know, or
/// through a pointer may release anything, and so forgets every mutex, as does any kind the
/// model says may ([`Kind::releasing`]); `pthread_cond_wait` holds its mutex again when it
/// returns. With [`Wrappers`], a call of a user function is its summary, and a call of a
/// function that never returns ends the path.
pub(crate) struct Held {
    entry: Vec<Option<BTreeSet<Named>>>,
    names: Names,
}

impl Held {
    pub(crate) fn new(p: &Program, func: &Func) -> Held {
        Held::run(p, func, None, BTreeSet::new(), false)
    }

    pub(crate) fn with_wrappers(p: &Program, func: &Func, wrappers: &Wrappers) -> Held {
        Held::run(p, func, Some(wrappers), BTreeSet::new(), false)
    }

    /// [`Held::with_wrappers`] for a function entered holding `entry`, as its caller names
    /// them (global mutexes, and mutexes behind global pointers, which this analysis names
    /// too): what it keeps of them, it holds.
    pub(crate) fn entered_holding(
        p: &Program,
        func: &Func,
        wrappers: &Wrappers,
        entry: BTreeSet<Named>,
    ) -> Held {
        Held::run(p, func, Some(wrappers), entry, true)
    }

    fn run(
        p: &Program,
        func: &Func,
        wrappers: Option<&Wrappers>,
        entry: BTreeSet<Named>,
        pointees: bool,
    ) -> Held {
        let succs = func.successor_lists();
        let mut names = Names::of(p, func, wrappers.is_some());
        names.pointees = pointees && wrappers.is_some();
        let entry = solver::dataflow::forward(
            &mut (),
            func.blocks.len(),
            |b| &succs[b],
            entry,
            |_, b, mut held| {
                for stmt in &func.blocks[BlockId(b as u32)].stmts {
                    if !transfer(p, &names, wrappers, &stmt.kind, &mut held) {
                        return None;
                    }
                }
                Some(held)
            },
            |_, into: &mut BTreeSet<Named>, incoming| solver::dataflow::intersect(into, incoming),
        );
        Held { entry, names }
    }

    /// The mutexes held before statement `k` of block `b` (`k` = the number of statements: at
    /// its terminator); `None` where the block is unreachable.
    pub(crate) fn before(
        &self,
        p: &Program,
        func: &Func,
        b: BlockId,
        k: usize,
    ) -> Option<BTreeSet<SemKey>> {
        let held = self.named_before(p, func, b, k, None)?;
        Some(
            held.into_iter()
                .filter_map(|n| match n {
                    Named::Var(k) => Some(k),
                    Named::Param(..) | Named::Pointee(_) => None,
                })
                .collect(),
        )
    }

    /// [`Held::before`] in the function's own names, parameters included, for the analysis
    /// run with `wrappers` (or without).
    pub(crate) fn named_before(
        &self,
        p: &Program,
        func: &Func,
        b: BlockId,
        k: usize,
        wrappers: Option<&Wrappers>,
    ) -> Option<BTreeSet<Named>> {
        let mut held = self.entry[b.0 as usize].clone()?;
        for stmt in &func.blocks[b].stmts[..k] {
            if !transfer(p, &self.names, wrappers, &stmt.kind, &mut held) {
                return None;
            }
        }
        Some(held)
    }

    /// Whether a call statement of the function this ran on may let go of `lock` (for good or
    /// for a while), as `wrappers` summarise its calls.
    pub(crate) fn may_let_go(
        &self,
        p: &Program,
        wrappers: &Wrappers,
        kind: &StmtKind,
        lock: &Named,
    ) -> bool {
        let Some(effect) = wrappers.effect(p, &self.names, kind) else {
            return false;
        };
        let names_it = |list: &Option<Vec<Named>>| match list {
            None => true,
            Some(l) => l.iter().any(|n| may_alias(n, lock)),
        };
        names_it(&effect.releases) || names_it(&effect.pauses)
    }
}

/// Whether two names may stand for one mutex: a parameter's may point anywhere.
fn may_alias(a: &Named, b: &Named) -> bool {
    match (a, b) {
        (Named::Var(x), Named::Var(y)) => x == y,
        _ => true,
    }
}

/// One statement's effect on the mutexes held; false when the path ends there.
fn transfer(
    p: &Program,
    names: &Names,
    wrappers: Option<&Wrappers>,
    kind: &StmtKind,
    held: &mut BTreeSet<Named>,
) -> bool {
    let StmtKind::Call { callee, args, .. } = kind else {
        return true;
    };
    if let Some(w) = wrappers {
        if ends_path(kind, &w.never) {
            return false;
        }
    }
    let Callee::Direct(g) = callee else {
        held.clear();
        return true;
    };
    let func = &p.funcs[*g];
    let kind = p.known_kind(*g);
    let named = |a: Arg| args.get(usize::from(a)).and_then(|op| names.name(p, op));
    if func.defined && func.origin == Origin::User && kind.is_none() {
        match wrappers.and_then(|w| w.summaries.get(g)) {
            Some(s) => {
                match translate_all(p, names, args, s.releases.as_deref()) {
                    Some(gone) => let_go(held, &gone),
                    None => held.clear(),
                }
                held.extend(s.leaves.iter().filter_map(|n| names.translate(p, n, args)));
            }
            None => held.clear(),
        }
        return true;
    }
    match kind {
        Some(Kind::Acquire {
            lock,
            mode: LockMode::Exclusive,
            ..
        }) => {
            if let Some(k) = named(lock) {
                held.insert(k);
            }
        }
        Some(k) => match k.releasing() {
            Releasing::Nothing => {}
            Releasing::Lock(lock) => match named(lock) {
                Some(k) => let_go(held, &[k]),
                None => held.clear(),
            },
            // A stub is not asked what its body releases: anything, to be safe.
            Releasing::Any | Releasing::Body => held.clear(),
        },
        None => held.clear(),
    }
    true
}

/// Forgets every held mutex one of `gone` may be.
fn let_go(held: &mut BTreeSet<Named>, gone: &[Named]) {
    held.retain(|h| !gone.iter().any(|g| may_alias(g, h)));
}
