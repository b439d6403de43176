//! Fast Othello perft on raw bitboards, bulk-counting at the last ply: two plies above the
//! leaves, the children's legal moves are counted four positions per vector.
//!
//! Convention ("mode 1" of Aart Bik and Egaroucid, `tests/data/othello/perft.txt`): a pass
//! is a move and consumes a ply; a finished game is a leaf counted at every depth at or
//! below the ply where it ended.

use super::movegen::{flips, legal_moves, legal_moves_x4};
use super::position::Position;

/// Leaves of the game tree `depth` plies below `pos`.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_raw(pos.player(), pos.opponent(), depth)
}

/// Perft on (`p` to move, `o`), `depth >= 1`.
fn perft_raw(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 2 {
        return perft_2(p, o);
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        // Pass if the opponent can move, else the game is over: a leaf either way at depth 1.
        if depth == 1 || legal_moves(o, p) == 0 {
            return 1;
        }
        return perft_raw(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += perft_raw(o ^ f, p ^ f ^ (1u64 << sq), depth - 1);
    }
    n
}

/// Leaves one ply below a position with the legal moves `moves`: their count, or 1 when
/// there is none (a pass or the end of the game, a leaf either way).
#[inline(always)]
fn leaves_1(moves: u64) -> u64 {
    u64::from(moves.count_ones().max(1))
}

/// Perft 2 on (`p` to move, `o`): each child's leaves are its legal moves counted
/// ([`leaves_1`]), the children's moves four at a time by one [`legal_moves_x4`] vector
/// (one or two children left over one by one).
fn perft_2(p: u64, o: u64) -> u64 {
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        // The pass (or the end of the game) consumes the ply: the opponent's moves are
        // the leaves.
        return leaves_1(legal_moves(o, p));
    }
    let mut n = 0;
    let mut cp = [0u64; 4];
    let mut co = [0u64; 4];
    loop {
        let mut k = 0;
        while moves != 0 && k < 4 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            cp[k] = o ^ f;
            co[k] = p ^ f ^ (1u64 << sq);
            k += 1;
        }
        if k < 3 {
            for i in 0..k {
                n += leaves_1(legal_moves(cp[i], co[i]));
            }
        } else {
            // Lanes past `k` hold earlier children and are not counted.
            let m = legal_moves_x4(&cp, &co);
            for &mi in &m[..k] {
                n += leaves_1(mi);
            }
        }
        if moves == 0 {
            return n;
        }
    }
}

/// Perft with the children of the root counted in parallel threads is left to the search
/// layer's thread pool; this function splits the root moves for callers that want it:
/// returns `(move, leaves)` for each root move in square order (a pass appears as the
/// single entry when forced).
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(super::position::Move, u64)> {
    use crate::game::Game;
    let mut moves = <Position as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            (
                m,
                if depth == 0 {
                    1
                } else {
                    perft(&pos.play(m), depth - 1)
                },
            )
        })
        .collect()
}
