//! Data files into numpy: self-play data (`tessera selfplay`) and tournament records
//! (`games.jsonl`), read by the library's own readers; positions become observation
//! planes through the library's `AnyGame`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use tessera::env::AnyGame;
use tessera::games::GameId;
use tessera::tournament::folder;
use tessera::tuning::selfplay;

use crate::arrays::array;
use crate::errors::{os_error, parse_game, value_error};

/// `OSError` when `path` cannot be opened at all (missing, no permission).
fn check_readable(path: &Path) -> PyResult<()> {
    std::fs::File::open(path)
        .map(drop)
        .map_err(|e| os_error(format!("cannot read {}: {e}", path.display())))
}

/// Observation planes of `games` stacked: `(values, shape with the count first)`.
struct Planes {
    values: Vec<f32>,
    shape: Vec<usize>,
    count: usize,
}

impl Planes {
    fn new(id: GameId) -> PyResult<Self> {
        let g = AnyGame::new(id, None).map_err(value_error)?;
        let mut shape = vec![0];
        shape.extend_from_slice(g.obs_shape());
        Ok(Self {
            values: Vec::new(),
            shape,
            count: 0,
        })
    }

    fn push(&mut self, g: &AnyGame) {
        let size: usize = self.shape[1..].iter().product();
        let at = self.values.len();
        self.values.resize(at + size, 0.0);
        g.observe(&mut self.values[at..]);
        self.count += 1;
    }

    fn into_array<'py>(mut self, py: Python<'py>) -> Bound<'py, numpy::PyArrayDyn<f32>> {
        self.shape[0] = self.count;
        array(py, self.values, &self.shape)
    }
}

/// Reads a self-play data file of `game_id` into a dict of arrays: `obs` (N, *planes)
/// float32, `to_move` (N,) int64, `result` (N,) int32 (the final margin for the side to
/// move), `exact` (N,) int32 and `has_exact` (N,) bool, `positions` (list of str), and
/// `scores` (N, seats) int32 when the file has every seat's score (three-player Talat).
#[pyfunction]
pub fn read_selfplay<'py>(
    py: Python<'py>,
    game_id: &str,
    path: PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    let id = parse_game(game_id)?;
    check_readable(&path)?;
    let samples = py
        .detach(|| selfplay::read_numbered_nonempty(&path))
        .map_err(value_error)?;
    let mut planes = Planes::new(id)?;
    let n = samples.len();
    let (mut to_move, mut result, mut exact, mut has_exact) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let mut positions = Vec::with_capacity(n);
    let all_scores = n > 0 && samples.iter().all(|(_, s)| s.scores.len() == id.seats());
    let mut scores = Vec::new();
    for (line, s) in &samples {
        let g = AnyGame::new(id, Some(&s.position))
            .map_err(|e| value_error(format!("data file {} line {line}: {e}", path.display())))?;
        planes.push(&g);
        to_move.push(g.to_move() as i64);
        result.push(s.result);
        exact.push(s.exact.unwrap_or(0));
        has_exact.push(s.exact.is_some());
        positions.push(s.position.clone());
        if all_scores {
            scores.extend_from_slice(&s.scores);
        }
    }
    let d = PyDict::new(py);
    d.set_item("obs", planes.into_array(py))?;
    d.set_item("to_move", array(py, to_move, &[n]))?;
    d.set_item("result", array(py, result, &[n]))?;
    d.set_item("exact", array(py, exact, &[n]))?;
    d.set_item("has_exact", array(py, has_exact, &[n]))?;
    d.set_item("positions", positions)?;
    if all_scores {
        d.set_item("scores", array(py, scores, &[n, id.seats()]))?;
    }
    Ok(d)
}

/// Reads a tournament folder (`DIR`, or its `DIR/games.jsonl`) through the library's one
/// folder reader, which checks every record against the settings and the rules as
/// `tessera tournament report` does, into a dict: per game `game` (the id), `engines`,
/// `reason`, `start`, `moves` (lists), `points` (G, seats) float32, `ranks` (G, seats)
/// int32, `scores` (G, seats) int32 with `has_scores` (G,) bool (games ended by the rules),
/// `plies` (G,) int64. With `positions=True` also every position before each move: `obs`
/// (P, *planes) float32, `obs_game` (P,) int64 (the game's row), `obs_to_move` (P,) int64
/// and `obs_points` (P,) float32 (the mover's points in that game).
#[pyfunction]
#[pyo3(signature = (path, positions=false))]
pub fn read_records<'py>(
    py: Python<'py>,
    path: PathBuf,
    positions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    check_readable(&path)?;
    let dir = if path.file_name().is_some_and(|f| f == "games.jsonl") && path.is_file() {
        path.parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    } else {
        path.clone()
    };
    let read = py.detach(|| folder::read(&dir)).map_err(value_error)?;
    if let Some(note) = &read.note {
        // What `tessera tournament report` prints on stderr (a torn last line, not counted).
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            &std::ffi::CString::new(note.as_str()).unwrap_or_default(),
            1,
        )?;
    }
    let recs = &read.records;
    let id = read.game;
    let seats = id.seats();
    let g = recs.len();
    let (mut points, mut ranks, mut scores) = (
        Vec::with_capacity(g * seats),
        Vec::with_capacity(g * seats),
        Vec::with_capacity(g * seats),
    );
    let (mut has_scores, mut plies) = (Vec::with_capacity(g), Vec::with_capacity(g));
    let mut planes = Planes::new(id)?;
    let (mut obs_game, mut obs_to_move, mut obs_points) = (Vec::new(), Vec::new(), Vec::new());
    for (row, r) in recs.iter().enumerate() {
        // The folder reader checked every record (seats, moves, points): a failure here
        // is a bug, named by the record.
        let at = |m: String| value_error(format!("{} game {}: {m}", dir.display(), r.id));
        if r.points.len() != seats || r.ranks.len() != seats {
            return Err(at(format!(
                "points and ranks need {seats} values, one per seat"
            )));
        }
        points.extend(r.points.iter().map(|&p| p as f32));
        ranks.extend(r.ranks.iter().map(|&k| k as i32));
        has_scores.push(r.scores.len() == seats);
        if r.scores.len() == seats {
            scores.extend_from_slice(&r.scores);
        } else {
            scores.extend(std::iter::repeat_n(0, seats));
        }
        plies.push(r.moves.len() as i64);
        if positions {
            let mut game = AnyGame::new(id, Some(&r.start)).map_err(|e| at(e.to_string()))?;
            for (k, mv) in r.moves.iter().enumerate() {
                planes.push(&game);
                obs_game.push(row as i64);
                let seat = game.to_move();
                obs_to_move.push(seat as i64);
                obs_points.push(r.points[seat] as f32);
                game.play(mv)
                    .map_err(|e| at(format!("move {}: {e}", k + 1)))?;
            }
        }
    }
    let d = PyDict::new(py);
    d.set_item("game", id.name())?;
    d.set_item(
        "engines",
        recs.iter().map(|r| r.engines.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "reason",
        recs.iter()
            .map(|r| {
                serde_json::to_value(r.reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "start",
        recs.iter().map(|r| r.start.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "moves",
        recs.iter().map(|r| r.moves.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item("points", array(py, points, &[g, seats]))?;
    d.set_item("ranks", array(py, ranks, &[g, seats]))?;
    d.set_item("scores", array(py, scores, &[g, seats]))?;
    d.set_item("has_scores", array(py, has_scores, &[g]))?;
    d.set_item("plies", array(py, plies, &[g]))?;
    if positions {
        let p = obs_game.len();
        d.set_item("obs", planes.into_array(py))?;
        d.set_item("obs_game", array(py, obs_game, &[p]))?;
        d.set_item("obs_to_move", array(py, obs_to_move, &[p]))?;
        d.set_item("obs_points", array(py, obs_points, &[p]))?;
    }
    Ok(d)
}
