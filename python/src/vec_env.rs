//! `tessera.VecEnv` and `tessera.random_playouts`: many games stepped in Rust, in
//! parallel, with the GIL released; results as numpy arrays.

use numpy::ndarray::IxDyn;
use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;

use tessera::env::playout::random_playouts as playouts_of;
use tessera::env::{AnyVecEnv, StepBuffers};

use crate::args::{MAX_GAMES, index, opt_u64, u64_in};
use crate::arrays::{array, int64_vector};
use crate::errors::{parse_game, value_error};

/// Most threads of a pool.
const MAX_THREADS: u64 = 1024;

/// Most plies of a game before `VecEnv` cuts it (as `selfplay --max-plies`).
const MAX_PLIES: u64 = 100_000;

/// `VecEnv`'s `max_plies` when not given.
const DEFAULT_MAX_PLIES: u64 = 1000;

/// A rayon pool of `threads` threads (1..=1024), or `None` for rayon's global pool.
fn pool(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<rayon::ThreadPool>> {
    match opt_u64(threads, "threads", 1, MAX_THREADS, "")? {
        None => Ok(None),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t as usize)
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
#[pyo3(signature = (game_id, n, seed=None, threads=None))]
pub fn random_playouts<'py>(
    py: Python<'py>,
    game_id: &str,
    n: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let id = parse_game(game_id)?;
    let n = u64_in(n, "n", 0, MAX_GAMES, "")? as usize;
    let seed = opt_u64(seed, "seed", 0, u64::MAX, "")?.unwrap_or(0);
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
    to_move: Vec<i64>,
    game_id: &'static str,
}

type Arr<'py, T> = Bound<'py, PyArrayDyn<T>>;

/// `step`'s result: observations, rewards, dones, legal masks.
type StepArrays<'py> = (Arr<'py, f32>, Arr<'py, f32>, Arr<'py, bool>, Arr<'py, bool>);

/// Fresh numpy arrays for one step's results, written in place by the library.
///
/// They are created uninitialised (numpy's `empty`): `reset` and `step` write every value
/// of all four before Python can see them (an illegal action returns an error and drops
/// them unseen). Zero-filling them first cost as many instructions as the step of 1024
/// Othello games itself (callgrind, docs/measurements.md).
struct Outputs<'py> {
    obs: Arr<'py, f32>,
    rewards: Arr<'py, f32>,
    dones: Arr<'py, bool>,
    masks: Arr<'py, bool>,
}

impl<'py> Outputs<'py> {
    fn new(py: Python<'py>, env: &AnyVecEnv) -> Self {
        let n = env.len();
        let d = env.dims();
        let mut obs_shape = vec![n];
        obs_shape.extend_from_slice(d.obs_shape);
        // SAFETY: plain-data element types (`f32`, `bool`), C-order; every element is
        // written by the library before any is read (see above).
        unsafe {
            Self {
                obs: PyArrayDyn::new(py, IxDyn(&obs_shape), false),
                rewards: PyArrayDyn::new(py, IxDyn(&[n, d.seats]), false),
                dones: PyArrayDyn::new(py, IxDyn(&[n]), false),
                masks: PyArrayDyn::new(py, IxDyn(&[n, d.action_size]), false),
            }
        }
    }
}

impl VecEnv {
    /// Runs `f` on the environment with the GIL released, writing into `out`'s arrays.
    fn with_buffers<R: Send>(
        &mut self,
        py: Python<'_>,
        out: &Outputs<'_>,
        f: impl FnOnce(&mut AnyVecEnv, &mut StepBuffers<'_>) -> R + Send,
    ) -> R {
        // SAFETY: the four arrays were just created by `Outputs::new` (C-contiguous, owned
        // by no one else: Python sees them only once this call returns), so these are the
        // only references to their data while the GIL is released.
        let (obs, rewards, dones, masks) = unsafe {
            (
                out.obs.as_slice_mut().expect("a new array is contiguous"),
                out.rewards
                    .as_slice_mut()
                    .expect("a new array is contiguous"),
                out.dones.as_slice_mut().expect("a new array is contiguous"),
                out.masks.as_slice_mut().expect("a new array is contiguous"),
            )
        };
        let (env, pool, to_move) = (&mut self.env, self.pool.as_ref(), &mut self.to_move);
        py.detach(move || {
            let mut buf = StepBuffers {
                obs,
                rewards,
                dones,
                masks,
                to_move,
            };
            run(pool, || f(env, &mut buf))
        })
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game_id, n, seed=None, max_plies=None, threads=None))]
    fn new(
        game_id: &str,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let id = parse_game(game_id)?;
        let n = u64_in(n, "n", 1, MAX_GAMES, "")? as usize;
        let seed = opt_u64(seed, "seed", 0, u64::MAX, "")?.unwrap_or(0);
        let max_plies =
            opt_u64(max_plies, "max_plies", 1, MAX_PLIES, "")?.unwrap_or(DEFAULT_MAX_PLIES) as u32;
        Ok(Self {
            env: AnyVecEnv::new(id, n, seed, max_plies),
            pool: pool(threads)?,
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
    fn reset<'py>(&mut self, py: Python<'py>) -> (Arr<'py, f32>, Arr<'py, bool>) {
        let out = Outputs::new(py, &self.env);
        self.with_buffers(py, &out, |env, buf| env.reset(buf));
        (out.obs, out.masks)
    }

    /// Plays one action per game (an integer array of shape `(n,)`), restarting finished
    /// games: `(observations, rewards, dones, legal_masks)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = int64_vector(actions, self.env.len(), "actions")?;
        let out = Outputs::new(py, &self.env);
        self.with_buffers(py, &out, |env, buf| env.step(&actions, buf))
            .map_err(value_error)?;
        Ok((out.obs, out.rewards, out.dones, out.masks))
    }

    /// A uniformly random legal action for each game's seat to move, int64 of shape
    /// `(n,)`, drawn in Rust (reproducible from the seed, whatever the thread count).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Arr<'py, i64> {
        let mut out = vec![0; self.env.len()];
        let (env, pool) = (&mut self.env, self.pool.as_ref());
        py.detach(|| run(pool, || env.random_actions(&mut out)));
        array(py, out, &[self.env.len()])
    }

    /// The seat to move in each game, int64 of shape `(n,)`.
    fn to_move<'py>(&self, py: Python<'py>) -> Arr<'py, i64> {
        array(py, self.to_move.clone(), &[self.env.len()])
    }

    /// Game `i`'s position in its one-line form.
    fn position(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.env.len();
        match index(i, "game")? {
            Ok(i) if usize::try_from(i).is_ok_and(|i| i < n) => Ok(self.env.position(i as usize)),
            Ok(i) => Err(value_error(format!("game {i} is outside 0..{n}"))),
            Err(text) => Err(value_error(format!("game {text} is outside 0..{n}"))),
        }
    }
}
