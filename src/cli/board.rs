//! What the board drawing (`tessera serve`'s page and the HTML reports' game viewer, one
//! script: `html/board.js`) needs to know about each game beyond [`CliGame`]: how a move
//! is made by clicks (the cells and choices it names, in order), the counts shown under the
//! board, the cells to highlight when the game is over (a Quixo line), the result in words,
//! Othello's GGF record; and recorded games replayed for it ([`replay`]).
//!
//! A click token is a cell as the board drawing names it (`f5`; Quixo `c1`; Talat
//! `WG:c1`) or a choice the drawing offers beside the board (four-player Quixo's dot `>2`,
//! a Talat tower kind `H3` to place). The page never knows the rules: it offers the tokens
//! that continue some legal move's token list.

use serde_json::{Value, json};
use tessera::game::{Game, Seat};
use tessera::games::{othello, quixo, talat};
use tessera::tournament::record::GameRecord;

use super::games::CliGame;

/// The web page's view of a game.
pub trait BoardGame: CliGame + 'static {
    /// The click tokens of move `mv` (its text), in the order a person clicks them; empty
    /// for a pass (played automatically).
    fn clicks(mv: &str) -> Vec<String>;

    /// How a person makes a move on the page, in one paragraph.
    const CLICK_HELP: &'static str;

    /// Counts shown under the board, as (label, value): discs, cubes, points.
    fn counts(&self) -> Vec<(String, i64)>;

    /// The result of a finished game in words: who won (or a draw), then each seat's
    /// score and place (`Black (X) wins. Black (X) 40 (place 1), White (O) 24 (place 2)`).
    fn result_words(&self) -> Option<String> {
        let detail = self.result_text()?;
        let outcome = self.outcome()?;
        let winners: Vec<String> = (0..self.seats())
            .map(|i| Seat(i as u8))
            .filter(|&s| outcome.rank(s) == 1)
            .map(|s| self.seat_name(s))
            .collect();
        let head = if winners.len() == self.seats() {
            "Draw".to_string()
        } else if winners.len() == 1 {
            format!("{} wins", winners[0])
        } else {
            format!("{} win", winners.join(" and "))
        };
        Some(format!(
            "{head}. {}",
            detail.trim_start_matches("game over: ")
        ))
    }

    /// Cells to highlight on a finished board (a completed Quixo line); none by default.
    fn marks(&self) -> Vec<String> {
        Vec::new()
    }

    /// The game's record in GGF (Othello only).
    fn ggf(_start: &Self, _moves: &[Self::Move]) -> Option<String> {
        None
    }

    /// A start position and moves from a GGF game record (Othello only).
    ///
    /// # Errors
    /// A malformed record, or a game that has no GGF records.
    fn from_ggf(_text: &str) -> Result<(Self, Vec<Self::Move>), String> {
        Err(format!(
            "GGF records are Othello games; {} starts from a position or a move list",
            Self::ID
        ))
    }
}

/// Splits `a-b` / `axb` move texts into their two cells, keeping a board prefix
/// (`WG:c1-c2` gives `WG:c1`, `WG:c2`).
fn two_cells(text: &str, sep: &[char]) -> Vec<String> {
    let (board, rest) = match text.split_once(':') {
        Some((b, r)) => (format!("{b}:"), r),
        None => (String::new(), text),
    };
    match rest.split_once(sep) {
        Some((a, b)) => vec![format!("{board}{a}"), format!("{board}{b}")],
        None => vec![text.to_string()],
    }
}

impl BoardGame for othello::Position {
    const CLICK_HELP: &'static str = "Click a square with a dot (a legal move). A forced pass \
        is played for you and noted.";

    fn clicks(mv: &str) -> Vec<String> {
        if mv.eq_ignore_ascii_case("pass") {
            Vec::new()
        } else {
            vec![mv.to_string()]
        }
    }

    fn counts(&self) -> Vec<(String, i64)> {
        vec![
            (
                self.seat_name(Seat(0)),
                i64::from(self.black().count_ones()),
            ),
            (
                self.seat_name(Seat(1)),
                i64::from(self.white().count_ones()),
            ),
            ("empty".into(), i64::from(self.empties())),
        ]
    }

    fn ggf(start: &Self, moves: &[othello::Move]) -> Option<String> {
        let mut game = tessera::formats::ggf::GgfGame::from_position(*start);
        for &m in moves {
            game.push(m, None, None).ok()?;
        }
        Some(game.to_ggf())
    }

    fn from_ggf(text: &str) -> Result<(Self, Vec<othello::Move>), String> {
        let game = tessera::formats::ggf::parse_game(text)?;
        Ok((game.start, game.move_list()))
    }
}

impl<const FOUR: bool> BoardGame for quixo::Position<FOUR>
where
    quixo::Position<FOUR>: CliGame,
{
    const CLICK_HELP: &'static str = "Click a highlighted edge cube (blank or yours), then one \
        of the highlighted ends of its row or column to push it back in; four players then \
        choose the team member the dot points at. Five in a row wins.";

    fn clicks(mv: &str) -> Vec<String> {
        if mv.eq_ignore_ascii_case("pass") {
            return Vec::new();
        }
        let (push, dot) = match mv.split_once('>') {
            Some((p, d)) => (p, Some(format!(">{d}"))),
            None => (mv, None),
        };
        let mut out = two_cells(push, &['-']);
        out.extend(dot);
        out
    }

    fn counts(&self) -> Vec<(String, i64)> {
        let cells = i64::from(self.size()) * i64::from(self.size());
        let (x, o) = (
            i64::from(self.x().count_ones()),
            i64::from(self.o().count_ones()),
        );
        let (xn, on) = if FOUR {
            ("team X cubes", "team O cubes")
        } else {
            ("X cubes", "O cubes")
        };
        vec![
            (xn.into(), x),
            (on.into(), o),
            ("blank".into(), cells - x - o),
        ]
    }

    /// Every complete line of the winning team.
    fn marks(&self) -> Vec<String> {
        let Some(team) = self.winner_team() else {
            return Vec::new();
        };
        let cubes = if team == 0 { self.x() } else { self.o() };
        let g = self.geometry();
        let mut out = Vec::new();
        for &line in g.lines() {
            if cubes & line != line {
                continue;
            }
            for canonical in 0..25u8 {
                if let Some(bit) = g.cell_bit(canonical)
                    && line >> bit & 1 == 1
                {
                    let name = format!(
                        "{}{}",
                        (b'a' + canonical % 5) as char,
                        (b'1' + canonical / 5) as char
                    );
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }
}

impl<const TWO: bool> BoardGame for talat::Position<TWO>
where
    talat::Position<TWO>: CliGame,
{
    const CLICK_HELP: &'static str = "Setup: click a tower of the 'to place' tray, then a square \
        of one of your start rows. Play: click one of your highlighted towers, then the square \
        it steps to (forward or diagonally forward) or captures on (also sideways).";

    fn clicks(mv: &str) -> Vec<String> {
        if mv.eq_ignore_ascii_case("pass") {
            return Vec::new();
        }
        if let Some((kind, cell)) = mv.split_once('@') {
            return vec![kind.to_string(), cell.to_string()];
        }
        two_cells(mv, &['-', 'x'])
    }

    fn counts(&self) -> Vec<(String, i64)> {
        (0..self.seats())
            .map(|s| {
                (
                    format!(
                        "{} points",
                        talat::notation::colour_name(TWO, s)
                            .split(' ')
                            .next()
                            .unwrap_or("")
                    ),
                    i64::from(self.points(s)),
                )
            })
            .collect()
    }
}

/// The counts as JSON `[{label, value}]`.
pub fn counts_json<G: BoardGame>(pos: &G) -> Value {
    pos.counts()
        .into_iter()
        .map(|(label, value)| json!({ "label": label, "value": value }))
        .collect()
}

/// The start position and opening moves of a record: when its `opening` is a move list
/// from the game's start that leads to its `start`, the game is shown from the start with
/// those moves as its first plies (so move numbers count from ply 1); otherwise from
/// `start`.
///
/// # Errors
/// A start position the rules refuse.
fn record_start<G: BoardGame>(rec: &GameRecord) -> Result<(G, Vec<G::Move>), String> {
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

/// The first click tokens of `pos`'s legal moves (the cells or choices a person would
/// start a move with), each once; none when the game is over or the only move is a pass.
fn first_tokens<G: BoardGame>(pos: &G) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if pos.outcome().is_some() {
        return out;
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    for m in moves.iter() {
        if let Some(t) = G::clicks(&m.to_string()).into_iter().next()
            && !out.contains(&t)
        {
            out.push(t);
        }
    }
    out
}

/// One ply of a replayed game: the position, the last move's clicks, the legal moves' first
/// tokens and the counts.
fn frame<G: BoardGame>(pos: &G, last: Vec<String>) -> Value {
    json!({
        "position": pos.to_string(),
        "last": last,
        "next": first_tokens(pos),
        "counts": counts_json(pos),
    })
}

/// A recorded game replayed for the board drawing: per ply (the start first) the position,
/// the last move's clicks, the legal moves' first tokens and the counts; the moves (opening moves first, `opening` of
/// them); the result in words; the winning marks of the final position.
///
/// # Errors
/// A record of another game, or a start position or move the rules refuse (naming the
/// record and the move).
pub fn replay<G: BoardGame>(rec: &GameRecord) -> Result<Value, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts_split_into_the_cells_clicked() {
        assert_eq!(othello::Position::clicks("f5"), ["f5"]);
        assert!(othello::Position::clicks("pass").is_empty());
        assert_eq!(quixo::Quixo::clicks("c1-a1"), ["c1", "a1"]);
        assert_eq!(quixo::Quixo4p::clicks("c1-a1>2"), ["c1", "a1", ">2"]);
        assert_eq!(talat::Talat::clicks("H3@WG:c1"), ["H3", "WG:c1"]);
        assert_eq!(talat::Talat::clicks("WG:c1-c2"), ["WG:c1", "WG:c2"]);
        assert_eq!(talat::Talat::clicks("GB:c2xd2"), ["GB:c2", "GB:d2"]);
    }

    #[test]
    fn quixo_marks_the_winning_row() {
        // X completes row 1; O has nothing.
        let pos: quixo::Quixo = "XXXXX/O..../O..../...../..... O".parse().unwrap();
        assert_eq!(pos.marks(), ["a1", "b1", "c1", "d1", "e1"]);
        let open: quixo::Quixo = "XXXX./O..../O..../...../..... O".parse().unwrap();
        assert!(open.marks().is_empty());
    }

    #[test]
    fn othello_counts_discs() {
        let c = othello::Position::start().counts();
        assert_eq!((c[0].1, c[1].1, c[2].1), (2, 2, 60));
    }
}
