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
//! - A **value create wrapper** (`pthread_t start(…) { pthread_t t; pthread_create(&t, …);
//!   return t; }`) has one `pthread_create`, on no cycle, whose thread id is the address of a
//!   local named nowhere else but in the returns, and every return returns that local. Its
//!   caller's `t = start(…)` is a create of `t`: the id the call returns is the thread's, as the
//!   id a create wrapper writes through its parameter is.
//! - A **handle create wrapper** (`thread *launch(…) { thread *th = malloc(…);
//!   pthread_create(&th->id, …); …; return th; }`) creates one thread, on no cycle of the
//!   function, with its id in a field of a fresh object that a local pointer holds: the pointer
//!   is assigned once, on no cycle, with a fresh block (from an allocator or an allocation
//!   wrapper, possibly through the lowering's temporary), and every return returns it or `NULL`
//!   (a caller's join through `NULL` never returns: a join wrapper dereferences it). The
//!   function may keep the object elsewhere too (in a list of all threads): what the join needs,
//!   that the id field is written by that create only, is a fact of the whole program the plan
//!   checks at each caller ([`Writers::handle_trusted`]; a library call given the fresh object
//!   before anything is stored in it, `memset(th, 0, sizeof *th)`, writes no id). Its caller's
//!   `h = launch(…)` is a create of the id in the object `h` points to.
//! - A **handle join wrapper** (`void join(thread *ally) { pthread_join(ally->id, 0); … }`) joins
//!   the id in a field of the object a pointer parameter points to (directly, through a join
//!   wrapper, or through another handle join wrapper given the parameter), the parameter never
//!   assigned and its address never taken, in a block every path to a return passes through. Its
//!   caller's `join(h)` is a join of the id in the object `h` points to.
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
    /// Each handle create wrapper: the field path of the thread id in the object it returns,
    /// and its create statement.
    pub(super) handle_creates: FxHashMap<FuncId, (Vec<(u32, u32)>, StmtAt)>,
    /// Each handle join wrapper: the index of its handle parameter and the field path of the
    /// thread id it joins in the object that parameter points to.
    pub(super) handle_joins: FxHashMap<FuncId, (Arg, Vec<(u32, u32)>)>,
    /// Each value create wrapper: its create statement.
    pub(super) value_creates: FxHashMap<FuncId, StmtAt>,
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
    let v = op.plain_var()?;
    if p.vars[v].address_taken {
        return None;
    }
    let k = func.params.iter().position(|&x| x == v)?;
    Arg::try_from(k).ok()
}

/// The calls of `func` to a function of `table`, with the argument the table names.
pub(super) fn calls_in<'f>(
    func: &'f Func,
    f: FuncId,
    table: &'f FxHashMap<FuncId, Arg>,
) -> impl Iterator<Item = (StmtAt, &'f Operand)> + 'f {
    calls_with(func, f, move |c| table.get(&c).copied())
}

/// The direct calls of `func` whose callee `arg_of` names an argument of, with that argument.
fn calls_with<'f>(
    func: &'f Func,
    f: FuncId,
    arg_of: impl Fn(FuncId) -> Option<Arg> + Copy + 'f,
) -> impl Iterator<Item = (StmtAt, &'f Operand)> + 'f {
    func.direct_calls().filter_map(move |(b, k, c, args)| {
        let a = arg_of(c)?;
        Some(((f, b, k), args.get(usize::from(a))?))
    })
}

/// `ally->id` for a parameter `ally` of `func` whose address is never taken: the parameter's
/// index and the field path read in the object it points to.
fn handle_param_field(p: &Program, func: &Func, op: &Operand) -> Option<(Arg, Vec<(u32, u32)>)> {
    let Operand::Use(lv) = op.without_casts() else {
        return None;
    };
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    let fields = field_path(lv)?;
    if fields.is_empty() {
        return None;
    }
    Some((param_read(p, func, ptr)?, fields))
}

/// Whether `v` is assigned anywhere in `func` (a parameter can be assigned only there).
pub(super) fn assigned(func: &Func, v: VarId) -> bool {
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
    index: &Calls,
    lib_creates: &FxHashMap<FuncId, Arg>,
    lib_joins: &FxHashMap<FuncId, Arg>,
) -> Wrappers {
    let mut out = Wrappers::default();
    // Whether `f` calls a function `wrapped` accepts: a function that calls none of them wraps
    // none of them, and its statements are not read.
    let calls_any = |f: FuncId, wrapped: &dyn Fn(FuncId) -> bool| {
        (index.sites_in(f).iter()).any(|s| s.callee.is_some_and(wrapped))
    };
    let user: Vec<(FuncId, &Func)> = p
        .funcs
        .iter_enumerated()
        .filter(|(_, func)| func.defined && func.origin == Origin::User)
        .collect();
    let creating: Vec<(FuncId, &Func)> = (user.iter().copied())
        .filter(|&(f, _)| calls_any(f, &|c| lib_creates.contains_key(&c)))
        .collect();
    for &(f, func) in &creating {
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
    out.handle_creates = creating
        .iter()
        .filter_map(|&(f, func)| Some((f, handle_create(p, f, func, lib_creates)?)))
        .collect();
    out.value_creates = (creating.iter())
        .filter(|(f, _)| !out.creates.contains_key(f) && !out.handle_creates.contains_key(f))
        .filter_map(|&(f, func)| Some((f, value_create(p, f, func, lib_creates)?)))
        .collect();
    // Join wrappers, to a fixpoint: a wrapper may join through another.
    let mut joins = lib_joins.clone();
    loop {
        let mut grew = false;
        for &(f, func) in &user {
            if joins.contains_key(&f)
                || out.handle_joins.contains_key(&f)
                || !calls_any(f, &|c| {
                    joins.contains_key(&c) || out.handle_joins.contains_key(&c)
                })
            {
                continue;
            }
            let cfg = std::cell::OnceCell::new();
            let unavoidable = |b: BlockId| {
                let cfg = cfg.get_or_init(|| Cfg::new(func));
                let reach = cfg.reachable(0, |x| x == b.0 as usize);
                !reach.iter().enumerate().any(|(x, &r)| r && cfg.returns[x])
            };
            let kept = |k: Arg| !assigned(func, func.params[usize::from(k)]);
            let joined = calls_in(func, f, &joins).find_map(|((_, b, _), id)| {
                let k = param_read(p, func, id)?;
                (unavoidable(b) && kept(k)).then_some(k)
            });
            if let Some(k) = joined {
                joins.insert(f, k);
                out.joins.insert(f, k);
                grew = true;
                continue;
            }
            let handles = &out.handle_joins;
            let through_handle = calls_with(func, f, |c| handles.get(&c).map(|(k, _)| *k))
                .find_map(|((_, b, k), handle)| {
                    let StmtKind::Call {
                        callee: Callee::Direct(c),
                        ..
                    } = &func.blocks[b].stmts[k].kind
                    else {
                        return None;
                    };
                    let fields = handles.get(c)?.1.clone();
                    let k = param_read(p, func, handle)?;
                    (unavoidable(b) && kept(k)).then_some((k, fields))
                });
            let handle_joined = through_handle.or_else(|| {
                calls_in(func, f, &joins).find_map(|((_, b, _), id)| {
                    let (k, fields) = handle_param_field(p, func, id)?;
                    (unavoidable(b) && kept(k)).then_some((k, fields))
                })
            });
            if let Some(found) = handle_joined {
                out.handle_joins.insert(f, found);
                grew = true;
            }
        }
        if !grew {
            return out;
        }
    }
}

/// Whether `f` is a value create wrapper (see the module's doc): its create statement. The
/// local `t` whose address the create is given is named nowhere else but in the returns, each
/// of which returns it, and the create is on no cycle: each call returns the id of the one
/// thread it started (or, where the create was skipped or failed, of none).
fn value_create(
    p: &Program,
    f: FuncId,
    func: &Func,
    lib_creates: &FxHashMap<FuncId, Arg>,
) -> Option<StmtAt> {
    let [(at, id)] = calls_in(func, f, lib_creates).collect::<Vec<_>>()[..] else {
        return None;
    };
    let Operand::AddrOf(lv) = id.without_casts() else {
        return None;
    };
    let t = lv.plain_var()?;
    if !matches!(p.vars[t].kind, VarKind::Local(g) if g == f) || p.vars[t].captured {
        return None;
    }
    let mut returns = 0;
    for block in func.blocks.iter() {
        match &block.term {
            Term::Return(Some(op), _) if op.without_casts().plain_var() == Some(t) => returns += 1,
            Term::Return(..) => return None,
            _ => {}
        }
    }
    let mut uses = Uses { var: t, count: 0 };
    walk_func(&mut uses, func);
    (returns > 0 && uses.count == 1 + returns && !on_any_cycle(&Cfg::new(func), at.1 .0 as usize))
        .then_some(at)
}

/// The statements of `func` that copy the id a value create wrapper's call returned out of the
/// lowering's temporary (`tmp = start(); t = tmp;`): the temporary is named only there, and the
/// copy follows the call in its block, as [`Planner::handle_result`] asks. Such a copy is the
/// create of `t`, and the call creates nothing the program keeps.
pub(super) fn value_copies(
    p: &Program,
    calls: &ThreadCalls,
    f: FuncId,
    func: &Func,
) -> Vec<(BlockId, usize)> {
    let mut out = Vec::new();
    // Most programs have no value create wrapper: no walk of their statements.
    if calls.value_creates.is_empty() {
        return out;
    }
    for (b, block) in func.blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            let StmtKind::Call {
                dst: Some(dst),
                callee: Callee::Direct(c),
                ..
            } = &stmt.kind
            else {
                continue;
            };
            let Some(temp) = dst.plain_var() else {
                continue;
            };
            if !calls.is_value_create(*c)
                || !matches!(p.vars[temp].kind, VarKind::Temp(g) if g == f)
                || p.vars[temp].address_taken
                || mentions_in_func(func, temp) != 2
            {
                continue;
            }
            let copy = (block.stmts.iter().enumerate().skip(k + 1)).find(|(_, s)| {
                matches!(&s.kind, StmtKind::Assign { src, .. }
                    if src.without_casts().plain_var() == Some(temp))
            });
            out.extend(copy.map(|(j, _)| (b, j)));
        }
    }
    out
}

/// Whether `f` is a handle create wrapper (see the module's doc): the field path of the thread
/// id in the object it returns, and its create statement.
fn handle_create(
    p: &Program,
    f: FuncId,
    func: &Func,
    lib_creates: &FxHashMap<FuncId, Arg>,
) -> Option<(Vec<(u32, u32)>, StmtAt)> {
    let creates: Vec<(StmtAt, &Operand)> = calls_in(func, f, lib_creates).collect();
    let [(at, id)] = creates.as_slice() else {
        return None;
    };
    let IdPath {
        base: IdBase::Heap(th),
        fields,
        index: None,
        ..
    } = site_path(p, true, id)?
    else {
        return None;
    };
    let cfg = Cfg::new(func);
    if fields.is_empty() || on_any_cycle(&cfg, at.1 .0 as usize) {
        return None;
    }
    returns_fresh_object(p, f, func, &cfg, th).then_some((fields, *at))
}

/// Whether every return of `f` returns the local pointer `th`, which is assigned a fresh block
/// ([`fresh_block`]) outside every cycle, so that each call returns an object of its own — or
/// `NULL` (a failure path): a caller's join through that handle dereferences it on every path
/// to its return, so it never returns, and nothing after it runs on such a path.
pub(super) fn returns_fresh_object(
    p: &Program,
    f: FuncId,
    func: &Func,
    cfg: &Cfg,
    th: VarId,
) -> bool {
    // Per return: whether it returns `th`, or `None` when it returns neither it nor `NULL`.
    let returns: Vec<Option<bool>> = func
        .blocks
        .iter()
        .filter_map(|b| match &b.term {
            Term::Return(op, _) => Some(op.as_ref().and_then(|op| {
                if op.plain_var() == Some(th) {
                    Some(true)
                } else {
                    (op.constant() == Some(0)).then_some(false)
                }
            })),
            _ => None,
        })
        .collect();
    let returns_it = returns.contains(&Some(true)) && returns.iter().all(|r| r.is_some());
    let assigned_off_cycles = func.blocks.iter_enumerated().all(|(b, block)| {
        !on_any_cycle(cfg, b.0 as usize)
            || !block.stmts.iter().any(|s| match &s.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                    matches!(dst.base, Base::Var(d) if d == th)
                }
                _ => false,
            })
    });
    returns_it && assigned_off_cycles && fresh_block(p, f, func, th)
}

impl Planner<'_> {
    /// A call of a handle create wrapper (`h = launch(…)`) or of a handle join wrapper
    /// (`join(h)`): whether it creates, the thread id it names (the field of the object `h`
    /// points to), and whether that id can be trusted — `h` a local of the function assigned
    /// only by that create, and the field written by nothing in the program but the wrapper's
    /// create ([`Writers::handle_trusted`]).
    pub(super) fn handle_site(
        &self,
        fx: &FnFacts<'_>,
        at: StmtAt,
        callee: FuncId,
        dst: Option<&Lval>,
        args: &[Operand],
    ) -> Option<HandleSite> {
        let (is_create, holder, def, fields) =
            if let Some(fields) = self.calls.handle_creates.get(&callee) {
                let (holder, def) = self.handle_result(fx, at, dst?)?;
                (true, holder, Some(def), fields)
            } else {
                let (k, fields) = self.calls.handle_joins.get(&callee)?;
                let Operand::Use(holder) = args.get(usize::from(*k))?.without_casts() else {
                    return None;
                };
                (false, holder, None, fields)
            };
        if let Some(site) = self.handle_array_site(fx, is_create, holder, def, fields) {
            return Some(site);
        }
        let (var, steps) = place_of(holder)?;
        let v = &self.p.vars[var];
        let local = matches!(v.kind, VarKind::Local(g) if g == fx.f);
        let place_fields: Option<Vec<(u32, u32)>> = steps
            .iter()
            .map(|s| match *s {
                Step::Field(st, i) => Some((st, i)),
                Step::Index | Step::Const(_) => None,
            })
            .collect();
        let mut def = def;
        let (path, holder_trusted) = if let (true, &[Step::Const(k)]) = (local, &steps[..]) {
            // An element of a local array by a constant index (`ths[0] = launch(…)`,
            // `join(ths[0])`): a place of its own when nothing reaches the array but its name
            // and one assignment of the function writes that element (or all of them).
            let mut all = vec![(CONST_ELEMENT, k), (HANDLE_OBJECT, 0)];
            all.extend(fields.iter().copied());
            let path = IdPath {
                base: IdBase::Var(var),
                fields: all,
                index: None,
                after: Vec::new(),
            };
            let writes = (self.assigns.get(&var).into_iter().flatten())
                .filter(|&&(g, b, j)| {
                    g != fx.f || defines(&fx.func.blocks[b].stmts[j].kind, (var, &steps))
                })
                .count();
            let array = matches!(self.p.types.get(v.ty), Type::Array(_));
            (
                path,
                array && writes == 1 && self.writers.unaliased(var, &steps, &[]),
            )
        } else if local && steps.is_empty() {
            // A join names the handle the copies it went through came from.
            let mut source = var;
            if def.is_none() && !v.address_taken {
                if let Some((from, at)) = self.reaching_source(fx, var, at) {
                    source = from;
                    def = Some(at);
                }
            }
            let path = IdPath {
                base: IdBase::Heap(source),
                fields: fields.clone(),
                index: None,
                after: Vec::new(),
            };
            (path, !v.address_taken)
        } else if is_global(self.p, var) {
            let place_fields = place_fields?;
            let mut all = place_fields.clone();
            all.push((HANDLE_OBJECT, 0));
            all.extend(fields.iter().copied());
            let path = IdPath {
                base: IdBase::GlobalHandle(var),
                fields: all,
                index: None,
                after: Vec::new(),
            };
            let trusted = self.writers.unaliased(var, &steps, &place_fields)
                && self.global_handle_written_only_by(fx.f, var, &steps);
            (path, trusted)
        } else {
            return None;
        };
        let def = match def {
            Some(def) => Some(def),
            None => reaching_def(fx.func, &fx.cfg, (var, &steps), at),
        };
        Some(HandleSite {
            is_create,
            path,
            trusted: holder_trusted && def.is_some() && self.handle_field_trusted(fields),
            def: def.map(|(b, k)| (fx.f, b, k)),
        })
    }

    /// The assignment of the local `var` that reaches `at` (a read of it), followed back through
    /// copies of other locals of the function whose address is never taken (`k = h; …
    /// join(k)` reads the handle the assignment of `h` that reaches the copy stored): the
    /// variable that assignment writes and the statement. A copy passes on the value its source
    /// had there, so the handle is the same.
    fn reaching_source(
        &self,
        fx: &FnFacts<'_>,
        mut var: VarId,
        mut at: StmtAt,
    ) -> Option<(VarId, (BlockId, usize))> {
        // A chain longer than this is not followed.
        for _ in 0..4 {
            let def = reaching_def(fx.func, &fx.cfg, (var, &[]), at)?;
            let StmtKind::Assign { src, .. } = &fx.func.blocks[def.0].stmts[def.1].kind else {
                return Some((var, def));
            };
            let Some(from) = src.plain_var() else {
                return Some((var, def));
            };
            let v = &self.p.vars[from];
            if from == var || v.address_taken || !matches!(v.kind, VarKind::Local(g) if g == fx.f) {
                return Some((var, def));
            }
            var = from;
            at = (fx.f, def.0, def.1);
        }
        None
    }

    /// A handle kept in an element of a local array by a variable index (`ths[i] = launch(…)`,
    /// `join(ths[j])`), matched as a create loop and a join loop over a `pthread_t` array are
    /// ([`Planner::match_loop`]): the array is a local of the function no address of which, or
    /// into which, is taken, and its one assignment is the create's (`def`, the call or the copy of its
    /// result), so every element holds the handle of one create of the loop, joined by the join
    /// loop's iteration of its index. Its path is the array's, with [`HANDLE_OBJECT`] before the
    /// thread id's fields in the object.
    fn handle_array_site(
        &self,
        fx: &FnFacts<'_>,
        is_create: bool,
        holder: &Lval,
        def: Option<(BlockId, usize)>,
        fields: &[(u32, u32)],
    ) -> Option<HandleSite> {
        let (Base::Var(array), [Proj::Index(Some(i))]) = (&holder.base, holder.proj.as_slice())
        else {
            return None;
        };
        let v = &self.p.vars[*array];
        // No address of the array or into it is taken anywhere (an array read by index is
        // marked address-taken by the lowering, so the places are asked instead).
        let local = matches!(v.kind, VarKind::Local(g) if g == fx.f)
            && matches!(self.p.types.get(v.ty), Type::Array(_))
            && self.writers.unaliased(*array, &[Step::Index], &[]);
        let assigned_once = match self.assigns.get(array).map(Vec::as_slice) {
            Some(&[(g, b, k)]) => g == fx.f && (!is_create || def == Some((b, k))),
            _ => false,
        };
        let mut all = vec![(HANDLE_OBJECT, 0)];
        all.extend(fields.iter().copied());
        Some(HandleSite {
            is_create,
            path: IdPath {
                base: IdBase::Var(*array),
                fields: all,
                index: Some(*i),
                after: Vec::new(),
            },
            trusted: local && assigned_once && self.handle_field_trusted(fields),
            def: None,
        })
    }

    /// Whether the thread id at `fields` in the object a handle wrapper returns holds only what
    /// its wrapper's create wrote: a single id ([`Writers::handle_trusted`]) or a pool's block of
    /// them ([`super::pools`]).
    fn handle_field_trusted(&self, fields: &[(u32, u32)]) -> bool {
        self.writers.handle_trusted(fields) || self.calls.pool_ids.contains(fields)
    }

    /// Whether the global place `steps` of `var` is written in the program only by constants
    /// (`NULL` after the join: a join through one dereferences it and never returns) and by
    /// statements of `f` keeping the result of a handle create wrapper's call.
    fn global_handle_written_only_by(&self, f: FuncId, var: VarId, steps: &[Step]) -> bool {
        let p = self.p;
        let mut creates = 0;
        for &(g, b, k) in self.assigns.get(&var).map(Vec::as_slice).unwrap_or(&[]) {
            let kind = &p.funcs[g].blocks[b].stmts[k].kind;
            let dst = match kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => dst,
                StmtKind::Asm { .. } => return false,
                StmtKind::Call { dst: None, .. } | StmtKind::Eval(_) => continue,
            };
            let Some((_, written)) = place_of(dst) else {
                continue;
            };
            if !overlaps(&written, steps) {
                continue;
            }
            if written != steps {
                return false;
            }
            // A constant (`NULL`) may be stored anywhere: a join through it would not return.
            if matches!(kind, StmtKind::Assign { src, .. } if matches!(src.without_casts(), Operand::Const(..)))
            {
                continue;
            }
            if g != f {
                return false;
            }
            let from_create = |c: &Callee| matches!(c, Callee::Direct(c) if self.calls.handle_creates.contains_key(c));
            match kind {
                StmtKind::Call { callee, .. } if from_create(callee) => creates += 1,
                StmtKind::Assign { src, .. } => match src.without_casts() {
                    Operand::Const(..) => {}
                    Operand::Use(Lval {
                        base: Base::Var(t),
                        proj,
                        ..
                    }) if proj.is_empty()
                        && matches!(p.vars[*t].kind, VarKind::Temp(_))
                        && matches!(self.assigns.get(t).map(Vec::as_slice), Some(&[(tg, tb, tk)])
                            if matches!(&p.funcs[tg].blocks[tb].stmts[tk].kind,
                                StmtKind::Call { callee, .. } if from_create(callee))) =>
                    {
                        creates += 1;
                    }
                    _ => return false,
                },
                _ => return false,
            }
        }
        creates >= 1
    }

    /// The place that keeps the result of the call at `at`, written to `dst`, with the
    /// statement that assigns it: `dst` itself and the call, or the place a lowering temporary
    /// holding the result is copied to later in the call's block (the temporary assigned only
    /// there and read only by that copy) and the copy.
    pub(super) fn handle_result<'f>(
        &self,
        fx: &FnFacts<'f>,
        at: StmtAt,
        dst: &'f Lval,
    ) -> Option<(&'f Lval, (BlockId, usize))> {
        let temp = match dst {
            Lval {
                base: Base::Var(v),
                proj,
                ..
            } if proj.is_empty()
                && matches!(self.p.vars[*v].kind, VarKind::Temp(g) if g == fx.f) =>
            {
                *v
            }
            _ => return Some((dst, (at.1, at.2))),
        };
        if self.p.vars[temp].address_taken
            || self.assigns.get(&temp).map(Vec::as_slice) != Some(&[at])
            || mentions_in_func(fx.func, temp) != 2
        {
            return None;
        }
        // The copy follows the call in its block, so that every run of the call stores its
        // result (a copy elsewhere could be skipped, leaving an older handle in the place).
        let (_, b, k) = at;
        fx.func.blocks[b]
            .stmts
            .iter()
            .enumerate()
            .skip(k + 1)
            .find_map(|(k, s)| match &s.kind {
                StmtKind::Assign { dst, src }
                    if matches!(src.without_casts(),
                        Operand::Use(Lval { base: Base::Var(t), proj, .. })
                            if *t == temp && proj.is_empty()) =>
                {
                    Some((dst, (b, k)))
                }
                _ => None,
            })
    }
}

/// A call of a handle create or join wrapper, as [`Planner::handle_site`] reads it.
pub(super) struct HandleSite {
    pub(super) is_create: bool,
    pub(super) path: IdPath,
    pub(super) trusted: bool,
    /// The statement that assigns the handle: for a create, the one its result is kept by; for
    /// a join, the one assignment of the handle that reaches it on every way from the entry.
    pub(super) def: Option<StmtAt>,
}

/// Whether statement `kind` may assign the place `steps` of variable `var` (a write of an
/// enclosing or enclosed place included).
fn defines(kind: &StmtKind, (var, steps): (VarId, &[Step])) -> bool {
    let writes = |lv: &Lval| place_of(lv).is_some_and(|(v, w)| v == var && overlaps(&w, steps));
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => writes(dst),
        StmtKind::Asm { operands } => operands.iter().any(writes),
        StmtKind::Call { dst: None, .. } | StmtKind::Eval(_) => false,
    }
}

/// The one statement assigning a place that reaches the statement at `at` (a read of it):
/// walking back from it, every way meets an assignment of the place before the function's
/// entry, and all of them meet the same one. Writes other than by naming the variable must be
/// excluded by the caller (a local whose address is never taken; a global place written only
/// in this function).
fn reaching_def(
    func: &Func,
    cfg: &Cfg,
    place: (VarId, &[Step]),
    at: StmtAt,
) -> Option<(BlockId, usize)> {
    let (_, b, k) = at;
    let last_def = |block: BlockId, before: usize| {
        func.blocks[block].stmts[..before]
            .iter()
            .rposition(|s| defines(&s.kind, place))
            .map(|k| (block, k))
    };
    if let Some(def) = last_def(b, k) {
        return Some(def);
    }
    if b.0 == 0 {
        return None;
    }
    let mut found: Option<(BlockId, usize)> = None;
    let mut seen = vec![false; func.blocks.len()];
    let mut stack: Vec<usize> = cfg.preds[b.0 as usize].clone();
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        let block = BlockId(x as u32);
        match last_def(block, func.blocks[block].stmts.len()) {
            Some(def) if found.is_none_or(|f| f == def) => found = Some(def),
            Some(_) => return None,
            None if x == 0 => return None,
            None => stack.extend(cfg.preds[x].iter().copied()),
        }
    }
    found
}
