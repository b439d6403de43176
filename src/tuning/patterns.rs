//! Least-squares fit of the Othello pattern evaluation
//! ([`crate::games::othello::patterns`]) to disc-difference labels.
//!
//! Model: the score of a position is the sum of the weights of its [`FEATURES`] features
//! (46 pattern instances, two mobility counts, a bias) in its stage's tables, in discs. The
//! fit minimises the mean squared error to the labels (the exact value where the solver
//! reached, else the game's final disc difference) plus `lambda` times the sum of squared
//! weights per occurrence, by full-batch gradient descent preconditioned per weight (each
//! weight's step is its mean residual, scaled by `lr`: the diagonal of Gauss-Newton, the
//! update Logistello and Edax use), with the gradient summed over samples on rayon threads
//! (a fixed split, so the result does not depend on the thread count).
//!
//! Weights of configurations tied by a pattern's own symmetry share one fitted value (the
//! fit runs on [`canonical`] indices).

use std::path::Path;

use rayon::prelude::*;

use super::selfplay::Sample;
use crate::games::othello::Position;
use crate::games::othello::patterns::{
    FEATURES, PatternWeights, STAGE_SIZE, STAGES, TOTAL_WEIGHTS, canonical, features, stage,
};

/// Positions in memory as feature ids (stage offset included) and targets (discs).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// `FEATURES` canonical weight ids per sample, sample-major.
    pub ids: Vec<u32>,
    /// Target per sample, discs (side to move's view).
    pub y: Vec<f32>,
}

impl Dataset {
    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no samples.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Adds a position (`p` to move, `o`) with target `y` discs.
    pub fn push(&mut self, p: u64, o: u64, y: f32) {
        let canon = canonical();
        let base = stage((!(p | o)).count_ones()) * STAGE_SIZE;
        for i in features(p, o) {
            self.ids.push((base + canon[i as usize] as usize) as u32);
        }
        self.y.push(y);
    }

    /// Builds training and validation sets from self-play samples: every
    /// `validation_every`-th sample (if > 0) goes to validation.
    ///
    /// # Errors
    /// A sample whose position does not parse (naming its number).
    pub fn from_samples(
        samples: &[Sample],
        validation_every: usize,
    ) -> Result<(Self, Self), String> {
        let mut train = Self::default();
        let mut valid = Self::default();
        for (i, s) in samples.iter().enumerate() {
            let pos: Position = s
                .position
                .parse()
                .map_err(|e| format!("sample {}: {e}", i + 1))?;
            let set = if validation_every > 0 && i % validation_every == validation_every - 1 {
                &mut valid
            } else {
                &mut train
            };
            set.push(pos.player(), pos.opponent(), s.target() as f32);
        }
        Ok((train, valid))
    }

    /// A fingerprint of the data (FNV-1a of the ids and targets), stored in checkpoints so
    /// a resume on other data is refused.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |x: u32| {
            h ^= u64::from(x);
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for &i in &self.ids {
            eat(i);
        }
        for &y in &self.y {
            eat(y.to_bits());
        }
        h
    }
}

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Step scale: 1 moves each weight by its full mean residual; about 1 / (features
    /// that vary together) is stable.
    pub lr: f32,
    /// L2 penalty per occurrence (in samples): rare configurations shrink towards 0.
    pub lambda: f32,
}

/// The state of a fit: weights (discs, indexed by stage-major canonical ids; non-canonical
/// entries stay 0) and the epochs done.
#[derive(Clone, Debug, PartialEq)]
pub struct FitState {
    /// Weights in discs.
    pub w: Vec<f32>,
    /// Epochs completed.
    pub epoch: usize,
}

impl Default for FitState {
    fn default() -> Self {
        Self {
            w: vec![0.0; TOTAL_WEIGHTS],
            epoch: 0,
        }
    }
}

/// Number of gradient chunks: fixed, so sums do not depend on the thread count.
const CHUNKS: usize = 4;

/// Mean squared error (discs^2) of `w` on `data`.
#[must_use]
pub fn mse(w: &[f32], data: &Dataset) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .ids
        .par_chunks(FEATURES)
        .zip(data.y.par_iter())
        .map(|(ids, &y)| {
            let r = ids.iter().map(|&i| w[i as usize]).sum::<f32>() - y;
            f64::from(r * r)
        })
        .sum();
    sum / data.len() as f64
}

/// Occurrences of every weight id in `data`.
#[must_use]
pub fn counts(data: &Dataset) -> Vec<f32> {
    let mut n = vec![0f32; TOTAL_WEIGHTS];
    for &i in &data.ids {
        n[i as usize] += 1.0;
    }
    n
}

/// One epoch: the residual sums of every weight over `data` (in parallel, fixed chunks),
/// then the preconditioned step. Returns the training MSE before the step.
pub fn epoch(state: &mut FitState, data: &Dataset, n: &[f32], cfg: &FitConfig) -> f64 {
    let per = data.len().div_ceil(CHUNKS).max(1);
    let w = &state.w;
    let parts: Vec<(Vec<f32>, f64)> = (0..CHUNKS)
        .into_par_iter()
        .map(|c| {
            let mut g = vec![0f32; TOTAL_WEIGHTS];
            let mut loss = 0f64;
            let lo = (c * per).min(data.len());
            let hi = ((c + 1) * per).min(data.len());
            for k in lo..hi {
                let ids = &data.ids[k * FEATURES..(k + 1) * FEATURES];
                let r = ids.iter().map(|&i| w[i as usize]).sum::<f32>() - data.y[k];
                loss += f64::from(r * r);
                for &i in ids {
                    g[i as usize] += r;
                }
            }
            (g, loss)
        })
        .collect();
    let mut loss = 0f64;
    let mut g = vec![0f32; TOTAL_WEIGHTS];
    for (gc, l) in parts {
        loss += l;
        for (a, b) in g.iter_mut().zip(gc) {
            *a += b;
        }
    }
    for ((wi, gi), ni) in state.w.iter_mut().zip(&g).zip(n) {
        if *ni > 0.0 {
            *wi -= cfg.lr * (gi + cfg.lambda * *wi) / (ni + cfg.lambda);
        }
    }
    state.epoch += 1;
    loss / data.len().max(1) as f64
}

/// The fitted weights as an evaluation: centi-discs, rounded, clamped to `i16`, and
/// copied from each canonical index to the configurations tied to it.
///
/// # Errors
/// Never for weights of the right length (kept as a `Result` for the symmetry check).
pub fn to_pattern_weights(w: &[f32], header: Vec<String>) -> Result<PatternWeights, String> {
    let canon = canonical();
    let mut out = vec![0i16; TOTAL_WEIGHTS];
    for s in 0..STAGES {
        let base = s * STAGE_SIZE;
        for (i, &c) in canon.iter().enumerate() {
            let v = (w[base + c as usize] * 100.0).round();
            out[base + i] = v.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        }
    }
    PatternWeights::new(out, header)
}

/// First line of a checkpoint file.
const CHECKPOINT_MAGIC: &str = "tessera-pattern-fit-checkpoint 1";

/// Writes `state` (with the data's fingerprint) to `path` atomically (a temporary file
/// renamed over it).
///
/// # Errors
/// An unwritable file.
pub fn save_checkpoint(path: &Path, state: &FitState, fingerprint: u64) -> Result<(), String> {
    let mut bytes = format!(
        "{CHECKPOINT_MAGIC}\nepoch {} data {fingerprint:016x}\n",
        state.epoch
    )
    .into_bytes();
    for v in &state.w {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    super::checkpoint::write(path, &bytes)
}

/// Reads a checkpoint; `None` if the file does not exist.
///
/// # Errors
/// An unreadable or malformed file, or one made on other data (another fingerprint).
pub fn load_checkpoint(path: &Path, fingerprint: u64) -> Result<Option<FitState>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = crate::game::files::read_bytes(path, "checkpoint", 1 << 30)?;
    let err = |m: &str| format!("checkpoint {}: {m}", path.display());
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    let magic = lines.next().unwrap_or_default();
    if magic != CHECKPOINT_MAGIC.as_bytes() {
        return Err(err("not a pattern-fit checkpoint"));
    }
    let info = std::str::from_utf8(lines.next().unwrap_or_default())
        .map_err(|_| err("bad second line"))?;
    let f: Vec<&str> = info.split_whitespace().collect();
    let (epoch, data) = match f.as_slice() {
        ["epoch", e, "data", d] => (
            e.parse::<usize>().map_err(|_| err("bad epoch"))?,
            u64::from_str_radix(d, 16).map_err(|_| err("bad data fingerprint"))?,
        ),
        _ => return Err(err("bad second line")),
    };
    if data != fingerprint {
        return Err(err(
            "made on other data (remove it, or pass --fresh, to start over)",
        ));
    }
    let body = lines.next().unwrap_or_default();
    if body.len() != 4 * TOTAL_WEIGHTS {
        return Err(err("wrong size"));
    }
    let w = body
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(Some(FitState { w, epoch }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::othello::random_game_positions as positions;

    /// Labels made by a known sparse weight vector are fitted back: the loss goes to ~0 and
    /// the fitted evaluation reproduces the labels.
    #[test]
    fn fit_recovers_known_weights_on_synthetic_data() {
        let pos = positions(3000, 0xC0FFEE);
        // Truth: a weight per mobility count and the bias (dense), plus a corner weight.
        let truth = |p: u64, o: u64| -> f32 {
            let st = stage((!(p | o)).count_ones());
            let mob_p = crate::games::othello::movegen::legal_moves(p, o).count_ones() as f32;
            let corners = ((p & 0x8100_0000_0000_0081).count_ones() as f32)
                - ((o & 0x8100_0000_0000_0081).count_ones() as f32);
            0.2 * mob_p + 3.0 * corners + st as f32 * 0.5
        };
        let mut data = Dataset::default();
        for p in &pos {
            data.push(p.player(), p.opponent(), truth(p.player(), p.opponent()));
        }
        let n = counts(&data);
        let cfg = FitConfig {
            lr: 0.04,
            lambda: 0.0,
        };
        let mut st = FitState::default();
        let first = mse(&st.w, &data);
        for _ in 0..150 {
            epoch(&mut st, &data, &n, &cfg);
        }
        let last = mse(&st.w, &data);
        assert!(first > 1.0, "{first}");
        assert!(last < first * 1e-3, "loss {first} -> {last}");
        // The fitted evaluation (centi-discs) agrees with the truth on these positions.
        let pw = to_pattern_weights(&st.w, Vec::new()).unwrap();
        for p in pos.iter().step_by(97) {
            let want = truth(p.player(), p.opponent()) * 100.0;
            let got = pw.score(p.player(), p.opponent()) as f32;
            assert!((got - want).abs() < 60.0, "{p}: {got} vs {want}");
        }
    }

    #[test]
    fn epochs_do_not_depend_on_the_thread_count_and_checkpoints_round_trip() {
        let pos = positions(3000, 5);
        let mut data = Dataset::default();
        for (i, p) in pos.iter().enumerate() {
            data.push(p.player(), p.opponent(), (i % 7) as f32 - 3.0);
        }
        let n = counts(&data);
        let cfg = FitConfig {
            lr: 0.3,
            lambda: 2.0,
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut st = FitState::default();
                for _ in 0..3 {
                    epoch(&mut st, &data, &n, &cfg);
                }
                st
            })
        };
        let a = run(1);
        assert_eq!(a, run(2));
        let dir = std::env::temp_dir().join(format!("tessera-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.ckpt");
        let fp = data.fingerprint();
        save_checkpoint(&path, &a, fp).unwrap();
        assert_eq!(load_checkpoint(&path, fp).unwrap(), Some(a));
        let e = load_checkpoint(&path, fp ^ 1).unwrap_err();
        assert!(e.contains("other data"), "{e}");
        assert_eq!(load_checkpoint(&dir.join("none"), fp).unwrap(), None);
        std::fs::remove_dir_all(&dir).ok();
    }
}
