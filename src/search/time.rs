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
        self.budget_ms_within(None)
    }

    /// [`GameClock::budget_ms`] for an engine with at most `moves_left` moves of its own
    /// still to play in the game (this one included; Othello knows it: half the empties,
    /// rounded up): the clock is split over the fewer of those and the moves to the next
    /// refill ([`SUDDEN_DEATH_MOVES`] when sudden death), so the time left is not saved for
    /// moves the game will not have. `None` is [`GameClock::budget_ms`].
    #[must_use]
    pub fn budget_ms_within(&self, moves_left: Option<u32>) -> u64 {
        let reserve = self.remaining_ms / 20 + 3 * MOVE_OVERHEAD_MS;
        let usable = self.remaining_ms.saturating_sub(reserve);
        let planned = self.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES);
        let planned = moves_left.map_or(planned, |m| planned.min(m));
        let mtg = u64::from(planned.max(1));
        let share = usable / mtg + self.increment_ms / 2;
        let cap = if mtg == 1 { usable } else { usable / 2 };
        share.min(cap).max(1)
    }
}

impl GameClock {
    /// Extra milliseconds for a move whose search was unstable (its best move changed or
    /// its score fell in the last iteration), after `used_ms` of its `budget_ms`: up to the
    /// budget again, within the cap of [`GameClock::budget_ms`] (half the time left after
    /// the reserve; all of it when the clock is refilled after this move). 0 when nothing
    /// is left under the cap.
    #[must_use]
    pub fn extension_ms(&self, budget_ms: u64, used_ms: u64) -> u64 {
        let reserve = self.remaining_ms / 20 + 3 * MOVE_OVERHEAD_MS;
        let usable = self.remaining_ms.saturating_sub(reserve);
        let cap = if self.moves_to_go == Some(1) {
            usable
        } else {
            usable / 2
        };
        budget_ms.min(cap.saturating_sub(used_ms))
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

    #[test]
    fn budget_within_the_moves_left_in_the_game() {
        // 2 s + 50 ms sudden death, as in budget_splits_the_clock: 118 ms planning for 20
        // moves. With 30 own moves left the plan stays at 20; with 5 left (10 empties in
        // Othello) the usable 1870 ms go over 5 moves: 374 + 25 = 399.
        let c = GameClock {
            remaining_ms: 2000,
            increment_ms: 50,
            moves_to_go: None,
        };
        assert_eq!(c.budget_ms_within(Some(30)), 118);
        assert_eq!(c.budget_ms_within(None), 118);
        assert_eq!(c.budget_ms_within(Some(5)), 399);
        // 40 moves in 60 s with 10 to go, but the game ends in 4: (60000 - 3030) / 4.
        let c = GameClock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: Some(10),
        };
        assert_eq!(c.budget_ms_within(Some(4)), 56_970 / 4);
        // The last move of the game may use all but the reserve; 0 moves left counts as 1.
        assert_eq!(c.budget_ms_within(Some(1)), 56_970);
        assert_eq!(c.budget_ms_within(Some(0)), 56_970);
        // Two moves left: never more than half of the usable time on this one.
        assert_eq!(c.budget_ms_within(Some(2)), 56_970 / 2);
    }

    #[test]
    fn an_unstable_move_gets_up_to_its_budget_again() {
        // 2 s + 50 ms: budget 118; after 118 ms used, 118 more (cap: 1870 / 2 = 935).
        let c = GameClock {
            remaining_ms: 2000,
            increment_ms: 50,
            moves_to_go: None,
        };
        assert_eq!(c.extension_ms(118, 118), 118);
        // Near the cap only what is left under it: 935 - 900.
        assert_eq!(c.extension_ms(500, 900), 35);
        assert_eq!(c.extension_ms(500, 935), 0);
        assert_eq!(c.extension_ms(500, 2000), 0);
        // The last move before a refill may go to the whole usable time: 1870 - 1000.
        let c = GameClock {
            remaining_ms: 2000,
            increment_ms: 0,
            moves_to_go: Some(1),
        };
        assert_eq!(c.extension_ms(1000, 1000), 870);
    }
}
