//! Zobrist keys for Othello: one random 64-bit value per (colour, square), one for White to
//! move. Generated at compile time by SplitMix64 from a fixed seed, so keys are the same in
//! every build and records stay comparable.

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys per square: `[0]` Black disc, `[1]` White disc.
pub(crate) static DISC: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut state = 0x007E_55E4_A007_E110_u64;
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = splitmix64(state);
            state = s;
            t[c][sq] = v;
            sq += 1;
        }
        c += 1;
    }
    t
};

/// `DISC[0][sq] ^ DISC[1][sq]`: toggles a flipped disc's colour.
pub(crate) static FLIP: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = DISC[0][sq] ^ DISC[1][sq];
        sq += 1;
    }
    t
};

/// XORed in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix64(0x0005_EED0_F7E5_5E4A).1;

/// Key of a position from scratch: XOR of the keys of every disc, and of
/// `WHITE_TO_MOVE` when White moves.
#[must_use]
pub fn key_from_scratch(black: u64, white: u64, white_to_move: bool) -> u64 {
    let mut k = if white_to_move { WHITE_TO_MOVE } else { 0 };
    for (c, mut b) in [(0, black), (1, white)] {
        while b != 0 {
            k ^= DISC[c][b.trailing_zeros() as usize];
            b &= b - 1;
        }
    }
    k
}
