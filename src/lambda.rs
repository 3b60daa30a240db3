//! `locksmith lambda`: rendering the verdict on a λ▷ program (the contract is in README.md).
//!
//! Everything here turns solver data (label ids, accesses, violations) into text, JSON or Graphviz;
//! no analysis happens in this module.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use lambda_core::ast::{Program, Span};
use lambda_core::check::{self, Checked};
use lambda_core::infer::{Origin, Role, Ty};
use lambda_core::syntax;
use serde_json::{json, Value};
use solver::effects::{Atom, NonLinear};
use solver::ids::{Idx, IndexVec};
use solver::{Lock, Polarity, Rho, Scope, Site, SiteKind, Violation};

/// Output format of a report.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Options of `locksmith lambda`.
#[derive(Clone, Debug, Default)]
pub struct LambdaOptions {
    pub format: Format,
    pub types: bool,
    pub dot: bool,
    /// Print the generated constraints and their solution (text format only).
    pub constraints: bool,
    /// Erase `pack` and `unpack` before inference (the paper's table 3 baseline without
    /// existentials; see `lambda_core::erase`).
    pub no_existentials: bool,
}

/// The complete result of a command: what to print and the exit status.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    /// The Graphviz rendering, when requested.
    pub dot: Option<String>,
}

/// Type-checks the λ▷ program `text` read from `file_name`.
pub fn run(file_name: &str, text: &str, options: &LambdaOptions) -> Outcome {
    let program = match syntax::parse(file_name, text) {
        Ok(p) if options.no_existentials => lambda_core::erase::erase_existentials(&p),
        Ok(p) => p,
        Err(e) => {
            return error_outcome(file_name, text, e.span, "syntax error", &e.message, options)
        }
    };
    match check::check(program) {
        Err(e) => error_outcome(file_name, text, e.span, "type error", &e.message, options),
        Ok((program, checked)) => render(&program, &checked, options),
    }
}

/// An input that cannot be analysed: one message with its position, exit status 2.
pub fn error_outcome(
    file_name: &str,
    text: &str,
    span: Span,
    kind: &str,
    message: &str,
    options: &LambdaOptions,
) -> Outcome {
    let file = lambda_core::ast::SourceFile::new(file_name, text);
    let lc = file.line_col(span.start);
    let mut out = Outcome {
        exit: 2,
        ..Outcome::default()
    };
    out.stderr = format!(
        "{}:{}:{}: {kind}: {message}\n",
        file_name, lc.line, lc.column
    );
    if options.format == Format::Json {
        let v = json!({
            "verdict": "error",
            "error": { "kind": kind, "message": message, "file": file_name,
                       "line": lc.line, "column": lc.column },
        });
        out.stdout = format!("{v:#}\n");
    }
    out
}

/// Names labels in reports, after the front end's origins and the solver's classes.
struct Namer<'a> {
    program: &'a Program,
    checked: &'a Checked,
}

impl Namer<'_> {
    fn pos(&self, span: Span) -> String {
        self.program.file.position(span)
    }

    fn short_pos(&self, span: Span) -> String {
        let lc = self.program.file.line_col(span.start);
        format!("{}:{}", lc.line, lc.column)
    }

    fn lock_name(&self, l: Lock) -> String {
        format!("ℓ{}", self.checked.solution.rep(l).0)
    }

    /// The most informative member of a lock class.
    fn lock_origin(&self, l: Lock) -> Option<(Lock, &Origin)> {
        let sol = &self.checked.solution;
        let rep = sol.rep(l);
        let origins = &self.checked.analysis.lock_origin;
        let members = (0..origins.len())
            .map(Lock::new)
            .filter(|&m| sol.rep(m) == rep);
        let mut best: Option<(Lock, &Origin)> = None;
        for m in members {
            let o = &origins[m];
            let rank = |o: &Origin| match o.role {
                Role::Alloc => 0,
                Role::Binder(_) => 1,
                Role::Opened => 2,
                _ => 3,
            };
            if best.is_none_or(|(_, b)| rank(o) < rank(b)) {
                best = Some((m, o));
            }
        }
        best
    }

    /// The `newlock` expressions whose locks belong to the class of `l`.
    fn allocations_of_lock(&self, l: Lock) -> Vec<Span> {
        let sol = &self.checked.solution;
        let origins = &self.checked.analysis.lock_origin;
        let mut spans: Vec<Span> = origins
            .iter_enumerated()
            .filter(|(m, o)| o.role == Role::Alloc && sol.rep(*m) == sol.rep(l))
            .map(|(_, o)| o.span)
            .collect();
        spans.sort();
        spans
    }

    fn describe_lock(&self, l: Lock) -> String {
        let name = self.lock_name(l);
        if let Some((_, o)) = self.lock_origin(l) {
            return match &o.role {
                Role::Alloc => {
                    let all: Vec<String> = self
                        .allocations_of_lock(l)
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
        let sol = &self.checked.solution;
        if let Some(&(generic, site, _)) = sol
            .materialised
            .iter()
            .find(|&&(_, _, x)| sol.rep(x) == sol.rep(l))
        {
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
        match &o.role {
            Role::Alloc => format!("ρ{} (`ref` at {})", r.0, self.short_pos(o.span)),
            Role::Binder(x) => format!(
                "ρ{} (in the type of `{x}` at {})",
                r.0,
                self.short_pos(o.span)
            ),
            Role::Instance(site) => format!(
                "ρ{} (in the instance of {})",
                r.0,
                self.describe_site(*site)
            ),
            Role::Opened => format!(
                "ρ{} (opened by `unpack` at {})",
                r.0,
                self.short_pos(o.span)
            ),
            _ => format!("ρ{} (at {})", r.0, self.short_pos(o.span)),
        }
    }

    /// The `ref` sites whose locations may reach `r`, for orientation in reports.
    fn allocations(&self, r: Rho) -> Vec<Rho> {
        let c = &self.checked.analysis.constraints;
        let sol = &self.checked.solution;
        let n = c.rhos.len();
        let mut back: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), n);
        for (x, preds) in sol.flow.preds.iter_enumerated() {
            back[x].extend(preds.iter().copied());
        }
        for &(a, b) in &c.pack_flows {
            back[b].push(a);
        }
        for inst in &c.rho_insts {
            match inst.polarity {
                Polarity::Pos => back[inst.instance].push(inst.generic),
                Polarity::Neg => back[inst.generic].push(inst.instance),
            }
        }
        let mut seen = vec![false; n];
        let mut stack = vec![r];
        let mut out = BTreeSet::new();
        seen[r.index()] = true;
        while let Some(x) = stack.pop() {
            if self.checked.analysis.rho_origin[x].role == Role::Alloc {
                out.insert(x);
            }
            for &p in &back[x] {
                if !seen[p.index()] {
                    seen[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        out.into_iter().collect()
    }

    fn access_line(&self, a: solver::Access) -> (String, bool, Span) {
        let span = self.checked.analysis.access_span[a];
        let write = self.checked.analysis.constraints.accesses[a].write;
        (self.pos(span), write, span)
    }

    fn excerpt(&self, span: Span) -> String {
        let lc = self.program.file.line_col(span.start);
        self.program.file.line_text(lc.line).trim().to_string()
    }

    fn atom(&self, a: Atom) -> String {
        match a {
            Atom::Lock(l) => self.describe_lock(l),
            Atom::Anon(site) => format!(
                "the locks allocated by the call of {}",
                self.describe_site(site)
            ),
        }
    }

    fn rec_function(&self, var: solver::EffectVar) -> Option<&(solver::EffectVar, String, Span)> {
        self.checked
            .analysis
            .rec_effects
            .iter()
            .find(|(v, _, _)| *v == var)
    }
}

fn render(program: &Program, checked: &Checked, options: &LambdaOptions) -> Outcome {
    let namer = Namer { program, checked };
    let violations = &checked.solution.violations;
    let mut out = Outcome {
        exit: if violations.is_empty() { 0 } else { 1 },
        ..Outcome::default()
    };
    out.stdout = match options.format {
        Format::Text => text_report(&namer, options.types, options.constraints),
        Format::Json => format!("{:#}\n", json_report(&namer, options.types)),
    };
    if options.dot {
        out.dot = Some(dot(&namer));
    }
    out
}

fn text_report(n: &Namer, types: bool, constraints: bool) -> String {
    let mut s = String::new();
    let file = &n.program.file.name;
    for v in &n.checked.solution.violations {
        match v {
            Violation::Inconsistent { rho, locks } => {
                let _ = writeln!(
                    s,
                    "error: location {} is not consistently correlated",
                    n.describe_rho(*rho)
                );
                let allocs = n.allocations(*rho);
                if !allocs.is_empty() && allocs != [*rho] {
                    let list: Vec<String> =
                        allocs.iter().take(4).map(|&a| n.describe_rho(a)).collect();
                    let _ = writeln!(s, "  it may be {}", list.join(", "));
                }
                for x in locks {
                    let _ = writeln!(s, "  holding {}:", n.describe_lock(x.lock));
                    for &a in &x.accesses {
                        let (pos, write, span) = n.access_line(a);
                        let kind = if write { "write" } else { "read" };
                        let _ = writeln!(s, "    {kind} at {pos}    {}", n.excerpt(span));
                    }
                    if !x.path.is_empty() {
                        let via: Vec<String> =
                            x.path.iter().map(|&site| n.describe_site(site)).collect();
                        let _ = writeln!(s, "      via {}", via.join(" -> "));
                    }
                }
            }
            Violation::OpenedLockEscapes {
                rho,
                lock,
                accesses,
            } => {
                let _ = writeln!(
                    s,
                    "error: {} guards location {}, which is not part of its package",
                    n.describe_lock(*lock),
                    n.describe_rho(*rho)
                );
                for &a in accesses {
                    let (pos, write, span) = n.access_line(a);
                    let kind = if write { "write" } else { "read" };
                    let _ = writeln!(s, "    {kind} at {pos}    {}", n.excerpt(span));
                }
            }
            Violation::NonLinear(NonLinear::Disjoint { node, atom }) => {
                let span = n.checked.analysis.effect_span[*node];
                let _ = writeln!(
                    s,
                    "error: {} may stand for two run-time locks (not linear)",
                    n.atom(*atom)
                );
                let _ = writeln!(
                    s,
                    "  both sides of the expression at {} allocate it    {}",
                    n.pos(span),
                    n.excerpt(span)
                );
            }
            Violation::NonLinear(NonLinear::Inst { site, atom }) => {
                let _ = writeln!(
                    s,
                    "error: {} may stand for two run-time locks (not linear)",
                    n.atom(*atom)
                );
                let _ = writeln!(
                    s,
                    "  two different locks become one at {}",
                    n.describe_site(*site)
                );
            }
            Violation::RecursiveEffect { var, atoms } => {
                let what: Vec<String> = atoms.iter().map(|&a| n.atom(a)).collect();
                match n.rec_function(*var) {
                    Some((_, name, span)) => {
                        let _ = writeln!(
                            s,
                            "error: recursive function `{name}` at {} allocates locks that escape a call, so its effect is not empty",
                            n.pos(*span)
                        );
                    }
                    None => {
                        let _ = writeln!(s, "error: a recursive function's effect is not empty");
                    }
                }
                let _ = writeln!(s, "  it allocates {}", what.join(", "));
            }
            Violation::Saturated { rho } => {
                let _ = writeln!(
                    s,
                    "error: location {} is correlated with more than {} locks in one context; it is reported without further analysis",
                    n.describe_rho(*rho),
                    solver::correlation::SATURATION
                );
            }
            Violation::NoConvergence => {
                let _ = writeln!(
                    s,
                    "error: constraint resolution did not converge; the program is not accepted"
                );
            }
        }
    }
    if types {
        s.push_str(&types_text(n));
    }
    if constraints {
        s.push_str(&constraints_text(n));
    }
    let count = n.checked.solution.violations.len();
    if count == 0 {
        let _ = writeln!(s, "{file}: well typed, consistently correlated and linear");
    } else {
        let _ = writeln!(
            s,
            "{file}: {count} violation{}",
            if count == 1 { "" } else { "s" }
        );
    }
    s
}

fn ty_text(n: &Namer, t: &Ty, generic: Option<Scope>, quantified: &mut BTreeSet<String>) -> String {
    let c = &n.checked.analysis.constraints;
    let sol = &n.checked.solution;
    let is_generic = |scope: Scope| generic.is_some_and(|b| c.generic_at(scope, b));
    match t {
        Ty::Int => "int".into(),
        Ty::Packed(_) => "packed".into(),
        Ty::Lock(l) => {
            let name = n.lock_name(*l);
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
            let text = ty_text(n, inner, generic, quantified);
            let text = if matches!(**inner, Ty::Fun(..) | Ty::Pair(..) | Ty::Ref(..)) {
                format!("({text})")
            } else {
                text
            };
            format!("ref {name} {text}")
        }
        Ty::Pair(a, b) => {
            let l = ty_text(n, a, generic, quantified);
            let r = ty_text(n, b, generic, quantified);
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
            let l = ty_text(n, a, generic, quantified);
            let r = ty_text(n, b, generic, quantified);
            let l = if matches!(**a, Ty::Fun(..)) {
                format!("({l})")
            } else {
                l
            };
            let mut effect: Vec<String> = sol
                .effect_locks(*chi)
                .iter()
                .map(|&x| n.lock_name(x))
                .collect();
            effect.sort();
            effect.dedup();
            if sol.effects[*chi]
                .iter()
                .any(|(a, _)| matches!(a, Atom::Anon(_)))
            {
                effect.push("fresh".into());
            }
            if effect.is_empty() {
                format!("{l} -> {r}")
            } else {
                format!("{l} -[{}]-> {r}", effect.join(" "))
            }
        }
    }
}

/// Bindings in source order.
fn sorted_bindings<'a>(n: &'a Namer) -> Vec<&'a lambda_core::infer::BindingInfo> {
    let mut v: Vec<_> = n.checked.analysis.bindings.iter().collect();
    v.sort_by_key(|b| b.span);
    v
}

fn types_text(n: &Namer) -> String {
    let mut s = String::new();
    for b in sorted_bindings(n) {
        let mut quantified = BTreeSet::new();
        let body = ty_text(n, &b.ty, b.generic, &mut quantified);
        let prefix = if quantified.is_empty() {
            String::new()
        } else {
            format!(
                "∀{}. ",
                quantified.into_iter().collect::<Vec<_>>().join(" ")
            )
        };
        let _ = writeln!(
            s,
            "{} : {prefix}{body}    ({})",
            b.name,
            n.short_pos(b.span)
        );
    }
    s
}

fn effect_text(c: &solver::Constraints, node: solver::EffectNode) -> String {
    use solver::EffectExpr;
    // Effects nest deeply along `;` chains: render with an explicit stack.
    enum Item {
        Node(solver::EffectNode),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Item::Node(node)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Text(t) => out.push_str(t),
            Item::Node(n) => match c.effect_nodes[n] {
                EffectExpr::Empty => out.push('∅'),
                EffectExpr::Single(l) => {
                    let _ = write!(out, "{{ℓ{}}}", l.0);
                }
                EffectExpr::Var(v) => {
                    let _ = write!(out, "χ{}", v.0);
                }
                EffectExpr::Disjoint(a, b) | EffectExpr::Union(a, b) => {
                    let op = if matches!(c.effect_nodes[n], EffectExpr::Disjoint(..)) {
                        " ⊎ "
                    } else {
                        " ∪ "
                    };
                    stack.push(Item::Text(")"));
                    stack.push(Item::Node(b));
                    stack.push(Item::Text(op));
                    stack.push(Item::Node(a));
                    stack.push(Item::Text("("));
                }
            },
        }
    }
    out
}

/// The constraints of figure 4 as generated, then their solution, in the paper's notation.
fn constraints_text(n: &Namer) -> String {
    let c = &n.checked.analysis.constraints;
    let sol = &n.checked.solution;
    let mut s = String::from("constraints:\n");
    let pol = |p: Polarity| if p == Polarity::Pos { "+" } else { "-" };
    for &(a, b) in &c.flows {
        let _ = writeln!(s, "  ρ{} ≤ ρ{}", a.0, b.0);
    }
    for &(a, b) in &c.pack_flows {
        let _ = writeln!(s, "  ρ{} ≤ ρ{}   (package)", a.0, b.0);
    }
    for i in &c.rho_insts {
        let _ = writeln!(
            s,
            "  ρ{} ⪯{}{} ρ{}",
            i.generic.0,
            pol(i.polarity),
            i.site.0,
            i.instance.0
        );
    }
    for &(a, b) in &c.lock_eqs {
        let _ = writeln!(s, "  ℓ{} = ℓ{}", a.0, b.0);
    }
    for &(g, site, x) in &c.lock_insts {
        let _ = writeln!(s, "  ℓ{} ⪯{} ℓ{}", g.0, site.0, x.0);
    }
    for &(o, site, x) in &c.pack_lock_maps {
        let _ = writeln!(s, "  ℓ{} ⪯{} ℓ{}   (pack)", o.0, site.0, x.0);
    }
    for &(o, site, x) in &c.pack_rho_maps {
        let _ = writeln!(s, "  ρ{} ⪯{} ρ{}   (pack)", o.0, site.0, x.0);
    }
    for (a, data) in c.accesses.iter_enumerated() {
        let kind = if data.write { "write" } else { "read" };
        let span = n.checked.analysis.access_span[a];
        let _ = writeln!(
            s,
            "  ρ{} ▷ ℓ{}   ({kind} at {})",
            data.rho.0,
            data.lock.0,
            n.short_pos(span)
        );
    }
    for &(e, v) in &c.effect_bounds {
        let _ = writeln!(s, "  {} ≤ χ{}", effect_text(c, e), v.0);
    }
    for f in c.filters.iter() {
        let _ = writeln!(s, "  {} ≤_l⃗ χ{}", effect_text(c, f.effect), f.target.0);
    }
    for i in &c.effect_insts {
        let _ = writeln!(
            s,
            "  χ{} ⪯{}{} χ{}",
            i.generic.0,
            pol(i.polarity),
            i.site.0,
            i.instance.0
        );
    }
    for v in &c.empty_effects {
        let _ = writeln!(s, "  effect(χ{}) = ∅", v.0);
    }
    s.push_str("solution:\n");
    let mut classes: std::collections::BTreeMap<Lock, Vec<Lock>> =
        std::collections::BTreeMap::new();
    for l in sol.lock_rep.indices() {
        classes.entry(sol.rep(l)).or_default().push(l);
    }
    for (rep, members) in classes.iter().filter(|(_, m)| m.len() > 1) {
        let names: Vec<String> = members.iter().map(|m| format!("ℓ{}", m.0)).collect();
        let _ = writeln!(s, "  ℓ{} = {{{}}}", rep.0, names.join(", "));
    }
    for &(a, b) in &sol.flow.summaries {
        let _ = writeln!(s, "  ρ{} ≤ ρ{}   (matched flow)", a.0, b.0);
    }
    for &(g, site, x) in &sol.materialised {
        let _ = writeln!(
            s,
            "  ℓ{} ⪯{} ℓ{}   (fresh lock of the call)",
            g.0, site.0, x.0
        );
    }
    for (v, occ) in sol.effects.iter_enumerated() {
        if occ.is_empty() {
            continue;
        }
        let atoms: Vec<String> = occ
            .iter()
            .map(|&(a, k)| {
                let name = match a {
                    Atom::Lock(l) => format!("ℓ{}", l.0),
                    Atom::Anon(site) => format!("fresh@{}", site.0),
                };
                if k > 1 {
                    format!("{name}×2")
                } else {
                    name
                }
            })
            .collect();
        let _ = writeln!(s, "  χ{} = {{{}}}", v.0, atoms.join(", "));
    }
    let mut root: BTreeSet<(Rho, Lock, Option<Site>)> = BTreeSet::new();
    for f in sol.root_facts() {
        root.insert((f.rho, f.lock, f.tag));
    }
    for (r, l, tag) in root {
        match tag {
            None => {
                let _ = writeln!(s, "  ρ{} ▷ ℓ{}   (at the root)", r.0, l.0);
            }
            Some(t) => {
                let _ = writeln!(
                    s,
                    "  ρ{} ▷ ℓ{}   (at the root, copy of call {})",
                    r.0, l.0, t.0
                );
            }
        }
    }
    s
}

fn position_json(n: &Namer, span: Span) -> Value {
    let lc = n.program.file.line_col(span.start);
    json!({ "file": n.program.file.name, "line": lc.line, "column": lc.column })
}

fn lock_json(n: &Namer, l: Lock) -> Value {
    let mut v = json!({ "label": n.lock_name(l), "description": n.describe_lock(l) });
    if let Some((_, o)) = n.lock_origin(l) {
        merge(&mut v, position_json(n, o.span));
    }
    v
}

fn rho_json(n: &Namer, r: Rho) -> Value {
    let o = &n.checked.analysis.rho_origin[r];
    let mut v = json!({ "label": format!("ρ{}", r.0), "description": n.describe_rho(r) });
    merge(&mut v, position_json(n, o.span));
    v
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(a), Value::Object(b)) = (into, from) {
        a.extend(b);
    }
}

fn accesses_json(n: &Namer, accesses: &[solver::Access]) -> Value {
    Value::Array(
        accesses
            .iter()
            .map(|&a| {
                let (_, write, span) = n.access_line(a);
                let mut v = position_json(n, span);
                merge(&mut v, json!({ "write": write }));
                v
            })
            .collect(),
    )
}

fn atom_json(n: &Namer, a: Atom) -> Value {
    match a {
        Atom::Lock(l) => lock_json(n, l),
        Atom::Anon(site) => {
            let o = &n.checked.analysis.site_origin[site];
            let mut v = json!({ "description": n.atom(a) });
            merge(&mut v, position_json(n, o.span));
            v
        }
    }
}

fn json_report(n: &Namer, types: bool) -> Value {
    let mut violations = Vec::new();
    for v in &n.checked.solution.violations {
        violations.push(match v {
            Violation::Inconsistent { rho, locks } => json!({
                "kind": "inconsistent",
                "location": rho_json(n, *rho),
                "allocations": n.allocations(*rho).into_iter().map(|a| rho_json(n, a)).collect::<Vec<_>>(),
                "locks": locks.iter().map(|x| {
                    let mut v = lock_json(n, x.lock);
                    let path: Vec<Value> = x.path.iter().map(|&site| {
                        let mut p = json!({ "call": n.describe_site(site) });
                        merge(&mut p, position_json(n, n.checked.analysis.site_origin[site].span));
                        p
                    }).collect();
                    merge(&mut v, json!({ "accesses": accesses_json(n, &x.accesses), "path": path }));
                    v
                }).collect::<Vec<_>>(),
            }),
            Violation::OpenedLockEscapes { rho, lock, accesses } => json!({
                "kind": "existential-escape",
                "location": rho_json(n, *rho),
                "lock": lock_json(n, *lock),
                "accesses": accesses_json(n, accesses),
            }),
            Violation::NonLinear(NonLinear::Disjoint { node, atom }) => json!({
                "kind": "nonlinear",
                "lock": atom_json(n, *atom),
                "at": position_json(n, n.checked.analysis.effect_span[*node]),
            }),
            Violation::NonLinear(NonLinear::Inst { site, atom }) => json!({
                "kind": "nonlinear",
                "lock": atom_json(n, *atom),
                "at": position_json(n, n.checked.analysis.site_origin[*site].span),
            }),
            Violation::RecursiveEffect { var, atoms } => {
                let mut v = json!({
                    "kind": "recursive-effect",
                    "locks": atoms.iter().map(|&a| atom_json(n, a)).collect::<Vec<_>>(),
                });
                if let Some((_, name, span)) = n.rec_function(*var) {
                    merge(&mut v, json!({ "function": name }));
                    merge(&mut v, position_json(n, *span));
                }
                v
            }
            Violation::Saturated { rho } => json!({ "kind": "saturated", "location": rho_json(n, *rho) }),
            Violation::NoConvergence => json!({ "kind": "no-convergence" }),
        });
    }
    let mut v = json!({
        "file": n.program.file.name,
        "verdict": if violations.is_empty() { "ok" } else { "violations" },
        "violations": violations,
    });
    if types {
        let bindings: Vec<Value> = sorted_bindings(n)
            .into_iter()
            .map(|b| {
                let mut q = BTreeSet::new();
                let ty = ty_text(n, &b.ty, b.generic, &mut q);
                let mut v = json!({ "name": b.name, "type": ty, "quantified": q.into_iter().collect::<Vec<_>>() });
                merge(&mut v, position_json(n, b.span));
                v
            })
            .collect();
        merge(&mut v, json!({ "types": bindings }));
    }
    v
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The constraint graph drawn like the paper's figure 3: location and lock labels as nodes, flow
/// edges solid, instantiation edges labelled `(i` / `)i`, lock instantiations labelled `i`, and
/// correlations undirected (generated ones solid, derived ones dashed).
fn dot(n: &Namer) -> String {
    let c = &n.checked.analysis.constraints;
    let sol = &n.checked.solution;
    let mut s = String::from("digraph constraints {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
    for r in c.rhos.indices() {
        let _ = writeln!(
            s,
            "  r{} [shape=ellipse, label=\"{}\"];",
            r.0,
            dot_escape(&n.describe_rho(r))
        );
    }
    let mut reps: BTreeSet<Lock> = BTreeSet::new();
    for l in sol.lock_rep.indices() {
        reps.insert(sol.rep(l));
    }
    for &l in &reps {
        let _ = writeln!(
            s,
            "  l{} [shape=box, label=\"{}\"];",
            l.0,
            dot_escape(&n.describe_lock(l))
        );
    }
    for &(a, b) in &c.flows {
        let _ = writeln!(s, "  r{} -> r{};", a.0, b.0);
    }
    for &(a, b) in &c.pack_flows {
        let _ = writeln!(s, "  r{} -> r{} [style=bold];", a.0, b.0);
    }
    for &(a, b) in &sol.flow.summaries {
        let _ = writeln!(
            s,
            "  r{} -> r{} [style=dotted, label=\"summary\"];",
            a.0, b.0
        );
    }
    for inst in &c.rho_insts {
        let site = inst.site.0;
        match inst.polarity {
            Polarity::Neg => {
                let _ = writeln!(
                    s,
                    "  r{} -> r{} [label=\"({site}\"];",
                    inst.instance.0, inst.generic.0
                );
            }
            Polarity::Pos => {
                let _ = writeln!(
                    s,
                    "  r{} -> r{} [label=\"){site}\"];",
                    inst.generic.0, inst.instance.0
                );
            }
        }
    }
    let mut lock_edges = BTreeSet::new();
    for &(g, site, x) in &sol.lock_images {
        if c.sites[site].kind == SiteKind::Inst {
            lock_edges.insert((sol.rep(x), site, sol.rep(g)));
        }
    }
    for (x, site, g) in lock_edges {
        let _ = writeln!(
            s,
            "  l{} -> l{} [label=\"{}\", style=dashed, arrowhead=empty];",
            x.0, g.0, site.0
        );
    }
    let mut generated = BTreeSet::new();
    for a in c.accesses.iter() {
        generated.insert((a.rho, sol.rep(a.lock)));
    }
    for &(r, l) in &generated {
        let _ = writeln!(s, "  r{} -> l{} [dir=none, color=blue];", r.0, l.0);
    }
    let mut derived = BTreeSet::new();
    for f in sol.root_facts() {
        if !generated.contains(&(f.rho, f.lock)) {
            derived.insert((f.rho, f.lock));
        }
    }
    for (r, l) in derived {
        let _ = writeln!(
            s,
            "  r{} -> l{} [dir=none, style=dashed, color=blue];",
            r.0, l.0
        );
    }
    s.push_str("}\n");
    s
}
