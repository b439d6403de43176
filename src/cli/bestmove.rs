//! `tessera bestmove`: search one position and report the best move, its score with the
//! unit, the depth reached, nodes, speed and the principal variation.

use std::process::ExitCode;

use clap::Args;
use tessera::engine::notes::search_note;
use tessera::engine::thought_text::{game_over_json, position_line, thought_json, thought_lines};

use super::engine_args::show_progress;
use super::games::CliGame;
use super::output::{CliError, print_json, say};
use super::{EngineArgs, GameId, PositionArgs};

/// Time budget when no `--depth`, `--time-ms` or `--nodes` is given, milliseconds.
pub const DEFAULT_TIME_MS: u64 = 2000;

/// Arguments of `tessera bestmove`.
#[derive(Args, Debug)]
#[command(
    about = "Search a position: best move, score, depth, nodes, nodes/s and principal variation",
    long_about = "Search a position and print the board, one info line per finished \
                  iteration, then the best move, its score (Othello: centi-discs = hundredths \
                  of a disc of final disc difference; Quixo: centi-cubes, or a forced win/loss \
                  in N plies; Talat: centi-points of margin over the best opponent; always the \
                  side to move's view; \"exact\" when solved to the end), the depth reached, \
                  nodes, nodes/s and the principal variation. Two-sided games use alpha-beta by \
                  default; three-player talat uses brs-plus (--algo paranoid, maxn, brs, \
                  brs-plus or mcts).\n\nWith no position flag: the start position. With no limit: \
                  --time-ms 2000. Positions with at most --exact-empties empty squares are \
                  solved exactly (under a time or node budget, a quick midgame search gets a \
                  quarter of it, to at most half the empties plies, first and the solver the \
                  rest).\n\nWith --algo mcts: \
                  Monte-Carlo tree search (UCT, MCTS-Solver) limited by --iterations, \
                  --nodes (= iterations) or --time-ms; the score is the chosen move's mean \
                  playout reward for the side to move x 1000 (\"exact\" when proven), the \
                  depth is the deepest tree node, nodes are iterations, --threads runs \
                  independent trees whose root statistics are merged (--mcts-parallel root, \
                  the default) or threads on one shared tree with virtual loss \
                  (--mcts-parallel tree).",
    after_help = "Examples:\n  tessera bestmove othello --ffo 40 --exact-empties 20\n  \
                  tessera bestmove othello --moves f5d6c3 --depth 10 --json\n  \
                  tessera bestmove othello --algo mcts --iterations 20000 --threads 2 --seed 7\n  \
                  tessera bestmove quixo --algo mcts --time-ms 1000 --threads 2 --mcts-parallel tree"
)]
pub struct BestmoveArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print one JSON object (no board, no info lines)
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera bestmove`.
///
/// # Errors
/// Bad input (position, weights file) or an engine failure.
pub fn run(args: &BestmoveArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, bestmove(args))
}

fn bestmove<G: CliGame>(args: &BestmoveArgs) -> Result<ExitCode, CliError> {
    let engine_args = args.engine.for_game::<G>()?;
    let loaded = G::load(&args.position, args.engine.seed())?;
    let pos = &loaded.position;
    let limits = engine_args.limits(DEFAULT_TIME_MS);
    let mut engine = engine_args.engine::<G>()?;
    if !args.json {
        show_progress(engine.as_mut());
        say(position_line(pos, loaded.origin.as_deref()));
        say(pos.diagram());
    }
    if let Some(result) = pos.result_text() {
        if args.json {
            print_json(&game_over_json(pos, &loaded.json));
        } else {
            say(format!("{result}; no move to search"));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(note) = search_note(pos, &engine_args.spec::<G>()?, &limits)
        && !args.json
    {
        say(note);
    }
    let thought = engine.choose(pos, &limits).map_err(CliError::failure)?;
    if args.json {
        print_json(&thought_json(pos, &thought, &loaded.json));
    } else {
        thought_lines(pos, &thought).into_iter().for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}
