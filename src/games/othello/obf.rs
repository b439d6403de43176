//! Edax's OBF problem files: one Othello position per line, optionally annotated with the
//! exact score of some moves.
//!
//! A line is `BOARD SIDE` (the FFO/OBF position form of [`Position`]'s parser: 64 squares
//! a1..h8, `X` Black, `O` White, `-` empty, then `X` or `O` to move), then optionally `;`
//! and `MOVE:SCORE` entries separated by `;` (`A2:+38; G8:+18;`), scores being exact final
//! disc differences for the side to move with that move. Blank lines and lines starting
//! with `%` or `#` are comments. Edax ends the annotations of a position where passing is
//! not legal with `--:-127` ([`NO_PASS_MARK`]: "no move", scored minus infinity); that entry
//! is accepted and ignored. Example (FFO #40, from Edax's `problem/fforum-40-59.obf`):
//!
//! ```text
//! O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;
//! ```

use super::{Move, Position};
use crate::game::Game;

/// Edax's annotation for "passing is not a legal move here" (its `NOMOVE` square printed as
/// `--`, scored `-SCORE_INF` = -127), written after the legal moves of every position
/// where the side to move has one (Edax's `problem/hard-20.obf`, `hard-25.obf`).
pub const NO_PASS_MARK: &str = "--:-127";

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

    /// The legal moves of the position that the file does not score (the pass when the
    /// side to move must pass and the line does not score it), in move-generation order:
    /// empty when every legal move carries its exact score.
    #[must_use]
    pub fn unscored_moves(&self) -> Vec<Move> {
        let mut moves = <Position as Game>::Moves::default();
        self.position.generate_moves(&mut moves);
        moves
            .iter()
            .copied()
            .filter(|&m| self.score_of(m).is_none())
            .collect()
    }
}

/// One OBF line as Edax writes it: the position, then every `(move, score)` in `scores`
/// best first (ties in the given order), squares in capitals, signed scores, and Edax's
/// [`NO_PASS_MARK`] where the side to move has a placement (a forced pass is written `PS`).
/// [`parse_line`] reads it back to the same position and scores.
#[must_use]
pub fn format_line(position: &Position, scores: &[(Move, i32)]) -> String {
    use std::fmt::Write as _;
    let mut sorted = scores.to_vec();
    sorted.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    let mut line = position.to_string();
    line.push(';');
    for (mv, score) in sorted {
        let name = if mv.is_pass() {
            "PS".to_string()
        } else {
            mv.to_string().to_uppercase()
        };
        let _ = write!(line, " {name}:{score:+};");
    }
    if position.legal_placements() != 0 {
        let _ = write!(line, " {NO_PASS_MARK};");
    }
    line
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
        if mv.trim() == "--" {
            // Edax's "no pass here": only with its own score, and only where a move exists
            // (where the side to move must pass, passing is the one legal move).
            if score.trim() != "-127" {
                return Err(format!(
                    "annotation '{shown}': '--' is Edax's no-pass mark, written only as {NO_PASS_MARK}"
                ));
            }
            if position.legal_placements() == 0 {
                return Err(format!(
                    "annotation '{shown}': {NO_PASS_MARK} says passing is illegal, but the side to move has no other move"
                ));
            }
            continue;
        }
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

/// Largest OBF file read: 256 MiB (Edax's sets are tens of KB; a line is about 200 bytes).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads every problem of the OBF file at `path` with its line number (from 1), skipping
/// blank and comment lines; a byte-order mark before line 1 is ignored.
///
/// # Errors
/// One line naming the file: it cannot be read or is too large, or the first line that is
/// not UTF-8 or not a problem (`FILE line N: what is wrong`).
pub fn read_problems(path: &std::path::Path) -> Result<Vec<(usize, ObfProblem)>, String> {
    let bytes = crate::game::files::read_line_bytes(path, "OBF file", MAX_FILE_BYTES)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let mut out = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let at = || format!("{} line {}", path.display(), i + 1);
        let text = std::str::from_utf8(line).map_err(|_| format!("{}: not UTF-8 text", at()))?;
        match parse_line(text) {
            Ok(Some(p)) => out.push((i + 1, p)),
            Ok(None) => {}
            Err(e) => return Err(format!("{}: {e}", at())),
        }
    }
    Ok(out)
}

/// The problem lines of a file: each line number (from 1) with its problem or its error.
pub type Problems = Vec<(usize, Result<ObfProblem, String>)>;

/// The problem lines of an OBF file's content `bytes` (a byte-order mark skipped), each
/// with its 1-based line number: the problem, or what is wrong with that line (a line that
/// is not UTF-8, such as a Latin-1 comment, is that line's error only). `path` names the
/// file in errors.
///
/// # Errors
/// One line naming the file: a NUL byte (a binary file, not text), no problem line at all,
/// or no line that parses (the first error and how many lines fail).
pub fn parse_file(bytes: &[u8], path: &std::path::Path) -> Result<Problems, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        return Err(format!(
            "OBF file {} is not a text OBF file: line {line} holds a NUL byte (a binary file?)",
            path.display()
        ));
    }
    let lines: Problems = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, l)| {
            let parsed = std::str::from_utf8(l)
                .map_err(|_| "the line is not UTF-8 text".to_string())
                .and_then(parse_line);
            match parsed {
                Ok(None) => None,
                Ok(Some(p)) => Some((i + 1, Ok(p))),
                Err(e) => Some((i + 1, Err(e))),
            }
        })
        .collect();
    if lines.is_empty() {
        return Err(format!(
            "OBF file {} has no problem lines (expected 'BOARD SIDE; MOVE:SCORE; ...')",
            path.display()
        ));
    }
    if lines.len() > 1 && lines.iter().all(|(_, p)| p.is_err()) {
        let (line, first) = &lines[0];
        return Err(format!(
            "OBF file {} holds no problem that parses: line {line}: {}; {} of its {} lines \
             fail (is it an OBF file?)",
            path.display(),
            first.as_ref().err().map_or("", String::as_str),
            lines.len(),
            lines.len()
        ));
    }
    Ok(lines)
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

    /// The first line of Edax's `problem/hard-20.obf` (tests/data/othello/edax-hard-20.obf).
    const HARD20_1: &str = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; E1:+0; F8:-2; H6:-6; F1:-6; G8:-6; A7:-6; G1:-8; B7:-10; G7:-20; --:-127;";

    #[test]
    fn edax_no_pass_mark_is_accepted_and_ignored() {
        let p = parse_line(HARD20_1).unwrap().unwrap();
        assert_eq!(p.scores.len(), 9);
        assert_eq!(p.expected_score(), Some(0));
        assert!(p.unscored_moves().is_empty(), "every legal move is scored");
        assert!(!p.scores.iter().any(|&(m, _)| m.is_pass()));
        // Written back as Edax does, and read again to the same problem.
        let line = format_line(&p.position, &p.scores);
        assert_eq!(line, HARD20_1);
        // Only Edax's own spelling of the mark; not where passing is the only move.
        let err = |l: &str| parse_line(l).unwrap_err();
        let bad = HARD20_1.replace("--:-127", "--:+4");
        assert!(err(&bad).contains("no-pass mark"), "{}", err(&bad));
        // Black a1 and h1, White a2, White to move: no White line ends on a Black disc
        // (a1 is a corner), while Black can take a2 from a3: White must pass.
        let must_pass = format!("X{}XO{} O", "-".repeat(6), "-".repeat(55));
        let forced = parse_line(&must_pass).unwrap().unwrap();
        assert_eq!(forced.unscored_moves(), vec![Move::PASS]);
        assert!(err(&format!("{must_pass}; --:-127;")).contains("no other move"));
    }

    #[test]
    fn missing_scores_are_listed() {
        let cut = HARD20_1.replace(" G7:-20;", "");
        let p = parse_line(&cut).unwrap().unwrap();
        assert_eq!(
            p.unscored_moves(),
            vec![p.position.parse_move("g7").unwrap()]
        );
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
