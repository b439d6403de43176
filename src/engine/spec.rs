//! Engine specifications: a named configuration (game, algorithm, limits, table size,
//! weights file, or an external program) read from a preset file in `engines/` or given
//! inline on the command line as `name=x,depth=6`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use super::spec_error::SpecError;
use super::time_control::{SeatClock, TimeControl};
use crate::search::{Limits, MultiAlgo};

/// How an engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Negamax alpha-beta with PVS, iterative deepening and a transposition table.
    #[default]
    Alphabeta,
    /// Monte-Carlo tree search (UCT with per-seat values, MCTS-Solver, root-parallel threads).
    Mcts,
    /// Paranoid alpha-beta for games with more than two sides: the seat to move maximises
    /// its utility, all others minimise it ([`crate::search::paranoid()`]).
    Paranoid,
    /// Max-n: every seat maximises its own utility, shallow pruning when the evaluator
    /// bounds the utility sum ([`crate::search::maxn()`]).
    Maxn,
    /// Best-reply search: the opponents' moves merged into one MIN layer; only for games
    /// that implement `Game::with_turn` ([`crate::search::brs()`]).
    Brs,
    /// BRS+: best-reply search where the other opponents play their first ordered move
    /// instead of passing; any game ([`crate::search::brs_plus()`]).
    BrsPlus,
}

impl Algorithm {
    /// The spec values of `algo`, in declaration order (for error messages and help).
    pub const NAMES: &[&str] = &["alphabeta", "mcts", "paranoid", "maxn", "brs", "brs-plus"];

    /// The spec value of this algorithm (`alphabeta`, `mcts`, `paranoid`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// What the algorithm is, in a few words without a final period (the command line's
    /// help for `--algo`).
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            Self::Alphabeta => "Iterative-deepening alpha-beta (PVS) with the exact endgame solver",
            Self::Mcts => "Monte-Carlo tree search",
            Self::Paranoid => {
                "Paranoid search: the other seats minimise the searching seat's utility"
            }
            Self::Maxn => "Max-n: every seat maximises its own utility (shallow pruning)",
            Self::Brs => "Best-reply search: only the strongest reply of all opponents",
            Self::BrsPlus => "BRS+: the other opponents play their first ordered move",
        }
    }

    /// Every algorithm, in declaration order.
    pub const ALL: [Algorithm; 6] = [
        Self::Alphabeta,
        Self::Mcts,
        Self::Paranoid,
        Self::Maxn,
        Self::Brs,
        Self::BrsPlus,
    ];

    /// The multi-player search this algorithm names (`paranoid`, `maxn`, `brs`,
    /// `brs-plus`); `None` for the two-sided ones (`alphabeta`, `mcts`).
    #[must_use]
    pub fn multi(self) -> Option<MultiAlgo> {
        match self {
            Self::Alphabeta | Self::Mcts => None,
            Self::Paranoid => Some(MultiAlgo::Paranoid),
            Self::Maxn => Some(MultiAlgo::MaxN),
            Self::Brs => Some(MultiAlgo::Brs),
            Self::BrsPlus => Some(MultiAlgo::BrsPlus),
        }
    }
}

/// How tessera talks to the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Built into tessera.
    #[default]
    Builtin,
    /// An external program speaking GTP on stdin/stdout (`command` runs it).
    Gtp,
}

/// Othello's `exact-empties`: where the exact endgame solve starts.
///
/// Written as a number of empties (`exact-empties = 16`: solve at 16 empties or fewer,
/// whatever the budget) or `"auto"` (`exact-empties = "auto"`, inline `exact-empties=auto`:
/// solve as early as the solver's measured cost fits the move's budget, up to
/// [`AUTO_MAX_EMPTIES`]; see docs/time.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactEmpties {
    /// Solve at this many empties or fewer.
    Upto(u32),
    /// Solve when the expected cost fits the budget ([`crate::engine::auto_solve_plan`]).
    Auto,
}

/// The most empties an `exact-empties = "auto"` engine solves at: 24, the levels' cap
/// ([`super::level::MAX_EXACT_EMPTIES`]), beyond the positions the cost model was measured
/// on.
pub const AUTO_MAX_EMPTIES: u32 = super::level::MAX_EXACT_EMPTIES;

impl ExactEmpties {
    /// The largest number of empties the solver is used at.
    #[must_use]
    pub fn max_empties(self) -> u32 {
        match self {
            Self::Upto(n) => n,
            Self::Auto => AUTO_MAX_EMPTIES,
        }
    }
}

impl Serialize for ExactEmpties {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Upto(n) => s.serialize_u32(*n),
            Self::Auto => s.serialize_str("auto"),
        }
    }
}

impl<'de> Deserialize<'de> for ExactEmpties {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ExactEmpties;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("exact-empties: a number of empties 0..=64 or \"auto\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
                u32::try_from(v).map(ExactEmpties::Upto).map_err(|_| {
                    E::custom(format!("exact-empties must be 0..=64 or \"auto\", got {v}"))
                })
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                u32::try_from(v).map(ExactEmpties::Upto).map_err(|_| {
                    E::custom(format!("exact-empties must be 0..=64 or \"auto\", got {v}"))
                })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                if v == "auto" {
                    Ok(ExactEmpties::Auto)
                } else {
                    Err(E::custom(format!(
                        "exact-empties must be a number of empties 0..=64 or \"auto\", got '{}'",
                        crate::game::shown(v)
                    )))
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A complete engine description. Every field but `name` and `game` has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// Name shown in reports and records.
    pub name: String,
    /// Game id (`othello`).
    pub game: String,
    /// Search algorithm (built-in engines): `alphabeta` (default), `mcts`, or for games with
    /// more than two sides `paranoid`, `maxn`, `brs` or `brs-plus`.
    #[serde(default)]
    pub algo: Algorithm,
    /// Built-in or external GTP program.
    #[serde(default)]
    pub protocol: Protocol,
    /// Depth limit per move, plies.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Node limit per move.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Time limit per move, milliseconds (also the per-move timeout of external engines,
    /// with a grace period).
    #[serde(default, rename = "time-ms", alias = "time_ms")]
    pub time_ms: Option<u64>,
    /// Transposition table size, MiB.
    #[serde(default = "default_tt_mb", rename = "tt-mb", alias = "tt_mb")]
    pub tt_mb: usize,
    /// Evaluation weights file (text or JSON, see `tuning/`; or a `builtin:` name); default
    /// weights when absent.
    #[serde(default)]
    pub weights: Option<PathBuf>,
    /// Evaluation weights as values in the registry's order, taking precedence over
    /// `weights`: how SPSA builds its perturbed engines. Never read from or written to
    /// files.
    #[serde(skip)]
    pub weight_values: Option<Vec<i32>>,
    /// Othello: solve exactly at this many empties or fewer, or `auto` (as early as the
    /// solve's cost fits the budget).
    #[serde(default, rename = "exact-empties", alias = "exact_empties")]
    pub exact_empties: Option<ExactEmpties>,
    /// Othello alpha-beta: Multi-ProbCut in the midgame search, `builtin` (the shipped
    /// table fitted with the engine's evaluation: `tuning/othello-mpc2.txt` for format-2
    /// patterns, else `tuning/othello-mpc.txt`), a parameter file's path, or `off` (the default); see
    /// `docs/mpc.md`. Levels below 11 refuse it (they search full width, as Egaroucid's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpc: Option<String>,
    /// Multi-ProbCut confidence `t` (the margin is `t` residual standard deviations),
    /// in (0, 10]; default 1.5. Only with `mpc`.
    #[serde(
        default,
        rename = "mpc-t",
        alias = "mpc_t",
        skip_serializing_if = "Option::is_none"
    )]
    pub mpc_t: Option<f64>,
    /// Othello alpha-beta: the midgame search's reported score, `last` (the last finished
    /// iteration's, the default) or `mean` (the mean of the last two iterations', which
    /// cancels the odd-even effect: [`crate::engine::AlphaBetaEngine::with_odd_even_mean`]).
    /// The move played is the same either way.
    #[serde(
        default,
        rename = "odd-even",
        alias = "odd_even",
        skip_serializing_if = "Option::is_none"
    )]
    pub odd_even: Option<String>,
    /// Strength level 1..=60, as `bestmove --level N` and Edax's `-l N`: midgame depth `N`
    /// and, in Othello, exact solving from `min(2N, 24)` empties with no depth limit there
    /// ([`super::level`]). A parsed spec also carries the `depth` (and Othello's
    /// `exact-empties`) the level sets; giving either with other values is an error. An
    /// Othello level reports `odd-even = "mean"` scores unless `odd-even` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// Othello built-in engines: the opening book played before searching, `builtin` (the
    /// book compiled in, `books/othello.book`), a book file's path, or `none` (the default
    /// in specs; `gtp` and `nboard` use `--book builtin` unless told otherwise). See
    /// `docs/book.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// Quixo built-in engines: the solved tiers played from where a position has at most one
    /// blank cube, `off` (the default), `auto` (the cache's tables that are present), `on`
    /// (the cache's full-board and one-blank tables, both required) or a folder holding both
    /// (played by `engine::quixo_tables`). See `docs/quixo.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<String>,
    /// External engines: the command line (program and arguments, split on whitespace).
    #[serde(default)]
    pub command: Option<String>,
    /// MCTS: the UCT exploration constant (rewards lie in [0, 1]; default 1.0).
    #[serde(default)]
    pub c: Option<f64>,
    /// MCTS: iterations (playouts) per move, all threads together.
    #[serde(default)]
    pub iterations: Option<u64>,
    /// Search threads (default 1): Lazy SMP for alpha-beta, root-parallel trees for MCTS
    /// (or one shared tree, see `parallel`).
    #[serde(default)]
    pub threads: Option<usize>,
    /// MCTS: how the threads share the work, `root` (default: one tree per thread, root
    /// statistics merged) or `tree` (one shared tree with virtual loss).
    #[serde(default)]
    pub parallel: Option<String>,
    /// MCTS: random seed (default 0); one thread with a given seed is deterministic.
    #[serde(default)]
    pub seed: Option<u64>,
    /// MCTS: progressive-history weight W (default 0 = off; Nijssen & Winands).
    #[serde(default)]
    pub history: Option<f64>,
    /// MCTS: playout policy, `uniform` (default) or a game's own (Othello: `corners`,
    /// a corner whenever one is legal).
    #[serde(default)]
    pub playout: Option<String>,
    /// Game clock in tournaments, cutechess syntax `[MOVES/]BASE[+INC]` (seconds or
    /// `m:ss`): running out of it loses the game (`time-forfeit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Fixed time per move in tournaments, seconds; exceeding it loses the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub st: Option<f64>,
    /// Milliseconds an engine may overrun its clock (`tc` or `st`) without losing
    /// (cutechess `timemargin`; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timemargin: Option<u64>,
}

fn default_tt_mb() -> usize {
    16
}

/// Field names accepted in presets and inline specs.
pub const FIELDS: &[&str] = &[
    "name",
    "game",
    "algo",
    "protocol",
    "depth",
    "nodes",
    "time-ms",
    "tt-mb",
    "weights",
    "exact-empties",
    "mpc",
    "mpc-t",
    "odd-even",
    "level",
    "book",
    "tables",
    "command",
    "c",
    "iterations",
    "threads",
    "parallel",
    "seed",
    "history",
    "playout",
    "tc",
    "st",
    "timemargin",
];

/// Presets shipped inside the binary (the files of `engines/`), so they resolve from any
/// working directory.
const BUILTIN: &[(&str, &str)] = &[
    (
        "othello-ab-d1",
        include_str!("../../engines/othello-ab-d1.toml"),
    ),
    (
        "othello-ab-d2",
        include_str!("../../engines/othello-ab-d2.toml"),
    ),
    (
        "othello-ab-d3",
        include_str!("../../engines/othello-ab-d3.toml"),
    ),
    (
        "othello-ab-d4",
        include_str!("../../engines/othello-ab-d4.toml"),
    ),
    (
        "othello-ab-d6",
        include_str!("../../engines/othello-ab-d6.toml"),
    ),
    (
        "othello-ab-t100",
        include_str!("../../engines/othello-ab-t100.toml"),
    ),
    (
        "othello-best-t100",
        include_str!("../../engines/othello-best-t100.toml"),
    ),
    (
        "othello-pat-d4",
        include_str!("../../engines/othello-pat-d4.toml"),
    ),
    (
        "othello-pat-t100",
        include_str!("../../engines/othello-pat-t100.toml"),
    ),
    (
        "othello-pat-tm-t100",
        include_str!("../../engines/othello-pat-tm-t100.toml"),
    ),
    (
        "othello-pat-mpc-t100",
        include_str!("../../engines/othello-pat-mpc-t100.toml"),
    ),
    (
        "othello-texel-d4",
        include_str!("../../engines/othello-texel-d4.toml"),
    ),
    (
        "othello-gtp-rhino",
        include_str!("../../engines/othello-gtp-rhino.toml"),
    ),
    (
        "othello-mcts-i2000",
        include_str!("../../engines/othello-mcts-i2000.toml"),
    ),
    (
        "othello-mcts-t100",
        include_str!("../../engines/othello-mcts-t100.toml"),
    ),
    (
        "othello-mcts-corners-i2000",
        include_str!("../../engines/othello-mcts-corners-i2000.toml"),
    ),
    (
        "quixo-ab-d2",
        include_str!("../../engines/quixo-ab-d2.toml"),
    ),
    (
        "quixo-ab-d4",
        include_str!("../../engines/quixo-ab-d4.toml"),
    ),
    (
        "quixo-ab-t100",
        include_str!("../../engines/quixo-ab-t100.toml"),
    ),
    (
        "quixo-mcts-t100",
        include_str!("../../engines/quixo-mcts-t100.toml"),
    ),
    (
        "quixo-mcts-tree-t100",
        include_str!("../../engines/quixo-mcts-tree-t100.toml"),
    ),
    (
        "quixo-4p-ab-d3",
        include_str!("../../engines/quixo-4p-ab-d3.toml"),
    ),
    (
        "quixo-4p-mcts-i2000",
        include_str!("../../engines/quixo-4p-mcts-i2000.toml"),
    ),
    (
        "talat-2p-ab-t100",
        include_str!("../../engines/talat-2p-ab-t100.toml"),
    ),
    (
        "talat-2p-mcts-t100",
        include_str!("../../engines/talat-2p-mcts-t100.toml"),
    ),
    (
        "talat-brs-plus-t100",
        include_str!("../../engines/talat-brs-plus-t100.toml"),
    ),
    (
        "talat-brs-plus-t25",
        include_str!("../../engines/talat-brs-plus-t25.toml"),
    ),
    (
        "talat-brs-t100",
        include_str!("../../engines/talat-brs-t100.toml"),
    ),
    (
        "talat-brs-t25",
        include_str!("../../engines/talat-brs-t25.toml"),
    ),
    (
        "talat-maxn-t100",
        include_str!("../../engines/talat-maxn-t100.toml"),
    ),
    (
        "talat-maxn-t25",
        include_str!("../../engines/talat-maxn-t25.toml"),
    ),
    (
        "talat-mcts-t100",
        include_str!("../../engines/talat-mcts-t100.toml"),
    ),
    (
        "talat-mcts-t25",
        include_str!("../../engines/talat-mcts-t25.toml"),
    ),
    (
        "talat-paranoid-t100",
        include_str!("../../engines/talat-paranoid-t100.toml"),
    ),
    (
        "talat-paranoid-t25",
        include_str!("../../engines/talat-paranoid-t25.toml"),
    ),
    (
        "quixo-texel-d4",
        include_str!("../../engines/quixo-texel-d4.toml"),
    ),
    (
        "quixo-texel-t100",
        include_str!("../../engines/quixo-texel-t100.toml"),
    ),
    (
        "quixo-4p-texel-d3",
        include_str!("../../engines/quixo-4p-texel-d3.toml"),
    ),
    (
        "talat-2p-ab-d4",
        include_str!("../../engines/talat-2p-ab-d4.toml"),
    ),
    (
        "talat-2p-texel-d4",
        include_str!("../../engines/talat-2p-texel-d4.toml"),
    ),
    (
        "talat-2p-texel-t100",
        include_str!("../../engines/talat-2p-texel-t100.toml"),
    ),
    (
        "talat-brs-plus-d4",
        include_str!("../../engines/talat-brs-plus-d4.toml"),
    ),
    (
        "talat-brs-plus-texel-d4",
        include_str!("../../engines/talat-brs-plus-texel-d4.toml"),
    ),
    (
        "talat-brs-plus-texel-t100",
        include_str!("../../engines/talat-brs-plus-texel-t100.toml"),
    ),
];

/// Defaults that depend on the game: three-player `talat` has no alpha-beta (two-sided),
/// so a spec without `algo` gets its strongest multi-player search, `brs-plus`.
fn game_defaults(table: &mut toml::Table) {
    if table.get("game").and_then(toml::Value::as_str) == Some("talat") {
        table
            .entry("algo")
            .or_insert_with(|| toml::Value::String("brs-plus".into()));
    }
}

impl EngineSpec {
    /// The MCTS settings of this specification: `c`, `iterations`, `threads` (default 1),
    /// `parallel` (default root), `seed` (default 0), `history` and `tt-mb` as the
    /// node-arena budget; the rest default.
    #[must_use]
    pub fn mcts_config(&self) -> crate::search::mcts::MctsConfig {
        use crate::search::mcts::{MctsConfig, Parallelism};
        let d = MctsConfig::default();
        let parallel = self
            .parallel
            .as_deref()
            .and_then(|p| Parallelism::parse(p).ok())
            .unwrap_or_default();
        MctsConfig {
            c: self.c.unwrap_or(d.c),
            iterations: self.iterations,
            threads: self.threads.unwrap_or(1),
            parallel,
            seed: self.seed.unwrap_or(0),
            max_nodes: MctsConfig::nodes_for_mib(self.tt_mb, parallel),
            history: self.history.unwrap_or(d.history),
            ..d
        }
    }

    /// The evaluation weights this specification asks for: its `weight_values` (checked
    /// against the registry), else its `weights` file (`W::load`), else the defaults.
    ///
    /// # Errors
    /// Values of the wrong count or out of range, or an unreadable or bad weights file.
    pub fn eval_weights<W: crate::game::params::WeightsFile>(&self) -> Result<W, String> {
        if let Some(v) = &self.weight_values {
            return W::from_values(v.clone());
        }
        match &self.weights {
            Some(path) => W::load(path),
            None => Ok(W::default()),
        }
    }

    /// Checks that this engine plays `game`. (A spec may name any game id, a library
    /// user's own game too; it is checked against the game it is used for here.)
    ///
    /// # Errors
    /// `engine 'NAME' plays OTHER, not GAME`; `engine 'NAME': unknown game 'OTHER' (games:
    /// ...)` when OTHER is no game of tessera's ([`SpecError::UnknownGame`] in
    /// [`SpecError::InEngine`]).
    pub fn expect_game(&self, game: &str) -> Result<(), SpecError> {
        if self.game == game {
            Ok(())
        } else if self.game.parse::<crate::games::GameId>().is_err() {
            Err(SpecError::InEngine {
                name: self.name.clone(),
                source: Box::new(SpecError::UnknownGame {
                    game: self.game.clone(),
                }),
            })
        } else {
            Err(SpecError::WrongGame {
                engine: self.name.clone(),
                plays: self.game.clone(),
                wanted: game.to_string(),
            })
        }
    }

    /// The error for a multi-player search (`paranoid`, `maxn`, `brs`, `brs-plus`) asked
    /// of a two-sided game.
    #[must_use]
    pub fn two_sided_refusal(&self, game: &str) -> String {
        format!(
            "engine '{}': algo {} is a multi-player search; {game} has two sides (use alphabeta or mcts)",
            self.name,
            self.algo.name()
        )
    }

    /// Parses a preset file's TOML text; `origin` names it in errors.
    ///
    /// # Errors
    /// One line naming `origin` and the bad field (unknown fields list the valid ones).
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, SpecError> {
        let in_preset = |e: SpecError| SpecError::InPreset {
            origin: origin.to_string(),
            source: Box::new(e),
        };
        let table: toml::Table = toml::from_str(text).map_err(|e: toml::de::Error| {
            let mut msg = e.message().replace('\n', " ");
            // The line of a syntax error, counted from 1.
            let line = e
                .span()
                .map(|r| text[..r.start.min(text.len())].matches('\n').count() + 1);
            // "duplicate key" without the key: the span holds it.
            if msg == "duplicate key"
                && let Some(key) = e.span().and_then(|r| text.get(r)).map(str::trim)
            {
                msg = format!("duplicate key `{key}`");
            }
            in_preset(SpecError::Syntax { line, message: msg })
        })?;
        let mut spec = Self::from_table(table).map_err(in_preset)?;
        spec.validate().map_err(in_preset)?;
        spec.apply_level();
        Ok(spec)
    }

    /// The spec of a parsed preset or inline table (before [`EngineSpec::validate`]): the
    /// game's defaults filled in, a negative integer refused by name, and a type error said
    /// with its field in plain words ("depth: invalid type: string "two", expected a whole
    /// number"; serde names neither the field nor a user's type).
    ///
    /// # Errors
    /// One line without the origin, which the caller prefixes.
    fn from_table(mut table: toml::Table) -> Result<Self, SpecError> {
        for (k, v) in &table {
            if let toml::Value::Integer(n) = v
                && *n < 0
            {
                return Err(SpecError::bad(
                    k,
                    format!("{k} cannot be negative, got {n}"),
                ));
            }
        }
        game_defaults(&mut table);
        table.clone().try_into().map_err(|e: toml::de::Error| {
            let mut msg = e.message().replace('\n', " ");
            for (rust, plain) in [
                ("expected u32", "expected a whole number"),
                ("expected u64", "expected a whole number"),
                ("expected usize", "expected a whole number"),
                ("expected f64", "expected a number"),
            ] {
                msg = msg.replace(rust, plain);
            }
            // serde's "unknown field `x`, expected one of ..." lists the underscore spellings
            // too; keep the field and list the valid fields once.
            if msg.starts_with("unknown field")
                && let Some(i) = msg.find(", expected")
            {
                msg.truncate(i);
            }
            // The key serde quotes in `unknown field `x`` and `missing field `x``.
            let quoted = || msg.split('`').nth(1).unwrap_or_default().to_string();
            match type_error_field(&table, &msg) {
                Some(k) => SpecError::BadValue {
                    message: format!("{k}: {msg}"),
                    key: Some(k),
                },
                None if msg.starts_with("unknown field") => SpecError::UnknownKey {
                    key: quoted(),
                    message: format!("{msg} (valid fields: {})", FIELDS.join(", ")),
                },
                None if msg.starts_with("missing field") => SpecError::MissingKey {
                    key: quoted(),
                    message: format!("{msg} (valid fields: {})", FIELDS.join(", ")),
                },
                None => SpecError::BadValue {
                    key: None,
                    message: format!("{msg} (valid fields: {})", FIELDS.join(", ")),
                },
            }
        })
    }

    /// Parses an inline spec `key=value,key=value` (e.g. `name=x,game=othello,depth=6`).
    /// `game` defaults to `default_game`, `name` to the spec text itself.
    ///
    /// # Errors
    /// One line naming the bad part; unknown keys list the valid ones.
    pub fn from_inline(text: &str, default_game: &str) -> Result<Self, SpecError> {
        let in_inline = |e: SpecError| SpecError::InInline {
            text: text.to_string(),
            source: Box::new(e),
        };
        let mut table = Self::inline_table(text).map_err(in_inline)?;
        table
            .entry("game")
            .or_insert_with(|| toml::Value::String(default_game.to_string()));
        table
            .entry("name")
            .or_insert_with(|| toml::Value::String(text.to_string()));
        let mut spec = Self::from_table(table).map_err(in_inline)?;
        spec.validate().map_err(in_inline)?;
        spec.apply_level();
        Ok(spec)
    }

    /// The table of an inline spec's `key=value` parts, each value typed by its key.
    fn inline_table(text: &str) -> Result<toml::Table, SpecError> {
        let mut table = toml::Table::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| SpecError::Syntax {
                line: None,
                message: format!(
                    "'{part}' is not key=value (valid keys: {})",
                    FIELDS.join(", ")
                ),
            })?;
            let k = k.trim().replace('_', "-");
            if !FIELDS.contains(&k.as_str()) {
                return Err(SpecError::UnknownKey {
                    message: format!("unknown field '{k}' (valid fields: {})", FIELDS.join(", ")),
                    key: k,
                });
            }
            let v = v.trim();
            let value = match k.as_str() {
                "c" | "history" | "st" | "mpc-t" => {
                    toml::Value::Float(v.parse::<f64>().map_err(|_| {
                        SpecError::bad(&k, format!("{k} must be a number, got '{v}'"))
                    })?)
                }
                "exact-empties" if v == "auto" => toml::Value::String(v.to_string()),
                "depth" | "nodes" | "time-ms" | "tt-mb" | "exact-empties" | "level"
                | "iterations" | "threads" | "seed" | "timemargin" => {
                    toml::Value::Integer(v.parse::<i64>().map_err(|_| {
                        SpecError::bad(
                            &k,
                            if v.parse::<u128>().is_ok() {
                                format!("{k} {v} is too large (at most {})", i64::MAX)
                            } else if k == "exact-empties" {
                                format!("{k} must be a whole number or auto, got '{v}'")
                            } else {
                                format!("{k} must be a whole number, got '{v}'")
                            },
                        )
                    })?)
                }
                _ => toml::Value::String(v.to_string()),
            };
            if table.insert(k.clone(), value).is_some() {
                return Err(SpecError::DuplicateKey { key: k });
            }
        }
        Ok(table)
    }

    /// Resolves a preset by name or path: a path ending in `.toml` is read as is; a name is
    /// looked up as `engines/NAME.toml` under the working directory, then among the presets
    /// built into the binary.
    ///
    /// # Errors
    /// An empty or unknown name (listing the known presets), a folder, or an unreadable /
    /// invalid file.
    pub fn resolve(name_or_path: &str) -> Result<Self, SpecError> {
        if name_or_path.trim().is_empty() {
            return Err(SpecError::UnknownEngine {
                name: name_or_path.to_string(),
                message: "the engine name is empty (`tessera engines` lists the presets)".into(),
            });
        }
        let not_a_preset = |folder| SpecError::NotAPreset {
            path: name_or_path.to_string(),
            folder,
        };
        if name_or_path.ends_with(".toml") || name_or_path.contains('/') {
            if Path::new(name_or_path).is_dir() {
                return Err(not_a_preset(true));
            }
            let text = crate::game::files::read_text(
                Path::new(name_or_path),
                "engine preset",
                crate::game::files::MIB,
            )?;
            return Self::from_toml(&text, name_or_path).map_err(|e| {
                if name_or_path.ends_with(".toml") {
                    e
                } else {
                    not_a_preset(false)
                }
            });
        }
        let local = Path::new("engines").join(format!("{name_or_path}.toml"));
        if local.is_file() {
            let text =
                crate::game::files::read_text(&local, "engine preset", crate::game::files::MIB)?;
            return Self::from_toml(&text, &local.display().to_string());
        }
        if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Self::from_toml(text, name_or_path);
        }
        if let Some(spec) = Self::level_preset(name_or_path) {
            return spec;
        }
        if Path::new(name_or_path).exists() {
            return Err(not_a_preset(Path::new(name_or_path).is_dir()));
        }
        Err(SpecError::UnknownEngine {
            name: name_or_path.to_string(),
            message: format!(
                "unknown engine '{name_or_path}' (known presets: {}, othello-level-1 .. othello-level-60; or give a path to a .toml file)",
                Self::known_presets().join(", ")
            ),
        })
    }

    /// The level family `othello-level-N` (N = 1..=60): the built-in alpha-beta engine with
    /// the pattern evaluation at level N and a 64 MiB table, as `bestmove --level N`.
    /// `None` when the name is not of that family; an error for a level out of range.
    fn level_preset(name: &str) -> Option<Result<Self, SpecError>> {
        let n = name.strip_prefix("othello-level-")?;
        // Only the canonical spelling: "othello-level-03" or "-+3" would be the same engine
        // under another name, passing the check that a name is used once.
        let canonical = |level: u32| level.to_string() == n;
        Some(match n.parse::<u32>() {
            Ok(level) if (1..=Limits::MAX_DEPTH).contains(&level) && canonical(level) => {
                Self::from_toml(
                    &format!(
                        "name = \"{name}\"\ngame = \"othello\"\nlevel = {level}\ntt-mb = 64\n"
                    ),
                    name,
                )
            }
            _ => Err(SpecError::UnknownEngine {
                name: name.to_string(),
                message: format!(
                    "unknown engine '{name}': the level presets are othello-level-1 .. othello-level-{}",
                    Limits::MAX_DEPTH
                ),
            }),
        })
    }

    /// The engine an `--engine TEXT` argument names: an inline spec (for `default_game`)
    /// when the text has a `=`, else a preset name or `.toml` file ([`EngineSpec::resolve`]).
    ///
    /// # Errors
    /// As [`EngineSpec::from_inline`] and [`EngineSpec::resolve`].
    pub fn from_arg(text: &str, default_game: &str) -> Result<Self, SpecError> {
        if text.contains('=') {
            Self::from_inline(text, default_game)
        } else {
            Self::resolve(text)
        }
    }

    /// This engine with its per-move limits replaced by `depth`, `time_ms` and `nodes` (as
    /// `gtp --depth/--time-ms` and `bestmove --engine ... --depth` do): its level and clocks
    /// are dropped too.
    #[must_use]
    pub fn with_limits(
        mut self,
        depth: Option<u32>,
        time_ms: Option<u64>,
        nodes: Option<u64>,
    ) -> Self {
        self.depth = depth;
        self.time_ms = time_ms;
        self.nodes = nodes;
        self.level = None;
        self.tc = None;
        self.st = None;
        self
    }

    /// This engine at strength `level` (1..=60) in place of its limits: depth, nodes, time
    /// and exact-empties are replaced by what the level sets (as `gtp --level`).
    ///
    /// # Errors
    /// A level out of range, or an engine that has no levels (MCTS, external programs).
    pub fn with_level(mut self, level: u32) -> Result<Self, SpecError> {
        self.level = Some(level);
        self.depth = None;
        self.nodes = None;
        self.time_ms = None;
        self.exact_empties = None;
        self.validate().map_err(|e| SpecError::InEngine {
            name: self.name.clone(),
            source: Box::new(e),
        })?;
        self.apply_level();
        Ok(self)
    }

    /// Sets the `depth` (and Othello's `exact-empties`) that `level` stands for; called
    /// once the spec is valid.
    fn apply_level(&mut self) {
        if let Some(level) = self.level {
            self.depth = Some(level);
            if self.game == "othello" {
                self.exact_empties =
                    Some(ExactEmpties::Upto(super::level::level_exact_empties(level)));
                // As `bestmove --level N`: the default evaluation unless weights are named
                // (level engines played the baseline evaluation before).
                if self.weights.is_none() && self.weight_values.is_none() {
                    self.weights = Some(crate::games::othello::eval::DEFAULT_WEIGHTS.into());
                }
                // And it reports its score as `bestmove --level N` does (the front end's
                // default, `othello-best-t100`): the mean of the last two iterations'.
                if self.odd_even.is_none() && self.algo == Algorithm::Alphabeta {
                    self.odd_even = Some("mean".into());
                }
            }
        }
    }

    /// The engine the front ends (`bestmove`, `play`, `analyze`, the page's hints) use for
    /// `game` when no engine is named, before their flags change it: the game's strongest
    /// configuration with no limits of its own. Othello: the `othello-best-t100` preset
    /// without its time limit (format-2 patterns `builtin:patterns2`, Multi-ProbCut
    /// `builtin` at t = 1.0), one definition with the preset, except that it solves exactly
    /// from a fixed 20 empties rather than `auto` (which plans for one move's clock); Quixo
    /// and Talat: the game's default algorithm with `builtin:texel`.
    ///
    /// # Errors
    /// An unknown game id.
    pub fn front_end_default(game: &str) -> Result<Self, SpecError> {
        let mut spec = match game {
            "othello" => {
                let text = Self::builtin_preset_text("othello-best-t100").ok_or_else(|| {
                    SpecError::UnknownEngine {
                        name: "othello-best-t100".into(),
                        message: "the built-in preset othello-best-t100 is missing".into(),
                    }
                })?;
                let mut spec =
                    Self::from_toml(text, "othello-best-t100")?.with_limits(None, None, None);
                // `auto` plans its solve for one move's clock; `analyze` splits a budget
                // over every move and `bestmove` reports its partial solves, where a fixed
                // 20 keeps the quick midgame search first (`--exact-empties auto` to plan).
                spec.exact_empties = Some(ExactEmpties::Upto(
                    crate::games::othello::DEFAULT_EXACT_EMPTIES,
                ));
                spec
            }
            "quixo" | "quixo-4p" | "talat" | "talat-2p" => {
                Self::from_inline("weights=builtin:texel", game)?
            }
            other => {
                return Err(SpecError::UnknownGame {
                    game: other.to_string(),
                });
            }
        };
        spec.name = "tessera".to_string();
        Ok(spec)
    }

    /// This spec searching full width: no Multi-ProbCut (how a level plays, as
    /// Egaroucid's below 11: `bestmove --level`, NBoard's `set depth`, Python's `level`).
    #[must_use]
    pub fn full_width(mut self) -> Self {
        self.mpc = None;
        self.mpc_t = None;
        self
    }

    /// The preset file text of a built-in preset (`None` for other names).
    #[must_use]
    pub fn builtin_preset_text(name: &str) -> Option<&'static str> {
        BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// Names of the presets in `engines/` (working directory) and built in, sorted.
    #[must_use]
    pub fn known_presets() -> Vec<String> {
        let mut names: Vec<String> = BUILTIN.iter().map(|(n, _)| (*n).to_string()).collect();
        if let Ok(dir) = std::fs::read_dir("engines") {
            for e in dir.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "toml")
                    && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                {
                    names.push(stem.to_string());
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }

    fn validate(&self) -> Result<(), SpecError> {
        if self.name.trim().is_empty() {
            return bad("name", "name is empty".into());
        }
        if let Some(d) = self.depth
            && !(1..=Limits::MAX_DEPTH).contains(&d)
        {
            return bad(
                "depth",
                format!("depth must be in 1..={} plies, got {d}", Limits::MAX_DEPTH),
            );
        }
        if self.tt_mb == 0 || self.tt_mb > 16_384 {
            return bad(
                "tt-mb",
                format!("tt-mb must be 1..=16384, got {}", self.tt_mb),
            );
        }
        // As `bestmove --time-ms 0` and `--nodes 0`: a zero budget is a mistake, not "no
        // limit" (it was accepted and the engine played on its minimum anyway).
        if self.time_ms == Some(0) {
            return bad("time-ms", "time-ms must be at least 1, got 0".into());
        }
        if self.nodes == Some(0) {
            return bad("nodes", "nodes must be at least 1, got 0".into());
        }
        if let Some(c) = self.c
            && !(c.is_finite() && c >= 0.0)
        {
            return bad("c", format!("c must be a finite number >= 0, got {c}"));
        }
        if let Some(ExactEmpties::Upto(e)) = self.exact_empties
            && e > 64
        {
            return bad(
                "exact-empties",
                format!("exact-empties must be 0..=64, got {e}"),
            );
        }
        if let Some(level) = self.level {
            if !(1..=Limits::MAX_DEPTH).contains(&level) {
                return bad(
                    "level",
                    format!("level must be in 1..={}, got {level}", Limits::MAX_DEPTH),
                );
            }
            if self.algo == Algorithm::Mcts || self.protocol != Protocol::Builtin {
                return conflict(
                    "level is for the built-in depth-limited searches (alphabeta and the multi-player ones), not MCTS or external engines"
                        .into(),
                );
            }
            if self.depth.is_some_and(|d| d != level) {
                return conflict(format!(
                    "level {level} sets depth {level}: give level or depth, not both"
                ));
            }
            let exact = super::level::level_exact_empties(level);
            if self
                .exact_empties
                .is_some_and(|e| e != ExactEmpties::Upto(exact) || self.game != "othello")
            {
                return conflict(format!(
                    "level {level} sets exact-empties {exact}: give level or exact-empties, not both"
                ));
            }
        }
        if self.algo == Algorithm::Mcts && (self.depth.is_some() || self.exact_empties.is_some()) {
            return conflict("depth and exact-empties are for algo = \"alphabeta\" (MCTS takes iterations, nodes or time-ms)".into());
        }
        if self.algo == Algorithm::Mcts && self.weights.is_some() {
            return conflict(
                "weights are for the searches with an evaluation (MCTS plays random playouts)"
                    .into(),
            );
        }
        if let Some(m) = self.algo.multi() {
            if self.exact_empties.is_some() {
                return conflict(format!(
                    "exact-empties is only for algo = \"alphabeta\", not {m}"
                ));
            }
            if self.threads.is_some_and(|t| t != 1) {
                return conflict(format!("{m} searches on one thread (threads must be 1)"));
            }
        }
        if self.exact_empties.is_some() && self.game != "othello" {
            return conflict(format!(
                "exact-empties is for othello (its exact endgame solver), not {}",
                self.game
            ));
        }
        if let Some(h) = self.history
            && !(h.is_finite() && h >= 0.0)
        {
            return bad(
                "history",
                format!("history must be a finite number >= 0, got {h}"),
            );
        }
        if let Some(p) = &self.parallel {
            crate::search::mcts::Parallelism::parse(p)
                .map_err(|e| SpecError::bad("parallel", format!("parallel: {e}")))?;
        }
        if let Some(p) = &self.playout {
            let valid: &[&str] = match self.game.as_str() {
                "othello" => &["uniform", "corners"],
                "quixo" | "quixo-4p" => &["uniform", "wins"],
                _ => &["uniform"],
            };
            if !valid.contains(&p.as_str()) {
                return bad(
                    "playout",
                    format!(
                        "unknown playout '{p}' for {} (valid: {})",
                        self.game,
                        valid.join(", ")
                    ),
                );
            }
        }
        if self.iterations == Some(0) {
            return bad("iterations", "iterations must be at least 1".into());
        }
        if let Some(st) = self.st
            && !(st.is_finite() && st > 0.0 && st <= 86_400.0)
        {
            return bad(
                "st",
                format!("st must be more than 0 and at most 86400 seconds, got {st}"),
            );
        }
        if self.st.is_some() && self.tc.is_some() {
            return conflict("give tc (a game clock) or st (a time per move), not both".into());
        }
        if self.timemargin.is_some() && self.st.is_none() && self.tc.is_none() {
            return conflict("timemargin needs a clock (tc or st)".into());
        }
        if self.timemargin.is_some_and(|m| m > 3_600_000) {
            return bad("timemargin", "timemargin must be at most 3600000 ms".into());
        }
        if let Some(t) = self.threads
            && !(1..=256).contains(&t)
        {
            return bad("threads", format!("threads must be 1..=256, got {t}"));
        }
        self.validate_mpc()?;
        self.validate_odd_even()?;
        self.validate_book()?;
        self.validate_tables()?;
        let mcts_field = [
            ("c", self.c.is_some()),
            ("iterations", self.iterations.is_some()),
            ("seed", self.seed.is_some()),
            ("history", self.history.is_some()),
            ("playout", self.playout.is_some()),
            ("parallel", self.parallel.is_some()),
        ]
        .into_iter()
        .find(|(_, set)| *set);
        if let Some((field, _)) = mcts_field
            && (self.algo != Algorithm::Mcts || self.protocol != Protocol::Builtin)
        {
            return conflict(format!("{field} is only for algo = \"mcts\""));
        }
        match self.protocol {
            Protocol::Gtp if self.command.as_deref().is_none_or(|c| c.trim().is_empty()) => {
                conflict("protocol gtp needs a command".into())
            }
            Protocol::Builtin if self.command.is_some() => {
                conflict("command is only for protocol = \"gtp\"".into())
            }
            _ => Ok(()),
        }
    }

    /// Checks `mpc` and `mpc-t`: Othello's built-in alpha-beta only, `t` in (0, 10], `mpc-t`
    /// only with MPC on, and no MPC at levels below 11.
    fn validate_mpc(&self) -> Result<(), SpecError> {
        if self.mpc.is_none() && self.mpc_t.is_none() {
            return Ok(());
        }
        if self.game != "othello"
            || self.algo != Algorithm::Alphabeta
            || self.protocol != Protocol::Builtin
        {
            return conflict(format!(
                "mpc and mpc-t are for othello's built-in alphabeta, not {} {}",
                self.game,
                self.algo.name()
            ));
        }
        if let Some(t) = self.mpc_t
            && !(t.is_finite() && t > 0.0 && t <= 10.0)
        {
            return bad(
                "mpc-t",
                format!("mpc-t must be a number in (0, 10], got {t}"),
            );
        }
        match self.mpc.as_deref() {
            None | Some("off") if self.mpc_t.is_some() => conflict(
                "mpc-t sets the confidence of MPC: give mpc = \"builtin\" or a file too".into(),
            ),
            Some("") => bad(
                "mpc",
                "mpc is empty: give builtin, off or a parameter file".into(),
            ),
            Some(m) if m != "off" && self.level.is_some_and(|l| l < 11) => conflict(format!(
                "levels below 11 search full width (no MPC, as Egaroucid): mpc = \"{m}\" needs level 11 or more, or no level"
            )),
            _ => Ok(()),
        }
    }

    /// Checks `odd-even`: `last` or `mean`, and only for Othello's built-in alphabeta.
    fn validate_odd_even(&self) -> Result<(), SpecError> {
        match self.odd_even.as_deref() {
            None => Ok(()),
            Some("last" | "mean")
                if self.game == "othello"
                    && self.algo == Algorithm::Alphabeta
                    && self.protocol == Protocol::Builtin =>
            {
                Ok(())
            }
            Some("last" | "mean") => conflict(format!(
                "odd-even is for othello's built-in alphabeta, not {} {}",
                self.game,
                self.algo.name()
            )),
            Some(other) => bad(
                "odd-even",
                format!("odd-even must be last or mean, got '{other}'"),
            ),
        }
    }

    /// Whether the engine reports the mean of its last two iterations' scores
    /// (`odd-even = "mean"`).
    #[must_use]
    pub fn odd_even_mean(&self) -> bool {
        self.odd_even.as_deref() == Some("mean")
    }

    /// Checks `book`: not empty, and only for Othello's built-in engines (an external
    /// program plays its own book).
    fn validate_book(&self) -> Result<(), SpecError> {
        match self.book.as_deref() {
            None | Some("none") => Ok(()),
            Some("") => bad(
                "book",
                "book is empty: give builtin, none or a book file".into(),
            ),
            Some(_) if self.game != "othello" => conflict(format!(
                "book is for othello (its opening book), not {}",
                self.game
            )),
            Some(_) if self.protocol != Protocol::Builtin => conflict(
                "book is for the built-in engines (an external program plays its own)".into(),
            ),
            Some(_) => Ok(()),
        }
    }

    /// Checks `tables`: a valid setting, and only for Quixo's (two-player) built-in engines.
    fn validate_tables(&self) -> Result<(), SpecError> {
        let Some(t) = self.tables.as_deref() else {
            return Ok(());
        };
        super::tables_setting::TablesSetting::parse(t).map_err(|e| SpecError::bad("tables", e))?;
        if t == "off" {
            Ok(())
        } else if self.game != "quixo" {
            conflict(format!(
                "tables is for quixo (its solved tiers), not {}",
                self.game
            ))
        } else if self.protocol != Protocol::Builtin {
            conflict(
                "tables is for the built-in engines (an external program plays its own)".into(),
            )
        } else {
            Ok(())
        }
    }

    /// The opening book this spec plays from (`builtin` or a file), `None` when off.
    #[must_use]
    pub fn book_source(&self) -> Option<&str> {
        self.book.as_deref().filter(|b| *b != "none")
    }

    /// `err` (from building or running this engine) prefixed with `engine 'NAME': `, unless
    /// it already starts with the engine's name (an external engine names itself).
    #[must_use]
    pub fn named_error(&self, err: &str) -> String {
        let prefix = format!("engine '{}'", self.name);
        if err.starts_with(&prefix) {
            err.to_string()
        } else {
            format!("{prefix}: {err}")
        }
    }

    /// The Multi-ProbCut source this spec turns on (`builtin` or a file), `None` when off.
    #[must_use]
    pub fn mpc_source(&self) -> Option<&str> {
        self.mpc.as_deref().filter(|m| *m != "off")
    }

    /// The tournament clock of this engine (`tc` or `st`, with `timemargin`), if it has one.
    #[must_use]
    pub fn seat_clock(&self) -> Option<SeatClock> {
        let margin = self.timemargin.unwrap_or(0);
        match (self.tc, self.st) {
            (Some(tc), _) => Some(SeatClock::game(tc, margin)),
            (None, Some(st)) => Some(SeatClock::per_move((st * 1000.0).round() as u64, margin)),
            (None, None) => None,
        }
    }

    /// The per-move search limits of this engine (none set, and no clock: depth 6 for
    /// alpha-beta and the multi-player searches; MCTS counts its `iterations` in the engine
    /// and ignores depth). A clock (`tc`, `st`) is added per move by the tournament.
    #[must_use]
    pub fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            time_ms: self.time_ms,
            stop: None,
            clock: None,
        };
        if (self.algo == Algorithm::Alphabeta || self.algo.multi().is_some())
            && l.depth.is_none()
            && l.nodes.is_none()
            && l.time_ms.is_none()
            && self.tc.is_none()
            && self.st.is_none()
        {
            l.depth = Some(6);
        }
        l
    }
}

/// `Err` of a [`SpecError::BadValue`] of `key` (for the checks of [`EngineSpec::validate`]).
fn bad<T>(key: &str, message: String) -> Result<T, SpecError> {
    Err(SpecError::bad(key, message))
}

/// `Err` of a [`SpecError::Conflict`] (for the checks of [`EngineSpec::validate`]).
fn conflict<T>(message: String) -> Result<T, SpecError> {
    Err(SpecError::conflict(message))
}

/// The field of `table` whose value makes deserialising an [`EngineSpec`] fail with `msg`
/// (serde names the expected type, not the field): the field without which the spec
/// parses, or only misses that field. `None` for a missing or unknown field (serde names
/// it already) and when no single field does.
fn type_error_field(table: &toml::Table, msg: &str) -> Option<String> {
    if msg.starts_with("missing field") || msg.starts_with("unknown field") {
        return None;
    }
    table.keys().find_map(|k| {
        let mut t = table.clone();
        t.remove(k);
        // Without it the spec parses, or only misses it (a required field's bad value).
        match t.try_into::<EngineSpec>() {
            Ok(_) => Some(k.clone()),
            Err(e) => (e.message().trim() == format!("missing field `{k}`")).then(|| k.clone()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_presets_parse() {
        for (name, text) in BUILTIN {
            let s = EngineSpec::from_toml(text, name).unwrap();
            assert_eq!(&s.name, name);
            // Preset names start with their game id: othello-..., quixo-..., quixo-4p-...
            let rest = name.strip_prefix(s.game.as_str()).unwrap_or_default();
            assert!(rest.starts_with('-'), "{name} plays {}", s.game);
            assert_eq!(
                name.starts_with("quixo-4p-"),
                s.game == "quixo-4p",
                "{name}"
            );
        }
        assert_eq!(EngineSpec::resolve("othello-ab-d6").unwrap().depth, Some(6));
        let m = EngineSpec::resolve("othello-mcts-i2000").unwrap();
        assert_eq!((m.algo, m.iterations), (Algorithm::Mcts, Some(2000)));
        let m = EngineSpec::resolve("othello-mcts-t100").unwrap();
        assert_eq!((m.algo, m.time_ms), (Algorithm::Mcts, Some(100)));
    }

    #[test]
    fn mcts_inline_specs() {
        let s = EngineSpec::from_inline(
            "name=m,algo=mcts,c=0.7,iterations=500,threads=2,seed=9",
            "othello",
        )
        .unwrap();
        assert_eq!(
            (s.algo, s.c, s.iterations, s.threads, s.seed),
            (Algorithm::Mcts, Some(0.7), Some(500), Some(2), Some(9))
        );
        assert_eq!(s.limits().depth, None);
        let s = EngineSpec::from_inline("name=m,algo=mcts,c=1", "othello").unwrap();
        assert_eq!(s.c, Some(1.0));
        let e = EngineSpec::from_inline("name=m,algo=mcts,c=wide", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("c must be a number"), "{e}");
        let e = EngineSpec::from_inline("name=m,iterations=5", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("only for algo"), "{e}");
        let e = EngineSpec::from_inline("name=m,algo=mcts,threads=0", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("threads must be"), "{e}");
        let e = EngineSpec::from_inline("name=m,algo=mcts,iterations=0", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("iterations must be"), "{e}");
    }

    #[test]
    fn mcts_history_and_playout_fields() {
        let s = EngineSpec::from_inline("name=m,algo=mcts,history=0.5,playout=corners", "othello")
            .unwrap();
        assert_eq!(
            (s.history, s.playout.as_deref()),
            (Some(0.5), Some("corners"))
        );
        let e = EngineSpec::from_inline("name=m,algo=mcts,playout=greedy", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown playout 'greedy'"), "{e}");
        let e = EngineSpec::from_inline("name=m,playout=corners", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("only for algo"), "{e}");
        let e = EngineSpec::from_inline("name=m,algo=mcts,history=-1", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("history must be"), "{e}");
    }

    #[test]
    fn multi_player_algorithms() {
        for (i, name) in Algorithm::NAMES.iter().enumerate() {
            let s = EngineSpec::from_inline(&format!("name=x,algo={name}"), "talat").unwrap();
            assert_eq!(s.algo.multi().is_some(), i >= 2, "{name}");
            assert_eq!(s.algo.name(), *name);
            if let Some(m) = s.algo.multi() {
                assert_eq!(m.name(), *name);
                assert_eq!(s.limits().depth, Some(6));
            }
        }
        let s = EngineSpec::from_toml(
            "name = \"p\"\ngame = \"talat\"\nalgo = \"maxn\"\ndepth = 4\ntime-ms = 50\n",
            "p.toml",
        )
        .unwrap();
        assert_eq!(
            (s.algo, s.algo.multi(), s.depth, s.time_ms),
            (Algorithm::Maxn, Some(MultiAlgo::MaxN), Some(4), Some(50))
        );
        let e = EngineSpec::from_inline("name=x,algo=maxx", "talat")
            .unwrap_err()
            .to_string();
        for name in Algorithm::NAMES {
            assert!(e.contains(name), "{e}");
        }
        let e = EngineSpec::from_inline("name=x,algo=brs,exact-empties=3", "talat")
            .unwrap_err()
            .to_string();
        assert!(e.contains("exact-empties is only for"), "{e}");
        let e = EngineSpec::from_inline("name=x,algo=paranoid,threads=2", "talat")
            .unwrap_err()
            .to_string();
        assert!(e.contains("one thread"), "{e}");
        let e = EngineSpec::from_inline("name=x,algo=maxn,iterations=9", "talat")
            .unwrap_err()
            .to_string();
        assert!(e.contains("only for algo"), "{e}");
        assert!(EngineSpec::from_inline("name=x,algo=brs,threads=1", "talat").is_ok());
    }

    #[test]
    fn clock_fields() {
        let s = EngineSpec::from_inline("name=x,tc=40/1:30+0.5,timemargin=50", "othello").unwrap();
        assert_eq!(s.tc.unwrap().to_string(), "40/90+0.5");
        assert_eq!(s.timemargin, Some(50));
        // A clock is a limit: no default depth.
        assert_eq!(s.limits().depth, None);
        let c = s.seat_clock().unwrap();
        assert_eq!(c.game_clock().remaining_ms, 90_000);
        let s = EngineSpec::from_toml("name = \"p\"\ngame = \"othello\"\nst = 0.25\n", "p.toml")
            .unwrap();
        assert_eq!(s.seat_clock().unwrap().game_clock().remaining_ms, 250);
        let e = EngineSpec::from_inline("name=x,tc=abc", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("time control 'abc'"), "{e}");
        let e = EngineSpec::from_inline("name=x,tc=2+-1", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("increment must be 0 or more"), "{e}");
        let e = EngineSpec::from_inline("name=x,st=-1", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("st must be more than 0"), "{e}");
        let e = EngineSpec::from_inline("name=x,st=1,tc=1", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not both"), "{e}");
        let e = EngineSpec::from_inline("name=x,timemargin=5", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs a clock"), "{e}");
        // The spec round-trips through tournament.json.
        let s = EngineSpec::from_inline("name=x,tc=2+0.05", "othello").unwrap();
        let j = serde_json::to_string(&s).unwrap();
        assert!(j.contains("\"tc\":\"2+0.05\""), "{j}");
        assert_eq!(serde_json::from_str::<EngineSpec>(&j).unwrap(), s);
    }

    #[test]
    fn inline_specs_and_errors() {
        let s = EngineSpec::from_inline("name=x,depth=6,tt-mb=4", "othello").unwrap();
        assert_eq!(
            (s.name.as_str(), s.depth, s.tt_mb, s.game.as_str()),
            ("x", Some(6), 4, "othello")
        );
        let e = EngineSpec::from_inline("name=x,dpth=6", "othello")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown field 'dpth'") && e.contains("depth"),
            "{e}"
        );
        let e = EngineSpec::from_inline("name=x,depth=six", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("whole number"), "{e}");
        let e = EngineSpec::from_inline("name=x,protocol=gtp", "othello")
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs a command"), "{e}");
        let e = EngineSpec::from_toml("name = \"a\"\ngame = \"othello\"\nspeed = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("speed") && e.contains("valid fields"), "{e}");
        let e = EngineSpec::resolve("no-such-engine")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown engine 'no-such-engine'") && e.contains("othello-ab-d2"),
            "{e}"
        );
        // A file that is not a .toml preset is named as such, not as an unknown preset.
        let e = EngineSpec::resolve("Cargo.toml.bak-not-there")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("unknown engine"), "{e}");
        let e = EngineSpec::resolve("./README.md").unwrap_err().to_string();
        assert!(
            e.starts_with("engine './README.md' is a file but not a .toml"),
            "{e}"
        );
        let e = EngineSpec::resolve("README.md").unwrap_err().to_string();
        assert_eq!(
            e,
            "engine 'README.md' is a file but not a .toml preset (give a preset name, a path \
             ending in .toml, or an inline spec such as name=a,depth=6)"
        );
    }

    #[test]
    fn each_error_kind_from_a_bad_description() {
        use crate::game::files::FileError;
        use SpecError as E;
        let fields = FIELDS.join(", ");
        // Names and files.
        let e = EngineSpec::resolve("no-such-engine").unwrap_err();
        assert!(matches!(&e, E::UnknownEngine { name, .. } if name == "no-such-engine"));
        let shown = e.to_string();
        assert!(
            shown.starts_with("unknown engine 'no-such-engine' (known presets: ")
                && shown.ends_with(
                    ", othello-level-1 .. othello-level-60; or give a path to a .toml file)"
                ),
            "{shown}"
        );
        assert_eq!(
            EngineSpec::resolve("othello-level-61")
                .unwrap_err()
                .to_string(),
            "unknown engine 'othello-level-61': the level presets are othello-level-1 .. \
             othello-level-60"
        );
        let e = EngineSpec::resolve("README.md").unwrap_err();
        assert_eq!(
            e,
            E::NotAPreset {
                path: "README.md".into(),
                folder: false,
            }
        );
        // A folder is called one (the unit tests run in the crate's root, which has src/).
        for path in ["src", "src/", "./src"] {
            assert_eq!(
                EngineSpec::resolve(path).unwrap_err(),
                E::NotAPreset {
                    path: path.into(),
                    folder: true,
                }
            );
        }
        assert!(
            EngineSpec::resolve("src")
                .unwrap_err()
                .to_string()
                .starts_with("engine 'src' is a folder, not a preset (give a preset name")
        );
        // An empty name is said to be empty, without the list of presets.
        for name in ["", " "] {
            let e = EngineSpec::resolve(name).unwrap_err();
            assert!(matches!(&e, E::UnknownEngine { name: n, .. } if n == name));
            assert_eq!(
                e.to_string(),
                "the engine name is empty (`tessera engines` lists the presets)"
            );
        }
        let e = EngineSpec::resolve("no/such.toml").unwrap_err();
        assert!(matches!(&e, E::File(FileError::Missing { .. })), "{e:?}");
        assert!(
            e.to_string()
                .starts_with("cannot read engine preset no/such.toml: "),
            "{e}"
        );
        // Syntax, keys and values, in a preset and inline.
        let e = EngineSpec::from_toml("name = \"a\"\nname = \"b\"\n", "t.toml").unwrap_err();
        assert!(matches!(e.root(), E::Syntax { line: Some(2), .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "engine preset t.toml line 2: duplicate key `name`"
        );
        let e = EngineSpec::from_inline("depth", "othello").unwrap_err();
        assert!(matches!(e.root(), E::Syntax { line: None, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("inline engine 'depth': 'depth' is not key=value (valid keys: {fields})")
        );
        let e = EngineSpec::from_inline("name=x,dpth=6", "othello").unwrap_err();
        assert!(matches!(e.root(), E::UnknownKey { key, .. } if key == "dpth"));
        assert_eq!(
            e.to_string(),
            format!("inline engine 'name=x,dpth=6': unknown field 'dpth' (valid fields: {fields})")
        );
        let e = EngineSpec::from_toml("name = \"a\"\nspeed = 3\n", "t.toml").unwrap_err();
        assert!(matches!(e.root(), E::UnknownKey { key, .. } if key == "speed"));
        assert_eq!(
            e.to_string(),
            format!("engine preset t.toml: unknown field `speed` (valid fields: {fields})")
        );
        let e = EngineSpec::from_toml("game = \"othello\"\n", "t.toml").unwrap_err();
        assert!(
            matches!(e.root(), E::MissingKey { key, .. } if key == "name"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("engine preset t.toml: missing field `name` (valid fields: {fields})")
        );
        let e = EngineSpec::from_inline("depth=3,depth=4", "othello").unwrap_err();
        assert_eq!(
            e.root(),
            &E::DuplicateKey {
                key: "depth".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "inline engine 'depth=3,depth=4': depth is given twice"
        );
        let e = EngineSpec::from_inline("name=x,depth=six", "othello").unwrap_err();
        assert!(matches!(e.root(), E::BadValue { key: Some(k), .. } if k == "depth"));
        assert_eq!(
            e.to_string(),
            "inline engine 'name=x,depth=six': depth must be a whole number, got 'six'"
        );
        let e = EngineSpec::from_toml(
            "name = \"a\"\ngame = \"othello\"\ndepth = \"two\"\n",
            "p.toml",
        )
        .unwrap_err();
        assert!(
            matches!(e.root(), E::BadValue { key: Some(k), .. } if k == "depth"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "engine preset p.toml: depth: invalid type: string \"two\", expected a whole number"
        );
        let e = EngineSpec::from_inline("name=x,st=1,tc=1", "othello").unwrap_err();
        assert!(matches!(e.root(), E::Conflict { .. }));
        assert_eq!(
            e.to_string(),
            "inline engine 'name=x,st=1,tc=1': give tc (a game clock) or st (a time per move), \
             not both"
        );
        // Games, and a named engine changed.
        let e = EngineSpec::front_end_default("chess").unwrap_err();
        assert_eq!(
            e,
            E::UnknownGame {
                game: "chess".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown game 'chess' (games: othello, quixo, quixo-4p, talat, talat-2p)"
        );
        // A spec may name any game (a library user's own); used for one of tessera's games,
        // a game tessera does not know is said to be unknown, listing the games.
        let chess = EngineSpec::from_inline("name=a,game=chess", "othello").unwrap();
        let e = chess.expect_game("othello").unwrap_err();
        assert!(matches!(e.root(), E::UnknownGame { game } if game == "chess"));
        assert_eq!(
            e.to_string(),
            "engine 'a': unknown game 'chess' (games: othello, quixo, quixo-4p, talat, talat-2p)"
        );
        let q = EngineSpec::from_inline("name=q", "quixo").unwrap();
        let e = q.expect_game("othello").unwrap_err();
        assert!(matches!(&e, E::WrongGame { plays, .. } if plays == "quixo"));
        assert_eq!(e.to_string(), "engine 'q' plays quixo, not othello");
        let m = EngineSpec::from_inline("name=m,algo=mcts", "othello").unwrap();
        let e = m.with_level(5).unwrap_err();
        assert!(matches!(&e, E::InEngine { name, .. } if name == "m"));
        assert!(matches!(e.root(), E::Conflict { .. }));
        assert_eq!(
            e.to_string(),
            "engine 'm': level is for the built-in depth-limited searches (alphabeta and the \
             multi-player ones), not MCTS or external engines"
        );
    }
}
