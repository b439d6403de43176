//! The parts of MCTS ([`super::mcts`]) that the root-parallel trees and the shared tree
//! ([`super::mcts_tree_parallel`]) both use: settings, results, playout policies, the
//! seating and rewards, the playout itself and the final choice of move.

use rand::RngExt;
use rand::rngs::StdRng;

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
    /// Iteration budget (all threads together); `None`: only the [`Limits`](crate::search::Limits) stop the search.
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
            max_nodes: Self::nodes_for_mib(16, Parallelism::Root),
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
/// Bytes of one node of the shared tree (tree parallelisation; checked at compile time in
/// `mcts_tree_parallel`).
pub(super) const TREE_NODE_BYTES: usize = 32;
/// Bytes budgeted per node of a root-parallel tree: an upper bound of the node for every
/// game's move type (the node holds one reward per seat).
pub(super) const ROOT_NODE_BYTES: usize = 64;

impl MctsConfig {
    /// How many nodes of the `parallel` scheme's trees fit in `mib` MiB (at least 1 MiB):
    /// 64 bytes per node with [`Parallelism::Root`], 32 with [`Parallelism::Tree`].
    #[must_use]
    pub fn nodes_for_mib(mib: usize, parallel: Parallelism) -> usize {
        let node = match parallel {
            Parallelism::Root => ROOT_NODE_BYTES,
            Parallelism::Tree => TREE_NODE_BYTES,
        };
        (mib.max(1) << 20) / node
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

/// Plies after which a playout is scored as a draw for everyone (a safety net for games
/// that might not end).
pub(super) const MAX_PLAYOUT: usize = 10_000;

/// The selection value of one visited child (UCT with the MCTS-Solver and progressive
/// history), shared by the sequential and the tree-parallel search so both select alike.
///
/// `visits` >= 1 and `reward_sum` (the seat to move's summed rewards) are the child's
/// statistics, `proof` its proven value (first team's view, [`UNKNOWN`] if none), `team` the
/// parent's team id, `ln_parent` the log of the parent's visits, `history` the move's
/// (reward sum, count) for the seat to move when progressive history is on. `None`: the
/// child is a proven loss for `team` and is never selected.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn child_value(
    cfg: &MctsConfig,
    teams: &Teams,
    team: u8,
    ln_parent: f64,
    visits: u32,
    reward_sum: f64,
    proof: i8,
    history: Option<(f64, u32)>,
) -> Option<f64> {
    let n = f64::from(visits);
    let mut mean = reward_sum / n;
    if proof != UNKNOWN {
        let v = teams.for_team(proof, team);
        if v < 0 {
            return None;
        }
        mean = f64::from(v + 1) / 2.0;
    }
    let mut value = mean + cfg.c * (ln_parent / n).sqrt();
    if let Some((sum, count)) = history
        && count > 0
    {
        value += cfg.history * (sum / f64::from(count)) / (n * (1.0 - mean) + 1.0);
    }
    Some(value)
}

/// Children scored at a time by [`uct_block`] (two AVX2 vectors of four).
pub(super) const UCT_LANES: usize = 8;

/// The UCT values `sum / n + c * sqrt(ln_parent / n)` of a block of unproven children
/// (visits `n` >= 1, the seat to move's reward sums `sum`), lane by lane with the same
/// operations in the same order as [`child_value`] without progressive history, so every
/// value is bit-identical to it (IEEE 754 division and square root are exact roundings,
/// lane by lane as one by one). Written over fixed-size arrays so the compiler turns the
/// two divisions and the square root into vector instructions: they are the cost of a
/// selection (their latency and the one divide unit's throughput bound the scalar loop).
#[inline]
#[must_use]
pub(super) fn uct_block(
    c: f64,
    ln_parent: f64,
    n: &[f64; UCT_LANES],
    sum: &[f64; UCT_LANES],
) -> [f64; UCT_LANES] {
    std::array::from_fn(|j| sum[j] / n[j] + c * (ln_parent / n[j]).sqrt())
}

/// The UCT choice among `k` children without progressive history, scored [`UCT_LANES`]
/// at a time by [`uct_block`]: `stats(i)` gives child `i`'s (visits, reward sum, proof);
/// an unvisited child is chosen at once, a proven one is valued by `proven` (`None`: never
/// chosen, a proven loss for the team to move). Returns the index of the best child
/// (ties: the first), `0` if every child is excluded. Shared by the root-parallel and the
/// tree-parallel searches, whose children are stored differently.
#[inline]
pub(super) fn uct_choice(
    k: usize,
    c: f64,
    ln_parent: f64,
    stats: impl Fn(usize) -> (u32, f64, i8),
    proven: impl Fn(u32, f64, i8) -> Option<f64>,
) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for at in (0..k).step_by(UCT_LANES) {
        let len = UCT_LANES.min(k - at);
        let mut visits = [0u32; UCT_LANES];
        let mut proofs = [UNKNOWN; UCT_LANES];
        let mut n = [1.0; UCT_LANES];
        let mut sum = [0.0; UCT_LANES];
        for j in 0..len {
            let (v, r, p) = stats(at + j);
            if v == 0 {
                return at + j;
            }
            (visits[j], sum[j], proofs[j]) = (v, r, p);
            n[j] = f64::from(v);
        }
        let values = uct_block(c, ln_parent, &n, &sum);
        for j in 0..len {
            let value = if proofs[j] == UNKNOWN {
                values[j]
            } else {
                let Some(v) = proven(visits[j], sum[j], proofs[j]) else {
                    continue;
                };
                v
            };
            if value > best_value {
                best_value = value;
                best = at + j;
            }
        }
    }
    best
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uct_block_values_are_bit_identical_to_child_value() {
        // Two seats, two teams (the seating is only read for proven children).
        let ids: [u8; MAX_SEATS] = std::array::from_fn(|s| s as u8);
        let teams = Teams {
            seats: 2,
            team: ids,
            ids,
            count: 2,
        };
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for c in [1.0, 0.7, std::f64::consts::SQRT_2] {
            let cfg = MctsConfig {
                c,
                ..MctsConfig::default()
            };
            for _ in 0..200 {
                let parent = (next() % 5_000_000) as u32 + 1;
                let ln_parent = f64::from(parent).ln();
                let visits: [u32; UCT_LANES] =
                    std::array::from_fn(|_| (next() % u64::from(parent)) as u32 + 1);
                // Reward sums in [0, visits], halves (place rewards) and arbitrary fractions.
                let sum: [f64; UCT_LANES] = std::array::from_fn(|j| {
                    let frac = (next() % 1_000_001) as f64 / 1_000_000.0;
                    let s = f64::from(visits[j]) * frac;
                    if j % 2 == 0 {
                        (s * 2.0).round() / 2.0
                    } else {
                        s
                    }
                });
                let n = visits.map(f64::from);
                let values = uct_block(c, ln_parent, &n, &sum);
                for j in 0..UCT_LANES {
                    let one =
                        child_value(&cfg, &teams, 0, ln_parent, visits[j], sum[j], UNKNOWN, None)
                            .expect("an unproven child has a value");
                    assert_eq!(values[j].to_bits(), one.to_bits(), "lane {j}");
                }
            }
        }
    }
}
