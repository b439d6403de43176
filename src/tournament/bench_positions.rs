//! The positions of `tessera bench` ([`bench_positions`]): random openings from seed 2026
//! spanning each game, and in Othello also the FFO endgame suite #40-#59.

use std::any::Any;

use super::openings::OpeningSource;
use crate::game::Game;
use crate::games::othello::{self, ffo::ffo_suite};

/// Lengths (plies) of the random openings in the bench, each drawn from seed 2026.
pub const OPENING_PLIES: &[u32] = &[0, 6, 10, 14, 18, 22, 26];

/// Talat's lengths: 0-18 placements (the setup) and 27-55 plies (the play phase).
const TALAT_PLIES: &[u32] = &[0, 9, 18, 27, 35, 45, 55];

/// The bench positions of game `G`, named (`random-N-plies`, `ffo-N`): random openings of
/// [`OPENING_PLIES`] plies from seed 2026 (Talat: through the setup and the play phase),
/// finished ones and lengths the game cannot reach skipped; Othello also has the FFO suite
/// #40-#59.
///
/// # Errors
/// No position at all for a game, or an Othello opening that cannot be built.
pub fn bench_positions<G: Game>() -> Result<Vec<(String, G)>, String> {
    let mut out = Vec::new();
    if let Some(v) = (&mut out as &mut dyn Any).downcast_mut::<Vec<(String, othello::Position)>>() {
        for &n in OPENING_PLIES {
            let o = OpeningSource::RandomPlies(n).opening::<othello::Position>(0, 2026)?;
            v.push((format!("random-{n}-plies"), o.position));
        }
        for p in ffo_suite() {
            v.push((format!("ffo-{}", p.id), p.position));
        }
        return Ok(out);
    }
    let talat = G::ID == "talat" || G::ID == "talat-2p";
    for &n in if talat { TALAT_PLIES } else { OPENING_PLIES } {
        if let Ok(o) = OpeningSource::RandomPlies(n).opening::<G>(0, 2026)
            && o.position.outcome().is_none()
        {
            out.push((format!("random-{n}-plies"), o.position));
        }
    }
    if out.is_empty() && !talat {
        return Err(format!("no bench positions for {}", G::ID));
    }
    Ok(out)
}
