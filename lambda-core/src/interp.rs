//! A call-by-value reference interpreter for λ▷ (paper §2.3, "Soundness").
//!
//! The paper states soundness over an operational semantics in which every evaluation of
//! `newlock` creates a fresh lock constant `L` and every evaluation of `ref v` creates a fresh
//! location constant `R`. This module implements exactly that semantics and records, in execution
//! order, every access `![L] R` and `R :=[L] v` together with the constants involved, so that tests
//! can check the soundness theorem: if the analysis accepts a program, no run of it accesses one
//! location `R` under two different locks `L`.
//!
//! The interpreter is an abstract machine with an explicit continuation stack, so evaluating a
//! deeply nested or deeply recursive program never consumes host stack. Closures, pairs and
//! environments live in arenas owned by the run, which also keeps dropping them cheap and
//! non-recursive. Every run is bounded by its fuel and by fixed resource limits, and a program
//! that goes wrong dynamically ends in [`Outcome::Stuck`]; [`run`] never panics.

use crate::ast::{ExprId, ExprKind, Program, Span};
use solver::ids::IndexVec;

solver::define_id!(
    /// A run-time location constant `R`, created by one evaluation of a `ref e` expression.
    pub struct LocId, "R";
);

solver::define_id!(
    /// A run-time lock constant `L`, created by one evaluation of a `newlock` expression.
    pub struct LockId, "L";
);

/// The maximum number of pending continuation frames, that is, of simultaneously unfinished
/// evaluations. Reaching it ends the run with [`Outcome::OutOfFuel`].
pub const MAX_NESTING: usize = 1 << 20;

/// The maximum nesting of pairs and packages inside one value. Reaching it ends the run with
/// [`Outcome::OutOfFuel`]; well-typed programs never come close, since their values are bounded
/// by their shapes.
pub const MAX_VALUE_DEPTH: u32 = 1_000;

/// One memory access performed by a run: location `loc` was read (`write == false`) or written
/// (`write == true`) while holding lock `lock`, by the `Deref` or `Assign` expression at `span`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    pub loc: LocId,
    pub lock: LockId,
    pub write: bool,
    pub span: Span,
}

/// A run-time value, as returned by a run that finishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A function value, named by the `fun` or `let rec` expression that created it (its captured
    /// environment is not exposed).
    Closure(ExprId),
    /// A pair of values.
    Pair(Box<Value>, Box<Value>),
    /// A lock constant.
    Lock(LockId),
    /// A location constant.
    Loc(LocId),
    /// The result of `pack e`.
    Packed(Box<Value>),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The program evaluated to this value.
    Value(Value),
    /// The run used up its fuel, or reached [`MAX_NESTING`] or [`MAX_VALUE_DEPTH`], before
    /// finishing.
    OutOfFuel,
    /// Evaluation reached a dynamic type error (or an unbound variable) at the expression `span`.
    Stuck { message: String, span: Span },
}

/// The result of interpreting a program: its outcome, the accesses it performed and where each
/// run-time constant was allocated.
#[derive(Clone, Debug)]
pub struct Run {
    pub outcome: Outcome,
    /// Every access, in execution order.
    pub accesses: Vec<Access>,
    /// The `ref` expression that allocated each location constant.
    pub loc_sites: IndexVec<LocId, ExprId>,
    /// The `newlock` expression that allocated each lock constant.
    pub lock_sites: IndexVec<LockId, ExprId>,
}

impl Run {
    /// For every location constant, the distinct locks it was accessed under, in increasing order.
    pub fn locks_per_location(&self) -> IndexVec<LocId, Vec<LockId>> {
        let mut locks: IndexVec<LocId, Vec<LockId>> =
            IndexVec::from_elem_n(Vec::new(), self.loc_sites.len());
        for access in &self.accesses {
            locks.ensure(access.loc, Vec::new());
            locks[access.loc].push(access.lock);
        }
        for held in locks.iter_mut() {
            held.sort();
            held.dedup();
        }
        locks
    }

    /// The location constants that were accessed under two or more different locks, in increasing
    /// order; the run was consistently correlated exactly when this is empty.
    pub fn inconsistent_locations(&self) -> Vec<LocId> {
        self.locks_per_location()
            .iter_enumerated()
            .filter(|(_, held)| held.len() > 1)
            .map(|(loc, _)| loc)
            .collect()
    }

    /// Whether every location constant was accessed under at most one lock constant.
    pub fn is_consistently_correlated(&self) -> bool {
        self.inconsistent_locations().is_empty()
    }
}

/// Evaluates `program` call-by-value, starting at its root, for at most `fuel` expression
/// evaluations.
///
/// Each time the interpreter starts evaluating an expression it consumes one unit of fuel; when
/// none is left the run ends with [`Outcome::OutOfFuel`] and keeps the accesses recorded so far.
pub fn run(program: &Program, fuel: u64) -> Run {
    let mut machine = Machine::new(program, fuel);
    let outcome = match machine.execute() {
        Ok(value) => Outcome::Value(machine.export(value)),
        Err(Halt::OutOfFuel) => Outcome::OutOfFuel,
        Err(Halt::Stuck { message, span }) => Outcome::Stuck { message, span },
    };
    Run {
        outcome,
        accesses: machine.accesses,
        loc_sites: machine.loc_sites,
        lock_sites: machine.lock_sites,
    }
}

/// An index into the environment arena; `None` is the empty environment.
type Env = Option<u32>;

/// A machine value: small and `Copy`, with compound values stored in the arenas.
#[derive(Copy, Clone, Debug)]
enum Val {
    Int(i64),
    Closure(u32),
    Pair(u32),
    Lock(LockId),
    Loc(LocId),
    Packed(u32),
}

impl Val {
    /// A description of the value's kind, for error messages.
    fn describe(self) -> &'static str {
        match self {
            Val::Int(_) => "an integer",
            Val::Closure(_) => "a function",
            Val::Pair(_) => "a pair",
            Val::Lock(_) => "a lock",
            Val::Loc(_) => "a location",
            Val::Packed(_) => "a package",
        }
    }
}

/// One binding of an environment, linked to the rest of the environment.
struct EnvNode<'p> {
    name: &'p str,
    value: Val,
    next: Env,
}

/// A closure: the parameter and body of a function, its captured environment, and the expression
/// that created it.
struct Closure<'p> {
    param: &'p str,
    body: ExprId,
    env: Env,
    origin: ExprId,
}

/// A pair or package stored in an arena, with the nesting depth of the compound value.
struct Compound<T> {
    contents: T,
    depth: u32,
}

/// What the machine does next: evaluate an expression, or hand a value to the innermost frame.
enum Control {
    Eval(ExprId, Env),
    Return(Val),
}

/// A pending piece of work, waiting for the value of a subexpression.
enum Frame<'p> {
    /// The function of `func arg` has been evaluated; evaluate the argument next.
    AppArg {
        arg: ExprId,
        env: Env,
        func_expr: ExprId,
    },
    /// Both sides of an application are values; call the function.
    AppCall { func: Val, func_expr: ExprId },
    /// The condition of an `if0` has been evaluated.
    If0 {
        cond: ExprId,
        then_branch: ExprId,
        else_branch: ExprId,
        env: Env,
    },
    /// The left component of a pair has been evaluated; evaluate the right one.
    PairRight { right: ExprId, env: Env },
    /// Both components of a pair are values.
    PairBuild { left: Val },
    /// Project a component out of the pair computed by `tuple`.
    Proj {
        index: u8,
        tuple: ExprId,
        proj: ExprId,
    },
    /// Bind the value of a `let` and evaluate its body.
    LetBody {
        name: &'p str,
        body: ExprId,
        env: Env,
    },
    /// The first expression of a sequence has been evaluated; evaluate the second.
    SeqSecond { second: ExprId, env: Env },
    /// Allocate a location holding the value, for the `ref` expression `site`.
    RefAlloc { site: ExprId },
    /// The lock of `![lock] target` has been evaluated; evaluate the target next.
    DerefTarget {
        lock_expr: ExprId,
        target: ExprId,
        env: Env,
        site: ExprId,
    },
    /// Read the location computed by `target_expr` holding `lock`.
    DerefRead {
        lock: LockId,
        target_expr: ExprId,
        site: ExprId,
    },
    /// The target of `target :=[lock] value` has been evaluated; evaluate the lock next.
    AssignLock {
        target_expr: ExprId,
        lock_expr: ExprId,
        value: ExprId,
        env: Env,
        site: ExprId,
    },
    /// Target and lock of an assignment are known; evaluate the value next.
    AssignValue {
        loc: LocId,
        lock_expr: ExprId,
        value: ExprId,
        env: Env,
        site: ExprId,
    },
    /// Store the value into `loc` holding `lock`.
    AssignStore {
        loc: LocId,
        lock: LockId,
        site: ExprId,
    },
    /// Wrap the value into a package.
    Pack,
    /// Open the package computed by `package_expr` and evaluate the body.
    UnpackBody {
        first: &'p str,
        second: &'p str,
        package_expr: ExprId,
        body: ExprId,
        env: Env,
    },
}

/// Why the machine stopped without a value.
enum Halt {
    OutOfFuel,
    Stuck { message: String, span: Span },
}

struct Machine<'p> {
    program: &'p Program,
    fuel: u64,
    stack: Vec<Frame<'p>>,
    envs: Vec<EnvNode<'p>>,
    closures: Vec<Closure<'p>>,
    pairs: Vec<Compound<(Val, Val)>>,
    packages: Vec<Compound<Val>>,
    store: IndexVec<LocId, Val>,
    accesses: Vec<Access>,
    loc_sites: IndexVec<LocId, ExprId>,
    lock_sites: IndexVec<LockId, ExprId>,
}

impl<'p> Machine<'p> {
    fn new(program: &'p Program, fuel: u64) -> Machine<'p> {
        Machine {
            program,
            fuel,
            stack: Vec::new(),
            envs: Vec::new(),
            closures: Vec::new(),
            pairs: Vec::new(),
            packages: Vec::new(),
            store: IndexVec::new(),
            accesses: Vec::new(),
            loc_sites: IndexVec::new(),
            lock_sites: IndexVec::new(),
        }
    }

    /// Runs the machine from the program's root to a final value.
    fn execute(&mut self) -> Result<Val, Halt> {
        let root = self.program.root;
        if self.program.exprs.get(root).is_none() {
            return Err(Halt::Stuck {
                message: "the program's root is not an expression of the program".to_string(),
                span: Span::default(),
            });
        }
        let mut control = Control::Eval(root, None);
        loop {
            control = match control {
                Control::Eval(expr, env) => {
                    if self.fuel == 0 {
                        return Err(Halt::OutOfFuel);
                    }
                    self.fuel -= 1;
                    self.eval(expr, env)?
                }
                Control::Return(value) => match self.stack.pop() {
                    None => return Ok(value),
                    Some(frame) => self.resume(frame, value)?,
                },
            };
        }
    }

    /// Starts evaluating `id` in `env`.
    fn eval(&mut self, id: ExprId, env: Env) -> Result<Control, Halt> {
        let program = self.program;
        let Some(expr) = program.exprs.get(id) else {
            return Err(Halt::Stuck {
                message: format!("expression {id:?} is not part of the program"),
                span: Span::default(),
            });
        };
        let control = match &expr.kind {
            ExprKind::Var(name) => match self.lookup(env, name) {
                Some(value) => Control::Return(value),
                None => {
                    return Err(Halt::Stuck {
                        message: format!("unbound variable `{name}`"),
                        span: expr.span,
                    })
                }
            },
            ExprKind::Int(n) => Control::Return(Val::Int(*n)),
            ExprKind::Fun { param, body } => {
                let closure = self.closures.len() as u32;
                self.closures.push(Closure {
                    param: &param.name,
                    body: *body,
                    env,
                    origin: id,
                });
                Control::Return(Val::Closure(closure))
            }
            ExprKind::App { func, arg } => {
                self.push(Frame::AppArg {
                    arg: *arg,
                    env,
                    func_expr: *func,
                })?;
                Control::Eval(*func, env)
            }
            ExprKind::If0 {
                cond,
                then_branch,
                else_branch,
            } => {
                self.push(Frame::If0 {
                    cond: *cond,
                    then_branch: *then_branch,
                    else_branch: *else_branch,
                    env,
                })?;
                Control::Eval(*cond, env)
            }
            ExprKind::Pair(left, right) => {
                self.push(Frame::PairRight { right: *right, env })?;
                Control::Eval(*left, env)
            }
            ExprKind::Proj { tuple, index } => {
                self.push(Frame::Proj {
                    index: *index,
                    tuple: *tuple,
                    proj: id,
                })?;
                Control::Eval(*tuple, env)
            }
            ExprKind::Let { name, value, body } => {
                self.push(Frame::LetBody {
                    name: &name.name,
                    body: *body,
                    env,
                })?;
                Control::Eval(*value, env)
            }
            ExprKind::LetRec {
                name,
                param,
                fun_body,
                body,
                ..
            } => {
                let closure = self.closures.len() as u32;
                self.closures.push(Closure {
                    param: &param.name,
                    body: *fun_body,
                    env: None,
                    origin: id,
                });
                let rec_env = self.bind(&name.name, Val::Closure(closure), env);
                self.closures[closure as usize].env = rec_env;
                Control::Eval(*body, rec_env)
            }
            ExprKind::Seq(first, second) => {
                self.push(Frame::SeqSecond {
                    second: *second,
                    env,
                })?;
                Control::Eval(*first, env)
            }
            ExprKind::Newlock => {
                let lock = self.lock_sites.push(id);
                Control::Return(Val::Lock(lock))
            }
            ExprKind::Ref(init) => {
                self.push(Frame::RefAlloc { site: id })?;
                Control::Eval(*init, env)
            }
            ExprKind::Deref { lock, target } => {
                self.push(Frame::DerefTarget {
                    lock_expr: *lock,
                    target: *target,
                    env,
                    site: id,
                })?;
                Control::Eval(*lock, env)
            }
            ExprKind::Assign {
                target,
                lock,
                value,
            } => {
                self.push(Frame::AssignLock {
                    target_expr: *target,
                    lock_expr: *lock,
                    value: *value,
                    env,
                    site: id,
                })?;
                Control::Eval(*target, env)
            }
            ExprKind::Pack(contents) => {
                self.push(Frame::Pack)?;
                Control::Eval(*contents, env)
            }
            ExprKind::Unpack {
                first,
                second,
                package,
                body,
            } => {
                self.push(Frame::UnpackBody {
                    first: &first.name,
                    second: &second.name,
                    package_expr: *package,
                    body: *body,
                    env,
                })?;
                Control::Eval(*package, env)
            }
        };
        Ok(control)
    }

    /// Hands `value` to the pending `frame`.
    fn resume(&mut self, frame: Frame<'p>, value: Val) -> Result<Control, Halt> {
        let control = match frame {
            Frame::AppArg {
                arg,
                env,
                func_expr,
            } => {
                self.push(Frame::AppCall {
                    func: value,
                    func_expr,
                })?;
                Control::Eval(arg, env)
            }
            Frame::AppCall { func, func_expr } => {
                let Val::Closure(closure) = func else {
                    return Err(self.mismatch("a function", func, func_expr));
                };
                let closure = &self.closures[closure as usize];
                let (param, body, env) = (closure.param, closure.body, closure.env);
                let env = self.bind(param, value, env);
                Control::Eval(body, env)
            }
            Frame::If0 {
                cond,
                then_branch,
                else_branch,
                env,
            } => match value {
                Val::Int(0) => Control::Eval(then_branch, env),
                Val::Int(_) => Control::Eval(else_branch, env),
                other => return Err(self.mismatch("an integer", other, cond)),
            },
            Frame::PairRight { right, env } => {
                self.push(Frame::PairBuild { left: value })?;
                Control::Eval(right, env)
            }
            Frame::PairBuild { left } => Control::Return(self.new_pair(left, value)?),
            Frame::Proj { index, tuple, proj } => {
                Control::Return(self.project(value, index, tuple, proj)?)
            }
            Frame::LetBody { name, body, env } => {
                let env = self.bind(name, value, env);
                Control::Eval(body, env)
            }
            Frame::SeqSecond { second, env } => Control::Eval(second, env),
            Frame::RefAlloc { site } => {
                let loc = self.store.push(value);
                self.loc_sites.push(site);
                Control::Return(Val::Loc(loc))
            }
            Frame::DerefTarget {
                lock_expr,
                target,
                env,
                site,
            } => {
                let Val::Lock(lock) = value else {
                    return Err(self.mismatch("a lock", value, lock_expr));
                };
                self.push(Frame::DerefRead {
                    lock,
                    target_expr: target,
                    site,
                })?;
                Control::Eval(target, env)
            }
            Frame::DerefRead {
                lock,
                target_expr,
                site,
            } => {
                let Val::Loc(loc) = value else {
                    return Err(self.mismatch("a location", value, target_expr));
                };
                self.record(loc, lock, false, site);
                Control::Return(self.store[loc])
            }
            Frame::AssignLock {
                target_expr,
                lock_expr,
                value: value_expr,
                env,
                site,
            } => {
                let Val::Loc(loc) = value else {
                    return Err(self.mismatch("a location", value, target_expr));
                };
                self.push(Frame::AssignValue {
                    loc,
                    lock_expr,
                    value: value_expr,
                    env,
                    site,
                })?;
                Control::Eval(lock_expr, env)
            }
            Frame::AssignValue {
                loc,
                lock_expr,
                value: value_expr,
                env,
                site,
            } => {
                let Val::Lock(lock) = value else {
                    return Err(self.mismatch("a lock", value, lock_expr));
                };
                self.push(Frame::AssignStore { loc, lock, site })?;
                Control::Eval(value_expr, env)
            }
            Frame::AssignStore { loc, lock, site } => {
                self.record(loc, lock, true, site);
                self.store[loc] = value;
                Control::Return(value)
            }
            Frame::Pack => Control::Return(self.new_package(value)?),
            Frame::UnpackBody {
                first,
                second,
                package_expr,
                body,
                env,
            } => {
                let (left, right) = self.open(value, package_expr)?;
                let env = self.bind(first, left, env);
                let env = self.bind(second, right, env);
                Control::Eval(body, env)
            }
        };
        Ok(control)
    }

    /// Stores the pair `(left, right)`; a pair nested deeper than [`MAX_VALUE_DEPTH`] ends the run.
    fn new_pair(&mut self, left: Val, right: Val) -> Result<Val, Halt> {
        let depth = self.depth(left).max(self.depth(right)) + 1;
        if depth > MAX_VALUE_DEPTH {
            return Err(Halt::OutOfFuel);
        }
        let pair = self.pairs.len() as u32;
        self.pairs.push(Compound {
            contents: (left, right),
            depth,
        });
        Ok(Val::Pair(pair))
    }

    /// Component `index` of `value`, the value of `tuple` in the projection `proj`.
    fn project(&self, value: Val, index: u8, tuple: ExprId, proj: ExprId) -> Result<Val, Halt> {
        let Val::Pair(pair) = value else {
            return Err(self.mismatch("a pair", value, tuple));
        };
        let (left, right) = self.pairs[pair as usize].contents;
        match index {
            1 => Ok(left),
            2 => Ok(right),
            _ => Err(Halt::Stuck {
                message: format!("projection index {index} is neither 1 nor 2"),
                span: self.span(proj),
            }),
        }
    }

    /// Records an access to `loc` holding `lock` by the `Deref` or `Assign` expression `site`.
    fn record(&mut self, loc: LocId, lock: LockId, write: bool, site: ExprId) {
        self.accesses.push(Access {
            loc,
            lock,
            write,
            span: self.span(site),
        });
    }

    /// Stores the package of `contents` (`pack`); one nested deeper than [`MAX_VALUE_DEPTH`] ends
    /// the run.
    fn new_package(&mut self, contents: Val) -> Result<Val, Halt> {
        let depth = self.depth(contents) + 1;
        if depth > MAX_VALUE_DEPTH {
            return Err(Halt::OutOfFuel);
        }
        let package = self.packages.len() as u32;
        self.packages.push(Compound { contents, depth });
        Ok(Val::Packed(package))
    }

    /// The two components of the package `value` computed by `package_expr`, opened by `unpack`.
    fn open(&self, value: Val, package_expr: ExprId) -> Result<(Val, Val), Halt> {
        let Val::Packed(package) = value else {
            return Err(self.mismatch("a package", value, package_expr));
        };
        let contents = self.packages[package as usize].contents;
        let Val::Pair(pair) = contents else {
            return Err(Halt::Stuck {
                message: format!(
                    "expected a package of a pair, found a package of {}",
                    contents.describe()
                ),
                span: self.span(package_expr),
            });
        };
        Ok(self.pairs[pair as usize].contents)
    }

    fn push(&mut self, frame: Frame<'p>) -> Result<(), Halt> {
        if self.stack.len() >= MAX_NESTING {
            return Err(Halt::OutOfFuel);
        }
        self.stack.push(frame);
        Ok(())
    }

    fn bind(&mut self, name: &'p str, value: Val, next: Env) -> Env {
        let node = self.envs.len() as u32;
        self.envs.push(EnvNode { name, value, next });
        Some(node)
    }

    fn lookup(&self, mut env: Env, name: &str) -> Option<Val> {
        while let Some(node) = env {
            let node = &self.envs[node as usize];
            if node.name == name {
                return Some(node.value);
            }
            env = node.next;
        }
        None
    }

    /// The nesting depth of pairs and packages in `value`.
    fn depth(&self, value: Val) -> u32 {
        match value {
            Val::Pair(pair) => self.pairs[pair as usize].depth,
            Val::Packed(package) => self.packages[package as usize].depth,
            _ => 0,
        }
    }

    fn span(&self, id: ExprId) -> Span {
        self.program
            .exprs
            .get(id)
            .map(|expr| expr.span)
            .unwrap_or_default()
    }

    fn mismatch(&self, expected: &str, found: Val, at: ExprId) -> Halt {
        Halt::Stuck {
            message: format!("expected {expected}, found {}", found.describe()),
            span: self.span(at),
        }
    }

    /// Converts a machine value into a self-contained [`Value`]. The recursion is bounded by
    /// [`MAX_VALUE_DEPTH`].
    fn export(&self, value: Val) -> Value {
        match value {
            Val::Int(n) => Value::Int(n),
            Val::Closure(closure) => Value::Closure(self.closures[closure as usize].origin),
            Val::Pair(pair) => {
                let (left, right) = self.pairs[pair as usize].contents;
                Value::Pair(Box::new(self.export(left)), Box::new(self.export(right)))
            }
            Val::Lock(lock) => Value::Lock(lock),
            Val::Loc(loc) => Value::Loc(loc),
            Val::Packed(package) => Value::Packed(Box::new(
                self.export(self.packages[package as usize].contents),
            )),
        }
    }
}
