//! Library errors as Python exceptions: bad input (a game id, position, move, action,
//! engine name, data line) is `ValueError` with the library's one-line message; a file
//! that cannot be opened is `OSError`; a wrong argument type or dtype is `TypeError`. A
//! Rust panic (a bug) reaches Python as `tessera.PanicException`, never a crash.

use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use tessera::games::GameId;

/// `ValueError` with `message`.
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// `TypeError` with `message`.
pub fn type_error(message: impl std::fmt::Display) -> PyErr {
    PyTypeError::new_err(message.to_string())
}

/// `OSError` with `message`.
pub fn os_error(message: impl std::fmt::Display) -> PyErr {
    PyOSError::new_err(message.to_string())
}

/// The game of an id, or `ValueError` with the library's message listing the ids.
pub fn parse_game(text: &str) -> PyResult<GameId> {
    text.parse::<GameId>().map_err(value_error)
}

/// Panics with `message`: lets the tests show that a Rust panic surfaces as
/// `tessera.PanicException` and the interpreter goes on.
#[pyfunction]
#[pyo3(name = "_panic_for_test")]
pub fn panic_for_test(py: Python<'_>, message: &str) {
    let message = message.to_string();
    py.detach(move || panic!("{message}"));
}
