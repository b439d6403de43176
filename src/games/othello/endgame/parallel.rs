//! Parallel exact search (Young Brothers Wait): after its first children a node searches
//! the others on all threads of a rayon pool, sharing the table, alpha and an abort flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::Solver;

/// From this many empties up, a node searched with more than one thread splits: after its
/// first [`YOUNG_BROTHERS`] children, the other children are searched in parallel.
pub const SPLIT_MIN_EMPTIES: u32 = 12;
/// Children a node below the root searches alone before it splits. Measured on FFO
/// #41-#44 with 2 threads: 131.4 M nodes and 12.0 CPU s with 2, 141.3 M and 13.2 s with 1
/// (113.7 M on one thread); a split from 14 or 16 empties instead of 12 changed little.
pub(super) const YOUNG_BROTHERS: usize = 2;

/// Packs a split's best result for a `fetch_max`: score first, then whether it is a
/// proven value (not a fail-low upper bound, so it wins ties), then the square.
#[inline]
pub(super) fn pack_best(score: i32, proven: bool, sq: usize) -> i32 {
    ((score + 128) << 8) | (i32::from(proven) << 7) | sq as i32
}
/// The abort flag of one parallel split, set when one of its children cuts off, linked to
/// the flag of the split it runs under: a helper stops when any flag on its chain is set.
/// One allocation per split; each child only clones the `Arc`.
pub(super) struct AbortFlag {
    /// Set when the split's node is cut off.
    pub cut: AtomicBool,
    /// The enclosing split's flag.
    pub parent: Option<Arc<AbortFlag>>,
}

impl<'a> Solver<'a> {
    /// A helper solver for one child of a split whose abort flag is `abort`.
    pub(super) fn helper(&self, abort: &Arc<AbortFlag>) -> Solver<'a> {
        let aborts = Some(Arc::clone(abort));
        Solver {
            level: self.level,
            eval: self.eval.clone(),
            tt: self.tt,
            clock: self.clock.fork(),
            nodes: 0,
            threads: self.threads,
            aborts,
            progress: None,
        }
    }

    /// Searches the children `moves` (square, flips) of (`p`, `o`) in parallel with the
    /// window (`alpha`, `beta`), each first with a null window at the current shared alpha
    /// and, when it fails high below `beta`, again with the window from the shared alpha
    /// at that time; `best`/`best_sq` is what
    /// the first child gave. Returns the fail-soft best score and its square; stops the
    /// other children as soon as one reaches `beta`.
    pub(super) fn split(
        &mut self,
        p: u64,
        o: u64,
        moves: &[(u8, u64)],
        window: (i32, i32),
        first: (i32, usize),
    ) -> (i32, usize) {
        let (alpha, beta) = window;
        let abort = Arc::new(AbortFlag {
            cut: AtomicBool::new(false),
            parent: self.aborts.clone(),
        });
        let shared_alpha = AtomicI32::new(alpha.max(first.0));
        let best = AtomicI32::new(pack_best(first.0, true, first.1));
        let nodes = AtomicU64::new(0);
        let this = &*self;
        moves.par_iter().for_each(|&(sq, f)| {
            if abort.cut.load(Ordering::Relaxed) || this.halted() {
                return;
            }
            let mut helper = this.helper(&abort);
            let sq = sq as usize;
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            let a = shared_alpha.load(Ordering::Relaxed);
            let mut v = -helper.search(cp, co, -a - 1, -a);
            let mut proven = v > a;
            if !helper.halted() && v > a && v < beta {
                // A fail-high is only a lower bound: the child may be worth more than any
                // score proven meanwhile, so it is always searched again, with the window
                // from the current shared alpha. (Skipping it when `v` was at most that
                // alpha returned scores too low: 14 for 16, -4 for -2.)
                // When another child has already reached beta (its abort may not be seen
                // yet) the window would be empty: the node is cut, this child's value
                // no longer matters and is kept as an unproven lower bound below beta.
                let a2 = shared_alpha.load(Ordering::Relaxed).max(a);
                if a2 < beta {
                    v = -helper.search(cp, co, -beta, -a2);
                    proven = v > a2;
                } else {
                    proven = false;
                }
            }
            nodes.fetch_add(helper.nodes, Ordering::Relaxed);
            if helper.halted() {
                return;
            }
            best.fetch_max(pack_best(v, proven, sq), Ordering::Relaxed);
            if proven {
                shared_alpha.fetch_max(v, Ordering::Relaxed);
            }
            if v >= beta {
                abort.cut.store(true, Ordering::Relaxed);
            }
        });
        self.nodes += nodes.load(Ordering::Relaxed);
        let packed = best.load(Ordering::Relaxed);
        ((packed >> 8) - 128, (packed & 0x3F) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_endgames;
    use crate::game::Game;
    use crate::games::othello::endgame::Solver;
    use crate::games::othello::position::Position;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    #[test]
    fn parallel_solver_agrees_with_the_sequential_one() {
        // 14-17 empties: the splits (from SPLIT_MIN_EMPTIES) run at the root and below it.
        for empties in 14..=17 {
            for pos in random_endgames(0x5EED_0000 + u64::from(empties), empties, 4) {
                let tt1 = TranspositionTable::new(8);
                let seq = Solver::new(&tt1, &Limits::default()).solve(&pos);
                let tt2 = TranspositionTable::new(8);
                let par = Solver::new(&tt2, &Limits::default())
                    .with_threads(2)
                    .solve(&pos);
                assert_eq!(par.score, seq.score, "{pos}");
                let m = par.best_move.expect("a best move");
                let after = pos.play(m);
                let tt3 = TranspositionTable::new(8);
                let v = Solver::new(&tt3, &Limits::default()).solve(&after).score;
                assert_eq!(v.map(|v| -v), seq.score, "best move {m} in {pos}");
                assert!(par.nodes > 0);
            }
        }
    }

    #[test]
    fn parallel_solver_on_positions_it_once_got_wrong() {
        // Found by `parallel_solver_stress` before the fix of the split's re-search: a
        // null-window fail-high at or below the alpha another thread had proven meanwhile
        // was not searched again (scores 2 too low). Several runs: the interleaving varies.
        let cases = [
            "--O----OO-OOXXXOOOO-O-XOXOOXXOXO--OOOXXO-X-OOOXO--OOOXXO-OXXX-X- X",
            "-XO-O----OO-OXX-OXOXOXXOXXXOOXX-OOOXOXX--O-XXXO-OOOOOOO----XXX-O X",
            "XXXX--X--XO-X-XO-XOOOXXO-XOXOXXO-XXOXOX--XOOXOO--OOOOOOO-X-OOOOO O",
        ];
        for text in cases {
            let pos: Position = text.parse().expect("a valid position");
            let tt = TranspositionTable::new(4);
            let seq = Solver::new(&tt, &Limits::default()).solve(&pos);
            for threads in [2, 3, 4, 2, 3, 4] {
                let tt = TranspositionTable::new(4);
                let par = Solver::new(&tt, &Limits::default())
                    .with_threads(threads)
                    .solve(&pos);
                assert_eq!(par.score, seq.score, "{threads} threads on {text}");
            }
        }
    }

    /// Stress test of the split search: many random 12-20-empty positions on 2-4 threads
    /// against the sequential solver (each thread interleaving differs from run to run).
    /// Run with `cargo test --release --lib parallel_solver_stress -- --ignored`.
    #[test]
    #[ignore = "stress test: 324 solves, about 4 minutes in release on a loaded 2-core machine"]
    fn parallel_solver_stress() {
        let mut failures = Vec::new();
        for round in 0..12u64 {
            for empties in 12..=20 {
                for pos in
                    random_endgames(0xBAD5_EED0 + round * 97 + u64::from(empties), empties, 3)
                {
                    let tt1 = TranspositionTable::new(4);
                    let seq = Solver::new(&tt1, &Limits::default()).solve(&pos);
                    let threads = 2 + (round % 3) as usize;
                    let tt2 = TranspositionTable::new(4);
                    let par = Solver::new(&tt2, &Limits::default())
                        .with_threads(threads)
                        .solve(&pos);
                    if par.score != seq.score {
                        failures.push(format!(
                            "{pos}: {threads} threads {:?}, sequential {:?}",
                            par.score, seq.score
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
