//! `tessera._tessera`: the native module of the Python package `tessera`, a thin binding
//! over the library's `env` layer (games by id, observations, actions, the vectorised
//! environment, engines) and its data readers. No game logic lives here: every rule,
//! message and score comes from the library. The Python side (`python/tessera/`) re-exports
//! it and adds the PettingZoo and Gymnasium adapters.

mod args;
mod arrays;
mod data;
mod engines;
mod errors;
mod game;
mod interrupt;
mod vec_env;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _tessera(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<engines::Engine>()?;
    m.add_function(wrap_pyfunction!(game::game_ids, m)?)?;
    m.add_function(wrap_pyfunction!(vec_env::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(engines::best_move, m)?)?;
    m.add_function(wrap_pyfunction!(engines::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(engines::solve, m)?)?;
    m.add_function(wrap_pyfunction!(engines::engine_presets, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(errors::panic_for_test, m)?)?;
    m.add(
        "PanicException",
        m.py().get_type::<pyo3::panic::PanicException>(),
    )?;
    Ok(())
}
