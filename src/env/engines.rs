//! Engines by game id and position text: the best move, every move's score, and exact
//! solves, through the one engine builder ([`EngineSpec`], [`Players::make_player`]) with
//! moves and positions as text, for callers that choose the game at run time.

use crate::engine::analyze::{analyze_moves, rank};
use crate::engine::{EngineSpec, Players, Thought};
use crate::game::Game;
use crate::games::othello::endgame::Solver;
use crate::games::quixo::{self, ProveLimits, Verdict};
use crate::games::{GameId, othello};
use crate::search::{Limits, TranspositionTable};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which engine, and limits replacing the engine's own: `engine` is a preset name, a
/// `.toml` path or an inline spec (`algo=mcts,iterations=500`, see [`EngineSpec::resolve`]
/// and [`EngineSpec::from_inline`]); `None` is the game's default engine, the one
/// `bestmove`, `play`, `analyze` and the web page start from
/// ([`EngineSpec::front_end_default`]). With no limit here or in the spec, alpha-beta and
/// the multi-player searches stop at depth 6 ([`EngineSpec::limits`]), so answers repeat.
///
/// As `bestmove`'s flags: `level` and `depth` exclude each other, `level` with `time_ms`
/// searches to the level's depth within the time.
#[derive(Clone, Debug, Default)]
pub struct EngineChoice {
    /// Preset name, `.toml` path or inline spec.
    pub engine: Option<String>,
    /// Strength 1..=60 (as `bestmove --level`): replaces the engine's limits.
    pub level: Option<u32>,
    /// Depth limit, plies (1..=[`Limits::MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Time limit, milliseconds (at least 1).
    pub time_ms: Option<u64>,
    /// Raised by another thread to stop the search early (a user's interrupt): the search
    /// then answers with what it has.
    pub stop: Option<Arc<AtomicBool>>,
}

impl EngineChoice {
    /// Checks the limits as `bestmove` checks its flags.
    ///
    /// # Errors
    /// A depth or level outside 1..=60, a zero time, a level with a depth.
    pub fn check(&self) -> Result<(), String> {
        let max = Limits::MAX_DEPTH;
        if let Some(d) = self.depth
            && !(1..=max).contains(&d)
        {
            return Err(format!("depth must be in 1..={max} plies, got {d}"));
        }
        if let Some(level) = self.level {
            if !(1..=max).contains(&level) {
                return Err(format!("level must be in 1..={max}, got {level}"));
            }
            if self.depth.is_some() {
                return Err(format!(
                    "level {level} sets depth {level}: give level or depth, not both"
                ));
            }
        }
        if self.time_ms == Some(0) {
            return Err("time_ms must be at least 1, got 0".into());
        }
        Ok(())
    }
}

/// The engine spec `choice` names for game `id`.
///
/// # Errors
/// An unknown preset or malformed spec, a spec for another game, a level out of range.
pub fn engine_spec(id: GameId, choice: &EngineChoice) -> Result<EngineSpec, String> {
    choice.check()?;
    let mut spec = match choice.engine.as_deref() {
        Some(text) if text.contains('=') && !text.ends_with(".toml") => {
            EngineSpec::from_inline(text, id.name())?
        }
        Some(name) => EngineSpec::resolve(name)?,
        None => {
            let mut spec = EngineSpec::front_end_default(id.name())?;
            if choice.level.is_some() {
                // As `bestmove --level`: levels search full width (Multi-ProbCut only
                // where a preset asks for it).
                spec = spec.full_width();
            }
            spec
        }
    };
    spec.expect_game(id.name())?;
    if spec.algo == crate::engine::Algorithm::Mcts && choice.depth.is_some() {
        // As `bestmove --engine SPEC --depth N`: MCTS has no depth to limit.
        return Err(format!(
            "engine '{}' is an MCTS engine: depth is for alpha-beta and the multi-player \
             searches (MCTS takes time_ms, or iterations in its spec)",
            spec.name
        ));
    }
    if let Some(level) = choice.level {
        spec = spec.with_level(level)?;
    }
    if choice.depth.is_some() || choice.time_ms.is_some() {
        // A level's depth stays (`level` excludes `depth`): the time bounds it.
        if choice.level.is_none() {
            spec.depth = choice.depth;
        }
        spec.time_ms = choice.time_ms;
        spec.nodes = None;
    }
    Ok(spec)
}

/// What an engine found, with moves as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The move (`None` when the game is over).
    pub best_move: Option<String>,
    /// Score for the side to move, in `unit`.
    pub score: i32,
    /// Unit of `score` (`centi-discs`, ...).
    pub unit: &'static str,
    /// Whether `score` is exact (solved).
    pub exact: bool,
    /// Depth reached, plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, best move first.
    pub pv: Vec<String>,
}

fn found<M: std::fmt::Display>(t: &Thought<M>) -> Found {
    Found {
        best_move: t.best_move.as_ref().map(ToString::to_string),
        score: t.score,
        unit: t.unit,
        exact: t.exact,
        depth: t.depth,
        nodes: t.nodes,
        pv: t.pv.iter().map(ToString::to_string).collect(),
    }
}

fn position_of<G: Game>(position: Option<&str>) -> Result<G, String> {
    match position {
        Some(text) => text.parse::<G>().map_err(|e| e.to_string()),
        None => Ok(G::start()),
    }
}

/// The operations of [`AnyEngine`] over one position type.
trait DynEngine: Send {
    fn choose(
        &mut self,
        position: Option<&str>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<Found, String>;
    fn new_game(&mut self);
    fn name(&self) -> String;
}

/// A player of one game with its limits.
struct Seated<G: Game> {
    player: Box<dyn crate::engine::Player<G>>,
    limits: Limits,
}

impl<G: Players> DynEngine for Seated<G> {
    fn choose(
        &mut self,
        position: Option<&str>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<Found, String> {
        let pos = position_of::<G>(position)?;
        if pos.outcome().is_some() {
            return Err("the game is over: there is no move to search".into());
        }
        let limits = Limits {
            stop,
            ..self.limits.clone()
        };
        Ok(found(&self.player.choose(&pos, &limits)?))
    }
    fn new_game(&mut self) {
        self.player.new_game();
    }
    fn name(&self) -> String {
        self.player.name().to_string()
    }
}

fn seated<G: Players>(spec: &EngineSpec) -> Result<Box<dyn DynEngine>, String> {
    Ok(Box::new(Seated::<G> {
        player: G::make_player(spec)?,
        limits: spec.limits(),
    }))
}

/// An engine of a game chosen at run time, kept between moves (its transposition table
/// too), asked for moves by position text: an opponent for a learning agent.
pub struct AnyEngine {
    inner: Box<dyn DynEngine>,
    id: GameId,
}

impl AnyEngine {
    /// The engine `choice` names for game `id`.
    ///
    /// # Errors
    /// As [`engine_spec`], and an engine that cannot be built (an unreadable weights file,
    /// an external program that does not start).
    pub fn new(id: GameId, choice: &EngineChoice) -> Result<Self, String> {
        let spec = engine_spec(id, choice)?;
        Ok(Self {
            inner: crate::for_game!(id, seated(&spec))?,
            id,
        })
    }

    /// The game.
    #[must_use]
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The engine's name.
    #[must_use]
    pub fn name(&self) -> String {
        self.inner.name()
    }

    /// Forgets what previous games taught it (clears the table).
    pub fn new_game(&mut self) {
        self.inner.new_game();
    }

    /// The engine's move in `position` (`None`: the start).
    ///
    /// # Errors
    /// A malformed position, a finished game, or the engine's failure.
    pub fn choose(&mut self, position: Option<&str>) -> Result<Found, String> {
        self.inner.choose(position, None)
    }

    /// [`AnyEngine::choose`] that stops early (answering with what it has) once `stop` is
    /// raised by another thread.
    ///
    /// # Errors
    /// As [`AnyEngine::choose`].
    pub fn choose_until(
        &mut self,
        position: Option<&str>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<Found, String> {
        self.inner.choose(position, stop)
    }
}

fn every<G: Players>(
    position: Option<&str>,
    spec: &EngineSpec,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Vec<Found>, String> {
    let pos = position_of::<G>(position)?;
    let mut player = G::make_player(spec)?;
    let limits = Limits {
        stop,
        ..spec.limits()
    };
    let mut all = analyze_moves(player.as_mut(), &pos, &limits)?;
    rank(&mut all);
    Ok(all.iter().map(found).collect())
}

/// The best move of `position` (the game's one-line text; `None`: the start) by the engine
/// `choice` names.
///
/// # Errors
/// A bad engine choice or position, a finished game, or the engine's failure.
pub fn best_move(
    id: GameId,
    position: Option<&str>,
    choice: &EngineChoice,
) -> Result<Found, String> {
    AnyEngine::new(id, choice)?.choose_until(position, choice.stop.clone())
}

/// Every legal move's score, best first (see [`analyze_moves`]); two-sided games only.
///
/// # Errors
/// As [`best_move`], and a game of more than two sides.
pub fn analyze(
    id: GameId,
    position: Option<&str>,
    choice: &EngineChoice,
) -> Result<Vec<Found>, String> {
    let spec = engine_spec(id, choice)?;
    crate::for_game!(id, every(position, &spec, choice.stop.clone()))
}

/// Largest `max_plies` of [`solve`] (as `solve quixo --max-plies`).
pub const MAX_SOLVE_PLIES: u32 = 64;

/// An exact solve's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Othello: the exact final disc difference for the side to move (empties to the
    /// winner); `None` for Quixo, or when the time limit stopped the solve.
    pub score: Option<i32>,
    /// `win`, `loss`, `draw` for the side to move, or `unproven` (Quixo: nothing proven
    /// within the limits; Othello: stopped by the time limit).
    pub value: &'static str,
    /// Quixo: plies to the end with best play (exact or a bound, see
    /// [`quixo::Proof::plies_exact`]).
    pub plies: Option<u32>,
    /// A best move.
    pub best_move: Option<String>,
    /// Othello: the principal variation; Quixo: the best move alone.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `position` exactly: Othello to the end of the game (the endgame solver, one
/// thread, a 64 MiB table); Quixo by the proving search (df-pn) to `max_plies` plies
/// (default 9, as `tessera solve quixo`, at most 64). `time_ms` or a raised `stop` stops
/// the solve (the result is then `unproven`).
///
/// # Errors
/// A game without a solver here, a malformed position, a zero `time_ms`, `max_plies`
/// outside 1..=64 or given for Othello.
pub fn solve(
    id: GameId,
    position: &str,
    time_ms: Option<u64>,
    max_plies: Option<u32>,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Solved, String> {
    if time_ms == Some(0) {
        return Err("time_ms must be at least 1, got 0".into());
    }
    if let Some(m) = max_plies
        && !(1..=MAX_SOLVE_PLIES).contains(&m)
    {
        return Err(format!(
            "max_plies must be in 1..={MAX_SOLVE_PLIES}, got {m}"
        ));
    }
    match id {
        GameId::Othello => {
            if max_plies.is_some() {
                return Err(
                    "max_plies is for Quixo; Othello positions are solved to the end".into(),
                );
            }
            let pos: othello::Position = position
                .parse()
                .map_err(|e: crate::game::PositionError| e.to_string())?;
            let tt = TranspositionTable::try_new(64)?;
            let limits = Limits {
                time_ms,
                stop,
                ..Limits::default()
            };
            let sol = Solver::new(&tt, &limits).solve(&pos);
            let value = match sol.score {
                None => "unproven",
                Some(s) if s > 0 => "win",
                Some(s) if s < 0 => "loss",
                Some(_) => "draw",
            };
            Ok(Solved {
                score: sol.score,
                value,
                plies: None,
                best_move: sol.best_move.map(|m| m.to_string()),
                pv: sol.pv.iter().map(ToString::to_string).collect(),
                nodes: sol.nodes,
            })
        }
        GameId::Quixo => {
            let pos: quixo::Quixo = position
                .parse()
                .map_err(|e: crate::game::PositionError| e.to_string())?;
            let limits = ProveLimits {
                max_plies: max_plies.unwrap_or(9),
                time_ms,
                tt_mb: quixo::prove::DEFAULT_PROVE_TT_MB,
            };
            let proof = quixo::prove_dfpn_until(&pos, &limits, None, stop);
            let best = proof.best_move.map(|m| m.to_string());
            Ok(Solved {
                score: None,
                value: match proof.value {
                    Verdict::Win => "win",
                    Verdict::Loss => "loss",
                    Verdict::Draw => "draw",
                    Verdict::Unproven => "unproven",
                },
                plies: proof.plies,
                pv: best.iter().cloned().collect(),
                best_move: best,
                nodes: proof.nodes,
            })
        }
        other => Err(format!("solve supports othello and quixo, not {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_default_engine_and_a_move() {
        for id in GameId::ALL {
            let f = best_move(
                id,
                None,
                &EngineChoice {
                    depth: Some(2),
                    ..EngineChoice::default()
                },
            )
            .unwrap();
            assert!(f.best_move.is_some(), "{id}");
            assert_eq!(f.pv.first(), f.best_move.as_ref());
        }
    }

    #[test]
    fn presets_levels_and_bad_choices() {
        let c = |e: &str| EngineChoice {
            engine: Some(e.into()),
            ..EngineChoice::default()
        };
        let f = best_move(GameId::Othello, None, &c("othello-ab-d1")).unwrap();
        assert_eq!(f.depth, 1);
        let err = best_move(GameId::Quixo, None, &c("othello-ab-d1")).unwrap_err();
        assert!(err.contains("othello"), "{err}");
        let err = best_move(GameId::Othello, None, &c("no-such-engine")).unwrap_err();
        assert!(err.starts_with("unknown engine 'no-such-engine'"), "{err}");
        let mcts_depth = EngineChoice {
            engine: Some("algo=mcts,iterations=100".into()),
            depth: Some(3),
            ..EngineChoice::default()
        };
        let err = best_move(GameId::Othello, None, &mcts_depth).unwrap_err();
        assert!(
            err.contains("is an MCTS engine: depth is for alpha-beta"),
            "{err}"
        );
        let level = EngineChoice {
            level: Some(3),
            ..EngineChoice::default()
        };
        assert_eq!(best_move(GameId::Othello, None, &level).unwrap().depth, 3);
        let all = analyze(
            GameId::Othello,
            None,
            &EngineChoice {
                depth: Some(2),
                ..EngineChoice::default()
            },
        )
        .unwrap();
        assert_eq!(all.len(), 4);
        assert!(analyze(GameId::Talat, None, &EngineChoice::default()).is_err());
    }

    #[test]
    fn solves_match_published_values() {
        // FFO #40 (tests/data/othello/ffo-40-59.txt): +38 for Black, best move a2.
        let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let s = solve(GameId::Othello, ffo40, None, None, None).unwrap();
        assert_eq!((s.score, s.value), (Some(38), "win"));
        assert_eq!(s.best_move.as_deref(), Some("a2"));
        // The empty 3x3 Quixo board is a first-player win in 7 plies
        // (tests/data/quixo/solved.md).
        let empty3 = quixo::Quixo::empty(3).unwrap().to_string();
        let s = solve(GameId::Quixo, &empty3, None, None, None).unwrap();
        assert_eq!((s.value, s.plies), ("win", Some(7)));
        let err = solve(GameId::Talat, "x", None, None, None).unwrap_err();
        assert_eq!(err, "solve supports othello and quixo, not talat");
        let err = solve(GameId::Quixo, &empty3, None, Some(0), None).unwrap_err();
        assert_eq!(err, "max_plies must be in 1..=64, got 0");
        let err = solve(GameId::Othello, ffo40, Some(0), None, None).unwrap_err();
        assert_eq!(err, "time_ms must be at least 1, got 0");
    }

    #[test]
    fn limits_are_checked_as_bestmove_checks_them() {
        let c = |level, depth, time_ms| EngineChoice {
            level,
            depth,
            time_ms,
            ..EngineChoice::default()
        };
        let err = |ch: EngineChoice| best_move(GameId::Othello, None, &ch).unwrap_err();
        assert_eq!(
            err(c(None, Some(0), None)),
            "depth must be in 1..=60 plies, got 0"
        );
        assert_eq!(
            err(c(None, Some(61), None)),
            "depth must be in 1..=60 plies, got 61"
        );
        assert_eq!(
            err(c(Some(0), None, None)),
            "level must be in 1..=60, got 0"
        );
        assert_eq!(
            err(c(Some(5), Some(3), None)),
            "level 5 sets depth 5: give level or depth, not both"
        );
        assert_eq!(
            err(c(None, None, Some(0))),
            "time_ms must be at least 1, got 0"
        );
        // A level with a time keeps the level's depth, as `bestmove --level 3 --time-ms`.
        let spec = engine_spec(GameId::Othello, &c(Some(3), None, Some(60_000))).unwrap();
        assert_eq!((spec.depth, spec.time_ms), (Some(3), Some(60_000)));
        assert_eq!(
            best_move(GameId::Othello, None, &c(Some(3), None, Some(60_000)))
                .unwrap()
                .depth,
            3
        );
    }

    /// A search that would run for minutes returns soon after another thread raises the
    /// stop flag: alpha-beta (best move, every move's score), the Othello endgame solver
    /// and Quixo's df-pn.
    #[test]
    fn a_raised_stop_ends_long_searches() {
        use std::sync::atomic::Ordering;
        use std::time::{Duration, Instant};
        let stopped_after = |f: &dyn Fn(Arc<AtomicBool>)| {
            let stop = Arc::new(AtomicBool::new(false));
            let raiser = {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(200));
                    stop.store(true, Ordering::Relaxed);
                })
            };
            let t = Instant::now();
            f(stop);
            raiser.join().unwrap();
            t.elapsed()
        };
        // After the opening d3 c3 e6 d6 b2 f6 c6 e3: 52 empties, far beyond minutes to solve.
        let mid = "---------X--------XXO------XO------XO-----XOOO------------------ X";
        let deep = EngineChoice {
            depth: Some(30),
            ..EngineChoice::default()
        };
        let took = stopped_after(&|stop| {
            let ch = EngineChoice {
                stop: Some(stop),
                ..deep.clone()
            };
            let f = best_move(GameId::Othello, Some(mid), &ch).unwrap();
            assert!(f.best_move.is_some());
        });
        assert!(took < Duration::from_secs(5), "best_move took {took:?}");
        let took = stopped_after(&|stop| {
            let ch = EngineChoice {
                stop: Some(stop),
                ..deep.clone()
            };
            analyze(GameId::Othello, Some(mid), &ch).unwrap();
        });
        assert!(took < Duration::from_secs(5), "analyze took {took:?}");
        let took = stopped_after(&|stop| {
            let s = solve(GameId::Othello, mid, None, None, Some(stop)).unwrap();
            assert_eq!(s.value, "unproven");
        });
        assert!(
            took < Duration::from_secs(5),
            "the Othello solve took {took:?}"
        );
        let empty5 = quixo::Quixo::empty(5).unwrap().to_string();
        let took = stopped_after(&|stop| {
            let s = solve(GameId::Quixo, &empty5, None, Some(40), Some(stop)).unwrap();
            assert_eq!(s.value, "unproven");
        });
        assert!(
            took < Duration::from_secs(5),
            "the Quixo solve took {took:?}"
        );
    }
}
