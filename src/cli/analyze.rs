//! `tessera analyze`: a score, depth and principal variation for every legal move, best
//! first (Edax `hint N`, Egaroucid's analysis).

use std::process::ExitCode;

use clap::Args;
use tessera::engine::analyze::analyze_moves;
use tessera::engine::thought_text::{Analysis, analysis_game_over_json, position_line};

use super::games::CliGame;
use super::output::{CliError, print_json, say};
use super::{EngineArgs, GameId, PositionArgs};

/// Arguments of `tessera analyze`.
#[derive(Args, Debug)]
#[command(
    about = "Score every legal move of a position: score, depth and PV per move, best first",
    long_about = "Score every legal move of a position: each move is played and the position \
                  after it searched by alpha-beta (one shared transposition table), and the \
                  moves are listed best first with their score for the side to move (\"exact\" \
                  when solved to the end), the depth (the move included), nodes and the \
                  principal variation. Same position and engine options as bestmove: --depth N \
                  searches each reply to N-1 plies; --time-ms and --nodes are budgets for the \
                  whole analysis, split evenly over the moves (default --time-ms 2000). \
                  Two-sided games only (othello, quixo, quixo-4p, talat-2p); three-player talat \
                  has no single score per move.",
    after_help = "Examples:\n  tessera analyze othello --moves f5d6 --depth 8\n  \
                  tessera analyze othello --ffo 40 --multipv 3 --json\n  \
                  tessera analyze quixo --depth 3"
)]
pub struct AnalyzeArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Report the best N moves [default: all]
    #[arg(long, value_name = "N", value_parser = super::output::at_least_one_u32)]
    pub multipv: Option<u32>,
    /// Print one JSON object (no board)
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera analyze`.
///
/// A finished game prints its result (JSON: `game_over`, `result`, `score` for the side to
/// move, no `moves`) and exits 0, as `bestmove` does.
///
/// # Errors
/// Bad input, an algorithm other than alpha-beta, a three-sided game.
pub fn run(args: &AnalyzeArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, analyze(args))
}

fn analyze<G: CliGame>(args: &AnalyzeArgs) -> Result<ExitCode, CliError> {
    let engine_args = args.engine.flags().for_analysis::<G>()?;
    let loaded = G::load(&args.position, args.engine.seed())?;
    let pos = &loaded.position;
    if let Some(result) = pos.result_text() {
        // A finished game is not bad input (as in bestmove): its result, exit code 0.
        if args.json {
            print_json(&analysis_game_over_json(pos, &loaded.json));
        } else {
            say(format!("position {pos}"));
            say(pos.diagram());
            say(format!("{result}; no move to analyse"));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let limits = engine_args.limits(super::bestmove::DEFAULT_TIME_MS);
    let mut engine = engine_args.engine::<G>()?;
    let started = std::time::Instant::now();
    let mut scores = analyze_moves(engine.as_mut(), pos, &limits).map_err(CliError::input)?;
    let seconds = started.elapsed().as_secs_f64();
    let nodes: u64 = scores.iter().map(|t| t.nodes).sum();
    let legal = scores.len();
    if let Some(n) = args.multipv {
        scores.truncate(n as usize);
    }
    let analysis = Analysis {
        pos,
        scores: &scores,
        legal,
        nodes,
        seconds,
    };
    if args.json {
        print_json(&analysis.to_json(&loaded.json));
        return Ok(ExitCode::SUCCESS);
    }
    say(position_line(pos, loaded.origin.as_deref()));
    say(pos.diagram());
    analysis.lines().into_iter().for_each(say);
    Ok(ExitCode::SUCCESS)
}
