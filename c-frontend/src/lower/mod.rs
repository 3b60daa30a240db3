//! Lowering of `lang-c` translation units to the C IR of [`crate::ir`].
//!
//! A [`Lowerer`] takes the parsed units of a program one by one ([`Lowerer::add_unit`]), lowers
//! every function body to a control-flow graph of simple statements in the style of CIL, and links
//! names across units ([`Lowerer::finish`]): one variable per non-`static` global, one function per
//! non-`static` function name, with a user definition overriding a libc stub of the same name.
//! The AST of a unit is not kept once `add_unit` returns.
//!
//! The work is split by concern:
//! - `types`: declaration specifiers and declarators to [`TypeId`]s, struct layouts (bit-field
//!   runs, anonymous members), enum constants and integer constant expressions;
//! - `expr`: expressions in value, effect and condition contexts, lvalues, calls, try-locks;
//! - `stmt`: statements, declarations, initializers, function definitions (GNU nested ones as
//!   functions of their own over the enclosing function's variables) and file-scope items;
//! - `builder`: the control-flow graph under construction and its clean-up;
//! - `dump`: a textual rendering of a [`Program`] for tests and debugging.

mod builder;
mod expr;
mod stmt;
mod thunks;
mod types;

use std::sync::Arc;

use rustc_hash::FxHashMap;
use solver::ids::{Idx, IndexVec};

use crate::diagnostics::{Fatal, FatalKind, Unanalysed};
use crate::ir::ctypes::{StructId, StructKind, Type, TypeId, TypeTable};
use crate::ir::{
    Base, Block, BlockId, Callee, FileId, Func, FuncId, LoopBound, Lval, Operand, Origin, Pos,
    Program, Proj, StmtKind, Term, Typing, Var, VarId, VarKind,
};
use crate::model::{Expect, Model};
use crate::syntax::srcmap::{FileTable, SourceMap};

use builder::{Chunk, FuncBuilder};

/// The name of the synthetic function holding the initializers of globals.
pub const GLOBAL_INIT_NAME: &str = "<global-init>";

/// Builds one [`Program`] from the translation units of a C program.
#[derive(Clone)]
pub struct Lowerer {
    /// What the library functions called by name do (try-locks, no-return functions, the
    /// lock typedefs); the finished program keeps each function's row.
    model: Arc<Model>,
    types: TypeTable,
    vars: IndexVec<VarId, Var>,
    funcs: IndexVec<FuncId, Func>,
    /// Facts about each function that the IR does not record.
    func_info: IndexVec<FuncId, FuncInfo>,
    global_init: FuncId,
    /// Non-`static` globals of the whole program, by name (lookups only).
    global_vars: FxHashMap<String, VarId>,
    /// The constant value argument of each `sem_init` or `pthread_barrier_init` call, by position
    /// ([`crate::ir::Program::init_values`]).
    init_values: FxHashMap<Pos, Vec<Option<i64>>>,
    /// The constant each counting assignment adds, by position ([`Program::steps`]).
    steps: FxHashMap<Pos, i64>,
    /// Where the lvalue expressions starting at a position end ([`Program::extents`]).
    extents: FxHashMap<Pos, u32>,
    /// ([`crate::ir::Program::relock_may_fail`]).
    relock_may_fail: bool,
    /// The existential declarations and misused annotations ([`Program::existentials`]).
    existentials: Vec<crate::ir::Existential>,
    annotations: Vec<crate::diagnostics::Annotation>,
    /// Non-`static` functions of the whole program, by name (lookups only).
    global_funcs: FxHashMap<String, FuncId>,
    /// The initializers of globals and function-`static` locals, in source order; `finish` joins
    /// them into the body of the global-init function.
    init_chunks: Vec<Chunk>,
    unanalysed: Vec<Unanalysed>,
    /// External functions defined by two units, in the order the second definitions are met.
    redefined: Vec<Redefinition>,
    /// Layout facts of each struct or union, indexed like `types.structs`.
    struct_info: Vec<StructInfo>,
    /// Tagless structs named by where they are declared: `NAME` for `typedef struct { … } NAME;`,
    /// `NAME.m` or `struct tag.m` for the type of member `m` of a named struct. Every unit that
    /// includes the same header then agrees on one struct (if the fields agree too).
    typedef_structs: FxHashMap<(StructKind, String), StructId>,
    /// Where the global-init function is said to be: the start of the first unit.
    init_pos: Option<Pos>,
}

#[derive(Clone, Debug, Default)]
struct FuncInfo {
    /// Declared `_Noreturn` or `__attribute__((noreturn))`.
    noreturn: bool,
    /// Whether some declaration had a prototype (a parameter list), so a later declaration without
    /// one does not replace its type.
    prototyped: bool,
    /// The origin of the first definition seen, even one that could not be lowered: it decides
    /// whether a later definition of the same name replaces it.
    def_origin: Option<Origin>,
    /// Where the first definition of the program's own code is, and whether it is an external
    /// definition (C11 6.9 5: neither `static`, `inline` nor weak), which another unit may not
    /// repeat.
    user_definition: Option<(Pos, bool)>,
}

/// One external function defined by two units of the program (C11 6.9 5 allows one external
/// definition; the linker rejects a second). Which body a check followed would be a guess, so
/// the run stops ([`Lowerer::check_definitions`]).
#[derive(Clone, Debug)]
struct Redefinition {
    name: String,
    first: Pos,
    second: Pos,
}

/// A member of a struct as declared, for positional initializers: bit-fields folded into one field
/// are still separate members, and anonymous struct or union members have no name.
#[derive(Clone, Debug)]
struct Member {
    name: Option<String>,
    field: u32,
    /// The element count of an array-typed member when it is a constant, for brace elision.
    array_len: Option<u64>,
}

#[derive(Clone, Debug, Default)]
struct StructInfo {
    members: Vec<Member>,
    /// Names of bit-fields folded into the field of an earlier bit-field of the same run.
    aliases: Vec<(String, u32)>,
}

/// A name in scope.
#[derive(Copy, Clone, Debug)]
enum Binding {
    Var(VarId),
    Func(FuncId),
    /// An enumeration constant, with its value when it could be computed.
    Enum(Option<i64>),
    /// A typedef name, and whether it names an atomic type (`typedef _Atomic int counter_t;`):
    /// [`crate::ir::ctypes::Type`] has no qualifiers, so atomicity travels beside it.
    Typedef {
        ty: TypeId,
        atomic: bool,
        /// Whether it names a `volatile` type (`typedef volatile int flag_t;`).
        volatile: bool,
    },
    /// A label a block declares local with `__label__` (GNU), bound under
    /// [`local_label_key`]: the number of its scope, which makes its name unique in the function.
    LocalLabel(u32),
}

/// The key a local label is bound under in the scopes: a space cannot appear in an identifier.
fn local_label_key(name: &str) -> String {
    format!("__label__ {name}")
}

/// Why a construct could not be lowered: the enclosing function (or global declaration) is then
/// reported as not analysed.
#[derive(Clone, Debug)]
struct Unsupported {
    reason: String,
    pos: Pos,
}

/// Boxed so that results stay small in the deeply recursive expression lowering.
type R<T> = Result<T, Box<Unsupported>>;

/// Fails the current function or declaration with `reason`, reported at `pos`.
fn unsupported<T>(pos: Pos, reason: impl Into<String>) -> R<T> {
    Err(Box::new(Unsupported {
        reason: reason.into(),
        pos,
    }))
}

/// The state of lowering one translation unit: its scopes and the body being built.
struct UnitCx<'a> {
    lw: &'a mut Lowerer,
    map: &'a SourceMap,
    origin: Origin,
    /// Ordinary identifiers, innermost scope last; `scopes[0]` is the file scope.
    scopes: Vec<FxHashMap<String, Binding>>,
    /// The body receiving statements: a function, or a chunk of the global-init function.
    fb: FuncBuilder,
    /// The function being lowered, naming its `static` locals and `__func__`.
    func_name: String,
    /// The type `__auto_type` (GNU) stands for in the declaration being lowered: its
    /// initializer's.
    auto_type: Option<TypeId>,
    /// The tags this unit defines with other members than the program's struct of that tag
    /// (`struct stat` of headers of another C library than the stubs'): in this unit, the tag
    /// names this unit's own struct.
    own_tags: FxHashMap<(StructKind, String), StructId>,
}

/// gcc's `__auto_type`, which `lang-c` reads as a type name (`vendor/lang-c/PATCHES.md`, 4).
const AUTO_TYPE: &str = "__auto_type";

impl UnitCx<'_> {
    fn pos(&self, span: lang_c::span::Span) -> Pos {
        self.map.pos(span.start)
    }

    /// The position of an accessed expression (an lvalue, or a call, where a library function's
    /// accesses are reported) written at `span`, recording where it ends (byte `end`, see
    /// `expr::expr_end`) when that is on the same line ([`Program::extents`]; the longest of those starting there wins, so `p->count` is
    /// kept over the `p` inside it).
    fn lval_pos(&mut self, span: lang_c::span::Span, end: usize) -> Pos {
        let pos = self.pos(span);
        let end = self.map.pos(end);
        if end.file == pos.file && end.line == pos.line && end.column > pos.column {
            let longest = self.lw.extents.entry(pos).or_insert(end.column);
            *longest = (*longest).max(end.column);
        }
        pos
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn bind(&mut self, name: &str, b: Binding) {
        self.scopes
            .last_mut()
            .expect("file scope")
            .insert(name.to_string(), b);
    }

    fn bind_file(&mut self, name: &str, b: Binding) {
        self.scopes[0].insert(name.to_string(), b);
    }

    fn file_binding(&self, name: &str) -> Option<Binding> {
        self.scopes[0].get(name).copied()
    }

    fn new_var(&mut self, name: String, ty: TypeId, kind: VarKind, pos: Pos) -> VarId {
        self.lw.vars.push(Var {
            name,
            ty,
            kind,
            pos,
            address_taken: false,
            captured: false,
            origin: self.origin,
            atomic: false,
            volatile: false,
            signal_atomic: false,
        })
    }

    /// A fresh temporary of the body being built.
    fn new_temp(&mut self, ty: TypeId, pos: Pos) -> VarId {
        let name = format!("tmp{}", self.fb.temps);
        self.fb.temps += 1;
        let v = self.new_var(name, ty, VarKind::Temp(self.fb.func), pos);
        self.fb.locals.push(v);
        v
    }

    fn in_global_init(&self) -> bool {
        self.fb.func == self.lw.global_init
    }
}

impl Default for Lowerer {
    fn default() -> Self {
        Lowerer::new()
    }
}

impl Lowerer {
    /// A lowerer that knows the library functions of the built-in model.
    pub fn new() -> Lowerer {
        Lowerer::with_model(Model::builtin())
    }

    /// A lowerer that knows the library functions of `model`.
    pub fn with_model(model: Arc<Model>) -> Lowerer {
        let mut types = TypeTable::new();
        let void = types.void();
        let init_ty = types.intern(Type::Function {
            ret: void,
            params: Vec::new(),
            variadic: false,
        });
        let placeholder = Pos {
            file: FileId(0),
            line: 0,
            column: 0,
        };
        let mut funcs = IndexVec::new();
        let global_init = funcs.push(Func {
            name: GLOBAL_INIT_NAME.to_string(),
            ty: init_ty,
            params: Vec::new(),
            locals: Vec::new(),
            blocks: IndexVec::new(),
            counted_loops: Vec::new(),
            const_pointees: Vec::new(),
            pos: placeholder,
            defined: true,
            is_static: true,
            origin: Origin::GlobalInit,
        });
        let mut func_info = IndexVec::new();
        func_info.push(FuncInfo {
            prototyped: true,
            def_origin: Some(Origin::GlobalInit),
            ..FuncInfo::default()
        });
        Lowerer {
            model,
            types,
            vars: IndexVec::new(),
            funcs,
            func_info,
            global_init,
            global_vars: FxHashMap::default(),
            init_values: FxHashMap::default(),
            steps: FxHashMap::default(),
            extents: FxHashMap::default(),
            relock_may_fail: false,
            existentials: Vec::new(),
            annotations: Vec::new(),
            global_funcs: FxHashMap::default(),
            init_chunks: Vec::new(),
            unanalysed: Vec::new(),
            redefined: Vec::new(),
            struct_info: Vec::new(),
            typedef_structs: FxHashMap::default(),
            init_pos: None,
        }
    }

    /// Lowers one parsed translation unit into the program being built. `map` turns lang-c span
    /// offsets of this unit into positions. `origin` is `Origin::User` or `Origin::Stub`.
    pub fn add_unit(
        &mut self,
        unit: &lang_c::ast::TranslationUnit,
        map: &SourceMap,
        origin: Origin,
    ) {
        if self.init_pos.is_none() {
            self.init_pos = Some(map.pos(0));
        }
        stmt::lower_unit(self, unit, map, origin);
    }

    /// Links names across units and returns the program. `files` is the table the `SourceMap`s
    /// were built with; `unanalysed` are entries the caller already found (parse recovery).
    pub fn finish(mut self, files: FileTable, unanalysed: Vec<Unanalysed>) -> Program {
        self.build_global_init();
        self.compact_vars();
        self.complete_types_and_addresses();
        let mut all = unanalysed;
        all.append(&mut self.unanalysed);
        let configured = self.replace_configured_bodies(&mut all);
        let known = self
            .funcs
            .iter()
            .map(|f| {
                let own = f.is_static || (f.defined && f.origin == Origin::User);
                let replaced = self
                    .model
                    .configured(&f.name)
                    .is_some_and(|role| role.replaces_body());
                (!own || replaced)
                    .then(|| self.model.function(&f.name))
                    .flatten()
            })
            .collect();
        let mut program = Program {
            files: files.names,
            types: self.types,
            vars: self.vars,
            funcs: self.funcs,
            global_init: self.global_init,
            unanalysed: all,
            known,
            non_capturing_functions: Vec::new(),
            init_values: std::mem::take(&mut self.init_values),
            steps: std::mem::take(&mut self.steps),
            relock_may_fail: self.relock_may_fail,
            existentials: std::mem::take(&mut self.existentials),
            annotations: std::mem::take(&mut self.annotations),
            configured,
            extents: std::mem::take(&mut self.extents),
            alloc_wrappers: Vec::new(),
            folded: crate::fold::Folded::default(),
            rwlocks: crate::rwlocks::Recognised::default(),
            thunks: Vec::new(),
            copies: Vec::new(),
        };
        thunks::through_pointers(&mut program);
        crate::ir::compatible::merge_compatible_structs(&mut program);
        program
    }

    /// What a parameter of type `t` should have been, when it is not what `expect` asks.
    fn unexpected_parameter(&self, t: TypeId, expect: Expect) -> Option<&'static str> {
        let pointee = self.types.pointee(t).map(|p| self.types.get(p));
        match expect {
            Expect::Any => None,
            Expect::Pointer => pointee.is_none().then_some("a pointer"),
            Expect::Function => (!matches!(pointee, Some(Type::Function { .. } | Type::Void)))
                .then_some("a pointer to a function"),
        }
    }

    /// Drops the bodies of the functions the program defines whose configured role replaces
    /// them ([`crate::model::Role::replaces_body`]): their calls then do what the configuration
    /// says, as a library function's do, and nothing in the body is analysed. A body that could
    /// not be lowered is no longer listed as not analysed, since it is not needed. Returns the
    /// functions whose body was dropped, in id order.
    fn replace_configured_bodies(&mut self, unanalysed: &mut Vec<Unanalysed>) -> Vec<FuncId> {
        let mut replaced = Vec::new();
        for f in self.funcs.indices() {
            let func = &mut self.funcs[f];
            let replaces = self
                .model
                .configured(&func.name)
                .is_some_and(|role| role.replaces_body());
            if !replaces || self.func_info[f].def_origin != Some(Origin::User) {
                continue;
            }
            func.blocks = IndexVec::new();
            func.counted_loops.clear();
            func.defined = false;
            unanalysed.retain(|u| u.name != func.name);
            replaced.push(f);
        }
        replaced
    }

    /// The error for an external function that two units define, naming both definitions
    /// (`files` names the positions' files); `Ok` when every external function has at most one.
    pub fn check_definitions(&self, files: &FileTable) -> Result<(), Fatal> {
        let Some(r) = self.redefined.first() else {
            return Ok(());
        };
        let at = |p: Pos| format!("{}:{}:{}", files.names[p.file], p.line, p.column);
        Err(Fatal::new(
            FatalKind::Link,
            format!(
                "`{}` is defined at {} and again at {}: a program defines an external function \
                 once (the second unit is another program, or another build of the same file: \
                 name the files of one program{})",
                r.name,
                at(r.first),
                at(r.second),
                if self.redefined.len() > 1 {
                    format!(
                        "; {} more functions are defined twice",
                        self.redefined.len() - 1
                    )
                } else {
                    String::new()
                }
            ),
        ))
    }

    /// Checks the argument positions of the configured rows against the declarations of the
    /// functions they name: a position past the last parameter of a function declared with a
    /// prototype (and not variadic) is an error, and so is a lock or handle position whose
    /// parameter is not a pointer, or a routine position whose parameter is not a function
    /// pointer (or a `void *`). The error names the place in the configuration.
    pub fn check_configured(&self) -> Result<(), Fatal> {
        for row in self.model.configured_rows() {
            for (f, func) in self.funcs.iter_enumerated() {
                if func.name != row.name || !self.func_info[f].prototyped {
                    continue;
                }
                let Type::Function {
                    params, variadic, ..
                } = self.types.get(func.ty)
                else {
                    continue;
                };
                for arg in &row.args {
                    let k = usize::from(arg.index);
                    let problem = match params.get(k) {
                        None if *variadic => None,
                        None => Some(format!(
                            "`{} = {}`: `{}` is declared with {} parameter{} (positions count \
                             from 0)",
                            arg.key,
                            arg.index,
                            row.name,
                            params.len(),
                            if params.len() == 1 { "" } else { "s" }
                        )),
                        Some(&t) => self.unexpected_parameter(t, arg.expect).map(|what| {
                            format!(
                                "`{} = {}`: parameter {} of `{}` is not {what}",
                                arg.key, arg.index, arg.index, row.name
                            )
                        }),
                    };
                    if let Some(message) = problem {
                        return Err(match &arg.at {
                            Some(place) => Fatal::at(FatalKind::Config, place.clone(), message),
                            None => Fatal::new(FatalKind::Config, message),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Joins the initializer chunks into one body: each chunk falls through into the next, and
    /// straight-line chunks share one block.
    fn build_global_init(&mut self) {
        let pos = self.init_pos.unwrap_or(Pos {
            file: FileId(0),
            line: 0,
            column: 0,
        });
        let mut blocks: IndexVec<BlockId, Block> = IndexVec::new();
        let mut tail = Vec::new();
        let mut locals = Vec::new();
        for chunk in std::mem::take(&mut self.init_chunks) {
            locals.extend(chunk.temps);
            if let [only] = chunk.blocks.as_slice() {
                if matches!(only.term, Term::Return(..)) {
                    tail.extend(chunk.blocks.into_iter().flat_map(|b| b.stmts));
                    continue;
                }
            }
            // The pending straight-line statements form a block that enters this chunk.
            let base = blocks.len() as u32 + 1;
            blocks.push(Block {
                stmts: std::mem::take(&mut tail),
                term: Term::Goto(BlockId(base)),
            });
            let next = BlockId(base + chunk.blocks.len() as u32);
            for mut block in chunk.blocks {
                block.term = match block.term {
                    Term::Return(..) => Term::Goto(next),
                    other => builder::shift_term(other, base),
                };
                blocks.push(block);
            }
        }
        blocks.push(Block {
            stmts: tail,
            term: Term::Return(None, pos),
        });
        let f = &mut self.funcs[self.global_init];
        f.blocks = blocks;
        f.locals = locals;
        f.pos = pos;
    }

    /// Drops the variables that belong to no function body any more (the locals of a stub body
    /// replaced by a user definition, of a function that could not be lowered, string literals
    /// only such bodies used) and renumbers the rest in creation order.
    fn compact_vars(&mut self) {
        let n = self.vars.len();
        let mut keep = vec![false; n];
        let mut used_strings = vec![false; n];
        for f in self.funcs.iter() {
            for v in f.params.iter().chain(&f.locals) {
                keep[v.index()] = true;
            }
            for b in f.blocks.iter() {
                visit_block_vars(b, &mut |v| used_strings[v.index()] = true);
            }
        }
        for (id, var) in self.vars.iter_enumerated() {
            match var.kind {
                VarKind::Global { .. } => keep[id.index()] = true,
                VarKind::StringLit => keep[id.index()] = used_strings[id.index()],
                _ => {}
            }
        }
        if keep.iter().all(|&k| k) {
            return;
        }
        let mut remap: Vec<Option<VarId>> = vec![None; n];
        let mut vars = IndexVec::new();
        for (id, var) in self.vars.iter_enumerated() {
            if keep[id.index()] {
                remap[id.index()] = Some(vars.push(var.clone()));
            }
        }
        self.vars = vars;
        let map = |v: VarId| remap[v.index()].unwrap_or(v);
        for f in self.funcs.iter_mut() {
            for v in f.params.iter_mut().chain(f.locals.iter_mut()) {
                *v = map(*v);
            }
            for b in f.blocks.iter_mut() {
                rename_block_vars(b, &map);
            }
            // The counted loops name their counter and bound by variable too (a fuzzed program
            // found them left with the old numbers, past the end of the table).
            for l in f.counted_loops.iter_mut() {
                l.counter = map(l.counter);
                match &mut l.bound {
                    LoopBound::Var(v)
                    | LoopBound::GlobalField { var: v, .. }
                    | LoopBound::Member { ptr: v, .. } => *v = map(*v),
                    LoopBound::Const(_) => {}
                }
            }
        }
    }

    /// Interns the pointer type of every address the IR produces (so that
    /// `Program::operand_type` finds it), and sets `address_taken` on every variable whose
    /// address is produced or that is an array.
    fn complete_types_and_addresses(&mut self) {
        let mut taken = vec![false; self.vars.len()];
        for (id, var) in self.vars.iter_enumerated() {
            if matches!(self.types.get(var.ty), Type::Array(_)) {
                taken[id.index()] = true;
            }
        }
        let int = self.types.int();
        self.types.pointer(int);
        let fn_tys: Vec<TypeId> = self.funcs.iter().map(|f| f.ty).collect();
        for t in fn_tys {
            self.types.pointer(t);
        }
        let funcs = std::mem::take(&mut self.funcs);
        for f in funcs.iter() {
            for b in f.blocks.iter() {
                for s in &b.stmts {
                    match &s.kind {
                        StmtKind::Assign { dst, src } => {
                            self.note_lval(dst, &mut taken);
                            self.note_operand(src, &mut taken);
                        }
                        StmtKind::Call { dst, callee, args } => {
                            if let Some(d) = dst {
                                self.note_lval(d, &mut taken);
                            }
                            if let Callee::Indirect(op) = callee {
                                self.note_operand(op, &mut taken);
                            }
                            for a in args {
                                self.note_operand(a, &mut taken);
                            }
                        }
                        StmtKind::Eval(op) => self.note_operand(op, &mut taken),
                        StmtKind::Asm { operands } => {
                            for lv in operands {
                                self.note_lval(lv, &mut taken);
                            }
                        }
                    }
                }
                match &b.term {
                    Term::Branch { cond, .. } => self.note_operand(cond, &mut taken),
                    Term::Return(Some(op), _) => self.note_operand(op, &mut taken),
                    _ => {}
                }
            }
        }
        self.funcs = funcs;
        let mut captured = vec![false; self.vars.len()];
        self.note_captured(&mut captured);
        for ((var, taken), captured) in self.vars.iter_mut().zip(taken).zip(captured) {
            var.address_taken = taken || captured;
            var.captured = captured;
        }
    }

    /// Marks the variables of a function that another function names: the locals and
    /// parameters of a function a nested function (GNU) uses, which it reaches through the
    /// enclosing frame, as through their address.
    fn note_captured(&self, taken: &mut [bool]) {
        use crate::ir::visit::{walk_func, Visitor};
        struct Captured<'v> {
            vars: &'v IndexVec<VarId, Var>,
            func: FuncId,
            taken: &'v mut [bool],
        }
        impl Visitor for Captured<'_> {
            fn visit_var(&mut self, v: VarId) {
                let owner = match self.vars[v].kind {
                    VarKind::Local(g) | VarKind::Param(g, _) | VarKind::Temp(g) => g,
                    _ => return,
                };
                if owner != self.func {
                    self.taken[v.index()] = true;
                }
            }
        }
        for (func, f) in self.funcs.iter_enumerated() {
            let mut c = Captured {
                vars: &self.vars,
                func,
                taken: &mut *taken,
            };
            walk_func(&mut c, f);
        }
    }

    fn note_lval(&mut self, lv: &Lval, taken: &mut [bool]) {
        if let Base::Deref(op) = &lv.base {
            self.note_operand(op, taken);
        }
    }

    fn note_operand(&mut self, op: &Operand, taken: &mut [bool]) {
        match op {
            Operand::Use(lv) => self.note_lval(lv, taken),
            Operand::AddrOf(lv) => {
                self.note_lval(lv, taken);
                if let Base::Var(v) = lv.base {
                    taken[v.index()] = true;
                }
                self.intern_address_type(lv);
            }
            Operand::Cast(_, o) | Operand::VaArg(_, o) => self.note_operand(o, taken),
            Operand::Arith(_, _, ops) => {
                for o in ops {
                    self.note_operand(o, taken);
                }
            }
            Operand::Const(..) | Operand::Func(_) | Operand::Str(_) => {}
        }
    }

    /// Interns the type of `&lv` (a pointer to the element type for arrays, as
    /// `Program::operand_type` expects) and returns it.
    fn intern_address_type(&mut self, lv: &Lval) -> TypeId {
        let t = self.lval_type(lv);
        let target = match self.types.get(t) {
            Type::Array(e) => *e,
            _ => t,
        };
        self.types.pointer(target)
    }

    fn typing(&self) -> Typing<'_> {
        Typing {
            types: &self.types,
            vars: &self.vars,
            funcs: &self.funcs,
        }
    }

    /// The C type of the location `lv` denotes.
    fn lval_type(&self, lv: &Lval) -> TypeId {
        self.typing().lval_type(lv)
    }

    /// The C type of an operand's value (the pointer types it looks up are interned when the
    /// operands are built).
    fn operand_type(&self, op: &Operand) -> TypeId {
        self.typing().operand_type(op)
    }

    /// The layout facts of `s`, growing the table for structs created since the last call.
    fn struct_info_mut(&mut self, s: StructId) -> &mut StructInfo {
        if self.struct_info.len() <= s.index() {
            self.struct_info
                .resize(s.index() + 1, StructInfo::default());
        }
        &mut self.struct_info[s.index()]
    }

    fn struct_info(&self, s: StructId) -> Option<&StructInfo> {
        self.struct_info.get(s.index())
    }
}

/// Calls `f` on every variable named in a block (operands, lvalues and terminators).
fn visit_block_vars(b: &Block, f: &mut dyn FnMut(VarId)) {
    fn lval(lv: &Lval, f: &mut dyn FnMut(VarId)) {
        match &lv.base {
            Base::Var(v) => f(*v),
            Base::Deref(op) => operand(op, f),
        }
    }
    fn operand(op: &Operand, f: &mut dyn FnMut(VarId)) {
        match op {
            Operand::Use(lv) | Operand::AddrOf(lv) => lval(lv, f),
            Operand::Str(v) => f(*v),
            Operand::Cast(_, o) | Operand::VaArg(_, o) => operand(o, f),
            Operand::Arith(_, _, ops) => ops.iter().for_each(|o| operand(o, f)),
            Operand::Const(..) | Operand::Func(_) => {}
        }
    }
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Assign { dst, src } => {
                lval(dst, f);
                operand(src, f);
            }
            StmtKind::Call { dst, callee, args } => {
                if let Some(d) = dst {
                    lval(d, f);
                }
                if let Callee::Indirect(op) = callee {
                    operand(op, f);
                }
                args.iter().for_each(|a| operand(a, f));
            }
            StmtKind::Eval(op) => operand(op, f),
            StmtKind::Asm { operands } => operands.iter().for_each(|lv| lval(lv, f)),
        }
    }
    match &b.term {
        Term::Branch { cond, .. } => operand(cond, f),
        Term::Return(Some(op), _) => operand(op, f),
        _ => {}
    }
}

/// Replaces every variable named in a block by its image under `map`.
fn rename_block_vars(b: &mut Block, map: &dyn Fn(VarId) -> VarId) {
    fn lval(lv: &mut Lval, map: &dyn Fn(VarId) -> VarId) {
        match &mut lv.base {
            Base::Var(v) => *v = map(*v),
            Base::Deref(op) => operand(op, map),
        }
        // An index variable is named too (a join loop is matched with its create loop by it).
        for p in &mut lv.proj {
            if let Proj::Index(Some(v)) = p {
                *v = map(*v);
            }
        }
    }
    fn operand(op: &mut Operand, map: &dyn Fn(VarId) -> VarId) {
        match op {
            Operand::Use(lv) | Operand::AddrOf(lv) => lval(lv, map),
            Operand::Str(v) => *v = map(*v),
            Operand::Cast(_, o) | Operand::VaArg(_, o) => operand(o, map),
            Operand::Arith(_, _, ops) => ops.iter_mut().for_each(|o| operand(o, map)),
            Operand::Const(..) | Operand::Func(_) => {}
        }
    }
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::Assign { dst, src } => {
                lval(dst, map);
                operand(src, map);
            }
            StmtKind::Call { dst, callee, args } => {
                if let Some(d) = dst {
                    lval(d, map);
                }
                if let Callee::Indirect(op) = callee {
                    operand(op, map);
                }
                args.iter_mut().for_each(|a| operand(a, map));
            }
            StmtKind::Eval(op) => operand(op, map),
            StmtKind::Asm { operands } => operands.iter_mut().for_each(|lv| lval(lv, map)),
        }
    }
    match &mut b.term {
        Term::Branch { cond, .. } => operand(cond, map),
        Term::Return(Some(op), _) => operand(op, map),
        _ => {}
    }
}
