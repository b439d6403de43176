//! Move-ordering state that a search keeps across nodes: killer moves per ply and a
//! history table per move code (both game-agnostic, keyed by [`crate::game::MoveCode`]).

use super::MAX_PLY;

/// Killer moves (two per ply: quiet moves that caused a beta cut-off at the same ply in a
/// sibling subtree) and the history heuristic (a score per move code, raised by
/// `depth^2` on every cut-off).
pub struct MoveOrdering {
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
}

const NONE: u16 = u16::MAX;

impl MoveOrdering {
    /// Empty tables for a game with `move_codes` distinct move codes.
    #[must_use]
    pub fn new(move_codes: usize) -> Self {
        Self {
            killers: vec![[NONE; 2]; MAX_PLY + 1],
            history: vec![0; move_codes],
        }
    }

    /// Records that the move `code` caused a cut-off at `ply` with `depth` plies left.
    #[inline]
    pub fn cutoff(&mut self, ply: usize, code: u16, depth: u32) {
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        let h = &mut self.history[code as usize];
        *h += (depth * depth) as i32;
        if *h > 1 << 24 {
            for v in &mut self.history {
                *v /= 2;
            }
        }
    }

    /// Ordering score of move `code` at `ply`: killers first, then history.
    #[inline]
    #[must_use]
    pub fn score(&self, ply: usize, code: u16) -> i32 {
        let k = &self.killers[ply];
        if k[0] == code {
            1 << 28
        } else if k[1] == code {
            1 << 27
        } else {
            self.history[code as usize]
        }
    }
}
