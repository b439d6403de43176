//! Talat specifics of the command line (`talat` and `talat-2p`): seat names, the three
//! boards side by side, results in points, and the engines: the multi-player searches
//! (paranoid, max-n, BRS, BRS+) and MCTS for three seats, alpha-beta and MCTS for two.

use tessera::engine::{MultiEngine, Player, talat as tl_engine};
use tessera::game::{Game, Seat};
use tessera::games::talat::{
    self as tl, OUTCOME_SCALE, Position, Talat, Talat2p, eval::Eval, eval::Weights,
    notation::colour_name,
};

use super::bestmove::{info_line, mcts_spec};
use super::games::CliGame;
use super::output::{CliError, say};
use super::{Algo, EngineArgs};

const MOVE_HELP: &str = "Moves: a placement H3@WG:c1 (tower kind T/S/H = triangle/square/hexagon, \
    height 1-3, on a start square of your boards), a step WG:c1-c2 (one square forward or \
    diagonally forward), a capture WG:c2xd2 (forward, diagonally forward or sideways), or pass \
    (played for you when forced). Boards WG, GB, BW; files a..e, rows 1..5. Also 'help', 'quit'.";

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

/// `White 23 points (place 1), Grey 15 points (place 2), ...`: the points of the rules and
/// the places after the tie-break.
fn result_line<const TWO: bool>(pos: &Position<TWO>) -> Option<String> {
    let outcome = pos.outcome()?;
    let parts: Vec<String> = (0..pos.seats())
        .map(|s| {
            format!(
                "{} {} points (place {})",
                colour_name(TWO, s),
                pos.points(s),
                outcome.rank(Seat(s as u8))
            )
        })
        .collect();
    Some(format!("game over: {}", parts.join(", ")))
}

fn result_json<const TWO: bool>(pos: &Position<TWO>) -> Option<serde_json::Value> {
    let outcome = pos.outcome()?;
    let seats: Vec<serde_json::Value> = (0..pos.seats())
        .map(|s| {
            serde_json::json!({
                "seat": s,
                "name": colour_name(TWO, s),
                "points": pos.points(s),
                "place": outcome.rank(Seat(s as u8)),
            })
        })
        .collect();
    Some(serde_json::json!({ "seats": seats }))
}

/// The finished game's margin over the best opponent for the side to move, centi-points.
fn final_margin<const TWO: bool>(pos: &Position<TWO>) -> i32 {
    pos.outcome()
        .map_or(0, |o| o.margin(pos.to_move()) * (100 / OUTCOME_SCALE))
}

impl CliGame for Talat {
    fn bench_positions() -> Result<Vec<(String, Self)>, CliError> {
        bench_positions::<Self>()
    }

    const SCORE_UNIT: &'static str = tl::SCORE_UNIT;
    /// BRS+ first: it led both equal-time tournaments (+47 Elo at 25 ms, +100 at 100 ms
    /// per move, against paranoid, BRS, max-n and MCTS).
    const ALGOS: &'static [Algo] = &[
        Algo::BrsPlus,
        Algo::Paranoid,
        Algo::Maxn,
        Algo::Brs,
        Algo::Mcts,
    ];
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn seat_name(&self, seat: Seat) -> String {
        colour_name(false, seat.index())
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    fn result_text(&self) -> Option<String> {
        result_line(self)
    }

    fn result_json(&self) -> Option<serde_json::Value> {
        result_json(self)
    }

    fn final_score(&self) -> i32 {
        final_margin(self)
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

    const SCORE_UNIT: &'static str = tl::SCORE_UNIT;
    const SEEDED_SETUP: bool = true;
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn seat_name(&self, seat: Seat) -> String {
        colour_name(true, seat.index())
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    fn result_text(&self) -> Option<String> {
        result_line(self)
    }

    fn result_json(&self) -> Option<serde_json::Value> {
        result_json(self)
    }

    fn final_score(&self) -> i32 {
        final_margin(self)
    }

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
