//! Front-end analyses on the IR that the constraint generator consults: which user functions are
//! allocation wrappers ([`alloc_wrappers`]), which `pthread_join`
//! calls certainly end which threads ([`joins`]), which local pointers certainly hold fresh,
//! unpublished memory ([`uniqueness`]), which semaphores behave as mutexes ([`semaphores`]),
//! where a function holds the lock of the object it accesses ([`unpacks`]), which barrier orders
//! phases ([`barriers`]), which arrays of locks are named element by element by constants
//! ([`lock_elements`]), and which of `main`'s stores to global pointers are replaced before any
//! thread can see them ([`startup_stores`]).
//!
//! They read the IR and the library model only; they never create labels or constraints.

pub mod alloc_wrappers;
pub mod barriers;
pub mod joins;
pub mod lock_elements;
pub mod semaphores;
pub mod startup_stores;
pub mod uniqueness;
pub mod unpacks;

use crate::ir::visit::{walk_func, walk_operand, Visitor};
use crate::ir::{FuncId, Operand, Program};

/// The functions whose address the program takes anywhere (a thread's start routine, a
/// callback, a function pointer's target): they may run where no direct call names them. In
/// id order.
pub fn address_taken_functions(p: &Program) -> Vec<FuncId> {
    struct Taken(Vec<FuncId>);
    impl Visitor for Taken {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::Func(f) = op {
                self.0.push(*f);
            }
            walk_operand(self, op);
        }
    }
    let mut taken = Taken(Vec::new());
    for func in p.funcs.iter() {
        walk_func(&mut taken, func);
    }
    taken.0.sort();
    taken.0.dedup();
    taken.0
}
