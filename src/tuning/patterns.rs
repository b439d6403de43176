//! Least-squares fit of the Othello pattern evaluations (format 1,
//! [`crate::games::othello::patterns`], and format 2, [`crate::games::othello::patterns::v2`])
//! to disc-difference labels.
//!
//! Model: the score of a position is the sum of the weights of its features (format 1: 46
//! pattern instances, two mobility counts, a bias; format 2: 56 instances and five small
//! tables) in its stage's tables, in discs. The
//! fit minimises the mean squared error to the labels (the exact value where the solver
//! reached, else the game's final disc difference) plus `lambda` times the sum of squared
//! weights per occurrence, by full-batch gradient descent preconditioned per weight (each
//! weight's step is its mean residual, scaled by `lr`: the diagonal of Gauss-Newton, the
//! update Logistello and Edax use), with the gradient summed over samples on rayon threads
//! (a fixed split, so the result does not depend on the thread count).
//!
//! Weights of configurations tied by a pattern's own symmetry share one fitted value (the
//! fit runs on [`canonical`] indices). Every pattern's instances are all its images under the
//! 8 symmetries of the board, so each sample already updates the weights of its 8 symmetric
//! images: augmenting the data by the symmetries would add nothing.
//!
//! Format 2 has 30 stages of 2 plies, each seeing a thirtieth of the data; `smooth` (in
//! occurrences, like `lambda`) pulls every weight towards the mean of the same weight in the
//! neighbouring stages, so that rare configurations borrow from the stages around them.

use std::path::Path;

use rayon::prelude::*;

use super::selfplay::Sample;
use crate::games::othello::Position;
use crate::games::othello::patterns::{
    FEATURES, PatternWeights, STAGE_SIZE, STAGES, canonical, expand_canonical, features, stage, v2,
};

/// Which pattern evaluation a fit makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Set {
    /// Format 1: 46 instances, 10 stages ([`crate::games::othello::patterns`]).
    #[default]
    V1,
    /// Format 2: 56 instances, potential mobility, parity, 30 stages
    /// ([`crate::games::othello::patterns::v2`]).
    V2,
}

impl Set {
    /// Features per sample.
    #[must_use]
    pub const fn stride(self) -> usize {
        match self {
            Self::V1 => FEATURES,
            Self::V2 => v2::FEATURES,
        }
    }

    /// Weights of one stage.
    #[must_use]
    pub const fn stage_size(self) -> usize {
        match self {
            Self::V1 => STAGE_SIZE,
            Self::V2 => v2::STAGE_SIZE,
        }
    }

    /// Number of stages.
    #[must_use]
    pub const fn stages(self) -> usize {
        match self {
            Self::V1 => STAGES,
            Self::V2 => v2::STAGES,
        }
    }

    /// All weights.
    #[must_use]
    pub const fn total(self) -> usize {
        self.stage_size() * self.stages()
    }

    /// The stage of a position with `empties` empty squares.
    #[must_use]
    pub fn stage(self, empties: u32) -> usize {
        match self {
            Self::V1 => stage(empties),
            Self::V2 => v2::stage(empties),
        }
    }

    /// The in-stage canonical indices (see [`canonical`]).
    #[must_use]
    pub fn canonical(self) -> &'static [u32] {
        match self {
            Self::V1 => canonical(),
            Self::V2 => v2::canonical(),
        }
    }

    /// Appends the canonical weight ids (stage offset included) of (`p` to move, `o`).
    fn push_ids(self, p: u64, o: u64, out: &mut Vec<u32>) {
        let canon = self.canonical();
        let base = self.stage((!(p | o)).count_ones()) * self.stage_size();
        let mut put = |i: u32| out.push((base + canon[i as usize] as usize) as u32);
        match self {
            Self::V1 => features(p, o).into_iter().for_each(&mut put),
            Self::V2 => v2::features(p, o).into_iter().for_each(&mut put),
        }
    }

    /// The name used in checkpoints and messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::V1 => "1",
            Self::V2 => "2",
        }
    }
}

/// Positions in memory as feature ids (stage offset included) and targets (discs).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The evaluation the ids belong to.
    pub set: Set,
    /// `set.stride()` canonical weight ids per sample, sample-major.
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

    /// An empty dataset for the evaluation `set`.
    #[must_use]
    pub fn new(set: Set) -> Self {
        Self {
            set,
            ..Self::default()
        }
    }

    /// Adds a position (`p` to move, `o`) with target `y` discs.
    pub fn push(&mut self, p: u64, o: u64, y: f32) {
        self.set.push_ids(p, o, &mut self.ids);
        self.y.push(y);
    }

    /// The stage of sample `k` (from its first id).
    #[must_use]
    pub fn stage_of(&self, k: usize) -> usize {
        self.ids[k * self.set.stride()] as usize / self.set.stage_size()
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

/// Training and held-out data from self-play data files ([`load_split`]).
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Training samples.
    pub train: Dataset,
    /// Held-out samples.
    pub valid: Dataset,
    /// The held-out positions (side to move's discs, the other side's), in `valid`'s order.
    pub valid_positions: Vec<(u64, u64)>,
    /// Samples with exact labels (both sets).
    pub exact: usize,
    /// Repeats of an earlier position (in any file): averaged into its label, or dropped
    /// when it was in the other set.
    pub repeats: usize,
}

/// Reads self-play data files into training and held-out sets for the evaluation `set`.
/// Positions are deduplicated across all files: a repeat of a position in the same set
/// (training or held-out) adds its label to the first occurrence's, which is labelled with
/// the mean (an early position reached by many games gets their mean result instead of one
/// game's); a repeat in the other set is dropped. Files written
/// with `--shard` (with `# game K` marks) are split by game: every sample of a game whose
/// index is `hold_out_every - 1` modulo `hold_out_every` is held out, so no held-out position
/// shares a game with a training one; other files hold out every `hold_out_every`-th sample.
///
/// # Errors
/// One line naming the file and line: an unreadable file, a bad line, a position that does
/// not parse (another game's data), or no positions at all.
pub fn load_split(
    paths: &[std::path::PathBuf],
    set: Set,
    hold_out_every: usize,
) -> Result<Split, String> {
    use std::collections::HashMap;
    let mut out = Split {
        train: Dataset::new(set),
        valid: Dataset::new(set),
        ..Split::default()
    };
    // Where each position went: (bucket, index), bucket `stages` the held-out set.
    let stages = set.stages();
    let mut seen: HashMap<u128, (usize, usize)> = HashMap::new();
    let mut labels: Vec<Vec<u32>> = vec![Vec::new(); stages + 1];
    // Training samples by stage, joined at the end: an epoch then sweeps one stage's
    // weights at a time (1.4 MB of f32 for format 2), which stay in cache.
    let mut by_stage: Vec<Dataset> = (0..set.stages()).map(|_| Dataset::new(set)).collect();
    for path in paths {
        let text =
            crate::game::files::read_text(path, "data file", super::selfplay::MAX_DATA_FILE)?;
        let samples: Vec<(usize, usize, Sample)> = if text.contains(super::selfplay::GAME_MARK) {
            super::selfplay::parse_shard(path, &text)?
                .samples
                .into_iter()
                .map(|(g, s)| (g, 0, s))
                .collect()
        } else {
            super::selfplay::parse_numbered(path, &text)?
                .into_iter()
                .enumerate()
                .map(|(k, (line, s))| (k, line, s))
                .collect()
        };
        drop(text);
        for (key, line, s) in samples {
            let pos: Position = s.position.parse().map_err(|e| {
                let at = if line > 0 {
                    format!(" line {line}")
                } else {
                    String::new()
                };
                format!("data file {}{at}: {e} (not Othello data?)", path.display())
            })?;
            let (p, o) = (pos.player(), pos.opponent());
            let held = hold_out_every > 0 && key % hold_out_every == hold_out_every - 1;
            let bucket = if held {
                stages
            } else {
                set.stage((!(p | o)).count_ones())
            };
            let y = s.target() as f32;
            let id = u128::from(p) << 64 | u128::from(o);
            if let Some(&(b, i)) = seen.get(&id) {
                out.repeats += 1;
                if b == bucket {
                    let d = if b == stages {
                        &mut out.valid
                    } else {
                        &mut by_stage[b]
                    };
                    d.y[i] += y;
                    labels[b][i] += 1;
                }
                continue;
            }
            out.exact += usize::from(s.exact.is_some());
            let d = if held {
                &mut out.valid
            } else {
                &mut by_stage[bucket]
            };
            seen.insert(id, (bucket, d.len()));
            labels[bucket].push(1);
            d.push(p, o, y);
            if held {
                out.valid_positions.push((p, o));
            }
        }
    }
    for (d, n) in by_stage.iter_mut().chain([&mut out.valid]).zip(&labels) {
        for (y, &k) in d.y.iter_mut().zip(n) {
            *y /= k as f32;
        }
    }
    for d in by_stage {
        out.train.ids.extend_from_slice(&d.ids);
        out.train.y.extend_from_slice(&d.y);
    }
    if out.train.is_empty() {
        return Err("the data files hold no training positions".into());
    }
    if hold_out_every > 0 && out.valid.is_empty() {
        return Err(format!(
            "no position is held out: the held-out games are those whose index is {} modulo {hold_out_every}, and these files hold none (one shard of a run whose shard count shares a factor with {hold_out_every}? pass all its shards)",
            hold_out_every - 1
        ));
    }
    Ok(out)
}

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Step scale: 1 moves each weight by its full mean residual; about 1 / (features
    /// that vary together) is stable.
    pub lr: f32,
    /// L2 penalty per occurrence (in samples): rare configurations shrink towards 0.
    pub lambda: f32,
    /// Pull towards the mean of the neighbouring stages' weight, in occurrences (0: none).
    pub smooth: f32,
}

impl FitConfig {
    /// The settings as one token list, stored in checkpoints (a resume with other settings
    /// is refused).
    #[must_use]
    pub fn describe(&self, set: Set) -> String {
        format!(
            "set={},lr={},lambda={},smooth={}",
            set.name(),
            self.lr,
            self.lambda,
            self.smooth
        )
    }
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
    /// Zero weights of format 1.
    fn default() -> Self {
        Self::new(Set::V1)
    }
}

impl FitState {
    /// Zero weights of the evaluation `set`, no epoch done.
    #[must_use]
    pub fn new(set: Set) -> Self {
        Self {
            w: vec![0.0; set.total()],
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
        .par_chunks(data.set.stride())
        .zip(data.y.par_iter())
        .map(|(ids, &y)| {
            let r = ids.iter().map(|&i| w[i as usize]).sum::<f32>() - y;
            f64::from(r * r)
        })
        .sum();
    sum / data.len() as f64
}

/// Mean absolute error (discs) and sample count of `w` on `data`, per stage.
#[must_use]
pub fn mae_by_stage(w: &[f32], data: &Dataset) -> Vec<(f64, usize)> {
    let stride = data.set.stride();
    let mut out = vec![(0f64, 0usize); data.set.stages()];
    for (k, (ids, &y)) in data.ids.chunks_exact(stride).zip(&data.y).enumerate() {
        let r = ids.iter().map(|&i| w[i as usize]).sum::<f32>() - y;
        let e = &mut out[data.stage_of(k)];
        e.0 += f64::from(r.abs());
        e.1 += 1;
    }
    for e in &mut out {
        if e.1 > 0 {
            e.0 /= e.1 as f64;
        }
    }
    out
}

/// Occurrences of every weight id in `data`.
#[must_use]
pub fn counts(data: &Dataset) -> Vec<f32> {
    let mut n = vec![0f32; data.set.total()];
    for &i in &data.ids {
        n[i as usize] += 1.0;
    }
    n
}

/// One epoch: the residual sums of every weight over `data` (in parallel, fixed chunks),
/// then the preconditioned step. Returns the training MSE before the step.
pub fn epoch(state: &mut FitState, data: &Dataset, n: &[f32], cfg: &FitConfig) -> f64 {
    let per = data.len().div_ceil(CHUNKS).max(1);
    let (stride, total) = (data.set.stride(), data.set.total());
    let w = &state.w;
    let parts: Vec<(Vec<f32>, f64)> = (0..CHUNKS)
        .into_par_iter()
        .map(|c| {
            let mut g = vec![0f32; total];
            let mut loss = 0f64;
            let lo = (c * per).min(data.len());
            let hi = ((c + 1) * per).min(data.len());
            for k in lo..hi {
                let ids = &data.ids[k * stride..(k + 1) * stride];
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
    let mut g = vec![0f32; total];
    for (gc, l) in parts {
        loss += l;
        for (a, b) in g.iter_mut().zip(gc) {
            *a += b;
        }
    }
    if cfg.smooth > 0.0 {
        // Every canonical weight moves, seen or not: unseen ones take their neighbours'.
        let size = data.set.stage_size();
        let canon = data.set.canonical();
        let old = state.w.clone();
        let stages = data.set.stages();
        for (j, wi) in state.w.iter_mut().enumerate() {
            let (s, i) = (j / size, j % size);
            if canon[i] as usize != i {
                continue;
            }
            let mut nb = 0f32;
            let mut m = 0f32;
            if s > 0 {
                nb += old[j - size];
                m += 1.0;
            }
            if s + 1 < stages {
                nb += old[j + size];
                m += 1.0;
            }
            let pull = cfg.smooth * (*wi - nb / m);
            *wi -= cfg.lr * (g[j] + cfg.lambda * *wi + pull) / (n[j] + cfg.lambda + cfg.smooth);
        }
    } else {
        for ((wi, gi), ni) in state.w.iter_mut().zip(&g).zip(n) {
            if *ni > 0.0 {
                *wi -= cfg.lr * (gi + cfg.lambda * *wi) / (ni + cfg.lambda);
            }
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
    PatternWeights::new(expand_canonical(w, canonical(), STAGES, STAGE_SIZE), header)
}

/// The fitted format-2 weights as an evaluation (as [`to_pattern_weights`]).
///
/// # Errors
/// Never for weights of the right length.
pub fn to_pattern_weights2(w: &[f32], header: Vec<String>) -> Result<v2::PatternWeights2, String> {
    let canon = v2::canonical();
    v2::PatternWeights2::new(
        expand_canonical(w, canon, v2::STAGES, v2::STAGE_SIZE),
        header,
    )
}

/// First line of a checkpoint file.
const CHECKPOINT_MAGIC: &str = "tessera-pattern-fit-checkpoint 2";

/// Writes `state` (with the data's fingerprint and the fit's `settings`, see
/// [`FitConfig::describe`]) to `path` atomically (a temporary file renamed over it).
///
/// # Errors
/// An unwritable file.
pub fn save_checkpoint(
    path: &Path,
    state: &FitState,
    fingerprint: u64,
    settings: &str,
) -> Result<(), String> {
    let mut bytes = format!(
        "{CHECKPOINT_MAGIC}\nepoch {} data {fingerprint:016x} settings {settings}\n",
        state.epoch
    )
    .into_bytes();
    for v in &state.w {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    super::checkpoint::write(path, &bytes)
}

/// Reads a checkpoint of a fit with `settings` (see [`FitConfig::describe`]) of `total`
/// weights; `None` if the file does not exist.
///
/// # Errors
/// An unreadable or malformed file, or one made on other data (another fingerprint) or
/// with other settings.
pub fn load_checkpoint(
    path: &Path,
    fingerprint: u64,
    settings: &str,
    total: usize,
) -> Result<Option<FitState>, String> {
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
    let (epoch, data, saved) = match f.as_slice() {
        ["epoch", e, "data", d, "settings", s] => (
            e.parse::<usize>().map_err(|_| err("bad epoch"))?,
            u64::from_str_radix(d, 16).map_err(|_| err("bad data fingerprint"))?,
            *s,
        ),
        _ => return Err(err("bad second line")),
    };
    if saved != settings {
        return Err(err(&format!(
            "made with other settings ({saved}, now {settings}): pass the same settings, or --fresh to start over"
        )));
    }
    if data != fingerprint {
        return Err(err(
            "made on other data (remove it, or pass --fresh, to start over)",
        ));
    }
    let body = lines.next().unwrap_or_default();
    if body.len() != 4 * total {
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
    use crate::games::othello::patterns::TOTAL_WEIGHTS;

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
            smooth: 0.0,
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

    /// The same on format 2 (stride 61, 30 stages), with the stage smoothing on: known
    /// weights (mobility, potential mobility, parity, a corner term) are fitted back.
    #[test]
    fn format_2_fit_recovers_known_weights() {
        let pos = positions(3000, 0xD1CE);
        let truth = |p: u64, o: u64| -> f32 {
            let mob_p = crate::games::othello::movegen::legal_moves(p, o).count_ones() as f32;
            let corners = ((p & 0x8100_0000_0000_0081).count_ones() as f32)
                - ((o & 0x8100_0000_0000_0081).count_ones() as f32);
            let odd = ((!(p | o)).count_ones() % 2) as f32;
            0.3 * mob_p + 2.0 * corners + 1.5 * odd
        };
        let mut data = Dataset::new(Set::V2);
        for p in &pos {
            data.push(p.player(), p.opponent(), truth(p.player(), p.opponent()));
        }
        assert_eq!(data.ids.len(), data.len() * v2::FEATURES);
        let n = counts(&data);
        let cfg = FitConfig {
            lr: 0.03,
            lambda: 0.0,
            smooth: 0.5,
        };
        let mut st = FitState::new(Set::V2);
        let first = mse(&st.w, &data);
        for _ in 0..100 {
            epoch(&mut st, &data, &n, &cfg);
        }
        let last = mse(&st.w, &data);
        assert!(last < first * 1e-2, "loss {first} -> {last}");
        let by_stage = mae_by_stage(&st.w, &data);
        assert_eq!(by_stage.iter().map(|e| e.1).sum::<usize>(), data.len());
        let pw = to_pattern_weights2(&st.w, Vec::new()).unwrap();
        for p in pos.iter().step_by(89) {
            let want = truth(p.player(), p.opponent()) * 100.0;
            let got = pw.score(p.player(), p.opponent()) as f32;
            assert!((got - want).abs() < 60.0, "{p}: {got} vs {want}");
        }
    }

    /// Repeats of a position in the same set are averaged into the first occurrence's
    /// label; a repeat on the other side of the held-out split is dropped.
    #[test]
    fn load_split_averages_repeated_positions() {
        let dir = std::env::temp_dir().join(format!("tessera-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = "---------------------------OX------XO--------------------------- X";
        let other = "-------------------X-------XX------XO--------------------------- O";
        let third = "-------------------X-------XX-----OXO--------------------------- X";
        // Game 0 and 1 trained on, game 19 held out (every 20th).
        let a = dir.join("a.txt");
        let game19 = format!("# game 19\n{other}\t-8\t-\n{third}\t6\t-\n");
        std::fs::write(
            &a,
            format!("# game 0\n{start}\t10\t-\n{other}\t4\t-\n{game19}"),
        )
        .unwrap();
        let b = dir.join("b.txt");
        std::fs::write(&b, format!("# game 1\n{start}\t-4\t-\n{other}\t2\t-\n")).unwrap();
        let split = load_split(&[a, b.clone()], Set::V2, 20).unwrap();
        // A file with no held-out game is refused (one shard of a run with an even count).
        let e = load_split(&[b], Set::V2, 20).unwrap_err();
        std::fs::remove_dir_all(&dir).ok();
        assert!(e.contains("no position is held out"), "{e}");
        assert_eq!(
            (split.train.len(), split.valid.len(), split.repeats),
            (2, 1, 3)
        );
        assert_eq!(split.valid.y, vec![6.0]);
        let mut y = split.train.y.clone();
        y.sort_by(f32::total_cmp);
        // start: (10 - 4) / 2; other: (4 + 2) / 2; the held-out repeat of `other` dropped.
        assert_eq!(y, vec![3.0, 3.0]);
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
            smooth: 0.0,
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
        let set = cfg.describe(Set::V1);
        save_checkpoint(&path, &a, fp, &set).unwrap();
        assert_eq!(
            load_checkpoint(&path, fp, &set, TOTAL_WEIGHTS).unwrap(),
            Some(a)
        );
        let e = load_checkpoint(&path, fp ^ 1, &set, TOTAL_WEIGHTS).unwrap_err();
        assert!(e.contains("other data"), "{e}");
        let other = FitConfig { lr: 0.2, ..cfg }.describe(Set::V1);
        let e = load_checkpoint(&path, fp, &other, TOTAL_WEIGHTS).unwrap_err();
        assert!(e.contains("other settings") && e.contains("lr=0.3"), "{e}");
        let e = load_checkpoint(&path, fp, &set, v2::TOTAL_WEIGHTS).unwrap_err();
        assert!(e.contains("wrong size"), "{e}");
        assert_eq!(
            load_checkpoint(&dir.join("none"), fp, &set, TOTAL_WEIGHTS).unwrap(),
            None
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
