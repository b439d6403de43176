"""Engines and solvers through the library's one engine builder."""

import pytest

import tessera

FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"


@pytest.mark.parametrize("game_id", tessera.game_ids())
def test_best_move_is_legal(game_id):
    g = tessera.Game(game_id)
    f = tessera.best_move(game_id, g.position(), depth=2)
    assert f["move"] in g.legal_moves()
    assert f["pv"][0] == f["move"]
    assert f["depth"] >= 1 and f["nodes"] > 0 and isinstance(f["unit"], str)


def test_presets_levels_and_analysis():
    assert "othello-ab-d1" in tessera.engine_presets()
    assert tessera.best_move("othello", engine="othello-ab-d1")["depth"] == 1
    assert tessera.best_move("othello", level=2)["depth"] == 2
    assert tessera.best_move("othello", engine="algo=alphabeta,depth=3")["depth"] == 3
    moves = tessera.analyze("othello", depth=2)
    assert sorted(m["move"] for m in moves) == ["c4", "d3", "e6", "f5"]
    # The start is symmetric: every move scores the same.
    assert len({m["score"] for m in moves}) == 1


def test_solve_ffo_40():
    s = tessera.solve("othello", FFO40)
    assert (s["value"], s["score"], s["move"]) == ("win", 38, "a2")


def test_solve_quixo_3x3():
    # The empty 3x3 board is a first-player win in 7 plies (tests/data/quixo/solved.md).
    g = tessera.Game("quixo", ".../.../... X")
    s = tessera.solve("quixo", g.position())
    assert (s["value"], s["plies"]) == ("win", 7)
    assert s["move"] in g.legal_moves()


def test_engine_object_plays_a_game():
    e = tessera.Engine("othello", engine="othello-ab-d1")
    g = tessera.Game("othello")
    while not g.is_over():
        g.play(e.choose(g.position())["move"])
    assert sum(g.scores()) == 64
