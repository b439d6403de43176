//! Where a position to work on comes from ([`PositionSource`]: the position's text, moves
//! from the start, an FFO problem number, the end of a GGF game) and the position it
//! describes for a game ([`LoadPosition::from_source`]), with a line naming its origin and the
//! fields it adds to JSON reports.

use crate::game::{Game, shown};
use crate::games::othello::ffo::{FfoProblem, ffo};
use crate::games::othello::{self as oth};
use crate::games::{quixo, talat};

/// At most one of these is set (none: the start position). Each is the text of the flag
/// of the same name (`--position`, `--moves`, `--ffo`, `--ggf`).
#[derive(Clone, Debug, Default)]
pub struct PositionSource {
    /// The position in the game's one-line form.
    pub position: Option<String>,
    /// Moves played from the start (Othello: `f5d6c3`, passes implied; other games
    /// space-separated).
    pub moves: Option<String>,
    /// A problem number of the FFO endgame suite built in (Othello, 40..59).
    pub ffo: Option<u32>,
    /// A GGF game file, `FILE` or `FILE:N` (Othello: the position at the game's end).
    pub ggf: Option<String>,
}

/// Why a source gives no position; `Display` gives the one-line message, naming the flag.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// A position text the game refuses (`bad --position: ...`).
    Position(String),
    /// A move that is not legal or not a move (`bad --moves ...: ...`).
    Moves(String),
    /// An FFO problem number outside the suite.
    Ffo(String),
    /// A GGF file that cannot be read or has no such game (`bad --ggf: ...`).
    Ggf(String),
    /// A source the game does not have (`--ffo` and `--ggf` are Othello's).
    NotForGame(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Position(m)
            | Self::Moves(m)
            | Self::Ffo(m)
            | Self::Ggf(m)
            | Self::NotForGame(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LoadError {}

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

/// A game whose positions can come from a [`PositionSource`].
pub trait LoadPosition: Game {
    /// The position `src` describes; the start position (set up from `seed`, see
    /// [`Game::start_seeded`]) when it gives none. The default takes `position` and
    /// `moves` (space-separated) and refuses the Othello-only sources.
    ///
    /// # Errors
    /// A [`LoadError`] naming the source and what is wrong with it.
    fn from_source(src: &PositionSource, seed: u64) -> Result<Loaded<Self>, LoadError> {
        if src.ffo.is_some() {
            return Err(LoadError::NotForGame(format!(
                "--ffo is the Othello endgame suite; {} positions come from --position or --moves",
                Self::ID
            )));
        }
        if src.ggf.is_some() {
            return Err(LoadError::NotForGame(format!(
                "--ggf reads Othello game records; {} positions come from --position or --moves",
                Self::ID
            )));
        }
        if let Some(text) = &src.position {
            let position = text
                .parse::<Self>()
                .map_err(|e| LoadError::Position(format!("bad --position: {e}")))?;
            return Ok(Loaded::plain(position));
        }
        if let Some(text) = &src.moves {
            let mut pos = Self::start_seeded(seed);
            for (i, token) in text.split_whitespace().enumerate() {
                let mv = pos
                    .parse_move(token)
                    .map_err(|e| LoadError::Moves(format!("bad --moves: move {}: {e}", i + 1)))?;
                pos = pos.play(mv);
            }
            return Ok(Loaded::plain(pos));
        }
        Ok(Loaded::plain(Self::start_seeded(seed)))
    }
}

impl<const FOUR: bool> LoadPosition for quixo::Position<FOUR> {}
impl LoadPosition for talat::Talat {}
impl LoadPosition for talat::Talat2p {}

impl LoadPosition for oth::Position {
    /// `position`, `moves` as a transcript with implied passes, `ggf` (the end of a GGF
    /// game) or `ffo`; the start position when none is given. JSON reports get an `ffo`
    /// field (the problem's reference answer, or null).
    fn from_source(src: &PositionSource, _seed: u64) -> Result<Loaded<Self>, LoadError> {
        let with_ffo = |position, ffo: Option<FfoProblem>| Loaded {
            position,
            origin: ffo.as_ref().map(FfoProblem::describe),
            json: serde_json::json!({ "ffo": ffo.as_ref().map(FfoProblem::json) }),
        };
        if let Some(text) = &src.position {
            let position = text
                .parse::<Self>()
                .map_err(|e| LoadError::Position(format!("bad --position: {e}")))?;
            return Ok(with_ffo(position, None));
        }
        if let Some(moves) = &src.moves {
            let position = Self::from_transcript(moves)
                .map_err(|e| LoadError::Moves(format!("bad --moves '{}': {e}", shown(moves))))?;
            return Ok(with_ffo(position, None));
        }
        if let Some(spec) = &src.ggf {
            let game =
                super::ggf::load(spec).map_err(|e| LoadError::Ggf(format!("bad --ggf: {e}")))?;
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
        if let Some(id) = src.ffo {
            let problem = ffo(id).map_err(LoadError::Ffo)?;
            return Ok(with_ffo(problem.position, Some(problem)));
        }
        Ok(with_ffo(Self::start(), None))
    }
}
