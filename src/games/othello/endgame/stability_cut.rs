//! Stability cut-off: the opponent's stable discs cap the side to move's final score.

use crate::games::othello::stability::stable_discs_up_to;

/// Least alpha (discs) at which a node with `n` empties tries the stability cut-off (99:
/// never, below 4 empties):
/// Edax's null-window thresholds (about 2 x empties, capped at 64). Measured on FFO #40-#44,
/// #46, #47 (1 thread): 198.6 M -> 177.1 M nodes against the former rule (from 8 empties,
/// alpha >= 2 x empties - 4); CPU-s 8.11 vs 8.18 on #40-#42, #44, #47 (min of 2, noise) and
/// 10.5 -> 9.5 on #43 and #46. From 5 or 6 empties instead of 4 cut less.
pub(super) static STABILITY_THRESHOLD: [i32; 64] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
];

/// Stability cut-off: `o`'s stable discs cap `p`'s final score; `Some(cap)` when that cap
/// is at most `alpha` (the node fails low).
#[inline]
pub(super) fn stability_cap(p: u64, o: u64, alpha: i32) -> Option<i32> {
    // Pre-test: the stable discs are some of `o`'s discs; when even all of them leave a
    // cap above alpha, the node cannot fail low here and the stable discs are not computed.
    if 64 - 2 * o.count_ones() as i32 > alpha {
        return None;
    }
    // The cap is at most alpha from ceil((64 - alpha) / 2) stable discs on: the count
    // stops there (a fail-soft bound no tighter than needed).
    let enough = ((65 - alpha) / 2) as u32;
    let cap = 64 - 2 * stable_discs_up_to(o, p, enough).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}
