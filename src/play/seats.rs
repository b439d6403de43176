//! Who sits where in a game between people and engines: the seats people take, named as
//! a front end's `--human` names them ([`human_seats`]), and the line announcing the
//! seating ([`seating_line`]); and reading people's input a line at a time, never more
//! than a line's worth ([`read_line`]).

use std::io::{BufRead, Read};

use crate::game::Seat;
use crate::present::Present;

/// Why a seat list or a line of input was refused; `Display` gives the one-line message.
#[derive(Debug)]
#[non_exhaustive]
pub enum SeatsError {
    /// A name that is no seat of the game (the message lists the seats).
    UnknownSeat(String),
    /// The input cannot be read (a failure, not bad input).
    Read(std::io::Error),
    /// A line longer than [`crate::game::files::MAX_LINE`] (bad input).
    LineTooLong(u64),
}

impl std::fmt::Display for SeatsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownSeat(m) => f.write_str(m),
            Self::Read(e) => write!(f, "cannot read stdin: {e}"),
            Self::LineTooLong(max) => write!(
                f,
                "a line of stdin is longer than {}: not a move",
                crate::game::files::size_text(*max)
            ),
        }
    }
}

impl std::error::Error for SeatsError {}

/// One line of `input` without its line end; `None` at end of input. Invalid UTF-8 is
/// replaced rather than fatal (it is then reported as a bad move).
///
/// # Errors
/// Unreadable input, or a line longer than [`crate::game::files::MAX_LINE`] (no move is;
/// `/dev/zero` as input would otherwise fill memory).
pub fn read_line(input: &mut impl BufRead) -> Result<Option<String>, SeatsError> {
    let max = crate::game::files::MAX_LINE;
    let mut buf = Vec::new();
    let n = input
        .by_ref()
        .take(max + 1)
        .read_until(b'\n', &mut buf)
        .map_err(SeatsError::Read)?;
    if n == 0 {
        return Ok(None);
    }
    if n as u64 > max {
        return Err(SeatsError::LineTooLong(max));
    }
    Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
}

/// The seats `text` names (seat names or numbers, comma-separated; `none`; `all` or
/// `both`), as a mask over seat numbers of `pos`'s game.
///
/// # Errors
/// A name that is no seat of this game, listing the valid names.
pub fn human_seats<G: Present>(pos: &G, text: &str) -> Result<u32, SeatsError> {
    let all = (1u32 << pos.seats()) - 1;
    match text.trim().to_ascii_lowercase().as_str() {
        "none" => return Ok(0),
        "all" | "both" => return Ok(all),
        _ => {}
    }
    let mut mask = 0;
    for part in text.split(',') {
        let seat = pos.seat_by_name(part).ok_or_else(|| {
            let names: Vec<String> = (0..pos.seats())
                .map(|i| format!("{i} = {}", pos.seat_name(Seat(i as u8))))
                .collect();
            SeatsError::UnknownSeat(format!(
                "--human: '{}' is not a seat of {} (seats: {}; or none, all)",
                crate::game::shown(part),
                G::ID,
                names.join(", ")
            ))
        })?;
        mask |= 1 << seat.0;
    }
    Ok(mask)
}

/// The line announcing who plays which seats of `pos`'s game, people at the seats of the
/// mask `humans`.
#[must_use]
pub fn seating_line<G: Present>(pos: &G, humans: u32) -> String {
    let seat_list = |mask: u32| {
        (0..pos.seats())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| pos.seat_name(Seat(i as u8)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = (1u32 << pos.seats()) - 1;
    match humans {
        0 => "tessera plays every seat.".to_string(),
        m if m == all => format!("People play every seat: {}.", seat_list(m)),
        m => format!(
            "You play {} against tessera ({}).",
            seat_list(m),
            seat_list(all & !m)
        ),
    }
}
