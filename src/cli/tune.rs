//! `tessera tune`: fit evaluation weights to self-play data (`--method patterns`), with a
//! progress bar, the loss per epoch and checkpoints to resume from.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use tessera::tuning::spsa_request::{self, SpsaRequest};
use tessera::tuning::{mpc_run, outputs, parity_run, patterns_run, texel_run};

use super::GameId;
use super::output::{CliError, print_json, say};
use tessera::tuning::progress_bar::TerminalBar as Bar;

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
    /// Othello format-2 patterns: re-centre the parity weights on exact labels, per number
    /// of empties (--weights, --data with exact labels)
    Parity,
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
        one (least squares: a, b, residual sigma); see docs/mpc.md.\n\n\
        --method parity (othello): re-centres the format-2 --weights (default \
        builtin:patterns2) on the exact labels of --data (`selfplay --exact-empties E`): for \
        each number of empties with at least 100 distinct exact-labelled positions, their \
        mean residual (exact minus evaluation) is added to that count's parity weight, which \
        removes the evaluation's bias there and changes nothing else; see docs/tuning.md.",
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
    if args.game != GameId::Othello && args.method == Method::Parity {
        return Err(CliError::input(
            "--method parity re-centres the Othello pattern evaluation; quixo and talat take --method texel or spsa",
        ));
    }
    if args.game != GameId::Othello && args.method == Method::Patterns {
        return Err(CliError::input(
            "--method patterns fits the Othello pattern evaluation; quixo and talat take --method texel or spsa",
        ));
    }
    outputs::check_outputs(&args.data, &args.out, args.checkpoint.as_deref())?;
    match args.method {
        Method::Patterns => patterns(args),
        Method::Texel => texel(args),
        Method::Spsa => spsa(args),
        Method::Mpc => mpc(args),
        Method::Parity => parity(args),
    }
}

fn parity(args: &TuneArgs) -> Result<ExitCode, CliError> {
    let cfg = parity_run::ParityConfig {
        data: args.data.clone(),
        weights: args.weights.clone(),
        out: args.out.clone(),
        min_positions: parity_run::MIN_POSITIONS,
    };
    let s = parity_run::run(&cfg)?;
    if args.json {
        print_json(&s.to_json(&args.out));
    } else {
        s.lines(&args.out).into_iter().for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}

fn mpc(args: &TuneArgs) -> Result<ExitCode, CliError> {
    let cfg = mpc_run::MpcConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        positions: args.positions as usize,
        depth: args.depth,
        weights: args.weights.clone(),
        threads: args.threads as usize,
    };
    let s = mpc_run::run(&cfg, &Bar::new(args.no_progress, args.json))?;
    if args.json {
        print_json(&s.to_json(&args.out));
    } else {
        s.lines(args.depth, &args.out).into_iter().for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints `json` with `--json`, else `line`.
fn print(args: &TuneArgs, json: serde_json::Value, line: String) -> Result<ExitCode, CliError> {
    if args.json {
        print_json(&json);
    } else {
        say(line);
    }
    Ok(ExitCode::SUCCESS)
}

/// The checkpoint file: `--checkpoint`, else the output with the extension `.ckpt`.
fn checkpoint_path(args: &TuneArgs) -> PathBuf {
    args.checkpoint
        .clone()
        .unwrap_or_else(|| outputs::default_checkpoint(&args.out))
}

fn spsa(args: &TuneArgs) -> Result<ExitCode, CliError> {
    let req = SpsaRequest {
        engine: args.engine.clone(),
        seed: args.seed,
        iterations: args.epochs,
        step_ratio: f64::from(args.lr.unwrap_or(1.0)),
        c_scale: args.c_scale,
        out: args.out.clone(),
        checkpoint: checkpoint_path(args),
        fresh: args.fresh,
    };
    let s = spsa_request::run_request(args.game, &req, &Bar::new(args.no_progress, args.json))?;
    print(args, s.to_json(&args.out), s.line(&args.out))
}

fn texel(args: &TuneArgs) -> Result<ExitCode, CliError> {
    let cfg = texel_run::TexelConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        checkpoint: checkpoint_path(args),
        fresh: args.fresh,
        epochs: args.epochs,
        lr: args.lr.unwrap_or(1.0),
        threads: args.threads as usize,
    };
    let s = texel_run::run_game(args.game, &cfg, &Bar::new(args.no_progress, args.json))?;
    print(args, s.to_json(&args.out), s.line(&args.out))
}

fn patterns(args: &TuneArgs) -> Result<ExitCode, CliError> {
    use tessera::tuning::patterns::Set;
    let cfg = patterns_run::PatternsConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        checkpoint: checkpoint_path(args),
        fresh: args.fresh,
        epochs: args.epochs,
        set: if args.set == 2 { Set::V2 } else { Set::V1 },
        lr: args.lr.unwrap_or(0.02),
        lambda: args.lambda,
        smooth: args.smooth,
        threads: args.threads as usize,
    };
    let s = patterns_run::run(&cfg, &Bar::new(args.no_progress, args.json))?;
    print(args, s.to_json(&args.out), s.line(&args.out))
}
