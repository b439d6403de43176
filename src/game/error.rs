//! The errors of reading moves and positions: [`MoveError`] and [`PositionError`], one
//! variant per kind of failure so a caller can tell a typo from a move the rules forbid.
//!
//! Each game words its own messages (its notation, its rules), so a variant carries the
//! one-line message the game wrote beside the data a caller may want (the offending text,
//! the ply, the action); `Display` prints that line unchanged, as the command line shows it.

use std::fmt::{self, Display};

/// Why a move's text or action could not be played.
///
/// ```
/// use tessera::game::{Game, MoveError};
/// use tessera::games::othello::Position;
///
/// let start = Position::start();
/// let e = start.parse_move("a1").unwrap_err();
/// assert!(matches!(e, MoveError::Illegal { .. }));
/// assert_eq!(e.to_string(), "illegal move 'a1': a1 flips no disc");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// Text that is no move of this game in any position: a typo, another notation, a
    /// suffix the variant does not have. Example: `'z9' is not an Othello move (expected a
    /// square a1..h8 or 'pass')`.
    Malformed {
        /// The text as given.
        text: String,
        /// The one-line message.
        message: String,
    },
    /// A well-formed move the rules forbid in this position. Example: `illegal move 'a1':
    /// a1 flips no disc`.
    Illegal {
        /// The text as given (for a transcript, the move's token).
        text: String,
        /// The one-line message, with the rule's reason.
        message: String,
    },
    /// A move given after the game ended. Example: `illegal move 'pass': the game is over`.
    GameOver {
        /// The text as given (for an action, its number).
        text: String,
        /// The one-line message.
        message: String,
    },
    /// An action number (the learning environment's move index) outside the action space
    /// or naming an illegal move. Example: `action 70 is outside the action space of
    /// othello (0..65)`.
    Action {
        /// The action as given.
        action: i64,
        /// The one-line message.
        message: String,
    },
    /// A move of a transcript failed; `Display` prefixes `ply N: `. Example: `ply 3: f5 is
    /// illegal for Black in position ...`.
    AtPly {
        /// The ply of the failed move, counted from 1.
        ply: usize,
        /// What failed there.
        source: Box<MoveError>,
    },
    /// One game of a batch of games failed; `Display` prefixes `game N: `. Example: `game 2:
    /// action 70 is outside the action space of othello (0..65)`.
    InGame {
        /// The game's index in the batch, from 0.
        game: usize,
        /// What failed there.
        source: Box<MoveError>,
    },
}

impl MoveError {
    /// A [`MoveError::Malformed`] for `text`, worded `message`.
    #[must_use]
    pub fn malformed(text: &str, message: impl Into<String>) -> Self {
        Self::Malformed {
            text: text.to_string(),
            message: message.into(),
        }
    }

    /// A [`MoveError::Illegal`] for `text`, worded `message`.
    #[must_use]
    pub fn illegal(text: &str, message: impl Into<String>) -> Self {
        Self::Illegal {
            text: text.to_string(),
            message: message.into(),
        }
    }

    /// The failure itself, under any [`MoveError::AtPly`] / [`MoveError::InGame`] context,
    /// for matching on its kind.
    #[must_use]
    pub fn root(&self) -> &MoveError {
        match self {
            Self::AtPly { source, .. } | Self::InGame { source, .. } => source.root(),
            other => other,
        }
    }
}

impl Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed { message, .. }
            | Self::Illegal { message, .. }
            | Self::GameOver { message, .. }
            | Self::Action { message, .. } => f.write_str(message),
            Self::AtPly { ply, source } => write!(f, "ply {ply}: {source}"),
            Self::InGame { game, source } => write!(f, "game {game}: {source}"),
        }
    }
}

impl std::error::Error for MoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::AtPly { source, .. } | Self::InGame { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl From<MoveError> for String {
    fn from(e: MoveError) -> String {
        e.to_string()
    }
}

/// Why a position's text (or the parts given to build one) is no position of the game.
/// Each variant holds the one-line message.
///
/// ```
/// use tessera::game::PositionError;
/// use tessera::games::othello::Position;
///
/// let e = "X".parse::<Position>().unwrap_err();
/// assert!(matches!(e, PositionError::Shape(_)));
/// assert_eq!(
///     e.to_string(),
///     "position board has 1 characters, expected 64 (X/* Black, O White, -/. empty)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// No text at all. Example: `empty position: expected 64 board characters and a side
    /// to move`.
    Empty(String),
    /// The text has the wrong layout: a board of the wrong length or size, a row with too
    /// many or too few cells, a field missing or out of order, text after the end. Example:
    /// `position board has 63 characters, expected 64 (X/* Black, O White, -/. empty)`.
    Shape(String),
    /// A cell or piece that is no piece of the game. Example: `bad character 'Z' at square
    /// a1 of the position (X/* Black, O White, -/. empty)`.
    BadToken(String),
    /// The side (seat) to move is missing or is no seat of the game. Example: `bad side to
    /// move 'Y' (expected X or O)`.
    SideToMove(String),
    /// The text is another game's position. Example: `position text starts with 'talat-2p',
    /// expected the game id 'talat'`.
    WrongGame(String),
    /// A well-formed position the game cannot reach: overlapping pieces, too many of a
    /// piece, a count or a field that disagrees with the board. Example: `Black and White
    /// discs overlap on 0x0000000000000001`.
    Impossible(String),
}

impl PositionError {
    /// The one-line message (as `Display`).
    #[must_use]
    pub fn message(&self) -> &str {
        match self {
            Self::Empty(m)
            | Self::Shape(m)
            | Self::BadToken(m)
            | Self::SideToMove(m)
            | Self::WrongGame(m)
            | Self::Impossible(m) => m,
        }
    }

    /// The same kind of error with its message rewritten by `f` (a caller adding context,
    /// such as the position text the error is about).
    #[must_use]
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> Self {
        match self {
            Self::Empty(m) => Self::Empty(f(m)),
            Self::Shape(m) => Self::Shape(f(m)),
            Self::BadToken(m) => Self::BadToken(f(m)),
            Self::SideToMove(m) => Self::SideToMove(f(m)),
            Self::WrongGame(m) => Self::WrongGame(f(m)),
            Self::Impossible(m) => Self::Impossible(f(m)),
        }
    }
}

impl Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for PositionError {}

impl From<PositionError> for String {
    fn from(e: PositionError) -> String {
        e.to_string()
    }
}
