//! Balanced opening suites (the XOT idea, for any game): distinct positions N plies from
//! the start, reached by seeded random legal moves, whose search score lies within ±X of
//! even, so that both seats of a colour-swapped pair start from a fair game and the pair
//! measures strength rather than the opening's bias.
//!
//! Positions that are images of each other under a symmetry of the board (for square
//! boards whose rules have all 8 symmetries: Othello, Quixo) are the same opening and kept
//! once ([`square_symmetry_class`]).

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::openings::derive_seed;
use crate::engine::Player;
use crate::game::Game;
use crate::search::Limits;

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub struct SuiteSpec {
    /// Plies from the start position.
    pub plies: u32,
    /// Openings wanted.
    pub count: usize,
    /// Largest accepted |score| (the engine's unit, for the side to move).
    pub max_abs_score: i32,
    /// Seed of the random move sequences.
    pub seed: u64,
    /// Candidate sequences tried before giving up.
    pub max_tries: u64,
}

/// One accepted opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The moves from the start, space-separated (as openings files read them).
    pub moves: String,
    /// The search score of the position for the side to move.
    pub score: i32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The openings, in the order found.
    pub openings: Vec<Found>,
    /// Candidate sequences drawn.
    pub tries: u64,
    /// Candidates dropped as (symmetric) duplicates of an earlier one.
    pub duplicates: u64,
    /// Candidates dropped for a score outside ±max.
    pub unbalanced: u64,
}

/// The random sequence number `i`: `plies` legal moves from `G::start()`, or `None` when
/// the game ends (or a seat has no move) before.
fn candidate<G: Game>(plies: u32, seed: u64, i: u64) -> Option<(Vec<G::Move>, G)> {
    let mut rng = StdRng::seed_from_u64(derive_seed(seed ^ 0xba1a_0ced, i));
    let mut pos = G::start();
    let mut moves = Vec::with_capacity(plies as usize);
    let mut list = G::Moves::default();
    for _ in 0..plies {
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return None;
        }
        let m = list[rng.random_range(0..list.len())];
        moves.push(m);
        pos = pos.play(m);
    }
    pos.outcome().is_none().then_some((moves, pos))
}

/// Finds `spec.count` balanced openings: candidates are drawn in a fixed order from the
/// seed, deduplicated by `class` (positions with equal classes are the same opening), and
/// searched by `player` within `limits` (its table cleared before each, so every score
/// depends on its position alone and the suite only on the arguments).
///
/// # Errors
/// An engine failure, or fewer than `spec.count` openings after `spec.max_tries`
/// candidates (naming how many were found and why the others were dropped).
pub fn find<G: Game>(
    spec: &SuiteSpec,
    player: &mut dyn Player<G>,
    limits: &Limits,
    class: &dyn Fn(&G) -> String,
) -> Result<Suite, String> {
    let mut seen = HashSet::new();
    let mut suite = Suite {
        openings: Vec::with_capacity(spec.count),
        tries: 0,
        duplicates: 0,
        unbalanced: 0,
    };
    while suite.openings.len() < spec.count {
        if suite.tries >= spec.max_tries {
            return Err(format!(
                "found {} of {} openings within ±{} after {} random {}-ply sequences \
                 ({} duplicates, {} outside the score window, {} ended early); \
                 raise --max-abs-score or lower --count",
                suite.openings.len(),
                spec.count,
                spec.max_abs_score,
                suite.tries,
                spec.plies,
                suite.duplicates,
                suite.unbalanced,
                suite.tries - suite.duplicates - suite.unbalanced - suite.openings.len() as u64
            ));
        }
        let i = suite.tries;
        suite.tries += 1;
        let Some((moves, pos)) = candidate::<G>(spec.plies, spec.seed, i) else {
            continue;
        };
        if !seen.insert(class(&pos)) {
            suite.duplicates += 1;
            continue;
        }
        player.new_game();
        let t = player.choose(&pos, limits)?;
        if t.score.abs() > spec.max_abs_score {
            suite.unbalanced += 1;
            continue;
        }
        let text: Vec<String> = moves.iter().map(ToString::to_string).collect();
        suite.openings.push(Found {
            moves: text.join(" "),
            score: t.score,
        });
    }
    Ok(suite)
}

/// The symmetry class of a square-board position from its one-line text: the board part
/// (the first word: rows joined by `/`, or n*n cells in one run) is replaced by the
/// smallest of its 8 images under the rotations and reflections of the square; the rest
/// (side to move, options) is kept. Text that is not a square board comes back unchanged.
#[must_use]
pub fn square_symmetry_class(text: &str) -> String {
    let (board, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rows: Vec<Vec<char>> = if board.contains('/') {
        board.split('/').map(|r| r.chars().collect()).collect()
    } else {
        let cells: Vec<char> = board.chars().collect();
        let n = (cells.len() as f64).sqrt().round() as usize;
        if n * n != cells.len() || n == 0 {
            return text.to_string();
        }
        cells.chunks(n).map(<[char]>::to_vec).collect()
    };
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) {
        return text.to_string();
    }
    let image = |s: u8| -> String {
        let mut out = String::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                // Symmetry s: bit 2 transposes, bit 0 mirrors columns, bit 1 mirrors rows.
                let (mut rr, mut cc) = (r, c);
                if s & 4 != 0 {
                    (rr, cc) = (cc, rr);
                }
                if s & 1 != 0 {
                    cc = n - 1 - cc;
                }
                if s & 2 != 0 {
                    rr = n - 1 - rr;
                }
                out.push(rows[rr][cc]);
            }
        }
        out
    };
    let best = (0..8).map(image).min().unwrap_or_default();
    format!("{best} {rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_classes() {
        // Othello after f5 and after its three symmetric first moves (d3, c4, e6): one class.
        use crate::games::othello::Position;
        let classes: HashSet<String> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|m| {
                let (root, moves) = Position::parse_opening(m).unwrap();
                let p = moves.iter().fold(root, |p, &m| p.play(m));
                square_symmetry_class(&p.to_string())
            })
            .collect();
        assert_eq!(classes.len(), 1, "{classes:?}");
        // Rows joined by '/': a corner cube is one class, an edge cube another.
        let a = square_symmetry_class("X..../...../...../...../..... O");
        let b = square_symmetry_class("...../...../...../...../....X O");
        let c = square_symmetry_class(".X.../...../...../...../..... O");
        assert_eq!(a, b);
        assert_ne!(a, c);
        // The side to move stays part of the class.
        assert_ne!(a, square_symmetry_class("X..../...../...../...../..... X"));
        // Not a square board: unchanged.
        assert_eq!(square_symmetry_class("abc X"), "abc X");
    }
}
