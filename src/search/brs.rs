//! Best-reply search (Schadd & Winands, "Best Reply Search for Multiplayer Games", IEEE
//! TCIAIG 3(1), 2011) and BRS+ (Esser, Gras, Winands, Schadd & Lanctot, "Improving Best-Reply
//! Search", CG 2013).
//!
//! The root seat's MAX layers alternate with one MIN layer in which all opponents' moves
//! are merged: only the strongest reply among all opponents is played. The search runs on
//! the two-sided alpha-beta of [`super::paranoid`](mod@super::paranoid) (same table, ordering and limits); only
//! the children of a MIN node differ:
//!
//! - a MAX node is a position where the root seat moves; its children are its real moves;
//! - at a MIN node (a position where an opponent moves), each opponent `o` gets a *branch
//!   position* where it is `o`'s turn, every move of `o` there is a child, and the child
//!   position is where the root seat moves next;
//! - **BRS**: the branch is the position itself with `o` to move ([`Game::with_turn`]: the
//!   other opponents pass virtually); after `o`'s move the turn goes to the root seat
//!   (again through `with_turn`), unless the game is over;
//! - **BRS+**: the opponents keep the real turn order; the ones before `o` play their
//!   *ordered move* (the highest [`SeatEvaluator::move_order`], the first generated among
//!   equals), then `o` replies, then the ones after it play their ordered moves until the
//!   root seat is to move or the game ends. Only [`Game::play`] is needed, so BRS+ works for
//!   every game. An opponent that does not come to move before the root seat (within
//!   [`WALK_LIMIT`] moves) gives no reply.
//!
//! Depth counts layers: a MIN layer is one ply, however many moves BRS+ walks in it.
//! The PV lists the root seat's moves and the best replies (BRS+ omits the ordered moves
//! between them), so it is a line of the search model, not always a legal move sequence.

use super::multi::{MultiAlgo, Unsupported, brs_unsupported, supports_brs};
use super::paranoid::run_two_sided;
use super::tt::TranspositionTable;
use super::{Limits, SearchInfo, SearchResult, SeatEvaluator};
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

/// Best-reply search from `pos` for its seat to move within `limits`, calling
/// `on_iteration` after each finished depth. Scores, table and PV as in
/// [`super::paranoid()`].
///
/// # Errors
/// [`Unsupported`] when the game does not implement [`Game::with_turn`].
pub fn brs<G: Game, E: SeatEvaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> Result<SearchResult<G::Move>, Unsupported> {
    if pos.outcome().is_none() && !supports_brs(pos) {
        return Err(brs_unsupported::<G>());
    }
    Ok(run_two_sided(
        MultiAlgo::Brs,
        pos,
        eval,
        tt,
        limits,
        on_iteration,
    ))
}

/// BRS+ from `pos` for its seat to move within `limits` (any game), calling
/// `on_iteration` after each finished depth. Scores, table and PV as in
/// [`super::paranoid()`].
pub fn brs_plus<G: Game, E: SeatEvaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    run_two_sided(MultiAlgo::BrsPlus, pos, eval, tt, limits, on_iteration)
}
