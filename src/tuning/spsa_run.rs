//! An SPSA run ([`run`]): an engine's parameters tuned by games between perturbations
//! ([`super::spsa`] holds the algorithm), resumable from its checkpoint, writing a weights
//! file. MCTS engines tune their exploration constant, other built-in searches their
//! game's evaluation weights.

use std::path::PathBuf;

use super::error::TuneError;
use super::progress::Progress;
use super::spsa::{MCTS_PARAMS, Schedule, Spsa, play_match};
use super::texel::TexelGame;
use super::{Param, checkpoint};
use crate::engine::{Algorithm, EngineSpec, Players, Protocol};
use crate::tournament::openings::OpeningSource;

/// An SPSA run's settings.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The engine whose parameters are tuned (a built-in engine of the game).
    pub engine: EngineSpec,
    /// Master seed: iteration k's perturbation and opening derive from it and k.
    pub seed: u64,
    /// Total iterations (a resumed run plays the rest).
    pub iterations: usize,
    /// The ratio r of the step a = r c^2 (finite, > 0).
    pub step_ratio: f64,
    /// Every parameter's perturbation c is its registry step times this (in (0, 100]).
    pub c_scale: f32,
    /// The weights file written at the end.
    pub out: PathBuf,
    /// The checkpoint, written after every iteration.
    pub checkpoint: PathBuf,
    /// Ignore an existing checkpoint.
    pub fresh: bool,
    /// Games longer than this many plies are adjudicated (see [`play_match`]).
    pub max_plies: usize,
}

/// What an SPSA run did.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSummary {
    /// Iterations done in all (with those of a resumed checkpoint).
    pub iterations: usize,
    /// The tuned parameters' names, in registry order.
    pub names: Vec<&'static str>,
    /// Their current real values.
    pub theta: Vec<f64>,
    /// The values written (rounded and clamped to their ranges).
    pub values: Vec<i32>,
    /// The mean result of the `+` perturbation over this run's iterations (0 when none).
    pub mean_result: f64,
}

impl SpsaSummary {
    /// `name value, ...` with one decimal, as the progress lines show them.
    #[must_use]
    pub fn theta_text(&self) -> String {
        show(&self.names, &self.theta)
    }
}

fn show(names: &[&str], v: &[f64]) -> String {
    names
        .iter()
        .zip(v)
        .map(|(p, x)| format!("{p} {x:.1}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The SPSA checkpoint text: the run it belongs to, seed, iterations done, current values.
#[must_use]
pub fn checkpoint_text(state: &Spsa, run: &str) -> String {
    let theta: Vec<String> = state.theta.iter().map(|t| format!("{t:e}")).collect();
    format!(
        "spsa-checkpoint 2\nrun {run}\nseed {}\nk {}\ntheta {}\n",
        state.seed,
        state.k,
        theta.join(" ")
    )
}

/// A parsed SPSA checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaCheckpoint {
    /// The run it belongs to (game, engine, schedule settings).
    pub run: String,
    /// Master seed.
    pub seed: u64,
    /// Iterations done.
    pub k: usize,
    /// Current values.
    pub theta: Vec<f64>,
}

/// Parses [`checkpoint_text`] for `n` parameters; `None` when malformed, of another size
/// or a value is not finite.
#[must_use]
pub fn parse_checkpoint(text: &str, n: usize) -> Option<SpsaCheckpoint> {
    let mut lines = text.lines();
    if lines.next()? != "spsa-checkpoint 2" {
        return None;
    }
    let run = lines.next()?.strip_prefix("run ")?.to_string();
    let seed = lines.next()?.strip_prefix("seed ")?.trim().parse().ok()?;
    let k = lines.next()?.strip_prefix("k ")?.trim().parse().ok()?;
    let theta: Vec<f64> = lines
        .next()?
        .strip_prefix("theta ")?
        .split_whitespace()
        .map(|t| t.parse().ok().filter(|x: &f64| x.is_finite()))
        .collect::<Option<_>>()?;
    (theta.len() == n).then_some(SpsaCheckpoint {
        run,
        seed,
        k,
        theta,
    })
}

/// Runs SPSA for game `G` (two or three seats): each iteration plays the `+` against the
/// `-` perturbation from an 8-ply random opening (a colour-swapped pair; three seats: the
/// six seat orders with a third engine at the current values), fishtest schedule; the
/// checkpoint is written after every iteration and the weights file at the end.
/// [`super::outputs::check_outputs`] checks the files first.
///
/// # Errors
/// An external or unbuildable engine, a bad setting, a checkpoint of another run, a game
/// that fails, an unwritable file.
pub fn run<G: Players + TexelGame>(
    cfg: &SpsaConfig,
    progress: &dyn Progress,
) -> Result<SpsaSummary, TuneError> {
    let base = &cfg.engine;
    if G::start().seats() > 3 {
        return Err(TuneError::Conflict(
            "--method spsa plays one engine per seat: it takes othello, quixo, talat or talat-2p, not the team game quixo-4p",
        ));
    }
    if base.protocol != Protocol::Builtin {
        return Err(TuneError::Engine(format!(
            "--method spsa tunes a built-in engine: '{}' is an external program",
            base.name
        )));
    }
    let mcts = base.algo == Algorithm::Mcts;
    let registry = if mcts { MCTS_PARAMS } else { G::REGISTRY };
    let names: Vec<&'static str> = registry.iter().map(|p| p.name).collect();
    let what = if mcts {
        "MCTS exploration constant (c = mcts_c_centi / 100)".to_string()
    } else {
        format!("{} for {} (algo {})", G::TITLE, base.name, base.algo.name())
    };
    // Build the base engine once, so a bad spec fails before any game.
    G::make_player(base).map_err(TuneError::Engine)?;
    let r = cfg.step_ratio;
    if !(r.is_finite() && r > 0.0) {
        return Err(TuneError::BadValue {
            flag: "--lr",
            wanted: "a finite number > 0",
            got: r.to_string(),
        });
    }
    let ckpt = &cfg.checkpoint;
    let start = if mcts {
        vec![
            base.c
                .map_or(MCTS_PARAMS[0].default, |c| (c * 100.0).round() as i32),
        ]
    } else {
        G::weights_of(base).map_err(TuneError::Engine)?
    };
    let mut state = Spsa::new(&start, cfg.seed);
    // The run a checkpoint belongs to: the game, the engine and the schedule's settings.
    let engine_json = serde_json::to_string(base).map_err(|e| TuneError::Failed(e.to_string()))?;
    let run = format!(
        "{} engine {engine_json} lr {r} c-scale {}",
        G::ID,
        cfg.c_scale
    );
    let checkpoint = if cfg.fresh {
        None
    } else {
        crate::game::files::read_text_if_exists(ckpt, "checkpoint", 1 << 30)
            .map_err(|e| TuneError::Checkpoint(e.into()))?
    };
    if let Some(t) = checkpoint {
        let c =
            parse_checkpoint(&t, registry.len()).ok_or_else(|| TuneError::CheckpointMalformed {
                path: ckpt.clone(),
                wanted: format!("an SPSA checkpoint of {} parameters", registry.len()),
            })?;
        if c.seed != cfg.seed {
            return Err(TuneError::CheckpointSeed {
                path: ckpt.clone(),
                seed: c.seed,
            });
        }
        if c.run != run {
            return Err(TuneError::CheckpointOtherRun {
                path: ckpt.clone(),
                what: "another SPSA run (game, engine, --lr or --c-scale differ)".to_string(),
            });
        }
        super::run::check_resume(ckpt, c.k, cfg.iterations, "iterations")?;
        state.k = c.k;
        state.theta = c.theta;
        progress.note(&format!(
            "resuming from {} at iteration {}",
            ckpt.display(),
            state.k
        ));
    }
    let sched = Schedule::fishtest(cfg.iterations, r);
    // Each parameter's perturbation c: its registry step times the scale.
    let scale = f64::from(cfg.c_scale);
    if !(scale.is_finite() && scale > 0.0 && scale <= 100.0) {
        return Err(TuneError::BadValue {
            flag: "--c-scale",
            wanted: "in (0, 100]",
            got: scale.to_string(),
        });
    }
    let perturbed: Vec<Param> = registry
        .iter()
        .map(|p| Param {
            step: ((f64::from(p.step) * scale).round() as i32).max(1),
            ..*p
        })
        .collect();
    progress.start("iteration", cfg.iterations as u64, state.k as u64);
    let spec_of = |v: &[i32], tag: &str| {
        let mut s = base.clone();
        if mcts {
            s.c = Some(f64::from(v[0]) / 100.0);
        } else {
            s.weight_values = Some(v.to_vec());
        }
        s.name = format!("{}{tag}", base.name);
        s
    };
    let three = G::start().seats() == 3;
    let limits = base.limits();
    let mut sum = 0.0;
    let first = state.k;
    while state.k < cfg.iterations {
        let p = state.perturb(&perturbed, &sched);
        let mut plus = G::make_player(&spec_of(&p.plus, "+")).map_err(TuneError::Engine)?;
        let mut minus = G::make_player(&spec_of(&p.minus, "-")).map_err(TuneError::Engine)?;
        let mut third = if three {
            Some(G::make_player(&spec_of(&state.values(), "=")).map_err(TuneError::Engine)?)
        } else {
            None
        };
        let opening = OpeningSource::RandomPlies(8)
            .opening::<G>(state.k, cfg.seed)
            .map_err(TuneError::Failed)?;
        let res = play_match(
            plus.as_mut(),
            minus.as_mut(),
            match third.as_mut() {
                Some(t) => Some(t.as_mut()),
                None => None,
            },
            [&limits; 3],
            &opening.position,
            cfg.max_plies,
        )
        .map_err(TuneError::Failed)?;
        sum += res;
        state.update(&perturbed, &sched, &p, res);
        let line = format!(
            "iteration {:>4}: result {res:+.2}; {}",
            state.k,
            show(&names, &state.theta)
        );
        progress.step(&line, "");
        checkpoint::write(ckpt, checkpoint_text(&state, &run).as_bytes())
            .map_err(TuneError::Checkpoint)?;
    }
    progress.finish();
    let values = state.values();
    let seatings = if three {
        "the six seat orders of +, - and the current values"
    } else {
        "one colour-swapped pair"
    };
    let header = vec![
        format!("{what}, tuned by SPSA ({})", G::ID),
        format!("command: {}", super::command_line()),
        format!(
            "engine {} (start {}), {} iterations of {seatings} from 8 random plies, \
             schedule a = {r} c^2, A = {:.0}, alpha 0.602, gamma 0.101, c = {} x each parameter's step; date {}",
            base.name,
            start
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            state.k,
            sched.big_a,
            cfg.c_scale,
            super::utc_date()
        ),
    ];
    std::fs::write(&cfg.out, super::params::to_text(registry, &values, &header)).map_err(|e| {
        TuneError::Write {
            path: cfg.out.clone(),
            message: e.to_string(),
        }
    })?;
    let played = (state.k - first).max(1) as f64;
    Ok(SpsaSummary {
        iterations: state.k,
        names,
        theta: state.theta,
        values,
        mean_result: sum / played,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quixo::Quixo;

    #[test]
    fn checkpoints_round_trip_and_refuse_other_sizes() {
        let mut s = Spsa::new(&[120, -3], 7);
        s.k = 5;
        let text = checkpoint_text(&s, "quixo engine {} lr 1 c-scale 1");
        let c = parse_checkpoint(&text, 2).unwrap();
        assert_eq!((c.seed, c.k, c.theta), (7, 5, s.theta.clone()));
        assert_eq!(c.run, "quixo engine {} lr 1 c-scale 1");
        assert_eq!(parse_checkpoint(&text, 3), None);
        assert_eq!(parse_checkpoint(&text.replace(" 2\n", " 1\n"), 2), None);
        assert_eq!(
            parse_checkpoint(&text.replace("theta 1.2e2", "theta NaN"), 2),
            None
        );
    }

    fn config(dir: &std::path::Path, engine: &str, iterations: usize) -> SpsaConfig {
        SpsaConfig {
            engine: crate::tuning::run::resolve_engine(engine, "quixo").unwrap(),
            seed: 3,
            iterations,
            step_ratio: 1.0,
            c_scale: 1.0,
            out: dir.join("w.txt"),
            checkpoint: dir.join("w.ckpt"),
            fresh: false,
            max_plies: 200,
        }
    }

    #[test]
    fn a_run_resumes_and_refuses_a_changed_setting() {
        let dir = std::env::temp_dir().join(format!("tessera-spsa-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let engine = "name=m,algo=mcts,iterations=20";
        let s = run::<Quixo>(&config(&dir, engine, 2), &super::super::progress::Silent).unwrap();
        assert_eq!((s.iterations, s.names.clone()), (2, vec!["mcts_c_centi"]));
        assert!(dir.join("w.txt").exists());
        // Two more iterations continue from the checkpoint.
        let more = run::<Quixo>(&config(&dir, engine, 4), &super::super::progress::Silent).unwrap();
        assert_eq!(more.iterations, 4);
        // Fewer iterations than done, another step ratio, a bad scale: refused.
        let e = run::<Quixo>(&config(&dir, engine, 1), &super::super::progress::Silent);
        assert!(matches!(e, Err(TuneError::CheckpointAhead { done: 4, .. })));
        let mut other = config(&dir, engine, 6);
        other.step_ratio = 2.0;
        let e = run::<Quixo>(&other, &super::super::progress::Silent).unwrap_err();
        assert!(e.to_string().contains("is of another SPSA run"), "{e}");
        let mut fresh = config(&dir, engine, 1);
        fresh.fresh = true;
        fresh.c_scale = 0.0;
        let e = run::<Quixo>(&fresh, &super::super::progress::Silent).unwrap_err();
        assert_eq!(e.to_string(), "--c-scale must be in (0, 100], got 0");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
