//! SPSA (simultaneous perturbation stochastic approximation, Spall 1998) for parameters a
//! fit cannot reach, with the fishtest / OpenBench schedule:
//!
//! - perturbation size at iteration k (0-based): `c_k = c / (k + 1)^gamma`, gamma = 0.101;
//! - step size: `a_k = a / (k + 1 + A)^alpha`, alpha = 0.602, `A` about 10 % of the
//!   iterations;
//! - each iteration draws a random sign `delta_i` per parameter, evaluates the objective at
//!   `theta + c_k delta` and `theta - c_k delta` (for engines: a colour-swapped game pair
//!   between the two, the result `r` in [-1, 1] from the plus side's view), and moves
//!   `theta_i += a_k * r / (2 c_k delta_i)` (maximising), clamped to the parameter's range;
//! - integer parameters are evaluated at probabilistically rounded values (`x` becomes
//!   `floor(x) + 1` with probability `frac(x)`), so small steps still move them on average.
//!
//! Per-parameter `c` is the registry's step ([`super::Param::step`]); `a` is given as the
//! fishtest `r_end`-style ratio: `a = r * c^2` per parameter.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use std::collections::HashMap;

use super::Param;
use crate::engine::Player;
use crate::game::{Game, Seat};
use crate::search::Limits;
use crate::tournament::openings::derive_seed;
use crate::tournament::record::GameRecord;

/// Schedule constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Learning-rate ratio: `a_i = r * c_i^2` for parameter i.
    pub r: f64,
    /// Stability constant `A` (about 10 % of the planned iterations).
    pub big_a: f64,
    /// Step-size decay exponent (0.602).
    pub alpha: f64,
    /// Perturbation decay exponent (0.101).
    pub gamma: f64,
}

impl Schedule {
    /// The fishtest defaults for `iterations` planned iterations and ratio `r`.
    #[must_use]
    pub fn fishtest(iterations: usize, r: f64) -> Self {
        Self {
            r,
            big_a: iterations as f64 * 0.1,
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    /// `c_k` for a parameter whose base perturbation is `c`.
    #[must_use]
    pub fn c_k(&self, c: f64, k: usize) -> f64 {
        c / ((k + 1) as f64).powf(self.gamma)
    }

    /// `a_k` for a parameter whose base perturbation is `c`.
    #[must_use]
    pub fn a_k(&self, c: f64, k: usize) -> f64 {
        self.r * c * c / ((k + 1) as f64 + self.big_a).powf(self.alpha)
    }
}

/// `x` rounded down or up at random, up with probability `frac(x)`.
#[must_use]
pub fn probabilistic_round(x: f64, rng: &mut StdRng) -> i32 {
    let f = x.floor();
    let up = rng.random::<f64>() < x - f;
    f as i32 + i32::from(up)
}

/// One SPSA iteration's perturbed integer parameter sets (`plus`, `minus`) and signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Values to play the `+` side with.
    pub plus: Vec<i32>,
    /// Values to play the `-` side with.
    pub minus: Vec<i32>,
    /// The sign drawn per parameter (+1 or -1).
    pub delta: Vec<f64>,
}

/// SPSA state: the current (real) parameter values and the iterations done.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// Current values.
    pub theta: Vec<f64>,
    /// Iterations completed.
    pub k: usize,
    /// Master seed: iteration k draws from `derive_seed(seed, k)`.
    pub seed: u64,
}

impl Spsa {
    /// Starts at `values`.
    #[must_use]
    pub fn new(values: &[i32], seed: u64) -> Self {
        Self {
            theta: values.iter().map(|&v| f64::from(v)).collect(),
            k: 0,
            seed,
        }
    }

    /// The perturbed parameter sets of the current iteration (deterministic in
    /// (seed, k)); values are clamped to the registry ranges and rounded at random.
    #[must_use]
    pub fn perturb(&self, registry: &[Param], sched: &Schedule) -> Perturbation {
        let mut rng = StdRng::seed_from_u64(derive_seed(self.seed, self.k as u64));
        let mut p = Perturbation {
            plus: Vec::new(),
            minus: Vec::new(),
            delta: Vec::new(),
        };
        for (t, prm) in self.theta.iter().zip(registry) {
            let d = if rng.random::<bool>() { 1.0 } else { -1.0 };
            let ck = sched.c_k(f64::from(prm.step), self.k);
            let (lo, hi) = (f64::from(prm.min), f64::from(prm.max));
            p.plus
                .push(probabilistic_round((t + ck * d).clamp(lo, hi), &mut rng));
            p.minus
                .push(probabilistic_round((t - ck * d).clamp(lo, hi), &mut rng));
            p.delta.push(d);
        }
        p
    }

    /// Applies the result `r` in [-1, 1] of `plus` against `minus` (positive: `plus` was
    /// better) and advances to the next iteration.
    pub fn update(&mut self, registry: &[Param], sched: &Schedule, p: &Perturbation, r: f64) {
        for (i, prm) in registry.iter().enumerate() {
            let c = f64::from(prm.step);
            let ck = sched.c_k(c, self.k);
            let ak = sched.a_k(c, self.k);
            self.theta[i] = (self.theta[i] + ak * r / (2.0 * ck * p.delta[i]))
                .clamp(f64::from(prm.min), f64::from(prm.max));
        }
        self.k += 1;
    }

    /// The current values rounded to the nearest integers.
    #[must_use]
    pub fn values(&self) -> Vec<i32> {
        self.theta.iter().map(|t| t.round() as i32).collect()
    }
}

/// SPSA registry of the MCTS engines (every game): the UCT exploration constant in
/// hundredths (`c = mcts_c_centi / 100`; the engines' default is 1.0).
pub const MCTS_PARAMS: &[crate::tuning::Param] = &[crate::tuning::Param {
    name: "mcts_c_centi",
    default: 100,
    min: 5,
    max: 400,
    step: 15,
}];

/// Plays `plus` against `minus` from `start` in every seating and returns the mean points
/// of `plus` minus the mean points of `minus`, in [-1, 1] (points from places as in
/// tournaments: first 1, last 0, shared places split). Two seats: both colours (a
/// colour-swapped pair). Three seats: the six orders of `plus`, `minus` and `third` (an
/// engine at the current values), so neither side always moves right after the other.
/// Games that repeat a position three times ([`Game::REPETITION_DRAWS`]) or reach
/// `max_plies` plies count as draws. `limits[i]` are the limits of plus (0), minus (1) and
/// third (2); SPSA gives all three the same.
///
/// # Errors
/// An engine that fails or gives no move; a game of more than three seats, or of three
/// without `third`.
pub fn play_match<'a, G: Game>(
    plus: &'a mut dyn Player<G>,
    minus: &'a mut dyn Player<G>,
    third: Option<&'a mut dyn Player<G>>,
    limits: [&Limits; 3],
    start: &G,
    max_plies: usize,
) -> Result<f64, String> {
    let n = start.seats();
    let seatings: &[[usize; 3]] = match (n, third.is_some()) {
        (2, _) => &[[0, 1, 2], [1, 0, 2]],
        (3, true) => &[
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ],
        (3, false) => return Err("a three-seat SPSA match needs a third engine".into()),
        _ => return Err(format!("SPSA matches take two or three seats, not {n}")),
    };
    let mut players: Vec<&'a mut dyn Player<G>> = vec![plus, minus];
    players.extend(third);
    let mut total = 0.0;
    for seating in seatings {
        // seating[s]: the player (0 plus, 1 minus, 2 third) at seat s.
        for p in &mut players {
            p.new_game();
        }
        let mut pos = start.clone();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut plies = 0;
        let points = loop {
            if let Some(o) = pos.outcome() {
                let ranks: Vec<usize> = (0..n).map(|s| o.rank(Seat(s as u8))).collect();
                break GameRecord::points_from_ranks(&ranks);
            }
            let repeated = G::REPETITION_DRAWS && {
                let c = seen.entry(pos.key()).or_default();
                *c += 1;
                *c >= 3
            };
            if repeated || plies >= max_plies {
                break vec![0.5; n];
            }
            let who = seating[pos.to_move().index()];
            let t = players[who].choose(&pos, limits[who])?;
            let mv = t
                .best_move
                .ok_or_else(|| format!("engine gave no move in {pos}"))?;
            pos = pos.play(mv);
            plies += 1;
        };
        let seat_of = |who: usize| seating[..n].iter().position(|&w| w == who).expect("seated");
        total += points[seat_of(0)] - points[seat_of(1)];
    }
    Ok(total / seatings.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_follows_the_fishtest_formulas() {
        let s = Schedule::fishtest(1000, 0.002);
        assert_eq!(s.big_a, 100.0);
        assert!((s.c_k(10.0, 0) - 10.0).abs() < 1e-12);
        assert!((s.c_k(10.0, 99) - 10.0 / 100f64.powf(0.101)).abs() < 1e-12);
        assert!((s.a_k(10.0, 0) - 0.2 / 101f64.powf(0.602)).abs() < 1e-12);
    }

    #[test]
    fn probabilistic_rounding_is_unbiased() {
        let mut rng = StdRng::seed_from_u64(3);
        let n = 100_000;
        let sum: i64 = (0..n)
            .map(|_| i64::from(probabilistic_round(2.3, &mut rng)))
            .sum();
        let mean = sum as f64 / f64::from(n);
        assert!((mean - 2.3).abs() < 0.01, "{mean}");
        assert_eq!(probabilistic_round(-1.0, &mut rng), -1);
    }

    /// On a noisy match whose expected result favours the side closer to a known optimum,
    /// SPSA walks the parameters there.
    #[test]
    fn spsa_finds_the_optimum_of_a_noisy_match() {
        let reg = [
            Param {
                name: "x",
                default: 0,
                min: -100,
                max: 100,
                step: 8,
            },
            Param {
                name: "y",
                default: 0,
                min: -100,
                max: 100,
                step: 8,
            },
        ];
        let target = [40.0, -25.0];
        let strength = |v: &[i32]| -> f64 {
            -v.iter()
                .zip(target)
                .map(|(&a, t)| (f64::from(a) - t).powi(2))
                .sum::<f64>()
                / 400.0
        };
        let iters = 3000;
        let sched = Schedule::fishtest(iters, 1.0);
        let mut spsa = Spsa::new(&[0, 0], 11);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..iters {
            let p = spsa.perturb(&reg, &sched);
            // A game pair: the expected score follows the logistic of the strength gap.
            let gap = strength(&p.plus) - strength(&p.minus);
            let e = 1.0 / (1.0 + (-gap).exp());
            let wins = (0..2).filter(|_| rng.random::<f64>() < e).count() as f64;
            spsa.update(&reg, &sched, &p, wins - 1.0);
        }
        let v = spsa.values();
        assert!((v[0] - 40).abs() <= 8 && (v[1] + 25).abs() <= 8, "{v:?}");
        // Deterministic in (seed, k).
        let a = Spsa::new(&[0, 0], 11).perturb(&reg, &sched);
        assert_eq!(a, Spsa::new(&[0, 0], 11).perturb(&reg, &sched));
    }
}
