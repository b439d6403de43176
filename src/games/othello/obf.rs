//! Edax's OBF problem files: one Othello position per line, optionally annotated with the
//! exact score of some moves.
//!
//! A line is `BOARD SIDE` (the FFO/OBF position form of [`Position`]'s parser: 64 squares
//! a1..h8, `X` Black, `O` White, `-` empty, then `X` or `O` to move), then optionally `;`
//! and `MOVE:SCORE` entries separated by `;` (`A2:+38; G8:+18;`), scores being exact final
//! disc differences for the side to move with that move. Blank lines and lines starting
//! with `%` or `#` are comments. Example (FFO #40, from Edax's `problem/fforum-40-59.obf`):
//!
//! ```text
//! O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;
//! ```

use super::{Move, Position};
use crate::game::Game;

/// One problem of an OBF file.
#[derive(Clone, Debug)]
pub struct ObfProblem {
    /// The position to solve (not finished, at least one empty square).
    pub position: Position,
    /// The annotated moves with their exact scores (discs, side to move's view), in file
    /// order; may be empty.
    pub scores: Vec<(Move, i32)>,
}

impl ObfProblem {
    /// The position's exact score according to the file: the best annotated score, or
    /// `None` without annotations.
    #[must_use]
    pub fn expected_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// The file's score of move `mv`, if annotated.
    #[must_use]
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// Parses one line of an OBF file: `Ok(None)` for a blank or comment line, the problem,
/// or a one-line description of what is wrong (bad board or side, a bad `MOVE:SCORE`
/// annotation, a board without empty squares, a finished game).
///
/// # Errors
/// The description, without the line number (the caller knows it).
pub fn parse_line(line: &str) -> Result<Option<ObfProblem>, String> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('%') || text.starts_with('#') {
        return Ok(None);
    }
    let mut parts = text.split(';');
    let head = parts.next().unwrap_or("");
    let position: Position = head.parse().map_err(|e| format!("{e}"))?;
    if position.empties() == 0 {
        return Err("the board has no empty square: nothing to solve".into());
    }
    if position.outcome().is_some() {
        return Err("the game is over (neither side can move): nothing to solve".into());
    }
    let mut scores: Vec<(Move, i32)> = Vec::new();
    for entry in parts.map(str::trim).filter(|e| !e.is_empty()) {
        let shown = crate::game::shown(entry);
        let Some((mv, score)) = entry.split_once(':') else {
            return Err(format!(
                "bad annotation '{shown}': expected MOVE:SCORE such as A2:+38"
            ));
        };
        let mv = position
            .parse_move(mv.trim())
            .map_err(|e| format!("annotation '{shown}': {e}"))?;
        // One optional sign (`+38`, `-4`): `str::parse` takes exactly that.
        let score: i32 = score
            .trim()
            .parse()
            .ok()
            .filter(|s: &i32| (-64..=64).contains(s))
            .ok_or_else(|| {
                format!("annotation '{shown}': the score must be a whole number in -64..=64")
            })?;
        // Empties go to the winner, so the discs of a finished game add up to 64 and
        // their difference is even.
        if score % 2 != 0 {
            return Err(format!(
                "annotation '{shown}': an exact disc difference is even (the empties go to the winner)"
            ));
        }
        match scores.iter().find(|&&(m, _)| m == mv) {
            Some(&(_, earlier)) if earlier != score => {
                return Err(format!(
                    "annotation '{shown}': {mv} is already annotated {earlier:+}"
                ));
            }
            Some(_) => {}
            None => scores.push((mv, score)),
        }
    }
    Ok(Some(ObfProblem { position, scores }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

    #[test]
    fn annotated_line_parses() {
        let p = parse_line(&format!("{FFO40}; A2:+38; b1:-4 ;"))
            .unwrap()
            .unwrap();
        assert_eq!(p.position.to_string(), FFO40);
        assert_eq!(p.scores.len(), 2);
        assert_eq!(p.expected_score(), Some(38));
        let a2 = p.position.parse_move("a2").unwrap();
        assert_eq!(p.score_of(a2), Some(38));
        assert_eq!(p.scores[1].1, -4);
    }

    #[test]
    fn bare_position_and_comments() {
        let p = parse_line(FFO40).unwrap().unwrap();
        assert!(p.scores.is_empty());
        assert_eq!(p.expected_score(), None);
        assert!(parse_line("   ").unwrap().is_none());
        assert!(parse_line("% a comment").unwrap().is_none());
        assert!(parse_line("# another").unwrap().is_none());
    }

    #[test]
    fn bad_lines_are_described() {
        let err = |l: &str| parse_line(l).unwrap_err();
        assert!(err(&FFO40.replace(" X", " Z")).contains("side to move"));
        assert!(err(&format!("{} X", &FFO40[..60])).contains("60 characters"));
        assert!(err(&format!("{FFO40}; A2+38")).contains("MOVE:SCORE"));
        assert!(err(&format!("{FFO40}; A2:+99")).contains("-64..=64"));
        assert!(err(&format!("{FFO40}; A1:+2")).contains("occupied"));
        let full = format!("{} X", "XO".repeat(32));
        assert!(err(&full).contains("no empty square"));
        // Black everywhere but one empty corner: nobody can move.
        let over = format!("-{} O", "X".repeat(63));
        assert!(err(&over).contains("game is over"));
        // One move, two scores: which one would the batch check? An odd score is no
        // final disc difference. A repeated equal annotation is harmless.
        assert!(err(&format!("{FFO40}; A2:+38; a2:+36;")).contains("a2 is already annotated +38"));
        assert!(err(&format!("{FFO40}; A2:+37;")).contains("even"));
        for doubled in ["+-38", "++38", "--38", "-+38", "+ 38"] {
            let e = err(&format!("{FFO40}; A2:{doubled};"));
            assert!(e.contains("whole number"), "{doubled}: {e}");
        }
        let twice = parse_line(&format!("{FFO40}; A2:+38; A2:38;"))
            .unwrap()
            .unwrap();
        assert_eq!(twice.scores.len(), 1);
        let long = format!("{FFO40}; A2:{}", "9".repeat(5000));
        let e = err(&long);
        assert!(e.contains("more characters") && e.len() < 200, "{e}");
    }
}
