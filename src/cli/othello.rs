//! Othello specifics of the command line: loading a position from `--position`,
//! `--moves`, `--ggf` or `--ffo` (the FFO suite #40-#59 is built into the binary), and describing
//! results in Othello terms.

use tessera::engine::EngineSpec;
use tessera::game::shown;
use tessera::games::othello::ffo::{FfoProblem, ffo, ffo_suite};
use tessera::games::othello::{self as oth, Position};
use tessera::search::Limits;
use tessera::tournament::adjudicate::ExactSolve;

use super::games::{CliGame, Loaded};
use super::output::CliError;
use super::{Algo, PositionArgs};

/// The position the flags describe (`--position`, `--moves` as a transcript with implied
/// passes, `--ggf` (the end of a GGF game), or `--ffo`); the start position when none is given. JSON reports get an
/// `ffo` field (the problem's reference answer, or null).
///
/// # Errors
/// An input error naming the flag and what is wrong with its value.
pub fn load(args: &PositionArgs) -> Result<Loaded<Position>, CliError> {
    let with_ffo = |position, ffo: Option<FfoProblem>| Loaded {
        position,
        origin: ffo.as_ref().map(FfoProblem::describe),
        json: serde_json::json!({ "ffo": ffo.as_ref().map(FfoProblem::json) }),
    };
    if let Some(text) = &args.position {
        let position = text
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("bad --position: {e}")))?;
        return Ok(with_ffo(position, None));
    }
    if let Some(moves) = &args.moves {
        let position = Position::from_transcript(moves)
            .map_err(|e| CliError::input(format!("bad --moves '{}': {e}", shown(moves))))?;
        return Ok(with_ffo(position, None));
    }
    if let Some(spec) = &args.ggf {
        let game = tessera::formats::ggf::load(spec)
            .map_err(|e| CliError::input(format!("bad --ggf: {e}")))?;
        let mut loaded = with_ffo(game.final_position(), None);
        loaded.origin = Some(format!(
            "GGF game{}: {} moves",
            match (game.property("PB"), game.property("PW")) {
                (Some(b), Some(w)) => format!(" {b} (Black) vs {w} (White)"),
                _ => String::new(),
            },
            game.moves.len()
        ));
        return Ok(loaded);
    }
    if let Some(id) = args.ffo {
        let problem = ffo(id).map_err(CliError::input)?;
        return Ok(with_ffo(problem.position, Some(problem)));
    }
    Ok(with_ffo(Position::start(), None))
}

impl CliGame for Position {
    const SQUARE_SYMMETRY: bool = true;

    fn load(args: &PositionArgs, _seed: u64) -> Result<Loaded<Self>, CliError> {
        load(args)
    }

    fn perft(&self, depth: u32) -> u64 {
        oth::perft::perft(self, depth)
    }

    fn search_note(&self, engine: &EngineSpec, limits: &Limits) -> Option<String> {
        if let Some(book) = engine.book_source()
            && super::book_arg::book_arg(Some(book))
                .ok()
                .flatten()
                .is_some_and(|b| b.contains(self))
        {
            return Some(
                "info the position is in the opening book: its best move is played (--book none to search)"
                    .to_string(),
            );
        }
        let exact = engine
            .exact_empties
            .map_or(oth::DEFAULT_EXACT_EMPTIES, |e| e.max_empties());
        let exact_applies = engine.algo == Algo::Alphabeta
            && self.empties() <= exact
            && (engine.level.is_some() || limits.depth.is_none_or(|d| d >= self.empties()));
        exact_applies.then(|| {
            format!(
                "info {} empties <= --exact-empties {exact}: solving exactly",
                self.empties()
            )
        })
    }

    /// The random openings and the FFO suite #40-#59.
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        let mut out = Vec::new();
        for &n in super::games::OPENING_PLIES {
            let o = tessera::tournament::openings::OpeningSource::RandomPlies(n)
                .opening::<Self>(0, 2026)
                .map_err(CliError::failure)?;
            out.push((format!("random-{n}-plies"), o.position));
        }
        for p in ffo_suite() {
            out.push((format!("ffo-{}", p.id), p.position));
        }
        Ok(out)
    }

    /// At N empties or fewer (N <= 30), the endgame solver's exact result.
    fn exact_solve() -> Option<ExactSolve<Self>> {
        tessera::tournament::adjudicate::exact_solver::<Self>()
    }
}
