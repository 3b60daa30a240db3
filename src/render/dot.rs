//! The Graphviz DOT format. For `locksmith lambda` it draws the constraint graph like the paper's
//! figure 3: location and lock labels as nodes, flow edges solid, instantiation edges labelled
//! `(i` / `)i`, lock instantiations labelled `i`, correlations undirected (generated ones solid,
//! derived ones dashed). For `locksmith check` it draws each race's location with an edge from
//! every thread that accesses it; deadlocks are not drawn (the other formats list them). A check
//! that missed functions that may run says so in the graph's label.
//!
//! This renderer reads the report model only; nodes and edges come out in the model's order, so
//! the graph is deterministic. It never looks at analysis results.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{RenderContext, RenderError, Renderer};
use crate::report::model::{CheckReport, ConstraintGraph, GraphEdge, LambdaReport, Sign, Warning};
use crate::report::Report;

const HEADER: &str = "  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";

/// The DOT format: the report as a graph; nothing for a failed run.
pub struct Dot;

impl Renderer for Dot {
    fn render(
        &self,
        report: &Report,
        _cx: &RenderContext,
        out: &mut dyn Write,
    ) -> Result<(), RenderError> {
        match report {
            Report::Check(c) => races(c, out)?,
            Report::Lambda(l) => constraints(l, out)?,
            Report::Error(_) => {}
        }
        Ok(())
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The constraint graph of a λ▷ report (empty if the report was built without it).
fn constraints(r: &LambdaReport, s: &mut dyn Write) -> io::Result<()> {
    let empty = ConstraintGraph::default();
    let g = r.graph.as_ref().unwrap_or(&empty);
    write!(s, "digraph constraints {{\n{HEADER}")?;
    for n in &g.locations {
        writeln!(
            s,
            "  r{} [shape=ellipse, label=\"{}\"];",
            n.id,
            escape(&n.description)
        )?;
    }
    for n in &g.locks {
        writeln!(
            s,
            "  l{} [shape=box, label=\"{}\"];",
            n.id,
            escape(&n.description)
        )?;
    }
    for e in &g.edges {
        writeln!(s, "  {}", edge(e))?;
    }
    s.write_all(b"}\n")
}

fn edge(e: &GraphEdge) -> String {
    match *e {
        GraphEdge::Flow { from, to } => format!("r{from} -> r{to};"),
        GraphEdge::PackageFlow { from, to } => format!("r{from} -> r{to} [style=bold];"),
        GraphEdge::Summary { from, to } => {
            format!("r{from} -> r{to} [style=dotted, label=\"summary\"];")
        }
        GraphEdge::RhoInst {
            generic,
            sign: Sign::Neg,
            site,
            instance,
        } => format!("r{instance} -> r{generic} [label=\"({site}\"];"),
        GraphEdge::RhoInst {
            generic,
            sign: Sign::Pos,
            site,
            instance,
        } => format!("r{generic} -> r{instance} [label=\"){site}\"];"),
        GraphEdge::LockInst {
            instance,
            site,
            generic,
        } => {
            format!("l{instance} -> l{generic} [label=\"{site}\", style=dashed, arrowhead=empty];")
        }
        GraphEdge::Generated { rho, lock } => {
            format!("r{rho} -> l{lock} [dir=none, color=blue];")
        }
        GraphEdge::Derived { rho, lock } => {
            format!("r{rho} -> l{lock} [dir=none, style=dashed, color=blue];")
        }
    }
}

/// The races of a C report: one box per racy location, one ellipse per thread, and an edge per
/// access from its thread to the location, labelled with what it does and the locks it holds.
fn races(r: &CheckReport, s: &mut dyn Write) -> io::Result<()> {
    write!(s, "digraph races {{\n{HEADER}")?;
    // Threads are numbered in the order of their descriptions, so the graph does not depend on
    // which warning mentions a thread first.
    let threads: BTreeMap<&str, usize> = {
        let mut names: Vec<&str> = r
            .warnings
            .iter()
            .filter_map(Warning::race)
            .flat_map(|w| w.accesses.iter().map(|a| a.thread.as_str()))
            .collect();
        names.sort();
        names.dedup();
        names.into_iter().enumerate().map(|(i, t)| (t, i)).collect()
    };
    for (thread, i) in &threads {
        writeln!(s, "  t{i} [shape=ellipse, label=\"{}\"];", escape(thread))?;
    }
    for (w, race) in r.warnings.iter().filter_map(Warning::race).enumerate() {
        let label = match &race.location.declared {
            Some(d) => format!("{} ({}:{})", race.location.name, d.file, d.line),
            None => race.location.name.clone(),
        };
        writeln!(s, "  w{w} [shape=box, label=\"{}\"];", escape(&label))?;
        for a in race.accesses.iter() {
            let kind = if a.write { "write" } else { "read" };
            let locks = if a.locks.is_empty() {
                "no locks".to_string()
            } else {
                a.locks.join(", ")
            };
            let p = &a.position;
            let label = format!(
                "{kind} at {}:{}:{} holding {locks}",
                p.file, p.line, p.column
            );
            writeln!(
                s,
                "  t{} -> w{w} [label=\"{}\"];",
                threads[a.thread.as_str()],
                escape(&label)
            )?;
        }
        // Its consequences: dashed boxes the race points to (their accesses are the cause's
        // to fix).
        for (c, consequence) in race.consequences.iter().flat_map(|c| &c.races).enumerate() {
            writeln!(
                s,
                "  w{w}c{c} [shape=box, style=dashed, label=\"{}\"];\n  w{w} -> w{w}c{c} \
                 [style=dashed, label=\"consequence\"];",
                escape(&consequence.location.name)
            )?;
        }
    }
    // An incomplete check says so as the graph's label: no drawn race is not a race-free run.
    if let Some(missing) = super::incompleteness(r) {
        writeln!(
            s,
            "  label=\"locksmith: {}\";\n  labelloc=t;",
            escape(&missing)
        )?;
    }
    s.write_all(b"}\n")
}
