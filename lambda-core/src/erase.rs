//! The baseline without existential types (`--no-existentials`, the `Exist` column of the paper's
//! table 3): every `pack e` becomes `e`, and every `unpack (x, y) = e1 in e2` becomes a monomorphic
//! destructuring of the pair, `(fun p -> (fun x -> (fun y -> e2) p.2) p.1) e1`.
//!
//! Without the existential, the labels of every pair packed and unpacked at one place are
//! conflated by ordinary flow (§3.3: "ℓ₁ and ℓ₂ would have been non-linear"), which is exactly
//! what the switch is meant to measure. The rewrite works on the syntax tree so that inference,
//! the solver and the reports need not know about the switch. It never touches the caller's
//! program: it returns a new one with the same source and spans.

use crate::ast::{Binder, Expr, ExprId, ExprKind, Program};

/// The name bound to the package while its halves are taken apart. It contains `%`, which no
/// λ▷ identifier can, so it never captures a name of the program.
const PACKAGE: &str = "%package";

/// `program` with its existential packages erased (see the module documentation).
pub fn erase_existentials(program: &Program) -> Program {
    let mut out = program.clone();
    let n = out.exprs.len();
    // Rewrite the original nodes only: the nodes this pass adds contain no `pack` or `unpack`.
    // The `pack` nodes themselves stay in the arena, unreachable: every reference skips them.
    for i in 0..n {
        let id = ExprId(i as u32);
        let kind = out.exprs[id].kind.clone();
        let kind = match kind {
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => destructure(&mut out, id, first, second, package, body),
            other => other,
        };
        let kind = map_children(kind, |c| skip_packs(&out, c));
        out.exprs[id].kind = kind;
    }
    out.root = skip_packs(&out, out.root);
    out
}

/// `id` with every `pack` around it removed: `pack (pack e)` is `e`.
fn skip_packs(program: &Program, mut id: ExprId) -> ExprId {
    while let ExprKind::Pack(inner) = program.exprs[id].kind {
        id = inner;
    }
    id
}

/// The application that replaces `unpack (first, second) = package in body` at `at`.
fn destructure(
    out: &mut Program,
    at: ExprId,
    first: Binder,
    second: Binder,
    package: ExprId,
    body: ExprId,
) -> ExprKind {
    let span = out.exprs[at].span;
    let mut push = |kind: ExprKind| out.exprs.push(Expr { kind, span });
    let half = |push: &mut dyn FnMut(ExprKind) -> ExprId, index: u8| {
        let tuple = push(ExprKind::Var(PACKAGE.into()));
        push(ExprKind::Proj { tuple, index })
    };
    let take_second = push(ExprKind::Fun {
        param: second,
        body,
    });
    let second_half = half(&mut push, 2);
    let with_second = push(ExprKind::App {
        func: take_second,
        arg: second_half,
    });
    let take_first = push(ExprKind::Fun {
        param: first,
        body: with_second,
    });
    let first_half = half(&mut push, 1);
    let with_first = push(ExprKind::App {
        func: take_first,
        arg: first_half,
    });
    let take_package = push(ExprKind::Fun {
        param: Binder {
            name: PACKAGE.into(),
            span,
        },
        body: with_first,
    });
    ExprKind::App {
        func: take_package,
        arg: package,
    }
}

/// `kind` with each direct subexpression id passed through `f`.
fn map_children(kind: ExprKind, f: impl Fn(ExprId) -> ExprId) -> ExprKind {
    match kind {
        k @ (ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Newlock) => k,
        ExprKind::Fun { param, body } => ExprKind::Fun {
            param,
            body: f(body),
        },
        ExprKind::App { func, arg } => ExprKind::App {
            func: f(func),
            arg: f(arg),
        },
        ExprKind::If0 {
            cond,
            then_branch,
            else_branch,
        } => ExprKind::If0 {
            cond: f(cond),
            then_branch: f(then_branch),
            else_branch: f(else_branch),
        },
        ExprKind::Pair(a, b) => ExprKind::Pair(f(a), f(b)),
        ExprKind::Seq(a, b) => ExprKind::Seq(f(a), f(b)),
        ExprKind::Proj { tuple, index } => ExprKind::Proj {
            tuple: f(tuple),
            index,
        },
        ExprKind::Let { name, value, body } => ExprKind::Let {
            name,
            value: f(value),
            body: f(body),
        },
        ExprKind::LetRec {
            name,
            param,
            fun_body,
            fun_span,
            body,
        } => ExprKind::LetRec {
            name,
            param,
            fun_body: f(fun_body),
            fun_span,
            body: f(body),
        },
        ExprKind::Ref(e) => ExprKind::Ref(f(e)),
        ExprKind::Pack(e) => ExprKind::Pack(f(e)),
        ExprKind::Deref { lock, target } => ExprKind::Deref {
            lock: f(lock),
            target: f(target),
        },
        ExprKind::Assign {
            target,
            lock,
            value,
        } => ExprKind::Assign {
            target: f(target),
            lock: f(lock),
            value: f(value),
        },
        ExprKind::Unpack {
            first,
            second,
            package,
            body,
        } => ExprKind::Unpack {
            first,
            second,
            package: f(package),
            body: f(body),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_here;
    use crate::syntax::parse;

    fn verdict(src: &str, erase: bool) -> bool {
        let p = parse("t.lam", src).expect("parses");
        let p = if erase { erase_existentials(&p) } else { p };
        check_here(&p).expect("type-checks").is_ok()
    }

    /// Figure 10: two packages of different lock/location pairs, both alive, meet at one
    /// `unpack`. With the existential each pack site keeps its own pair; erased, the two locks
    /// are one non-linear label and the write is no longer proved safe.
    #[test]
    fn figure_10_needs_the_existential() {
        let src = "let a = pack (newlock, ref 1) in let b = pack (newlock, ref 2) in \
                   let p = if0 0 then a else b in unpack (l, r) = p in r :=[l] 3";
        assert!(verdict(src, false));
        assert!(!verdict(src, true));
    }

    /// One package, or two of which only one is ever made: erasing changes nothing, since the
    /// lock that exists guards its own location (only one branch of `if0` allocates).
    #[test]
    fn one_package_stays_correlated() {
        let src = "let m = newlock in let x = ref 1 in \
                   unpack (l, r) = pack (m, x) in r :=[l] 3; x :=[m] 4";
        assert!(verdict(src, false));
        assert!(verdict(src, true));
        let src = "let p = if0 0 then pack (newlock, ref 1) else pack (newlock, ref 2) in \
                   unpack (l, r) = p in r :=[l] 3";
        assert!(verdict(src, false));
        assert!(verdict(src, true));
    }

    #[test]
    fn erased_program_has_no_packages() {
        let src = "unpack (a, b) = pack (pack (1, 2)).1 in unpack (c, d) = pack (a, b) in c";
        let p = erase_existentials(&parse("t.lam", src).expect("parses"));
        let mut stack = vec![p.root];
        let mut seen = 0;
        while let Some(id) = stack.pop() {
            seen += 1;
            assert!(!matches!(
                p.exprs[id].kind,
                ExprKind::Pack(_) | ExprKind::Unpack { .. }
            ));
            stack.extend(p.children(id));
        }
        assert!(seen > 10);
    }
}
