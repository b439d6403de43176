//! The game abstraction every tessera game implements and the search layer consumes.
//!
//! It serves two-, three- and four-seat games without change: the position says whose turn
//! it is (search never assumes rotation), passes and setup placements are ordinary moves,
//! and a finished game reports a score per seat ([`Outcome`]). Two-sided searches
//! (negamax) group seats into two teams through [`Game::team`].
//!
//! # Example
//!
//! Moves, positions and perft through the trait, for any game (here Othello):
//!
//! ```
//! use tessera::game::{Game, perft::perft};
//! use tessera::games::othello::Position;
//!
//! let start = Position::start();
//! let mut moves = <Position as Game>::Moves::default();
//! start.generate_moves(&mut moves);
//! assert_eq!(moves.len(), 4);
//! let after = start.play(start.parse_move("f5").map_err(|e| e.to_string())?);
//! assert_eq!(after.to_string(), "---------------------------OX------XXX-------------------------- O");
//! assert_eq!(perft(&start, 4), 244); // leaves at depth 4 (tests/data/othello/perft.txt)
//! # Ok::<(), String>(())
//! ```

mod error;
mod movelist;
mod outcome;
mod seat;

pub mod files;
pub mod params;
pub mod perft;
pub mod pinned;

pub use error::{MoveError, PositionError};
pub use movelist::MoveList;
pub use outcome::Outcome;
pub use params::Param;
pub use seat::{BySeat, MAX_SEATS, Seat};

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// User text as quoted in error messages: at most 32 characters (then how many more were
/// left out: ` [+N more characters]`, not `...`, which reads as empty cells in a Quixo or
/// Talat position), with control characters escaped, so a megabyte of junk or terminal
/// escape codes are not echoed.
#[must_use]
pub fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(32).flat_map(char::escape_debug).collect();
    let more = text.chars().skip(32).count();
    if more > 0 {
        let plural = if more == 1 { "" } else { "s" };
        out.push_str(&format!(" [+{more} more character{plural}]"));
    }
    out
}

/// A compact code for a move, stored in the transposition table and indexing history
/// tables: `from_code(m.code()) == m` for every move `m`, and codes are `< Game::MOVE_CODES`.
pub trait MoveCode: Copy {
    /// The move's code.
    fn code(self) -> u16;
    /// The move with this code (codes come only from [`MoveCode::code`]).
    fn from_code(code: u16) -> Self;
}

/// A game position with its rules.
///
/// Positions are small `Copy`-able values and moves are applied by copy-make
/// ([`Game::play`]), which makes "unmake" free and the search trivially parallel.
/// `Display`/`FromStr` give the game's one-line position text and round-trip.
pub trait Game:
    Clone + Send + Sync + Debug + Display + FromStr<Err = PositionError> + 'static
{
    /// A move: a small `Copy` value whose `Display` is the game's move notation.
    type Move: Copy + Default + Eq + Hash + Debug + Display + MoveCode + Send + Sync + 'static;

    /// Fixed-capacity list the moves are generated into (no heap allocation).
    type Moves: Default + std::ops::DerefMut<Target = [Self::Move]>;

    /// The game id used on the command line and in records (`"othello"`).
    const ID: &'static str;

    /// Upper bound (exclusive) of [`MoveCode::code`] over all moves.
    const MOVE_CODES: usize;

    /// Whether the search scores a position that repeats one earlier on its own search
    /// path (same key, so the same seat to move) as a draw, 0. Off by default (Othello
    /// cannot repeat); Quixo turns it on, since its moves may cycle forever.
    const REPETITION_DRAWS: bool = false;

    /// The ply cap of tournaments, self-play and the page when nothing else is said: a game
    /// this long is adjudicated a draw (Quixo's moves may cycle forever: 200).
    const DEFAULT_MAX_PLIES: u64 = 1000;

    /// Whether the rules are the same under the 8 rotations and reflections of a square
    /// board written row by row in the position text (Othello, Quixo): an openings suite
    /// then keeps one of each set of symmetric positions.
    const SQUARE_SYMMETRY: bool = false;

    /// The game's standard start position (for games with random setups, the setup is an
    /// ordinary move sequence or an option of the game id, never hidden state).
    fn start() -> Self;

    /// The start position of a game set up from `seed`: games with a random setup
    /// (talat-2p's Djinn) draw it from the seed; the default is [`Game::start`]. Tournaments
    /// call it with a seed derived from their master seed and the round.
    #[must_use]
    fn start_seeded(seed: u64) -> Self {
        let _ = seed;
        Self::start()
    }

    /// Whether [`Game::start_seeded`] depends on its seed (talat-2p's random Djinn): a
    /// `--seed` then also sets up the start position, and games from the start differ.
    const SEEDED_SETUP: bool = false;

    /// Parses an opening line: a position in this game's one-line form (returned with no
    /// moves), or a sequence of moves played from [`Game::start`] (returned as the start and
    /// the moves, so engines that need the history, like external programs, get it).
    /// Moves are whitespace-separated by default; games with a compact transcript form
    /// accept it too.
    ///
    /// # Errors
    /// A one-line message naming the bad position text or the first bad move.
    fn parse_opening(text: &str) -> Result<(Self, Vec<Self::Move>), String> {
        let text = text.trim();
        if let Ok(p) = text.parse::<Self>() {
            return Ok((p, Vec::new()));
        }
        let start = Self::start();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, token) in text.split_whitespace().enumerate() {
            let mv = pos
                .parse_move(token)
                .map_err(|e| format!("opening move {}: {e}", i + 1))?;
            pos = pos.play(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// Number of seats at the table.
    fn seats(&self) -> usize;

    /// The seat to move.
    fn to_move(&self) -> Seat;

    /// The team a seat plays for; two-sided (negamax) search needs exactly two teams,
    /// 0 and 1. Default: each seat is its own team.
    fn team(&self, seat: Seat) -> u8 {
        seat.0
    }

    /// Writes every legal move into `moves` (cleared first). A position where the seat to
    /// move must pass yields exactly one pass move; a finished game yields none.
    fn generate_moves(&self, moves: &mut Self::Moves);

    /// The position after `mv`, which must be legal here (see [`Game::parse_move`] for
    /// checked input).
    #[must_use]
    fn play(&self, mv: Self::Move) -> Self;

    /// `Some` when the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// 64-bit Zobrist key, kept incrementally, including the seat to move.
    fn key(&self) -> u64;

    /// Parses a move in this game's notation and checks that it is legal here.
    ///
    /// # Errors
    /// [`MoveError`] naming the text and whether it is malformed or illegal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The same position with `seat` to move, as if the seats in between had passed
    /// (everything else unchanged; [`Game::key`] updated to the new seat to move).
    ///
    /// Only best-reply search (BRS, Schadd & Winands 2011; [`crate::search::brs()`]) calls it:
    /// its merged opponent layer lets any opponent reply, also one whose turn it is not.
    /// A game opts in to BRS by returning `Some` for every seat of every unfinished
    /// position; `None` (the default) means "not supported", and BRS reports so instead of
    /// searching. Called on unfinished positions only.
    fn with_turn(&self, seat: Seat) -> Option<Self> {
        let _ = seat;
        None
    }

    /// Plays uniformly random legal moves from here until the game ends or `max_plies`
    /// moves were played (MCTS playouts): the outcome, or `None` at the cap. `below(n)`
    /// returns a uniform random integer in `0..n` (`n >= 2`).
    ///
    /// The default generates every move list and draws an index (none for a single
    /// move); a game overrides it with a cheaper sampler that is still exactly uniform
    /// over the legal moves (Quixo: rejection sampling over its push table).
    fn random_playout<R: FnMut(u32) -> u32>(
        &self,
        below: &mut R,
        max_plies: usize,
    ) -> Option<Outcome> {
        random_playout_by_lists(self.clone(), below, max_plies)
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Self::Moves::default();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }
}

/// The legal moves of `pos`, in generation order (none when the game is over), as a `Vec`:
/// for front ends, not for search (which keeps its move lists on the stack).
pub fn legal_moves<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

/// [`Game::random_playout`] by generating every move list (the default method, callable
/// by games that override it for some variants only).
pub fn random_playout_by_lists<G: Game, R: FnMut(u32) -> u32>(
    mut pos: G,
    below: &mut R,
    max_plies: usize,
) -> Option<Outcome> {
    let mut moves = G::Moves::default();
    for _ in 0..max_plies {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return pos.outcome();
        }
        let i = if moves.len() == 1 {
            0
        } else {
            below(moves.len() as u32) as usize
        };
        pos = pos.play(moves[i.min(moves.len() - 1)]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn shown_counts_what_it_leaves_out_and_escapes_controls() {
        let pos = "XXXXX/OOOOO/XXXXX/OOOOO/XXXX. O extra words";
        assert_eq!(
            shown(pos),
            "XXXXX/OOOOO/XXXXX/OOOOO/XXXX. O  [+11 more characters]"
        );
        assert_eq!(
            shown(&"a".repeat(33)),
            format!("{} [+1 more character]", "a".repeat(32))
        );
        assert_eq!(shown("a\u{1b}[2J"), "a\\u{1b}[2J");
        assert_eq!(shown("short"), "short");
    }
}
