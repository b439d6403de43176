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
/// (split by [`child_limits`]); best first, ties in move-generation order. Each
/// [`Thought`] is from `pos`'s side to move: its `best_move` is the move, its `pv` starts
/// with it, its depth counts the move, `exact` is true when the position after the move is
/// finished or was solved. `stop` (in `limits`) ends the work early: the moves not yet
/// searched are left out.
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
        let t = player.choose(&child, &per_move)?;
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
    // Stable: equal scores keep the generation order.
    out.sort_by_key(|t| std::cmp::Reverse(t.score));
    Ok(out)
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
            oth::eval::Eval::with_patterns(oth::patterns::shipped()),
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
