//! The differential oracle against ThreadSanitizer, as a test: random POSIX-threads
//! programs from `xtask/src/cgen/` are built with `-fsanitize=thread` and run, and every data
//! race TSan observes must be among locksmith's warnings on `main.c` (the rule is documented in
//! `xtask/src/cgen/oracle.rs` and in tests/README.md). A miss fails the test, naming the seed
//! and the directory the program was saved to (`$LOCKSMITH_ORACLE_SAVE`, by default
//! `locksmith-oracle-misses` in the temporary directory).
//!
//! Fifty programs are generated without the library idioms and twenty with them (a `lib.c` that
//! locksmith is not given: getters of shared objects, stored pointers, callbacks; modelled by
//! external memory). The test passes exactly when locksmith finds every race TSan observes in
//! them. Long runs are `cargo xtask tsan-differential --programs N`.
//!
//! The test skips (says why on stderr and passes, or fails with `LOCKSMITH_REQUIRE_TOOLS=1`)
//! when `gcc -fsanitize=thread` cannot build and run a trivial program on this machine.

mod support;

use std::path::PathBuf;
use std::process::Command;

use xtask::cgen::oracle::{self, Anchored, Config, Observed, Outcome};
use xtask::cgen::{self, tsan, Options};

/// The programs checked, by seed and options: each takes about a second (build, four runs,
/// locksmith). Seed 200 is the first to carry a worker's range with a remainder, 121 a work
/// queue in an object.
fn cases() -> Vec<(u64, Options)> {
    let plain = (0..60)
        .chain([121, 200])
        .map(|seed| (seed, Options::new(false)));
    let library = (1000..1020).map(|seed| (seed, Options::new(true)));
    plain.chain(library).collect()
}

/// What went wrong with one program, or nothing.
fn failures(o: &Outcome) -> Vec<String> {
    let saved = o
        .saved
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut out: Vec<String> = o
        .misses
        .iter()
        .map(|m| {
            format!(
                "seed {}: locksmith misses {} [{}; {}], saved in {saved}",
                o.seed,
                m.race.describe(),
                m.pattern,
                m.cause
            )
        })
        .collect();
    out.extend(o.missed_deadlocks.iter().map(|d| {
        format!(
            "seed {}: locksmith misses the deadlock of the lock calls on main.c lines {:?}, \
             saved in {saved}",
            o.seed, d.lines
        )
    }));
    out.extend(
        o.problems
            .iter()
            .map(|p| format!("seed {}: {p} (saved in {saved})", o.seed)),
    );
    out
}

#[test]
fn every_race_tsan_observes_is_among_locksmiths_warnings() {
    if let Err(why) = tsan::available() {
        support::skip(
            "tsan_differential::every_race_tsan_observes_is_among_locksmiths_warnings",
            &format!("gcc -fsanitize=thread cannot build and run a trivial program here: {why}"),
        );
        return;
    }
    let mut config = Config::new();
    if let Some(dir) = std::env::var_os("LOCKSMITH_ORACLE_SAVE") {
        config.save = PathBuf::from(dir);
    }
    // Two programs at a time: most of the time is spent waiting for gcc and the TSan runs.
    let cases = cases();
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let halves: Vec<_> = cases
            .chunks(cases.len().div_ceil(2))
            .map(|chunk| {
                let config = &config;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(seed, options)| oracle::check(seed, options, config))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("an oracle thread panicked"))
            .collect()
    });
    let _ = std::fs::remove_dir(&config.work);
    let observed: usize = outcomes.iter().map(|o| o.observed.len()).sum();
    let racy = outcomes.iter().filter(|o| !o.observed.is_empty()).count();
    println!(
        "{} programs, {racy} raced, {observed} TSan-observed races checked",
        outcomes.len()
    );
    let problems: Vec<String> = outcomes.iter().flat_map(failures).collect();
    assert!(
        problems.is_empty(),
        "{} of {observed} observed races missed or failed:\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn a_seed_always_gives_the_same_program() {
    for seed in 0..20 {
        for library in [false, true] {
            let options = Options::new(library);
            let a = cgen::generate(seed, options).sources;
            let b = cgen::generate(seed, options).sources;
            assert_eq!(a, b, "seed {seed}");
        }
    }
    assert_ne!(
        cgen::generate(1, Options::new(false)).sources,
        cgen::generate(2, Options::new(false)).sources
    );
}

#[test]
fn programs_without_the_library_option_use_no_library_idiom() {
    for seed in 0..100 {
        let p = cgen::generate(seed, Options::new(false)).sources;
        assert!(p.lib_c.is_empty(), "seed {seed} has a lib.c");
        assert!(!p.main_c.contains("lib_"), "seed {seed} calls the library");
    }
}

/// How many of the checked cases' `main.c` files contain a text.
fn occurrences() -> impl Fn(&str) -> usize {
    let sources: Vec<String> = cases()
        .into_iter()
        .map(|(seed, options)| cgen::generate(seed, options).sources.main_c)
        .collect();
    move |needle: &str| sources.iter().filter(|s| s.contains(needle)).count()
}

/// The checked cases carry the heap-handles idiom (thread ids in heap handles joined by
/// handle, directly and through a thread library's launch and join wrappers, records from an
/// allocator kept in a pointer and from a reallocation wrapper), and some of them race on it.
#[test]
fn the_checked_cases_carry_heap_handles() {
    let with = occurrences();
    assert!(with("struct hho") >= 2, "{}", with("struct hho"));
    assert!(with("void *(*hhf") >= 1 && with("ptr = realloc(ptr, size);") >= 1);
    assert!(with("pthread_create(&h->id, NULL, fn, NULL)") >= 1 && with("pthread_join(hhp") >= 1);
    assert!(with("    hhs0[k] = hhl0(hhw0);") + with("    hhs1[k] = hhl1(hhw1);") >= 1);
}

/// The checked cases carry the join-tree idiom (workers starting and joining their children,
/// `main` joining the root), with and without a detached subtree.
#[test]
fn the_checked_cases_carry_join_trees() {
    let with = occurrences();
    assert!(with("pthread_create(&l, NULL, jtn") >= 2);
    assert!(with("pthread_detach(r);") >= 1);
}

/// The checked cases carry the hand-shake idiom (a flag set under a mutex once the producer's
/// work is done, or before it, or a semaphore posted then), `main` waiting for it or, in some,
/// `main` the producer.
#[test]
fn the_checked_cases_carry_handshakes() {
    let with = occurrences();
    assert!(with("void *hsp") >= 2, "{}", with("void *hsp"));
    assert!(with("sem_wait(&hss") >= 1);
    assert!(with("    sem_wait(&cjs") >= 1);
    // `main` signals, the thread waits.
    assert!(
        with("(void)arg;\n    sem_wait(&hss") + with("(void)arg;\n    pthread_mutex_lock(&hsm")
            >= 1
    );
}

/// The checked cases carry the thread-pool idiom (workers started by a pool's create wrapper
/// and joined by its join wrapper, their ids in a block of `pthread_t` or in worker structs),
/// with a join loop that starts one late in some.
#[test]
fn the_checked_cases_carry_pools() {
    let with = occurrences();
    assert!(with("pthread_join(q->threads[j], NULL);") >= 1);
    assert!(with("pthread_join(q->threads[j].tid, NULL);") >= 1);
    assert!(with("for (int j = 1; j < q->size; j++)") >= 1);
}

/// The checked cases carry fresh jobs handed to workers and read back by the join loop through
/// the local array of pointers that keeps them, directly and through a local copy.
#[test]
fn the_checked_cases_carry_jobs() {
    let with = occurrences();
    assert!(with("] = malloc(sizeof *oja") >= 1);
    assert!(with("] = x;") >= 1);
    assert!(with("->out;") >= 1);
}

/// The checked cases carry slots named by the workers' arguments: by an `id` field, through a
/// pointer field, by the value handed on to a helper, in a block a global pointer holds, and
/// as a range of elements the value selects or the element's bounds give, and in objects of
/// their own that a block's elements point to.
#[test]
fn the_checked_cases_carry_slots() {
    let with = occurrences();
    assert!(with("int id = a->id;") >= 1);
    assert!(with("*a->out += i;") >= 1);
    assert!(with("(id, i);") >= 1);
    assert!(with("= calloc(3, sizeof *slb") >= 1);
    assert!(with("r < end; r++)") >= 1);
    assert!(with("r < a->hi; r++)") >= 1);
    assert!(with("[id]->n += i;") >= 1);
}

/// The checked cases carry batches of workers a thread library keeps in a list it empties by
/// joining, or that create and join loops start and join, under a gate created lazily per
/// batch, with and without threads started beside them with a plain create, and with more
/// than one batch.
#[test]
fn the_checked_cases_carry_batches() {
    let with = occurrences();
    assert!(with("    bp") >= 2, "{}", with("    bp"));
    assert!(
        with("        pthread_join(bwt") >= 1,
        "{}",
        with("        pthread_join(bwt")
    );
    assert!(with("void *bz") >= 1);
    assert!(
        with("for (int bb = 0; bb < 2; bb++) {") + with("for (int bb = 0; bb < 3; bb++) {") >= 1
    );
}

/// The idiom of a global of `main.c` handed back by a library getter is among the library
/// idioms, and only there.
#[test]
fn the_unknown_globals_idiom_comes_with_the_library() {
    let mut seen = 0;
    for seed in 0..100 {
        let p = cgen::generate(seed, Options::new(false)).sources;
        assert!(!p.main_c.contains("lib_get_s"), "seed {seed}");
        seen += usize::from(
            cgen::generate(seed, Options::new(true))
                .sources
                .main_c
                .contains("lib_get_s"),
        );
    }
    assert!(seen > 0, "the idiom never occurs with the library");
}

#[test]
fn programs_are_small() {
    for seed in 0..200 {
        for library in [false, true] {
            let p = cgen::generate(seed, Options::new(library)).sources;
            let lines = p.main_c.lines().count();
            // Up to 300 lines of pool code, up to two idioms of at most about 55 lines each, and
            // the idioms drawn after them, each in few programs (batches about 75 lines, the
            // launcher about 60, turns through a lock object on the heap about 95).
            assert!((50..=600).contains(&lines), "seed {seed}: {lines} lines");
        }
    }
}

/// Every generated program compiles without a warning under `-Wall -Wextra` (skipped without
/// gcc; the oracle itself builds with `-Werror` too).
#[test]
fn programs_compile_without_warnings() {
    let dir = std::env::temp_dir().join(format!("locksmith-cgen-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    if Command::new("gcc").arg("--version").output().is_err() {
        support::skip(
            "tsan_differential::programs_compile_without_warnings",
            "gcc is not installed",
        );
        return;
    }
    for seed in 0..30 {
        for options in [Options::new(false), Options::new(true)] {
            let library = options.library;
            let p = cgen::generate(seed, options).sources;
            for (name, text) in [("main.c", &p.main_c), ("lib.c", &p.lib_c)] {
                if text.is_empty() {
                    continue;
                }
                let path = dir.join(name);
                std::fs::write(&path, text).unwrap();
                let out = Command::new("gcc")
                    .args([
                        "-std=gnu11",
                        "-Wall",
                        "-Wextra",
                        "-Werror",
                        "-O1",
                        "-pthread",
                    ])
                    .args(["-c", "-o", "/dev/null"])
                    .arg(&path)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "seed {seed} (library {library}), {name}:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A report as gcc's TSan prints it: an access in `lib.c` called from `main.c`, and a previous
/// access whose stack could not be restored in the second report.
const REPORT: &str = "\
==================
WARNING: ThreadSanitizer: data race (pid=1)
  Write of size 4 at 0x7b0400000010 by thread T2:
    #0 lib_add /tmp/x/lib.c:60 (prog+0x1a2b)
    #1 h1 /tmp/x/main.c:101 (prog+0x1b2c)
    #2 worker0 /tmp/x/main.c:140:9 (prog+0x1c3d)

  Previous read of size 4 at 0x7b0400000010 by main thread (mutexes: write M0):
    #0 main /tmp/x/main.c:180 (prog+0x1d4e)

  Location is heap block of size 240 at 0x7b0400000000 allocated by main thread:
    #0 malloc ../../../../src/libsanitizer/tsan/tsan_interceptors_posix.cpp:647 (libtsan.so.2+0x3ebb8)
    #1 xmalloc /tmp/x/main.c:40 (prog+0x130d)
    #2 main /tmp/x/main.c:110 (prog+0x1496)

SUMMARY: ThreadSanitizer: data race /tmp/x/lib.c:60 in lib_add
==================
==================
WARNING: ThreadSanitizer: data race (pid=1)
  Read of size 4 at 0x55ddb173a190 by thread T1:
    #0 worker0 /tmp/x/main.c:69 (prog+0x1240)

  Previous write of size 4 at 0x55ddb173a190 by thread T2:
    [failed to restore the stack]

  Location is global 'g1' of size 4 at 0x55ddb173a190 (prog+0x4190)

SUMMARY: ThreadSanitizer: data race /tmp/x/main.c:69 in worker0
==================
==================
WARNING: ThreadSanitizer: unlock of an unlocked mutex (or by a wrong thread) (pid=1)
==================
";

#[test]
fn tsan_reports_are_read_and_anchored_in_main_c() {
    let r = tsan::parse(REPORT);
    assert_eq!(r.races.len(), 2);
    assert_eq!(
        r.others,
        vec!["unlock of an unlocked mutex (or by a wrong thread) (pid=1)"]
    );
    let race = &r.races[0];
    assert_eq!(race.location, "heap block");
    assert_eq!(race.allocated_by, vec!["malloc", "xmalloc", "main"]);
    assert_eq!(
        oracle::anchor(&race.current),
        Some(Anchored {
            line: 101,
            site: "lib.c:60".into(),
            write: true
        })
    );
    let (observed, unanchored) = oracle::observed(&r.races);
    assert_eq!(unanchored, 1);
    assert_eq!(observed.len(), 1);
    assert_eq!(observed[0].lines(), (101, 180));
    assert_eq!(
        observed[0].describe(),
        "main.c:101 via lib.c:60 (write) / main.c:180 (read) on heap block"
    );
    assert_eq!(
        oracle::pattern(&observed[0], ""),
        "heap via xmalloc, through lib_add"
    );
}

#[test]
fn a_race_is_covered_by_one_warning_listing_both_lines() {
    let r = tsan::parse(REPORT);
    let (observed, _) = oracle::observed(&r.races);
    let race: &Observed = &observed[0];
    let warning = |lines: &[u32]| lines.iter().map(|&l| (l, true)).collect();
    assert!(oracle::covered(race, &[warning(&[101, 180, 7])]));
    // Both lines warned, but on two different locations: not covered.
    assert!(!oracle::covered(race, &[warning(&[101]), warning(&[180])]));
    assert!(!oracle::covered(race, &[]));
}

/// A lock-order inversion as TSan prints one (rule 5), with the hint line it adds.
const INVERSION: &str = "\
==================
WARNING: ThreadSanitizer: lock-order-inversion (potential deadlock) (pid=7)
  Cycle in lock order graph: M0 (0x5600000000c0) => M1 (0x560000000080) => M0

  Mutex M1 acquired here while holding mutex M0 in thread T1:
    #0 pthread_mutex_lock ../sanitizer_common_interceptors.inc:4324 (libtsan.so.2+0x558e1)
    #1 dlx0 /tmp/x/main.c:212 (prog+0x1223)

    Hint: use TSAN_OPTIONS=second_deadlock_stack=1 to get more informative warning message

  Mutex M0 acquired here while holding mutex M1 in thread T2:
    #0 pthread_mutex_lock ../sanitizer_common_interceptors.inc:4324 (libtsan.so.2+0x558e1)
    #1 dly0 /tmp/x/main.c:230 (prog+0x12a3)

  Thread T1 (tid=9, finished) created by main thread at:
    #0 pthread_create ../tsan_interceptors_posix.cpp:1001 (libtsan.so.2+0x5e686)
    #1 main /tmp/x/main.c:300 (prog+0x1386)

SUMMARY: ThreadSanitizer: lock-order-inversion (potential deadlock) /tmp/x/main.c:212 in dlx0
==================
";

#[test]
fn lock_order_inversions_are_read_and_covered_by_one_deadlock_listing_every_call() {
    let r = tsan::parse(INVERSION);
    assert!(r.races.is_empty() && r.others.is_empty(), "{r:?}");
    assert_eq!(r.inversions.len(), 1);
    // The two lock calls of the cycle, not the stacks of the threads' creation.
    assert_eq!(r.inversions[0].calls.len(), 2);
    let (observed, unanchored) = oracle::observed_deadlocks(&r.inversions);
    assert_eq!(unanchored, 0);
    assert_eq!(observed.len(), 1);
    assert_eq!(
        observed[0].lines.iter().copied().collect::<Vec<_>>(),
        [212, 230]
    );
    let deadlock = |lines: &[u32]| lines.iter().copied().collect();
    assert!(oracle::deadlock_covered(
        &observed[0],
        &[deadlock(&[212, 230, 240])]
    ));
    // Both lines reported, but in two deadlocks: not covered.
    assert!(!oracle::deadlock_covered(
        &observed[0],
        &[deadlock(&[212]), deadlock(&[230])]
    ));
    assert!(!oracle::deadlock_covered(&observed[0], &[]));
}

/// The checked cases carry two locks taken in opposite orders where one is taken through a
/// wrapper that locks only a non-null mutex, handed the mutex or `NULL` under a flag in some
/// (a lock held after the wrapper's return on some paths only).
#[test]
fn the_checked_cases_carry_lock_orders_through_conditional_wrappers() {
    let with = occurrences();
    assert!(with("static void dlw") >= 2, "{}", with("static void dlw"));
    assert!(with(" : NULL);\n") >= 1, "{}", with(" : NULL);\n"));
}

/// The checked cases carry a work queue of linked lists under one mutex (tasks appended or
/// pushed by `main`, taken off and pushed back by workers), with a late write after the push
/// and a thread peeking at the first task in some.
#[test]
fn the_checked_cases_carry_queues() {
    let with = occurrences();
    assert!(with("        ql0->next = t;") + with("        ql1->next = t;") >= 1);
    assert!(with("    t->next = qh0;") + with("    t->next = qh1;") >= 1);
    assert!(with("        t->out += 1;\n") >= 1);
    assert!(with("void *qp") >= 1);
    assert!(with("struct qo0 *q = arg;") + with("struct qo1 *q = arg;") >= 1);
}

/// The checked cases carry lock calls through the members of a table of methods and through
/// plain pointers, and a join through a pointer, each of which `main` may replace by a no-op
/// under a test the analysis cannot decide, and in some replaces.
#[test]
fn the_checked_cases_carry_methods() {
    let with = occurrences();
    assert!(with(".enter(&mtm") >= 1, "{}", with(".enter(&mtm"));
    assert!(with("int (*mte") >= 1, "{}", with("int (*mte"));
    assert!(with("if (getpid() > 0) {") >= 1);
    assert!(with("if (getpid() < 0) {") >= 1);
}

/// The checked cases carry state machines of two and three states whose waiter waits for the
/// last, stored after the producer's work or before it.
#[test]
fn the_checked_cases_carry_state_machines() {
    let with = occurrences();
    assert!(with(" != 2)\n        pthread_cond_wait(&smc") >= 1);
    assert!(with(" != 3)\n        pthread_cond_wait(&smc") >= 1);
    assert!(
        with("    pthread_mutex_unlock(&smm0);\n    for")
            + with("    pthread_mutex_unlock(&smm1);\n    for")
            >= 1
    );
}

/// The checked cases carry helpers that start and join the threads of an array `main` hands
/// them, with `main` reading the workers' results after the join helper or before it.
#[test]
fn the_checked_cases_carry_array_helpers() {
    let with = occurrences();
    assert!(with("void ahj") >= 2, "{}", with("void ahj"));
    assert!(with("\n    ahj0(aht0, 3);\n    for") + with("\n    ahj1(aht1, 3);\n    for") >= 1);
}

/// The checked cases carry locks behind members (stashes whose gates, made by a constructor
/// and stored by `main`, are taken through wrappers handed the member), with a worker adding
/// to another stash under its own gate, and `main` replacing a gate after the joins.
#[test]
fn the_checked_cases_carry_locks_behind_members() {
    let with = occurrences();
    assert!(with("    gth") >= 2, "{}", with("    gth"));
    assert!(
        (0..4)
            .map(|n| with(&format!("gs{n}[0].count += 1;")))
            .sum::<usize>()
            >= 1
    );
    assert!(
        (0..4)
            .map(|n| with(&format!("\n    gs{n}[0].have = gtn{n}();")))
            .sum::<usize>()
            >= 1
    );
}
