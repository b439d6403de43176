//! The "time used per move" table of the tournament page: each engine's own moves, timed
//! from the request to the reply (`move_ms` in the records), with the mover of every ply
//! found by replaying the game with the rules ([`movers`]; passes and frozen Talat boards
//! included).
//! Records written before per-move times existed fall back to each game's wall time over
//! its plies, and the page says which one it shows.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::tournament::move_times::movers;
use crate::tournament::record::GameRecord;

use super::cells::txt;
use crate::present::Present;

/// Per engine: moves timed, total and longest milliseconds, and the time forfeits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTimes {
    /// Moves with a recorded time.
    pub moves: u64,
    /// Sum of their times, ms.
    pub total_ms: u64,
    /// The longest one, ms.
    pub max_ms: u64,
    /// Games this engine lost on time.
    pub forfeits: u64,
}

/// Each engine's move times over `records` (only records that carry `move_ms`).
///
/// # Errors
/// A record whose start or moves the rules refuse, or whose `move_ms` does not have one
/// entry per move (naming the game id).
pub fn engine_times<G: Present>(
    records: &[GameRecord],
) -> Result<BTreeMap<String, EngineTimes>, String> {
    let mut out: BTreeMap<String, EngineTimes> = BTreeMap::new();
    for r in records.iter().filter(|r| !r.move_ms.is_empty()) {
        if r.move_ms.len() != r.moves.len() {
            return Err(format!(
                "game {}: {} move times for {} moves",
                r.id,
                r.move_ms.len(),
                r.moves.len()
            ));
        }
        let (seats, pos) = movers::<G>(r)?;
        for (&ms, seat) in r.move_ms.iter().zip(seats) {
            let name = r
                .engines
                .get(seat)
                .ok_or_else(|| format!("game {}: seat {seat} has no engine", r.id))?;
            let e = out.entry(name.clone()).or_default();
            e.moves += 1;
            e.total_ms += ms;
            e.max_ms = e.max_ms.max(ms);
        }
        if r.overrun_ms.is_some() {
            // The loser on time is the seat to move after the recorded moves.
            let seat = usize::from(pos.to_move().0);
            if let Some(name) = r.engines.get(seat) {
                out.entry(name.clone()).or_default().forfeits += 1;
            }
        }
    }
    Ok(out)
}

/// The table's HTML: measured per-move times when any record has them, else the
/// approximation from game wall times; `names` are the engines, in the table's order.
///
/// # Errors
/// As [`engine_times`].
pub fn section<G: Present>(records: &[GameRecord], names: &[String]) -> Result<String, String> {
    let times = engine_times::<G>(records)?;
    let mut body = String::from("<h2>Time used per move</h2>");
    if times.is_empty() {
        body.push_str("<p class=\"note\">These records carry no per-move times: wall-clock seconds of each game divided by its plies, averaged over the games each engine played (both sides' moves count).</p><table><tr><th class=\"l\">engine</th><th>games</th><th>ms per ply</th><th>longest game s</th></tr>");
        for n in names {
            let (mut g, mut per, mut longest) = (0usize, 0.0, 0f64);
            for r in records.iter().filter(|r| r.engines.contains(n)) {
                g += 1;
                per += r.seconds / r.moves.len().max(1) as f64;
                longest = longest.max(r.seconds);
            }
            let _ = write!(
                body,
                "<tr>{}<td>{g}</td><td>{:.1}</td><td>{:.2}</td></tr>",
                txt(n),
                1000.0 * per / g.max(1) as f64,
                longest
            );
        }
    } else {
        body.push_str("<p class=\"note\">Each engine's own moves, milliseconds from the request to the reply (the records' <code>move_ms</code>); time forfeits are games lost on the clock.</p><table><tr><th class=\"l\">engine</th><th>moves</th><th>mean ms</th><th>longest ms</th><th>time forfeits</th></tr>");
        for n in names {
            let t = times.get(n).copied().unwrap_or_default();
            let _ = write!(
                body,
                "<tr>{}<td>{}</td><td>{:.1}</td><td>{}</td><td>{}</td></tr>",
                txt(n),
                t.moves,
                t.total_ms as f64 / t.moves.max(1) as f64,
                t.max_ms,
                t.forfeits
            );
        }
    }
    body.push_str("</table>");
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    /// An Othello record from the start: f5 (Black, engine `a`), d6 (White, `b`), c3
    /// (Black), then White lost on time.
    fn record(move_ms: &[u64]) -> GameRecord {
        let start = format!(
            "{}OX{}XO{} X",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        );
        serde_json::from_value(serde_json::json!({
            "id": 7, "block": 0, "round": 0, "game": "othello", "seed": 1,
            "engines": ["a", "b"], "opening": "", "start": start,
            "moves": ["f5", "d6", "c3"], "scores": [], "points": [1.0, 0.0], "ranks": [1, 2],
            "reason": "time-forfeit", "seconds": 0.1, "move_ms": move_ms, "overrun_ms": 5
        }))
        .unwrap()
    }

    #[test]
    fn each_engine_gets_its_own_moves_and_forfeits() {
        let t = engine_times::<Position>(&[record(&[10, 20, 30])]).unwrap();
        let a = EngineTimes {
            moves: 2,
            total_ms: 40,
            max_ms: 30,
            forfeits: 0,
        };
        let b = EngineTimes {
            moves: 1,
            total_ms: 20,
            max_ms: 20,
            forfeits: 1,
        };
        assert_eq!(t.get("a"), Some(&a));
        assert_eq!(t.get("b"), Some(&b));
        let page =
            section::<Position>(&[record(&[10, 20, 30])], &["a".into(), "b".into()]).unwrap();
        assert!(
            page.contains("<td>2</td><td>20.0</td><td>30</td><td>0</td>"),
            "{page}"
        );
        assert!(
            page.contains("<td>1</td><td>20.0</td><td>20</td><td>1</td>"),
            "{page}"
        );
    }

    #[test]
    fn records_without_times_fall_back_and_wrong_lengths_are_named() {
        let page = section::<Position>(&[record(&[])], &["a".into()]).unwrap();
        assert!(page.contains("carry no per-move times"), "{page}");
        let e = engine_times::<Position>(&[record(&[1, 2])]).unwrap_err();
        assert_eq!(e, "game 7: 2 move times for 3 moves");
    }
}
