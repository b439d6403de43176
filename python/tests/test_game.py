"""tessera.Game: moves, positions, undo, returns, observations and actions, all games."""

import copy

import numpy as np
import pytest

import tessera

IDS = ["othello", "quixo", "quixo-4p", "talat", "talat-2p"]
SHAPES = {
    "othello": [2, 8, 8],
    "quixo": [3, 5, 5],
    "quixo-4p": [5, 5, 5],
    "talat": [55, 3, 5, 5],
    "talat-2p": [55, 3, 5, 5],
}
ACTIONS = {"othello": 65, "quixo": 1876, "quixo-4p": 1876, "talat": 4426, "talat-2p": 4426}
SEATS = {"othello": 2, "quixo": 2, "quixo-4p": 4, "talat": 3, "talat-2p": 2}


def test_game_ids():
    assert tessera.game_ids() == IDS


def test_othello_start():
    g = tessera.Game("othello")
    assert g.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert g.to_move() == 0
    g.play("f5")
    assert g.position() == "---------------------------OX------XXX-------------------------- O"
    assert g.to_move() == 1
    assert g.returns() is None
    g.undo()
    assert g.position() == tessera.Game("othello").position()


@pytest.mark.parametrize("game_id", IDS)
def test_play_to_the_end_and_back(game_id):
    g = tessera.Game(game_id)
    assert g.seats() == SEATS[game_id]
    start = g.position()
    i = 0
    while not g.is_over() and g.plies() < 400:
        moves = g.legal_moves()
        mask = g.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (ACTIONS[game_id],)
        assert int(mask.sum()) == len(moves)
        for m in moves:
            a = g.move_to_action(m)
            assert mask[a]
            assert g.action_to_move(a) == m
        obs = g.observation()
        assert obs.dtype == np.float32 and list(obs.shape) == SHAPES[game_id]
        assert set(np.unique(obs)) <= {0.0, 1.0}
        g.play(moves[(i * 7) % len(moves)])
        i += 1
    if g.is_over():
        r = g.returns()
        assert len(r) == SEATS[game_id] and all(0.0 <= x <= 1.0 for x in r)
        assert g.legal_moves() == [] and not g.legal_mask().any()
        assert len(g.scores()) == SEATS[game_id]
    assert tessera.Game(game_id, g.position()).position() == g.position()
    c = g.clone()
    while g.plies():
        g.undo()
    assert g.position() == start
    assert c.position() != start
    assert copy.deepcopy(c).position() == c.position()


def test_othello_returns_are_tournament_points():
    # Black (X) to move plays a1, flipping b1: 64 Black discs, a win 64-0.
    g = tessera.Game("othello", "-O" + "X" * 62 + " X")
    assert g.legal_moves() == ["a1"]
    g.play("a1")
    assert g.is_over()
    assert g.scores() == [64, 0]
    assert g.returns() == [1.0, 0.0]
    # A draw: 32-32 with no empty square left is half a point each.
    draw = tessera.Game("othello", "X" * 32 + "O" * 32 + " X")
    assert draw.is_over() and draw.returns() == [0.5, 0.5]


def test_quixo_4p_teams_share_points():
    g = tessera.Game("quixo-4p")
    i = 0
    while not g.is_over() and g.plies() < 2000:
        moves = g.legal_moves()
        g.play(moves[(i * 13) % len(moves)])
        i += 1
    assert g.is_over()
    r = g.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] + r[1] == 1.0


def test_observation_is_from_the_side_to_move():
    g = tessera.Game("othello")
    obs = g.observation()
    assert obs[0].sum() == 2 and obs[1].sum() == 2
    # Black's d5 and e4: rank 5 / file d is [4, 3], rank 4 / file e is [3, 4].
    assert obs[0, 4, 3] == 1 and obs[0, 3, 4] == 1
    g.play("f5")
    obs = g.observation()
    assert obs[0].sum() == 1 and obs[1].sum() == 4
