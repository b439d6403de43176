//! The one-line position text, its parser, and the three-board diagram.
//!
//! Position text (fields separated by single spaces; parsing accepts any whitespace):
//!
//! ```text
//! talat WG:<board> GB:<board> BW:<board> taken:<W>/<G>/<B> to:<colour> phase:<phase> frozen:<boards> score:<W>,<G>,<B>
//! ```
//!
//! - The id is `talat` or `talat-2p` (two-player texts have two `taken` groups and scores).
//! - `<board>`: five rows, row 1 first, separated by `/`; each row five cells `a`..`e`:
//!   `.` empty, or a tower `T1`..`H3`, upper case for the board's row-1 player (its first
//!   letter) and lower case for the row-5 player. `WG:H3.....` starts with White's `H3` on
//!   `a1`.
//! - `taken`: per seat, the towers it captured as victim colour and kind (`GS2,BT1`), or
//!   `-`.
//! - `to`: the colour letter of the seat to move; `phase`: `setup`, `play` or `over`;
//!   `frozen`: `-` or the frozen boards (`WG,BW`); `score`: points per seat.
//!
//! In `phase:setup` the towers not on a board are still to be placed, and the parser checks
//! the turn order of the placements; in `phase:play` or `phase:over` towers missing from
//! the text are out of the game (for puzzles and rule tests; a real game lists all of
//! them). Frozen boards, the play/over distinction and scores follow from the rest; the
//! parser checks that the text agrees.

use std::fmt::{self, Write as _};

use super::board::{Board, BoardId, Colour, ROW1, ROW5, Side, square_name};
use super::freeze::is_frozen;
use super::position::{ALL_KINDS, Phase, Position};
use super::tower::Kind;
use crate::game::{PositionError, shown};

/// The name of colour index `colour` (`"the Djinn"` for Black in `talat-2p`).
#[must_use]
pub fn colour_name(two_player: bool, colour: usize) -> String {
    match colour {
        0 => "White".into(),
        1 => "Grey".into(),
        _ if two_player => "the Djinn".into(),
        _ => "Black".into(),
    }
}

/// The name of a seat, with its number: `White (seat 0)`.
#[must_use]
pub fn seat_name(two_player: bool, seat: usize) -> String {
    format!("{} (seat {seat})", colour_name(two_player, seat))
}

fn write_board(out: &mut String, board: &Board) {
    for r in 0..5 {
        if r > 0 {
            out.push('/');
        }
        for f in 0..5 {
            match board.at(r * 5 + f) {
                None => out.push('.'),
                Some((side, kind)) => {
                    let s = kind.to_string();
                    if side == Side::Lower {
                        out.push_str(&s);
                    } else {
                        out.push_str(&s.to_ascii_lowercase());
                    }
                }
            }
        }
    }
}

impl<const TWO: bool> fmt::Display for Position<TWO> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::game::Game;
        let mut s = String::with_capacity(160);
        s.push_str(Self::ID);
        for b in BoardId::ALL {
            let _ = write!(s, " {b}:");
            write_board(&mut s, self.board(b));
        }
        s.push_str(" taken:");
        for seat in 0..Self::SEATS {
            if seat > 0 {
                s.push('/');
            }
            let mut any = false;
            for victim in 0..3 {
                for k in Kind::all() {
                    if self.taken(seat, victim) >> k.index() & 1 != 0 {
                        if any {
                            s.push(',');
                        }
                        any = true;
                        let _ = write!(s, "{}{k}", Colour::from_index(victim).letter());
                    }
                }
            }
            if !any {
                s.push('-');
            }
        }
        let _ = write!(
            s,
            " to:{} phase:{} frozen:",
            Colour::from_index(self.seat_to_move()).letter(),
            match self.phase() {
                Phase::Setup => "setup",
                Phase::Play => "play",
                Phase::Over => "over",
            }
        );
        s.push_str(&frozen_text(self.frozen_mask()));
        s.push_str(" score:");
        for seat in 0..Self::SEATS {
            if seat > 0 {
                s.push(',');
            }
            let _ = write!(s, "{}", self.points(seat));
        }
        f.write_str(&s)
    }
}

impl<const TWO: bool> fmt::Debug for Position<TWO> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

fn frozen_text(mask: u8) -> String {
    let names: Vec<&str> = BoardId::ALL
        .iter()
        .filter(|b| mask >> b.index() & 1 != 0)
        .map(|b| b.name())
        .collect();
    if names.is_empty() {
        "-".into()
    } else {
        names.join(",")
    }
}

/// Parses one board's rows into `board`.
fn parse_board(id: BoardId, text: &str, board: &mut Board) -> Result<(), PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 5 {
        return Err(PositionError::Shape(format!(
            "board {id} has {} rows, expected 5 separated by '/'",
            rows.len()
        )));
    }
    for (r, row) in rows.iter().enumerate() {
        let mut f = 0;
        let mut chars = row.chars();
        while let Some(c) = chars.next() {
            if f >= 5 {
                return Err(PositionError::Shape(format!(
                    "board {id} row {} '{}' has more than 5 cells",
                    r + 1,
                    shown(row)
                )));
            }
            let sq = r * 5 + f;
            if c == '.' {
                f += 1;
                continue;
            }
            let h = chars.next().unwrap_or(' ');
            let kind = Kind::parse(&format!("{c}{h}")).ok_or_else(|| {
                PositionError::BadToken(format!(
                    "bad tower '{}' on {id}:{} (T1..H3 for the row-1 player, t1..h3 for the row-5 player, '.' empty)",
                    shown(&format!("{c}{h}")),
                    square_name(sq)
                ))
            })?;
            let side = if c.is_ascii_uppercase() {
                Side::Lower
            } else {
                Side::Upper
            };
            board.occ[side.index()] |= 1 << sq;
            board.kind[sq] = kind.index() as u8;
            f += 1;
        }
        if f != 5 {
            return Err(PositionError::Shape(format!(
                "board {id} row {} '{}' has {f} cells, expected 5",
                r + 1,
                shown(row)
            )));
        }
    }
    Ok(())
}

/// Splits `token` as `name:value`, checking the name.
fn field<'a>(token: Option<&'a str>, name: &str) -> Result<&'a str, PositionError> {
    let t = token.ok_or_else(|| {
        PositionError::Shape(format!("position text ends before its '{name}:' field"))
    })?;
    t.strip_prefix(name)
        .and_then(|r| r.strip_prefix(':'))
        .ok_or_else(|| {
            PositionError::Shape(format!(
                "expected the '{name}:' field, found '{}'",
                shown(t)
            ))
        })
}

/// Parses the one-line position text (module docs).
///
/// # Errors
/// A one-line [`PositionError`] naming the first malformed or inconsistent part.
pub fn parse_position<const TWO: bool>(text: &str) -> Result<Position<TWO>, PositionError> {
    use crate::game::Game;
    let mut tokens = text.split_whitespace();
    let id = tokens
        .next()
        .ok_or_else(|| PositionError::Empty("empty position text".into()))?;
    let want = Position::<TWO>::ID;
    if id != want {
        return Err(PositionError::WrongGame(format!(
            "position text starts with '{}', expected the game id '{want}'",
            shown(id)
        )));
    }
    let mut p = Position::<TWO>::empty();
    p.unplaced = [0; 3];
    for b in BoardId::ALL {
        let body = field(tokens.next(), b.name())?;
        parse_board(b, body, &mut p.boards[b.index()])?;
    }
    let seats = Position::<TWO>::SEATS;
    let taken = field(tokens.next(), "taken")?;
    let groups: Vec<&str> = taken.split('/').collect();
    if groups.len() != seats {
        return Err(PositionError::Shape(format!(
            "taken:{} has {} groups, expected one per seat ({seats}) separated by '/'",
            shown(taken),
            groups.len()
        )));
    }
    for (seat, g) in groups.iter().enumerate() {
        if *g == "-" {
            continue;
        }
        for item in g.split(',') {
            let mut cs = item.chars();
            let colour = cs.next().and_then(Colour::from_letter);
            let kind = Kind::parse(cs.as_str());
            let (Some(colour), Some(kind)) = (colour, kind) else {
                return Err(PositionError::BadToken(format!(
                    "bad captured tower '{}' (colour W/G/B then T1..H3, e.g. GS2)",
                    shown(item)
                )));
            };
            let c = colour.index();
            if c == seat || (TWO && c != 2 && c != 1 - seat) {
                return Err(PositionError::Impossible(format!(
                    "{} cannot have captured a tower of its own colour",
                    colour_name(TWO, seat)
                )));
            }
            if p.taken[seat][c] >> kind.index() & 1 != 0 {
                return Err(PositionError::Impossible(format!(
                    "captured tower '{}' is listed twice",
                    shown(item)
                )));
            }
            p.taken[seat][c] |= 1 << kind.index();
        }
    }
    let to = field(tokens.next(), "to")?;
    let seat = match to.chars().collect::<Vec<_>>()[..] {
        [c] => Colour::from_letter(c).map(Colour::index),
        _ => None,
    }
    .filter(|&s| s < seats)
    .ok_or_else(|| {
        PositionError::SideToMove(format!(
            "bad seat to move '{}' (W, G{})",
            shown(to),
            if TWO { "" } else { " or B" }
        ))
    })?;
    p.to_move = seat as u8;
    let phase = field(tokens.next(), "phase")?;
    let frozen = field(tokens.next(), "frozen")?;
    let score = field(tokens.next(), "score")?;
    if let Some(extra) = tokens.next() {
        return Err(PositionError::Shape(format!(
            "unexpected '{}' after the score field",
            shown(extra)
        )));
    }
    // Towers: each colour's kinds at most once, on the board or captured.
    let mut on_board = [0u16; 3];
    for b in BoardId::ALL {
        let board = &p.boards[b.index()];
        for side in Side::BOTH {
            let c = b.colour(side).index();
            let occ = board.occ[side.index()];
            if occ.count_ones() > 5 {
                return Err(PositionError::Impossible(format!(
                    "{} has {} towers on {b}, at most 5 (its start squares there)",
                    colour_name(TWO, c),
                    occ.count_ones()
                )));
            }
            let mut t = occ;
            while t != 0 {
                let sq = t.trailing_zeros() as usize;
                t &= t - 1;
                let k = board.kind_at(sq);
                if on_board[c] >> k & 1 != 0 {
                    return Err(PositionError::Impossible(format!(
                        "{}'s {} stands on two squares",
                        colour_name(TWO, c),
                        Kind::from_index(k)
                    )));
                }
                on_board[c] |= 1 << k;
            }
        }
    }
    let mut started = false;
    #[allow(clippy::needless_range_loop)]
    for c in 0..3 {
        let captured = (0..3).fold(0u16, |m, s| m | p.taken[s][c]);
        if captured & on_board[c] != 0 {
            return Err(PositionError::Impossible(format!(
                "a tower of {} is both on a board and captured",
                colour_name(TWO, c)
            )));
        }
        let placed = captured | on_board[c];
        started |= captured != 0;
        p.unplaced[c] = ALL_KINDS & !placed;
        if TWO && c == 2 {
            match placed.count_ones() {
                9 => {
                    return Err(PositionError::Impossible(
                        "the Djinn has 9 towers in the game; one stays out".into(),
                    ));
                }
                8 => p.unplaced[2] = 0,
                _ => {}
            }
        }
    }
    match phase {
        "setup" => {
            if p.phase() != Phase::Setup {
                return Err(PositionError::Impossible(
                    "phase:setup but every tower is placed".into(),
                ));
            }
        }
        // In play, towers missing from the text are out of the game (puzzles, rule tests).
        "play" | "over" => p.unplaced = [0; 3],
        _ => {
            return Err(PositionError::BadToken(format!(
                "bad phase '{}' (setup, play or over)",
                shown(phase)
            )));
        }
    }
    // Setup: towers on their own start rows only, turn order as the placements go.
    if p.phase() == Phase::Setup {
        for b in BoardId::ALL {
            let board = &p.boards[b.index()];
            started |= board.occ[0] & !ROW1 != 0 || board.occ[1] & !ROW5 != 0;
        }
        if started {
            return Err(PositionError::Impossible(
                "towers have moved or been captured while some are still to be placed".into(),
            ));
        }
        let placed: [u32; 3] = std::array::from_fn(|c| 9 - p.unplaced[c].count_ones());
        let expected = if TWO {
            if p.unplaced[2] != 0 {
                if placed[0] + placed[1] > 0 {
                    return Err(PositionError::Impossible(
                        "players' towers placed before the Djinn's placement is complete".into(),
                    ));
                }
                placed[2] as usize % 2
            } else {
                (placed[0] + placed[1]) as usize % 2
            }
        } else {
            (placed[0] + placed[1] + placed[2]) as usize % 3
        };
        let colours = if TWO { 2 } else { 3 };
        let total: u32 = placed[..colours].iter().sum();
        let balanced = (0..colours).all(|c| {
            placed[c] as usize
                == total as usize / colours + usize::from(c < total as usize % colours)
        });
        if !balanced || seat != expected {
            return Err(PositionError::Impossible(format!(
                "setup out of turn: placements so far give {} to place next",
                colour_name(TWO, expected)
            )));
        }
    } else {
        for b in BoardId::ALL {
            if is_frozen(&p.boards[b.index()]) {
                p.frozen |= 1 << b.index();
            }
        }
    }
    let want_frozen = frozen_text(p.frozen);
    if frozen != want_frozen {
        return Err(PositionError::Impossible(format!(
            "frozen:{} disagrees with the boards, which give frozen:{want_frozen}",
            shown(frozen)
        )));
    }
    let want_phase = match p.phase() {
        Phase::Setup => "setup",
        Phase::Play => "play",
        Phase::Over => "over",
    };
    if phase != want_phase {
        return Err(PositionError::Impossible(format!(
            "phase:{} disagrees with the towers and frozen boards, which give phase:{want_phase}",
            shown(phase)
        )));
    }
    let want_score: Vec<String> = (0..seats).map(|s| p.points(s).to_string()).collect();
    let want_score = want_score.join(",");
    if score != want_score {
        return Err(PositionError::Impossible(format!(
            "score:{} disagrees with the captures and goal rows, which give score:{want_score}",
            shown(score)
        )));
    }
    p.key = p.key_from_scratch();
    Ok(p)
}

impl<const TWO: bool> Position<TWO> {
    /// The three boards side by side, row 5 at the top, with coordinates; a tower is its
    /// colour letter and kind (`WH3`; the Djinn is `B`), then the turn, phase, frozen
    /// boards, points and captured towers, one line each.
    #[must_use]
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        // Each board column is 26 characters wide: " 5 " + 5 cells of 4 + 3 spaces.
        for b in BoardId::ALL {
            let (lo, up) = (
                b.colour(Side::Lower).letter(),
                b.colour(Side::Upper).letter(),
            );
            let head = if self.is_frozen(b) {
                format!("   {b} FROZEN ({lo} 1, {up} 5)")
            } else {
                format!("   {b} ({lo} row 1, {up} row 5)")
            };
            let _ = write!(s, "{head:<26}");
        }
        s.push('\n');
        for r in (0..5).rev() {
            for b in BoardId::ALL {
                let _ = write!(s, " {} ", r + 1);
                for f in 0..5 {
                    match self.board(b).at(r * 5 + f) {
                        None => s.push_str("  . "),
                        Some((side, kind)) => {
                            let _ = write!(s, " {}{kind}", b.colour(side).letter());
                        }
                    }
                }
                s.push_str("   ");
            }
            s.push('\n');
        }
        for _ in BoardId::ALL {
            s.push_str("     a   b   c   d   e    ");
        }
        s.push('\n');
        // No trailing blanks on the board lines.
        let mut s: String = s.lines().map(|l| l.trim_end().to_string() + "\n").collect();
        let phase = match self.phase() {
            Phase::Setup => "setup",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        let _ = writeln!(
            s,
            "{} to move; phase {phase}; frozen {}",
            seat_name(TWO, self.seat_to_move()),
            frozen_text(self.frozen_mask())
        );
        for seat in 0..Self::SEATS {
            let mut caps = Vec::new();
            for victim in 0..3 {
                for k in Kind::all() {
                    if self.taken(seat, victim) >> k.index() & 1 != 0 {
                        caps.push(format!("{}{k}", Colour::from_index(victim).letter()));
                    }
                }
            }
            let _ = writeln!(
                s,
                "{}: {} points ({} on goal rows), captured {}",
                colour_name(TWO, seat),
                self.points(seat),
                self.goal_towers(seat),
                if caps.is_empty() {
                    "-".into()
                } else {
                    caps.join(",")
                }
            );
        }
        s.pop();
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, MoveError as M, PositionError as P};
    use crate::games::talat::{Move, Position};

    type Talat = Position<false>;

    #[test]
    fn bad_moves_are_named_by_kind() {
        let expected = "(expected e.g. H3@WG:c1, WG:c1-c2, WG:c2xd2 or pass)";
        assert_eq!(
            Move::parse("H3@WG").unwrap_err(),
            M::malformed(
                "H3@WG",
                format!(
                    "'H3@WG' is not a Talat move: missing ':' between board and square {expected}"
                )
            )
        );
        assert_eq!(
            Move::parse("WG:c1-z9").unwrap_err().to_string(),
            format!("'WG:c1-z9' is not a Talat move: bad square 'z9' {expected}")
        );
        let start = Talat::start();
        let e = start.parse_move("pass").unwrap_err();
        assert_eq!(
            e,
            M::illegal("pass", "illegal move 'pass': no passing during setup")
        );
    }

    #[test]
    fn bad_positions_are_named_by_kind() {
        let start = Talat::start().to_string();
        let parse = |t: &str| t.parse::<Talat>().unwrap_err();
        assert_eq!(parse(""), P::Empty("empty position text".into()));
        assert_eq!(
            parse(&start.replacen("talat", "talat-2p", 1)),
            P::WrongGame(
                "position text starts with 'talat-2p', expected the game id 'talat'".into()
            )
        );
        assert_eq!(
            parse("talat WG:./././."),
            P::Shape("board WG has 4 rows, expected 5 separated by '/'".into())
        );
        let bad_tower = start.replacen("WG:.....", "WG:Z1....", 1);
        let e = parse(&bad_tower);
        assert!(matches!(e, P::BadToken(_)), "{bad_tower}: {e:?}");
        assert!(e.to_string().starts_with("bad tower 'Z1' on WG:a1"), "{e}");
        assert_eq!(
            parse(&start.replacen("to:W", "to:Q", 1)),
            P::SideToMove("bad seat to move 'Q' (W, G or B)".into())
        );
        assert_eq!(
            parse(&start.replacen("phase:setup", "phase:play", 1)),
            P::Impossible("frozen:- disagrees with the boards, which give frozen:WG,GB,BW".into())
        );
    }
}
