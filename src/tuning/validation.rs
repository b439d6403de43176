//! Othello truth sets: diverse positions at chosen numbers of empties, each labelled with
//! every legal move's exact score (an OBF file as Edax writes its `problem/*.obf` sets), for
//! `tessera accuracy` to measure an engine against.
//!
//! **Drawing** ([`draw_positions`]). Candidate `j` of seed `s` comes from its own random
//! generator (seeded with `derive_seed(s, j)`): a target number of empties drawn uniformly
//! from the range, 2 to 20 uniformly random opening plies, then the game played on to the
//! target by two engines drawn from [`ENGINE_MIX`] (one per colour), each move replaced by
//! a uniformly random legal move with probability 1/[`RANDOM_MOVE_ONE_IN`]. A candidate whose
//! game ends first, whose position (after a forced pass) a depth-4 search scores beyond
//! [`MAX_ABS_DISCS`], or equals an earlier one under a board symmetry, is dropped; the first `count` kept are the set. The list depends on the
//! seed, range and count only, so every shard draws the same one.
//!
//! **Labelling** ([`label`]). Shard `I/N` labels positions `I-1, I-1+N, ...` of the list
//! ([`crate::games::othello::labels::exact_move_scores`]) and appends one line per position
//! to its file as soon as it is done. The file starts with a comment naming the run
//! ([`header`]); a run on an existing file checks that line, skips the positions already in
//! the file and drops an unfinished last line (a run killed mid-write), so a stopped run
//! loses only the position it was solving.

use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::engine::{EngineSpec, Player, Players};
use crate::game::Game;
use crate::games::othello::labels::{MoveScores, exact_move_scores};
use crate::games::othello::{Position, obf, symmetry};
use crate::search::{Limits, TranspositionTable};
use crate::tournament::openings::derive_seed;

/// The engines that play a candidate on from its random opening (inline engine specs):
/// the baseline evaluation at depths 1 and 3, the format-2 patterns at depths 2 and 4.
pub const ENGINE_MIX: &[&str] = &[
    "name=mix-d1,depth=1,tt-mb=1",
    "name=mix-pat2-d2,depth=2,tt-mb=1,weights=builtin:patterns2",
    "name=mix-d3,depth=3,tt-mb=1",
    "name=mix-pat2-d4,depth=4,tt-mb=1,weights=builtin:patterns2",
];

/// One engine move in this many is replaced by a uniformly random legal move.
pub const RANDOM_MOVE_ONE_IN: u32 = 16;

/// Largest score, discs, of a kept candidate by the depth-4 search of [`ENGINE_MIX`]'s
/// last engine: a lopsided position (a wipe-out in sight) measures little of an engine.
pub const MAX_ABS_DISCS: i32 = 20;

/// Random opening plies of a candidate, drawn uniformly from this range.
pub const RANDOM_PLIES: (u32, u32) = (2, 20);

/// Fewest and most empties a set may ask for.
pub const EMPTIES_RANGE: (u32, u32) = (1, 50);

/// What set to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawConfig {
    /// Fewest and most empties (inclusive), within [`EMPTIES_RANGE`].
    pub empties: (u32, u32),
    /// Positions in the set.
    pub count: usize,
    /// Master seed.
    pub seed: u64,
}

impl DrawConfig {
    /// Checks the range and the count.
    ///
    /// # Errors
    /// One line naming the bad value.
    pub fn validate(&self) -> Result<(), String> {
        let (lo, hi) = self.empties;
        if lo > hi || lo < EMPTIES_RANGE.0 || hi > EMPTIES_RANGE.1 {
            return Err(format!(
                "empties {lo}-{hi}: expected LO-HI with {} <= LO <= HI <= {}",
                EMPTIES_RANGE.0, EMPTIES_RANGE.1
            ));
        }
        if self.count == 0 {
            return Err("the count of positions must be at least 1".into());
        }
        Ok(())
    }
}

/// Parses `LO-HI` or `N` (a single number of empties).
///
/// # Errors
/// One line naming the text.
pub fn parse_empties(text: &str) -> Result<(u32, u32), String> {
    let bad = || {
        format!(
            "bad --empties '{}': expected LO-HI such as 20-24, or one number",
            crate::game::shown(text)
        )
    };
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u32 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u32 = hi.trim().parse().map_err(|_| bad())?;
    Ok((lo, hi))
}

/// The set's positions in order (see the module documentation).
///
/// # Errors
/// An engine of [`ENGINE_MIX`] cannot be built or fails, or the games keep ending before
/// the range (no `count` distinct positions in `50 * count + 1000` candidates).
pub fn draw_positions(cfg: &DrawConfig) -> Result<Vec<Position>, String> {
    cfg.validate()?;
    let mut engines: Vec<(Box<dyn Player<Position>>, Limits)> = Vec::new();
    for text in ENGINE_MIX {
        let spec = EngineSpec::from_inline(text, "othello")?;
        engines.push((Position::make_player(&spec)?, spec.limits()));
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(cfg.count);
    let budget = cfg.count.saturating_mul(50).saturating_add(1000);
    for j in 0..budget {
        if out.len() == cfg.count {
            break;
        }
        let Some(pos) = draw_one(cfg, j as u64, &mut engines)? else {
            continue;
        };
        if seen.insert(symmetry::canonical(pos.player(), pos.opponent()).0) {
            out.push(pos);
        }
    }
    if out.len() < cfg.count {
        return Err(format!(
            "only {} distinct positions at {}-{} empties in {budget} games",
            out.len(),
            cfg.empties.0,
            cfg.empties.1
        ));
    }
    Ok(out)
}

/// Candidate `j`: `None` when its game ends before the target.
fn draw_one(
    cfg: &DrawConfig,
    j: u64,
    engines: &mut [(Box<dyn Player<Position>>, Limits)],
) -> Result<Option<Position>, String> {
    let mut rng = StdRng::seed_from_u64(derive_seed(cfg.seed, j));
    let target = rng.random_range(cfg.empties.0..=cfg.empties.1);
    let n_random = rng.random_range(RANDOM_PLIES.0..=RANDOM_PLIES.1);
    let sides = [
        rng.random_range(0..engines.len()),
        rng.random_range(0..engines.len()),
    ];
    for &s in &sides {
        // A cleared table makes each candidate independent of the ones before it.
        engines[s].0.new_game();
    }
    let mut pos = Position::start();
    let mut moves = <Position as Game>::Moves::default();
    let mut ply = 0u32;
    while pos.empties() > target {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return Ok(None);
        }
        let random = ply < n_random || rng.random_range(0..RANDOM_MOVE_ONE_IN) == 0;
        let mv = if random || moves.len() == 1 {
            moves[rng.random_range(0..moves.len())]
        } else {
            let (player, limits) = &mut engines[sides[pos.side() as usize]];
            player
                .choose(&pos, limits)?
                .best_move
                .ok_or("a validation-set engine returned no move")?
        };
        pos = pos.play(mv);
        ply += 1;
    }
    if pos.outcome().is_some() {
        return Ok(None);
    }
    if pos.legal_placements() == 0 {
        pos = pos.pass();
    }
    let (judge, limits) = engines.last_mut().expect("the mix has engines");
    judge.new_game();
    let score = judge.choose(&pos, limits)?.score;
    Ok((score.abs() <= 100 * MAX_ABS_DISCS).then_some(pos))
}

/// The first line of a set's file: the command that makes it (`shard` as `(I, N)`).
#[must_use]
pub fn header(cfg: &DrawConfig, shard: Option<(usize, usize)>) -> String {
    let (lo, hi) = cfg.empties;
    let mut h = format!(
        "% tessera validation-set othello --empties {lo}-{hi} --count {} --seed {}",
        cfg.count, cfg.seed
    );
    if let Some((i, n)) = shard {
        h.push_str(&format!(" --shard {i}/{n}"));
    }
    h
}

/// A labelling run.
pub struct LabelRun<'a> {
    /// The set.
    pub draw: DrawConfig,
    /// `(I, N)`: label positions `I-1, I-1+N, ...` only.
    pub shard: Option<(usize, usize)>,
    /// The OBF file appended to.
    pub out: &'a Path,
    /// Solver threads.
    pub threads: usize,
    /// Transposition table, MiB (kept across the positions: its entries stay exact).
    pub tt_mib: usize,
    /// Raised to stop after the line being solved is dropped (nothing half-written).
    pub stop: Option<Arc<AtomicBool>>,
}

/// What a labelling run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSummary {
    /// Positions of this shard.
    pub shard_positions: usize,
    /// Of those, already in the file when the run started.
    pub already: usize,
    /// Labelled and written by this run.
    pub labelled: usize,
    /// Solver nodes of this run.
    pub nodes: u64,
    /// Whether the stop flag ended the run early.
    pub stopped: bool,
}

/// Labels this shard's positions not yet in `run.out`, appending each line as it is done;
/// `on_line(done, total, position, scores)` after each (`done` counts the file's lines).
///
/// # Errors
/// The file cannot be read or written, was written by another run (its first line is not
/// [`header`]), holds a bad line (named), or drawing the positions fails.
pub fn label(
    run: &LabelRun,
    mut on_line: impl FnMut(usize, usize, &Position, &MoveScores),
) -> Result<LabelSummary, String> {
    let want = header(&run.draw, run.shard);
    let done = resume(run.out, &want)?;
    let all = draw_positions(&run.draw)?;
    let (i, n) = run.shard.unwrap_or((1, 1));
    let mine: Vec<&Position> = all.iter().skip(i - 1).step_by(n).collect();
    let mut summary = LabelSummary {
        shard_positions: mine.len(),
        already: mine
            .iter()
            .filter(|p| done.contains(&p.to_string()))
            .count(),
        ..LabelSummary::default()
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(run.out)
        .map_err(|e| format!("cannot write {}: {e}", run.out.display()))?;
    let write = |file: &mut std::fs::File, text: &str| {
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", run.out.display()))
    };
    if done.is_empty() && file.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
        write(&mut file, &format!("{want}\n"))?;
    }
    let tt = TranspositionTable::try_new(run.tt_mib)?;
    let limits = Limits {
        stop: run.stop.clone(),
        ..Limits::default()
    };
    let mut count = summary.already;
    for pos in mine {
        if done.contains(&pos.to_string()) {
            continue;
        }
        let Some(scores) = exact_move_scores(pos, &tt, &limits, run.threads) else {
            summary.stopped = true;
            break;
        };
        write(
            &mut file,
            &format!("{}\n", obf::format_line(pos, &scores.scores)),
        )?;
        summary.labelled += 1;
        summary.nodes += scores.nodes;
        count += 1;
        on_line(count, summary.shard_positions, pos, &scores);
    }
    Ok(summary)
}

/// The positions already in `path` (empty when it does not exist or is empty); an
/// unfinished last line is cut off the file.
fn resume(path: &Path, want: &str) -> Result<std::collections::HashSet<String>, String> {
    let mut done = std::collections::HashSet::new();
    let Some(text) =
        crate::game::files::read_text_if_exists(path, "validation set", obf::MAX_FILE_BYTES)?
    else {
        return Ok(done);
    };
    if text.is_empty() {
        return Ok(done);
    }
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if whole.len() < text.len() {
        // A run killed while writing: keep the finished lines only.
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        f.set_len(whole.len() as u64)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let first = whole.lines().next().unwrap_or("");
    if first != want {
        // Shown whole up to a header's length (a shard's header is under 120 characters).
        let shown: String = first.chars().take(160).collect();
        return Err(format!(
            "{} was written by another run: its first line is '{shown}', this run's is '{want}'",
            path.display()
        ));
    }
    for (k, line) in whole.lines().enumerate().skip(1) {
        match obf::parse_line(line) {
            Ok(Some(p)) => {
                done.insert(p.position.to_string());
            }
            Ok(None) => {}
            Err(e) => return Err(format!("{} line {}: {e}", path.display(), k + 1)),
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_is_deterministic_distinct_and_in_range() {
        let cfg = DrawConfig {
            empties: (10, 14),
            count: 12,
            seed: 7,
        };
        let a = draw_positions(&cfg).unwrap();
        assert_eq!(a, draw_positions(&cfg).unwrap());
        assert_eq!(a.len(), 12);
        let mut keys = std::collections::HashSet::new();
        for p in &a {
            assert!((10..=14).contains(&p.empties()), "{p}");
            assert!(p.legal_placements() != 0);
            assert!(keys.insert(symmetry::canonical(p.player(), p.opponent()).0));
        }
        let other = draw_positions(&DrawConfig { seed: 8, ..cfg }).unwrap();
        assert_ne!(a, other);
    }

    #[test]
    fn empties_text_and_bad_configs() {
        assert_eq!(parse_empties("20-24"), Ok((20, 24)));
        assert_eq!(parse_empties("22"), Ok((22, 22)));
        assert!(parse_empties("20-").unwrap_err().contains("LO-HI"));
        let bad = |empties, count| DrawConfig {
            empties,
            count,
            seed: 1,
        };
        assert!(
            bad((24, 20), 5)
                .validate()
                .unwrap_err()
                .contains("LO <= HI")
        );
        assert!(bad((0, 20), 5).validate().is_err());
        assert!(bad((20, 51), 5).validate().is_err());
        assert!(
            bad((20, 24), 0)
                .validate()
                .unwrap_err()
                .contains("at least 1")
        );
    }
}
