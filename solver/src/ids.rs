//! Dense `u32` identifiers and vectors indexed by them.
//!
//! Every entity of the analysis (a location label ρ, a lock label ℓ, an effect variable χ, an
//! instantiation site i, …) is named by a small copyable id. Tables are `IndexVec`s indexed by
//! those ids, so iteration order is creation order and output never depends on hashing.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense index usable as the key of an [`IndexVec`].
pub trait Idx: Copy + Eq + Ord + std::hash::Hash + fmt::Debug + 'static {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares `u32` newtype ids: `define_id!(pub struct Rho, "ρ");` gives a `Copy` id that prints as
/// `ρ12` and implements [`Idx`].
#[macro_export]
macro_rules! define_id {
    ($(#[$meta:meta])* $vis:vis struct $name:ident, $prefix:expr;) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name(pub u32);

        impl $crate::ids::Idx for $name {
            #[inline]
            fn new(index: usize) -> Self {
                assert!(index <= u32::MAX as usize, "id space exhausted");
                $name(index as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

/// A vector indexed by an id type instead of `usize`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I: Idx, T> {
    raw: Vec<T>,
    _marker: PhantomData<fn(&I)>,
}

impl<I: Idx, T> IndexVec<I, T> {
    pub fn new() -> Self {
        IndexVec {
            raw: Vec::new(),
            _marker: PhantomData,
        }
    }

    pub fn with_capacity(n: usize) -> Self {
        IndexVec {
            raw: Vec::with_capacity(n),
            _marker: PhantomData,
        }
    }

    pub fn from_elem_n(elem: T, n: usize) -> Self
    where
        T: Clone,
    {
        IndexVec {
            raw: vec![elem; n],
            _marker: PhantomData,
        }
    }

    /// Appends `value` and returns its id.
    pub fn push(&mut self, value: T) -> I {
        let id = I::new(self.raw.len());
        self.raw.push(value);
        id
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    pub fn get(&self, id: I) -> Option<&T> {
        self.raw.get(id.index())
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// Iterates over `(id, &value)` in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }

    /// All ids in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + 'static {
        (0..self.raw.len()).map(I::new)
    }

    /// Grows the vector with `fill` so that `id` is a valid index.
    pub fn ensure(&mut self, id: I, fill: T)
    where
        T: Clone,
    {
        if self.raw.len() <= id.index() {
            self.raw.resize(id.index() + 1, fill);
        }
    }

    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, id: I) -> &T {
        &self.raw[id.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.raw[id.index()]
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter_enumerated()).finish()
    }
}

impl<I: Idx, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        IndexVec {
            raw: iter.into_iter().collect(),
            _marker: PhantomData,
        }
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    define_id!(struct TestId, "t";);

    #[test]
    fn push_returns_dense_ids_and_indexes_back() {
        let mut v: IndexVec<TestId, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!((a.0, b.0), (0, 1));
        assert_eq!(v[b], "b");
        assert_eq!(format!("{a:?}"), "t0");
        let pairs: Vec<_> = v.iter_enumerated().map(|(i, s)| (i.0, *s)).collect();
        assert_eq!(pairs, vec![(0, "a"), (1, "b")]);
    }
}
