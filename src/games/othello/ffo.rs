//! The FFO endgame suite #40-#59 (Fforum problems, exact scores and every best move as
//! `tests/data/othello/ffo-40-59.txt` records them), built into the library so any front end
//! can load a problem by number.

use super::Position;

/// The suite's text, `id board side score best_moves empties` per data line.
const FFO_SUITE: &str = include_str!("../../../tests/data/othello/ffo-40-59.txt");

/// One problem of the FFO suite with its reference answer.
#[derive(Clone, Debug)]
pub struct FfoProblem {
    /// Problem number.
    pub id: u32,
    /// The position.
    pub position: Position,
    /// Exact disc difference for the side to move.
    pub score: i32,
    /// Every best move.
    pub best_moves: Vec<String>,
}

impl FfoProblem {
    /// The reference answer as JSON (`id`, `score`, `best_moves`).
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "score": self.score,
            "best_moves": self.best_moves,
        })
    }

    /// The reference answer for humans: `FFO #40 (reference: +38 discs, best a2)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "FFO #{} (reference: {:+} discs, best {})",
            self.id,
            self.score,
            self.best_moves.join(" or ")
        )
    }
}

/// Parses one data line of the suite (`id board side score best_moves empties`).
fn parse_ffo_line(line: &str) -> Option<FfoProblem> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 5 {
        return None;
    }
    Some(FfoProblem {
        id: f[0].parse().ok()?,
        position: format!("{} {}", f[1], f[2]).parse().ok()?,
        score: f[3].parse().ok()?,
        best_moves: f[4].split(',').map(str::to_string).collect(),
    })
}

/// Every problem of the embedded suite, in order (#40 first).
#[must_use]
pub fn ffo_suite() -> Vec<FfoProblem> {
    FFO_SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(parse_ffo_line)
        .collect()
}

/// FFO problem `id`.
///
/// # Errors
/// A message naming the id and the range available.
pub fn ffo(id: u32) -> Result<FfoProblem, String> {
    let suite = ffo_suite();
    let range = match (suite.first(), suite.last()) {
        (Some(a), Some(b)) => format!("{}..{}", a.id, b.id),
        _ => "none".to_string(),
    };
    suite.into_iter().find(|p| p.id == id).ok_or_else(|| {
        format!("unknown FFO position {id} for --ffo (the built-in suite has {range})")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_suite_is_complete() {
        let suite = ffo_suite();
        assert_eq!(suite.len(), 20);
        assert_eq!(suite[0].id, 40);
        assert_eq!(suite[19].id, 59);
        let p40 = ffo(40).unwrap();
        assert_eq!(p40.score, 38);
        assert_eq!(p40.best_moves, ["a2"]);
        assert_eq!(p40.position.empties(), 20);
        assert!(ffo(60).is_err());
    }
}
