//! [`GameId`]: the games tessera knows, by the ids the command line, engine presets, records
//! and the Python package use, and [`for_game!`](crate::for_game), the one place that maps an
//! id to its position type.

use std::fmt;
use std::str::FromStr;

/// A game tessera plays, named by its id (`othello`, `quixo`, `quixo-4p`, `talat`,
/// `talat-2p`): the same string as the position type's [`Game::ID`](crate::game::Game::ID).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Othello (Reversi), 8x8.
    Othello,
    /// Quixo, two players (X, O) on 5x5 (positions may also be 3x3 or 4x4).
    Quixo,
    /// Quixo, four players in two teams (A1, B1, A2, B2).
    Quixo4p,
    /// Talat, three players (White, Grey, Black) on three 5x5 boards.
    Talat,
    /// Talat for two players (White, Grey) with the neutral Djinn.
    Talat2p,
}

impl GameId {
    /// Every game, in the order the command line lists them.
    pub const ALL: [GameId; 5] = [
        GameId::Othello,
        GameId::Quixo,
        GameId::Quixo4p,
        GameId::Talat,
        GameId::Talat2p,
    ];

    /// The id as written (`quixo-4p`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Othello => "othello",
            GameId::Quixo => "quixo",
            GameId::Quixo4p => "quixo-4p",
            GameId::Talat => "talat",
            GameId::Talat2p => "talat-2p",
        }
    }

    /// What the game is, in a few words without a final period (the command line's help for
    /// the id).
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            GameId::Othello => "Othello (Reversi), 8x8",
            GameId::Quixo => "Quixo, two players (X, O) on 5x5 (positions may also be 3x3 or 4x4)",
            GameId::Quixo4p => "Quixo, four players in two teams (A1, B1, A2, B2)",
            GameId::Talat => "Talat, three players (White, Grey, Black) on three 5x5 boards",
            GameId::Talat2p => "Talat for two players (White, Grey) with the neutral Djinn",
        }
    }

    /// Number of seats (players) of the game.
    #[must_use]
    pub const fn seats(self) -> usize {
        match self {
            GameId::Othello | GameId::Quixo | GameId::Talat2p => 2,
            GameId::Talat => 3,
            GameId::Quixo4p => 4,
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game id that names no game; its `Display` is the one-line message, listing the ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
        write!(f, "unknown game '{}' (games: {})", self.0, ids.join(", "))
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameId {
    type Err = UnknownGame;

    /// The game of an id, exactly as written (`othello`, `quixo-4p`, ...).
    fn from_str(text: &str) -> Result<Self, UnknownGame> {
        GameId::ALL
            .into_iter()
            .find(|g| g.name() == text)
            .ok_or_else(|| UnknownGame(text.to_string()))
    }
}

/// Runs `$f::<G>($args...)` where `G` is the position type of the [`GameId`] `$id`: the one
/// place that lists every game's type, so code generic over [`Game`](crate::game::Game) runs
/// for a game chosen at run time.
///
/// ```
/// use tessera::game::Game;
/// use tessera::games::GameId;
///
/// fn start_moves<G: Game>() -> usize {
///     let mut moves = G::Moves::default();
///     G::start().generate_moves(&mut moves);
///     moves.len()
/// }
/// assert_eq!(tessera::for_game!(GameId::Othello, start_moves()), 4);
/// assert_eq!(tessera::for_game!("quixo".parse::<GameId>()?, start_moves()), 44);
/// # Ok::<(), tessera::games::UnknownGame>(())
/// ```
#[macro_export]
macro_rules! for_game {
    ($id:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $id {
            $crate::games::GameId::Othello => $f::<$crate::games::othello::Position>($($arg),*),
            $crate::games::GameId::Quixo => $f::<$crate::games::quixo::Quixo>($($arg),*),
            $crate::games::GameId::Quixo4p => $f::<$crate::games::quixo::Quixo4p>($($arg),*),
            $crate::games::GameId::Talat => $f::<$crate::games::talat::Talat>($($arg),*),
            $crate::games::GameId::Talat2p => $f::<$crate::games::talat::Talat2p>($($arg),*),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn id_of<G: Game>() -> &'static str {
        G::ID
    }

    #[test]
    fn ids_round_trip_and_match_the_position_types() {
        for g in GameId::ALL {
            assert_eq!(g.name().parse::<GameId>(), Ok(g));
            assert_eq!(crate::for_game!(g, id_of()), g.name());
            assert_eq!(g.to_string(), g.name());
        }
        let err = "chess".parse::<GameId>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown game 'chess' (games: othello, quixo, quixo-4p, talat, talat-2p)"
        );
        assert!("Othello".parse::<GameId>().is_err());
    }

    fn seats_of<G: Game>() -> usize {
        G::start_seeded(0).seats()
    }

    #[test]
    fn seat_counts_match_the_rules() {
        for g in GameId::ALL {
            assert_eq!(crate::for_game!(g, seats_of()), g.seats(), "{g}");
        }
    }
}
