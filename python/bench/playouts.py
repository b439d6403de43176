"""Random Othello playouts per second from Python: tessera against OpenSpiel (pyspiel) and
pgx, side by side in one process (docs/measurements.md has a run). Pin it to one core:

    taskset -c 0 python python/bench/playouts.py [--rounds 3]

Each engine plays whole games of uniformly random legal moves from the start; every figure
is games per CPU second of the process (all its threads: `time.process_time`, so a loaded
machine does not distort the ratios) and plies per CPU second, the best of `--rounds`
rounds. Libraries that are not installed are skipped (named in the output).
"""

import argparse
import os
import platform
import random
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np  # noqa: E402


def best_of(rounds, f):
    out = None
    for _ in range(rounds):
        r = f()
        if out is None or r[0] > out[0]:
            out = r
    return out


def tessera_game_loop(games):
    import tessera

    rng = random.Random(1)
    plies = 0
    t = time.process_time()
    for _ in range(games):
        g = tessera.Game("othello")
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))
            plies += 1
    s = time.process_time() - t
    return games / s, plies / s


def tessera_action_loop(games):
    import tessera

    rng = np.random.default_rng(1)
    plies = 0
    t = time.process_time()
    for _ in range(games):
        g = tessera.Game("othello")
        while not g.is_over():
            g.play_action(int(rng.choice(np.flatnonzero(g.legal_mask()))))
            plies += 1
    s = time.process_time() - t
    return games / s, plies / s


def tessera_playouts(game_id, games):
    import tessera

    t = time.process_time()
    tessera.random_playouts(game_id, games, seed=1, threads=1)
    s = time.process_time() - t
    return games / s, None


def tessera_vec_env(n, steps):
    import tessera

    env = tessera.VecEnv("othello", n, seed=1, threads=1)
    obs, masks = env.reset()
    rng = np.random.default_rng(1)
    done_games = 0
    t = time.process_time()
    for _ in range(steps):
        # A uniformly random legal action per game, chosen in numpy.
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        obs, rewards, dones, masks = env.step(actions)
        done_games += int(dones.sum())
    s = time.process_time() - t
    return done_games / s, n * steps / s


def tessera_vec_env_rust_actions(n, steps):
    import tessera

    env = tessera.VecEnv("othello", n, seed=1, threads=1)
    env.reset()
    done_games = 0
    t = time.process_time()
    for _ in range(steps):
        # A uniformly random legal action per game, drawn in Rust.
        obs, rewards, dones, masks = env.step(env.random_actions())
        done_games += int(dones.sum())
    s = time.process_time() - t
    return done_games / s, n * steps / s


def openspiel_loop(games):
    import pyspiel

    game = pyspiel.load_game("othello")
    rng = random.Random(1)
    plies = 0
    t = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    s = time.process_time() - t
    return games / s, plies / s


def pgx_batched(n, jitted):
    import jax
    import jax.numpy as jnp

    init, step = jitted
    key = jax.random.PRNGKey(1)
    t = time.process_time()
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, n))
    plies = 0
    while not bool(state.terminated.all()):
        key, sub = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(sub, logits, axis=1)
        state = step(state, actions)
        plies += n
    state.terminated.block_until_ready()
    s = time.process_time() - t
    return n / s, plies / s


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=300, help="games of the per-step loops")
    p.add_argument("--batch", type=int, default=1024, help="games of the batched runs")
    a = p.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, cpus allowed: {len(os.sched_getaffinity(0))}")
    rows = []
    try:
        import tessera

        print(f"tessera {tessera.__version__}")
        rows.append(("tessera Game, Python loop (move strings)", best_of(a.rounds, lambda: tessera_game_loop(a.games))))
        rows.append(("tessera Game, Python loop (actions, masks)", best_of(a.rounds, lambda: tessera_action_loop(a.games))))
        rows.append((f"tessera VecEnv n={a.batch}, numpy random actions", best_of(a.rounds, lambda: tessera_vec_env(a.batch, 120))))
        rows.append((f"tessera VecEnv n={a.batch}, random_actions", best_of(a.rounds, lambda: tessera_vec_env_rust_actions(a.batch, 120))))
        for gid in ("othello", "quixo", "quixo-4p", "talat", "talat-2p"):
            rows.append((f"tessera random_playouts {gid}", best_of(a.rounds, lambda gid=gid: tessera_playouts(gid, 20000))))
    except ImportError as e:
        print(f"tessera: not installed ({e})")
    try:
        import pyspiel

        print(f"open_spiel {getattr(pyspiel, '__version__', '?')}")
        rows.append(("OpenSpiel othello, Python loop", best_of(a.rounds, lambda: openspiel_loop(a.games))))
    except ImportError as e:
        print(f"open_spiel: not installed ({e})")
    try:
        import jax
        import pgx

        print(f"pgx {pgx.__version__}, jax {jax.__version__} ({jax.default_backend()})")
        env = pgx.make("othello")
        jitted = (jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)))
        pgx_batched(a.batch, jitted)  # compile
        rows.append((f"pgx othello n={a.batch}, jit+vmap", best_of(a.rounds, lambda: pgx_batched(a.batch, jitted))))
    except ImportError as e:
        print(f"pgx: not installed ({e})")
    print(f"{'':50} {'games/s':>12} {'plies/s':>12}")
    for name, (games, plies) in rows:
        plies_text = f"{plies:12.0f}" if plies is not None else f"{'-':>12}"
        print(f"{name:50} {games:12.1f} {plies_text}")


if __name__ == "__main__":
    main()
