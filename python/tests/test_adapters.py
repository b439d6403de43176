"""The PettingZoo AEC environments pass PettingZoo's own api_test for every game id; the
Gymnasium single-agent environment passes Gymnasium's env checker and plays to the end."""

import numpy as np
import pytest

import tessera

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test  # noqa: E402

import tessera.gym  # noqa: E402
import tessera.pettingzoo  # noqa: E402


@pytest.mark.parametrize("game_id", tessera.game_ids())
def test_pettingzoo_api_test(game_id):
    api_test(tessera.pettingzoo.env(game_id, max_cycles=200), num_cycles=300)


@pytest.mark.parametrize("game_id", tessera.game_ids())
def test_pettingzoo_random_game_rewards(game_id):
    env = tessera.pettingzoo.env(game_id, max_cycles=5000)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(-1.0 <= v <= 1.0 for v in total.values())
    if game_id in ("othello", "quixo", "talat-2p"):
        assert sum(total.values()) == pytest.approx(0.0)


def test_gymnasium_env_checker_and_a_game():
    from gymnasium.utils.env_checker import check_env

    check_env(tessera.gym.SingleAgentEnv("othello", opponent="othello-ab-d1", illegal="lose"), skip_render_check=True)
    env = tessera.gym.SingleAgentEnv("othello", opponent="othello-ab-d1", seat=1)
    with pytest.raises(ValueError, match=r"action 0 \(a1\) is not legal"):
        env.reset(seed=0)
        env.step(0)
    obs, info = env.reset(seed=0)
    assert (env.action_masks() == info["action_mask"]).all()
    assert env.unwrapped._game.to_move() == 1
    done = False
    reward = 0.0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        tessera.gym.SingleAgentEnv("othello", seat=2)


def test_gymnasium_actions_are_integers():
    env = tessera.gym.SingleAgentEnv("othello", opponent="othello-ab-d1")
    obs, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(TypeError):
        env.step(float(legal) + 0.5)
    env.step(np.int64(legal))  # a numpy integer is an integer
    lose = tessera.gym.SingleAgentEnv("othello", opponent="othello-ab-d1", illegal="lose")
    lose.reset(seed=0)
    obs, reward, terminated, truncated, info = lose.step(10_000)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, 10_000)
