//! Which engine flags of `bestmove`, `play` and `analyze` go together, for a game and its
//! chosen algorithm ([`EngineArgs::for_game`]): each refusal is one line naming the flags.

use super::Algo;
use super::engine_args::EngineArgs;
use super::games::CliGame;
use super::output::CliError;

impl EngineArgs {
    /// These settings for game `G`: the game's default algorithm when none was given,
    /// checked against the algorithms the game has, and MCTS-only options checked.
    ///
    /// # Errors
    /// An algorithm the game does not have; `--iterations`, `--seed` (except where it sets
    /// up the position) or `--c` without `--algo mcts`.
    pub fn for_game<G: CliGame>(&self) -> Result<Self, CliError> {
        let mut out = self.clone();
        if let Some(text) = &self.engine {
            let mut spec = super::engine_args::resolve_engine::<G>(text)?;
            if let Some(level) = self.level {
                spec = spec
                    .with_level(level)
                    .map_err(|e| CliError::input(format!("--level {level}: {e}")))?;
            }
            if spec.algo == Algo::Mcts && (self.depth.is_some() || self.level.is_some()) {
                return Err(CliError::input(format!(
                    "--engine {text} is an MCTS engine: --depth and --level are for alpha-beta \
                     and the multi-player searches (MCTS takes --nodes or --time-ms)"
                )));
            }
            out.algo = Some(spec.algo);
            out.resolved = Some(spec);
            return Ok(out);
        }
        if let Some(level) = self.level {
            out.depth = Some(level);
            out.exact_empties = Some(tessera::engine::spec::ExactEmpties::Upto(
                tessera::engine::level::level_exact_empties(level),
            ));
        }
        let algo = self.algo.unwrap_or(G::ALGORITHMS[0]);
        if !G::ALGORITHMS.contains(&algo) {
            let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(CliError::input(format!(
                "--algo {} is not for {} (its algorithms: {})",
                algo.name(),
                G::ID,
                names.join(", ")
            )));
        }
        out.algo = Some(algo);
        check::<G>(self, algo, out.depth)?;
        Ok(out)
    }
}

/// Checks `args` for game `G` searching with `algo` (`depth`: the depth after `--level`).
///
/// # Errors
/// A flag the game or algorithm does not take, or two flags that do not go together.
fn check<G: CliGame>(args: &EngineArgs, algo: Algo, depth: Option<u32>) -> Result<(), CliError> {
    if args.mpc.as_deref() == Some("off") && args.mpc_t.is_some() {
        return Err(CliError::input(
            "--mpc-t sets the confidence of MPC: give --mpc builtin or a parameter file too, not --mpc off",
        ));
    }
    if let Some(m) = args.mpc.as_deref().filter(|m| *m != "off") {
        if G::ID != "othello" || algo != Algo::Alphabeta {
            return Err(CliError::input("--mpc is for othello's alpha-beta search"));
        }
        if args.level.is_some_and(|l| l < 11) {
            return Err(CliError::input(format!(
                "levels below 11 search full width (no MPC, as Egaroucid): --mpc {m} needs --level 11 or more"
            )));
        }
    }
    if G::ID != "othello" && args.book.as_deref().is_some_and(|b| b != "none") {
        return Err(CliError::input(format!(
            "--book is for othello (there is no {} book)",
            G::ID
        )));
    }
    if algo == Algo::Mcts && depth.is_some() {
        return Err(CliError::input(
            "--depth is for alpha-beta and the multi-player searches (MCTS takes --iterations, --nodes or --time-ms)",
        ));
    }
    if algo == Algo::Mcts && args.iterations.is_some() && args.nodes.is_some() {
        return Err(CliError::input(
            "--iterations and --nodes are the same budget for MCTS (a node is an iteration): give one",
        ));
    }
    if algo == Algo::Mcts && args.weights.is_some() {
        return Err(CliError::input(
            "--weights is for the searches with an evaluation (MCTS plays random playouts)",
        ));
    }
    if G::ID != "othello" && args.exact_empties.is_some() {
        return Err(CliError::input(format!(
            "--exact-empties is for othello ({} has no exact endgame solver in bestmove)",
            G::ID
        )));
    }
    if algo != Algo::Alphabeta && args.exact_empties.is_some() {
        return Err(CliError::input(format!(
            "--exact-empties is for --algo alphabeta (the {} search does not solve endgames)",
            algo.name()
        )));
    }
    if algo != Algo::Mcts {
        let mcts_only = [
            ("--iterations", args.iterations.is_some()),
            ("--seed", args.seed.is_some() && !G::SEEDED_SETUP),
            ("--c", args.c.is_some()),
            ("--mcts-parallel", args.mcts_parallel.is_some()),
        ];
        if let Some((flag, _)) = mcts_only.iter().find(|(_, set)| *set) {
            return Err(CliError::input(format!(
                "{flag} is for --algo mcts (the {} search takes --depth, --nodes or --time-ms)",
                algo.name()
            )));
        }
    }
    if algo.multi().is_some() && args.threads != 1 {
        // Say whether the user chose the algorithm or got the game's default.
        let chosen = if args.algo.is_some() {
            format!("--algo {}", algo.name())
        } else {
            format!("{}'s default search ({})", G::ID, algo.name())
        };
        return Err(CliError::input(format!(
            "{chosen} searches on one thread (--threads must be 1; --algo mcts uses \
             several)"
        )));
    }
    Ok(())
}
