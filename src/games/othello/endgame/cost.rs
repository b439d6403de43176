//! The exact solver's cost model: expected nodes of a solve by the number of empties, so
//! that a time-limited engine (`exact-empties = "auto"`) starts the solve as early as its
//! budget allows.
//!
//! Measured with `tessera solve othello --tt-mb 32` (the solver as the engines run it,
//! 1 thread) on positions of self-play games (`tessera selfplay`, depth-4 pattern engine
//! after 2-24 random plies; `/work/data/gen1` shard 2): 30 positions at each of 12, 14, 16,
//! 18 and 20 empties, 25 at 22, 14 at 24 (one more stopped at 20 s). Median nodes, in the
//! order 12 .. 24: 6.9 K, 39.6 K, 141 K, 733 K, 3.69 M, 12.0 M, 46.1 M. A least-squares fit
//! of log2(nodes) on the empties from 14 up gives `1.25 + 1.007 x empties`: the nodes
//! double with each empty, about 2.8 M at 20. The spread around the fit is wide (standard
//! deviation 1.7 in log2, a factor of 3.2); the mover's mobility narrows it little (1.6),
//! so it is left out. The solver ran at 17-30 M nodes/s on 2 cores at load 3-6.
//!
//! From [`LADDER_MIN_EMPTIES`] up the solve begins with the
//! selective passes of the ladder, which give a best move (at 73 %, 87 % then 95 %
//! confidence) for a small part of the exact solve's cost (see [`first_pass_nodes_at`]).

use super::ladder::LADDER_MIN_EMPTIES;
use crate::games::othello::Position;
use crate::search::SolveCost;

/// Expected nodes of an exact solve at 20 empties (the fit's median).
pub const NODES_AT_20: u64 = 2_800_000;

/// Expected nodes of the ladder's first selective pass (73 %) at 20 empties (the median
/// measured, 197 K, rounded up).
pub const FIRST_PASS_AT_20: u64 = 200_000;

/// Expected nodes of an exact solve with `empties` empty squares: [`NODES_AT_20`] doubled
/// (halved) for each empty above (below) 20, at least 1 000.
#[must_use]
pub fn expected_nodes_at(empties: u32) -> u64 {
    let e = i64::from(empties.min(40)) - 20;
    let n = if e >= 0 {
        NODES_AT_20 << e
    } else {
        NODES_AT_20 >> (-e).min(63)
    };
    n.max(1_000)
}

/// Expected nodes of the ladder's first selective pass with `empties` empty squares:
/// [`FIRST_PASS_AT_20`] doubled for each 2 empties above 20 (halved below). It grows much
/// more slowly than the exact solve: the medians measured (15 positions each at 18, 20
/// and 22 empties, as above) were 83 K, 197 K and 265 K nodes, 4-12 % of the exact solve
/// at 18 and 2-8 % at 22; the 95 % pass took 2-3 times the first.
#[must_use]
pub fn first_pass_nodes_at(empties: u32) -> u64 {
    let half_steps = f64::from(empties.min(40)) - 20.0;
    (FIRST_PASS_AT_20 as f64 * (half_steps / 2.0).exp2()).round() as u64
}

/// Empties from which the exact solve is cheap: 16 (median 141 K nodes, a few
/// milliseconds; 770 K at the 90th percentile). Once the game is solved there, the
/// remaining moves come from the table at once.
pub const CHEAP_SOLVE_EMPTIES: u32 = 16;

/// The mover's moves that still need time with `empties` empty squares, for splitting a
/// game clock: its moves down to [`CHEAP_SOLVE_EMPTIES`] (half the difference, rounded up),
/// plus one for the solve, and at least 2 (so that no move is planned to take the whole
/// clock).
#[must_use]
pub fn timed_moves_left(empties: u32) -> u32 {
    (empties.saturating_sub(CHEAP_SOLVE_EMPTIES).div_ceil(2) + 1).max(2)
}

/// The [`SolveCost`] of a solve of `pos`.
#[must_use]
pub fn solve_cost(pos: &Position) -> SolveCost {
    let empties = pos.empties();
    let exact = expected_nodes_at(empties);
    let first = if empties >= LADDER_MIN_EMPTIES {
        first_pass_nodes_at(empties).min(exact)
    } else {
        exact
    };
    SolveCost { exact, first }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_double_per_empty() {
        assert_eq!(expected_nodes_at(20), 2_800_000);
        assert_eq!(expected_nodes_at(22), 11_200_000);
        assert_eq!(expected_nodes_at(24), 44_800_000);
        assert_eq!(expected_nodes_at(16), 175_000);
        assert_eq!(expected_nodes_at(14), 43_750);
        // Floors at 1 000 nodes; capped at 40 empties (no overflow).
        assert_eq!(expected_nodes_at(4), 1_000);
        assert_eq!(expected_nodes_at(60), 2_800_000 << 20);
    }

    #[test]
    fn timed_moves_stop_at_the_cheap_solve() {
        // 60 empties: 22 moves down to 16, plus the solve.
        assert_eq!(timed_moves_left(60), 23);
        assert_eq!(timed_moves_left(40), 13);
        assert_eq!(timed_moves_left(21), 4);
        assert_eq!(timed_moves_left(20), 3);
        // From 18 empties down, 2: never the whole clock on one move.
        assert_eq!(timed_moves_left(18), 2);
        assert_eq!(timed_moves_left(16), 2);
        assert_eq!(timed_moves_left(3), 2);
    }

    #[test]
    fn first_pass_doubles_per_two_empties() {
        assert_eq!(first_pass_nodes_at(20), 200_000);
        assert_eq!(first_pass_nodes_at(22), 400_000);
        assert_eq!(first_pass_nodes_at(18), 100_000);
        // 200 K x 2^0.5.
        assert_eq!(first_pass_nodes_at(21), 282_843);
    }

    #[test]
    fn solve_cost_has_a_first_pass_from_the_ladder_up() {
        use crate::game::Game;
        // FFO #40 (20 empties): the ladder runs, its first pass is the cheap answer.
        let ffo40: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
            .parse()
            .unwrap();
        assert_eq!(ffo40.empties(), 20);
        assert_eq!(
            solve_cost(&ffo40),
            SolveCost {
                exact: 2_800_000,
                first: 200_000
            }
        );
        // Below the ladder the first answer is the exact solve.
        let mut pos = ffo40;
        while pos.empties() >= LADDER_MIN_EMPTIES {
            let mut moves = <Position as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            pos = pos.play(moves[0]);
        }
        let c = solve_cost(&pos);
        assert_eq!(c.first, c.exact);
        assert_eq!(c.exact, expected_nodes_at(pos.empties()));
    }
}
