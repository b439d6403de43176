//! Talat specifics of the command line (`talat` and `talat-2p`): the bench positions, which
//! span the setup and the play phase.

use tessera::games::talat::{Talat, Talat2p};

use super::games::CliGame;
use super::output::CliError;

/// Bench positions spanning the game: random openings of 0-18 placements (setup) and of
/// 27-55 plies (play phase), from seed 2026; finished ones are skipped.
fn bench_positions<G: CliGame>() -> Result<Vec<(String, G)>, CliError> {
    let mut out = Vec::new();
    for n in [0u32, 9, 18, 27, 35, 45, 55] {
        if let Ok(o) =
            tessera::tournament::openings::OpeningSource::RandomPlies(n).opening::<G>(0, 2026)
            && o.position.outcome().is_none()
        {
            out.push((format!("random-{n}-plies"), o.position));
        }
    }
    Ok(out)
}

impl CliGame for Talat {
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        bench_positions::<Self>()
    }
}

impl CliGame for Talat2p {
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        bench_positions::<Self>()
    }
}
