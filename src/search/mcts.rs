//! Game-agnostic Monte-Carlo tree search (UCT) for any number of seats.
//!
//! - Every node keeps a visit count and a summed reward **per seat** (max-n backups); the
//!   selection at a node maximises the reward of the seat to move there, so two-, three- and
//!   four-seat games are searched alike. Seats are scored through their team
//!   ([`Game::team`]): a team's score is the best score among its seats, and every seat of a
//!   team receives the team's reward.
//! - Rewards lie in `[0, 1]`: by place among the teams ([`RewardMode::Place`]: 1 / 0.5 / 0
//!   for two teams, `(teams beaten + teams tied / 2) / (teams - 1)` in general), or by score
//!   margin ([`RewardMode::Margin`]).
//! - Playouts are uniformly random unless a [`PlayoutPolicy`] says otherwise; uniform ones
//!   use the game's own sampler ([`Game::random_playout`]: Quixo draws pushes by
//!   rejection sampling on bare masks), others the fixed-capacity move lists; neither
//!   allocates.
//! - MCTS-Solver for games of exactly two teams: proven results (win, draw, loss) back up
//!   through the tree, comparing teams rather than assuming alternation (passes), so solved
//!   subtrees are not searched again and a proven loss is never chosen.
//! - Progressive history (Nijssen & Winands) as an option, off by default.
//! - The node arena is a `Vec` allocated once from a node budget; when it is full the tree
//!   stops growing and iterations keep running playouts from its leaves.
//! - Threads ([`Parallelism`]): root parallelisation (the default): `threads` independent
//!   trees (seeds `seed`, `seed + 1`, ...) share the iteration budget and the node budget; the
//!   statistics of the root children are merged. With one thread a search is deterministic
//!   for its seed. Tree parallelisation ([`Parallelism::Tree`], in
//!   `mcts_tree_parallel`): one shared tree, `threads` threads, virtual loss.

use rand::SeedableRng;
use rand::rngs::StdRng;

pub use super::mcts_common::{
    MctsConfig, MctsResult, Parallelism, PlayoutPolicy, Proven, RewardMode, RootChild,
    UniformPlayout,
};
use super::mcts_common::{
    ROOT_NODE_BYTES, TREE_NODE_BYTES, Teams, UNKNOWN, child_value, conclude, playout, uct_choice,
};
use super::{Clock, Limits};
use crate::game::{Game, MAX_SEATS, MoveCode};

const NONE: u32 = u32::MAX;

/// A tree node: the move that leads to it and the statistics of its position.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// Index of the first child (children are contiguous); `NONE` until expanded.
    first_child: u32,
    children: u16,
    /// Team to move in this node's position (set when the node is first reached).
    team: u8,
    /// Proven result from the first team's view: 1, 0, -1, or `UNKNOWN`.
    proof: i8,
    visits: u32,
    reward: [f64; MAX_SEATS],
}

impl<M> Node<M> {
    fn new(mv: M) -> Self {
        Self {
            mv,
            first_child: NONE,
            children: 0,
            team: 0,
            proof: UNKNOWN,
            visits: 0,
            reward: [0.0; MAX_SEATS],
        }
    }
    fn expanded(&self) -> bool {
        self.first_child != NONE
    }
}

/// One search tree (one thread).
struct Tree<'a, G: Game, P: PlayoutPolicy<G>> {
    nodes: Vec<Node<G::Move>>,
    cap: usize,
    cfg: &'a MctsConfig,
    policy: &'a P,
    rng: StdRng,
    teams: Teams,
    solver: bool,
    path: Vec<u32>,
    /// Moves of the current iteration as (seat, code), for progressive history.
    trail: Vec<(u8, u16)>,
    /// Per (seat, move code): summed reward and count.
    history: Vec<(f64, u32)>,
    depth: u32,
    iterations: u64,
}

impl<'a, G: Game, P: PlayoutPolicy<G>> Tree<'a, G, P> {
    /// A tree for `root`: a fresh one, or `init` (a reused subtree of at most `cap` nodes
    /// in an arena of capacity `cap`).
    fn new(
        root: &G,
        cfg: &'a MctsConfig,
        policy: &'a P,
        cap: usize,
        seed: u64,
        init: Option<Vec<Node<G::Move>>>,
    ) -> Self {
        let teams = Teams::of(root);
        let cap = cap.max(1);
        let nodes = init.unwrap_or_else(|| {
            let mut nodes = Vec::with_capacity(cap);
            nodes.push(Node::new(G::Move::default()));
            nodes
        });
        let history = if cfg.history > 0.0 {
            vec![(0.0, 0); teams.seats * G::MOVE_CODES]
        } else {
            Vec::new()
        };
        Self {
            nodes,
            cap,
            cfg,
            policy,
            rng: StdRng::seed_from_u64(seed),
            teams,
            solver: cfg.solver && teams.count == 2,
            path: Vec::with_capacity(64),
            trail: Vec::with_capacity(if cfg.history > 0.0 { 256 } else { 0 }),
            history,
            depth: 0,
            iterations: 0,
        }
    }

    fn root_proof(&self) -> i8 {
        self.nodes[0].proof
    }

    /// Runs iterations until the clock stops or `budget` is reached or the root is proven.
    fn run(&mut self, root: &G, limits: &Limits, budget: u64) {
        let mut clock = Clock::start(&Limits {
            depth: None,
            nodes: None,
            time_ms: limits.time_ms,
            stop: limits.stop.clone(),
            ..Limits::default()
        });
        // Always at least one iteration, so the root is expanded.
        loop {
            self.iterate(root);
            self.iterations += 1;
            if self.iterations >= budget
                || self.root_proof() != UNKNOWN
                || clock.should_stop(self.iterations * 64)
            {
                break;
            }
        }
    }

    fn iterate(&mut self, root: &G) {
        self.path.clear();
        self.trail.clear();
        let mut pos = root.clone();
        let mut idx = 0usize;
        self.path.push(0);
        let reward = loop {
            let node = self.nodes[idx];
            if node.proof != UNKNOWN {
                break self.teams.proof_rewards(node.proof);
            }
            if !node.expanded() {
                if let Some(o) = pos.outcome() {
                    if self.solver {
                        self.nodes[idx].proof = self.teams.result(&o);
                    }
                    break self.teams.rewards(&o, self.cfg.reward);
                }
                self.nodes[idx].team = pos.team(pos.to_move());
                if (node.visits == 0 && idx != 0) || !self.expand(idx, &pos) {
                    break self.playout(pos);
                }
            }
            let child = self.select(idx, &pos);
            let mv = self.nodes[child].mv;
            if !self.history.is_empty() {
                self.trail.push((pos.to_move().0, mv.code()));
            }
            pos = pos.play(mv);
            idx = child;
            self.path.push(child as u32);
        };
        self.depth = self.depth.max(self.path.len() as u32 - 1);
        self.backup(&reward);
    }

    /// Adds the children of `idx`; false when the arena cannot hold them all.
    fn expand(&mut self, idx: usize, pos: &G) -> bool {
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() || self.nodes.len() + moves.len() > self.cap {
            return false;
        }
        let first = self.nodes.len();
        for &mv in moves.iter() {
            self.nodes.push(Node::new(mv));
        }
        self.nodes[idx].first_child = first as u32;
        self.nodes[idx].children = moves.len() as u16;
        true
    }

    /// The UCT choice among the children of expanded node `idx`: the first unvisited
    /// child, else the best value (first of equals), never a proven loss for the team to
    /// move. Without progressive history the children are scored [`UCT_LANES`] at a time
    /// ([`uct_block`]; proven children through [`child_value`]), with the same values.
    fn select(&mut self, idx: usize, pos: &G) -> usize {
        let node = self.nodes[idx];
        let seat = pos.to_move();
        let s = seat.index();
        let team = node.team;
        let ln_n = f64::from(node.visits.max(1)).ln();
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + usize::from(node.children)];
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        if !self.history.is_empty() {
            for (i, ch) in children.iter().enumerate() {
                if ch.visits == 0 {
                    return first + i;
                }
                let history = self.history[s * G::MOVE_CODES + usize::from(ch.mv.code())];
                let Some(value) = child_value(
                    self.cfg,
                    &self.teams,
                    team,
                    ln_n,
                    ch.visits,
                    ch.reward[s],
                    ch.proof,
                    Some(history),
                ) else {
                    continue;
                };
                if value > best_value {
                    best_value = value;
                    best = first + i;
                }
            }
            return best;
        }
        first
            + uct_choice(
                children.len(),
                self.cfg.c,
                ln_n,
                |i| {
                    let ch = &children[i];
                    (ch.visits, ch.reward[s], ch.proof)
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

    fn backup(&mut self, reward: &[f64; MAX_SEATS]) {
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            for (sum, r) in n.reward.iter_mut().zip(reward) {
                *sum += r;
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
            // Walk up from the leaf's parent while proofs keep appearing.
            let leaf = *self.path.last().unwrap_or(&0) as usize;
            if self.nodes[leaf].proof == UNKNOWN {
                return;
            }
            for k in (0..self.path.len().saturating_sub(1)).rev() {
                let i = self.path[k] as usize;
                if self.nodes[i].proof != UNKNOWN || !self.prove(i) {
                    break;
                }
            }
        }
    }

    /// Tries to prove expanded node `i` from its children: a child that is a proven win for
    /// the team to move at `i` proves `i`; so do children that are all proven (the best of
    /// them for that team).
    fn prove(&mut self, i: usize) -> bool {
        let node = self.nodes[i];
        if !node.expanded() {
            return false;
        }
        let first = node.first_child as usize;
        let mut best = i8::MIN;
        let mut all = true;
        for ch in &self.nodes[first..first + usize::from(node.children)] {
            if ch.proof == UNKNOWN {
                all = false;
                continue;
            }
            let v = self.teams.for_team(ch.proof, node.team);
            if v > 0 {
                self.nodes[i].proof = ch.proof;
                return true;
            }
            best = best.max(v);
        }
        if all {
            self.nodes[i].proof = self.teams.for_team(best, node.team);
            return true;
        }
        false
    }

    /// The most-visited path from child `first` down.
    fn pv_from(&self, mut i: usize, out: &mut Vec<G::Move>) {
        loop {
            out.push(self.nodes[i].mv);
            let n = self.nodes[i];
            if !n.expanded() || out.len() >= 64 {
                return;
            }
            let first = n.first_child as usize;
            let Some(next) = (first..first + usize::from(n.children))
                .filter(|&c| self.nodes[c].visits > 0)
                .max_by_key(|&c| self.nodes[c].visits)
            else {
                return;
            };
            i = next;
        }
    }
}

/// A search tree kept after a search, so the next search can start from the subtree of the
/// position reached (tree reuse between moves).
pub struct Retained<G: Game> {
    root: G,
    nodes: Vec<Node<G::Move>>,
}

impl<G: Game> Retained<G> {
    /// Nodes kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node is kept (never: a tree has its root).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Visits of the kept root.
    #[must_use]
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// The node of `pos` within [`MAX_SEATS`] plies of the kept root (same key and same
    /// position text), if the tree reached it.
    fn find(&self, pos: &G) -> Option<usize> {
        let (key, text) = (pos.key(), pos.to_string());
        let mut stack = vec![(0usize, self.root.clone(), 0usize)];
        while let Some((i, p, d)) = stack.pop() {
            if p.key() == key && p.to_string() == text {
                return Some(i);
            }
            let n = self.nodes[i];
            if d >= MAX_SEATS || !n.expanded() {
                continue;
            }
            let first = n.first_child as usize;
            for c in first..first + usize::from(n.children) {
                if self.nodes[c].visits > 0 {
                    stack.push((c, p.play(self.nodes[c].mv), d + 1));
                }
            }
        }
        None
    }

    /// The subtree under node `root`, copied breadth-first into a new arena of capacity
    /// `cap` (children that no longer fit are dropped; their parent becomes a leaf again).
    fn subtree(&self, root: usize, cap: usize) -> Vec<Node<G::Move>> {
        let mut nodes = Vec::with_capacity(cap);
        nodes.push(self.nodes[root]);
        let mut next = 0;
        while next < nodes.len() {
            // `first_child` still indexes the old arena until the node is processed here.
            let n = nodes[next];
            if n.expanded() {
                let (first, k) = (n.first_child as usize, usize::from(n.children));
                if nodes.len() + k <= cap {
                    let new_first = nodes.len();
                    nodes.extend_from_slice(&self.nodes[first..first + k]);
                    nodes[next].first_child = new_first as u32;
                } else {
                    nodes[next].first_child = NONE;
                    nodes[next].children = 0;
                }
            }
            next += 1;
        }
        nodes
    }
}

/// Searches `pos` with MCTS under `cfg` and `limits` (iterations: the smaller of
/// `cfg.iterations` and `limits.nodes`; time; stop flag; `limits.depth` is ignored). With no
/// iteration, node or time limit and no stop flag, 10 000 iterations are run.
#[must_use]
pub fn mcts<G: Game, P: PlayoutPolicy<G>>(
    pos: &G,
    cfg: &MctsConfig,
    policy: &P,
    limits: &Limits,
) -> MctsResult<G::Move> {
    search(pos, cfg, policy, limits, None)
}

/// [`mcts`] with tree reuse: starts from the subtree of `pos` in `keep` when the kept tree
/// reached it (within [`MAX_SEATS`] plies of its root), and keeps the new tree in `keep`.
/// With several threads nothing is reused or kept (`keep` is cleared). Iteration counts
/// and limits cover the new iterations only; root statistics include the reused visits.
#[must_use]
pub fn mcts_reusing<G: Game, P: PlayoutPolicy<G>>(
    pos: &G,
    cfg: &MctsConfig,
    policy: &P,
    limits: &Limits,
    keep: &mut Option<Retained<G>>,
) -> MctsResult<G::Move> {
    search(pos, cfg, policy, limits, Some(keep))
}

fn search<G: Game, P: PlayoutPolicy<G>>(
    pos: &G,
    cfg: &MctsConfig,
    policy: &P,
    limits: &Limits,
    keep: Option<&mut Option<Retained<G>>>,
) -> MctsResult<G::Move> {
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return MctsResult {
            best_move: None,
            value: 0.5,
            proven: None,
            iterations: 0,
            root_visits: 0,
            depth: 0,
            pv: Vec::new(),
            nodes_used: 0,
            node_capacity: 0,
            root: Vec::new(),
        };
    }
    let budget = match (cfg.iterations, limits.nodes) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) if limits.time_ms.is_none() && limits.stop.is_none() => 10_000,
        (None, None) => u64::MAX,
    }
    .max(1);
    if cfg.parallel == Parallelism::Tree && moves.len() <= super::mcts_tree_parallel::MAX_ROOT_MOVES
    {
        if let Some(k) = keep {
            *k = None;
        }
        return super::mcts_tree_parallel::search(pos, cfg, policy, limits, budget, moves.len());
    }
    let threads = cfg.threads.max(1);
    // Thread `t` runs its share of the budget (the shares add up to it exactly).
    let share = |t: usize| {
        let (q, r) = (budget / threads as u64, budget % threads as u64);
        (q + u64::from((t as u64) < r)).max(1)
    };
    // `max_nodes` counts nodes of the scheme asked for: a tree-parallel budget (32-byte
    // nodes) falling back to root-parallel trees here gets the same memory.
    let max_nodes = match cfg.parallel {
        Parallelism::Root => cfg.max_nodes,
        Parallelism::Tree => cfg.max_nodes / (ROOT_NODE_BYTES / TREE_NODE_BYTES),
    };
    const { assert!(std::mem::size_of::<Node<G::Move>>() <= ROOT_NODE_BYTES) };
    let cap = (max_nodes / threads).max(moves.len() + 1);

    let mut keep = keep;
    let init = match keep.as_deref_mut() {
        Some(k) if threads == 1 => k
            .take()
            .and_then(|r| r.find(pos).map(|i| r.subtree(i, cap))),
        Some(k) => {
            *k = None;
            None
        }
        None => None,
    };
    let run_tree = |t: usize, init: Option<Vec<Node<G::Move>>>| {
        let mut tree = Tree::new(pos, cfg, policy, cap, cfg.seed.wrapping_add(t as u64), init);
        tree.run(pos, limits, share(t));
        tree
    };
    let mut trees: Vec<Tree<'_, G, P>> = if threads == 1 {
        vec![run_tree(0, init)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| s.spawn(move || run_tree(t, None)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("mcts thread panicked"))
                .collect()
        })
    };

    let seat = pos.to_move().index();
    let teams = trees[0].teams;
    let team = pos.team(pos.to_move());
    let mut root: Vec<RootChild<G::Move>> = Vec::with_capacity(moves.len());
    let mut sums = vec![0.0; moves.len()];
    let mut root_proof = UNKNOWN;
    for tree in &trees {
        let r = tree.nodes[0];
        if r.proof != UNKNOWN {
            root_proof = r.proof;
        }
        if !r.expanded() {
            continue;
        }
        let first = r.first_child as usize;
        for (k, ch) in tree.nodes[first..first + usize::from(r.children)]
            .iter()
            .enumerate()
        {
            if root.len() <= k {
                root.push(RootChild {
                    mv: ch.mv,
                    visits: 0,
                    mean: 0.0,
                    proven: None,
                });
            }
            root[k].visits += u64::from(ch.visits);
            sums[k] += ch.reward[seat];
            if ch.proof != UNKNOWN {
                root[k].proven = Some(Proven::from_value(teams.for_team(ch.proof, team)));
            }
        }
    }
    for (c, s) in root.iter_mut().zip(&sums) {
        c.mean = if c.visits > 0 {
            s / c.visits as f64
        } else {
            0.0
        };
    }

    let (best, value, proven_root) = conclude(&root, root_proof, &teams, team);
    let mut pv = Vec::new();
    let t0 = &trees[0];
    if t0.nodes[0].expanded() {
        t0.pv_from(t0.nodes[0].first_child as usize + best, &mut pv);
    }
    let result = MctsResult {
        best_move: Some(root[best].mv),
        value,
        proven: proven_root,
        iterations: trees.iter().map(|t| t.iterations).sum(),
        root_visits: trees.iter().map(|t| u64::from(t.nodes[0].visits)).sum(),
        depth: trees.iter().map(|t| t.depth).max().unwrap_or(0).max(1),
        pv,
        nodes_used: trees.iter().map(|t| t.nodes.len()).sum(),
        node_capacity: trees.iter().map(|t| t.cap).sum(),
        root,
    };
    if let Some(k) = keep
        && threads == 1
    {
        *k = Some(Retained {
            root: pos.clone(),
            nodes: std::mem::take(&mut trees[0].nodes),
        });
    }
    result
}
