//! `tessera selfplay <game> --merge SHARD,... --out FILE`: the data files of every shard of
//! one self-play run (`--shard 1/N` ... `N/N`) combined into the data lines the run in one
//! piece writes: the same positions, labels and order (see
//! [`tessera::tuning::selfplay::merge_shards`]). The `#` header is the run's but for the
//! `command:` line (the merge's) and an added `merged from N shards: ...` line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tessera::tuning::selfplay::{self, ShardFile};

use super::output::{CliError, print_json, say};

/// The header line that starts with `prefix`, if any.
fn line<'a>(shard: &'a ShardFile, prefix: &str) -> Option<&'a str> {
    shard
        .header
        .iter()
        .find(|l| l.starts_with(prefix))
        .map(String::as_str)
}

/// What must agree between shards of one run: the game (from the command line), the
/// engine, games/seed/openings/ply cap (without the date), the exact-label rule and the
/// fields.
fn run_key(shard: &ShardFile) -> Vec<String> {
    let game = line(shard, "command:").and_then(|c| {
        let mut words = c.split_whitespace();
        words.find(|w| *w == "selfplay")?;
        words.next().map(str::to_string)
    });
    let games = line(shard, "games ").map(|g| g.split(", date").next().unwrap_or(g).to_string());
    vec![
        game.unwrap_or_default(),
        line(shard, "engine:").unwrap_or_default().to_string(),
        games.unwrap_or_default(),
        line(shard, "exact values").unwrap_or_default().to_string(),
        line(shard, "fields:").unwrap_or_default().to_string(),
    ]
}

/// `(I, N)` of the `shard I/N (...)` header line.
fn shard_of(shard: &ShardFile, path: &Path) -> Result<(usize, usize), CliError> {
    line(shard, "shard ")
        .and_then(|l| l.strip_prefix("shard "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|s| tessera::tournament::schedule::parse_shard(s).ok())
        .ok_or_else(|| {
            CliError::input(format!(
                "{} has no 'shard I/N' header line: not written with selfplay --shard",
                path.display()
            ))
        })
}

/// The two counts of the `R games drawn by threefold repetition, C cut ...` line.
fn ended_counts(shard: &ShardFile) -> (usize, usize) {
    let Some(l) = shard
        .header
        .iter()
        .find(|l| l.contains("drawn by threefold repetition"))
    else {
        return (0, 0);
    };
    let numbers: Vec<usize> = l
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (
        numbers.first().copied().unwrap_or(0),
        numbers.get(1).copied().unwrap_or(0),
    )
}

/// What `selfplay <game> --merge FILES --out FILE [--json]` was given.
pub struct MergeArgs<'a> {
    /// The game id (`othello`).
    pub game: String,
    /// The shard files.
    pub merge: &'a [PathBuf],
    /// The merged file.
    pub out: &'a Path,
    /// Print one JSON object instead of the summary line.
    pub json: bool,
}

/// Runs `selfplay --merge`.
///
/// # Errors
/// An unreadable or malformed shard, shards of different runs or of another game, a shard
/// given twice or missing, an unwritable output.
pub fn run(args: &MergeArgs<'_>) -> Result<ExitCode, CliError> {
    let game = &args.game;
    let mut shards = Vec::new();
    for p in args.merge {
        shards.push(selfplay::read_shard(p).map_err(CliError::input)?);
    }
    let key = run_key(&shards[0]);
    if key[0] != *game {
        return Err(CliError::input(format!(
            "{} holds {} self-play data, not {game}",
            args.merge[0].display(),
            if key[0].is_empty() {
                "unknown"
            } else {
                &key[0]
            }
        )));
    }
    let mut seen: Vec<Option<&Path>> = Vec::new();
    let mut count = None;
    for (shard, path) in shards.iter().zip(args.merge) {
        if run_key(shard) != key {
            return Err(CliError::input(format!(
                "{} is not a shard of the same run as {} (game, engine, games, seed, openings, \
                 ply cap or exact labels differ)",
                path.display(),
                args.merge[0].display()
            )));
        }
        let (i, n) = shard_of(shard, path)?;
        if *count.get_or_insert(n) != n {
            return Err(CliError::input(format!(
                "{} is shard {i}/{n}, the others are of {} shards",
                path.display(),
                count.unwrap_or(n)
            )));
        }
        seen.resize(n, None);
        if let Some(other) = seen[i - 1].replace(path) {
            return Err(CliError::input(format!(
                "{} and {} are both shard {i}/{n}",
                other.display(),
                path.display()
            )));
        }
    }
    let missing = tessera::tournament::merge::missing_shards(&seen);
    if !missing.is_empty() {
        return Err(CliError::input(format!(
            "shard {} of {} missing: merge needs every shard of the run",
            missing.join(", "),
            seen.len()
        )));
    }
    let (repetitions, cut) = shards
        .iter()
        .map(ended_counts)
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let merged = selfplay::merge_shards(&shards);
    let first = &shards[0];
    let mut header = vec![
        format!("tessera selfplay data ({} positions)", merged.len()),
        format!("command: {}", tessera::tuning::command_line()),
        format!(
            "merged from {} shards: {}",
            shards.len(),
            args.merge
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    for prefix in ["engine:", "games "] {
        header.extend(line(first, prefix).map(str::to_string));
    }
    header.push(format!(
        "{repetitions} games drawn by threefold repetition, {cut} cut at the ply cap (dropped)"
    ));
    for prefix in ["exact values", "fields:"] {
        header.extend(line(first, prefix).map(str::to_string));
    }
    super::output::create_parent(args.out)?;
    let samples: Vec<selfplay::Sample> = merged.into_iter().map(|(_, s)| s).collect();
    std::fs::write(args.out, selfplay::to_text(&samples, &header))
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    if args.json {
        print_json(&serde_json::json!({
            "shards": shards.len(),
            "unique": samples.len(),
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "{} shards merged: {} distinct positions written to {}",
            shards.len(),
            samples.len(),
            args.out.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}
