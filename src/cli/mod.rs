//! The `tessera` command line: argument parsing (clap derive) and dispatch to one module
//! per subcommand.
//!
//! Every subcommand takes a game id first ([`GameId`]); each one matches on it, so adding
//! a game means adding a variant here and a match arm per subcommand (plus the game's
//! position loading next to [`othello`]).
//!
//! Exit codes: 0 success, 1 the work could not be finished (a `solve` stopped by its time
//! limit, an engine failure), 2 bad arguments or input (one `error: ...` line on stderr).

mod accuracy;
mod analyze;
mod bench;
mod bestmove;
mod book;
mod engine_args;
mod engines;
mod fairness;
mod games;
mod gtp;
mod nboard;
mod openings;
mod othello;
mod output;
mod perft;
mod play;
mod quixo;
mod quixo_tier;
mod selfplay;
mod serve;
mod solve;
mod solve_args;
mod solve_obf;
mod talat;
mod tournament;
mod tune;
mod validation_set;

use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// tessera: a board-game AI engine for Othello, Quixo and Talat.
#[derive(Parser, Debug)]
#[command(
    name = "tessera",
    version,
    arg_required_else_help = true,
    after_help = "Exit codes: 0 success; 1 unfinished (e.g. solve stopped by --time-ms); \
                  2 bad arguments or input.\nSee `tessera <COMMAND> --help` for each command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    // The one-line and long descriptions are on each argument struct (`about`,
    // `long_about`); a doc comment here would replace them.
    Perft(perft::PerftArgs),
    Bestmove(bestmove::BestmoveArgs),
    Analyze(analyze::AnalyzeArgs),
    Solve(solve::SolveArgs),
    Accuracy(accuracy::AccuracyArgs),
    Play(play::PlayArgs),
    Tournament(tournament::TournamentArgs),
    Fairness(fairness::FairnessArgs),
    Bench(bench::BenchArgs),
    Engines(engines::EnginesArgs),
    Gtp(gtp::GtpArgs),
    Nboard(nboard::NboardArgs),
    Selfplay(selfplay::SelfplayArgs),
    Tune(tune::TuneArgs),
    Book(book::BookArgs),
    Openings(openings::OpeningsArgs),
    Serve(serve::ServeArgs),
    ValidationSet(validation_set::ValidationSetArgs),
    QuixoTier(quixo_tier::QuixoTierArgs),
}

pub use engine_args::EngineArgs;
pub use tessera::engine::flag_values::mcts_parallel;
pub use tessera::games::GameId;

/// clap value parser for a `<GAME>` argument: the ids of [`GameId::ALL`], each with its
/// description in `--help`, and clap's "invalid value ... [possible values: ...]" otherwise.
#[derive(Clone, Copy, Debug)]
pub struct GameIdParser;

impl clap::builder::TypedValueParser for GameIdParser {
    type Value = GameId;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<GameId, clap::Error> {
        let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
        clap::builder::PossibleValuesParser::new(names)
            .parse_ref(cmd, arg, value)?
            .parse::<GameId>()
            .map_err(|_| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(GameId::ALL.into_iter().map(|g| {
            clap::builder::PossibleValue::new(g.name()).help(g.description())
        })))
    }
}

/// Where the position comes from; at most one of these (none: the start position).
#[derive(Args, Debug, Clone, Default)]
#[group(multiple = false)]
pub struct PositionArgs {
    /// Position in the game's one-line form; quote it. Othello: 64 squares a1..h8 (X Black,
    /// O White, - empty), a space, the side to move ("O--OOOOX... X"); Quixo: five rows
    /// joined by / and the side ("XXXX./...../...../...../..... X"); Talat: see docs/talat.md
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Moves played from the start position: Othello f5d6c3 (passes implied); other games
    /// space-separated, e.g. "c1-a1 e5-e1" (Quixo) or "H3@WG:c1 T1@GB:a1" (Talat)
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Problem number of the FFO endgame suite built into the binary (40..59)
    #[arg(long, value_name = "ID", value_parser = output::ffo_number)]
    pub ffo: Option<u32>,
    /// Othello: the position at the end of a GGF game (GGS / NBoard / Edax records), the
    /// file's only game or its N-th (1-based) with FILE:N
    #[arg(long, value_name = "FILE[:N]")]
    pub ggf: Option<String>,
}

impl PositionArgs {
    /// Whether no position flag was given.
    pub fn is_empty(&self) -> bool {
        self.position.is_none() && self.moves.is_none() && self.ffo.is_none() && self.ggf.is_none()
    }

    /// The flags as the library's position source.
    pub fn source(&self) -> tessera::formats::position_source::PositionSource {
        tessera::formats::position_source::PositionSource {
            position: self.position.clone(),
            moves: self.moves.clone(),
            ffo: self.ffo,
            ggf: self.ggf.clone(),
        }
    }
}

pub use tessera::engine::Algorithm as Algo;

/// clap value parser for `--algo`: the spec names of [`Algo::ALL`], each with its
/// description in `--help`.
#[derive(Clone, Copy, Debug)]
pub struct AlgoParser;

impl clap::builder::TypedValueParser for AlgoParser {
    type Value = Algo;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Algo, clap::Error> {
        let name =
            clap::builder::PossibleValuesParser::new(Algo::NAMES).parse_ref(cmd, arg, value)?;
        Algo::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Algo::ALL.into_iter().map(|a| {
            clap::builder::PossibleValue::new(a.name()).help(a.description())
        })))
    }
}

/// `cmd` with every argument that takes a value accepting a negative number as that value,
/// in every subcommand: `--threads -1` then gets the option's own range error ("-1 is not
/// in 1..=256") instead of clap's "unexpected argument '-1'" with its `-- -1` tip.
fn negative_numbers_are_values(cmd: clap::Command) -> clap::Command {
    let cmd = cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    names.iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, negative_numbers_are_values)
    })
}

/// Parses the command line, runs the command, and returns the exit code.
pub fn run() -> ExitCode {
    let parsed = negative_numbers_are_values(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return output::clap_error(&e),
    };
    tessera::engine::signals::install();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Bestmove(args) => bestmove::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Accuracy(args) => accuracy::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Fairness(args) => fairness::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Engines(args) => engines::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Nboard(args) => nboard::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::ValidationSet(args) => validation_set::run(&args),
        Command::QuixoTier(args) => quixo_tier::run(&args),
    };
    tessera::engine::signals::settle();
    match result {
        Ok(code) => code,
        Err(e) => e.report(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
