//! A game in progress between people and engines: the start position, the moves played
//! (passes included), the moves undone (for redo), and which seats people sit at. Forced
//! passes are played by themselves; undo goes back to the previous position where a person
//! was to move, redo replays up to the next one. The web page's sessions and the terminal's
//! `play` keep their games in a [`History`], so both take back and replay moves alike.

use crate::game::{Game, Seat};
use crate::present::Present;

/// The moves of a game and the moves undone (see the module documentation).
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    /// Positions after each move (`positions[0]` is `start`).
    positions: Vec<G>,
    redo: Vec<G::Move>,
    /// Per seat: a person sits there.
    humans: Vec<bool>,
}

impl<G: Present> History<G> {
    /// A game from `start` with `moves` already played (forced passes after them played
    /// too); `humans[i]` tells whether a person sits at seat `i` (missing seats: people).
    ///
    /// # Errors
    /// An illegal move in `moves`, naming it and the position.
    pub fn new(start: G, moves: &[G::Move], humans: Vec<bool>) -> Result<Self, String> {
        let mut h = Self {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            redo: Vec::new(),
            humans,
        };
        for (i, &mv) in moves.iter().enumerate() {
            if h.over().is_some() || !h.current().is_legal(mv) {
                return Err(format!(
                    "move {} ({mv}) is not legal in {}",
                    i + 1,
                    h.current()
                ));
            }
            h.push(mv);
        }
        h.auto_pass();
        Ok(h)
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The current position.
    pub fn current(&self) -> &G {
        self.positions.last().expect("positions holds the start")
    }

    /// Whether a move was undone and can be replayed.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Whether a person sits at `seat`.
    pub fn human_at(&self, seat: Seat) -> bool {
        self.humans.get(seat.index()).is_none_or(|&h| h)
    }

    /// Whether a person decides at the current position (not over, a person to move).
    pub fn human_decides(&self) -> bool {
        self.over().is_none() && self.human_at(self.current().to_move())
    }

    fn any_human(&self) -> bool {
        (0..self.start.seats()).any(|i| self.human_at(Seat(i as u8)))
    }

    fn push(&mut self, mv: G::Move) {
        let next = self.current().play(mv);
        self.moves.push(mv);
        self.positions.push(next);
    }

    fn pop(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// The only legal move of `pos` when it is a pass.
    fn forced_pass(pos: &G) -> Option<G::Move> {
        match crate::game::legal_moves(pos)[..] {
            [only] if pos.is_pass(only) => Some(only),
            _ => None,
        }
    }

    /// Plays forced passes (at most one round of seats).
    fn auto_pass(&mut self) {
        for _ in 0..self.start.seats() {
            if self.over().is_some() {
                return;
            }
            match Self::forced_pass(self.current()) {
                Some(p) => self.push(p),
                None => return,
            }
        }
    }

    /// Plays `mv` (legal at the current position) and the forced passes after it. A move
    /// that is the next undone one keeps the rest of the redo list; another clears it.
    pub fn play(&mut self, mv: G::Move) {
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.push(mv);
        self.auto_pass();
    }

    /// The end of the game, if it is over: the rules' outcome in words, a threefold
    /// repetition (games that draw by it) or the ply cap.
    #[must_use]
    pub fn over(&self) -> Option<String> {
        let pos = self.current();
        if let Some(words) = pos.result_words() {
            return Some(words);
        }
        if G::REPETITION_DRAWS {
            let key = pos.key();
            let count = self.positions.iter().filter(|p| p.key() == key).count();
            if count >= 3 {
                return Some(
                    "Draw: the position occurred for the third time with the same side to move"
                        .into(),
                );
            }
        }
        if self.moves.len() as u64 >= G::DEFAULT_MAX_PLIES {
            return Some(format!(
                "Draw: {} plies played (the ply cap)",
                self.moves.len()
            ));
        }
        None
    }

    /// A note on the passes among the last moves: who had no move (empty when none).
    #[must_use]
    pub fn pass_note(&self) -> String {
        let n = self.moves.len();
        let from = n.saturating_sub(self.start.seats());
        let names: Vec<String> = (from..n)
            .filter(|&i| self.positions[i].is_pass(self.moves[i]))
            .map(|i| self.positions[i].seat_name(self.positions[i].to_move()))
            .collect();
        if names.is_empty() {
            String::new()
        } else {
            format!("{} had no legal move and passed.", names.join(", "))
        }
    }

    /// The length the move list shrinks to on undo: the latest earlier position where a
    /// person decided (with no person at the table: one move back, passes included).
    #[must_use]
    pub fn undo_target(&self) -> Option<usize> {
        let n = self.moves.len();
        if n == 0 {
            return None;
        }
        if !self.any_human() {
            let mut k = n - 1;
            while k > 0 && self.positions[k].is_pass(self.moves[k]) {
                k -= 1;
            }
            return Some(k);
        }
        (0..n).rev().find(|&i| {
            let p = &self.positions[i];
            self.human_at(p.to_move()) && Self::forced_pass(p).is_none() && p.outcome().is_none()
        })
    }

    /// Takes back moves to the previous position where a person was to move; returns how
    /// many.
    ///
    /// # Errors
    /// Nothing to take back.
    pub fn undo(&mut self) -> Result<usize, String> {
        let target = self.undo_target().ok_or("nothing to undo")?;
        let n = self.moves.len() - target;
        while self.moves.len() > target {
            let mv = self.pop().expect("target is below the length");
            self.redo.push(mv);
        }
        Ok(n)
    }

    /// Replays undone moves up to the next position where a person is to move; returns how
    /// many moves were played (forced passes included).
    ///
    /// # Errors
    /// Nothing was undone.
    pub fn redo(&mut self) -> Result<usize, String> {
        if self.redo.is_empty() {
            return Err("nothing to redo".into());
        }
        let before = self.moves.len();
        while let Some(mv) = self.redo.pop() {
            if self.over().is_some() || !self.current().is_legal(mv) {
                self.redo.clear();
                break;
            }
            self.push(mv);
            self.auto_pass();
            if !self.any_human() || self.human_decides() {
                break;
            }
        }
        Ok(self.moves.len() - before)
    }

    /// Plays an engine's move: the redo list no longer applies.
    pub fn play_engine(&mut self, mv: G::Move) {
        self.redo.clear();
        self.push(mv);
        self.auto_pass();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    #[test]
    fn undo_and_redo_step_over_the_engine_and_passes() {
        let mut h = History::new(Position::start(), &[], vec![true, false]).unwrap();
        let f5 = h.current().parse_move("f5").unwrap();
        h.play(f5);
        let d6 = h.current().parse_move("d6").unwrap();
        h.play_engine(d6);
        assert_eq!(h.moves().len(), 2);
        assert_eq!(h.undo(), Ok(2), "back to Black's decision");
        assert!(h.undo().is_err());
        // f5, and the engine's reply too: redo stops where a person decides.
        assert_eq!(h.redo(), Ok(2));
        assert!(h.human_decides());
        assert!(h.redo().is_err());
    }
}
