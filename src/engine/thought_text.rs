//! A search's answer ([`Thought`]) for people and programs: `tessera bestmove`'s lines and
//! JSON object for one search, `tessera analyze`'s table and JSON object for every legal
//! move scored ([`super::analyze::analyze_moves`]). `extra` is an object of fields the
//! position's source adds to the JSON (e.g. `{"ffo": ...}`), or null.

use serde_json::{Value, json};

use super::Thought;
use crate::present::{Present, join_moves, json_moves, rate, score_short, score_text, si};

/// `value` (an object) with the fields of `extra` (an object or null) added.
#[must_use]
pub fn with_extra(mut value: Value, extra: &Value) -> Value {
    if let (Some(v), Some(e)) = (value.as_object_mut(), extra.as_object()) {
        for (k, x) in e {
            v.insert(k.clone(), x.clone());
        }
    }
    value
}

/// `position TEXT` followed by the origin of the position (two spaces before it), if any.
#[must_use]
pub fn position_line<G: Present>(pos: &G, origin: Option<&str>) -> String {
    match origin {
        Some(o) => format!("position {pos}  {o}"),
        None => format!("position {pos}"),
    }
}

/// `bestmove`'s JSON object for a finished game: no move, the final score, the result.
#[must_use]
pub fn game_over_json<G: Present>(pos: &G, extra: &Value) -> Value {
    with_extra(
        json!({
            "game": G::ID,
            "position": pos.to_string(),
            "move": null,
            "score": pos.final_score(),
            "unit": G::SCORE_UNIT,
            "exact": true,
            "depth": 0,
            "nodes": 0,
            "nps": 0.0,
            "seconds": 0.0,
            "pv": [],
            "game_over": true,
            "result": pos.result_json(),
        }),
        extra,
    )
}

/// `bestmove`'s JSON object for the answer `t` in `pos`.
#[must_use]
pub fn thought_json<G: Present>(pos: &G, t: &Thought<G::Move>, extra: &Value) -> Value {
    with_extra(
        json!({
            "game": G::ID,
            "position": pos.to_string(),
            "move": t.best_move.map(|m| m.to_string()),
            "score": t.score,
            "unit": t.unit,
            "exact": t.exact,
            "depth": t.depth,
            "nodes": t.nodes,
            "nps": t.nps(),
            "seconds": t.elapsed.as_secs_f64(),
            "pv": json_moves(&t.pv),
            "game_over": false,
        }),
        extra,
    )
}

/// `bestmove`'s answer in words: best move, score for the side to move, depth, nodes,
/// speed, principal variation.
#[must_use]
pub fn thought_lines<G: Present>(pos: &G, t: &Thought<G::Move>) -> Vec<String> {
    let depth_note = if t.exact { " (solved to the end)" } else { "" };
    vec![
        format!(
            "best move  {}",
            t.best_move
                .map_or_else(|| "(none)".to_string(), |m| m.to_string())
        ),
        format!(
            "score      {} for {}",
            score_text(t.score, t.unit, t.exact),
            pos.seat_name(pos.to_move())
        ),
        format!("depth      {}{depth_note}", t.depth),
        format!("nodes      {}", t.nodes),
        format!(
            "speed      {}nodes/s ({:.3} s)",
            si(t.nps()),
            t.elapsed.as_secs_f64()
        ),
        format!("pv         {}", join_moves(&t.pv)),
    ]
}

/// `analyze`'s JSON object for a finished game: the result, no moves.
#[must_use]
pub fn analysis_game_over_json<G: Present>(pos: &G, extra: &Value) -> Value {
    with_extra(
        json!({
            "game": G::ID,
            "position": pos.to_string(),
            "unit": G::SCORE_UNIT,
            "game_over": true,
            "result": pos.result_json(),
            "score": pos.final_score(),
            "legal_moves": 0,
            "moves": [],
            "nodes": 0,
            "seconds": 0.0,
        }),
        extra,
    )
}

/// Every move's answer of an analysis of `pos` (best first, perhaps only the first
/// `--multipv`), with the count of legal moves and the whole analysis's nodes and seconds.
#[derive(Clone, Debug)]
pub struct Analysis<'a, G: Present> {
    /// The position analysed.
    pub pos: &'a G,
    /// One answer per move shown, best first.
    pub scores: &'a [Thought<G::Move>],
    /// Legal moves of the position.
    pub legal: usize,
    /// Nodes of the whole analysis.
    pub nodes: u64,
    /// Seconds of the whole analysis.
    pub seconds: f64,
}

impl<G: Present> Analysis<'_, G> {
    /// The analysis as one JSON object.
    #[must_use]
    pub fn to_json(&self, extra: &Value) -> Value {
        let moves: Vec<Value> = self
            .scores
            .iter()
            .map(|t| {
                json!({
                    "move": t.best_move.map(|m| m.to_string()),
                    "score": t.score,
                    "exact": t.exact,
                    "depth": t.depth,
                    "nodes": t.nodes,
                    "seconds": t.elapsed.as_secs_f64(),
                    "pv": json_moves(&t.pv),
                })
            })
            .collect();
        with_extra(
            json!({
                "game": G::ID,
                "position": self.pos.to_string(),
                "unit": G::SCORE_UNIT,
                "legal_moves": self.legal,
                "moves": moves,
                "nodes": self.nodes,
                "seconds": self.seconds,
            }),
            extra,
        )
    }

    /// The analysis in words: the count of legal moves and the unit, a table line per
    /// move (score, exact, depth, nodes, principal variation), the best, the totals.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let pos = self.pos;
        let mut lines = vec![
            format!(
                "{} legal moves, scores for {} in {}",
                self.legal,
                pos.seat_name(pos.to_move()),
                // The column is printed by score_short: Othello's centi-discs as discs.
                if G::SCORE_UNIT == crate::games::othello::SCORE_UNIT {
                    "discs"
                } else {
                    G::SCORE_UNIT
                }
            ),
            format!(
                "{:<8} {:>10} {:>6} {:>6} {:>12}  pv",
                "move", "score", "exact", "depth", "nodes"
            ),
        ];
        for t in self.scores {
            lines.push(format!(
                "{:<8} {:>10} {:>6} {:>6} {:>12}  {}",
                t.best_move.map(|m| m.to_string()).unwrap_or_default(),
                score_short(t.score, t.unit),
                if t.exact { "yes" } else { "-" },
                t.depth,
                t.nodes,
                join_moves(&t.pv)
            ));
        }
        if let Some(best) = self.scores.first() {
            lines.push(format!(
                "best       {} {}",
                best.best_move.map(|m| m.to_string()).unwrap_or_default(),
                score_text(best.score, best.unit, best.exact)
            ));
        }
        lines.push(format!(
            "total      {} nodes in {:.3} s ({}nodes/s)",
            self.nodes,
            self.seconds,
            si(rate(self.nodes, self.seconds))
        ));
        lines
    }
}
