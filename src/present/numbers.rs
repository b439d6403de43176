//! Numbers and move lists for people: rates with SI prefixes, per-second rates that survive
//! a zero duration, moves joined by spaces or as a JSON array, perft tables.

use std::fmt::Display;

/// `1234567` as `1.23 M`, `12345` as `12.3 k`, `12` as `12 ` (the unit follows the
/// space): rates for humans.
#[must_use]
pub fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0} ")
    }
}

/// `count` per second over `seconds`, which may be zero (a nanosecond at least).
#[must_use]
pub fn rate(count: u64, seconds: f64) -> f64 {
    count as f64 / seconds.max(1e-9)
}

/// Moves joined by spaces.
#[must_use]
pub fn join_moves<M: Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Moves as a JSON array of strings.
#[must_use]
pub fn json_moves<M: Display>(moves: &[M]) -> serde_json::Value {
    serde_json::Value::Array(
        moves
            .iter()
            .map(|m| serde_json::Value::String(m.to_string()))
            .collect(),
    )
}

/// The header lines of a perft table for `game` from `position`.
#[must_use]
pub fn perft_header(game: &str, position: &str) -> [String; 2] {
    [
        format!("{game} perft from {position}"),
        format!(
            "{:>5} {:>18} {:>10} {:>12}",
            "depth", "leaves", "seconds", "leaves/s"
        ),
    ]
}

/// One line of a perft table: the depth, the leaf count, the seconds and the rate.
#[must_use]
pub fn perft_line(depth: u32, leaves: u64, seconds: f64) -> String {
    format!(
        "{depth:>5} {leaves:>18} {seconds:>10.3} {:>12}",
        format!("{}/s", si(rate(leaves, seconds))).replace(" /s", "/s")
    )
}
