//! Talat as people see it: White, Grey and Black (two players: White and Grey with the
//! Djinn), the three boards side by side, results in points.

use serde_json::{Value, json};

use super::{Present, two_cells};
use crate::game::{Game, Seat};
use crate::games::talat::{self as tl, OUTCOME_SCALE, Position, notation::colour_name};

impl<const TWO: bool> Present for Position<TWO>
where
    Position<TWO>: Game,
{
    const SCORE_UNIT: &'static str = tl::SCORE_UNIT;
    const MOVE_HELP: &'static str = "Moves: a placement H3@WG:c1 (tower kind T/S/H = triangle/square/hexagon, \
    height 1-3, on a start square of your boards), a step WG:c1-c2 (one square forward or \
    diagonally forward), a capture WG:c2xd2 (forward, diagonally forward or sideways), or pass \
    (played for you when forced). Boards WG, GB, BW; files a..e, rows 1..5. Also 'help', 'quit'.";
    const CLICK_HELP: &'static str = "Setup: click a tower of the 'to place' tray, then a square \
        of one of your start rows. Play: click one of your highlighted towers, then the square \
        it steps to (forward or diagonally forward) or captures on (also sideways).";

    fn seat_name(&self, seat: Seat) -> String {
        colour_name(TWO, seat.index())
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    /// `White 23 points (place 1), Grey 15 points (place 2), ...`: the points of the rules
    /// and the places after the tie-break.
    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let parts: Vec<String> = (0..self.seats())
            .map(|s| {
                format!(
                    "{} {} points (place {})",
                    colour_name(TWO, s),
                    self.points(s),
                    outcome.rank(Seat(s as u8))
                )
            })
            .collect();
        Some(format!("game over: {}", parts.join(", ")))
    }

    fn result_json(&self) -> Option<Value> {
        let outcome = self.outcome()?;
        let seats: Vec<Value> = (0..self.seats())
            .map(|s| {
                json!({
                    "seat": s,
                    "name": colour_name(TWO, s),
                    "points": self.points(s),
                    "place": outcome.rank(Seat(s as u8)),
                })
            })
            .collect();
        Some(json!({ "seats": seats }))
    }

    /// The finished game's margin over the best opponent for the side to move,
    /// centi-points.
    fn final_score(&self) -> i32 {
        self.outcome()
            .map_or(0, |o| o.margin(self.to_move()) * (100 / OUTCOME_SCALE))
    }

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
                        colour_name(TWO, s).split(' ').next().unwrap_or("")
                    ),
                    i64::from(self.points(s)),
                )
            })
            .collect()
    }
}
