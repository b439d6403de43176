//! Time management: a game clock (time left, increment, moves to the next time control)
//! turned into one move's time budget. Game-agnostic: it sees only the clock.
//!
//! The rule is the classic one (Hyatt's Crafty, Stockfish's `timeman` without the
//! game-phase terms): keep a safety reserve, split the rest over the moves still to play
//! before the clock is refilled (an estimate when the control is sudden death), and add half
//! of the increment, which comes back after the move.
//!
//! The reserve is sized for a loaded machine: a search stops at its deadline only once its
//! thread runs again, and with more runnable threads than cores that is up to a scheduler
//! period later. Measured on 2 cores at load 8 (204 Othello games at `--tc 0.5+0.01`,
//! concurrency 2): moves overran their budget by 10 ms at the median and 22 ms at the 90th
//! percentile when the budget was small; with the former reserve (5 % + 5 ms) and 3/4 of
//! the increment, 7 of 204 games were lost on time.

/// One seat's clock as its engine sees it when asked for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Time left on the clock, milliseconds (the move's own time counts against it).
    pub remaining_ms: u64,
    /// Added to the clock after each move, milliseconds.
    pub increment_ms: u64,
    /// Moves (of this seat) to play before the clock is refilled, this move included;
    /// `None` for sudden death (one period for the whole game).
    pub moves_to_go: Option<u32>,
}

/// Moves still to play assumed when the control is sudden death: a typical game has
/// 20-40 moves per side, and planning for fewer spends time early, when it matters most.
pub const SUDDEN_DEATH_MOVES: u32 = 20;

/// The time a move may take beyond its budget (stopping, answering, being scheduled
/// again), milliseconds: the reserve holds three of them (Stockfish's default
/// `Move Overhead` is 10 ms too).
pub const MOVE_OVERHEAD_MS: u64 = 10;

impl GameClock {
    /// Milliseconds this move may use: `(remaining - reserve) / moves_to_go + increment / 2`,
    /// at most half of what is left after the reserve (the whole of it on the last move
    /// before a refill), at least 1. The reserve, `5 % + 3 x` [`MOVE_OVERHEAD_MS`], absorbs
    /// the time between the deadline and the move reaching the clock; a clock at or below
    /// it gets 1 ms moves, which the increment refills.
    #[must_use]
    pub fn budget_ms(&self) -> u64 {
        let reserve = self.remaining_ms / 20 + 3 * MOVE_OVERHEAD_MS;
        let usable = self.remaining_ms.saturating_sub(reserve);
        let mtg = u64::from(self.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).max(1));
        let share = usable / mtg + self.increment_ms / 2;
        let cap = if mtg == 1 { usable } else { usable / 2 };
        share.min(cap).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_splits_the_clock() {
        // 2 s + 50 ms, sudden death: reserve 100 + 30; (2000 - 130) / 20 + 25 = 93 + 25.
        let c = GameClock {
            remaining_ms: 2000,
            increment_ms: 50,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), 118);
        // 0.5 s + 10 ms: (500 - 55) / 20 + 5 = 22 + 5.
        let c = GameClock {
            remaining_ms: 500,
            increment_ms: 10,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), 27);
        // A clock inside the reserve (40 ms: reserve 2 + 30) plays 1 ms moves... almost:
        // (40 - 32) / 20 + 5 = 5, capped at half of the 8 usable ms: 4.
        let c = GameClock {
            remaining_ms: 40,
            increment_ms: 10,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), 4);
        let c = GameClock {
            remaining_ms: 25,
            increment_ms: 10,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), 1);
        // 40 moves in 60 s, 10 to go: (60000 - 3030) / 10 = 5697.
        let c = GameClock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: Some(10),
        };
        assert_eq!(c.budget_ms(), 5697);
        // The last move before a refill may use everything but the reserve.
        let c = GameClock {
            remaining_ms: 1000,
            increment_ms: 0,
            moves_to_go: Some(1),
        };
        assert_eq!(c.budget_ms(), 1000 - 80);
        // A large increment never lets a move use more than half the usable time.
        let c = GameClock {
            remaining_ms: 100,
            increment_ms: 1000,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), (100 - 35) / 2);
        // An empty clock still searches for 1 ms.
        let c = GameClock {
            remaining_ms: 0,
            increment_ms: 0,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms(), 1);
    }
}
