//! How accurate an engine's suggestions are, measured against exact scores: for each
//! position of a truth set (every legal move with its exact score), the move the engine
//! chooses and its root score, compared with the truth.
//!
//! Per position, in the truth's unit (Othello: discs of final disc difference):
//! - *best move*: the chosen move's exact score is the position's (the best move's);
//! - *loss*: the best score minus the chosen move's (0 for a best move);
//! - *error*: the engine's root score minus the position's exact score (positive: the engine
//!   thought the side to move better off than it is).
//!
//! Summed per bucket (Othello: the number of empties) and overall by [`Tally`]. The engine
//! is any [`Player`]; each position starts a new game ([`Player::new_game`]: a cleared
//! table), so a position's result does not depend on the ones before it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{EngineSpec, Player, Players};
use crate::game::Game;
use crate::games::othello::Position;
use crate::search::Limits;

/// The engine measured when none is named: the `othello-best-t100` preset.
pub const DEFAULT_ENGINE: &str = "othello-best-t100";

/// Per-move limits and threads put over an engine's own (as `gtp --depth/--time-ms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Depth, plies. With `time_ms` or alone, it replaces the engine's limits.
    pub depth: Option<u32>,
    /// Time per move, milliseconds. With `depth` or alone, it replaces the engine's limits.
    pub time_ms: Option<u64>,
    /// Search threads.
    pub threads: Option<usize>,
}

/// The engine `engine` names for `game` (an inline spec when it holds `=`, else a preset
/// name or `.toml` file, [`EngineSpec::resolve`]) with `o` over it: a depth or a time
/// replaces the spec's depth, nodes, time and level together, so `--depth 15` alone is a
/// fixed-depth search; the spec's exact-empties, evaluation, Multi-ProbCut and table stay.
///
/// # Errors
/// An unknown or invalid engine, or one for another game.
pub fn resolve_spec(engine: &str, game: &str, o: Overrides) -> Result<EngineSpec, String> {
    let mut spec = if engine.contains('=') {
        EngineSpec::from_inline(engine, game)
    } else {
        EngineSpec::resolve(engine)
    }?;
    if spec.game != game {
        return Err(format!(
            "engine '{}' plays {}, not {game}",
            spec.name, spec.game
        ));
    }
    if o.depth.is_some() || o.time_ms.is_some() {
        spec.depth = o.depth;
        spec.time_ms = o.time_ms;
        spec.nodes = None;
        spec.level = None;
    }
    if let Some(t) = o.threads {
        spec.threads = Some(t);
    }
    Ok(spec)
}

/// One position of a truth set.
#[derive(Clone, Debug)]
pub struct TruthPosition<G: Game> {
    /// Where it came from (a file's line number, from 1).
    pub line: usize,
    /// The position (not finished).
    pub position: G,
    /// Every legal move with its exact score, side to move's view, truth unit.
    pub scores: Vec<(G::Move, i32)>,
}

impl<G: Game> TruthPosition<G> {
    /// The position's exact score: its best move's.
    #[must_use]
    pub fn best_score(&self) -> i32 {
        self.scores.iter().map(|&(_, s)| s).max().unwrap_or(0)
    }

    /// The exact score of `mv`, if it is one of the scored moves.
    #[must_use]
    pub fn score_of(&self, mv: G::Move) -> Option<i32> {
        self.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// The engine's answer on one position, compared with the truth.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The truth's line number.
    pub line: usize,
    /// The bucket (Othello: empties).
    pub bucket: u32,
    /// The chosen move's text.
    pub chosen: String,
    /// Its exact score.
    pub chosen_score: i32,
    /// The position's exact score.
    pub best_score: i32,
    /// The engine's root score, truth unit.
    pub engine_score: f64,
    /// Whether the engine reported its score exact (solved to the end).
    pub exact: bool,
    /// Depth the engine reached, plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the move took.
    pub seconds: f64,
}

impl Answer {
    /// Whether the chosen move is a best one.
    #[must_use]
    pub fn best_found(&self) -> bool {
        self.chosen_score == self.best_score
    }

    /// Best score minus the chosen move's (0 or more).
    #[must_use]
    pub fn loss(&self) -> i32 {
        self.best_score - self.chosen_score
    }

    /// Engine score minus the exact score.
    #[must_use]
    pub fn error(&self) -> f64 {
        self.engine_score - f64::from(self.best_score)
    }
}

/// Sums over a group of answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions.
    pub positions: u64,
    /// Of those, where a best move was chosen.
    pub best_found: u64,
    /// Sum of the losses.
    pub loss: f64,
    /// Sum of the absolute errors.
    pub abs_error: f64,
    /// Sum of the signed errors.
    pub signed_error: f64,
    /// Answers with an absolute error of at most 3.
    pub within_3: u64,
    /// Answers with an absolute error of at most 6.
    pub within_6: u64,
    /// Nodes.
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
}

impl Tally {
    /// Adds one answer.
    pub fn add(&mut self, a: &Answer) {
        let e = a.error();
        self.positions += 1;
        self.best_found += u64::from(a.best_found());
        self.loss += f64::from(a.loss());
        self.abs_error += e.abs();
        self.signed_error += e;
        self.within_3 += u64::from(e.abs() <= 3.0);
        self.within_6 += u64::from(e.abs() <= 6.0);
        self.nodes += a.nodes;
        self.seconds += a.seconds;
    }

    /// The rates and means of the group.
    #[must_use]
    pub fn summary(&self) -> Summary {
        let n = self.positions.max(1) as f64;
        Summary {
            positions: self.positions,
            best_move_pct: 100.0 * self.best_found as f64 / n,
            mean_loss: self.loss / n,
            mae: self.abs_error / n,
            within_3_pct: 100.0 * self.within_3 as f64 / n,
            within_6_pct: 100.0 * self.within_6 as f64 / n,
            mean_signed_error: self.signed_error / n,
            nodes: self.nodes,
            seconds: self.seconds,
            nps: self.nodes as f64 / self.seconds.max(1e-9),
        }
    }
}

/// A group's rates and means (what `tessera accuracy` prints).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Positions.
    pub positions: u64,
    /// Best move found, percent.
    pub best_move_pct: f64,
    /// Mean loss of the chosen move, truth unit.
    pub mean_loss: f64,
    /// Mean absolute error of the score, truth unit.
    pub mae: f64,
    /// Scores within 3 of the truth, percent.
    pub within_3_pct: f64,
    /// Scores within 6 of the truth, percent.
    pub within_6_pct: f64,
    /// Mean signed error (positive: optimistic for the side to move), truth unit.
    pub mean_signed_error: f64,
    /// Nodes.
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
}

/// Every answer, with the tallies per bucket and overall.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The answers in truth order.
    pub answers: Vec<Answer>,
    /// Tally per bucket, by bucket.
    pub buckets: BTreeMap<u32, Tally>,
    /// Tally of every answer.
    pub overall: Tally,
}

impl Report {
    /// Adds an answer to its bucket and the overall tally.
    pub fn add(&mut self, a: Answer) {
        self.buckets.entry(a.bucket).or_default().add(&a);
        self.overall.add(&a);
        self.answers.push(a);
    }
}

/// Asks `player` for a move in each position of `truth` within `limits` and compares.
/// `scale` is the engine's score unit per truth unit (Othello: 100 centi-discs a disc);
/// `bucket` groups the positions (Othello: empties); `on_answer` sees each answer as it
/// comes.
///
/// # Errors
/// `line N: ...`: the engine fails (its message), answers no move, or a move the truth
/// does not score (the truth is then incomplete: every legal move must be scored).
pub fn measure<G: Game>(
    truth: &[TruthPosition<G>],
    player: &mut dyn Player<G>,
    limits: &Limits,
    scale: f64,
    bucket: impl Fn(&G) -> u32,
    mut on_answer: impl FnMut(&Answer),
) -> Result<Report, String> {
    let mut report = Report::default();
    for t in truth {
        player.new_game();
        let thought = player
            .choose(&t.position, limits)
            .map_err(|e| format!("line {}: engine '{}': {e}", t.line, player.name()))?;
        let mv = thought
            .best_move
            .ok_or_else(|| format!("line {}: the engine answered no move", t.line))?;
        let chosen_score = t.score_of(mv).ok_or_else(|| {
            format!(
                "line {}: the engine chose {mv}, which the truth does not score",
                t.line
            )
        })?;
        let answer = Answer {
            line: t.line,
            bucket: bucket(&t.position),
            chosen: mv.to_string(),
            chosen_score,
            best_score: t.best_score(),
            engine_score: f64::from(thought.score) / scale,
            exact: thought.exact,
            depth: thought.depth,
            nodes: thought.nodes,
            seconds: thought.elapsed.as_secs_f64(),
        };
        on_answer(&answer);
        report.add(answer);
    }
    Ok(report)
}

/// Reads an Othello truth set: an OBF file (Edax's `problem/*.obf` form, or what
/// `tessera validation-set` writes) whose every line scores every legal move.
///
/// # Errors
/// One line naming the file (and the line): unreadable, a malformed line, a line that
/// leaves a legal move unscored, or no position at all.
pub fn read_othello_truth(path: &std::path::Path) -> Result<Vec<TruthPosition<Position>>, String> {
    let problems = crate::games::othello::obf::read_problems(path)?;
    if problems.is_empty() {
        return Err(format!(
            "{} holds no position (expected OBF lines 'BOARD SIDE; MOVE:SCORE; ...')",
            path.display()
        ));
    }
    problems
        .into_iter()
        .map(|(line, p)| {
            let missing = p.unscored_moves();
            if !missing.is_empty() {
                let names: Vec<String> = missing.iter().map(ToString::to_string).collect();
                return Err(format!(
                    "{} line {line}: no score for {}: accuracy needs every legal move's exact score",
                    path.display(),
                    names.join(", ")
                ));
            }
            Ok(TruthPosition {
                line,
                position: p.position,
                scores: p.scores,
            })
        })
        .collect()
}

/// Measures the engine `spec` describes on the Othello truth set in `path` (its first
/// `limit` positions when given): [`read_othello_truth`], then [`measure`] in discs, by
/// empties.
///
/// # Errors
/// As [`read_othello_truth`]; the engine cannot be built or fails (named).
pub fn measure_othello_file(
    path: &std::path::Path,
    spec: &EngineSpec,
    limit: Option<usize>,
    on_answer: impl FnMut(&Answer),
) -> Result<Report, String> {
    let mut truth = read_othello_truth(path)?;
    truth.truncate(limit.unwrap_or(usize::MAX));
    let mut player = Position::make_player(spec).map_err(|e| spec.named_error(&e))?;
    measure(
        &truth,
        player.as_mut(),
        &spec.limits(),
        100.0,
        Position::empties,
        on_answer,
    )
    .map_err(|e| format!("{} {e}", path.display()))
}

/// The Quixo engine measured when none is named.
pub const DEFAULT_QUIXO_ENGINE: &str = "quixo-texel-t100";

/// Measures the engine `spec` describes on `count` random positions of the solved Quixo
/// tiers (`seed`; [`crate::games::quixo::solved_tiers::SolvedTiers::random_positions`]): the
/// one-blank tier table `one` (from [`crate::games::quixo::tier_build::read_final`]), the
/// full-board table `full`. A move is a best move
/// when it keeps the position's exact value (a win stays a win, a draw a draw); buckets
/// 0 / 1 are full boards won / drawn, 10 / 11 one-blank boards won / drawn.
///
/// # Errors
/// A 4x4 tier table; the engine cannot be built or fails (named).
pub fn measure_quixo_tiers(
    one: crate::games::quixo::one_blank::OneBlankTable,
    full: crate::games::quixo::retro::FullBoardTable,
    spec: &EngineSpec,
    count: usize,
    seed: u64,
    on_answer: impl FnMut(&Answer),
) -> Result<Report, String> {
    use crate::games::quixo::Quixo;
    use crate::games::quixo::solved_tiers::SolvedTiers;
    if one.tier().classes() != 6 {
        return Err("a 4x4 tier table: accuracy needs the 5x5 one".into());
    }
    let tiers = SolvedTiers::new(full, one);
    // Every legal move scored +1 (keeps a win), 0 (a draw) or -1 (a loss) for the mover.
    let truth: Vec<TruthPosition<Quixo>> = tiers
        .random_positions(count, seed)
        .into_iter()
        .enumerate()
        .map(|(i, (position, moves))| TruthPosition {
            line: i + 1,
            position,
            scores: moves
                .iter()
                .map(|m| {
                    let s = match m.value {
                        crate::games::quixo::retro::Value::Win => 1,
                        crate::games::quixo::retro::Value::Draw => 0,
                        crate::games::quixo::retro::Value::Loss => -1,
                    };
                    (m.mv, s)
                })
                .collect(),
        })
        .collect();
    let mut player = Quixo::make_player(spec).map_err(|e| spec.named_error(&e))?;
    let bucket = |p: &Quixo| {
        let drawn = tiers
            .value(p)
            .is_some_and(|(v, _)| v == crate::games::quixo::retro::Value::Draw);
        10 * (25 - (p.x() | p.o()).count_ones()) + u32::from(drawn)
    };
    measure(
        &truth,
        player.as_mut(),
        &spec.limits(),
        1e9,
        bucket,
        on_answer,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(chosen: i32, best: i32, engine: f64) -> Answer {
        Answer {
            line: 1,
            bucket: 20,
            chosen: "a1".into(),
            chosen_score: chosen,
            best_score: best,
            engine_score: engine,
            exact: false,
            depth: 1,
            nodes: 10,
            seconds: 0.5,
        }
    }

    #[test]
    fn tally_is_worked_by_hand() {
        let mut r = Report::default();
        // Best move, score 2 too high; a move losing 4, score 5 too low; best, exact.
        r.add(answer(6, 6, 8.0));
        r.add(answer(-2, 2, -3.0));
        r.add(Answer {
            bucket: 21,
            ..answer(0, 0, 0.0)
        });
        let s = r.overall.summary();
        assert_eq!(s.positions, 3);
        assert!((s.best_move_pct - 200.0 / 3.0).abs() < 1e-9);
        assert!((s.mean_loss - 4.0 / 3.0).abs() < 1e-9);
        assert!((s.mae - 7.0 / 3.0).abs() < 1e-9);
        // Signed errors +2, -5 and 0.
        assert!((s.mean_signed_error - (-1.0)).abs() < 1e-9);
        assert!((s.within_3_pct - 200.0 / 3.0).abs() < 1e-9);
        assert!((s.within_6_pct - 100.0).abs() < 1e-9);
        assert_eq!(s.nodes, 30);
        assert!((s.nps - 20.0).abs() < 1e-9);
        assert_eq!(r.buckets.len(), 2);
        assert_eq!(r.buckets[&20].positions, 2);
        assert_eq!(r.buckets[&21].summary().mae, 0.0);
    }
}
