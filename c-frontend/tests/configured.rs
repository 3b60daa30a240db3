//! The lowering with a user's configured rows layered over the built-in model: a configured
//! function the program defines loses its body (except one that only never returns), its calls
//! follow the configured row, a try-lock that returns nonzero on success acquires on the other
//! edge, and argument positions are checked against the declarations.

use c_frontend::diagnostics::{FatalKind, Place};
use c_frontend::ir::dump::dump_func;
use c_frontend::ir::{FuncId, Origin, Program};
use c_frontend::lower::Lowerer;
use c_frontend::model::{
    Configured, ConfiguredArg, Expect, Kind, LockMode, Model, Role, TrySuccess,
};
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

/// A configured row naming the argument positions `args` (key, index, what it must be).
fn row(name: &str, role: Role, args: &[(&str, u8, Expect)]) -> Configured {
    Configured {
        name: name.into(),
        role,
        args: args
            .iter()
            .map(|&(key, index, expect)| ConfiguredArg {
                index,
                key: key.into(),
                expect,
                at: Some(Place {
                    file: "locksmith.toml".into(),
                    line: 7,
                    column: 8,
                }),
            })
            .collect(),
        at: None,
    }
}

fn lowerer(text: &str, rows: &[Configured]) -> (Lowerer, FileTable) {
    let mut files = FileTable::new();
    let mut lw = Lowerer::with_model(Model::with_configured(rows));
    let parse =
        lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), text.to_string())
            .unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let map = SourceMap::new(text, "u.c", &mut files);
    lw.add_unit(&parse.unit, &map, Origin::User);
    (lw, files)
}

fn lower(text: &str, rows: &[Configured]) -> Program {
    let (lw, files) = lowerer(text, rows);
    lw.check_configured()
        .expect("the rows fit the declarations");
    lw.finish(files, Vec::new())
}

fn func_id(p: &Program, name: &str) -> FuncId {
    p.funcs
        .indices()
        .find(|f| p.funcs[*f].name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

const LOCK_API: &str = "struct spin { int held; };
     static struct spin s;
     int g;
     void spin_lock(struct spin *l) { __asm__ volatile(\"\" : \"+m\"(l->held)); }
     static void *pool_get(unsigned long n) { g = 1; return 0; }
     void die(void) { g = 2; }
     int spin_try(struct spin *l);
     void user(void) {
         spin_lock(&s);
         pool_get(8);
         if (spin_try(&s)) g = 3;
         die();
         g = 4;
     }";

#[test]
fn configured_functions_lose_their_bodies_and_follow_the_row() {
    let lock = Role::Acquire {
        lock: 0,
        mode: LockMode::Exclusive,
    };
    let rows = [
        row("spin_lock", lock, &[("lock", 0, Expect::Pointer)]),
        row("pool_get", Role::Allocator, &[]),
        row("die", Role::NeverReturns, &[]),
    ];
    let p = lower(LOCK_API, &rows);
    let spin_lock = func_id(&p, "spin_lock");
    let pool_get = func_id(&p, "pool_get");
    let die = func_id(&p, "die");
    // The lock and the allocator (static, too) are modelled in place of their bodies.
    assert!(p.funcs[spin_lock].blocks.is_empty() && !p.funcs[spin_lock].defined);
    assert!(p.funcs[pool_get].blocks.is_empty());
    assert_eq!(p.configured, [spin_lock, pool_get]);
    assert_eq!(
        p.known_kind(spin_lock),
        Some(Kind::Acquire {
            lock: 0,
            mode: LockMode::Exclusive,
            waits: true,
        })
    );
    assert!(p.known(pool_get).is_some_and(|s| s.fresh_result));
    // A function that never returns keeps its body, and a call of it ends the path: `g = 4`
    // is never lowered.
    assert!(p.funcs[die].defined && !p.funcs[die].blocks.is_empty());
    assert_eq!(p.known(die), None);
    let user = dump_func(&p, func_id(&p, "user"));
    assert!(user.contains("call die()\n    exit\n"), "{user}");
    assert_eq!(user.matches("g = #int").count(), 1, "{user}");
    // Without the rows, every body stays and nothing is known about them.
    let plain = lower(LOCK_API, &[]);
    assert!(plain.configured.is_empty());
    assert!(!plain.funcs[func_id(&plain, "spin_lock")].blocks.is_empty());
    assert_eq!(plain.known(func_id(&plain, "spin_lock")), None);
}

#[test]
fn a_trylock_that_returns_nonzero_on_success_acquires_on_the_true_edge() {
    let try_row = |success| {
        row(
            "spin_try",
            Role::TryAcquire {
                lock: 0,
                mode: LockMode::Exclusive,
                success,
            },
            &[("lock", 0, Expect::Pointer)],
        )
    };
    let edge_of_assignment = |success| {
        let p = lower(LOCK_API, &[try_row(success)]);
        let user = dump_func(&p, func_id(&p, "user"));
        // The block that acquires, then the assignment `g = 3` it leads to on the edge taken.
        let branch = user
            .lines()
            .find(|l| l.contains("if tmp"))
            .unwrap_or_else(|| panic!("no test of the result:\n{user}"))
            .trim()
            .to_string();
        (branch, user)
    };
    let (nonzero, user) = edge_of_assignment(TrySuccess::Nonzero);
    let (zero, _) = edge_of_assignment(TrySuccess::Zero);
    assert!(user.contains("call __locksmith_acquire(&s)"), "{user}");
    // `if (spin_try(&s)) g = 3;`: the acquiring block is the then-edge for a try-lock that
    // returns nonzero when it took the lock, the else-edge for one that returns 0.
    assert_ne!(nonzero, zero);
    let then_target = |b: &str| b.split_whitespace().nth(3).unwrap().to_string();
    let acquiring = |user: &str, block: &str| {
        let at = user.find(&format!("  {block}:\n")).unwrap();
        user[at..]
            .lines()
            .nth(1)
            .unwrap()
            .contains("__locksmith_acquire")
    };
    assert!(acquiring(&user, &then_target(&nonzero)), "{user}");
}

#[test]
fn argument_positions_are_checked_against_the_declaration() {
    let check = |rows: &[Configured]| {
        let (lw, _) = lowerer(LOCK_API, rows);
        lw.check_configured()
    };
    let lock = Role::Acquire {
        lock: 1,
        mode: LockMode::Exclusive,
    };
    let past = check(&[row("spin_lock", lock, &[("lock", 1, Expect::Pointer)])]).unwrap_err();
    assert_eq!(past.kind, FatalKind::Config);
    assert_eq!(past.at.as_ref().map(|p| (p.line, p.column)), Some((7, 8)));
    assert!(
        past.message
            .contains("`lock = 1`: `spin_lock` is declared with 1 parameter"),
        "{}",
        past.message
    );
    let create = Role::ThreadCreate {
        routine: 0,
        argument: None,
        id: None,
    };
    let not_fn = check(&[row("spin_try", create, &[("routine", 0, Expect::Function)])]);
    assert!(not_fn
        .unwrap_err()
        .message
        .contains("parameter 0 of `spin_try` is not a pointer to a function"));
    // A function the program does not declare is not checked.
    assert!(check(&[row("elsewhere", lock, &[("lock", 5, Expect::Pointer)])]).is_ok());
}
