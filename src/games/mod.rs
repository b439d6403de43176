//! Game rules, one folder per game. Each implements [`crate::game::Game`].

pub mod othello;
pub mod quixo;
pub mod talat;
