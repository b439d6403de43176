//! Quadrant parity of the empty squares: which of the four 4x4 quadrants hold an odd
//! number of empties (endgame move ordering plays there first: the last move in a region
//! is worth having).

pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares of the odd-parity quadrants of `empty`.
#[inline]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    QUADRANT_MASKS[parity_of(empty) as usize]
}

/// Parity word of `empty`: bit q set when quadrant q holds an odd number of empties.
#[inline]
pub(super) fn parity_of(empty: u64) -> u32 {
    let mut parity = 0;
    for (q, &m) in QUADRANTS.iter().enumerate() {
        parity |= ((empty & m).count_ones() & 1) << q;
    }
    parity
}

/// Quadrant bit of each square, XORed into the parity word when the square fills.
pub(super) static QUADRANT_BIT: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << (((sq >> 2) & 1) | ((sq >> 4) & 2));
        sq += 1;
    }
    t
};

/// Union of the quadrants whose bits are set in a parity word.
pub(super) static QUADRANT_MASKS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut w = 0;
    while w < 16 {
        let mut q = 0;
        while q < 4 {
            if w >> q & 1 == 1 {
                t[w] |= QUADRANTS[q];
            }
            q += 1;
        }
        w += 1;
    }
    t
};
