//! The eight symmetries of the Othello board (rotations and reflections) applied to a
//! position: the evaluations and the pattern tables are checked to be symmetric with them.

use super::position::Position;

/// The 8 images of a position under the board's symmetries (rotations and reflections),
/// the identity first. Used to check that evaluations are symmetric.
#[must_use]
pub fn symmetric_images(pos: &Position) -> [Position; 8] {
    fn flip_v(b: u64) -> u64 {
        b.swap_bytes()
    }
    fn flip_h(b: u64) -> u64 {
        let k1 = 0x5555_5555_5555_5555u64;
        let k2 = 0x3333_3333_3333_3333u64;
        let k4 = 0x0f0f_0f0f_0f0f_0f0fu64;
        let b = ((b >> 1) & k1) | ((b & k1) << 1);
        let b = ((b >> 2) & k2) | ((b & k2) << 2);
        ((b >> 4) & k4) | ((b & k4) << 4)
    }
    fn transpose(b: u64) -> u64 {
        let k1 = 0x5500_5500_5500_5500u64;
        let k2 = 0x3333_0000_3333_0000u64;
        let k4 = 0x0f0f_0f0f_0000_0000u64;
        let mut b = b;
        let t = k4 & (b ^ (b << 28));
        b ^= t ^ (t >> 28);
        let t = k2 & (b ^ (b << 14));
        b ^= t ^ (t >> 14);
        let t = k1 & (b ^ (b << 7));
        b ^= t ^ (t >> 7);
        b
    }
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
