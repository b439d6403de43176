//! Quixo specifics of the command line (`quixo` and `quixo-4p`): seat names, the board
//! diagram with the four-player dots, engines from the command line, and `solve quixo`
//! (whole small boards by retrograde analysis, or one position by the proving search).

use std::process::ExitCode;

use tessera::game::Game;
use tessera::games::quixo::proof_table::{ProofTableError, proof_table};
use tessera::games::quixo::small_answer::small_answer;
use tessera::games::quixo::table_cache::TableCacheError;
use tessera::games::quixo::{
    self as qx, Position, ProveLimits, Quixo, SolveSettings, SolveTask, Verdict,
};
use tessera::present::Present;
use tessera::present::quixo_solve as view;

use super::games::CliGame;
use super::output::{CliError, print_json, say};

impl<const FOUR: bool> CliGame for Position<FOUR> {}

/// A 3x3 or 4x4 position, solved exactly from the retrograde table of its board size
/// (3x3: milliseconds; 4x4: a few seconds); a finished game needs no table.
fn solve_small(
    pos: &Quixo,
    threads: usize,
    json: bool,
    started: std::time::Instant,
) -> Result<ExitCode, CliError> {
    let n = pos.size();
    if !json {
        say(format!("position {pos}"));
        say(Present::diagram(pos));
        if pos.outcome().is_none() {
            say(format!(
                "solving every {n}x{n} board by retrograde analysis..."
            ));
        }
    }
    let answer = small_answer(pos, threads).map_err(CliError::failure)?;
    let seconds = started.elapsed().as_secs_f64();
    if json {
        print_json(&view::small_json(pos, &answer, seconds));
    } else {
        view::small_lines(pos, &answer, seconds)
            .into_iter()
            .for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}

/// `tessera solve quixo`: `--size 3|4` solves every board of that size; a position is
/// proved (exact value and distance) within `max_plies` and `time_ms`.
///
/// # Errors
/// A bad size or position; exit code 1 (through the caller) when nothing was proven.
pub fn solve(args: &super::solve::SolveArgs) -> Result<ExitCode, CliError> {
    let (position, time_ms, json) = (&args.position, args.time_ms, args.json);
    let max_plies = args.max_plies.unwrap_or(super::solve::DEFAULT_QUIXO_PLIES);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let settings = SolveSettings {
        size: args.size,
        has_position: !position.is_empty(),
        max_plies: args.max_plies,
        time_ms,
        tt_mb: args.tt_mb,
        table: args.table.clone(),
        prover: args.prover.is_some(),
    };
    if let SolveTask::Size(size) = settings.task().map_err(CliError::input)? {
        if !json {
            say(format!(
                "solving every {size}x{size} Quixo board by retrograde analysis ({threads} threads)..."
            ));
        }
        let s = qx::solve_size(size, threads).map_err(CliError::input)?;
        if json {
            print_json(&view::size_json(&s));
        } else {
            view::size_lines(&s).into_iter().for_each(say);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let pos = <Quixo as CliGame>::load(position, 0)?.position;
    let started = std::time::Instant::now();
    settings
        .check_position(pos.size())
        .map_err(CliError::input)?;
    if pos.size() < 5 {
        return solve_small(&pos, threads, json, started);
    }
    let table = proof_table(
        &pos,
        max_plies,
        (args.table.as_deref(), threads, time_ms),
        &mut |line| eprintln!("{line}"),
    )
    .map_err(|e| match e {
        ProofTableError::Cache(e @ TableCacheError::Build(_)) => CliError::failure(e.to_string()),
        e => CliError::input(e.to_string()),
    })?;
    let table_json = table.as_ref().map(|(_, src)| view::table_json(src));
    let table = table.map(|(t, _)| t);
    if !json {
        say(format!("position {pos}"));
        say(Present::diagram(&pos));
    }
    let limits = ProveLimits {
        max_plies,
        time_ms,
        tt_mb: args.tt_mib(),
    };
    let prover = args.prover.unwrap_or(super::solve_args::QuixoProver::Dfpn);
    let proof = match prover {
        super::solve_args::QuixoProver::Dfpn => qx::prove_dfpn(&pos, &limits, table.as_ref()),
        super::solve_args::QuixoProver::Id => qx::prove(&pos, &limits, table.as_ref()),
    };
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let prover = if prover == super::solve_args::QuixoProver::Dfpn {
            "dfpn"
        } else {
            "id"
        };
        print_json(&view::proof_json(
            &pos,
            &proof,
            (prover, max_plies, table_json),
            seconds,
        ));
    } else {
        view::proof_lines(&pos, &proof, (max_plies, time_ms), seconds)
            .into_iter()
            .for_each(say);
    }
    Ok(if proof.value == Verdict::Unproven {
        ExitCode::from(super::output::EXIT_UNFINISHED)
    } else {
        ExitCode::SUCCESS
    })
}
