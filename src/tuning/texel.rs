//! Texel tuning of an evaluation that is linear in its weights: a logistic fit of the
//! evaluation to game results.
//!
//! Each sample is a coefficient row `c` and a constant `b` (the score is
//! `b + sum(w[i] * c[i])`, in the evaluation's unit; `b` holds terms no weight scales, such
//! as Talat's points already won) and a result `r` in {0, 1/2, 1} for the side to move (or,
//! for a comparison of two seats, for the first of them). The predicted
//! result is `sigmoid(K * score)`; the loss is the mean of `(sigmoid(K * score) - r)^2`
//! (Peter Österlund's Texel method). `K` is fitted once for the starting weights (a
//! golden-section search on log K), then the weights are fitted with Adam on the full batch
//! (gradient summed over fixed chunks on rayon threads, so the result does not depend on the
//! thread count), kept inside their registry ranges, and rounded at the end.

use rayon::prelude::*;

use super::Param;

/// Samples: coefficient rows (`width` per sample) and results.
#[derive(Clone, Debug, Default)]
pub struct TexelData {
    /// Coefficients per weight, sample-major.
    pub coef: Vec<f32>,
    /// The score's constant term per sample (0 for a purely linear evaluation).
    pub offset: Vec<f32>,
    /// Result for the side to move: 0 loss, 0.5 draw, 1 win.
    pub result: Vec<f32>,
    /// Weights per sample.
    pub width: usize,
}

impl TexelData {
    /// Empty data with `width` coefficients per sample.
    #[must_use]
    pub fn new(width: usize) -> Self {
        Self {
            width,
            ..Self::default()
        }
    }

    /// Adds a sample whose score is `sum(w[i] * coef[i])`.
    pub fn push(&mut self, coef: &[f32], result: f32) {
        self.push_with_offset(coef, 0.0, result);
    }

    /// Adds a sample whose score is `offset + sum(w[i] * coef[i])`.
    pub fn push_with_offset(&mut self, coef: &[f32], offset: f32, result: f32) {
        debug_assert_eq!(coef.len(), self.width);
        self.coef.extend_from_slice(coef);
        self.offset.push(offset);
        self.result.push(result);
    }

    /// Sample `i`'s coefficients.
    #[inline]
    fn row(&self, i: usize) -> &[f32] {
        &self.coef[i * self.width..(i + 1) * self.width]
    }

    /// Sample `i`'s score under the weights `w`: `offset + sum(w * coef)`.
    #[inline]
    fn score(&self, i: usize, w: &[f64]) -> f64 {
        let dot: f64 = self
            .row(i)
            .iter()
            .zip(w)
            .map(|(&c, &w)| f64::from(c) * w)
            .sum();
        f64::from(self.offset[i]) + dot
    }

    /// A 64-bit FNV-1a hash of every coefficient, constant and result: two data sets with
    /// the same fingerprint are (almost surely) the same rows.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let bits = self
            .coef
            .iter()
            .chain(&self.offset)
            .chain(&self.result)
            .map(|x| x.to_bits());
        for b in std::iter::once(self.width as u32).chain(bits) {
            for byte in b.to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fixed number of chunks the samples are split into.
const CHUNKS: usize = 8;

fn chunk_bounds(n: usize, c: usize) -> (usize, usize) {
    let per = n.div_ceil(CHUNKS).max(1);
    ((c * per).min(n), ((c + 1) * per).min(n))
}

/// Mean squared error of `sigmoid(k * score)` against the results.
#[must_use]
pub fn loss(w: &[f64], k: f64, data: &TexelData) -> f64 {
    let sum: f64 = (0..CHUNKS)
        .into_par_iter()
        .map(|c| {
            let (lo, hi) = chunk_bounds(data.len(), c);
            let mut s = 0.0;
            for i in lo..hi {
                let d = sigmoid(k * data.score(i, w)) - f64::from(data.result[i]);
                s += d * d;
            }
            s
        })
        .collect::<Vec<f64>>()
        .into_iter()
        .sum();
    sum / data.len().max(1) as f64
}

/// The scale `K` (per evaluation unit) that minimises the loss of `w`: golden-section
/// search on log K over [1e-5, 1].
#[must_use]
pub fn fit_k(w: &[f64], data: &TexelData) -> f64 {
    let (mut a, mut b) = (1e-5f64.ln(), 1f64.ln());
    let g = 0.618_033_988_749_895;
    let f = |x: f64| loss(w, x.exp(), data);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Adam state of a Texel fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelState {
    /// Weights (floating point, inside their ranges).
    pub w: Vec<f64>,
    /// Adam first moments.
    pub m: Vec<f64>,
    /// Adam second moments.
    pub v: Vec<f64>,
    /// Steps taken.
    pub epoch: usize,
    /// The fitted scale.
    pub k: f64,
    /// What the fit runs on (game, data fingerprint, settings), one line: a checkpoint
    /// resumes only the same run.
    pub run: String,
}

impl TexelState {
    /// A fit starting from `w` with scale `k`.
    #[must_use]
    pub fn new(w: Vec<f64>, k: f64) -> Self {
        let n = w.len();
        Self {
            w,
            m: vec![0.0; n],
            v: vec![0.0; n],
            epoch: 0,
            k,
            run: String::new(),
        }
    }

    /// Text form for checkpoints: `run`, `k`, `epoch`, then `w m v` per line.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "texel-checkpoint 2\nrun {}\nk {:e}\nepoch {}\n",
            self.run, self.k, self.epoch
        );
        for i in 0..self.w.len() {
            s.push_str(&format!(
                "{:e} {:e} {:e}\n",
                self.w[i], self.m[i], self.v[i]
            ));
        }
        s
    }

    /// Parses [`TexelState::to_text`] for `n` weights.
    ///
    /// # Errors
    /// A malformed checkpoint (a scale that is not a finite number > 0, an epoch that is not
    /// a whole number, a weight or moment that is not finite) or one for another number of
    /// weights.
    pub fn from_text(text: &str, n: usize) -> Result<Self, String> {
        let mut lines = text.lines();
        if lines.next() != Some("texel-checkpoint 2") {
            return Err("not a Texel checkpoint (of this tessera version)".into());
        }
        let field = |l: Option<&str>, key: &str| -> Result<String, String> {
            l.and_then(|l| l.strip_prefix(key))
                .map(|v| v.trim().to_string())
                .ok_or_else(|| format!("bad '{}' line", key.trim()))
        };
        let run = field(lines.next(), "run ")?;
        let k: f64 = field(lines.next(), "k ")?
            .parse()
            .ok()
            .filter(|k: &f64| k.is_finite() && *k > 0.0)
            .ok_or("the scale k is not a finite number > 0")?;
        let epoch: usize = field(lines.next(), "epoch ")?
            .parse()
            .map_err(|_| "the epoch is not a whole number".to_string())?;
        let mut st = Self::new(Vec::new(), k);
        st.epoch = epoch;
        st.run = run;
        for l in lines {
            let v: Vec<f64> = l
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| format!("bad weight line '{}'", crate::game::shown(l)))?;
            if v.len() != 3 || v.iter().any(|x| !x.is_finite()) {
                return Err(format!("bad weight line '{}'", crate::game::shown(l)));
            }
            st.w.push(v[0]);
            st.m.push(v[1]);
            st.v.push(v[2]);
        }
        if st.w.len() != n {
            return Err(format!("{} weights, expected {n}", st.w.len()));
        }
        Ok(st)
    }
}

/// One Adam step of size `lr` (weight units) on the full batch; weights are clamped to
/// their `registry` ranges. Returns the loss before the step.
pub fn step(state: &mut TexelState, data: &TexelData, registry: &[Param], lr: f64) -> f64 {
    let wd = data.width;
    let k = state.k;
    let w = &state.w;
    let parts: Vec<(Vec<f64>, f64)> = (0..CHUNKS)
        .into_par_iter()
        .map(|c| {
            let (lo, hi) = chunk_bounds(data.len(), c);
            let mut g = vec![0.0; wd];
            let mut l = 0.0;
            for i in lo..hi {
                let row = data.row(i);
                let s = sigmoid(k * data.score(i, w));
                let d = s - f64::from(data.result[i]);
                l += d * d;
                let factor = 2.0 * d * s * (1.0 - s) * k;
                for (gj, &cj) in g.iter_mut().zip(row) {
                    *gj += factor * f64::from(cj);
                }
            }
            (g, l)
        })
        .collect();
    let n = data.len().max(1) as f64;
    let mut g = vec![0.0; wd];
    let mut total = 0.0;
    for (gc, l) in parts {
        total += l;
        for (a, b) in g.iter_mut().zip(gc) {
            *a += b / n;
        }
    }
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    state.epoch += 1;
    let t = state.epoch as i32;
    for j in 0..wd {
        state.m[j] = b1 * state.m[j] + (1.0 - b1) * g[j];
        state.v[j] = b2 * state.v[j] + (1.0 - b2) * g[j] * g[j];
        let mh = state.m[j] / (1.0 - b1.powi(t));
        let vh = state.v[j] / (1.0 - b2.powi(t));
        let p = &registry[j];
        state.w[j] =
            (state.w[j] - lr * mh / (vh.sqrt() + eps)).clamp(f64::from(p.min), f64::from(p.max));
    }
    total / n
}

/// The weights rounded to integers (inside their ranges).
#[must_use]
pub fn rounded(state: &TexelState, registry: &[Param]) -> Vec<i32> {
    state
        .w
        .iter()
        .zip(registry)
        .map(|(&w, p)| (w.round() as i32).clamp(p.min, p.max))
        .collect()
}

/// A game whose evaluation Texel tuning can fit: its weights registry and how one
/// self-play sample becomes coefficient rows (one per comparison the sample holds).
pub trait TexelGame {
    /// The registry the rows' columns follow.
    const REGISTRY: &'static [Param];
    /// What the weights are, for the tuned file's header (e.g. "Quixo evaluation weights").
    const TITLE: &'static str;
    /// Unit of the evaluation's scores (e.g. "centi-discs").
    const UNIT: &'static str;
    /// What a self-play sample's result field holds (for data file headers).
    const LABEL: &'static str;

    /// The evaluation weights (registry order) an engine specification asks for.
    ///
    /// # Errors
    /// As `EngineSpec::eval_weights` (an unreadable or bad weights file).
    fn weights_of(spec: &crate::engine::EngineSpec) -> Result<Vec<i32>, String>;

    /// Adds the rows of `sample` to `data` (width `REGISTRY.len()`).
    ///
    /// # Errors
    /// A position that does not parse for this game, or a sample without what this game's
    /// rows need (three-player Talat: every seat's final score).
    fn add_rows(sample: &super::selfplay::Sample, data: &mut TexelData) -> Result<(), String>;
}

/// A result label from a margin's sign: 1 win, 0.5 draw, 0 loss.
#[must_use]
pub fn result_of(margin: i32) -> f32 {
    match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two weights in [-500, 500], default 10.
    const REG: [Param; 2] = [
        Param {
            name: "a",
            default: 10,
            min: -500,
            max: 500,
            step: 5,
        },
        Param {
            name: "b",
            default: 10,
            min: -500,
            max: 500,
            step: 5,
        },
    ];

    /// 40 000 results drawn from `sigmoid(k_true * (offset + truth . c))` (offsets uniform
    /// in `offsets`, or none), coefficients uniform in [-2, 2]; then K fitted for the true
    /// weights and 600 Adam steps from (10, 10). Returns the data, K and the state.
    fn fit_known_model(
        truth: [f64; 2],
        k_true: f64,
        offsets: Option<(f64, f64)>,
    ) -> (TexelData, f64, TexelState) {
        let mut data = TexelData::new(2);
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..40_000 {
            let c = [(rnd() * 4.0 - 2.0) as f32, (rnd() * 4.0 - 2.0) as f32];
            let offset = offsets.map_or(0.0, |(lo, hi)| (lo + rnd() * (hi - lo)) as f32);
            let score = f64::from(offset) + truth[0] * f64::from(c[0]) + truth[1] * f64::from(c[1]);
            let r = if rnd() < sigmoid(k_true * score) {
                1.0
            } else {
                0.0
            };
            data.push_with_offset(&c, offset, r);
        }
        let k = fit_k(&truth, &data);
        let mut st = TexelState::new(vec![10.0, 10.0], k);
        for _ in 0..600 {
            step(&mut st, &data, &REG, 2.0);
        }
        (data, k, st)
    }

    /// Results drawn from a known logistic model with a constant term per sample are fitted
    /// back: the constant is used, not fitted (a fit that ignored it would land elsewhere).
    #[test]
    fn texel_with_offsets_recovers_a_known_model() {
        let (_, k, st) = fit_known_model([80.0, -30.0], 0.01, Some((-100.0, 200.0)));
        assert!((k / 0.01 - 1.0).abs() < 0.1, "K {k}");
        let w = rounded(&st, &REG);
        assert!((w[0] - 80).abs() <= 10 && (w[1] + 30).abs() <= 10, "{w:?}");
    }

    /// Results drawn from a known logistic model are fitted back: K and the weights.
    #[test]
    fn texel_recovers_a_known_model() {
        let k_true = 0.01;
        // With the true weights K is found; then weights from a poor start are found.
        let (data, k, st) = fit_known_model([120.0, -40.0], k_true, None);
        assert!((k / k_true - 1.0).abs() < 0.1, "K {k}");
        let w = rounded(&st, &REG);
        assert!((w[0] - 120).abs() <= 15 && (w[1] + 40).abs() <= 10, "{w:?}");
        let back = TexelState::from_text(&st.to_text(), 2).unwrap();
        assert_eq!(back.epoch, st.epoch);
        assert!((back.w[0] - st.w[0]).abs() < 1e-9);
        assert!(TexelState::from_text("nope", 2).is_err());
        assert!(TexelState::from_text(&st.to_text(), 3).is_err());
        // Corrupt values are refused, not resumed into garbage.
        let text = st.to_text();
        let k_line = text.lines().nth(2).unwrap().to_string();
        for bad in ["k nan", "k -1", "k 0"] {
            let e = TexelState::from_text(&text.replace(&k_line, bad), 2).unwrap_err();
            assert!(e.contains("scale k"), "{bad}: {e}");
        }
        let e_line = text.lines().nth(3).unwrap().to_string();
        for bad in ["epoch 1e30", "epoch -3", "epoch 2.5"] {
            let e = TexelState::from_text(&text.replace(&e_line, bad), 2).unwrap_err();
            assert!(e.contains("epoch"), "{bad}: {e}");
        }
        let w_line = text.lines().nth(4).unwrap().to_string();
        assert!(TexelState::from_text(&text.replace(&w_line, "NaN 0 0"), 2).is_err());
        // The fingerprint sees any change of the rows.
        let mut other = data.clone();
        assert_eq!(other.fingerprint(), data.fingerprint());
        other.result[7] = 1.0 - other.result[7];
        assert_ne!(other.fingerprint(), data.fingerprint());
    }
}
