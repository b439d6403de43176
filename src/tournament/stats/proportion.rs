//! Confidence intervals for a share of games (a binomial proportion) and for a mean score.
//!
//! Wilson's score interval (E. B. Wilson, "Probable inference, the law of succession, and
//! statistical inference", JASA 22, 1927) stays inside [0, 1] and keeps its coverage for
//! shares near 0 or 1 and for small samples, where the normal ("Wald") interval fails.

use super::elo::normal_quantile;

/// A share with its two-sided confidence interval, all in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

/// The two-sided normal quantile of `confidence` (0.95 → 1.95996).
#[must_use]
pub fn z_of(confidence: f64) -> f64 {
    normal_quantile(0.5 + confidence / 2.0)
}

/// Wilson's score interval for `k` successes in `n` trials at `confidence` (e.g. 0.95).
/// With no trials the share is unknown: value 0.5 and the interval [0, 1].
#[must_use]
pub fn wilson(k: u64, n: u64, confidence: f64) -> Interval {
    wilson_mean(k.min(n) as f64, n, confidence)
}

/// Wilson's interval for the mean of `n` values in [0, 1] summing to `sum` (game points,
/// or the mean points of blocks of games). Values in [0, 1] with mean `p` have a variance
/// of at most `p (1 - p)`, the binomial one, so the interval is conservative when draws
/// or within-block averaging shrink the spread, and it never collapses to a point for a
/// small sample whose values happen to be equal. No values: 0.5 and [0, 1].
#[must_use]
pub fn wilson_mean(sum: f64, n: u64, confidence: f64) -> Interval {
    if n == 0 {
        return Interval {
            value: 0.5,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let z = z_of(confidence);
    let n = n as f64;
    let p = (sum / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Interval {
        value: p,
        lower: (centre - half).max(0.0),
        upper: (centre + half).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        // Statistics in Medicine 17, table I, method 3 (score interval without continuity
        // correction): 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605;
        // 0/20 -> 0 to 0.1611; 1/29 -> 0.0061 to 0.1718.
        let cases = [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ];
        for (k, n, lo, hi) in cases {
            let i = wilson(k, n, 0.95);
            assert!(close(i.lower, lo) && close(i.upper, hi), "{k}/{n}: {i:?}");
        }
        assert_eq!(wilson(0, 0, 0.95).upper, 1.0);
    }

    #[test]
    fn wilson_of_a_mean_score() {
        // Whole points give the binomial interval; a half point sits between its neighbours.
        assert_eq!(wilson_mean(2.0, 3, 0.95), wilson(2, 3, 0.95));
        let mid = wilson_mean(2.5, 5, 0.95);
        assert!((mid.value - 0.5).abs() < 1e-12);
        assert!((mid.lower - (1.0 - mid.upper)).abs() < 1e-12);
        // Equal values never give a zero-width interval: 10 wins of 10 -> [0.7225, 1].
        let all = wilson_mean(10.0, 10, 0.95);
        assert!(close(all.lower, 0.7225) && all.upper == 1.0, "{all:?}");
    }
}
