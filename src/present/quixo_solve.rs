//! A Quixo solve for people and programs (`tessera solve quixo`): a whole board size by
//! retrograde analysis ([`size_lines`], [`size_json`]), a small-board position from its
//! table ([`small_lines`], [`small_json`]), a 5x5 position by the proving search
//! ([`proof_lines`], [`proof_json`]).

use serde_json::{Value, json};

use super::Present;
use crate::game::Game;
use crate::games::quixo::small_answer::SmallAnswer;
use crate::games::quixo::{Proof, Quixo, SolveSummary, Verdict};

/// A whole board size solved: the empty board's value, the won/lost/drawn counts, the time.
#[must_use]
pub fn size_lines(s: &SolveSummary) -> Vec<String> {
    let size = s.size;
    vec![
        format!(
            "empty {size}x{size} board: {} for the first player{}",
            s.value,
            s.plies.map_or(String::new(), |p| format!(" in {p} plies"))
        ),
        format!(
            "boards (side to move's view): {} won, {} lost, {} drawn",
            s.counts.wins, s.counts.losses, s.counts.draws
        ),
        format!("time       {:.2} s", s.seconds),
    ]
}

/// A whole board size solved, as one JSON object.
#[must_use]
pub fn size_json(s: &SolveSummary) -> Value {
    json!({
        "game": "quixo",
        "size": s.size,
        "value": s.value.to_string().to_ascii_lowercase(),
        "plies": s.plies,
        "plies_exact": s.plies.is_some(),
        "wins": s.counts.wins,
        "losses": s.counts.losses,
        "draws": s.counts.draws,
        "seconds": s.seconds,
    })
}

/// A small-board position's exact answer in words (`seconds`: the time it took).
#[must_use]
pub fn small_lines(pos: &Quixo, a: &SmallAnswer, seconds: f64) -> Vec<String> {
    let word = a.value.to_string().to_ascii_lowercase();
    let who = pos.seat_name(pos.to_move());
    let mut lines = vec![match a.plies {
        Some(0) => format!("value      {word} for {who}: the game is over"),
        Some(p) => {
            let plural = if p == 1 { "ply" } else { "plies" };
            format!("value      {word} for {who} in {p} {plural} (the final move counted)")
        }
        None => format!("value      draw for {who} (neither side can force a line)"),
    }];
    if let Some(b) = &a.best {
        lines.push(format!("best move  {b}"));
    }
    lines.push(format!("time       {seconds:.3} s"));
    lines
}

/// A small-board position's exact answer as one JSON object, with the same fields as a
/// 5x5 answer ([`proof_json`]).
#[must_use]
pub fn small_json(pos: &Quixo, a: &SmallAnswer, seconds: f64) -> Value {
    json!({
        "game": "quixo",
        "position": pos.to_string(),
        "value": a.value.to_string().to_ascii_lowercase(),
        "plies": a.plies,
        // The same fields as a 5x5 answer: the retrograde table's distances are exact
        // and nothing can stop it.
        "plies_exact": a.plies.is_some(),
        "prover": "retrograde",
        "move": a.best.map(|m| m.to_string()),
        "nodes": 0,
        "seconds": seconds,
        "stopped": false,
        "max_plies": null,
        "table": null,
        "game_over": pos.outcome().is_some(),
    })
}

/// The word of a verdict (`win`, `loss`, `draw`, `unproven`).
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
        Verdict::Draw => "draw",
        Verdict::Unproven => "unproven",
    }
}

/// What the proving search found for `pos`, in words: the value and distance (or why it
/// is unproven), a best move, nodes and time; `max_plies` and `time_ms` are its limits.
#[must_use]
pub fn proof_lines(
    pos: &Quixo,
    proof: &Proof,
    (max_plies, time_ms): (u32, Option<u64>),
    seconds: f64,
) -> Vec<String> {
    let value = verdict_word(proof.value);
    let who = pos.seat_name(pos.to_move());
    let mut lines = Vec::new();
    match proof.value {
        Verdict::Unproven if proof.stopped => lines.push(format!(
            "unproven: the time limit ({} ms) stopped the search before a forced result \
             within {max_plies} plies was found or ruled out",
            time_ms.unwrap_or(0)
        )),
        Verdict::Unproven => lines.push(format!(
            "unproven: neither side can force a line within {max_plies} plies (searched in full)"
        )),
        Verdict::Draw => lines.push(format!(
            "value      draw for {who} (neither side can force a line)"
        )),
        _ if proof.plies == Some(0) => {
            lines.push(format!("value      {value} for {who}: the game is over"));
        }
        _ => {
            let n = proof.plies.unwrap_or(0);
            let plural = if n == 1 { "ply" } else { "plies" };
            let within = if proof.plies_exact { "in" } else { "within" };
            lines.push(format!(
                "value      {value} for {who} {within} {n} {plural} (the final move counted)"
            ));
            if !proof.plies_exact && proof.stopped {
                lines.push(format!(
                    "           (the time limit, {} ms, stopped the search before the exact \
                     distance was found: {n} is an upper bound)",
                    time_ms.unwrap_or(0)
                ));
            }
        }
    }
    if let Some(b) = &proof.best_move {
        lines.push(format!("best move  {b}"));
    }
    lines.push(format!("nodes      {}", proof.nodes));
    lines.push(format!("time       {seconds:.3} s"));
    lines
}

/// What the proving search (`prover`: `dfpn` or `id`) found for `pos`, as one JSON
/// object; `table` says where the full-board table came from (or null).
#[must_use]
pub fn proof_json(
    pos: &Quixo,
    proof: &Proof,
    (prover, max_plies, table): (&str, u32, Option<Value>),
    seconds: f64,
) -> Value {
    json!({
        "game": "quixo",
        "position": pos.to_string(),
        "value": verdict_word(proof.value),
        "plies": proof.plies,
        "plies_exact": proof.plies_exact,
        "prover": prover,
        "move": proof.best_move.map(|m| m.to_string()),
        "nodes": proof.nodes,
        "seconds": seconds,
        "stopped": proof.stopped,
        "max_plies": max_plies,
        "table": table,
        "game_over": pos.outcome().is_some(),
    })
}

/// Where a proof's full-board table came from, as JSON (`source`: loaded, built or
/// memory; `file`: its path or null).
#[must_use]
pub fn table_json(src: &crate::games::quixo::table_cache::TableSource) -> Value {
    json!({
        "source": src.kind(),
        "file": src.path().map(|p| p.display().to_string()),
    })
}
