//! `tessera solve`: the exact final disc difference of a position and a best move.

use std::process::ExitCode;

use tessera::engine::thought_text::position_line;
use tessera::game::Game;
use tessera::games::othello::Position;
use tessera::games::othello::endgame::Pass;
use tessera::games::othello::obf_batch::solve_one;
use tessera::present::othello_solve as view;

use super::GameId;
use super::games::CliGame;
use super::output::{CliError, EXIT_UNFINISHED, print_json, say};

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
    let loaded = <Position as CliGame>::load(&args.position, 0)?;
    let pos = loaded.position;
    if !args.json {
        say(position_line(&pos, loaded.origin.as_deref()));
        say(pos.diagram());
        if pos.outcome().is_none() {
            say(format!("solving {} empties...", pos.empties()));
        }
    }
    let threads = args.threads.unwrap_or(1) as usize;
    let mut progress = |pass: &Pass| say(view::pass_line(pass));
    let settings = (args.tt_mb, threads, args.time_ms);
    let sol = solve_one(&pos, settings, (!args.json).then_some(&mut progress as _))
        .map_err(CliError::input)?;
    if args.json {
        print_json(&view::solution_json(&pos, &sol, &loaded.json["ffo"]));
    } else {
        view::solution_lines(&pos, &sol, args.time_ms)
            .into_iter()
            .for_each(say);
    }
    Ok(if sol.score.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNFINISHED)
    })
}
