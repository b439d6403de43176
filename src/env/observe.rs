//! Observation planes: each game's position as a fixed-shape `f32` tensor, seen from the
//! side to move (its pieces first), for learning code that wants numbers, not text.
//!
//! | game | shape | planes |
//! |---|---|---|
//! | `othello` | `[2, 8, 8]` | 0: discs of the side to move; 1: the opponent's. Row = rank - 1 (`a1` is `[.., 0, 0]`, `h1` `[.., 0, 7]`) |
//! | `quixo` | `[3, 5, 5]` | 0: cubes of the side to move; 1: the other side's; 2: the squares of the board (all ones on 5x5; a 3x3 or 4x4 position fills its top-left corner). Row = row - 1, column = file (`a1` is `[.., 0, 0]`) |
//! | `quixo-4p` | `[5, 5, 5]` | 0, 1, 2 as `quixo` (by team); 3: cubes whose dot points at team member 2; 4: all ones when the seat to move is its team's member 2 (A2 or B2: seats 2 and 3) |
//! | `talat`, `talat-2p` | `[55, 3, 5, 5]` | boards `WG`, `GB`, `BW` on axis 1, squares `a1..e5` as `[row - 1, file]`. Planes `9 * c + k` (`c` in 0..3, `k` the kind index `T1 .. H3` = 0..9): towers of kind `k` of the colour `c` seats after the side to move (0 = its own); plane 27: all ones on a frozen board; planes `28 + 9 * c + k`: all ones while that colour still has kind `k` to place (setup) |
//!
//! Values are 0.0 or 1.0. Writing an observation allocates nothing.

use crate::game::Game;
use crate::games::othello;
use crate::games::quixo;
use crate::games::talat::{self, BoardId, Colour, Kind};

/// A game whose positions have observation planes (see the module table).
pub trait Observe: Game {
    /// The tensor's shape (C-order), e.g. `[2, 8, 8]`.
    const SHAPE: &'static [usize];

    /// Number of values, the product of [`Observe::SHAPE`].
    const SIZE: usize;

    /// Writes the position's planes into `out` (length [`Observe::SIZE`]), every value.
    ///
    /// # Panics
    /// If `out` has another length (a programming error).
    fn observe(&self, out: &mut [f32]);
}

/// Writes `mask`'s bits (bit `8 * row + col` or `n * row + col`) as ones of one plane of
/// `width` columns, `n` squares to a row of the mask.
fn bits_to_plane(mask: u64, n: usize, width: usize, plane: &mut [f32]) {
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        plane[(i / n) * width + i % n] = 1.0;
        m &= m - 1;
    }
}

impl Observe for othello::Position {
    const SHAPE: &'static [usize] = &[2, 8, 8];
    const SIZE: usize = 128;

    fn observe(&self, out: &mut [f32]) {
        assert_eq!(out.len(), Self::SIZE, "othello observation buffer");
        out.fill(0.0);
        let (own, opp) = out.split_at_mut(64);
        bits_to_plane(self.player(), 8, 8, own);
        bits_to_plane(self.opponent(), 8, 8, opp);
    }
}

impl<const FOUR: bool> Observe for quixo::Position<FOUR> {
    const SHAPE: &'static [usize] = if FOUR { &[5, 5, 5] } else { &[3, 5, 5] };
    const SIZE: usize = if FOUR { 125 } else { 75 };

    fn observe(&self, out: &mut [f32]) {
        assert_eq!(out.len(), Self::SIZE, "quixo observation buffer");
        out.fill(0.0);
        let n = usize::from(self.size());
        let (own, other) = self.own_other();
        let mut planes = out.chunks_exact_mut(25);
        let mut next = || planes.next().expect("the shape has these planes");
        bits_to_plane(u64::from(own), n, 5, next());
        bits_to_plane(u64::from(other), n, 5, next());
        bits_to_plane(u64::from(self.geometry().full), n, 5, next());
        if FOUR {
            bits_to_plane(u64::from(self.dots()), n, 5, next());
            if self.seat() >= 2 {
                next().fill(1.0);
            }
        }
    }
}

impl<const TWO: bool> Observe for talat::Position<TWO> {
    const SHAPE: &'static [usize] = &[55, 3, 5, 5];
    const SIZE: usize = 55 * 75;

    fn observe(&self, out: &mut [f32]) {
        assert_eq!(out.len(), Self::SIZE, "talat observation buffer");
        out.fill(0.0);
        let mover = usize::from(self.to_move);
        let relative = |c: Colour| (c.index() + 3 - mover) % 3;
        for b in BoardId::ALL {
            let board = &self.boards[b.index()];
            for sq in 0..25 {
                if let Some((side, kind)) = board.at(sq) {
                    let plane = 9 * relative(b.colour(side)) + kind.index();
                    out[plane * 75 + b.index() * 25 + sq] = 1.0;
                }
            }
            if self.frozen & (1 << b.index()) != 0 {
                out[27 * 75 + b.index() * 25..27 * 75 + (b.index() + 1) * 25].fill(1.0);
            }
        }
        for c in Colour::ALL {
            let unplaced = self.unplaced[c.index()];
            for k in 0..Kind::COUNT {
                if unplaced & (1 << k) != 0 {
                    let plane = 28 + 9 * relative(c) + k;
                    out[plane * 75..(plane + 1) * 75].fill(1.0);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planes<G: Observe>(pos: &G) -> Vec<f32> {
        let mut out = vec![f32::NAN; G::SIZE];
        pos.observe(&mut out);
        out
    }

    #[test]
    fn shapes_multiply_to_sizes() {
        fn check<G: Observe>() {
            assert_eq!(G::SHAPE.iter().product::<usize>(), G::SIZE, "{}", G::ID);
        }
        check::<othello::Position>();
        check::<quixo::Quixo>();
        check::<quixo::Quixo4p>();
        check::<talat::Talat>();
        check::<talat::Talat2p>();
    }

    #[test]
    fn othello_start_planes_are_the_side_to_moves_discs() {
        // Black (to move) on d5 (bit 35: rank 5, file d) and e4 (bit 28).
        let obs = planes(&othello::Position::start());
        let own: Vec<usize> = (0..64).filter(|&i| obs[i] == 1.0).collect();
        let opp: Vec<usize> = (0..64).filter(|&i| obs[64 + i] == 1.0).collect();
        assert_eq!(own, vec![28, 35]);
        assert_eq!(opp, vec![27, 36]);
        assert_eq!(obs.iter().filter(|&&v| v != 0.0).count(), 4);
        // After f5 White is to move: plane 0 is White's one disc left (d4).
        let pos = othello::Position::start();
        let after = pos.play(pos.parse_move("f5").unwrap());
        let obs = planes(&after);
        assert_eq!(obs[..64].iter().sum::<f32>(), 1.0);
        assert_eq!(obs[64..].iter().sum::<f32>(), 4.0);
    }

    #[test]
    fn quixo_planes_follow_the_team_to_move() {
        let pos = quixo::Quixo::start();
        let obs = planes(&pos);
        assert_eq!(obs[..50].iter().sum::<f32>(), 0.0);
        assert_eq!(obs[50..].iter().sum::<f32>(), 25.0);
        let after = pos.play(pos.parse_move("a1-e1").unwrap());
        let obs = planes(&after);
        // O to move: its own plane is empty, X's cube (now on e1 = row 0, col 4) is plane 1.
        assert_eq!(obs[..25].iter().sum::<f32>(), 0.0);
        assert_eq!(obs[25 + 4], 1.0);
        assert_eq!(obs[25..50].iter().sum::<f32>(), 1.0);
        let small: quixo::Quixo = quixo::Quixo::empty(3).unwrap();
        let obs = planes(&small);
        assert_eq!(obs[50..].iter().sum::<f32>(), 9.0);
        assert_eq!(obs[50 + 5 * 2 + 2], 1.0);
        assert_eq!(obs[50 + 3], 0.0);
    }

    #[test]
    fn talat_setup_planes_show_the_towers_to_place() {
        let pos = talat::Talat::start();
        let obs = planes(&pos);
        // Nothing on the boards, nothing frozen, every colour has its 9 kinds to place.
        assert_eq!(obs[..28 * 75].iter().sum::<f32>(), 0.0);
        assert_eq!(obs[28 * 75..].iter().sum::<f32>(), (27 * 75) as f32);
    }
}
