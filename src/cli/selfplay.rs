//! `tessera selfplay`: labelled positions from an engine's games against itself, for
//! fitting evaluation weights (`tessera tune`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tessera::tuning::selfplay_merge;
use tessera::tuning::selfplay_request::{self, SelfplayRequest};

use super::GameId;
use super::output::{CliError, at_least_one_u64, print_json, say};

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

/// Runs `tessera selfplay`.
///
/// # Errors
/// Bad arguments, an engine that cannot be built or fails, an unwritable output file.
pub fn run(args: &SelfplayArgs) -> Result<ExitCode, CliError> {
    if !args.merge.is_empty() {
        let s = selfplay_merge::merge(args.game.name(), &args.merge, &args.out)?;
        print(args.json, s.to_json(&args.out), s.line(&args.out));
        return Ok(ExitCode::SUCCESS);
    }
    if !args.wthor.is_empty() {
        let s = selfplay_request::import_request(
            args.game,
            &args.wthor,
            &args.out,
            (args.exact_empties, args.max_plies, args.threads as usize),
        )?;
        print(args.json, s.to_json(&args.out), s.line(&args.out));
        return Ok(ExitCode::SUCCESS);
    }
    let run = selfplay_request::run_request(
        args.game,
        &SelfplayRequest {
            engine: args.engine.clone().unwrap_or_default(),
            games: args.games.unwrap_or(1),
            shard: args.shard.clone(),
            out: args.out.clone(),
            seed: args.seed,
            random_plies: args.random_plies.clone(),
            exact_empties: args.exact_empties,
            max_plies: args.max_plies,
            threads: args.threads as usize,
            progress: !args.no_progress && !args.json,
        },
    )?;
    print(args.json, run.to_json(&args.out), run.line(&args.out));
    Ok(ExitCode::SUCCESS)
}

/// Prints `json` with `--json`, else `line`.
fn print(json: bool, value: serde_json::Value, line: String) {
    if json {
        print_json(&value);
    } else {
        say(line);
    }
}
