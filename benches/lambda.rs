//! Benchmark of `locksmith lambda` on generated λ▷ programs of about 1k, 10k and 100k AST nodes.
//!
//! The programs stress what the issue names: a deep chain of wrappers (each forwarding its lock and
//! location to the next), many call sites, functions that allocate a lock per call, a chain of
//! functions that each call the previous one twice (the effect doubles at every level, which the
//! paper's naive effect propagation would copy exponentially), and recursion. They are consistently
//! correlated, so every phase runs to completion.
//!
//! Run with `cargo bench --bench lambda`; it prints the median of several runs per size.

use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift), so every run measures the same programs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A consistent λ▷ program of roughly `target` AST nodes: the number of statements is scaled
/// once after measuring a first draft.
pub fn generate(target: usize) -> String {
    let draft = program(target, target / 8 + 1);
    let nodes = lambda_core::syntax::parse("draft.lam", &draft)
        .map(|p| p.exprs.len())
        .unwrap_or(target);
    let statements = (target / 8 + 1) as f64;
    let fixed = nodes.saturating_sub(statements as usize * 9);
    let per_statement = (nodes - fixed) as f64 / statements;
    let wanted = (target.saturating_sub(fixed) as f64 / per_statement).max(1.0) as usize;
    program(target, wanted)
}

fn program(target: usize, statements: usize) -> String {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target as u64);
    let locks = 8;
    let cells = 64;
    let depth = (target / 200).clamp(4, 200);
    let doubling = (target / 2000).clamp(3, 40);
    let mut s = String::new();
    for i in 0..locks {
        s.push_str(&format!("let g{i} = newlock in\n"));
    }
    for i in 0..cells {
        s.push_str(&format!("let c{i} = ref 0 in\n"));
    }
    s.push_str("let w0 = fun l -> fun p -> p :=[l] 1 in\n");
    for k in 1..depth {
        s.push_str(&format!(
            "let w{k} = fun l -> fun p -> (w{} l p; ![l] p) in\n",
            k - 1
        ));
    }
    s.push_str("let id = fun x -> x in\n");
    s.push_str("let mk = fun u -> (newlock, ref 0) in\n");
    s.push_str("let use = fun p -> p.2 :=[p.1] 2 in\n");
    s.push_str("let d0 = fun u -> newlock in\n");
    for k in 1..doubling {
        s.push_str(&format!(
            "let d{k} = fun u -> (d{} u; d{} u) in\n",
            k - 1,
            k - 1
        ));
    }
    s.push_str("let rec spin = fun n -> if0 ![g0] c0 then 0 else (c0 :=[g0] 0; spin n) in\n");
    for n in 0..statements {
        let c = rng.below(cells);
        let g = c % locks;
        let stmt = match rng.below(6) {
            0 | 1 => format!("w{} g{g} c{c}", rng.below(depth)),
            2 => format!("(id c{c}) :=[g{g}] 2"),
            3 => "use (mk 0)".to_string(),
            4 => format!("d{} 0", rng.below(doubling)),
            _ => "spin 0".to_string(),
        };
        s.push_str(&stmt);
        s.push_str(if n + 1 == statements { "\n" } else { ";\n" });
    }
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a size list may follow `--sizes`.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let n: usize = args
            .get(i + 1)
            .and_then(|a| a.parse().ok())
            .unwrap_or(1_000);
        print!("{}", generate(n));
        return;
    }
    let sizes: Vec<usize> = match args.iter().position(|a| a == "--sizes") {
        Some(i) => args[i + 1..]
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect(),
        None => vec![1_000, 10_000, 100_000],
    };
    println!(
        "{:>10} {:>10} {:>12} {:>12} {:>12} {:>8}",
        "target", "nodes", "parse", "check", "total", "verdict"
    );
    for target in sizes {
        let text = generate(target);
        let runs = if target >= 100_000 { 3 } else { 7 };
        let (mut parse_t, mut check_t, mut total_t) = (Vec::new(), Vec::new(), Vec::new());
        let mut nodes = 0;
        let mut verdict = String::new();
        for _ in 0..runs {
            let start = Instant::now();
            let program =
                lambda_core::syntax::parse("bench.lam", &text).expect("generated programs parse");
            let parsed = Instant::now();
            nodes = program.exprs.len();
            let (_, checked) =
                lambda_core::check::check(program).expect("generated programs type-check");
            let done = Instant::now();
            verdict = if checked.is_ok() {
                "ok".into()
            } else {
                format!("{} viol.", checked.solution.violations.len())
            };
            parse_t.push(parsed - start);
            check_t.push(done - parsed);
            total_t.push(done - start);
        }
        println!(
            "{:>10} {:>10} {:>12.3?} {:>12.3?} {:>12.3?} {:>8}",
            target,
            nodes,
            median(parse_t),
            median(check_t),
            median(total_t),
            verdict
        );
    }
}
