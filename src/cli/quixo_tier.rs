//! `tessera quixo-tier`: the Quixo one-blank tier table, in one piece or in chunks of
//! value-iteration rounds for a job array ([`tessera::games::quixo::tier_build`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tessera::games::quixo::tier_build::{self as tb, FullBoards, MergeReport, TierReport};
use tessera::present::quixo_tier as view;

use super::output::{CliError, say};

/// Arguments of `tessera quixo-tier`.
#[derive(Args, Debug)]
#[command(
    about = "Build the Quixo one-blank tier table (in one piece, or in chunks for a cluster)",
    long_about = "Build the table of every Quixo board with exactly one blank cube (5x5: \
                  25 * 2^24 boards, 52,470,288 up to symmetry; 4x4 with --size 4), from the \
                  full-board table (--table, else the cache file, built when missing). `solve` \
                  builds it in one piece (retrograde). `chunk` / `merge` / `run` build it in \
                  value-iteration rounds split into independent chunks (docs/cluster.md): \
                  `chunk --round R --chunk I/N` reads DIR/round-(R-1).qxt and writes \
                  DIR/round-R-chunk-I-of-N.qxt; `merge --round R --chunks N` checks every chunk \
                  and writes DIR/round-R.qxt, and when the round changed nothing writes the \
                  finished table to --out and says `done`; `run` does all of it in sequence. \
                  `stats FILE` reads a finished table. A missing, truncated or corrupt file or \
                  chunk is a one-line error, exit 2; files are written through a rename.",
    after_help = "Examples:\n  \
                  tessera quixo-tier solve --out /data/quixo-tier1.qxt\n  \
                  tessera quixo-tier chunk --round 1 --chunk 0/24 --dir /data/t1\n  \
                  tessera quixo-tier merge --round 1 --chunks 24 --dir /data/t1 --out /data/quixo-tier1.qxt\n  \
                  tessera quixo-tier run --size 4 --chunks 3 --dir /tmp/t4 --out /tmp/tier1-4x4.qxt"
)]
pub struct QuixoTierArgs {
    #[command(subcommand)]
    pub action: TierAction,
}

/// Settings shared by every action.
#[derive(Args, Debug)]
pub struct TierCommon {
    /// Board side: 5, or 4 for the small analogue
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(4..=5))]
    pub size: u8,
    /// The 5x5 full-board table file [default: the cache file of `solve quixo`]
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Threads (the one-piece build and the full-board table)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// What `quixo-tier` does.
#[derive(Subcommand, Debug)]
pub enum TierAction {
    /// Build the whole tier in one piece (retrograde) into --out
    Solve {
        #[command(flatten)]
        common: TierCommon,
        /// The finished table
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Compute one chunk of one value-iteration round
    Chunk {
        #[command(flatten)]
        common: TierCommon,
        /// Round number, from 1
        #[arg(long, value_name = "R")]
        round: u32,
        /// Chunk I of N (I from 0)
        #[arg(long, value_name = "I/N")]
        chunk: String,
        /// Folder of the round and chunk files
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
    },
    /// Check and merge the N chunks of one round
    Merge {
        #[command(flatten)]
        common: TierCommon,
        /// Round number
        #[arg(long, value_name = "R")]
        round: u32,
        /// Number of chunks of the round
        #[arg(long, value_name = "N")]
        chunks: usize,
        /// Folder of the round and chunk files
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Where the finished table goes once the rounds are done
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Every round's chunks and merges in sequence (the chunked build on one machine)
    Run {
        #[command(flatten)]
        common: TierCommon,
        /// Chunks per round
        #[arg(long, value_name = "N")]
        chunks: usize,
        /// Folder of the round and chunk files
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// The finished table
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Cross-check a finished 5x5 table against the proving search on random positions
    Check {
        #[command(flatten)]
        common: TierCommon,
        /// The table file
        file: PathBuf,
        /// Positions
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Deepest proof tried, plies
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=9))]
        max_plies: u32,
        /// Seed of the positions
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Counts of a finished table
    Stats {
        /// The table file
        file: PathBuf,
    },
}

fn full(c: &TierCommon) -> Result<FullBoards, CliError> {
    FullBoards::obtain(c.size, c.table.as_deref(), c.threads as usize, &mut |l| {
        eprintln!("{l}");
    })
    .map_err(CliError::input)
}

/// Prints a finished tier table.
fn report(r: &TierReport) {
    view::tier_lines(r).into_iter().for_each(say);
}

/// Prints a merged round.
fn merged(r: &MergeReport) {
    say(view::merge_line(r));
}

/// Runs `tessera quixo-tier`.
///
/// # Errors
/// Bad arguments or files (exit 2).
pub fn run(args: &QuixoTierArgs) -> Result<ExitCode, CliError> {
    match &args.action {
        TierAction::Solve { common, out } => {
            let f = full(common)?;
            report(
                &tb::solve_one_piece(common.size, &f, common.threads as usize, out)
                    .map_err(CliError::input)?,
            );
        }
        TierAction::Chunk {
            common,
            round,
            chunk,
            dir,
        } => {
            let (i, n) = tb::parse_chunk(chunk).map_err(CliError::input)?;
            let f = full(common)?;
            let path =
                tb::build_chunk(common.size, &f, dir, *round, i, n).map_err(CliError::input)?;
            say(format!("wrote {}", path.display()));
        }
        TierAction::Merge {
            common,
            round,
            chunks,
            dir,
            out,
        } => {
            let f = full(common)?;
            let r = tb::merge_round(common.size, &f, dir, *round, *chunks, out)
                .map_err(CliError::input)?;
            merged(&r);
            if let Some(d) = &r.done {
                report(d);
            }
        }
        TierAction::Run {
            common,
            chunks,
            dir,
            out,
        } => {
            let f = full(common)?;
            let r = tb::run_rounds(common.size, &f, dir, *chunks, out, &mut merged)
                .map_err(CliError::input)?;
            if let Some(d) = &r.done {
                report(d);
            }
        }
        TierAction::Check {
            common,
            file,
            count,
            max_plies,
            seed,
        } => {
            let FullBoards::Five(t) = full(common)? else {
                return Err(CliError::input(
                    "the check is for the 5x5 tier (no --size 4)",
                ));
            };
            let (checked, proven) =
                tb::check_file(file, t, *count, *seed, *max_plies).map_err(CliError::input)?;
            say(format!(
                "{checked} random positions agree with the proving search ({proven} proven within {max_plies} plies, the rest farther or drawn)"
            ));
        }
        TierAction::Stats { file } => {
            let (t, c) = tb::read_final(file).map_err(CliError::input)?;
            say(format!(
                "{}: {} canonical boards",
                file.display(),
                t.codes().len()
            ));
            say(view::counts_line(&c));
        }
    }
    Ok(ExitCode::SUCCESS)
}
