//! The eight symmetries of the Othello board (the dihedral group of the square) on
//! bitboards, and a canonical form of a position under them (opening books store one entry
//! per class of symmetric positions: the start's four first moves are one).
//!
//! Bit `8 * rank + file` is square (file a..h, rank 1..8), a1 = bit 0, as everywhere in
//! tessera. Symmetry `s` (0..8) transposes when bit 2 is set, then mirrors the files
//! (a <-> h) when bit 0 is set, then the ranks (1 <-> 8) when bit 1 is set.

use super::position::Position;

/// Mirrors the files: a <-> h (each byte's bits reversed).
#[must_use]
pub const fn mirror_files(x: u64) -> u64 {
    let k1 = 0x5555_5555_5555_5555;
    let k2 = 0x3333_3333_3333_3333;
    let k4 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & k1) | ((x & k1) << 1);
    let x = ((x >> 2) & k2) | ((x & k2) << 2);
    ((x >> 4) & k4) | ((x & k4) << 4)
}

/// Mirrors the ranks: 1 <-> 8.
#[must_use]
pub const fn mirror_ranks(x: u64) -> u64 {
    x.swap_bytes()
}

/// Transposes: square (file f, rank r) goes to (file r, rank f) (the a1-h8 diagonal stays).
#[must_use]
pub const fn transpose(x: u64) -> u64 {
    // Chess Programming Wiki, "Flip and Mirror": flipDiagA1H8 (same a1 = bit 0 layout).
    let k1 = 0x5500_5500_5500_5500;
    let k2 = 0x3333_0000_3333_0000;
    let k4 = 0x0f0f_0f0f_0000_0000;
    let mut x = x;
    let mut t = k4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = k2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = k1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Applies symmetry `s` (0..8; see the module documentation) to a bitboard.
#[must_use]
pub const fn apply(x: u64, s: u8) -> u64 {
    let mut x = x;
    if s & 4 != 0 {
        x = transpose(x);
    }
    if s & 1 != 0 {
        x = mirror_files(x);
    }
    if s & 2 != 0 {
        x = mirror_ranks(x);
    }
    x
}

/// Applies symmetry `s` to square index `sq` (0..64).
#[must_use]
pub const fn apply_square(sq: u8, s: u8) -> u8 {
    apply(1u64 << sq, s).trailing_zeros() as u8
}

/// The square `sq` comes from under symmetry `s`: `apply_square(unapply_square(sq, s), s)
/// == sq`.
#[must_use]
pub fn unapply_square(sq: u8, s: u8) -> u8 {
    (0..64u8)
        .find(|&from| apply_square(from, s) == sq)
        .unwrap_or(sq)
}

/// The canonical form of (player, opponent) discs: the smallest pair over the eight
/// symmetries, and a symmetry that gives it.
#[must_use]
pub fn canonical(player: u64, opponent: u64) -> ((u64, u64), u8) {
    let mut best = ((player, opponent), 0u8);
    for s in 1..8u8 {
        let pair = (apply(player, s), apply(opponent, s));
        if pair < best.0 {
            best = (pair, s);
        }
    }
    best
}

/// The 8 images of a position under the board's symmetries (rotations and reflections),
/// the identity first. Used to check that evaluations are symmetric.
#[must_use]
pub fn symmetric_images(pos: &Position) -> [Position; 8] {
    use self::{mirror_files as flip_h, mirror_ranks as flip_v};
    let maps: [fn(u64) -> u64; 8] = [
        |b| b,
        flip_v,
        flip_h,
        |b| flip_v(flip_h(b)),
        transpose,
        |b| flip_v(transpose(b)),
        |b| flip_h(transpose(b)),
        |b| flip_v(flip_h(transpose(b))),
    ];
    maps.map(|f| {
        Position::from_colors(f(pos.black()), f(pos.white()), pos.side()).expect("disjoint")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::othello::{Move, Position, Square};

    #[test]
    fn symmetries_move_squares_as_drawn() {
        let sq = |t: &str| Square::parse(t).unwrap().index() as u8;
        let name = |i: u8| Square::new(i).to_string();
        // b1: file b, rank 1.
        assert_eq!(name(apply_square(sq("b1"), 1)), "g1");
        assert_eq!(name(apply_square(sq("b1"), 2)), "b8");
        assert_eq!(name(apply_square(sq("b1"), 3)), "g8");
        assert_eq!(name(apply_square(sq("b1"), 4)), "a2");
        for s in 0..8 {
            for i in 0..64 {
                assert_eq!(apply_square(unapply_square(i, s), s), i);
            }
        }
    }

    #[test]
    fn symmetric_positions_share_a_canonical_form_and_their_moves_map() {
        // The four first moves from the start are one class.
        let start = Position::start();
        let firsts: Vec<(u64, u64)> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|m| {
                let p = start.play(Move::parse(m).unwrap());
                canonical(p.player(), p.opponent()).0
            })
            .collect();
        assert!(firsts.iter().all(|&c| c == firsts[0]));
        // A symmetric image of a position has the image of its legal moves.
        let p = Position::from_transcript("f5d6c3d3c4f4").unwrap();
        for s in 0..8 {
            let (pp, po) = (apply(p.player(), s), apply(p.opponent(), s));
            let image_moves = crate::games::othello::movegen::legal_moves(pp, po);
            assert_eq!(image_moves, apply(p.legal_placements(), s), "symmetry {s}");
        }
    }
}
