//! Time controls in cutechess-cli syntax: `tc=MOVES/BASE+INC` (a game clock) and
//! `st=SECONDS` (a fixed time per move), as engine spec fields and `--tc` / `--st`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::search::GameClock;

/// A game clock's control: `base_ms` for the first `moves` moves (then `base_ms` again for
/// the next `moves`, and so on; `None` = for the whole game), plus `increment_ms` after
/// every move. Written `[MOVES/]BASE[+INC]`, BASE and INC in seconds (decimals allowed) or
/// BASE as `m:ss` / `h:mm:ss`: `40/60+0.5`, `2+0.05`, `1:30`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    /// Moves per period; `None` for sudden death (plus increment).
    pub moves: Option<u32>,
    /// Time per period, milliseconds (> 0).
    pub base_ms: u64,
    /// Time added after each move, milliseconds.
    pub increment_ms: u64,
}

/// The most time a control may give, milliseconds (a week: beyond that it is a typo).
const MAX_MS: u64 = 7 * 24 * 3600 * 1000;

/// Seconds (a decimal number >= 0) to whole milliseconds; `what` names it in errors.
fn seconds_to_ms(text: &str, what: &str) -> Result<u64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !s.is_finite() || s < 0.0 {
        return Err(format!("{what} must be 0 or more seconds, got '{text}'"));
    }
    let ms = (s * 1000.0).round();
    if ms > MAX_MS as f64 {
        return Err(format!("{what} '{text}' is more than a week"));
    }
    Ok(ms as u64)
}

/// BASE: seconds, `m:ss` or `h:mm:ss`.
fn base_to_ms(text: &str) -> Result<u64, String> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() == 1 {
        return seconds_to_ms(text, "base time");
    }
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(format!(
            "base time '{text}' is not seconds, m:ss or h:mm:ss"
        ));
    }
    let mut ms = 0u64;
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let v = if last {
            seconds_to_ms(p, "base time seconds")?
        } else {
            p.parse::<u64>()
                .map_err(|_| format!("base time '{text}' is not seconds, m:ss or h:mm:ss"))?
                .saturating_mul(1000)
        };
        // After the first field, minutes and seconds are clock digits: 1:75 is no time.
        if i > 0 && v >= 60_000 {
            return Err(format!(
                "base time '{text}': '{p}' must be less than 60 in m:ss or h:mm:ss"
            ));
        }
        ms = ms
            .saturating_mul(if i == 0 { 1 } else { 60 })
            .saturating_add(v);
    }
    if ms > MAX_MS {
        return Err(format!("base time '{text}' is more than a week"));
    }
    Ok(ms)
}

impl FromStr for TimeControl {
    type Err = String;

    /// Parses `[MOVES/]BASE[+INC]`.
    ///
    /// # Errors
    /// One line naming the bad part and the expected form.
    fn from_str(text: &str) -> Result<Self, String> {
        let form =
            "expected [MOVES/]BASE[+INC], BASE in seconds or m:ss, e.g. 40/60+0.5, 2+0.05, 1:30";
        let t = text.trim();
        let bad = |why: String| format!("time control '{}': {why} ({form})", crate::game::shown(t));
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("MOVES '{m}' is not a whole number")))?;
                if m == 0 {
                    return Err(bad("MOVES must be at least 1".into()));
                }
                (Some(m), r)
            }
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = base_to_ms(base.trim()).map_err(bad)?;
        if base_ms == 0 {
            return Err(bad("the base time must be more than 0".into()));
        }
        let increment_ms = match inc {
            Some(i) => seconds_to_ms(i, "increment").map_err(bad)?,
            None => 0,
        };
        Ok(Self {
            moves,
            base_ms,
            increment_ms,
        })
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

/// Milliseconds as seconds with no trailing zeros (`2050` -> `2.05`).
fn secs(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    /// The canonical form: `40/60+0.5`, `2+0.05`, `90`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", secs(self.increment_ms))?;
        }
        Ok(())
    }
}

/// One seat's clock during a game: its control (a [`TimeControl`] or a fixed time per
/// move), the time left, and the moves made. Times are kept in microseconds.
#[derive(Clone, Copy, Debug)]
pub struct SeatClock {
    control: Control,
    left_us: u64,
    moves: u32,
    margin_us: u64,
}

#[derive(Clone, Copy, Debug)]
enum Control {
    Game(TimeControl),
    PerMove(u64),
}

impl SeatClock {
    /// A clock for a game control.
    #[must_use]
    pub fn game(tc: TimeControl, margin_ms: u64) -> Self {
        Self {
            control: Control::Game(tc),
            left_us: tc.base_ms * 1000,
            moves: 0,
            margin_us: margin_ms * 1000,
        }
    }

    /// A clock of `ms` per move (`st`), nothing carried over.
    #[must_use]
    pub fn per_move(ms: u64, margin_ms: u64) -> Self {
        Self {
            control: Control::PerMove(ms),
            left_us: ms * 1000,
            moves: 0,
            margin_us: margin_ms * 1000,
        }
    }

    /// Time left, milliseconds (rounded down).
    #[must_use]
    pub fn left_ms(&self) -> u64 {
        self.left_us / 1000
    }

    /// What the engine is told before its move.
    #[must_use]
    pub fn game_clock(&self) -> GameClock {
        match self.control {
            Control::Game(tc) => GameClock {
                remaining_ms: self.left_ms(),
                increment_ms: tc.increment_ms,
                moves_to_go: tc.moves.map(|m| m - self.moves % m),
            },
            Control::PerMove(_) => GameClock {
                remaining_ms: self.left_ms(),
                increment_ms: 0,
                moves_to_go: Some(1),
            },
        }
    }

    /// The longest a move may take before it loses on time: the time left plus the margin.
    #[must_use]
    pub fn allowed(&self) -> std::time::Duration {
        std::time::Duration::from_micros(self.left_us + self.margin_us)
    }

    /// Charges a move that took `used`: `Ok` with the time left after it (increment and
    /// any new period added), or `Err` with the overrun past the time left when `used`
    /// exceeds the time left plus the margin (a time forfeit). Within the margin the clock
    /// stops at 0.
    ///
    /// # Errors
    /// The overrun in microseconds, on a time forfeit.
    pub fn charge(&mut self, used: std::time::Duration) -> Result<u64, u64> {
        let used_us = u64::try_from(used.as_micros()).unwrap_or(u64::MAX);
        if used_us > self.left_us.saturating_add(self.margin_us) {
            return Err(used_us - self.left_us);
        }
        self.moves += 1;
        match self.control {
            Control::Game(tc) => {
                self.left_us = self.left_us.saturating_sub(used_us) + tc.increment_ms * 1000;
                if let Some(m) = tc.moves
                    && self.moves.is_multiple_of(m)
                {
                    self.left_us += tc.base_ms * 1000;
                }
            }
            Control::PerMove(ms) => self.left_us = ms * 1000,
        }
        Ok(self.left_us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn parses_cutechess_forms() {
        assert_eq!(
            tc("40/60+0.5"),
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                increment_ms: 500
            }
        );
        assert_eq!(
            tc("2+0.05"),
            TimeControl {
                moves: None,
                base_ms: 2000,
                increment_ms: 50
            }
        );
        assert_eq!(tc("1:30").base_ms, 90_000);
        assert_eq!(tc("1:00:00+1").base_ms, 3_600_000);
        assert_eq!(tc("0.5+0.01").to_string(), "0.5+0.01");
        assert_eq!(tc("40/1:30+0.5").to_string(), "40/90+0.5");
        for bad in [
            "abc", "2+-0.05", "-2", "0", "0/10", "x/10", "2+", "1::30", "1:x", "2+inf",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.starts_with("time control '"), "{bad}: {e}");
            assert!(!e.contains('\n'), "{bad}: {e}");
        }
        let e = "2+-0.05".parse::<TimeControl>().unwrap_err();
        assert!(e.contains("increment must be 0 or more"), "{e}");
        // Serialized as its text, so tournament.json shows "2+0.05".
        let j = serde_json::to_string(&tc("2+0.05")).unwrap();
        assert_eq!(j, "\"2+0.05\"");
        assert_eq!(
            serde_json::from_str::<TimeControl>(&j).unwrap(),
            tc("2+0.05")
        );
    }

    #[test]
    fn seat_clock_counts_down_refills_and_forfeits() {
        // 2/1+0.1: two moves per second, 100 ms back after each move.
        let mut c = SeatClock::game(tc("2/1+0.1"), 0);
        assert_eq!(c.game_clock().moves_to_go, Some(2));
        assert_eq!(c.charge(Duration::from_millis(300)), Ok(800_000));
        assert_eq!(c.game_clock().moves_to_go, Some(1));
        // The second move ends the period: 800 - 500 + 100 + 1000.
        assert_eq!(c.charge(Duration::from_millis(500)), Ok(1_400_000));
        assert_eq!(c.game_clock().moves_to_go, Some(2));
        assert_eq!(c.game_clock().remaining_ms, 1400);
        // 1.5 s with 1.4 s left and no margin: a forfeit, over by 100 ms.
        assert_eq!(c.charge(Duration::from_millis(1500)), Err(100_000));
        // With a 200 ms margin the same move is allowed and the clock stops at 0 (+ inc).
        let mut c = SeatClock::game(tc("1.4"), 200);
        assert_eq!(c.allowed(), Duration::from_millis(1600));
        assert_eq!(c.charge(Duration::from_millis(1500)), Ok(0));
        // st: every move gets the same time.
        let mut c = SeatClock::per_move(100, 0);
        assert_eq!(c.charge(Duration::from_millis(90)), Ok(100_000));
        assert_eq!(c.game_clock().remaining_ms, 100);
        assert_eq!(c.charge(Duration::from_millis(101)), Err(1000));
    }
}
