//! Talat specifics of the command line (`talat` and `talat-2p`): seat names, the three
//! boards side by side, results in points, and the engines: the multi-player searches
//! (paranoid, max-n, BRS, BRS+) and MCTS for three seats, alpha-beta and MCTS for two.

use tessera::engine::{MultiEngine, Player, talat as tl_engine};
use tessera::game::Game;
use tessera::games::talat::{self as tl, Talat, Talat2p, eval::Eval, eval::Weights};

use super::bestmove::{info_line, mcts_spec};
use super::games::CliGame;
use super::output::{CliError, say};
use super::{Algo, EngineArgs};

/// The weights of `--weights`; default the Texel-tuned ones (tuning/talat-texel.txt,
/// embedded).
fn weights(args: &EngineArgs) -> Result<Weights, CliError> {
    Weights::load(&args.weights_or("builtin:texel")).map_err(CliError::input)
}

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

    fn engine(args: &EngineArgs, verbose: bool) -> Result<Box<dyn Player<Self>>, CliError> {
        let algo = args.algo();
        if algo == Algo::Mcts {
            return Ok(tl_engine::mcts_engine::<false>(&mcts_spec(args, Self::ID)?));
        }
        let multi = algo.multi().ok_or_else(|| {
            CliError::input(format!(
                "--algo {} is not for talat (paranoid, maxn, brs, brs-plus or mcts)",
                algo.name()
            ))
        })?;
        let mut engine = MultiEngine::<Talat, Eval>::new(
            "tessera",
            Eval::new(weights(args)?),
            multi,
            tl::SCORE_UNIT,
            args.tt_mb,
        )
        .map_err(CliError::input)?;
        if verbose {
            engine = engine.with_progress(|info| say(info_line(info, tl::SCORE_UNIT)));
        }
        Ok(Box::new(engine))
    }
}

impl CliGame for Talat2p {
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        bench_positions::<Self>()
    }

    const SEEDED_SETUP: bool = true;
    fn engine(args: &EngineArgs, verbose: bool) -> Result<Box<dyn Player<Self>>, CliError> {
        if args.algo() == Algo::Mcts {
            return Ok(tl_engine::mcts_engine::<true>(&mcts_spec(args, Self::ID)?));
        }
        let mut engine = tl_engine::alphabeta_engine("tessera", weights(args)?, args.tt_mb)
            .with_threads(args.threads as usize);
        if verbose {
            engine = engine.with_progress(|info| say(info_line(info, tl::SCORE_UNIT)));
        }
        Ok(Box::new(engine))
    }
}
