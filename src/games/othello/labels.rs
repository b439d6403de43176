//! Exact scores of every legal move of a position: the labels of a truth set (an OBF line
//! with every move scored, [`super::obf::format_line`]), from the exact endgame solver.
//!
//! A move's score is minus the exact score of the position after it (the solver's
//! [`Solution::score`](super::endgame::Solution) for the opponent), so it is the final
//! disc difference for the side to move with that move and best play after it, empties to
//! the winner: what Edax writes after each move in its `problem/*.obf` files.

use super::endgame::Solver;
use super::{Move, Position};
use crate::game::Game;
use crate::search::{Limits, TranspositionTable};

/// Every legal move's exact score, and the solver's work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScores {
    /// `(move, exact final disc difference for the side to move)`, in move-generation
    /// order; the pass alone when the side to move must pass.
    pub scores: Vec<(Move, i32)>,
    /// Solver nodes over all the moves.
    pub nodes: u64,
}

impl MoveScores {
    /// The position's exact score: the best move's.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }
}

/// Solves the position after each legal move of `pos` with `threads` threads, sharing `tt`
/// (its entries are exact bounds, valid across the moves and across positions). `limits`
/// stops the work (its time, nodes and stop flag count per move; depth is ignored).
///
/// `None` when a limit stopped a solve (nothing of the position is returned then) or when
/// the game is over.
#[must_use]
pub fn exact_move_scores(
    pos: &Position,
    tt: &TranspositionTable,
    limits: &Limits,
    threads: usize,
) -> Option<MoveScores> {
    let mut moves = <Position as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let mut out = MoveScores {
        scores: Vec::with_capacity(moves.len()),
        nodes: 0,
    };
    for &mv in moves.iter() {
        let child = pos.play(mv);
        let sol = Solver::new(tt, limits).with_threads(threads).solve(&child);
        out.nodes += sol.nodes;
        out.scores.push((mv, -sol.score?));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-worked: Black everywhere but White's g8 and the empty h8, Black to move: h8
    /// flips g8, 64-0.
    #[test]
    fn one_empty_is_hand_worked() {
        let mut b: Vec<char> = "X".repeat(64).chars().collect();
        b[62] = 'O';
        b[63] = '-';
        let pos: Position = format!("{} X", b.into_iter().collect::<String>())
            .parse()
            .unwrap();
        let tt = TranspositionTable::new(1);
        let s = exact_move_scores(&pos, &tt, &Limits::default(), 1).unwrap();
        assert_eq!(s.scores, vec![(pos.parse_move("h8").unwrap(), 64)]);
        assert_eq!(s.best_score(), Some(64));
    }

    /// The best move's score is the solver's score of the position itself, and no move
    /// scores above it.
    #[test]
    fn best_move_score_is_the_position_score() {
        // From Edax's hard-20 set's first line with White's reply to E1 played out to 14
        // empties by the first legal moves: small enough for a unit test.
        let mut pos: Position =
            "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X"
                .parse()
                .unwrap();
        let mut moves = <Position as Game>::Moves::default();
        while pos.empties() > 14 {
            pos.generate_moves(&mut moves);
            pos = pos.play(moves[0]);
        }
        let tt = TranspositionTable::new(4);
        let s = exact_move_scores(&pos, &tt, &Limits::default(), 1).unwrap();
        let whole = Solver::new(&tt, &Limits::default()).solve(&pos);
        assert_eq!(s.best_score(), whole.score);
        assert!(s.scores.len() > 1);
    }
}
