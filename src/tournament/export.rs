//! Tournament records in other formats: Othello games as GGF (see [`crate::formats::ggf`]),
//! with the engines as players, the result and each move's eval and time.

use crate::formats::ggf::GgfGame;
use crate::game::Game;
use crate::games::othello::{Color, Position};

use super::record::{GameRecord, Reason};

/// One Othello record as a GGF game: `PC[tessera]`, `PB`/`PW` the engines of seats 0 and 1,
/// `RE` Black's final disc difference (empties to the winner, `+12.00`; `?` for a game an
/// engine forfeited), `TY[8]`, `BO` the start, and the moves with the mover's eval in discs
/// and the seconds used where the record has them.
///
/// # Errors
/// A record of another game, or one whose start or moves are not a legal Othello game.
pub fn record_to_ggf(record: &GameRecord) -> Result<GgfGame, String> {
    if record.game != <Position as Game>::ID {
        return Err(format!(
            "game {} is {}, not othello (GGF export is for Othello)",
            record.id, record.game
        ));
    }
    let start: Position = record
        .start
        .parse()
        .map_err(|e| format!("game {}: bad start: {e}", record.id))?;
    let mut game = GgfGame::from_position(start);
    game.properties = vec![
        ("GM".into(), "Othello".into()),
        ("PC".into(), "tessera".into()),
        (
            "PB".into(),
            record.engines.first().cloned().unwrap_or_default(),
        ),
        (
            "PW".into(),
            record.engines.get(1).cloned().unwrap_or_default(),
        ),
    ];
    let mut pos = start;
    for (i, text) in record.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("game {} move {}: {e}", record.id, i + 1))?;
        let stat = record.move_stats.get(i);
        game.push(
            mv,
            stat.map(|s| f64::from(s.score) / 100.0),
            stat.map(|s| round3(s.seconds)),
        )
        .map_err(|e| format!("game {} move {}: {e}", record.id, i + 1))?;
        pos = pos.play(mv);
    }
    let result = match (record.reason, pos.outcome()) {
        (Reason::Normal, Some(_)) => {
            let black = match pos.side() {
                Color::Black => pos.final_disc_difference(),
                Color::White => -pos.final_disc_difference(),
            };
            format!("{black:+}.00")
        }
        _ => "?".to_string(),
    };
    game.properties.push(("RE".into(), result));
    game.properties.push(("TY".into(), "8".into()));
    Ok(game)
}

/// Seconds to the millisecond (records keep more digits than a GGF reader needs).
fn round3(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// Every record as one GGF line each (the records' order).
///
/// # Errors
/// As [`record_to_ggf`], for the first record that fails.
pub fn records_to_ggf(records: &[GameRecord]) -> Result<String, String> {
    let mut out = String::new();
    for r in records {
        out.push_str(&record_to_ggf(r)?.to_ggf());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf;
    use crate::tournament::record::MoveStat;

    fn record(moves: &[&str]) -> GameRecord {
        GameRecord {
            id: 3,
            block: 1,
            round: 1,
            game: "othello".into(),
            seed: 1,
            engines: vec!["alpha".into(), "beta".into()],
            opening: String::new(),
            start: Position::start().to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            move_stats: moves
                .iter()
                .enumerate()
                .map(|(i, _)| MoveStat {
                    score: 100 * i as i32 - 250,
                    seconds: 0.0125 * i as f64,
                })
                .collect(),
            scores: vec![13, -13],
            points: vec![1.0, 0.0],
            ranks: vec![1, 2],
            reason: Reason::Normal,
            detail: None,
            seconds: 0.5,
            teams: Vec::new(),
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
            overrun_ms: None,
        }
    }

    #[test]
    fn a_record_exports_and_reads_back() {
        // The nine-move wipe-out: Black 13 discs, White none, so Black wins by 64.
        let wipeout = ["f5", "f6", "f7", "g5", "h4", "c5", "b5", "f4", "e3"];
        let g = record_to_ggf(&record(&wipeout)).unwrap();
        let text = g.to_ggf();
        assert!(
            text.starts_with("(;GM[Othello]PC[tessera]PB[alpha]PW[beta]RE[+64.00]TY[8]BO[8 "),
            "{text}"
        );
        assert!(text.contains("B[F5/-2.5/0]W[F6/-1.5/0.013]"), "{text}");
        let back = ggf::parse_game(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.final_position().black().count_ones(), 13);
        assert_eq!(back.move_list().len(), 9);
    }

    #[test]
    fn other_games_are_refused() {
        let mut r = record(&[]);
        r.game = "quixo".into();
        assert!(record_to_ggf(&r).unwrap_err().contains("not othello"));
    }
}
