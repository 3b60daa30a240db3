//! The differential oracle against ThreadSanitizer, at scale: generates `N` random POSIX-threads
//! programs (`xtask/src/cgen/`), runs each under TSan and locksmith, and prints every race
//! TSan observed that locksmith did not warn about (the rule is in `xtask/src/cgen/oracle.rs`
//! and tests/README.md).
//!
//! ```text
//! cargo xtask tsan-differential --programs N [--seed S] [--no-library] [--save DIR] [--jobs J]
//!     [--runs R] [--write DIR]
//! ```
//!
//! `--write DIR` only writes the programs (`DIR/seed-S-lib/main.c`, …) and checks nothing.
//!
//! Program `k` has seed `S + k`; `--programs 1 --seed S` reruns one. Results are printed in seed
//! order whatever the job that finished first.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use xtask::cgen::oracle::{self, Config, Outcome};
use xtask::cgen::{self, Options};

/// The command line.
struct Args {
    programs: usize,
    seed: u64,
    options: Options,
    jobs: usize,
    config: Config,
    write: Option<PathBuf>,
}

fn usage() -> ! {
    eprintln!(
        "usage: cargo xtask tsan-differential --programs N [--seed S] [--no-library] [--save DIR] [--jobs J] [--runs R] [--write DIR]"
    );
    std::process::exit(2)
}

fn parse(args: Vec<String>) -> Args {
    let mut a = Args {
        programs: 100,
        seed: 0,
        options: Options::new(true),
        jobs: 2,
        config: Config::new(),
        write: None,
    };
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--programs" => a.programs = value().parse().unwrap_or_else(|_| usage()),
            "--seed" => a.seed = value().parse().unwrap_or_else(|_| usage()),
            "--jobs" => a.jobs = value().parse().unwrap_or_else(|_| usage()),
            "--runs" => a.config.runs = value().parse().unwrap_or_else(|_| usage()),
            "--save" => a.config.save = PathBuf::from(value()),
            "--write" => a.write = Some(PathBuf::from(value())),
            "--no-library" => a.options.library = false,
            _ => usage(),
        }
    }
    a.jobs = a.jobs.max(1);
    a
}

/// One line per program, in seed order.
fn progress(k: usize, total: usize, o: &Outcome) {
    let mut line = format!(
        "[{}/{total}] seed {}: {} race(s) observed, {} warning(s), {} miss(es)",
        k + 1,
        o.seed,
        o.observed.len(),
        o.warnings,
        o.misses.len()
    );
    if o.inversions > 0 {
        line.push_str(&format!(
            ", {} lock-order inversion(s), {} missed",
            o.inversions,
            o.missed_deadlocks.len()
        ));
    }
    if !o.problems.is_empty() {
        line.push_str(&format!(", {} problem(s)", o.problems.len()));
    }
    println!("{line}");
}

/// Writes the programs without checking them.
fn write_only(a: &Args, dir: &std::path::Path) {
    for k in 0..a.programs {
        let p = cgen::generate(a.seed + k as u64, a.options);
        let d = dir.join(format!("seed-{}-{}", p.seed, oracle::tag(a.options)));
        let written = std::fs::create_dir_all(&d)
            .and_then(|()| std::fs::write(d.join("main.c"), &p.sources.main_c))
            .and_then(|()| match p.sources.lib_c.is_empty() {
                true => Ok(()),
                false => std::fs::write(d.join("lib.c"), &p.sources.lib_c),
            });
        if let Err(e) = written {
            eprintln!("{}: {e}", d.display());
            std::process::exit(2);
        }
        println!("{}", d.display());
    }
}

/// Runs the task on its arguments (those after `tsan-differential`).
pub fn main(args: Vec<String>) {
    let a = parse(args);
    if let Some(dir) = &a.write {
        write_only(&a, dir);
        return;
    }
    if let Err(why) = cgen::tsan::available() {
        eprintln!("gcc -fsanitize=thread does not work here: {why}");
        std::process::exit(2);
    }
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    let config = Arc::new(a.config.clone());
    let mut workers = Vec::new();
    for _ in 0..a.jobs {
        let (next, tx, config) = (next.clone(), tx.clone(), config.clone());
        let (total, seed, options) = (a.programs, a.seed, a.options);
        workers.push(std::thread::spawn(move || loop {
            let k = next.fetch_add(1, Ordering::SeqCst);
            if k >= total {
                break;
            }
            let outcome = oracle::check(seed + k as u64, options, &config);
            if tx.send((k, outcome)).is_err() {
                break;
            }
        }));
    }
    drop(tx);
    // Outcomes arrive in any order; they are printed in seed order as soon as all earlier ones
    // are in.
    let mut pending = BTreeMap::new();
    let mut done = Vec::new();
    for (k, outcome) in rx {
        pending.insert(k, outcome);
        while let Some(o) = pending.remove(&done.len()) {
            progress(done.len(), a.programs, &o);
            done.push(o);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    // Each program's directory is gone already; the now empty work directory goes too.
    let _ = std::fs::remove_dir(&config.work);
    summary(&done, started.elapsed(), &a);
}

fn summary(done: &[Outcome], elapsed: Duration, a: &Args) {
    let races: usize = done.iter().map(|o| o.observed.len()).sum();
    let racy = done.iter().filter(|o| !o.observed.is_empty()).count();
    let unanchored: usize = done.iter().map(|o| o.unanchored).sum();
    let misses: usize = done.iter().map(|o| o.misses.len()).sum();
    let tsan: Duration = done.iter().map(|o| o.tsan_time).sum();
    let locksmith: Duration = done.iter().map(|o| o.locksmith_time).sum();
    let n = done.len().max(1) as u32;
    println!();
    println!(
        "{} programs (seeds {}..{}, library idioms {}), {} jobs, {:.1?} in all",
        done.len(),
        a.seed,
        a.seed + done.len() as u64,
        if a.options.library { "on" } else { "off" },
        a.jobs,
        elapsed
    );
    println!(
        "per program: {:.2?} building and running under TSan, {:.2?} in locksmith",
        tsan / n,
        locksmith / n
    );
    println!("{racy} programs raced; {races} TSan-observed races checked ({unanchored} reports unanchored)");
    println!(
        "{misses} missed race(s) in {} program(s)",
        done.iter().filter(|o| !o.misses.is_empty()).count()
    );
    let inversions: usize = done.iter().map(|o| o.inversions).sum();
    let missed: usize = done.iter().map(|o| o.missed_deadlocks.len()).sum();
    println!(
        "{inversions} TSan-observed lock-order inversions checked, {missed} missed deadlock(s)"
    );
    // Misses grouped by cause, then by the idioms they go through, with the first seed of each.
    let mut causes: BTreeMap<&str, BTreeMap<&str, (usize, u64)>> = BTreeMap::new();
    for o in done {
        for m in &o.misses {
            let group = causes.entry(m.cause).or_default();
            group.entry(&m.pattern).or_insert((0, o.seed)).0 += 1;
        }
    }
    for (cause, patterns) in &causes {
        let total: usize = patterns.values().map(|(n, _)| n).sum();
        println!("  {total} miss(es): {cause}");
        for (pattern, (count, seed)) in patterns {
            println!("    {count:5}: {pattern} (first: seed {seed})");
        }
    }
    for o in done {
        let saved = o
            .saved
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        for m in &o.misses {
            println!(
                "  miss: seed {}: {} [{}; {}] {saved}",
                o.seed,
                m.race.describe(),
                m.pattern,
                m.cause
            );
        }
        for d in &o.missed_deadlocks {
            println!(
                "  missed deadlock: seed {}: lock calls {} {saved}",
                o.seed,
                d.calls()
            );
        }
        for p in &o.problems {
            let first = p.lines().next().unwrap_or("");
            println!("  problem: seed {}: {first}  [{saved}]", o.seed);
        }
    }
}
