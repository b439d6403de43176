//! Returns per seat of a finished game, as tournaments score it: points 1 for a win, 1/2
//! for a draw, 0 for a loss with two sides; with more sides (seats beaten + half the seats
//! tied) / (sides - 1). Team games (four-player Quixo) score the teams and every seat gets
//! its team's points. A game cut short (a ply cap) is a draw: 1/2 for every seat.

use crate::game::{Game, MAX_SEATS, Outcome, Seat};

/// Writes every seat's points into `out` (length `pos.seats()`): `outcome` is the result
/// of `pos` (`None` for a game cut short, scored as a draw). Allocates nothing.
///
/// # Panics
/// If `out` has another length than the number of seats (a programming error).
pub fn points<G: Game>(pos: &G, outcome: Option<&Outcome>, out: &mut [f64]) {
    let seats = pos.seats();
    assert_eq!(out.len(), seats, "points buffer");
    let Some(outcome) = outcome else {
        out.fill(0.5);
        return;
    };
    // Each side (team) is scored by its first seat's place among the sides.
    let mut first = [0usize; MAX_SEATS];
    let mut sides = 0;
    for s in 0..seats {
        let team = pos.team(Seat(s as u8));
        if (0..s).all(|o| pos.team(Seat(o as u8)) != team) {
            first[sides] = s;
            sides += 1;
        }
    }
    let mut side_points = [0.0f64; MAX_SEATS];
    for i in 0..sides {
        let place = outcome.rank(Seat(first[i] as u8));
        side_points[i] = if sides < 2 {
            1.0
        } else {
            let (mut beaten, mut tied) = (0.0, 0.0);
            for &other in &first[..sides] {
                let o = outcome.rank(Seat(other as u8));
                if o > place {
                    beaten += 1.0;
                } else if o == place && other != first[i] {
                    tied += 1.0;
                }
            }
            (beaten + 0.5 * tied) / (sides - 1) as f64
        };
    }
    for (s, v) in out.iter_mut().enumerate() {
        let team = pos.team(Seat(s as u8));
        let i = (0..sides)
            .find(|&i| pos.team(Seat(first[i] as u8)) == team)
            .expect("every seat's team has a first seat");
        *v = side_points[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BySeat;
    use crate::games::{othello, quixo, talat};

    fn pts<G: Game>(pos: &G, scores: &[i32]) -> Vec<f64> {
        let mut out = vec![f64::NAN; pos.seats()];
        points(
            pos,
            Some(&Outcome::new(BySeat::from_slice(scores))),
            &mut out,
        );
        out
    }

    #[test]
    fn two_sides_win_draw_loss() {
        let pos = othello::Position::start();
        assert_eq!(pts(&pos, &[40, 24]), vec![1.0, 0.0]);
        assert_eq!(pts(&pos, &[32, 32]), vec![0.5, 0.5]);
        let mut out = [0.0; 2];
        points(&pos, None, &mut out);
        assert_eq!(out, [0.5, 0.5]);
    }

    #[test]
    fn three_seats_count_seats_beaten_and_tied() {
        let pos = talat::Talat::start();
        assert_eq!(pts(&pos, &[30, 20, 10]), vec![1.0, 0.5, 0.0]);
        assert_eq!(pts(&pos, &[30, 30, 10]), vec![0.75, 0.75, 0.0]);
        assert_eq!(pts(&pos, &[5, 5, 5]), vec![0.5, 0.5, 0.5]);
    }

    #[test]
    fn teams_share_their_points() {
        let pos = quixo::Quixo4p::start();
        // Team X (seats 0, 2) won: 1 for both, 0 for team O.
        assert_eq!(pts(&pos, &[1, 0, 1, 0]), vec![1.0, 0.0, 1.0, 0.0]);
    }
}
