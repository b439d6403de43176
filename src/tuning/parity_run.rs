//! Re-centring the format-2 Othello evaluation on exact scores ([`run`]): for each number of
//! empties, the mean residual (exact score minus evaluation) of the exact-labelled positions
//! of self-play data is added to the parity weight of that number of empties. Each 2-ply
//! stage holds one even and one odd number of empties, and its two parity weights are
//! exactly the evaluation's bias at those two counts, so the shift removes the measured bias
//! of each count and changes nothing else.
//!
//! Why: a pattern fit on game results leaves the side to move's score biased by the parity
//! of the empties (about a disc too low at odd counts and too high at even ones between 5
//! and 15 empties, measured on exact labels; `docs/measurements.md`, "Accuracy against
//! exact scores"), and the bias moves the reported score of every search whose leaves lie
//! there.

use std::collections::HashSet;
use std::path::PathBuf;

use super::error::TuneError;
use super::selfplay;
use crate::games::othello::Position;
use crate::games::othello::eval::Eval;
use crate::games::othello::patterns::v2::{self, PatternWeights2};

/// The fewest distinct exact-labelled positions a number of empties needs to be
/// re-centred by `tessera tune --method parity` (the mean residual's standard error is then
/// about 0.5 disc or less).
pub const MIN_POSITIONS: usize = 100;

/// A re-centring's settings.
#[derive(Clone, Debug)]
pub struct ParityConfig {
    /// Self-play data files (`tessera selfplay othello`); only positions with an exact
    /// label are used.
    pub data: Vec<PathBuf>,
    /// The format-2 weights to re-centre: a file or `builtin:patterns2`.
    pub weights: PathBuf,
    /// The weights file written.
    pub out: PathBuf,
    /// A number of empties is re-centred only with at least this many distinct
    /// exact-labelled positions (fewer leave its parity weight as it was).
    pub min_positions: usize,
}

/// The re-centring of one number of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParityShift {
    /// Number of empty squares.
    pub empties: u32,
    /// Distinct exact-labelled positions with that many empties.
    pub positions: usize,
    /// Their mean residual before (exact minus evaluation), centi-discs.
    pub mean_residual: f64,
    /// The shift added to the parity weight, centi-discs (0 below `min_positions`).
    pub shift: i32,
}

/// What a re-centring did.
#[derive(Clone, Debug)]
pub struct ParitySummary {
    /// Distinct exact-labelled positions read.
    pub positions: usize,
    /// Per number of empties with data, fewest empties first.
    pub shifts: Vec<ParityShift>,
}

impl ParitySummary {
    /// The re-centring for people: one line per number of empties, then the file written.
    #[must_use]
    pub fn lines(&self, out: &std::path::Path) -> Vec<String> {
        let mut lines = vec![format!(
            "{} distinct exact-labelled positions; per number of empties: positions, mean residual (exact - evaluation, centi-discs), parity weight shift",
            self.positions
        )];
        for s in &self.shifts {
            lines.push(format!(
                "{:>3} empties {:>7} {:>+8.1} {:>+5}",
                s.empties, s.positions, s.mean_residual, s.shift
            ));
        }
        lines.push(format!("wrote {}", out.display()));
        lines
    }

    /// The re-centring as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &std::path::Path) -> serde_json::Value {
        let shifts: Vec<serde_json::Value> = self
            .shifts
            .iter()
            .map(|s| {
                serde_json::json!({
                    "empties": s.empties, "positions": s.positions,
                    "mean_residual": s.mean_residual, "shift": s.shift,
                })
            })
            .collect();
        serde_json::json!({
            "out": out.display().to_string(),
            "positions": self.positions,
            "shifts": shifts,
        })
    }
}

/// Re-centres `cfg.weights` on the exact labels of `cfg.data` and writes the result to
/// `cfg.out` (the old header, then lines naming the command, the data and every shift).
///
/// # Errors
/// No data, unreadable or malformed data, weights that are not a format-2 pattern file, no
/// exact-labelled position, an unwritable output.
pub fn run(cfg: &ParityConfig) -> Result<ParitySummary, TuneError> {
    if cfg.data.is_empty() {
        return Err(TuneError::NoData(
            "--data FILE is required for --method parity (from `tessera selfplay othello --exact-empties E`)",
        ));
    }
    let eval = Eval::load(&cfg.weights).map_err(TuneError::Weights)?;
    let Some(old) = eval.patterns2() else {
        return Err(TuneError::Weights(format!(
            "--method parity re-centres a format-2 pattern file (as builtin:patterns2); {} is not one",
            cfg.weights.display()
        )));
    };
    let (positions, sums) = residuals(&cfg.data, old)?;
    let mut weights = old.values().to_vec();
    let mut shifts = Vec::new();
    for (e, &(sum, n)) in sums.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let empties = e as u32;
        let mean = sum as f64 / n as f64;
        let shift = if n >= cfg.min_positions {
            mean.round() as i32
        } else {
            0
        };
        let i = v2::stage(empties) * v2::STAGE_SIZE + v2::PARITY + (e & 1);
        weights[i] =
            (i32::from(weights[i]) + shift).clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        shifts.push(ParityShift {
            empties,
            positions: n,
            mean_residual: mean,
            shift,
        });
    }
    let names: Vec<String> = cfg.data.iter().map(|p| p.display().to_string()).collect();
    let mut header = old.header().to_vec();
    header.push(format!(
        "parity re-centred on exact labels: {}",
        super::command_line()
    ));
    header.push(format!(
        "re-centring data: {} ({positions} distinct exact-labelled positions; a count of empties with fewer than {} is left as it was)",
        names.join(", "),
        cfg.min_positions
    ));
    for s in &shifts {
        header.push(format!(
            "re-centred at {} empties: {} positions, mean residual {:+.1}, parity weight {:+}",
            s.empties, s.positions, s.mean_residual, s.shift
        ));
    }
    header.push(format!("re-centred: {}", super::utc_date()));
    let new = PatternWeights2::new(weights, header).map_err(TuneError::Weights)?;
    std::fs::write(&cfg.out, new.to_bytes()).map_err(|e| TuneError::WriteResult {
        path: cfg.out.clone(),
        message: e.to_string(),
    })?;
    Ok(ParitySummary { positions, shifts })
}

/// The distinct exact-labelled positions of `data` and, per number of empties (index
/// 0..=60), the sum of their residuals (exact x 100 minus `w`'s score) and their count.
fn residuals(
    data: &[PathBuf],
    w: &PatternWeights2,
) -> Result<(usize, [(i64, usize); 61]), TuneError> {
    let mut seen = HashSet::new();
    let mut sums = [(0i64, 0usize); 61];
    for path in data {
        for (line, s) in selfplay::read_numbered(path).map_err(TuneError::Data)? {
            let Some(exact) = s.exact else { continue };
            if !seen.insert(s.position.clone()) {
                continue;
            }
            let pos: Position = s.position.parse().map_err(|e| TuneError::DataLine {
                path: path.clone(),
                line,
                message: format!("not an Othello position: {e}"),
            })?;
            let residual =
                i64::from(exact) * 100 - i64::from(w.score(pos.player(), pos.opponent()));
            let slot = &mut sums[pos.empties() as usize];
            slot.0 += residual;
            slot.1 += 1;
        }
    }
    if seen.is_empty() {
        return Err(TuneError::EmptyData(
            "the data files hold no exact-labelled Othello position (give selfplay --exact-empties E)",
        ));
    }
    Ok((seen.len(), sums))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Positions of random games with `empties` empty squares (distinct, not finished).
    fn positions(empties: u32, count: usize, seed: u64) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        while out.len() < count {
            let mut p = Position::start();
            while p.empties() > empties && p.outcome().is_none() {
                let mut moves = <Position as Game>::Moves::default();
                p.generate_moves(&mut moves);
                p = p.play(moves[rng.random_range(0..moves.len())]);
            }
            if p.empties() == empties && p.outcome().is_none() && seen.insert(p) {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn shifts_each_count_by_its_mean_residual_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("tessera-parity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let w = v2::shipped();
        // 11 empties labelled 3 discs above the rounded evaluation, 12 empties 2 below,
        // 20 empties too few to shift.
        let mut text = String::new();
        let mut expected_mean = [0f64; 61];
        for (e, offset, n) in [(11u32, 3i32, 40usize), (12, -2, 40), (20, 5, 3)] {
            let mut sum = 0i64;
            for p in positions(e, n, u64::from(e)) {
                let score = w.score(p.player(), p.opponent());
                let label = (f64::from(score) / 100.0).round() as i32 + offset;
                sum += i64::from(label) * 100 - i64::from(score);
                text.push_str(&format!("{p}\t{label}\t{label}\n"));
                // A position without an exact label is not used.
                text.push_str(&format!("{}\t{}\t-\n", p.pass(), 64));
            }
            expected_mean[e as usize] = sum as f64 / n as f64;
        }
        let data = dir.join("data.txt");
        std::fs::write(&data, text).unwrap();
        let out = dir.join("w.bin");
        let cfg = ParityConfig {
            data: vec![data],
            weights: PathBuf::from("builtin:patterns2"),
            out: out.clone(),
            min_positions: 10,
        };
        let s = run(&cfg).unwrap();
        assert_eq!(s.positions, 83);
        let by: Vec<(u32, usize, i32)> = s
            .shifts
            .iter()
            .map(|x| (x.empties, x.positions, x.shift))
            .collect();
        let round = |e: usize| expected_mean[e].round() as i32;
        assert_eq!(
            by,
            vec![(11, 40, round(11)), (12, 40, round(12)), (20, 3, 0)]
        );
        assert!((250..=350).contains(&round(11)) && (-250..=-150).contains(&round(12)));
        let new = PatternWeights2::load(&out).unwrap();
        // Every weight but the two parity weights is unchanged.
        let changed: Vec<usize> = (0..v2::TOTAL_WEIGHTS)
            .filter(|&i| new.values()[i] != w.values()[i])
            .collect();
        assert_eq!(
            changed,
            vec![
                v2::stage(12) * v2::STAGE_SIZE + v2::PARITY,
                v2::stage(11) * v2::STAGE_SIZE + v2::PARITY + 1,
            ]
        );
        // The positions' scores moved by exactly the shift.
        for (e, p) in [(11u32, positions(11, 5, 11)), (12, positions(12, 5, 12))] {
            for q in p {
                let d = new.score(q.player(), q.opponent()) - w.score(q.player(), q.opponent());
                assert_eq!(d, round(e as usize), "{q}");
            }
        }
        assert!(
            new.header()
                .iter()
                .any(|h| h.starts_with("re-centred at 11 empties: 40 positions"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_data_without_exact_labels_and_format_1_weights() {
        let dir = std::env::temp_dir().join(format!("tessera-parity-e-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.txt");
        std::fs::write(&data, format!("{}\t4\t-\n", Position::start())).unwrap();
        let mut cfg = ParityConfig {
            data: vec![data],
            weights: PathBuf::from("builtin:patterns2"),
            out: dir.join("w.bin"),
            min_positions: 1,
        };
        let e = run(&cfg).unwrap_err().to_string();
        assert!(e.contains("no exact-labelled"), "{e}");
        cfg.weights = PathBuf::from("builtin:patterns");
        let e = run(&cfg).unwrap_err().to_string();
        assert!(e.contains("not one"), "{e}");
        assert!(!cfg.out.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
