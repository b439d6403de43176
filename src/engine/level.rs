//! Levels: one number for a strength, as Edax's `-l N`. Level `n` searches the midgame to
//! depth `n` and solves exactly from `2n` empties (at most [`MAX_EXACT_EMPTIES`]); games
//! without an exact solver use the depth only.

use super::{Player, Thought};
use crate::games::othello::{Move, Position};
use crate::search::Limits;

/// Largest number of empties a level solves exactly: 24 empties take up to about a minute
/// on one core here, more would make high levels hang in the endgame.
pub const MAX_EXACT_EMPTIES: u32 = 24;

/// The exact-solving threshold of level `n`: `min(2n, MAX_EXACT_EMPTIES)` empties.
#[must_use]
pub fn level_exact_empties(level: u32) -> u32 {
    level.saturating_mul(2).min(MAX_EXACT_EMPTIES)
}

/// An Othello player at a level: positions with at most `exact_empties` empties are solved
/// to the end (the depth limit dropped, so the exact solver applies), others searched with
/// the limits given.
pub struct LevelPlayer {
    inner: Box<dyn Player<Position>>,
    exact_empties: u32,
}

impl LevelPlayer {
    /// `inner` (an engine whose exact solver covers `exact_empties`) at that threshold.
    #[must_use]
    pub fn new(inner: Box<dyn Player<Position>>, exact_empties: u32) -> Self {
        Self {
            inner,
            exact_empties,
        }
    }
}

/// `limits` for `pos` at a level solving from `exact_empties`: no depth limit when the
/// position is that close to the end.
#[must_use]
pub fn level_limits(pos: &Position, limits: &Limits, exact_empties: u32) -> Limits {
    let mut l = limits.clone();
    if pos.empties() <= exact_empties {
        l.depth = None;
    }
    l
}

impl Player<Position> for LevelPlayer {
    fn set_progress(&mut self, progress: super::ProgressFn<Move>) {
        self.inner.set_progress(progress);
    }

    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Thought<Move>, String> {
        let l = level_limits(pos, limits, self.exact_empties);
        self.inner.choose(pos, &l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_solve_twice_the_depth() {
        assert_eq!(level_exact_empties(1), 2);
        assert_eq!(level_exact_empties(8), 16);
        assert_eq!(level_exact_empties(12), 24);
        assert_eq!(level_exact_empties(30), MAX_EXACT_EMPTIES);
    }
}
