//! The barrier whose waits order phases (an extension beyond the paper).
//!
//! `pthread_barrier_wait` returns in a thread only once `count` threads have called it, so when
//! no more threads than `count` ever wait on a barrier, each trip of the barrier needs every one
//! of them: a thread after its k-th wait and a thread before its k-th wait never run at the same
//! time, and accesses in different phases are ordered. The thread analysis decides how many
//! threads wait (`solver::threads::phases`); the front end decides which barrier the waits are
//! on and what its count is, and does so conservatively:
//!
//! - every `pthread_barrier_init` and `pthread_barrier_wait` of the program names one and the
//!   same object directly: `&b` or `&g.member…` of a global that is neither an array nor
//!   thread-local (a barrier reached through a pointer, an element of an array of barriers or
//!   a second barrier disqualifies them all: the waits then order nothing, as before);
//! - every `pthread_barrier_init` of it has the same constant count, and there is one.
//!
//! Knowingly unsound: a call of `pthread_barrier_wait` through a function pointer is not seen
//! here, so its wait is not counted in the phases of the thread that makes it.

use crate::ir::{Base, Callee, Lval, Operand, Program, Proj, StmtKind, VarId, VarKind};
use crate::model::Kind;

/// The one barrier of the program whose waits order phases, and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Barrier {
    pub var: VarId,
    /// `(struct, member)` steps from the variable to the barrier.
    pub fields: Vec<(u32, u32)>,
    /// The number of threads each trip waits for.
    pub count: u64,
}

/// The barrier object an argument names directly, if it names one: `&v` or `&v.f…` of a
/// global that is not thread-local, with no array index on the way.
pub fn named_barrier(p: &Program, op: &Operand) -> Option<(VarId, Vec<(u32, u32)>)> {
    match op {
        Operand::AddrOf(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) => {
            let global = matches!(
                p.vars[*v].kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            );
            let fields: Option<Vec<(u32, u32)>> = proj
                .iter()
                .map(|step| match step {
                    Proj::Field { strukt, index } => Some((strukt.0, *index)),
                    Proj::Index(_) | Proj::ConstIndex(_) => None,
                })
                .collect();
            fields.filter(|_| global).map(|f| (*v, f))
        }
        Operand::Cast(_, inner) => named_barrier(p, inner),
        _ => None,
    }
}

/// The barrier whose waits order phases, if the program has one that qualifies.
pub fn phase_barrier(p: &Program) -> Option<Barrier> {
    let mut named: Option<(VarId, Vec<(u32, u32)>)> = None;
    let mut count: Option<u64> = None;
    for func in p.funcs.iter() {
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            let StmtKind::Call {
                callee: Callee::Direct(f),
                args,
                ..
            } = &stmt.kind
            else {
                continue;
            };
            let (barrier, init) = match p.known_kind(*f) {
                Some(Kind::BarrierInit { barrier, .. }) => (barrier, true),
                Some(Kind::BarrierWait { barrier }) => (barrier, false),
                _ => continue,
            };
            let this = args
                .get(usize::from(barrier))
                .and_then(|op| named_barrier(p, op))?;
            if named.get_or_insert_with(|| this.clone()) != &this {
                return None;
            }
            if init {
                let values = p.init_values.get(&stmt.pos)?;
                for v in values {
                    let n = u64::try_from((*v)?).ok().filter(|&n| n >= 1)?;
                    if *count.get_or_insert(n) != n {
                        return None;
                    }
                }
            }
        }
    }
    let (var, fields) = named?;
    Some(Barrier {
        var,
        fields,
        count: count?,
    })
}
