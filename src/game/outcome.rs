//! The result of a finished game: a score per seat and the ranking it implies.

use super::seat::{BySeat, Seat};

/// A finished game's result: one score per seat, in the game's own unit
/// (Othello: discs, with empty squares given to the winner; Quixo: 1 win / 0 loss, teams share).
/// Higher is better; equal scores share a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Score per seat.
    pub scores: BySeat<i32>,
}

impl Outcome {
    /// An outcome from per-seat scores.
    #[must_use]
    pub fn new(scores: BySeat<i32>) -> Self {
        Self { scores }
    }

    /// The score of `seat`.
    #[must_use]
    pub fn score(&self, seat: Seat) -> i32 {
        self.scores[seat]
    }

    /// Place of `seat`: 1 + the number of seats with a strictly higher score
    /// (so a two-seat draw ranks both first).
    #[must_use]
    pub fn rank(&self, seat: Seat) -> usize {
        let s = self.scores[seat];
        1 + self.scores.as_slice().iter().filter(|&&o| o > s).count()
    }

    /// Places of all seats (see [`Outcome::rank`]).
    #[must_use]
    pub fn ranking(&self) -> BySeat<usize> {
        let mut r = BySeat::new(self.scores.len());
        for i in 0..self.scores.len() {
            r[Seat(i as u8)] = self.rank(Seat(i as u8));
        }
        r
    }

    /// `seat`'s score minus the best score among the other seats: positive when `seat` won
    /// outright, 0 on a shared first place or a draw. For two seats this is the score
    /// difference from `seat`'s view (Othello: the disc difference).
    #[must_use]
    pub fn margin(&self, seat: Seat) -> i32 {
        let best_other = self
            .scores
            .iter()
            .filter(|(s, _)| *s != seat)
            .map(|(_, &v)| v)
            .max()
            .unwrap_or(0);
        self.scores[seat] - best_other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_and_margin() {
        let o = Outcome::new(BySeat::from_slice(&[10, 25, 10]));
        assert_eq!(o.rank(Seat(1)), 1);
        assert_eq!(o.rank(Seat(0)), 2);
        assert_eq!(o.rank(Seat(2)), 2);
        assert_eq!(o.margin(Seat(1)), 15);
        assert_eq!(o.margin(Seat(0)), -15);
        let draw = Outcome::new(BySeat::from_slice(&[32, 32]));
        assert_eq!(draw.rank(Seat(0)), 1);
        assert_eq!(draw.margin(Seat(1)), 0);
    }
}
