//! Game rules, one folder per game. Each implements [`crate::game::Game`]; each game's
//! folder also holds its evaluation and its own solvers (Othello's exact endgame solver,
//! Quixo's retrograde tables and proving search).
//!
//! # Example: solve an endgame
//!
//! FFO endgame problem #40 (20 empty squares): Black wins by 38 discs with a2, the suite's
//! answer (`tests/data/othello/ffo-40-59.txt`).
//!
//! ```
//! use tessera::games::othello::{Position, endgame::Solver};
//! use tessera::search::{Limits, TranspositionTable};
//!
//! let ffo40: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
//!     .parse()
//!     .map_err(|e| format!("{e}"))?;
//! let tt = TranspositionTable::new(64); // MiB
//! let solution = Solver::new(&tt, &Limits::default()).solve(&ffo40);
//! assert_eq!(solution.score, Some(38)); // final disc difference, Black's view
//! assert_eq!(solution.best_move.map(|m| m.to_string()).as_deref(), Some("a2"));
//! println!("{} nodes, pv {:?}", solution.nodes, solution.pv);
//! # Ok::<(), String>(())
//! ```

mod id;
pub mod othello;
pub mod quixo;
pub mod talat;

pub use id::{GameId, UnknownGame};
