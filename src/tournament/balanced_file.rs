//! A balanced opening suite ([`super::balanced::find`]) searched by the game's alpha-beta
//! engine and written as an openings file (`tessera openings`): `#` header lines naming
//! the command, the game and the suite's statistics, then one move sequence per line.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::balanced::{self, SuiteSpec};
use crate::engine::{EngineSpec, Players};

/// Why a suite could not be made; `Display` gives the one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SuiteError {
    /// Bad settings, or a file that cannot be written.
    Input(String),
    /// The engine cannot be built.
    Engine(String),
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(m) | Self::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SuiteError {}

/// What suite to write.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// Plies from the start position.
    pub plies: u32,
    /// Openings to write.
    pub count: u64,
    /// Largest |score| kept, in the engine's unit (Othello centi-discs).
    pub max_abs_score: u32,
    /// Depth of the balance search, plies.
    pub depth: u32,
    /// Seed of the random move sequences.
    pub seed: u64,
    /// Whether positions equal under the 8 symmetries of the square board (in the position
    /// text) count as one (Othello, Quixo).
    pub square_symmetry: bool,
    /// The file written (overwritten; its folder must exist).
    pub out: PathBuf,
}

/// Finds the suite `cfg` describes for game `G` and writes it to `cfg.out`; returns the
/// line for people saying what was written.
///
/// # Errors
/// An engine that cannot be built, a suite that cannot be found, a file that cannot be
/// written.
pub fn write_suite<G: Players + crate::present::Present>(
    cfg: &SuiteFile,
) -> Result<String, SuiteError> {
    let spec = EngineSpec::from_inline(
        &format!("name=openings-d{},depth={},tt-mb=16", cfg.depth, cfg.depth),
        G::ID,
    )
    .map_err(|e| SuiteError::Input(e.into()))?;
    let mut player = G::make_player(&spec).map_err(SuiteError::Engine)?;
    let suite_spec = SuiteSpec {
        plies: cfg.plies,
        count: cfg.count as usize,
        max_abs_score: cfg.max_abs_score as i32,
        seed: cfg.seed,
        max_tries: cfg.count.saturating_mul(200).max(10_000),
    };
    let class = |p: &G| {
        let text = p.to_string();
        if cfg.square_symmetry {
            balanced::square_symmetry_class(&text)
        } else {
            text
        }
    };
    let suite = balanced::find(&suite_spec, player.as_mut(), &spec.limits(), &class)
        .map_err(SuiteError::Input)?;
    let scores: Vec<i32> = suite.openings.iter().map(|o| o.score).collect();
    let mean = f64::from(scores.iter().sum::<i32>()) / scores.len().max(1) as f64;
    let unit = G::SCORE_UNIT;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# tessera openings {} --plies {} --count {} --max-abs-score {} --depth {} --seed {}",
        G::ID,
        cfg.plies,
        cfg.count,
        cfg.max_abs_score,
        cfg.depth,
        cfg.seed
    );
    let _ = writeln!(text, "# game: {}", G::ID);
    let _ = writeln!(
        text,
        "# {} openings from {} random sequences ({} duplicates{}, {} outside ±{}); scores for the side to move in {unit} at depth {}: min {}, max {}, mean {mean:+.1}",
        suite.openings.len(),
        suite.tries,
        suite.duplicates,
        if cfg.square_symmetry {
            " up to symmetry"
        } else {
            ""
        },
        suite.unbalanced,
        cfg.max_abs_score,
        cfg.depth,
        scores.iter().min().copied().unwrap_or(0),
        scores.iter().max().copied().unwrap_or(0),
    );
    for o in &suite.openings {
        let _ = writeln!(text, "{}", o.moves);
    }
    std::fs::write(&cfg.out, text)
        .map_err(|e| SuiteError::Input(format!("cannot write {}: {e}", cfg.out.display())))?;
    Ok(format!(
        "wrote {} {} openings of {} plies to {} ({} random sequences tried, {} duplicates, {} outside ±{} {unit}; mean score {mean:+.1})",
        suite.openings.len(),
        G::ID,
        cfg.plies,
        cfg.out.display(),
        suite.tries,
        suite.duplicates,
        suite.unbalanced,
        cfg.max_abs_score,
    ))
}
