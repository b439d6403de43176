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
use crate::game::Game;

pub use super::brs_moves::WALK_LIMIT;

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
