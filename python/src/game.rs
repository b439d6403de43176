//! `tessera.Game`: one game of any id (the library's `AnyGame`), with moves and positions
//! as the command line writes them, observations and legal masks as numpy arrays.

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use tessera::env::AnyGame;
use tessera::games::GameId;

use crate::args::index;
use crate::arrays::array;
use crate::errors::{parse_game, value_error};

/// The game ids, in the command line's order.
#[pyfunction]
pub fn game_ids() -> Vec<&'static str> {
    GameId::ALL.iter().map(|g| g.name()).collect()
}

/// A game of `game_id` from `position` (the game's one-line text) or the start.
#[pyclass(module = "tessera")]
#[derive(Clone)]
pub struct Game {
    pub(crate) game: AnyGame,
}

impl Game {
    /// The action argument as `i64`; an int beyond `i64` is refused with the library's
    /// message for an action outside the action space.
    fn action(&self, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        index(obj, "action")?.map_err(|text| {
            value_error(format!(
                "action {text} is outside the action space of {} (0..{})",
                self.game.id().name(),
                self.game.action_size()
            ))
        })
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game_id, position=None))]
    fn new(game_id: &str, position: Option<&str>) -> PyResult<Self> {
        let id = parse_game(game_id)?;
        Ok(Self {
            game: AnyGame::new(id, position).map_err(value_error)?,
        })
    }

    /// The game id (`othello`, ...).
    #[getter]
    fn game_id(&self) -> &'static str {
        self.game.id().name()
    }

    /// Number of seats.
    fn seats(&self) -> usize {
        self.game.seats()
    }

    /// The legal moves in the game's notation (empty when the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays `move` (ValueError with the game's message when malformed or illegal).
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        self.game.play(r#move).map_err(value_error)
    }

    /// Plays the move of action index `action`.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = self.action(action)?;
        self.game.play_action(a).map_err(value_error)
    }

    /// Takes back the last move (ValueError when there is none).
    fn undo(&mut self) -> PyResult<()> {
        if self.game.undo() {
            Ok(())
        } else {
            Err(value_error("there is no move to undo"))
        }
    }

    /// Moves played since the game was created.
    fn plies(&self) -> usize {
        self.game.plies()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The seat to move (0-based).
    fn to_move(&self) -> usize {
        self.game.to_move()
    }

    /// Each seat's points as tournaments score them (1 win, 0.5 draw, 0 loss for two
    /// sides), or None before the end.
    fn returns(&self) -> Option<Vec<f64>> {
        self.game.returns()
    }

    /// Each seat's final score in the game's unit, or None before the end.
    fn scores(&self) -> Option<Vec<i32>> {
        self.game.scores()
    }

    /// The position in the game's one-line form.
    fn position(&self) -> String {
        self.game.position()
    }

    /// A copy of the game (its history too).
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    /// The observation planes, float32, of shape `observation_shape()`.
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f32>> {
        let shape = self.game.obs_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        self.game.observe(&mut out);
        array(py, out, shape)
    }

    /// The shape of `observation()`.
    fn observation_shape(&self) -> Vec<usize> {
        self.game.obs_shape().to_vec()
    }

    /// The legal mask over the action space, bool, of shape `(action_size(),)`.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<bool>> {
        let n = self.game.action_size();
        let mut out = vec![false; n];
        self.game.legal_mask(&mut out);
        array(py, out, &[n])
    }

    /// Number of actions of the game's action space.
    fn action_size(&self) -> usize {
        self.game.action_size()
    }

    /// The action index of the legal move `move`.
    #[pyo3(signature = (r#move))]
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        self.game.move_to_action(r#move).map_err(value_error)
    }

    /// The move (text) of the legal action `action`.
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = self.action(action)?;
        self.game.action_to_move(a).map_err(value_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "tessera.Game({:?}, {:?})",
            self.game.id().name(),
            self.game.position()
        )
    }

    fn __str__(&self) -> String {
        self.game.position()
    }
}
