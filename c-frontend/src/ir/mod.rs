//! A small CIL-like intermediate representation of a C program.
//!
//! Each function is a control-flow graph of simple statements over lvalues with explicit
//! dereferences and field projections. Expressions with side effects, short-circuit operators and
//! conditionals are already split into statements and control flow, so every memory access is
//! visible as the use or definition of an [`Lval`], and every call is a [`StmtKind::Call`].
//! The lang-c AST is dropped once a unit is lowered.
//!
//! Invariants the lowering guarantees and later passes rely on:
//! - every function has at least one block; `BlockId(0)` is its entry;
//! - every `Lval`, `Operand` and variable has its C type available ([`Program::lval_type`],
//!   [`Program::operand_type`]);
//! - an expression of array type used as a value is `AddrOf` of the array lvalue (decay), so
//!   `Use` never reads a whole array;
//! - a variable whose address may be taken (`&x`, an array, or a struct whose field address is
//!   taken) has `address_taken` set; other locals cannot be shared between threads.

pub mod compatible;
pub mod ctypes;
pub mod dump;
pub mod visit;

use solver::define_id;
use solver::ids::IndexVec;

use crate::diagnostics::Unanalysed;
use crate::ir::ctypes::{StructId, Type, TypeId, TypeTable};
use crate::model::{Kind, Spec};

define_id!(
    /// A source file named in line markers (an original file, not a preprocessed unit).
    pub struct FileId, "file";
);
define_id!(
    /// A function (defined or only declared) of the linked program.
    pub struct FuncId, "fn";
);
define_id!(
    /// A variable: global, local, parameter, temporary or string literal.
    pub struct VarId, "v";
);
define_id!(
    /// A basic block of a function.
    pub struct BlockId, "bb";
);

/// A position in an original source file (1-based line and column).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub file: FileId,
    pub line: u32,
    pub column: u32,
}

/// Where a function or variable comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The user's program.
    User,
    /// locksmith's libc stubs: accesses inside are reported at the user's call site.
    Stub,
    /// The synthetic function holding the initializers of globals, run before `main`.
    GlobalInit,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub files: IndexVec<FileId, String>,
    pub types: TypeTable,
    pub vars: IndexVec<VarId, Var>,
    pub funcs: IndexVec<FuncId, Func>,
    /// The synthetic function with the initializers of all globals (origin `GlobalInit`).
    pub global_init: FuncId,
    pub unanalysed: Vec<Unanalysed>,
    /// The branches decided by configuration that never changes ([`crate::fold`]).
    pub folded: crate::fold::Folded,
    /// The program's own readers/writer lock functions, modelled as lock calls
    /// ([`crate::rwlocks`]).
    pub rwlocks: crate::rwlocks::Recognised,
    /// Each thunk ([`crate::lower::thunks`]) with the library function it calls, by thunk id.
    pub thunks: Vec<(FuncId, FuncId)>,
    /// What the library model says about each function the program calls but does not define,
    /// and about each function the user's configuration names (see [`Program::known`]).
    pub known: IndexVec<FuncId, Option<Spec>>,
    /// The library stubs and functions of the program that keep none of their pointer arguments, sorted
    /// ([`crate::analyses::stub_captures`]); empty until the analyses stage finds them.
    pub non_capturing_functions: Vec<FuncId>,
    /// For each position of a `sem_init` or `pthread_barrier_init` call
    /// ([`crate::model::Kind::SemInit`], [`crate::model::Kind::BarrierInit`]), the constant
    /// value of its value or count argument in each call written there (`None`: not a constant).
    pub init_values: rustc_hash::FxHashMap<Pos, Vec<Option<i64>>>,
    /// The assignments that add a constant to an integer lvalue (`c++`, `--c`, `c -= 2`,
    /// `c = c + 1`), by the position of the statement that writes it: the constant added
    /// (negative for a subtraction). [`Operand::Arith`] keeps no operator, so this is the only
    /// place that tells a count up from a count down. A position where two expressions would
    /// record different steps records 0, which no reader takes as a step.
    pub steps: rustc_hash::FxHashMap<Pos, i64>,
    /// Whether some `pthread_mutexattr_settype` call may make an error-checking mutex
    /// ([`crate::model::relock_may_fail`]): then no mutex counts its holds.
    pub relock_may_fail: bool,
    /// The structs declared existential with `LOCKSMITH_EXISTENTIAL` (`locksmith.h`, paper
    /// §3.3).
    pub existentials: Vec<Existential>,
    /// Misused annotations found while lowering (a declaration naming no such field).
    pub annotations: Vec<crate::diagnostics::Annotation>,
    /// Functions the program defines whose body the user's configuration replaced
    /// ([`crate::model::user`]): their calls do what it says, and their bodies are not
    /// analysed. In id order.
    pub configured: Vec<FuncId>,
    /// Where the accessed expressions (lvalues, and calls, where a library function's accesses
    /// are reported) written at a position end: the column just past the longest one starting
    /// there, for those that end on the line they start on. Reports underline the
    /// accessed expression with it; [`Pos`] itself stays a start, as it is a key everywhere.
    pub extents: rustc_hash::FxHashMap<Pos, u32>,
    /// The user functions that are allocation wrappers, in id order
    /// ([`crate::analyses::alloc_wrappers`]): a call of one allocates, as a call of `malloc` does
    /// (or reallocates, as a call of `realloc` does).
    pub alloc_wrappers: Vec<crate::analyses::alloc_wrappers::AllocWrapper>,
    /// Each copy of a function the program made ([`crate::specialise`]) with the function it
    /// copies, by copy id (copies are made after every other function): the same statements at
    /// the same blocks and indices.
    pub copies: Vec<(FuncId, FuncId)>,
}

/// A struct declared existential (paper §3.3): its lock field and the fields that lock guards,
/// by index.
#[derive(Clone, Debug)]
pub struct Existential {
    pub strukt: StructId,
    pub lock: u32,
    pub guarded: Vec<u32>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: TypeId,
    pub kind: VarKind,
    pub pos: Pos,
    /// Whether its address may be produced: `&v` (or of a part of it) appears, a nested
    /// function names it ([`Var::captured`]), or it is an array (whose value is its address).
    pub address_taken: bool,
    /// Whether a GNU nested function names this local of its enclosing function (reaching it
    /// through the enclosing frame, from any thread the nested function runs on).
    pub captured: bool,
    /// Whether the user's program declares it or locksmith's libc stubs do (a stub's `static`
    /// is state the C library keeps for itself).
    pub origin: Origin,
    /// Declared `_Atomic` (C11 6.7.3), directly or through a typedef: its reads and writes are
    /// atomic accesses ([`crate::model::Atomic`]). Arrays of atomic elements count.
    pub atomic: bool,
    /// Declared `volatile` (directly, through a typedef, or `T *volatile`): it may change in
    /// ways the program does not show, so it never holds one known value ([`crate::fold`]).
    pub volatile: bool,
    /// Declared `volatile sig_atomic_t` (or an array of them): the one kind of object a signal
    /// handler may write and the code it interrupts read (C11 7.14.1.1 §5), which is not a
    /// race with that handler.
    pub signal_atomic: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// A global, a file-`static` global (one `Var` per file) or a function-`static` local.
    Global {
        thread_local: bool,
        defined: bool,
        is_static: bool,
    },
    /// A local variable of a function (automatic storage).
    Local(FuncId),
    /// The `index`-th parameter of a function.
    Param(FuncId, u32),
    /// A temporary introduced by the lowering.
    Temp(FuncId),
    /// A string literal's character array (static storage, never written by correct programs).
    StringLit,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    /// A `Type::Function`.
    pub ty: TypeId,
    pub params: Vec<VarId>,
    /// Locals and temporaries.
    pub locals: Vec<VarId>,
    /// Empty for a declaration without a body.
    pub blocks: IndexVec<BlockId, Block>,
    pub pos: Pos,
    pub defined: bool,
    pub is_static: bool,
    pub origin: Origin,
    /// The `for` loops of the body that have the canonical counting form, outer loops before the
    /// loops they contain and otherwise in source order. They let a later pass pair a loop that
    /// creates threads with a loop that joins them over the same index range. Empty for a
    /// declaration and for functions the lowering synthesises.
    pub counted_loops: Vec<CountedLoop>,
    /// For each parameter of the prototype, whether it is a pointer to `const` (`const T *p`,
    /// `const T p[]`): C lets the function read the object it points to but not write it
    /// (except through a cast). Empty without a prototype.
    pub const_pointees: Vec<bool>,
}

impl Func {
    /// The calls of this function that name their callee: each with its block, its index in
    /// the block, the callee and the arguments.
    pub fn direct_calls(&self) -> impl Iterator<Item = (BlockId, usize, FuncId, &[Operand])> + '_ {
        self.blocks.iter_enumerated().flat_map(|(b, block)| {
            block
                .stmts
                .iter()
                .enumerate()
                .filter_map(move |(k, stmt)| match &stmt.kind {
                    StmtKind::Call {
                        callee: Callee::Direct(g),
                        args,
                        ..
                    } => Some((b, k, *g, args.as_slice())),
                    _ => None,
                })
        })
    }

    /// The successors of each block by index, for the dataflow problems of the front-end
    /// analyses (`solver::dataflow`).
    pub fn successor_lists(&self) -> Vec<Vec<u32>> {
        self.blocks
            .iter()
            .map(|b| b.term.successors().iter().map(|t| t.0).collect())
            .collect()
    }
}

/// A `for` loop of the form `for (i = START; i OP BOUND; i++)` (or the same loop as CIL writes it,
/// `i = START; while (i OP BOUND) { …; i++; }`, the increment the body's last statement, when
/// no `continue` skips it), recorded by the lowering because
/// the control-flow graph alone no longer says which variable counts the iterations or over which
/// range; a pass matching a `pthread_create` loop with a `pthread_join` loop needs exactly that.
///
/// The lowering recognises only this syntax, so that the record is trustworthy without any
/// analysis: the initializer is `i = START` or a declaration `int i = START` with one declarator;
/// the condition is `i < BOUND`, `i <= BOUND` or `i != BOUND` with the counter itself on the left;
/// the step is `i++`, `++i`, `i += 1` or `i = i + 1`. `START` and a constant `BOUND` are integer
/// constant expressions the lowering can evaluate (literals, macros that expand to them, enum
/// constants and arithmetic on these; not `sizeof`). The record says nothing about the body: it
/// may assign the counter, `break`, `return` or `goto` out of the loop, and the consumer must
/// check on the graph that it does not.
///
/// The block ids are those of the finished function (after the lowering has bypassed empty
/// blocks and merged straight-line blocks), and the lowering guarantees:
/// - `head` is a block of its own that contains no statements (the recognised conditions have
///   no side effects) and whose terminator is
///   `Term::Branch { then_block: body, else_block: exit, .. }`, the condition being the
///   comparison. The condition's lowering creates no intermediate blocks for these forms.
/// - `head` has exactly two predecessors: the block that ends with the initializer's assignment
///   `i = START` followed by `Goto(head)`, and `step`. (The assignment's source is `START` as
///   the lowering renders any constant expression: a constant, or casts and arithmetic of
///   constants, such as `arith(#int)` for `-1`; use `start` for the value.)
/// - `step`'s last statement is the increment, one assignment `i = arith(i, #1)` (with the
///   operands swapped for `i = 1 + i`), and its terminator is `Goto(head)`. It is the `continue` target when the body has a `continue`;
///   otherwise the increment may have been merged into the last block of the body, so `step` can
///   hold body statements before the increment and can even equal `body`.
/// - `body` is the block control enters when the condition holds: the block holding the body's
///   first statements, or, when the body starts with a jump or is empty, where that leads (for
///   an empty body, `step`).
/// - `exit` is where control goes when the condition fails, which is also where every `break`
///   of the loop goes; when the code after the loop starts with a jump, it is that jump's target
///   (for example the `step` of an enclosing loop).
///
/// A loop whose `step` cannot be reached (every path through the body leaves the loop), or whose
/// initializer cannot be reached, is not recorded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountedLoop {
    /// The block that tests the condition.
    pub head: BlockId,
    /// The block control enters when the condition holds (`head`'s `then_block`).
    pub body: BlockId,
    /// The block that ends with the increment and jumps back to `head`.
    pub step: BlockId,
    /// The block control enters when the condition fails (`head`'s `else_block`).
    pub exit: BlockId,
    /// The counter: a local or parameter of this function, of integer type. Whether its address
    /// is taken is not checked here ([`Var::address_taken`] says).
    pub counter: VarId,
    /// The counter's initial value.
    pub start: i64,
    /// How the condition compares the counter with `bound`.
    pub op: LoopCmp,
    /// What the counter is compared with.
    pub bound: LoopBound,
}

/// The comparison of a counted loop's condition, with the counter on the left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopCmp {
    /// `i < bound`.
    Lt,
    /// `i <= bound`.
    Le,
    /// `i != bound`.
    Ne,
}

/// What a counted loop compares its counter with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopBound {
    /// An integer constant expression, evaluated.
    Const(i64),
    /// A variable of integer type (a global, local or parameter other than the counter), read
    /// at every test; the record does not say whether the loop changes it.
    Var(VarId),
    /// An integer member of a global struct variable, `g.field` (the `index`-th field of
    /// `strukt`), read at every test.
    GlobalField {
        var: VarId,
        strukt: StructId,
        index: u32,
    },
    /// An integer member of the struct a local or parameter pointer points to, `p->field` (the
    /// `index`-th field of `strukt`), read at every test; the record does not say whether the
    /// loop changes the pointer or the member.
    Member {
        ptr: VarId,
        strukt: StructId,
        index: u32,
    },
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub term: Term,
}

/// How control leaves a block.
#[derive(Clone, Debug)]
pub enum Term {
    Goto(BlockId),
    /// `if (cond) … else …`; `cond` is evaluated (its reads are accesses) before branching.
    Branch {
        cond: Operand,
        then_block: BlockId,
        else_block: BlockId,
        pos: Pos,
        /// The operator when `cond` is a comparison `l OP r`, lowered as `Arith(int, [l, r])`
        /// (which keeps no operator): what [`crate::fold`] needs to decide the branch.
        compare: Option<Comparison>,
    },
    /// Any of the targets (a `switch`, after evaluating its scrutinee in the block's last
    /// statement; an `asm goto`; a computed `goto`). A `switch` whose case labels are all
    /// integer constants says which values go to each target.
    Multi(Vec<BlockId>, Option<Box<Cases>>),
    Return(Option<Operand>, Pos),
    /// The path ends without returning: `exit`, `abort`, `pthread_exit`, `longjmp`, a call to a
    /// `noreturn` function, or falling into `__builtin_unreachable`.
    Exit,
}

/// The values of a `switch`'s scrutinee that go to each target of its [`Term::Multi`], in
/// the targets' order: the case labels' values, as closed ranges (`case 1 ... 5:`), or `None`
/// for the target of every value no case names (the `default`, or the end of a `switch`
/// without one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cases(pub Vec<Option<Vec<(i64, i64)>>>);

impl Cases {
    /// The target index a value goes to.
    pub fn target_of(&self, value: i64) -> Option<usize> {
        let named = self.0.iter().position(|values| {
            values
                .as_ref()
                .is_some_and(|v| v.iter().any(|&(lo, hi)| lo <= value && value <= hi))
        });
        named.or_else(|| self.0.iter().position(Option::is_none))
    }
}

/// The operator of an [`Operand::Arith`]: what value analyses that reason about arithmetic
/// (the index ranges of [`crate::analyses::unpacks`]) read; label flow never looks at it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Compare(Comparison),
    /// Unary `+`.
    Plus,
    /// Unary `-`.
    Neg,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
    /// A combination the lowering makes for its own purposes (a try-lock's test, an atomic
    /// read-modify-write's new value).
    Other,
}

/// The operator of a comparison a branch tests ([`Term::Branch`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Comparison {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Comparison {
    /// `l OP r` on two integers of the same sign (the caller makes sure that C's conversions
    /// would not change either).
    pub fn holds(self, l: i64, r: i64) -> bool {
        match self {
            Comparison::Eq => l == r,
            Comparison::Ne => l != r,
            Comparison::Lt => l < r,
            Comparison::Gt => l > r,
            Comparison::Le => l <= r,
            Comparison::Ge => l >= r,
        }
    }
}

/// A branch that goes two different ways ([`Term::two_ways`]).
#[derive(Clone, Copy, Debug)]
pub struct TwoWays<'a> {
    pub cond: &'a Operand,
    /// Entered when `cond` holds.
    pub then_block: BlockId,
    /// Entered when it does not.
    pub else_block: BlockId,
    pub compare: Option<Comparison>,
}

impl Term {
    /// The branch, when this is one whose two targets differ (a test whose sides tell its
    /// outcome apart).
    pub fn two_ways(&self) -> Option<TwoWays<'_>> {
        match self {
            Term::Branch {
                cond,
                then_block,
                else_block,
                compare,
                ..
            } if then_block != else_block => Some(TwoWays {
                cond,
                then_block: *then_block,
                else_block: *else_block,
                compare: *compare,
            }),
            _ => None,
        }
    }

    /// The blocks control may go to next, in the order the terminator names them.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Term::Goto(t) => vec![*t],
            Term::Branch {
                then_block,
                else_block,
                ..
            } => vec![*then_block, *else_block],
            Term::Multi(ts, _) => ts.clone(),
            Term::Return(..) | Term::Exit => Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `dst = src`. A struct or union `src` copies the whole value.
    Assign { dst: Lval, src: Operand },
    /// `dst = callee(args)`; `dst` is `None` when the result is unused or `void`.
    Call {
        dst: Option<Lval>,
        callee: Callee,
        args: Vec<Operand>,
    },
    /// Evaluates an operand for its reads only (an expression statement without effect, a
    /// `switch` scrutinee).
    Eval(Operand),
    /// Inline assembly: its effects are unknown and it is reported as a place where the analysis
    /// is unsound. `operands` are the lvalues it names, if any.
    Asm { operands: Vec<Lval> },
}

#[derive(Clone, Debug)]
pub enum Callee {
    /// A call to a named function (defined, declared only, a stub or an intrinsic).
    Direct(FuncId),
    /// A call through a function pointer value.
    Indirect(Operand),
}

/// An lvalue: a base location and projections into it.
#[derive(Clone, Debug)]
pub struct Lval {
    pub base: Base,
    pub proj: Vec<Proj>,
    /// Where the lvalue expression is written; accesses are reported here.
    pub pos: Pos,
}

impl Lval {
    /// The variable a plain lvalue names: `v`, with no member, index or dereference.
    pub fn plain_var(&self) -> Option<VarId> {
        match (&self.base, self.proj.is_empty()) {
            (Base::Var(v), true) => Some(*v),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Base {
    Var(VarId),
    /// `*op`: the location a pointer value points to.
    Deref(Box<Operand>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proj {
    /// `.field` (the `index`-th field of struct or union `strukt`).
    Field { strukt: StructId, index: u32 },
    /// `[i]` on an array: all elements are one location, so the index itself is not kept — only
    /// which variable it is, when it is a plain variable (to match a `pthread_join` loop with the
    /// `pthread_create` loop over the same array).
    Index(Option<VarId>),
    /// `[k]` on an array with an integer constant expression `k`: one location with the other
    /// elements too, but the element is known (to match `pthread_join(t[0])` with
    /// `pthread_create(&t[0], …)`).
    ConstIndex(i64),
}

#[derive(Clone, Debug)]
pub enum Operand {
    /// A constant of the given type: numbers, `NULL`, `sizeof`, enum constants; with its value
    /// when it is an integer literal or an enum constant (what lock elements named through a
    /// wrapper's parameter need, [`crate::analyses::lock_elements`]).
    Const(TypeId, Option<i64>),
    /// Reads the value stored in the lvalue.
    Use(Lval),
    /// The address of the lvalue (no access).
    AddrOf(Lval),
    /// A function designator used as a value (its address).
    Func(FuncId),
    /// A string literal: the address of its character array.
    Str(VarId),
    /// A conversion to the given type.
    Cast(TypeId, Box<Operand>),
    /// Any arithmetic, comparison or logical combination, of the given result type, by the
    /// operator. A pointer result may point wherever any pointer operand points (pointer
    /// arithmetic keeps labels).
    Arith(TypeId, ArithOp, Vec<Operand>),
    /// `va_arg(ap, T)`: a value of type `T` taken from the current function's variadic arguments;
    /// the operand is the `va_list` read.
    VaArg(TypeId, Box<Operand>),
}

impl Operand {
    /// The operand inside any conversions (`(T *)(void *)p` is `p`).
    pub fn without_casts(&self) -> &Operand {
        match self {
            Operand::Cast(_, inner) => inner.without_casts(),
            other => other,
        }
    }

    /// The variable a plain read names, through conversions: `v` or `(T) v`, with no member,
    /// index or dereference.
    pub fn plain_var(&self) -> Option<VarId> {
        match self.without_casts() {
            Operand::Use(lv) => lv.plain_var(),
            _ => None,
        }
    }

    /// The integer value of a constant operand, through conversions (`(void *)0` is 0).
    pub fn constant(&self) -> Option<i64> {
        match self.without_casts() {
            Operand::Const(_, value) => *value,
            _ => None,
        }
    }
}

/// The C types of lvalues and operands, over the tables the lowering builds and the program then
/// keeps (both ask through this one view).
pub struct Typing<'a> {
    pub types: &'a TypeTable,
    pub vars: &'a IndexVec<VarId, Var>,
    pub funcs: &'a IndexVec<FuncId, Func>,
}

impl Typing<'_> {
    /// The C type of the location an lvalue denotes.
    pub fn lval_type(&self, lv: &Lval) -> TypeId {
        let mut t = match &lv.base {
            Base::Var(v) => self.vars[*v].ty,
            Base::Deref(op) => {
                let pt = self.operand_type(op);
                self.types.pointee(pt).unwrap_or(pt)
            }
        };
        for p in &lv.proj {
            t = match (p, self.types.get(t)) {
                (Proj::Field { strukt, index }, _) => self.types.structs[*strukt]
                    .fields
                    .get(*index as usize)
                    .map(|f| f.ty)
                    .unwrap_or(t),
                (Proj::Index(_) | Proj::ConstIndex(_), Type::Array(e))
                | (Proj::Index(_) | Proj::ConstIndex(_), Type::Pointer(e)) => *e,
                (Proj::Index(_) | Proj::ConstIndex(_), _) => t,
            };
        }
        t
    }

    /// The C type of an operand's value.
    pub fn operand_type(&self, op: &Operand) -> TypeId {
        match op {
            Operand::Const(t, _)
            | Operand::Cast(t, _)
            | Operand::Arith(t, _, _)
            | Operand::VaArg(t, _) => *t,
            Operand::Use(lv) => self.lval_type(lv),
            Operand::AddrOf(lv) => {
                let t = self.lval_type(lv);
                // `&a` for an array is a pointer to its elements (arrays are one location).
                let target = match self.types.get(t) {
                    Type::Array(e) => *e,
                    _ => t,
                };
                self.types.find_pointer(target).unwrap_or(t)
            }
            Operand::Func(f) => self
                .types
                .find_pointer(self.funcs[*f].ty)
                .unwrap_or(self.funcs[*f].ty),
            Operand::Str(v) => {
                let t = self.vars[*v].ty;
                let elem = self.types.pointee(t).unwrap_or(t);
                self.types.find_pointer(elem).unwrap_or(t)
            }
        }
    }
}

impl Program {
    /// What the library model says about function `f`: `None` for a function the program
    /// defines itself or declares `static` (a user's own `malloc` is analysed as written) unless
    /// the user's configuration names it, and for library functions the model does not know.
    pub fn known(&self, f: FuncId) -> Option<Spec> {
        self.known[f]
    }

    /// The function `f` is a copy of ([`Program::copies`]), or `f` itself.
    pub fn original(&self, f: FuncId) -> FuncId {
        match self.copies.binary_search_by_key(&f, |&(copy, _)| copy) {
            Ok(k) => self.copies[k].1,
            Err(_) => f,
        }
    }

    /// Whether a call of `f` keeps none of the pointers it is given: a `non_capturing` row of
    /// the library model, or a stub or function of the program found to keep nothing
    /// ([`Program::non_capturing_functions`]).
    pub fn keeps_no_argument(&self, f: FuncId) -> bool {
        self.known[f].is_some_and(|s| s.non_capturing)
            || self.non_capturing_functions.binary_search(&f).is_ok()
    }

    /// Whether `f` is an allocation wrapper whose every call makes a fresh object (not a
    /// reallocation wrapper, which may return its argument's).
    pub fn is_alloc_wrapper(&self, f: FuncId) -> bool {
        self.alloc_wrapper(f).is_some_and(|w| w.old.is_none())
    }

    /// `f` as an allocation or reallocation wrapper, if it is one ([`Program::alloc_wrappers`]).
    pub fn alloc_wrapper(
        &self,
        f: FuncId,
    ) -> Option<crate::analyses::alloc_wrappers::AllocWrapper> {
        let k = self
            .alloc_wrappers
            .binary_search_by_key(&f, |w| w.func)
            .ok()?;
        Some(self.alloc_wrappers[k])
    }

    /// What the model says `f` does, when it knows `f` (see [`Program::known`]).
    pub fn known_kind(&self, f: FuncId) -> Option<Kind> {
        self.known[f].map(|s| s.kind)
    }

    fn typing(&self) -> Typing<'_> {
        Typing {
            types: &self.types,
            vars: &self.vars,
            funcs: &self.funcs,
        }
    }

    /// The C type of the location an lvalue denotes.
    pub fn lval_type(&self, lv: &Lval) -> TypeId {
        self.typing().lval_type(lv)
    }

    /// The C type of an operand's value.
    pub fn operand_type(&self, op: &Operand) -> TypeId {
        self.typing().operand_type(op)
    }
}

impl TypeTable {
    /// The pointer type to `to` if it has been interned. The lowering interns a pointer type for
    /// every type whose address is taken, so lookups from finished programs succeed.
    pub fn find_pointer(&self, to: TypeId) -> Option<TypeId> {
        self.lookup(&Type::Pointer(to))
    }
}
