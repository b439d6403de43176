//! Self-play data: games of one engine against itself from random openings, every position
//! labelled with the game's result from the side to move's view and, where an exact solver
//! reaches, the exact value.
//!
//! Reproducibility: game `i` draws its opening length and moves from an RNG seeded with
//! `derive_seed(seed, i)`, the games run in parallel (rayon) and are then deduplicated in
//! game order, so the output depends only on the settings, never on the thread count.
//!
//! The data file is UTF-8 text: `#` header lines saying how it was made, then one sample
//! per line, three or four tab-separated fields:
//!
//! ```text
//! <position in the game's one-line form>\t<result>\t<exact or ->[\t<score,score,...>]
//! ```
//!
//! `result` is the final margin of the game for the side to move's team in the position:
//! its score minus the best score of another team, in the unit of the game's
//! [`Outcome`] (Othello: disc difference, empties to the winner;
//! Quixo: 1 win, 0 draw, -1 loss; Talat: tenths of a point, the tie-break in the last
//! digit); `exact` is the solver's exact value (same unit and view) or `-`. Games with more
//! than two teams add the fourth field: every seat's final score, seat 0 first, so a fit
//! can compare any two seats (three-player Talat).
//!
//! Games that draw by threefold repetition ([`Game::REPETITION_DRAWS`], Quixo) end as a
//! draw when a position occurs for the third time, as in tournaments; games longer than
//! [`Config::max_plies`] are dropped.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::engine::Player;
use crate::game::{BySeat, Game, Outcome, Seat};
use crate::search::Limits;
use crate::tournament::openings::derive_seed;

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position in its game's one-line text form.
    pub position: String,
    /// Final margin of the game for the side to move (Othello: discs, empties to the winner).
    pub result: i32,
    /// Exact value for the side to move, when the solver reached the position.
    pub exact: Option<i32>,
    /// Every seat's final score (seat order), for games with more than two teams (three-player
    /// Talat); empty otherwise.
    pub scores: Vec<i32>,
}

impl Sample {
    /// The training target: the exact value when known, else the game's result.
    #[must_use]
    pub fn target(&self) -> i32 {
        self.exact.unwrap_or(self.result)
    }
}

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of games.
    pub games: usize,
    /// Master seed: game `i` uses `derive_seed(seed, i)`.
    pub seed: u64,
    /// Each game starts with a uniformly drawn number of random legal plies in this range
    /// (inclusive); those opening positions are not recorded.
    pub random_plies: (u32, u32),
    /// Games longer than this many plies are cut (their positions dropped).
    pub max_plies: usize,
    /// Worker threads.
    pub threads: usize,
    /// `Some((i, n))`: play only the games whose index is `i - 1` modulo `n` (`--shard
    /// I/N`); the shards of one run together play exactly its games.
    pub shard: Option<(usize, usize)>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// Exact solver hook: `Some((value, best move))` for a position it can solve (value from
/// the side to move's view, in the unit of the results), `None` otherwise.
pub type SolveFn<G> = dyn Fn(&G) -> Option<(i32, <G as Game>::Move)> + Sync;

/// What a generation run produced.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Positions seen (before deduplication).
    pub positions: usize,
    /// Distinct positions written.
    pub unique: usize,
    /// Of those, positions with an exact label.
    pub exact: usize,
    /// Games that ended by threefold repetition (drawn).
    pub repetitions: usize,
    /// Games cut at the ply cap (their positions dropped).
    pub cut: usize,
}

/// One played game: its recorded positions (key and sample, in game order) and how it ended.
#[derive(Clone, Debug, Default)]
pub struct PlayedGame {
    /// Recorded positions with their Zobrist keys (empty when the game was cut).
    pub samples: Vec<(u64, Sample)>,
    /// Ended by threefold repetition.
    pub repetition: bool,
    /// Cut at the ply cap.
    pub cut: bool,
}

/// Salt of the per-game setup seed ([`Game::start_seeded`], talat-2p's Djinn), kept apart
/// from the opening's RNG so games without a random setup draw the same openings as before.
const SETUP_SALT: u64 = 0x5E7A_D15C_0DE5_EED5;

/// `seat`'s score minus the best score of a seat on another team (for games without teams,
/// [`Outcome::margin`](crate::game::Outcome::margin)).
#[must_use]
pub fn team_margin<G: Game>(pos: &G, outcome: &crate::game::Outcome, seat: Seat) -> i32 {
    let team = pos.team(seat);
    let best_other = (0..pos.seats())
        .map(|s| Seat(s as u8))
        .filter(|&s| pos.team(s) != team)
        .map(|s| outcome.score(s))
        .max()
        .unwrap_or(0);
    outcome.score(seat) - best_other
}

/// Plays game `index`: the start position set up from the game's seed
/// ([`Game::start_seeded`]), random opening plies, then `player` (or `solve` where it
/// applies) for every seat to the end. Returns the recorded positions with their Zobrist
/// keys and labels, in game order (none if the game was cut at `max_plies`).
///
/// # Errors
/// The engine's message if it fails to move.
pub fn play_game<G: Game>(
    player: &mut dyn Player<G>,
    limits: &Limits,
    solve: Option<&SolveFn<G>>,
    cfg: &Config,
    index: usize,
) -> Result<PlayedGame, String> {
    let mut rng = StdRng::seed_from_u64(derive_seed(cfg.seed, index as u64));
    let (lo, hi) = cfg.random_plies;
    let n_random = rng.random_range(lo..=hi.max(lo));
    player.new_game();
    let mut pos = G::start_seeded(derive_seed(cfg.seed ^ SETUP_SALT, index as u64));
    let mut list = G::Moves::default();
    for _ in 0..n_random {
        pos.generate_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos = pos.play(list[rng.random_range(0..list.len())]);
    }
    // (key, position, seat to move, exact value)
    let mut seen: Vec<(u64, G, Seat, Option<i32>)> = Vec::new();
    // Occurrences per key since the opening position, for threefold repetition.
    let mut occurrences: HashMap<u64, u32> = HashMap::new();
    let mut plies = 0;
    let mut repetition = false;
    let outcome = loop {
        if let Some(o) = pos.outcome() {
            break o;
        }
        if G::REPETITION_DRAWS {
            let n = occurrences.entry(pos.key()).or_default();
            *n += 1;
            if *n >= 3 {
                repetition = true;
                break Outcome::new(BySeat::new(pos.seats()));
            }
        }
        if plies >= cfg.max_plies {
            return Ok(PlayedGame {
                cut: true,
                ..PlayedGame::default()
            });
        }
        let (mv, exact) = match solve.and_then(|s| s(&pos)) {
            Some((v, mv)) => (mv, Some(v)),
            None => {
                let t = player.choose(&pos, limits)?;
                let mv = t
                    .best_move
                    .ok_or_else(|| format!("engine gave no move in {pos}"))?;
                (mv, None)
            }
        };
        seen.push((pos.key(), pos.clone(), pos.to_move(), exact));
        pos = pos.play(mv);
        plies += 1;
    };
    let teams = (0..pos.seats())
        .map(|s| pos.team(Seat(s as u8)))
        .collect::<HashSet<_>>()
        .len();
    let scores: Vec<i32> = if teams > 2 {
        outcome.scores.as_slice().to_vec()
    } else {
        Vec::new()
    };
    let samples = seen
        .into_iter()
        .map(|(key, p, seat, exact)| {
            let sample = Sample {
                position: p.to_string(),
                result: team_margin(&p, &outcome, seat),
                exact,
                scores: scores.clone(),
            };
            (key, sample)
        })
        .collect();
    Ok(PlayedGame {
        samples,
        repetition,
        cut: false,
    })
}

/// Plays `cfg.games` games in parallel, each with a fresh player from `make`, and keeps
/// the first occurrence (in game order) of every position.
///
/// # Errors
/// A player that cannot be built or fails to move, or a thread pool that cannot start.
pub fn generate<G: Game>(
    make: &(dyn Fn() -> Result<Box<dyn Player<G>>, String> + Sync),
    limits: &Limits,
    solve: Option<&SolveFn<G>>,
    cfg: &Config,
) -> Result<(Vec<Sample>, Summary), String> {
    let (samples, summary) = generate_indexed(make, limits, solve, cfg)?;
    Ok((samples.into_iter().map(|(_, s)| s).collect(), summary))
}

/// [`generate`], each sample with the index of the game that first reached it (what
/// [`merge_shards`] orders by).
///
/// # Errors
/// As [`generate`].
pub fn generate_indexed<G: Game>(
    make: &(dyn Fn() -> Result<Box<dyn Player<G>>, String> + Sync),
    limits: &Limits,
    solve: Option<&SolveFn<G>>,
    cfg: &Config,
) -> Result<(Vec<(usize, Sample)>, Summary), String> {
    let indices: Vec<usize> = (0..cfg.games)
        .filter(|i| cfg.shard.is_none_or(|(k, n)| i % n == k - 1))
        .collect();
    let bar = if cfg.progress {
        ProgressBar::new(indices.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}, ETA {eta}]")
            .map_err(|e| e.to_string())?,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", cfg.threads))?;
    let games: Vec<PlayedGame> = pool.install(|| {
        indices
            .par_iter()
            .copied()
            .with_max_len(1)
            .map_init(
                || None::<Box<dyn Player<G>>>,
                |slot, i| {
                    if slot.is_none() {
                        *slot = Some(make()?);
                    }
                    let player = slot.as_mut().expect("just built");
                    let r = play_game(player.as_mut(), limits, solve, cfg, i);
                    bar.inc(1);
                    r
                },
            )
            .collect::<Result<_, String>>()
    })?;
    bar.finish_and_clear();
    let mut summary = Summary {
        games: indices.len(),
        ..Summary::default()
    };
    let mut keys = HashSet::new();
    let mut out = Vec::new();
    for g in &games {
        summary.repetitions += usize::from(g.repetition);
        summary.cut += usize::from(g.cut);
    }
    for (&game, played) in indices.iter().zip(games) {
        for (key, s) in played.samples {
            summary.positions += 1;
            if keys.insert(key) {
                summary.exact += usize::from(s.exact.is_some());
                out.push((game, s));
            }
        }
    }
    summary.unique = out.len();
    Ok((out, summary))
}

/// The data file text: `header` lines as `# ` comments, then one sample per line.
#[must_use]
pub fn to_text(samples: &[Sample], header: &[String]) -> String {
    let mut s = String::with_capacity(samples.len() * 80);
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    for x in samples {
        let _ = write!(s, "{}\t{}\t", x.position, x.result);
        match x.exact {
            Some(e) => {
                let _ = write!(s, "{e}");
            }
            None => s.push('-'),
        }
        if !x.scores.is_empty() {
            let scores: Vec<String> = x.scores.iter().map(ToString::to_string).collect();
            let _ = write!(s, "\t{}", scores.join(","));
        }
        s.push('\n');
    }
    s
}

/// Reads a data file written by [`to_text`]. Positions are not parsed here (the game's
/// fitting code does that).
///
/// # Errors
/// One line naming the file and line: an unreadable file, a line without three or four
/// tab-separated fields, or a label that is not an integer.
pub fn read(path: &Path) -> Result<Vec<Sample>, String> {
    Ok(read_numbered(path)?.into_iter().map(|(_, s)| s).collect())
}

/// The largest self-play data file read: 4 GiB (about 40 million samples).
pub const MAX_DATA_FILE: u64 = 4 << 30;

/// [`read`], each sample with its line number in the file (from 1).
///
/// # Errors
/// As [`read`].
pub fn read_numbered(path: &Path) -> Result<Vec<(usize, Sample)>, String> {
    let text = crate::game::files::read_text(path, "data file", MAX_DATA_FILE)?;
    parse_numbered(path, &text)
}

/// [`read_numbered`] of one file that must hold samples, for readers of a single file (the
/// Python package): a file with none (empty, `/dev/null`, only comments) is refused, as
/// `tune` refuses data files that hold no positions.
///
/// # Errors
/// As [`read`], and a file without a sample: `data file FILE holds no positions (...)`.
pub fn read_numbered_nonempty(path: &Path) -> Result<Vec<(usize, Sample)>, String> {
    let samples = read_numbered(path)?;
    if samples.is_empty() {
        return Err(format!(
            "data file {} holds no positions (expected POSITION<TAB>RESULT<TAB>EXACT|-[<TAB>SCORES] lines)",
            path.display()
        ));
    }
    Ok(samples)
}

/// [`read_numbered`] of a file's `text` already read (`path` names it in errors).
///
/// # Errors
/// As [`read`], without the read.
pub fn parse_numbered(path: &Path, text: &str) -> Result<Vec<(usize, Sample)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        out.push((i + 1, parse_sample(path, i + 1, line)?));
    }
    Ok(out)
}

/// One sample line of a data file (`line` is its number, for errors).
fn parse_sample(path: &Path, line_no: usize, line: &str) -> Result<Sample, String> {
    {
        let err = |m: &str| {
            format!(
                "data file {} line {line_no}: {m} (expected POSITION<TAB>RESULT<TAB>EXACT|-[<TAB>SCORES])",
                path.display(),
            )
        };
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 3 && f.len() != 4 {
            return Err(err(&format!("{} tab-separated fields", f.len())));
        }
        let result = f[1]
            .trim()
            .parse::<i32>()
            .map_err(|_| err("the result is not an integer"))?;
        let exact = match f[2].trim() {
            "-" => None,
            t => Some(
                t.parse::<i32>()
                    .map_err(|_| err("the exact value is not an integer or '-'"))?,
            ),
        };
        let scores = match f.get(3) {
            None => Vec::new(),
            Some(t) => t
                .split(',')
                .map(|v| v.trim().parse::<i32>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| err("the scores are not comma-separated integers"))?,
        };
        Ok(Sample {
            position: f[0].to_string(),
            result,
            exact,
            scores,
        })
    }
}

/// The comment line that opens one game's samples in a shard's data file: `# game 17`.
pub const GAME_MARK: &str = "# game ";

/// [`to_text`] for a shard (`selfplay --shard`): each game's samples follow a `# game K`
/// line (K its index in the whole run), so [`merge_shards`] can restore the whole run's
/// order. Readers of data files skip the marks as comments.
#[must_use]
pub fn to_text_indexed(samples: &[(usize, Sample)], header: &[String]) -> String {
    let mut s = to_text(&[], header);
    let mut last = None;
    for (game, x) in samples {
        if last != Some(*game) {
            let _ = writeln!(s, "{GAME_MARK}{game}");
            last = Some(*game);
        }
        s.push_str(&to_text(std::slice::from_ref(x), &[]));
    }
    s
}

/// A shard's data file as [`read_shard`] sees it.
#[derive(Clone, Debug, Default)]
pub struct ShardFile {
    /// The header comment lines before the first game, without their `# `.
    pub header: Vec<String>,
    /// The samples, each with its game's index.
    pub samples: Vec<(usize, Sample)>,
}

/// Reads a data file written with `--shard`.
///
/// # Errors
/// One line naming the file and line: an unreadable file, a bad sample or game mark, or a
/// sample before any `# game` line (a file written without `--shard`).
pub fn read_shard(path: &Path) -> Result<ShardFile, String> {
    let text = crate::game::files::read_text(path, "data file", MAX_DATA_FILE)?;
    parse_shard(path, &text)
}

/// [`read_shard`] of a file's `text` already read (`path` names it in errors).
///
/// # Errors
/// As [`read_shard`], without the read.
pub fn parse_shard(path: &Path, text: &str) -> Result<ShardFile, String> {
    let mut out = ShardFile::default();
    let mut game = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(k) = line.strip_prefix(GAME_MARK) {
            game = Some(k.trim().parse::<usize>().map_err(|_| {
                format!(
                    "data file {} line {}: '{}' is not a game index",
                    path.display(),
                    i + 1,
                    crate::game::shown(k)
                )
            })?);
        } else if let Some(h) = line.strip_prefix('#') {
            if game.is_none() {
                out.header.push(h.trim_start().to_string());
            }
        } else if !line.trim().is_empty() {
            let Some(g) = game else {
                return Err(format!(
                    "data file {} line {}: a sample before any '{}K' line: not a shard (written without --shard?)",
                    path.display(),
                    i + 1,
                    GAME_MARK.trim_end()
                ));
            };
            out.samples.push((g, parse_sample(path, i + 1, line)?));
        }
    }
    Ok(out)
}

/// The samples of several shards of one run, as the run in one piece keeps them: in game
/// order (a game's samples in their order), the first occurrence of each position.
#[must_use]
pub fn merge_shards(shards: &[ShardFile]) -> Vec<(usize, Sample)> {
    let mut all: Vec<(usize, usize, &Sample)> = Vec::new();
    for shard in shards {
        for (k, (game, s)) in shard.samples.iter().enumerate() {
            all.push((*game, k, s));
        }
    }
    // Stable by (game, position in its shard): a game lives in exactly one shard.
    all.sort_by_key(|&(game, k, _)| (game, k));
    let mut seen = HashSet::new();
    all.into_iter()
        .filter(|(_, _, s)| seen.insert(s.position.clone()))
        .map(|(game, _, s)| (game, s.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_file_without_samples_is_refused() {
        let dir = std::env::temp_dir().join(format!("tessera-nonempty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let expect = |p: &Path| {
            format!(
                "data file {} holds no positions (expected POSITION<TAB>RESULT<TAB>EXACT|-[<TAB>SCORES] lines)",
                p.display()
            )
        };
        for (name, text) in [("empty.txt", ""), ("comments.txt", "# nothing yet\n\n")] {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            assert_eq!(read_numbered_nonempty(&p).unwrap_err(), expect(&p));
            assert!(read_numbered(&p).unwrap().is_empty(), "{name}");
        }
        let null = Path::new("/dev/null");
        if null.exists() {
            assert_eq!(read_numbered_nonempty(null).unwrap_err(), expect(null));
        }
        let p = dir.join("one.txt");
        std::fs::write(&p, "pos X\t2\t-\n").unwrap();
        assert_eq!(read_numbered_nonempty(&p).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn data_text_round_trips_and_bad_lines_are_named() {
        let samples = vec![
            Sample {
                position: "pos one X".into(),
                result: -4,
                exact: None,
                scores: Vec::new(),
            },
            Sample {
                position: "pos two O".into(),
                result: 6,
                exact: Some(8),
                scores: Vec::new(),
            },
            Sample {
                position: "three seats".into(),
                result: -21,
                exact: None,
                scores: vec![150, 171, 90],
            },
        ];
        let dir = std::env::temp_dir().join(format!("tessera-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.txt");
        std::fs::write(&path, to_text(&samples, &["h".into()])).unwrap();
        assert_eq!(read(&path).unwrap(), samples);
        assert_eq!(samples[1].target(), 8);
        assert_eq!(samples[0].target(), -4);
        std::fs::write(&path, "# h\np X\t1\tx\n").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("line 2") && e.contains("exact value"), "{e}");
        std::fs::write(&path, "p X\t1\n").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("line 1") && e.contains("2 tab-separated"), "{e}");
        std::fs::write(&path, "p X\t1\t-\t3,x\n").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("line 1") && e.contains("scores"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
