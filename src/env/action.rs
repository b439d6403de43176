//! A fixed action space per game: action `a` is the move whose [`MoveCode`] is `a`, so
//! the space is `0..Game::MOVE_CODES` (Othello 65: squares `a1..h8` as 0..64, then the
//! pass; Quixo 1876 and Talat 4426, most of them never legal) and every legal move of every
//! position has one action. A legal mask marks the actions legal in a position.

use crate::game::{Game, MoveCode, MoveError};

/// Number of actions of `G`'s action space.
#[must_use]
pub const fn action_size<G: Game>() -> usize {
    G::MOVE_CODES
}

/// The action of a move.
#[must_use]
pub fn action_of<G: Game>(mv: G::Move) -> usize {
    usize::from(mv.code())
}

/// The move of `action` if it is legal in `pos`.
///
/// # Errors
/// An action outside `0..action_size` or not legal in `pos`: a one-line message naming it.
pub fn legal_move_of<G: Game>(pos: &G, action: i64) -> Result<G::Move, MoveError> {
    let size = action_size::<G>();
    let Some(a) = usize::try_from(action).ok().filter(|&a| a < size) else {
        return Err(MoveError::Action {
            action,
            message: format!(
                "action {action} is outside the action space of {} (0..{size})",
                G::ID
            ),
        });
    };
    let mv = G::Move::from_code(a as u16);
    if pos.outcome().is_some() {
        return Err(MoveError::GameOver {
            text: action.to_string(),
            message: format!("action {action}: the game is over, no move is legal"),
        });
    }
    if !pos.is_legal(mv) {
        return Err(MoveError::Action {
            action,
            message: format!("action {action} ({mv}) is not legal in this position"),
        });
    }
    Ok(mv)
}

/// Writes `pos`'s legal mask into `mask` (length [`action_size`]): `true` at the action
/// of every legal move, `false` elsewhere (all `false` when the game is over).
///
/// # Panics
/// If `mask` has another length (a programming error).
pub fn legal_mask<G: Game>(pos: &G, mask: &mut [bool]) {
    assert_eq!(mask.len(), action_size::<G>(), "legal mask buffer");
    mask.fill(false);
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    for &mv in moves.iter() {
        mask[action_of::<G>(mv)] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{othello, quixo, talat};

    fn round_trip<G: Game>(plies: usize) {
        let mut pos = G::start_seeded(3);
        let mut mask = vec![false; action_size::<G>()];
        for ply in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = G::Moves::default();
            pos.generate_moves(&mut moves);
            legal_mask(&pos, &mut mask);
            assert_eq!(
                mask.iter().filter(|&&b| b).count(),
                moves.len(),
                "{}",
                G::ID
            );
            for &mv in moves.iter() {
                let a = action_of::<G>(mv);
                assert!(mask[a]);
                assert_eq!(legal_move_of(&pos, a as i64), Ok(mv));
            }
            pos = pos.play(moves[(ply * 7) % moves.len()]);
        }
    }

    #[test]
    fn actions_round_trip_every_legal_move() {
        round_trip::<othello::Position>(80);
        round_trip::<quixo::Quixo>(60);
        round_trip::<quixo::Quixo4p>(60);
        round_trip::<talat::Talat>(80);
        round_trip::<talat::Talat2p>(80);
    }

    #[test]
    fn bad_actions_are_named() {
        let pos = othello::Position::start();
        assert_eq!(action_size::<othello::Position>(), 65);
        let action = |action: i64, message: &str| MoveError::Action {
            action,
            message: message.into(),
        };
        assert_eq!(
            legal_move_of(&pos, 65).unwrap_err(),
            action(
                65,
                "action 65 is outside the action space of othello (0..65)"
            )
        );
        assert_eq!(
            legal_move_of(&pos, -1).unwrap_err(),
            action(
                -1,
                "action -1 is outside the action space of othello (0..65)"
            )
        );
        assert_eq!(
            legal_move_of(&pos, 0).unwrap_err(),
            action(0, "action 0 (a1) is not legal in this position")
        );
        let over: othello::Position = format!("{} X", "X".repeat(64)).parse().unwrap();
        assert_eq!(
            legal_move_of(&over, 64).unwrap_err(),
            MoveError::GameOver {
                text: "64".into(),
                message: "action 64: the game is over, no move is legal".into()
            }
        );
        // f5 = rank 5, file f: 4 * 8 + 5.
        assert_eq!(legal_move_of(&pos, 37).unwrap().to_string(), "f5");
    }
}
