//! Zobrist keys for Talat: one random 64-bit value per (board, side, kind, square), per
//! (capturer seat, victim colour, kind) for captured towers, and per seat to move.
//! Generated at compile time by SplitMix64 from a fixed seed, so keys are the same in every
//! build. Unplaced towers, scores and frozen boards are functions of these, so need no keys.

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const TOWER_KEYS: usize = 3 * 2 * 9 * 25;
const TAKEN_KEYS: usize = 3 * 3 * 9;

const ALL: [u64; TOWER_KEYS + TAKEN_KEYS + 3] = {
    let mut t = [0u64; TOWER_KEYS + TAKEN_KEYS + 3];
    let mut state = 0x7A1A_7000_D1A1_1EE5_u64;
    let mut i = 0;
    while i < t.len() {
        let (s, v) = splitmix64(state);
        state = s;
        t[i] = v;
        i += 1;
    }
    t
};

/// Key of a tower of kind index `kind` on `board`, `side`, square `sq`.
#[inline]
#[must_use]
pub const fn tower(board: usize, side: usize, kind: usize, sq: usize) -> u64 {
    ALL[((board * 2 + side) * 9 + kind) * 25 + sq]
}

/// Key of a tower of colour `victim`, kind index `kind`, captured by seat `capturer`.
#[inline]
#[must_use]
pub const fn taken(capturer: usize, victim: usize, kind: usize) -> u64 {
    ALL[TOWER_KEYS + (capturer * 3 + victim) * 9 + kind]
}

/// Key XORed in while `seat` is to move.
#[inline]
#[must_use]
pub const fn to_move(seat: usize) -> u64 {
    ALL[TOWER_KEYS + TAKEN_KEYS + seat]
}
