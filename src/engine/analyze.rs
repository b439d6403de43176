//! Every legal move's score: each move is played and the position after it searched by the
//! same [`Player`] (one shared transposition table), and the score turned back to the
//! mover's view. For two-sided games (two seats, or two teams as in four-player Quixo),
//! where the negamax view applies.

use std::time::Instant;

use super::{Player, Thought};
use crate::game::Game;
use crate::search::{Limits, Score, WIN_MIN};

/// The limits for the search after one of `moves` root moves: depth `d` becomes `d - 1`
/// (at least 1), and a time or node budget (a game clock's budget for the move included,
/// see [`Limits::for_move`]) is split evenly over the moves.
#[must_use]
pub fn child_limits(limits: &Limits, moves: usize) -> Limits {
    let n = moves.max(1) as u64;
    let limits = limits.for_move();
    Limits {
        depth: limits.depth.map(|d| d.saturating_sub(1).max(1)),
        nodes: limits.nodes.map(|x| (x / n).max(1)),
        time_ms: limits.time_ms.map(|t| (t / n).max(1)),
        stop: limits.stop.clone(),
        clock: None,
    }
}

/// A score of the position after a move, for its side to move, seen by the other side one
/// ply earlier: negated, with a forced result one ply further away
/// (`WIN - k` there is a loss in `k + 1` here).
#[must_use]
pub fn negate_child(score: Score) -> Score {
    if score >= WIN_MIN {
        -(score - 1)
    } else if score <= -WIN_MIN {
        -(score + 1)
    } else {
        -score
    }
}

/// Scores every legal move of `pos` (unfinished, two-sided) with `player` and `limits`
/// (split by [`child_limits`]), brings the heuristic scores to one depth (moves searched
/// deeper than the shallowest are searched again to its depth: a budget split over the
/// moves ends each move's iterative deepening at its own depth) and ranks them by [`rank`]
/// (best first: forced wins, exact scores, heuristic scores of that one depth, forced
/// losses; each group by score). Each
/// [`Thought`] is from `pos`'s side to move: its `best_move` is the move, its `pv` starts
/// with it, its depth counts the move, `exact` is true when the position after the move is
/// finished or was solved. `stop` (in `limits`) ends the work early: the moves not yet
/// searched, and a move whose search was stopped before its first ply ended, are left out
/// (the result may then be empty).
///
/// # Errors
/// A finished position, a game of more than two sides, or the engine's failure.
pub fn analyze_moves<G: Game>(
    player: &mut dyn Player<G>,
    pos: &G,
    limits: &Limits,
) -> Result<Vec<Thought<G::Move>>, String> {
    if pos.outcome().is_some() {
        return Err("the game is over: there is no move to analyse".into());
    }
    let mover = pos.to_move();
    let teams: std::collections::BTreeSet<u8> = (0..pos.seats())
        .map(|i| pos.team(crate::game::Seat(i as u8)))
        .collect();
    if teams.len() != 2 {
        return Err(format!(
            "per-move analysis needs a two-sided game; {} has {} sides",
            G::ID,
            teams.len()
        ));
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    let per_move = child_limits(limits, moves.len());
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        if limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
        let started = Instant::now();
        let child = pos.play(mv);
        let mut t = player.choose(&child, &per_move)?;
        if t.depth == 0 && !t.exact && child.outcome().is_none() {
            // The reply's first ply did not end: a depth-0 score is no score. Stopped: the
            // move is left out; out of its budget share: one ply is finished (quick).
            if limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
            t = player.choose(&child, &Limits::depth(1))?;
        }
        let same_side = pos.team(child.to_move()) == pos.team(mover);
        let score = if same_side {
            t.score
        } else {
            negate_child(t.score)
        };
        let mut pv = Vec::with_capacity(t.pv.len() + 1);
        pv.push(mv);
        pv.extend_from_slice(&t.pv);
        out.push(Thought {
            best_move: Some(mv),
            score,
            exact: t.exact || child.outcome().is_some(),
            depth: t.depth + 1,
            nodes: t.nodes,
            elapsed: started.elapsed(),
            pv,
            unit: t.unit,
        });
    }
    common_depth(player, pos, &mut out, limits)?;
    rank(&mut out);
    Ok(out)
}

/// Brings the heuristic scores of `out` (the analysis of `pos`) to one depth: under a time
/// or node budget split over the moves, each move's iterative deepening stops at its own
/// depth, and a 10-ply score is not comparable with a 9-ply one. Every move searched deeper
/// than the shallowest heuristic move is searched again to that depth (a fixed-depth search
/// that the shared table makes cheap: it has the deeper entries), so the multi-PV order is
/// by scores of one depth, as in Edax's `hint`. Exact scores and forced results are kept.
/// Nothing is re-searched once `stop` (in `limits`) is set.
fn common_depth<G: Game>(
    player: &mut dyn Player<G>,
    pos: &G,
    out: &mut [Thought<G::Move>],
    limits: &Limits,
) -> Result<(), String> {
    let stopped = || {
        limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    };
    let heuristic = |t: &Thought<G::Move>| matches!(Reach::of(t), Reach::Depth(_));
    let Some(depth) = out.iter().filter(|t| heuristic(t)).map(|t| t.depth).min() else {
        return Ok(());
    };
    // The child searched to `depth - 1` plies; a search that finished no ply (depth 1 here)
    // has nothing to compare.
    if depth < 2 {
        return Ok(());
    }
    let mover = pos.to_move();
    let fixed = Limits {
        stop: limits.stop.clone(),
        ..Limits::depth(depth - 1)
    };
    for t in out.iter_mut().filter(|t| heuristic(t) && t.depth > depth) {
        if stopped() {
            break;
        }
        let Some(mv) = t.best_move else { continue };
        let started = Instant::now();
        let child = pos.play(mv);
        let again = player.choose(&child, &fixed)?;
        if stopped() || again.depth + 1 != depth {
            // Stopped part-way: keep the deeper score rather than a truncated one.
            continue;
        }
        let same_side = pos.team(child.to_move()) == pos.team(mover);
        t.score = if same_side {
            again.score
        } else {
            negate_child(again.score)
        };
        t.exact = again.exact;
        t.depth = depth;
        t.nodes += again.nodes;
        t.elapsed += started.elapsed();
        t.pv.truncate(1);
        t.pv.extend_from_slice(&again.pv);
    }
    Ok(())
}

/// How far a move's score is known, for [`rank`]: scores are compared only within one
/// reach. Higher is better known; ordered forced loss < heuristic at depth 1 < depth 2 <
/// ... < exact (solved, not a forced loss) < forced win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// A proven loss (score at or below `-WIN_MIN`): any move not proven lost may be better.
    ForcedLoss,
    /// A heuristic score from a search of this many plies (the move included).
    Depth(u32),
    /// A proven score short of a forced win (an Othello disc count, a draw).
    Exact,
    /// A proven win (score at or above `WIN_MIN`).
    ForcedWin,
}

impl Reach {
    /// The reach of one analysed move.
    #[must_use]
    pub fn of<M>(t: &Thought<M>) -> Self {
        if t.score >= WIN_MIN {
            Self::ForcedWin
        } else if t.score <= -WIN_MIN {
            Self::ForcedLoss
        } else if t.exact {
            Self::Exact
        } else {
            Self::Depth(t.depth)
        }
    }
}

/// Orders analysed moves best first, by ([`Reach`], score), both descending; equal keys keep
/// their order (move generation order in [`analyze_moves`]).
///
/// Scores from searches of different depths are not on one scale (a 3-ply guess of +38.87
/// is not better than a proven +38), so they are not ranked together: forced wins come
/// first, then exact scores, then heuristic scores from the deepest search to the
/// shallowest, then forced losses; within each group the higher score first. Under a fixed
/// `--depth` every move not solved has the same depth, so this is the usual multi-PV order
/// by score; under a time or node budget split over the moves (where a move's solve may
/// finish and its sibling's may not), a move solved exactly never ranks below a shallower
/// guess. Each [`Thought`] keeps its own depth and `exact` flag to show beside the score.
pub fn rank<M>(moves: &mut [Thought<M>]) {
    moves.sort_by_key(|t| std::cmp::Reverse((Reach::of(t), t.score)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::{self as oth, Position};
    use crate::search::WIN;

    #[test]
    fn forced_results_move_one_ply_away() {
        assert_eq!(negate_child(WIN - 3), -(WIN - 4));
        assert_eq!(negate_child(-(WIN - 3)), WIN - 4);
        assert_eq!(negate_child(125), -125);
    }

    #[test]
    fn exact_scores_of_every_move_match_the_solver() {
        // FFO #40 (20 empties) is +38 for Black with the PV a2 b1 c1 (White passes) b6:
        // after a2 b1 c1 pass, Black to move with 17 empties is still worth +38.
        let ffo40: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
            .parse()
            .unwrap();
        let pos = ffo40.replay("a2b1c1pass").unwrap();
        assert_eq!(pos.empties(), 17);
        let mut engine = crate::engine::othello::alphabeta_engine_with(
            "t",
            oth::eval::Eval::default_patterns(),
            16,
            20,
        );
        let scores = analyze_moves(&mut engine, &pos, &Limits::default()).unwrap();
        let mut legal = <Position as Game>::Moves::default();
        pos.generate_moves(&mut legal);
        assert_eq!(scores.len(), legal.len());
        assert_eq!(scores[0].score, 3800);
        let solved = engine.choose(&pos, &Limits::default()).unwrap();
        assert!(solved.exact);
        assert_eq!(solved.score, 3800);
        assert!(scores.iter().all(|t| t.exact));
        assert!(scores[1..].iter().all(|t| t.score < 3800));
        assert!(scores.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(scores[0].pv[0], scores[0].best_move.unwrap());
    }
}
