//! Generalized sequential probability ratio test (GSPRT) as run by fishtest and fastchess.
//!
//! The sample is a trinomial (`[L, D, W]`, one unit per game) or pentanomial
//! (`[LL, LD, WL+DD, WD, WW]`, one unit per colour-swapped pair) count vector; every zero cell
//! is replaced by `1e-3` first (regularization). With `p̂` the empirical distribution of unit
//! scores and `N` the regularized unit count, the log-likelihood ratio is
//!
//! ```text
//! LLR = N * sum_i p̂_i (ln p1_i - ln p0_i),
//! ```
//!
//! where `p0`, `p1` are the maximum-likelihood distributions on the same support constrained
//! to hypothesis H0 / H1:
//!
//! - **logistic** model (bounds in logistic Elo): the expected unit score equals
//!   `s_k = 1 / (1 + 10^(-elo_k/400))`. The constrained MLE is
//!   `p_i = p̂_i / (1 + x (a_i - s))` with `x` the root of the secular equation
//!   `sum_i p̂_i (a_i - s) / (1 + x (a_i - s)) = 0` (Van den Bergh, "Support MLE multinomial",
//!   Proposition 1.1).
//! - **normalized** model (bounds in normalized Elo): the t-value `(mu - 1/2) / sigma` of the
//!   unit score equals `t_k = nelo_k / K` (trinomial) or `sqrt(2) nelo_k / K` (pentanomial),
//!   `K = 800 / ln 10`. The MLE maximizes the profile likelihood over the mean `m` (for a
//!   fixed `m` the constraint is two linear moment conditions, solved by a 2-D convex dual);
//!   see [`mle_t_value`]. Fishtest and fastchess use Van den Bergh's fixed-point iteration
//!   ("Comments on Normalized Elo", section 4.1) instead, which gives the same distribution
//!   where it converges (the golden values of `tests/data/ratings/golden.md`) but not at
//!   wide bounds, where it returned LLRs of the wrong sign or exactly 0.
//!
//! The secular equation is solved by Newton's method safeguarded with bisection inside the
//! open bracket `(-1/max a, -1/min a)` where its left side is strictly decreasing, to full
//! double precision. Every loop is bounded, so degenerate samples (all wins, one populated
//! cell) terminate; the LLR of a sample with a single outcome grows with its size, so the
//! test always decides.
//!
//! Sources followed: fishtest `server/fishtest/stats/LLRcalc.py` (`secular`, `MLE_expected`,
//! `MLE_t_value`, `regularize`, `LLR_logistic`, `LLR_normalized`) and fastchess
//! `app/src/matchmaking/sprt/sprt.cpp` (`getLLR`, `getLLR_logistic`, `getLLR_normalized`,
//! bounds `ln(beta/(1-alpha))`, `ln((1-beta)/alpha)`).

use super::elo::{NELO_K, Pentanomial, Trinomial};

/// The value a zero cell is replaced with before the likelihood computation.
pub const REGULARIZATION: f64 = 1e-3;

/// Largest number of Newton/bisection steps for the secular equation.
const MAX_SECULAR_ITERATIONS: usize = 300;

/// How the SPRT hypotheses are expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Bounds in normalized Elo (fishtest's default): hypotheses fix the t-value
    /// `(mu - 1/2) / sigma_game`, which makes the test length independent of the draw ratio.
    Normalized,
    /// Bounds in logistic Elo: hypotheses fix the expected score `1 / (1 + 10^(-elo/400))`.
    Logistic,
}

/// The state of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// `LLR <= lower bound`: stop, accept H0 (`elo = elo0`).
    AcceptH0,
    /// `LLR >= upper bound`: stop, accept H1 (`elo = elo1`).
    AcceptH1,
    /// Between the bounds: keep playing.
    Continue,
}

/// An invalid SPRT configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtError(pub String);

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

/// A configured GSPRT: error rates, hypotheses (in the model's Elo unit) and model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Type I error rate (accepting H1 when H0 holds), in `(0, 1)`.
    pub alpha: f64,
    /// Type II error rate (accepting H0 when H1 holds), in `(0, 1)`.
    pub beta: f64,
    /// H0 Elo (logistic or normalized according to `model`).
    pub elo0: f64,
    /// H1 Elo, greater than `elo0`.
    pub elo1: f64,
    /// Logistic or normalized Elo hypotheses.
    pub model: SprtModel,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha`, `beta`.
    ///
    /// # Errors
    /// If `elo0 >= elo1`, either rate is outside `(0, 1)`, `alpha + beta >= 1`, or a value
    /// is not finite.
    pub fn new(
        alpha: f64,
        beta: f64,
        elo0: f64,
        elo1: f64,
        model: SprtModel,
    ) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(SprtError("SPRT: elo0 and elo1 must be finite".into()));
        }
        if elo0 >= elo1 {
            return Err(SprtError("SPRT: elo0 must be less than elo1".into()));
        }
        let in_open_unit = |x: f64| x > 0.0 && x < 1.0; // false for NaN
        if !in_open_unit(alpha) || !in_open_unit(beta) {
            return Err(SprtError("SPRT: alpha and beta must lie in (0, 1)".into()));
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError("SPRT: alpha + beta must be less than 1".into()));
        }
        Ok(Self {
            alpha,
            beta,
            elo0,
            elo1,
            model,
        })
    }

    /// Lower stopping bound `ln(beta / (1 - alpha))` (accept H0 at or below it).
    #[must_use]
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper stopping bound `ln((1 - beta) / alpha)` (accept H1 at or above it).
    #[must_use]
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// LLR of a trinomial sample.
    #[must_use]
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        let cells = t.cells();
        match self.model {
            SprtModel::Normalized => llr_normalized(&cells, self.elo0, self.elo1),
            SprtModel::Logistic => llr_logistic(&cells, self.elo0, self.elo1),
        }
    }

    /// LLR of a pentanomial sample.
    #[must_use]
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let cells = p.cells();
        match self.model {
            SprtModel::Normalized => llr_normalized(&cells, self.elo0, self.elo1),
            SprtModel::Logistic => llr_logistic(&cells, self.elo0, self.elo1),
        }
    }

    /// The decision for a given LLR.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// GSPRT LLR with logistic-Elo hypotheses `elo0`, `elo1` for a count vector in ascending score
/// order: `N = 3` (`[L, D, W]`) or `N = 5` (`[LL, LD, WL+DD, WD, WW]`); any `N >= 2` works,
/// with cell `i` scoring `i / (N - 1)`. Zero cells count as `1e-3`. Returns 0 for `N < 2`.
#[must_use]
pub fn llr_logistic<const N: usize>(counts: &[u64; N], elo0: f64, elo1: f64) -> f64 {
    let Some((total, phat, scores)) = prepare(counts) else {
        return 0.0;
    };
    let s0 = super::elo::elo_to_score(elo0);
    let s1 = super::elo::elo_to_score(elo1);
    let p0 = mle_expected(&phat, &scores, s0);
    let p1 = mle_expected(&phat, &scores, s1);
    llr_from(total, &phat, &p0, &p1)
}

/// GSPRT LLR with normalized-Elo hypotheses `nelo0`, `nelo1` for a count vector in ascending
/// score order (see [`llr_logistic`]). For `N = 5` (pairs) the unit t-value is
/// `sqrt(2) nelo / K`, otherwise `nelo / K`. Zero cells count as `1e-3`.
#[must_use]
pub fn llr_normalized<const N: usize>(counts: &[u64; N], nelo0: f64, nelo1: f64) -> f64 {
    let Some((total, phat, scores)) = prepare(counts) else {
        return 0.0;
    };
    let unit = if N == 5 {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let t0 = unit * nelo0 / NELO_K;
    let t1 = unit * nelo1 / NELO_K;
    let p0 = mle_t_value(&phat, &scores, 0.5, t0);
    let p1 = mle_t_value(&phat, &scores, 0.5, t1);
    llr_from(total, &phat, &p0, &p1)
}

/// The scores `i / (N - 1)` and regularized empirical distribution of `counts`.
fn prepare<const N: usize>(counts: &[u64; N]) -> Option<(f64, [f64; N], [f64; N])> {
    if N < 2 {
        return None;
    }
    let regularized = counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
    let total: f64 = regularized.iter().sum();
    let phat = regularized.map(|c| c / total);
    let mut scores = [0.0; N];
    // Exact in binary for N = 3 and N = 5 (0, 1/4, 1/2, 3/4, 1).
    for (i, s) in scores.iter_mut().enumerate() {
        *s = i as f64 / (N - 1) as f64;
    }
    Some((total, phat, scores))
}

fn llr_from<const N: usize>(total: f64, phat: &[f64; N], p0: &[f64; N], p1: &[f64; N]) -> f64 {
    total
        * phat
            .iter()
            .zip(p0.iter().zip(p1))
            .map(|(ph, (a, b))| ph * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// Root of the secular equation `f(x) = sum_i p_i a_i / (1 + x a_i) = 0` on the interval
/// `(-1 / max a, -1 / min a)` where every `1 + x a_i > 0` and `f` strictly decreases.
///
/// Requires `min a < 0 < max a` and positive weights on the extreme values; returns `None`
/// otherwise (no root). Newton steps, falling back to bisection whenever a step leaves the
/// current bracket; at most 300 steps.
#[must_use]
pub fn secular_root(p: &[f64], a: &[f64]) -> Option<f64> {
    let min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let eval = |x: f64| {
        let mut f = 0.0;
        let mut df = 0.0;
        for (pi, ai) in p.iter().zip(a) {
            let d = 1.0 / (1.0 + x * ai);
            f += pi * ai * d;
            df -= pi * ai * ai * d * d;
        }
        (f, df)
    };
    // f(lo) > 0 near the left pole, f(hi) < 0 near the right pole.
    let mut lo = -1.0 / max;
    let mut hi = -1.0 / min;
    let mut x = 0.0;
    for _ in 0..MAX_SECULAR_ITERATIONS {
        let (f, df) = eval(x);
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = if df < 0.0 { x - f / df } else { f64::NAN };
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs().max(f64::MIN_POSITIVE) || next == x {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// Maximum-likelihood distribution on the scores `a` with expectation `s`, given the empirical
/// distribution `phat` (all cells positive): `p_i = phat_i / (1 + x (a_i - s))`
/// with `x` the secular root for `a - s`. Returns `phat` if `s` is outside `(min a, max a)`.
#[must_use]
pub fn mle_expected<const N: usize>(phat: &[f64; N], a: &[f64; N], s: f64) -> [f64; N] {
    let shifted = a.map(|ai| ai - s);
    match secular_root(phat, &shifted) {
        Some(x) => {
            let mut p = [0.0; N];
            for i in 0..N {
                p[i] = phat[i] / (1.0 + x * shifted[i]);
            }
            p
        }
        None => *phat,
    }
}

/// Maximum-likelihood distribution on the scores `a` (ascending, at least three distinct
/// values: the trinomial and pentanomial layouts) with t-value `(mu - reference) / sigma`
/// equal to `t`, given the empirical distribution `phat` (all cells positive).
///
/// The constraint set is swept by its mean `m`: for a fixed `m` the t-value fixes
/// `sigma = (m - reference) / t`, so the constraint becomes two linear moment conditions
/// (`E[a] = m`, `E[a^2] = m^2 + sigma^2`) whose constrained MLE is the empirical-likelihood
/// dual `p_i = phat_i / (1 + l . g_i)`, `l` maximizing the concave `sum phat_i ln(1 + l . g_i)`
/// (damped 2-D Newton). The profile log-likelihood of `m` falls to `-inf` at the edges of the
/// moment space, which for a large `|t|` is a union of narrow intervals around the support
/// points; so `m` is first scanned on a grid that is uniform and also geometrically dense
/// around every support point, then refined by golden-section search around the best grid
/// point. Unlike the fixed-point iteration of Van den Bergh's "Comments on Normalized Elo"
/// (fishtest's `MLE_t_value`), which agrees with this wherever it converges, this finds the
/// maximum at any `t`: the fixed point oscillates or stalls at wide bounds (9 wins
/// in 9 games at `[0, 300]` gave LLR -3.64, the likelihood maximum +2.86).
///
/// `t = 0` is the single linear condition `mu = reference` ([`mle_expected`]). Returns `phat`
/// when no distribution on the support meets the condition.
#[must_use]
pub fn mle_t_value<const N: usize>(
    phat: &[f64; N],
    a: &[f64; N],
    reference: f64,
    t: f64,
) -> [f64; N] {
    if t == 0.0 || !t.is_finite() || N < 3 {
        return if t == 0.0 {
            mle_expected(phat, a, reference)
        } else {
            *phat
        };
    }
    let (lo, hi) = if t > 0.0 {
        (reference.max(a[0]), a[N - 1])
    } else {
        (a[0], reference.min(a[N - 1]))
    };
    if lo >= hi {
        return *phat;
    }
    let value = |m: f64| profile(phat, a, reference, t, m).map_or(f64::NEG_INFINITY, |(v, _)| v);
    // Scan: uniform points plus points geometrically close to each support value.
    let mut grid: Vec<f64> = (1..SCAN_UNIFORM)
        .map(|i| lo + (hi - lo) * i as f64 / SCAN_UNIFORM as f64)
        .collect();
    for k in 0..N {
        let width = if k + 1 < N {
            a[k + 1] - a[k]
        } else {
            a[k] - a[k - 1]
        };
        for j in 0..SCAN_GEOMETRIC {
            let d = width * 0.5f64.powf(0.5 * j as f64 + 1.0);
            grid.push(a[k] - d);
            grid.push(a[k] + d);
        }
    }
    // The likelihood peaks next to an edge of the moment space when a cell is nearly
    // empty: approach every edge (where the variance meets the upper chord or a lower hull
    // segment) geometrically from both sides.
    let mut chords = vec![(a[0], a[N - 1])];
    chords.extend((0..N - 1).map(|k| (a[k], a[k + 1])));
    let inv_t2 = 1.0 / (t * t);
    for (c1, c2) in chords {
        // ((m - r) / t)^2 = (m - c1) (c2 - m)
        let qa = inv_t2 + 1.0;
        let qb = -(2.0 * reference * inv_t2 + c1 + c2);
        let qc = reference * reference * inv_t2 + c1 * c2;
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            continue;
        }
        for root in [
            (-qb - disc.sqrt()) / (2.0 * qa),
            (-qb + disc.sqrt()) / (2.0 * qa),
        ] {
            for j in 0..SCAN_GEOMETRIC {
                let d = (hi - lo) * 0.5f64.powf(0.5 * j as f64 + 1.0);
                grid.push(root - d);
                grid.push(root + d);
            }
        }
    }
    grid.retain(|&m| m > lo && m < hi);
    grid.sort_by(f64::total_cmp);
    grid.dedup();
    let values: Vec<f64> = grid.iter().map(|&m| value(m)).collect();
    let Some(best) = (0..grid.len())
        .filter(|&i| values[i] > f64::NEG_INFINITY)
        .max_by(|&i, &j| values[i].total_cmp(&values[j]))
    else {
        return *phat;
    };
    // Golden-section refinement between the best grid point's neighbours.
    let mut x0 = if best > 0 { grid[best - 1] } else { lo };
    let mut x3 = if best + 1 < grid.len() {
        grid[best + 1]
    } else {
        hi
    };
    const INV_PHI: f64 = 0.618_033_988_749_894_9;
    let mut x1 = x3 - INV_PHI * (x3 - x0);
    let mut x2 = x0 + INV_PHI * (x3 - x0);
    let (mut f1, mut f2) = (value(x1), value(x2));
    for _ in 0..MAX_GOLDEN_ITERATIONS {
        if x3 - x0 <= 1e-15 * x3.abs().max(1e-300) {
            break;
        }
        if f1 >= f2 {
            x3 = x2;
            x2 = x1;
            f2 = f1;
            x1 = x3 - INV_PHI * (x3 - x0);
            f1 = value(x1);
        } else {
            x0 = x1;
            x1 = x2;
            f1 = f2;
            x2 = x0 + INV_PHI * (x3 - x0);
            f2 = value(x2);
        }
    }
    let candidates = [(grid[best], values[best]), (x1, f1), (x2, f2)];
    let m = candidates
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(grid[best], |c| c.0);
    profile(phat, a, reference, t, m).map_or(*phat, |(_, p)| p)
}

/// Uniform scan points of [`mle_t_value`] over the admissible means.
const SCAN_UNIFORM: usize = 400;
/// Geometric scan points on each side of every support value (halving every two points, down
/// to about `2^-60` of the gap to the neighbouring value).
const SCAN_GEOMETRIC: usize = 120;
/// Largest number of golden-section steps (the bracket shrinks by 0.618 per step).
const MAX_GOLDEN_ITERATIONS: usize = 200;
/// Largest violation of the moment conditions accepted from the dual solution.
const PROFILE_TOLERANCE: f64 = 1e-9;
/// Largest number of damped Newton steps of the two-constraint dual.
const MAX_NEWTON_ITERATIONS: usize = 100;

/// The largest log-likelihood `sum phat_i ln p_i` over distributions on `a` with mean `m` and
/// t-value `t`, and its maximizer; `None` when `m` admits no such distribution with every
/// cell positive (outside the moment space).
fn profile<const N: usize>(
    phat: &[f64; N],
    a: &[f64; N],
    reference: f64,
    t: f64,
    m: f64,
) -> Option<(f64, [f64; N])> {
    let sigma = (m - reference) / t;
    if sigma.is_nan() || sigma <= 0.0 {
        return None;
    }
    let var = sigma * sigma;
    // Interior of the moment space of (E a, E a^2): the variance lies strictly between the
    // lower hull (two neighbouring support points) and the upper chord (the extremes).
    let k = (0..N - 1).find(|&k| m <= a[k + 1]).unwrap_or(N - 2);
    let lower = (m - a[k]) * (a[k + 1] - m);
    let upper = (m - a[0]) * (a[N - 1] - m);
    if !(var > lower && var < upper) {
        return None;
    }
    let q = m * m + var;
    let g: [[f64; 2]; N] = std::array::from_fn(|i| [a[i] - m, a[i] * a[i] - q]);
    let objective = |l: [f64; 2]| -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            let d = 1.0 + l[0] * g[i][0] + l[1] * g[i][1];
            if d <= 0.0 {
                return f64::NEG_INFINITY;
            }
            s += phat[i] * d.ln();
        }
        s
    };
    let mut l = [0.0f64; 2];
    let mut f = 0.0;
    for _ in 0..MAX_NEWTON_ITERATIONS {
        let mut grad = [0.0; 2];
        let mut h = [0.0; 3]; // -Hessian: [xx, xy, yy]
        for i in 0..N {
            let d = 1.0 / (1.0 + l[0] * g[i][0] + l[1] * g[i][1]);
            let (u, v) = (g[i][0] * d, g[i][1] * d);
            grad[0] += phat[i] * u;
            grad[1] += phat[i] * v;
            h[0] += phat[i] * u * u;
            h[1] += phat[i] * u * v;
            h[2] += phat[i] * v * v;
        }
        let det = h[0] * h[2] - h[1] * h[1];
        if det.is_nan() || det <= 0.0 {
            break;
        }
        let step = [
            (h[2] * grad[0] - h[1] * grad[1]) / det,
            (h[0] * grad[1] - h[1] * grad[0]) / det,
        ];
        // Newton decrement: the expected gain of the full step.
        let gain = grad[0] * step[0] + grad[1] * step[1];
        if gain <= 1e-30 {
            break;
        }
        let mut scale = 1.0;
        let mut moved = false;
        if gain < 1e-12 {
            // Quadratic phase: the gain is below the objective's rounding, so the line
            // search cannot judge it; take the full step if it stays in the domain.
            let next = [l[0] + step[0], l[1] + step[1]];
            let fnext = objective(next);
            if fnext > f64::NEG_INFINITY {
                l = next;
                f = fnext;
                if gain < 1e-30 {
                    break;
                }
                continue;
            }
        }
        for _ in 0..60 {
            let next = [l[0] + scale * step[0], l[1] + scale * step[1]];
            let fnext = objective(next);
            if fnext >= f + 0.25 * scale * gain {
                l = next;
                f = fnext;
                moved = true;
                break;
            }
            scale *= 0.5;
        }
        if !moved {
            break;
        }
    }
    let mut p = [0.0; N];
    for i in 0..N {
        p[i] = phat[i] / (1.0 + l[0] * g[i][0] + l[1] * g[i][1]);
    }
    // At the optimum the dual's p sums to 1 up to the rounding of `1 + l . g` near zero
    // (about 1e-10 here); renormalized, it must meet the moment conditions. An unconverged
    // dual (at the very edge of the moment space) is no feasible point: its "likelihood"
    // could exceed the true maximum.
    let total: f64 = p.iter().sum();
    let mut loglik = 0.0;
    let mut residual = [total - 1.0, 0.0, 0.0];
    for i in 0..N {
        p[i] /= total;
        loglik += phat[i] * p[i].ln();
        residual[1] += p[i] * g[i][0];
        residual[2] += p[i] * g[i][1];
    }
    let feasible =
        residual[0].abs() < 1e-6 && residual[1..].iter().all(|r| r.abs() < PROFILE_TOLERANCE);
    (loglik.is_finite() && feasible).then_some((loglik, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::elo::{PENTANOMIAL_SCORES, TRINOMIAL_SCORES};

    #[test]
    fn secular_root_solves() {
        let p = [0.2, 0.5, 0.3];
        let a = [-0.5, 0.1, 0.6];
        let x = secular_root(&p, &a).unwrap();
        let f: f64 = p.iter().zip(&a).map(|(p, a)| p * a / (1.0 + x * a)).sum();
        assert!(f.abs() < 1e-14);
        assert!(secular_root(&p, &[0.1, 0.2, 0.3]).is_none());
    }

    #[test]
    fn mle_expected_hits_the_target() {
        let phat = [0.2, 0.5, 0.3];
        let p = mle_expected(&phat, &TRINOMIAL_SCORES, 0.51);
        let s: f64 = p.iter().zip(&TRINOMIAL_SCORES).map(|(p, a)| p * a).sum();
        assert!((s - 0.51).abs() < 1e-14);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    }

    #[test]
    fn mle_t_value_hits_the_target() {
        let phat = [0.1, 0.2, 0.35, 0.2, 0.15];
        let p = mle_t_value(&phat, &PENTANOMIAL_SCORES, 0.5, 0.03);
        let mu: f64 = p.iter().zip(&PENTANOMIAL_SCORES).map(|(p, a)| p * a).sum();
        let var: f64 = p
            .iter()
            .zip(&PENTANOMIAL_SCORES)
            .map(|(p, a)| p * (a - mu) * (a - mu))
            .sum();
        assert!(((mu - 0.5) / var.sqrt() - 0.03).abs() < 1e-10);
    }
}
