//! `tessera selfplay`: labelled positions from an engine's games against itself, for
//! fitting evaluation weights (`tessera tune`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tessera::engine::EngineSpec;
use tessera::games::othello;
use tessera::tuning::selfplay::{self, Config};

use super::GameId;
use super::games::CliGame;
use super::output::{CliError, at_least_one_u64, print_json, say};
use tessera::tuning::texel::TexelGame;

/// Arguments of `tessera selfplay`.
#[derive(Args, Debug)]
#[command(
    about = "Write labelled positions from self-play games (data for `tessera tune`)",
    long_about = "Play an engine against itself (every seat) from random openings and write \
        every position reached after the opening, labelled with the game's final result from \
        the side to move's team's view: Othello the disc difference (empties to the winner), \
        Quixo 1 win / 0 draw / -1 loss, Talat the points x 10 (tie-break in the last digit) \
        minus the best other seat's. Othello positions at --exact-empties empties or fewer \
        also get the exact value from the endgame solver (which then also plays the moves, so \
        results are perfect-play results from there on). Quixo games that repeat a position \
        three times end as draws; games past --max-plies are dropped. Positions are \
        deduplicated by Zobrist key, the first occurrence (in game order) kept. Game i draws \
        its opening (and talat-2p's Djinn) from (seed, i): the same settings give the same \
        file at any --threads.\n\n\
        Output: '#' header lines (command, engine, games, seed, date), then one \
        POSITION<TAB>RESULT<TAB>EXACT-or-'-' line per position; three-player Talat adds a \
        fourth field, every seat's final score (s0,s1,s2).\n\n\
        On several machines: --shard I/N plays only games I-1, I-1+N, ... (the same games as \
        the run in one piece) and marks each game's positions with a '# game K' line; \
        --merge SHARD,SHARD,... --out FILE then writes the data lines of the run in one piece \
        (same positions, labels and order); its '#' header names the merge command and its \
        shards.",
    after_help = "Examples:\n  tessera selfplay othello --engine othello-ab-d2 --games 2000 \
        --random-plies 4-20 --exact-empties 14 --out data/d2.txt\n  \
        tessera selfplay quixo --engine quixo-ab-d2 --games 2000 --random-plies 2-12 --out data/q.txt\n  \
        tessera selfplay talat --engine name=t,algo=brs-plus,depth=2 --games 500 --random-plies 18 --out data/t.txt\n  \
        parallel -j 2 tessera selfplay othello --engine othello-ab-d2 --games 2000 --shard {}/4 --out shards/{}.txt ::: 1 2 3 4\n  \
        tessera selfplay othello --merge shards/1.txt,shards/2.txt,shards/3.txt,shards/4.txt --out data/d2.txt\n  \
        tessera selfplay othello --wthor WTH_2004.wtb,WTH_2005.wtb --exact-empties 14 --out data/wthor.txt"
)]
pub struct SelfplayArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Engine playing both sides: a preset name or .toml path, or an inline spec
    /// (name=x,depth=2,...)
    #[arg(long, value_name = "E", required_unless_present_any = ["merge", "wthor"])]
    pub engine: Option<String>,
    /// Number of games
    #[arg(long, value_name = "N", value_parser = at_least_one_u64, required_unless_present_any = ["merge", "wthor"])]
    pub games: Option<u64>,
    /// Play only the I-th of N disjoint slices of the games (then `--merge`)
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<String>,
    /// Combine the data files of every shard of one run (`--shard 1/N` ... `N/N`) into
    /// --out: the data lines of the run in one piece (the header names the merge); plays no
    /// games
    #[arg(long, value_name = "FILE", value_delimiter = ',', conflicts_with_all = ["engine", "games"])]
    pub merge: Vec<PathBuf>,
    /// Othello: label the positions of the human games in these WTHOR databases (.wtb)
    /// instead of playing games: the game's result and, at --exact-empties or fewer, the
    /// exact value; plays no games
    #[arg(long, value_name = "FILE", value_delimiter = ',',
          conflicts_with_all = ["engine", "games", "merge", "shard"])]
    pub wthor: Vec<PathBuf>,
    /// Output file (overwritten)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Master seed
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random legal plies at the start of each game: N, or A-B for a uniform draw per game
    #[arg(long, value_name = "A-B", default_value = "4-16")]
    pub random_plies: String,
    /// Othello: solve exactly (label and play) at this many empties or fewer; 0 = never
    /// [default: 14]
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u32).range(0..=24))]
    pub exact_empties: Option<u32>,
    /// Games longer than this many plies are dropped [default: Othello 1000, Quixo 200,
    /// Talat 1000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_plies: Option<u64>,
    /// Games played at the same time
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
    /// Print one JSON object instead of the summary line
    #[arg(long)]
    pub json: bool,
}

/// Parses `N` or `A-B` into an inclusive range.
fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--random-plies '{text}' is not N or A-B (whole numbers, A <= B <= 60)");
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

/// Resolves `--engine`: an inline spec when it holds `=`, else a preset.
pub fn resolve_engine(text: &str, game: &str) -> Result<EngineSpec, CliError> {
    let spec = if text.contains('=') {
        EngineSpec::from_inline(text, game)
    } else {
        EngineSpec::resolve(text)
    }
    .map_err(CliError::input)?;
    if spec.game != game {
        return Err(CliError::input(format!(
            "engine '{}' plays {}, not {game}",
            spec.name, spec.game
        )));
    }
    Ok(spec)
}

/// A limit for the file header: its value, or `-` when unset.
fn shown_or_dash<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Runs `tessera selfplay`.
///
/// # Errors
/// Bad arguments, an engine that cannot be built or fails, an unwritable output file.
pub fn run(args: &SelfplayArgs) -> Result<ExitCode, CliError> {
    if !args.merge.is_empty() {
        return super::selfplay_merge::run(&super::selfplay_merge::MergeArgs {
            game: args.game.name().to_string(),
            merge: &args.merge,
            out: &args.out,
            json: args.json,
        });
    }
    if !args.wthor.is_empty() {
        return super::selfplay_wthor::run(&super::selfplay_wthor::WthorArgs {
            game: args.game.name().to_string(),
            files: &args.wthor,
            out: &args.out,
            exact_empties: args.exact_empties,
            max_plies: args.max_plies,
            threads: args.threads,
            json: args.json,
        });
    }
    if args.game == GameId::Othello {
        let exact = args.exact_empties.unwrap_or(14);
        let solve =
            move |pos: &othello::Position| tessera::tuning::othello::solve_label(pos, exact);
        return generate::<othello::Position>(
            args,
            (exact > 0).then_some(&solve as &selfplay::SolveFn<othello::Position>),
            exact,
        );
    }
    if args.exact_empties.is_some() {
        return Err(CliError::input(format!(
            "--exact-empties labels Othello positions with the endgame solver; {} has none",
            args.game.name()
        )));
    }
    tessera::for_game!(args.game, generate(args, None, 0))
}

/// `selfplay` for one game: `solve` labels and plays the positions it reaches
/// (`exact` empties or fewer, for the header).
fn generate<G: CliGame + TexelGame>(
    args: &SelfplayArgs,
    solve: Option<&selfplay::SolveFn<G>>,
    exact: u32,
) -> Result<ExitCode, CliError> {
    let engine = args.engine.as_deref().unwrap_or_default();
    let spec = resolve_engine(engine, G::ID)?;
    let random_plies = parse_range(&args.random_plies).map_err(CliError::input)?;
    let shard = args
        .shard
        .as_deref()
        .map(tessera::tournament::schedule::parse_shard)
        .transpose()
        .map_err(CliError::input)?;
    // Build one player now so a bad spec fails before any game.
    G::make_player(&spec).map_err(CliError::input)?;
    super::output::create_parent(&args.out)?;
    // An unwritable output is found now, not after the last game.
    super::output::check_writable(&args.out)?;
    let cfg = Config {
        games: args.games.unwrap_or(1) as usize,
        seed: args.seed,
        random_plies,
        max_plies: args.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES.min(1000)) as usize,
        threads: args.threads as usize,
        progress: !args.no_progress && !args.json,
        shard,
    };
    let limits = spec.limits();
    let make = || G::make_player(&spec);
    let started = Instant::now();
    let (samples, summary) =
        selfplay::generate_indexed::<G>(&make, &limits, solve, &cfg).map_err(CliError::failure)?;
    let mut header = vec![
        format!("tessera selfplay data ({} positions)", summary.unique),
        format!("command: {}", tessera::tuning::command_line()),
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
            cfg.games,
            cfg.seed,
            random_plies.0,
            random_plies.1,
            cfg.max_plies,
            tessera::tuning::utc_date()
        ),
        format!(
            "{} games drawn by threefold repetition, {} cut at the ply cap (dropped)",
            summary.repetitions, summary.cut
        ),
    ];
    if let Some((i, n)) = shard {
        header.push(format!("shard {i}/{n} ({} games)", summary.games));
    }
    let mut fields = format!("fields: position, {} for the side to move, ", G::LABEL);
    if solve.is_some() {
        header.push(format!("exact values at <= {exact} empties"));
        fields.push_str("exact value or -");
    } else {
        fields.push('-');
    }
    if samples.iter().any(|(_, s)| !s.scores.is_empty()) {
        fields.push_str(", every seat's final score");
    }
    header.push(fields);
    let text = if shard.is_some() {
        selfplay::to_text_indexed(&samples, &header)
    } else {
        let plain: Vec<selfplay::Sample> = samples.into_iter().map(|(_, s)| s).collect();
        selfplay::to_text(&plain, &header)
    };
    // Written whole and renamed into place: a task killed while writing (a preempted Slurm
    // job) leaves no shard that looks complete but lacks games.
    let tmp = tessera::tuning::checkpoint::temp_path(&args.out);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &args.out))
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        print_json(&serde_json::json!({
            "games": summary.games,
            "positions": summary.positions,
            "unique": summary.unique,
            "exact": summary.exact,
            "repetitions": summary.repetitions,
            "cut": summary.cut,
            "seconds": secs,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "{} games ({} drawn by repetition, {} cut at the ply cap), {} positions, {} distinct \
             written to {} ({} with exact labels) in {secs:.1} s",
            summary.games,
            summary.repetitions,
            summary.cut,
            summary.positions,
            summary.unique,
            args.out.display(),
            summary.exact
        ));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_plies_ranges() {
        assert_eq!(parse_range("8"), Ok((8, 8)));
        assert_eq!(parse_range("4-16"), Ok((4, 16)));
        assert!(parse_range("9-3").is_err());
        assert!(parse_range("x").is_err());
        assert!(parse_range("0-61").is_err());
    }
}
