//! `tessera tune`: fit evaluation weights to self-play data (`--method patterns`), with a
//! progress bar, the loss per epoch and checkpoints to resume from.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use tessera::tuning::patterns::{self as fit, Dataset, FitConfig, FitState};
use tessera::tuning::selfplay;
use tessera::tuning::texel::TexelGame;

use super::GameId;
use super::games::CliGame;
use super::output::{CliError, print_json, say};

/// Tuning methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Othello pattern evaluation: least squares on disc difference
    Patterns,
    /// The baseline evaluation's named weights: logistic fit to game results (Texel)
    Texel,
    /// The MCTS engine's exploration constant by SPSA over game pairs (--engine)
    Spsa,
}

/// Arguments of `tessera tune`.
#[derive(Args, Debug)]
#[command(
    about = "Fit evaluation weights to self-play data (resumes from its checkpoint)",
    long_about = "Fit evaluation weights to labelled positions from `tessera selfplay`.\n\n\
        --method patterns: the Othello pattern evaluation (46 pattern instances, mobility, \
        bias, per stage), least squares on the disc difference (exact values where known, \
        else the game result), full-batch gradient descent preconditioned per weight, on \
        --threads threads. Every 20th position is held out and its loss printed per epoch. \
        The state is saved to --checkpoint after each epoch; running the same command again \
        continues from there up to --epochs (use --fresh to start over).",
    after_help = "Example:\n  tessera tune othello --method patterns --data data/d3.txt \
        --epochs 200 --out tuning/othello-patterns.bin"
)]
pub struct TuneArgs {
    /// The game
    pub game: GameId,
    /// What to fit
    #[arg(long, value_enum)]
    pub method: Method,
    /// Data files from `tessera selfplay` (comma-separated or repeated)
    #[arg(long, value_name = "FILE", value_delimiter = ',')]
    pub data: Vec<PathBuf>,
    /// SPSA: the engine whose parameters are tuned (an MCTS preset or inline spec); each
    /// iteration plays a colour-swapped pair between its + and - perturbations
    #[arg(long, value_name = "E")]
    pub engine: Option<String>,
    /// SPSA: master seed (iteration k's perturbation and opening derive from it and k)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output weights file (written at the end)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Total epochs, SPSA iterations for spsa (a resumed fit runs the rest)
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub epochs: usize,
    /// Step size. patterns: the scale of each weight's step (its mean residual times X;
    /// above about 0.04 the fit diverges) [default 0.02]; texel: Adam's step in weight units
    /// [default 1]; spsa: the ratio r of the step a = r c^2 [default 1]
    #[arg(long, value_name = "X")]
    pub lr: Option<f32>,
    /// L2 penalty, in occurrences: a configuration seen k times keeps about k / (k + L) of
    /// its mean residual
    #[arg(long, value_name = "L", default_value_t = 4.0)]
    pub lambda: f32,
    /// Worker threads
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Checkpoint file [default: OUT with the extension .ckpt]
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Ignore an existing checkpoint and start from zero
    #[arg(long)]
    pub fresh: bool,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
    /// Print one JSON object at the end instead of text
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera tune`.
///
/// # Errors
/// Unreadable or bad data, a checkpoint from other data, an unwritable output.
pub fn run(args: &TuneArgs) -> Result<ExitCode, CliError> {
    if args.game != GameId::Othello && args.method == Method::Patterns {
        return Err(CliError::input(
            "--method patterns fits the Othello pattern evaluation; quixo and talat take --method texel or spsa",
        ));
    }
    // The output's folder (which also holds the default checkpoint) is made up front, so a
    // missing folder is not found only after the first epoch.
    for path in [Some(&args.out), args.checkpoint.as_ref()]
        .into_iter()
        .flatten()
    {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
        }
    }
    match args.method {
        Method::Patterns => patterns(args),
        Method::Texel => texel(args),
        Method::Spsa => spsa(args),
    }
}

fn need_data(args: &TuneArgs) -> Result<(), CliError> {
    if args.data.is_empty() {
        return Err(CliError::input(
            "--data FILE is required for this method (from `tessera selfplay`)",
        ));
    }
    Ok(())
}

fn spsa(args: &TuneArgs) -> Result<ExitCode, CliError> {
    match args.game {
        GameId::Quixo4p | GameId::Talat => Err(CliError::input(
            "--method spsa plays colour-swapped pairs of two engines: it takes othello, quixo or talat-2p",
        )),
        _ => dispatch!(args.game, spsa_fit(args)),
    }
}

/// SPSA of the MCTS exploration constant for the two-seat game `G`.
fn spsa_fit<G: CliGame>(args: &TuneArgs) -> Result<ExitCode, CliError> {
    use tessera::engine::Algorithm;
    use tessera::tournament::openings::OpeningSource;
    use tessera::tuning::spsa::{MCTS_PARAMS, Schedule, Spsa, play_pair};
    let text = args
        .engine
        .as_deref()
        .ok_or_else(|| CliError::input("--method spsa needs --engine (an MCTS engine)"))?;
    let base = super::selfplay::resolve_engine(text, G::ID)?;
    if base.algo != Algorithm::Mcts {
        return Err(CliError::input(format!(
            "--method spsa tunes the MCTS exploration constant: engine '{}' is not algo = \"mcts\"",
            base.name
        )));
    }
    let r = f64::from(args.lr.unwrap_or(1.0));
    if !(r.is_finite() && r > 0.0) {
        return Err(CliError::input(format!("--lr must be > 0, got {r}")));
    }
    let ckpt = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| args.out.with_extension("ckpt"));
    let start = vec![
        base.c
            .map_or(MCTS_PARAMS[0].default, |c| (c * 100.0).round() as i32),
    ];
    let mut state = Spsa::new(&start, args.seed);
    if !args.fresh {
        match std::fs::read_to_string(&ckpt) {
            Ok(t) => {
                let bad = || {
                    CliError::input(format!(
                        "checkpoint {}: not an SPSA checkpoint",
                        ckpt.display()
                    ))
                };
                let f: Vec<&str> = t.split_whitespace().collect();
                match f.as_slice() {
                    ["spsa-checkpoint", "1", "seed", s, "k", k, "theta", th] => {
                        state.seed = s.parse().map_err(|_| bad())?;
                        state.k = k.parse().map_err(|_| bad())?;
                        state.theta = vec![th.parse().map_err(|_| bad())?];
                    }
                    _ => return Err(bad()),
                }
                if state.seed != args.seed {
                    return Err(CliError::input(format!(
                        "checkpoint {} was made with --seed {} (remove it or pass --fresh)",
                        ckpt.display(),
                        state.seed
                    )));
                }
                if !args.json {
                    say(format!(
                        "resuming from {} at iteration {}",
                        ckpt.display(),
                        state.k
                    ));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(CliError::input(format!(
                    "cannot read checkpoint {}: {e}",
                    ckpt.display()
                )));
            }
        }
    }
    let sched = Schedule::fishtest(args.epochs, r);
    let bar = if args.no_progress || args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.epochs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} iteration {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}]",
        )
        .map_err(|e| CliError::failure(e.to_string()))?,
    );
    bar.set_position(state.k as u64);
    let mut sum = 0.0;
    while state.k < args.epochs {
        let p = state.perturb(MCTS_PARAMS, &sched);
        let spec_of = |v: i32, tag: &str| {
            let mut s = base.clone();
            s.c = Some(f64::from(v) / 100.0);
            s.name = format!("{}{tag}", base.name);
            s
        };
        let (sp, sm) = (spec_of(p.plus[0], "+"), spec_of(p.minus[0], "-"));
        let mut plus = G::make_player(&sp).map_err(CliError::input)?;
        let mut minus = G::make_player(&sm).map_err(CliError::input)?;
        let opening = OpeningSource::RandomPlies(8)
            .opening::<G>(state.k, args.seed)
            .map_err(CliError::failure)?;
        let res = play_pair(
            plus.as_mut(),
            minus.as_mut(),
            (&sp.limits(), &sm.limits()),
            &opening.position,
            G::DEFAULT_MAX_PLIES.min(1000) as usize,
        )
        .map_err(CliError::failure)?;
        sum += res;
        state.update(MCTS_PARAMS, &sched, &p, res);
        let line = format!(
            "iteration {:>4}: c+ {:.2} c- {:.2} result {res:+.1}; c = {:.3}",
            state.k,
            f64::from(p.plus[0]) / 100.0,
            f64::from(p.minus[0]) / 100.0,
            state.theta[0] / 100.0
        );
        if args.json {
        } else if bar.is_hidden() {
            say(&line);
        } else {
            bar.println(&line);
        }
        bar.set_message(format!("c = {:.3}", state.theta[0] / 100.0));
        bar.inc(1);
        std::fs::write(
            &ckpt,
            format!(
                "spsa-checkpoint 1\nseed {}\nk {}\ntheta {}\n",
                state.seed, state.k, state.theta[0]
            ),
        )
        .map_err(|e| CliError::input(format!("cannot write checkpoint {}: {e}", ckpt.display())))?;
    }
    bar.finish_and_clear();
    let values = state.values();
    let header = vec![
        format!(
            "{} MCTS exploration constant (c = mcts_c_centi / 100), tuned by SPSA",
            G::ID
        ),
        format!("command: {}", tessera::tuning::command_line()),
        format!(
            "engine {} (start c {:.2}), {} iterations of one colour-swapped pair from 8 random plies, \
             schedule a = {r} c^2, A = {:.0}, alpha 0.602, gamma 0.101, c = {} centi; date {}",
            base.name,
            f64::from(start[0]) / 100.0,
            state.k,
            sched.big_a,
            MCTS_PARAMS[0].step,
            tessera::tuning::utc_date()
        ),
    ];
    std::fs::write(
        &args.out,
        tessera::tuning::params::to_text(MCTS_PARAMS, &values, &header),
    )
    .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    if args.json {
        print_json(&serde_json::json!({
            "iterations": state.k,
            "c": state.theta[0] / 100.0,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "wrote {}: c = {:.2} after {} iterations (mean pair result of + {:+.3})",
            args.out.display(),
            state.theta[0] / 100.0,
            state.k,
            sum / args.epochs.max(1) as f64
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn texel(args: &TuneArgs) -> Result<ExitCode, CliError> {
    dispatch!(args.game, texel_fit(args))
}

/// Texel tuning of game `G`'s evaluation weights (its [`TexelGame`] rows).
fn texel_fit<G: TexelGame>(args: &TuneArgs) -> Result<ExitCode, CliError> {
    use tessera::tuning::texel::{self, TexelData, TexelState};
    let registry = G::REGISTRY;
    need_data(args)?;
    let lr = args.lr.unwrap_or(1.0);
    if !(lr.is_finite() && lr > 0.0) {
        return Err(CliError::input(format!("--lr must be > 0, got {lr}")));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start threads: {e}")))?;
    let mut data = TexelData::new(registry.len());
    let mut samples = 0usize;
    for path in &args.data {
        for (i, s) in selfplay::read(path)
            .map_err(CliError::input)?
            .iter()
            .enumerate()
        {
            G::add_rows(s, &mut data).map_err(|e| {
                CliError::input(format!(
                    "data file {} sample {}: {e}",
                    path.display(),
                    i + 1
                ))
            })?;
            samples += 1;
        }
    }
    if data.is_empty() {
        return Err(CliError::input("the data files hold no positions"));
    }
    let ckpt = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| args.out.with_extension("ckpt"));
    let start: Vec<f64> = tessera::tuning::params::defaults(registry)
        .iter()
        .map(|&w| f64::from(w))
        .collect();
    let resumed = if args.fresh {
        None
    } else {
        match std::fs::read_to_string(&ckpt) {
            Ok(text) => Some(
                TexelState::from_text(&text, registry.len())
                    .map_err(|e| CliError::input(format!("checkpoint {}: {e}", ckpt.display())))?,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(CliError::input(format!(
                    "cannot read checkpoint {}: {e}",
                    ckpt.display()
                )));
            }
        }
    };
    let mut state = match resumed {
        Some(st) => {
            if !args.json {
                say(format!(
                    "resuming from {} at epoch {}",
                    ckpt.display(),
                    st.epoch
                ));
            }
            st
        }
        None => {
            let k = pool.install(|| texel::fit_k(&start, &data));
            TexelState::new(start.clone(), k)
        }
    };
    let start_loss = pool.install(|| texel::loss(&start, state.k, &data));
    let unit = G::UNIT.trim_end_matches('s');
    if !args.json {
        say(format!(
            "{samples} positions, {} rows; K = {:.6} per {unit}; loss of the defaults {start_loss:.6}",
            data.len(),
            state.k
        ));
    }
    let bar = if args.no_progress || args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.epochs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} epoch {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}]",
        )
        .map_err(|e| CliError::failure(e.to_string()))?,
    );
    bar.set_position(state.epoch as u64);
    pool.install(|| -> Result<(), CliError> {
        while state.epoch < args.epochs {
            let l = texel::step(&mut state, &data, registry, f64::from(lr));
            let line = format!("epoch {:>4}: loss {l:.6}", state.epoch);
            if args.json {
            } else if bar.is_hidden() {
                say(&line);
            } else {
                bar.println(&line);
            }
            bar.set_message(format!("loss {l:.6}"));
            bar.inc(1);
            std::fs::write(&ckpt, state.to_text()).map_err(|e| {
                CliError::input(format!("cannot write checkpoint {}: {e}", ckpt.display()))
            })?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let values = texel::rounded(&state, registry);
    let final_loss = pool.install(|| {
        let w: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        texel::loss(&w, state.k, &data)
    });
    let data_names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        format!("{}, Texel-tuned (logistic fit to game results)", G::TITLE),
        format!("command: {}", tessera::tuning::command_line()),
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
            tessera::tuning::utc_date()
        ),
    ];
    std::fs::write(
        &args.out,
        tessera::tuning::params::to_text(registry, &values, &header),
    )
    .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    if args.json {
        print_json(&serde_json::json!({
            "epochs": state.epoch,
            "k": state.k,
            "loss_defaults": start_loss,
            "loss": final_loss,
            "positions": samples,
            "rows": data.len(),
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "wrote {} (loss {start_loss:.6} -> {final_loss:.6})",
            args.out.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn patterns(args: &TuneArgs) -> Result<ExitCode, CliError> {
    need_data(args)?;
    let lr = args.lr.unwrap_or(0.02);
    if !(lr.is_finite() && lr > 0.0 && lr <= 2.0) {
        return Err(CliError::input(format!("--lr must be in (0, 2], got {lr}")));
    }
    if !(args.lambda.is_finite() && args.lambda >= 0.0) {
        return Err(CliError::input(format!(
            "--lambda must be >= 0, got {}",
            args.lambda
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start threads: {e}")))?;
    let mut samples = Vec::new();
    for path in &args.data {
        samples.extend(selfplay::read(path).map_err(CliError::input)?);
    }
    if samples.is_empty() {
        return Err(CliError::input("the data files hold no positions"));
    }
    let exact = samples.iter().filter(|s| s.exact.is_some()).count();
    let (train, valid) = Dataset::from_samples(&samples, 20).map_err(CliError::input)?;
    drop(samples);
    let fingerprint = train.fingerprint();
    let ckpt = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| args.out.with_extension("ckpt"));
    let mut state = if args.fresh {
        FitState::default()
    } else {
        fit::load_checkpoint(&ckpt, fingerprint)
            .map_err(CliError::input)?
            .unwrap_or_default()
    };
    if state.epoch > 0 && !args.json {
        say(format!(
            "resuming from {} at epoch {}",
            ckpt.display(),
            state.epoch
        ));
    }
    let cfg = FitConfig {
        lr,
        lambda: args.lambda,
    };
    let n = fit::counts(&train);
    let bar = if args.no_progress || args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.epochs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} epoch {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}]",
        )
        .map_err(|e| CliError::failure(e.to_string()))?,
    );
    bar.set_position(state.epoch as u64);
    let mut last = (f64::NAN, f64::NAN);
    pool.install(|| -> Result<(), CliError> {
        while state.epoch < args.epochs {
            let train_mse = fit::epoch(&mut state, &train, &n, &cfg);
            let valid_mse = fit::mse(&state.w, &valid);
            last = (train_mse, valid_mse);
            let line = format!(
                "epoch {:>4}: train rmse {:.3} discs, validation rmse {:.3} discs",
                state.epoch,
                train_mse.sqrt(),
                valid_mse.sqrt()
            );
            if args.json {
            } else if bar.is_hidden() {
                say(&line);
            } else {
                bar.println(&line);
            }
            bar.set_message(format!("valid rmse {:.3}", valid_mse.sqrt()));
            bar.inc(1);
            fit::save_checkpoint(&ckpt, &state, fingerprint).map_err(CliError::input)?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let valid_mse = pool.install(|| fit::mse(&state.w, &valid));
    let data_names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        "Othello pattern weights (centi-discs), fitted by least squares on disc difference"
            .to_string(),
        format!("command: {}", tessera::tuning::command_line()),
        format!(
            "data: {} ({} training + {} validation positions, {exact} with exact labels)",
            data_names.join(", "),
            train.len(),
            valid.len()
        ),
        format!(
            "epochs {}, lr {}, lambda {}, validation rmse {:.3} discs, date {}",
            state.epoch,
            lr,
            args.lambda,
            valid_mse.sqrt(),
            tessera::tuning::utc_date()
        ),
    ];
    let weights = fit::to_pattern_weights(&state.w, header).map_err(CliError::failure)?;
    if let Some(dir) = args.out.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(&args.out, weights.to_bytes())
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    if args.json {
        print_json(&serde_json::json!({
            "epochs": state.epoch,
            "train_rmse": last.0.sqrt(),
            "validation_rmse": valid_mse.sqrt(),
            "train": train.len(),
            "validation": valid.len(),
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "wrote {} (validation rmse {:.3} discs after {} epochs)",
            args.out.display(),
            valid_mse.sqrt(),
            state.epoch
        ));
    }
    Ok(ExitCode::SUCCESS)
}
