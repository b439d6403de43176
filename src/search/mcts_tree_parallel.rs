//! Tree-parallel MCTS ([`Parallelism::Tree`](super::mcts::Parallelism::Tree)): one shared
//! tree searched by `threads` threads (Chaslot, Winands & van den Herik, "Parallel
//! Monte-Carlo Tree Search", 2008: tree parallelisation with local mutexes and virtual loss;
//! here lock-free).
//!
//! - Statistics are atomics: visits (`u32`) and per-seat reward sums in fixed point (`u64`,
//!   a reward of 1 is 2^24), added with `fetch_add`, so no thread ever takes a lock.
//! - **Virtual loss**: a simulation counts its visit on every node of its path as it
//!   descends and adds its reward only at the backup, so until then the path scores 0 for
//!   every seat (a loss) to the other threads, which spreads them over different lines.
//!   When the simulation ends the visit is real, so the root's visits equal the simulations.
//! - **Expansion**: a per-node flag (a compare-and-swap of `first_child` from leaf to busy);
//!   a thread that finds a node busy plays out from it instead of waiting, so no thread
//!   ever blocks on another.
//! - **Arena**: one allocation of zeroed nodes (all bits zero is a fresh node), so no
//!   thread clears or creates memory for another and none ever waits for one that does:
//!   the operating system's fresh pages are faulted in by the thread that first uses them;
//!   a finished search's arena is kept for the next search of the same size ([`ARENAS`]),
//!   whose expansions reset the nodes they hand out.
//!   A thread takes nodes for its expansions from its own chunk (with several threads,
//!   [`CHUNK`] nodes at a time; with one, the rest of the span of [`SEGMENT`] nodes),
//!   reserved by a compare-and-swap on the shared counter, so the threads do not fight over
//!   that counter's cache line on every expansion; a block of children never straddles two
//!   spans (the layout of the earlier segmented arena, kept so that a one-thread tree fills
//!   up exactly as before), and the whole tree never exceeds the node budget (when it is
//!   full, the tree stops growing and simulations play out from its leaves, as with the
//!   root-parallel trees).
//! - **Hot nodes: statistics per thread** (with several threads). Every simulation of
//!   every thread passes the root and the upper plies of the main lines, so the nodes there
//!   are the contended cache lines: an atomic add on a line the other core wrote last
//!   costs a cache-line transfer, and so does the next read of it by a selection. A node
//!   becomes *hot* when its shared visit count reaches [`HOT_VISITS`] (the root and its
//!   children from the start): it gets a slot number, and from then on each thread adds
//!   the visits and rewards of its simulations through that node to its own counts
//!   ([`HotCounts`], indexed by slot) and adds them to the shared node every [`CLAIM`]
//!   simulations (and when it stops). The slots of one node's children are one block
//!   (`kid_slots`, reserved when the first of them gets hot; child `i` gets slot
//!   `kid_slots + i`), so a selection reads its own counts for the children in a row, and a
//!   selection at a node with no hot child reads none (no per-child look-up: that cost
//!   Quixo ~800 instructions per simulation, 7 % of them, on 2 threads).
//!   A selection reads shared + own, so it sees all its
//!   own simulations and the other threads' at most [`CLAIM`] simulations (of each other
//!   thread) late: a hot node's statistics lag by at most `CLAIM` simulations per other
//!   thread, on a node with at least [`HOT_VISITS`] visits. The virtual loss of a running
//!   simulation is therefore seen by the other threads at once only below the hot nodes
//!   (where the threads' lines split), as before only below the root's children. A hot
//!   node's shared line is written once per `CLAIM` simulations instead of once per
//!   simulation, so it stays in both cores' caches.
//! - **One thread**: no node is hot and no other thread reads or writes the tree, so the
//!   statistics are added with a plain load and store instead of an atomic
//!   read-modify-write (a locked instruction). The counts are the same integers either
//!   way, so a one-thread search is the same search.
//! - **Shared counters**: the arena counter and the simulation counter each sit on their
//!   own cache line ([`Padded`]), away from the arena pointer every node access reads;
//!   a thread claims simulations [`CLAIM`] at a time, not one by one.
//! - The selection (UCT, MCTS-Solver, progressive history) and the playouts are those of
//!   [`super::mcts`]; the progressive-history table is per thread. With one thread a search
//!   is deterministic for its seed (it differs from the root-parallel search only in the
//!   fixed-point rounding of the reward sums). No tree reuse between moves.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize};
use std::sync::{Mutex, PoisonError};

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::mcts_common::{
    MctsConfig, MctsResult, PlayoutPolicy, Proven, RootChild, TREE_NODE_BYTES, Teams, UNKNOWN,
    child_value, conclude, playout, uct_choice,
};
use super::zeroed::ZeroedSlice;
use super::{Clock, Limits};
use crate::game::{Game, MAX_SEATS, MoveCode};

/// `first_child` of a node that is not expanded (index 0 is the root, never a child).
const LEAF: u32 = 0;
/// `first_child` of a node being expanded by some thread.
const BUSY: u32 = u32::MAX;
/// Nodes per span of the arena (a block of children never straddles two spans).
const SEGMENT: usize = 1 << 14;
/// Most root moves the shared tree takes (the root's children must fit in the first
/// span, after the root); positions with more are searched root-parallel.
pub(super) const MAX_ROOT_MOVES: usize = SEGMENT - 1;
/// Fixed-point unit of the reward sums: a reward of 1.
const ONE: f64 = (1u64 << 24) as f64;
/// Nodes a thread reserves at a time for its own expansions when several threads share
/// the tree (a divisor of [`SEGMENT`]).
const CHUNK: usize = 1 << 10;
/// Simulations a thread claims at a time from the shared budget; a thread adds its hot
/// nodes' statistics to the shared tree every `CLAIM` simulations.
const CLAIM: u64 = 16;
/// Shared visits at which a node becomes hot (its statistics kept per thread, see the
/// module doc) when several threads share the tree. A hot node's statistics lag by at most
/// `CLAIM` simulations of each other thread, at most 1/64 of its visits at 1024. (256
/// cost Quixo, with ~40 children per node, 4-8 % more CPU per simulation on 2 threads.)
pub const HOT_VISITS: u32 = 1024;

/// A value alone on its cache line (two 64-byte lines: the adjacent-line prefetcher pairs
/// them), so writes to it do not evict what other threads read next to it.
#[repr(align(128))]
struct Padded<T>(T);

/// A node of the shared tree; every field is an atomic. One node is 32 bytes, half a
/// cache line (aligned: a node never straddles two lines): a selection reads every child
/// of a node, so a Quixo node's ~40 children are ~20 lines, not ~40 as with 64-byte nodes,
/// and an expansion writes half as much ([`MctsConfig::nodes_for_mib`] fits twice as many
/// of them in a MiB as root-parallel nodes). It keeps the reward of one seat only, the one
/// that moved into it: that is the only one any selection (or the root's result) reads.
///
/// All bits zero is a fresh node (a leaf, no visits, no proof: see [`Node::proof`]), so the
/// arena is one zeroed allocation that nobody writes before use.
#[repr(align(32))]
struct Node {
    /// [`MoveCode`] of the move that leads here (written once, before the parent publishes
    /// its children).
    code: AtomicU16,
    /// Children (contiguous from `first_child`), valid once `first_child` is published.
    children: AtomicU16,
    /// [`LEAF`], [`BUSY`] or the index of the first child (published with `Release`).
    first_child: AtomicU32,
    /// Team to move here (written before the children are published).
    team: AtomicU8,
    /// Proven result from the first team's view (1, 0, -1, or [`UNKNOWN`]) with its sign
    /// bit flipped, so that 0 is [`UNKNOWN`]; read and written through [`Node::proof`] and
    /// [`Node::set_proof`].
    proof_bits: AtomicU8,
    /// Visits, counted when a simulation passes on its way down (the virtual loss).
    visits: AtomicU32,
    /// Summed reward of the seat that moved into this node (the seat to move at its
    /// parent), fixed point ([`ONE`]).
    reward: AtomicU64,
    /// 0, or the slot of a hot node: the index of the threads' own counts ([`HotCounts`])
    /// that they add to this node's statistics every [`CLAIM`] simulations. Child `i`'s
    /// slot is `kid_slots + i` of its parent.
    slot: AtomicU32,
    /// 0, or the first of the slots reserved for this node's children when the first of
    /// them got hot (child `i` gets slot `kid_slots + i` when it gets hot): a thread's own
    /// counts for the children of one node are contiguous, so a selection there reads them
    /// in a row, and a selection at a node with no hot child reads none.
    kid_slots: AtomicU32,
}

const _: () = assert!(std::mem::size_of::<Node>() == TREE_NODE_BYTES);

impl Node {
    /// The proven result from the first team's view: 1, 0, -1, or [`UNKNOWN`] (a zeroed
    /// node).
    fn proof(&self) -> i8 {
        (self.proof_bits.load(Relaxed) ^ 0x80) as i8
    }

    /// Stores the proven result `v` (1, 0 or -1, first team's view).
    fn set_proof(&self, v: i8) {
        self.proof_bits.store(v as u8 ^ 0x80, Relaxed);
    }

    /// Makes this a fresh node reached by the move of [`MoveCode`] `code`: a leaf with no
    /// visits, rewards or proof (the arena may hold an old search's nodes).
    fn reset(&self, code: u16) {
        self.code.store(code, Relaxed);
        self.children.store(0, Relaxed);
        self.first_child.store(LEAF, Relaxed);
        self.team.store(0, Relaxed);
        self.proof_bits.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.reward.store(0, Relaxed);
        self.slot.store(0, Relaxed);
        self.kid_slots.store(0, Relaxed);
    }

    /// The first child, if the node is expanded.
    fn first(&self) -> Option<usize> {
        match self.first_child.load(Acquire) {
            LEAF | BUSY => None,
            f => Some(f as usize),
        }
    }
}

/// `cap` fresh nodes in one zeroed allocation (the operating system's zero pages: no
/// thread writes them before use, and pages no node reaches are never touched: a 1 GiB
/// arena costs nothing up front. `Box::new_zeroed_slice` wrote every byte of it first,
/// inside the move's time budget, for 64-byte-aligned nodes).
fn zeroed_arena(cap: usize) -> ZeroedSlice<Node> {
    // SAFETY: a `Node` is atomics only (integers), for which all bits zero is a valid
    // value (a fresh node), and needs no drop.
    unsafe { ZeroedSlice::new(cap) }
}

/// Most arenas kept for later searches (one per search running at the same time, e.g. the
/// games of a tournament).
const POOLED_ARENAS: usize = 4;

/// Arenas of finished searches, kept for the next ones: a search takes one of its size
/// instead of clearing a new one (16 MiB cleared per search cost ~2.5 ms on one thread
/// before the other threads could start). Their nodes hold old values; an expansion
/// rewrites every field of the children it hands out ([`Node::reset`]) before it publishes
/// them, and nothing reads a node that no expansion has handed out.
static ARENAS: Mutex<Vec<ZeroedSlice<Node>>> = Mutex::new(Vec::new());

/// The shared tree: an arena of `cap` nodes and the simulation counter.
struct SharedTree {
    /// Zeroed on allocation (the operating system's fresh pages: each is touched first by
    /// the thread that uses it, so no thread waits for another to clear memory).
    nodes: ZeroedSlice<Node>,
    cap: usize,
    /// Nodes reserved (into the threads' chunks).
    len: Padded<AtomicUsize>,
    /// Simulations claimed by the threads (may run past the budget; those are not run).
    claimed: Padded<AtomicU64>,
    /// The next hot node's slot (slots start at 1; 0 marks a node that is not hot).
    slots: Padded<AtomicU32>,
    /// Searched by one thread: no node is hot, statistics are added without atomic
    /// read-modify-writes.
    alone: bool,
    /// Shared visits at which a node becomes hot ([`HOT_VISITS`]; never when `alone`).
    hot_visits: u32,
}

impl SharedTree {
    /// An arena of `cap` nodes (at least 1) holding only the root, searched by `threads`
    /// threads.
    fn new(cap: usize, threads: usize) -> Self {
        let cap = cap.max(1);
        let pooled = {
            let mut pool = ARENAS.lock().unwrap_or_else(PoisonError::into_inner);
            pool.iter()
                .position(|a| a.len() == cap)
                .map(|i| pool.swap_remove(i))
        };
        let nodes = pooled.unwrap_or_else(|| zeroed_arena(cap));
        // The root is the one node used without an expansion writing it first.
        nodes[0].reset(0);
        Self {
            nodes,
            cap,
            len: Padded(AtomicUsize::new(1)),
            claimed: Padded(AtomicU64::new(0)),
            slots: Padded(AtomicU32::new(1)),
            alone: threads <= 1,
            hot_visits: if threads <= 1 { u32::MAX } else { HOT_VISITS },
        }
    }

    /// Makes the root hot: gives it the next slot (a block of one).
    fn make_root_hot(&self) {
        let slot = self.slots.0.fetch_add(1, Relaxed);
        self.node(0).slot.store(slot, Relaxed);
    }

    /// Makes `child`, child `at` of expanded node `parent`, hot: gives it slot `at` of the
    /// parent's block of slots, which the first of the parent's children to get hot
    /// reserves (a compare-and-swap: a thread that loses the race uses the winner's block).
    /// Past [`MAX_SLOTS`] slots no node gets hot.
    fn make_hot_child(&self, parent: usize, child: usize, at: usize) {
        let p = self.node(parent);
        let mut base = p.kid_slots.load(Relaxed);
        if base == 0 {
            let k = u32::from(p.children.load(Relaxed));
            if self.slots.0.load(Relaxed) + k > MAX_SLOTS {
                return;
            }
            let block = self.slots.0.fetch_add(k, Relaxed);
            if block + k > MAX_SLOTS {
                return;
            }
            base = match p.kid_slots.compare_exchange(0, block, Relaxed, Relaxed) {
                Ok(_) => block,
                Err(theirs) => theirs,
            };
        }
        self.node(child).slot.store(base + at as u32, Relaxed);
    }

    /// Adds `v` to `a` and returns the old value: an atomic add, or a plain load and store
    /// when the tree is searched by one thread.
    fn add_u32(&self, a: &AtomicU32, v: u32) -> u32 {
        if self.alone {
            let old = a.load(Relaxed);
            a.store(old.wrapping_add(v), Relaxed);
            old
        } else {
            a.fetch_add(v, Relaxed)
        }
    }

    /// Adds `v` to `a` (see [`Self::add_u32`]).
    fn add_u64(&self, a: &AtomicU64, v: u64) {
        if self.alone {
            a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
        } else {
            a.fetch_add(v, Relaxed);
        }
    }

    /// Node `i` (reserved earlier).
    fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// Nodes `first..first + k`.
    fn block(&self, first: usize, k: usize) -> &[Node] {
        &self.nodes[first..first + k]
    }

    /// Reserves a chunk for a thread's expansions from the shared counter: `start..end`
    /// holds at least `k` nodes, starts where the counter stands (or at the next segment
    /// when `k` nodes do not fit in this one) and runs to the next multiple of `chunk` (a
    /// power of two dividing [`SEGMENT`]; `SEGMENT` takes the rest of the segment), never
    /// past the segment or the arena's capacity. `None` when the arena cannot hold `k`
    /// more nodes.
    fn reserve_chunk(&self, k: usize, chunk: usize) -> Option<(usize, usize)> {
        if k == 0 || k > SEGMENT {
            return None;
        }
        let mut cur = self.len.0.load(Relaxed);
        loop {
            let start = if cur + k > (cur / SEGMENT + 1) * SEGMENT {
                (cur / SEGMENT + 1) * SEGMENT
            } else {
                cur
            };
            let segment_end = (start / SEGMENT + 1) * SEGMENT;
            let end = (start + k)
                .max((start / chunk + 1) * chunk)
                .min(segment_end)
                .min(self.cap);
            if start + k > end {
                return None;
            }
            match self.len.0.compare_exchange_weak(cur, end, Relaxed, Relaxed) {
                Ok(_) => return Some((start, end)),
                Err(now) => cur = now,
            }
        }
    }

    /// `k` contiguous nodes (1 to `u16::MAX`) from a thread's chunk `local`, which is
    /// replaced by a new one from [`Self::reserve_chunk`]`(k, chunk)` when it is too small:
    /// the first node's index, or `None` when the arena cannot hold them.
    fn alloc(&self, local: &mut Chunk, k: usize, chunk: usize) -> Option<usize> {
        if k == 0 || k > usize::from(u16::MAX) {
            None
        } else if local.next + k <= local.end {
            local.next += k;
            Some(local.next - k)
        } else {
            let (start, end) = self.reserve_chunk(k, chunk)?;
            *local = Chunk {
                next: start + k,
                end,
            };
            Some(start)
        }
    }

    /// Expands node `idx` (position `pos`, `team` to move), its children taken from the
    /// calling thread's chunk `local` (refilled [`Self::reserve_chunk`]`(_, chunk)` when
    /// too small): the index of its first child, or `None` when another thread is
    /// expanding it, it has no moves or the arena is full.
    fn expand<G: Game>(
        &self,
        idx: usize,
        pos: &G,
        team: u8,
        local: &mut Chunk,
        chunk: usize,
    ) -> Option<usize> {
        let node = self.node(idx);
        match node
            .first_child
            .compare_exchange(LEAF, BUSY, Acquire, Acquire)
        {
            Ok(_) => {}
            Err(BUSY) => return None,
            Err(first) => return Some(first as usize),
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let first = self.alloc(local, moves.len(), chunk);
        let Some(first) = first else {
            node.first_child.store(LEAF, Release);
            return None;
        };
        for (ch, mv) in self.block(first, moves.len()).iter().zip(moves.iter()) {
            ch.reset(mv.code());
        }
        node.team.store(team, Relaxed);
        node.children.store(moves.len() as u16, Relaxed);
        node.first_child.store(first as u32, Release);
        Some(first)
    }
}

/// Most slots (hot nodes' per-thread counts) a search hands out; past them no more nodes
/// get hot (their statistics go to the shared nodes, as for any cold node). Bounds a
/// thread's [`HotCounts`] at `MAX_SLOTS * 16` bytes (4 MiB).
const MAX_SLOTS: u32 = 1 << 18;

/// A thread's visits and reward sums at the hot nodes not yet added to the shared tree,
/// by slot (structure of arrays, so that a selection reads a node's children's visits and
/// rewards each in a row). Slot 0 is never used. The arrays are grown together,
/// to cover every slot handed out so far, when a slot past them is first written: a block
/// of slots lies either wholly inside them or wholly past them (past: no counts of this
/// thread).
#[derive(Debug, Default)]
struct HotCounts {
    /// Visits; 0: nothing to add (a simulation's reward goes only to the hot nodes it
    /// counted a visit on, so a slot with no visits has no reward either).
    visits: Vec<u32>,
    /// The node of the slot (valid while its `visits > 0`).
    node: Vec<u32>,
    /// Reward of the seat that moved into the node, fixed point ([`ONE`]).
    reward: Vec<u64>,
    /// Slots with visits (the ones the next flush adds).
    dirty: Vec<u32>,
}

impl HotCounts {
    /// Grows the arrays to `len` slots.
    fn grow(&mut self, len: usize) {
        self.visits.resize(len, 0);
        self.node.resize(len, 0);
        self.reward.resize(len, 0);
    }
}

/// The rest of a thread's chunk of the arena: nodes `next..end` are its own.
#[derive(Clone, Copy, Debug, Default)]
struct Chunk {
    next: usize,
    end: usize,
}

/// One thread's state on the shared tree.
struct Worker<'a, G: Game, P: PlayoutPolicy<G>> {
    tree: &'a SharedTree,
    cfg: &'a MctsConfig,
    policy: &'a P,
    rng: StdRng,
    teams: Teams,
    solver: bool,
    /// The current simulation's nodes as (index, slot when it was visited: 0 if not hot,
    /// seat that moved into it: 0 at the root).
    path: Vec<(u32, u32, u8)>,
    /// Moves of the current simulation as (seat, code), for progressive history.
    trail: Vec<(u8, u16)>,
    /// Per (seat, move code): summed reward and count (this thread's simulations).
    history: Vec<(f64, u32)>,
    depth: u32,
    iterations: u64,
    /// Summed reward (fixed point) of the seat to move at the root over this thread's
    /// simulations that went past the root: what its children's reward sums must add up
    /// to once every thread has flushed ([`check_flushed_statistics`]).
    root_reward: u64,
    /// This thread's chunk of the arena and the size of the next one.
    local: Chunk,
    chunk: usize,
    /// This thread's statistics at the hot nodes, by slot, not yet added to the shared
    /// tree.
    hot: HotCounts,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<'a, G: Game, P: PlayoutPolicy<G>> Worker<'a, G, P> {
    /// A worker with arena chunk `local` (taking `chunk` nodes at a time afterwards).
    fn new(
        tree: &'a SharedTree,
        root: &G,
        cfg: &'a MctsConfig,
        policy: &'a P,
        seed: u64,
        local: Chunk,
        chunk: usize,
    ) -> Self {
        let teams = Teams::of(root);
        Self {
            tree,
            cfg,
            policy,
            rng: StdRng::seed_from_u64(seed),
            teams,
            solver: cfg.solver && teams.count == 2,
            path: Vec::with_capacity(64),
            trail: Vec::with_capacity(if cfg.history > 0.0 { 256 } else { 0 }),
            history: if cfg.history > 0.0 {
                vec![(0.0, 0); teams.seats * G::MOVE_CODES]
            } else {
                Vec::new()
            },
            depth: 0,
            iterations: 0,
            root_reward: 0,
            local,
            chunk,
            hot: HotCounts::default(),
            _game: std::marker::PhantomData,
        }
    }

    /// Runs simulations until the shared budget is used up, the clock stops or the root is
    /// proven.
    fn run(&mut self, root: &G, limits: &Limits, budget: u64) {
        let mut clock = Clock::start(&Limits {
            depth: None,
            nodes: None,
            time_ms: limits.time_ms,
            stop: limits.stop.clone(),
            ..Limits::default()
        });
        // Simulations claimed from the shared budget and not yet run.
        let mut left = 0u64;
        loop {
            if left == 0 {
                self.flush();
                let start = self.tree.claimed.0.fetch_add(CLAIM, Relaxed);
                if start >= budget {
                    break;
                }
                left = CLAIM.min(budget - start);
            }
            left -= 1;
            self.iterate(root);
            self.iterations += 1;
            if self.tree.node(0).proof() != UNKNOWN || clock.should_stop(self.iterations * 64) {
                break;
            }
        }
        self.flush();
    }

    /// Adds this thread's statistics at the hot nodes to the shared tree.
    fn flush(&mut self) {
        let tree = self.tree;
        let hot = &mut self.hot;
        for &slot in &hot.dirty {
            let s = slot as usize;
            let n = tree.node(hot.node[s] as usize);
            n.visits
                .fetch_add(std::mem::take(&mut hot.visits[s]), Relaxed);
            let r = std::mem::take(&mut hot.reward[s]);
            if r != 0 {
                n.reward.fetch_add(r, Relaxed);
            }
        }
        hot.dirty.clear();
    }

    /// Counts a visit to node `i`, child `at` of node `parent` (slot `slot`, 0 if not hot):
    /// in this thread's counts for a hot node, else in the shared node (which becomes hot
    /// when this visit brings it to the threshold). Returns the node's visits before this
    /// one (shared + this thread's) and this thread's visits not yet in the shared node,
    /// this one included.
    fn visit(&mut self, i: usize, slot: u32, parent: usize, at: usize) -> (u32, u32) {
        let n = self.tree.node(i);
        if slot == 0 {
            let before = self.tree.add_u32(&n.visits, 1);
            if !self.tree.alone && before + 1 == self.tree.hot_visits {
                // Only one thread's add returns the count just below the threshold.
                self.tree.make_hot_child(parent, i, at);
            }
            return (before, 0);
        }
        let s = slot as usize;
        let hot = &mut self.hot;
        if s >= hot.visits.len() {
            // Every block handed out so far (the counter stands at a block's end).
            let len = (self.tree.slots.0.load(Relaxed) as usize).max(s + 1);
            hot.grow(len);
        }
        let v = &mut hot.visits[s];
        if *v == 0 {
            hot.node[s] = i as u32;
            hot.dirty.push(slot);
        }
        *v += 1;
        (n.visits.load(Relaxed) + *v - 1, *v)
    }

    fn iterate(&mut self, root: &G) {
        self.path.clear();
        self.trail.clear();
        let tree = self.tree;
        let mut pos = root.clone();
        let mut idx = 0usize;
        let slot = tree.node(0).slot.load(Relaxed);
        self.path.push((0, slot, 0));
        // `before` (this visit excluded) matters below the root only.
        let (_, mut own) = self.visit(0, slot, 0, 0);
        let mut before = 1;
        let reward = loop {
            let node = tree.node(idx);
            let proof = node.proof();
            if proof != UNKNOWN {
                break self.teams.proof_rewards(proof);
            }
            let first = match node.first_child.load(Acquire) {
                LEAF => {
                    if let Some(o) = pos.outcome() {
                        if self.solver {
                            node.set_proof(self.teams.result(&o));
                        }
                        break self.teams.rewards(&o, self.cfg.reward);
                    }
                    if before == 0 && idx != 0 {
                        break self.playout(pos);
                    }
                    let team = pos.team(pos.to_move());
                    match tree.expand(idx, &pos, team, &mut self.local, self.chunk) {
                        Some(f) => f,
                        None => break self.playout(pos),
                    }
                }
                BUSY => break self.playout(pos),
                f => f as usize,
            };
            let child = self.select(node, first, &pos, own);
            let ch = tree.node(child);
            let slot = ch.slot.load(Relaxed);
            (before, own) = self.visit(child, slot, idx, child - first);
            let mv = G::Move::from_code(ch.code.load(Relaxed));
            let mover = pos.to_move().0;
            if !self.history.is_empty() {
                self.trail.push((mover, mv.code()));
            }
            pos = pos.play(mv);
            idx = child;
            self.path.push((child as u32, slot, mover));
        };
        self.depth = self.depth.max(self.path.len() as u32 - 1);
        self.backup(&reward);
    }

    /// The UCT choice among the children of expanded `node` (first child `first`; `own`:
    /// this thread's visits there not yet in the shared tree; a hot child's counts add this
    /// thread's): an unvisited child first, never a proven loss for the team to move.
    /// Without progressive history the children are scored [`UCT_LANES`] at a time
    /// ([`uct_choice`]; proven ones through [`child_value`]), with the same values as one by
    /// one.
    fn select(&self, node: &Node, first: usize, pos: &G, own: u32) -> usize {
        let s = pos.to_move().index();
        let ln_n = f64::from((node.visits.load(Relaxed) + own).max(1)).ln();
        let k = usize::from(node.children.load(Relaxed));
        let children = self.tree.block(first, k);
        // This thread's counts for the children, when one of them is hot and this thread
        // has counted there: the parent's block of slots, read in a row (a cold child's
        // slot in it stays zero). Otherwise (and always with one thread) the shared counts
        // alone: no per-child look-up.
        let base = node.kid_slots.load(Relaxed) as usize;
        let own_counts = if base == 0 {
            None
        } else {
            let hot = &self.hot;
            hot.visits
                .get(base..base + k)
                .zip(hot.reward.get(base..base + k))
        };
        first
            + match own_counts {
                None => self.choose(node, children, s, ln_n, |i| {
                    let ch = &children[i];
                    (ch.visits.load(Relaxed), ch.reward.load(Relaxed))
                }),
                Some((visits, reward)) => self.choose(node, children, s, ln_n, |i| {
                    let ch = &children[i];
                    (
                        ch.visits.load(Relaxed) + visits[i],
                        ch.reward.load(Relaxed) + reward[i],
                    )
                }),
            }
    }

    /// [`Self::select`] on `children` of `node` (seat `s` to move, `ln_n` the log of the
    /// parent's visits) with child `i`'s visits and seat `s`'s reward sum (fixed point)
    /// from `counts(i)`: the chosen child's index in `children`.
    #[inline(always)]
    fn choose(
        &self,
        node: &Node,
        children: &[Node],
        s: usize,
        ln_n: f64,
        counts: impl Fn(usize) -> (u32, u64),
    ) -> usize {
        let team = node.team.load(Relaxed);
        if !self.history.is_empty() {
            let mut best = 0;
            let mut best_value = f64::NEG_INFINITY;
            for (i, ch) in children.iter().enumerate() {
                let (visits, reward) = counts(i);
                if visits == 0 {
                    return i;
                }
                let history = self.history[s * G::MOVE_CODES + usize::from(ch.code.load(Relaxed))];
                let Some(value) = child_value(
                    self.cfg,
                    &self.teams,
                    team,
                    ln_n,
                    visits,
                    fixed_to_f64(reward),
                    ch.proof(),
                    Some(history),
                ) else {
                    continue;
                };
                if value > best_value {
                    best_value = value;
                    best = i;
                }
            }
            return best;
        }
        uct_choice(
            children.len(),
            self.cfg.c,
            ln_n,
            |i| {
                let (visits, reward) = counts(i);
                (visits, fixed_to_f64(reward), children[i].proof())
            },
            |visits, sum, proof| {
                child_value(self.cfg, &self.teams, team, ln_n, visits, sum, proof, None)
            },
        )
    }

    fn playout(&mut self, pos: G) -> [f64; MAX_SEATS] {
        let trail = (!self.history.is_empty()).then_some(&mut self.trail);
        playout(
            pos,
            self.policy,
            &mut self.rng,
            &self.teams,
            self.cfg.reward,
            trail,
        )
    }

    /// Adds the reward along the path (the visits were counted on the way down): to this
    /// thread's counts at the nodes that were hot when it visited them, else to the shared
    /// node, each node the reward of the seat that moved into it; then proves what the
    /// solver can. The root has no such seat (its reward is never read), so the root is
    /// left alone.
    fn backup(&mut self, reward: &[f64; MAX_SEATS]) {
        let fixed: [u64; MAX_SEATS] = std::array::from_fn(|s| (reward[s] * ONE).round() as u64);
        if let Some(&(_, _, mover)) = self.path.get(1) {
            self.root_reward += fixed[usize::from(mover)];
        }
        for &(i, slot, mover) in self.path.iter().skip(1) {
            let r = fixed[usize::from(mover)];
            if slot != 0 {
                self.hot.reward[slot as usize] += r;
            } else if r != 0 {
                // A loss adds nothing: skip the write (half the nodes in a decided game).
                self.tree.add_u64(&self.tree.node(i as usize).reward, r);
            }
        }
        if !self.history.is_empty() {
            for &(seat, code) in &self.trail {
                let h = &mut self.history[usize::from(seat) * G::MOVE_CODES + usize::from(code)];
                h.0 += reward[usize::from(seat)];
                h.1 += 1;
            }
        }
        if self.solver {
            let leaf = self.path.last().map_or(0, |p| p.0 as usize);
            if self.tree.node(leaf).proof() == UNKNOWN {
                return;
            }
            for k in (0..self.path.len().saturating_sub(1)).rev() {
                let i = self.path[k].0 as usize;
                if self.tree.node(i).proof() != UNKNOWN || !self.prove(i) {
                    break;
                }
            }
        }
    }

    /// Tries to prove expanded node `i` from its children (as [`super::mcts`] does; several
    /// threads proving the same node store the same value).
    fn prove(&self, i: usize) -> bool {
        let node = self.tree.node(i);
        let Some(first) = node.first() else {
            return false;
        };
        let team = node.team.load(Relaxed);
        let k = usize::from(node.children.load(Relaxed));
        let mut best = i8::MIN;
        let mut all = true;
        for ch in self.tree.block(first, k) {
            let proof = ch.proof();
            if proof == UNKNOWN {
                all = false;
                continue;
            }
            let v = self.teams.for_team(proof, team);
            if v > 0 {
                node.set_proof(proof);
                return true;
            }
            best = best.max(v);
        }
        if all {
            node.set_proof(self.teams.for_team(best, team));
            return true;
        }
        false
    }
}

impl Drop for SharedTree {
    /// Returns the arena to [`ARENAS`] (in place of the oldest one when the pool is full).
    fn drop(&mut self) {
        let mut pool = ARENAS.lock().unwrap_or_else(PoisonError::into_inner);
        if pool.len() >= POOLED_ARENAS {
            pool.remove(0);
        }
        pool.push(std::mem::take(&mut self.nodes));
    }
}

/// A fixed-point reward sum ([`ONE`]) as a reward (sums stay far below 2^63, so the
/// conversion through `i64` is exact and one instruction).
#[inline]
fn fixed_to_f64(sum: u64) -> f64 {
    sum as i64 as f64 / ONE
}

/// Runs the search's simulations on `tree` (fresh, made for `cfg.threads` threads) from
/// `pos`: expands the root, makes it and its children hot (several threads), runs the
/// threads until `budget` simulations or `limits`, and returns per thread (simulations,
/// deepest ply, nodes left unused in its chunk, summed reward of the root's seat to move
/// over its simulations past the root, fixed point). Every thread has flushed its hot
/// counts when this returns, so the shared statistics count every simulation.
fn grow<G: Game, P: PlayoutPolicy<G>>(
    tree: &SharedTree,
    pos: &G,
    cfg: &MctsConfig,
    policy: &P,
    limits: &Limits,
    budget: u64,
) -> Vec<(u64, u32, usize, u64)> {
    let threads = cfg.threads.max(1);
    let team = pos.team(pos.to_move());
    // One thread takes the rest of each span as its chunk, so its tree is laid out (and
    // fills up) exactly as with one shared counter.
    let chunk = if threads == 1 { SEGMENT } else { CHUNK };
    // The root is expanded before the threads start, so none of them finds it busy; the
    // rest of its chunk goes to thread 0.
    let mut root_chunk = Chunk::default();
    tree.expand(0, pos, team, &mut root_chunk, chunk);
    if !tree.alone {
        // Every simulation passes the root and one of its children: hot from the start.
        let first = tree.node(0).first().unwrap_or(1);
        let k = usize::from(tree.node(0).children.load(Relaxed));
        tree.make_root_hot();
        for at in 0..k {
            tree.make_hot_child(0, first + at, at);
        }
    }
    let run = |t: usize| {
        let seed = cfg.seed.wrapping_add(t as u64);
        let local = if t == 0 { root_chunk } else { Chunk::default() };
        let mut w = Worker::new(tree, pos, cfg, policy, seed, local, chunk);
        w.run(pos, limits, budget);
        (
            w.iterations,
            w.depth,
            w.local.end - w.local.next,
            w.root_reward,
        )
    };
    if threads == 1 {
        vec![run(0)]
    } else {
        // The calling thread is thread 0: one thread fewer to start per search.
        std::thread::scope(|s| {
            let run = &run;
            let handles: Vec<_> = (1..threads).map(|t| s.spawn(move || run(t))).collect();
            let mut ran = vec![run(0)];
            ran.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().expect("mcts thread panicked")),
            );
            ran
        })
    }
}

/// Searches `pos` (which has `moves` legal moves) on one shared tree with `cfg.threads`
/// threads, `budget` simulations in all (or until `limits` stop it).
pub(super) fn search<G: Game, P: PlayoutPolicy<G>>(
    pos: &G,
    cfg: &MctsConfig,
    policy: &P,
    limits: &Limits,
    budget: u64,
    moves: usize,
) -> MctsResult<G::Move> {
    let threads = cfg.threads.max(1);
    let tree = SharedTree::new(cfg.max_nodes.max(moves + 1), threads);
    let ran = grow(&tree, pos, cfg, policy, limits, budget);

    let team = pos.team(pos.to_move());
    let teams = Teams::of(pos);
    let r = tree.node(0);
    let first = r.first().unwrap_or(1);
    let k = usize::from(r.children.load(Relaxed));
    let root: Vec<RootChild<G::Move>> = tree
        .block(first, k)
        .iter()
        .map(|ch| {
            let visits = u64::from(ch.visits.load(Relaxed));
            let proof = ch.proof();
            RootChild {
                mv: G::Move::from_code(ch.code.load(Relaxed)),
                visits,
                mean: if visits > 0 {
                    ch.reward.load(Relaxed) as f64 / ONE / visits as f64
                } else {
                    0.0
                },
                proven: (proof != UNKNOWN).then(|| Proven::from_value(teams.for_team(proof, team))),
            }
        })
        .collect();
    let (best, value, proven) = conclude(&root, r.proof(), &teams, team);
    let mut pv = Vec::new();
    let mut i = first + best;
    loop {
        let n = tree.node(i);
        pv.push(G::Move::from_code(n.code.load(Relaxed)));
        let Some(f) = n.first() else { break };
        if pv.len() >= 64 {
            break;
        }
        let kids = tree.block(f, usize::from(n.children.load(Relaxed)));
        let Some((j, _)) = kids
            .iter()
            .enumerate()
            .filter(|(_, c)| c.visits.load(Relaxed) > 0)
            .max_by_key(|(_, c)| c.visits.load(Relaxed))
        else {
            break;
        };
        i = f + j;
    }
    MctsResult {
        best_move: Some(root[best].mv),
        value,
        proven,
        iterations: ran.iter().map(|r| r.0).sum(),
        root_visits: u64::from(r.visits.load(Relaxed)),
        depth: ran.iter().map(|r| r.1).max().unwrap_or(0).max(1),
        pv,
        // Reserved minus what the threads' chunks left unused.
        nodes_used: tree.len.0.load(Relaxed) - ran.iter().map(|r| r.2).sum::<usize>(),
        node_capacity: tree.cap,
        root,
    }
}

/// Test hook, not API (the architecture keeps `search` free of games, so the check runs
/// from `tests/it` on a real game): grows a shared tree from `pos` for `sims` simulations on
/// `threads` threads with nodes hot from `hot_visits` visits, then checks every reachable
/// node's statistics (panics on a broken invariant). Returns (simulations run, root visits,
/// nodes checked, hot nodes).
#[doc(hidden)]
#[must_use]
pub fn check_flushed_statistics<G: Game>(
    pos: &G,
    threads: usize,
    hot_visits: u32,
    sims: u64,
) -> (u64, u64, usize, usize) {
    let cfg = MctsConfig {
        threads,
        seed: 3,
        max_nodes: 1 << 16,
        ..MctsConfig::default()
    };
    let mut tree = SharedTree::new(cfg.max_nodes, threads);
    tree.hot_visits = hot_visits;
    let ran = grow(
        &tree,
        pos,
        &cfg,
        &super::mcts_common::UniformPlayout,
        &Limits::default(),
        sims,
    );
    let root = u64::from(tree.node(0).visits.load(Relaxed));
    let root_reward = ran.iter().map(|r| r.3).sum();
    let (checked, hot) = check_two_seat_sums(&tree, root_reward);
    (ran.iter().map(|r| r.0).sum::<u64>(), root, checked, hot)
}

/// Checks every node reachable from the root of a finished search of a two-seat game
/// with place rewards: each simulation through a node added its visit and a reward of 0,
/// 1/2 or 1, so a node's reward sum is a multiple of 1/2 (fixed point) and at most its
/// visits; a node's children have no more visits than it, and the root's children (unless
/// the root got proven) exactly its visits and, summed, the reward the threads counted
/// for the root's seat to move (`root_reward`); a hot child's slot is its place in its
/// parent's block of slots, and no slot serves two nodes. Returns (nodes checked, hot
/// nodes among them).
fn check_two_seat_sums(tree: &SharedTree, root_reward: u64) -> (usize, usize) {
    let (mut checked, mut hot) = (0, 0);
    let mut stack = vec![0usize];
    let mut owner = vec![usize::MAX; tree.slots.0.load(Relaxed) as usize];
    while let Some(i) = stack.pop() {
        let n = tree.node(i);
        let visits = u64::from(n.visits.load(Relaxed));
        checked += 1;
        let slot = n.slot.load(Relaxed) as usize;
        if slot != 0 {
            hot += 1;
            assert!(slot < owner.len(), "node {i}: slot {slot} never handed out");
            assert_eq!(owner[slot], usize::MAX, "node {i}: slot {slot} taken twice");
            owner[slot] = i;
        }
        if i != 0 {
            let sum = n.reward.load(Relaxed);
            assert!(
                sum <= visits << 24,
                "node {i}: reward {sum} > {visits} visits"
            );
            assert_eq!(
                sum % (1 << 23),
                0,
                "node {i}: reward {sum} not a multiple of 1/2"
            );
        }
        if let Some(f) = n.first() {
            let k = usize::from(n.children.load(Relaxed));
            let below: u64 = tree
                .block(f, k)
                .iter()
                .map(|c| u64::from(c.visits.load(Relaxed)))
                .sum();
            assert!(
                below <= visits,
                "node {i}: children {below} > {visits} visits"
            );
            if i == 0 && n.proof() == UNKNOWN {
                assert_eq!(below, visits, "the root's children's visits");
                let sum: u64 = tree
                    .block(f, k)
                    .iter()
                    .map(|c| c.reward.load(Relaxed))
                    .sum();
                assert_eq!(sum, root_reward, "the root's children's rewards");
            }
            let base = n.kid_slots.load(Relaxed) as usize;
            for (at, c) in tree.block(f, k).iter().enumerate() {
                let slot = c.slot.load(Relaxed) as usize;
                if slot != 0 {
                    assert!(base != 0, "node {i}: a hot child and no block of slots");
                    assert_eq!(slot, base + at, "node {i}: child {at}'s slot");
                }
            }
            stack.extend(f..f + k);
        }
    }
    (checked, hot)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block sizes 1..=60 from a fixed xorshift sequence.
    fn sizes(n: usize) -> impl Iterator<Item = usize> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..n).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 60) as usize + 1
        })
    }

    #[test]
    fn a_zeroed_arena_holds_fresh_nodes_and_proofs_round_trip() {
        let nodes = zeroed_arena(SEGMENT + 3);
        assert_eq!(nodes.len(), SEGMENT + 3);
        for i in [0, 1, SEGMENT, SEGMENT + 2] {
            let n = &nodes[i];
            assert_eq!(n.proof(), UNKNOWN, "node {i}");
            assert_eq!(n.first(), None, "node {i}");
            assert_eq!(n.visits.load(Relaxed), 0, "node {i}");
            assert_eq!(n.slot.load(Relaxed), 0, "node {i}");
            assert_eq!(n.kid_slots.load(Relaxed), 0, "node {i}");
            assert_eq!(n.reward.load(Relaxed), 0, "node {i}");
        }
        let n = &nodes[7];
        for v in [1, 0, -1] {
            n.set_proof(v);
            assert_eq!(n.proof(), v);
        }
        // An old search's node, reset, is as fresh as a zeroed one.
        n.first_child.store(12, Relaxed);
        n.visits.store(99, Relaxed);
        n.reward.store(5, Relaxed);
        n.team.store(1, Relaxed);
        n.children.store(3, Relaxed);
        n.slot.store(8, Relaxed);
        n.kid_slots.store(9, Relaxed);
        n.reset(42);
        assert_eq!(n.code.load(Relaxed), 42);
        assert_eq!((n.first(), n.proof()), (None, UNKNOWN));
        assert_eq!(n.visits.load(Relaxed), 0);
        assert_eq!(n.children.load(Relaxed), 0);
        assert_eq!(n.team.load(Relaxed), 0);
        assert_eq!(n.slot.load(Relaxed), 0);
        assert_eq!(n.kid_slots.load(Relaxed), 0);
        assert_eq!(n.reward.load(Relaxed), 0);
        assert_eq!(
            std::mem::size_of::<Node>(),
            32,
            "one node, half a cache line"
        );
        assert_eq!(
            std::mem::align_of::<Node>(),
            32,
            "no node straddles two lines"
        );
    }

    #[test]
    fn one_thread_chunks_lay_blocks_out_as_one_shared_counter() {
        // The layout before per-thread chunks: blocks one after the other, a block that
        // would straddle a segment starts the next one, a block past the capacity fails.
        let cap = 3 * SEGMENT - 100;
        let tree = SharedTree::new(cap, 2);
        let mut local = Chunk { next: 1, end: 1 };
        let mut len = 1usize;
        let mut failures = 0;
        for k in sizes(3 * SEGMENT / 20) {
            let segment_end = (len / SEGMENT + 1) * SEGMENT;
            let start = if len + k > segment_end {
                segment_end
            } else {
                len
            };
            let expected = (start + k <= cap).then_some(start);
            if expected.is_some() {
                len = start + k;
            } else {
                failures += 1;
            }
            assert_eq!(tree.alloc(&mut local, k, SEGMENT), expected, "block of {k}");
        }
        assert!(failures > 0, "the sequence must run into the capacity");
        assert_eq!(local.next, len, "nodes used");
    }

    #[test]
    fn two_threads_chunks_never_overlap_straddle_or_overflow() {
        let cap = 2 * SEGMENT + 500;
        let tree = SharedTree::new(cap, 2);
        let mut owner = vec![u8::MAX; cap];
        owner[0] = 2; // the root
        let mut locals = [Chunk::default(); 2];
        let mut taken = 0;
        for (n, k) in sizes(2 * SEGMENT / 10).enumerate() {
            let t = n % 2;
            let Some(first) = tree.alloc(&mut locals[t], k, CHUNK) else {
                continue;
            };
            assert!(first + k <= cap, "past the capacity");
            assert_eq!(
                first / SEGMENT,
                (first + k - 1) / SEGMENT,
                "straddles a segment"
            );
            for o in &mut owner[first..first + k] {
                assert_eq!(*o, u8::MAX, "node given twice");
                *o = t as u8;
            }
            taken += k;
        }
        let unused: usize = locals.iter().map(|c| c.end - c.next).sum();
        assert!(
            taken > cap * 4 / 5,
            "the arena was filled ({taken} of {cap})"
        );
        assert!(tree.len.0.load(Relaxed) - unused <= cap);
    }
}
