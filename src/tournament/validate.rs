//! Checks of game records against their tournament before anything counts them (on resume,
//! `tournament report` and `tournament merge`): a record edited by hand, written by another
//! tournament or by a broken run is refused with the file line that holds it, instead of
//! being counted silently (a line edited to `points [1, 1]` was scored, and the
//! pool's scores summed to 105 %).
//!
//! Every record must name the tournament's game and seed; its id must be in the schedule,
//! with the schedule's block, round and engines in the schedule's seat order; its points
//! must follow from its places (team points shared in team games); its start must be the
//! opening of its round; its moves must replay legally from there; and the replayed end must
//! agree with the recorded reason: a finished game for `normal` (with the recorded scores and
//! places), the ply cap for `ply-cap`, a third occurrence for `repetition`, an unfinished
//! game lost by the seat to move for forfeits (`time-forfeit` with its `overrun_ms`), and an
//! unfinished game for adjudications (`adjudicated-exact`: the position re-solved to the
//! recorded scores, and places that follow from them; `adjudicated-resign`: one side last;
//! `adjudicated-draw`: equal places). The per-move fields (`move_stats`, `move_ms`,
//! `clock_ms`) must be empty or hold one entry per move, and every duration (the game's
//! `seconds`, each move's) must be finite, 0 to [`MAX_SECONDS`], so no report sums them
//! to an infinity. A reason must be one the tournament can produce:
//! adjudications only under their `--adjudicate` rule, `engine-error` and `illegal-move`
//! only against an external program, `time-forfeit` only against an engine with a clock.

use std::path::Path;

use rayon::prelude::*;

use super::adjudicate::{ExactAttempt, ExactSolve};
use super::record::{GameRecord, Reason};
use super::schedule;
use super::settings::Settings;
use crate::engine::Protocol;
use crate::game::{Game, Seat};

/// A reason as records spell it (`engine-error`).
fn reason_name(reason: Reason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// Checks every `(line, record)` of the file `path` against `settings`; `exact` is the
/// game's solver, which re-solves exact adjudications. Returns a note for people when the
/// tournament's openings file is missing or changed since: each round's records are then
/// checked against the opening the round's first record names (they must all start from
/// it), not against the file.
///
/// # Errors
/// The first inconsistent record, as `FILE:LINE: game ID: what is wrong`.
pub fn check_records<G: Game>(
    settings: &Settings,
    path: &Path,
    records: &[(usize, GameRecord)],
    exact: Option<&ExactSolve<G>>,
) -> Result<Option<String>, String> {
    let mut openings: std::collections::HashMap<usize, super::openings::Opening<G>> =
        std::collections::HashMap::new();
    // An openings file that can no longer be read as it was: the records speak for it.
    let mut note = None;
    if let super::openings::OpeningSource::File(f) = &settings.openings
        && !records.is_empty()
        && let Err(e) = super::openings_file::index(f, super::openings::MAX_OPENINGS_FILE)
    {
        note = Some(format!(
            "note: {e}; each round's games were checked against each other, not against it"
        ));
    }
    let order =
        settings
            .openings
            .line_order(settings.openings_order, settings.seed, settings.rounds);
    let plan = Plan::new::<G>(settings);
    let at = |line: usize, r: &GameRecord, e: String| {
        format!(
            "{}:{line}: game {}: {e}; the file was edited or written by another tournament",
            path.display(),
            r.id
        )
    };
    // The schedule and the openings first, in file order (cheap); then the replays and
    // re-solves on every core, the first failure in file order reported.
    for (line, r) in records {
        plan.check(settings, r).map_err(|e| at(*line, r, e))?;
        if let std::collections::hash_map::Entry::Vacant(e) = openings.entry(r.round) {
            let opening = if note.is_some() {
                G::parse_opening(&r.opening)
                    .map(|(root, moves)| {
                        super::openings::Opening::new(r.opening.clone(), root, moves)
                    })
                    .map_err(|e| at(*line, r, format!("opening '{}': {e}", r.opening)))?
            } else {
                settings
                    .openings
                    .opening_in::<G>(r.round, settings.seed, order.as_deref())?
            };
            e.insert(opening);
        }
    }
    let failure = records.par_iter().find_map_first(|(line, r)| {
        check_record(settings, &openings[&r.round], r, exact)
            .err()
            .map(|e| at(*line, r, e))
    });
    failure.map_or(Ok(note), Err)
}

/// The schedule of a tournament, enough to say which engines play game `id` in which
/// seats (as `runner` schedules it: by sides, team seats filled by their team's engine).
struct Plan {
    /// Seat -> side (team) of the game's seats.
    team_of_seat: Vec<u8>,
    /// Sides of the schedule.
    sides: usize,
    /// Groups of engine indices that meet.
    groups: Vec<Vec<usize>>,
}

impl Plan {
    fn new<G: Game>(settings: &Settings) -> Self {
        let start = G::start();
        let team_of_seat: Vec<u8> = (0..start.seats())
            .map(|s| start.team(Seat(s as u8)))
            .collect();
        let sides = team_of_seat
            .iter()
            .map(|&t| usize::from(t) + 1)
            .max()
            .unwrap_or(0);
        let groups = if settings.engines.len() >= sides && sides > 0 {
            schedule::groups(settings.engines.len(), sides, settings.format)
        } else {
            Vec::new()
        };
        Self {
            team_of_seat,
            sides,
            groups,
        }
    }

    /// Checks the record's id, block, round and engines (in seat order) against the
    /// schedule.
    fn check(&self, settings: &Settings, r: &GameRecord) -> Result<(), String> {
        let total = self
            .groups
            .len()
            .saturating_mul(settings.rounds)
            .saturating_mul(self.sides);
        if r.id >= total {
            return Err(format!(
                "id {} is outside the schedule of {total} games ({})",
                r.id,
                id_range(total)
            ));
        }
        let block = r.id / self.sides;
        let rotation = r.id % self.sides;
        let round = block / self.groups.len();
        let group = &self.groups[block % self.groups.len()];
        if r.block != block || r.round != round {
            return Err(format!(
                "block {} and round {} do not match the schedule's block {block} and round \
                 {round} of game {}",
                r.block, r.round, r.id
            ));
        }
        let expected: Vec<&str> = self
            .team_of_seat
            .iter()
            .map(|&t| {
                settings.engines[group[(usize::from(t) + rotation) % self.sides]]
                    .name
                    .as_str()
            })
            .collect();
        if r.engines != expected {
            return Err(format!(
                "engines {:?} are not the schedule's {expected:?} (in seat order)",
                r.engines
            ));
        }
        Ok(())
    }
}

/// The ids of a schedule of `total` games, for messages: `ids 0-7`, `id 0`, `no ids`.
#[must_use]
pub fn id_range(total: usize) -> String {
    match total {
        0 => "no ids".into(),
        1 => "id 0".into(),
        n => format!("ids 0-{}", n - 1),
    }
}

/// Checks one record (see the module documentation).
///
/// # Errors
/// What is wrong with it, in a few words.
pub fn check_record<G: Game>(
    settings: &Settings,
    opening: &super::openings::Opening<G>,
    r: &GameRecord,
    exact: Option<&ExactSolve<G>>,
) -> Result<(), String> {
    if r.game != settings.game {
        return Err(format!(
            "is a record of {}, not of this tournament's {}",
            r.game, settings.game
        ));
    }
    if r.seed != settings.seed {
        return Err(format!(
            "seed {} in a tournament with seed {}",
            r.seed, settings.seed
        ));
    }
    let seats = opening.position.seats();
    if r.engines.len() != seats || r.points.len() != seats || r.ranks.len() != seats {
        return Err(format!(
            "{} engines, {} points and {} places for a game of {seats} seats",
            r.engines.len(),
            r.points.len(),
            r.ranks.len()
        ));
    }
    if let Some(e) = r
        .engines
        .iter()
        .find(|e| !settings.engines.iter().any(|s| &s.name == *e))
    {
        return Err(format!("engine '{e}' is not in tournament.json"));
    }
    if r.ranks.iter().any(|&k| k == 0 || k > seats) {
        return Err(format!("places {:?} are not 1..={seats}", r.ranks));
    }
    let mut expected = r.clone();
    expected.points = GameRecord::points_from_ranks(&r.ranks);
    expected.share_team_points();
    if r.points.len() != expected.points.len()
        || r.points
            .iter()
            .zip(&expected.points)
            .any(|(a, b)| (a - b).abs() > 1e-9)
    {
        return Err(format!(
            "points {:?} do not follow from places {:?} (expected {:?})",
            r.points, r.ranks, expected.points
        ));
    }
    if !is_duration(r.seconds) {
        return Err(format!(
            "seconds is {}: not a duration of 0 to {MAX_SECONDS} s",
            number(r.seconds)
        ));
    }
    if r.start != opening.position.to_string() {
        return Err(format!(
            "start '{}' is not the opening of round {} ('{}')",
            r.start, r.round, opening.position
        ));
    }
    let rules = &settings.adjudicate;
    // Replay, counting positions since the opening's root for repetitions.
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    let mut p = opening.root.clone();
    *seen.entry(p.key()).or_default() += 1;
    for &m in &opening.moves {
        p = p.play(m);
        *seen.entry(p.key()).or_default() += 1;
    }
    let mut last_count = 0;
    for (i, text) in r.moves.iter().enumerate() {
        if p.outcome().is_some() {
            return Err(format!(
                "move {} ({text}) comes after the game ended",
                i + 1
            ));
        }
        let m = p
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}) does not parse: {e}", i + 1))?;
        if !p.is_legal(m) {
            return Err(format!("move {} ({text}) is illegal", i + 1));
        }
        p = p.play(m);
        let c = seen.entry(p.key()).or_default();
        *c += 1;
        last_count = *c;
    }
    let n = seats;
    let all = |k: usize| vec![k; n];
    let end = p.outcome();
    match r.reason {
        Reason::Normal => {
            let Some(o) = end else {
                return Err("reason normal, but the moves do not end the game".into());
            };
            let ranks: Vec<usize> = (0..n).map(|s| o.rank(Seat(s as u8))).collect();
            let scores: Vec<i32> = (0..n).map(|s| o.score(Seat(s as u8))).collect();
            if ranks != r.ranks || scores != r.scores {
                return Err(format!(
                    "the moves end with scores {scores:?} and places {ranks:?}, the record says \
                     {:?} and {:?}",
                    r.scores, r.ranks
                ));
            }
        }
        Reason::PlyCap => {
            if end.is_some() || r.moves.len() != settings.max_plies || r.ranks != all(1) {
                return Err(format!(
                    "a ply-cap draw needs {} moves without an end and equal places",
                    settings.max_plies
                ));
            }
        }
        Reason::Repetition => {
            if !G::REPETITION_DRAWS || end.is_some() || last_count < 3 || r.ranks != all(1) {
                return Err(
                    "a repetition draw needs the last position's third occurrence and equal places"
                        .into(),
                );
            }
        }
        Reason::AdjudicatedExact => {
            // The rules must not have ended the game, the places must follow from the
            // solved scores, and the position must solve to them.
            if end.is_some() {
                return Err("an exact adjudication recorded after the game ended".into());
            }
            if r.scores.len() != n {
                return Err(format!(
                    "an exact adjudication needs {n} solved scores, the record has {}",
                    r.scores.len()
                ));
            }
            let ranks: Vec<usize> = r
                .scores
                .iter()
                .map(|&x| 1 + r.scores.iter().filter(|&&y| y > x).count())
                .collect();
            if ranks != r.ranks {
                return Err(format!(
                    "solved scores {:?} give places {ranks:?}, the record says {:?}",
                    r.scores, r.ranks
                ));
            }
            // The solve is repeated (the same node budget gives the same answer): the
            // record's scores must be the position's.
            let solved = match (exact, rules.exact) {
                (Some(ex), Some(limit)) => Some(((ex.solve)(&p, limit), limit)),
                (None, Some(_)) => return Err(format!("{} has no exact solver", settings.game)),
                // Refused below: the tournament has no exact rule.
                (_, None) => None,
            };
            solved.map_or(Ok(()), |(attempt, limit)| match attempt {
                ExactAttempt::Solved(scores) if scores == r.scores => Ok(()),
                ExactAttempt::Solved(scores) => Err(format!(
                    "the adjudicated position solves to scores {scores:?}, the record says {:?}",
                    r.scores
                )),
                ExactAttempt::NotYet | ExactAttempt::GiveUp => Err(format!(
                    "an exact adjudication of a position the solver does not settle at \
                     exact={limit}"
                )),
            })?;
        }
        Reason::AdjudicatedDraw => {
            if end.is_some() || r.ranks != all(1) {
                return Err("an adjudicated draw needs an unfinished game and equal places".into());
            }
        }
        Reason::AdjudicatedResign => {
            if end.is_some() {
                return Err("a resignation recorded after the game ended".into());
            }
            // Either side may be the one both engines' scores gave up on.
            let loses = |loser: usize| -> Vec<usize> {
                (0..n)
                    .map(|s| {
                        if p.team(Seat(s as u8)) == p.team(Seat(loser as u8)) {
                            n
                        } else {
                            1
                        }
                    })
                    .collect()
            };
            if !(0..n).any(|s| loses(s) == r.ranks) {
                return Err(format!(
                    "places {:?} are not one side's resignation",
                    r.ranks
                ));
            }
        }
        Reason::IllegalMove | Reason::EngineError | Reason::TimeForfeit => {
            if end.is_some() {
                return Err("a forfeit recorded after the game ended".into());
            }
            if (r.reason == Reason::TimeForfeit) != r.overrun_ms.is_some() {
                return Err("overrun_ms belongs to time forfeits and only to them".into());
            }
            // The seat to move forfeits; before the first move it may be any seat (an
            // engine that could not start).
            let forfeit_by = |loser: Seat| -> Vec<usize> {
                (0..n)
                    .map(|s| {
                        if p.team(Seat(s as u8)) == p.team(loser) {
                            n
                        } else {
                            1
                        }
                    })
                    .collect()
            };
            let loser = p.to_move();
            let ranks = forfeit_by(loser);
            let any_seat =
                r.moves.is_empty() && (0..n).any(|s| forfeit_by(Seat(s as u8)) == r.ranks);
            if ranks != r.ranks && !any_seat {
                return Err(format!(
                    "a forfeit by seat {} (to move) gives places {ranks:?}, the record says {:?}",
                    loser.index(),
                    r.ranks
                ));
            }
            // Only an external program crashes, hangs or plays an illegal move; only an
            // engine with a clock loses on time.
            let lost = r.ranks.iter().position(|&k| k == n).unwrap_or(0);
            let spec = settings.engines.iter().find(|e| e.name == r.engines[lost]);
            let possible = spec.is_some_and(|e| match r.reason {
                Reason::TimeForfeit => e.seat_clock().is_some(),
                _ => e.protocol == Protocol::Gtp,
            });
            if !possible {
                return Err(format!(
                    "reason {} for engine '{}', which {}",
                    reason_name(r.reason),
                    r.engines[lost],
                    if r.reason == Reason::TimeForfeit {
                        "has no clock"
                    } else {
                        "is built in (only an external program fails so)"
                    }
                ));
            }
        }
    }
    let (enabled, rule) = match r.reason {
        Reason::AdjudicatedExact => (rules.exact.is_some(), "exact=N"),
        Reason::AdjudicatedResign => (rules.resign.is_some(), "resign=SCORE,MOVES"),
        Reason::AdjudicatedDraw => (rules.draw.is_some(), "draw=SCORE,MOVES"),
        _ => (true, ""),
    };
    if !enabled {
        return Err(format!(
            "reason {} in a tournament without --adjudicate {rule}",
            reason_name(r.reason)
        ));
    }
    check_per_move(r)
}

/// The longest duration a record may hold, seconds (10^7 s, about 116 days), for a game
/// (`seconds`) and for one move (`move_stats` seconds, `move_ms`): no tournament plays a
/// longer one, and sums and means over a million games of a thousand such moves stay
/// finite (and within `u64` milliseconds).
pub const MAX_SECONDS: f64 = 1e7;

/// Whether `s` is a duration a record may hold: finite, 0 to [`MAX_SECONDS`].
fn is_duration(s: f64) -> bool {
    s.is_finite() && (0.0..=MAX_SECONDS).contains(&s)
}

/// A number as the record's JSON spells it (`1e308`, `-5.0`), for messages.
fn number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| x.to_string())
}

/// Checks the per-move fields: `move_stats`, `move_ms` and `clock_ms` each empty (records
/// written before the field existed, or `clock_ms` without clocks) or one entry per move of
/// `moves`, as the runner writes them; every `move_stats` seconds a duration and every
/// `move_ms` at most [`MAX_SECONDS`].
///
/// # Errors
/// The field, the entry and its value.
fn check_per_move(r: &GameRecord) -> Result<(), String> {
    let n = r.moves.len();
    for (field, len) in [
        ("move_stats", r.move_stats.len()),
        ("move_ms", r.move_ms.len()),
        ("clock_ms", r.clock_ms.len()),
    ] {
        if len != 0 && len != n {
            return Err(format!(
                "{field} has {len} entries for {n} moves (one per move, or none)"
            ));
        }
    }
    let at = |k: usize| format!("move {}, {}", k + 1, r.moves[k]);
    if let Some(k) = r.move_stats.iter().position(|s| !is_duration(s.seconds)) {
        return Err(format!(
            "move_stats[{k}].seconds is {} ({}): not a duration of 0 to {MAX_SECONDS} s",
            number(r.move_stats[k].seconds),
            at(k)
        ));
    }
    if let Some(k) = r
        .move_ms
        .iter()
        .position(|&ms| ms as f64 > MAX_SECONDS * 1e3)
    {
        return Err(format!(
            "move_ms[{k}] is {} ({}): more than {} ms",
            r.move_ms[k],
            at(k),
            MAX_SECONDS * 1e3
        ));
    }
    Ok(())
}
