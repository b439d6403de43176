//! `tessera nboard othello`: tessera as an engine for the NBoard GUI (and other programs
//! that speak the NBoard protocol) on stdin/stdout; see [`tessera::protocol::nboard`].

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::Args;
use tessera::protocol::nboard::{NboardConfig, NboardServer, Output};

use super::GameId;
use super::output::CliError;

/// Arguments of `tessera nboard`.
#[derive(Args, Debug)]
#[command(
    about = "Run tessera as an NBoard-protocol engine on stdin/stdout (the NBoard GUI)",
    long_about = "Run tessera as an engine of the NBoard protocol (version 2; version 1 is \
                  accepted): commands on stdin, answers on stdout, each line flushed. Commands: \
                  nboard, set depth N (the level: midgame depth N, exact solving at 2N empties \
                  or fewer, at most 24), set game GGF, set contempt (ignored), move MV[/EVAL[/TIME]], \
                  hint N (one `search PV EVAL 0 DEPTH` line per move, best first, evals in \
                  discs for the side to move; `book ...` lines for book moves), go (`=== \
                  MOVE/EVAL/TIME`; the GUI then sends the move back), ping N (stops a search, \
                  writes its truncated answer, then `pong N`), learn (adds the game to the \
                  --book FILE and saves it), quit. While thinking: `status` and `nodestats` \
                  lines; other commands wait for the search, except set game and move, which \
                  stop it and drop its answer. The end of input stops a search and exits 0. \
                  Unknown or malformed lines are ignored with an error note on stderr.\n\nTo register tessera in the \
                  NBoard GUI: Engine > Select Engine > Add, with the command \
                  `/path/to/tessera nboard othello` (see docs/nboard.md).",
    after_help = "Example (the sleep lets the searches answer before the input ends):\n  (printf 'nboard 2\\nset depth 4\\nset game (;GM[Othello]TY[8];)\\nhint 2\\ngo\\n'; sleep 2) | tessera nboard othello --book none"
)]
pub struct NboardArgs {
    /// The game (only othello speaks NBoard)
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Transposition table size, MiB (1..=16384)
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = super::output::tt_mib)]
    pub tt_mb: usize,
    /// Evaluation weights file (default: the built-in pattern evaluation)
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Search threads (Lazy SMP)
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Opening book: builtin (compiled in), a book file, or none [default: builtin]. `learn`
    /// adds games to FILE (created from the built-in book when it does not exist)
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
    /// An alpha-beta engine (preset, .toml or inline spec) played at the GUI's levels, with
    /// its own evaluation, MPC, table and threads [default: full width, the flags above]
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["weights", "tt_mb", "threads"])]
    pub engine: Option<String>,
}

/// Runs `tessera nboard`.
///
/// # Errors
/// A game other than Othello, or an unreadable weights file.
pub fn run(args: &NboardArgs) -> Result<ExitCode, CliError> {
    if args.game != GameId::Othello {
        return Err(CliError::input(
            "the NBoard protocol is for Othello (`tessera gtp` speaks for quixo and quixo-4p)",
        ));
    }
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let cfg = NboardConfig {
        tt_mb: args.tt_mb,
        weights: args.weights.clone(),
        threads: args.threads as usize,
        book: args.book.clone(),
        engine: args.engine.clone(),
    };
    let (server, note) = NboardServer::standard(&cfg, out)?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    server
        .run(std::io::BufReader::new(std::io::stdin()))
        .map_err(CliError::input)?;
    Ok(ExitCode::SUCCESS)
}
