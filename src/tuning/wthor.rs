//! Labelled positions from WTHOR game databases ([`crate::formats::wthor`]): every position
//! of every human game, labelled as self-play data is ([`super::selfplay`]): the game's final
//! disc difference from the side to move's view, and the exact value where the endgame
//! solver reaches. The same data file format, so `tessera tune` reads both.

use std::collections::HashSet;

use rayon::prelude::*;

use super::selfplay::{Sample, SolveFn, Summary};
use crate::formats::wthor::WthorGame;
use crate::game::Game;
use crate::games::othello::{Color, Position};

/// The labelled positions of `games`, each kept at its first occurrence (game order, then
/// ply) by Zobrist key; `solve` labels exactly the positions it reaches. Games run on the
/// current rayon pool; the result does not depend on the thread count. In the summary,
/// `cut` counts games whose recorded moves stop before the end of the game (their label is
/// the recorded result).
///
/// # Errors
/// A game whose moves are illegal (naming its index, from 1).
pub fn samples(
    games: &[WthorGame],
    solve: Option<&SolveFn<Position>>,
) -> Result<(Vec<Sample>, Summary), String> {
    let mut summary = Summary {
        games: games.len(),
        ..Summary::default()
    };
    // Replay once per game (in parallel), then keep first occurrences in game order: only
    // the distinct positions are formatted and solved.
    let replayed: Vec<(Vec<Position>, Position)> = games
        .par_iter()
        .enumerate()
        .map(|(i, g)| g.replay().map_err(|e| format!("game {}: {e}", i + 1)))
        .collect::<Result<_, String>>()?;
    let mut keys = HashSet::new();
    let mut unique: Vec<(Position, i32)> = Vec::new();
    for (g, (positions, last)) in games.iter().zip(&replayed) {
        summary.cut += usize::from(!last.is_game_over());
        let black = g.black_margin_at(last);
        for p in positions {
            summary.positions += 1;
            if keys.insert(p.key()) {
                let result = if p.side() == Color::Black {
                    black
                } else {
                    -black
                };
                unique.push((*p, result));
            }
        }
    }
    let out: Vec<Sample> = unique
        .par_iter()
        .map(|(p, result)| Sample {
            position: p.to_string(),
            result: *result,
            exact: solve.and_then(|s| s(p)).map(|(v, _)| v),
            scores: Vec::new(),
        })
        .collect();
    summary.exact = out.iter().filter(|s| s.exact.is_some()).count();
    summary.unique = out.len();
    Ok((out, summary))
}
