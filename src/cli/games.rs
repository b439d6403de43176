//! What the command line needs to know about each game, behind one trait, so `perft`,
//! `bestmove`, `play` and `tournament` are written once for every game.
//!
//! Adding a game: implement [`CliGame`] for its position type (next to the game's other
//! command-line specifics); its id and its line in `for_game!` are in the library
//! (`games/id.rs`).

use tessera::engine::Players;
use tessera::formats::position_source::LoadPosition;
pub use tessera::formats::position_source::Loaded;
use tessera::present::Present;

use super::PositionArgs;
use super::output::CliError;

/// The command line's view of a game beyond how it is shown ([`Present`]), its engines
/// ([`Players::make_player`]) and where its positions come from ([`LoadPosition`]):
/// the positions flags, perft, the symmetry of the position text.
pub trait CliGame: Present + Players + LoadPosition {
    /// Whether the rules are the same under the 8 rotations and reflections of a square
    /// board written row by row in the position text (Othello, Quixo): `openings` then
    /// keeps one of each set of symmetric positions.
    const SQUARE_SYMMETRY: bool = false;

    /// The position the flags describe ([`LoadPosition::from_source`]); the start position
    /// (set up from `seed`) when none is given.
    ///
    /// # Errors
    /// An input error naming the flag and what is wrong with its value.
    fn load(args: &PositionArgs, seed: u64) -> Result<Loaded<Self>, CliError> {
        Self::from_source(&args.source(), seed).map_err(|e| CliError::input(e.to_string()))
    }

    /// Leaf count of the move tree `depth` plies deep (a game's fast perft, or the generic one).
    fn perft(&self, depth: u32) -> u64 {
        tessera::game::perft::perft(self, depth)
    }
}
