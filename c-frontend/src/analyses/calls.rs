//! The program's calls, indexed once for every front-end analysis: each call statement with its
//! caller and place, the call sites of each function, how the program uses each function as a
//! value ([`FunctionUses`]), the functions callers-first, and which functions may call back a
//! function they are handed or do not see.
//!
//! Why an index: each of these was found by a walk of the whole IR, several of them by several
//! analyses. Once the IR outgrows the processor's caches a walk of it costs a miss per
//! statement (a walk of 100k lines' statements takes 0.2 ms, of 1M lines' 8 ms: 36 times as long
//! for 10 times the statements), while the sites of every call fit the caches. [`Calls::of`]
//! walks the IR once; the analyses then read the index.
//!
//! It reads the IR and the library model only. It is built after the last change to the IR
//! (configuration folding, calls through pointers made direct, thread starters copied) and never
//! updated.

use rustc_hash::FxHashSet;

use crate::analyses::function_uses::FunctionUses;
use crate::ir::{BlockId, Callee, FuncId, Operand, Program, StmtKind};

/// One call statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: FuncId,
    pub block: BlockId,
    /// The statement's index in its block.
    pub stmt: usize,
    /// The function called, or `None` for a call through a pointer.
    pub callee: Option<FuncId>,
}

/// The call sites of the program (see the module doc).
pub struct Calls {
    /// Every call statement, by caller in id order, then block, then statement.
    sites: Vec<CallSite>,
    /// Per function, where its sites start in `sites` (one more entry than functions).
    first_site: Vec<u32>,
    /// The indices in `sites` of the direct calls of each function, grouped by callee.
    by_callee: Vec<u32>,
    /// Per function, where its direct calls start in `by_callee` (one more than functions).
    first_by_callee: Vec<u32>,
    /// How the program uses each function as a value.
    pub uses: FunctionUses,
    /// `uses.addressed`, sorted.
    addressed: Vec<FuncId>,
    /// Per function: whether it calls through a pointer, calls a function locksmith neither sees
    /// nor models, or hands a function to a call: any of those may call back an addressed
    /// function.
    calling_back: Vec<bool>,
    /// Every function with a body, callers first (see [`Calls::callers_first`]).
    callers_first: Vec<(FuncId, bool)>,
}

impl Calls {
    /// Walks the whole program once.
    pub fn of(p: &Program) -> Calls {
        let n = p.funcs.len();
        let mut sites = Vec::new();
        let mut first_site = Vec::with_capacity(n + 1);
        let mut calling_back = vec![false; n];
        let uses = FunctionUses::walk(p, |caller, block, stmt, kind| {
            while first_site.len() <= caller.0 as usize {
                first_site.push(sites.len() as u32);
            }
            let StmtKind::Call { callee, args, .. } = kind else {
                return;
            };
            let (callee, opaque) = match callee {
                Callee::Direct(g) => (Some(*g), !p.funcs[*g].defined && p.known(*g).is_none()),
                Callee::Indirect(_) => (None, true),
            };
            let hands_function = || {
                args.iter()
                    .any(|a| matches!(a.without_casts(), Operand::Func(_)))
            };
            if opaque || hands_function() {
                calling_back[caller.0 as usize] = true;
            }
            sites.push(CallSite {
                caller,
                block,
                stmt,
                callee,
            });
        });
        while first_site.len() <= n {
            first_site.push(sites.len() as u32);
        }
        let mut first_by_callee = vec![0u32; n + 1];
        for site in &sites {
            if let Some(g) = site.callee {
                first_by_callee[g.0 as usize + 1] += 1;
            }
        }
        for f in 0..n {
            first_by_callee[f + 1] += first_by_callee[f];
        }
        let mut fill = first_by_callee.clone();
        let mut by_callee = vec![0u32; first_by_callee[n] as usize];
        for (i, site) in sites.iter().enumerate() {
            if let Some(g) = site.callee {
                by_callee[fill[g.0 as usize] as usize] = i as u32;
                fill[g.0 as usize] += 1;
            }
        }
        let mut addressed: Vec<FuncId> = uses.addressed.iter().copied().collect();
        addressed.sort();
        let mut calls = Calls {
            sites,
            first_site,
            by_callee,
            first_by_callee,
            uses,
            addressed,
            calling_back,
            callers_first: Vec::new(),
        };
        calls.callers_first = calls.order_callers_first(p);
        calls
    }

    /// Every call of the program, in program order (by caller, block, statement).
    pub fn sites(&self) -> &[CallSite] {
        &self.sites
    }

    /// The calls `f` makes, in block and statement order.
    pub fn sites_in(&self, f: FuncId) -> &[CallSite] {
        let i = f.0 as usize;
        &self.sites[self.first_site[i] as usize..self.first_site[i + 1] as usize]
    }

    /// The direct calls of `g`, by caller in id order.
    pub fn sites_calling(&self, g: FuncId) -> impl Iterator<Item = &CallSite> + '_ {
        let i = g.0 as usize;
        let range = self.first_by_callee[i] as usize..self.first_by_callee[i + 1] as usize;
        self.by_callee[range]
            .iter()
            .map(|&s| &self.sites[s as usize])
    }

    /// The direct calls of any of `callees`, in program order (by caller, block, statement).
    pub fn sites_calling_any(&self, callees: impl IntoIterator<Item = FuncId>) -> Vec<CallSite> {
        let mut out: Vec<CallSite> = (callees.into_iter())
            .flat_map(|g| self.sites_calling(g).copied())
            .collect();
        out.sort_by_key(|s| (s.caller, s.block, s.stmt));
        out.dedup();
        out
    }

    /// The statement of a call site.
    pub fn stmt<'p>(p: &'p Program, site: &CallSite) -> &'p StmtKind {
        &p.funcs[site.caller].blocks[site.block].stmts[site.stmt].kind
    }

    /// How many direct calls of `g` the program makes.
    pub fn call_count(&self, g: FuncId) -> usize {
        let i = g.0 as usize;
        (self.first_by_callee[i + 1] - self.first_by_callee[i]) as usize
    }

    /// The functions whose address the program takes anywhere (a thread's start routine, a
    /// callback, a function pointer's target): they may run where no direct call names them.
    /// Sorted.
    pub fn addressed(&self) -> &[FuncId] {
        &self.addressed
    }

    /// Whether `main` may run more than once or from anywhere but the start: the program calls
    /// it or takes its address.
    pub fn main_is_called(&self, main: FuncId) -> bool {
        self.call_count(main) > 0 || self.addressed.binary_search(&main).is_ok()
    }

    /// Every function with a body, callers before callees (reverse post-order of a depth-first
    /// walk of the direct call graph, from each function in id order), each with whether it
    /// lies on a cycle of direct calls.
    pub fn callers_first(&self) -> &[(FuncId, bool)] {
        &self.callers_first
    }

    /// The functions a call of which may write a variable that `writers` write: those, their
    /// callers, and, once an addressed function is among them, every function that may call
    /// one back, transitively.
    pub fn may_write(&self, writers: &FxHashSet<FuncId>) -> FxHashSet<FuncId> {
        let mut out: FxHashSet<FuncId> = writers.clone();
        let mut stack: Vec<FuncId> = out.iter().copied().collect();
        let mut called_back = false;
        loop {
            while let Some(f) = stack.pop() {
                for site in self.sites_calling(f) {
                    if out.insert(site.caller) {
                        stack.push(site.caller);
                    }
                }
            }
            if called_back || !out.iter().any(|f| self.uses.addressed.contains(f)) {
                return out;
            }
            called_back = true;
            let calling_back = (self.calling_back.iter().enumerate())
                .filter(|&(_, &c)| c)
                .map(|(f, _)| FuncId(f as u32));
            stack.extend(calling_back.filter(|&f| out.insert(f)));
        }
    }

    /// The functions with a body that `f` calls directly, sorted, each once.
    fn callees_with_body(&self, p: &Program, f: FuncId) -> Vec<FuncId> {
        let mut out: Vec<FuncId> = (self.sites_in(f).iter())
            .filter_map(|s| s.callee)
            .filter(|&g| !p.funcs[g].blocks.is_empty())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn order_callers_first(&self, p: &Program) -> Vec<(FuncId, bool)> {
        let n = p.funcs.len();
        let mut state = vec![0u8; n]; // 0 unseen, 1 on the stack, 2 finished
        let mut post: Vec<FuncId> = Vec::new();
        let mut cyclic = vec![false; n];
        for (root, func) in p.funcs.iter_enumerated() {
            if func.blocks.is_empty() || state[root.0 as usize] != 0 {
                continue;
            }
            let mut stack: Vec<(FuncId, Vec<FuncId>)> =
                vec![(root, self.callees_with_body(p, root))];
            state[root.0 as usize] = 1;
            while let Some((f, next)) = stack.last_mut() {
                let f = *f;
                match next.pop() {
                    Some(g) => match state[g.0 as usize] {
                        0 => {
                            state[g.0 as usize] = 1;
                            let cs = self.callees_with_body(p, g);
                            stack.push((g, cs));
                        }
                        1 => {
                            // A back edge: every function on the stack from g up is on a cycle.
                            let from = stack.iter().position(|(h, _)| *h == g).unwrap_or(0);
                            for (h, _) in &stack[from..] {
                                cyclic[h.0 as usize] = true;
                            }
                        }
                        _ => {}
                    },
                    None => {
                        state[f.0 as usize] = 2;
                        post.push(f);
                        stack.pop();
                    }
                }
            }
        }
        post.reverse();
        post.into_iter()
            .map(|f| (f, cyclic[f.0 as usize]))
            .collect()
    }
}
