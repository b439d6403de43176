//! The children of a MIN node in best-reply search (BRS and BRS+, see [`super::brs`](mod@super::brs)):
//! the branch position where one opponent replies and the position after its reply. The
//! two-sided search of [`super::paranoid`](mod@super::paranoid) calls these for a BRS MIN node.

use super::SeatEvaluator;
use crate::game::{Game, Seat};

/// Most moves BRS+ walks before a reply, and most moves (the reply included) it plays
/// after a reply until the root seat moves: a guard for games where the root seat could
/// wait for its turn indefinitely.
pub const WALK_LIMIT: usize = 16;

/// BRS branch: `pos` with `seat` to move (`None` if the game cannot give it the turn).
pub(crate) fn brs_branch<G: Game>(pos: &G, seat: Seat) -> Option<G> {
    if pos.to_move() == seat {
        Some(pos.clone())
    } else {
        pos.with_turn(seat)
    }
}

/// BRS: the position after a reply, with the root seat to move unless the game is over
/// (or the game cannot give it the turn, when the real turn order goes on).
pub(crate) fn brs_after<G: Game>(q: G, root: Seat) -> G {
    if q.to_move() == root || q.outcome().is_some() {
        q
    } else {
        q.with_turn(root).unwrap_or(q)
    }
}

/// BRS+: the ordered move in `pos` (highest `move_order`, first generated among equals);
/// `None` when the game is over.
pub(crate) fn ordered_move<G: Game, E: SeatEvaluator<G>>(eval: &E, pos: &G) -> Option<G::Move> {
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    let mut best: Option<(i32, G::Move)> = None;
    for &m in moves.iter() {
        let k = eval.move_order(pos, m);
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((k, m));
        }
    }
    best.map(|(_, m)| m)
}

/// BRS+ branch: from `pos`, the others play their ordered moves until `seat` is to move
/// (`None` if the root seat comes first, the game ends, or [`WALK_LIMIT`] is reached).
pub(crate) fn plus_branch<G: Game, E: SeatEvaluator<G>>(
    eval: &E,
    pos: &G,
    seat: Seat,
    root: Seat,
) -> Option<G> {
    let mut q = pos.clone();
    for _ in 0..WALK_LIMIT {
        let to_move = q.to_move();
        if to_move == root {
            return None;
        }
        if to_move == seat {
            return (q.outcome().is_none()).then_some(q);
        }
        q = q.play(ordered_move(eval, &q)?);
    }
    None
}

/// BRS+: after a reply (one move of the [`WALK_LIMIT`]), the others play their ordered
/// moves until the root seat is to move, the game ends, or the walk limit is reached.
pub(crate) fn plus_after<G: Game, E: SeatEvaluator<G>>(eval: &E, mut q: G, root: Seat) -> G {
    for _ in 1..WALK_LIMIT {
        if q.to_move() == root {
            break;
        }
        match ordered_move(eval, &q) {
            Some(m) => q = q.play(m),
            None => break,
        }
    }
    q
}
