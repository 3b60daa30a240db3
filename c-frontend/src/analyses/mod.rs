//! Front-end analyses on the IR that the constraint generator consults: which `pthread_join`
//! calls certainly end which threads ([`joins`]), and which local pointers certainly hold fresh,
//! unpublished memory ([`uniqueness`]).
//!
//! They read the IR and the library model only; they never create labels or constraints.

pub mod joins;
pub mod uniqueness;
