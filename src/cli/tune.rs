//! `tessera tune`: fit evaluation weights to self-play data (`--method patterns`), with a
//! progress bar, the loss per epoch and checkpoints to resume from.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use tessera::tuning::checkpoint;
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
    /// The game's named evaluation weights: logistic fit to game results (Texel)
    Texel,
    /// An engine's parameters by SPSA over games between perturbations (--engine): MCTS
    /// its exploration constant, other searches the evaluation weights
    Spsa,
    /// Othello Multi-ProbCut: the regression of deep on shallow search scores per depth
    /// pair and phase (--positions, --depth, --weights)
    Mpc,
}

/// Arguments of `tessera tune`.
#[derive(Args, Debug)]
#[command(
    about = "Fit evaluation weights to self-play data (resumes from its checkpoint)",
    long_about = "Fit evaluation weights to labelled positions from `tessera selfplay`.\n\n\
        --method patterns: the Othello pattern evaluation (46 pattern instances, mobility, \
        bias, per stage), least squares on the disc difference (exact values where known, \
        else the game result), full-batch gradient descent preconditioned per weight, on \
        --threads threads. Every 20th position is held out and its loss printed per epoch \
        (--set 2: every 20th game, with the held-out mean absolute error per stage next to \
        the shipped format-1 evaluation's at the end). \
        The state is saved to --checkpoint after each epoch; running the same command again \
        continues from there up to --epochs (use --fresh to start over).\n\n\
        --method texel (every game): the evaluation's named weights, a logistic fit of \
        sigmoid(K x score) to the results (win 1, draw 1/2, loss 0; K fitted once for the \
        defaults), Adam on the full batch, weights kept in their registry ranges. Talat rows \
        compare two seats (three-player data: all three pairs). Same checkpoints and resume.\n\n\
        --method spsa (othello, quixo, talat, talat-2p): the --engine's parameters, MCTS its \
        exploration constant, other built-in searches the evaluation weights; each iteration \
        plays the + and - perturbations (a colour-swapped pair; three seats: the six seat \
        orders with a third engine at the current values) from an 8-ply random opening, \
        fishtest schedule, checkpoint every iteration.\n\n\
        --method mpc (othello): Multi-ProbCut parameters. --positions positions spread evenly \
        over the data (13..=60 empties, duplicates dropped) are searched by iterative \
        deepening to --depth plies with --weights (default builtin:patterns2, the engines' \
        default evaluation), and for each \
        depth 3..=--depth and phase (8 empties wide) the deep score is fitted on the shallow \
        one (least squares: a, b, residual sigma); see docs/mpc.md.",
    after_help = "Examples:\n  tessera tune othello --method patterns --data data/d3.txt \
        --epochs 200 --out tuning/othello-patterns.bin\n  \
        tessera tune quixo --method texel --data data/quixo-d3.txt --epochs 1000 --lr 2 --out data/q.txt\n  \
        tessera tune talat --method spsa --engine name=t,algo=brs-plus,depth=3,tt-mb=4 \
        --epochs 4000 --lr 4 --out data/talat-spsa.txt"
)]
pub struct TuneArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
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
    /// Total epochs, SPSA iterations for spsa (a resumed fit runs the rest; fewer than its
    /// checkpoint has run is refused)
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub epochs: usize,
    /// Step size. patterns: the scale of each weight's step (its mean residual times X;
    /// above about 0.04 the fit diverges) [default 0.02]; texel: Adam's step in weight units
    /// [default 1]; spsa: the ratio r of the step a = r c^2 [default 1]
    #[arg(long, value_name = "X")]
    pub lr: Option<f32>,
    /// SPSA: multiply every parameter's perturbation c (its registry step) by this
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub c_scale: f32,
    /// L2 penalty, in occurrences: a configuration seen k times keeps about k / (k + L) of
    /// its mean residual
    #[arg(long, value_name = "L", default_value_t = 4.0)]
    pub lambda: f32,
    /// patterns: the evaluation to fit, format 1 (46 instances, 10 stages) or 2 (56
    /// instances, potential mobility, parity, 30 stages; data deduplicated across files and
    /// held out by game)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(1..=2))]
    pub set: u8,
    /// patterns --set 2: pull of each weight towards its neighbouring stages', in
    /// occurrences [default: 4]
    #[arg(long, value_name = "S")]
    pub smooth: Option<f32>,
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
    /// MPC: how many positions of the data to search
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub positions: u64,
    /// MPC: deepest search, plies (parameters for depths 3 up to it)
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(3..=30))]
    pub depth: u32,
    /// MPC: the evaluation the searches use (a weights file or builtin: name); the default
    /// is the engines' default evaluation, so the fit matches the engines that use it
    #[arg(long, value_name = "FILE",
          default_value = tessera::games::othello::eval::DEFAULT_WEIGHTS)]
    pub weights: PathBuf,
}

/// Runs `tessera tune`.
///
/// # Errors
/// Unreadable or bad data, a checkpoint from other data, an unwritable output.
pub fn run(args: &TuneArgs) -> Result<ExitCode, CliError> {
    if args.game != GameId::Othello && args.method == Method::Mpc {
        return Err(CliError::input(
            "--method mpc fits Multi-ProbCut for the Othello search; quixo and talat take --method texel or spsa",
        ));
    }
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
        super::output::create_parent(path)?;
    }
    // Refuse outputs that would overwrite the inputs or each other, and find an unwritable
    // output now rather than after the last epoch.
    let ckpt = checkpoint_path(args);
    let same = |a: &std::path::Path, b: &std::path::Path| {
        a == b
            || matches!(
                (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                (Ok(x), Ok(y)) if x == y
            )
    };
    if let Some(d) = args
        .data
        .iter()
        .find(|d| same(d, &args.out) || same(d, &ckpt) || same(d, &checkpoint::temp_path(&ckpt)))
    {
        return Err(CliError::input(format!(
            "--out or the checkpoint would overwrite the data file {}",
            d.display()
        )));
    }
    if same(&args.out, &ckpt) {
        return Err(CliError::input(format!(
            "the checkpoint {} is the output file: name another with --checkpoint",
            ckpt.display()
        )));
    }
    super::output::check_writable(&args.out)?;
    match args.method {
        Method::Patterns => patterns(args),
        Method::Texel => texel(args),
        Method::Spsa => spsa(args),
        Method::Mpc => super::tune_mpc::run(&super::tune_mpc::MpcArgs {
            data: &args.data,
            out: &args.out,
            positions: args.positions,
            depth: args.depth,
            weights: &args.weights,
            threads: args.threads as usize,
            no_progress: args.no_progress,
            json: args.json,
        }),
    }
}

/// The checkpoint file: `--checkpoint`, else the output with the extension `.ckpt`.
fn checkpoint_path(args: &TuneArgs) -> PathBuf {
    args.checkpoint
        .clone()
        .unwrap_or_else(|| args.out.with_extension("ckpt"))
}

fn need_data(args: &TuneArgs) -> Result<(), CliError> {
    if args.data.is_empty() {
        return Err(CliError::input(
            "--data FILE is required for this method (from `tessera selfplay`)",
        ));
    }
    Ok(())
}

/// Refuses a resume whose `--epochs` (`wanted`) is below the `done` epochs (SPSA:
/// iterations) of the checkpoint `ckpt`: the fit cannot go back, and writing the
/// checkpoint's weights under a smaller count would misstate them.
fn check_resume(
    ckpt: &std::path::Path,
    done: usize,
    wanted: usize,
    unit: &str,
) -> Result<(), CliError> {
    if done > wanted {
        return Err(CliError::input(format!(
            "checkpoint {} has already run {done} {unit}; --epochs {wanted} is fewer (pass --epochs {done} or more to continue, or --fresh to start over)",
            ckpt.display()
        )));
    }
    Ok(())
}

fn spsa(args: &TuneArgs) -> Result<ExitCode, CliError> {
    if args.game == GameId::Quixo4p {
        return Err(CliError::input(
            "--method spsa plays one engine per seat: it takes othello, quixo, talat or talat-2p, not the team game quixo-4p",
        ));
    }
    tessera::for_game!(args.game, spsa_fit(args))
}

/// The SPSA checkpoint text: the run it belongs to, seed, iterations done, current values.
fn spsa_checkpoint(state: &tessera::tuning::spsa::Spsa, run: &str) -> String {
    let theta: Vec<String> = state.theta.iter().map(|t| format!("{t:e}")).collect();
    format!(
        "spsa-checkpoint 2\nrun {run}\nseed {}\nk {}\ntheta {}\n",
        state.seed,
        state.k,
        theta.join(" ")
    )
}

/// Parses [`spsa_checkpoint`] for `n` parameters: (run, seed, k, theta); `None` when
/// malformed or a value is not finite.
fn parse_spsa_checkpoint(text: &str, n: usize) -> Option<(String, u64, usize, Vec<f64>)> {
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
    (theta.len() == n).then_some((run, seed, k, theta))
}

/// SPSA for game `G` (two or three seats): an MCTS engine's exploration constant, or any
/// other built-in engine's evaluation weights, from matches of the `+` against the `-`
/// perturbation (three seats: with a third engine at the current values).
fn spsa_fit<G: CliGame + TexelGame>(args: &TuneArgs) -> Result<ExitCode, CliError> {
    use tessera::engine::{Algorithm, Protocol};
    use tessera::tournament::openings::OpeningSource;
    use tessera::tuning::spsa::{MCTS_PARAMS, Schedule, Spsa, play_match};
    let text = args.engine.as_deref().ok_or_else(|| {
        CliError::input(
            "--method spsa needs --engine (MCTS: its exploration constant; other searches: the evaluation weights)",
        )
    })?;
    let base = super::selfplay::resolve_engine(text, G::ID)?;
    if base.protocol != Protocol::Builtin {
        return Err(CliError::input(format!(
            "--method spsa tunes a built-in engine: '{}' is an external program",
            base.name
        )));
    }
    let mcts = base.algo == Algorithm::Mcts;
    let registry = if mcts { MCTS_PARAMS } else { G::REGISTRY };
    let what = if mcts {
        "MCTS exploration constant (c = mcts_c_centi / 100)".to_string()
    } else {
        format!("{} for {} (algo {})", G::TITLE, base.name, base.algo.name())
    };
    // Build the base engine once, so a bad spec fails before any game.
    G::make_player(&base).map_err(CliError::input)?;
    let r = f64::from(args.lr.unwrap_or(1.0));
    if !(r.is_finite() && r > 0.0) {
        return Err(CliError::input(format!(
            "--lr must be a finite number > 0, got {r}"
        )));
    }
    let ckpt = checkpoint_path(args);
    let start = if mcts {
        vec![
            base.c
                .map_or(MCTS_PARAMS[0].default, |c| (c * 100.0).round() as i32),
        ]
    } else {
        G::weights_of(&base).map_err(CliError::input)?
    };
    let mut state = Spsa::new(&start, args.seed);
    // The run a checkpoint belongs to: the game, the engine and the schedule's settings.
    let engine_json = serde_json::to_string(&base).map_err(|e| CliError::failure(e.to_string()))?;
    let run = format!(
        "{} engine {engine_json} lr {r} c-scale {}",
        G::ID,
        args.c_scale
    );
    let checkpoint = if args.fresh {
        None
    } else {
        tessera::game::files::read_text_if_exists(&ckpt, "checkpoint", 1 << 30)
            .map_err(CliError::input)?
    };
    if let Some(t) = checkpoint {
        let (ck_run, seed, k, theta) =
            parse_spsa_checkpoint(&t, registry.len()).ok_or_else(|| {
                CliError::input(format!(
                    "checkpoint {}: not an SPSA checkpoint of {} parameters",
                    ckpt.display(),
                    registry.len()
                ))
            })?;
        if seed != args.seed {
            return Err(CliError::input(format!(
                "checkpoint {} was made with --seed {seed} (remove it or pass --fresh)",
                ckpt.display()
            )));
        }
        if ck_run != run {
            return Err(CliError::input(format!(
                "checkpoint {} is of another SPSA run (game, engine, --lr or --c-scale differ): remove it or pass --fresh",
                ckpt.display()
            )));
        }
        check_resume(&ckpt, k, args.epochs, "iterations")?;
        state.k = k;
        state.theta = theta;
        if !args.json {
            say(format!(
                "resuming from {} at iteration {}",
                ckpt.display(),
                state.k
            ));
        }
    }
    let sched = Schedule::fishtest(args.epochs, r);
    // Each parameter's perturbation c: its registry step times --c-scale.
    let scale = f64::from(args.c_scale);
    if !(scale.is_finite() && scale > 0.0 && scale <= 100.0) {
        return Err(CliError::input(format!(
            "--c-scale must be in (0, 100], got {scale}"
        )));
    }
    let perturbed: Vec<tessera::tuning::Param> = registry
        .iter()
        .map(|p| tessera::tuning::Param {
            step: ((f64::from(p.step) * scale).round() as i32).max(1),
            ..*p
        })
        .collect();
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
    let show = |v: &[f64]| -> String {
        registry
            .iter()
            .zip(v)
            .map(|(p, x)| format!("{} {x:.1}", p.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let three = G::start().seats() == 3;
    let max_plies = G::DEFAULT_MAX_PLIES.min(1000) as usize;
    let limits = base.limits();
    let mut sum = 0.0;
    let first = state.k;
    while state.k < args.epochs {
        let p = state.perturb(&perturbed, &sched);
        let mut plus = G::make_player(&spec_of(&p.plus, "+")).map_err(CliError::input)?;
        let mut minus = G::make_player(&spec_of(&p.minus, "-")).map_err(CliError::input)?;
        let mut third = if three {
            Some(G::make_player(&spec_of(&state.values(), "=")).map_err(CliError::input)?)
        } else {
            None
        };
        let opening = OpeningSource::RandomPlies(8)
            .opening::<G>(state.k, args.seed)
            .map_err(CliError::failure)?;
        let res = play_match(
            plus.as_mut(),
            minus.as_mut(),
            match third.as_mut() {
                Some(t) => Some(t.as_mut()),
                None => None,
            },
            [&limits; 3],
            &opening.position,
            max_plies,
        )
        .map_err(CliError::failure)?;
        sum += res;
        state.update(&perturbed, &sched, &p, res);
        let line = format!(
            "iteration {:>4}: result {res:+.2}; {}",
            state.k,
            show(&state.theta)
        );
        if args.json {
        } else if bar.is_hidden() {
            say(&line);
        } else {
            bar.println(&line);
        }
        bar.inc(1);
        checkpoint::write(&ckpt, spsa_checkpoint(&state, &run).as_bytes())
            .map_err(CliError::input)?;
    }
    bar.finish_and_clear();
    let values = state.values();
    let seatings = if three {
        "the six seat orders of +, - and the current values"
    } else {
        "one colour-swapped pair"
    };
    let header = vec![
        format!("{what}, tuned by SPSA ({})", G::ID),
        format!("command: {}", tessera::tuning::command_line()),
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
            args.c_scale,
            tessera::tuning::utc_date()
        ),
    ];
    std::fs::write(
        &args.out,
        tessera::tuning::params::to_text(registry, &values, &header),
    )
    .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    let played = (state.k - first).max(1) as f64;
    if args.json {
        let map: serde_json::Map<String, serde_json::Value> = registry
            .iter()
            .zip(&values)
            .map(|(p, &v)| (p.name.to_string(), serde_json::json!(v)))
            .collect();
        print_json(&serde_json::json!({
            "iterations": state.k,
            "values": map,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "wrote {}: {} after {} iterations (mean result of + in this run's iterations {:+.3})",
            args.out.display(),
            show(&state.theta),
            state.k,
            sum / played
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn texel(args: &TuneArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, texel_fit(args))
}

/// Texel tuning of game `G`'s evaluation weights (its [`TexelGame`] rows).
fn texel_fit<G: TexelGame + tessera::game::Game>(args: &TuneArgs) -> Result<ExitCode, CliError> {
    use tessera::tuning::texel::{self, TexelData, TexelState};
    let registry = G::REGISTRY;
    need_data(args)?;
    let lr = args.lr.unwrap_or(1.0);
    if !(lr.is_finite() && lr > 0.0) {
        return Err(CliError::input(format!(
            "--lr must be a finite number > 0, got {lr}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start threads: {e}")))?;
    let mut data = TexelData::new(registry.len());
    let mut samples = 0usize;
    for path in &args.data {
        for (line, s) in selfplay::read_numbered(path).map_err(CliError::input)? {
            G::add_rows(&s, &mut data).map_err(|e| {
                CliError::input(format!("data file {} line {line}: {e}", path.display()))
            })?;
            samples += 1;
        }
    }
    if data.is_empty() {
        return Err(CliError::input("the data files hold no positions"));
    }
    let ckpt = checkpoint_path(args);
    let start: Vec<f64> = tessera::tuning::params::defaults(registry)
        .iter()
        .map(|&w| f64::from(w))
        .collect();
    let resumed = if args.fresh {
        None
    } else {
        match tessera::game::files::read_text_if_exists(&ckpt, "checkpoint", 1 << 30)
            .map_err(CliError::input)?
        {
            Some(text) => Some(
                TexelState::from_text(&text, registry.len())
                    .map_err(|e| CliError::input(format!("checkpoint {}: {e}", ckpt.display())))?,
            ),
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
                return Err(CliError::input(format!(
                    "checkpoint {} is of another fit (its run: '{}'; this one: '{run}'): remove it or pass --fresh",
                    ckpt.display(),
                    tessera::game::shown(&st.run)
                )));
            }
            check_resume(&ckpt, st.epoch, args.epochs, "epochs")?;
            if !args.json {
                say(format!(
                    "resuming from {} at epoch {}{}",
                    ckpt.display(),
                    st.epoch,
                    if st.epoch == args.epochs {
                        " (all done: writing the output again)"
                    } else {
                        ""
                    }
                ));
            }
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
            checkpoint::write(&ckpt, state.to_text().as_bytes()).map_err(CliError::input)?;
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

/// The held-out mean absolute error per 10-ply phase of the fitted format-2 weights `w`
/// next to the shipped format-1 evaluation's on the same positions, as text rows (also
/// appended to `header`).
fn held_out_by_stage(
    w: &[f32],
    valid: &Dataset,
    positions: &[(u64, u64)],
    header: &mut Vec<String>,
) -> Vec<String> {
    use tessera::games::othello::patterns::{shipped, v2};
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

fn patterns(args: &TuneArgs) -> Result<ExitCode, CliError> {
    need_data(args)?;
    let set = if args.set == 2 {
        fit::Set::V2
    } else {
        fit::Set::V1
    };
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
    let smooth = match (set, args.smooth) {
        (fit::Set::V1, Some(_)) => {
            return Err(CliError::input(
                "--smooth needs --set 2 (format 1 has 10 stages)",
            ));
        }
        (fit::Set::V1, None) => 0.0,
        (fit::Set::V2, s) => s.unwrap_or(4.0),
    };
    if !(smooth.is_finite() && smooth >= 0.0) {
        return Err(CliError::input(format!(
            "--smooth must be >= 0, got {smooth}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start threads: {e}")))?;
    let (train, valid, valid_positions, exact, repeats) = if set == fit::Set::V2 {
        let split = fit::load_split(&args.data, set, 20).map_err(CliError::input)?;
        (
            split.train,
            split.valid,
            split.valid_positions,
            split.exact,
            split.repeats,
        )
    } else {
        let mut samples = Vec::new();
        for path in &args.data {
            samples.extend(selfplay::read(path).map_err(CliError::input)?);
        }
        if samples.is_empty() {
            return Err(CliError::input("the data files hold no positions"));
        }
        let exact = samples.iter().filter(|s| s.exact.is_some()).count();
        let (train, valid) = Dataset::from_samples(&samples, 20).map_err(|e| {
            let names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
            CliError::input(format!("data {}: {e}", names.join(", ")))
        })?;
        (train, valid, Vec::new(), exact, 0)
    };
    let fingerprint = train.fingerprint();
    let ckpt = checkpoint_path(args);
    let cfg = FitConfig {
        lr,
        lambda: args.lambda,
        smooth,
    };
    let settings = cfg.describe(set);
    let mut state = if args.fresh {
        FitState::new(set)
    } else {
        fit::load_checkpoint(&ckpt, fingerprint, &settings, set.total())
            .map_err(CliError::input)?
            .unwrap_or_else(|| FitState::new(set))
    };
    check_resume(&ckpt, state.epoch, args.epochs, "epochs")?;
    if state.epoch > 0 && !args.json {
        say(format!(
            "resuming from {} at epoch {}{}",
            ckpt.display(),
            state.epoch,
            if state.epoch == args.epochs {
                " (all done: writing the output again)"
            } else {
                ""
            }
        ));
    }
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
            fit::save_checkpoint(&ckpt, &state, fingerprint, &settings).map_err(CliError::input)?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let valid_mse = pool.install(|| fit::mse(&state.w, &valid));
    let data_names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        format!(
            "Othello pattern weights{} (centi-discs), fitted by least squares on disc difference",
            if set == fit::Set::V2 {
                ", format 2"
            } else {
                ""
            }
        ),
        format!("command: {}", tessera::tuning::command_line()),
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
            args.lambda,
            if set == fit::Set::V2 {
                format!(", smooth {smooth}")
            } else {
                String::new()
            },
            valid_mse.sqrt(),
            tessera::tuning::utc_date()
        ),
    ];
    let mut header = header;
    let by_stage = (set == fit::Set::V2)
        .then(|| held_out_by_stage(&state.w, &valid, &valid_positions, &mut header));
    if repeats > 0 {
        header.push(format!(
            "{repeats} repeated positions: labels averaged into the first occurrence (dropped when the first was on the other side of the held-out split)"
        ));
    }
    let bytes = match set {
        fit::Set::V1 => fit::to_pattern_weights(&state.w, header)
            .map_err(CliError::failure)?
            .to_bytes(),
        fit::Set::V2 => fit::to_pattern_weights2(&state.w, header)
            .map_err(CliError::failure)?
            .to_bytes(),
    };
    super::output::create_parent(&args.out)?;
    if let Some(rows) = &by_stage
        && !args.json
    {
        for r in rows {
            say(r);
        }
    }
    std::fs::write(&args.out, bytes)
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
