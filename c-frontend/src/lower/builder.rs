//! The control-flow graph of the function being lowered.
//!
//! Statements are appended to a current block; a terminator closes it. After a `return`,
//! `goto`, `break` or a call that does not return there is no current block, and the next
//! statement opens a fresh one without predecessors (dead code, dropped by [`FuncBuilder::finish`]).
//! Blocks are created ahead of time for join points and loop heads, and filled when control gets
//! there. Labels are blocks named by the label (a label a block declares local with `__label__`
//! carries its scope's number); a computed `goto *p` (GNU) gets its targets, every label whose
//! address the function takes, when the function is finished.

use rustc_hash::FxHashMap;
use solver::ids::Idx;

use crate::ir::{Block, BlockId, Cases, CountedLoop, FuncId, Operand, Pos, Stmt, Term, VarId};
use crate::model::{LockMode, TrySuccess};

/// A piece of the global-init function: the blocks lowering one initializer produced (entry
/// first; its `Return` terminators mean "continue with the next chunk") and its temporaries.
#[derive(Clone, Debug)]
pub(super) struct Chunk {
    pub blocks: Vec<Block>,
    pub temps: Vec<VarId>,
}

/// What lowering a function body produced, once its graph is cleaned.
pub(super) struct Finished {
    pub blocks: Vec<Block>,
    /// Locals and temporaries, in creation order.
    pub locals: Vec<VarId>,
    /// Initializers of function-`static` locals.
    pub statics: Vec<Chunk>,
    /// The counted loops, with the ids of the cleaned graph (see [`CountedLoop`]).
    pub counted_loops: Vec<CountedLoop>,
}

/// A `goto` label of the function.
#[derive(Clone, Debug)]
struct Label {
    block: BlockId,
    defined: bool,
    /// The first `goto` naming it, reported if the label is never defined.
    first_use: Pos,
}

/// The cases of a `switch` being lowered.
#[derive(Clone, Debug)]
pub(super) struct SwitchCx {
    pub targets: Vec<BlockId>,
    /// The values of each target's label (`None`: `default`), as [`Cases`] keeps them.
    pub values: Vec<Option<Vec<(i64, i64)>>>,
    /// Whether every case label's value is known.
    pub constant: bool,
    pub has_default: bool,
}

impl Default for SwitchCx {
    fn default() -> SwitchCx {
        SwitchCx {
            targets: Vec::new(),
            values: Vec::new(),
            constant: true,
            has_default: false,
        }
    }
}

pub(super) struct FuncBuilder {
    pub func: FuncId,
    blocks: Vec<(Vec<Stmt>, Option<Term>)>,
    cur: Option<BlockId>,
    /// Locals and temporaries, in creation order.
    pub locals: Vec<VarId>,
    labels: FxHashMap<String, Label>,
    /// Where `break` goes: the innermost loop or `switch`.
    pub breaks: Vec<BlockId>,
    /// Where `continue` goes: the innermost loop.
    pub continues: Vec<BlockId>,
    pub switches: Vec<SwitchCx>,
    /// Initializers of function-`static` locals, added to the global-init function only if the
    /// whole function lowers.
    pub statics: Vec<Chunk>,
    /// Counter naming temporaries.
    pub temps: u32,
    /// Counter numbering the scopes of local labels (`__label__`, GNU).
    pub local_label_scopes: u32,
    /// Counted loops (`for`, and `while` after the counter's assignment), with this builder's
    /// block ids: `head` and `step` are the blocks the
    /// lowering created for them, `body` and `exit` are ignored (`finish` reads them from the
    /// cleaned head's terminator).
    pub counted_loops: Vec<CountedLoop>,
    /// Local variables holding a try-lock's result (`r = pthread_mutex_trylock(&m)`), which
    /// later tests of the variable treat as tests of the call.
    pub trylock_results: FxHashMap<VarId, SavedTryLock>,
    /// The labels whose address the function takes (`&&label`, GNU), by name as written.
    pub taken_labels: Vec<String>,
    /// The blocks ending in a computed `goto *p`, whose targets [`FuncBuilder::finish`] sets.
    computed_gotos: Vec<BlockId>,
}

/// How a try-lock call acquires: the mode its lock is then held in, and the result that says it
/// did.
#[derive(Copy, Clone, Debug)]
pub(super) struct TryHow {
    pub mode: LockMode,
    pub success: TrySuccess,
}

/// A try-lock result saved in a local variable: the lock operand, the mode, and the block that
/// acquires the lock on the edge where the first test of the variable found it 0. Only the
/// first test acquires: by a later one the lock may have been released again. A second
/// assignment to the variable (or taking its address) makes the test unknown again: the block
/// is emptied, since the value tested may then come from elsewhere (through a loop).
#[derive(Clone, Debug)]
pub(super) struct SavedTryLock {
    pub lock: Operand,
    pub how: TryHow,
    pub acquires: Vec<BlockId>,
    /// Assigned again, or tested already: no longer a try-lock result for a new test.
    pub spoiled: bool,
}

impl FuncBuilder {
    pub fn new(func: FuncId) -> FuncBuilder {
        let mut b = FuncBuilder {
            func,
            blocks: Vec::new(),
            cur: None,
            locals: Vec::new(),
            labels: FxHashMap::default(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            statics: Vec::new(),
            temps: 0,
            local_label_scopes: 0,
            counted_loops: Vec::new(),
            trylock_results: FxHashMap::default(),
            taken_labels: Vec::new(),
            computed_gotos: Vec::new(),
        };
        let entry = b.new_block();
        b.cur = Some(entry);
        b
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push((Vec::new(), None));
        BlockId::new(self.blocks.len() - 1)
    }

    /// The block statements go to, opening an unreachable one if control cannot get here.
    pub fn cur(&mut self) -> BlockId {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.new_block();
                self.cur = Some(b);
                b
            }
        }
    }

    pub fn emit(&mut self, stmt: Stmt) {
        let b = self.cur();
        self.blocks[b.index()].0.push(stmt);
    }

    /// The last statement of the current block, if control can reach this point.
    pub fn last_stmt(&self) -> Option<&Stmt> {
        self.blocks[self.cur?.index()].0.last()
    }

    /// How many terminators of the function so far name `target` (once per edge).
    pub fn edges_into(&self, target: BlockId) -> usize {
        self.blocks
            .iter()
            .filter_map(|(_, t)| t.as_ref())
            .map(|t| t.successors().iter().filter(|&&s| s == target).count())
            .sum()
    }

    /// Closes the current block with `term`.
    pub fn terminate(&mut self, term: Term) {
        let b = self.cur();
        self.blocks[b.index()].1 = Some(term);
        self.cur = None;
    }

    /// Jumps to `target` if control can reach this point.
    pub fn goto(&mut self, target: BlockId) {
        if self.cur.is_some() {
            self.terminate(Term::Goto(target));
        }
    }

    /// Continues in `b`, which must not be terminated yet; the current block must be closed.
    pub fn switch_to(&mut self, b: BlockId) {
        debug_assert!(self.cur.is_none(), "switching away from an open block");
        self.cur = Some(b);
    }

    /// Jumps from the current point to `b` and continues there.
    pub fn goto_and_switch(&mut self, b: BlockId) {
        self.goto(b);
        self.cur = Some(b);
    }

    /// Leaves the current block open but stops appending to it (it is resumed with `switch_to`).
    pub fn suspend(&mut self) -> Option<BlockId> {
        self.cur.take()
    }

    /// Sets the terminator of a block other than the current one.
    pub fn set_term(&mut self, b: BlockId, term: Term) {
        self.blocks[b.index()].1 = Some(term);
    }

    /// Appends a statement to a block other than the current one.
    /// Drops the statements of a block (an acquire a later assignment showed unfounded).
    pub fn clear_block(&mut self, b: BlockId) {
        self.blocks[b.index()].0.clear();
    }

    pub fn emit_to(&mut self, b: BlockId, stmt: Stmt) {
        self.blocks[b.index()].0.push(stmt);
    }

    /// The block of label `name`, created on first mention.
    pub fn label_block(&mut self, name: &str, pos: Pos) -> BlockId {
        if let Some(l) = self.labels.get(name) {
            return l.block;
        }
        let block = self.new_block();
        self.labels.insert(
            name.to_string(),
            Label {
                block,
                defined: false,
                first_use: pos,
            },
        );
        block
    }

    /// Marks label `name` as defined; false if it already was.
    pub fn define_label(&mut self, name: &str, pos: Pos) -> (BlockId, bool) {
        let block = self.label_block(name, pos);
        let l = self.labels.get_mut(name).expect("label just created");
        let fresh = !l.defined;
        l.defined = true;
        (block, fresh)
    }

    /// The first (by position) label that a `goto` names but no statement defines, by its name
    /// as written.
    pub fn undefined_label(&self) -> Option<(String, Pos)> {
        self.labels
            .iter()
            .filter(|(_, l)| !l.defined)
            .map(|(n, l)| (l.first_use, written_label(n).to_string()))
            .min()
            .map(|(p, n)| (n, p))
    }

    /// Ends the current block with a computed `goto *p` (GNU): it may go to any label whose
    /// address the function takes, which [`FuncBuilder::finish`] fills in once every label is
    /// known.
    pub fn computed_goto(&mut self) {
        let b = self.cur();
        self.computed_gotos.push(b);
        self.terminate(Term::Exit);
    }

    /// Gives every computed `goto` its targets: the blocks of all labels (in any scope of local
    /// labels) whose address the function takes, in block order. With none, control cannot
    /// go anywhere in this function (jumping into another function is undefined), as after
    /// `abort`.
    fn resolve_computed_gotos(&mut self) {
        if self.computed_gotos.is_empty() {
            return;
        }
        let mut targets: Vec<BlockId> = self
            .labels
            .iter()
            .filter(|(n, _)| self.taken_labels.iter().any(|t| t == written_label(n)))
            .map(|(_, l)| l.block)
            .collect();
        targets.sort();
        targets.dedup();
        let term = if targets.is_empty() {
            Term::Exit
        } else {
            Term::Multi(targets, None)
        };
        for b in std::mem::take(&mut self.computed_gotos) {
            self.blocks[b.index()].1 = Some(term.clone());
        }
    }

    /// Closes the function: an open end returns (`end` is the closing brace), empty blocks that
    /// only jump are bypassed, and blocks control cannot reach from the entry are dropped. The
    /// counted loops are renumbered to the cleaned graph; those whose blocks no longer have the
    /// shape [`CountedLoop`] documents (a dead loop, a step no path reaches) are dropped.
    pub fn finish(mut self, end: Pos) -> Finished {
        self.resolve_computed_gotos();
        if self.cur.is_some() {
            self.terminate(Term::Return(None, end));
        }
        let blocks: Vec<Block> = self
            .blocks
            .into_iter()
            .map(|(stmts, term)| Block {
                stmts,
                term: term.unwrap_or(Term::Exit),
            })
            .collect();
        let (blocks, map) = clean(blocks);
        let counted_loops = self
            .counted_loops
            .iter()
            .filter_map(|l| renumber_loop(l, &blocks, &map))
            .collect();
        Finished {
            blocks,
            locals: self.locals,
            statics: self.statics,
            counted_loops,
        }
    }

    /// Closes an initializer chunk: its end returns, meaning "go on with the next chunk". Counted
    /// loops of initializers (inside statement expressions) are not kept.
    pub fn into_chunk(self, end: Pos) -> (Chunk, Vec<Chunk>) {
        let f = self.finish(end);
        (
            Chunk {
                blocks: f.blocks,
                temps: f.locals,
            },
            f.statics,
        )
    }
}

/// The separator between a label's name and the number of its scope, for the labels a block
/// declares local with `__label__` (GNU): `#` cannot appear in a C identifier.
pub(super) const LOCAL_LABEL_SEP: char = '#';

/// A label's name as written, without the scope number of a local label.
fn written_label(name: &str) -> &str {
    name.split(LOCAL_LABEL_SEP).next().unwrap_or(name)
}

/// The successors of a terminator.
pub(super) fn successors(t: &Term) -> Vec<BlockId> {
    match t {
        Term::Goto(b) => vec![*b],
        Term::Branch {
            then_block,
            else_block,
            ..
        } => vec![*then_block, *else_block],
        Term::Multi(bs, _) => bs.clone(),
        Term::Return(..) | Term::Exit => Vec::new(),
    }
}

/// `t` with every successor replaced by its image under `f` (duplicate switch targets merged).
fn map_targets(t: Term, f: &dyn Fn(BlockId) -> BlockId) -> Term {
    match t {
        Term::Goto(b) => Term::Goto(f(b)),
        Term::Branch {
            cond,
            then_block,
            else_block,
            pos,
            compare,
        } => Term::Branch {
            cond,
            then_block: f(then_block),
            else_block: f(else_block),
            pos,
            compare,
        },
        Term::Multi(bs, cases) => {
            let mut out: Vec<BlockId> = Vec::with_capacity(bs.len());
            let mut values: Vec<Option<Vec<(i64, i64)>>> = Vec::with_capacity(bs.len());
            for (i, b) in bs.into_iter().enumerate() {
                let b = f(b);
                let these = cases.as_ref().and_then(|c| c.0.get(i).cloned()).flatten();
                match out.iter().position(|&o| o == b) {
                    // Two targets that land on one block: it takes both's values, and every
                    // value no case names if either did.
                    Some(at) => {
                        values[at] = match (values[at].take(), these) {
                            (Some(mut a), Some(b)) => {
                                a.extend(b);
                                Some(a)
                            }
                            _ => None,
                        }
                    }
                    None => {
                        out.push(b);
                        values.push(these);
                    }
                }
            }
            Term::Multi(out, cases.map(|_| Box::new(Cases(values))))
        }
        other => other,
    }
}

/// Renumbers the targets of a chunk's terminator when the chunk is placed at offset `base`.
pub(super) fn shift_term(t: Term, base: u32) -> Term {
    map_targets(t, &|b| BlockId(b.0 + base))
}

/// Where the blocks of the builder went in the cleaned graph.
struct BlockMap {
    /// The new id of a block kept as a block of its own.
    own: Vec<Option<BlockId>>,
    /// The new block holding a block's statements and terminator: its own, or the block it was
    /// merged into. `None` for dropped blocks (unreachable, or bypassed because they only jump).
    holder: Vec<Option<BlockId>>,
}

/// A counted loop recorded with builder ids, in the ids of the cleaned graph, if its blocks still
/// have the shape [`CountedLoop`] documents: `head` is a block of its own without statements that
/// branches, and `step` survives and jumps back to `head`.
fn renumber_loop(l: &CountedLoop, blocks: &[Block], map: &BlockMap) -> Option<CountedLoop> {
    let head = map.own[l.head.index()]?;
    let step = map.holder[l.step.index()]?;
    let h = &blocks[head.index()];
    let Term::Branch {
        then_block,
        else_block,
        ..
    } = h.term
    else {
        return None;
    };
    if !h.stmts.is_empty() || !matches!(blocks[step.index()].term, Term::Goto(t) if t == head) {
        return None;
    }
    Some(CountedLoop {
        head,
        body: then_block,
        step,
        exit: else_block,
        ..*l
    })
}

/// Bypasses empty blocks that only jump elsewhere, merges a block into its only predecessor when
/// that predecessor jumps straight to it, and drops unreachable blocks, keeping the entry first
/// and the others in creation order (which follows the source). Also says where each block went.
fn clean(mut blocks: Vec<Block>) -> (Vec<Block>, BlockMap) {
    let n = blocks.len();
    // Where a jump to each block really lands, following chains of empty `goto` blocks; a cycle
    // of them (`l: goto l;`) stays as it is.
    let jump_only = |b: &Block| match b.term {
        Term::Goto(next) if b.stmts.is_empty() => Some(next.index()),
        _ => None,
    };
    let landing = |start: usize| {
        let mut cur = start;
        let mut steps = 0;
        while let Some(next) = jump_only(&blocks[cur]) {
            if next == start || steps > n {
                return start;
            }
            cur = next;
            steps += 1;
        }
        cur
    };
    // The entry keeps its place: control starts there.
    let forward: Vec<BlockId> = (0..n)
        .map(|b| BlockId::new(if b == 0 { 0 } else { landing(b) }))
        .collect();
    for b in blocks.iter_mut() {
        let term = std::mem::replace(&mut b.term, Term::Exit);
        b.term = map_targets(term, &|t| forward[t.index()]);
    }
    let mut reachable = vec![false; n];
    let mut stack = vec![0usize];
    reachable[0] = true;
    while let Some(b) = stack.pop() {
        for s in successors(&blocks[b].term) {
            if !reachable[s.index()] {
                reachable[s.index()] = true;
                stack.push(s.index());
            }
        }
    }
    // A block whose only predecessor jumps straight to it continues that predecessor.
    let mut preds = vec![0u32; n];
    for (b, block) in blocks.iter().enumerate() {
        if reachable[b] {
            for s in successors(&block.term) {
                preds[s.index()] += 1;
            }
        }
    }
    // The block each block was merged into (itself if it was not).
    let mut merged_into: Vec<usize> = (0..n).collect();
    for b in 0..n {
        if !reachable[b] {
            continue;
        }
        while let Term::Goto(s) = blocks[b].term {
            let s = s.index();
            if s == b || s == 0 || preds[s] != 1 {
                break;
            }
            let stmts = std::mem::take(&mut blocks[s].stmts);
            blocks[b].stmts.extend(stmts);
            blocks[b].term = std::mem::replace(&mut blocks[s].term, Term::Exit);
            reachable[s] = false;
            merged_into[s] = b;
        }
    }
    let mut new_id = vec![BlockId(u32::MAX); n];
    let mut next = 0u32;
    for (i, r) in reachable.iter().enumerate() {
        if *r {
            new_id[i] = BlockId(next);
            next += 1;
        }
    }
    let map = BlockMap {
        own: (0..n).map(|b| reachable[b].then_some(new_id[b])).collect(),
        holder: (0..n)
            .map(|b| {
                // A block absorbed one that had itself absorbed others, so follow the chain.
                let mut root = b;
                while merged_into[root] != root {
                    root = merged_into[root];
                }
                reachable[root].then_some(new_id[root])
            })
            .collect(),
    };
    let mut out = Vec::with_capacity(next as usize);
    for (i, b) in blocks.into_iter().enumerate() {
        if reachable[i] {
            let term = map_targets(b.term, &|t| new_id[t.index()]);
            out.push(Block {
                stmts: b.stmts,
                term,
            });
        }
    }
    (out, map)
}
