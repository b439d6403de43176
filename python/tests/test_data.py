"""Self-play data files and tournament records into numpy, read by the library's readers."""

import json
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

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


# A real tournament folder: `tessera tournament othello --engines othello-ab-d1,othello-ab-d2
# --rounds 1 --concurrency 1 --out DIR` (tournament.json and games.jsonl; two games).
TOURNAMENT = pathlib.Path(__file__).resolve().parent / "data" / "tournament"


def test_read_records():
    lines = [json.loads(l) for l in (TOURNAMENT / "games.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for path in (TOURNAMENT, TOURNAMENT / "games.jsonl", str(TOURNAMENT)):
        d = tessera.read_records(path)
        assert d["game"] == "othello"
        assert d["points"].tolist() == [r["points"] for r in lines]
        assert d["ranks"].tolist() == [r["ranks"] for r in lines]
        assert d["scores"].tolist() == [r["scores"] for r in lines]
        assert d["has_scores"].tolist() == [True, True]
        assert d["plies"].tolist() == [len(r["moves"]) for r in lines]
        assert d["reason"] == ["normal", "normal"]
        assert d["moves"] == [r["moves"] for r in lines]
        assert d["engines"] == [r["engines"] for r in lines]
        assert "obs" not in d
    d = tessera.read_records(TOURNAMENT, positions=True)
    plies = sum(len(r["moves"]) for r in lines)
    assert d["obs"].shape == (plies, 2, 8, 8)
    assert d["obs_game"].tolist() == [0] * len(lines[0]["moves"]) + [1] * len(lines[1]["moves"])
    g = tessera.Game("othello", lines[1]["start"])
    first = len(lines[0]["moves"])
    assert (d["obs"][first] == g.observation()).all()
    assert d["obs_to_move"][first] == g.to_move()
    assert d["obs_points"][first] == lines[1]["points"][g.to_move()]


def tampered(tmp_path):
    """The fixture with game 0's points swapped (its places unchanged)."""
    dir = tmp_path / "t"
    shutil.copytree(TOURNAMENT, dir)
    text = (dir / "games.jsonl").read_text()
    first, rest = text.split("\n", 1)
    assert '"points":[0.0,1.0]' in first
    (dir / "games.jsonl").write_text(first.replace('"points":[0.0,1.0]', '"points":[1.0,0.0]') + "\n" + rest)
    return dir


def test_a_tampered_record_is_refused_as_the_report_refuses_it(tmp_path):
    dir = tampered(tmp_path)
    expected = (
        f"{dir}/games.jsonl:1: game 0: points [1.0, 0.0] do not follow from places [2, 1] "
        "(expected [0.0, 1.0]); the file was edited or written by another tournament"
    )
    for path in (dir, dir / "games.jsonl"):
        with pytest.raises(ValueError) as e:
            tessera.read_records(path, positions=True)
        assert str(e.value) == expected
    # The same line as `tessera tournament report DIR` (after "error: "), when the binary
    # is built.
    exe = pathlib.Path(__file__).resolve().parents[2] / "target" / "release" / "tessera"
    if exe.exists():
        out = subprocess.run([str(exe), "tournament", "report", str(dir)], capture_output=True, text=True)
        assert out.returncode == 2
        assert out.stderr.strip() == f"error: {expected}"


def test_a_records_file_outside_a_tournament_folder_is_refused(tmp_path):
    path = tmp_path / "games.jsonl"
    shutil.copy(TOURNAMENT / "games.jsonl", path)
    with pytest.raises(ValueError, match=r"is not a tournament directory \(no .*tournament\.json\)$"):
        tessera.read_records(path)


def test_a_tournament_json_path_is_named_with_its_folder():
    path = TOURNAMENT / "tournament.json"
    expected = f"{path} is the settings file of a tournament, not its folder: give the folder, {TOURNAMENT}"
    with pytest.raises(ValueError) as e:
        tessera.read_records(path)
    assert str(e.value) == expected
    with pytest.raises(ValueError, match=r"is a file, not a tournament folder \(give the folder holding"):
        tessera.read_records(pathlib.Path(__file__))


def test_a_torn_last_line_is_not_counted_and_said(tmp_path):
    dir = tmp_path / "t"
    shutil.copytree(TOURNAMENT, dir)
    text = (dir / "games.jsonl").read_text()
    whole = len(text.splitlines())
    (dir / "games.jsonl").write_text(text + text.splitlines()[0][:40])
    with pytest.warns(UserWarning, match="cut short"):
        d = tessera.read_records(dir)
    assert len(d["points"]) == whole
