//! `tessera solve`: the exact final disc difference of a position and a best move.

use std::process::ExitCode;

use tessera::game::Game;
use tessera::games::othello::endgame::{Pass, Solver};
use tessera::search::{Limits, TranspositionTable};

use super::output::{CliError, EXIT_UNFINISHED, join_moves, json_moves, print_json, rate, say, si};
use super::{GameId, othello};

pub use super::solve_args::{DEFAULT_QUIXO_PLIES, SolveArgs};

/// Runs `tessera solve`.
///
/// # Errors
/// Bad or missing position.
pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    match args.game {
        GameId::Othello => {
            if args.size.is_some()
                || args.max_plies.is_some()
                || args.table.is_some()
                || args.prover.is_some()
            {
                return Err(CliError::input(
                    "--size, --max-plies, --table and --prover are for Quixo; Othello positions are solved to the end",
                ));
            }
            if let Some(path) = &args.obf {
                return super::solve_obf::run(&super::solve_obf::ObfRun {
                    path,
                    tt_mib: args.tt_mb,
                    threads: args.threads.unwrap_or(1) as usize,
                    time_ms: args.time_ms,
                    json: args.json,
                });
            }
            if args.position.is_empty() {
                return Err(CliError::input(
                    "solve needs a position: give --position, --moves, --ffo or --obf",
                ));
            }
            othello_solve(args)
        }
        GameId::Quixo if args.obf.is_some() => Err(CliError::input(
            "--obf is Othello's problem-file format; give Quixo a --position or --size",
        )),
        GameId::Quixo => super::quixo::solve(args),
        other => Err(CliError::input(format!(
            "solve supports othello and quixo, not {}",
            other.name()
        ))),
    }
}

fn othello_solve(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let loaded = othello::load(&args.position)?;
    let pos = loaded.position;
    if !args.json {
        let origin = match &loaded.origin {
            Some(o) => format!("  {o}"),
            None => String::new(),
        };
        say(format!("position {pos}{origin}"));
        say(pos.diagram());
        if pos.outcome().is_none() {
            say(format!("solving {} empties...", pos.empties()));
        }
    }

    let threads = args.threads.unwrap_or(1) as usize;
    let mut tt =
        TranspositionTable::try_new(args.othello_tt_mib(pos.empties())).map_err(CliError::input)?;
    if threads > 1 {
        tt.prefault();
    }
    let limits = Limits {
        time_ms: args.time_ms,
        ..Limits::default()
    };
    let mut progress = |pass: &Pass| say(pass_line(pass));
    let mut solver = Solver::new(&tt, &limits).with_threads(threads);
    if !args.json {
        solver = solver.with_progress(&mut progress);
    }
    let sol = solver.solve(&pos);
    let nps = rate(sol.nodes, sol.seconds);
    let best = sol.best_move.map(|m| m.to_string());
    let game_over = pos.outcome().is_some();

    if args.json {
        print_json(&serde_json::json!({
            "game": "othello",
            "position": pos.to_string(),
            "empties": pos.empties(),
            "score": sol.score,
            "unit": "discs",
            "move": best,
            "pv": json_moves(&sol.pv),
            "nodes": sol.nodes,
            "seconds": sol.seconds,
            "nps": nps,
            "stopped": sol.score.is_none(),
            "game_over": game_over,
            "ffo": loaded.json["ffo"],
            "passes": sol.passes.iter().map(|p| serde_json::json!({
                "depth": p.depth,
                "probability": p.probability,
                "score": p.score,
                "move": p.best_move.to_string(),
                "nodes": p.nodes,
                "seconds": p.seconds,
            })).collect::<Vec<_>>(),
        }));
    } else if let Some(score) = sol.score {
        if let Some(result) = tessera::present::Present::result_text(&pos) {
            say(result);
        }
        say(format!(
            "score      {score:+} discs for {} (exact)",
            tessera::present::color_name(pos.side())
        ));
        say(format!(
            "best move  {}",
            best.as_deref().unwrap_or("(none: the game is over)")
        ));
        say(format!("pv         {}", join_moves(&sol.pv)));
        say(format!("nodes      {}", sol.nodes));
        say(format!(
            "time       {:.3} s ({}nodes/s)",
            sol.seconds,
            si(nps)
        ));
    } else {
        say(format!(
            "unsolved: the time limit of {} ms stopped the solve after {:.3} s and {} nodes",
            args.time_ms.unwrap_or(0),
            sol.seconds,
            sol.nodes
        ));
    }
    Ok(if sol.score.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNFINISHED)
    })
}

/// The progress line of a finished root pass of the exact solver, Edax style: the depth
/// (empties) and the pass's confidence (`20@73%`; `@100%` is the exact pass), its score
/// (discs) and best move, the solve's nodes and seconds so far.
fn pass_line(pass: &Pass) -> String {
    format!(
        "info depth {}@{}% score {:+} move {} nodes {} time {:.3}",
        pass.depth, pass.probability, pass.score, pass.best_move, pass.nodes, pass.seconds
    )
}
