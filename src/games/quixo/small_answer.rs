//! A 3x3 or 4x4 position answered exactly from the retrograde table of its board size
//! ([`small_answer`]): its value, the plies to the end with best play, and a best move.

use super::Quixo;
use super::retro::{SmallBoardTable, Value, decode};
use crate::game::Game;

/// The exact answer for a small-board position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallAnswer {
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end with best play, the final move counted (0: the game is over;
    /// `None`: a draw, no side can force a line).
    pub plies: Option<u32>,
    /// A best move: the fastest win, the slowest loss, or one that keeps the draw (`None`
    /// when the game is over).
    pub best: Option<super::Move>,
}

/// The exact answer for `pos` (3x3 or 4x4), solving the table of its size on `threads`
/// threads (3x3: milliseconds; 4x4: a few seconds); a finished game needs no table.
///
/// # Errors
/// The table cannot be built (its message).
pub fn small_answer(pos: &Quixo, threads: usize) -> Result<SmallAnswer, String> {
    let game_over = pos.outcome().is_some();
    let table = if game_over {
        None
    } else {
        Some(SmallBoardTable::solve(pos.size(), threads)?)
    };
    let value_of = |p: &Quixo| -> (Value, Option<u32>) {
        match (p.outcome(), &table) {
            (Some(o), _) if o.score(p.to_move()) == 1 => (Value::Win, Some(0)),
            (Some(_), _) => (Value::Loss, Some(0)),
            (None, Some(table)) => {
                let (me, opp) = p.own_other();
                decode(table.code(me, opp))
            }
            (None, None) => unreachable!("the table is built unless the game is over"),
        }
    };
    let (value, plies) = value_of(pos);
    let mut moves = <Quixo as Game>::Moves::default();
    if !game_over {
        pos.generate_moves(&mut moves);
    }
    // A best move: fastest win, slowest loss, or one that keeps the draw.
    let best = moves.iter().copied().find(|&m| {
        let (cv, cd) = value_of(&pos.play(m));
        match value {
            Value::Win => cv == Value::Loss && cd.map(|d| d + 1) == plies,
            Value::Loss => cv == Value::Win && cd.map(|d| d + 1) == plies,
            Value::Draw => cv == Value::Draw,
        }
    });
    Ok(SmallAnswer { value, plies, best })
}
