//! Zobrist keys for Quixo: one random 64-bit value per (symbol, cell), one per cell for a
//! dot pointing at team member 2 (four-player game), one per seat to move (seat 0 has
//! none). Generated at compile time by SplitMix64 from a fixed seed, so keys are the same
//! in every build. Cells are bit indices of the board's own size (positions of different
//! sizes are never compared).

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn table() -> [[u64; 25]; 3] {
    let mut t = [[0u64; 25]; 3];
    let mut state = 0x0051_C0DE_0001_C0DE_u64;
    let mut k = 0;
    while k < 3 {
        let mut c = 0;
        while c < 25 {
            let (s, v) = splitmix64(state);
            state = s;
            t[k][c] = v;
            c += 1;
        }
        k += 1;
    }
    t
}

static TABLE: [[u64; 25]; 3] = table();

/// Keys per cell: `[0]` an X cube, `[1]` an O cube, `[2]` a dot pointing at member 2.
pub(crate) static CUBE: [[u64; 25]; 2] = [TABLE[0], TABLE[1]];
/// Keys per cell for a dot pointing at team member 2.
pub(crate) static DOT: [u64; 25] = TABLE[2];

/// Key of each seat to move (seat 0: none).
pub(crate) const SEAT: [u64; 4] = [
    0,
    splitmix64(0x5EA7_0001).1,
    splitmix64(0x5EA7_0002).1,
    splitmix64(0x5EA7_0003).1,
];

/// XOR of `keys[c]` over the set bits `c` of `m`.
#[inline(always)]
pub(crate) fn fold(keys: &[u64; 25], mut m: u32) -> u64 {
    let mut k = 0;
    while m != 0 {
        k ^= keys[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    k
}

/// Key of a position from scratch: every X cube, O cube and member-2 dot, and the seat.
#[must_use]
pub fn key_from_scratch(x: u32, o: u32, dots: u32, seat: u8) -> u64 {
    fold(&CUBE[0], x) ^ fold(&CUBE[1], o) ^ fold(&DOT, dots) ^ SEAT[seat as usize]
}
