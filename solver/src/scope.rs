//! Generalisation scopes.
//!
//! A scope is where labels become polymorphic: in λ▷ each `let` that generalises a value (rule
//! \[Let\], figure 6) or `let rec` (\[Fix\]) opens one; in C each function does. Every label records
//! the scope it was created in, and a label is *generic* (quantified) at scope `B` exactly when it
//! was created inside `B`'s subtree. Labels that are not generic at `B` — the paper's `l⃗ = fl(Γ)`
//! and, in C, the labels of globals — are their own image at every instantiation of `B`
//! (figure 6, \[Inst\]: `l⃗ ⪯ᵢ± l⃗`), which the solver applies implicitly instead of generating one
//! self-instantiation constraint per label and site.

use crate::define_id;
use crate::ids::IndexVec;

define_id!(
    /// A generalisation scope (a λ▷ binder or a C function); [`Scope::ROOT`] is the program.
    pub struct Scope, "s";
);

impl Scope {
    /// The outermost scope: top-level λ▷ code, C globals and `main`'s context.
    pub const ROOT: Scope = Scope(0);
}

#[derive(Clone, Debug)]
struct ScopeData {
    parent: Option<Scope>,
    depth: u32,
}

/// The tree of scopes, with constant-time ancestor queries once [`ScopeTree::freeze`]d.
#[derive(Clone, Debug)]
pub struct ScopeTree {
    data: IndexVec<Scope, ScopeData>,
    /// Pre-order entry and exit numbers, filled by `freeze`.
    interval: IndexVec<Scope, (u32, u32)>,
}

impl Default for ScopeTree {
    fn default() -> Self {
        Self::new()
    }
}

impl ScopeTree {
    pub fn new() -> ScopeTree {
        let mut data = IndexVec::new();
        data.push(ScopeData {
            parent: None,
            depth: 0,
        });
        ScopeTree {
            data,
            interval: IndexVec::new(),
        }
    }

    /// Opens a new scope nested in `parent`.
    pub fn child(&mut self, parent: Scope) -> Scope {
        let depth = self.data[parent].depth + 1;
        self.interval = IndexVec::new();
        self.data.push(ScopeData {
            parent: Some(parent),
            depth,
        })
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn parent(&self, s: Scope) -> Option<Scope> {
        self.data[s].parent
    }

    pub fn depth(&self, s: Scope) -> u32 {
        self.data[s].depth
    }

    /// Computes the pre-order intervals used by [`ScopeTree::within`].
    pub fn freeze(&mut self) {
        let n = self.data.len();
        let mut children: IndexVec<Scope, Vec<Scope>> = IndexVec::from_elem_n(Vec::new(), n);
        for (s, d) in self.data.iter_enumerated() {
            if let Some(p) = d.parent {
                children[p].push(s);
            }
        }
        let mut interval = IndexVec::from_elem_n((0u32, 0u32), n);
        let mut counter = 0u32;
        // Iterative DFS so that deeply nested scopes cannot overflow the stack.
        let mut stack: Vec<(Scope, usize)> = vec![(Scope::ROOT, 0)];
        interval[Scope::ROOT].0 = counter;
        while let Some(&mut (s, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[s].get(*next) {
                *next += 1;
                counter += 1;
                interval[c].0 = counter;
                stack.push((c, 0));
            } else {
                interval[s].1 = counter;
                stack.pop();
            }
        }
        self.interval = interval;
    }

    /// Whether `inner` is `outer` or nested inside it. Requires [`ScopeTree::freeze`].
    #[inline]
    pub fn within(&self, inner: Scope, outer: Scope) -> bool {
        if self.interval.len() != self.data.len() {
            return self.within_slow(inner, outer);
        }
        let (a, b) = self.interval[outer];
        let (x, _) = self.interval[inner];
        a <= x && x <= b
    }

    /// The pre-order entry and exit numbers of `s`: the scopes within `s` are those whose entry
    /// number lies between them. `None` before [`ScopeTree::freeze`].
    pub fn interval(&self, s: Scope) -> Option<(u32, u32)> {
        (self.interval.len() == self.data.len()).then(|| self.interval[s])
    }

    fn within_slow(&self, inner: Scope, outer: Scope) -> bool {
        let mut s = Some(inner);
        while let Some(c) = s {
            if c == outer {
                return true;
            }
            s = self.data[c].parent;
        }
        false
    }

    /// The innermost scope enclosing both `a` and `b`.
    pub fn common_ancestor(&self, mut a: Scope, mut b: Scope) -> Scope {
        while self.data[a].depth > self.data[b].depth {
            a = self.data[a].parent.unwrap_or(Scope::ROOT);
        }
        while self.data[b].depth > self.data[a].depth {
            b = self.data[b].parent.unwrap_or(Scope::ROOT);
        }
        while a != b {
            a = self.data[a].parent.unwrap_or(Scope::ROOT);
            b = self.data[b].parent.unwrap_or(Scope::ROOT);
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_and_common_ancestor_follow_the_tree() {
        let mut t = ScopeTree::new();
        let a = t.child(Scope::ROOT);
        let b = t.child(a);
        let c = t.child(Scope::ROOT);
        assert!(t.within(b, a) && t.within(b, Scope::ROOT) && !t.within(a, b));
        t.freeze();
        assert!(t.within(b, a) && t.within(a, a) && !t.within(c, a) && !t.within(a, c));
        assert_eq!(t.common_ancestor(b, c), Scope::ROOT);
        assert_eq!(t.common_ancestor(b, a), a);
    }
}
