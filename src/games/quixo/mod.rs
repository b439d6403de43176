//! Quixo on 3x3, 4x4 and 5x5 boards, for two players (`quixo`) and four players in two
//! teams (`quixo-4p`), one code path for both: rules on bitboards ([`geometry`],
//! [`Position`]), notation, Zobrist keys, perft, evaluation, the retrograde
//! solver ([`retro`]) with small-board answers from it ([`small_answer`]), and the
//! proving searches ([`mod@prove`], [`dfpn`]) with their full-board table
//! ([`proof_table`]).
//! Rules: `docs/rules/quixo.md`; reference data: `tests/data/quixo/`.

pub mod dfpn;
pub mod eval;
mod exact;
pub mod geometry;
mod notation;
pub mod one_blank;
pub mod perft;
mod position;
pub mod proof_table;
pub mod prove;
pub mod retro;
pub mod small_answer;
pub mod solve_settings;
pub mod solved_tiers;
mod symmetry;
pub mod table_cache;
pub mod table_file;
pub mod tier_build;
pub mod tier_file;
pub mod tier_rounds;
pub mod tier_truth;
pub mod zobrist;

pub use dfpn::{prove_dfpn, prove_dfpn_until};
pub use exact::FullBoardExact;
pub use position::{MAX_MOVES, Move, Position, Quixo, Quixo4p};
pub use prove::{Proof, ProveLimits, Verdict, prove};
pub use retro::{SolveSummary, solve_size};
pub use solve_settings::{SolveSettings, SolveTask};

/// Unit of Quixo alpha-beta scores (forced results are `WIN - plies`).
pub const SCORE_UNIT: &str = "centi-cubes";
