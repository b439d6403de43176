//! A Texel fit ([`run`]): a game's named evaluation weights fitted to self-play results
//! ([`super::texel`] holds the loss and the Adam step), resumable from its checkpoint,
//! writing a weights file.

use std::path::PathBuf;

use super::error::TuneError;
use super::progress::Progress;
use super::texel::{self, TexelData, TexelGame, TexelState};
use super::{checkpoint, selfplay};
use crate::game::Game;
use crate::games::GameId;

/// A Texel fit's settings.
#[derive(Clone, Debug)]
pub struct TexelConfig {
    /// Self-play data files (`tessera selfplay`).
    pub data: Vec<PathBuf>,
    /// The weights file written at the end.
    pub out: PathBuf,
    /// The checkpoint, written after every epoch.
    pub checkpoint: PathBuf,
    /// Ignore an existing checkpoint.
    pub fresh: bool,
    /// Total epochs (a resumed fit runs the rest).
    pub epochs: usize,
    /// Adam's step in weight units (finite, > 0).
    pub lr: f32,
    /// Worker threads.
    pub threads: usize,
}

/// What a Texel fit did.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelSummary {
    /// Epochs done in all.
    pub epochs: usize,
    /// The logistic scale K, per unit of the evaluation's score.
    pub k: f64,
    /// The loss of the registry's defaults.
    pub loss_defaults: f64,
    /// The loss of the weights written.
    pub loss: f64,
    /// Positions read.
    pub positions: usize,
    /// Rows fitted (Talat: one per pair of seats compared).
    pub rows: usize,
}

/// [`run`] for the game `game`.
///
/// # Errors
/// As [`run`].
pub fn run_game(
    game: GameId,
    cfg: &TexelConfig,
    progress: &dyn Progress,
) -> Result<TexelSummary, TuneError> {
    crate::for_game!(game, run(cfg, progress))
}

/// Fits game `G`'s evaluation weights (its [`TexelGame`] rows): K fitted once for the
/// defaults, then Adam on the full batch, weights kept in their registry ranges; the
/// checkpoint is written after every epoch and the weights file at the end.
/// [`super::outputs::check_outputs`] checks the files first.
///
/// # Errors
/// No or bad data, a bad setting, a checkpoint of another fit or ahead of `epochs`, an
/// unwritable file.
pub fn run<G: TexelGame + Game>(
    cfg: &TexelConfig,
    progress: &dyn Progress,
) -> Result<TexelSummary, TuneError> {
    let registry = G::REGISTRY;
    if cfg.data.is_empty() {
        return Err(TuneError::NoData(
            "--data FILE is required for this method (from `tessera selfplay`)",
        ));
    }
    let lr = cfg.lr;
    if !(lr.is_finite() && lr > 0.0) {
        return Err(TuneError::BadValue {
            flag: "--lr",
            wanted: "a finite number > 0",
            got: lr.to_string(),
        });
    }
    let pool = super::run::thread_pool(cfg.threads)?;
    let mut data = TexelData::new(registry.len());
    let mut samples = 0usize;
    for path in &cfg.data {
        for (line, s) in selfplay::read_numbered(path).map_err(TuneError::Data)? {
            G::add_rows(&s, &mut data).map_err(|message| TuneError::DataLine {
                path: path.clone(),
                line,
                message,
            })?;
            samples += 1;
        }
    }
    if data.is_empty() {
        return Err(TuneError::EmptyData("the data files hold no positions"));
    }
    let ckpt = &cfg.checkpoint;
    let start: Vec<f64> = super::params::defaults(registry)
        .iter()
        .map(|&w| f64::from(w))
        .collect();
    let resumed = if cfg.fresh {
        None
    } else {
        match crate::game::files::read_text_if_exists(ckpt, "checkpoint", 1 << 30)
            .map_err(|e| TuneError::Checkpoint(e.into()))?
        {
            Some(text) => Some(TexelState::from_text(&text, registry.len()).map_err(|e| {
                TuneError::Checkpoint(format!("checkpoint {}: {e}", ckpt.display()))
            })?),
            None => None,
        }
    };
    // The run a checkpoint belongs to: the game, the rows and the step size.
    let run = format!(
        "{} rows {} fingerprint {:016x} lr {lr}",
        G::ID,
        data.len(),
        data.fingerprint()
    );
    let mut state = match resumed {
        Some(st) => {
            if st.run != run {
                return Err(TuneError::CheckpointOtherRun {
                    path: ckpt.clone(),
                    what: format!(
                        "another fit (its run: '{}'; this one: '{run}')",
                        crate::game::shown(&st.run)
                    ),
                });
            }
            super::run::check_resume(ckpt, st.epoch, cfg.epochs, "epochs")?;
            progress.note(&super::run::resuming_note(ckpt, st.epoch, cfg.epochs));
            st
        }
        None => {
            let k = pool.install(|| texel::fit_k(&start, &data));
            let mut st = TexelState::new(start.clone(), k);
            st.run = run;
            st
        }
    };
    let start_loss = pool.install(|| texel::loss(&start, state.k, &data));
    let unit = G::UNIT.trim_end_matches('s');
    progress.note(&format!(
        "{samples} positions, {} rows; K = {:.6} per {unit}; loss of the defaults {start_loss:.6}",
        data.len(),
        state.k
    ));
    progress.start("epoch", cfg.epochs as u64, state.epoch as u64);
    pool.install(|| -> Result<(), TuneError> {
        while state.epoch < cfg.epochs {
            let l = texel::step(&mut state, &data, registry, f64::from(lr));
            let line = format!("epoch {:>4}: loss {l:.6}", state.epoch);
            progress.step(&line, &format!("loss {l:.6}"));
            checkpoint::write(ckpt, state.to_text().as_bytes()).map_err(TuneError::Checkpoint)?;
        }
        Ok(())
    })?;
    progress.finish();
    let values = texel::rounded(&state, registry);
    let final_loss = pool.install(|| {
        let w: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        texel::loss(&w, state.k, &data)
    });
    let data_names: Vec<String> = cfg.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        format!("{}, Texel-tuned (logistic fit to game results)", G::TITLE),
        format!("command: {}", super::command_line()),
        format!(
            "data: {} ({samples} positions, {} rows)",
            data_names.join(", "),
            data.len()
        ),
        format!(
            "K {:.6} per {unit}, Adam lr {}, epochs {}, loss {start_loss:.6} (defaults) -> {final_loss:.6}, date {}",
            state.k,
            lr,
            state.epoch,
            super::utc_date()
        ),
    ];
    std::fs::write(&cfg.out, super::params::to_text(registry, &values, &header)).map_err(|e| {
        TuneError::Write {
            path: cfg.out.clone(),
            message: e.to_string(),
        }
    })?;
    Ok(TexelSummary {
        epochs: state.epoch,
        k: state.k,
        loss_defaults: start_loss,
        loss: final_loss,
        positions: samples,
        rows: data.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::progress::Silent;

    /// Twelve Quixo positions labelled with a result each (`tessera selfplay quixo` lines).
    fn data(dir: &std::path::Path) -> PathBuf {
        use crate::games::quixo::Quixo;
        use crate::tournament::openings::OpeningSource;
        let mut text = String::from("# made by the test\n");
        for i in 0..12 {
            let pos = OpeningSource::RandomPlies(6)
                .opening::<Quixo>(i, 1)
                .unwrap()
                .position;
            let result = [1, 0, -1][i % 3];
            text.push_str(&format!("{pos}\t{result}\t-\n"));
        }
        let path = dir.join("q.txt");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_fit_lowers_the_loss_resumes_and_refuses_other_data() {
        let dir = std::env::temp_dir().join(format!("tessera-texel-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut cfg = TexelConfig {
            data: vec![data(&dir)],
            out: dir.join("w.txt"),
            checkpoint: dir.join("w.ckpt"),
            fresh: false,
            epochs: 5,
            lr: 1.0,
            threads: 1,
        };
        let s = run_game(GameId::Quixo, &cfg, &Silent).unwrap();
        assert_eq!((s.epochs, s.positions), (5, 12));
        assert!(s.loss <= s.loss_defaults, "{s:?}");
        cfg.epochs = 7;
        assert_eq!(run_game(GameId::Quixo, &cfg, &Silent).unwrap().epochs, 7);
        cfg.epochs = 6;
        let e = run_game(GameId::Quixo, &cfg, &Silent).unwrap_err();
        assert!(
            matches!(e, TuneError::CheckpointAhead { done: 7, .. }),
            "{e}"
        );
        cfg.epochs = 8;
        cfg.lr = 2.0;
        let e = run_game(GameId::Quixo, &cfg, &Silent).unwrap_err();
        assert!(
            e.to_string().contains("is of another fit (its run: "),
            "{e}"
        );
        cfg.lr = f32::NAN;
        assert_eq!(
            run_game(GameId::Quixo, &cfg, &Silent)
                .unwrap_err()
                .to_string(),
            "--lr must be a finite number > 0, got NaN"
        );
        cfg.data.clear();
        assert!(matches!(
            run_game(GameId::Quixo, &cfg, &Silent),
            Err(TuneError::NoData(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
