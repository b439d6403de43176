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
    let per_game: Vec<(Vec<(u64, Sample)>, bool)> = games
        .par_iter()
        .enumerate()
        .map(|(i, g)| {
            let (positions, last) = g.replay().map_err(|e| format!("game {}: {e}", i + 1))?;
            let black = g
                .black_margin()
                .map_err(|e| format!("game {}: {e}", i + 1))?;
            let rows = positions
                .into_iter()
                .map(|p| {
                    let result = if p.side() == Color::Black {
                        black
                    } else {
                        -black
                    };
                    let exact = solve.and_then(|s| s(&p)).map(|(v, _)| v);
                    let sample = Sample {
                        position: p.to_string(),
                        result,
                        exact,
                        scores: Vec::new(),
                    };
                    (p.key(), sample)
                })
                .collect();
            Ok((rows, !last.is_game_over()))
        })
        .collect::<Result<_, String>>()?;
    let mut summary = Summary {
        games: games.len(),
        ..Summary::default()
    };
    let mut keys = HashSet::new();
    let mut out = Vec::new();
    for (rows, unfinished) in per_game {
        summary.cut += usize::from(unfinished);
        for (key, s) in rows {
            summary.positions += 1;
            if keys.insert(key) {
                summary.exact += usize::from(s.exact.is_some());
                out.push(s);
            }
        }
    }
    summary.unique = out.len();
    Ok((out, summary))
}
