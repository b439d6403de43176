//! `tessera.VecEnv` and `tessera.random_playouts`: many games stepped in Rust, in
//! parallel, with the GIL released; results as numpy arrays.

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use tessera::env::playout::random_playouts as playouts_of;
use tessera::env::{AnyVecEnv, StepBuffers};

use crate::arrays::{array, int64_vector};
use crate::errors::{parse_game, value_error};

/// A rayon pool of `threads` threads, or `None` for rayon's global pool.
fn pool(threads: Option<usize>) -> PyResult<Option<rayon::ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(0) => Err(value_error("threads must be at least 1")),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map(Some)
            .map_err(value_error),
    }
}

fn run<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// `n` random playouts of `game_id` from the start (seeded by `seed`): each seat's
/// points, float32 of shape `(n, seats)`.
#[pyfunction]
#[pyo3(signature = (game_id, n, seed=0, threads=None))]
pub fn random_playouts<'py>(
    py: Python<'py>,
    game_id: &str,
    n: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let id = parse_game(game_id)?;
    let pool = pool(threads)?;
    let seats = id.seats();
    let mut out = vec![0.0f32; n * seats];
    py.detach(|| {
        run(pool.as_ref(), || {
            tessera::for_game!(id, playouts_of(seed, &mut out));
        });
    });
    Ok(array(py, out, &[n, seats]))
}

/// `n` games of `game_id` stepped together (see the library's `env::vec_env`).
#[pyclass(module = "tessera")]
pub struct VecEnv {
    env: AnyVecEnv,
    pool: Option<rayon::ThreadPool>,
    obs: Vec<f32>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
    masks: Vec<bool>,
    to_move: Vec<i64>,
    game_id: &'static str,
}

type StepResult<'py> = (
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<bool>>,
);

impl VecEnv {
    fn buffers(&mut self) -> (&mut AnyVecEnv, Option<&rayon::ThreadPool>, StepBuffers<'_>) {
        (
            &mut self.env,
            self.pool.as_ref(),
            StepBuffers {
                obs: &mut self.obs,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
                masks: &mut self.masks,
                to_move: &mut self.to_move,
            },
        )
    }

    fn obs_shape(&self) -> Vec<usize> {
        let mut shape = vec![self.env.len()];
        shape.extend_from_slice(self.env.dims().obs_shape);
        shape
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game_id, n, seed=0, max_plies=1000, threads=None))]
    fn new(
        game_id: &str,
        n: usize,
        seed: u64,
        max_plies: u32,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let id = parse_game(game_id)?;
        if n == 0 {
            return Err(value_error("n must be at least 1"));
        }
        let env = AnyVecEnv::new(id, n, seed, max_plies);
        let d = env.dims();
        Ok(Self {
            env,
            pool: pool(threads)?,
            obs: vec![0.0; n * d.obs_size],
            rewards: vec![0.0; n * d.seats],
            dones: vec![false; n],
            masks: vec![false; n * d.action_size],
            to_move: vec![0; n],
            game_id: id.name(),
        })
    }

    /// The game id.
    #[getter]
    fn game_id(&self) -> &'static str {
        self.game_id
    }

    /// Number of games.
    #[getter]
    fn n(&self) -> usize {
        self.env.len()
    }

    /// Shape of one game's observation.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.env.dims().obs_shape.to_vec()
    }

    /// Number of actions.
    #[getter]
    fn action_size(&self) -> usize {
        self.env.dims().action_size
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.env.dims().seats
    }

    /// Starts every game again: `(observations, legal_masks)`.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<bool>>) {
        py.detach(|| {
            let (env, pool, mut buf) = self.buffers();
            run(pool, || env.reset(&mut buf));
        });
        let n = self.env.len();
        let size = self.env.dims().action_size;
        (
            array(py, self.obs.clone(), &self.obs_shape()),
            array(py, self.masks.clone(), &[n, size]),
        )
    }

    /// Plays one action per game (an integer array of shape `(n,)`), restarting finished
    /// games: `(observations, rewards, dones, legal_masks)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let actions = int64_vector(actions, self.env.len(), "actions")?;
        py.detach(|| {
            let (env, pool, mut buf) = self.buffers();
            run(pool, || env.step(&actions, &mut buf))
        })
        .map_err(value_error)?;
        let n = self.env.len();
        let d = self.env.dims();
        Ok((
            array(py, self.obs.clone(), &self.obs_shape()),
            array(py, self.rewards.clone(), &[n, d.seats]),
            array(py, self.dones.clone(), &[n]),
            array(py, self.masks.clone(), &[n, d.action_size]),
        ))
    }

    /// The seat to move in each game, int64 of shape `(n,)`.
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<i64>> {
        array(py, self.to_move.clone(), &[self.env.len()])
    }

    /// Game `i`'s position in its one-line form.
    fn position(&self, i: usize) -> PyResult<String> {
        if i >= self.env.len() {
            return Err(value_error(format!(
                "game {i} is outside 0..{}",
                self.env.len()
            )));
        }
        Ok(self.env.position(i))
    }
}
