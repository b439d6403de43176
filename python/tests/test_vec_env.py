"""tessera.VecEnv and tessera.random_playouts: shapes, determinism, agreement with Game."""

import numpy as np
import pytest

import tessera

IDS = tessera.game_ids()


def first_legal(masks):
    return masks.argmax(axis=1)


@pytest.mark.parametrize("game_id", IDS)
def test_vec_env_matches_games_played_alone(game_id):
    n = 6
    env = tessera.VecEnv(game_id, n, seed=3, max_plies=300)
    obs, masks = env.reset()
    assert obs.shape == (n, *env.observation_shape) and obs.dtype == np.float32
    assert masks.shape == (n, env.action_size) and masks.dtype == np.bool_
    games = [tessera.Game(game_id, env.position(i)) for i in range(n)]
    assert all((obs[i] == g.observation()).all() and (masks[i] == g.legal_mask()).all() for i, g in enumerate(games))
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(300):
        # A random legal action per game.
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, masks = env.step(actions)
        assert rewards.shape == (n, env.seats)
        for i in range(n):
            games[i].play_action(int(actions[i]))
            if dones[i]:
                finished += 1
                if games[i].is_over():
                    assert list(rewards[i]) == games[i].returns()
                else:
                    assert (rewards[i] == 0.5).all()  # cut at max_plies: a draw
                games[i] = tessera.Game(game_id, env.position(i))
                # The new game's planes and mask: every value is written (the arrays
                # start uninitialised).
                assert (obs[i] == games[i].observation()).all()
                assert (masks[i] == games[i].legal_mask()).all()
            else:
                assert (rewards[i] == 0).all()
                assert games[i].position() == env.position(i)
                assert (obs[i] == games[i].observation()).all()
                assert (masks[i] == games[i].legal_mask()).all()
        assert list(env.to_move()) == [g.to_move() for g in games]
    assert finished > 0


def test_vec_env_is_reproducible_and_thread_count_free():
    def run(threads):
        env = tessera.VecEnv("othello", 16, seed=9, threads=threads)
        obs, masks = env.reset()
        total = np.zeros((16, 2), dtype=np.float32)
        for _ in range(200):
            obs, rewards, dones, masks = env.step(first_legal(masks))
            total += rewards
        return total, obs

    a, b = run(1), run(2)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()


@pytest.mark.parametrize("game_id", IDS)
def test_random_actions_are_legal_and_reproducible(game_id):
    def run(threads):
        env = tessera.VecEnv(game_id, 32, seed=4, threads=threads)
        obs, masks = env.reset()
        drawn = []
        for _ in range(60):
            actions = env.random_actions()
            assert actions.dtype == np.int64 and actions.shape == (32,)
            assert masks[np.arange(32), actions].all()
            drawn.append(actions)
            obs, rewards, dones, masks = env.step(actions)
        return np.stack(drawn)

    a = run(1)
    assert (a == run(2)).all()
    assert len(np.unique(a)) > 1


@pytest.mark.parametrize("game_id", IDS)
def test_random_playouts(game_id):
    seats = len(tessera.Game(game_id).returns() or [0] * tessera.Game(game_id).seats())
    r = tessera.random_playouts(game_id, 200, seed=1)
    assert r.shape == (200, seats) and r.dtype == np.float32
    assert ((r >= 0) & (r <= 1)).all()
    assert (r == tessera.random_playouts(game_id, 200, seed=1, threads=1)).all()
    # Points sum to seats * (seats - 1) / 2 / (seats - 1) = seats / 2 over the sides.
    sides = {"quixo-4p": 2}.get(game_id, seats)
    per_game = r.sum(axis=1) * (sides / seats)
    assert np.allclose(per_game, sides / 2)


def test_othello_random_playouts_favour_nobody_much():
    r = tessera.random_playouts("othello", 4000, seed=5)
    black = r[:, 0].mean()
    assert 0.4 < black < 0.6
