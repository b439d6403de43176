//! The registry of players by game: every game id's [`Players::make_player`] builds any
//! engine an [`EngineSpec`] names for that game (the spec's `game` must be the id). The
//! command line, tournaments, self-play and tuning reach players only through it.
//!
//! | game id    | type                          | built by                       |
//! |------------|-------------------------------|--------------------------------|
//! | `othello`  | [`othello::Position`]         | [`super::othello::make_player`], its `book` by [`super::book::with_spec_book`] |
//! | `quixo`    | [`quixo::Quixo`]              | [`super::quixo::make_player`], its `tables` by [`super::quixo_tables::with_spec_tables`] |
//! | `quixo-4p` | [`quixo::Quixo4p`]            | [`super::quixo::make_player`]   |
//! | `talat`    | [`talat::Talat`]              | [`super::talat::make_player`]   |
//! | `talat-2p` | [`talat::Talat2p`]            | [`super::talat::make_player_2p`] |
//!
//! A new game adds its `engine/<game>.rs` and one `impl Players` here.

use super::{Algorithm, EngineSpec, Player};
use crate::game::Game;
use crate::games::{othello, quixo, talat};

/// A game whose players the engine layer knows how to put together.
pub trait Players: Game + Sized {
    /// The built-in search algorithms this game's engines have, the default first.
    const ALGORITHMS: &'static [Algorithm] = &[Algorithm::Alphabeta, Algorithm::Mcts];

    /// The player `spec` describes, for this game.
    ///
    /// # Errors
    /// A spec for another game, an algorithm the game does not support, an unreadable
    /// weights file, or an external program that cannot start.
    fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Self>>, String>;
}

impl Players for othello::Position {
    fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Self>>, String> {
        super::book::with_spec_book(spec, super::othello::make_player(spec)?)
    }
}

impl<const FOUR: bool> Players for quixo::Position<FOUR> {
    fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Self>>, String> {
        super::quixo_tables::with_spec_tables::<FOUR>(
            spec,
            super::quixo::make_player::<FOUR>(spec)?,
        )
    }
}

impl Players for talat::Talat {
    /// BRS+ first: it led both equal-time tournaments against paranoid, BRS, max-n and
    /// MCTS (docs/measurements.md).
    const ALGORITHMS: &'static [Algorithm] = &[
        Algorithm::BrsPlus,
        Algorithm::Paranoid,
        Algorithm::Maxn,
        Algorithm::Brs,
        Algorithm::Mcts,
    ];

    fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Self>>, String> {
        super::talat::make_player(spec)
    }
}

impl Players for talat::Talat2p {
    fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Self>>, String> {
        super::talat::make_player_2p(spec)
    }
}
