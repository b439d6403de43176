//! WTHOR game databases (`.wtb`): the French Othello federation's archive of human
//! tournament games since 1977, the standard source of real games for fitting an Othello
//! evaluation.
//!
//! Layout (little-endian), as documented by the FFO with the database:
//!
//! - a 16-byte header: century, year, month, day of the file's creation (one byte each);
//!   `n1`, the number of games (u32); `n2`, the number of records of the other WTHOR files
//!   (u16, 0 in a game file); the year of the games (u16); `p1`, the board size (0 or 8 for
//!   8x8, 10 for 10x10); `p2`, the type (0 games, 1 solitaires); `p3`, the depth of the
//!   theoretical scores; one reserved byte;
//! - `n1` game records of 68 bytes: tournament, Black and White player numbers (u16 each,
//!   indices into the `.JOU`/`.TRN` files, not read here); Black's disc count at the end
//!   (the "real score", empties counted for the winner) and the theoretical score (one byte
//!   each); then 60 moves, one byte each, `10 * rank + file` with both from 1 (`11` = a1,
//!   `88` = h8), passes left out, `0` after the last move.
//!
//! [`parse()`] checks the header against the file's length (a file cut short or longer than
//! its header says is refused) and replays every game with the rules, so an illegal or
//! malformed move is reported with its game and ply. [`write()`] makes a file of this layout
//! (the tests write their own small databases with it).

use crate::game::Game;
use crate::games::othello::{Color, Move, Position, Square};

/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of one 8x8 game record.
pub const GAME_BYTES: usize = 68;
/// Most games one file may hold: the whole WTHOR archive is about 130,000 games, a year's
/// file a few thousand; more is refused before any game is read.
pub const MAX_GAMES: u32 = 2_000_000;

/// One game of a WTHOR file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Tournament number (index into the `.TRN` file).
    pub tournament: u16,
    /// Black player's number (index into the `.JOU` file).
    pub black: u16,
    /// White player's number.
    pub white: u16,
    /// Black's discs at the end, empties counted for the winner (0..=64).
    pub black_discs: u8,
    /// Theoretical score: Black's discs with perfect play from `p3` empties.
    pub theoretical: u8,
    /// The placements in order, passes left out (at most 60).
    pub moves: Vec<Move>,
}

/// A parsed WTHOR file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    /// Year, month and day the file was made.
    pub created: (u16, u8, u8),
    /// The year of the games.
    pub year: u16,
    /// Empties at which the theoretical scores start (the header's `p3`).
    pub depth: u8,
    /// The games, in file order.
    pub games: Vec<WthorGame>,
}

impl WthorGame {
    /// Replays the game from the start position: every position in which a move (a
    /// placement or an implied pass) was made, in order, and the last position.
    ///
    /// # Errors
    /// The ply and move of the first placement that is illegal.
    pub fn replay(&self) -> Result<(Vec<Position>, Position), String> {
        let mut pos = Position::start();
        let mut seen = Vec::with_capacity(64);
        for (i, &mv) in self.moves.iter().enumerate() {
            if pos.legal_placements() == 0 && !pos.is_game_over() {
                seen.push(pos);
                pos = pos.pass();
            }
            if !pos.is_legal(mv) {
                return Err(format!("move {} ({mv}) is illegal in {pos}", i + 1));
            }
            seen.push(pos);
            pos = pos.play(mv);
        }
        Ok((seen, pos))
    }

    /// The final margin for Black: the disc difference with empties to the winner when the
    /// recorded moves end the game, else the recorded result `2 * black_discs - 64` (a game
    /// stopped early: resignation, time, agreement).
    ///
    /// # Errors
    /// As [`WthorGame::replay`].
    pub fn black_margin(&self) -> Result<i32, String> {
        let (_, last) = self.replay()?;
        Ok(self.black_margin_at(&last))
    }

    /// [`WthorGame::black_margin`] given the game's last position (from
    /// [`WthorGame::replay`]), without replaying it again.
    #[must_use]
    pub fn black_margin_at(&self, last: &Position) -> i32 {
        if last.is_game_over() {
            let d = last.final_disc_difference();
            if last.side() == Color::Black { d } else { -d }
        } else {
            2 * i32::from(self.black_discs) - 64
        }
    }
}

/// The move of a WTHOR byte (`10 * rank + file`, both 1..=8).
fn decode_move(byte: u8) -> Option<Move> {
    let (rank, file) = (byte / 10, byte % 10);
    ((1..=8).contains(&rank) && (1..=8).contains(&file))
        .then(|| Move::place(Square::from_coords(file - 1, rank - 1)))
}

/// The WTHOR byte of a placement.
fn encode_move(mv: Move) -> u8 {
    mv.square()
        .map_or(0, |sq| 10 * (sq.rank() + 1) + sq.file() + 1)
}

/// Reads a WTHOR game file's bytes; `origin` names it in errors.
///
/// # Errors
/// One line naming `origin`: a file shorter than its header, a header that is not a WTHOR
/// game file (board size, type, record count, game count), a length that does not match the
/// count (cut short, or bytes after the games), a Black disc count over 64, a move byte that
/// is not a square, a move after the end marker, or an illegal move (with its game and ply).
pub fn parse(bytes: &[u8], origin: &str) -> Result<WthorFile, String> {
    let bad = |m: String| format!("WTHOR file {origin}: {m}");
    if bytes.len() < HEADER_BYTES {
        return Err(bad(format!(
            "{} bytes, shorter than the {HEADER_BYTES}-byte header: not a WTHOR file",
            bytes.len()
        )));
    }
    let h = &bytes[..HEADER_BYTES];
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let n1 = u32::from_le_bytes([h[4], h[5], h[6], h[7]]);
    let (n2, year, p1, p2, p3) = (u16_at(h, 8), u16_at(h, 10), h[12], h[13], h[14]);
    if !(p1 == 0 || p1 == 8) {
        return Err(bad(format!(
            "board size {p1} in the header (tessera reads 8x8 games: 0 or 8)"
        )));
    }
    if p2 != 0 {
        return Err(bad(format!(
            "type {p2} in the header: not a game file (0; 1 is a solitaire file)"
        )));
    }
    if n2 != 0 {
        return Err(bad(format!(
            "{n2} player/tournament records in the header: a .JOU or .TRN file, not games"
        )));
    }
    if n1 > MAX_GAMES {
        return Err(bad(format!(
            "{n1} games in the header (at most {MAX_GAMES})"
        )));
    }
    let expected = HEADER_BYTES + n1 as usize * GAME_BYTES;
    if bytes.len() < expected {
        return Err(bad(format!(
            "cut short: the header says {n1} games ({expected} bytes), the file has {} bytes",
            bytes.len()
        )));
    }
    if bytes.len() > expected {
        // The reader stops one byte past the announced games (a device is never read to
        // its end), so the length past them is not known here: say only that there is more.
        return Err(bad(format!(
            "the file goes on after the {n1} games the header announces ({expected} bytes): not a WTHOR game file, or a damaged one"
        )));
    }
    let mut games = Vec::with_capacity(n1 as usize);
    for (g, rec) in bytes[HEADER_BYTES..].chunks_exact(GAME_BYTES).enumerate() {
        let game_err = |m: String| bad(format!("game {}: {m}", g + 1));
        if rec[6] > 64 {
            return Err(game_err(format!(
                "Black's disc count {} is over 64",
                rec[6]
            )));
        }
        let mut moves = Vec::with_capacity(60);
        let mut ended = false;
        for (i, &b) in rec[8..].iter().enumerate() {
            if b == 0 {
                ended = true;
                continue;
            }
            if ended {
                return Err(game_err(format!(
                    "move byte {b} at ply {} after the end of the game",
                    i + 1
                )));
            }
            moves.push(decode_move(b).ok_or_else(|| {
                game_err(format!(
                    "move byte {b} at ply {} is not a square 11..88",
                    i + 1
                ))
            })?);
        }
        let game = WthorGame {
            tournament: u16_at(rec, 0),
            black: u16_at(rec, 2),
            white: u16_at(rec, 4),
            black_discs: rec[6],
            theoretical: rec[7],
            moves,
        };
        game.replay().map_err(game_err)?;
        games.push(game);
    }
    Ok(WthorFile {
        created: (u16::from(h[0]) * 100 + u16::from(h[1]), h[2], h[3]),
        year,
        depth: p3,
        games,
    })
}

/// The bytes of a WTHOR game file holding `file` (the inverse of [`parse()`]).
///
/// # Panics
/// A game with more than 60 moves, or a pass among its moves (programming errors).
#[must_use]
pub fn write(file: &WthorFile) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + file.games.len() * GAME_BYTES);
    let (y, m, d) = file.created;
    out.extend_from_slice(&[(y / 100) as u8, (y % 100) as u8, m, d]);
    out.extend_from_slice(&(file.games.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&file.year.to_le_bytes());
    out.extend_from_slice(&[8, 0, file.depth, 0]);
    for g in &file.games {
        assert!(g.moves.len() <= 60, "a game has at most 60 placements");
        out.extend_from_slice(&g.tournament.to_le_bytes());
        out.extend_from_slice(&g.black.to_le_bytes());
        out.extend_from_slice(&g.white.to_le_bytes());
        out.extend_from_slice(&[g.black_discs, g.theoretical]);
        let mut moves = [0u8; 60];
        for (slot, &mv) in moves.iter_mut().zip(&g.moves) {
            assert!(!mv.is_pass(), "WTHOR leaves passes out");
            *slot = encode_move(mv);
        }
        out.extend_from_slice(&moves);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_bytes_are_rank_then_file() {
        // 11 = a1, 18 = h1, 56 = f5, 88 = h8 (rank 1 is the top row, as Square's).
        for (b, name) in [(11, "a1"), (18, "h1"), (56, "f5"), (81, "a8"), (88, "h8")] {
            let mv = decode_move(b).unwrap();
            assert_eq!(mv.to_string(), name);
            assert_eq!(encode_move(mv), b);
        }
        for b in [0, 9, 10, 19, 20, 89, 90, 255] {
            assert!(decode_move(b).is_none(), "{b}");
        }
    }
}
