"""Self-play data files and tournament records into numpy, read by the library's readers."""

import json

import numpy as np

import tessera


def test_read_selfplay(tmp_path):
    start = tessera.Game("othello")
    after = start.clone()
    after.play("f5")
    path = tmp_path / "data.txt"
    path.write_text(
        "# made by hand for this test\n"
        f"{start.position()}\t4\t-\n"
        f"{after.position()}\t-4\t-2\n"
    )
    d = tessera.read_selfplay("othello", path)
    assert d["obs"].shape == (2, 2, 8, 8) and d["obs"].dtype == np.float32
    assert (d["obs"][0] == start.observation()).all()
    assert (d["obs"][1] == after.observation()).all()
    assert list(d["to_move"]) == [0, 1]
    assert list(d["result"]) == [4, -4]
    assert list(d["exact"]) == [0, -2] and list(d["has_exact"]) == [False, True]
    assert d["positions"] == [start.position(), after.position()]
    assert "scores" not in d


def test_read_selfplay_with_every_seats_score(tmp_path):
    g = tessera.Game("talat")
    path = tmp_path / "talat.txt"
    path.write_text(f"{g.position()}\t5\t-\t10,5,0\n")
    d = tessera.read_selfplay("talat", path)
    assert d["scores"].tolist() == [[10, 5, 0]]
    assert d["obs"].shape == (1, 55, 3, 5, 5)


def record(i, moves, points, ranks, scores):
    return json.dumps(
        {
            "id": i, "block": 0, "round": i, "game": "othello", "seed": 1,
            "engines": ["a", "b"], "opening": "", "start": tessera.Game("othello").position(),
            "moves": moves, "scores": scores, "points": points, "ranks": ranks,
            "reason": "normal" if scores else "ply-cap", "seconds": 0.1,
        }
    )


def test_read_records(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(
        record(0, ["f5", "d6"], [1.0, 0.0], [1, 2], [40, 24]) + "\n"
        + record(1, ["d3"], [0.5, 0.5], [1, 1], []) + "\n"
    )
    d = tessera.read_records(path)
    assert d["game"] == "othello"
    assert d["points"].tolist() == [[1.0, 0.0], [0.5, 0.5]]
    assert d["scores"].tolist() == [[40, 24], [0, 0]]
    assert d["has_scores"].tolist() == [True, False]
    assert d["plies"].tolist() == [2, 1]
    assert d["reason"] == ["normal", "ply-cap"]
    assert d["moves"] == [["f5", "d6"], ["d3"]]
    assert "obs" not in d
    d = tessera.read_records(path, positions=True)
    assert d["obs"].shape == (3, 2, 8, 8)
    assert d["obs_game"].tolist() == [0, 0, 1]
    assert d["obs_to_move"].tolist() == [0, 1, 0]
    assert d["obs_points"].tolist() == [1.0, 0.0, 0.5]
    assert (d["obs"][0] == tessera.Game("othello").observation()).all()


def test_a_bad_move_in_a_record_is_named(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(record(0, ["f5", "a1"], [1.0, 0.0], [1, 2], [40, 24]) + "\n")
    import pytest

    with pytest.raises(ValueError, match=r"line 1: move 2: "):
        tessera.read_records(path, positions=True)
