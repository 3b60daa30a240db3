//! Builds the report of `locksmith lambda` from a checked λ▷ program: every violation with the
//! labels, positions and calls involved, and on request the types of the `let`-bound names, the
//! constraints with their solution, and the constraint graph.
//!
//! This module converts label ids into names, descriptions and positions; it never searches the
//! constraints or the solution (those queries are in `lambda_core::explain`) and never formats
//! output beyond the descriptions and types the model holds as text.

use std::collections::{BTreeMap, BTreeSet};

use lambda_core::ast::{Program, Span};
use lambda_core::check::Checked;
use lambda_core::explain;
use lambda_core::infer::{BindingInfo, Role, Ty};
use solver::effects::{Atom, NonLinear};
use solver::{EffectExpr, Lock, Polarity, Rho, Scope, Site, Violation as Found};

use super::model::{
    AtomRef, Binding, CallSite, Constraint, ConstraintGraph, ConstraintListing, EffectAtom,
    EffectToken, FreshLocks, GraphEdge, GraphNode, HeldLock, LambdaAccess, LambdaReport,
    LocationLabel, LockAtom, LockLabel, NonlinearCause, Position, RecursiveFunction, Sign, Solved,
    Verdict, Violation, ViolationDetail,
};

/// What to include in the report besides the violations.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sections {
    pub types: bool,
    pub constraints: bool,
    pub graph: bool,
}

/// The report on a λ▷ program that type-checked.
pub fn build(program: &Program, checked: &Checked, sections: Sections) -> LambdaReport {
    let n = Namer { program, checked };
    let violations: Vec<Violation> = checked
        .solution
        .violations
        .iter()
        .map(|v| Violation::new(n.violation(v)))
        .collect();
    LambdaReport {
        file: program.file.name.clone(),
        verdict: if violations.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Violations
        },
        violations,
        types: sections.types.then(|| n.bindings()),
        constraints: sections.constraints.then(|| n.listing()),
        graph: sections.graph.then(|| n.graph()),
    }
}

/// Names labels after the front end's origins and the solver's classes.
struct Namer<'a> {
    program: &'a Program,
    checked: &'a Checked,
}

impl Namer<'_> {
    fn position(&self, span: Span) -> Position {
        let lc = self.program.file.line_col(span.start);
        Position {
            file: self.program.file.name.clone(),
            line: lc.line,
            column: lc.column,
        }
    }

    fn short_pos(&self, span: Span) -> String {
        let lc = self.program.file.line_col(span.start);
        format!("{}:{}", lc.line, lc.column)
    }

    fn lock_name(&self, l: Lock) -> String {
        format!("ℓ{}", self.checked.solution.rep(l).0)
    }

    fn describe_lock(&self, l: Lock) -> String {
        let name = self.lock_name(l);
        if let Some((_, o)) = explain::lock_origin(self.checked, l) {
            return match &o.role {
                Role::Alloc => {
                    let all: Vec<String> = explain::lock_allocations(self.checked, l)
                        .into_iter()
                        .map(|sp| self.short_pos(sp))
                        .collect();
                    format!("{name} (`newlock` at {})", all.join(" and "))
                }
                Role::Binder(x) => format!("{name} (`{x}` at {})", self.short_pos(o.span)),
                Role::Opened => {
                    format!("{name} (opened by `unpack` at {})", self.short_pos(o.span))
                }
                Role::Instance(site) => format!("{name} ({})", self.describe_site(*site)),
                _ => format!("{name} (at {})", self.short_pos(o.span)),
            };
        }
        if let Some((generic, site)) = explain::materialised_from(self.checked, l) {
            return format!(
                "{name} (the lock {} allocates in the call of {})",
                self.lock_name(generic),
                self.describe_site(site)
            );
        }
        name
    }

    fn describe_site(&self, site: Site) -> String {
        let o = &self.checked.analysis.site_origin[site];
        match &o.role {
            Role::Binder(x) => format!("`{x}` at {}", self.short_pos(o.span)),
            _ => format!("the `pack` at {}", self.short_pos(o.span)),
        }
    }

    fn describe_rho(&self, r: Rho) -> String {
        let o = &self.checked.analysis.rho_origin[r];
        let at = self.short_pos(o.span);
        match &o.role {
            Role::Alloc => format!("ρ{} (`ref` at {at})", r.0),
            Role::Binder(x) => format!("ρ{} (in the type of `{x}` at {at})", r.0),
            Role::Instance(site) => format!(
                "ρ{} (in the instance of {})",
                r.0,
                self.describe_site(*site)
            ),
            Role::Opened => format!("ρ{} (opened by `unpack` at {at})", r.0),
            _ => format!("ρ{} (at {at})", r.0),
        }
    }

    fn location(&self, r: Rho) -> LocationLabel {
        LocationLabel {
            label: format!("ρ{}", r.0),
            description: self.describe_rho(r),
            position: self.position(self.checked.analysis.rho_origin[r].span),
        }
    }

    fn lock(&self, l: Lock) -> LockLabel {
        LockLabel {
            label: self.lock_name(l),
            description: self.describe_lock(l),
            position: explain::lock_origin(self.checked, l).map(|(_, o)| self.position(o.span)),
        }
    }

    fn atom(&self, a: Atom) -> LockAtom {
        match a {
            Atom::Lock(l) => LockAtom::Lock(self.lock(l)),
            Atom::Anon(site) => LockAtom::Fresh(FreshLocks {
                description: format!(
                    "the locks allocated by the call of {}",
                    self.describe_site(site)
                ),
                position: self.position(self.checked.analysis.site_origin[site].span),
            }),
        }
    }

    fn accesses(&self, accesses: &[solver::Access]) -> Vec<LambdaAccess> {
        accesses
            .iter()
            .map(|&a| LambdaAccess {
                position: self.position(self.checked.analysis.access_span[a]),
                write: self.checked.analysis.constraints.accesses[a].write,
            })
            .collect()
    }

    fn call(&self, site: Site) -> CallSite {
        CallSite {
            call: self.describe_site(site),
            position: self.position(self.checked.analysis.site_origin[site].span),
        }
    }

    fn violation(&self, v: &Found) -> ViolationDetail {
        match v {
            Found::Inconsistent { rho, locks } => ViolationDetail::Inconsistent {
                location: self.location(*rho),
                allocations: explain::rho_allocations(self.checked, *rho)
                    .into_iter()
                    .map(|a| self.location(a))
                    .collect(),
                locks: locks
                    .iter()
                    .map(|x| HeldLock {
                        lock: self.lock(x.lock),
                        accesses: self.accesses(&x.accesses),
                        path: x.path.iter().map(|&site| self.call(site)).collect(),
                    })
                    .collect(),
            },
            Found::OpenedLockEscapes {
                rho,
                lock,
                accesses,
            } => ViolationDetail::ExistentialEscape {
                location: self.location(*rho),
                lock: self.lock(*lock),
                accesses: self.accesses(accesses),
            },
            Found::NonLinear(NonLinear::Disjoint { node, atom }) => ViolationDetail::Nonlinear {
                lock: self.atom(*atom),
                at: self.position(self.checked.analysis.effect_span[*node]),
                cause: NonlinearCause::Disjoint,
            },
            Found::NonLinear(NonLinear::Inst { site, atom }) => ViolationDetail::Nonlinear {
                lock: self.atom(*atom),
                at: self.position(self.checked.analysis.site_origin[*site].span),
                cause: NonlinearCause::Instantiation {
                    call: self.describe_site(*site),
                },
            },
            Found::RecursiveEffect { var, atoms } => ViolationDetail::RecursiveEffect {
                locks: atoms.iter().map(|&a| self.atom(a)).collect(),
                function: explain::recursive_function(self.checked, *var).map(|(name, span)| {
                    RecursiveFunction {
                        function: name.to_string(),
                        position: self.position(span),
                    }
                }),
            },
            Found::Saturated { rho } => ViolationDetail::Saturated {
                location: self.location(*rho),
                limit: solver::correlation::SATURATION,
            },
            Found::NoConvergence => ViolationDetail::NoConvergence,
        }
    }

    /// The `let`-bound names in source order, with their types.
    fn bindings(&self) -> Vec<Binding> {
        let mut sorted: Vec<&BindingInfo> = self.checked.analysis.bindings.iter().collect();
        sorted.sort_by_key(|b| b.span);
        sorted
            .into_iter()
            .map(|b| {
                let mut quantified = BTreeSet::new();
                let ty = self.ty_text(&b.ty, b.generic, &mut quantified);
                Binding {
                    name: b.name.clone(),
                    ty,
                    quantified: quantified.into_iter().collect(),
                    position: self.position(b.span),
                }
            })
            .collect()
    }

    /// A type in the README's notation; the labels generic at `generic` go into `quantified`.
    fn ty_text(&self, t: &Ty, generic: Option<Scope>, quantified: &mut BTreeSet<String>) -> String {
        let c = &self.checked.analysis.constraints;
        let is_generic = |scope: Scope| generic.is_some_and(|b| c.generic_at(scope, b));
        match t {
            Ty::Int => "int".into(),
            Ty::Packed(_) => "packed".into(),
            Ty::Lock(l) => {
                let name = self.lock_name(*l);
                if is_generic(c.locks[*l].scope) {
                    quantified.insert(name.clone());
                }
                format!("lock {name}")
            }
            Ty::Ref(r, inner) => {
                let name = format!("ρ{}", r.0);
                if is_generic(c.rhos[*r].scope) {
                    quantified.insert(name.clone());
                }
                let text = self.ty_text(inner, generic, quantified);
                let text = if matches!(**inner, Ty::Fun(..) | Ty::Pair(..) | Ty::Ref(..)) {
                    format!("({text})")
                } else {
                    text
                };
                format!("ref {name} {text}")
            }
            Ty::Pair(a, b) => {
                let l = self.ty_text(a, generic, quantified);
                let r = self.ty_text(b, generic, quantified);
                let wrap = |t: &Ty, s: String| {
                    if matches!(t, Ty::Fun(..) | Ty::Pair(..)) {
                        format!("({s})")
                    } else {
                        s
                    }
                };
                format!("{} * {}", wrap(a, l), wrap(b, r))
            }
            Ty::Fun(a, chi, b) => {
                let l = self.ty_text(a, generic, quantified);
                let r = self.ty_text(b, generic, quantified);
                let l = if matches!(**a, Ty::Fun(..)) {
                    format!("({l})")
                } else {
                    l
                };
                let effect = self.effect_names(*chi);
                if effect.is_empty() {
                    format!("{l} -> {r}")
                } else {
                    format!("{l} -[{}]-> {r}", effect.join(" "))
                }
            }
        }
    }

    /// The locks a function's effect allocates, by name, then `fresh` for locks its calls allocate.
    fn effect_names(&self, chi: solver::EffectVar) -> Vec<String> {
        let sol = &self.checked.solution;
        let mut effect: Vec<String> = sol
            .effect_locks(chi)
            .iter()
            .map(|&x| self.lock_name(x))
            .collect();
        effect.sort();
        effect.dedup();
        if sol.effects[chi]
            .iter()
            .any(|(a, _)| matches!(a, Atom::Anon(_)))
        {
            effect.push("fresh".into());
        }
        effect
    }

    /// The constraints of figure 4 as generated, then their solution.
    fn listing(&self) -> ConstraintListing {
        ConstraintListing {
            constraints: self.constraints(),
            solution: self.solution(),
        }
    }

    fn constraints(&self) -> Vec<Constraint> {
        let c = &self.checked.analysis.constraints;
        let mut out = Vec::new();
        out.extend(
            c.flows
                .iter()
                .map(|&(a, b)| Constraint::Flow { from: a.0, to: b.0 }),
        );
        out.extend(
            c.pack_flows
                .iter()
                .map(|&(a, b)| Constraint::PackageFlow { from: a.0, to: b.0 }),
        );
        out.extend(c.rho_insts.iter().map(|i| Constraint::RhoInst {
            generic: i.generic.0,
            sign: sign(i.polarity),
            site: i.site.0,
            instance: i.instance.0,
        }));
        out.extend(
            c.lock_eqs
                .iter()
                .map(|&(a, b)| Constraint::LockEq { a: a.0, b: b.0 }),
        );
        out.extend(
            c.lock_insts
                .iter()
                .map(|&(g, site, x)| Constraint::LockInst {
                    generic: g.0,
                    site: site.0,
                    instance: x.0,
                }),
        );
        out.extend(
            c.pack_lock_maps
                .iter()
                .map(|&(o, site, x)| Constraint::PackLock {
                    outer: o.0,
                    site: site.0,
                    inner: x.0,
                }),
        );
        out.extend(
            c.pack_rho_maps
                .iter()
                .map(|&(o, site, x)| Constraint::PackRho {
                    outer: o.0,
                    site: site.0,
                    inner: x.0,
                }),
        );
        for (a, data) in c.accesses.iter_enumerated() {
            let lc = self
                .program
                .file
                .line_col(self.checked.analysis.access_span[a].start);
            out.push(Constraint::Access {
                rho: data.rho.0,
                lock: data.lock.0,
                write: data.write,
                line: lc.line,
                column: lc.column,
            });
        }
        out.extend(
            c.effect_bounds
                .iter()
                .map(|&(e, v)| Constraint::EffectBound {
                    effect: effect_tokens(c, e),
                    var: v.0,
                }),
        );
        out.extend(c.filters.iter().map(|f| Constraint::Filter {
            effect: effect_tokens(c, f.effect),
            target: f.target.0,
        }));
        out.extend(c.effect_insts.iter().map(|i| Constraint::EffectInst {
            generic: i.generic.0,
            sign: sign(i.polarity),
            site: i.site.0,
            instance: i.instance.0,
        }));
        out.extend(
            c.empty_effects
                .iter()
                .map(|v| Constraint::EmptyEffect { var: v.0 }),
        );
        out
    }

    fn solution(&self) -> Vec<Solved> {
        let sol = &self.checked.solution;
        let mut out = Vec::new();
        let mut classes: BTreeMap<Lock, Vec<u32>> = BTreeMap::new();
        for l in sol.lock_rep.indices() {
            classes.entry(sol.rep(l)).or_default().push(l.0);
        }
        for (rep, members) in classes.into_iter().filter(|(_, m)| m.len() > 1) {
            out.push(Solved::LockClass {
                rep: rep.0,
                members,
            });
        }
        out.extend(
            sol.flow
                .summaries
                .iter()
                .map(|&(a, b)| Solved::MatchedFlow { from: a.0, to: b.0 }),
        );
        out.extend(
            sol.materialised
                .iter()
                .map(|&(g, site, x)| Solved::FreshLock {
                    generic: g.0,
                    site: site.0,
                    image: x.0,
                }),
        );
        for (v, occ) in sol.effects.iter_enumerated() {
            if occ.is_empty() {
                continue;
            }
            let atoms = occ
                .iter()
                .map(|&(a, k)| EffectAtom {
                    lock: match a {
                        Atom::Lock(l) => AtomRef::Lock(l.0),
                        Atom::Anon(site) => AtomRef::Fresh(site.0),
                    },
                    twice: k > 1,
                })
                .collect();
            out.push(Solved::Effect { var: v.0, atoms });
        }
        let root: BTreeSet<(Rho, Lock, Option<Site>)> =
            sol.root_facts().map(|f| (f.rho, f.lock, f.tag)).collect();
        out.extend(root.into_iter().map(|(r, l, tag)| Solved::RootFact {
            rho: r.0,
            lock: l.0,
            copy_of: tag.map(|t| t.0),
        }));
        out
    }

    /// The constraint graph: every location label, every lock class, and the edges of figure 3.
    fn graph(&self) -> ConstraintGraph {
        let c = &self.checked.analysis.constraints;
        let sol = &self.checked.solution;
        let locations = c
            .rhos
            .indices()
            .map(|r| GraphNode {
                id: r.0,
                description: self.describe_rho(r),
            })
            .collect();
        let reps: BTreeSet<Lock> = sol.lock_rep.indices().map(|l| sol.rep(l)).collect();
        let locks = reps
            .into_iter()
            .map(|l| GraphNode {
                id: l.0,
                description: self.describe_lock(l),
            })
            .collect();
        let mut edges = Vec::new();
        edges.extend(
            c.flows
                .iter()
                .map(|&(a, b)| GraphEdge::Flow { from: a.0, to: b.0 }),
        );
        edges.extend(
            c.pack_flows
                .iter()
                .map(|&(a, b)| GraphEdge::PackageFlow { from: a.0, to: b.0 }),
        );
        edges.extend(
            sol.flow
                .summaries
                .iter()
                .map(|&(a, b)| GraphEdge::Summary { from: a.0, to: b.0 }),
        );
        edges.extend(c.rho_insts.iter().map(|i| GraphEdge::RhoInst {
            generic: i.generic.0,
            sign: sign(i.polarity),
            site: i.site.0,
            instance: i.instance.0,
        }));
        edges.extend(
            explain::lock_instantiations(self.checked)
                .into_iter()
                .map(|(x, site, g)| GraphEdge::LockInst {
                    instance: x.0,
                    site: site.0,
                    generic: g.0,
                }),
        );
        let correlations = explain::correlations(self.checked);
        edges.extend(
            correlations
                .generated
                .iter()
                .map(|&(r, l)| GraphEdge::Generated {
                    rho: r.0,
                    lock: l.0,
                }),
        );
        edges.extend(
            correlations
                .derived
                .iter()
                .map(|&(r, l)| GraphEdge::Derived {
                    rho: r.0,
                    lock: l.0,
                }),
        );
        ConstraintGraph {
            locations,
            locks,
            edges,
        }
    }
}

fn sign(p: Polarity) -> Sign {
    match p {
        Polarity::Pos => Sign::Pos,
        Polarity::Neg => Sign::Neg,
    }
}

/// The tokens of an effect term in written order. Effects nest deeply along `;` chains, so the
/// term is walked with an explicit stack rather than by recursion.
fn effect_tokens(c: &solver::Constraints, node: solver::EffectNode) -> Vec<EffectToken> {
    enum Item {
        Node(solver::EffectNode),
        Token(EffectToken),
    }
    let mut out = Vec::new();
    let mut stack = vec![Item::Node(node)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Token(t) => out.push(t),
            Item::Node(n) => match c.effect_nodes[n] {
                EffectExpr::Empty => out.push(EffectToken::Empty),
                EffectExpr::Single(l) => out.push(EffectToken::Lock(l.0)),
                EffectExpr::Var(v) => out.push(EffectToken::Var(v.0)),
                EffectExpr::Disjoint(a, b) | EffectExpr::Union(a, b) => {
                    let op = if matches!(c.effect_nodes[n], EffectExpr::Disjoint(..)) {
                        EffectToken::Disjoint
                    } else {
                        EffectToken::Union
                    };
                    stack.push(Item::Token(EffectToken::Close));
                    stack.push(Item::Node(b));
                    stack.push(Item::Token(op));
                    stack.push(Item::Node(a));
                    stack.push(Item::Token(EffectToken::Open));
                }
            },
        }
    }
    out
}
