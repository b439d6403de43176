//! What a fairness experiment plays: strength levels, and per game its rules variants and
//! their opening suites.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::game::{Game, Seat};
use crate::tournament::openings::{self, OpeningSource, derive_seed};

use super::error::FairnessError;

/// A strength level of the engines of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A fixed search depth, plies.
    Depth(u32),
    /// A time per move, milliseconds.
    TimeMs(u64),
    /// `level=N` (engine spec): depth N, Othello's exact solving from 2N empties.
    Strength(u32),
}

impl Level {
    /// The level for people: `depth 4`, `100 ms`, `level 3`.
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Level::Depth(d) => format!("depth {d}"),
            Level::TimeMs(t) => format!("{t} ms"),
            Level::Strength(n) => format!("level {n}"),
        }
    }

    /// The level as a folder and engine name: `d4`, `t100`, `l3`.
    #[must_use]
    pub fn slug(self) -> String {
        match self {
            Level::Depth(d) => format!("d{d}"),
            Level::TimeMs(t) => format!("t{t}"),
            Level::Strength(n) => format!("l{n}"),
        }
    }

    /// The level as engine-spec settings: `depth=4`, `time-ms=100`, `level=3`.
    #[must_use]
    pub fn spec(self) -> String {
        match self {
            Level::Depth(d) => format!("depth={d}"),
            Level::TimeMs(t) => format!("time-ms={t}"),
            Level::Strength(n) => format!("level={n}"),
        }
    }

    /// How strong, to order levels: the depth, the level or the milliseconds.
    #[must_use]
    pub fn strength(self) -> u64 {
        match self {
            Level::Depth(d) | Level::Strength(d) => u64::from(d),
            Level::TimeMs(t) => t,
        }
    }

    /// Whether copies of the engine replay the same game from the same start (no clock).
    #[must_use]
    pub fn deterministic(self) -> bool {
        !matches!(self, Level::TimeMs(_))
    }
}

/// The default levels of a full run of game `game`, as search depths, weakest first.
#[must_use]
pub fn default_depths(game: &str) -> Vec<u32> {
    match game {
        "othello" => vec![2, 4, 6],
        "quixo" | "talat-2p" => vec![2, 3, 4],
        _ => vec![1, 2, 3],
    }
}

/// One opening suite of a variant.
#[derive(Clone, Debug)]
pub struct Suite {
    /// Its name, also its folder (`start`, `random-8`, the openings file's name).
    pub name: String,
    /// Where its openings come from.
    pub source: OpeningSource,
    /// Rounds scheduled; `None`: the run's rounds.
    pub rounds: Option<usize>,
}

/// A rules variant and its suites.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its name for people (`rules`, `Grey first after setup`, `chosen Djinn`).
    pub name: String,
    /// Its folder name.
    pub slug: String,
    /// The opening suites played under it.
    pub suites: Vec<Suite>,
}

/// `plies` random legal plies from `root` with the seeded RNG, as a position line (retried
/// until the game goes on).
///
/// # Errors
/// No such line in 1000 attempts.
pub fn random_line<G: Game>(root: &G, plies: u32, seed: u64) -> Result<String, FairnessError> {
    for attempt in 0..1000u64 {
        let mut rng = StdRng::seed_from_u64(derive_seed(seed, attempt));
        let mut pos = root.clone();
        let mut list = G::Moves::default();
        let mut n = 0;
        while n < plies {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.play(list[rng.random_range(0..list.len())]);
            n += 1;
        }
        if n == plies && pos.outcome().is_none() {
            return Ok(pos.to_string());
        }
    }
    Err(FairnessError::Input(format!(
        "no random opening of {plies} plies keeps the game going"
    )))
}

/// The rules variants of game `G` and their opening suites: the rules with the start
/// position and `openings` (a file) or random openings of `plies` plies; three-player
/// Talat also with each seat first after a random setup, talat-2p also with the Djinn
/// chosen by the players. `rounds` and `seed` make the variants' generated suites.
///
/// # Errors
/// An unreadable openings file; a random setup that leaves a seat no move.
pub fn variants<G: Game>(
    openings: Option<&std::path::Path>,
    plies: u32,
    rounds: usize,
    seed: u64,
) -> Result<Vec<Variant>, FairnessError> {
    use crate::games::talat::{DjinnSetup, SetupOptions, Talat, Talat2p, TowerSetup};
    let suite = match openings {
        Some(path) => Suite {
            name: path
                .file_name()
                .map_or_else(|| "openings".into(), |f| f.to_string_lossy().into_owned()),
            source: openings::read_file::<G>(path).map_err(FairnessError::Input)?,
            rounds: None,
        },
        None => Suite {
            name: format!("random-{plies}"),
            source: OpeningSource::RandomPlies(plies),
            rounds: None,
        },
    };
    let start = Suite {
        name: "start".into(),
        source: OpeningSource::Start,
        rounds: None,
    };
    let mut out = vec![Variant {
        name: "rules".into(),
        slug: "rules".into(),
        suites: vec![start, suite],
    }];
    match G::ID {
        "talat" => {
            // [choice] Who moves first after setup: the rules say seat 0; the rows below
            // start every game from a random legal setup with each seat to move in turn.
            for (k, colour) in ["White", "Grey", "Black"].iter().enumerate() {
                let mut lines = Vec::with_capacity(rounds);
                for r in 0..rounds {
                    let p = Talat::new(&SetupOptions {
                        towers: TowerSetup::Random(derive_seed(seed, r as u64)),
                        ..SetupOptions::default()
                    });
                    let p = p.with_turn(Seat(k as u8)).ok_or_else(|| {
                        FairnessError::Failure(format!("random setup {r} leaves {colour} no move"))
                    })?;
                    lines.push(p.to_string());
                }
                out.push(Variant {
                    name: format!("{colour} first after setup"),
                    slug: format!("first-{}", colour.to_ascii_lowercase()),
                    suites: vec![Suite {
                        name: "random-setup".into(),
                        source: OpeningSource::Lines(lines),
                        rounds: None,
                    }],
                });
            }
        }
        "talat-2p" => {
            // [choice] The Djinn set up by the players (English rules) instead of at random.
            let root = Talat2p::new(&SetupOptions {
                djinn: DjinnSetup::Chosen,
                towers: TowerSetup::Chosen,
            });
            let mut lines = Vec::with_capacity(rounds);
            for r in 0..rounds {
                lines.push(random_line(&root, plies, derive_seed(seed, r as u64))?);
            }
            out[0].name = "random Djinn".into();
            out.push(Variant {
                name: "chosen Djinn".into(),
                slug: "chosen-djinn".into(),
                suites: vec![
                    Suite {
                        name: "start".into(),
                        source: OpeningSource::Lines(vec![root.to_string()]),
                        rounds: Some(1),
                    },
                    Suite {
                        name: format!("random-{plies}"),
                        source: OpeningSource::Lines(lines),
                        rounds: None,
                    },
                ],
            });
        }
        _ => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    #[test]
    fn levels_name_themselves_and_order_by_strength() {
        assert_eq!(Level::Depth(4).label(), "depth 4");
        assert_eq!(Level::TimeMs(100).slug(), "t100");
        assert_eq!(Level::Strength(3).spec(), "level=3");
        assert!(Level::Depth(2).strength() < Level::Depth(3).strength());
        assert!(!Level::TimeMs(5).deterministic());
    }

    #[test]
    fn random_lines_have_the_plies_asked_and_go_on() {
        let line = random_line(&Position::start(), 8, 7).unwrap();
        let pos: Position = line.parse().unwrap();
        assert_eq!(pos.empties(), 60 - 8);
        assert!(pos.outcome().is_none());
        assert_eq!(line, random_line(&Position::start(), 8, 7).unwrap());
    }

    #[test]
    fn talat_has_a_variant_per_first_seat_and_talat2p_a_chosen_djinn() {
        let v = variants::<crate::games::talat::Talat>(None, 8, 3, 1).unwrap();
        let names: Vec<&str> = v.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "rules",
                "White first after setup",
                "Grey first after setup",
                "Black first after setup"
            ]
        );
        let v = variants::<crate::games::talat::Talat2p>(None, 8, 3, 1).unwrap();
        assert_eq!(v[1].slug, "chosen-djinn");
        assert_eq!(variants::<Position>(None, 8, 3, 1).unwrap().len(), 1);
    }
}
