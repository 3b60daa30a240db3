//! Constraint generation for C (paper §3): from the IR to LOCKSMITH's label constraints and to
//! one event graph per function for the thread analysis.
//!
//! Every variable and allocation site is an object with a location label ρ and a content node
//! ([`crate::constraints::ltypes`]). Reading or writing memory through an lvalue is an access event; calls of
//! user functions are instantiation sites; the POSIX thread and lock functions, allocation and
//! the `__locksmith_*` intrinsics of the stubs are modelled here by name; libc stubs are inlined
//! at each call, so their accesses happen in the caller, on the caller's types, at the call's
//! position. Calls through function pointers and `pthread_create`'s thread function are resolved
//! by flow: each target reached becomes a call or fork site, until no new target appears.
//!
//! The generator (`Gen`, whose `impl` is split over this folder's files) is the walk only. What
//! it reads is frozen: the program, the function it starts at, the techniques and the front-end
//! analyses' result ([`crate::analyses::Analysed`]), which it never changes and to which a new
//! analysis adds its field; what it builds is its inference context (labels, constraints, event
//! graphs, names for reports), read off into [`Generated`] once the walk is done. It never
//! computes an analysis of the IR that creates no label (those belong to
//! [`crate::analyses`]), but for the uniqueness of a stub, asked lazily at its first inlining.

mod annotations;
mod body;
mod events;
mod names;
use names::LabelNames;
mod calls;
mod elements;
pub mod ltypes;
mod memory;
mod versions;
pub mod views;

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::joins::StmtAt;
use crate::analyses::unpacks::{OwnLock, Package};
use crate::analyses::Analysed;
use crate::diagnostics::{Lost, Unanalysed, UnanalysedKind, Unsound};
use crate::ir::{FuncId, Operand, Origin, Pos, Program, VarId, VarKind};
use ltypes::{LTypes, Node, RhoOrigin};
use solver::ids::IndexVec;
use solver::stats::Stats;
use solver::threads::{
    AccessId, AccessInfo, AcqId, AcquireInfo, Event, FnId, ObjectId, ThreadHandle, ThreadProgram,
};
use solver::{Constraints, Lock, Rho, RhoKind, Scope, Site, Technique, Techniques};

/// Where an access happens, for reports.
#[derive(Clone, Debug)]
pub struct AccessSite {
    pub pos: Pos,
    pub func: FuncId,
    pub write: bool,
    /// The library function whose stub made the access, if any.
    pub via: Option<String>,
    /// For an access of a field of a struct that keeps a lock beside it, made outside every
    /// unpack ([`crate::analyses::unpacks`]): the struct and the field index of that lock, so
    /// that a report can say why the object's own lock was not found to protect it.
    pub beside_lock: Option<(crate::ir::ctypes::StructId, u32)>,
}

/// Where a lock call happens, for reports of deadlocks.
#[derive(Clone, Debug)]
pub struct AcquireSite {
    pub pos: Pos,
    pub func: FuncId,
    /// The library function whose stub makes the call, if any.
    pub via: Option<String>,
}

/// What a location label stands for, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RhoName {
    Var(VarId),
    Alloc {
        pos: Pos,
        func: FuncId,
        by: String,
    },
    Field {
        parent: Box<RhoName>,
        field: String,
    },
    /// External memory of one type class: the memory of code locksmith cannot see.
    External,
    /// The state code locksmith cannot see keeps for itself.
    UnknownState,
    /// The blocking of signal `n` in the thread that holds it: the name of the signal's mask
    /// lock ([`crate::analyses::signal_masks`]).
    SignalMask(i64),
    /// Conflated memory (objects of several types, or reached through pointers made from
    /// integers, that the analysis cannot tell apart) reached by no object that names it: the
    /// name of its lock.
    Conflated,
    /// Each object of a struct type, as the root of the field path of its own lock: the name
    /// of a package's opened lock (paper §3.3), which stands for the lock of whichever object
    /// an access lies in.
    OwnLock {
        strukt: String,
    },
    /// The ownership a thread has of the fresh object it was created with: the name of the
    /// thread package's opened lock.
    ThreadArgument,
    /// The ownership a thread has of an object it allocated or took off a locked list and has
    /// not let go: the name of the owned package's opened lock.
    OwnedObject,
    /// The elements a thread indexes by the value it was started with: the name of a slot
    /// package's opened lock.
    ThreadSlot,
    /// The element a thread claimed by taking the next value of a shared counter: the name of
    /// a claim package's opened lock.
    ClaimedSlot,
    /// A turn taken through this variable or member path of one: the name of its turn's lock
    /// ([`crate::analyses::joins::Turn`]).
    Turn(Box<RhoName>),
    /// The elements a thread walks in the range the value it was started with selects: the
    /// name of a range package's opened lock.
    ThreadRange,
    /// The element of a global array of locks at the index of the access (lock striping): the
    /// name of a stripe package's opened lock.
    StripeLock {
        array: VarId,
        /// The field path of the array of locks in the variable.
        fields: Vec<String>,
    },
    /// An element of a split array of locks ([`crate::analyses::lock_elements`]): at a
    /// constant index, or at the index a wrapper's parameter names. Boxed: there is a name
    /// per location label, and this rare one would otherwise make every name larger.
    LockElement(Box<ElementName>),
    Other,
}

/// The name of an element of a split array of locks: `array.fields[index]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementName {
    pub array: VarId,
    /// The field path of the array of locks in the variable.
    pub fields: Vec<String>,
    /// The constant, or the parameter's name.
    pub index: String,
}

/// What a call site is, for call paths in reports.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    pub pos: Pos,
    pub caller: FuncId,
    pub callee: FuncId,
    pub fork: bool,
}

/// The result of constraint generation.
pub struct Generated {
    pub constraints: Constraints,
    pub threads: ThreadProgram,
    pub access_sites: IndexVec<AccessId, AccessSite>,
    /// Where each lock call of [`ThreadProgram::acquisitions`] is.
    pub acquire_sites: IndexVec<AcqId, AcquireSite>,
    pub rho_names: IndexVec<Rho, RhoName>,
    /// The objects and field paths holding each lock label, for naming locks.
    pub lock_names: FxHashMap<Lock, RhoName>,
    pub sites: FxHashMap<Site, SiteInfo>,
    /// The user function behind each thread-analysis function.
    pub fn_func: IndexVec<FnId, FuncId>,
    pub unmodelled: BTreeSet<String>,
    /// The synchronisation functions called whose ordering the analysis does not follow
    /// ([`crate::model::Spec::unordered`]).
    pub unordered: BTreeSet<String>,
    /// The functions whose constraint generation failed (contained internal errors).
    pub unanalysed: Vec<Unanalysed>,
    pub unsound: Vec<Unsound>,
    /// Misused annotations of `locksmith.h`, sorted.
    pub annotations: Vec<crate::diagnostics::Annotation>,
    /// Where memory was conflated and why (for the developer's debug output).
    pub conflations: Vec<(Pos, String)>,
    /// The fork sites of signal handlers, with the signal each handles when its installation
    /// names a constant one ([`solver::threads::ThreadProgram::signal_sites`]).
    pub signal_handlers: FxHashMap<Site, Option<i64>>,
    /// The presumed joins ([`crate::analyses::joins::PresumedJoin`]), in the order of
    /// [`ThreadProgram::presumed_joins`], each with the accesses of its test: the race of a
    /// wait that is not reliable is the one whose racing accesses include them.
    pub presumed: Vec<(crate::analyses::joins::PresumedJoin, Vec<AccessId>)>,
}

/// A call whose targets are known only after flow: through a function pointer, or a fork.
struct Pending {
    caller: FuncId,
    fork: bool,
    /// For a fork: the handle a join can name it by.
    handle: Option<ThreadHandle>,
    /// For a fork whose function is the caller's own parameter (never assigned, address never
    /// taken): its index, so that a call passing a known function for it starts only that one
    /// ([`ThreadProgram::untaken_forks`]).
    through_param: Option<u32>,
    /// For a fork: at most how many threads one run of the caller starts here
    /// ([`crate::analyses::joins::JoinPlan::create_trips`]); `None`: any number.
    trips: Option<u64>,
    node: Node,
    args: Vec<Option<Node>>,
    result: Option<Node>,
    pos: Pos,
    done: BTreeSet<FuncId>,
    /// Who calls the targets: the program, or code locksmith cannot see (see [`Callers`]).
    callers: Callers,
    /// A signal handler's installation: its forks are [`ThreadProgram::signal_sites`].
    signal: bool,
    /// The signal it handles, when the installation names a constant.
    signal_number: Option<i64>,
}

/// Who calls the targets of a pending call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Callers {
    /// The program, with the call's arguments.
    Program,
    /// Code locksmith cannot see, with external arguments: a callback passed to it.
    Unknown,
    /// Code locksmith cannot see, with external arguments, calling any function stored in
    /// external memory: the callbacks of structs handed to unknown code.
    UnknownFromExternalMemory,
}

/// An event, or a placeholder for the calls a pending call will expand to.
enum GenEvent {
    Event(Event),
    Pending(usize),
    /// An access to a whole struct, expanded to its fields once all fields are known.
    Whole {
        rho: Rho,
        content: Node,
        pos: Pos,
        write: bool,
        via: Option<String>,
        func: FuncId,
        /// The opened lock the access holds (`AccessInfo::opened`).
        opened: Option<(Lock, solver::threads::Mode)>,
        /// The running thread's own copy of a thread-local (`AccessInfo::own_copy`).
        own_copy: bool,
    },
}

/// A call of a function without a user body, as [`Gen::library_call`] models it.
struct LibraryCall<'c> {
    f: FuncId,
    /// The arguments' values (`None` for constants).
    args: &'c [Option<Node>],
    /// The arguments as written, for uniqueness and types.
    arg_ops: &'c [Operand],
    /// Where the call's value goes, if it is used.
    result: Option<Node>,
    pos: Pos,
}

/// An object: a variable or an allocation site, with its location label and content.
#[derive(Copy, Clone, Debug)]
struct Object {
    rho: Rho,
    content: Node,
    /// An array: its elements are many objects with one label.
    array: bool,
}

/// Per-function state while generating.
struct Frame {
    func: FuncId,
    scope: Scope,
    /// Variables of an inlined stub, mapped to fresh labels and nodes in the caller.
    inline_vars: FxHashMap<VarId, (Rho, Node)>,
    /// The stub being inlined, if this frame is one.
    inline: Option<Inlining>,
    depth: u32,
    /// Values returned by an inlined stub.
    returned: Vec<Node>,
    /// Pointer variables that certainly point into memory no other thread can reach yet
    /// ([`crate::analyses::uniqueness`]): accesses through them are not shared.
    unique: FxHashSet<crate::analyses::uniqueness::Holder>,
    /// The locks held in their own objects ([`crate::analyses::unpacks`]): accesses inside
    /// those objects are inside an unpack.
    own: Vec<OwnLock>,
    /// A branch's condition is being evaluated: its value is only tested, so a pointer
    /// converted to an integer there (`(unsigned)p == 0`) can never become a pointer again.
    testing: bool,
}

/// A stub being inlined into a user function: accesses it makes are reported at the user's call.
struct Inlining {
    /// The outermost stub called by the user (whose name reports show).
    stub: String,
    /// The user's call.
    at: Pos,
    /// The call's variadic arguments, beyond the stub's parameters.
    extra: Vec<Option<Node>>,
    /// The stub's parameters whose argument points into an unpacked object of the caller
    /// (a member of a thread's handed element, `snprintf(t->name, …)`), with the lock its
    /// unpack opened: the stub's accesses through them are the caller's accesses there.
    opened_args: Vec<(VarId, (Lock, solver::threads::Mode))>,
    /// The same for each variadic argument, in order (`printf("%s", t->name)`).
    opened_extra: Vec<Option<(Lock, solver::threads::Mode)>>,
    /// The stub's parameters whose argument is the address of the calling thread's own copy
    /// of a thread-local (`snprintf(tls_buf, …)`), and the same for each variadic argument:
    /// the stub's accesses through them are that copy's (`AccessInfo::own_copy`).
    own_args: Vec<VarId>,
    own_extra: Vec<bool>,
}

impl Frame {
    /// The frame of a user function (or of the global initializers) with nothing inlined.
    fn new(func: FuncId, scope: Scope) -> Frame {
        Frame {
            func,
            scope,
            inline_vars: FxHashMap::default(),
            inline: None,
            depth: 0,
            returned: Vec::new(),
            unique: FxHashSet::default(),
            own: Vec::new(),
            testing: false,
        }
    }

    /// Where an access at `pos` is reported, and through which stub: at the user's call when
    /// this frame is an inlined stub.
    fn report_at(&self, pos: Pos) -> (Pos, Option<String>) {
        match &self.inline {
            Some(i) => (i.at, Some(i.stub.clone())),
            None => (pos, None),
        }
    }
}

/// The generator: the walk over the program that makes labels, constraints and event graphs.
/// As rust-analyzer keeps its mutable inference context apart from what it reads, its fields are
/// in two parts: the frozen input (the program, where it starts, the techniques, the front-end
/// analyses' result), shared references and copies the walk cannot change; and the inference
/// context the walk builds, read off into [`Generated`] at the end.
struct Gen<'a> {
    // The frozen input.
    /// The linked program (with the library model's rows, [`Program::known`]).
    program: &'a Program,
    /// The function the program starts at.
    main: FuncId,
    techniques: Techniques,
    /// What the front-end analyses found ([`crate::analyses::run`]): a new analysis adds a field
    /// there, not here.
    analysed: &'a Analysed,

    // The inference context: labels and constraints.
    constraints: Constraints,
    /// The labelled types ([`ltypes`]): the content node of each label, flow and unification.
    ltypes: LTypes<'a>,
    scope_of: FxHashMap<FuncId, Scope>,
    var_rho: IndexVec<VarId, Option<(Rho, Node)>>,
    /// Parameter, return and variadic nodes of each user function.
    sig: FxHashMap<FuncId, (Vec<Node>, Option<Node>, Node)>,
    int_blob: Option<Node>,
    /// The state of unknown code, made at its first call: its label and content.
    unknown_state: Option<(Rho, Node)>,
    /// The functions unknown code keeps to call later ([`Gen::kept_callbacks`]).
    kept_callbacks: Option<Node>,
    /// The lock of each element named by a constant (`(None, array, Const)`) and of each
    /// wrapper's element parameter (`(Some(wrapper), array, Param)`), see [`elements`].
    element_locks: std::collections::BTreeMap<
        (
            Option<FuncId>,
            crate::analyses::lock_elements::LockArray,
            crate::analyses::lock_elements::Element,
        ),
        Lock,
    >,
    /// Split arrays initialised with an attribute object: each element may be recursive.
    attributed_arrays: BTreeSet<crate::analyses::lock_elements::LockArray>,
    /// The opened lock of each package (paper §3.3: the fresh lock ℓ′ an unpack binds), made
    /// at its first unpack, in generation order.
    opened: Vec<(Package, Lock)>,
    /// The index in `opened` of each package: a program has a package per struct type and
    /// lock path, and every access inside an unpack looks its package up (a search of
    /// `opened` grew as accesses × packages: macros shape at 1M lines).
    opened_at: FxHashMap<Package, usize>,
    /// The *mask lock* of each signal some call blocks and a handler is installed for: held
    /// where the signal is blocked, it protects nothing but an access of `main` alone from the
    /// signal's handler (`solver::threads::check`).
    mask_locks: Vec<(i64, Lock)>,
    /// The locks of the turns, each with the name of its variable.
    turn_locks: Vec<(Lock, RhoName)>,
    /// While set, reads and writes make no accesses: a turn's lock is found through the
    /// pointer that holds its object, which is no access of the program's.
    no_accesses: bool,
    /// The node of each version made so far, with its global ([`versions`]).
    version_nodes:
        std::collections::BTreeMap<crate::analyses::startup_stores::VersionId, (VarId, Node)>,
    /// The startup reads typed by versions, with their global, in generation order.
    version_reads: Vec<(VarId, Node)>,
    /// The globals whose versions all escaped because unknown code may touch them.
    unversioned: BTreeSet<VarId>,

    // The inference context: the thread program and what reports name.
    fn_of: FxHashMap<FuncId, FnId>,
    fn_func: IndexVec<FnId, FuncId>,
    /// The events of each user function generated so far, by block.
    blocks: FxHashMap<FuncId, Vec<Vec<GenEvent>>>,
    pending: Vec<Pending>,
    accesses: IndexVec<AccessId, AccessInfo>,
    access_sites: IndexVec<AccessId, AccessSite>,
    /// The lock calls ([`ThreadProgram::acquisitions`]) and where they are.
    acquisitions: IndexVec<AcqId, AcquireInfo>,
    acquire_sites: IndexVec<AcqId, AcquireSite>,
    /// The locks initialised with an attribute object ([`ThreadProgram::attributed_locks`]).
    attributed_locks: Vec<Lock>,
    objects: IndexVec<ObjectId, Object>,
    rho_names: FxHashMap<Rho, RhoName>,
    sites: FxHashMap<Site, SiteInfo>,
    /// The library model's thread-local state ([`solver::threads::ThreadProgram::thread_local`]).
    thread_local: Vec<Rho>,
    /// [`solver::threads::ThreadProgram::signal_atomic`].
    signal_atomic: Vec<Rho>,
    /// [`Generated::signal_handlers`].
    signal_handlers: FxHashMap<Site, Option<i64>>,
    /// The accesses of each presumed join's test ([`Generated::presumed`]).
    presumed_tests: Vec<Vec<AccessId>>,
    /// [`ThreadProgram::epochs`], one per guard of [`Analysed::guards`], filled as the
    /// creations and resets are generated.
    epochs: Vec<solver::threads::Epochs>,
    /// The accesses of the stores of a block into each owning member, for
    /// [`ThreadProgram::steady`].
    member_stores: FxHashMap<(crate::ir::ctypes::StructId, u32), Vec<AccessId>>,
    /// [`ThreadProgram::fork_trips`], as the forks are expanded.
    fork_trips: Vec<(Site, u64)>,
    /// The sites of calls through a pointer with several targets ([`ThreadProgram::alternatives`]).
    alternatives: Vec<(Site, Site)>,
    /// The calls of pool join wrappers that join a handle ([`ThreadProgram::param_joins`]).
    param_joins: Vec<(
        Site,
        solver::threads::ThreadHandle,
        solver::threads::ThreadHandle,
    )>,
    /// [`ThreadProgram::relock_fails`].
    relock_fails: Vec<Lock>,
    /// The functions the direct calls of user functions pass by name, by call site: (parameter
    /// index, function), for [`ThreadProgram::untaken_forks`].
    call_functions: FxHashMap<Site, Vec<(u32, FuncId)>>,
    unmodelled: BTreeSet<String>,
    unordered: BTreeSet<String>,
    unsound: Vec<Unsound>,
    /// Misused annotations, in generation order.
    annotations: Vec<crate::diagnostics::Annotation>,

    // The inference context: memos of questions about the input, asked lazily.
    /// The uniqueness of each stub inlined so far, computed at its first inlining
    /// ([`Gen::stub_uniqueness`] says why here and not in the analyses).
    stub_unique: FxHashMap<FuncId, std::rc::Rc<crate::analyses::uniqueness::Uniqueness>>,
    /// Per pointee type handed to unknown code: whether it holds functions to call
    /// ([`crate::ir::ctypes::TypeTable::reaches_function`]). A memo of a question about the
    /// types alone, asked only of the types unknown code is handed: answering it for every type
    /// up front, in the analyses, would walk types no call hands over.
    holds_callbacks: FxHashMap<crate::ir::ctypes::TypeId, bool>,

    // The inference context: where the walk is.
    /// The events of the block being generated.
    current: Vec<GenEvent>,
    /// The position of the statement being generated.
    cur_pos: Pos,
    /// The user statement being generated (`None` inside an inlined stub).
    cur_stmt: Option<StmtAt>,
    /// The point of the function being generated: a statement, or a terminator (one past the
    /// last statement).
    cur_point: Option<crate::analyses::startup_stores::Point>,
    /// The opened lock of the access being generated, if it lies in an unpack: every
    /// `AccessInfo` made meanwhile holds it.
    opening: Option<(Lock, solver::threads::Mode)>,
    /// Whether the access being recorded is of the running thread's own copy of a
    /// thread-local (`AccessInfo::own_copy`), as `opening` is its opened lock.
    own_copy: bool,
}

fn name_of(p: &Program, f: FuncId) -> &str {
    &p.funcs[f].name
}

/// A position as one number, for [`LTypes::at`].
pub fn encode_pos(pos: Pos) -> u64 {
    ((pos.file.0 as u64) << 40) | ((pos.line as u64) << 16) | (pos.column as u64 & 0xffff)
}

fn decode_pos(at: u64) -> Pos {
    Pos {
        file: crate::ir::FileId((at >> 40) as u32),
        line: ((at >> 16) & 0xff_ffff) as u32,
        column: (at & 0xffff) as u32,
    }
}

/// Generates the constraints and event graphs of a linked program whose entry is `main`: labels
/// for every variable, the global initializers (constraints only: they run before any thread),
/// each user function in turn, then the calls whose targets only flow could find; the event
/// graphs, objects and names are read off the finished state.
pub fn generate(
    p: &Program,
    main: FuncId,
    techniques: Techniques,
    analysed: &Analysed,
    stats: &Stats,
) -> Generated {
    let mut g = Gen::new(p, main, techniques, analysed);
    let (stores, replaced) = analysed.startup.counts();
    stats.count("startup: versioned globals", analysed.startup.globals.len());
    stats.count("startup: stores", stores);
    stats.count("startup: replaced stores", replaced);
    stats.count("allocation wrappers", p.alloc_wrappers.len());
    g.variables();
    g.global_initializers();
    let user: Vec<FuncId> = g.fn_func.iter().copied().collect();
    let mut failed = Vec::new();
    stats.time("generate: function bodies", || {
        let total = user.len();
        for (done, f) in user.into_iter().enumerate() {
            if done % 64 == 0 {
                stats.progress(done, total);
            }
            solver::budget::poll();
            // A panic in one function's constraints is contained: the function is listed as
            // not analysed (what it had generated stays) and the others are generated.
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                solver::stats::inject_panic(format_args!("generate:{}", p.funcs[f].name));
                g.function(f)
            }));
            if let Err(panic) = run {
                // A run out of budget stops; it is no failure of this function.
                let panic = match solver::budget::stop_of(panic) {
                    Ok(stop) => std::panic::resume_unwind(Box::new(stop)),
                    Err(panic) => panic,
                };
                let func = &p.funcs[f];
                failed.push(Unanalysed {
                    name: func.name.clone(),
                    pos: func.pos,
                    kind: UnanalysedKind::Internal,
                    lost: Lost::Body,
                    reason: format!(
                        "internal error while generating its constraints: {}",
                        crate::diagnostics::panic_message(panic.as_ref())
                    ),
                });
            }
        }
    });
    g.external_callbacks(main);
    let expansions = stats.time("generate: indirect calls", || g.resolve_pending());
    let mut threads = stats.time("generate: event graphs", || g.event_graphs(&expansions));
    threads.main = g.fn_of.get(&main).copied();
    let objects = g.objects_into(&mut threads);
    stats.count("threads: accesses", threads.accesses.len());
    stats.count("threads: functions", threads.funcs.len());
    if stats.enabled() {
        g.ltypes.record_stats(stats);
        record_constraint_stats(&g.constraints, stats);
    }
    let LabelNames {
        rho_names,
        lock_names,
    } = g.label_names(&objects, &threads);
    let mut unsound = std::mem::take(&mut g.unsound);
    unsound.sort();
    unsound.dedup();
    let mut annotations = std::mem::take(&mut g.annotations);
    if techniques.has(Technique::Existentials) {
        annotations.extend(p.annotations.iter().cloned());
    }
    annotations.sort();
    annotations.dedup();
    Generated {
        constraints: g.constraints,
        threads,
        access_sites: g.access_sites,
        acquire_sites: g.acquire_sites,
        rho_names,
        lock_names,
        sites: g.sites,
        fn_func: g.fn_func,
        unmodelled: g.unmodelled,
        unordered: g.unordered,
        unanalysed: failed,
        unsound,
        annotations,
        conflations: std::mem::take(&mut g.ltypes.conflations)
            .into_iter()
            .map(|(at, why)| (decode_pos(at), why))
            .collect(),
        signal_handlers: g.signal_handlers,
        presumed: g
            .analysed
            .joins
            .presumed
            .iter()
            .cloned()
            .zip(g.presumed_tests)
            .collect(),
    }
}

/// Records the sizes of the constraint store in the developer's statistics.
fn record_constraint_stats(c: &Constraints, stats: &Stats) {
    stats.count("constraints: scopes", c.scopes.len());
    stats.count("constraints: rhos", c.rhos.len());
    stats.count("constraints: locks", c.locks.len());
    stats.count("constraints: sites", c.sites.len());
    stats.count("constraints: flows", c.flows.len());
    stats.count("constraints: rho insts", c.rho_insts.len());
    stats.count("constraints: lock eqs", c.lock_eqs.len());
    stats.count("constraints: lock insts", c.lock_insts.len());
}

impl<'a> Gen<'a> {
    /// The generator's state before any label exists: one generalisation scope per user
    /// function (the root for `main`, and for all under `--context-insensitive`).
    fn new(
        program: &'a Program,
        main: FuncId,
        techniques: Techniques,
        analysed: &'a Analysed,
    ) -> Gen<'a> {
        let mut constraints = Constraints::new();
        let mut ltypes = LTypes::new(&program.types);
        ltypes.void_model = techniques.has(Technique::Void);
        ltypes.field_sensitive = techniques.has(Technique::FieldSensitivity);
        let mut scope_of = FxHashMap::default();
        let mut fn_of = FxHashMap::default();
        let mut fn_func = IndexVec::new();
        for (f, func) in program.funcs.iter_enumerated() {
            if !(func.defined && func.origin == Origin::User) {
                continue;
            }
            let scope = if f == main || !techniques.has(Technique::ContextSensitivity) {
                Scope::ROOT
            } else {
                constraints.new_scope(Scope::ROOT)
            };
            scope_of.insert(f, scope);
            fn_of.insert(f, fn_func.push(f));
        }
        scope_of.insert(program.global_init, Scope::ROOT);
        let mask_locks = analysed
            .masks
            .masked
            .iter()
            .map(|&n| (n, constraints.new_lock(Scope::ROOT)))
            .collect();
        Gen {
            program,
            main,
            techniques,
            analysed,

            constraints,
            ltypes,
            scope_of,
            var_rho: IndexVec::from_elem_n(None, program.vars.len()),
            sig: FxHashMap::default(),
            int_blob: None,
            unknown_state: None,
            kept_callbacks: None,
            element_locks: std::collections::BTreeMap::new(),
            attributed_arrays: BTreeSet::new(),
            opened: Vec::new(),
            opened_at: FxHashMap::default(),
            mask_locks,
            turn_locks: Vec::new(),
            no_accesses: false,
            version_nodes: std::collections::BTreeMap::new(),
            version_reads: Vec::new(),
            unversioned: BTreeSet::new(),

            fn_of,
            fn_func,
            blocks: FxHashMap::default(),
            pending: Vec::new(),
            accesses: IndexVec::new(),
            access_sites: IndexVec::new(),
            acquisitions: IndexVec::new(),
            acquire_sites: IndexVec::new(),
            attributed_locks: Vec::new(),
            objects: IndexVec::new(),
            rho_names: FxHashMap::default(),
            sites: FxHashMap::default(),
            thread_local: Vec::new(),
            signal_atomic: Vec::new(),
            signal_handlers: FxHashMap::default(),
            presumed_tests: vec![Vec::new(); analysed.joins.presumed.len()],
            epochs: vec![solver::threads::Epochs::default(); analysed.guards.len()],
            member_stores: FxHashMap::default(),
            fork_trips: Vec::new(),
            alternatives: Vec::new(),
            param_joins: Vec::new(),
            relock_fails: Vec::new(),
            call_functions: FxHashMap::default(),
            unmodelled: BTreeSet::new(),
            unordered: BTreeSet::new(),
            unsound: Vec::new(),
            annotations: Vec::new(),

            stub_unique: FxHashMap::default(),
            holds_callbacks: FxHashMap::default(),

            current: Vec::new(),
            cur_pos: program.funcs[main].pos,
            cur_stmt: None,
            cur_point: None,
            opening: None,
            own_copy: false,
        }
    }

    /// A location label and a content node for every variable: globals and string literals at
    /// the root, locals in their function's scope; globals are objects to check.
    fn variables(&mut self) {
        let p = self.program;
        for (v, var) in p.vars.iter_enumerated() {
            let (scope, kind) = match var.kind {
                VarKind::Global { .. } | VarKind::StringLit => (Scope::ROOT, RhoKind::Alloc),
                VarKind::Local(f) | VarKind::Param(f, _) | VarKind::Temp(f) => {
                    let Some(&s) = self.scope_of.get(&f) else {
                        continue;
                    };
                    let kind = if var.address_taken {
                        RhoKind::Alloc
                    } else {
                        RhoKind::Plain
                    };
                    (s, kind)
                }
            };
            let rho = self
                .ltypes
                .new_rho(&mut self.constraints, scope, kind, RhoOrigin::Object);
            let node = self
                .ltypes
                .content_of_type(&mut self.constraints, var.ty, scope);
            self.var_rho[v] = Some((rho, node));
            self.rho_names.insert(rho, RhoName::Var(v));
            if let VarKind::Global {
                thread_local,
                is_static,
                ..
            } = var.kind
            {
                if thread_local && var.origin == Origin::Stub {
                    self.thread_local.push(rho);
                }
                // An array's elements are a location of their own, left plain.
                if var.signal_atomic && !self.is_array(var.ty) {
                    self.signal_atomic.push(rho);
                }
                if !is_static && !thread_local && var.origin == Origin::User {
                    self.ltypes.visible_global(&mut self.constraints, rho, node);
                }
                let array = self.is_array(var.ty);
                self.objects.push(Object {
                    rho,
                    content: node,
                    array,
                });
            }
        }
    }

    /// The initializers of globals: their flow constraints only, since they run before any
    /// thread exists (no access can race).
    fn global_initializers(&mut self) {
        let init = self.program.global_init;
        let mut frame = Frame::new(init, Scope::ROOT);
        for block in self.program.funcs[init].blocks.iter() {
            for stmt in &block.stmts {
                self.stmt(&mut frame, &stmt.kind, stmt.pos);
            }
        }
        self.current.clear();
    }
}
