//! Match statistics for one engine against another: score, Elo difference with its error
//! bar, normalized Elo, likelihood of superiority (LOS) and draw ratio, from either
//! trinomial (per game) or pentanomial (per colour-swapped game pair) counts.
//!
//! Definitions (as in fastchess, cutechess and fishtest; see `tests/data/ratings/golden.md`):
//!
//! - A *unit* is one game (trinomial, scores 0, 1/2, 1) or one pair of games on the same
//!   opening with colours swapped (pentanomial, pair scores 0, 1/4, 1/2, 3/4, 1 for
//!   LL, LD, WL or DD, WD, WW).
//! - `mu` is the mean unit score, `sigma^2` the (population, divide-by-N) variance of the
//!   unit scores, `SE = sqrt(sigma^2 / N_units)`.
//! - `Elo = Elo(mu)` with the logistic map `Elo(s) = -400 log10(1/s - 1)`; its error bar is
//!   `(Elo(mu + z SE) - Elo(mu - z SE)) / 2` (asymmetric interval, symmetric half-width).
//! - `nElo = (mu - 1/2) / sigma_game * K` with `K = 800 / ln 10` and `sigma_game = sigma`
//!   (trinomial) or `sqrt(2) sigma_pair` (pentanomial); its error bar is `z SE / sigma_game K`.
//! - `LOS = Phi((mu - 1/2) / SE)`.
//!
//! Degenerate samples never produce NaN or panic: zero games give Elo 0 with infinite error
//! bars and LOS 1/2; a perfect score gives `Elo = +inf` (`-inf` for a zero score), reported
//! as IEEE infinities; zero variance gives a zero-width interval around the point estimate.
//!
//! Sources: Michel Van den Bergh, "Comments on Normalized Elo" (normalized Elo and the
//! pentanomial model); fastchess `elo_wdl.cpp` / `elo_pentanomial.cpp`; fishtest
//! `stat_util.py`.

use std::f64::consts::LN_10;

/// The two-sided 95 % standard-normal quantile, `Phi^-1(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized-Elo constant `K = 800 / ln 10 ~ 347.4356`: nElo per unit of `t = (mu - 1/2) / sigma`.
pub const NELO_K: f64 = 800.0 / LN_10;

/// Logistic Elo of an expected score `s` in `[0, 1]`: `-400 log10(1/s - 1)`.
///
/// Returns `+inf` at `s = 1` and `-inf` at `s = 0`; `s` outside `[0, 1]` is clamped first,
/// and NaN maps to 0.
#[must_use]
pub fn score_to_elo(s: f64) -> f64 {
    if s.is_nan() {
        return 0.0;
    }
    let s = s.clamp(0.0, 1.0);
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    // `+ 0.0` turns the -0.0 of an even score into +0.0 (and changes no other value).
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// Expected score of a player `elo` logistic-Elo points stronger: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Standard-normal cumulative distribution `Phi(x) = erfc(-x / sqrt 2) / 2`
/// (`Phi(+inf) = 1`, `Phi(-inf) = 0`; NaN maps to 1/2).
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return 0.5;
    }
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Standard-normal quantile `Phi^-1(p)` for `p` in `(0, 1)` (Acklam's rational approximation
/// refined by one Halley step on [`normal_cdf`]; accurate to ~1e-15). `p <= 0` gives `-inf`,
/// `p >= 1` gives `+inf`, NaN gives 0.
#[must_use]
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return 0.0;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.02425;
    let x = if p < P_LOW {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - P_LOW {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    // One Halley refinement step.
    let e = normal_cdf(x) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The result of one game from the tested engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// Win (score 1).
    Win,
    /// Draw (score 1/2).
    Draw,
    /// Loss (score 0).
    Loss,
}

impl Wdl {
    /// The game score: 1, 1/2 or 0.
    #[must_use]
    pub fn score(self) -> f64 {
        match self {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        }
    }
}

/// Trinomial counts: wins, draws and losses of the tested engine, one unit per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Counts from wins, draws and losses (in that order).
    #[must_use]
    pub fn wdl(wins: u64, draws: u64, losses: u64) -> Self {
        Self {
            wins,
            draws,
            losses,
        }
    }

    /// Records one game.
    pub fn add(&mut self, result: Wdl) {
        match result {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Cell counts in ascending score order `[L, D, W]` (scores `[0, 1/2, 1]`),
    /// the layout [`crate::tournament::stats::sprt`] works on.
    #[must_use]
    pub fn cells(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Fraction of games drawn (0 when no game was played).
    #[must_use]
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.draws, self.games())
    }

    /// Score statistics and Elo with 95 % error bars.
    #[must_use]
    pub fn report(&self) -> EloReport {
        self.report_with_z(Z95)
    }

    /// As [`Trinomial::report`] with a chosen two-sided normal quantile `z`
    /// (e.g. [`normal_quantile`]`(0.975)` for 95 %).
    #[must_use]
    pub fn report_with_z(&self, z: f64) -> EloReport {
        let cells = self.cells().map(|c| c as f64);
        let m = Moments::of(&TRINOMIAL_SCORES, &cells);
        EloReport::build(m, 1.0, self.games(), self.draw_ratio(), z)
    }
}

/// Pentanomial counts over colour-swapped game pairs (both games on the same opening), from
/// the tested engine's point of view. `wl` counts pairs with one win and one loss in either
/// order, `ld` one loss and one draw, `wd` one win and one draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Two losses (pair score 0).
    pub ll: u64,
    /// A loss and a draw (pair score 1/4).
    pub ld: u64,
    /// A win and a loss (pair score 1/2).
    pub wl: u64,
    /// Two draws (pair score 1/2).
    pub dd: u64,
    /// A win and a draw (pair score 3/4).
    pub wd: u64,
    /// Two wins (pair score 1).
    pub ww: u64,
}

impl Pentanomial {
    /// Counts in the order LL, LD, WL, DD, WD, WW.
    #[must_use]
    pub fn new(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Self {
        Self {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    /// Counts from the five score cells `[LL, LD, WL+DD, WD, WW]` (the WL+DD cell is stored as
    /// `wl`, so [`Pentanomial::draw_ratio`] counts it as decisive).
    #[must_use]
    pub fn from_cells(cells: [u64; 5]) -> Self {
        Self::new(cells[0], cells[1], cells[2], 0, cells[3], cells[4])
    }

    /// Records one colour-swapped pair.
    pub fn add_pair(&mut self, first: Wdl, second: Wdl) {
        use Wdl::{Draw, Loss, Win};
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// Number of pairs.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Number of games (twice the pairs).
    #[must_use]
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Cell counts in ascending pair-score order `[LL, LD, WL+DD, WD, WW]`
    /// (scores `[0, 1/4, 1/2, 3/4, 1]`).
    #[must_use]
    pub fn cells(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The same games counted one by one.
    #[must_use]
    pub fn to_trinomial(&self) -> Trinomial {
        Trinomial {
            wins: 2 * self.ww + self.wd + self.wl,
            draws: self.ld + 2 * self.dd + self.wd,
            losses: 2 * self.ll + self.ld + self.wl,
        }
    }

    /// Fraction of *games* drawn, `(LD + 2 DD + WD) / (2 pairs)` (0 when no pair was played).
    #[must_use]
    pub fn draw_ratio(&self) -> f64 {
        self.to_trinomial().draw_ratio()
    }

    /// Score statistics and Elo with 95 % error bars (pentanomial model).
    #[must_use]
    pub fn report(&self) -> EloReport {
        self.report_with_z(Z95)
    }

    /// As [`Pentanomial::report`] with a chosen two-sided normal quantile `z`.
    #[must_use]
    pub fn report_with_z(&self, z: f64) -> EloReport {
        let cells = self.cells().map(|c| c as f64);
        let m = Moments::of(&PENTANOMIAL_SCORES, &cells);
        EloReport::build(
            m,
            std::f64::consts::SQRT_2,
            self.games(),
            self.draw_ratio(),
            z,
        )
    }
}

/// Unit scores of the trinomial cells `[L, D, W]`.
pub const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
/// Unit scores of the pentanomial cells `[LL, LD, WL+DD, WD, WW]`.
pub const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Count, mean and population variance of a discrete score sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Number of units (sum of the cell counts; may be fractional for regularized samples).
    pub units: f64,
    /// Mean unit score (1/2 when there are no units).
    pub mean: f64,
    /// Population variance of the unit scores (`sum n_i (a_i - mean)^2 / N`; 0 without units).
    pub variance: f64,
}

impl Moments {
    /// Moments of a sample with `counts[i]` units scoring `scores[i]`.
    #[must_use]
    pub fn of(scores: &[f64], counts: &[f64]) -> Self {
        let units: f64 = counts.iter().sum();
        if units <= 0.0 {
            return Self {
                units: 0.0,
                mean: 0.5,
                variance: 0.0,
            };
        }
        let mean = scores.iter().zip(counts).map(|(a, n)| a * n).sum::<f64>() / units;
        let variance = scores
            .iter()
            .zip(counts)
            .map(|(a, n)| n * (a - mean) * (a - mean))
            .sum::<f64>()
            / units;
        Self {
            units,
            mean,
            variance: variance.max(0.0),
        }
    }
}

/// Elo summary of a match (all Elo values in logistic Elo points, scores in `[0, 1]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloReport {
    /// Games played.
    pub games: u64,
    /// Statistical units (games for trinomial, pairs for pentanomial).
    pub units: f64,
    /// Mean score per game, `mu`.
    pub score: f64,
    /// Population variance of the unit score, `sigma^2` (per game or per pair).
    pub variance: f64,
    /// Standard error of `mu`, `sqrt(sigma^2 / N_units)` (`+inf` without units).
    pub std_error: f64,
    /// The normal quantile the error bars use (1.96 for 95 %).
    pub z: f64,
    /// Logistic Elo difference `Elo(mu)`; `+-inf` for a perfect or zero score.
    pub elo: f64,
    /// Elo error bar `(Elo(mu + z SE) - Elo(mu - z SE)) / 2`
    /// (0 when the interval has zero width, e.g. an infinite Elo).
    pub elo_error: f64,
    /// The asymmetric interval `(Elo(mu - z SE), Elo(mu + z SE))`, scores clamped to `[0, 1]`.
    pub elo_interval: (f64, f64),
    /// Normalized Elo `(mu - 1/2) / sigma_game * K`; 0 for an even score with no variance,
    /// `+-inf` for an uneven score with no variance.
    pub nelo: f64,
    /// Normalized-Elo error bar `z SE / sigma_game * K` (0 with no variance, `+inf` without units).
    pub nelo_error: f64,
    /// Likelihood of superiority `Phi((mu - 1/2) / SE)`, in `[0, 1]`.
    pub los: f64,
    /// Fraction of games drawn.
    pub draw_ratio: f64,
}

impl EloReport {
    /// Whether the sample shows a spread: two units or more (colour-swapped pairs, or games
    /// without pairs) and a variance above 0. Without one, an error bar, a normalized Elo
    /// or a LOS would be computed from a variance of 0 and claim certainty ("± 0", LOS
    /// 50 %).
    #[must_use]
    pub fn has_spread(&self) -> bool {
        self.units >= 2.0 && self.variance > 0.0
    }

    /// Why an error bar, normalized Elo or LOS is left out of a report of this sample, or
    /// `None` when all are there. The numbers are absent rather than printed as `0` or
    /// `inf`:
    /// - no units: nothing to estimate;
    /// - an infinite Elo (every unit won or every unit lost) has no finite error bar;
    /// - fewer than two units have no variance to estimate, so no error bar and no LOS;
    /// - units that all had the same result (e.g. every pair drawn) have a variance of 0:
    ///   the spread is unknown, not zero;
    /// - a finite Elo whose 95 % interval reaches a 0 % or 100 % score has an unbounded bar.
    #[must_use]
    pub fn absent_reason(&self) -> Option<String> {
        if self.units <= 0.0 {
            Some("no games: no Elo, error bar or LOS".into())
        } else if !self.elo.is_finite() {
            Some(format!(
                "no error bar: the Elo is infinite (a {} score)",
                if self.elo > 0.0 { "100 %" } else { "0 %" }
            ))
        } else if self.units < 2.0 {
            Some(
                "no error bar, normalized Elo or LOS: one unit (a pair, or a game) has no \
                 variance to estimate"
                    .into(),
            )
        } else if self.variance <= 0.0 {
            Some(
                "no error bar, normalized Elo or LOS: every unit had the same result (no \
                 variance), so the spread is unknown, not zero"
                    .into(),
            )
        } else if !self.elo_error.is_finite() {
            Some(
                "no error bar: the 95 % interval of the score reaches 0 % or 100 % (an \
                 infinite Elo)"
                    .into(),
            )
        } else {
            None
        }
    }

    /// `sigma_game = sigma_scale * sigma_unit` (1 for games, sqrt 2 for pairs).
    fn build(m: Moments, sigma_scale: f64, games: u64, draw_ratio: f64, z: f64) -> Self {
        let sigma = m.variance.sqrt();
        if m.units <= 0.0 {
            return Self {
                games,
                units: 0.0,
                score: 0.5,
                variance: 0.0,
                std_error: f64::INFINITY,
                z,
                elo: 0.0,
                elo_error: f64::INFINITY,
                elo_interval: (f64::NEG_INFINITY, f64::INFINITY),
                nelo: 0.0,
                nelo_error: f64::INFINITY,
                los: 0.5,
                draw_ratio,
            };
        }
        let se = (m.variance / m.units).sqrt();
        let elo = score_to_elo(m.mean);
        let lo = score_to_elo(m.mean - z * se);
        let hi = score_to_elo(m.mean + z * se);
        let elo_error = if lo == hi { 0.0 } else { (hi - lo) / 2.0 };
        let excess = m.mean - 0.5;
        let sigma_game = sigma_scale * sigma;
        let (nelo, nelo_error) = if sigma_game > 0.0 {
            (excess / sigma_game * NELO_K, z * se / sigma_game * NELO_K)
        } else {
            (signed_infinity_or_zero(excess), 0.0)
        };
        let los = if se > 0.0 {
            normal_cdf(excess / se)
        } else if excess > 0.0 {
            1.0
        } else if excess < 0.0 {
            0.0
        } else {
            0.5
        };
        Self {
            games,
            units: m.units,
            score: m.mean,
            variance: m.variance,
            std_error: se,
            z,
            elo,
            elo_error,
            elo_interval: (lo, hi),
            nelo,
            nelo_error,
            los,
            draw_ratio,
        }
    }
}

fn signed_infinity_or_zero(x: f64) -> f64 {
    if x > 0.0 {
        f64::INFINITY
    } else if x < 0.0 {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_inverts_cdf() {
        for &p in &[1e-10, 0.001, 0.025, 0.3, 0.5, 0.9, 0.975, 0.999_999] {
            let x = normal_quantile(p);
            assert!((normal_cdf(x) - p).abs() < 1e-14 * p.max(1e-3), "p={p}");
        }
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-12);
    }

    #[test]
    fn elo_score_round_trip() {
        for &e in &[-800.0, -35.5, 0.0, 12.25, 600.0] {
            assert!((score_to_elo(elo_to_score(e)) - e).abs() < 1e-9);
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }
}
