//! Adjudication: ending a game early with a result both engines (or a solver) already
//! know, as chess testers do with tablebases and score rules (cutechess-cli `-resign`,
//! `-draw`, `-tb`).
//!
//! - `exact=N`: a game's exact solver settles the position (Othello: once, when the game
//!   first has at most N empty squares, solved to the end within [`EXACT_NODE_BUDGET`]
//!   nodes, else the game is played out; Quixo: a forced win found by a proving search of at
//!   most N plies, tried before every move) and the game ends with the solved result;
//! - `resign=SCORE,MOVES`: one side's engine reported a score of -SCORE or worse and the
//!   other side's engine +SCORE or better, each on its last MOVES moves: the first loses;
//! - `draw=SCORE,MOVES[,FROM]`: both engines reported scores within SCORE of 0 on their last
//!   MOVES moves, from full move FROM on (default 0): a draw.
//!
//! Scores are in the engines' own unit (Othello centi-discs, so `resign=1000,3` is 10
//! discs); an engine that reports no score (an external GTP program) is never adjudicated by
//! score. Only games of two sides take score rules.

use serde::{Deserialize, Serialize};

/// The adjudication rules of a tournament (`--adjudicate`, repeatable).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// `exact=N`: the size limit handed to the game's solver (Othello: empties; Quixo:
    /// plies of the proving search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<u32>,
    /// `resign=SCORE,MOVES`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ScoreRule>,
    /// `draw=SCORE,MOVES[,FROM]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<ScoreRule>,
}

/// A score rule: `score` (the engine's unit), held for `moves` moves of each side, from
/// full move `from` (draw rule only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreRule {
    /// Score threshold, > 0 for resign, >= 0 for draw.
    pub score: i32,
    /// Consecutive moves of each engine that must agree.
    pub moves: u32,
    /// Full moves (plies / 2, opening included) before the rule may apply.
    #[serde(default)]
    pub from: u32,
}

/// Nodes one Othello adjudication solve may search before it gives up on the game (about
/// 2-3 s on one core; `solve othello --ffo 40`, 20 empties, needs 13.8 M). A node budget,
/// not a time budget, so a resumed or repeated tournament adjudicates the same games.
pub const EXACT_NODE_BUDGET: u64 = 30_000_000;

/// What one exact-adjudication attempt found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactAttempt {
    /// The position is out of the solver's reach (more than N empties, or no proof yet):
    /// ask again after the next move.
    NotYet,
    /// The final scores per seat with best play: the game ends with them.
    Solved(Vec<i32>),
    /// The solver ran out of its budget: this game is played out without exact
    /// adjudication (no further attempts, so a hard position costs one budget, not one
    /// per move).
    GiveUp,
}

/// What a game's exact solver offers `exact=N`: the largest N it accepts, what N counts,
/// and the solve itself.
pub struct ExactSolve<G> {
    /// Largest accepted N.
    pub max: u32,
    /// What N counts, for messages (`"empty squares"`, `"plies"`).
    pub unit: &'static str,
    /// One attempt on the position with limit N.
    pub solve: fn(&G, u32) -> ExactAttempt,
}

fn number<T: std::str::FromStr>(text: &str, what: &str, rule: &str) -> Result<T, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "--adjudicate {rule}: {what} '{}' is not a whole number",
            crate::game::shown(text)
        )
    })
}

impl Adjudication {
    /// Parses the values of `--adjudicate` (`exact=N`, `resign=SCORE,MOVES`,
    /// `draw=SCORE,MOVES[,FROM]`); each rule at most once.
    ///
    /// # Errors
    /// One line naming the bad rule and the expected form.
    pub fn parse(rules: &[String]) -> Result<Self, String> {
        let mut a = Self::default();
        for rule in rules {
            let (kind, args) = rule.split_once('=').ok_or_else(|| {
                format!(
                    "--adjudicate '{}': expected exact=N, resign=SCORE,MOVES or draw=SCORE,MOVES[,FROM]",
                    crate::game::shown(rule)
                )
            })?;
            let parts: Vec<&str> = args.split(',').collect();
            let twice = || format!("--adjudicate: the {kind} rule is given twice");
            match kind.trim() {
                "exact" => {
                    if parts.len() != 1 {
                        return Err(format!("--adjudicate {rule}: expected exact=N"));
                    }
                    let n: u32 = number(parts[0], "N", rule)?;
                    if n == 0 {
                        return Err(format!("--adjudicate {rule}: N must be at least 1"));
                    }
                    if a.exact.replace(n).is_some() {
                        return Err(twice());
                    }
                }
                "resign" | "draw" => {
                    let resign = kind.trim() == "resign";
                    let max_parts = if resign { 2 } else { 3 };
                    if parts.len() < 2 || parts.len() > max_parts {
                        return Err(format!(
                            "--adjudicate {rule}: expected {}",
                            if resign {
                                "resign=SCORE,MOVES"
                            } else {
                                "draw=SCORE,MOVES[,FROM]"
                            }
                        ));
                    }
                    let score: i32 = number(parts[0], "SCORE", rule)?;
                    let moves: u32 = number(parts[1], "MOVES", rule)?;
                    let from: u32 = match parts.get(2) {
                        Some(f) => number(f, "FROM", rule)?,
                        None => 0,
                    };
                    if (resign && score <= 0) || score < 0 {
                        return Err(format!(
                            "--adjudicate {rule}: SCORE must be {} (in the engines' unit, e.g. centi-discs)",
                            if resign { "more than 0" } else { "0 or more" }
                        ));
                    }
                    if moves == 0 {
                        return Err(format!("--adjudicate {rule}: MOVES must be at least 1"));
                    }
                    let r = ScoreRule { score, moves, from };
                    let slot = if resign { &mut a.resign } else { &mut a.draw };
                    if slot.replace(r).is_some() {
                        return Err(twice());
                    }
                }
                other => {
                    return Err(format!(
                        "--adjudicate: unknown rule '{}' (valid: exact=N, resign=SCORE,MOVES, draw=SCORE,MOVES[,FROM])",
                        crate::game::shown(other)
                    ));
                }
            }
        }
        Ok(a)
    }

    /// Whether no rule is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.exact.is_none() && self.resign.is_none() && self.draw.is_none()
    }

    /// Checks the rules against a game: `exact` needs the game's solver (and N within its
    /// range), score rules need two sides.
    ///
    /// # Errors
    /// One line naming the rule and why it does not fit the game.
    pub fn check<G>(
        &self,
        game: &str,
        sides: usize,
        exact: Option<&ExactSolve<G>>,
    ) -> Result<(), String> {
        if let Some(n) = self.exact {
            match exact {
                None => {
                    return Err(format!(
                        "--adjudicate exact: {game} has no exact solver for adjudication (othello and quixo have)"
                    ));
                }
                Some(e) if n > e.max => {
                    return Err(format!(
                        "--adjudicate exact={n}: {game} takes at most {} {}",
                        e.max, e.unit
                    ));
                }
                Some(_) => {}
            }
        }
        if sides != 2 && (self.resign.is_some() || self.draw.is_some()) {
            return Err(format!(
                "--adjudicate resign/draw: {game} has {sides} sides; score rules are for two"
            ));
        }
        Ok(())
    }
}

/// What the score rules decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The seat (index) loses.
    Resign(usize),
    /// A draw.
    Draw,
}

/// Follows the engines' reported scores through one two-seat game.
#[derive(Clone, Debug, Default)]
pub struct ScoreWatch {
    /// Per seat: consecutive own moves with score <= -resign.score.
    losing: [u32; 2],
    /// Per seat: consecutive own moves with score >= resign.score.
    winning: [u32; 2],
    /// Per seat: consecutive own moves with |score| <= draw.score.
    drawish: [u32; 2],
}

impl ScoreWatch {
    /// Records the score that side `seat` (0 or 1; a team in team games) reported with its
    /// move (`None`: no score) and returns a verdict when a rule applies; `plies` counts the
    /// game's moves so far, opening included.
    pub fn observe(
        &mut self,
        rules: &Adjudication,
        seat: usize,
        score: Option<i32>,
        plies: usize,
    ) -> Option<Verdict> {
        if seat > 1 {
            return None;
        }
        let bump = |c: &mut u32, hit: bool| *c = if hit { *c + 1 } else { 0 };
        match score {
            None => {
                self.losing[seat] = 0;
                self.winning[seat] = 0;
                self.drawish[seat] = 0;
            }
            Some(s) => {
                if let Some(r) = rules.resign {
                    bump(&mut self.losing[seat], s <= -r.score);
                    bump(&mut self.winning[seat], s >= r.score);
                }
                if let Some(r) = rules.draw {
                    bump(&mut self.drawish[seat], s.abs() <= r.score);
                }
            }
        }
        if let Some(r) = rules.resign {
            for loser in 0..2 {
                if self.losing[loser] >= r.moves && self.winning[1 - loser] >= r.moves {
                    return Some(Verdict::Resign(loser));
                }
            }
        }
        if let Some(r) = rules.draw
            && self.drawish.iter().all(|&d| d >= r.moves)
            && plies / 2 >= r.from as usize
        {
            return Some(Verdict::Draw);
        }
        None
    }
}

/// The exact solver of game `G` for `--adjudicate exact=N`: Othello solves to the end at
/// N empties or fewer (N <= 30, within [`EXACT_NODE_BUDGET`] nodes), two-player Quixo
/// proves a win within N plies (N <= 9, 2 s per proof); `None` for the other games.
#[must_use]
pub fn exact_solver<G: crate::game::Game + 'static>() -> Option<ExactSolve<G>> {
    use crate::games::{othello, quixo};
    let any: Box<dyn std::any::Any> = match G::ID {
        "othello" => Box::new(ExactSolve::<othello::Position> {
            max: 30,
            unit: "empty squares",
            solve: solve_othello,
        }),
        "quixo" => Box::new(ExactSolve::<quixo::Quixo> {
            max: 9,
            unit: "plies",
            solve: prove_quixo,
        }),
        _ => return None,
    };
    any.downcast::<ExactSolve<G>>().ok().map(|b| *b)
}

/// `--adjudicate exact=N` in Othello: the final scores with best play once `pos` has at
/// most `max_empties` empty squares, solved within [`EXACT_NODE_BUDGET`] nodes (else the
/// game is played out): the solver's disc difference `d` for the side to move gives it
/// `(64 + d) / 2` discs (empties to the winner; a draw is written 32-32).
fn solve_othello(pos: &crate::games::othello::Position, max_empties: u32) -> ExactAttempt {
    use crate::game::Game;
    if pos.empties() > max_empties || pos.outcome().is_some() {
        return ExactAttempt::NotYet;
    }
    let tt = crate::search::TranspositionTable::new(16);
    let limits = crate::search::Limits {
        nodes: Some(EXACT_NODE_BUDGET),
        ..crate::search::Limits::default()
    };
    let Some(d) = crate::games::othello::endgame::Solver::new(&tt, &limits)
        .solve(pos)
        .score
    else {
        return ExactAttempt::GiveUp;
    };
    let mover = (64 + d) / 2;
    let mut scores = vec![64 - mover; 2];
    scores[pos.to_move().index()] = mover;
    ExactAttempt::Solved(scores)
}

/// `--adjudicate exact=N` for two-player Quixo: a win or loss of the side to move proven
/// by the proving search within N plies (and 2 s); the result as the rules score it (1 for
/// the winner, 0 for the loser).
fn prove_quixo(pos: &crate::games::quixo::Quixo, max_plies: u32) -> ExactAttempt {
    use crate::game::Game;
    use crate::games::quixo::{ProveLimits, Verdict};
    if pos.outcome().is_some() {
        return ExactAttempt::NotYet;
    }
    // A small table: the proof runs before every move.
    let limits = ProveLimits {
        max_plies,
        time_ms: Some(2000),
        tt_mb: 4,
    };
    let mover_wins = match crate::games::quixo::prove(pos, &limits, None).value {
        Verdict::Win => true,
        Verdict::Loss => false,
        // No proof within N plies yet: one may appear as the game goes on.
        Verdict::Draw | Verdict::Unproven => return ExactAttempt::NotYet,
    };
    let mut scores = vec![i32::from(!mover_wins); 2];
    scores[pos.to_move().index()] = i32::from(mover_wins);
    ExactAttempt::Solved(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(r: &[&str]) -> Adjudication {
        Adjudication::parse(&r.iter().map(|s| (*s).to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn parses_rules_and_refuses_bad_ones() {
        let a = rules(&["exact=20", "resign=1000,3", "draw=50,4,20"]);
        assert_eq!(a.exact, Some(20));
        assert_eq!(
            a.resign,
            Some(ScoreRule {
                score: 1000,
                moves: 3,
                from: 0
            })
        );
        assert_eq!(
            a.draw,
            Some(ScoreRule {
                score: 50,
                moves: 4,
                from: 20
            })
        );
        for bad in [
            "exact",
            "exact=x",
            "exact=0",
            "exact=-3",
            "resign=100",
            "resign=-5,3",
            "resign=0,3",
            "resign=100,0",
            "resign=100,3,4",
            "draw=5,x",
            "draw=-1,3",
            "mercy=3",
            "draw=1,2,3,4",
        ] {
            let e = Adjudication::parse(&[bad.to_string()]).unwrap_err();
            assert!(e.starts_with("--adjudicate"), "{bad}: {e}");
        }
        let e = Adjudication::parse(&["exact=3".into(), "exact=4".into()]).unwrap_err();
        assert!(e.contains("twice"), "{e}");
        let oth: ExactSolve<()> = ExactSolve {
            max: 30,
            unit: "empty squares",
            solve: |_, _| ExactAttempt::NotYet,
        };
        let e = rules(&["exact=99"])
            .check("othello", 2, Some(&oth))
            .unwrap_err();
        assert_eq!(
            e,
            "--adjudicate exact=99: othello takes at most 30 empty squares"
        );
        assert!(rules(&["exact=30"]).check("othello", 2, Some(&oth)).is_ok());
        let e = rules(&["exact=3"])
            .check::<()>("talat", 3, None)
            .unwrap_err();
        assert!(e.contains("no exact solver"), "{e}");
        let e = rules(&["draw=0,2"])
            .check::<()>("talat", 3, None)
            .unwrap_err();
        assert!(e.contains("3 sides"), "{e}");
    }

    #[test]
    fn resign_needs_both_engines_to_agree_for_moves_each() {
        let a = rules(&["resign=500,2"]);
        let mut w = ScoreWatch::default();
        // Seat 0 thinks it is lost; seat 1 agrees only from its second move on.
        assert_eq!(w.observe(&a, 0, Some(-600), 1), None);
        assert_eq!(w.observe(&a, 1, Some(400), 2), None);
        assert_eq!(w.observe(&a, 0, Some(-700), 3), None);
        assert_eq!(w.observe(&a, 1, Some(500), 4), None);
        assert_eq!(w.observe(&a, 0, Some(-800), 5), None);
        assert_eq!(w.observe(&a, 1, Some(900), 6), Some(Verdict::Resign(0)));
        // A missing score (an external engine) resets that seat's count.
        let mut w = ScoreWatch::default();
        for (seat, s) in [(0, Some(600)), (1, Some(-600)), (0, None), (1, Some(-600))] {
            assert_eq!(w.observe(&a, seat, s, 10), None);
        }
    }

    #[test]
    fn draw_needs_small_scores_from_both_and_the_move_number() {
        let a = rules(&["draw=10,2,5"]);
        let mut w = ScoreWatch::default();
        let seq = [(0, 5), (1, -10), (0, 0), (1, 3)];
        // Four small scores, but only at plies 1-4 (full move 2 < 5).
        for (i, (seat, s)) in seq.iter().enumerate() {
            assert_eq!(w.observe(&a, *seat, Some(*s), i + 1), None);
        }
        assert_eq!(w.observe(&a, 0, Some(-2), 10), Some(Verdict::Draw));
        // One large score breaks the run.
        assert_eq!(w.observe(&a, 1, Some(11), 11), None);
        assert_eq!(w.observe(&a, 0, Some(0), 12), None);
        assert_eq!(w.observe(&a, 1, Some(0), 13), None);
        assert_eq!(w.observe(&a, 0, Some(0), 14), None);
        assert_eq!(w.observe(&a, 1, Some(0), 15), Some(Verdict::Draw));
    }
}
