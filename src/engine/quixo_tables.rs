//! Quixo engines with the solved tiers: where a position has no blank cube (the
//! full-board table) or one (the one-blank tier table), the engine plays the tables' move
//! instead of searching, as Othello's exact solver does near the end: the fastest win, else a
//! drawing move, else the longest resistance, with the exact value as its score.
//!
//! The engine spec's `tables` key says where the tables come from:
//!
//! | `tables` | full-board table | one-blank table |
//! |---|---|---|
//! | `off` (the default) | not used | not used |
//! | `auto` | the cache file if present | the cache file if present |
//! | `on` | the cache file, required | the cache file, required |
//! | a folder | `FOLDER/quixo-full5-v1.bin`, required | `FOLDER/quixo-tier1-v1.qxt`, required |
//!
//! The cache files are [`crate::games::quixo::table_cache::default_path`] (the one `solve
//! quixo` writes) and [`tier_cache_path`] beside it. A required file that is missing, and
//! any named file that is not a valid table (truncated, corrupt, foreign, unfinished), is
//! an error naming the file and the command that builds it. `auto` with no tables present
//! plays by search alone; with only the full-board table, it uses that one.
//!
//! Each file is read once per process and shared ([`Arc`]) by every engine naming it, and
//! its content hash is taken from the bytes read, so a tournament stamps the content its
//! engines play with ([`table_stamp`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::engine::{EngineSpec, Player, ProgressFn, Thought};
use crate::game::Game;
use crate::game::pinned::{FileStamp, content_hash};
use crate::games::quixo::one_blank::OneBlankTable;
use crate::games::quixo::retro::{FullBoardTable, Value};
use crate::games::quixo::solved_tiers::{MoveValue, SolvedTiers};
use crate::games::quixo::table_file::{FORMAT_VERSION, read_table};
use crate::games::quixo::tier_file::{FINAL, MAX_TIER_FILE, TierPart, VERSION as TIER_VERSION};
use crate::games::quixo::{Move, Position, Quixo, SCORE_UNIT};
use crate::search::{Limits, WIN};

/// The tier-1 table's file name in the cache folder (and in a `tables` folder).
#[must_use]
pub fn tier_file_name() -> String {
    format!("quixo-tier1-v{TIER_VERSION}.qxt")
}

/// The full-board table's file name in the cache folder (and in a `tables` folder).
#[must_use]
pub fn full_file_name() -> String {
    format!("quixo-full5-v{FORMAT_VERSION}.bin")
}

/// Where engines look for the one-blank tier table by default: beside the full-board
/// table's cache file (`$XDG_CACHE_HOME/tessera/quixo-tier1-v1.qxt`); `None` without a
/// cache folder.
#[must_use]
pub fn tier_cache_path() -> Option<PathBuf> {
    crate::games::quixo::table_cache::default_path().map(|p| p.with_file_name(tier_file_name()))
}

pub use super::tables_setting::TablesSetting;

impl TablesSetting {
    /// The setting of `spec` (`off` when absent).
    ///
    /// # Errors
    /// As [`TablesSetting::parse`].
    pub fn of(spec: &EngineSpec) -> Result<Self, String> {
        spec.tables.as_deref().map_or(Ok(Self::Off), Self::parse)
    }
}

/// The table files `spec` plays with, as `(kind, path, required)`: `full-board-table`
/// and `tier-table`. `auto` lists the cache files that exist; `on` and a folder list both.
///
/// # Errors
/// `on` without a cache folder (neither `XDG_CACHE_HOME` nor `HOME` set).
pub fn table_files(spec: &EngineSpec) -> Result<Vec<(&'static str, PathBuf, bool)>, String> {
    let no_cache = || {
        "tables = on: no cache folder (neither XDG_CACHE_HOME nor HOME is set); give the \
         tables' folder instead (tables = FOLDER)"
            .to_string()
    };
    Ok(match TablesSetting::of(spec)? {
        TablesSetting::Off => Vec::new(),
        TablesSetting::Auto => {
            let full = crate::games::quixo::table_cache::default_path();
            [
                ("full-board-table", full),
                ("tier-table", tier_cache_path()),
            ]
            .into_iter()
            .filter_map(|(k, p)| p.filter(|p| p.exists()).map(|p| (k, p, false)))
            .collect()
        }
        TablesSetting::Required(dir) => {
            let dir = match dir {
                Some(d) => d,
                None => crate::games::quixo::table_cache::default_path()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .ok_or_else(no_cache)?,
            };
            vec![
                ("full-board-table", dir.join(full_file_name()), true),
                ("tier-table", dir.join(tier_file_name()), true),
            ]
        }
    })
}

/// The command that builds the table of `kind` at `path`.
fn build_hint(kind: &str, path: &Path) -> String {
    if kind == "full-board-table" {
        format!(
            "build it, in seconds, with `tessera solve quixo --table {} --position \
             \"XOOOO/OXXOX/OXXXX/XXXOO/XOOOO X\"`",
            path.display()
        )
    } else {
        format!(
            "build it, in about a CPU-minute and 700 MB of memory, with `tessera quixo-tier \
             solve --out {}`",
            path.display()
        )
    }
}

/// The words for the table of `kind` in messages.
fn what_of(kind: &str) -> &'static str {
    if kind == "full-board-table" {
        "full-board table"
    } else {
        "one-blank tier table"
    }
}

/// A table read from its file.
#[derive(Clone)]
enum Loaded {
    Full(Arc<FullBoardTable>),
    Tier(Arc<OneBlankTable>),
}

/// The tables read so far in this process, by path as named, with their stamps.
static LOADED: Mutex<Vec<(PathBuf, &'static str, FileStamp, Loaded)>> = Mutex::new(Vec::new());

/// The largest full-board table file read (header and 2^25 codes, with room).
const MAX_FULL_FILE: u64 = 64 << 20;

/// Reads, checks and parses the table of `kind` at `path`.
fn read_one(kind: &'static str, path: &Path) -> Result<(FileStamp, Loaded), String> {
    let what = what_of(kind);
    let cap = if kind == "full-board-table" {
        MAX_FULL_FILE
    } else {
        MAX_TIER_FILE
    };
    if !path.exists() {
        return Err(format!(
            "{what} {}: no such file ({})",
            path.display(),
            build_hint(kind, path)
        ));
    }
    let bytes = crate::game::files::read_bytes(path, what, cap)?;
    let stamp = FileStamp {
        path: path.display().to_string(),
        size: bytes.len() as u64,
        hash: content_hash(&bytes),
    };
    let bad = |why: String| {
        format!(
            "{what} {}: {why} ({})",
            path.display(),
            build_hint(kind, path)
        )
    };
    let table = if kind == "full-board-table" {
        let t = read_table(&mut bytes.as_slice()).map_err(|e| bad(e.to_string()))?;
        Loaded::Full(Arc::new(t))
    } else {
        let part = TierPart::from_bytes(&bytes).map_err(bad)?;
        if part.size != 5 || part.blanks != 1 || part.round != FINAL || !part.is_whole() {
            return Err(bad(format!(
                "not a finished 5x5 one-blank tier table ({}x{} board, {} blanks, {} of {} \
                 boards{})",
                part.size,
                part.size,
                part.blanks,
                part.codes.len(),
                part.total,
                if part.round == FINAL {
                    String::new()
                } else {
                    format!(", round {}", part.round)
                }
            )));
        }
        let t = OneBlankTable::from_codes(5, part.codes)
            .ok_or_else(|| bad("the number of codes is not the 5x5 one-blank tier's".into()))?;
        Loaded::Tier(Arc::new(t))
    };
    Ok((stamp, table))
}

/// The table of `kind` at `path`, read on the first call in this process and shared after.
fn shared(kind: &'static str, path: &Path) -> Result<(FileStamp, Loaded), String> {
    // The lock is held while reading: engines built at once wait for the one read.
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, _, stamp, t)) = loaded.iter().find(|(p, k, ..)| p == path && *k == kind) {
        return Ok((stamp.clone(), t.clone()));
    }
    let (stamp, table) = read_one(kind, path)?;
    loaded.push((path.to_path_buf(), kind, stamp.clone(), table.clone()));
    Ok((stamp, table))
}

/// The stamp (path, size, content hash) of the table of `kind` at `path` as this process
/// read it (reading it now if it has not yet), for a tournament's record of the files its
/// engines depend on.
///
/// # Errors
/// As [`solved_tiers`].
pub fn table_stamp(kind: &'static str, path: &Path) -> Result<FileStamp, String> {
    shared(kind, path).map(|(s, _)| s)
}

/// The solved tiers `spec` plays with (`None`: `tables` off, or `auto` with no table in the
/// cache). A one-blank table without the full-board table is not used (its moves that take
/// the blank need the full boards).
///
/// # Errors
/// A required file missing, a named file that is not a valid table, `on` without a cache
/// folder: one line naming the file and the command that builds it.
pub fn solved_tiers(spec: &EngineSpec) -> Result<Option<SolvedTiers>, String> {
    let files = table_files(spec)?;
    // Every required file is there before any is read (a missing one is said at once).
    if let Some((kind, path, _)) = files
        .iter()
        .find(|(_, p, required)| *required && !p.exists())
    {
        return Err(format!(
            "{} {}: no such file ({})",
            what_of(kind),
            path.display(),
            build_hint(kind, path)
        ));
    }
    let (mut full, mut one) = (None, None);
    for (kind, path, _) in &files {
        match shared(kind, path)?.1 {
            Loaded::Full(t) => full = Some(t),
            Loaded::Tier(t) => one = Some(t),
        }
    }
    Ok(full.map(|f| SolvedTiers::shared(f, one)))
}

/// A Quixo player that plays the tables' move in the solved tiers and asks the engine it
/// wraps everywhere else (the tables are of the two-player game: a four-player
/// `TablePlayer<true>` always asks its engine).
pub struct TablePlayer<const FOUR: bool> {
    inner: Box<dyn Player<Position<FOUR>>>,
    tiers: SolvedTiers,
    /// Report scores as MCTS does (`win-probability x 1000`), not as mate scores.
    mcts_scores: bool,
}

impl<const FOUR: bool> TablePlayer<FOUR> {
    /// `inner` with `tiers`; `mcts_scores` reports the tables' value on MCTS's scale (1000,
    /// 500, 0) rather than alpha-beta's (`WIN - plies`, 0, `-(WIN - plies)`).
    #[must_use]
    pub fn new(
        inner: Box<dyn Player<Position<FOUR>>>,
        tiers: SolvedTiers,
        mcts_scores: bool,
    ) -> Self {
        Self {
            inner,
            tiers,
            mcts_scores,
        }
    }

    /// The tables' answer for `pos` (`None` outside the solved tiers or at the end).
    #[must_use]
    pub fn table_thought(&self, pos: &Position<FOUR>) -> Option<Thought<Move>> {
        let started = Instant::now();
        let pos = two_player(pos)?;
        let MoveValue { mv, value, plies } = self.tiers.best_move(&pos)?;
        let d = plies.unwrap_or(0);
        let (score, unit) = if self.mcts_scores {
            let s = match value {
                Value::Win => 1000,
                Value::Draw => 500,
                Value::Loss => 0,
            };
            (s, crate::engine::mcts::MCTS_UNIT)
        } else {
            let s = match value {
                Value::Win => WIN - d as i32,
                Value::Draw => 0,
                Value::Loss => -(WIN - d as i32),
            };
            (s, SCORE_UNIT)
        };
        Some(Thought {
            best_move: Some(mv),
            score,
            exact: true,
            depth: d,
            nodes: 0,
            elapsed: started.elapsed(),
            pv: vec![mv],
            unit,
        })
    }
}

/// `pos` as a two-player position (`None` for the four-player game).
fn two_player<const FOUR: bool>(pos: &Position<FOUR>) -> Option<Quixo> {
    if FOUR {
        return None;
    }
    Quixo::from_masks(pos.size(), pos.x(), pos.o(), 0, pos.to_move().0).ok()
}

impl<const FOUR: bool> Player<Position<FOUR>> for TablePlayer<FOUR> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn set_progress(&mut self, progress: ProgressFn<Move>) {
        self.inner.set_progress(progress);
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose(&mut self, pos: &Position<FOUR>, limits: &Limits) -> Result<Thought<Move>, String> {
        match self.table_thought(pos) {
            Some(t) => Ok(t),
            None => self.inner.choose(pos, limits),
        }
    }
}

/// `player` with the tables `spec` names (unchanged when `tables` is off or `auto` finds
/// none).
///
/// # Errors
/// As [`solved_tiers`].
pub fn with_spec_tables<const FOUR: bool>(
    spec: &EngineSpec,
    player: Box<dyn Player<Position<FOUR>>>,
) -> Result<Box<dyn Player<Position<FOUR>>>, String> {
    Ok(
        match solved_tiers(spec).map_err(|e| spec.named_error(&e))? {
            Some(tiers) => Box::new(TablePlayer::new(
                player,
                tiers,
                spec.algo == crate::engine::Algorithm::Mcts,
            )),
            None => player,
        },
    )
}

/// The line a front end prints before the search when `spec`'s tables answer `pos`
/// (`info the position is in a solved tier ...`); `None` otherwise or on any error (the
/// engine's construction reports those).
#[must_use]
pub fn table_note<const FOUR: bool>(spec: &EngineSpec, pos: &Position<FOUR>) -> Option<String> {
    let pos = two_player(pos)?;
    let tiers = solved_tiers(spec).ok()??;
    let blanks = 25 - (pos.x() | pos.o()).count_ones();
    tiers.best_move(&pos).map(|m| {
        format!(
            "info the position is in a solved tier ({}): the table's move {} is played \
             ({}; tables=off to search)",
            if blanks == 0 {
                "a full board"
            } else {
                "one blank cube"
            },
            m.mv,
            match (m.value, m.plies) {
                (Value::Win, Some(d)) => format!("wins in {d} plies"),
                (Value::Loss, Some(d)) => format!("loses in {d} plies"),
                _ => "draws".to_string(),
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::quixo::alphabeta_engine;
    use crate::game::legal_moves;
    use crate::games::quixo::eval::Weights;
    use crate::games::quixo::one_blank::OneBlankTier;
    use crate::games::quixo::retro::{DRAW, loss};

    /// The depth-1 alpha-beta engine, with `tiers` when given.
    fn engine(tiers: Option<SolvedTiers>) -> Box<dyn Player<Quixo>> {
        let ab: Box<dyn Player<Quixo>> =
            Box::new(alphabeta_engine::<false>("t", Weights::default(), 1));
        match tiers {
            Some(t) => Box::new(TablePlayer::new(ab, t, false)),
            None => ab,
        }
    }

    /// The side to move's and the other side's cubes.
    fn own_other(p: &Quixo) -> (u32, u32) {
        if p.to_move().0 == 0 {
            (p.x(), p.o())
        } else {
            (p.o(), p.x())
        }
    }

    /// A move of `pos` other than `not` whose child passes `keep`, and that child.
    fn other_move(pos: &Quixo, not: Move, keep: impl Fn(&Quixo) -> bool) -> (Move, Quixo) {
        legal_moves(pos)
            .into_iter()
            .filter(|&m| m != not)
            .map(|m| (m, pos.play(m)))
            .find(|(_, c)| c.outcome().is_none() && keep(c))
            .expect("such a move")
    }

    #[test]
    fn a_full_board_plays_the_tables_win_not_the_searchs_move() {
        // Tables that say every full board is drawn, except the child of one move that
        // the depth-1 search does not play: lost in 2 for the opponent, so a win in 3.
        let pos: Quixo = "XOXOX/OXOXO/XXOOX/OOXXO/XOXOO X".parse().unwrap();
        assert!(pos.outcome().is_none());
        let searched = engine(None).choose(&pos, &Limits::depth(1)).unwrap();
        let not = searched.best_move.unwrap();
        let (_, child) = other_move(&pos, not, |c| *c != pos.play(not));
        let mut codes = vec![DRAW; 1 << 25];
        codes[own_other(&child).0 as usize] = loss(2);
        let tiers = SolvedTiers::shared(Arc::new(FullBoardTable::from_codes(codes)), None);
        let mut with = engine(Some(tiers.clone()));
        let t = with.choose(&pos, &Limits::depth(1)).unwrap();
        let played = t.best_move.unwrap();
        assert!(
            pos.play(played) == child,
            "{played}; the search alone plays {not}"
        );
        assert_eq!((t.score, t.exact, t.depth, t.nodes), (WIN - 3, true, 3, 0));
        assert_eq!((t.unit, t.pv.as_slice()), (SCORE_UNIT, [played].as_slice()));
        // MCTS's scale for an MCTS engine; a one-blank position without the one-blank
        // table is left to the search.
        let mcts = TablePlayer::<false>::new(engine(None), tiers.clone(), true);
        let t = mcts.table_thought(&pos).unwrap();
        assert_eq!((t.score, t.unit), (1000, crate::engine::mcts::MCTS_UNIT));
        let one_blank: Quixo = "XOXOX/OXOXO/XX.OX/OOXXO/XOXOO X".parse().unwrap();
        assert!(mcts.table_thought(&one_blank).is_none());
        assert!(!tiers.covers(&one_blank) && tiers.covers(&pos));
    }

    #[test]
    fn a_one_blank_board_plays_the_tables_win_not_the_searchs_move() {
        // One blank; every board drawn but the child of one move the search does not play,
        // a move that keeps the blank (the mover takes its own cube), lost in 4 for the
        // opponent: the table's move wins in 5.
        let pos: Quixo = "XOXOX/OXOXO/XX.OX/OOXXO/XOXOO X".parse().unwrap();
        let searched = engine(None).choose(&pos, &Limits::depth(1)).unwrap();
        let not = searched.best_move.unwrap();
        let tier = OneBlankTier::new(5);
        let index = |c: &Quixo| {
            let (me, opp) = own_other(c);
            tier.locate(me, opp)
        };
        let (_, child) = other_move(&pos, not, |c| {
            index(c).is_some() && index(c) != index(&pos.play(not))
        });
        let mut codes = vec![DRAW; tier.len()];
        codes[index(&child).unwrap()] = loss(4);
        let one = OneBlankTable::from_codes(5, codes).unwrap();
        let full = FullBoardTable::from_codes(vec![DRAW; 1 << 25]);
        let tiers = SolvedTiers::shared(Arc::new(full), Some(Arc::new(one)));
        let t = engine(Some(tiers.clone()))
            .choose(&pos, &Limits::depth(1))
            .unwrap();
        let played = t.best_move.unwrap();
        assert_eq!(
            index(&pos.play(played)),
            index(&child),
            "{played}; the search alone plays {not}"
        );
        assert_eq!((t.score, t.exact, t.depth), (WIN - 5, true, 5));
        // The move keeps the value: the tables give it the position's win in 5.
        let values = tiers.move_values(&pos).unwrap();
        assert!(
            values
                .iter()
                .any(|m| m.mv == played && m.value == Value::Win && m.plies == Some(5))
        );
        assert!(values.iter().all(|m| m.mv != not || m.value == Value::Draw));
    }

    #[test]
    fn table_settings_and_files() {
        assert_eq!(TablesSetting::parse("off").unwrap(), TablesSetting::Off);
        assert_eq!(TablesSetting::parse("auto").unwrap(), TablesSetting::Auto);
        assert_eq!(
            TablesSetting::parse("on").unwrap(),
            TablesSetting::Required(None)
        );
        assert_eq!(
            TablesSetting::parse("/t").unwrap(),
            TablesSetting::Required(Some("/t".into()))
        );
        assert!(TablesSetting::parse("").is_err());
        let spec = EngineSpec::from_inline("name=t,tables=/nowhere/t", "quixo").unwrap();
        let files = table_files(&spec).unwrap();
        assert_eq!(files.len(), 2);
        assert!(
            files[0].1.ends_with("quixo-full5-v1.bin")
                && files[1].1.ends_with("quixo-tier1-v1.qxt")
        );
        let e = solved_tiers(&spec).err().unwrap();
        assert!(
            e.contains("/nowhere/t/quixo-full5-v1.bin: no such file")
                && e.contains(
                    "`tessera solve quixo --table /nowhere/t/quixo-full5-v1.bin --position \
                     \"XOOOO/OXXOX/OXXXX/XXXOO/XOOOO X\"`"
                ),
            "{e}"
        );
    }

    #[test]
    fn bad_table_files_are_refused_in_one_line() {
        let dir = std::env::temp_dir().join(format!("tessera-qtables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tier = dir.join(tier_file_name());
        let part = TierPart {
            size: 5,
            blanks: 1,
            round: 3,
            total: 10,
            start: 0,
            codes: vec![DRAW; 10],
        };
        let cases: [(Vec<u8>, &str); 4] = [
            (b"garbage".to_vec(), "bad magic"),
            (part.to_bytes()[..60].to_vec(), "wrong length"),
            (part.to_bytes(), "not a finished 5x5 one-blank tier table"),
            (
                TierPart {
                    round: FINAL,
                    ..part.clone()
                }
                .to_bytes(),
                "the number of codes is not the 5x5 one-blank tier's",
            ),
        ];
        for (bytes, needle) in cases {
            std::fs::write(&tier, &bytes).unwrap();
            let e = read_one("tier-table", &tier).err().unwrap();
            assert!(
                e.contains(needle)
                    && e.contains("tessera quixo-tier solve --out")
                    && !e.contains('\n'),
                "{e}"
            );
        }
        let full = dir.join(full_file_name());
        std::fs::write(&full, b"tessera-qx-full5 but not really").unwrap();
        let e = read_one("full-board-table", &full).err().unwrap();
        assert!(
            e.contains("tessera solve quixo --table") && !e.contains('\n'),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
