//! Quixo as people see it: seats X and O (four players A1, B1, A2, B2 in teams X and O),
//! the board with the dots of four-player cubes, the winning line marked.

use super::{Present, two_cells};
use crate::game::{Game, Seat};
use crate::games::quixo::{self as qx, Position};

/// Seat names: two players X and O; four players A1, B1, A2, B2 (teams X and O).
fn seat_label<const FOUR: bool>(seat: Seat) -> String {
    if FOUR {
        let name = ["A1", "B1", "A2", "B2"][seat.index() % 4];
        let team = if seat.0.is_multiple_of(2) { 'X' } else { 'O' };
        format!("{name} (team {team})")
    } else if seat.0 == 0 {
        "X".to_string()
    } else {
        "O".to_string()
    }
}

impl<const FOUR: bool> Present for Position<FOUR>
where
    Position<FOUR>: Game,
{
    const SCORE_UNIT: &'static str = qx::SCORE_UNIT;
    const MOVE_HELP: &'static str = "Type a move as <from>-<to>, e.g. c1-a1: take your cube or a \
        blank at border cell c1 and push it back in at a1, the end of its row or column \
        (columns a..e left to right, rows 1..5 top to bottom). Four players add the dot, \
        c1-a1>2 (toward your team's member 1 or 2). Also 'help' and 'quit'.";
    const CLICK_HELP: &'static str = "Click a highlighted edge cube (blank or yours), then one \
        of the highlighted ends of its row or column to push it back in; four players then \
        choose the team member the dot points at. Five in a row wins.";

    fn seat_name(&self, seat: Seat) -> String {
        seat_label::<FOUR>(seat)
    }

    /// The board with coordinates; four-player cubes show their dot (`X1` = an X cube
    /// whose dot points at A1, `O2` at B2).
    fn diagram(&self) -> String {
        let n = u32::from(self.size());
        let mut out = String::from("   ");
        for c in 0..n {
            out.push_str(&format!(" {}", (b'a' + c as u8) as char));
            if FOUR {
                out.push(' ');
            }
        }
        out.push('\n');
        for r in 0..n {
            out.push_str(&format!(" {} ", r + 1));
            for c in 0..n {
                let b = 1u32 << (r * n + c);
                let sym = if self.x() & b != 0 {
                    'X'
                } else if self.o() & b != 0 {
                    'O'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(sym);
                if FOUR {
                    out.push(match (sym, self.dots() & b != 0) {
                        ('.', _) => ' ',
                        (_, false) => '1',
                        (_, true) => '2',
                    });
                }
            }
            out.push('\n');
        }
        out.push_str(&format!("{} to move", seat_label::<FOUR>(self.to_move())));
        out
    }

    /// A finished game: `WIN` for the side to move if it has won (a line of its team), else
    /// `-WIN` (the forced-result scale of the search, 0 plies to go).
    fn final_score(&self) -> i32 {
        match self.outcome() {
            Some(o) if o.score(self.to_move()) > 0 => crate::search::WIN,
            Some(_) => -crate::search::WIN,
            None => 0,
        }
    }

    fn result_text(&self) -> Option<String> {
        self.outcome()?;
        Some(match self.winner_team() {
            Some(0) => "game over: X has a line and wins".to_string(),
            Some(_) => "game over: O has a line and wins".to_string(),
            None => "game over: a draw".to_string(),
        })
    }

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
