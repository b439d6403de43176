//! A vectorised environment: `n` games of one id stepped together, one action per game
//! (for its seat to move), in parallel (rayon), writing observations, rewards, done flags
//! and legal masks into the caller's buffers. Finished games restart at once (the returned
//! observation is the new game's), so every game always has a seat to move.
//!
//! Buffers, for `n` games (C-order): observations `n x obs_size` (`f32`, the planes of
//! [`super::observe`], from the view of the seat to move), rewards `n x seats` (`f32`: each
//! seat's points when the game ended on this step, see [`super::returns`]; 0 otherwise),
//! dones `n`, legal masks `n x action_size`, seats to move `n`. A game longer than
//! `max_plies` plies is cut and scored a draw (1/2 each), as tournaments score their ply cap.
//!
//! Game `i`'s `k`-th episode starts from [`Game::start_seeded`] with a seed drawn from
//! `(seed, i, k)`, so results do not depend on the thread count. Stepping allocates nothing.

use rayon::prelude::*;

use crate::game::{Game, MoveError};
use crate::games::GameId;

use super::EnvGame;
use super::action;
use super::playout::mix_seed;
use super::returns;

/// The caller's buffers of one step (see the module docs for their shapes).
pub struct StepBuffers<'a> {
    /// Observations, `n x obs_size`.
    pub obs: &'a mut [f32],
    /// Rewards, `n x seats`.
    pub rewards: &'a mut [f32],
    /// Done flags, `n`.
    pub dones: &'a mut [bool],
    /// Legal masks, `n x action_size`.
    pub masks: &'a mut [bool],
    /// Seats to move, `n`.
    pub to_move: &'a mut [i64],
}

/// One game of the vector.
#[derive(Clone)]
struct Slot<G> {
    pos: G,
    plies: u32,
    episode: u64,
}

/// `n` games of `G` (see the module docs).
pub struct VecEnv<G: Game> {
    slots: Vec<Slot<G>>,
    /// Legal masks of the current positions (checked before a step changes anything).
    masks: Vec<bool>,
    seed: u64,
    max_plies: u32,
    /// Calls of [`VecEnv::random_actions`] so far (each draws from its own stream).
    draws: u64,
}

/// Mixed into the seed of [`VecEnv::random_actions`]' streams, apart from the episodes'.
const ACTION_SALT: u64 = 0x5EED_AC71_0000_0001;

impl<G: EnvGame> VecEnv<G> {
    /// `n` games, seeded from `seed`, cut at `max_plies` plies.
    #[must_use]
    pub fn new(n: usize, seed: u64, max_plies: u32) -> Self {
        let mut env = Self {
            slots: Vec::with_capacity(n),
            masks: vec![false; n * action::action_size::<G>()],
            seed,
            max_plies: max_plies.max(1),
            draws: 0,
        };
        for i in 0..n {
            env.slots.push(Slot {
                pos: G::start_seeded(episode_seed(seed, i, 0)),
                plies: 0,
                episode: 0,
            });
        }
        let size = action::action_size::<G>();
        for (slot, mask) in env.slots.iter().zip(env.masks.chunks_mut(size)) {
            action::legal_mask(&slot.pos, mask);
        }
        env
    }

    /// Starts every game again (new episodes) and writes their observations, legal masks
    /// and seats to move; rewards and dones are zeroed.
    pub fn reset(&mut self, buf: &mut StepBuffers<'_>) {
        let seed = self.seed;
        for (i, s) in self.slots.iter_mut().enumerate() {
            s.episode += 1;
            s.pos = G::start_seeded(episode_seed(seed, i, s.episode));
            s.plies = 0;
        }
        buf.rewards.fill(0.0);
        buf.dones.fill(false);
        self.write_all(buf);
    }

    /// Plays `actions[i]` in game `i` (see [`super::action`]), restarting finished games.
    ///
    /// # Errors
    /// An action outside the action space or illegal in its game (the first such, named
    /// with its game index); nothing is changed then.
    ///
    /// # Panics
    /// Buffers of the wrong lengths (a programming error).
    pub fn step(&mut self, actions: &[i64], buf: &mut StepBuffers<'_>) -> Result<(), MoveError> {
        let n = self.slots.len();
        let size = action::action_size::<G>();
        assert_eq!(actions.len(), n, "one action per game");
        for (i, &a) in actions.iter().enumerate() {
            let legal = usize::try_from(a)
                .ok()
                .filter(|&a| a < size)
                .is_some_and(|a| self.masks[i * size + a]);
            if !legal {
                let err = action::legal_move_of(&self.slots[i].pos, a)
                    .err()
                    .unwrap_or_else(|| MoveError(format!("action {a} is not legal")));
                return Err(MoveError(format!("game {i}: {err}")));
            }
        }
        let seats = G::start().seats();
        let (seed, max_plies) = (self.seed, self.max_plies);
        self.slots
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(buf.rewards.par_chunks_mut(seats))
            .zip(buf.dones.par_iter_mut())
            .enumerate()
            .with_min_len(16)
            .for_each(|(i, (((slot, &a), reward), done))| {
                let mv = <G::Move as crate::game::MoveCode>::from_code(a as u16);
                slot.pos = slot.pos.play(mv);
                slot.plies += 1;
                let outcome = slot.pos.outcome();
                if outcome.is_some() || slot.plies >= max_plies {
                    let mut pts = [0.0f64; crate::game::MAX_SEATS];
                    returns::points(&slot.pos, outcome.as_ref(), &mut pts[..seats]);
                    for (r, p) in reward.iter_mut().zip(pts) {
                        *r = p as f32;
                    }
                    *done = true;
                    slot.episode += 1;
                    slot.pos = G::start_seeded(episode_seed(seed, i, slot.episode));
                    slot.plies = 0;
                } else {
                    reward.fill(0.0);
                    *done = false;
                }
            });
        self.write_all(buf);
        Ok(())
    }

    /// A uniformly random legal action for each game's seat to move, into `out` (`n`), for
    /// a random policy or exploration without a round trip through the masks: call `k`'s
    /// draw for game `i` depends only on `(seed, i, k)`, not on the thread count. Every
    /// game has a move (finished games restart; a forced pass is the pass action).
    /// Allocates nothing.
    ///
    /// # Panics
    /// `out` of another length than `n` (a programming error).
    pub fn random_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.slots.len(), "one action per game");
        self.draws += 1;
        let stream = mix_seed(self.seed ^ ACTION_SALT, self.draws);
        self.slots
            .par_iter()
            .zip(out.par_iter_mut())
            .enumerate()
            .with_min_len(16)
            .for_each(|(i, (slot, action))| {
                let mut moves = G::Moves::default();
                slot.pos.generate_moves(&mut moves);
                // Lemire's multiply-shift: uniform over the list up to len / 2^64.
                let r = mix_seed(stream, i as u64);
                let k = ((u128::from(r) * moves.len() as u128) >> 64) as usize;
                *action = i64::from(crate::game::MoveCode::code(moves[k]));
            });
    }

    /// Writes every game's observation, legal mask (also kept for the next step's checks)
    /// and seat to move.
    fn write_all(&mut self, buf: &mut StepBuffers<'_>) {
        let size = action::action_size::<G>();
        self.slots
            .par_iter()
            .zip(buf.obs.par_chunks_mut(G::SIZE))
            .zip(self.masks.par_chunks_mut(size))
            .zip(buf.to_move.par_iter_mut())
            .with_min_len(16)
            .for_each(|(((slot, obs), mask), to_move)| {
                slot.pos.observe(obs);
                action::legal_mask(&slot.pos, mask);
                *to_move = slot.pos.to_move().index() as i64;
            });
        buf.masks.copy_from_slice(&self.masks);
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Game `i`'s position in its one-line text form.
    #[must_use]
    pub fn position(&self, i: usize) -> String {
        self.slots[i].pos.to_string()
    }
}

/// The start seed of game `i`'s episode `k`.
fn episode_seed(seed: u64, i: usize, k: u64) -> u64 {
    mix_seed(mix_seed(seed, i as u64), k)
}

/// The operations of [`AnyVecEnv`] over one position type.
trait Dyn: Send + Sync {
    fn reset(&mut self, buf: &mut StepBuffers<'_>);
    fn step(&mut self, actions: &[i64], buf: &mut StepBuffers<'_>) -> Result<(), MoveError>;
    fn position(&self, i: usize) -> String;
    fn random_actions(&mut self, out: &mut [i64]);
}

impl<G: EnvGame> Dyn for VecEnv<G> {
    fn reset(&mut self, buf: &mut StepBuffers<'_>) {
        VecEnv::reset(self, buf);
    }
    fn step(&mut self, actions: &[i64], buf: &mut StepBuffers<'_>) -> Result<(), MoveError> {
        VecEnv::step(self, actions, buf)
    }
    fn position(&self, i: usize) -> String {
        VecEnv::position(self, i)
    }
    fn random_actions(&mut self, out: &mut [i64]) {
        VecEnv::random_actions(self, out);
    }
}

fn boxed<G: EnvGame>(n: usize, seed: u64, max_plies: u32) -> (Box<dyn Dyn>, Dims) {
    let dims = Dims {
        obs_shape: G::SHAPE,
        obs_size: G::SIZE,
        action_size: action::action_size::<G>(),
        seats: G::start().seats(),
    };
    (Box::new(VecEnv::<G>::new(n, seed, max_plies)), dims)
}

/// The sizes of a game's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Shape of one observation.
    pub obs_shape: &'static [usize],
    /// Values in one observation.
    pub obs_size: usize,
    /// Actions in the action space.
    pub action_size: usize,
    /// Seats of the game.
    pub seats: usize,
}

/// A [`VecEnv`] of a game chosen at run time.
pub struct AnyVecEnv {
    inner: Box<dyn Dyn>,
    dims: Dims,
    n: usize,
}

impl AnyVecEnv {
    /// `n` games of `id` (see [`VecEnv::new`]).
    #[must_use]
    pub fn new(id: GameId, n: usize, seed: u64, max_plies: u32) -> Self {
        let (inner, dims) = crate::for_game!(id, boxed(n, seed, max_plies));
        Self { inner, dims, n }
    }

    /// The buffers' sizes.
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// See [`VecEnv::reset`].
    pub fn reset(&mut self, buf: &mut StepBuffers<'_>) {
        self.inner.reset(buf);
    }

    /// See [`VecEnv::step`].
    ///
    /// # Errors
    /// As [`VecEnv::step`].
    pub fn step(&mut self, actions: &[i64], buf: &mut StepBuffers<'_>) -> Result<(), MoveError> {
        self.inner.step(actions, buf)
    }

    /// Game `i`'s position.
    #[must_use]
    pub fn position(&self, i: usize) -> String {
        self.inner.position(i)
    }

    /// See [`VecEnv::random_actions`].
    pub fn random_actions(&mut self, out: &mut [i64]) {
        self.inner.random_actions(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Owned {
        obs: Vec<f32>,
        rewards: Vec<f32>,
        dones: Vec<bool>,
        masks: Vec<bool>,
        to_move: Vec<i64>,
    }

    impl Owned {
        fn new(d: Dims, n: usize) -> Self {
            Self {
                obs: vec![0.0; n * d.obs_size],
                rewards: vec![0.0; n * d.seats],
                dones: vec![false; n],
                masks: vec![false; n * d.action_size],
                to_move: vec![0; n],
            }
        }
        fn buf(&mut self) -> StepBuffers<'_> {
            StepBuffers {
                obs: &mut self.obs,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
                masks: &mut self.masks,
                to_move: &mut self.to_move,
            }
        }
    }

    /// The first legal action of each game (a deterministic policy).
    fn first_legal(masks: &[bool], size: usize) -> Vec<i64> {
        masks
            .chunks(size)
            .map(|m| m.iter().position(|&b| b).unwrap() as i64)
            .collect()
    }

    #[test]
    fn games_run_to_the_end_restart_and_match_a_game_played_alone() {
        for id in GameId::ALL {
            let n = 8;
            let mut env = AnyVecEnv::new(id, n, 5, 300);
            let d = env.dims();
            let mut b = Owned::new(d, n);
            env.reset(&mut b.buf());
            let mut alone = super::super::AnyGame::new(id, Some(&env.position(3))).unwrap();
            let mut finished = 0;
            for _ in 0..400 {
                let actions = first_legal(&b.masks, d.action_size);
                let before = alone.clone();
                env.step(&actions, &mut b.buf()).unwrap();
                for i in 0..n {
                    if b.dones[i] {
                        finished += 1;
                        let r = &b.rewards[i * d.seats..(i + 1) * d.seats];
                        assert!(r.iter().all(|v| (0.0..=1.0).contains(v)), "{id} {r:?}");
                    }
                }
                if !b.dones[3] {
                    alone.play_action(actions[3]).unwrap();
                    assert_eq!(alone.position(), env.position(3), "{id}");
                    let mut obs = vec![0.0; d.obs_size];
                    alone.observe(&mut obs);
                    assert_eq!(obs, b.obs[3 * d.obs_size..4 * d.obs_size]);
                    assert_eq!(alone.to_move() as i64, b.to_move[3]);
                } else {
                    let mut g = before;
                    g.play_action(actions[3]).unwrap();
                    if g.is_over() {
                        let want: Vec<f32> =
                            g.returns().unwrap().iter().map(|&v| v as f32).collect();
                        assert_eq!(want, b.rewards[3 * d.seats..4 * d.seats]);
                    }
                    alone = super::super::AnyGame::new(id, Some(&env.position(3))).unwrap();
                }
            }
            assert!(finished > 0, "{id}: no game finished");
        }
    }

    #[test]
    fn an_illegal_action_is_named_and_changes_nothing() {
        let mut env = AnyVecEnv::new(GameId::Othello, 2, 1, 100);
        let mut b = Owned::new(env.dims(), 2);
        env.reset(&mut b.buf());
        let before = env.position(0);
        let err = env.step(&[37, 0], &mut b.buf()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 1: action 0 (a1) is not legal in this position"
        );
        let err = env.step(&[99, 37], &mut b.buf()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 0: action 99 is outside the action space of othello (0..65)"
        );
        assert_eq!(env.position(0), before);
    }

    #[test]
    fn random_actions_are_legal_uniform_and_reproducible() {
        for id in GameId::ALL {
            let n = 64;
            let mut env = AnyVecEnv::new(id, n, 9, 200);
            let d = env.dims();
            let mut b = Owned::new(d, n);
            env.reset(&mut b.buf());
            let mut actions = vec![0; n];
            for _ in 0..150 {
                env.random_actions(&mut actions);
                for (i, &a) in actions.iter().enumerate() {
                    assert!(
                        b.masks[i * d.action_size + a as usize],
                        "{id} game {i}: {a}"
                    );
                }
                env.step(&actions, &mut b.buf()).unwrap();
            }
        }
        // Othello's start has four moves: 8,000 draws give each close to a quarter (the
        // seed is fixed, so the counts are too; a biased draw would sit far outside).
        let n = 8000;
        let mut env = AnyVecEnv::new(GameId::Othello, n, 3, 100);
        let mut actions = vec![0; n];
        env.random_actions(&mut actions);
        let mut counts = std::collections::BTreeMap::new();
        for a in &actions {
            *counts.entry(*a).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 4, "{counts:?}");
        assert!(
            counts.values().all(|&c| (1850..=2150).contains(&c)),
            "{counts:?}"
        );
        // The same seed draws the same actions whatever the thread count; the next call
        // draws others.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut again = AnyVecEnv::new(GameId::Othello, n, 3, 100);
        let mut same = vec![0; n];
        one.install(|| again.random_actions(&mut same));
        assert_eq!(actions, same);
        again.random_actions(&mut same);
        assert_ne!(actions, same);
    }
}
