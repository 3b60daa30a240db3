//! `locksmith check`: rendering race reports for C programs (DESIGN.md §8), modelled on the
//! paper's §4.1 warning for aget — the shared location with its declaration or allocation site,
//! then every access with its position, whether it reads or writes, the locks held, and the call
//! path from its thread's root, with the source line.
//!
//! Only rendering happens here; the analysis data comes from `c_frontend::driver`.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use c_frontend::constraints::RhoName;
use c_frontend::diagnostics::UnsoundKind;
use c_frontend::driver::CheckResult;
use c_frontend::ir::{FuncId, Pos, Program};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{json, Value};
use solver::threads::check::RaceWarning;
use solver::threads::facts::Thread;
use solver::threads::structure::CallPoint;
use solver::threads::FnId;
use solver::{Lock, Rho};

use crate::lambda::Format;

/// The complete output of a check.
pub struct Rendered {
    pub stdout: String,
    pub exit: i32,
}

/// One access of a warning, ready to print.
struct AccessLine {
    pos: Pos,
    write: bool,
    locks: Vec<String>,
    path: Vec<String>,
    thread: String,
    via: Option<String>,
}

struct Namer<'a> {
    r: &'a CheckResult,
    /// A name for each lock class representative.
    lock_names: FxHashMap<Lock, String>,
    fn_of: FxHashMap<FuncId, FnId>,
    sources: std::cell::RefCell<FxHashMap<String, Option<Vec<String>>>>,
}

impl<'a> Namer<'a> {
    fn new(r: &'a CheckResult) -> Namer<'a> {
        let mut lock_names = FxHashMap::default();
        let mut named: Vec<(&Lock, &RhoName)> = r.generated.lock_names.iter().collect();
        named.sort_by_key(|(l, _)| **l);
        for (l, name) in named {
            let rep = r.solution.lock_rep.get(*l).copied().unwrap_or(*l);
            lock_names
                .entry(rep)
                .or_insert_with(|| describe_name(&r.program, name));
        }
        // A lock created in a callee (a mutex initialised in a constructor function) is held
        // by callers under its image at the call: it is the same object, so it gets its name.
        loop {
            let mut changed = false;
            for &(generic, image) in &r.solution.lock_images {
                if lock_names.contains_key(&image) {
                    continue;
                }
                if let Some(name) = lock_names.get(&generic).cloned() {
                    lock_names.insert(image, name);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let fn_of = r
            .generated
            .fn_func
            .iter_enumerated()
            .map(|(id, &f)| (f, id))
            .collect();
        Namer {
            r,
            lock_names,
            fn_of,
            sources: Default::default(),
        }
    }

    fn p(&self) -> &Program {
        &self.r.program
    }

    fn pos(&self, pos: Pos) -> String {
        format!("{}:{}:{}", self.p().files[pos.file], pos.line, pos.column)
    }

    fn short(&self, pos: Pos) -> String {
        format!("{}:{}", self.p().files[pos.file], pos.line)
    }

    fn lock(&self, l: Lock) -> String {
        self.lock_names
            .get(&l)
            .cloned()
            .unwrap_or_else(|| format!("a lock (ℓ{})", l.0))
    }

    fn func_name(&self, f: FuncId) -> &str {
        &self.p().funcs[f].name
    }

    fn source_line(&self, pos: Pos) -> Option<String> {
        let file = self.p().files[pos.file].clone();
        let mut cache = self.sources.borrow_mut();
        let lines = cache.entry(file.clone()).or_insert_with(|| {
            std::fs::read_to_string(&file)
                .ok()
                .map(|t| t.lines().map(str::to_string).collect())
        });
        lines
            .as_ref()?
            .get(pos.line.checked_sub(1)? as usize)
            .map(|l| l.trim().to_string())
    }

    /// The call points from `root` down to `target` (breadth-first over the call graph).
    fn path_down(&self, root: FnId, target: FnId) -> Option<Vec<CallPoint>> {
        let s = &self.r.solution.structure;
        let mut prev: FxHashMap<FnId, CallPoint> = FxHashMap::default();
        let mut seen = FxHashSet::default();
        let mut queue = VecDeque::from([target]);
        seen.insert(target);
        while let Some(f) = queue.pop_front() {
            if f == root {
                let mut out = Vec::new();
                let mut cur = root;
                while cur != target {
                    let pt = *prev.get(&cur)?;
                    out.push(pt);
                    cur = self.callee_of(pt)?;
                }
                return Some(out);
            }
            for pt in &s.callers[f] {
                if seen.insert(pt.caller) {
                    prev.insert(pt.caller, *pt);
                    queue.push_back(pt.caller);
                }
            }
        }
        None
    }

    fn callee_of(&self, pt: CallPoint) -> Option<FnId> {
        let info = self.r.generated.sites.get(&pt.site)?;
        self.fn_of.get(&info.callee).copied()
    }

    fn step(&self, pt: CallPoint) -> String {
        match self.r.generated.sites.get(&pt.site) {
            Some(info) => format!("{} ({})", self.func_name(info.callee), self.short(info.pos)),
            None => "?".into(),
        }
    }

    /// The call path of an access from the root of its thread: `main`, or for a location private
    /// to a run of `home`, that function.
    fn path(&self, home: FnId, func: FuncId, thread: Thread) -> (Vec<String>, String) {
        let s = &self.r.solution.structure;
        let main = self.r.solution_main();
        let target = self.fn_of.get(&func).copied();
        let home_name = self.func_name(self.r.generated.fn_func[home]).to_string();
        let mut out = vec![home_name.clone()];
        let thread_name;
        let root = match thread {
            Thread::Current => {
                thread_name = if Some(home) == main {
                    "the main thread".to_string()
                } else {
                    format!(
                        "the thread running {home_name} (the location is private to one run of it)"
                    )
                };
                home
            }
            Thread::Forked(site) => {
                let fork = s
                    .forkers
                    .iter()
                    .flatten()
                    .find(|pt| pt.site == site)
                    .copied();
                let info = self.r.generated.sites.get(&site);
                thread_name = match info {
                    Some(i) => format!(
                        "the thread running {} started at {}",
                        self.func_name(i.callee),
                        self.short(i.pos)
                    ),
                    None => "a thread".into(),
                };
                let Some(fork) = fork else {
                    return (out, thread_name);
                };
                for pt in self.path_down(home, fork.caller).unwrap_or_default() {
                    out.push(self.step(pt));
                }
                out.push(self.step(fork));
                match self.callee_of(fork) {
                    Some(r) => r,
                    None => return (out, thread_name),
                }
            }
        };
        if let Some(t) = target {
            for pt in self.path_down(root, t).unwrap_or_default() {
                out.push(self.step(pt));
            }
        }
        (out, thread_name)
    }

    fn location(&self, rho: Rho) -> (String, Option<Pos>) {
        let name = &self.r.generated.rho_names[rho];
        (describe_name(self.p(), name), name_pos(self.p(), name))
    }

    fn accesses(&self, w: &RaceWarning) -> Vec<AccessLine> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        for a in &w.accesses {
            let site = &self.r.generated.access_sites[a.access];
            if !seen.insert((site.pos, site.write, a.held.clone(), a.thread)) {
                continue;
            }
            let mut locks: Vec<String> = a.held.iter().map(|&l| self.lock(l)).collect();
            locks.sort();
            let (path, thread) = self.path(w.home, site.func, a.thread);
            out.push(AccessLine {
                pos: site.pos,
                write: site.write,
                locks,
                path,
                thread,
                via: site.via.clone(),
            });
        }
        out.sort_by(|x, y| (x.pos, !x.write, &x.locks).cmp(&(y.pos, !y.write, &y.locks)));
        out
    }
}

trait MainOf {
    fn solution_main(&self) -> Option<FnId>;
}

impl MainOf for CheckResult {
    fn solution_main(&self) -> Option<FnId> {
        self.generated.threads.main
    }
}

/// A name for a location: a variable, a field path, or an allocation site.
fn describe_name(p: &Program, name: &RhoName) -> String {
    match name {
        RhoName::Var(v) => p.vars[*v].name.clone(),
        RhoName::Alloc { pos, func, by } => {
            format!(
                "memory allocated by {by} at {}:{} in {}",
                p.files[pos.file], pos.line, p.funcs[*func].name
            )
        }
        RhoName::Field { parent, field } => {
            let parent = describe_name(p, parent);
            if parent.starts_with("memory ") {
                format!("field `{field}` of {parent}")
            } else {
                format!("{parent}.{field}")
            }
        }
        RhoName::Other => "a location".into(),
    }
}

fn name_pos(p: &Program, name: &RhoName) -> Option<Pos> {
    match name {
        RhoName::Var(v) => Some(p.vars[*v].pos),
        RhoName::Alloc { pos, .. } => Some(*pos),
        RhoName::Field { parent, .. } => name_pos(p, parent),
        RhoName::Other => None,
    }
}

/// What an unsound place does not model, in words.
fn unsound_message(p: &Program, kind: UnsoundKind) -> String {
    match kind {
        UnsoundKind::InlineAsm => "inline assembly: its effects are not modelled".into(),
        UnsoundKind::VaArgParameter => {
            "va_arg on a va_list parameter: the values it yields are not tracked".into()
        }
        UnsoundKind::PointerToInteger => "a pointer converted to an integer is not tracked".into(),
        UnsoundKind::LongJmp(f) => format!(
            "{}: execution resuming at its setjmp is not followed (the code after the setjmp is \
             analysed only as reached normally)",
            p.funcs[f].name
        ),
    }
}

/// Renders the result of a check in the requested format.
pub fn render(r: &CheckResult, format: Format) -> Rendered {
    let n = Namer::new(r);
    // Warnings sorted by where their location is declared, then by name.
    let mut warnings: Vec<(Option<Pos>, String, &RaceWarning)> = r
        .solution
        .warnings
        .iter()
        .map(|w| {
            let (name, pos) = n.location(w.rho);
            (pos, name, w)
        })
        .collect();
    warnings.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let exit = if warnings.is_empty() { 0 } else { 1 };
    let stdout = match format {
        Format::Text => text(&n, &warnings),
        Format::Json => format!("{:#}\n", json_report(&n, &warnings)),
    };
    Rendered { stdout, exit }
}

fn text(n: &Namer, warnings: &[(Option<Pos>, String, &RaceWarning)]) -> String {
    let mut s = String::new();
    for (pos, name, w) in warnings {
        match pos {
            Some(p) => {
                let _ = writeln!(
                    s,
                    "warning: possible data race on {name} (declared at {})",
                    n.short(*p)
                );
            }
            None => {
                let _ = writeln!(s, "warning: possible data race on {name}");
            }
        }
        for a in n.accesses(w) {
            let kind = if a.write { "write" } else { "read" };
            let locks = if a.locks.is_empty() {
                "no locks".to_string()
            } else {
                a.locks.join(", ")
            };
            let via = a
                .via
                .as_ref()
                .map(|v| format!(" (inside {v})"))
                .unwrap_or_default();
            let _ = writeln!(s, "  {kind} at {}{via} holding {locks}", n.pos(a.pos));
            if let Some(line) = n.source_line(a.pos) {
                let _ = writeln!(s, "      {:>5} | {line}", a.pos.line);
            }
            let _ = writeln!(s, "      in {}: {}", a.thread, a.path.join(" -> "));
        }
        s.push('\n');
    }
    let p = n.p();
    if !p.unanalysed.is_empty() {
        let _ = writeln!(s, "not analysed:");
        for u in &p.unanalysed {
            let _ = writeln!(s, "  {} at {}: {}", u.name, n.short(u.pos), u.reason);
        }
    }
    let unmodelled = &n.r.generated.unmodelled;
    if !unmodelled.is_empty() {
        let names: Vec<&str> = unmodelled.iter().map(String::as_str).collect();
        let _ = writeln!(s, "library functions without a model (assumed to write through their pointer arguments): {}", names.join(", "));
    }
    let unsound = &n.r.generated.unsound;
    if !unsound.is_empty() {
        let mut by_what: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for u in unsound {
            by_what
                .entry(unsound_message(p, u.kind))
                .or_default()
                .push(n.short(u.pos));
        }
        for (what, places) in by_what {
            let shown: Vec<&String> = places.iter().take(5).collect();
            let more = if places.len() > 5 {
                format!(" and {} more", places.len() - 5)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "unsound: {what}: {}{more}",
                shown
                    .iter()
                    .map(|x| x.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let count = warnings.len();
    let _ = writeln!(
        s,
        "locksmith: {count} possible data race{}",
        if count == 1 { "" } else { "s" }
    );
    s
}

fn json_report(n: &Namer, warnings: &[(Option<Pos>, String, &RaceWarning)]) -> Value {
    let p = n.p();
    let ws: Vec<Value> = warnings
        .iter()
        .map(|(pos, name, w)| {
            let mut location = json!({ "name": name });
            if let Some(pos) = pos {
                location["file"] = json!(p.files[pos.file]);
                location["line"] = json!(pos.line);
            }
            let accesses: Vec<Value> = n
                .accesses(w)
                .into_iter()
                .map(|a| {
                    let mut v = json!({
                        "file": p.files[a.pos.file],
                        "line": a.pos.line,
                        "column": a.pos.column,
                        "write": a.write,
                        "locks": a.locks,
                        "path": a.path,
                        "thread": a.thread,
                    });
                    if let Some(via) = a.via {
                        v["via"] = json!(via);
                    }
                    v
                })
                .collect();
            json!({ "kind": "race", "location": location, "accesses": accesses })
        })
        .collect();
    let unanalysed: Vec<Value> = p
        .unanalysed
        .iter()
        .map(|u| json!({ "function": u.name, "file": p.files[u.pos.file], "line": u.pos.line, "reason": u.reason }))
        .collect();
    let unmodelled: Vec<&String> = n.r.generated.unmodelled.iter().collect();
    let unsound: Vec<Value> = n
        .r
        .generated
        .unsound
        .iter()
        .map(|u| json!({ "file": p.files[u.pos.file], "line": u.pos.line, "column": u.pos.column, "what": unsound_message(p, u.kind) }))
        .collect();
    json!({ "warnings": ws, "unanalysed": unanalysed, "unmodelled": unmodelled, "unsound": unsound })
}
