//! Small λ▷ terms with their generated constraints and solution, in the paper's notation.
//! Each snapshot was checked by hand against figures 5–8; `UPDATE_EXPECT=1` rewrites them.

use expect_test::{expect, Expect};
use locksmith::lambda::{self, LambdaOptions};

fn check(src: &str, expected: Expect) {
    let out = lambda::run(
        "t.lam",
        src,
        &LambdaOptions {
            constraints: true,
            ..Default::default()
        },
    );
    expected.assert_eq(&format!("exit {}\n{}{}", out.exit, out.stdout, out.stderr));
}

/// \[Assign\] generates `ρ ▷ ℓ`; \[Newlock\] puts the lock in the effect.
#[test]
fn assignment_under_a_lock() {
    check(
        "let l = newlock in let x = ref 0 in x :=[l] 1",
        expect![[r#"
        exit 0
        constraints:
          ρ0 ≤ ρ1
          ℓ0 = ℓ1
          ρ1 ▷ ℓ1   (write at 1:37)
          ∅ ≤_l⃗ χ0
          χ0 ≤_l⃗ χ1
        solution:
          ℓ1 = {ℓ0, ℓ1}
          ρ0 ▷ ℓ1   (at the root)
          ρ1 ▷ ℓ1   (at the root)
        t.lam: well typed, consistently correlated and linear
    "#]],
    );
}

/// \[Inst\] at two sites of the identity: matched flow gives one summary edge per site, and the
/// two references stay apart.
#[test]
fn identity_gives_summary_edges() {
    check(
        "let id = fun r -> r in let a = ref 0 in let b = ref 0 in let l = newlock in (id a) :=[l] 1; (id b) :=[l] 2",
        expect![[r#"
            exit 0
            constraints:
              ρ1 ≤ ρ2
              ρ3 ≤ ρ4
              ρ2 ≤ ρ5
              ρ4 ≤ ρ7
              ρ0 ⪯-0 ρ5
              ρ0 ⪯+0 ρ6
              ρ0 ⪯-1 ρ7
              ρ0 ⪯+1 ρ8
              ℓ0 = ℓ1
              ρ6 ▷ ℓ1   (write at 1:77)
              ρ8 ▷ ℓ1   (write at 1:93)
              ∅ ≤_l⃗ χ0
              χ2 ≤_l⃗ χ3
              (χ1 ⊎ χ3) ≤_l⃗ χ4
              ({ℓ0} ⊎ χ4) ≤_l⃗ χ5
              χ5 ≤_l⃗ χ6
              χ0 ⪯+0 χ1
              χ0 ⪯+1 χ2
            solution:
              ℓ1 = {ℓ0, ℓ1}
              ρ5 ≤ ρ6   (matched flow)
              ρ7 ≤ ρ8   (matched flow)
              χ5 = {ℓ1}
              χ6 = {ℓ1}
              ρ0 ▷ ℓ1   (at the root, copy of call 0)
              ρ0 ▷ ℓ1   (at the root, copy of call 1)
              ρ1 ▷ ℓ1   (at the root)
              ρ2 ▷ ℓ1   (at the root)
              ρ3 ▷ ℓ1   (at the root)
              ρ4 ▷ ℓ1   (at the root)
              ρ5 ▷ ℓ1   (at the root)
              ρ6 ▷ ℓ1   (at the root)
              ρ7 ▷ ℓ1   (at the root)
              ρ8 ▷ ℓ1   (at the root)
            t.lam: well typed, consistently correlated and linear
        "#]],
    );
}

/// Semi-unification (figure 8a): `dup` returns its lock twice, so both components of the result
/// are the same lock.
#[test]
fn semi_unification_merges_the_images() {
    check(
        "let dup = fun l -> (l, l) in let p = dup newlock in p.1",
        expect![[r#"
        exit 0
        constraints:
          ℓ4 = ℓ1
          ℓ2 = ℓ5
          ℓ3 = ℓ6
          ℓ0 ⪯0 ℓ1
          ℓ0 ⪯0 ℓ2
          ℓ0 ⪯0 ℓ3
          ∅ ≤_l⃗ χ0
          ∅ ≤_l⃗ χ2
          χ0 ⪯+0 χ1
        solution:
          ℓ6 = {ℓ1, ℓ2, ℓ3, ℓ4, ℓ5, ℓ6}
        t.lam: well typed, consistently correlated and linear
    "#]],
    );
}

/// Effect instantiation (figure 8c): each call of `g` allocates a fresh lock, materialised
/// because a correlation crosses the call.
#[test]
fn each_call_allocates_a_fresh_lock() {
    check(
        "let x = ref 0 in let g = fun u -> x :=[newlock] 1 in g 0; g 0",
        expect![[r#"
        exit 1
        error: location ρ0 (`ref` at 1:9) is not consistently correlated
          holding ℓ1 (the lock ℓ0 allocates in the call of `g` at 1:54):
            write at t.lam:1:35    let x = ref 0 in let g = fun u -> x :=[newlock] 1 in g 0; g 0
              via `g` at 1:54
          holding ℓ2 (the lock ℓ0 allocates in the call of `g` at 1:59):
            write at t.lam:1:35    let x = ref 0 in let g = fun u -> x :=[newlock] 1 in g 0; g 0
              via `g` at 1:59
        constraints:
          ρ0 ≤ ρ1
          ρ1 ▷ ℓ0   (write at 1:35)
          {ℓ0} ≤_l⃗ χ0
          χ2 ≤_l⃗ χ3
          (χ1 ⊎ χ3) ≤_l⃗ χ4
          χ0 ⪯+0 χ1
          χ0 ⪯+1 χ2
        solution:
          ℓ0 ⪯0 ℓ1   (fresh lock of the call)
          ℓ0 ⪯1 ℓ2   (fresh lock of the call)
          χ0 = {ℓ0}
          χ1 = {ℓ1}
          χ2 = {ℓ2}
          χ3 = {ℓ2}
          χ4 = {ℓ1, ℓ2}
          ρ0 ▷ ℓ1   (at the root)
          ρ0 ▷ ℓ2   (at the root)
          ρ1 ▷ ℓ1   (at the root)
          ρ1 ▷ ℓ2   (at the root)
        t.lam: 1 violation
    "#]],
    );
}

/// \[Fix\]: a recursive function whose lock does not escape has an empty effect.
#[test]
fn recursion_with_a_local_lock() {
    check(
        "let rec f = fun x -> let l = newlock in let y = ref 0 in y :=[l] 1; if0 x then 0 else f 0 in f 1",
        expect![[r#"
            exit 0
            constraints:
              ρ0 ≤ ρ1
              ℓ0 = ℓ1
              ρ1 ▷ ℓ1   (write at 1:58)
              χ5 ≤ χ0
              (∅ ∪ χ1) ≤_l⃗ χ2
              χ2 ≤_l⃗ χ3
              χ3 ≤_l⃗ χ4
              ({ℓ0} ⊎ χ4) ≤_l⃗ χ5
              χ0 ⪯+0 χ1
              χ0 ⪯+1 χ6
              effect(χ0) = ∅
            solution:
              ℓ1 = {ℓ0, ℓ1}
              ρ0 ▷ ℓ1   (at the root)
              ρ1 ▷ ℓ1   (at the root)
            t.lam: well typed, consistently correlated and linear
        "#]],
    );
}

/// §3.3: pack maps relate the unpacked labels to each pack site's labels.
#[test]
fn pack_sites_keep_their_pairs() {
    check(
        "let p = if0 0 then pack (newlock, ref 0) else pack (newlock, ref 1) in unpack (l, r) = p in r :=[l] 2",
        expect![[r#"
            exit 0
            constraints:
              ρ0 ≤ ρ2   (package)
              ρ1 ≤ ρ2   (package)
              ℓ2 ⪯0 ℓ0   (pack)
              ℓ2 ⪯1 ℓ1   (pack)
              ρ2 ⪯0 ρ0   (pack)
              ρ2 ⪯1 ρ1   (pack)
              ρ2 ▷ ℓ2   (write at 1:93)
              ∅ ≤_l⃗ χ0
            solution:
              ρ0 ▷ ℓ0   (at the root)
              ρ1 ▷ ℓ1   (at the root)
              ρ2 ▷ ℓ2   (at the root)
            t.lam: well typed, consistently correlated and linear
        "#]],
    );
}
