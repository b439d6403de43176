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
    if n == 0 {
        return Interval {
            value: 0.5,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let z = z_of(confidence);
    let (k, n) = (k.min(n) as f64, n as f64);
    let p = k / n;
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

/// A normal interval for the mean of `values` (each in [0, 1]) at `confidence`, clipped to
/// [0, 1]: mean ± z·s/√n with the sample standard deviation `s`. For game points (1, 1/2,
/// 0), whose variance the draws lower, this is the interval of a mean score. No values:
/// 0.5 and [0, 1].
#[must_use]
pub fn mean_interval(values: &[f64], confidence: f64) -> Interval {
    let n = values.len();
    if n == 0 {
        return Interval {
            value: 0.5,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Interval {
            value: mean,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
    let half = z_of(confidence) * (var / n as f64).sqrt();
    Interval {
        value: mean,
        lower: (mean - half).max(0.0),
        upper: (mean + half).min(1.0),
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
    fn mean_interval_of_points() {
        // Points 1, 0, 1/2, 1/2: mean 1/2, s^2 = (1/4 + 1/4 + 0 + 0) / 3 = 1/6;
        // half-width 1.959964 * sqrt(1/24) = 0.40008.
        let i = mean_interval(&[1.0, 0.0, 0.5, 0.5], 0.95);
        assert!(
            close(i.value, 0.5) && close(i.upper - 0.5, 0.400_08),
            "{i:?}"
        );
        // Always the same result: no spread, a zero-width interval.
        let j = mean_interval(&[1.0; 10], 0.95);
        assert_eq!((j.lower, j.upper), (1.0, 1.0));
    }
}
