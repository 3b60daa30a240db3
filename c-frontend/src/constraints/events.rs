//! The event graphs the thread analysis runs on (paper §3.1: the state variables ψ with their
//! kinds), read off the finished generator: a call through a pointer becomes one call or fork
//! event per target flow found, an access to a whole struct one access per field it has, and
//! every object gets the locks it holds and the labels to check.

use rustc_hash::{FxHashMap, FxHashSet};

use super::ltypes::{Node, Shape};
use super::{AccessSite, Gen, GenEvent, Object, RhoName};
use crate::analyses::joins::StmtAt;
use crate::analyses::unpacks;
use crate::ir::ctypes::Type;
use crate::ir::{FuncId, LoopBound, Origin, StmtKind, VarKind};
use solver::constraints::SiteKind;
use solver::threads::{
    AccessId, AccessInfo, BoundCondition, Event, EventBlock, FnBody, FnId, ObjectId, ObjectInfo,
    StableTest, ThreadProgram,
};
use solver::{Lock, Rho, Site};

impl Gen<'_> {
    /// One event graph per user function, in [`FnId`] order; `expansions` are the targets each
    /// pending call was resolved to ([`Gen::resolve_pending`]).
    pub(super) fn event_graphs(&mut self, expansions: &[Vec<(Site, FuncId)>]) -> ThreadProgram {
        // Whole accesses and objects tie the locations of memory seen as bytes.
        self.ltypes.settle_byte_views();
        let mut threads = ThreadProgram::default();
        let fns: Vec<(FnId, FuncId)> = self
            .fn_func
            .iter_enumerated()
            .map(|(i, &f)| (i, f))
            .collect();
        for (fid, f) in fns {
            let func = &self.program.funcs[f];
            let gen_blocks = self.blocks.remove(&f).unwrap_or_default();
            let blocks = gen_blocks
                .into_iter()
                .zip(func.blocks.iter_enumerated())
                .map(|(events, (b, block))| EventBlock {
                    events: self.expand(events, expansions),
                    succs: block.term.successors().iter().map(|b| b.0).collect(),
                    returns: matches!(block.term, crate::ir::Term::Return(..)),
                    lock_failure: self.analysed.lock_failures.contains(&(f, b)),
                    stable_test: (self.analysed.stable_tests.get(&(f, b))).map(|t| StableTest {
                        var: t.var,
                        when_set: t.when_set.0,
                    }),
                })
                .collect();
            let id = threads.funcs.push(FnBody {
                scope: self.scope_of[&f],
                blocks,
            });
            debug_assert_eq!(id, fid);
        }
        threads.untaken_forks = self.untaken_forks(&threads, expansions);
        threads.barrier_count = self.analysed.barrier.as_ref().map(|b| b.count);
        let mut trips = std::mem::take(&mut self.fork_trips);
        trips.sort_unstable();
        trips.dedup();
        threads.fork_trips = trips;
        for (expansion, pending) in expansions.iter().zip(&self.pending) {
            if pending.signal {
                let mask = self
                    .mask_locks
                    .iter()
                    .find(|&&(n, _)| Some(n) == pending.signal_number);
                for &(site, _) in expansion {
                    threads.signal_sites.push(site);
                    self.signal_handlers.insert(site, pending.signal_number);
                    if let Some(&(_, l)) = mask {
                        threads.masked_handlers.push((site, l));
                    }
                }
            }
        }
        threads.signal_sites.sort_unstable();
        threads.signal_sites.dedup();
        threads.masked_handlers.sort_unstable();
        threads.masked_handlers.dedup();
        threads
    }

    /// [`ThreadProgram::untaken_forks`]: for each direct call of a create wrapper that passes a
    /// function by name for the parameter the wrapper starts as a thread, the wrapper's forks
    /// of that parameter running any other function.
    fn untaken_forks(
        &self,
        threads: &ThreadProgram,
        expansions: &[Vec<(Site, FuncId)>],
    ) -> Vec<(Site, Site)> {
        // Per wrapper: (fork site, parameter index, function started).
        let mut by_param: FxHashMap<FuncId, Vec<(Site, u32, FuncId)>> = FxHashMap::default();
        for (id, pending) in self.pending.iter().enumerate() {
            if let (true, Some(index)) = (pending.fork, pending.through_param) {
                for &(site, target) in &expansions[id] {
                    by_param
                        .entry(pending.caller)
                        .or_default()
                        .push((site, index, target));
                }
            }
        }
        let mut out = Vec::new();
        if by_param.is_empty() {
            return out;
        }
        for body in &threads.funcs {
            for event in body.blocks.iter().flat_map(|b| &b.events) {
                let Event::Call { site, callee, .. } = *event else {
                    continue;
                };
                let (Some(forks), Some(named)) = (
                    by_param.get(&self.fn_func[callee]),
                    self.call_functions.get(&site),
                ) else {
                    continue;
                };
                for &(fork, index, target) in forks {
                    if named.iter().any(|&(k, g)| k == index && g != target) {
                        out.push((site, fork));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The events of one block, with pending calls and whole-struct accesses expanded.
    fn expand(&mut self, events: Vec<GenEvent>, expansions: &[Vec<(Site, FuncId)>]) -> Vec<Event> {
        let mut out = Vec::with_capacity(events.len());
        for e in events {
            match e {
                GenEvent::Event(ev) => out.push(ev),
                GenEvent::Pending(id) => {
                    let (fork, handle) = (self.pending[id].fork, self.pending[id].handle);
                    if let (true, Some(n)) = (fork, self.pending[id].trips) {
                        self.fork_trips
                            .extend(expansions[id].iter().map(|&(site, _)| (site, n)));
                    }
                    if !fork && expansions[id].len() > 1 {
                        let call = expansions[id][0].0;
                        self.alternatives
                            .extend(expansions[id].iter().map(|&(site, _)| (site, call)));
                    }
                    for &(site, target) in &expansions[id] {
                        let callee = self.fn_of[&target];
                        out.push(if fork {
                            Event::Fork {
                                site,
                                callee,
                                handle,
                            }
                        } else {
                            Event::Call {
                                site,
                                callee,
                                handle: None,
                            }
                        });
                    }
                }
                GenEvent::Whole {
                    rho,
                    content,
                    pos,
                    write,
                    via,
                    func,
                    opened,
                    own_copy,
                } => {
                    let tied = self.ltypes.blob_ties(rho, content);
                    for r in self.units(rho, content, &tied) {
                        let a = self.accesses.push(AccessInfo {
                            rho: r,
                            write,
                            opened,
                            own_copy,
                        });
                        self.access_sites.push(AccessSite {
                            pos,
                            func,
                            write,
                            via: via.clone(),
                            beside_lock: None,
                        });
                        out.push(Event::Access(a));
                    }
                }
            }
        }
        out
    }

    /// Completes `threads` with what is known only now that every field used has been created:
    /// each object's locks and checked labels, the thread-local labels, the join facts; returns
    /// the objects, for naming labels.
    pub(super) fn objects_into(&mut self, threads: &mut ThreadProgram) -> Vec<Object> {
        // External memory's objects: each stands for the memory of many objects.
        for &(_, rho, content) in self.ltypes.external_objects().to_vec().iter() {
            self.rho_names.insert(rho, RhoName::External);
            self.objects.push(Object {
                rho,
                content,
                array: true,
            });
        }
        let objects: Vec<Object> = std::mem::take(&mut self.objects).iter().copied().collect();
        for o in &objects {
            // A location holding conflated memory is the blob's label too (`LTypes::blob_ties`).
            let tied = self.ltypes.blob_ties(o.rho, o.content);
            for &(at, blob) in &tied {
                self.constraints.flow(at, blob);
                self.constraints.flow(blob, at);
            }
            let locks = self.ltypes.locks_inside(o.content);
            let array_locks = self.array_locks(o.content);
            threads.objects.push(ObjectInfo {
                locks,
                array: o.array,
                array_locks,
            });
            threads.checked.extend(self.units(o.rho, o.content, &tied));
        }
        // Each package's opened lock (§3.3) is a lock of its own, made once: linear, and held
        // only by the accesses inside its unpacks (`AccessInfo::opened`). A lock behind an
        // owning member is one lock only while the member keeps its block: the stores into the
        // member must each be made where no thread that may reach the member runs beside.
        for (package, l) in &self.opened {
            let member = match package {
                unpacks::Package::Behind(outer, _) => outer.last().copied(),
                _ => None,
            };
            if let Some(member) = member {
                let stores = self.member_stores.get(&member).cloned().unwrap_or_default();
                let users = (self.analysed.owning.users(member).iter())
                    .filter_map(|f| self.fn_of.get(f).copied())
                    .collect();
                threads.steady.push(solver::threads::Steady {
                    object: ObjectId(threads.objects.len() as u32),
                    stores,
                    users,
                });
            }
            threads.objects.push(ObjectInfo {
                locks: vec![*l],
                array: false,
                array_locks: Vec::new(),
            });
        }
        let mut element_objects = Vec::new();
        self.element_objects(&mut element_objects);
        for o in element_objects {
            threads.objects.push(o);
        }
        threads.checked.sort();
        threads.checked.dedup();
        threads.thread_local = self.thread_local_locations();
        threads.signal_atomic = self.signal_atomic.clone();
        threads.signal_atomic.sort_unstable();
        threads.global_handles = self.analysed.joins.global.clone();
        threads.presumed_joins = (self.analysed.joins.presumed.iter())
            .map(|j| j.handles.clone())
            .collect();
        threads.epochs = std::mem::take(&mut self.epochs);
        for (epochs, guard) in threads.epochs.iter_mut().zip(&self.analysed.guards) {
            epochs.users = (guard.users.iter())
                .filter_map(|f| self.fn_of.get(f).copied())
                .collect();
        }
        threads.registries = (self.analysed.joins.registries.iter())
            .map(|(handles, funcs)| {
                (
                    handles.clone(),
                    funcs.iter().map(|f| self.fn_of[f]).collect(),
                )
            })
            .collect();
        threads.guard_joins = (self.analysed.guard_joins.iter())
            .map(|g| solver::threads::GuardJoin {
                epoch: g.guard,
                aliases: g.aliases.clone(),
                testers: sorted_fns(g.at.iter().filter_map(|(f, _)| self.fn_of.get(f))),
                forkers: sorted_fns(g.forkers.iter().filter_map(|f| self.fn_of.get(f))),
            })
            .collect();
        threads.wrapped = self.analysed.joins.wrapped.clone();
        threads.wrapped_loops = self.analysed.joins.wrapped_loops.clone();
        threads.param_joins = std::mem::take(&mut self.param_joins);
        threads.param_joins.sort();
        threads.alternatives = std::mem::take(&mut self.alternatives);
        threads.alternatives.sort();
        threads.alternatives.dedup();
        threads.relock_fails = std::mem::take(&mut self.relock_fails);
        threads.relock_fails.sort();
        threads.relock_fails.dedup();
        threads.bound_conditions = self.bound_conditions();
        threads.accesses = std::mem::take(&mut self.accesses);
        threads.acquisitions = std::mem::take(&mut self.acquisitions);
        threads.attributed_locks = std::mem::take(&mut self.attributed_locks);
        threads.attributed_locks.sort();
        threads.attributed_locks.dedup();
        for (_, _, n) in self.ltypes.external_objects().to_vec() {
            threads.external_locks.extend(self.ltypes.locks_inside(n));
        }
        threads.external_locks.sort();
        threads.external_locks.dedup();
        objects
    }

    /// The locks of a content that lie inside an array at some field path: the contents of a
    /// struct field of array type (all elements are one node), and of a union with an array
    /// member (its members share one node).
    /// The library model's thread-locals and every location laid out inside them (the fields
    /// of their structs and unions, not what their pointers point to): each thread has its own
    /// copy of all of it, so none is checked ([`ThreadProgram::thread_local`]). The stubs keep
    /// per-thread conduits in such structs (`epoll_ctl` hands `epoll_wait` the caller's
    /// `epoll_data` through one); their fields are locations of their own.
    /// How many sites, objects and accesses there are before a statement is generated: what
    /// [`Gen::epoch_events`] reads after it.
    pub(super) fn epoch_marks(&self) -> (usize, usize, usize) {
        (
            self.constraints.sites.len(),
            self.objects.len(),
            self.access_sites.len(),
        )
    }

    /// What statement `at` adds to each guard's epochs ([`ThreadProgram::epochs`]): a
    /// creation's call its instantiation sites and the objects it allocates, a reset the
    /// accesses of its store of null.
    pub(super) fn epoch_events(
        &mut self,
        at: StmtAt,
        (sites, objects, accesses): (usize, usize, usize),
    ) {
        for (n, guard) in self.analysed.guards.iter().enumerate() {
            let epochs = &mut self.epochs[n];
            if guard.once.binary_search(&at).is_ok() {
                epochs.creators.push(self.fn_of[&at.0]);
                epochs.sites.extend(
                    (sites..self.constraints.sites.len())
                        .map(|i| Site(i as u32))
                        .filter(|&s| matches!(self.constraints.sites[s].kind, SiteKind::Inst)),
                );
                epochs
                    .objects
                    .extend((objects..self.objects.len()).map(|i| ObjectId(i as u32)));
            }
            if guard.resets.binary_search(&at).is_ok() {
                epochs
                    .resets
                    .extend((accesses..self.access_sites.len()).map(|i| AccessId(i as u32)));
            }
        }
    }

    /// What statement `kind` adds to the stores of blocks into owning members
    /// ([`ThreadProgram::steady`]): the accesses it made, when it stores anything but null into
    /// one. A store into a fresh, unpublished object makes no shared access, and needs none:
    /// no other thread sees the member before the object is published.
    pub(super) fn member_store_events(
        &mut self,
        kind: &StmtKind,
        (_, _, accesses): (usize, usize, usize),
    ) {
        let dst = match kind {
            StmtKind::Assign { dst, src } if src.constant() != Some(0) => dst,
            StmtKind::Call { dst: Some(dst), .. } => dst,
            _ => return,
        };
        let Some(member) = self.analysed.owning.member(dst) else {
            return;
        };
        let made = (accesses..self.access_sites.len()).map(|i| AccessId(i as u32));
        self.member_stores.entry(member).or_default().extend(made);
    }

    fn thread_local_locations(&mut self) -> Vec<Rho> {
        let mut out = self.thread_local.clone();
        let mut stack: Vec<Node> = self
            .program
            .vars
            .iter_enumerated()
            .filter(|(_, var)| {
                var.origin == Origin::Stub
                    && matches!(
                        var.kind,
                        VarKind::Global {
                            thread_local: true,
                            ..
                        }
                    )
            })
            .filter_map(|(v, _)| self.var_rho[v].map(|(_, node)| node))
            .collect();
        let mut seen = FxHashSet::default();
        while let Some(node) = stack.pop() {
            let node = self.ltypes.representative(node);
            if !seen.insert(node) {
                continue;
            }
            match self.ltypes.shape(node) {
                Shape::Struct { fields, .. } => {
                    for f in fields {
                        out.push(f.rho);
                        stack.push(f.content);
                    }
                }
                Shape::Union { inner, .. } => stack.push(inner),
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn array_locks(&mut self, content: Node) -> Vec<Lock> {
        let types = &self.program.types;
        let is_array = |ty| matches!(types.get(ty), Type::Array(_));
        let mut out = Vec::new();
        let mut stack = vec![(content, false)];
        let mut seen = FxHashSet::default();
        while let Some((n, in_array)) = stack.pop() {
            let n = self.ltypes.representative(n);
            if !seen.insert((n, in_array)) {
                continue;
            }
            match self.ltypes.shape(n) {
                Shape::Lock(l) if in_array => out.push(l),
                Shape::Blob { lock, .. } if in_array => out.push(lock),
                Shape::Struct { sid, fields } => {
                    for f in fields {
                        let field_array = types.structs[sid]
                            .fields
                            .get(f.index as usize)
                            .is_some_and(|x| is_array(x.ty));
                        stack.push((f.content, in_array || field_array));
                    }
                }
                Shape::Union { sid, inner } => {
                    let member_array = types.structs[sid].fields.iter().any(|x| is_array(x.ty));
                    stack.push((inner, in_array || member_array));
                }
                Shape::Void(entries) => {
                    stack.extend(entries.into_iter().map(|(_, e)| (e, in_array)))
                }
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The location labels to check for an object: its own, and its fields' when its content is
    /// a struct (recursively). A location holding conflated memory is one location with the blob
    /// (`tied`, from [`super::ltypes::LTypes::blob_ties`]): only the outer label is checked, so a
    /// race on it is reported once.
    pub(super) fn units(&mut self, rho: Rho, content: Node, tied: &[(Rho, Rho)]) -> Vec<Rho> {
        let mut out = vec![rho];
        out.extend(
            self.ltypes
                .field_labels(content)
                .into_iter()
                .filter(|r| !tied.iter().any(|t| t.1 == *r)),
        );
        out
    }

    /// The join-loop conditions of the plan (`joins::BoundCheck`), with the bound's label: the
    /// global's, or its member's (created here if no access made it). Every check becomes a
    /// condition, so none is lost: the plan only matches loops in user functions with bodies,
    /// which all have an event graph.
    fn bound_conditions(&mut self) -> Vec<BoundCondition> {
        let analysed = self.analysed;
        analysed
            .joins
            .bound_checks
            .iter()
            .map(|check| {
                let bound = match check.bound {
                    LoopBound::Var(v) => self.var_rho[v].map(|(rho, _)| rho),
                    LoopBound::GlobalField { var, strukt, index } => {
                        self.var_rho[var].map(|(rho, node)| {
                            self.ltypes
                                .field(&mut self.constraints, node, rho, strukt, index)
                                .0
                        })
                    }
                    // The plan proves a member's bound itself and leaves no check of one.
                    LoopBound::Const(_) | LoopBound::Member { .. } => None,
                };
                BoundCondition {
                    handle: check.handle,
                    func: self.fn_of[&check.func],
                    bound,
                    region: check.region.iter().map(|b| b.0).collect(),
                }
            })
            .collect()
    }
}

/// Function ids, sorted, each once.
fn sorted_fns<'a>(fns: impl Iterator<Item = &'a FnId>) -> Vec<FnId> {
    let mut out: Vec<FnId> = fns.copied().collect();
    out.sort();
    out.dedup();
    out
}
