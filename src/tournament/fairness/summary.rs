//! What a fairness experiment reports, and the report as text.

use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{self, FairnessRow, Trend};

/// The exact result of a solved board (Quixo 3x3 and 4x4).
#[derive(Clone, Debug, Serialize)]
pub struct Exact {
    /// The board: `3x3`.
    pub board: String,
    /// The value for people: `draw`, `first player (X) wins`.
    pub value: String,
    /// Plies to the end with perfect play, for a win.
    pub plies: Option<u32>,
    /// Seconds the solve took (wall).
    pub seconds: f64,
    /// How the value was found.
    pub source: String,
}

/// Everything a fairness run reports (also its JSON form, field for field).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The game id.
    pub game: String,
    /// The engines: `2 copies of alphabeta (depth 2, depth 4)`.
    pub engine: String,
    /// The output folder, one tournament folder per row under it.
    pub out: String,
    /// One row per variant, suite and level, in the order played.
    pub rows: Vec<FairnessRow>,
    /// Each seat's score from the weakest to the strongest level.
    pub trends: Vec<Trend>,
    /// The verdict over all rows.
    pub verdict: String,
    /// Solved boards of the game.
    pub exact: Vec<Exact>,
    /// Notes (published results, what a quick run leaves out).
    pub notes: Vec<String>,
    /// What a seat's points are (two sides or more).
    pub points: String,
    /// An interrupt stopped the run: the rows are partial.
    pub interrupted: bool,
}

impl Summary {
    /// The summary as a JSON value (the fields above).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The summary as the text `tessera fairness` prints.
    #[must_use]
    pub fn render(&self) -> String {
        let s = self;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Fairness of {}: {} in every seat rotation; score = mean points ({}), 95 % Wilson \
             intervals over blocks; W/D/L = sole first / shared first / other place",
            s.game, s.engine, s.points
        );
        out.push_str(&stats::render(&s.rows));
        if !s.trends.is_empty() {
            let _ = writeln!(
                out,
                "\nTrend with strength (score change from the weakest to the strongest level, 95 %; \
                 grows / shrinks: the seat's distance from the fair 50 %)"
            );
            for t in &s.trends {
                let _ = writeln!(
                    out,
                    "{} / {} / {}: {:.1} % ({}) -> {:.1} % ({}), change {:+.1} [{:+.1}, {:+.1}]: {}{}",
                    t.variant,
                    t.openings,
                    t.name,
                    100.0 * t.from.1,
                    t.from.0,
                    100.0 * t.to.1,
                    t.to.0,
                    100.0 * t.change,
                    100.0 * t.lower,
                    100.0 * t.upper,
                    t.direction,
                    match t.reading() {
                        r if r.is_empty() => r,
                        r => format!(" ({r})"),
                    }
                );
            }
        }
        if s.rows.iter().any(|r| r.distinct < r.games) {
            let _ = writeln!(
                out,
                "\n'distinct' < 'games': copies of a deterministic engine replay the same game in every \
                 seat rotation of an opening; the seat statistics count each distinct game once"
            );
        }
        if !s.exact.is_empty() {
            out.push('\n');
        }
        for e in &s.exact {
            let _ = writeln!(
                out,
                "Exact: Quixo {}: {}{} ({}, {:.1} s)",
                e.board,
                e.value,
                e.plies.map_or(String::new(), |p| format!(" in {p} plies")),
                e.source,
                e.seconds
            );
        }
        for n in &s.notes {
            let _ = writeln!(out, "note: {n}");
        }
        if s.interrupted {
            let _ = writeln!(
                out,
                "\nINTERRUPTED: the rows above are partial (run the same command again to resume)"
            );
        }
        let _ = writeln!(out, "\nVerdict: {}", s.verdict);
        let _ = write!(
            out,
            "Records: one tournament folder per row under {} (`tessera tournament report DIR` reads any)",
            s.out
        );
        out
    }
}
