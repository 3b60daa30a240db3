//! Random well-typed λ▷ programs for property tests.
//!
//! [`arb_program`] is a proptest strategy for programs that are well typed in λ▷'s shape
//! system (monomorphic shapes `int | lock | ref τ | τ × τ | τ → τ | packed(τ × τ)`), so that a
//! run of any of them never gets stuck. Generation is type-directed: every expression is generated for a
//! requested shape from the variables in scope.
//!
//! The programs are meant to exercise the hard parts of the LOCKSMITH analysis while keeping a
//! good share of them consistently correlated. The generator therefore tracks *guards*: every
//! location it allocates is associated with an intended lock (a lock variable, a lock stored in a
//! ref, or a component of a pair), and accesses, function calls, pairs and packages usually respect
//! those associations. With small probabilities ([`GenConfig::wrong_lock`] and
//! [`GenConfig::hazard`]) it deliberately breaks them: accessing with another lock, overwriting a
//! stored lock with `newlock` (the paper's linearity example), accessing an outer location under a
//! lock allocated inside a recursive function, and so on.
//!
//! Generated programs are a sequence of declarations and statements: locks and refs (holding
//! ints, locks, refs or functions); let-bound polymorphic functions (wrappers that access a ref
//! holding a lock, forwarders that pass their arguments on, higher-order functions, identity
//! functions, lock allocators, functions returning pairs or packages, functions using a local
//! lock); `let rec` loops bounded by a flag ref; pairs; packages; and statements calling those
//! functions, accessing refs and branching on `if0` conditions read from int refs.
//!
//! Shrinking replaces subterms by same-shape subterms (a branch of an `if0`, the body of an
//! unused `let`, the second half of a sequence) or by a small closed term of the same shape.

use super::{
    app, apps, assign, deref, fun, if0, int, let_, let_rec, newlock, pack, pair, program, proj,
    ref_, seq, term_shapes, unpack, var, Shape, Term,
};
use lambda_core::ast::Program;
use proptest::arbitrary::any;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// The maximum nesting depth of randomly generated expressions.
    pub max_depth: u32,
    /// A soft bound on the number of generated expression nodes; once it is exceeded, only leaves
    /// are generated.
    pub max_nodes: usize,
    /// The inclusive range of top-level declarations (locks, refs, functions, …).
    pub declarations: (usize, usize),
    /// The inclusive range of top-level statements (calls, accesses, conditionals, …).
    pub statements: (usize, usize),
    /// The probability that a program may contain deliberate mistakes; the other programs
    /// respect every guard, so all their runs are consistently correlated.
    pub buggy: f64,
    /// In a program with mistakes, the maximum probability that an access or a call uses a lock
    /// other than the intended one. Each such program scales this bound and [`Self::hazard`] by
    /// its own factor between 1/4 and 1.
    pub wrong_lock: f64,
    /// In a program with mistakes, the maximum probability of choosing a deliberately unsafe
    /// pattern where one is available: overwriting a stored lock with a fresh one, accessing an
    /// outer location under a lock allocated inside a recursive function, pairing or packing a
    /// ref with a fresh lock, or writing a recursive function whose effect is not empty.
    pub hazard: f64,
}

impl GenConfig {
    /// A configuration without deliberate mistakes: every run of every generated program is
    /// consistently correlated.
    pub fn consistent() -> GenConfig {
        GenConfig {
            buggy: 0.0,
            ..GenConfig::default()
        }
    }
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            max_depth: 3,
            max_nodes: 220,
            declarations: (4, 9),
            statements: (3, 7),
            buggy: 0.55,
            wrong_lock: 0.3,
            hazard: 0.4,
        }
    }
}

/// A strategy for random well-typed programs with the default [`GenConfig`].
pub fn arb_program() -> ProgramStrategy {
    arb_program_with(GenConfig::default())
}

/// A strategy for random well-typed programs with the given configuration.
pub fn arb_program_with(config: GenConfig) -> ProgramStrategy {
    ProgramStrategy { config }
}

/// Generates the program for `seed` deterministically.
pub fn generate(seed: u64, config: &GenConfig) -> Program {
    program(&generate_term(seed, config))
}

/// Generates the term for `seed` deterministically.
pub fn generate_term(seed: u64, config: &GenConfig) -> Term {
    let mut rng = Rng(seed);
    let (wrong_lock, hazard) = if rng.chance(config.buggy) {
        let scale = 0.25 + 0.75 * rng.unit();
        (config.wrong_lock * scale, config.hazard * scale)
    } else {
        (0.0, 0.0)
    };
    let mut gen = Gen {
        rng,
        config,
        wrong_lock,
        hazard,
        scope: Vec::new(),
        next_name: 0,
        nodes: 0,
    };
    let declarations = gen.rng.range(config.declarations.0, config.declarations.1);
    let statements = gen.rng.range(config.statements.0, config.statements.1);
    gen.block(declarations, statements, &Shape::Int, config.max_depth)
}

/// The strategy returned by [`arb_program`].
#[derive(Clone, Debug)]
pub struct ProgramStrategy {
    config: GenConfig,
}

impl Strategy for ProgramStrategy {
    type Tree = ProgramTree;
    type Value = Program;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let seed = any::<u64>().new_tree(runner)?.current();
        Ok(ProgramTree::new(generate_term(seed, &self.config)))
    }
}

/// A generated program together with its shrinking state.
pub struct ProgramTree {
    current: Term,
    /// The term before the last simplification, while that simplification is being tested.
    previous: Option<Term>,
    /// The pre-order position of the subterm being shrunk.
    position: usize,
    /// The next replacement to try at `position`.
    alternative: usize,
    /// Whether a simplification was kept during the current pass over the positions; if so,
    /// another pass follows, since earlier subterms may have become removable.
    progress: bool,
}

impl ProgramTree {
    /// A tree that starts at `term` and shrinks it.
    pub fn new(term: Term) -> ProgramTree {
        ProgramTree {
            current: term,
            previous: None,
            position: 0,
            alternative: 0,
            progress: false,
        }
    }

    /// The current term.
    pub fn term(&self) -> &Term {
        &self.current
    }
}

impl ValueTree for ProgramTree {
    type Value = Program;

    fn current(&self) -> Program {
        program(&self.current)
    }

    fn simplify(&mut self) -> bool {
        if self.previous.take().is_some() {
            // The last simplification was kept: shrink the replacement further.
            self.alternative = 0;
            self.progress = true;
        }
        let Ok(shapes) = term_shapes(&self.current) else {
            return false;
        };
        loop {
            while let Some(subterm) = self.current.at(self.position) {
                let candidates = shrink_candidates(subterm, &shapes, self.position);
                if let Some(candidate) = candidates.into_iter().nth(self.alternative) {
                    self.alternative += 1;
                    let mut next = self.current.clone();
                    next.replace_at(self.position, candidate);
                    self.previous = Some(std::mem::replace(&mut self.current, next));
                    return true;
                }
                self.position += 1;
                self.alternative = 0;
            }
            if !self.progress {
                return false;
            }
            self.progress = false;
            self.position = 0;
            self.alternative = 0;
        }
    }

    fn complicate(&mut self) -> bool {
        match self.previous.take() {
            Some(previous) => {
                self.current = previous;
                true
            }
            None => false,
        }
    }
}

impl std::fmt::Debug for ProgramTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProgramTree({})", self.current)
    }
}

/// Smaller terms of the same shape that may replace `term`, the subterm at pre-order
/// `position` of a term whose subterm shapes are `shapes`.
fn shrink_candidates(term: &Term, shapes: &[Shape], position: usize) -> Vec<Term> {
    let shape = &shapes[position];
    let binds = matches!(
        term,
        Term::Fun(..) | Term::Let(..) | Term::LetRec(..) | Term::Unpack(..)
    );
    // A child of a non-binding node is in the same scope, so any child of the same shape fits.
    let mut same_shaped = Vec::new();
    if !binds {
        let mut child_position = position + 1;
        for child in term.children() {
            if &shapes[child_position] == shape {
                same_shaped.push(child.clone());
            }
            child_position += child.size();
        }
    }
    let mut candidates: Vec<Term> = match term {
        Term::If0(_, then_branch, else_branch) => {
            vec![(**then_branch).clone(), (**else_branch).clone()]
        }
        Term::Seq(_, second) => vec![(**second).clone()],
        Term::Let(name, value, body) if !body.has_free(name) => {
            vec![(**body).clone(), seq((**value).clone(), (**body).clone())]
        }
        Term::LetRec(name, _, _, body) if !body.has_free(name) => vec![(**body).clone()],
        Term::Unpack(first, second, _, body) if !body.has_free(first) && !body.has_free(second) => {
            vec![(**body).clone()]
        }
        _ => Vec::new(),
    };
    for child in same_shaped {
        if !candidates.contains(&child) {
            candidates.push(child);
        }
    }
    candidates.push(trivial(shape));
    let size = term.size();
    candidates.retain(|candidate| candidate.size() < size);
    candidates
}

/// A small closed term of the given shape.
fn trivial(shape: &Shape) -> Term {
    match shape {
        Shape::Int => int(0),
        Shape::Lock => newlock(),
        Shape::Ref(contents) => ref_(trivial(contents)),
        Shape::Pair(left, right) => pair(trivial(left), trivial(right)),
        Shape::Fun(_, result) => fun("z", trivial(result)),
        Shape::Packed(left, right) => pack(pair(trivial(left), trivial(right))),
    }
}

/// SplitMix64, a small deterministic random number generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n`, for `n > 0`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A uniform number in `low..=high`.
    fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high.saturating_sub(low) + 1)
    }

    /// A uniform number in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn chance(&mut self, probability: f64) -> bool {
        self.unit() < probability
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index chosen with probability proportional to its weight; the weights must not all be
    /// zero.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut ticket = self.below(total as usize) as u32;
        for (index, &weight) in weights.iter().enumerate() {
            if ticket < weight {
                return index;
            }
            ticket -= weight;
        }
        weights.len() - 1
    }
}

/// A pure expression naming a value in scope: a variable, a projection, a read of a guarded
/// ref, or an identity function applied to a path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Path {
    Var(String),
    Proj(Box<Path>, u8),
    /// The read `![lock] target` of a guarded ref.
    Read(Box<Path>, Box<Path>),
    /// `f path` where `f` is a let-bound identity function.
    Call(String, Box<Path>),
    /// `newlock`: a fresh lock, used only as a wrong lock.
    Fresh,
}

impl Path {
    fn var(name: &str) -> Path {
        Path::Var(name.to_string())
    }

    fn proj(&self, index: u8) -> Path {
        Path::Proj(Box::new(self.clone()), index)
    }

    fn read(lock: &Path, target: &Path) -> Path {
        Path::Read(Box::new(lock.clone()), Box::new(target.clone()))
    }

    fn term(&self) -> Term {
        match self {
            Path::Var(name) => var(name),
            Path::Proj(tuple, index) => proj(tuple.term(), *index),
            Path::Read(lock, target) => deref(lock.term(), target.term()),
            Path::Call(func, arg) => app(var(func), arg.term()),
            Path::Fresh => newlock(),
        }
    }

    /// The path with identity-function calls removed.
    fn unwrapped(&self) -> &Path {
        match self {
            Path::Call(_, inner) => inner.unwrapped(),
            other => other,
        }
    }
}

/// How a let-bound function is meant to be called.
#[derive(Clone, Debug, Default)]
struct FunInfo {
    /// For some ref parameters (by index among the curried parameters), the lock the function
    /// accesses them with: another parameter or a fixed lock in scope.
    guards: Vec<(usize, LockSpec)>,
    /// The function returns its argument.
    identity: bool,
    /// The function returns a pair `(lock, ref)` whose ref is meant to be accessed holding the
    /// lock.
    guarded_pair: bool,
    /// For a `let rec` loop bounded by a flag: the flag and its lock, to reset before calls.
    reset: Option<(Path, Path)>,
    /// For a higher-order function: a function parameter and the function it was written for,
    /// which call sites usually pass.
    callback: Option<Callback>,
}

/// A function parameter of a higher-order function, with the function it was written for and
/// the guards that any function passed in its place must stay within.
#[derive(Clone, Debug)]
struct Callback {
    param: usize,
    preferred: Path,
    guards: Vec<(usize, LockSpec)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum LockSpec {
    Param(usize),
    Fixed(Path),
}

#[derive(Clone, Debug)]
enum Role {
    /// An ordinary variable.
    Plain,
    /// A let-bound function with known calling conventions.
    Function(FunInfo),
    /// A ref bounding a recursion; only read, and written by its loop.
    Flag,
    /// A ref allocated to hold a lock; it is never aliased, so overwriting it is harmless as long
    /// as no guard reads the lock it holds.
    LockCell,
    /// A lock cell that has been overwritten somewhere (possibly inside a function called
    /// later), so the lock it holds must not guard anything.
    RetiredCell,
    /// A recursive function inside its own body, which only the loop template calls.
    Hidden,
}

#[derive(Clone, Debug)]
struct Binding {
    name: String,
    shape: Shape,
    role: Role,
}

/// The association of a ref-valued path with the lock it is meant to be accessed under.
#[derive(Clone, Debug)]
struct Guard {
    target: Path,
    lock: Path,
    /// The shape of the ref's contents.
    contents: Shape,
    writable: bool,
}

#[derive(Clone, Debug)]
enum Entry {
    Binding(Binding),
    Guard(Guard),
}

/// One declaration of a block: `let name = value` or `let rec name = fun param -> body`.
enum Decl {
    Let(String, Term),
    LetRec(String, String, Term),
}

impl Decl {
    fn wrap(self, rest: Term) -> Term {
        match self {
            Decl::Let(name, value) => let_(&name, value, rest),
            Decl::LetRec(name, param, body) => let_rec(&name, &param, body, rest),
        }
    }
}

struct Gen<'c> {
    rng: Rng,
    config: &'c GenConfig,
    /// This program's probability of using a wrong lock.
    wrong_lock: f64,
    /// This program's probability of choosing an unsafe pattern.
    hazard: f64,
    scope: Vec<Entry>,
    next_name: u32,
    nodes: usize,
}

impl Gen<'_> {
    // ----- scope -----

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_name += 1;
        format!("{prefix}{}", self.next_name)
    }

    fn mark(&self) -> usize {
        self.scope.len()
    }

    fn restore(&mut self, mark: usize) {
        self.scope.truncate(mark);
    }

    fn bind(&mut self, name: &str, shape: Shape, role: Role) {
        self.scope.push(Entry::Binding(Binding {
            name: name.to_string(),
            shape,
            role,
        }));
    }

    fn guard(&mut self, target: Path, lock: Path, contents: Shape, writable: bool) {
        self.scope.push(Entry::Guard(Guard {
            target,
            lock,
            contents,
            writable,
        }));
    }

    fn bindings(&self) -> impl Iterator<Item = &Binding> {
        self.scope.iter().filter_map(|entry| match entry {
            Entry::Binding(binding) => Some(binding),
            Entry::Guard(_) => None,
        })
    }

    fn guards(&self) -> impl Iterator<Item = &Guard> {
        self.scope.iter().filter_map(|entry| match entry {
            Entry::Guard(guard) => Some(guard),
            Entry::Binding(_) => None,
        })
    }

    fn binding(&self, name: &str) -> Option<&Binding> {
        self.bindings()
            .filter(|binding| binding.name == name)
            .last()
    }

    fn guard_of(&self, target: &Path) -> Option<Guard> {
        let target = target.unwrapped();
        self.guards()
            .filter(|guard| &guard.target == target)
            .last()
            .cloned()
    }

    /// Guards whose ref may be written, optionally restricted to refs holding `contents`.
    fn writable_guards(&self, contents: Option<&Shape>) -> Vec<Guard> {
        self.guards()
            .filter(|guard| guard.writable && !matches!(guard.contents, Shape::Fun(..)))
            .filter(|guard| contents.is_none() || contents == Some(&guard.contents))
            .cloned()
            .collect()
    }

    /// Guards whose ref holds `contents`, including read-only ones when `readable` is set.
    fn guards_holding(&self, contents: &Shape, readable: bool) -> Vec<Guard> {
        self.guards()
            .filter(|guard| (readable || guard.writable) && &guard.contents == contents)
            .cloned()
            .collect()
    }

    /// Paths of the given shape: variables, projections of pair variables and reads of guarded
    /// refs. Flags and hidden recursive functions are left out.
    fn paths(&self, shape: &Shape) -> Vec<Path> {
        let mut paths = Vec::new();
        for binding in self.bindings() {
            if matches!(binding.role, Role::Flag | Role::Hidden) {
                continue;
            }
            let path = Path::var(&binding.name);
            if &binding.shape == shape {
                paths.push(path.clone());
            }
            if let Shape::Pair(left, right) = &binding.shape {
                if &**left == shape {
                    paths.push(path.proj(1));
                }
                if &**right == shape {
                    paths.push(path.proj(2));
                }
            }
        }
        for guard in self.guards() {
            if &guard.contents == shape && !self.is_retired(&guard.target) {
                paths.push(Path::read(&guard.lock, &guard.target));
            }
        }
        paths
    }

    /// Whether `target` is a lock cell that has been overwritten.
    fn is_retired(&self, target: &Path) -> bool {
        match target.unwrapped() {
            Path::Var(name) => self
                .binding(name)
                .is_some_and(|binding| matches!(binding.role, Role::RetiredCell)),
            _ => false,
        }
    }

    /// Whether the lock path `path` reads a lock cell that has been overwritten.
    fn reads_retired(&self, path: &Path) -> bool {
        match path.unwrapped() {
            Path::Read(lock, target) => {
                self.is_retired(target) || self.reads_retired(lock) || self.reads_retired(target)
            }
            Path::Proj(inner, _) => self.reads_retired(inner),
            Path::Var(_) | Path::Call(..) | Path::Fresh => false,
        }
    }

    /// Marks the lock cell `target` as overwritten.
    fn retire(&mut self, target: &Path) {
        let Path::Var(name) = target else { return };
        for entry in self.scope.iter_mut().rev() {
            if let Entry::Binding(binding) = entry {
                if &binding.name == name {
                    if matches!(binding.role, Role::LockCell) {
                        binding.role = Role::RetiredCell;
                    }
                    return;
                }
            }
        }
    }

    /// The calling conventions of a function-valued path.
    fn fun_info(&self, path: &Path, shape: &Shape) -> FunInfo {
        if let Path::Var(name) = path {
            if let Some(Binding {
                role: Role::Function(info),
                ..
            }) = self.binding(name)
            {
                return info.clone();
            }
        }
        FunInfo {
            guards: default_guards(shape),
            ..FunInfo::default()
        }
    }

    /// Function paths with their shapes.
    fn functions(&self) -> Vec<(Path, Shape)> {
        let mut functions = Vec::new();
        for binding in self.bindings() {
            if matches!(binding.role, Role::Hidden) {
                continue;
            }
            if let Shape::Fun(..) = binding.shape {
                functions.push((Path::var(&binding.name), binding.shape.clone()));
            }
        }
        for guard in self.guards() {
            if let Shape::Fun(..) = guard.contents {
                functions.push((
                    Path::read(&guard.lock, &guard.target),
                    guard.contents.clone(),
                ));
            }
        }
        functions
    }

    /// Ways to obtain a value of `shape` by applying a function in scope to some arguments.
    fn calls_for(&self, shape: &Shape) -> Vec<(Path, Shape, usize)> {
        let mut calls = Vec::new();
        for (path, fun_shape) in self.functions() {
            let arity = fun_shape.params().0.len();
            for count in 1..=arity {
                if fun_shape.applied(count) == Some(shape)
                    && (count == arity || self.partial_ok(&path, &fun_shape, count))
                {
                    calls.push((path.clone(), fun_shape.clone(), count));
                }
            }
        }
        calls
    }

    /// Whether applying the function `path` to its first `count` arguments keeps every guard
    /// either fully applied (the ref with its lock) or fully ahead, where the conventional
    /// guards of the resulting function cover it.
    fn partial_ok(&self, path: &Path, shape: &Shape, count: usize) -> bool {
        let Some(rest) = shape.applied(count) else {
            return false;
        };
        let conventional = default_guards(rest);
        self.fun_info(path, shape)
            .guards
            .iter()
            .all(|(index, spec)| match spec {
                LockSpec::Param(lock) if *index < count => *lock < count,
                LockSpec::Fixed(_) if *index < count => true,
                LockSpec::Param(lock) => {
                    *lock >= count
                        && conventional.contains(&(index - count, LockSpec::Param(lock - count)))
                }
                LockSpec::Fixed(_) => false,
            })
    }

    /// Whether the function `path` accesses its ref parameters only under the conventional
    /// locks of its shape, so that it can stand for any function of that shape.
    fn conventional(&self, path: &Path, shape: &Shape) -> bool {
        let conventional = default_guards(shape);
        self.fun_info(path, shape)
            .guards
            .iter()
            .all(|guard| conventional.contains(guard))
    }

    /// Let-bound identity functions of shape `shape → shape`.
    fn identities(&self, shape: &Shape) -> Vec<String> {
        self.bindings()
            .filter(|binding| match (&binding.role, &binding.shape) {
                (Role::Function(info), Shape::Fun(param, result)) => {
                    info.identity && &**param == shape && &**result == shape
                }
                _ => false,
            })
            .map(|binding| binding.name.clone())
            .collect()
    }

    /// Sometimes routes `path` through an identity function.
    fn maybe_wrap(&mut self, path: Path, shape: &Shape) -> Path {
        let identities = self.identities(shape);
        if identities.is_empty() || !self.rng.chance(0.3) {
            return path;
        }
        let name = self.rng.pick(&identities).clone();
        Path::Call(name, Box::new(path))
    }

    /// The lock to access `guard` with: usually its own, sometimes (by mistake) another one.
    fn lock_for(&mut self, guard: &Guard) -> Path {
        let mut lock = guard.lock.clone();
        if self.rng.chance(self.wrong_lock) {
            let others: Vec<Path> = self
                .paths(&Shape::Lock)
                .into_iter()
                .filter(|path| path != &guard.lock)
                .collect();
            lock = if others.is_empty() || self.rng.chance(0.25) {
                Path::Fresh
            } else {
                self.rng.pick(&others).clone()
            };
        }
        self.maybe_wrap(lock, &Shape::Lock)
    }

    /// The target of an access to `guard`, sometimes through an identity function.
    fn target_for(&mut self, guard: &Guard) -> Path {
        let shape = Shape::reference(guard.contents.clone());
        self.maybe_wrap(guard.target.clone(), &shape)
    }

    // ----- shapes -----

    /// A random small shape for let-bound values and statements.
    fn random_shape(&mut self) -> Shape {
        let ref_int = Shape::reference(Shape::Int);
        match self.rng.weighted(&[8, 2, 3, 2, 2, 1, 1, 1]) {
            0 => Shape::Int,
            1 => Shape::Lock,
            2 => ref_int,
            3 => Shape::pair(Shape::Lock, ref_int),
            4 => Shape::fun(Shape::Int, Shape::Int),
            5 => Shape::pair(Shape::Int, Shape::Int),
            6 => Shape::reference(Shape::Lock),
            _ => Shape::fun(Shape::Lock, Shape::Int),
        }
    }

    /// The contents of a guarded ref: usually int, sometimes the contents of existing refs.
    fn ref_contents(&mut self) -> Shape {
        let existing: Vec<Shape> = self
            .writable_guards(None)
            .into_iter()
            .map(|guard| guard.contents)
            .collect();
        if !existing.is_empty() && self.rng.chance(0.3) {
            return self.rng.pick(&existing).clone();
        }
        Shape::Int
    }

    // ----- expressions -----

    /// A random expression of the given shape.
    fn gen(&mut self, shape: &Shape, depth: u32) -> Term {
        self.nodes += 1;
        let depth = if self.nodes > self.config.max_nodes {
            0
        } else {
            depth
        };
        let mut paths = self.paths(shape);
        if matches!(shape, Shape::Fun(..)) && !self.rng.chance(self.wrong_lock) {
            paths.retain(|path| self.conventional(path, shape));
        }
        let calls = if depth > 0 {
            self.calls_for(shape)
        } else {
            Vec::new()
        };
        let stores = if depth > 0 {
            self.writable_guards(Some(shape))
        } else {
            Vec::new()
        };
        let packages = if depth > 0 {
            self.packages()
        } else {
            Vec::new()
        };
        let construct = match shape {
            Shape::Lock => 1,
            Shape::Int => 4,
            _ => 3,
        };
        let branchy = matches!(shape, Shape::Int | Shape::Fun(..) | Shape::Pair(..));
        let weights = [
            if paths.is_empty() { 0 } else { 6 },
            if calls.is_empty() { 0 } else { 5 },
            construct,
            if depth == 0 {
                0
            } else if branchy {
                2
            } else {
                1
            },
            if depth == 0 { 0 } else { 1 },
            if depth == 0 { 0 } else { 2 },
            if stores.is_empty() || matches!(shape, Shape::Lock) {
                0
            } else {
                2
            },
            if packages.is_empty() || shape != &Shape::Int {
                0
            } else {
                2
            },
        ];
        match self.rng.weighted(&weights) {
            0 => {
                let path = self.rng.pick(&paths).clone();
                self.maybe_wrap(path, shape).term()
            }
            1 => {
                let (path, fun_shape, count) = self.rng.pick(&calls).clone();
                self.call(&path, &fun_shape, count, depth - 1)
            }
            2 => self.construct(shape, depth.saturating_sub(1)),
            3 => {
                let cond = self.condition(depth - 1);
                let then_branch = self.gen(shape, depth - 1);
                let else_branch = if branchy || self.rng.chance(0.3) {
                    self.gen(shape, depth - 1)
                } else if self.rng.chance(0.5) {
                    seq(self.statement(depth - 1), then_branch.clone())
                } else {
                    then_branch.clone()
                };
                if0(cond, then_branch, else_branch)
            }
            4 => {
                let mark = self.mark();
                let decls = self.declare(depth - 1);
                let body = self.gen(shape, depth - 1);
                self.restore(mark);
                decls
                    .into_iter()
                    .rev()
                    .fold(body, |rest, decl| decl.wrap(rest))
            }
            5 => {
                let first = self.statement(depth - 1);
                seq(first, self.gen(shape, depth - 1))
            }
            6 => {
                let guard = self.rng.pick(&stores).clone();
                self.store(&guard, depth - 1)
            }
            _ => {
                let (package, contents) = self.rng.pick(&packages).clone();
                self.open(&package, &contents, depth - 1, |gen, depth| {
                    gen.gen(shape, depth)
                })
            }
        }
    }

    /// A value of `shape` built with its constructor.
    fn construct(&mut self, shape: &Shape, depth: u32) -> Term {
        match shape {
            Shape::Int => int(self.literal()),
            Shape::Lock => newlock(),
            Shape::Ref(contents) => ref_(self.gen(contents, depth)),
            Shape::Pair(left, right) => self.gen_pair(left, right, depth),
            Shape::Fun(..) => {
                let guards = default_guards(shape);
                self.lambda(shape, &guards, depth)
            }
            Shape::Packed(left, right) => pack(self.gen_pair(left, right, depth)),
        }
    }

    fn literal(&mut self) -> i64 {
        match self.rng.weighted(&[5, 4, 2]) {
            0 => 0,
            1 => 1,
            _ => self.rng.range(2, 9) as i64,
        }
    }

    /// A pair of the given component shapes; a `(lock, ref)` pair is a guarded pair.
    fn gen_pair(&mut self, left: &Shape, right: &Shape, depth: u32) -> Term {
        if let (Shape::Lock, Shape::Ref(contents)) = (left, right) {
            return self.guarded_pair(contents, depth);
        }
        let left = self.gen(left, depth);
        pair(left, self.gen(right, depth))
    }

    /// A pair `(lock, ref)` whose ref is meant to be accessed holding the lock: an existing
    /// guarded ref with its lock, or a fresh lock with a fresh ref. With a small probability the
    /// lock does not match.
    fn guarded_pair(&mut self, contents: &Shape, depth: u32) -> Term {
        let guards = self.guards_holding(contents, false);
        if !guards.is_empty() && self.rng.chance(0.7) {
            let guard = self.rng.pick(&guards).clone();
            let lock = if self.rng.chance(self.hazard) {
                newlock()
            } else {
                self.lock_for(&guard).term()
            };
            return pair(lock, self.target_for(&guard).term());
        }
        pair(newlock(), ref_(self.gen(contents, depth)))
    }

    /// An int-valued condition for `if0`, usually a read of an int ref so that both branches
    /// can run.
    fn condition(&mut self, depth: u32) -> Term {
        let reads = self.guards_holding(&Shape::Int, true);
        if !reads.is_empty() && self.rng.chance(0.65) {
            let guard = self.rng.pick(&reads).clone();
            let lock = self.lock_for(&guard);
            return deref(lock.term(), self.target_for(&guard).term());
        }
        self.gen(&Shape::Int, depth)
    }

    /// `target :=[lock] value` for a writable guard.
    fn store(&mut self, guard: &Guard, depth: u32) -> Term {
        let value = match &guard.contents {
            Shape::Lock => {
                if self.rng.chance(self.hazard) {
                    newlock()
                } else {
                    Path::read(&guard.lock, &guard.target).term()
                }
            }
            Shape::Ref(inner) => {
                let slot = Path::read(&guard.lock, &guard.target);
                let inner_lock = self.guard_of(&slot).map(|inner| inner.lock);
                let candidates: Vec<Guard> = self
                    .guards_holding(inner, false)
                    .into_iter()
                    .filter(|candidate| {
                        candidate.target != slot
                            && (inner_lock.as_ref() == Some(&candidate.lock)
                                || self.rng.chance(self.hazard))
                    })
                    .collect();
                if !candidates.is_empty() && self.rng.chance(0.7) {
                    let candidate = self.rng.pick(&candidates).clone();
                    self.target_for(&candidate).term()
                } else {
                    ref_(self.gen(inner, depth))
                }
            }
            contents => self.gen(contents, depth),
        };
        let lock = self.lock_for(guard);
        assign(self.target_for(guard).term(), lock.term(), value)
    }

    /// A read or a write of a guarded ref.
    fn access(&mut self, guard: &Guard, depth: u32) -> Term {
        if guard.writable && !matches!(guard.contents, Shape::Fun(..)) && self.rng.chance(0.6) {
            self.store(guard, depth)
        } else {
            let lock = self.lock_for(guard);
            deref(lock.term(), self.target_for(guard).term())
        }
    }

    /// Packages in scope, with the shapes of their contents.
    fn packages(&self) -> Vec<(Path, (Shape, Shape))> {
        self.bindings()
            .filter(|binding| !matches!(binding.role, Role::Flag | Role::Hidden))
            .filter_map(|binding| match &binding.shape {
                Shape::Packed(left, right) => Some((
                    Path::var(&binding.name),
                    ((**left).clone(), (**right).clone()),
                )),
                _ => None,
            })
            .collect()
    }

    /// `unpack (x, y) = package in body`, where a `(lock, ref)` package guards `y` by `x` and
    /// the body usually accesses `y`.
    fn open(
        &mut self,
        package: &Path,
        contents: &(Shape, Shape),
        depth: u32,
        body: impl FnOnce(&mut Self, u32) -> Term,
    ) -> Term {
        let (first, second) = (self.fresh("k"), self.fresh("s"));
        let mark = self.mark();
        self.bind(&first, contents.0.clone(), Role::Plain);
        self.bind(&second, contents.1.clone(), Role::Plain);
        let mut access = None;
        if let (Shape::Lock, Shape::Ref(inner)) = contents {
            let guard = Guard {
                target: Path::var(&second),
                lock: Path::var(&first),
                contents: (**inner).clone(),
                writable: true,
            };
            self.scope.push(Entry::Guard(guard.clone()));
            if self.rng.chance(0.8) {
                access = Some(self.access(&guard, depth));
            }
        }
        let mut term = body(self, depth);
        if let Some(access) = access {
            term = seq(access, term);
        }
        self.restore(mark);
        unpack(&first, &second, package.term(), term)
    }

    /// A function of the given (curried) shape whose body accesses each guarded ref parameter
    /// holding its lock.
    fn lambda(&mut self, shape: &Shape, guards: &[(usize, LockSpec)], depth: u32) -> Term {
        let (params, result) = shape.params();
        let params: Vec<Shape> = params.into_iter().cloned().collect();
        let result = result.clone();
        let names: Vec<String> = params.iter().map(|param| self.param_name(param)).collect();
        let mark = self.mark();
        for (name, param) in names.iter().zip(&params) {
            self.bind(name, param.clone(), Role::Plain);
        }
        let mut accesses = Vec::new();
        for (index, spec) in guards {
            let Shape::Ref(contents) = &params[*index] else {
                continue;
            };
            let lock = match spec {
                LockSpec::Param(lock) => Path::var(&names[*lock]),
                LockSpec::Fixed(lock) => lock.clone(),
            };
            let guard = Guard {
                target: Path::var(&names[*index]),
                lock,
                contents: (**contents).clone(),
                writable: true,
            };
            self.scope.push(Entry::Guard(guard.clone()));
            if self.rng.chance(0.85) {
                accesses.push(guard);
            }
        }
        let mut body = self.gen(&result, depth);
        for guard in accesses.iter().rev() {
            let access = self.access(guard, depth);
            body = seq(access, body);
        }
        self.restore(mark);
        names.iter().rev().fold(body, |body, name| fun(name, body))
    }

    fn param_name(&mut self, shape: &Shape) -> String {
        let prefix = match shape {
            Shape::Int => "n",
            Shape::Lock => "m",
            Shape::Ref(_) => "r",
            Shape::Fun(..) => "h",
            Shape::Pair(..) => "q",
            Shape::Packed(..) => "w",
        };
        self.fresh(prefix)
    }

    /// Applies the function `path` to `count` arguments, choosing ref arguments together with
    /// the locks the function accesses them with (all refs accessed under one lock parameter are
    /// chosen among those guarded by the same lock).
    fn call(&mut self, path: &Path, shape: &Shape, count: usize, depth: u32) -> Term {
        let info = self.fun_info(path, shape);
        let params: Vec<Shape> = shape.params().0.into_iter().cloned().collect();
        let mut args: Vec<Option<Term>> = vec![None; count];
        let mut chosen_locks: Vec<(usize, Path)> = Vec::new();
        for (index, spec) in &info.guards {
            if *index >= count || args[*index].is_some() {
                continue;
            }
            let Shape::Ref(contents) = &params[*index] else {
                continue;
            };
            let mut guards = self.guards_holding(contents, false);
            let wanted = match spec {
                LockSpec::Fixed(lock) => Some(lock.clone()),
                LockSpec::Param(lock_index) => chosen_locks
                    .iter()
                    .find(|(chosen, _)| chosen == lock_index)
                    .map(|(_, lock)| lock.clone()),
            };
            if let Some(wanted) = &wanted {
                if !self.rng.chance(self.wrong_lock) {
                    guards.retain(|guard| &guard.lock == wanted);
                }
            }
            let fresh = guards.is_empty() || self.rng.chance(0.1);
            let (target, lock, lock_path) = if fresh {
                let lock_path = wanted.clone().unwrap_or_else(|| Path::var("newlock"));
                (ref_(self.gen(contents, depth)), newlock(), lock_path)
            } else {
                let guard = self.rng.pick(&guards).clone();
                let lock = self.lock_for(&guard);
                (
                    self.target_for(&guard).term(),
                    lock.term(),
                    guard.lock.clone(),
                )
            };
            args[*index] = Some(target);
            if let LockSpec::Param(lock_index) = spec {
                if wanted.is_none() {
                    chosen_locks.push((*lock_index, lock_path));
                    if *lock_index < count && args[*lock_index].is_none() {
                        args[*lock_index] = Some(lock);
                    }
                }
            }
        }
        if let Some(callback) = &info.callback {
            if callback.param < count
                && args[callback.param].is_none()
                && !self.rng.chance(self.wrong_lock)
            {
                let fun_shape = &params[callback.param];
                let mut candidates: Vec<Path> = self
                    .paths(fun_shape)
                    .into_iter()
                    .filter(|candidate| {
                        let info = self.fun_info(candidate, fun_shape);
                        info.guards
                            .iter()
                            .all(|guard| callback.guards.contains(guard))
                    })
                    .collect();
                if candidates.is_empty() || self.rng.chance(0.5) {
                    candidates = vec![callback.preferred.clone()];
                }
                args[callback.param] = Some(self.rng.pick(&candidates).term());
            }
        }
        let args: Vec<Term> = args
            .into_iter()
            .enumerate()
            .map(|(index, arg)| arg.unwrap_or_else(|| self.gen(&params[index], depth)))
            .collect();
        let call = apps(path.term(), args);
        match info.reset {
            Some((flag, lock)) if self.rng.chance(0.6) => {
                seq(assign(flag.term(), lock.term(), int(0)), call)
            }
            _ => call,
        }
    }

    /// An expression evaluated for its effects.
    fn statement(&mut self, depth: u32) -> Term {
        self.shaped_statement(depth).0
    }

    /// An int-valued expression evaluated for its effects.
    fn int_statement(&mut self, depth: u32) -> Term {
        match self.shaped_statement(depth) {
            (term, Shape::Int) => term,
            (term, _) => seq(term, int(0)),
        }
    }

    /// An expression evaluated for its effects, with its shape.
    fn shaped_statement(&mut self, depth: u32) -> (Term, Shape) {
        let functions = self.functions();
        let guards: Vec<Guard> = self.guards().cloned().collect();
        let packages = self.packages();
        // Overwriting a lock cell is harmless when no ref is guarded by the lock it holds;
        // otherwise, and for any other ref holding a lock, it is the paper's linearity hazard.
        let (unused, used): (Vec<Guard>, Vec<Guard>) = self
            .writable_guards(Some(&Shape::Lock))
            .into_iter()
            .partition(|stored| {
                let slot = Path::read(&stored.lock, &stored.target);
                let cell = match &stored.target {
                    Path::Var(name) => self
                        .binding(name)
                        .is_some_and(|binding| matches!(binding.role, Role::LockCell)),
                    _ => false,
                };
                cell && !self.guards().any(|guard| guard.lock.unwrapped() == &slot)
            });
        let stored_locks = if !used.is_empty() && self.rng.chance(self.hazard) {
            used
        } else {
            unused
        };
        let overwrite = !stored_locks.is_empty();
        let weights = [
            if functions.is_empty() { 0 } else { 7 },
            if guards.is_empty() { 0 } else { 5 },
            if depth == 0 || guards.is_empty() {
                0
            } else {
                2
            },
            if packages.is_empty() { 0 } else { 5 },
            if overwrite { 2 } else { 0 },
            if depth == 0 { 0 } else { 1 },
            1,
        ];
        match self.rng.weighted(&weights) {
            0 => {
                let (path, shape) = self.rng.pick(&functions).clone();
                let arity = shape.params().0.len();
                let result = shape.applied(arity).cloned().unwrap_or(Shape::Int);
                (self.call(&path, &shape, arity, depth), result)
            }
            1 => {
                let guard = self.rng.pick(&guards).clone();
                (self.access(&guard, depth), guard.contents)
            }
            2 => {
                let cond = self.condition(depth - 1);
                let then_branch = self.int_statement(depth - 1);
                let else_branch = if self.rng.chance(0.3) {
                    int(0)
                } else {
                    self.int_statement(depth - 1)
                };
                (if0(cond, then_branch, else_branch), Shape::Int)
            }
            3 => {
                let (package, contents) = self.rng.pick(&packages).clone();
                (
                    self.open(&package, &contents, depth, |_, _| int(0)),
                    Shape::Int,
                )
            }
            4 => {
                let guard = self.rng.pick(&stored_locks).clone();
                self.retire(&guard.target);
                (
                    assign(guard.target.term(), guard.lock.term(), newlock()),
                    Shape::Lock,
                )
            }
            5 => {
                let mark = self.mark();
                let decls = self.declare(depth - 1);
                let (body, shape) = self.shaped_statement(depth - 1);
                self.restore(mark);
                (
                    decls
                        .into_iter()
                        .rev()
                        .fold(body, |rest, decl| decl.wrap(rest)),
                    shape,
                )
            }
            _ => {
                let shape = self.random_shape();
                (self.gen(&shape, depth), shape)
            }
        }
    }

    // ----- blocks and declarations -----

    /// `declarations` declarations and `statements` statements in a random interleaving (mostly
    /// declarations first), ending with an expression of shape `result`.
    fn block(
        &mut self,
        declarations: usize,
        statements: usize,
        result: &Shape,
        depth: u32,
    ) -> Term {
        if declarations == 0 && statements == 0 {
            return self.gen(result, depth.min(2));
        }
        if declarations > 0 && (statements == 0 || self.rng.chance(0.75)) {
            let mark = self.mark();
            let decls = self.declare(depth);
            let rest = self.block(declarations - 1, statements, result, depth);
            self.restore(mark);
            decls
                .into_iter()
                .rev()
                .fold(rest, |rest, decl| decl.wrap(rest))
        } else {
            let first = self.statement(depth);
            seq(
                first,
                self.block(declarations, statements - 1, result, depth),
            )
        }
    }

    /// One or more declarations; their bindings stay in scope until the caller restores it.
    fn declare(&mut self, depth: u32) -> Vec<Decl> {
        let locks = self.paths(&Shape::Lock);
        let guarded = self.guards().any(|guard| guard.writable);
        let callables: Vec<(String, Shape, FunInfo)> = self
            .bindings()
            .filter_map(|binding| match (&binding.role, &binding.shape) {
                (Role::Function(info), Shape::Fun(..)) => {
                    Some((binding.name.clone(), binding.shape.clone(), info.clone()))
                }
                _ => None,
            })
            .collect();
        let forwardable = callables.iter().any(|(_, _, info)| !info.guards.is_empty());
        let has_lock_var = self
            .bindings()
            .any(|binding| binding.shape == Shape::Lock && matches!(binding.role, Role::Plain));
        let lock_vars = self
            .bindings()
            .filter(|binding| binding.shape == Shape::Lock && matches!(binding.role, Role::Plain))
            .count();
        let weights = [
            match lock_vars {
                0 => 12,
                1 => 6,
                _ => 3,
            },
            if locks.is_empty() { 0 } else { 6 },
            if guarded { 4 } else { 1 },
            if has_lock_var { 1 } else { 0 },
            if forwardable { 5 } else { 0 },
            if callables.is_empty() { 0 } else { 2 },
            2,
            2,
            if guarded { 2 } else { 1 },
            if has_lock_var { 2 } else { 0 },
            if guarded { 2 } else { 1 },
            2,
            1,
            1,
        ];
        match self.rng.weighted(&weights) {
            0 => vec![self.declare_lock()],
            1 => vec![self.declare_ref(depth)],
            2 => vec![self.declare_wrapper(depth)],
            3 => vec![self.declare_fixed_wrapper(depth)],
            4 => vec![self.declare_forwarder(&callables)],
            5 => vec![self.declare_higher_order(&callables)],
            6 => vec![self.declare_identity(depth)],
            7 => vec![self.declare_allocator()],
            8 => vec![self.declare_pair(depth)],
            9 => self.declare_loop(depth),
            10 => vec![self.declare_package(depth)],
            11 => vec![self.declare_local(depth)],
            12 => vec![self.declare_alias(depth)],
            _ => vec![self.declare_value(depth)],
        }
    }

    /// `let l = newlock`, or a lock from an allocator function.
    fn declare_lock(&mut self) -> Decl {
        let name = self.fresh("l");
        let allocators: Vec<(Path, Shape, usize)> = self.calls_for(&Shape::Lock);
        let value = if !allocators.is_empty() && self.rng.chance(0.3) {
            let (path, shape, count) = self.rng.pick(&allocators).clone();
            self.call(&path, &shape, count, 0)
        } else {
            newlock()
        };
        self.bind(&name, Shape::Lock, Role::Plain);
        Decl::Let(name, value)
    }

    /// A lock path to guard a new ref with, preferring lock variables; `None` when no lock is in
    /// scope.
    fn choose_lock(&mut self) -> Option<Path> {
        let locks = self.paths(&Shape::Lock);
        let vars: Vec<Path> = locks
            .iter()
            .filter(|path| matches!(path, Path::Var(_)))
            .cloned()
            .collect();
        if !vars.is_empty() && self.rng.chance(0.75) {
            Some(self.rng.pick(&vars).clone())
        } else if locks.is_empty() {
            None
        } else {
            Some(self.rng.pick(&locks).clone())
        }
    }

    /// `let x = ref init`, guarded by a lock in scope; the ref holds an int, a lock, another ref
    /// or a function.
    fn declare_ref(&mut self, depth: u32) -> Decl {
        let Some(lock) = self.choose_lock() else {
            return self.declare_lock();
        };
        let name = self.fresh("x");
        let int_refs = self.guards_holding(&Shape::Int, false);
        let functions: Vec<Path> = self.paths(&Shape::fun(Shape::Int, Shape::Int));
        let choice = self
            .rng
            .weighted(&[12, 4, if int_refs.is_empty() { 0 } else { 7 }, 1]);
        let target = Path::var(&name);
        let (contents, value) = match choice {
            0 => (Shape::Int, int(self.literal())),
            1 => (Shape::Lock, newlock()),
            2 => {
                let inner = self.rng.pick(&int_refs).clone();
                let value = self.target_for(&inner).term();
                self.guard(
                    Path::read(&lock, &target),
                    inner.lock.clone(),
                    Shape::Int,
                    true,
                );
                (Shape::reference(Shape::Int), value)
            }
            _ => {
                let shape = Shape::fun(Shape::Int, Shape::Int);
                let value = if !functions.is_empty() && self.rng.chance(0.5) {
                    self.rng.pick(&functions).term()
                } else {
                    self.lambda(&shape, &[], depth.saturating_sub(1))
                };
                (shape, value)
            }
        };
        // A function value may have overwritten the lock cell the chosen lock is read from (it
        // was chosen first, and no guard held it yet): that lock no longer guards anything.
        let lock = if self.reads_retired(&lock) {
            match self.choose_lock() {
                Some(lock) => lock,
                None => return self.declare_lock(),
            }
        } else {
            lock
        };
        let writable = !matches!(contents, Shape::Fun(..));
        let role = if contents == Shape::Lock {
            Role::LockCell
        } else {
            Role::Plain
        };
        self.bind(&name, Shape::reference(contents.clone()), role);
        self.guard(target, lock, contents, writable);
        Decl::Let(name, ref_(value))
    }

    /// A polymorphic wrapper `fun l -> fun r -> …` that accesses `r` holding `l`, possibly with
    /// the parameters swapped or an extra int parameter.
    fn declare_wrapper(&mut self, depth: u32) -> Decl {
        let name = self.fresh("f");
        let contents = self.ref_contents();
        let reference = Shape::reference(contents.clone());
        let result = match self.rng.weighted(&[6, 2, 2]) {
            0 => Shape::Int,
            1 => contents,
            _ => reference.clone(),
        };
        let params = match self.rng.weighted(&[6, 3, 2, 1]) {
            0 => vec![Shape::Lock, reference],
            1 => vec![reference, Shape::Lock],
            2 => vec![Shape::Lock, reference, Shape::Int],
            _ => vec![Shape::Lock, reference.clone(), reference],
        };
        let shape = Shape::curried(&params, result.clone());
        let guards = default_guards(&shape);
        let value = if result == params[params.len() - 1] && self.rng.chance(0.5) {
            self.returning_wrapper(&params, &guards, depth)
        } else {
            self.lambda(&shape, &guards, depth.saturating_sub(1).max(1))
        };
        self.bind(
            &name,
            shape,
            Role::Function(FunInfo {
                guards,
                ..FunInfo::default()
            }),
        );
        Decl::Let(name, value)
    }

    /// A wrapper that accesses its ref parameter and returns its last parameter.
    fn returning_wrapper(
        &mut self,
        params: &[Shape],
        guards: &[(usize, LockSpec)],
        depth: u32,
    ) -> Term {
        let names: Vec<String> = params.iter().map(|param| self.param_name(param)).collect();
        let mark = self.mark();
        for (name, param) in names.iter().zip(params) {
            self.bind(name, param.clone(), Role::Plain);
        }
        let mut body = var(&names[names.len() - 1]);
        for (index, spec) in guards {
            let (Shape::Ref(contents), LockSpec::Param(lock)) = (&params[*index], spec) else {
                continue;
            };
            let guard = Guard {
                target: Path::var(&names[*index]),
                lock: Path::var(&names[*lock]),
                contents: (**contents).clone(),
                writable: true,
            };
            self.scope.push(Entry::Guard(guard.clone()));
            body = seq(self.access(&guard, depth.saturating_sub(1)), body);
        }
        self.restore(mark);
        names.iter().rev().fold(body, |body, name| fun(name, body))
    }

    /// `fun r -> …` accessing `r` holding a fixed lock variable in scope.
    fn declare_fixed_wrapper(&mut self, depth: u32) -> Decl {
        let name = self.fresh("g");
        let locks: Vec<Path> = self
            .bindings()
            .filter(|binding| binding.shape == Shape::Lock && matches!(binding.role, Role::Plain))
            .map(|binding| Path::var(&binding.name))
            .collect();
        let lock = self.rng.pick(&locks).clone();
        let contents = self.ref_contents();
        let shape = Shape::fun(Shape::reference(contents), Shape::Int);
        let guards = vec![(0, LockSpec::Fixed(lock))];
        let value = self.lambda(&shape, &guards, depth.saturating_sub(1).max(1));
        self.bind(
            &name,
            shape,
            Role::Function(FunInfo {
                guards,
                ..FunInfo::default()
            }),
        );
        Decl::Let(name, value)
    }

    /// A function that forwards its arguments to an existing function, possibly reordering
    /// them, calling it twice, or fixing its lock argument.
    fn declare_forwarder(&mut self, callables: &[(String, Shape, FunInfo)]) -> Decl {
        let candidates: Vec<&(String, Shape, FunInfo)> = callables
            .iter()
            .filter(|(_, _, info)| !info.guards.is_empty())
            .collect();
        let (target, shape, info) = (*self.rng.pick(&candidates)).clone();
        let name = self.fresh("fwd");
        let (params, result) = shape.params();
        let params: Vec<Shape> = params.into_iter().cloned().collect();
        let result = result.clone();
        let names: Vec<String> = params.iter().map(|param| self.param_name(param)).collect();
        let lock_param = info.guards.iter().find_map(|(_, spec)| match spec {
            LockSpec::Param(lock) => Some(*lock),
            LockSpec::Fixed(_) => None,
        });
        let fixed_lock = self
            .bindings()
            .filter(|binding| binding.shape == Shape::Lock && matches!(binding.role, Role::Plain))
            .map(|binding| Path::var(&binding.name))
            .next();
        // Optionally fix the lock argument to a lock variable in scope.
        let fixed = match (lock_param, fixed_lock) {
            (Some(lock), Some(path)) if self.rng.chance(0.25) => Some((lock, path)),
            _ => None,
        };
        let mut order: Vec<usize> = (0..params.len())
            .filter(|index| fixed.as_ref().map(|(lock, _)| lock) != Some(index))
            .collect();
        if order.len() == 2 && self.rng.chance(0.4) {
            order.swap(0, 1);
        }
        let args: Vec<Term> = (0..params.len())
            .map(|index| match &fixed {
                Some((lock, path)) if *lock == index => path.term(),
                _ => var(&names[index]),
            })
            .collect();
        let call = apps(var(&target), args.clone());
        let body = match self.rng.weighted(&[6, 2, 1]) {
            0 => call,
            1 => seq(call.clone(), call),
            _ => {
                let local = self.fresh("t");
                let_(&local, call, var(&local))
            }
        };
        let fun_params: Vec<usize> = order.clone();
        let value = fun_params
            .iter()
            .rev()
            .fold(body, |body, &index| fun(&names[index], body));
        // Translate the guards of the target into guards of the forwarder.
        let position = |index: usize| fun_params.iter().position(|&param| param == index);
        let guards = info
            .guards
            .iter()
            .filter_map(|(index, spec)| {
                let new_index = position(*index)?;
                let new_spec = match spec {
                    LockSpec::Param(lock) => match position(*lock) {
                        Some(new_lock) => LockSpec::Param(new_lock),
                        None => LockSpec::Fixed(fixed.as_ref()?.1.clone()),
                    },
                    LockSpec::Fixed(path) => LockSpec::Fixed(path.clone()),
                };
                Some((new_index, new_spec))
            })
            .collect();
        let new_params: Vec<Shape> = fun_params
            .iter()
            .map(|&index| params[index].clone())
            .collect();
        let new_shape = Shape::curried(&new_params, result);
        self.bind(
            &name,
            new_shape,
            Role::Function(FunInfo {
                guards,
                ..FunInfo::default()
            }),
        );
        Decl::Let(name, value)
    }

    /// `fun h -> fun a -> … -> h a …`: a function taking a function and its arguments, or
    /// `fun h -> fun x -> (h x; h x)` for a one-parameter function.
    fn declare_higher_order(&mut self, callables: &[(String, Shape, FunInfo)]) -> Decl {
        let (callee, shape, callee_info) = self.rng.pick(callables).clone();
        let name = self.fresh("ap");
        let (params, result) = shape.params();
        let params: Vec<Shape> = params.into_iter().cloned().collect();
        let result = result.clone();
        let func = self.fresh("h");
        let names: Vec<String> = params.iter().map(|param| self.param_name(param)).collect();
        let call = apps(var(&func), names.iter().map(|name| var(name)));
        let body = if self.rng.chance(0.3) {
            seq(call.clone(), call)
        } else {
            call
        };
        let value = fun(
            &func,
            names.iter().rev().fold(body, |body, name| fun(name, body)),
        );
        let mut all_params = vec![shape.clone()];
        all_params.extend(params);
        let new_shape = Shape::curried(&all_params, result);
        let guards = callee_info
            .guards
            .iter()
            .map(|(index, spec)| {
                let spec = match spec {
                    LockSpec::Param(lock) => LockSpec::Param(lock + 1),
                    LockSpec::Fixed(path) => LockSpec::Fixed(path.clone()),
                };
                (index + 1, spec)
            })
            .collect();
        let callback = Callback {
            param: 0,
            preferred: Path::var(&callee),
            guards: callee_info.guards.clone(),
        };
        let info = FunInfo {
            guards,
            callback: Some(callback),
            ..FunInfo::default()
        };
        self.bind(&name, new_shape, Role::Function(info));
        Decl::Let(name, value)
    }

    /// An identity-like function on refs, locks or `(lock, ref)` pairs.
    fn declare_identity(&mut self, depth: u32) -> Decl {
        let name = self.fresh("id");
        let shape = match self.rng.weighted(&[5, 3, 1]) {
            0 => Shape::reference(self.ref_contents()),
            1 => Shape::Lock,
            _ => Shape::pair(Shape::Lock, Shape::reference(Shape::Int)),
        };
        let param = self.param_name(&shape);
        let body = match self.rng.weighted(&[4, 2, 2, 2]) {
            0 => var(&param),
            1 => {
                let local = self.fresh("y");
                let_(&local, var(&param), var(&local))
            }
            2 => proj(pair(var(&param), int(0)), 1),
            _ => {
                let mark = self.mark();
                self.bind(&param, shape.clone(), Role::Plain);
                let cond = self.condition(depth.saturating_sub(1));
                self.restore(mark);
                if0(cond, var(&param), var(&param))
            }
        };
        let identity = !matches!(shape, Shape::Pair(..));
        let info = FunInfo {
            identity,
            ..FunInfo::default()
        };
        self.bind(
            &name,
            Shape::fun(shape.clone(), shape),
            Role::Function(info),
        );
        Decl::Let(name, fun(&param, body))
    }

    /// A function allocating a fresh lock: returning it, returning it with a fresh ref it
    /// guards, packing both, or using it locally.
    fn declare_allocator(&mut self) -> Decl {
        let name = self.fresh("mk");
        let param = self.fresh("n");
        let ref_int = Shape::reference(Shape::Int);
        let guarded = Shape::pair(Shape::Lock, ref_int.clone());
        let (result, body, guarded_pair) = match self.rng.weighted(&[3, 3, 2, 2]) {
            0 => (Shape::Lock, newlock(), false),
            1 => (guarded, pair(newlock(), ref_(var(&param))), true),
            2 => {
                let (lock, cell) = (self.fresh("m"), self.fresh("c"));
                let body = let_(
                    &lock,
                    newlock(),
                    let_(
                        &cell,
                        ref_(var(&param)),
                        seq(
                            assign(var(&cell), var(&lock), int(1)),
                            pair(var(&lock), var(&cell)),
                        ),
                    ),
                );
                (guarded, body, true)
            }
            _ => {
                let shape = Shape::packed(Shape::Lock, ref_int);
                (shape, pack(pair(newlock(), ref_(var(&param)))), false)
            }
        };
        let shape = Shape::fun(Shape::Int, result);
        self.bind(
            &name,
            shape,
            Role::Function(FunInfo {
                guarded_pair,
                ..FunInfo::default()
            }),
        );
        Decl::Let(name, fun(&param, body))
    }

    /// `let q = (lock, ref)` from a guard, a pair maker or an allocator; `q.2` is guarded by
    /// `q.1`.
    fn declare_pair(&mut self, depth: u32) -> Decl {
        let name = self.fresh("q");
        let contents = Shape::Int;
        let shape = Shape::pair(Shape::Lock, Shape::reference(contents.clone()));
        let makers: Vec<(Path, Shape, usize)> = self
            .calls_for(&shape)
            .into_iter()
            .filter(|(path, fun_shape, count)| {
                *count == fun_shape.params().0.len() && self.fun_info(path, fun_shape).guarded_pair
            })
            .collect();
        let value = if !makers.is_empty() && self.rng.chance(0.5) {
            let (path, fun_shape, count) = self.rng.pick(&makers).clone();
            self.call(&path, &fun_shape, count, depth.saturating_sub(1))
        } else {
            self.guarded_pair(&contents, depth.saturating_sub(1))
        };
        let path = Path::var(&name);
        self.bind(&name, shape, Role::Plain);
        self.guard(path.proj(2), path.proj(1), contents, true);
        Decl::Let(name, value)
    }

    /// A flag ref and a `let rec` loop over it: the body runs, then the loop calls itself once
    /// more if the flag was 0. Variants allocate a lock inside the loop, take a lock and a ref
    /// (polymorphic recursion), or return a freshly allocated lock.
    fn declare_loop(&mut self, depth: u32) -> Vec<Decl> {
        let Some(lock) = self.choose_lock() else {
            return vec![self.declare_lock()];
        };
        let flag = self.fresh("flag");
        let flag_decl = Decl::Let(flag.clone(), ref_(int(0)));
        self.bind(&flag, Shape::reference(Shape::Int), Role::Flag);
        self.guard(Path::var(&flag), lock.clone(), Shape::Int, false);
        let name = self.fresh("loop");
        let param = self.fresh("v");
        let recurse = |call: Term| {
            if0(
                deref(lock.term(), var(&flag)),
                seq(assign(var(&flag), lock.term(), int(1)), call),
                int(0),
            )
        };
        let mark = self.mark();
        let escaping = if self.rng.chance(self.hazard) { 3 } else { 0 };
        let variant = self.rng.weighted(&[4, 3, 3, escaping]);
        let (shape, info, body) = match variant {
            0 | 1 => {
                let param_shape = match self.rng.weighted(&[3, 1, 2]) {
                    0 => Shape::Int,
                    1 => Shape::Lock,
                    _ => Shape::reference(Shape::Int),
                };
                let shape = Shape::fun(param_shape.clone(), Shape::Int);
                let mut info = FunInfo::default();
                self.bind(&name, shape.clone(), Role::Hidden);
                self.bind(&param, param_shape.clone(), Role::Plain);
                if param_shape == Shape::reference(Shape::Int) {
                    let fixed = self.choose_lock().unwrap_or_else(|| lock.clone());
                    self.guard(Path::var(&param), fixed.clone(), Shape::Int, true);
                    info.guards.push((0, LockSpec::Fixed(fixed)));
                }
                let work = if variant == 0 {
                    self.statement(depth.saturating_sub(1))
                } else {
                    self.local_work(depth.saturating_sub(1))
                };
                (
                    shape,
                    info,
                    seq(work, recurse(app(var(&name), var(&param)))),
                )
            }
            2 => {
                let contents = Shape::Int;
                let reference = Shape::reference(contents.clone());
                let shape = Shape::curried(&[Shape::Lock, reference.clone()], Shape::Int);
                let second = self.fresh("r");
                self.bind(&name, shape.clone(), Role::Hidden);
                self.bind(&param, Shape::Lock, Role::Plain);
                self.bind(&second, reference, Role::Plain);
                let guard = Guard {
                    target: Path::var(&second),
                    lock: Path::var(&param),
                    contents,
                    writable: true,
                };
                self.scope.push(Entry::Guard(guard.clone()));
                let work = self.access(&guard, depth.saturating_sub(1));
                let body = fun(
                    &second,
                    seq(work, recurse(apps(var(&name), [var(&param), var(&second)]))),
                );
                let info = FunInfo {
                    guards: default_guards(&shape),
                    ..FunInfo::default()
                };
                (shape, info, body)
            }
            _ => {
                let shape = Shape::fun(Shape::Int, Shape::Lock);
                self.bind(&name, shape.clone(), Role::Hidden);
                self.bind(&param, Shape::Int, Role::Plain);
                let body = if0(
                    deref(lock.term(), var(&flag)),
                    seq(
                        assign(var(&flag), lock.term(), int(1)),
                        app(var(&name), var(&param)),
                    ),
                    newlock(),
                );
                (shape, FunInfo::default(), body)
            }
        };
        self.restore(mark);
        let info = FunInfo {
            reset: Some((Path::var(&flag), lock.clone())),
            ..info
        };
        self.bind(&name, shape, Role::Function(info));
        vec![flag_decl, Decl::LetRec(name, param, body)]
    }

    /// Work inside a loop body that allocates a lock and a ref and accesses the ref holding the
    /// lock; with a small probability it also accesses an outer ref under the local lock.
    fn local_work(&mut self, depth: u32) -> Term {
        let (lock, cell) = (self.fresh("m"), self.fresh("c"));
        let outer = self.writable_guards(Some(&Shape::Int));
        let mark = self.mark();
        self.bind(&lock, Shape::Lock, Role::Plain);
        self.bind(&cell, Shape::reference(Shape::Int), Role::Plain);
        let guard = Guard {
            target: Path::var(&cell),
            lock: Path::var(&lock),
            contents: Shape::Int,
            writable: true,
        };
        self.scope.push(Entry::Guard(guard.clone()));
        let mut work = self.access(&guard, depth);
        if !outer.is_empty() && self.rng.chance(self.hazard * 2.0) {
            let victim = self.rng.pick(&outer).clone();
            work = seq(assign(victim.target.term(), var(&lock), int(2)), work);
        } else if self.rng.chance(0.4) {
            work = seq(work, self.statement(depth));
        }
        self.restore(mark);
        let_(
            &lock,
            newlock(),
            let_(&cell, ref_(int(self.literal())), work),
        )
    }

    /// `let p = pack (lock, ref)`, possibly choosing between two packages as in the paper's
    /// figure 10.
    fn declare_package(&mut self, depth: u32) -> Decl {
        let name = self.fresh("p");
        let contents = (Shape::Lock, Shape::reference(Shape::Int));
        let first = pack(self.gen_pair(&contents.0, &contents.1, depth.saturating_sub(1)));
        let value = if self.rng.chance(0.5) {
            let cond = self.condition(depth.saturating_sub(1));
            let second = pack(pair(newlock(), ref_(int(self.literal()))));
            if0(cond, first, second)
        } else {
            first
        };
        self.bind(&name, Shape::packed(contents.0, contents.1), Role::Plain);
        Decl::Let(name, value)
    }

    /// A function that allocates a lock and a ref locally and uses them.
    fn declare_local(&mut self, depth: u32) -> Decl {
        let name = self.fresh("use");
        let param = self.fresh("n");
        let shape = Shape::fun(Shape::Int, Shape::Int);
        let mark = self.mark();
        self.bind(&param, Shape::Int, Role::Plain);
        let work = self.local_work(depth.saturating_sub(1));
        let body = seq(work, var(&param));
        self.restore(mark);
        self.bind(&name, shape, Role::Function(FunInfo::default()));
        Decl::Let(name, fun(&param, body))
    }

    /// `let y = path`: an alias of a lock, a guarded ref or a function (a non-value `let`, so the
    /// alias is monomorphic).
    fn declare_alias(&mut self, depth: u32) -> Decl {
        let name = self.fresh("a");
        let guards: Vec<Guard> = self
            .writable_guards(None)
            .into_iter()
            .filter(|guard| guard.contents != Shape::Lock)
            .collect();
        let functions = self.functions();
        let choice = self.rng.weighted(&[
            2,
            if guards.is_empty() { 0 } else { 3 },
            if functions.is_empty() { 0 } else { 2 },
        ]);
        match choice {
            1 => {
                let guard = self.rng.pick(&guards).clone();
                let value = self.target_for(&guard).term();
                let shape = Shape::reference(guard.contents.clone());
                self.bind(&name, shape, Role::Plain);
                self.guard(Path::var(&name), guard.lock, guard.contents, true);
                Decl::Let(name, value)
            }
            2 => {
                let (path, shape) = self.rng.pick(&functions).clone();
                let info = self.fun_info(&path, &shape);
                self.bind(
                    &name,
                    shape,
                    Role::Function(FunInfo {
                        reset: None,
                        ..info
                    }),
                );
                Decl::Let(name, path.term())
            }
            _ => {
                let value = self.gen(&Shape::Lock, depth.min(1));
                self.bind(&name, Shape::Lock, Role::Plain);
                Decl::Let(name, value)
            }
        }
    }

    /// `let x = e` for a random shape, with the value generated freely.
    fn declare_value(&mut self, depth: u32) -> Decl {
        let name = self.fresh("v");
        let shape = self.random_shape();
        let value = self.gen(&shape, depth.saturating_sub(1));
        let role = match shape {
            Shape::Fun(..) => Role::Function(FunInfo {
                guards: default_guards(&shape),
                ..FunInfo::default()
            }),
            _ => Role::Plain,
        };
        self.bind(&name, shape, role);
        Decl::Let(name, value)
    }
}

/// The conventional guards of a function shape: every ref parameter is accessed holding the
/// first lock parameter, if there is one.
fn default_guards(shape: &Shape) -> Vec<(usize, LockSpec)> {
    let (params, _) = shape.params();
    let Some(lock) = params.iter().position(|param| **param == Shape::Lock) else {
        return Vec::new();
    };
    params
        .iter()
        .enumerate()
        .filter(|(_, param)| matches!(param, Shape::Ref(_)))
        .map(|(index, _)| (index, LockSpec::Param(lock)))
        .collect()
}
