//! Rating lists over many players by maximum likelihood, with bootstrap error bars.
//!
//! Model: each player `i` has a strength `g_i = 10^(R_i / 400)` (`R_i` in logistic Elo
//! points). A game with `S` seats ends in a ranking; under Plackett-Luce the probability of
//! the finishing order `a > b > c` is
//!
//! ```text
//! P(a > b > c) = g_a / (g_a + g_b + g_c) * g_b / (g_b + g_c),
//! ```
//!
//! which for two seats is the Bradley-Terry (logistic Elo) model
//! `P(a beats b) = g_a / (g_a + g_b) = 1 / (1 + 10^((R_b - R_a)/400))`.
//! Ties are split evenly over the orders they stand for: a two-player draw counts as half a
//! win for each side (the usual "draws as half wins" Bradley-Terry), and a shared place among
//! three players weights each tie-break order equally. A player of strength `g` against two
//! opponents of strength 1, scored 1 / 1/2 / 0 for places 1-3, has expected score
//! `g / (1 + g)` ([`expected_scores`]).
//!
//! Fitting maximizes the (weighted) likelihood by Hunter's MM iteration (D. R. Hunter,
//! "MM algorithms for generalized Bradley-Terry models", Ann. Statist. 32 (2004), eq. (30)):
//!
//! ```text
//! g_t <- w_t / sum_j sum_{i < S} [t at position >= i in ranking j] / sum_{s >= i} g_{j,s},
//! ```
//!
//! with `w_t` the number of rankings in which `t` is not last. Ratings are reported in Elo,
//! anchored at a named player (rating 0) or so that the pool mean is 0 ([`Anchor`]).
//!
//! Error bars come from a non-parametric bootstrap over *blocks* (a colour-swapped pair, a
//! seat-rotation block of games on one opening, ...): blocks are resampled with replacement
//! and the model is refitted, with a seeded RNG per replicate so that the result depends only
//! on the seed (not on the thread count).
//!
//! The model has no seat (first-move) advantage term: play balanced blocks (every player in
//! every seat of a block) so that it cancels. Team games (four seats, two partnerships) are
//! rated as two-seat games between partnership entrants; a `ResultSet<4>` instead rates a
//! four-player free-for-all ranking.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::elo::Wdl;

/// Index of a player in a [`ResultSet`].
pub type PlayerId = usize;

/// One finished game with `S` seats: who sat in each seat and where each seat finished.
///
/// `places[k]` is the finishing place of seat `k`, lower is better, equal places are ties;
/// only the order matters (0- or 1-based both work).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult<const S: usize> {
    /// Player per seat.
    pub players: [PlayerId; S],
    /// Finishing place per seat (lower is better, equal = tie).
    pub places: [u8; S],
}

impl<const S: usize> GameResult<S> {
    /// A game from players and places per seat.
    #[must_use]
    pub fn new(players: [PlayerId; S], places: [u8; S]) -> Self {
        Self { players, places }
    }

    /// A game from per-seat scores (higher is better, equal scores share a place).
    #[must_use]
    pub fn from_scores(players: [PlayerId; S], scores: [f64; S]) -> Self {
        let mut places = [0u8; S];
        for (k, place) in places.iter_mut().enumerate() {
            *place = scores.iter().filter(|&&o| o > scores[k]).count() as u8;
        }
        Self { players, places }
    }
}

impl GameResult<2> {
    /// A two-player game: `first` vs `second`, with the result from `first`'s view.
    #[must_use]
    pub fn two_player(first: PlayerId, second: PlayerId, result: Wdl) -> Self {
        let places = match result {
            Wdl::Win => [0, 1],
            Wdl::Draw => [0, 0],
            Wdl::Loss => [1, 0],
        };
        Self {
            players: [first, second],
            places,
        }
    }
}

/// The games of one resampling block (a colour-swapped pair, a seat rotation, ...).
pub type Block<const S: usize> = Vec<GameResult<S>>;

/// A malformed input to a [`ResultSet`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingError(pub String);

impl std::fmt::Display for RatingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RatingError {}

/// Where the rating scale is pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// Mean rating over the players that played (with finite ratings) is 0.
    Mean,
    /// This player is rated 0 (falls back to [`Anchor::Mean`] if the id is unknown, the player
    /// has no games, or its rating is not finite, e.g. a player who lost every game).
    Player(PlayerId),
}

/// Fitting options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Rating anchor.
    pub anchor: Anchor,
    /// Virtual draws each player plays against a fixed rating-0 (`g = 1`) opponent, as a
    /// regularizing prior that keeps ratings finite for undefeated or winless players.
    /// 0 (default) gives the exact maximum-likelihood fit.
    pub prior_draws: f64,
    /// Iteration cap of the MM loop.
    pub max_iterations: usize,
    /// Stop when no `ln g` moves by more than this (1e-10 is ~2e-8 Elo).
    pub tolerance: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            anchor: Anchor::Mean,
            prior_draws: 0.0,
            max_iterations: 100_000,
            tolerance: 1e-10,
        }
    }
}

/// A fitted rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingFit {
    /// Rating per player in Elo, anchored. `-inf` for a player that finished last in every
    /// game (without a prior); 0 for a player with no games.
    pub ratings: Vec<f64>,
    /// Games played per player.
    pub games: Vec<u64>,
    /// MM iterations run.
    pub iterations: usize,
    /// Whether the tolerance was reached (false when the maximum-likelihood estimate does not
    /// exist, e.g. an undefeated player without a prior).
    pub converged: bool,
}

/// Bootstrap options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BootstrapOptions {
    /// Number of resampled data sets.
    pub replicates: usize,
    /// RNG seed; replicate `r` uses `StdRng::seed_from_u64` of a mix of `seed` and `r`.
    pub seed: u64,
    /// Two-sided coverage of the percentile interval (0.95 for 95 %).
    pub confidence: f64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        Self {
            replicates: 1000,
            seed: 0,
            confidence: 0.95,
        }
    }
}

/// Ratings with bootstrap error bars (all in Elo, per player).
#[derive(Clone, Debug, PartialEq)]
pub struct BootstrapRatings {
    /// The fit on the original data (point estimates).
    pub fit: RatingFit,
    /// Lower end of the percentile interval.
    pub lower: Vec<f64>,
    /// Upper end of the percentile interval.
    pub upper: Vec<f64>,
    /// Half-width of the percentile interval, `(upper - lower) / 2`: the "+-" of a rating list.
    pub half_width: Vec<f64>,
    /// Standard deviation of the bootstrap ratings (`+inf` if a replicate diverged to an
    /// infinite rating or there were fewer than two replicates).
    pub std_error: Vec<f64>,
    /// Number of replicates.
    pub replicates: usize,
    /// Replicates whose fit did not converge.
    pub unconverged: usize,
}

/// Named players and their games grouped into blocks, for `S`-seat games
/// (`S = 2`: Bradley-Terry; `S = 3`: Plackett-Luce over rankings of three; any `S >= 2`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultSet<const S: usize> {
    names: Vec<String>,
    blocks: Vec<Block<S>>,
}

impl<const S: usize> ResultSet<S> {
    /// An empty set.
    #[must_use]
    pub fn new() -> Self {
        Self {
            names: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// A set with these players (ids in iteration order).
    #[must_use]
    pub fn with_players<N: Into<String>>(names: impl IntoIterator<Item = N>) -> Self {
        let mut set = Self::new();
        for n in names {
            set.add_player(n);
        }
        set
    }

    /// The id of `name`, adding the player if new.
    pub fn add_player(&mut self, name: impl Into<String>) -> PlayerId {
        let name = name.into();
        if let Some(id) = self.player(&name) {
            return id;
        }
        self.names.push(name);
        self.names.len() - 1
    }

    /// The id of `name`, if present.
    #[must_use]
    pub fn player(&self, name: &str) -> Option<PlayerId> {
        self.names.iter().position(|n| n == name)
    }

    /// Player names by id.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of players.
    #[must_use]
    pub fn num_players(&self) -> usize {
        self.names.len()
    }

    /// The blocks added so far.
    #[must_use]
    pub fn blocks(&self) -> &[Block<S>] {
        &self.blocks
    }

    /// Adds one block of games.
    ///
    /// # Errors
    /// If a game names an unknown player or seats one player twice.
    pub fn add_block(&mut self, games: Block<S>) -> Result<(), RatingError> {
        for g in &games {
            for (k, &p) in g.players.iter().enumerate() {
                if p >= self.names.len() {
                    return Err(RatingError(format!("unknown player id {p}")));
                }
                if g.players[..k].contains(&p) {
                    return Err(RatingError(format!("player {p} seated twice in one game")));
                }
            }
        }
        self.blocks.push(games);
        Ok(())
    }

    /// Maximum-likelihood ratings by Hunter's MM iteration.
    #[must_use]
    pub fn fit(&self, options: &FitOptions) -> RatingFit {
        let compiled = Compiled::new(self);
        let mut ws = Workspace::new(compiled.players, compiled.orderings.len());
        let weights = vec![1.0; self.blocks.len()];
        compiled.fit(&weights, options, &mut ws)
    }

    /// Ratings with bootstrap error bars: `options.replicates` times, resample the blocks with
    /// replacement (as many as there are) and refit; report percentile intervals.
    /// Runs the replicates in parallel (rayon); the result depends only on the seed.
    #[must_use]
    pub fn bootstrap(&self, fit: &FitOptions, options: &BootstrapOptions) -> BootstrapRatings {
        let compiled = Compiled::new(self);
        let n_blocks = self.blocks.len();
        let point = {
            let mut ws = Workspace::new(compiled.players, compiled.orderings.len());
            compiled.fit(&vec![1.0; n_blocks], fit, &mut ws)
        };
        let replicates: Vec<(Vec<f64>, bool)> = (0..options.replicates)
            .into_par_iter()
            .map_init(
                || {
                    (
                        Workspace::new(compiled.players, compiled.orderings.len()),
                        vec![0.0; n_blocks],
                    )
                },
                |(ws, weights), r| {
                    let mut rng = StdRng::seed_from_u64(mix_seed(options.seed, r as u64));
                    weights.fill(0.0);
                    for _ in 0..n_blocks {
                        weights[rng.random_range(0..n_blocks)] += 1.0;
                    }
                    let f = compiled.fit(weights, fit, ws);
                    (f.ratings, f.converged)
                },
            )
            .collect();

        let n = compiled.players;
        let conf = if options.confidence.is_finite() {
            options.confidence.clamp(0.0, 1.0)
        } else {
            0.95
        };
        let (mut lower, mut upper) = (vec![0.0; n], vec![0.0; n]);
        let (mut half_width, mut std_error) = (vec![0.0; n], vec![0.0; n]);
        let mut column = Vec::with_capacity(replicates.len());
        for p in 0..n {
            column.clear();
            column.extend(replicates.iter().map(|(r, _)| r[p]));
            column.sort_by(f64::total_cmp);
            let (lo, hi) = if column.is_empty() {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                (
                    quantile_sorted(&column, (1.0 - conf) / 2.0),
                    quantile_sorted(&column, (1.0 + conf) / 2.0),
                )
            };
            lower[p] = lo;
            upper[p] = hi;
            half_width[p] = if lo == hi { 0.0 } else { (hi - lo) / 2.0 };
            std_error[p] = std_dev(&column);
        }
        BootstrapRatings {
            fit: point,
            lower,
            upper,
            half_width,
            std_error,
            replicates: options.replicates,
            unconverged: replicates.iter().filter(|(_, c)| !c).count(),
        }
    }
}

/// Strength `g = 10^(R / 400)` of an Elo rating `R`.
#[must_use]
pub fn gamma(rating: f64) -> f64 {
    10f64.powf(rating / 400.0)
}

/// Plackett-Luce probability of a finishing order: `order` lists seat indices best first,
/// `ratings` gives each seat's Elo rating.
#[must_use]
pub fn ranking_probability<const S: usize>(ratings: &[f64; S], order: &[usize; S]) -> f64 {
    let g = ratings.map(gamma);
    let mut remaining: f64 = order.iter().map(|&k| g[k]).sum();
    let mut p = 1.0;
    for &k in order.iter().take(S.saturating_sub(1)) {
        p *= g[k] / remaining;
        remaining -= g[k];
    }
    p
}

/// Expected score per seat under Plackett-Luce, with `place_scores[k]` awarded for place
/// `k + 1` (e.g. `[1, 0.5, 0]`). Enumerates all `S!` orders (fine up to `S` ~ 8).
#[must_use]
pub fn expected_scores<const S: usize>(ratings: &[f64; S], place_scores: &[f64; S]) -> [f64; S] {
    let mut expected = [0.0; S];
    for_each_permutation::<S>(|order| {
        let p = ranking_probability(ratings, order);
        for (place, &seat) in order.iter().enumerate() {
            expected[seat] += p * place_scores[place];
        }
    });
    expected
}

/// Calls `f` with every permutation of `0..S` (Heap's algorithm, no allocation).
fn for_each_permutation<const S: usize>(mut f: impl FnMut(&[usize; S])) {
    let mut a = [0usize; S];
    for (i, x) in a.iter_mut().enumerate() {
        *x = i;
    }
    let mut c = [0usize; S];
    f(&a);
    let mut i = 1;
    while i < S {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            f(&a);
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The data reduced to distinct player orderings (best first) with per-block weights.
struct Compiled<const S: usize> {
    players: usize,
    /// Distinct orderings of player ids, best first.
    orderings: Vec<[PlayerId; S]>,
    /// Per block: (ordering index, weight) entries; the weights of a game's tie-breaks sum to 1.
    block_entries: Vec<Vec<(usize, f64)>>,
    /// Per block: games played per player, as (player, count) entries.
    block_games: Vec<Vec<(PlayerId, u64)>>,
}

impl<const S: usize> Compiled<S> {
    fn new(set: &ResultSet<S>) -> Self {
        let mut index: HashMap<[PlayerId; S], usize> = HashMap::new();
        let mut orderings = Vec::new();
        let mut block_entries = Vec::with_capacity(set.blocks.len());
        let mut block_games = Vec::with_capacity(set.blocks.len());
        let mut consistent: Vec<[usize; S]> = Vec::new();
        for block in &set.blocks {
            let mut entries: Vec<(usize, f64)> = Vec::new();
            let mut games: Vec<(PlayerId, u64)> = Vec::new();
            for g in block {
                consistent.clear();
                for_each_permutation::<S>(|perm| {
                    if perm.windows(2).all(|w| g.places[w[0]] <= g.places[w[1]]) {
                        consistent.push(*perm);
                    }
                });
                let w = 1.0 / consistent.len() as f64;
                for perm in &consistent {
                    let ordering = perm.map(|seat| g.players[seat]);
                    let next = orderings.len();
                    let idx = *index.entry(ordering).or_insert(next);
                    if idx == next {
                        orderings.push(ordering);
                    }
                    match entries.iter_mut().find(|(i, _)| *i == idx) {
                        Some(e) => e.1 += w,
                        None => entries.push((idx, w)),
                    }
                }
                for &p in &g.players {
                    match games.iter_mut().find(|(q, _)| *q == p) {
                        Some(e) => e.1 += 1,
                        None => games.push((p, 1)),
                    }
                }
            }
            block_entries.push(entries);
            block_games.push(games);
        }
        Self {
            players: set.names.len(),
            orderings,
            block_entries,
            block_games,
        }
    }

    /// MM fit with block weights (1 each for the data, multiplicities for a bootstrap sample).
    fn fit(&self, block_weights: &[f64], options: &FitOptions, ws: &mut Workspace) -> RatingFit {
        let n = self.players;
        ws.reset();
        let mut games = vec![0u64; n];
        for ((entries, played), &bw) in self
            .block_entries
            .iter()
            .zip(&self.block_games)
            .zip(block_weights)
        {
            if bw <= 0.0 {
                continue;
            }
            for &(idx, w) in entries {
                ws.weight[idx] += bw * w;
            }
            for &(p, c) in played {
                games[p] += (bw as u64) * c;
            }
        }
        // Numerators: weighted count of rankings in which the player is not last.
        for (ordering, &w) in self.orderings.iter().zip(&ws.weight) {
            if w > 0.0 {
                for &p in &ordering[..S - 1] {
                    ws.wins[p] += w;
                }
            }
        }
        let prior = if options.prior_draws.is_finite() {
            options.prior_draws.max(0.0)
        } else {
            0.0
        };
        for (p, w) in ws.wins.iter_mut().enumerate() {
            if games[p] > 0 {
                *w += 0.5 * prior;
            }
        }

        let mut converged = false;
        let mut iterations = 0;
        while iterations < options.max_iterations {
            iterations += 1;
            ws.den.fill(0.0);
            for (ordering, &w) in self.orderings.iter().zip(&ws.weight) {
                if w <= 0.0 {
                    continue;
                }
                let mut suffix = [0.0; S];
                let mut acc = 0.0;
                for k in (0..S).rev() {
                    acc += ws.g[ordering[k]];
                    suffix[k] = acc;
                }
                let mut c = 0.0;
                for k in 0..S {
                    if k + 1 < S && suffix[k] > 0.0 {
                        c += 1.0 / suffix[k];
                    }
                    ws.den[ordering[k]] += w * c;
                }
            }
            let mut max_change: f64 = 0.0;
            let players = games.iter().zip(&mut ws.g).zip(&ws.den).zip(&ws.wins);
            for (((&played, g), &den), &wins) in players {
                if played == 0 {
                    continue;
                }
                let den = den + prior / (*g + 1.0);
                let new = if den > 0.0 { wins / den } else { *g };
                if new > 0.0 && *g > 0.0 {
                    max_change = max_change.max((new.ln() - g.ln()).abs());
                } else if new != *g {
                    max_change = f64::INFINITY;
                }
                *g = new;
            }
            if prior == 0.0 {
                // Pin the scale: geometric mean 1 over players with positive strength.
                let (sum, count) = (0..n)
                    .filter(|&p| games[p] > 0 && ws.g[p] > 0.0 && ws.g[p].is_finite())
                    .fold((0.0, 0usize), |(s, c), p| (s + ws.g[p].ln(), c + 1));
                if count > 0 {
                    let scale = (-sum / count as f64).exp();
                    for g in &mut ws.g {
                        *g *= scale;
                    }
                }
            }
            if max_change <= options.tolerance {
                converged = true;
                break;
            }
        }

        let mut ratings: Vec<f64> =
            ws.g.iter()
                .map(|&g| 400.0 * g.log10())
                .map(|r| if r.is_nan() { 0.0 } else { r })
                .collect();
        let mean_of_played = || {
            let (s, c) = (0..n)
                .filter(|&p| games[p] > 0 && ratings[p].is_finite())
                .fold((0.0, 0usize), |(s, c), p| (s + ratings[p], c + 1));
            if c > 0 { s / c as f64 } else { 0.0 }
        };
        let offset = match options.anchor {
            Anchor::Player(p) if p < n && games[p] > 0 && ratings[p].is_finite() => ratings[p],
            _ => mean_of_played(),
        };
        for (p, r) in ratings.iter_mut().enumerate() {
            *r = if games[p] == 0 { 0.0 } else { *r - offset };
        }
        RatingFit {
            ratings,
            games,
            iterations,
            converged,
        }
    }
}

/// Reusable buffers of one fit.
struct Workspace {
    g: Vec<f64>,
    wins: Vec<f64>,
    den: Vec<f64>,
    weight: Vec<f64>,
}

impl Workspace {
    fn new(players: usize, orderings: usize) -> Self {
        Self {
            g: vec![1.0; players],
            wins: vec![0.0; players],
            den: vec![0.0; players],
            weight: vec![0.0; orderings],
        }
    }

    fn reset(&mut self) {
        self.g.fill(1.0);
        self.wins.fill(0.0);
        self.den.fill(0.0);
        self.weight.fill(0.0);
    }
}

/// SplitMix64 finalizer of `seed + r * golden gamma`: independent per-replicate seeds.
fn mix_seed(seed: u64, r: u64) -> u64 {
    let mut z = seed.wrapping_add(r.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Linear-interpolation quantile (type 7) of a sorted non-empty slice.
fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let i = pos.floor() as usize;
    let frac = pos - i as f64;
    if i + 1 >= sorted.len() || frac == 0.0 {
        sorted[i.min(sorted.len() - 1)]
    } else {
        sorted[i] + frac * (sorted[i + 1] - sorted[i])
    }
}

/// Sample standard deviation (`+inf` with a non-finite value or fewer than two values).
fn std_dev(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return f64::INFINITY;
    }
    if values.iter().any(|v| !v.is_finite()) {
        return f64::INFINITY;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let ss: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (ss / (values.len() - 1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_complete() {
        let mut seen = Vec::new();
        for_each_permutation::<4>(|p| seen.push(*p));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn ranking_probabilities_sum_to_one() {
        let r = [0.0, 120.0, -75.0];
        let mut total = 0.0;
        for_each_permutation::<3>(|o| total += ranking_probability(&r, o));
        assert!((total - 1.0).abs() < 1e-14);
    }

    #[test]
    fn quantiles() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile_sorted(&v, 0.5), 3.0);
        assert_eq!(quantile_sorted(&v, 0.0), 1.0);
        assert_eq!(quantile_sorted(&v, 1.0), 5.0);
        assert!((quantile_sorted(&v, 0.1) - 1.4).abs() < 1e-12);
    }
}
