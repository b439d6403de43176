//! Quixo specifics of the command line (`quixo` and `quixo-4p`): seat names, the board
//! diagram with the four-player dots, engines from the command line, and `solve quixo`
//! (whole small boards by retrograde analysis, or one position by the proving search).

use std::process::ExitCode;

use tessera::game::Game;
use tessera::games::quixo::{self as qx, Position, ProveLimits, Quixo, Verdict};
use tessera::present::Present;

use super::games::CliGame;
use super::output::{CliError, print_json, say};

impl<const FOUR: bool> CliGame for Position<FOUR> {
    const SQUARE_SYMMETRY: bool = true;
    /// The fast two-player perft (bulk counting at the last ply); four players use the
    /// generic one ([`qx::perft::perft`] chooses by `FOUR`).
    fn perft(&self, depth: u32) -> u64 {
        qx::perft::perft(self, depth)
    }

    /// Two-player Quixo: a win proven within N plies (N <= 9).
    fn exact_solve() -> Option<tessera::tournament::adjudicate::ExactSolve<Self>> {
        tessera::tournament::adjudicate::exact_solver::<Self>()
    }

    /// The tables' move, when the engine's `tables` answer the position.
    fn search_note(
        &self,
        engine: &tessera::engine::EngineSpec,
        _limits: &tessera::search::Limits,
    ) -> Option<String> {
        tessera::engine::quixo_tables::table_note(engine, self)
    }
}

/// A 3x3 or 4x4 position, solved exactly from the retrograde table of its board size
/// (3x3: milliseconds; 4x4: a few seconds); a finished game needs no table.
fn solve_small(
    pos: &Quixo,
    threads: usize,
    json: bool,
    started: std::time::Instant,
) -> Result<ExitCode, CliError> {
    use tessera::games::quixo::retro::{SmallBoardTable, Value, decode};
    let n = pos.size();
    let game_over = pos.outcome().is_some();
    if !json {
        say(format!("position {pos}"));
        say(Present::diagram(pos));
        if !game_over {
            say(format!(
                "solving every {n}x{n} board by retrograde analysis..."
            ));
        }
    }
    let table = if game_over {
        None
    } else {
        Some(SmallBoardTable::solve(n, threads).map_err(CliError::failure)?)
    };
    let value_of = |p: &Quixo| -> (Value, Option<u32>) {
        match (p.outcome(), &table) {
            (Some(o), _) if o.score(p.to_move()) == 1 => (Value::Win, Some(0)),
            (Some(_), _) => (Value::Loss, Some(0)),
            (None, Some(table)) => {
                let (me, opp) = p.own_other();
                decode(table.code(me, opp))
            }
            (None, None) => unreachable!("the table is built unless the game is over"),
        }
    };
    let (value, plies) = value_of(pos);
    let mut moves = <Quixo as Game>::Moves::default();
    if !game_over {
        pos.generate_moves(&mut moves);
    }
    // A best move: fastest win, slowest loss, or one that keeps the draw.
    let best = moves.iter().copied().find(|&m| {
        let (cv, cd) = value_of(&pos.play(m));
        match value {
            Value::Win => cv == Value::Loss && cd.map(|d| d + 1) == plies,
            Value::Loss => cv == Value::Win && cd.map(|d| d + 1) == plies,
            Value::Draw => cv == Value::Draw,
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let word = value.to_string().to_ascii_lowercase();
    let best = best.map(|m| m.to_string());
    if json {
        print_json(&serde_json::json!({
            "game": "quixo",
            "position": pos.to_string(),
            "value": word,
            "plies": plies,
            // The same fields as a 5x5 answer: the retrograde table's distances are exact
            // and nothing can stop it.
            "plies_exact": plies.is_some(),
            "prover": "retrograde",
            "move": best,
            "nodes": 0,
            "seconds": seconds,
            "stopped": false,
            "max_plies": null,
            "table": null,
            "game_over": game_over,
        }));
    } else {
        let who = pos.seat_name(pos.to_move());
        match plies {
            Some(0) => say(format!("value      {word} for {who}: the game is over")),
            Some(p) => {
                let plural = if p == 1 { "ply" } else { "plies" };
                say(format!(
                    "value      {word} for {who} in {p} {plural} (the final move counted)"
                ));
            }
            None => say(format!(
                "value      draw for {who} (neither side can force a line)"
            )),
        }
        if let Some(b) = &best {
            say(format!("best move  {b}"));
        }
        say(format!("time       {seconds:.3} s"));
    }
    Ok(ExitCode::SUCCESS)
}

/// `tessera solve quixo`: `--size 3|4` solves every board of that size; a position is
/// proved (exact value and distance) within `max_plies` and `time_ms`.
///
/// # Errors
/// A bad size or position; exit code 1 (through the caller) when nothing was proven.
pub fn solve(args: &super::solve::SolveArgs) -> Result<ExitCode, CliError> {
    let (size, position, time_ms, json) = (args.size, &args.position, args.time_ms, args.json);
    let max_plies = args.max_plies.unwrap_or(super::solve::DEFAULT_QUIXO_PLIES);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    if let Some(size) = size {
        if args.table.is_some() {
            return Err(CliError::input(
                "--table is the 5x5 full-board table; --size solves a 3x3 or 4x4 board",
            ));
        }
        if time_ms.is_some() {
            return Err(CliError::input(
                "--time-ms limits the proving search of a position; --size always solves the whole board",
            ));
        }
        if args.max_plies.is_some() || args.prover.is_some() || args.tt_mb.is_some() {
            return Err(CliError::input(
                "--max-plies, --prover and --tt-mb are for the proving search of a 5x5 position; \
                 --size solves every board exactly by retrograde analysis",
            ));
        }
        if !position.is_empty() {
            return Err(CliError::input(
                "give either --size (solve a whole board size) or a position, not both",
            ));
        }
        if !json {
            say(format!(
                "solving every {size}x{size} Quixo board by retrograde analysis ({threads} threads)..."
            ));
        }
        let s = qx::solve_size(size, threads).map_err(CliError::input)?;
        let plies = s.plies;
        if json {
            print_json(&serde_json::json!({
                "game": "quixo",
                "size": size,
                "value": s.value.to_string().to_ascii_lowercase(),
                "plies": plies,
                "plies_exact": plies.is_some(),
                "wins": s.counts.wins,
                "losses": s.counts.losses,
                "draws": s.counts.draws,
                "seconds": s.seconds,
            }));
        } else {
            say(format!(
                "empty {size}x{size} board: {} for the first player{}",
                s.value,
                plies.map_or(String::new(), |p| format!(" in {p} plies"))
            ));
            say(format!(
                "boards (side to move's view): {} won, {} lost, {} drawn",
                s.counts.wins, s.counts.losses, s.counts.draws
            ));
            say(format!("time       {:.2} s", s.seconds));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if position.is_empty() {
        return Err(CliError::input(
            "solve quixo needs --size 3|4 or a position (--position or --moves)",
        ));
    }
    let pos = <Quixo as CliGame>::load(position, 0)?.position;
    let started = std::time::Instant::now();
    if pos.size() < 5 {
        if args.max_plies.is_some()
            || args.prover.is_some()
            || args.tt_mb.is_some()
            || time_ms.is_some()
            || args.table.is_some()
        {
            return Err(CliError::input(format!(
                "a {n}x{n} position is looked up exactly in the retrograde table of its size: \
                 --max-plies, --prover, --tt-mb, --time-ms and --table are for 5x5 positions",
                n = pos.size()
            )));
        }
        return solve_small(&pos, threads, json, started);
    }
    let blanks = pos.size() as u32 * pos.size() as u32 - (pos.x() | pos.o()).count_ones();
    // A move fills at most one blank, so the full-board table is reachable within
    // `max_plies` only from 5x5 positions with at most that many blanks; farther positions
    // use the proving search alone. A valid table file is loaded; building one takes
    // seconds (more on a loaded machine), so a --time-ms below a minute only uses an
    // existing file.
    let needed = pos.size() == 5 && blanks <= max_plies && pos.outcome().is_none();
    if !needed && args.table.is_some() {
        return Err(CliError::input(if pos.outcome().is_some() {
            "--table is not used: the position is already over".to_string()
        } else {
            format!(
                "--table is not used: the full-board table is reachable only from positions \
                 with at most --max-plies ({max_plies}) blank squares, this one has {blanks}"
            )
        }));
    }
    let table = if needed {
        qx::table_cache::obtain(
            args.table.as_deref(),
            threads,
            time_ms.is_none_or(|t| t >= 60_000),
            &mut |line| eprintln!("{line}"),
        )
        .map_err(|e| match e {
            qx::table_cache::TableCacheError::Build(_) => CliError::failure(e.to_string()),
            _ => CliError::input(format!("--table {e}")),
        })?
    } else {
        None
    };
    let table_json = table.as_ref().map(|(_, src)| {
        serde_json::json!({
            "source": src.kind(),
            "file": src.path().map(|p| p.display().to_string()),
        })
    });
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
    let value = match proof.value {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
        Verdict::Draw => "draw",
        Verdict::Unproven => "unproven",
    };
    let best = proof.best_move.map(|m| m.to_string());
    if json {
        print_json(&serde_json::json!({
            "game": "quixo",
            "position": pos.to_string(),
            "value": value,
            "plies": proof.plies,
            "plies_exact": proof.plies_exact,
            "prover": if prover == super::solve_args::QuixoProver::Dfpn { "dfpn" } else { "id" },
            "move": best,
            "nodes": proof.nodes,
            "seconds": seconds,
            "stopped": proof.stopped,
            "max_plies": max_plies,
            "table": table_json,
            "game_over": pos.outcome().is_some(),
        }));
    } else {
        let who = pos.seat_name(pos.to_move());
        match proof.value {
            Verdict::Unproven if proof.stopped => say(format!(
                "unproven: the time limit ({} ms) stopped the search before a forced result \
                 within {max_plies} plies was found or ruled out",
                time_ms.unwrap_or(0)
            )),
            Verdict::Unproven => say(format!(
                "unproven: neither side can force a line within {max_plies} plies (searched in full)"
            )),
            Verdict::Draw => say(format!(
                "value      draw for {who} (neither side can force a line)"
            )),
            _ if proof.plies == Some(0) => {
                say(format!("value      {value} for {who}: the game is over"))
            }
            _ => {
                let n = proof.plies.unwrap_or(0);
                let plural = if n == 1 { "ply" } else { "plies" };
                let within = if proof.plies_exact { "in" } else { "within" };
                say(format!(
                    "value      {value} for {who} {within} {n} {plural} (the final move counted)"
                ));
                if !proof.plies_exact && proof.stopped {
                    say(format!(
                        "           (the time limit, {} ms, stopped the search before the exact \
                         distance was found: {n} is an upper bound)",
                        time_ms.unwrap_or(0)
                    ));
                }
            }
        }
        if let Some(b) = &best {
            say(format!("best move  {b}"));
        }
        say(format!("nodes      {}", proof.nodes));
        say(format!("time       {seconds:.3} s"));
    }
    Ok(if proof.value == Verdict::Unproven {
        ExitCode::from(super::output::EXIT_UNFINISHED)
    } else {
        ExitCode::SUCCESS
    })
}
