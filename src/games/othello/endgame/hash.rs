//! Zobrist keys of the solver's relative boards (side to move first).

/// Zobrist byte tables for the solver's relative boards: `[0..8]` for the bytes of the
/// side to move's bitboard, `[8..16]` for the opponent's. Entry `[i][b]` is the XOR of the
/// per-square keys of the bits set in byte value `b` at byte `i`, so [`hash`] is a Zobrist
/// key (XOR of one random value per occupied square and owner) computed with 16 loads
/// (Edax's `board_get_hash_code` scheme).
static HASH_BYTES: [[u64; 256]; 16] = {
    let mut t = [[0u64; 256]; 16];
    let mut state = 0x00DD_BA11_5EED_u64;
    let mut i = 0;
    while i < 16 {
        // Random key per square (bit j of byte i).
        let mut sq_keys = [0u64; 8];
        let mut j = 0;
        while j < 8 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            sq_keys[j] = z ^ (z >> 31);
            j += 1;
        }
        let mut b = 0;
        while b < 256 {
            let mut k = 0u64;
            let mut j = 0;
            while j < 8 {
                if b >> j & 1 != 0 {
                    k ^= sq_keys[j];
                }
                j += 1;
            }
            t[i][b] = k;
            b += 1;
        }
        i += 1;
    }
    t
};

/// Zobrist key of (`p` to move, `o`) for the solver's table entries. The key is of the
/// relative board (side to move first): the exact value does not depend on the colour.
#[inline]
#[must_use]
pub fn hash(p: u64, o: u64) -> u64 {
    let pb = p.to_le_bytes();
    let ob = o.to_le_bytes();
    let mut h = 0;
    for i in 0..8 {
        h ^= HASH_BYTES[i][pb[i] as usize] ^ HASH_BYTES[8 + i][ob[i] as usize];
    }
    h
}
