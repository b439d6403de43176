//! An Othello pattern fit ([`run`]): the pattern evaluation's weights fitted by least
//! squares to self-play disc differences ([`super::patterns`] holds the data sets and the
//! gradient step), with a held-out loss per epoch, resumable from its checkpoint, writing a
//! pattern weights file.

use std::path::PathBuf;

use super::error::TuneError;
use super::patterns::{self as fit, Dataset, FitConfig, FitState, Set};
use super::progress::Progress;
use super::selfplay;

/// A pattern fit's settings.
#[derive(Clone, Debug)]
pub struct PatternsConfig {
    /// Self-play data files (`tessera selfplay othello`).
    pub data: Vec<PathBuf>,
    /// The weights file written at the end.
    pub out: PathBuf,
    /// The checkpoint, written after every epoch.
    pub checkpoint: PathBuf,
    /// Ignore an existing checkpoint.
    pub fresh: bool,
    /// Total epochs (a resumed fit runs the rest).
    pub epochs: usize,
    /// The evaluation fitted: format 1 or 2.
    pub set: Set,
    /// The scale of each weight's step, in (0, 2] (above about 0.04 the fit diverges).
    pub lr: f32,
    /// L2 penalty, in occurrences (>= 0).
    pub lambda: f32,
    /// Format 2: pull towards the neighbouring stages' weights, in occurrences (>= 0;
    /// `None`: 4). Format 1 takes none.
    pub smooth: Option<f32>,
    /// Worker threads.
    pub threads: usize,
}

/// What a pattern fit did.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternsSummary {
    /// Epochs done in all.
    pub epochs: usize,
    /// Training root mean squared error of the last epoch run here, discs (NaN when none).
    pub train_rmse: f64,
    /// Held-out root mean squared error of the weights written, discs.
    pub validation_rmse: f64,
    /// Training positions.
    pub train: usize,
    /// Held-out positions.
    pub validation: usize,
}

/// The held-out mean absolute error per 10-ply phase of the fitted format-2 weights `w`
/// next to the shipped format-1 evaluation's on the same positions, as text rows (also
/// appended to `header`).
fn held_out_by_stage(
    w: &[f32],
    valid: &Dataset,
    positions: &[(u64, u64)],
    header: &mut Vec<String>,
) -> Vec<String> {
    use crate::games::othello::patterns::{shipped, v2};
    let new = fit::mae_by_stage(w, valid);
    let old = shipped();
    // Format 1's error on the same positions, by format-2 stage.
    let mut old_sum = vec![0f64; v2::STAGES];
    for (k, &(p, o)) in positions.iter().enumerate() {
        let e = f64::from(old.score(p, o)) / 100.0 - f64::from(valid.y[k]);
        old_sum[valid.stage_of(k)] += e.abs();
    }
    let mut rows = vec![
        "held-out mean absolute error (discs) by empties: new (format 2) | shipped format 1 | positions"
            .to_string(),
    ];
    let plies = 5; // format-2 stages per row: 10 plies
    for first in (0..v2::STAGES).step_by(plies) {
        let range = first..(first + plies).min(v2::STAGES);
        let n: usize = new[range.clone()].iter().map(|e| e.1).sum();
        if n == 0 {
            continue;
        }
        let mae_new: f64 = new[range.clone()]
            .iter()
            .map(|e| e.0 * e.1 as f64)
            .sum::<f64>()
            / n as f64;
        let mae_old: f64 = old_sum[range.clone()].iter().sum::<f64>() / n as f64;
        let hi = 60 - v2::STAGE_PLIES as usize * range.start;
        let lo = 60usize.saturating_sub(v2::STAGE_PLIES as usize * range.end - 1);
        rows.push(format!(
            "  {hi:>2}-{lo:>2} empties: {mae_new:6.3} | {mae_old:6.3} | {n}"
        ));
    }
    let n = valid.len().max(1) as f64;
    let all_new: f64 = new.iter().map(|e| e.0 * e.1 as f64).sum::<f64>() / n;
    let all_old: f64 = old_sum.iter().sum::<f64>() / n;
    rows.push(format!(
        "  all: {all_new:6.3} | {all_old:6.3} | {}",
        valid.len()
    ));
    header.extend(rows.iter().map(|r| r.trim_start().to_string()));
    rows
}

/// Fits the Othello pattern evaluation `cfg.set`: every 20th position held out (format 2:
/// every 20th game, data deduplicated across files), full-batch gradient descent
/// preconditioned per weight on `cfg.threads` threads; the checkpoint is written after every
/// epoch and the weights file at the end (format 2: with the held-out error by stage, also
/// reported as notes). [`super::outputs::check_outputs`] checks the files first.
///
/// # Errors
/// No or bad data, a bad setting, a checkpoint of other data or settings or ahead of
/// `epochs`, an unwritable file.
pub fn run(cfg: &PatternsConfig, progress: &dyn Progress) -> Result<PatternsSummary, TuneError> {
    if cfg.data.is_empty() {
        return Err(TuneError::NoData(
            "--data FILE is required for this method (from `tessera selfplay`)",
        ));
    }
    let set = cfg.set;
    let lr = cfg.lr;
    if !(lr.is_finite() && lr > 0.0 && lr <= 2.0) {
        return Err(TuneError::BadValue {
            flag: "--lr",
            wanted: "in (0, 2]",
            got: lr.to_string(),
        });
    }
    if !(cfg.lambda.is_finite() && cfg.lambda >= 0.0) {
        return Err(TuneError::BadValue {
            flag: "--lambda",
            wanted: ">= 0",
            got: cfg.lambda.to_string(),
        });
    }
    let smooth = match (set, cfg.smooth) {
        (Set::V1, Some(_)) => {
            return Err(TuneError::Conflict(
                "--smooth needs --set 2 (format 1 has 10 stages)",
            ));
        }
        (Set::V1, None) => 0.0,
        (Set::V2, s) => s.unwrap_or(4.0),
    };
    if !(smooth.is_finite() && smooth >= 0.0) {
        return Err(TuneError::BadValue {
            flag: "--smooth",
            wanted: ">= 0",
            got: smooth.to_string(),
        });
    }
    let pool = super::run::thread_pool(cfg.threads)?;
    let (train, valid, valid_positions, exact, repeats) = if set == Set::V2 {
        let split = fit::load_split(&cfg.data, set, 20).map_err(TuneError::Data)?;
        (
            split.train,
            split.valid,
            split.valid_positions,
            split.exact,
            split.repeats,
        )
    } else {
        let mut samples = Vec::new();
        for path in &cfg.data {
            samples.extend(selfplay::read(path).map_err(TuneError::Data)?);
        }
        if samples.is_empty() {
            return Err(TuneError::EmptyData("the data files hold no positions"));
        }
        let exact = samples.iter().filter(|s| s.exact.is_some()).count();
        let (train, valid) =
            Dataset::from_samples(&samples, 20).map_err(|message| TuneError::DataSet {
                files: cfg.data.clone(),
                message,
            })?;
        (train, valid, Vec::new(), exact, 0)
    };
    let fingerprint = train.fingerprint();
    let ckpt = &cfg.checkpoint;
    let fit_cfg = FitConfig {
        lr,
        lambda: cfg.lambda,
        smooth,
    };
    let settings = fit_cfg.describe(set);
    let mut state = if cfg.fresh {
        FitState::new(set)
    } else {
        fit::load_checkpoint(ckpt, fingerprint, &settings, set.total())
            .map_err(TuneError::Checkpoint)?
            .unwrap_or_else(|| FitState::new(set))
    };
    super::run::check_resume(ckpt, state.epoch, cfg.epochs, "epochs")?;
    if state.epoch > 0 {
        progress.note(&super::run::resuming_note(ckpt, state.epoch, cfg.epochs));
    }
    let n = fit::counts(&train);
    progress.start("epoch", cfg.epochs as u64, state.epoch as u64);
    let mut last = (f64::NAN, f64::NAN);
    pool.install(|| -> Result<(), TuneError> {
        while state.epoch < cfg.epochs {
            let train_mse = fit::epoch(&mut state, &train, &n, &fit_cfg);
            let valid_mse = fit::mse(&state.w, &valid);
            last = (train_mse, valid_mse);
            let line = format!(
                "epoch {:>4}: train rmse {:.3} discs, validation rmse {:.3} discs",
                state.epoch,
                train_mse.sqrt(),
                valid_mse.sqrt()
            );
            progress.step(&line, &format!("valid rmse {:.3}", valid_mse.sqrt()));
            fit::save_checkpoint(ckpt, &state, fingerprint, &settings)
                .map_err(TuneError::Checkpoint)?;
        }
        Ok(())
    })?;
    progress.finish();
    let valid_mse = pool.install(|| fit::mse(&state.w, &valid));
    let data_names: Vec<String> = cfg.data.iter().map(|p| p.display().to_string()).collect();
    let mut header = vec![
        format!(
            "Othello pattern weights{} (centi-discs), fitted by least squares on disc difference",
            if set == Set::V2 { ", format 2" } else { "" }
        ),
        format!("command: {}", super::command_line()),
        format!(
            "data: {} ({} training + {} validation positions, {exact} with exact labels)",
            data_names.join(", "),
            train.len(),
            valid.len()
        ),
        format!(
            "epochs {}, lr {}, lambda {}{}, validation rmse {:.3} discs, date {}",
            state.epoch,
            lr,
            cfg.lambda,
            if set == Set::V2 {
                format!(", smooth {smooth}")
            } else {
                String::new()
            },
            valid_mse.sqrt(),
            super::utc_date()
        ),
    ];
    let by_stage = (set == Set::V2)
        .then(|| held_out_by_stage(&state.w, &valid, &valid_positions, &mut header));
    if repeats > 0 {
        header.push(format!(
            "{repeats} repeated positions: labels averaged into the first occurrence (dropped when the first was on the other side of the held-out split)"
        ));
    }
    let bytes = match set {
        Set::V1 => fit::to_pattern_weights(&state.w, header)
            .map_err(TuneError::Failed)?
            .to_bytes(),
        Set::V2 => fit::to_pattern_weights2(&state.w, header)
            .map_err(TuneError::Failed)?
            .to_bytes(),
    };
    super::outputs::create_parent(&cfg.out)?;
    for r in by_stage.iter().flatten() {
        progress.note(r);
    }
    std::fs::write(&cfg.out, bytes).map_err(|e| TuneError::Write {
        path: cfg.out.clone(),
        message: e.to_string(),
    })?;
    Ok(PatternsSummary {
        epochs: state.epoch,
        train_rmse: last.0.sqrt(),
        validation_rmse: valid_mse.sqrt(),
        train: train.len(),
        validation: valid.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::progress::Silent;

    #[test]
    fn settings_are_checked_before_the_data_is_read() {
        let mut cfg = PatternsConfig {
            data: vec!["no-such-file.txt".into()],
            out: "w.bin".into(),
            checkpoint: "w.ckpt".into(),
            fresh: false,
            epochs: 1,
            set: Set::V1,
            lr: 0.02,
            lambda: 4.0,
            smooth: Some(1.0),
            threads: 1,
        };
        assert_eq!(
            run(&cfg, &Silent).unwrap_err().to_string(),
            "--smooth needs --set 2 (format 1 has 10 stages)"
        );
        cfg.smooth = None;
        cfg.lr = 3.0;
        assert_eq!(
            run(&cfg, &Silent).unwrap_err().to_string(),
            "--lr must be in (0, 2], got 3"
        );
        cfg.lr = 0.02;
        cfg.lambda = -1.0;
        assert_eq!(
            run(&cfg, &Silent).unwrap_err().to_string(),
            "--lambda must be >= 0, got -1"
        );
        cfg.lambda = 4.0;
        assert!(matches!(run(&cfg, &Silent), Err(TuneError::Data(_))));
        cfg.data.clear();
        assert!(matches!(run(&cfg, &Silent), Err(TuneError::NoData(_))));
    }

    #[test]
    fn a_small_fit_runs_and_reports_each_epoch() {
        use crate::tournament::openings::OpeningSource;
        use std::sync::Mutex;
        struct Lines(Mutex<Vec<String>>);
        impl Progress for Lines {
            fn note(&self, _: &str) {}
            fn start(&self, _: &'static str, _: u64, _: u64) {}
            fn step(&self, line: &str, _: &str) {
                self.0.lock().unwrap().push(line.to_string());
            }
            fn position(&self, _: u64) {}
            fn finish(&self) {}
        }
        let dir = std::env::temp_dir().join(format!("tessera-patterns-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = String::new();
        for i in 0..60 {
            let pos = OpeningSource::RandomPlies(10)
                .opening::<crate::games::othello::Position>(i, 2)
                .unwrap()
                .position;
            text.push_str(&format!("{pos}\t{}\t-\n", (i % 7) as i32 * 2 - 6));
        }
        std::fs::write(dir.join("d.txt"), text).unwrap();
        let cfg = PatternsConfig {
            data: vec![dir.join("d.txt")],
            out: dir.join("w.bin"),
            checkpoint: dir.join("w.ckpt"),
            fresh: false,
            epochs: 3,
            set: Set::V1,
            lr: 0.02,
            lambda: 4.0,
            smooth: None,
            threads: 1,
        };
        let lines = Lines(Mutex::new(Vec::new()));
        let s = run(&cfg, &lines).unwrap();
        assert_eq!(s.epochs, 3);
        assert_eq!(s.train + s.validation, 60);
        let lines = lines.0.into_inner().unwrap();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with("epoch    3: train rmse "), "{lines:?}");
        crate::games::othello::patterns::PatternWeights::load(&cfg.out).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
