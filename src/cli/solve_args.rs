//! The arguments of `tessera solve` (read by `solve.rs` and by each game's solve in
//! `quixo.rs`).

use clap::Args;

use super::output::{at_least_one_u64, tt_mib};
use super::{GameId, PositionArgs};

/// Arguments of `tessera solve`.
#[derive(Args, Debug)]
#[command(
    about = "Solve a position exactly: Othello's final disc difference, Quixo's win/loss/draw and its distance",
    long_about = "Solve a position exactly (search to the end of the game): the final disc \
                  difference for the side to move with perfect play from both sides (empty \
                  squares go to the winner, as in the FFO suite), a best move and the principal \
                  variation.\n\nA position is required. Exit code 1 if --time-ms stops the \
                  solve before it finishes (no result is printed then); 2 for bad input.\n\n\
                  Quixo: --size 3|4 solves every board of that size by retrograde analysis and \
                  prints the value and length from the empty board and the won/lost/drawn \
                  counts; a position (5, 4 or 3 rows joined by /, a space and X or O) gets its \
                  exact value (win/loss/draw for the side to move) and plies to the end with best \
                  play, the final move counted: a 3x3/4x4 position from the retrograde table of \
                  its size, a 5x5 one by a proving search up to --max-plies (the 5x5 full-board \
                  table at the leaves), or \"unproven\" (exit code 1).",
    after_help = "Examples:\n  tessera solve othello --ffo 40\n  \
                  tessera solve othello --ffo 45 --threads 2\n  \
                  tessera solve othello --obf problems.obf --json\n  \
                  tessera solve quixo --size 4\n  \
                  tessera solve quixo --position \"XXXX./...../...../...../..... X\" --json\n  \
                  tessera solve othello --position \"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X\" --json"
)]
pub struct SolveArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Transposition table size, MiB (1..=16384): Othello's endgame solver, Quixo's proving
    /// search of a 5x5 position [default: 256; an Othello position with at most 26 empties: 64]
    #[arg(long, value_name = "MIB", value_parser = tt_mib)]
    pub tt_mb: Option<usize>,
    /// Quixo: solve every board of this size (3 or 4) by retrograde analysis
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=4))]
    pub size: Option<u8>,
    /// Quixo: longest forced win or loss the proving search looks for, plies [default: 9]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_plies: Option<u32>,
    /// Quixo: the proving search of a position: `dfpn` (depth-bounded proof-number search;
    /// the distance is shortened to the exact one while time remains) or `id` (iterative
    /// deepening on the distance, exact distances) [default: dfpn]
    #[arg(long, value_enum, value_name = "NAME")]
    pub prover: Option<QuixoProver>,
    /// Quixo: the 5x5 full-board table file (built and saved there when missing, empty or
    /// an invalid tessera table; any other file, a newer table or a directory is refused)
    /// [default: $XDG_CACHE_HOME/tessera/quixo-full5-v1.bin, or under ~/.cache]
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// Give up after this many milliseconds (exit code 1); default: no limit
    #[arg(long, value_name = "MS", value_parser = at_least_one_u64)]
    pub time_ms: Option<u64>,
    /// Threads, 1 to 256: Othello's exact solve (Young Brothers Wait on a rayon pool, shared
    /// transposition table) [default: 1]; Quixo's retrograde analysis (--size, 3x3/4x4
    /// positions, building the 5x5 full-board table; the proving search itself is one
    /// thread) [default: every core]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Othello: solve every problem of this OBF file (Edax's problem format: `BOARD SIDE;
    /// MOVE:SCORE; ...` per line) and compare with the file's scores; --time-ms is then the
    /// budget of the whole batch
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves", "ffo"])]
    pub obf: Option<std::path::PathBuf>,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

/// The proving searches of `solve quixo --position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum QuixoProver {
    /// Depth-bounded df-pn (proof-number search).
    Dfpn,
    /// Iterative deepening on the distance to the end.
    Id,
}

/// Deepest proof `solve quixo --position` tries when no `--max-plies` is given.
pub const DEFAULT_QUIXO_PLIES: u32 = 9;

use tessera::games::othello::obf_batch::DEFAULT_SOLVE_TT_MIB;

impl SolveArgs {
    /// The table size in MiB: `--tt-mb`, else [`DEFAULT_SOLVE_TT_MIB`].
    #[must_use]
    pub fn tt_mib(&self) -> usize {
        self.tt_mb.unwrap_or(DEFAULT_SOLVE_TT_MIB)
    }
}
