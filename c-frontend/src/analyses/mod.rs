//! Front-end analyses on the IR that the constraint generator consults: which user functions are
//! allocation wrappers ([`alloc_wrappers`]), which `pthread_join`
//! calls certainly end which threads ([`joins`]), which local pointers certainly hold fresh,
//! unpublished memory ([`uniqueness`]), which semaphores behave as mutexes ([`semaphores`]),
//! where a function holds the lock of the object it accesses ([`unpacks`]), which barrier orders
//! phases ([`barriers`]), which arrays of locks are named element by element by constants
//! ([`lock_elements`]), which of `main`'s stores to global pointers are replaced before any
//! thread can see them ([`startup_stores`]), which signals the calls of `sigprocmask` block
//! and unblock ([`signal_masks`]), which thread parameters only hold integers
//! ([`integer_arguments`]), which returns are taken when a lock call failed
//! ([`lock_failures`]), which global pointers hold one object per epoch ([`singletons`]) and
//! which threads are not running where such a pointer is null ([`guard_joins`]), which
//! mutexes a function certainly holds, through lock wrappers ([`held`]), and which of the
//! program's functions never return ([`never_returns`]).
//!
//! They read the IR and the library model only; they never create labels or constraints.
//! [`run`] runs those the generator needs, as a phase of their own (`--timings` shows it), and
//! hands them over as one value, [`Analysed`], that the generator only reads: an analysis the
//! generator needs adds a field to it, and the generator computes no analysis of the IR itself
//! (the uniqueness of a stub, asked at its first inlining, is the one exception, for cost).

pub mod alloc_wrappers;
pub mod barriers;
pub mod calls;
pub mod chunks;
pub mod claims;
pub mod function_uses;
pub mod guard_joins;
pub mod held;
pub mod integer_arguments;
pub mod joins;
pub mod lock_elements;
pub mod lock_failures;
pub(crate) mod must;
pub mod never_returns;
pub mod once;
pub mod reader_sections;
pub mod semaphores;
pub mod signal_masks;
pub mod singletons;
pub mod stable_tests;
pub mod startup_stores;
pub mod stub_captures;
pub mod uniqueness;
pub mod unpacks;

use rustc_hash::{FxHashMap, FxHashSet};
use solver::{Technique, Techniques};

use crate::ir::ctypes::StructId;
use crate::ir::visit::{walk_func, FindsVaArg};
use crate::ir::{BlockId, FuncId, Origin, Program};
use calls::Calls;

/// What the front-end analyses found, for the constraint generator.
pub struct Analysed {
    /// The components of the call graph that are recursive, by function.
    pub recursive_scc: FxHashMap<FuncId, usize>,
    /// Which creates and joins match ([`joins`]).
    pub joins: joins::JoinPlan,
    /// The own locks held at each statement of each function ([`unpacks`]); empty when
    /// existentials are off.
    pub unpacks: FxHashMap<FuncId, unpacks::Unpacks>,
    /// The pointer places that hold blocks only their holder reaches ([`unpacks::OwningPlaces`]);
    /// none when existentials are off.
    pub owning: unpacks::OwningPlaces,
    /// The elements of global lock arrays named by constants ([`lock_elements`]).
    pub elements: lock_elements::LockElements,
    /// The semaphores that behave as mutexes ([`semaphores`]).
    pub mutex_sems: FxHashSet<semaphores::SemKey>,
    /// Where readers hold such a semaphore shared ([`reader_sections`]).
    pub reader_sections: reader_sections::ReaderSections,
    /// The barrier whose waits order phases ([`barriers`]).
    pub barrier: Option<barriers::Barrier>,
    /// `main`'s startup stores to global pointers ([`startup_stores`]).
    pub startup: startup_stores::StartupStores,
    /// What the calls of `sigprocmask` and `pthread_sigmask` block and unblock
    /// ([`signal_masks`]).
    pub masks: signal_masks::SignalMasks,
    /// The parameters that only ever hold an integer converted to a pointer
    /// ([`integer_arguments`]): converting them back loses nothing.
    pub integer_params: FxHashSet<crate::ir::VarId>,
    /// The blocks of each function that return on a lock call's failure ([`lock_failures`]).
    pub lock_failures: FxHashSet<(FuncId, BlockId)>,
    /// The branches on variables that keep their value from their first test on
    /// ([`stable_tests`]).
    pub stable_tests: FxHashMap<(FuncId, BlockId), stable_tests::StableTest>,
    /// The fresh, unpublished local pointers of each user function with a body
    /// ([`uniqueness`]); empty when uniqueness is off. A stub's are computed by the generator
    /// at its first inlining: most stubs are never called.
    pub uniqueness: FxHashMap<FuncId, uniqueness::Uniqueness>,
    /// The user functions that take values out of their own variadic arguments with `va_arg`.
    pub uses_va_arg: FxHashSet<FuncId>,
    /// The structs declared existential, with their guarded fields
    /// ([`Program::existentials`]); empty when existentials are off.
    pub existential: FxHashMap<StructId, Vec<u32>>,
    /// The global pointers filled lazily, one object per epoch ([`singletons`]).
    pub guards: Vec<singletons::Guard>,
    /// Where each guard is seen null, joins of the threads started where it is set
    /// ([`guard_joins`]), which the thread analysis keeps only where its argument holds.
    pub guard_joins: Vec<guard_joins::GuardJoins>,
}

/// Runs the analyses the generator needs on the program that starts at `main`.
pub fn run(
    p: &Program,
    main: FuncId,
    techniques: Techniques,
    stats: &solver::stats::Stats,
) -> Analysed {
    let calls = &stats.time("analyses: call sites", || Calls::of(p));
    let lock_failures = stats.time("analyses: lock failures", || {
        lock_failures::failure_returns(p, calls)
    });
    let recursive_scc = stats.time("analyses: recursion", || recursive_components(p, calls));
    let mut joins = stats.time("analyses: joins", || {
        joins::plan(p, calls, Some(main), stats)
    });
    let guards = stats.time("analyses: singletons", || {
        let guards = singletons::guards(p, calls);
        stats.count("global pointers filled once per epoch", guards.len());
        guards
    });
    let guard_joins = stats.time("analyses: guard joins", || {
        guard_joins::find(p, calls, main, &guards, &mut joins)
    });
    stats.count("guards whose null sides join threads", guard_joins.len());
    let presumed: usize = joins.presumed.iter().map(|j| j.creates.len()).sum();
    stats.count(
        "thread creates matched with joins",
        joins.create.len() - presumed,
    );
    stats.count("presumed counter joins", joins.presumed.len());
    stats.count("joins that end one thread", joins.join_after.len());
    stats.count("hand-shakes", joins.handshakes.len());
    let owning = stats.time("analyses: owning places", || {
        if techniques.has(Technique::Existentials) {
            unpacks::OwningPlaces::of(p, calls)
        } else {
            unpacks::OwningPlaces::default()
        }
    });
    let unpacks = stats.time("analyses: unpacks", || {
        if techniques.has(Technique::Existentials) {
            let releasers = unpacks::releasers(p);
            let mut found = unpacks::analyse_program(p, calls, main, &owning, &releasers, &joins);
            if techniques.has(Technique::Uniqueness) {
                unpacks::analyse_ownership(p, calls, main, &mut found);
            }
            found
        } else {
            FxHashMap::default()
        }
    });
    let elements = stats.time("analyses: lock elements", || {
        lock_elements::analyse(
            p,
            calls,
            &recursive_scc,
            techniques.has(Technique::ContextSensitivity),
        )
    });
    let (mutex_sems, reader_sections) = stats.time("analyses: semaphores", || {
        let mut readers = reader_sections::find(p);
        let mutexes = semaphores::mutex_semaphores(p, &readers.calls);
        readers.retain(&mutexes);
        (mutexes, readers)
    });
    Analysed {
        recursive_scc,
        joins,
        unpacks,
        owning,
        elements,
        mutex_sems,
        reader_sections,
        barrier: stats.time("analyses: barriers", || barriers::phase_barrier(p)),
        startup: stats.time("analyses: startup stores", || {
            startup_stores::analyse(p, calls, main)
        }),
        masks: stats.time("analyses: signal masks", || signal_masks::analyse(p)),
        integer_params: stats.time("analyses: integer arguments", || {
            integer_arguments::integer_parameters(p, calls)
        }),
        lock_failures,
        stable_tests: stats.time("analyses: stable tests", || {
            stable_tests::stable_tests(p, calls)
        }),
        uniqueness: stats.time("analyses: uniqueness", || {
            if techniques.has(Technique::Uniqueness) {
                let mut all = uniqueness::with_handed_params(
                    p,
                    main,
                    &calls.uses.addressed,
                    calls.callers_first(),
                    |f, params| {
                        let sources = uniqueness::Sources {
                            params,
                            ..uniqueness::Sources::default()
                        };
                        uniqueness::analyse_with(p, f, &sources)
                    },
                );
                user_functions(p)
                    .filter_map(|f| Some((f, all.remove(&f)?)))
                    .collect()
            } else {
                FxHashMap::default()
            }
        }),
        uses_va_arg: functions_using_va_arg(p),
        existential: if techniques.has(Technique::Existentials) {
            existential_structs(p)
        } else {
            FxHashMap::default()
        },
        guards,
        guard_joins,
    }
}

/// The user functions with a body, in id order: those the generator generates.
fn user_functions(p: &Program) -> impl Iterator<Item = FuncId> + '_ {
    p.funcs
        .iter_enumerated()
        .filter(|(_, func)| func.defined && func.origin == Origin::User)
        .map(|(f, _)| f)
}

/// The functions whose bodies use `va_arg`.
fn functions_using_va_arg(p: &Program) -> FxHashSet<FuncId> {
    p.funcs
        .iter_enumerated()
        .filter(|(_, func)| {
            let mut finds = FindsVaArg::default();
            walk_func(&mut finds, func);
            finds.found
        })
        .map(|(f, _)| f)
        .collect()
}

/// The structs declared existential, each with the union of the fields its declarations guard.
fn existential_structs(p: &Program) -> FxHashMap<StructId, Vec<u32>> {
    let mut m: FxHashMap<StructId, Vec<u32>> = FxHashMap::default();
    for e in &p.existentials {
        m.entry(e.strukt).or_default().extend(&e.guarded);
    }
    m
}

/// The recursive components of the direct call graph of the user functions: each function on a
/// cycle mapped to the index of its strongly connected component.
pub fn recursive_components(p: &Program, calls: &Calls) -> FxHashMap<FuncId, usize> {
    // Nodes are the functions by id, edges kept in vectors: a graph keyed by hash maps cost a
    // cache miss per edge once the program outgrew the caches.
    let mut graph = petgraph::Graph::<(), ()>::with_capacity(p.funcs.len(), p.funcs.len());
    for _ in p.funcs.iter() {
        graph.add_node(());
    }
    let node = petgraph::graph::NodeIndex::new;
    let mut self_calls = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        if !(func.defined && func.origin == Origin::User) {
            continue;
        }
        for g in calls.sites_in(f).iter().filter_map(|site| site.callee) {
            graph.add_edge(node(f.0 as usize), node(g.0 as usize), ());
            if g == f {
                self_calls.insert(f.0);
            }
        }
    }
    let mut out = FxHashMap::default();
    for (k, component) in petgraph::algo::tarjan_scc(&graph).into_iter().enumerate() {
        let first = component[0].index() as u32;
        if component.len() > 1 || self_calls.contains(&first) {
            for f in component {
                out.insert(FuncId(f.index() as u32), k);
            }
        }
    }
    out
}
