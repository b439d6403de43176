//! What the command line needs to know about each game, behind one trait, so `perft`,
//! `bestmove`, `play` and `tournament` are written once for every game.
//!
//! Adding a game: implement [`CliGame`] for its position type (next to the game's other
//! command-line specifics); its id and its line in `for_game!` are in the library
//! (`games/id.rs`).

use tessera::engine::Players;
use tessera::formats::position_source::LoadPosition;
pub use tessera::formats::position_source::Loaded;
use tessera::game::perft::Perft;
use tessera::present::Present;

use super::PositionArgs;
use super::output::CliError;

/// The command line's view of a game beyond how it is shown ([`Present`]), its engines
/// ([`Players::make_player`]), its perft ([`Perft`]) and where its positions come from
/// ([`LoadPosition`]): the position flags. Game logic (perft, the square symmetry of the
/// position text, `tessera::game::Game::SQUARE_SYMMETRY`) lives in the library.
pub trait CliGame: Present + Players + LoadPosition + Perft {
    /// The position the flags describe ([`LoadPosition::from_source`]); the start position
    /// (set up from `seed`) when none is given.
    ///
    /// # Errors
    /// An input error naming the flag and what is wrong with its value.
    fn load(args: &PositionArgs, seed: u64) -> Result<Loaded<Self>, CliError> {
        Self::from_source(&args.source(), seed).map_err(|e| CliError::input(e.to_string()))
    }
}
