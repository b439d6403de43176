//! Who moves what: the seat controlling each side of each board (the Djinn variant's
//! rules), the turn order around setup, and the seeded setups (rules file, "Setup" and "Two
//! players: the Djinn variant").
//!
//! In `talat` every colour is a seat and moves its own towers. In `talat-2p` Black is the
//! Djinn: White (seat 0) moves the Djinn's towers on `GB` (where the Djinn faces Grey), Grey
//! (seat 1) moves them on `BW` (where it faces White). Whoever moves a tower also scores
//! what it does: its captures and its standing on the goal row.

use super::board::{BoardId, Side};

/// The seat that moves (and scores for) the towers of `side` on `board`.
///
/// Three players: the tower's colour. Two players: the colour, except that the Djinn
/// (Black) on board `b` is moved by the colour not on `b`: `GB` → White, `BW` → Grey.
#[must_use]
pub const fn controller(two_player: bool, board: BoardId, side: Side) -> usize {
    let colour = board.colour(side) as usize;
    if two_player && colour == 2 {
        (board as usize + 2) % 3
    } else {
        colour
    }
}

/// `CONTROLS[two_player][seat]`: bit `board * 2 + side` set for every (board, side) whose
/// towers `seat` moves.
pub const CONTROLS: [[u8; 3]; 2] = {
    let mut t = [[0u8; 3]; 2];
    let mut two = 0;
    while two < 2 {
        let mut b = 0;
        while b < 3 {
            let mut s = 0;
            while s < 2 {
                let side = if s == 0 { Side::Lower } else { Side::Upper };
                let seat = controller(two == 1, BoardId::from_index(b), side);
                t[two][seat] |= 1 << (b * 2 + s);
                s += 1;
            }
            b += 1;
        }
        two += 1;
    }
    t
};

/// The seat to move first after the last placement, placed by `last_placer`.
///
/// - Three players **\[choice\]** (rules file): the turn passes on in rotation, so seat 0
///   (the 27th tower is Black's) — this function is the one place to change it.
/// - Two players (rule): the player who placed the last tower (Grey) moves first.
#[must_use]
pub const fn seat_after_setup(two_player: bool, last_placer: usize) -> usize {
    if two_player { last_placer } else { 0 }
}

/// How the Djinn's towers are set up in `talat-2p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DjinnSetup {
    /// The seed's rule (default): 8 of the 9 Djinn kinds drawn at random, on 8 squares drawn
    /// at random among the Djinn's 10 start squares, from this seed.
    Random(u64),
    /// The published English rules: the players place the Djinn's towers alternately, White
    /// first, 4 each, as ordinary placement moves.
    Chosen,
}

/// How the players' own towers are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerSetup {
    /// The players place them as moves (the rules).
    Chosen,
    /// A random legal setup from this seed (uniform among the legal placements at each
    /// turn), so tournaments can skip placement.
    Random(u64),
}

/// The setup options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupOptions {
    /// The Djinn's setup (ignored by three-player `talat`).
    pub djinn: DjinnSetup,
    /// The players' towers.
    pub towers: TowerSetup,
}

/// The seed of the Djinn setup of `Talat2p::start()`.
pub const DEFAULT_DJINN_SEED: u64 = 0;

impl Default for SetupOptions {
    fn default() -> Self {
        Self {
            djinn: DjinnSetup::Random(DEFAULT_DJINN_SEED),
            towers: TowerSetup::Chosen,
        }
    }
}

/// SplitMix64: the setup's random numbers (setup only; search never draws).
#[derive(Clone, Debug)]
pub struct SetupRng(u64);

impl SetupRng {
    /// A generator from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the modulo bias is below 2^-58 for n <= 90).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The Djinn's random setup from `seed`: 8 (kind index, board, square index) triples, the
/// kinds 8 distinct of 9 and the squares 8 distinct of the Djinn's 10 start squares
/// (`GB` row 5 and `BW` row 1).
#[must_use]
pub fn random_djinn(seed: u64) -> [(usize, BoardId, usize); 8] {
    let mut rng = SetupRng::new(seed);
    let mut kinds: [usize; 9] = std::array::from_fn(|i| i);
    let mut squares: [(BoardId, usize); 10] = std::array::from_fn(|i| {
        if i < 5 {
            (BoardId::GB, 20 + i)
        } else {
            (BoardId::BW, i - 5)
        }
    });
    rng.shuffle(&mut kinds);
    rng.shuffle(&mut squares);
    std::array::from_fn(|i| (kinds[i], squares[i].0, squares[i].1))
}
