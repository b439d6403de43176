//! A self-play data run ([`run`]): an engine's games against itself from random openings,
//! every position labelled ([`super::selfplay`] plays and labels), written as a data file
//! with its `#` header (a shard's file with `# game K` marks).

use std::path::PathBuf;
use std::time::Instant;

use super::error::TuneError;
use super::selfplay::{self, Config, SolveFn};
use super::texel::TexelGame;
use crate::engine::{EngineSpec, Players};

/// Parses a random-opening length, `N` or `A-B` (whole numbers, A <= B <= 60), into an
/// inclusive range.
///
/// # Errors
/// [`TuneError::Setting`] naming `--random-plies`.
pub fn parse_random_plies(text: &str) -> Result<(u32, u32), TuneError> {
    let bad = || {
        TuneError::Setting(format!(
            "--random-plies '{text}' is not N or A-B (whole numbers, A <= B <= 60)"
        ))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok((a, b))
}

/// A self-play run's settings.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The engine playing every seat.
    pub engine: EngineSpec,
    /// Games, openings, ply cap, threads, shard and progress bar (as for
    /// [`selfplay::generate_indexed`]).
    pub play: Config,
    /// The data file written (whole, then renamed into place).
    pub out: PathBuf,
}

/// What a self-play run wrote.
#[derive(Clone, Debug)]
pub struct SelfplaySummary {
    /// The games' counts (see [`selfplay::Summary`]).
    pub games: selfplay::Summary,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// A limit for the file header: its value, or `-` when unset.
fn shown_or_dash<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Plays `cfg`'s games of `G` and writes the labelled positions to `cfg.out`; `solve`
/// (with the empties it starts at, for the header) labels and plays the positions it
/// reaches. [`super::outputs::create_parent`] and [`super::outputs::check_writable`] check
/// the output first.
///
/// # Errors
/// An engine that cannot be built or fails, an unwritable output.
pub fn run<G: Players + TexelGame>(
    cfg: &SelfplayConfig,
    solve: Option<(&SolveFn<G>, u32)>,
) -> Result<SelfplaySummary, TuneError> {
    let spec = &cfg.engine;
    let play = &cfg.play;
    let limits = spec.limits();
    let make = || G::make_player(spec);
    let started = Instant::now();
    let (samples, summary) =
        selfplay::generate_indexed::<G>(&make, &limits, solve.map(|s| s.0), play)
            .map_err(TuneError::Failed)?;
    let mut header = vec![
        format!("tessera selfplay data ({} positions)", summary.unique),
        format!("command: {}", super::command_line()),
        format!(
            "engine: {} (algo {}, depth {}, time-ms {}, nodes {}, weights {})",
            spec.name,
            spec.algo.name(),
            shown_or_dash(spec.depth),
            shown_or_dash(spec.time_ms),
            shown_or_dash(spec.nodes),
            spec.weights
                .as_ref()
                .map_or_else(|| "default".to_string(), |p| p.display().to_string())
        ),
        format!(
            "games {}, seed {}, random plies {}-{}, max plies {}, date {}",
            play.games,
            play.seed,
            play.random_plies.0,
            play.random_plies.1,
            play.max_plies,
            super::utc_date()
        ),
        format!(
            "{} games drawn by threefold repetition, {} cut at the ply cap (dropped)",
            summary.repetitions, summary.cut
        ),
    ];
    if let Some((i, n)) = play.shard {
        header.push(format!("shard {i}/{n} ({} games)", summary.games));
    }
    let mut fields = format!("fields: position, {} for the side to move, ", G::LABEL);
    if let Some((_, exact)) = solve {
        header.push(format!("exact values at <= {exact} empties"));
        fields.push_str("exact value or -");
    } else {
        fields.push('-');
    }
    if samples.iter().any(|(_, s)| !s.scores.is_empty()) {
        fields.push_str(", every seat's final score");
    }
    header.push(fields);
    let text = if play.shard.is_some() {
        selfplay::to_text_indexed(&samples, &header)
    } else {
        let plain: Vec<selfplay::Sample> = samples.into_iter().map(|(_, s)| s).collect();
        selfplay::to_text(&plain, &header)
    };
    // Written whole and renamed into place: a task killed while writing (a preempted Slurm
    // job) leaves no shard that looks complete but lacks games.
    let tmp = super::checkpoint::temp_path(&cfg.out);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &cfg.out))
        .map_err(|e| TuneError::Write {
            path: cfg.out.clone(),
            message: e.to_string(),
        })?;
    Ok(SelfplaySummary {
        games: summary,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_plies_ranges() {
        assert_eq!(parse_random_plies("8"), Ok((8, 8)));
        assert_eq!(parse_random_plies("4-16"), Ok((4, 16)));
        assert!(parse_random_plies("9-3").is_err());
        assert!(parse_random_plies("x").is_err());
        assert_eq!(
            parse_random_plies("0-61").unwrap_err().to_string(),
            "--random-plies '0-61' is not N or A-B (whole numbers, A <= B <= 60)"
        );
    }

    #[test]
    fn a_shard_file_has_its_header_and_game_marks() {
        use crate::games::quixo::Quixo;
        let dir = std::env::temp_dir().join(format!("tessera-selfplay-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cfg = SelfplayConfig {
            engine: super::super::run::resolve_engine("name=d1,depth=1,tt-mb=1", "quixo").unwrap(),
            play: Config {
                games: 4,
                seed: 1,
                random_plies: (2, 4),
                max_plies: 200,
                threads: 1,
                shard: Some((2, 2)),
                progress: false,
            },
            out: dir.join("s.txt"),
        };
        let s = run::<Quixo>(&cfg, None).unwrap();
        assert_eq!(s.games.games, 2, "shard 2/2 of 4 games plays games 1 and 3");
        let shard = selfplay::read_shard(&cfg.out).unwrap();
        assert!(
            shard.header.iter().any(|l| l == "shard 2/2 (2 games)"),
            "{:?}",
            shard.header
        );
        assert!(shard.samples.iter().all(|(g, _)| g % 2 == 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
