//! `tessera.best_move`, `analyze`, `solve` and `Engine`: the library's engines by game id
//! and position text (the one engine builder, `EngineSpec` + `Players::make_player`), the
//! GIL released while they search.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use tessera::engine::EngineSpec;
use tessera::env::engines::{self, AnyEngine, EngineChoice, Found};

use crate::args::{MAX_TIME_MS, opt_u32, opt_u64};
use crate::errors::{parse_game, value_error};
use crate::interrupt::interruptible;

fn found_dict<'py>(py: Python<'py>, f: &Found) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("move", f.best_move.clone())?;
    d.set_item("score", f.score)?;
    d.set_item("unit", f.unit)?;
    d.set_item("exact", f.exact)?;
    d.set_item("depth", f.depth)?;
    d.set_item("nodes", f.nodes)?;
    d.set_item("pv", f.pv.clone())?;
    Ok(d)
}

type Arg<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// The engine choice of the arguments, their ranges checked (`ValueError` naming the
/// argument) and then the limits as `bestmove` checks its flags.
fn choice(
    engine: Option<String>,
    level: Arg<'_, '_>,
    time_ms: Arg<'_, '_>,
    depth: Arg<'_, '_>,
) -> PyResult<EngineChoice> {
    let max = tessera::search::Limits::MAX_DEPTH;
    let c = EngineChoice {
        engine,
        level: opt_u32(level, "level", 1, max, "")?,
        depth: opt_u32(depth, "depth", 1, max, " plies")?,
        time_ms: opt_u64(time_ms, "time_ms", 1, MAX_TIME_MS, "")?,
        stop: None,
    };
    c.check().map_err(value_error)?;
    Ok(c)
}

/// The best move of `position` (the game's one-line text; None: the start): a dict with
/// `move`, `score`, `unit`, `exact`, `depth`, `nodes`, `pv`.
#[pyfunction]
#[pyo3(signature = (game_id, position=None, level=None, time_ms=None, depth=None, engine=None))]
pub fn best_move<'py>(
    py: Python<'py>,
    game_id: &str,
    position: Option<String>,
    level: Arg<'_, 'py>,
    time_ms: Arg<'_, 'py>,
    depth: Arg<'_, 'py>,
    engine: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let id = parse_game(game_id)?;
    let c = choice(engine, level, time_ms, depth)?;
    let f = interruptible(py, |stop| {
        let c = EngineChoice {
            stop: Some(stop),
            ..c.clone()
        };
        engines::best_move(id, position.as_deref(), &c)
    })?
    .map_err(value_error)?;
    found_dict(py, &f)
}

/// Every legal move's score, best first (two-sided games): a list of dicts as
/// `best_move`'s, one per move.
#[pyfunction]
#[pyo3(signature = (game_id, position=None, level=None, time_ms=None, depth=None, engine=None))]
pub fn analyze<'py>(
    py: Python<'py>,
    game_id: &str,
    position: Option<String>,
    level: Arg<'_, 'py>,
    time_ms: Arg<'_, 'py>,
    depth: Arg<'_, 'py>,
    engine: Option<String>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let id = parse_game(game_id)?;
    let c = choice(engine, level, time_ms, depth)?;
    let all = interruptible(py, |stop| {
        let c = EngineChoice {
            stop: Some(stop),
            ..c.clone()
        };
        engines::analyze(id, position.as_deref(), &c)
    })?
    .map_err(value_error)?;
    all.iter().map(|f| found_dict(py, f)).collect()
}

/// Solves `position` exactly (Othello to the end; Quixo by df-pn within `max_plies`): a
/// dict with `value` (`win`, `loss`, `draw`, `unproven`), `score` (Othello discs),
/// `plies` (Quixo), `move`, `pv`, `nodes`.
#[pyfunction]
#[pyo3(signature = (game_id, position, time_ms=None, max_plies=None))]
pub fn solve<'py>(
    py: Python<'py>,
    game_id: &str,
    position: String,
    time_ms: Arg<'_, 'py>,
    max_plies: Arg<'_, 'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let id = parse_game(game_id)?;
    let time_ms = opt_u64(time_ms, "time_ms", 1, MAX_TIME_MS, "")?;
    let max_plies = opt_u32(max_plies, "max_plies", 1, engines::MAX_SOLVE_PLIES, "")?;
    let s = interruptible(py, |stop| {
        engines::solve(id, &position, time_ms, max_plies, Some(stop))
    })?
    .map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("value", s.value)?;
    d.set_item("score", s.score)?;
    d.set_item("plies", s.plies)?;
    d.set_item("move", s.best_move)?;
    d.set_item("pv", s.pv)?;
    d.set_item("nodes", s.nodes)?;
    Ok(d)
}

/// The engine presets' names (`engines/*.toml` of the working directory and the built-in
/// ones).
#[pyfunction]
pub fn engine_presets() -> Vec<String> {
    EngineSpec::known_presets()
}

/// An engine kept between moves (its table too): an opponent for a learning agent.
#[pyclass(module = "tessera")]
pub struct Engine {
    // A player is `Send` but not `Sync`: the lock makes the object shareable between
    // Python threads (one search at a time).
    engine: std::sync::Mutex<AnyEngine>,
}

impl Engine {
    fn lock(&self) -> std::sync::MutexGuard<'_, AnyEngine> {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (game_id, engine=None, level=None, time_ms=None, depth=None))]
    fn new(
        py: Python<'_>,
        game_id: &str,
        engine: Option<String>,
        level: Arg<'_, '_>,
        time_ms: Arg<'_, '_>,
        depth: Arg<'_, '_>,
    ) -> PyResult<Self> {
        let id = parse_game(game_id)?;
        let c = choice(engine, level, time_ms, depth)?;
        let engine = py.detach(|| AnyEngine::new(id, &c)).map_err(value_error)?;
        Ok(Self {
            engine: std::sync::Mutex::new(engine),
        })
    }

    /// The engine's name.
    #[getter]
    fn name(&self) -> String {
        self.lock().name()
    }

    /// The game id.
    #[getter]
    fn game_id(&self) -> &'static str {
        self.lock().id().name()
    }

    /// Forgets previous games (clears the table).
    fn new_game(&mut self) {
        self.lock().new_game();
    }

    /// The engine's move in `position`: a dict as `best_move`'s.
    #[pyo3(signature = (position=None))]
    fn choose<'py>(
        &mut self,
        py: Python<'py>,
        position: Option<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let engine = &self.engine;
        let f = interruptible(py, |stop| {
            engine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .choose_until(position.as_deref(), Some(stop))
        })?
        .map_err(value_error)?;
        found_dict(py, &f)
    }
}
