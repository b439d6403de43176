//! `tessera bestmove`: search one position and report the best move, its score with the
//! unit, the depth reached, nodes, speed and the principal variation.

use std::process::ExitCode;

use clap::Args;
use tessera::search::SearchInfo;

use super::games::{CliGame, Loaded};
use super::output::{
    CliError, join_moves, json_moves, print_json, say, score_short, score_text, si,
};
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

/// An info line for a finished iteration.
pub fn info_line<M: std::fmt::Display>(info: &SearchInfo<M>, unit: &str) -> String {
    let secs = info.elapsed.as_secs_f64();
    format!(
        "info depth {} score {} nodes {} time {:.3} nps {} pv {}",
        info.depth,
        score_short(info.score, unit),
        info.nodes,
        secs,
        super::output::rate(info.nodes, secs).round(),
        join_moves(&info.pv)
    )
}

fn bestmove<G: CliGame>(args: &BestmoveArgs) -> Result<ExitCode, CliError> {
    let engine_args = args.engine.for_game::<G>()?;
    let loaded = G::load(&args.position, args.engine.seed())?;
    let pos = &loaded.position;
    let limits = engine_args.limits(DEFAULT_TIME_MS);
    let mut engine = engine_args.engine::<G>(!args.json)?;

    if !args.json {
        let origin = match &loaded.origin {
            Some(o) => format!("  {o}"),
            None => String::new(),
        };
        say(format!("position {pos}{origin}"));
        say(pos.diagram());
    }

    if let Some(result) = pos.result_text() {
        if args.json {
            print_json(&with_extra(
                serde_json::json!({
                    "game": G::ID,
                    "position": pos.to_string(),
                    "move": null,
                    "score": pos.final_score(),
                    "unit": G::SCORE_UNIT,
                    "exact": true,
                    "depth": 0,
                    "nodes": 0,
                    "nps": 0.0,
                    "seconds": 0.0,
                    "pv": [],
                    "game_over": true,
                    "result": pos.result_json(),
                }),
                &loaded.json,
            ));
        } else {
            say(format!("{result}; no move to search"));
        }
        return Ok(ExitCode::SUCCESS);
    }

    if let Some(note) = pos.search_note(&engine_args, &limits)
        && !args.json
    {
        say(note);
    }
    let thought = engine.choose(pos, &limits).map_err(CliError::failure)?;
    report(args, &loaded, &thought)
}

/// `value` (an object) with the fields of `extra` (an object or null) added.
fn with_extra(mut value: serde_json::Value, extra: &serde_json::Value) -> serde_json::Value {
    if let (Some(v), Some(e)) = (value.as_object_mut(), extra.as_object()) {
        for (k, x) in e {
            v.insert(k.clone(), x.clone());
        }
    }
    value
}

/// Prints the engine's answer (JSON or text).
fn report<G: CliGame>(
    args: &BestmoveArgs,
    loaded: &Loaded<G>,
    thought: &tessera::engine::Thought<G::Move>,
) -> Result<ExitCode, CliError> {
    let pos = &loaded.position;
    let seconds = thought.elapsed.as_secs_f64();
    let nps = thought.nps();
    let best = thought.best_move.map(|m| m.to_string());

    if args.json {
        print_json(&with_extra(
            serde_json::json!({
                "game": G::ID,
                "position": pos.to_string(),
                "move": best,
                "score": thought.score,
                "unit": thought.unit,
                "exact": thought.exact,
                "depth": thought.depth,
                "nodes": thought.nodes,
                "nps": nps,
                "seconds": seconds,
                "pv": json_moves(&thought.pv),
                "game_over": false,
            }),
            &loaded.json,
        ));
    } else {
        let depth_note = if thought.exact {
            " (solved to the end)"
        } else {
            ""
        };
        say(format!(
            "best move  {}",
            best.as_deref().unwrap_or("(none)")
        ));
        say(format!(
            "score      {} for {}",
            score_text(thought.score, thought.unit, thought.exact),
            pos.seat_name(pos.to_move())
        ));
        say(format!("depth      {}{depth_note}", thought.depth));
        say(format!("nodes      {}", thought.nodes));
        say(format!("speed      {}nodes/s ({seconds:.3} s)", si(nps)));
        say(format!("pv         {}", join_moves(&thought.pv)));
    }
    Ok(ExitCode::SUCCESS)
}
