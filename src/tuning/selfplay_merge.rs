//! Merging self-play shards ([`merge`]): the data files of every shard of one self-play
//! run (`--shard 1/N` ... `N/N`) combined into the data lines the run in one piece writes:
//! the same positions, labels and order (see [`super::selfplay::merge_shards`]). The `#` header is the run's but for the
//! `command:` line (the merge's) and an added `merged from N shards: ...` line.

use std::path::{Path, PathBuf};

use super::error::TuneError;
use super::selfplay::{self, ShardFile};

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
fn shard_of(shard: &ShardFile, path: &Path) -> Result<(usize, usize), TuneError> {
    line(shard, "shard ")
        .and_then(|l| l.strip_prefix("shard "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|s| crate::tournament::schedule::parse_shard(s).ok())
        .ok_or_else(|| {
            TuneError::Shards(format!(
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

/// What a merge wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeSummary {
    /// Shards merged.
    pub shards: usize,
    /// Distinct positions written.
    pub unique: usize,
}

/// Merges the shard files `files` of one self-play run of `game` (its id, `othello`) into
/// `out`. The `#` header is the run's but for the `command:` line (the merge's) and an
/// added `merged from N shards: ...` line.
///
/// # Errors
/// An unreadable or malformed shard, shards of different runs or of another game, a shard
/// given twice or missing, an unwritable output.
pub fn merge(game: &str, files: &[PathBuf], out: &Path) -> Result<MergeSummary, TuneError> {
    if files.is_empty() {
        return Err(TuneError::Shards("no shard to merge".to_string()));
    }
    let mut shards = Vec::new();
    for p in files {
        shards.push(selfplay::read_shard(p).map_err(TuneError::Data)?);
    }
    let key = run_key(&shards[0]);
    if key[0] != game {
        return Err(TuneError::Shards(format!(
            "{} holds {} self-play data, not {game}",
            files[0].display(),
            if key[0].is_empty() {
                "unknown"
            } else {
                &key[0]
            }
        )));
    }
    let mut seen: Vec<Option<&Path>> = Vec::new();
    let mut count = None;
    for (shard, path) in shards.iter().zip(files) {
        if run_key(shard) != key {
            return Err(TuneError::Shards(format!(
                "{} is not a shard of the same run as {} (game, engine, games, seed, openings, \
                 ply cap or exact labels differ)",
                path.display(),
                files[0].display()
            )));
        }
        let (i, n) = shard_of(shard, path)?;
        if *count.get_or_insert(n) != n {
            return Err(TuneError::Shards(format!(
                "{} is shard {i}/{n}, the others are of {} shards",
                path.display(),
                count.unwrap_or(n)
            )));
        }
        seen.resize(n, None);
        if let Some(other) = seen[i - 1].replace(path) {
            return Err(TuneError::Shards(format!(
                "{} and {} are both shard {i}/{n}",
                other.display(),
                path.display()
            )));
        }
    }
    let missing = crate::tournament::merge::missing_shards(&seen);
    if !missing.is_empty() {
        return Err(TuneError::Shards(format!(
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
        format!("command: {}", super::command_line()),
        format!(
            "merged from {} shards: {}",
            shards.len(),
            files
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
    super::outputs::create_parent(out)?;
    let samples: Vec<selfplay::Sample> = merged.into_iter().map(|(_, s)| s).collect();
    std::fs::write(out, selfplay::to_text(&samples, &header)).map_err(|e| TuneError::Write {
        path: out.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(MergeSummary {
        shards: shards.len(),
        unique: samples.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shard `i` of 2 of one Othello run: game `i - 1`, one position labelled `label`.
    fn shard(dir: &Path, i: usize, label: i32) -> PathBuf {
        let pos = crate::games::othello::Position::start();
        let text = format!(
            "# tessera selfplay data (1 positions)\n# command: tessera selfplay othello --shard {i}/2\n\
             # engine: d1\n# games 2, seed 1, date 2026-01-0{i}\n\
             # 0 games drawn by threefold repetition, {i} cut at the ply cap (dropped)\n\
             # shard {i}/2 (1 games)\n# fields: position\n# game {}\n{pos}\t{label}\t-\n",
            i - 1
        );
        let path = dir.join(format!("s{i}.txt"));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn shards_merge_in_game_order_and_bad_sets_are_refused() {
        let dir = std::env::temp_dir().join(format!("tessera-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (shard(&dir, 1, 4), shard(&dir, 2, -2));
        let out = dir.join("m/all.txt");
        let s = merge("othello", &[b.clone(), a.clone()], &out).unwrap();
        assert_eq!(
            s,
            MergeSummary {
                shards: 2,
                unique: 1
            }
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("\t4\t-\n"), "game 0's label is kept: {text}");
        assert!(
            text.contains("0 games drawn by threefold repetition, 3 cut"),
            "{text}"
        );
        let err = |files: &[PathBuf], game: &str| merge(game, files, &out).unwrap_err().to_string();
        assert_eq!(
            err(std::slice::from_ref(&a), "othello"),
            "shard 2 of 2 missing: merge needs every shard of the run"
        );
        assert_eq!(
            err(&[a.clone(), a.clone()], "othello"),
            format!("{} and {} are both shard 1/2", a.display(), a.display())
        );
        assert_eq!(
            err(&[a.clone(), b.clone()], "quixo"),
            format!("{} holds othello self-play data, not quixo", a.display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
