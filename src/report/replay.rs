//! Recorded games replayed for the board drawing (`tessera serve`'s Watch tab and the HTML
//! reports' game viewer, one script: `html/board.js`): per ply the position, the last
//! move's clicks, the legal moves' first click tokens and the counts ([`replay`]).

use crate::game::Seat;
use crate::tournament::record::GameRecord;
use serde_json::{Value, json};

use crate::present::Present;

/// The start position and opening moves of a record: when its `opening` is a move list
/// from the game's start that leads to its `start`, the game is shown from the start with
/// those moves as its first plies (so move numbers count from ply 1); otherwise from
/// `start`.
///
/// # Errors
/// A start position the rules refuse.
fn record_start<G: Present>(rec: &GameRecord) -> Result<(G, Vec<G::Move>), String> {
    let (start, moves) = G::parse_opening(&rec.start)
        .map_err(|e| format!("game {}: bad start position: {e}", rec.id))?;
    if moves.is_empty()
        && !rec.opening.trim().is_empty()
        && let Ok((first, opening)) = G::parse_opening(&rec.opening)
        && !opening.is_empty()
        && opening
            .iter()
            .fold(first.clone(), |p, &m| p.play(m))
            .to_string()
            == start.to_string()
    {
        return Ok((first, opening));
    }
    Ok((start, moves))
}

/// One ply of a replayed game: the position, the last move's clicks, the legal moves' first
/// tokens and the counts.
fn frame<G: Present>(pos: &G, last: Vec<String>) -> Value {
    json!({
        "position": pos.to_string(),
        "last": last,
        "next": crate::present::first_tokens(pos),
        "counts": crate::present::counts_json(pos),
    })
}

/// A recorded game replayed for the board drawing: per ply (the start first) the position,
/// the last move's clicks, the legal moves' first tokens and the counts; the moves (opening moves first, `opening` of
/// them); the result in words; the winning marks of the final position.
///
/// # Errors
/// A record of another game, or a start position or move the rules refuse (naming the
/// record and the move).
pub fn replay<G: Present>(rec: &GameRecord) -> Result<Value, String> {
    if rec.game != G::ID {
        return Err(format!(
            "game {} is a record of {}, not {}: records of another game",
            rec.id,
            rec.game,
            G::ID
        ));
    }
    let (mut pos, opening) = record_start::<G>(rec)?;
    let mut texts: Vec<String> = opening.iter().map(ToString::to_string).collect();
    texts.extend(rec.moves.iter().cloned());
    let mut frames = vec![frame(&pos, Vec::new())];
    for (i, text) in texts.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("game {} move {}: {e}", rec.id, i + 1))?;
        pos = pos.play(mv);
        frames.push(frame(&pos, G::clicks(text)));
    }
    let reason = serde_json::to_value(rec.reason)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    // A game ended by the rules says who won and the scores; an adjudicated one (a
    // repetition, the ply cap, a forfeit) names the winners by the record's places.
    let words = pos.result_words().unwrap_or_else(|| {
        let winners: Vec<String> = (0..pos.seats())
            .filter(|&i| rec.ranks.get(i) == Some(&1))
            .map(|i| pos.seat_name(Seat(i as u8)))
            .collect();
        if winners.len() == pos.seats() {
            "Draw".to_string()
        } else {
            format!(
                "{} {}",
                winners.join(" and "),
                if winners.len() == 1 { "wins" } else { "win" }
            )
        }
    });
    Ok(json!({
        "id": rec.id,
        "game": rec.game,
        "engines": rec.engines,
        "title": format!("#{} {}", rec.id, rec.engines.join(" vs ")),
        "result": format!("{words} ({reason})"),
        "moves": texts,
        "opening": opening.len(),
        "frames": frames,
        "marks": pos.marks(),
    }))
}
