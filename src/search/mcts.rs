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
//!   [`super::mcts_tree_parallel`]): one shared tree, `threads` threads, virtual loss.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Clock, Limits};
use crate::game::{Game, MAX_SEATS, MoveCode, Outcome, Seat};

/// Chooses moves in playouts. The default method picks uniformly at random.
pub trait PlayoutPolicy<G: Game>: Send + Sync {
    /// The index in `moves` (never empty) of the move to play in `pos`.
    fn pick(&self, pos: &G, moves: &[G::Move], rng: &mut StdRng) -> usize {
        let _ = pos;
        rng.random_range(0..moves.len())
    }

    /// Whether [`PlayoutPolicy::pick`] is uniform over the moves, so playouts may use the
    /// game's own sampler ([`Game::random_playout`]) instead of move lists. Default: false.
    fn is_uniform(&self) -> bool {
        false
    }
}

/// Uniformly random playouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPlayout;

impl<G: Game> PlayoutPolicy<G> for UniformPlayout {
    fn is_uniform(&self) -> bool {
        true
    }
}

/// How a finished game is turned into a reward in `[0, 1]` per seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RewardMode {
    /// By place among the teams: `(teams beaten + teams tied / 2) / (teams - 1)`
    /// (1 / 0.5 / 0 for two teams).
    Place,
    /// By score margin: `(margin + scale) / (2 scale)` clamped to `[0, 1]`, where the margin
    /// is the team's score minus the best other team's score.
    Margin {
        /// The margin that counts as a full win (e.g. 64 discs in Othello).
        scale: i32,
    },
}

/// How several MCTS threads share the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallelism {
    /// Root parallelisation: one independent tree per thread, root statistics merged at the
    /// end (with one thread: tree reuse between moves, deterministic for its seed).
    #[default]
    Root,
    /// Tree parallelisation: one shared tree searched by all threads (lock-free atomic
    /// statistics, a per-node flag for expansion) with a virtual loss on the path of every
    /// running simulation. No tree reuse between moves; deterministic only with one thread.
    Tree,
}

impl Parallelism {
    /// The names accepted by [`Parallelism::parse`].
    pub const NAMES: &'static [&'static str] = &["root", "tree"];

    /// `root` or `tree`.
    ///
    /// # Errors
    /// Any other text, as one line listing the valid names.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "root" => Ok(Parallelism::Root),
            "tree" => Ok(Parallelism::Tree),
            _ => Err(format!(
                "unknown MCTS parallelism '{}' (valid: root, tree)",
                crate::game::shown(text)
            )),
        }
    }

    /// The name (`root` or `tree`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Parallelism::Root => "root",
            Parallelism::Tree => "tree",
        }
    }
}

/// MCTS settings.
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// UCT exploration constant (rewards lie in `[0, 1]`).
    pub c: f64,
    /// Iteration budget (all threads together); `None`: only the [`Limits`] stop the search.
    pub iterations: Option<u64>,
    /// Threads (at least 1): independent trees or threads on one tree, see `parallel`.
    pub threads: usize,
    /// How the threads share the work.
    pub parallel: Parallelism,
    /// Random seed; thread `i` uses `seed + i`.
    pub seed: u64,
    /// Node budget of all trees together (see [`MctsConfig::nodes_for_mib`]).
    pub max_nodes: usize,
    /// Reward of a finished game.
    pub reward: RewardMode,
    /// MCTS-Solver (used only in games with exactly two teams).
    pub solver: bool,
    /// Progressive-history weight `W` (0 = off): a child's UCT value gains
    /// `W * history / (visits * (1 - mean) + 1)`, where `history` is the mean reward of its
    /// move for its mover over all iterations so far.
    pub history: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        Self {
            c: 1.0,
            iterations: None,
            threads: 1,
            parallel: Parallelism::Root,
            seed: 0,
            max_nodes: Self::nodes_for_mib(16),
            reward: RewardMode::Place,
            solver: true,
            history: 0.0,
        }
    }
}

/// The proven result of a position for a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The team wins with best play.
    Win,
    /// Best play draws.
    Draw,
    /// The team loses with best play.
    Loss,
}

impl Proven {
    pub(super) fn from_value(v: i8) -> Self {
        match v.signum() {
            1 => Proven::Win,
            0 => Proven::Draw,
            _ => Proven::Loss,
        }
    }
}

/// Statistics of one root move (merged over all threads).
#[derive(Clone, Debug)]
pub struct RootChild<M> {
    /// The move.
    pub mv: M,
    /// Visits.
    pub visits: u64,
    /// Mean reward of the root's seat to move after this move.
    pub mean: f64,
    /// The proven result for the root's team to move, if solved.
    pub proven: Option<Proven>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    /// The chosen move (a proven win, else the most visited move that is not a proven loss);
    /// `None` when the game is over.
    pub best_move: Option<M>,
    /// Mean reward (in `[0, 1]`) of the best move for the seat to move (1 / 0.5 / 0 when
    /// proven).
    pub value: f64,
    /// The root's proven result for the team to move, if solved.
    pub proven: Option<Proven>,
    /// Iterations run (all threads).
    pub iterations: u64,
    /// Visits of the root (all trees; with tree reuse, the reused visits too). Every
    /// iteration visits the root once, so this equals `iterations` on a fresh tree.
    pub root_visits: u64,
    /// Deepest tree node reached, plies from the root.
    pub depth: u32,
    /// Most-visited path, best move first.
    pub pv: Vec<M>,
    /// Nodes allocated (all trees).
    pub nodes_used: usize,
    /// Arena capacity (all trees); `nodes_used <= node_capacity` always.
    pub node_capacity: usize,
    /// Root moves with their merged statistics, in move-generation order.
    pub root: Vec<RootChild<M>>,
}

pub(super) const UNKNOWN: i8 = i8::MIN;
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

impl MctsConfig {
    /// How many nodes fit in `mib` MiB (for a node with a small move type).
    #[must_use]
    pub fn nodes_for_mib(mib: usize) -> usize {
        (mib.max(1) << 20) / 64
    }
}

/// The seating: per-seat team ids and whether the solver applies (exactly two teams).
#[derive(Clone, Copy, Debug)]
pub(super) struct Teams {
    pub(super) seats: usize,
    team: [u8; MAX_SEATS],
    /// Distinct team ids, `count` of them.
    ids: [u8; MAX_SEATS],
    pub(super) count: usize,
}

impl Teams {
    pub(super) fn of<G: Game>(pos: &G) -> Self {
        let seats = pos.seats();
        let mut t = Self {
            seats,
            team: [0; MAX_SEATS],
            ids: [0; MAX_SEATS],
            count: 0,
        };
        for s in 0..seats {
            let id = pos.team(Seat(s as u8));
            t.team[s] = id;
            if !t.ids[..t.count].contains(&id) {
                t.ids[t.count] = id;
                t.count += 1;
            }
        }
        t
    }

    /// Reward per seat of a finished game.
    pub(super) fn rewards(&self, o: &Outcome, mode: RewardMode) -> [f64; MAX_SEATS] {
        let mut team_score = [i32::MIN; MAX_SEATS];
        for s in 0..self.seats {
            let k = self.index(self.team[s]);
            team_score[k] = team_score[k].max(o.score(Seat(s as u8)));
        }
        let mut team_reward = [0.5; MAX_SEATS];
        for k in 0..self.count {
            let mine = team_score[k];
            let others = (0..self.count).filter(|&j| j != k).map(|j| team_score[j]);
            team_reward[k] = match mode {
                RewardMode::Place => {
                    if self.count < 2 {
                        0.5
                    } else {
                        let (mut beaten, mut tied) = (0.0, 0.0);
                        for v in others {
                            if v < mine {
                                beaten += 1.0;
                            } else if v == mine {
                                tied += 1.0;
                            }
                        }
                        (beaten + 0.5 * tied) / (self.count - 1) as f64
                    }
                }
                RewardMode::Margin { scale } => {
                    let best = others.max().unwrap_or(mine);
                    let m = f64::from(scale.max(1));
                    ((f64::from(mine - best) + m) / (2.0 * m)).clamp(0.0, 1.0)
                }
            };
        }
        let mut r = [0.0; MAX_SEATS];
        for (s, slot) in r.iter_mut().enumerate().take(self.seats) {
            *slot = team_reward[self.index(self.team[s])];
        }
        r
    }

    fn index(&self, id: u8) -> usize {
        self.ids[..self.count]
            .iter()
            .position(|&t| t == id)
            .unwrap_or(0)
    }

    /// A finished game's result from the first team's view: 1, 0 or -1.
    pub(super) fn result(&self, o: &Outcome) -> i8 {
        let mut best = [i32::MIN; 2];
        for s in 0..self.seats {
            let k = usize::from(self.team[s] != self.ids[0]);
            best[k] = best[k].max(o.score(Seat(s as u8)));
        }
        match best[0].cmp(&best[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => -1,
        }
    }

    /// A proven value (first team's view) as a value for team `id`.
    pub(super) fn for_team(&self, v: i8, id: u8) -> i8 {
        if id == self.ids[0] { v } else { -v }
    }

    /// Rewards per seat of a proven value (first team's view).
    pub(super) fn proof_rewards(&self, v: i8) -> [f64; MAX_SEATS] {
        let mut r = [0.0; MAX_SEATS];
        for (s, slot) in r.iter_mut().enumerate().take(self.seats) {
            *slot = f64::from(self.for_team(v, self.team[s]) + 1) / 2.0;
        }
        r
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

/// Plies after which a playout is scored as a draw for everyone (a safety net for games
/// that might not end).
pub(super) const MAX_PLAYOUT: usize = 10_000;

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
            clock: None,
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

    fn select(&mut self, idx: usize, pos: &G) -> usize {
        let node = self.nodes[idx];
        let seat = pos.to_move();
        let s = seat.index();
        let team = node.team;
        let ln_n = f64::from(node.visits.max(1)).ln();
        let first = node.first_child as usize;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in first..first + usize::from(node.children) {
            let ch = &self.nodes[i];
            if ch.visits == 0 {
                return i;
            }
            let n = f64::from(ch.visits);
            let mut mean = ch.reward[s] / n;
            if ch.proof != UNKNOWN {
                let v = self.teams.for_team(ch.proof, team);
                if v < 0 {
                    continue;
                }
                mean = f64::from(v + 1) / 2.0;
            }
            let mut value = mean + self.cfg.c * (ln_n / n).sqrt();
            if !self.history.is_empty() {
                let (sum, count) = self.history[s * G::MOVE_CODES + usize::from(ch.mv.code())];
                if count > 0 {
                    value += self.cfg.history * (sum / f64::from(count)) / (n * (1.0 - mean) + 1.0);
                }
            }
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
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

/// Plays `pos` out with `policy` and returns the reward per seat (a draw for everyone after
/// [`MAX_PLAYOUT`] plies). With a `trail` (progressive history) every move is recorded as
/// (seat, code); without one, uniform policies use the game's own sampler
/// ([`Game::random_playout`]). Allocates nothing.
pub(super) fn playout<G: Game, P: PlayoutPolicy<G>>(
    mut pos: G,
    policy: &P,
    rng: &mut StdRng,
    teams: &Teams,
    mode: RewardMode,
    mut trail: Option<&mut Vec<(u8, u16)>>,
) -> [f64; MAX_SEATS] {
    if trail.is_none() && policy.is_uniform() {
        // No per-move bookkeeping needed: the game's own sampler.
        return match pos.random_playout(&mut |n| rng.random_range(0..n), MAX_PLAYOUT) {
            Some(o) => teams.rewards(&o, mode),
            None => [0.5; MAX_SEATS],
        };
    }
    let mut moves = G::Moves::default();
    for _ in 0..MAX_PLAYOUT {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return match pos.outcome() {
                Some(o) => teams.rewards(&o, mode),
                None => [0.5; MAX_SEATS],
            };
        }
        let i = if moves.len() == 1 {
            0
        } else {
            policy.pick(&pos, &moves, rng)
        };
        let mv = moves[i.min(moves.len() - 1)];
        if let Some(t) = trail.as_deref_mut() {
            t.push((pos.to_move().0, mv.code()));
        }
        pos = pos.play(mv);
    }
    [0.5; MAX_SEATS]
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
    let cap = (cfg.max_nodes / threads).max(moves.len() + 1);

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

/// The move to play from the merged root statistics (never empty) and the root's proof
/// (first team's view, or [`UNKNOWN`]) for `team` to move: the index of the move, its value
/// and the root's proven result.
pub(super) fn conclude<M>(
    root: &[RootChild<M>],
    root_proof: i8,
    teams: &Teams,
    team: u8,
) -> (usize, f64, Option<Proven>) {
    // A proven win; else the most visited move that is not a proven loss (ties: better
    // mean, then generation order); a proven draw beats unproven moves only when the root
    // itself is proven.
    let proven_root =
        (root_proof != UNKNOWN).then(|| Proven::from_value(teams.for_team(root_proof, team)));
    let rank = |c: &RootChild<M>| -> (u8, u64, f64) {
        let class = match (c.proven, proven_root) {
            (Some(Proven::Win), _) => 3,
            (Some(Proven::Draw), Some(Proven::Draw)) => 2,
            (Some(Proven::Loss), _) => 0,
            _ => 1,
        };
        (class, c.visits, c.mean)
    };
    let mut best = 0;
    for k in 1..root.len() {
        let (a, b) = (rank(&root[k]), rank(&root[best]));
        if a.0 > b.0 || (a.0 == b.0 && (a.1 > b.1 || (a.1 == b.1 && a.2 > b.2))) {
            best = k;
        }
    }
    let value = match root[best].proven {
        Some(Proven::Win) => 1.0,
        Some(Proven::Draw) => 0.5,
        Some(Proven::Loss) => 0.0,
        None => root[best].mean,
    };
    (best, value, proven_root)
}
