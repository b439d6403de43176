//! `tessera gtp`: tessera as a GTP engine on stdin/stdout, for GUIs and other programs
//! that speak the Go Text Protocol (Quarry, gtp-rhino's front ends, tournament managers).

use std::process::ExitCode;

use clap::Args;
use tessera::engine::protocol_flags::ProtocolFlags;
use tessera::games::{othello, quixo};
use tessera::protocol::GtpServer;
use tessera::wire::gtp::GtpGame;

use super::GameId;
use super::games::CliGame;
use super::output::{CliError, at_least_one_u64, search_depth};

/// Arguments of `tessera gtp`.
#[derive(Args, Debug)]
#[command(
    about = "Run tessera as a GTP engine on stdin/stdout (for GUIs and engine managers)",
    long_about = "Run tessera as a GTP (Go Text Protocol, version 2) engine: commands on stdin, \
                  answers on stdout, until `quit` or the end of input. Commands: \
                  protocol_version, name, version, known_command, list_commands, boardsize (8), \
                  clear_board, komi (ignored), play COLOUR VERTEX, genmove COLOUR, undo, \
                  showboard, final_score, time_settings and time_left (a clock the engine plans its moves \
                  from, as in tournaments; time_settings 0 0 0: no limit), quit. \
                  Colours are black/white (or b/w), vertices square names such as F5 or pass.\n\n\
                  A side with no move is passed for when the other colour is asked to play or \
                  move; `genmove` in a finished game answers pass.\n\nThe engine is a preset \
                  (default othello-best-t100, whose 100 ms per move a clock from time_settings or time_left \
                  replaces; quixo-ab-d4, quixo-4p-ab-d3) or an inline spec such \
                  as depth=4,exact-empties=14 or level=10; --depth and --time-ms, or --level, replace \
                  its limits.\n\n\
                  Quixo: colours x/o (four players a1, b1, a2, b2), vertices are moves such as \
                  c1-a1 (c1-a1>2 with four players), boardsize 5.",
    after_help = "Examples:\n  tessera gtp othello\n  tessera gtp othello --depth 4\n  \
                  tessera gtp othello --engine othello-ab-t100\n  \
                  tessera gtp othello --level 10\n  \
                  printf 'genmove black\\nshowboard\\nquit\\n' | tessera gtp othello --depth 2"
)]
pub struct GtpArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Engine preset name, preset file (.toml) or inline spec (key=value,...)
    #[arg(long, value_name = "PRESET_OR_INLINE")]
    pub engine: Option<String>,
    /// Depth per move, plies, 1..=60 (replaces the engine's limits)
    #[arg(long, value_name = "N", value_parser = search_depth)]
    pub depth: Option<u32>,
    /// Time per move, milliseconds (replaces the engine's limits)
    #[arg(long, value_name = "MS", value_parser = at_least_one_u64)]
    pub time_ms: Option<u64>,
    /// Strength level (as `bestmove --level` and Edax's -l): depth N and, in Othello, exact
    /// solving from 2N empties (at most 24); replaces the engine's limits
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "time_ms"],
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// Othello opening book: builtin (compiled in), a book file, or none [default: the engine
    /// spec's `book` field if it has one, else builtin]
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
}

/// Runs `tessera gtp`.
///
/// # Errors
/// An unknown or invalid engine, or an engine that cannot start.
pub fn run(args: &GtpArgs) -> Result<ExitCode, CliError> {
    match args.game {
        GameId::Othello => gtp::<othello::Position>(args),
        _ if args.book.as_deref().is_some_and(|b| b != "none") => Err(CliError::input(
            "--book is for othello (there is no quixo book)",
        )),
        GameId::Quixo => gtp::<quixo::Quixo>(args),
        GameId::Quixo4p => gtp::<quixo::Quixo4p>(args),
        GameId::Talat | GameId::Talat2p => Err(CliError::input(
            "gtp speaks for othello, quixo and quixo-4p; talat has no text protocol yet",
        )),
    }
}

fn gtp<G: CliGame + GtpGame>(args: &GtpArgs) -> Result<ExitCode, CliError> {
    let flags = ProtocolFlags {
        engine: args.engine.clone(),
        depth: args.depth,
        time_ms: args.time_ms,
        level: args.level,
        book: args.book.clone(),
    };
    let spec = flags.spec(G::ID)?;
    let player = G::make_player(&spec).map_err(|e| CliError::input(spec.named_error(&e)))?;
    let mut server = GtpServer::<G>::new(player, spec.limits());
    if let Some(l) = flags.clock_limits(&spec) {
        server = server.with_clock_limits(l);
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match server.run(stdin.lock(), stdout.lock()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The other side closed the pipe: nothing left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            Err(CliError::input(format!("gtp: {e}")))
        }
        Err(e) => Err(CliError::failure(format!("gtp: {e}"))),
    }
}
