//! An Othello exact solve ([`crate::games::othello::endgame::Solver`]) for people and
//! programs: the progress line of each root pass (Edax style), the answer in words, or the
//! whole solve as one JSON object.

use serde_json::json;

use super::{Present, color_name, join_moves, json_moves, rate, si};
use crate::game::Game;
use crate::games::othello::Position;
use crate::games::othello::endgame::{Pass, Solution};

/// The progress line of a finished root pass of the exact solver, Edax style: the depth
/// (empties) and the pass's confidence (`20@73%`; `@100%` is the exact pass), its score
/// (discs) and best move, the solve's nodes and seconds so far.
#[must_use]
pub fn pass_line(pass: &Pass) -> String {
    format!(
        "info depth {}@{}% score {:+} move {} nodes {} time {:.3}",
        pass.depth, pass.probability, pass.score, pass.best_move, pass.nodes, pass.seconds
    )
}

/// The answer in words: the result of a finished game, the exact score for the side to
/// move, best move, principal variation, nodes and time; or, when `time_ms` stopped it,
/// what was done.
#[must_use]
pub fn solution_lines(pos: &Position, sol: &Solution, time_ms: Option<u64>) -> Vec<String> {
    let Some(score) = sol.score else {
        return vec![format!(
            "unsolved: the time limit of {} ms stopped the solve after {:.3} s and {} nodes",
            time_ms.unwrap_or(0),
            sol.seconds,
            sol.nodes
        )];
    };
    let mut lines = Vec::new();
    if let Some(result) = pos.result_text() {
        lines.push(result);
    }
    let best = sol.best_move.map(|m| m.to_string());
    lines.extend([
        format!(
            "score      {score:+} discs for {} (exact)",
            color_name(pos.side())
        ),
        format!(
            "best move  {}",
            best.as_deref().unwrap_or("(none: the game is over)")
        ),
        format!("pv         {}", join_moves(&sol.pv)),
        format!("nodes      {}", sol.nodes),
        format!(
            "time       {:.3} s ({}nodes/s)",
            sol.seconds,
            si(rate(sol.nodes, sol.seconds))
        ),
    ]);
    lines
}

/// The solve as one JSON object (`score` null when stopped, `ffo`: the FFO problem's
/// reference answer or null, every root pass).
#[must_use]
pub fn solution_json(pos: &Position, sol: &Solution, ffo: &serde_json::Value) -> serde_json::Value {
    json!({
        "game": "othello",
        "position": pos.to_string(),
        "empties": pos.empties(),
        "score": sol.score,
        "unit": "discs",
        "move": sol.best_move.map(|m| m.to_string()),
        "pv": json_moves(&sol.pv),
        "nodes": sol.nodes,
        "seconds": sol.seconds,
        "nps": rate(sol.nodes, sol.seconds),
        "stopped": sol.score.is_none(),
        "game_over": pos.outcome().is_some(),
        "ffo": ffo,
        "passes": sol.passes.iter().map(|p| json!({
            "depth": p.depth,
            "probability": p.probability,
            "score": p.score,
            "move": p.best_move.to_string(),
            "nodes": p.nodes,
            "seconds": p.seconds,
        })).collect::<Vec<_>>(),
    })
}
