//! Openings: lines from a file (a position or a move sequence per line), or random legal
//! move sequences of N plies drawn from a seeded RNG.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::openings_file::{self, LineIndex, OpeningsFile};
use crate::game::Game;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningSource {
    /// The game's start position every time.
    Start,
    /// Random legal sequences of this many plies.
    RandomPlies(u32),
    /// Lines held in the settings, used in order and cycled: generated suites, and the
    /// openings files of tournaments written before files were indexed.
    Lines(Vec<String>),
    /// The openings of a file, looked up by number ([`super::openings_file`]), used in
    /// order and cycled (blank lines and `#` comments skipped).
    File(OpeningsFile),
}

/// In which order the lines of an openings file are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningsOrder {
    /// Round r plays line r (cycled).
    #[default]
    Sequential,
    /// The lines are shuffled once from the master seed (Fisher-Yates); round r plays the
    /// r-th line of the shuffled order (cycled).
    Random,
}

impl OpeningsOrder {
    /// Whether this is the default, sequential order.
    #[must_use]
    pub fn is_sequential(&self) -> bool {
        *self == Self::Sequential
    }
}

/// What a run does when its schedule needs more openings than the file holds, so that
/// some games replay an opening already played (`--openings-repeat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningsRepeat {
    /// Refuse to start.
    Error,
    /// Say so on stderr before the first game, and play.
    #[default]
    Warn,
    /// Play without a word.
    Allow,
}

/// An opening: the text that describes it (for records), where it starts, the moves played
/// from there, and the position it leads to.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The opening as written in records: the file's line, or the random moves.
    pub text: String,
    /// The position the opening starts from: the game's start for move sequences, the
    /// given position for position lines.
    pub root: G,
    /// Moves of the opening, played from `root` (empty for position lines).
    pub moves: Vec<G::Move>,
    /// The position the games continue from.
    pub position: G,
}

impl<G: Game> Opening<G> {
    /// An opening of `moves` played from `root`.
    #[must_use]
    pub fn new(text: String, root: G, moves: Vec<G::Move>) -> Self {
        let position = moves.iter().fold(root.clone(), |p, &m| p.play(m));
        Self {
            text,
            root,
            moves,
            position,
        }
    }
}

/// The largest openings file read: 256 MiB (millions of openings).
pub const MAX_OPENINGS_FILE: u64 = 256 * crate::game::files::MIB;

/// Reads an openings file: one position or move sequence per line. Every line is checked
/// in one pass and the file indexed ([`super::openings_file`]), never held whole: the
/// source records the file's path, size, hash and number of openings.
///
/// # Errors
/// An unreadable file, a file without openings, or a line that does not parse (naming the
/// line number and why).
pub fn read_file<G: Game>(path: &std::path::Path) -> Result<OpeningSource, String> {
    let index = LineIndex::build(path, MAX_OPENINGS_FILE, |number, l| {
        // `tessera openings` names the game in a `# game: ID` line.
        if let Some(id) = l
            .strip_prefix('#')
            .and_then(|c| c.trim().strip_prefix("game:"))
        {
            let id = id.trim();
            if id != G::ID {
                return Err(format!(
                    "openings file {} line {number}: the file is for {}, not {}",
                    path.display(),
                    crate::game::shown(id),
                    G::ID
                ));
            }
            return Ok(());
        }
        if l.is_empty() || l.starts_with('#') {
            return Ok(());
        }
        let (root, moves) = G::parse_opening(l)
            .map_err(|e| format!("openings file {} line {number}: {e}", path.display()))?;
        let end = moves.iter().fold(root, |p, &m| p.play(m));
        if end.outcome().is_some() {
            return Err(format!(
                "openings file {} line {number}: the game is already over there",
                path.display(),
            ));
        }
        Ok(())
    })?;
    if index.file.openings == 0 {
        return Err(format!("openings file {} holds no opening", path.display()));
    }
    Ok(OpeningSource::File(openings_file::keep(index).file.clone()))
}

/// SplitMix64 of `a` and `b`: derives independent seeds from (master seed, index).
#[must_use]
pub fn derive_seed(a: u64, b: u64) -> u64 {
    let mut z = a ^ b
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl OpeningSource {
    /// For a file's openings played over `rounds` rounds: `(openings, reused)`, the number
    /// of openings the file holds and of rounds that replay one already played, when some
    /// do; `None` otherwise (random openings, the start position, enough lines).
    #[must_use]
    pub fn reused_rounds(&self, rounds: usize) -> Option<(usize, usize)> {
        match self {
            OpeningSource::Lines(lines) if rounds > lines.len() => {
                Some((lines.len(), rounds - lines.len()))
            }
            OpeningSource::File(f) if rounds > f.openings => {
                Some((f.openings, rounds - f.openings))
            }
            _ => None,
        }
    }

    /// The opening of round `round`, from master seed `seed` (random openings use it, and
    /// the start position comes from [`Game::start_seeded`] with a seed derived from `seed`
    /// and `round`, so games with a random setup vary it by round).
    ///
    /// # Errors
    /// A file line that no longer parses.
    pub fn opening<G: Game>(&self, round: usize, seed: u64) -> Result<Opening<G>, String> {
        self.opening_in::<G>(round, seed, None)
    }

    /// The order in which round numbers pick file lines for `rounds` rounds: `None` for
    /// sequential order or a source without lines, else a permutation of the line indices
    /// drawn from `seed` (for a file, its first `rounds` entries: see
    /// [`openings_file::shuffled_prefix`]).
    #[must_use]
    pub fn line_order(&self, order: OpeningsOrder, seed: u64, rounds: usize) -> Option<Vec<usize>> {
        if order.is_sequential() {
            return None;
        }
        let lines = match self {
            OpeningSource::Lines(lines) => lines,
            OpeningSource::File(f) => {
                let mut rng = StdRng::seed_from_u64(derive_seed(seed, 0x09e4_0ede));
                return Some(openings_file::shuffled_prefix(f.openings, rounds, &mut rng));
            }
            _ => return None,
        };
        let mut perm: Vec<usize> = (0..lines.len()).collect();
        let mut rng = StdRng::seed_from_u64(derive_seed(seed, 0x09e4_0ede));
        for i in (1..perm.len()).rev() {
            perm.swap(i, rng.random_range(0..=i));
        }
        Some(perm)
    }

    /// As [`OpeningSource::opening`], with file lines picked through `order` (from
    /// [`OpeningSource::line_order`]; `None` = sequential).
    ///
    /// # Errors
    /// As [`OpeningSource::opening`].
    pub fn opening_in<G: Game>(
        &self,
        round: usize,
        seed: u64,
        order: Option<&[usize]>,
    ) -> Result<Opening<G>, String> {
        match self {
            OpeningSource::Start => Ok(Opening::new(
                String::new(),
                G::start_seeded(setup_seed(seed, round)),
                Vec::new(),
            )),
            OpeningSource::Lines(lines) => {
                let i = round % lines.len();
                let text = lines[order.and_then(|o| o.get(i).copied()).unwrap_or(i)].clone();
                let (root, moves) = G::parse_opening(&text)?;
                Ok(Opening::new(text, root, moves))
            }
            OpeningSource::File(f) => {
                let index = openings_file::index(f, MAX_OPENINGS_FILE)?;
                let i = round % f.openings.max(1);
                let text = index.line(order.and_then(|o| o.get(i).copied()).unwrap_or(i))?;
                let (root, moves) = G::parse_opening(&text)
                    .map_err(|e| format!("openings file {}: {e}", f.path))?;
                Ok(Opening::new(text, root, moves))
            }
            OpeningSource::RandomPlies(n) => {
                // Retry (deterministically) until a sequence of n plies does not end the game.
                for attempt in 0..1000u64 {
                    let mut rng =
                        StdRng::seed_from_u64(derive_seed(seed, (round as u64) << 16 | attempt));
                    let root = G::start_seeded(setup_seed(seed, round));
                    let mut pos = root.clone();
                    let mut moves = Vec::new();
                    let mut list = G::Moves::default();
                    for _ in 0..*n {
                        pos.generate_moves(&mut list);
                        if list.is_empty() {
                            break;
                        }
                        let m = list[rng.random_range(0..list.len())];
                        moves.push(m);
                        pos = pos.play(m);
                    }
                    if moves.len() == *n as usize && pos.outcome().is_none() {
                        let text: Vec<String> = moves.iter().map(ToString::to_string).collect();
                        return Ok(Opening::new(text.join(" "), root, moves));
                    }
                }
                Err(format!(
                    "no random opening of {n} plies keeps the game going"
                ))
            }
        }
    }
}

/// The setup seed of round `round` under master seed `seed` (for [`Game::start_seeded`]).
fn setup_seed(seed: u64, round: usize) -> u64 {
    derive_seed(seed ^ (0x5e7u64 << 48), round as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let src = OpeningSource::RandomPlies(8);
        let a: Opening<Position> = src.opening(3, 42).unwrap();
        let b: Opening<Position> = src.opening(3, 42).unwrap();
        let c: Opening<Position> = src.opening(4, 42).unwrap();
        assert_eq!(a.text, b.text);
        assert_ne!(a.text, c.text);
        assert_eq!(a.position.empties(), 52);
        // The recorded text replays to the same position.
        let (root, moves) = Position::parse_opening(&a.text).unwrap();
        assert_eq!(root, Position::start());
        assert_eq!(moves, a.moves);
        assert_eq!(
            Opening::new(a.text.clone(), root, moves).position,
            a.position
        );
    }
}
