//! Tests of the GSPRT against a brute-force likelihood: the constrained maxima of the
//! multinomial likelihood found by plain grid search (zoomed around the best point), with no
//! use of the dual, the secular equation or the profile scan of [`super::sprt`].

use super::elo::NELO_K;
use super::sprt::{REGULARIZATION, Sprt, SprtDecision, SprtModel, llr_logistic, llr_normalized};

/// The regularized empirical distribution and its total, as fishtest's `regularize`.
fn regularize<const N: usize>(counts: &[u64; N]) -> ([f64; N], f64) {
    let c = counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
    let total: f64 = c.iter().sum();
    (c.map(|x| x / total), total)
}

fn loglik(phat: &[f64], p: &[f64]) -> f64 {
    if p.iter().any(|&x| x.is_nan() || x <= 0.0) {
        return f64::NEG_INFINITY;
    }
    phat.iter().zip(p).map(|(a, b)| a * b.ln()).sum()
}

/// Maximizes `f` over a box by a grid of `n` points per axis, zooming 4x around the best
/// point `rounds` times.
fn grid_max<const D: usize>(
    mut lo: [f64; D],
    mut hi: [f64; D],
    n: usize,
    rounds: usize,
    f: impl Fn([f64; D]) -> f64,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    let mut best_x = lo;
    for _ in 0..rounds {
        let total = n.pow(D as u32);
        for idx in 0..total {
            let mut x = [0.0; D];
            let mut r = idx;
            for d in 0..D {
                let k = r % n;
                r /= n;
                x[d] = lo[d] + (hi[d] - lo[d]) * (k as f64 + 0.5) / n as f64;
            }
            let v = f(x);
            if v > best {
                best = v;
                best_x = x;
            }
        }
        for d in 0..D {
            let half = (hi[d] - lo[d]) / 8.0;
            lo[d] = best_x[d] - half;
            hi[d] = best_x[d] + half;
        }
    }
    best
}

/// The means a t-value `t` allows on `[0, 1]` (the standard deviation is at most 1/2), or
/// `[0, 1]` for `t = 0` (where the first grid axis is the second moment).
fn mean_range(t: f64) -> (f64, f64) {
    if t > 0.0 {
        (0.5, (0.5 + 0.5 * t).min(1.0))
    } else if t < 0.0 {
        ((0.5 + 0.5 * t).max(0.0), 0.5)
    } else {
        (0.0, 1.0)
    }
}

/// Largest trinomial log-likelihood per game with t-value `t` (scores 0, 1/2, 1): for a mean
/// `m`, the variance is `((m - 1/2) / t)^2` and the three probabilities follow linearly.
fn brute_trinomial_t(phat: &[f64; 3], t: f64) -> f64 {
    if t == 0.0 {
        return brute_trinomial_mean(phat, 0.5);
    }
    let (lo, hi) = mean_range(t);
    grid_max([lo], [hi], 20_000, 12, |[m]| {
        let s = (m - 0.5) / t;
        if s.is_nan() || s <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let q = m * m + s * s;
        let d = 4.0 * (m - q);
        let w = 2.0 * q - m;
        loglik(phat, &[1.0 - d - w, d, w])
    })
}

/// Largest pentanomial log-likelihood per pair with t-value `t`: over the mean `m` and the
/// LD and WD probabilities, the LL, WL+DD and WW probabilities solve the three moment
/// conditions.
/// With `t = 0` the condition is the mean 1/2 alone, and the grid's first axis is the
/// second moment `E[a^2]` instead of the mean.
fn brute_pentanomial_t(phat: &[f64; 5], t: f64) -> f64 {
    let (lo, hi) = mean_range(t);
    grid_max([lo, 0.0, 0.0], [hi, 1.0, 1.0], 48, 14, |[x0, ld, wd]| {
        let (m, q) = if t == 0.0 {
            (0.5, x0)
        } else {
            let s = (x0 - 0.5) / t;
            if s.is_nan() || s <= 0.0 {
                return f64::NEG_INFINITY;
            }
            (x0, x0 * x0 + s * s)
        };
        // Unknowns x = LL, y = WL+DD, z = WW (scores 0, 1/2, 1):
        // x + y + z = 1 - ld - wd; y/2 + z = m - ld/4 - 3wd/4; y/4 + z = q - ld/16 - 9wd/16.
        let e1 = 1.0 - ld - wd;
        let e2 = m - 0.25 * ld - 0.75 * wd;
        let e3 = q - ld / 16.0 - 9.0 * wd / 16.0;
        let y = 4.0 * (e2 - e3);
        let z = e2 - 0.5 * y;
        let x = e1 - y - z;
        loglik(phat, &[x, ld, y, wd, z])
    })
}

/// Largest log-likelihood with a fixed mean `s` (logistic model), by a grid over the free
/// coordinates.
fn brute_trinomial_mean(phat: &[f64; 3], s: f64) -> f64 {
    grid_max([0.0], [1.0], 20_000, 12, |[d]| {
        let w = s - 0.5 * d;
        loglik(phat, &[1.0 - d - w, d, w])
    })
}

fn brute_llr_normalized_tri(counts: [u64; 3], e0: f64, e1: f64) -> f64 {
    let (phat, n) = regularize(&counts);
    n * (brute_trinomial_t(&phat, e1 / NELO_K) - brute_trinomial_t(&phat, e0 / NELO_K))
}

fn brute_llr_normalized_penta(counts: [u64; 5], e0: f64, e1: f64) -> f64 {
    let (phat, n) = regularize(&counts);
    let k = std::f64::consts::SQRT_2 / NELO_K;
    n * (brute_pentanomial_t(&phat, k * e1) - brute_pentanomial_t(&phat, k * e0))
}

fn close(what: &str, got: f64, want: f64, tol: f64) {
    assert!(want.is_finite(), "{what}: the brute force found nothing");
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: got {got}, brute force {want}"
    );
}

#[test]
fn normalized_llr_matches_brute_force_at_wide_bounds() {
    // The tested engine won 9 of 9 (4 complete pairs WW) at normalized [0, 300]:
    // the fixed point gave -3.643; the likelihood gives +2.29 (and +2.86 after five pairs).
    let issue = [0, 0, 0, 0, 4];
    let llr = llr_normalized(&issue, 0.0, 300.0);
    close(
        "4 WW [0, 300]",
        llr,
        brute_llr_normalized_penta(issue, 0.0, 300.0),
        1e-6,
    );
    assert!((llr - 2.2915).abs() < 0.001, "{llr}");
    let llr = llr_normalized(&[0, 0, 0, 0, 5], 0.0, 300.0);
    assert!((llr - 2.8646).abs() < 0.001, "{llr}");
    for (counts, e0, e1) in [
        ([0, 0, 0, 0, 4], -1500.0, -500.0),
        ([0, 0, 0, 0, 12], 0.0, 300.0),
        ([3, 5, 9, 6, 2], -200.0, 200.0),
        ([1, 0, 2, 0, 7], 0.0, 150.0),
        ([10, 20, 40, 25, 12], 0.0, 5.0),
        ([7, 0, 0, 0, 0], 100.0, 400.0),
        // Every pair drawn, narrow bounds far from 0: -2.943020, as the profile.
        ([0, 0, 738, 0, 0], 200.0, 201.0),
    ] {
        close(
            &format!("{counts:?} [{e0}, {e1}]"),
            llr_normalized(&counts, e0, e1),
            brute_llr_normalized_penta(counts, e0, e1),
            1e-6,
        );
    }
    for (counts, e0, e1) in [
        ([0, 0, 9], 0.0, 300.0),
        ([0, 0, 9], -1500.0, -500.0),
        ([3, 4, 20], -100.0, 400.0),
        ([136, 111, 96], -50.0, 50.0),
        ([2, 0, 0], 0.0, 1000.0),
    ] {
        close(
            &format!("L/D/W {counts:?} [{e0}, {e1}]"),
            llr_normalized(&counts, e0, e1),
            brute_llr_normalized_tri(counts, e0, e1),
            1e-6,
        );
    }
}

#[test]
fn logistic_llr_matches_brute_force() {
    for (counts, e0, e1) in [
        ([0u64, 0, 9], 0.0, 300.0),
        ([0, 0, 9], -1500.0, -500.0),
        ([30, 40, 32], -10.0, 10.0),
    ] {
        let (phat, n) = regularize(&counts);
        let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
        let want = n * (brute_trinomial_mean(&phat, s(e1)) - brute_trinomial_mean(&phat, s(e0)));
        close(
            &format!("logistic {counts:?} [{e0}, {e1}]"),
            llr_logistic(&counts, e0, e1),
            want,
            1e-6,
        );
    }
}

#[test]
fn the_issue_examples_accept_h1() {
    // d6 against d1 at [0, 300]: six WW pairs (twelve wins) accept H1.
    let sprt = Sprt::new(0.05, 0.05, 0.0, 300.0, SprtModel::Normalized).unwrap();
    let p = super::elo::Pentanomial::new(0, 0, 0, 0, 0, 5);
    assert_eq!(
        sprt.decide(sprt.llr_pentanomial(&p)),
        SprtDecision::Continue
    );
    let p = super::elo::Pentanomial::new(0, 0, 0, 0, 0, 6);
    assert_eq!(
        sprt.decide(sprt.llr_pentanomial(&p)),
        SprtDecision::AcceptH1
    );
    // [-1500, -500] against an engine that loses every game: H1, never a stuck 0.
    let sprt = Sprt::new(0.05, 0.05, -1500.0, -500.0, SprtModel::Normalized).unwrap();
    let mut decided = None;
    for pairs in 1..=200 {
        let llr = sprt.llr_pentanomial(&super::elo::Pentanomial::new(0, 0, 0, 0, 0, pairs));
        assert!(llr > 0.0, "{pairs} pairs: {llr}");
        if sprt.decide(llr) != SprtDecision::Continue {
            decided = Some((pairs, sprt.decide(llr)));
            break;
        }
    }
    assert!(
        matches!(decided, Some((_, SprtDecision::AcceptH1))),
        "{decided:?}"
    );
}

#[test]
fn one_outcome_samples_always_decide() {
    // Every pair has the same outcome: the LLR moves monotonically to a bound.
    for model in [SprtModel::Normalized, SprtModel::Logistic] {
        for (e0, e1) in [(0.0, 5.0), (-10.0, 0.0), (0.0, 300.0), (-1500.0, -500.0)] {
            let sprt = Sprt::new(0.05, 0.05, e0, e1, model).unwrap();
            for cell in 0..5 {
                let mut cells = [0u64; 5];
                let mut last = 0.0;
                let mut decision = SprtDecision::Continue;
                for k in 0..=17 {
                    cells[cell] = 1 << k;
                    let llr = sprt.llr_pentanomial(&super::elo::Pentanomial::from_cells(cells));
                    assert!(llr.is_finite(), "{model:?} [{e0}, {e1}] cell {cell} 2^{k}");
                    // One outcome: the LLR keeps its sign as the sample grows.
                    assert!(
                        k == 0 || llr * last > 0.0,
                        "{model:?} [{e0}, {e1}] cell {cell}"
                    );
                    last = llr;
                    decision = sprt.decide(llr);
                    if decision != SprtDecision::Continue {
                        break;
                    }
                }
                assert_ne!(
                    decision,
                    SprtDecision::Continue,
                    "{model:?} [{e0}, {e1}] cell {cell}: LLR {last} after 2^17 pairs"
                );
            }
        }
    }
}

#[test]
fn both_engine_orders_give_the_same_verdict() {
    // Testing A against B at [e0, e1] is testing B against A at [-e1, -e0] with H0 and H1
    // exchanged: the LLR changes sign exactly.
    for counts in [
        [0u64, 0, 0, 0, 4],
        [3, 5, 9, 6, 2],
        [0, 1, 7, 3, 30],
        [12, 0, 0, 1, 0],
    ] {
        let mut rev = counts;
        rev.reverse();
        for (e0, e1) in [(0.0, 300.0), (-1500.0, -500.0), (0.0, 5.0), (-3.0, 1.0)] {
            let ab = llr_normalized(&counts, e0, e1);
            let ba = llr_normalized(&rev, -e1, -e0);
            assert!(
                (ab + ba).abs() < 1e-7 * ab.abs().max(1.0),
                "{counts:?} [{e0}, {e1}]: {ab} vs {ba}"
            );
            let ab = llr_logistic(&counts, e0, e1);
            let ba = llr_logistic(&rev, -e1, -e0);
            assert!(
                (ab + ba).abs() < 1e-9 * ab.abs().max(1.0),
                "logistic {counts:?}: {ab} vs {ba}"
            );
        }
    }
}
