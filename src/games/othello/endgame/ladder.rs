//! Selective passes (Edax's ladder): ProbCut at 73, 87 and 95 % before the exact pass, and
//! how their results are kept in the table apart from exact ones.

use super::Solver;

/// Selective passes before the exact one: (ProbCut `t` in hundredths of a standard
/// deviation, the confidence in percent). Index 0 is the exact search; the root climbs
/// from the last level down to 0 (Edax's 73 -> 87 -> 95 -> 100 ladder, shortened).
pub const SELECTIVITY: [(i32, u32); 4] = [(0, 100), (200, 95), (150, 87), (110, 73)];

/// Table depth byte of a result at a node with `n_empty` empties found by a pass of
/// selectivity `level`: the empties in the low 6 bits, `3 - level` above, so an exact
/// result is the deepest (and the table's bucket replaces it last).
#[inline]
pub(super) fn tt_depth(n_empty: u32, level: u32) -> u8 {
    (n_empty + 64 * (3 - level)) as u8
}

/// Whether a stored result with depth byte `depth` may cut off a pass of selectivity
/// `level`: it was found at that selectivity or a more exact one.
#[inline]
pub(super) fn tt_usable(depth: u8, level: u32) -> bool {
    u32::from(depth >> 6) >= 3 - level
}

/// From this many empties up, the root runs the selective passes before the exact one.
/// (FFO #40-#49 all have 20 or more.)
pub const LADDER_MIN_EMPTIES: u32 = 18;
/// From this many empties up, nodes of a selective pass try ProbCut. Measured on FFO
/// #40-#44, #46, #47: 198.6 M nodes at 13, 193.3 M at 11, 234.9 M at 15.
pub(super) const MPC_MIN_EMPTIES: u32 = 13;

/// Depth of the ProbCut shallow search at a node with `n_empty` empties and the deviation
/// (centi-discs) used for its margin. The standard deviation of the error against the exact
/// value, measured on 40 random-walk positions each at 12-20 empties (`mpc_calibration`), is
/// 7-8.5 discs at depth 2, 5-7.7 at depth 4 and 5-6.5 at depth 6; those positions are wilder
/// than game positions, and half of it paid best on FFO #40-#44, #46, #47: 198.6 M nodes
/// against 215.3 M with the full deviation (251.9 M without selective passes). Now 0.35 of
/// it (0.7 times the half): on FFO #40-#44 and #47 with ETC from 12 empties and fail-lows
/// keeping the stored move, 107.9 M nodes at 0.7 (120.2 M at 1 with ETC from 12 alone),
/// 108.5 M at 0.85, 98.4 M at 0.5 and 111.1 M at 0.35 (0.5 and 0.35 are gambles on which
/// score and root move the cheap passes guess: #43 41 M, #44 22.5 M); #45 169.4 M at 1
/// (ETC from 14) -> 157.7 M at 0.7, 161.0 M at 0.5. Wider passes cost more: with the t of
/// the 95/87/73 % passes set to 98/95/87 % ones, 109.9 M. The exact pass is 90-98 % of a
/// solve's nodes; the cheap passes' value is the score guess and the moves near the root.
#[inline]
pub(super) fn mpc_depth_sigma(n_empty: u32) -> (u32, i32) {
    match n_empty {
        0..=15 => (2, 280),
        16..=21 => (4, 245),
        _ => (6, 210),
    }
}

impl Solver<'_> {
    /// ProbCut at a node of a selective pass: `Some(beta)` when a shallow search says the
    /// node fails high with the pass's confidence, `Some(alpha)` when it says it fails low.
    pub(super) fn probcut(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n_empty: u32,
    ) -> Option<i32> {
        let (d, sigma) = mpc_depth_sigma(n_empty);
        let margin = SELECTIVITY[self.level as usize].0 * sigma / 100;
        if beta < 64 {
            let b = beta * 100 + margin;
            if b < 6400 && self.shallow_value(p, o, d, b - 1, b) >= b {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let a = alpha * 100 - margin;
            if a > -6400 && self.shallow_value(p, o, d, a, a + 1) <= a {
                return Some(alpha);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_endgames;
    use super::LADDER_MIN_EMPTIES;
    use crate::game::Game;
    use crate::games::othello::endgame::Solver;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// From LADDER_MIN_EMPTIES up the root runs the ProbCut passes first; the score must be
    /// the plain full-window search's (no ladder), on one and on two threads, and the best
    /// move must keep it. Three random positions with `LADDER_MIN_EMPTIES + extra` empties
    /// (one test per count, so the test runner spreads them over its threads).
    fn selective_ladder_is_exact_at(extra: u32) {
        {
            let empties = LADDER_MIN_EMPTIES + extra;
            for pos in random_endgames(0x1ADD_E500 + u64::from(empties), empties, 3) {
                let tt = TranspositionTable::new(8);
                let plain = Solver::new(&tt, &Limits::default()).solve_window(&pos, -65, 65);
                for threads in [1, 2] {
                    let tt = TranspositionTable::new(8);
                    let sol = Solver::new(&tt, &Limits::default())
                        .with_threads(threads)
                        .solve(&pos);
                    assert_eq!(sol.score, Some(plain), "{threads} threads on {pos}");
                    let m = sol.best_move.expect("a best move");
                    let tt = TranspositionTable::new(8);
                    let after =
                        Solver::new(&tt, &Limits::default()).solve_window(&pos.play(m), -65, 65);
                    assert_eq!(-after, plain, "best move {m} in {pos}");
                }
            }
        }
    }

    /// The root passes of a solve: at LADDER_MIN_EMPTIES the 73, 87, 95 % passes then the
    /// exact one, each told to the progress callback as it finishes, the last one the
    /// solve's score and move, node counts and times not decreasing; below it the exact
    /// pass alone.
    #[test]
    fn passes_are_reported_in_ladder_order() {
        for pos in random_endgames(0x9A55_E500, LADDER_MIN_EMPTIES, 1) {
            let tt = TranspositionTable::new(8);
            let mut told = Vec::new();
            let mut progress = |p: &super::super::Pass| told.push((p.probability, p.score));
            let sol = Solver::new(&tt, &Limits::default())
                .with_progress(&mut progress)
                .solve(&pos);
            let probs: Vec<u32> = sol.passes.iter().map(|p| p.probability).collect();
            assert_eq!(probs, [73, 87, 95, 100], "{pos}");
            let last = sol.passes.last().expect("the exact pass");
            assert_eq!(Some(last.score), sol.score);
            assert_eq!(Some(last.best_move), sol.best_move);
            assert_eq!(last.nodes, sol.nodes);
            assert!(sol.passes.iter().all(|p| p.depth == LADDER_MIN_EMPTIES));
            assert!(
                sol.passes
                    .windows(2)
                    .all(|w| w[0].nodes <= w[1].nodes && w[0].seconds <= w[1].seconds)
            );
            let from_passes: Vec<(u32, i32)> = sol
                .passes
                .iter()
                .map(|p| (p.probability, p.score))
                .collect();
            assert_eq!(told, from_passes);
        }
        let pos = random_endgames(0x9A55_E501, LADDER_MIN_EMPTIES - 4, 1)[0];
        let tt = TranspositionTable::new(8);
        let sol = Solver::new(&tt, &Limits::default()).solve(&pos);
        let probs: Vec<u32> = sol.passes.iter().map(|p| p.probability).collect();
        assert_eq!(probs, [100], "{pos}");
        assert_eq!(Some(sol.passes[0].score), sol.score);
    }

    #[test]
    #[ignore = "slow: 15 exact solves at 18-20 empties (10 CPU-s for the three); the FFO tests check the ladder against the published scores in every run"]
    fn selective_ladder_keeps_scores_and_moves_exact() {
        selective_ladder_is_exact_at(0);
    }

    #[test]
    #[ignore = "slow: 15 exact solves at 18-20 empties (10 CPU-s for the three); the FFO tests check the ladder against the published scores in every run"]
    fn selective_ladder_keeps_scores_and_moves_exact_one_empty_more() {
        selective_ladder_is_exact_at(1);
    }

    #[test]
    #[ignore = "slow: 15 exact solves at 18-20 empties (10 CPU-s for the three); the FFO tests check the ladder against the published scores in every run"]
    fn selective_ladder_keeps_scores_and_moves_exact_two_empties_more() {
        selective_ladder_is_exact_at(2);
    }
}

/// Calibration of the ProbCut deviations ([`mpc_depth_sigma`]).
#[cfg(test)]
mod mpc_calibration {
    use super::super::INF;
    use super::super::tests::random_endgames_from;
    use super::*;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// Mean and standard deviation (discs) of exact value minus the midgame search's value at
    /// depths 0-6, on 40 random-walk positions at each of 12-20 empties; prints them and
    /// checks that the depth-4 search errs less than the static evaluation and by less than
    /// 10 discs. Run with `cargo test --release --lib mpc_calibration -- --ignored --nocapture`
    /// (about 80 s).
    #[test]
    #[ignore = "calibration: about 80 s in release"]
    fn mpc_calibration() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        for n in [12u32, 14, 16, 18, 20] {
            let mut stats = [(0f64, 0f64, 0f64); 7];
            for pos in random_endgames_from(&mut seed, n, 40) {
                let tt = TranspositionTable::new(16);
                let mut s = Solver::new(&tt, &Limits::default());
                let exact = f64::from(s.solve(&pos).score.expect("solved"));
                for (d, st) in stats.iter_mut().enumerate() {
                    let v = s.shallow_value(pos.player(), pos.opponent(), d as u32, -INF, INF);
                    let e = exact - f64::from(v) / 100.0;
                    st.0 += e;
                    st.1 += e * e;
                    st.2 += 1.0;
                }
            }
            let sd: Vec<f64> = stats
                .iter()
                .map(|(s1, s2, c)| (s2 / c - (s1 / c).powi(2)).sqrt())
                .collect();
            for (d, (s1, _, c)) in stats.iter().enumerate() {
                eprintln!("{n} empties, depth {d}: mean {:.2} sd {:.2}", s1 / c, sd[d]);
            }
            assert!(sd[4] < sd[0] && sd[4] < 10.0, "{n} empties: {sd:?}");
        }
    }
}
