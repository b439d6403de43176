//! The one-blank tier solved in independent chunks, for a cluster: value iteration in rounds.
//!
//! Inside a tier the boards depend on each other (a move taking one's own cube keeps the
//! tier and may move the blank anywhere along the pushed line), so no slice of the tier can
//! be solved alone. Value iteration cuts the dependency by rounds instead: round `r` computes
//! every board's code from round `r - 1`'s codes of the whole tier and from the solved next
//! tier (the full boards), and within a round every board is independent. A round is split
//! into chunks (contiguous slices of the tier's numbering, which is blank-class major, so a
//! chunk is a slice of one or two blank classes), each written to its own file by its own
//! process (a Slurm array task); a merge checks that every chunk of the round is there and
//! consistent and writes the round's table, which the next round's chunks read.
//!
//! Round `r` resolves exactly the boards whose distance to the end is at most `r`: a board is
//! won in `d + 1` when a move leads to a child lost in `d <= r - 1` (the smallest such `d`), and
//! lost in `1 + max d` when every move leads to a child won in some `d <= r - 1`; a child's code
//! counts only once its distance is at most `r - 1` (a full board's code is known from the start,
//! but is taken into account in the round it would have been found in). By induction on `r`
//! the resolved boards and their distances are those of the breadth-first retrograde pass
//! ([`super::one_blank::OneBlankTable::solve`]); once a round changes nothing and every full
//! board's distance has been reached, nothing can change any more, and the boards still
//! unresolved are draws. The test `chunked_rounds_equal_the_one_piece_solve` checks the
//! identity on the 4x4 board, chunk count 5.
//!
//! The cost is one pass over the tier per round (the number of rounds is the tier's longest
//! distance plus one), against one pass in all for the retrograde solve: the price of
//! independence.

use std::ops::Range;

use super::geometry::{Geometry, geometry_of};
use super::one_blank::OneBlankTier;
use super::retro::{Code, DRAW, NextTier, Tier, UNKNOWN, Value, decode, loss, win};

/// The index range of chunk `i` of `n` over a tier of `len` boards.
#[must_use]
pub fn chunk_range(len: usize, i: usize, n: usize) -> Range<usize> {
    (len * i / n)..(len * (i + 1) / n)
}

/// Whether code `c` is known by round `round` (resolved, at distance `<= round - 1`).
#[inline(always)]
fn visible(c: Code, round: u32) -> Option<(Value, u32)> {
    if c == UNKNOWN || c == DRAW {
        return None;
    }
    match decode(c) {
        (v, Some(d)) if d < round => Some((v, d)),
        _ => None,
    }
}

/// Round `round` (>= 1) of value iteration for the tier boards with an index in `range`:
/// their codes from `prev` (round `round - 1`'s codes of the whole tier; all
/// [`UNKNOWN`] before round 1) and the solved full boards `next`. Unresolved boards are
/// [`UNKNOWN`].
///
/// # Panics
/// `prev` is not one code per tier board, or `round` is 0.
pub(super) fn round_chunk<N: NextTier>(
    size: u8,
    tier: &OneBlankTier,
    prev: &[Code],
    next: &N,
    round: u32,
    range: Range<usize>,
) -> Vec<Code> {
    assert_eq!(prev.len(), tier.len(), "one previous code per board");
    assert!(round >= 1, "rounds start at 1");
    let g: &Geometry = geometry_of(size);
    let next_codes = next.codes();
    let mut out = Vec::with_capacity(range.len());
    tier.for_range(range, &mut |i, me, opp| {
        let old = prev[i];
        if old != UNKNOWN {
            out.push(old);
            return;
        }
        if g.has_line(me) {
            out.push(win(0));
            return;
        }
        if g.has_line(opp) {
            out.push(loss(0));
            return;
        }
        // Smallest distance of a child lost for the opponent, largest of a child won by the
        // opponent, and whether some child is still unknown.
        let (mut best_loss, mut worst_win, mut open) = (u32::MAX, 0u32, false);
        let mut take = |c: Option<(Value, u32)>| match c {
            Some((Value::Loss, d)) => best_loss = best_loss.min(d),
            Some((Value::Win, d)) => worst_win = worst_win.max(d),
            _ => open = true,
        };
        let blank = g.border & !(me | opp);
        let mut sources = g.border & (me | blank);
        while sources != 0 {
            let cell = sources.trailing_zeros();
            sources &= sources - 1;
            for p in g.pushes_from(cell) {
                // The child, the opponent to move: (their cubes, ours).
                let (cm, co) = (p.apply(opp), p.apply(me) | p.dst);
                let c = if g.has_line(cm) {
                    win(0)
                } else if g.has_line(co) {
                    loss(0)
                } else if blank & p.src != 0 {
                    next_codes[next.locate(cm, co)]
                } else {
                    let (a, b, _) = tier.canon(cm, co);
                    prev[tier.index(a, b)]
                };
                take(visible(c, round));
            }
        }
        out.push(if best_loss != u32::MAX {
            win(best_loss + 1)
        } else if !open {
            loss(worst_win + 1)
        } else {
            UNKNOWN
        });
    });
    out
}

/// Longest distance of a forced result among `codes` (0 when there is none).
#[must_use]
pub fn longest_distance(codes: &[Code]) -> u32 {
    codes
        .iter()
        .filter_map(|&c| if c == UNKNOWN { None } else { decode(c).1 })
        .max()
        .unwrap_or(0)
}

/// Whether round `round`'s codes `cur` are final: unchanged from `prev`, and every full
/// board's distance (at most `next_longest`) already counted (`round > next_longest`).
#[must_use]
pub fn converged(prev: &[Code], cur: &[Code], round: u32, next_longest: u32) -> bool {
    round > next_longest && prev == cur
}

/// The final codes of a converged round: unresolved boards are draws.
#[must_use]
pub fn finish(mut codes: Vec<Code>) -> Vec<Code> {
    for c in &mut codes {
        if *c == UNKNOWN {
            *c = DRAW;
        }
    }
    codes
}

/// Every round in sequence, each in `chunks` chunks (the one-machine run of the chunked
/// path, in memory, for the tests): the final codes and the number of rounds.
#[cfg(test)]
pub(super) fn solve_in_rounds<N: NextTier>(size: u8, next: &N, chunks: usize) -> (Vec<Code>, u32) {
    let tier = OneBlankTier::new(size);
    let next_longest = longest_distance(next.codes());
    let mut prev = vec![UNKNOWN; tier.len()];
    let mut round = 1;
    loop {
        let mut cur = Vec::with_capacity(tier.len());
        for i in 0..chunks {
            let r = chunk_range(tier.len(), i, chunks);
            cur.extend(round_chunk(size, &tier, &prev, next, round, r));
        }
        if converged(&prev, &cur, round, next_longest) {
            return (finish(cur), round);
        }
        prev = cur;
        round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quixo::one_blank::OneBlankTable;
    use crate::games::quixo::one_blank::tests::Full4;
    use crate::games::quixo::retro::SmallBoardTable;

    #[test]
    fn chunks_cover_the_tier_once() {
        for (len, n) in [(10usize, 3usize), (66_048, 5), (7, 7), (5, 1)] {
            let mut next = 0;
            for i in 0..n {
                let r = chunk_range(len, i, n);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, len);
        }
    }

    /// Value iteration in 5 chunks per round gives the same codes, board for board, as the
    /// one-piece retrograde solve of the 4x4 one-blank tier (itself equal to the full 4x4
    /// solution).
    #[test]
    fn chunked_rounds_equal_the_one_piece_solve() {
        let small = SmallBoardTable::solve(4, 2).expect("4x4 solve");
        let full = Full4(
            (0..1u32 << 16)
                .map(|me| small.code(me, 0xffff & !me))
                .collect(),
        );
        let (one, _) = OneBlankTable::solve_with(4, &full, 2).expect("tier");
        let (chunked, rounds) = solve_in_rounds(4, &full, 5);
        assert_eq!(chunked.len(), one.codes().len());
        assert!(
            chunked == one.codes(),
            "chunked rounds differ from the one-piece solve"
        );
        assert_eq!(
            rounds,
            longest_distance(one.codes()).max(longest_distance(&full.0)) + 1
        );
    }
}
