//! Othello specifics of the command line: loading a position from `--position`,
//! `--moves`, `--ggf` or `--ffo` (the FFO suite #40-#59 is built into the binary), and describing
//! results in Othello terms.

use tessera::game::{Game, shown};
use tessera::games::othello::{self as oth, Position};
use tessera::search::Limits;
use tessera::tournament::adjudicate::{EXACT_NODE_BUDGET, ExactAttempt, ExactSolve};

use super::games::{CliGame, Loaded};
use super::output::CliError;
use super::{Algo, EngineArgs, PositionArgs};

/// The FFO endgame suite #40-#59, embedded so `--ffo` works from any directory.
const FFO_SUITE: &str = include_str!("../../tests/data/othello/ffo-40-59.txt");

/// One problem of the FFO suite with its reference answer.
#[derive(Clone, Debug)]
pub struct FfoProblem {
    /// Problem number.
    pub id: u32,
    /// The position.
    pub position: Position,
    /// Exact disc difference for the side to move.
    pub score: i32,
    /// Every best move.
    pub best_moves: Vec<String>,
}

impl FfoProblem {
    /// The reference answer as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "score": self.score,
            "best_moves": self.best_moves,
        })
    }

    /// The reference answer for humans: `FFO #40 (reference: +38, best a2)`.
    pub fn describe(&self) -> String {
        format!(
            "FFO #{} (reference: {:+} discs, best {})",
            self.id,
            self.score,
            self.best_moves.join(" or ")
        )
    }
}

/// Parses one data line of the suite (`id board side score best_moves empties`).
fn parse_ffo_line(line: &str) -> Option<FfoProblem> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 5 {
        return None;
    }
    Some(FfoProblem {
        id: f[0].parse().ok()?,
        position: format!("{} {}", f[1], f[2]).parse().ok()?,
        score: f[3].parse().ok()?,
        best_moves: f[4].split(',').map(str::to_string).collect(),
    })
}

/// Every problem of the embedded suite.
pub fn ffo_suite() -> Vec<FfoProblem> {
    FFO_SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(parse_ffo_line)
        .collect()
}

/// FFO problem `id`.
///
/// # Errors
/// An input error naming the id and the range available.
pub fn ffo(id: u32) -> Result<FfoProblem, CliError> {
    let suite = ffo_suite();
    let range = match (suite.first(), suite.last()) {
        (Some(a), Some(b)) => format!("{}..{}", a.id, b.id),
        _ => "none".to_string(),
    };
    suite.into_iter().find(|p| p.id == id).ok_or_else(|| {
        CliError::input(format!(
            "unknown FFO position {id} for --ffo (the built-in suite has {range})"
        ))
    })
}

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
        let problem = ffo(id)?;
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

    fn search_note(&self, engine: &EngineArgs, limits: &Limits) -> Option<String> {
        if engine.book.as_deref() != Some("none")
            && super::book_arg::book_arg(engine.book.as_deref())
                .ok()
                .flatten()
                .is_some_and(|b| b.contains(self))
        {
            return Some(
                "info the position is in the opening book: its best move is played (--book none to search)"
                    .to_string(),
            );
        }
        let exact_applies = engine.algo() == Algo::Alphabeta
            && self.empties() <= engine.exact_empties()
            && (engine.level.is_some() || limits.depth.is_none_or(|d| d >= self.empties()));
        exact_applies.then(|| {
            format!(
                "info {} empties <= --exact-empties {}: solving exactly",
                self.empties(),
                engine.exact_empties()
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
        Some(ExactSolve {
            max: 30,
            unit: "empty squares",
            solve: solve_for_adjudication,
        })
    }
}

/// `--adjudicate exact=N`: the final scores with best play once `pos` has at most
/// `max_empties` empty squares, solved within [`EXACT_NODE_BUDGET`] nodes (else the game
/// is played out): the solver's disc difference `d` for the side to move gives it
/// `(64 + d) / 2` discs (empties to the winner; a draw is written 32-32).
fn solve_for_adjudication(pos: &Position, max_empties: u32) -> ExactAttempt {
    if pos.empties() > max_empties || pos.outcome().is_some() {
        return ExactAttempt::NotYet;
    }
    let tt = tessera::search::TranspositionTable::new(16);
    let limits = Limits {
        nodes: Some(EXACT_NODE_BUDGET),
        ..Limits::default()
    };
    let Some(d) = oth::endgame::Solver::new(&tt, &limits).solve(pos).score else {
        return ExactAttempt::GiveUp;
    };
    let mover = (64 + d) / 2;
    let mut scores = vec![64 - mover; 2];
    scores[pos.to_move().index()] = mover;
    ExactAttempt::Solved(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_suite_is_complete() {
        let suite = ffo_suite();
        assert_eq!(suite.len(), 20);
        assert_eq!(suite[0].id, 40);
        assert_eq!(suite[19].id, 59);
        let p40 = ffo(40).unwrap();
        assert_eq!(p40.score, 38);
        assert_eq!(p40.best_moves, ["a2"]);
        assert_eq!(p40.position.empties(), 20);
        assert!(ffo(60).is_err());
    }
}
