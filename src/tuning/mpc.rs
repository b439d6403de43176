//! Fitting Multi-ProbCut parameters (Buro): for each depth pair (`depth`,
//! [`shallow_depth`]) and game phase (a range of empties, [`PHASES`]), the least-squares
//! line `deep = a x shallow + b` between the scores of the iterative-deepening search at
//! the two depths, over positions from self-play, and the residual's standard deviation
//! `sigma`. `tessera tune othello --method mpc` runs it; the result is an
//! [`MpcTable`] (file format in [`crate::games::othello::probcut`]).

use crate::games::othello::Position;
use crate::games::othello::eval::Eval;
use crate::games::othello::probcut::{MpcEntry, MpcTable};
use crate::search::{Limits, Score, TranspositionTable, search};

/// Game phases the parameters are fitted for: inclusive ranges of empties.
pub const PHASES: [(u32, u32); 6] = [(13, 20), (21, 28), (29, 36), (37, 44), (45, 52), (53, 60)];

/// Fewest positions a depth pair and phase needs for its line to be written.
pub const MIN_SAMPLES: usize = 30;

/// Shallowest node depth that gets a probe.
pub const MIN_DEPTH: u32 = 3;

/// The shallow search's depth for a node of `depth` plies: the largest depth at most
/// `depth / 2` that differs from `depth` by an even number of plies (the evaluation's
/// odd/even bias then cancels), at least 1. Depths 3..=12 pair with 1, 2, 1, 2, 3, 4,
/// 3, 4, 5, 6.
#[must_use]
pub fn shallow_depth(depth: u32) -> u32 {
    let mut s = depth / 2;
    if (depth - s) % 2 == 1 {
        s = s.saturating_sub(1);
    }
    s.max(1)
}

/// A fitted line `y = a x + b` with the residual standard deviation `sigma` over `n` points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// Slope.
    pub a: f64,
    /// Intercept.
    pub b: f64,
    /// Root mean square residual (divided by `n - 2`, the unbiased form).
    pub sigma: f64,
    /// Points.
    pub n: usize,
}

/// Ordinary least squares of `y` on `x` over `(x, y)` points; `None` with fewer than three
/// points or all `x` equal.
#[must_use]
pub fn fit_line(points: &[(f64, f64)]) -> Option<LineFit> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let nf = n as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / nf;
    let my = points.iter().map(|p| p.1).sum::<f64>() / nf;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = points
        .iter()
        .map(|p| {
            let r = p.1 - (a * p.0 + b);
            r * r
        })
        .sum();
    Some(LineFit {
        a,
        b,
        sigma: (sse / (nf - 2.0)).sqrt(),
        n,
    })
}

/// The root score of each iteration of a search of `pos` to `max_depth` plies
/// (index `d - 1` for depth `d`), without MPC.
#[must_use]
pub fn scores_by_depth(
    pos: &Position,
    eval: &Eval,
    max_depth: u32,
    tt: &TranspositionTable,
) -> Vec<Score> {
    let mut scores = Vec::with_capacity(max_depth as usize);
    search(pos, eval, tt, &Limits::depth(max_depth), |info| {
        scores.push(info.score);
    });
    scores
}

/// One position's data: its empties and [`scores_by_depth`].
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Empty squares.
    pub empties: u32,
    /// Root score per depth, from depth 1.
    pub scores: Vec<Score>,
}

/// [`scores_by_depth`] of every position on `threads` threads (MPC switched off in `eval`),
/// each thread with its own 16 MiB table; `done` is called with the count finished so far.
#[must_use]
pub fn collect(
    positions: &[Position],
    eval: &Eval,
    max_depth: u32,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Record> {
    let eval = eval.clone().with_mpc(None);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<Option<Record>> = vec![None; positions.len()];
    let chunks = std::sync::Mutex::new(&mut out);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut tt = TranspositionTable::new(16);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(pos) = positions.get(i) else { break };
                    tt.clear();
                    let r = Record {
                        empties: pos.empties(),
                        scores: scores_by_depth(pos, &eval, max_depth, &tt),
                    };
                    chunks.lock().expect("no thread panics holding it")[i] = Some(r);
                    done(finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                }
            });
        }
    });
    out.into_iter().flatten().collect()
}

/// The MPC table of `records`: for each depth `MIN_DEPTH..=max_depth` and phase of
/// [`PHASES`], the line of the depth's score on its [`shallow_depth`]'s score over the
/// records of that phase whose search did not reach the end (`depth < empties`), if at
/// least [`MIN_SAMPLES`]. `header` goes into the file's header.
///
/// # Errors
/// No depth pair and phase with enough records.
pub fn fit_table(
    records: &[Record],
    max_depth: u32,
    header: Vec<String>,
) -> Result<MpcTable, String> {
    let mut entries = Vec::new();
    for depth in MIN_DEPTH..=max_depth {
        let shallow = shallow_depth(depth);
        for &(lo, hi) in &PHASES {
            let points: Vec<(f64, f64)> = records
                .iter()
                .filter(|r| (lo..=hi).contains(&r.empties) && depth < r.empties)
                .filter_map(|r| {
                    let s = *r.scores.get(shallow as usize - 1)?;
                    let d = *r.scores.get(depth as usize - 1)?;
                    Some((f64::from(s), f64::from(d)))
                })
                .collect();
            if points.len() < MIN_SAMPLES {
                continue;
            }
            let Some(f) = fit_line(&points) else { continue };
            if f.a <= 0.0 {
                continue;
            }
            entries.push(MpcEntry {
                depth,
                shallow,
                empties_min: lo,
                empties_max: hi,
                a: f.a as f32,
                b: f.b as f32,
                sigma: f.sigma as f32,
                samples: f.n as u64,
            });
        }
    }
    if entries.is_empty() {
        return Err(format!(
            "no depth pair and phase has {MIN_SAMPLES} positions to fit (give more data or a larger --positions)"
        ));
    }
    MpcTable::new(entries, header)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator of standard normal deviates (xorshift + Box-Muller).
    fn normals(seed: u64, n: usize) -> Vec<f64> {
        let mut x = seed;
        let mut uniform = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                let (u, v) = (uniform(), uniform());
                (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_line_and_noise() {
        // deep = 0.9 x shallow + 25 + N(0, 150^2), shallow spread over +-2000.
        let xs = normals(7, 20_000);
        let noise = normals(11, 20_000);
        let points: Vec<(f64, f64)> = xs
            .iter()
            .zip(&noise)
            .map(|(x, e)| (800.0 * x, 0.9 * 800.0 * x + 25.0 + 150.0 * e))
            .collect();
        let f = fit_line(&points).unwrap();
        assert!((f.a - 0.9).abs() < 0.01, "{f:?}");
        assert!((f.b - 25.0).abs() < 3.0, "{f:?}");
        assert!((f.sigma - 150.0).abs() < 3.0, "{f:?}");
        assert_eq!(f.n, 20_000);
        // Degenerate inputs give no line.
        assert!(fit_line(&[(1.0, 2.0), (1.0, 3.0), (1.0, 4.0)]).is_none());
        assert!(fit_line(&[(1.0, 2.0), (2.0, 3.0)]).is_none());
    }

    #[test]
    fn the_table_fits_each_depth_pair_and_phase_from_its_own_records() {
        // Records at 30 empties (phase 29-36) whose depth-8 score is 2 x the depth-4 score
        // minus 10 exactly, and at 50 empties (phase 45-52) deep = shallow + noise.
        let noise = normals(3, 200);
        let mut records = Vec::new();
        for (i, e) in noise.iter().enumerate().take(100) {
            let s = (i * 37 % 101) as i32 * 10 - 500;
            let mut scores = vec![0; 8];
            scores[3] = s;
            scores[7] = 2 * s - 10;
            records.push(Record {
                empties: 30,
                scores,
            });
            let mut scores = vec![0; 8];
            scores[3] = s;
            scores[7] = s + (100.0 * e).round() as i32;
            records.push(Record {
                empties: 50,
                scores,
            });
        }
        // Too few at 20 empties: no line there.
        for _ in 0..MIN_SAMPLES - 1 {
            records.push(Record {
                empties: 20,
                scores: vec![1; 8],
            });
        }
        let t = fit_table(&records, 8, vec!["test".into()]).unwrap();
        let e = t.entry(8, 30).unwrap();
        assert_eq!((e.shallow, e.empties_min, e.empties_max), (4, 29, 36));
        assert!(
            (e.a - 2.0).abs() < 1e-4 && (e.b + 10.0).abs() < 1e-2,
            "{e:?}"
        );
        assert!(e.sigma < 1e-2, "{e:?}");
        assert_eq!(e.samples, 100);
        let e = t.entry(8, 50).unwrap();
        assert!(
            (e.a - 1.0).abs() < 0.1 && (e.sigma - 100.0).abs() < 20.0,
            "{e:?}"
        );
        assert!(t.entry(8, 20).is_none());
        // The file round-trips.
        let back = MpcTable::from_text(&t.to_text(), "t.txt").unwrap();
        assert_eq!(back.entries().len(), t.entries().len());
    }

    #[test]
    fn shallow_depths_keep_the_parity() {
        let got: Vec<u32> = (3..=12).map(shallow_depth).collect();
        assert_eq!(got, vec![1, 2, 1, 2, 3, 4, 3, 4, 5, 6]);
        for d in 3..=30 {
            let s = shallow_depth(d);
            assert!(s < d && (d - s).is_multiple_of(2), "{d} -> {s}");
        }
    }
}
