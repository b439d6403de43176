//! What the command line needs to know about each game, behind one trait, so `perft`,
//! `bestmove`, `play` and `tournament` are written once for every game.
//!
//! Adding a game: implement [`CliGame`] for its position type (next to the game's other
//! command-line specifics); its id and its line in `for_game!` are in the library
//! (`games/id.rs`).

use tessera::engine::Players;
use tessera::present::Present;

use super::PositionArgs;
use super::output::CliError;

/// A position to work on, where it came from, and anything the game adds to the reports.
#[derive(Clone, Debug)]
pub struct Loaded<G> {
    /// The position.
    pub position: G,
    /// A line naming where the position came from (e.g. the FFO problem and its reference
    /// answer), shown after the position in text output.
    pub origin: Option<String>,
    /// Extra fields for JSON output (e.g. `{"ffo": {...}}`), an object or null.
    pub json: serde_json::Value,
}

impl<G> Loaded<G> {
    /// A position with nothing more to say about it.
    pub fn plain(position: G) -> Self {
        Self {
            position,
            origin: None,
            json: serde_json::Value::Null,
        }
    }
}

/// Lengths (plies) of the random openings in the bench, each drawn from seed 2026.
pub const OPENING_PLIES: &[u32] = &[0, 6, 10, 14, 18, 22, 26];

/// The command line's view of a game beyond how it is shown ([`Present`]) and its engines
/// ([`Players::make_player`]): where positions come from, perft, bench positions.
pub trait CliGame: Present + Players {
    /// Whether the rules are the same under the 8 rotations and reflections of a square
    /// board written row by row in the position text (Othello, Quixo): `openings` then
    /// keeps one of each set of symmetric positions.
    const SQUARE_SYMMETRY: bool = false;

    /// The position the flags describe; the start position (set up from `seed`, see
    /// [`Game::start_seeded`]) when none is given.
    ///
    /// # Errors
    /// An input error naming the flag and what is wrong with its value.
    fn load(args: &PositionArgs, seed: u64) -> Result<Loaded<Self>, CliError> {
        if args.ffo.is_some() {
            return Err(CliError::input(format!(
                "--ffo is the Othello endgame suite; {} positions come from --position or --moves",
                Self::ID
            )));
        }
        if args.ggf.is_some() {
            return Err(CliError::input(format!(
                "--ggf reads Othello game records; {} positions come from --position or --moves",
                Self::ID
            )));
        }
        if let Some(text) = &args.position {
            let position = text
                .parse::<Self>()
                .map_err(|e| CliError::input(format!("bad --position: {e}")))?;
            return Ok(Loaded::plain(position));
        }
        if let Some(text) = &args.moves {
            let (start, moves) = Self::parse_opening_moves(text, seed)
                .map_err(|e| CliError::input(format!("bad --moves: {e}")))?;
            let position = moves.iter().fold(start, |p, &m| p.play(m));
            return Ok(Loaded::plain(position));
        }
        Ok(Loaded::plain(Self::start_seeded(seed)))
    }

    /// Moves played from the start position set up from `seed` (`--moves`).
    ///
    /// # Errors
    /// A message naming the first bad move.
    fn parse_opening_moves(text: &str, seed: u64) -> Result<(Self, Vec<Self::Move>), String> {
        let start = Self::start_seeded(seed);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, token) in text.split_whitespace().enumerate() {
            let mv = pos
                .parse_move(token)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            pos = pos.play(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// The game's exact solver for `tournament --adjudicate exact=N`, if it has one.
    fn exact_solve() -> Option<tessera::tournament::adjudicate::ExactSolve<Self>> {
        None
    }

    /// Leaf count of the move tree `depth` plies deep (a game's fast perft, or the generic one).
    fn perft(&self, depth: u32) -> u64 {
        tessera::game::perft::perft(self, depth)
    }

    /// A note printed before the search (e.g. "solving exactly"), if any.
    fn search_note(
        &self,
        _engine: &tessera::engine::EngineSpec,
        _limits: &tessera::search::Limits,
    ) -> Option<String> {
        None
    }

    /// The positions of `tessera bench`, named: random openings of
    /// [`OPENING_PLIES`] plies from seed 2026 (lengths the
    /// game cannot reach are skipped).
    ///
    /// # Errors
    /// Never for a well-formed game (a failure to build an opening is reported).
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        let mut out = Vec::new();
        for &n in OPENING_PLIES {
            if let Ok(o) = tessera::tournament::openings::OpeningSource::RandomPlies(n)
                .opening::<Self>(0, 2026)
                && o.position.outcome().is_none()
            {
                out.push((format!("random-{n}-plies"), o.position));
            }
        }
        if out.is_empty() {
            return Err(CliError::failure(format!(
                "no bench positions for {}",
                Self::ID
            )));
        }
        Ok(out)
    }
}
