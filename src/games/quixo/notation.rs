//! Text forms of Quixo moves and positions (`docs/rules/quixo.md`, "Notation").
//!
//! - Move: `c1-a1` (take c1, put back at a1; `c1a1` accepted on input); four players add
//!   the dot's target member, `c1-a1>2`; a four-player forced pass is `pass`.
//! - Two-player position: the rows top first, joined by `/`, a space, the side to move:
//!   `XX.../...../...../...../..... O` (3 or 4 rows of 3 or 4 for the smaller boards).
//! - Four-player position: the same, with the dot in the letter's case and the seat to move
//!   named: `X` / `O` = a cube whose dot points at team member 1 (A1 / B1), `x` / `o` =
//!   dot at member 2 (A2 / B2); seat `A1`, `B1`, `A2` or `B2`:
//!   `Xx.../..o../...../...../..... B1`. The informal variant where every dot points at
//!   the partner appends ` partner-dots`: `Xx.../..o../...../...../..... B1 partner-dots`.

use std::fmt;
use std::str::FromStr;

use crate::game::{MoveError, PositionError, shown};

use super::geometry::{MAX_SIZE, MIN_SIZE};
use super::position::{Move, Position};

/// Name of canonical cell `5*row + col`, e.g. `c1`.
fn cell_name(c: u8) -> [char; 2] {
    [(b'a' + c % 5) as char, (b'1' + c / 5) as char]
}

/// Canonical cell of a name `a1`..`e5`.
fn parse_cell(s: &[u8]) -> Option<u8> {
    match s {
        [col @ b'a'..=b'e', row @ b'1'..=b'5'] => Some((row - b'1') * 5 + (col - b'a')),
        _ => None,
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        let [a, b] = cell_name(self.from);
        let [c, d] = cell_name(self.to);
        write!(f, "{a}{b}-{c}{d}")?;
        if self.dot != 0 {
            write!(f, ">{}", self.dot)?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Parses `c1-a1`, `c1a1`, `c1-a1>2` or `pass` (not checked against a position).
    fn from_str(text: &str) -> Result<Self, MoveError> {
        let t = text.trim();
        if t == "pass" {
            return Ok(Move::PASS);
        }
        let bad = || MoveError::Malformed {
            text: text.to_string(),
            message: format!(
                "move '{}' is malformed: expected <from>-<to> like c1-a1 (four players: c1-a1>2)",
                shown(text)
            ),
        };
        let (body, dot) = match t.split_once('>') {
            Some((b, "1")) => (b, 1),
            Some((b, "2")) => (b, 2),
            Some(_) => {
                return Err(MoveError::Malformed {
                    text: text.to_string(),
                    message: format!("move '{}': the dot suffix must be >1 or >2", shown(text)),
                });
            }
            None => (t, 0),
        };
        let b = body.as_bytes();
        let (from, to) = match b.len() {
            4 => (&b[..2], &b[2..]),
            5 if b[2] == b'-' => (&b[..2], &b[3..]),
            _ => return Err(bad()),
        };
        let (Some(from), Some(to)) = (parse_cell(from), parse_cell(to)) else {
            return Err(bad());
        };
        Ok(Move::new(from, to, dot))
    }
}

impl<const FOUR: bool> fmt::Display for Position<FOUR> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = u32::from(self.size);
        for r in 0..n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..n {
                let b = 1u32 << (r * n + c);
                let dot2 = self.dots & b != 0;
                let ch = match (self.x & b != 0, self.o & b != 0, dot2) {
                    (true, _, false) => 'X',
                    (true, _, true) => 'x',
                    (_, true, false) => 'O',
                    (_, true, true) => 'o',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
        }
        let side = if FOUR {
            ["A1", "B1", "A2", "B2"][self.seat as usize]
        } else {
            ["X", "O"][self.seat as usize]
        };
        write!(f, " {side}")?;
        if self.partner_dots {
            f.write_str(" partner-dots")?;
        }
        Ok(())
    }
}

impl<const FOUR: bool> FromStr for Position<FOUR> {
    type Err = PositionError;

    /// Parses the one-line form of the module docs; rows may also be separated by
    /// whitespace or newlines instead of `/` (the `cases.txt` layout).
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let at = |why: String| format!("position '{}': {why}", shown(text));
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let partner_dots = FOUR && words.last() == Some(&"partner-dots");
        if partner_dots {
            words.pop();
        }
        let Some(side) = words.pop() else {
            return Err(PositionError::Empty(at("empty text".into())));
        };
        if side.contains('/') || words.is_empty() {
            return Err(PositionError::SideToMove(at(
                "no side to move: the rows joined by '/', then a space and X or O".into(),
            )));
        }
        // A whole board in the first word ("XOO/OXX/... X extra"): the word after it was
        // the side to move and the rest is extra text, not more rows.
        let first_rows: Vec<&str> = words[0].split('/').collect();
        let k = first_rows.len();
        if words.len() > 1
            && (usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&k)
            && first_rows.iter().all(|r| r.chars().count() == k)
        {
            let extra: Vec<&str> = words[2..].iter().copied().chain([side]).collect();
            return Err(PositionError::Shape(at(format!(
                "unexpected text '{}' after the side to move '{}'",
                shown(&extra.join(" ")),
                shown(words[1])
            ))));
        }
        let rows: Vec<&str> = words.iter().flat_map(|w| w.split('/')).collect();
        if rows.iter().any(|r| r.is_empty()) {
            return Err(PositionError::Shape(at(
                "an empty row: a '/' at the start or end of the board or two '/' in a row".into(),
            )));
        }
        let n = rows.len();
        if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&n) {
            return Err(PositionError::Shape(at(format!(
                "{n} rows (the last word, '{}', read as the side to move); expected 3, 4 or 5 \
                 rows joined by '/', then the side to move",
                shown(side)
            ))));
        }
        let (mut x, mut o, mut dots) = (0u32, 0u32, 0u32);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != n {
                return Err(PositionError::Shape(at(format!(
                    "row {} '{}' has {} cells, expected {n}",
                    r + 1,
                    shown(row),
                    row.chars().count()
                ))));
            }
            for (c, ch) in row.chars().enumerate() {
                let b = 1u32 << (r * n + c);
                match ch {
                    '.' => {}
                    'X' => x |= b,
                    'O' => o |= b,
                    'x' if FOUR => {
                        x |= b;
                        dots |= b;
                    }
                    'o' if FOUR => {
                        o |= b;
                        dots |= b;
                    }
                    _ => {
                        let allowed = if FOUR { "X x O o ." } else { "X O ." };
                        return Err(PositionError::BadToken(at(format!(
                            "row {} has '{}'; cells are {allowed}",
                            r + 1,
                            ch.escape_debug()
                        ))));
                    }
                }
            }
        }
        let seat = if FOUR {
            match side {
                "A1" => 0,
                "B1" => 1,
                "A2" => 2,
                "B2" => 3,
                _ => {
                    return Err(PositionError::SideToMove(at(format!(
                        "seat to move '{}' is not A1, B1, A2 or B2",
                        shown(side)
                    ))));
                }
            }
        } else {
            match side {
                "X" => 0,
                "O" => 1,
                _ => {
                    return Err(PositionError::SideToMove(at(format!(
                        "side to move '{}' is not X or O",
                        shown(side)
                    ))));
                }
            }
        };
        Self::from_masks(n as u8, x, o, dots, seat)
            .map(|p| p.with_partner_dots(partner_dots))
            .map_err(|e| e.map_message(at))
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, MoveError as M, PositionError as P};
    use crate::games::quixo::{Quixo, Quixo4p};

    #[test]
    fn bad_moves_are_named_by_kind() {
        let start = Quixo::start();
        let malformed =
            "move 'c1a' is malformed: expected <from>-<to> like c1-a1 (four players: c1-a1>2)";
        assert_eq!(
            start.parse_move("c1a").unwrap_err(),
            M::malformed("c1a", malformed)
        );
        assert_eq!(
            start.parse_move("c1-a1>3").unwrap_err(),
            M::malformed("c1-a1>3", "move 'c1-a1>3': the dot suffix must be >1 or >2")
        );
        assert_eq!(
            start.parse_move("c1-a1>2").unwrap_err(),
            M::malformed(
                "c1-a1>2",
                "move 'c1-a1>2': a dot suffix only exists in the four-player game"
            )
        );
        assert_eq!(
            Quixo4p::start().parse_move("c1-a1").unwrap_err(),
            M::malformed(
                "c1-a1",
                "move 'c1-a1': the four-player game needs a dot suffix >1 or >2"
            )
        );
        assert_eq!(
            start.parse_move("c3-a3").unwrap_err(),
            M::illegal(
                "c3-a3",
                "move 'c3-a3' is not legal here (only border cubes may be taken)"
            )
        );
        let won: Quixo = "XXXXX/...../...../...../..... O".parse().unwrap();
        assert_eq!(
            won.parse_move("e5-a5").unwrap_err(),
            M::GameOver {
                text: "e5-a5".into(),
                message: "move 'e5-a5' is not legal here (the game is over)".into()
            }
        );
    }

    #[test]
    fn bad_positions_are_named_by_kind() {
        let parse = |t: &str| t.parse::<Quixo>().unwrap_err();
        assert_eq!(parse(" "), P::Empty("position ' ': empty text".into()));
        assert_eq!(
            parse("XX/.../... X"),
            P::Shape("position 'XX/.../... X': row 1 'XX' has 2 cells, expected 3".into())
        );
        assert_eq!(
            parse("XZX/.../... X"),
            P::BadToken("position 'XZX/.../... X': row 1 has 'Z'; cells are X O .".into())
        );
        assert_eq!(
            parse("XXX/OOO/... Q"),
            P::SideToMove("position 'XXX/OOO/... Q': side to move 'Q' is not X or O".into())
        );
        assert_eq!(
            Quixo::from_masks(3, 1, 1, 0, 0).unwrap_err(),
            P::Impossible("a cell holds both X and O".into())
        );
        assert_eq!(
            Quixo::empty(6).unwrap_err(),
            P::Shape("board size 6 is not 3, 4 or 5".into())
        );
    }
}
