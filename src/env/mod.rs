//! Environments for learning and scripting: every game behind one run-time [`GameId`](crate::games::GameId),
//! with observation planes, a fixed action space, returns scored as tournaments score
//! them, random playouts and a vectorised environment stepping many games in parallel.
//! The Python package (`python/`) is a thin binding over this layer.
//!
//! - [`observe`]: each game's position as fixed-shape `f32` planes;
//! - [`action`]: the action space (a move's [`MoveCode`](crate::game::MoveCode)), legal masks;
//! - [`returns`]: each seat's points at the end of a game;
//! - [`any_game`]: [`AnyGame`], a game of any id driven by text or actions, with undo;
//! - [`playout`]: random playouts in parallel;
//! - [`vec_env`]: [`VecEnv`] / [`AnyVecEnv`], `n` games stepped together;
//! - [`engines`]: best move, every move's score and exact solves by id and position text.
//!
//! # Example
//!
//! ```
//! use tessera::env::{AnyVecEnv, StepBuffers};
//! use tessera::games::GameId;
//!
//! let n = 4;
//! let mut env = AnyVecEnv::new(GameId::Othello, n, 42, 1000);
//! let d = env.dims();
//! let (mut obs, mut rewards) = (vec![0.0; n * d.obs_size], vec![0.0; n * d.seats]);
//! let (mut dones, mut masks, mut to_move) = (vec![false; n], vec![false; n * d.action_size], vec![0; n]);
//! let mut buf = StepBuffers { obs: &mut obs, rewards: &mut rewards, dones: &mut dones, masks: &mut masks, to_move: &mut to_move };
//! env.reset(&mut buf);
//! for _ in 0..100 {
//!     // The first legal action of each game.
//!     let actions: Vec<i64> = buf.masks.chunks(d.action_size)
//!         .map(|m| m.iter().position(|&b| b).unwrap() as i64).collect();
//!     env.step(&actions, &mut buf)?;
//! }
//! # Ok::<(), tessera::game::MoveError>(())
//! ```

pub mod action;
pub mod any_game;
pub mod engines;
pub mod observe;
pub mod playout;
pub mod returns;
pub mod vec_env;

pub use any_game::AnyGame;
pub use engines::{AnyEngine, EngineChoice, Found, Solved};
pub use observe::Observe;
pub use vec_env::{AnyVecEnv, Dims, StepBuffers, VecEnv};

use crate::engine::Players;

/// What the environments need of a game: observation planes and players.
pub trait EnvGame: Observe + Players {}

impl<G: Observe + Players> EnvGame for G {}
