//! The `tessera` command line: argument parsing (clap derive) and dispatch to one module
//! per subcommand.
//!
//! Every subcommand takes a game id first ([`GameId`]); each one matches on it, so adding
//! a game means adding a variant here and a match arm per subcommand (plus the game's
//! position loading next to [`othello`]).
//!
//! Exit codes: 0 success, 1 the work could not be finished (a `solve` stopped by its time
//! limit, an engine failure), 2 bad arguments or input (one `error: ...` line on stderr).

mod analyze;
mod bench;
mod bestmove;
mod book;
mod book_arg;
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
mod selfplay;
mod selfplay_merge;
mod selfplay_wthor;
mod serve;
mod signals;
mod solve;
mod solve_args;
mod solve_obf;
mod table_cache;
mod talat;
mod tournament;
mod tune;
mod tune_mpc;

use std::path::PathBuf;
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
    Play(play::PlayArgs),
    Tournament(tournament::TournamentArgs),
    Fairness(fairness::FairnessArgs),
    Bench(bench::BenchArgs),
    Gtp(gtp::GtpArgs),
    Nboard(nboard::NboardArgs),
    Selfplay(selfplay::SelfplayArgs),
    Tune(tune::TuneArgs),
    Book(book::BookArgs),
    Openings(openings::OpeningsArgs),
    Serve(serve::ServeArgs),
}

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
}

/// Engine settings shared by `bestmove` and `play`.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Deepest iteration, in plies (1..=60)
    #[arg(long, value_name = "N", value_parser = output::search_depth)]
    pub depth: Option<u32>,
    /// Strength level (as Edax's -l): search to depth N and, in Othello, solve exactly from
    /// 2N empties (at most 24); replaces --depth and --exact-empties
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "exact_empties"],
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// Time budget per move, milliseconds [default when no limit is given: bestmove 2000,
    /// play 1000]
    #[arg(long, value_name = "MS", value_parser = output::at_least_one_u64)]
    pub time_ms: Option<u64>,
    /// Node budget per move
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    pub nodes: Option<u64>,
    /// Transposition table size, MiB (1..=16384)
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = output::tt_mib)]
    pub tt_mb: usize,
    /// Othello alpha-beta: solve exactly (to the end of the game) at this many empty
    /// squares or fewer [default: 20]
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: Option<u32>,
    /// Evaluation weights file (text "name value [min max]" lines or a JSON object; Othello
    /// also a pattern file, builtin:patterns2 or builtin:patterns), or builtin:texel (the
    /// tuned weights in tuning/, embedded) or builtin:baseline (the hand-set defaults);
    /// default: Othello builtin:patterns2, Quixo and Talat builtin:texel
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Search algorithm: alpha-beta (two-sided games), Monte-Carlo tree search (UCT with
    /// MCTS-Solver; --tt-mb is then its node-arena budget), or a multi-player search for
    /// three-player Talat [default: alphabeta; talat: brs-plus]
    #[arg(long, value_parser = AlgoParser)]
    pub algo: Option<Algo>,
    /// MCTS: iterations (playouts) per move, all threads together [default when no limit
    /// is given: the time budget]
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    pub iterations: Option<u64>,
    /// Search threads: Lazy SMP for alpha-beta (the exact solver stays single-threaded);
    /// for MCTS, root-parallel trees with merged root statistics or one shared tree (see
    /// --mcts-parallel)
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// MCTS: how the threads share the work: root (one tree per thread, root statistics
    /// merged; with one thread the tree is kept between moves) or tree (one shared tree,
    /// lock-free, virtual loss)
    /// [default: root]
    #[arg(long, value_name = "root|tree", value_parser = mcts_parallel)]
    pub mcts_parallel: Option<tessera::search::mcts::Parallelism>,
    /// MCTS: random seed (with one thread a search is deterministic for its seed);
    /// talat-2p: also the seed of the random Djinn setup of the start position [default: 0]
    #[arg(long, value_name = "S", value_parser = output::seed)]
    pub seed: Option<u64>,
    /// MCTS: UCT exploration constant (rewards lie in [0, 1]) [default: 1]
    #[arg(long = "c", value_name = "X", value_parser = non_negative_f64)]
    pub c: Option<f64>,
    /// Othello opening book: builtin (compiled in), a book file, or none [default: none]
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
    /// Othello alpha-beta: Multi-ProbCut in the midgame search with the shipped
    /// parameters fitted with the evaluation in use (builtin: tuning/othello-mpc2.txt for
    /// format-2 weights, the default, else tuning/othello-mpc.txt), a parameter file, or
    /// off (docs/mpc.md) [default: off]
    #[arg(long, value_name = "builtin|FILE|off", value_parser = mpc_source)]
    pub mpc: Option<String>,
    /// Multi-ProbCut confidence t: a cut needs the shallow score t residual standard
    /// deviations past the bound [default: 1.5]
    #[arg(long, value_name = "T", requires = "mpc", value_parser = mpc_confidence)]
    pub mpc_t: Option<f64>,
}

/// clap value parser: an MCTS parallelism (`root` or `tree`).
pub(crate) fn mcts_parallel(text: &str) -> Result<tessera::search::mcts::Parallelism, String> {
    tessera::search::mcts::Parallelism::parse(text.trim())
}

/// clap value parser: a finite number >= 0.
fn non_negative_f64(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a finite number >= 0")),
        Err(e) => Err(format!("not a number ({e})")),
    }
}

/// clap value parser for `--mpc`: refuses an empty value, which would be read as a file
/// named "".
fn mpc_source(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("empty: give builtin, off or a parameter file".into())
    } else {
        Ok(text.to_string())
    }
}

/// clap value parser: a Multi-ProbCut confidence `t`, a number in (0, 10] (the range
/// `probcut::MpcParams::load` and engine specs accept).
fn mpc_confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 10.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a number in (0, 10]")),
        Err(e) => Err(format!("not a number ({e})")),
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

impl EngineArgs {
    /// The `--weights` path, or `default` (a `builtin:` name) when none was given.
    #[must_use]
    pub fn weights_or(&self, default: &str) -> PathBuf {
        self.weights.clone().unwrap_or_else(|| default.into())
    }

    /// The chosen algorithm (alpha-beta when none was resolved).
    pub fn algo(&self) -> Algo {
        self.algo.unwrap_or(Algo::Alphabeta)
    }

    /// `--seed`, 0 when not given.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(0)
    }

    /// `--c`, the UCT exploration constant; 1 when not given.
    pub fn c(&self) -> f64 {
        self.c.unwrap_or(1.0)
    }

    /// `--mcts-parallel`, root parallelism when not given.
    pub fn mcts_parallel(&self) -> tessera::search::mcts::Parallelism {
        self.mcts_parallel.unwrap_or_default()
    }

    /// `--exact-empties` (or the level's), Othello's default when not given.
    pub fn exact_empties(&self) -> u32 {
        self.exact_empties
            .unwrap_or(tessera::games::othello::DEFAULT_EXACT_EMPTIES)
    }

    /// These settings for game `G`: the game's default algorithm when none was given,
    /// checked against the algorithms the game has, and MCTS-only options checked.
    ///
    /// # Errors
    /// An algorithm the game does not have; `--iterations`, `--seed` (except where it sets
    /// up the position) or `--c` without `--algo mcts`.
    pub fn for_game<G: games::CliGame>(&self) -> Result<Self, output::CliError> {
        let mut out = self.clone();
        if let Some(level) = self.level {
            out.depth = Some(level);
            out.exact_empties = Some(tessera::engine::level::level_exact_empties(level));
        }
        let algo = self.algo.unwrap_or(G::ALGORITHMS[0]);
        if !G::ALGORITHMS.contains(&algo) {
            let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(output::CliError::input(format!(
                "--algo {} is not for {} (its algorithms: {})",
                algo.name(),
                G::ID,
                names.join(", ")
            )));
        }
        out.algo = Some(algo);
        if self.mpc.as_deref() == Some("off") && self.mpc_t.is_some() {
            return Err(output::CliError::input(
                "--mpc-t sets the confidence of MPC: give --mpc builtin or a parameter file too, not --mpc off",
            ));
        }
        if let Some(m) = self.mpc.as_deref().filter(|m| *m != "off") {
            if G::ID != "othello" || algo != Algo::Alphabeta {
                return Err(output::CliError::input(
                    "--mpc is for othello's alpha-beta search",
                ));
            }
            if self.level.is_some_and(|l| l < 11) {
                return Err(output::CliError::input(format!(
                    "levels below 11 search full width (no MPC, as Egaroucid): --mpc {m} needs --level 11 or more"
                )));
            }
        }
        if G::ID != "othello" && self.book.as_deref().is_some_and(|b| b != "none") {
            return Err(output::CliError::input(format!(
                "--book is for othello (there is no {} book)",
                G::ID
            )));
        }
        if algo == Algo::Mcts && out.depth.is_some() {
            return Err(output::CliError::input(
                "--depth is for alpha-beta and the multi-player searches (MCTS takes --iterations, --nodes or --time-ms)",
            ));
        }
        if algo == Algo::Mcts && self.iterations.is_some() && self.nodes.is_some() {
            return Err(output::CliError::input(
                "--iterations and --nodes are the same budget for MCTS (a node is an iteration): give one",
            ));
        }
        if algo == Algo::Mcts && self.weights.is_some() {
            return Err(output::CliError::input(
                "--weights is for the searches with an evaluation (MCTS plays random playouts)",
            ));
        }
        if G::ID != "othello" && self.exact_empties.is_some() {
            return Err(output::CliError::input(format!(
                "--exact-empties is for othello ({} has no exact endgame solver in bestmove)",
                G::ID
            )));
        }
        if algo != Algo::Alphabeta && self.exact_empties.is_some() {
            return Err(output::CliError::input(format!(
                "--exact-empties is for --algo alphabeta (the {} search does not solve endgames)",
                algo.name()
            )));
        }
        if algo != Algo::Mcts {
            let mcts_only = [
                ("--iterations", self.iterations.is_some()),
                ("--seed", self.seed.is_some() && !G::SEEDED_SETUP),
                ("--c", self.c.is_some()),
                ("--mcts-parallel", self.mcts_parallel.is_some()),
            ];
            if let Some((flag, _)) = mcts_only.iter().find(|(_, set)| *set) {
                return Err(output::CliError::input(format!(
                    "{flag} is for --algo mcts (the {} search takes --depth, --nodes or --time-ms)",
                    algo.name()
                )));
            }
        }
        if algo.multi().is_some() && self.threads != 1 {
            // Say whether the user chose the algorithm or got the game's default.
            let chosen = if self.algo.is_some() {
                format!("--algo {}", algo.name())
            } else {
                format!("{}'s default search ({})", G::ID, algo.name())
            };
            return Err(output::CliError::input(format!(
                "{chosen} searches on one thread (--threads must be 1; --algo mcts uses \
                 several)"
            )));
        }
        Ok(out)
    }

    /// The search limits; `default_time_ms` when no limit was given (for MCTS,
    /// `--iterations` is a limit too).
    pub fn limits(&self, default_time_ms: u64) -> tessera::search::Limits {
        let mut limits = tessera::search::Limits {
            depth: self.depth,
            nodes: self.nodes,
            time_ms: self.time_ms,
            stop: None,
            clock: None,
        };
        if self.depth.is_none()
            && self.nodes.is_none()
            && self.time_ms.is_none()
            && (self.algo() != Algo::Mcts || self.iterations.is_none())
        {
            limits.time_ms = Some(default_time_ms);
        }
        limits
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
    signals::install();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Bestmove(args) => bestmove::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Fairness(args) => fairness::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Nboard(args) => nboard::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    signals::settle();
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
